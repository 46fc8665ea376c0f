"""The writes the report tools own: monthly budgets.

They live beside the service layer (not in the tools) so every write still happens inside
`Ledger.write()` and the TUI, CLI and tools share one definition of each.
"""

from __future__ import annotations

from wilson.ledger.service import Ledger



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
