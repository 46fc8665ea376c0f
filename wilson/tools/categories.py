"""The category list: what a transaction, a budget or a rule can be filed under."""

from __future__ import annotations

from wilson.tools.registry import ToolContext, tool


@tool(
    description="""
    List the ledger's categories: name, parent, kind (expense, income or transfer) and how many
    posted transactions each holds. Use it to pick an exact category name before categorising,
    budgeting or adding a rule, or when the user asks what categories exist. Not for totals
    (spending_summary) or budgets (check_budgets).
    """,
)
def list_categories(ctx: ToolContext) -> dict:
    rows = ctx.ledger.query(
        """
        SELECT c.name, p.name AS parent, c.kind, COUNT(t.id) AS transactions
        FROM categories c
        LEFT JOIN categories p ON p.id = c.parent_id
        LEFT JOIN transactions t ON t.category_id = c.id AND t.pending = 0
        GROUP BY c.id ORDER BY COALESCE(p.name, c.name), c.parent_id IS NOT NULL, c.name
        """
    )
    return {"categories": rows, "count": len(rows), "covered": {"categories": len(rows)}}
