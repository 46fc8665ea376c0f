"""Rows of the `sessions` table: saved conversations, written through `Ledger.write()`."""

from __future__ import annotations

from wilson.ledger.service import Ledger

_NOW = "strftime('%Y-%m-%dT%H:%M:%SZ', 'now')"


def upsert_session(ledger: Ledger, session_id: str, title: str | None, model: str | None, messages: str) -> None:
    """Create the session or replace its messages (JSON text), keeping its creation time."""
    with ledger.write() as conn:
        conn.execute(
            f"""
            INSERT INTO sessions (id, title, model, messages) VALUES (?, ?, ?, ?)
            ON CONFLICT(id) DO UPDATE SET title = COALESCE(sessions.title, excluded.title),
                model = excluded.model, messages = excluded.messages, updated_at = {_NOW}
            """,
            (session_id, title, model, messages),
        )


def session_row(ledger: Ledger, session_id: str) -> dict | None:
    """The session with this id, or else the only one whose id starts with it."""
    row = ledger.query_one("SELECT * FROM sessions WHERE id = ?", (session_id,))
    if row is not None:
        return row
    matches = ledger.query("SELECT * FROM sessions WHERE id LIKE ? || '%' LIMIT 2", (session_id,))
    return matches[0] if len(matches) == 1 else None


def session_rows(ledger: Ledger, limit: int) -> list[dict]:
    """The most recently used sessions first, without their messages (only how many there are)."""
    return ledger.query(
        "SELECT id, title, model, json_array_length(messages) AS message_count, created_at, updated_at "
        "FROM sessions ORDER BY updated_at DESC, created_at DESC, id LIMIT ?",
        (limit,),
    )
