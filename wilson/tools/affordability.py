"""affordability_check: can the user afford an amount, with the evidence and its quality.

The verdict comes from explicit thresholds below, never from the model, and always travels with
a `data_quality` block so an answer can say how much to trust it.

Lump sum (`monthly_payment` false), with `left` = liquid balance - amount - recurring charges due
before the date, and runway = left / average monthly spending:
  - "not without debt": left < 0
  - "tight":            runway < TIGHT_MONTHS (3)
  - "manageable":       runway < COMFORTABLE_MONTHS (6), or the average month loses money
  - "comfortable":      otherwise
Monthly payment over `months`, with `margin` = average monthly net cash flow - payment:
  - "not without debt": margin < 0 and the balance cannot cover margin x months
  - "tight":            margin < 0 (savings cover it) or margin < TIGHT_MARGIN (10%) of income
  - "manageable":       margin < COMFORTABLE_MARGIN (25%) of income
  - "comfortable":      otherwise
"unknown" when no liquid balance is known or there is no complete month of history.
"""

from __future__ import annotations

import importlib
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import Annotated

from wilson.ledger.service import LIQUID_TYPES
from wilson.tools.balances import current_balance, known_balances
from wilson.tools.common import Period, add_months, covered, money, month_end, month_start, to_minor_units
from wilson.tools.registry import ToolContext, ToolError, tool
from wilson.tools.reports import monthly_flows
from wilson.tools.scope import Scope

TIGHT_MONTHS = 3
COMFORTABLE_MONTHS = 6
TIGHT_MARGIN = Decimal("0.10")
COMFORTABLE_MARGIN = Decimal("0.25")
HISTORY_MONTHS = 12
DEFAULT_HORIZON_DAYS = 30


@tool(
    description="""
    Can the user afford a purchase? Give `amount` (and optionally `by_date`), or a monthly cost
    with monthly_payment=true and `months`. Uses the current liquid balance (checking, savings,
    cash with a known balance), the average monthly net cash flow and spending over up to 12
    complete months, and recurring charges due before the date; returns the balance left, months
    of runway, a verdict (comfortable, manageable, tight, not without debt, unknown) from fixed
    thresholds, and a data_quality block that must be mentioned with the verdict. Use it for
    "can I afford X", "should I buy X". All figures are in one currency (default: the main one).
    """
)
def affordability_check(
    ctx: ToolContext,
    amount: Annotated[Decimal, "the price, or the monthly cost when monthly_payment is true"],
    by_date: Annotated[date | None, "when the money is needed (default: now)"] = None,
    monthly_payment: Annotated[bool, "amount is paid every month for `months` months"] = False,
    months: Annotated[int | None, "number of monthly payments (with monthly_payment)"] = None,
    currency: Annotated[str | None, "currency of amount (default: the main currency)"] = None,
) -> dict:
    if amount <= 0:
        raise ToolError("amount must be positive")
    if monthly_payment and (months is None or months < 1):
        raise ToolError("monthly_payment needs months (at least 1)")
    if by_date and by_date < ctx.today:
        raise ToolError(f"by_date {by_date} is in the past")
    balances = [row for row in known_balances(ctx.ledger) if row["type"] in LIQUID_TYPES]
    code = (currency or _main_currency(ctx, balances)).upper()
    price = to_minor_units(amount, code)
    liquid = [row for row in balances if row["currency"] == code]
    known = [row for row in liquid if row["balance"] is not None]
    cash = sum(current_balance(row) for row in known)

    history, used = _history(ctx, code)
    months_covered = len(history)
    avg_income = _average([m["income"] for m in history.values()])
    avg_spending = _average([m["spending"] for m in history.values()])
    avg_net = avg_income - avg_spending
    horizon = by_date or ctx.today + timedelta(days=DEFAULT_HORIZON_DAYS)
    obligations, obligation_note = _obligations(ctx, code, horizon)

    total_cost = price * (months if monthly_payment else 1)
    left = cash - (0 if monthly_payment else price) - obligations
    runway = (Decimal(left) / avg_spending).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP) if avg_spending > 0 else None
    quality = _quality(months_covered, used, liquid, known, obligation_note, ctx.today)
    verdict, reason = _verdict(bool(known) and months_covered > 0, monthly_payment, price, months or 0, left, runway,
                               avg_net, avg_income)
    result: dict = {
        "currency": code,
        "amount": money(price, code),
        "liquid_balance": money(cash, code),
        "average_monthly_income": _money(avg_income, code),
        "average_monthly_spending": _money(avg_spending, code),
        "average_monthly_net": _money(avg_net, code),
        "recurring_due": {"amount": money(obligations, code), "before": horizon.isoformat(), "note": obligation_note},
        "balance_left": money(left, code),
        "runway_months": str(runway) if runway is not None else None,
        "verdict": verdict,
        "verdict_reason": reason,
        "data_quality": quality,
    }
    if monthly_payment:
        result.update(months=months, total_cost=money(total_cost, code),
                      net_after_payment=_money(avg_net - price, code))
    if by_date:
        months_until = Decimal((by_date - ctx.today).days) / Decimal("30.44")
        projected = Decimal(cash) + avg_net * months_until - (0 if monthly_payment else price)
        result["projected_balance_at_date"] = _money(projected, code)
    result["covered"] = covered(_history_period(ctx.today), used, code)
    return result


def _main_currency(ctx: ToolContext, balances: list[dict]) -> str:
    """The currency of the liquid accounts with the most transactions (USD for an empty ledger)."""
    by_rows: dict[str, int] = {}
    for row in balances:
        by_rows[row["currency"]] = by_rows.get(row["currency"], 0) + row["rows"]
    return max(by_rows, key=by_rows.get) if by_rows else "USD"


def _history_period(today: date) -> Period:
    return Period(add_months(month_start(today), -HISTORY_MONTHS), month_end(add_months(month_start(today), -1)))


def _history(ctx: ToolContext, currency: str) -> tuple[dict[str, dict[str, int]], int]:
    """Complete months (up to 12, before this one) that have rows, with income and spending."""
    span = _history_period(ctx.today)
    first = ctx.ledger.scalar("SELECT MIN(posted) FROM transactions WHERE pending = 0 AND currency = ?", (currency,))
    if first is None:
        return {}, 0
    start = max(span.start, month_start(date.fromisoformat(first)))
    if date.fromisoformat(first) > start:
        start = add_months(start, 1)  # the first month is partial: leave it out
    if start > span.end:
        return {}, 0
    totals, counts = monthly_flows(ctx.ledger, Scope(period=Period(start, span.end)))
    return dict(totals.get(currency, {})), counts.get(currency, 0)


def _average(values: list[int]) -> Decimal:
    return Decimal(sum(values)) / len(values) if values else Decimal(0)


def _money(minor: Decimal, currency: str) -> str:
    return money(int(minor.quantize(Decimal(1), rounding=ROUND_HALF_UP)), currency)


def _obligations(ctx: ToolContext, currency: str, horizon: date) -> tuple[int, str]:
    """Recurring charges expected from today to the horizon (overdue ones included), in minor units.

    They come from the recurring-charge detector (wilson.tools.recurring) when it is installed;
    without it nothing is assumed, and the note says so.
    """
    try:
        recurring = importlib.import_module("wilson.tools.recurring")
    except ModuleNotFoundError:
        return 0, "recurring charges not estimated: the recurring-charge detector is not installed"
    due = [item for item in recurring.recurring_obligations(ctx.ledger, ctx.today, horizon)
           if item["currency"] == currency and item["amount_minor"] < 0]
    total = -sum(item["amount_minor"] for item in due)
    return total, f"{len(due)} recurring charges expected from {ctx.today} to {horizon} (overdue included)"


def _quality(months_covered: int, used: int, liquid: list[dict], known: list[dict], obligation_note: str,
             today: date) -> dict:
    """How far to trust the verdict, rated from the history length and balance coverage."""
    unknown = [row["name"] for row in liquid if row["balance"] is None]
    stale = [row["name"] for row in known if row["balance_date"] and (today - date.fromisoformat(row["balance_date"])).days > 31]
    if not known or months_covered == 0:
        rating, reason = "limited", "no known liquid balance" if not known else "no complete month of history"
    elif months_covered >= 12 and not unknown and not stale:
        rating, reason = "excellent", "12 complete months and a recent balance for every liquid account"
    elif months_covered >= 6 and not unknown:
        rating, reason = "good", f"{months_covered} complete months; every liquid account has a balance"
    elif months_covered >= 3:
        rating, reason = "fair", f"{months_covered} complete months; {len(unknown)} liquid accounts without a balance"
    else:
        rating, reason = "limited", f"only {months_covered} complete months of history"
    if stale and rating in ("excellent", "good"):
        reason += f"; balances older than a month: {', '.join(stale)}"
    return {
        "months_covered": months_covered,
        "transactions_used": used,
        "accounts_with_balance": [row["name"] for row in known],
        "accounts_without_balance": unknown,
        "recurring": obligation_note,
        "rating": rating,
        "reason": reason,
    }


def _verdict(enough: bool, monthly: bool, price: int, months: int, left: int, runway: Decimal | None,
             avg_net: Decimal, avg_income: Decimal) -> tuple[str, str]:
    """The thresholds in the module docstring, applied."""
    if not enough:
        return "unknown", "not enough data: needs a known liquid balance and at least one complete month"
    if monthly:
        margin = avg_net - price
        if margin < 0 and left + margin * months < 0:
            return "not without debt", "the payment exceeds the average monthly surplus and savings run out"
        if margin < 0:
            return "tight", "the payment exceeds the average monthly surplus; savings would cover the gap"
        if avg_income <= 0 or margin < avg_income * TIGHT_MARGIN:
            return "tight", f"less than {TIGHT_MARGIN * 100:.0f}% of income left each month after the payment"
        if margin < avg_income * COMFORTABLE_MARGIN:
            return "manageable", f"under {COMFORTABLE_MARGIN * 100:.0f}% of income left each month after the payment"
        return "comfortable", f"at least {COMFORTABLE_MARGIN * 100:.0f}% of income left each month after the payment"
    if left < 0:
        return "not without debt", "the liquid balance does not cover the amount and the recurring charges due"
    if runway is not None and runway < TIGHT_MONTHS:
        return "tight", f"less than {TIGHT_MONTHS} months of spending left afterwards"
    if (runway is not None and runway < COMFORTABLE_MONTHS) or avg_net < 0:
        return "manageable", f"under {COMFORTABLE_MONTHS} months of spending left, or the average month loses money"
    return "comfortable", f"at least {COMFORTABLE_MONTHS} months of spending left afterwards"
