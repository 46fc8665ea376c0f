"""set_budget and check_budgets: monthly budgets per category, where a parent covers its children."""

from __future__ import annotations

from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Annotated

from wilson.ledger import budgets as budget_store
from wilson.tools.common import (
    Period, clamp_limit, covered, currency_code, money, month_end, month_start, resolve_category, to_minor_units,
)
from wilson.tools.registry import ToolContext, ToolError, tool
from wilson.tools.scope import Scope, flow_totals, percent, recounted


def _default_currency(ctx: ToolContext) -> str:
    """The currency most transactions are in (USD for an empty ledger)."""
    return ctx.ledger.scalar(
        "SELECT currency FROM transactions GROUP BY currency ORDER BY COUNT(*) DESC LIMIT 1"
    ) or "USD"


@tool(
    description="""
    Set or replace the monthly budget for a category (amount per month, in the given currency,
    default the ledger's main currency). A budget on a parent category covers its subcategories:
    a Food budget counts Groceries, Dining and Coffee. Use only when the user asks to set or
    change a budget; use check_budgets to see how budgets are going.
    """,
    changes_data=True,
)
def set_budget(
    ctx: ToolContext,
    category: Annotated[str, "category name"],
    amount: Annotated[Decimal, "budget per month, e.g. 600"],
    currency: Annotated[str | None, "ISO currency code (default: the ledger's main currency)"] = None,
) -> dict:
    row = resolve_category(ctx.ledger, category)
    if row["kind"] != "expense":
        article = "an" if row["kind"][0] in "aeiou" else "a"
        raise ToolError(f"{row['name']} is {article} {row['kind']} category; budgets are for spending categories")
    if amount < 0:
        raise ToolError("amount must not be negative")
    code = currency_code(ctx.ledger, currency) if currency else _default_currency(ctx)
    minor = to_minor_units(amount, code)
    replaced = budget_store.set_budget(ctx.ledger, row["id"], minor, code)
    result: dict = {"category": row["name"], "budget": money(minor, code), "currency": code, "per": "month"}
    if replaced:
        result["replaced"] = money(replaced["amount"], replaced["currency"])
    return result


@tool(
    description="""
    How each budget is going in a month (default: this month): budget, spent (net of refunds,
    posted rows only, subcategories included), remaining, share used, and for the current month
    a month-end projection at the pace so far (spent / days elapsed x days in month) with a
    status (under, on track to exceed, over). Use it for "how are my budgets", "am I over
    budget on food". Spending in other currencies than the budget's is reported, not converted.
    """
)
def check_budgets(
    ctx: ToolContext,
    month: Annotated[str | None, "the month to check, YYYY-MM or any date in it (default: this month)"] = None,
    category: Annotated[str | None, "only this budget's category"] = None,
    limit: Annotated[int | None, "most budgets to list (default 50)"] = None,
) -> dict:
    cap = clamp_limit(limit)
    day = _day_in(month) if month else ctx.today
    span = Period(month_start(day), month_end(day))
    only = resolve_category(ctx.ledger, category)["id"] if category else None
    budgets = ctx.ledger.query(
        "SELECT b.category_id, b.amount, b.currency, c.name FROM budgets b JOIN categories c ON c.id = b.category_id"
        " ORDER BY c.name"
    )
    if only is not None:
        budgets = [b for b in budgets if b["category_id"] == only]
    spent: dict[tuple[int | None, str], int] = {}
    scope = Scope(period=span)
    rows = flow_totals(ctx.ledger, scope, "category")
    count = sum(row["count"] for row in rows)
    count -= sum(recounted(ctx.ledger, scope, "category", count, lambda posting: ["all"]).values())  # split rows once
    for row in rows:
        if row["flow"] == "spending":
            key = (row["key"], row["currency"])
            spent[key] = spent.get(key, 0) - row["amount"]
    current = span.start <= ctx.today <= span.end
    trees = {b["category_id"]: ctx.ledger.category_with_children(b["category_id"]) for b in budgets}
    used = {b["category_id"]: sum(spent.get((cid, b["currency"]), 0) for cid in trees[b["category_id"]])
            for b in budgets}
    rows = [_budget_row(ctx, b, used[b["category_id"]], trees[b["category_id"]], spent, span, current)
            for b in budgets[:cap]]
    result: dict = {"budgets": rows, "month": span.start.isoformat()[:7], "count": len(budgets),
                    "over_budget": sum(1 for b in budgets if used[b["category_id"]] > b["amount"])}
    if not rows:
        result["note"] = "no budgets set" + (f" for {category}" if category else "") + "; set_budget creates one"
    if current:
        result["days_elapsed"] = ctx.today.day
        result["days_in_month"] = span.days
    result["covered"] = covered(span, count, sorted({b["currency"] for b in budgets}))
    return result


def _day_in(month: str) -> date:
    """A day in the month asked about: "2026-11" as asked, or any ISO date in it."""
    text = month.strip()
    try:
        return date.fromisoformat(text if len(text) > 7 else f"{text}-01")
    except ValueError:
        raise ToolError(f"month: {month!r} is not a month (YYYY-MM) or an ISO date (YYYY-MM-DD)") from None


def _budget_row(ctx: ToolContext, budget: dict, used: int, tree: list[int], spent: dict, span: Period,
                current: bool) -> dict:
    currency = budget["currency"]
    elsewhere = sorted({cur for (cid, cur), value in spent.items() if cid in tree and cur != currency and value})
    row: dict = {
        "category": budget["name"],
        "budget": money(budget["amount"], currency),
        "spent": money(used, currency),
        "remaining": money(budget["amount"] - used, currency),
        "used": percent(used, budget["amount"]),
        "currency": currency,
    }
    if current:
        days = ctx.today.day
        projected = (Decimal(used) * span.days / days).quantize(Decimal(1), rounding=ROUND_HALF_UP)
        row["projected"] = money(int(projected), currency)
        row["status"] = "over" if used > budget["amount"] else (
            "on track to exceed" if projected > budget["amount"] else "under")
    else:
        row["status"] = "over" if used > budget["amount"] else "under"
    if elsewhere:
        row["other_currency_spending"] = {
            cur: money(sum(spent.get((cid, cur), 0) for cid in tree), cur) for cur in elsewhere
        }
    return row
