"""The category list: what a transaction, a budget or a rule can be filed under."""

from __future__ import annotations

from wilson.tools.registry import ToolContext, tool


@tool(
    description="""
    List the ledger's categories: name, parent, kind (expense, income or transfer) and how many
    posted transactions each holds (a split transaction counts under each of its parts' categories,
    and under its own while part of its amount is left there). Use it to pick an exact category name before categorising,
    budgeting or adding a rule, or when the user asks what categories exist. Not for totals
    (spending_summary) or budgets (check_budgets).
    """,
)
def list_categories(ctx: ToolContext) -> dict:
    rows = ctx.ledger.query(
        """
        SELECT c.name, p.name AS parent, c.kind, IFNULL(f.postings, 0) AS transactions
        FROM categories c
        LEFT JOIN categories p ON p.id = c.parent_id
        LEFT JOIN (SELECT category_id, SUM(count) AS postings FROM monthly_flows GROUP BY category_id) f
               ON f.category_id = c.id  -- the maintained aggregate (db/003, db/009) counts posted postings
        ORDER BY COALESCE(p.name, c.name), c.parent_id IS NOT NULL, c.name
        """
    )
    return {"categories": rows, "count": len(rows), "covered": {"categories": len(rows)}}
