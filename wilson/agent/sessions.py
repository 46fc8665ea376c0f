"""Sessions: the conversation carried from one question to the next, saved in the ledger.

A session keeps only what the user and Wilson said to each other: each question and its final
answer. Tool calls and their results are not stored: they can be large, their figures go stale
as the ledger changes, and an answer that needs them again should fetch them fresh. Every run's
full working remains in its scratchpad file. Only the latest turns are replayed into the prompt
(`MAX_TURNS`), so a long session cannot crowd the ledger's data out of the context window.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field
from typing import Any

from wilson.ledger import Ledger
from wilson.ledger.sessions import session_row, session_rows, upsert_session

MAX_TURNS = 20
TITLE_CHARS = 60


class SessionNotFound(LookupError):
    """No saved session has that id; `str()` is a one-line message."""


@dataclass
class Session:
    id: str
    model: str | None = None
    title: str | None = None
    messages: list[dict[str, Any]] = field(default_factory=list)
    created_at: str | None = None
    updated_at: str | None = None

    def history(self, max_turns: int = MAX_TURNS) -> list[dict[str, Any]]:
        """The latest turns as chat messages, ready for `Agent.run(query, history)`."""
        return [dict(m) for m in self.messages[-2 * max_turns:]]

    def add_turn(self, query: str, answer: str) -> None:
        """Record a finished exchange (cancelled or failed runs are not turns)."""
        if self.title is None:
            flat = " ".join(query.split())
            self.title = flat if len(flat) <= TITLE_CHARS else flat[: TITLE_CHARS - 1] + "…"
        self.messages += [{"role": "user", "content": query}, {"role": "assistant", "content": answer}]


def new_session(model: str | None = None) -> Session:
    return Session(id=uuid.uuid4().hex[:12], model=model)


def save_session(ledger: Ledger, session: Session) -> None:
    upsert_session(ledger, session.id, session.title, session.model, json.dumps(session.messages, ensure_ascii=False))


def load_session(ledger: Ledger, session_id: str) -> Session:
    """A saved session by id (or an unambiguous prefix of one)."""
    row = session_row(ledger, session_id.strip())
    if row is None:
        raise SessionNotFound(f"there is no saved session {session_id!r}")
    return Session(
        id=row["id"], model=row["model"], title=row["title"], messages=json.loads(row["messages"]),
        created_at=row["created_at"], updated_at=row["updated_at"],
    )


def list_sessions(ledger: Ledger, limit: int = 50) -> list[dict[str, Any]]:
    """Recent sessions (id, title, model, message_count, created_at, updated_at), newest first."""
    return session_rows(ledger, limit)
