"""What the user asked Wilson to remember across sessions: notes, goals, commitments, preferences.

Memory holds intentions and context ("saving for a bike by June", "rent is split with Sam"), never
figures that go stale: a balance written down today is wrong tomorrow, and the agent must read
balances from the ledger. `looks_like_balance` is the guard the tool layer applies.
"""

from __future__ import annotations

import re

from wilson.ledger.db import LedgerError
from wilson.ledger.service import Ledger

KINDS = ("note", "goal", "commitment", "preference")
MAX_NOTE = 1000
MAX_MEMORIES = 500

_BALANCE = re.compile(
    r"\b(?:balance|i have|there is|there's|currently (?:have|holds?)|sitting at|available)\b[^.\n]{0,40}?"
    r"(?:[$€£¥]\s?\d|\d[\d,.]*\s?(?:usd|eur|gbp|dollars|euros|pounds)\b|\d[\d,.]*\s+in\b)",
    re.IGNORECASE,
)


def looks_like_balance(note: str) -> bool:
    """True for notes that record how much money is somewhere right now."""
    return bool(_BALANCE.search(note))


def add(ledger: Ledger, content: str, kind: str = "note") -> dict:
    content = " ".join(content.split())
    if not content:
        raise LedgerError("nothing to remember: the note is empty")
    if len(content) > MAX_NOTE:
        raise LedgerError(f"the note is {len(content)} characters; keep it under {MAX_NOTE}")
    if kind not in KINDS:
        raise LedgerError(f"kind must be one of {', '.join(KINDS)}")
    if ledger.scalar("SELECT COUNT(*) FROM memory") >= MAX_MEMORIES:
        raise LedgerError(f"memory is full ({MAX_MEMORIES} entries); forget some first")
    with ledger.write() as conn:
        existing = ledger.query_one("SELECT * FROM memory WHERE kind = ? AND content = ? COLLATE NOCASE", (kind, content))
        if existing:
            return existing | {"already_known": True}
        cur = conn.execute("INSERT INTO memory (kind, content) VALUES (?, ?)", (kind, content))
    return ledger.query_one("SELECT * FROM memory WHERE id = ?", (cur.lastrowid,))  # type: ignore[return-value]


def search(ledger: Ledger, query: str | None = None, kind: str | None = None) -> list[dict]:
    """Memories matching every word of `query` (case-insensitive), newest first; all when no query."""
    sql, params = "SELECT * FROM memory WHERE (? IS NULL OR kind = ?)", [kind, kind]
    for word in (query or "").split():
        escaped = word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        sql += " AND content LIKE ? ESCAPE '\\'"
        params.append(f"%{escaped}%")
    return ledger.query(sql + " ORDER BY created_at DESC, id DESC", params)


def forget(ledger: Ledger, memory_id: int) -> dict | None:
    row = ledger.query_one("SELECT * FROM memory WHERE id = ?", (memory_id,))
    if row:
        with ledger.write() as conn:
            conn.execute("DELETE FROM memory WHERE id = ?", (memory_id,))
    return row
