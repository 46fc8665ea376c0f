"""Loading many rows at once: the transactions table's indexes and triggers step aside meanwhile."""

from __future__ import annotations

import sqlite3
from contextlib import contextmanager
from typing import Iterator

BULK_ROWS = 5_000


def is_bulk(conn: sqlite3.Connection, count: int, ledger_share: float = 1) -> bool:
    """Whether writing `count` new rows is a bulk load: at least BULK_ROWS, into a ledger holding no
    more than `ledger_share` times as many. Then fresh indexes sorted once cost less than updating
    them row by row."""
    held = conn.execute("SELECT COALESCE(MAX(id), 0) FROM transactions").fetchone()[0]
    return count >= BULK_ROWS and count * ledger_share >= held


@contextmanager
def derived_structures_dropped(conn: sqlite3.Connection) -> Iterator[None]:
    """Drop the indexes and triggers on `transactions`, then create them again from their stored SQL.

    Sorting once is several times cheaper than a B-tree insert per row per index, and even a trigger
    whose WHEN clause skips a row costs a sub-program call per row. The caller does the triggers'
    work for the whole load (full-text index, monthly aggregate). Run it inside a transaction, so a
    failure rolls the DDL back with everything else.
    """
    derived = conn.execute(
        "SELECT type, name, sql FROM sqlite_master WHERE type IN ('index', 'trigger')"
        " AND tbl_name = 'transactions' AND sql IS NOT NULL"
    ).fetchall()
    for kind, name, _ in derived:
        conn.execute(f'DROP {kind.upper()} "{name}"')
    yield
    for _, _, sql in derived:
        conn.execute(sql)
