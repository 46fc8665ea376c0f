"""Loading many rows at once: the transactions table's indexes and triggers step aside meanwhile."""

from __future__ import annotations

import sqlite3
import threading
from contextlib import contextmanager
from typing import Callable, Iterator, TypeVar

T = TypeVar("T")

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


def in_background(work: Callable[[], T]) -> Callable[[], T]:
    """Start `work` (Python only, no SQL) in a second thread; call the result to wait for its value
    or exception. A bulk load groups its rows this way while SQLite rebuilds the indexes on the
    other core: SQLite lets go of the GIL while it works."""
    outcome: dict[str, T | BaseException] = {}

    def run() -> None:
        try:
            outcome["value"] = work()
        except BaseException as exc:  # handed to the waiting thread
            outcome["error"] = exc

    thread = threading.Thread(target=run, name="wilson-bulk", daemon=True)
    thread.start()

    def result() -> T:
        thread.join()
        if "error" in outcome:
            raise outcome["error"]  # type: ignore[misc]
        return outcome["value"]  # type: ignore[return-value]

    return result
