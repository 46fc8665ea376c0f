"""Subscriptions and bills: what recurs, what it costs a year, and what may be forgotten.

Detection rules are in `wilson.tools.cadence`. The "possibly forgotten" rule, for active series:
- `price_rose`: a subscription's price went up within the window: its latest steady price is above
  the one before, or its latest charge is above its steady price (a variable bill never rises);
- `duplicate_service`: another active fixed-price series from a different payee sits in the same
  category (two streaming services, two gyms);
- `nothing_else_from_merchant`: a fixed-price charge running for 6+ months with no other spending
  at that merchant, the shape of a subscription nobody uses.
A series with any of these flags is `possibly_forgotten`; the flags say why.
"""

from __future__ import annotations

from collections import Counter
from datetime import date, timedelta
from typing import Annotated

from wilson.ledger import Ledger
from wilson.tools.cadence import Series, find_series
from wilson.tools.common import Period, add_months, clamp_limit, covered, money, period, resolve_account
from wilson.tools.registry import ToolContext, tool

DEFAULT_YEARS = 2
LONG_RUNNING_DAYS = 180


def detect(
    ledger: Ledger, span: Period, today: date, account_id: int | None = None, active_since: date | None = None
) -> list[Series]:
    """Recurring series in `span` (optionally only those charging since `active_since`), with their flags."""
    series = find_series(ledger, span.start, span.end, account_id, active_since)
    payees_by_category: dict[int, set[str]] = {}
    for s in series:
        if s.active(today) and s.fixed() and s.category_id is not None:
            payees_by_category.setdefault(s.category_id, set()).add(s.payee.casefold())
    for s in series:
        if not s.active(today):
            continue
        if s.price_rise():
            s.flags.append("price_rose")
        if s.fixed() and len(payees_by_category.get(s.category_id, ())) > 1:
            s.flags.append("duplicate_service")
        if s.fixed() and s.payee_rows == len(s.charges) and (s.last - s.first).days >= LONG_RUNNING_DAYS:
            s.flags.append("nothing_else_from_merchant")
    return series


def describe(s: Series, today: date, names: dict[int, str], accounts: dict[int, str]) -> dict:
    active = s.active(today)
    item = {
        "payee": s.payee,
        "cadence": s.cadence.name,
        "typical_amount": money(s.typical, s.currency),
        "currency": s.currency,
        "last_amount": money(s.amounts[-1], s.currency),
        "last_date": s.last.isoformat(),
        "next_expected": next(s.expected_after(today - timedelta(days=s.cadence.tolerance))).isoformat() if active else None,
        "yearly_cost": money(s.typical * s.cadence.per_year, s.currency),
        "charges": len(s.charges),
        "first_date": s.first.isoformat(),
        "category": names.get(s.category_id) if s.category_id else None,
        "account": accounts.get(s.account_id),
        "active": active,
        "possibly_forgotten": bool(s.flags),
    }
    if s.flags:
        item["flags"] = list(s.flags)
    rise = s.price_rise() if "price_rose" in s.flags else None
    if rise:
        item["previous_amount"] = money(rise.before, s.currency)
        item["price_rose_on"] = rise.on.isoformat()
    if not active:
        item["missed_charges"] = s.missed(today)
    return item


@tool(
    description="""
    List recurring charges (subscriptions and bills) found from the transaction history: cadence
    (weekly, biweekly, monthly, quarterly, yearly), typical amount (a subscription's current
    price, a varying bill's median), last and next expected date, yearly cost at the typical
    amount, and flags for ones that may be forgotten (price rose, from previous_amount on
    price_rose_on; duplicate service in the same category; nothing else bought from that
    merchant). Use it for "what subscriptions do I have", "what are my bills", "what could I
    cancel". Defaults to the 2 years up to today (or end_date); inactive series (2+ missed
    charges) are left out unless include_inactive. Totals cover every active series even when
    the list is capped.
    """,
)
def list_recurring(
    ctx: ToolContext,
    start_date: Annotated[date | None, "first day of history to look at; default 2 years before end_date"] = None,
    end_date: Annotated[date | None, "last day of history to look at; default today"] = None,
    account: Annotated[str | None, "only this account"] = None,
    include_inactive: Annotated[bool, "also list series that stopped (2+ missed charges)"] = False,
    limit: Annotated[int | None, "at most this many series in the list"] = None,
) -> dict:
    account_row = resolve_account(ctx.ledger, account) if account else None
    start = start_date or add_months(end_date or ctx.today, -12 * DEFAULT_YEARS)
    span = period(start, end_date, ctx.today, default="all")
    as_of = min(ctx.today, span.end)
    series = detect(ctx.ledger, span, as_of, account_row["id"] if account_row else None)
    names = {row["id"]: row["name"] for row in ctx.ledger.categories()}
    accounts = {row["id"]: row["name"] for row in ctx.ledger.query("SELECT id, name FROM accounts")}
    shown = [s for s in series if include_inactive or s.active(as_of)]
    shown.sort(key=lambda s: (not s.active(as_of), s.typical * s.cadence.per_year))
    yearly: Counter[str] = Counter()
    for s in series:
        if s.active(as_of):
            yearly[s.currency] += s.typical * s.cadence.per_year
    cap = clamp_limit(limit)
    return {
        "recurring": [describe(s, as_of, names, accounts) for s in shown[:cap]],
        "count": len(shown),
        "active": sum(1 for s in series if s.active(as_of)),
        "inactive": sum(1 for s in series if not s.active(as_of)),
        "possibly_forgotten": sum(1 for s in series if s.flags),
        "yearly_cost_active": {cur: money(total, cur) for cur, total in sorted(yearly.items())},
        "truncated": len(shown) > cap,
        "covered": covered(span, sum(len(s.charges) for s in series), sorted({s.currency for s in series}),
                           account=account_row["name"] if account_row else None, include_inactive=include_inactive),
    }


def recurring_obligations(ledger: Ledger, today: date, until: date) -> list[dict]:
    """Expected recurring charges due from `today` to `until` (inclusive), soonest first.

    Based on the last 2 years of active series. A charge expected shortly before today (within
    the cadence's tolerance) that has not arrived yet is included as `overdue`. `amount_minor` is
    the typical charge in integer minor units, negative (an outflow), for exact arithmetic.
    """
    span = Period(add_months(today, -12 * DEFAULT_YEARS), today)
    names = {row["id"]: row["name"] for row in ledger.categories()}
    accounts = {row["id"]: row["name"] for row in ledger.query("SELECT id, name FROM accounts")}
    due = []
    for s in detect(ledger, span, today):
        if not s.active(today):
            continue
        for expected in s.expected_after(today - timedelta(days=s.cadence.tolerance)):
            if expected > until:
                break
            due.append({
                "date": expected.isoformat(),
                "overdue": expected < today,
                "payee": s.payee,
                "cadence": s.cadence.name,
                "amount": money(s.typical, s.currency),
                "amount_minor": s.typical,
                "currency": s.currency,
                "category": names.get(s.category_id) if s.category_id else None,
                "account": accounts.get(s.account_id),
            })
    return sorted(due, key=lambda item: (item["date"], item["payee"]))
