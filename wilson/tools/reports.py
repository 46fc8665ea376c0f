"""spending_summary and cash_flow: totals over a period, with spending, income and transfers apart.

Both read `flow_totals` (wilson.tools.scope), so they agree with each other and with
search_transactions on what a filter means, and with FLOW_SQL on what counts as spending.
Currencies are never summed together: every figure sits under its own currency.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from datetime import date
from typing import Annotated, Literal

from wilson.ledger import Ledger
from wilson.tools.common import Period, add_months, clamp_limit, covered, money, month_start, period, start_or_first
from wilson.tools.registry import ToolContext, tool
from wilson.tools.scope import Scope, build_scope, flow_totals, percent, recounted

UNCATEGORIZED = "Uncategorized"
GroupBy = Literal["category", "payee", "month", "account"]


class Names:
    """Display names for grouping keys; categories roll up to the top level (or below a filter)."""

    def __init__(self, ledger: Ledger, root_id: int | None, rollup: bool):
        rows = ledger.query("SELECT id, name, parent_id FROM categories")
        self.categories = {row["id"]: row for row in rows}
        self.accounts = {row["id"]: row["name"] for row in ledger.query("SELECT id, name FROM accounts")}
        self.root_id, self.rollup = root_id, rollup

    def category(self, category_id: int | None) -> tuple[str, str | None]:
        """(group name, parent name): with rollup, the ancestor just below the filter root (or top level)."""
        if category_id is None or category_id not in self.categories:
            return UNCATEGORIZED, None
        row = self.categories[category_id]
        if not self.rollup:
            parent = self.categories.get(row["parent_id"])
            return row["name"], parent["name"] if parent else None
        for _ in range(len(self.categories)):  # bounded: a parent cycle cannot loop forever
            if row["id"] == self.root_id or row["parent_id"] not in self.categories or row["parent_id"] == self.root_id:
                break
            row = self.categories[row["parent_id"]]
        return row["name"], None

    def group(self, group_by: str, key: object) -> tuple[str, str | None]:
        if group_by == "category":
            return self.category(key)  # type: ignore[arg-type]
        if group_by == "account":
            return self.accounts.get(key, f"account {key}"), None  # type: ignore[arg-type]
        return str(key), None


def _summarise(ledger: Ledger, scope: Scope, names: Names, group_by: str) -> dict[str, dict]:
    """Per currency: spending (positive = money out, net of refunds), income, transfers, spending groups,
    with counts of transactions (a split transaction once per group, however many parts it has there)."""
    out: dict[str, dict] = defaultdict(lambda: {"spending": 0, "income": 0, "transfers": 0, "transfer_count": 0,
                                                "count": 0, "groups": defaultdict(lambda: [0, 0, None])})
    rows = flow_totals(ledger, scope, group_by)
    for row in rows:
        block = out[row["currency"]]
        block["count"] += row["count"]
        if row["flow"] == "spending":
            block["spending"] -= row["amount"]
            name, parent = names.group(group_by, row["key"])
            group = block["groups"][name]
            group[0] -= row["amount"]
            group[1] += row["count"]
            group[2] = parent
        elif row["flow"] == "income":
            block["income"] += row["amount"]
        else:
            block["transfers"] += row["amount"]
            block["transfer_count"] += row["count"]
    counted = sum(row["count"] for row in rows)
    again = recounted(ledger, scope, group_by, counted, lambda posting: _count_labels(posting, names, group_by))
    for currency, block in out.items():
        block["count"] -= again[currency]
        block["transfer_count"] -= again[(currency, "transfer")]
        for name, group in block["groups"].items():
            group[1] -= again[(currency, "spending", name)]
    return out


def _count_labels(posting: dict, names: Names, group_by: str) -> list:
    """The counts `_summarise` keeps that a posting adds to: its currency's, and its transfers' or its group's."""
    currency, flow = posting["currency"], posting["flow"]
    if flow == "spending":
        return [currency, (currency, "spending", names.group(group_by, posting["key"])[0])]
    return [currency, (currency, "transfer")] if flow == "transfer" else [currency]


@tool(
    description="""
    Totals over a period (default: this month), grouped by category, payee, month or account, with
    spending kept apart from income and from transfers between the user's own accounts. `spending`
    is money out net of refunds, as a positive figure; pending rows never count. Grouping by
    category rolls subcategories into their top-level category (Groceries, Dining and Coffee into
    Food) unless rollup is false; with a category filter the groups are its subcategories.
    compare_previous adds the previous period of the same length with change and change %.
    Use it for "how much did I spend on X", "where does my money go", "top payees", month-by-month
    spending. Not for listing individual transactions (search_transactions) or income vs spending
    and savings rate (cash_flow). Each currency is reported separately, never summed.
    """
)
def spending_summary(
    ctx: ToolContext,
    start_date: Annotated[date | None, "first day, inclusive (default: first of this month; "
                                       "with only end_date: the first transaction)"] = None,
    end_date: Annotated[date | None, "last day, inclusive (default: today)"] = None,
    group_by: Annotated[GroupBy, "how to group spending"] = "category",
    account: Annotated[str | None, "only this account"] = None,
    category: Annotated[str | None, "only this category and its subcategories"] = None,
    rollup: Annotated[bool, "group subcategories under their parent (category grouping)"] = True,
    compare_previous: Annotated[bool, "also the previous period of the same length"] = False,
    limit: Annotated[int | None, "most groups to list per currency (default 50)"] = None,
) -> dict:
    cap = clamp_limit(limit)
    span = period(start_or_first(ctx.ledger, start_date, end_date), end_date, ctx.today)
    scope = build_scope(ctx.ledger, span, account=account, category=category)
    names = Names(ctx.ledger, scope.category_ids[0] if scope.category_ids else None, rollup)
    current = _summarise(ctx.ledger, scope, names, group_by)
    previous_span = span.previous() if compare_previous else None
    previous = _summarise(ctx.ledger, replace(scope, period=previous_span), names, group_by) if previous_span else {}
    blocks = [_currency_block(currency, current[currency], previous.get(currency), previous_span, group_by, cap)
              for currency in sorted(set(current) | set(previous))]
    result: dict = {"group_by": group_by, "by_currency": blocks}
    if previous_span:
        result["previous_period"] = previous_span.as_dict()
    if not blocks:
        result["note"] = "no posted transactions match this period and these filters"
    count = sum(block["count"] for block in current.values())
    result["covered"] = covered(span, count, sorted(current), group_by=group_by, **scope.filters)
    return result


def _currency_block(currency: str, now: dict, before: dict | None, previous_span: Period | None,
                    group_by: str, cap: int) -> dict:
    ordered = sorted(now["groups"].items(), key=lambda item: (item[0] if group_by == "month" else -item[1][0], item[0]))
    groups = []
    for name, (spent, count, parent) in ordered[:cap]:
        entry: dict = {"name": name, "spent": money(spent, currency), "transactions": count,
                       "share": percent(spent, now["spending"])}
        if parent:
            entry["parent"] = parent
        if before is not None and group_by != "month":
            entry.update(_change(spent, before["groups"][name][0] if name in before["groups"] else 0, currency))
        groups.append(entry)
    block: dict = {
        "currency": currency,
        "spending": money(now["spending"], currency),
        "income": money(now["income"], currency),
        "transfers_net": money(now["transfers"], currency),
        "transfer_transactions": now["transfer_count"],
        "groups": groups,
        "groups_count": len(ordered),
    }
    rest = ordered[cap:]
    if rest:
        block["not_listed"] = {"groups": len(rest), "spent": money(sum(g[1][0] for g in rest), currency)}
    if previous_span is not None:
        before = before or {"spending": 0, "income": 0}
        change = _change(now["spending"], before["spending"], currency)
        block["previous"] = {"spending": change["previous_spent"], "income": money(before["income"], currency),
                             "spending_change": change["change"], "spending_change_pct": change["change_pct"]}
    return block


def _change(now: int, before: int, currency: str) -> dict:
    return {"previous_spent": money(before, currency), "change": money(now - before, currency),
            "change_pct": percent(now - before, before) if before else None}


@tool(
    description="""
    Income versus spending per month over a period (default: the last 12 months including this
    one), with net (income - spending) and savings rate ((income - spending) / income) per month
    and in total. Transfers between the user's own accounts are excluded; refunds reduce spending.
    Use it for "am I saving money", "savings rate", "income vs expenses". Not for spending by
    category (spending_summary). Each currency is reported separately; `limit` caps the months
    listed (the newest are kept) while totals cover the whole period.
    """
)
def cash_flow(
    ctx: ToolContext,
    start_date: Annotated[date | None, "first day, inclusive (default: 11 months before this month; "
                                       "with only end_date: the first transaction)"] = None,
    end_date: Annotated[date | None, "last day, inclusive (default: today)"] = None,
    account: Annotated[str | None, "only this account"] = None,
    limit: Annotated[int | None, "most months to list (default 50)"] = None,
) -> dict:
    cap = clamp_limit(limit)
    span = period(start_or_first(ctx.ledger, start_date, end_date), end_date, ctx.today, default="year")
    scope = build_scope(ctx.ledger, span, account=account)
    totals, counts = monthly_flows(ctx.ledger, scope)
    months = _months(span)
    blocks = []
    for currency in sorted(totals):
        per_month = totals[currency]
        income = sum(m["income"] for m in per_month.values())
        spending = sum(m["spending"] for m in per_month.values())
        rows = [_month_row(month, per_month.get(month, {"income": 0, "spending": 0}), currency) for month in months]
        blocks.append({
            "currency": currency,
            "income": money(income, currency),
            "spending": money(spending, currency),
            "net": money(income - spending, currency),
            "savings_rate": percent(income - spending, income),
            "months": rows[-cap:],
            "months_count": len(rows),
        })
    result: dict = {"by_currency": blocks}
    if not blocks:
        result["note"] = "no posted transactions in this period"
    result["covered"] = covered(span, sum(counts.values()), sorted(totals), **scope.filters)
    return result


def monthly_flows(ledger: Ledger, scope: Scope) -> tuple[dict[str, dict[str, dict[str, int]]], dict[str, int]]:
    """{currency: {YYYY-MM: {"income", "spending"}}} (spending positive) and transactions used per currency."""
    totals: dict[str, dict[str, dict[str, int]]] = defaultdict(lambda: defaultdict(lambda: {"income": 0, "spending": 0}))
    counts: dict[str, int] = defaultdict(int)
    for row in flow_totals(ledger, scope, "month"):
        counts[row["currency"]] += row["count"]
        month = totals[row["currency"]][row["key"]]
        if row["flow"] == "income":
            month["income"] += row["amount"]
        elif row["flow"] == "spending":
            month["spending"] -= row["amount"]
    again = recounted(ledger, scope, "month", sum(counts.values()), lambda posting: [posting["currency"]])
    for currency, extra in again.items():
        counts[currency] -= extra
    return totals, counts


def _months(span: Period) -> list[str]:
    months, month = [], month_start(span.start)
    while month <= span.end:
        months.append(month.isoformat()[:7])
        month = add_months(month, 1)
    return months


def _month_row(month: str, figures: dict[str, int], currency: str) -> dict:
    income, spending = figures["income"], figures["spending"]
    return {"month": month, "income": money(income, currency), "spending": money(spending, currency),
            "net": money(income - spending, currency), "savings_rate": percent(income - spending, income)}
