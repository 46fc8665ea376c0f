"""The monthly aggregate (`monthly_flows`, db/003) for writes that bypass its per-row trigger.

Import batches and bulk loads skip the insert trigger (one grouped statement per batch is many
times faster than an upsert per row) and add their rows here instead.
"""

from __future__ import annotations

import sqlite3

_GROUPED_ROWS = """
INSERT INTO monthly_flows
SELECT substr(posted, 1, 7), account_id, IFNULL(category_id, 0), currency, transfer_id IS NOT NULL, amount > 0,
       SUM(amount), COUNT(*)
FROM transactions WHERE pending = 0 {rows}
GROUP BY 1, 2, 3, 4, 5, 6
ON CONFLICT DO UPDATE SET amount = amount + excluded.amount, count = count + excluded.count
"""


def add_batch_rows(conn: sqlite3.Connection, first_id: int, last_id: int) -> None:
    """Count freshly inserted batch rows (ids first..last) into the aggregate."""
    conn.execute(_GROUPED_ROWS.format(rows="AND batch_id IS NOT NULL AND id BETWEEN ? AND ?"), (first_id, last_id))


def rebuild_monthly_flows(conn: sqlite3.Connection) -> None:
    """Recompute the aggregate from the rows (bench/ledger_gen.py loads with the triggers dropped)."""
    conn.execute("DELETE FROM monthly_flows")
    conn.execute(_GROUPED_ROWS.format(rows=""))
