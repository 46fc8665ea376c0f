"""The writes the report tools own: monthly budgets and the monthly aggregate's rebuild.

They live beside the service layer (not in the tools) so every write still happens inside
`Ledger.write()` and the TUI, CLI and tools share one definition of each.
"""

from __future__ import annotations

import sqlite3

from wilson.ledger.service import Ledger

_REBUILD_MONTHLY_FLOWS = """
INSERT INTO monthly_flows
SELECT substr(posted, 1, 7), account_id, IFNULL(category_id, 0), currency, transfer_id IS NOT NULL, amount > 0,
       SUM(amount), COUNT(*)
FROM transactions WHERE pending = 0 GROUP BY 1, 2, 3, 4, 5, 6
"""


def set_budget(ledger: Ledger, category_id: int, amount: int, currency: str) -> dict | None:
    """Set (or replace) a category's monthly budget in minor units; returns the budget it replaced."""
    with ledger.write() as conn:
        previous = conn.execute(
            "SELECT amount, currency FROM budgets WHERE category_id = ?", (category_id,)
        ).fetchone()
        conn.execute(
            "INSERT INTO budgets (category_id, amount, currency) VALUES (?, ?, ?) ON CONFLICT (category_id) DO UPDATE"
            " SET amount = excluded.amount, currency = excluded.currency,"
            " updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')",
            (category_id, amount, currency),
        )
    return dict(previous) if previous else None


def rebuild_monthly_flows(conn: sqlite3.Connection) -> None:
    """Recompute the monthly aggregate from the rows, for bulk loads that bypassed its triggers.

    Runs on a bare connection inside the caller's transaction (bench/ledger_gen.py loads with the
    triggers dropped); the same statement backfills it in db/003_report_indexes.sql.
    """
    conn.execute("DELETE FROM monthly_flows")
    conn.execute(_REBUILD_MONTHLY_FLOWS)
