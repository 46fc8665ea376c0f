"""Things worth a second look: duplicate charges, spending spikes, new payees, price rises.

Each check is one grouped SQL pass over the period (spikes read the maintained `monthly_flows`
aggregate for their history), so the tool stays fast on large ledgers; Python only sees the
aggregates and the few suspicious rows.
Thresholds, in one place:
- duplicate: same account, payee, amount and currency, within 3 days, not the same bank id. Rows
  from one import can both be real (two coffees), so every hit is a *possible* duplicate.
- spike: a category's spending in a month above mean + 2·stdev of its previous 12 months (at least
  6 months of history; months without spending count as zero), at least 1.5× the mean and at least
  50 (major units) above it.
- new payee: first ever seen in the period, with a charge of at least 20 (major units).
- price rise: a subscription whose price rose inside the period (`Series.price_rise`): its first
  charge at the higher price falls in the period.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date, timedelta
from decimal import Decimal
from typing import Annotated

from wilson.money import exponent
from wilson.tools.common import FLOW_SQL, Period, add_months, clamp_limit, covered, money, period, resolve_account
from wilson.tools.recurring import describe, detect
from wilson.tools.registry import ToolContext, tool

DEFAULT_DAYS = 90
DUPLICATE_DAYS = 3
SPIKE_K = Decimal(2)
SPIKE_RATIO = Decimal("1.5")
SPIKE_MIN_MAJOR = 50
SPIKE_HISTORY = 12
SPIKE_MIN_HISTORY = 6
NEW_PAYEE_MIN_MAJOR = 20
PRICE_HISTORY_MONTHS = 13  # a steady price then a rise needs 3+ charges: monthly to quarterly


def _major(units: int, currency: str) -> int:
    return units * 10 ** exponent(currency)


def duplicates(ctx: ToolContext, span: Period, account_id: int | None) -> list[dict]:
    """Possible double charges, each group with the ids, dates and whether one import holds them all.

    Two passes keep it off the sorter: `near` probes the same-charge index for outflows of the same
    account, currency and amount within the window (a few thousand of the period's rows, found from
    the index alone); only those rows are then read whole and paired by payee, each with the one
    before it, so a chain of repeats is one group.
    """
    look_from = (span.start - timedelta(days=DUPLICATE_DAYS)).isoformat()
    rows = ctx.ledger.query(
        f"""
        WITH near(id, match) AS MATERIALIZED (
            SELECT t.id, p.id FROM transactions t INDEXED BY transactions_same_charge
            CROSS JOIN transactions p INDEXED BY transactions_same_charge  -- each row of the period probes
              ON p.account_id = t.account_id AND p.currency = t.currency AND p.amount = t.amount
             AND p.pending = 0 AND p.amount < 0 AND p.id <> t.id
             AND p.posted BETWEEN date(t.posted, '-{DUPLICATE_DAYS} days') AND t.posted AND p.posted >= ?
            WHERE t.posted BETWEEN ? AND ? AND t.pending = 0 AND t.amount < 0 AND (? IS NULL OR t.account_id = ?)
        ),
        candidates(id) AS (SELECT id FROM near UNION SELECT match FROM near),
        f AS (
            SELECT t.id, t.account_id, t.posted, t.amount, t.currency, t.payee, t.description, t.batch_id,
                   LAG(t.id) OVER w AS prev_id, LAG(t.posted) OVER w AS prev_posted, LAG(t.bank_id) OVER w AS prev_bank,
                   t.bank_id
            FROM candidates k CROSS JOIN transactions t ON t.id = k.id LEFT JOIN categories c ON c.id = t.category_id
            WHERE ({FLOW_SQL}) = 'spending'
            WINDOW w AS (PARTITION BY t.account_id, lower(COALESCE(t.payee, t.description)), t.amount, t.currency
                         ORDER BY t.posted, t.id)
        )
        SELECT f.*, a.name AS account, p.batch_id AS prev_batch FROM f
        JOIN accounts a ON a.id = f.account_id JOIN transactions p ON p.id = f.prev_id
        WHERE f.posted >= ? AND julianday(f.posted) - julianday(f.prev_posted) <= {DUPLICATE_DAYS}
          AND NOT (f.bank_id IS NOT NULL AND f.bank_id = f.prev_bank)
        ORDER BY f.posted, f.id
        """,
        (look_from, look_from, span.end.isoformat(), account_id, account_id, span.start.isoformat()),
    )
    groups: dict[int, dict] = {}
    head: dict[int, int] = {}
    for row in rows:
        first = head.get(row["prev_id"], row["prev_id"])
        head[row["id"]] = first
        group = groups.setdefault(first, {
            "ids": [row["prev_id"]], "dates": [row["prev_posted"]], "batches": {row["prev_batch"]},
            "payee": row["payee"] or row["description"], "account": row["account"],
            "amount": money(row["amount"], row["currency"]), "currency": row["currency"],
        })
        group["ids"].append(row["id"])
        group["dates"].append(row["posted"])
        group["batches"].add(row["batch_id"])
    found = []
    for group in groups.values():
        one_import = len(group.pop("batches")) == 1
        group["kind"] = "possible_duplicate"
        group["note"] = ("both rows came from the same import, so both may be real; check with the merchant"
                         if one_import else "charged again within a few days; check it is not a double charge")
        found.append(group)
    return found


def spikes(ctx: ToolContext, span: Period, account_id: int | None) -> list[dict]:
    """Category-months in the period whose spending beats the category's own previous 12 months.

    Months are counted as integers (year·12 + month) so the per-month loop builds no dates: it
    runs for every category and currency in the aggregate, for every month of the period.
    """
    first_posted = ctx.ledger.scalar(
        "SELECT MIN(posted) FROM transactions WHERE pending = 0 AND (? IS NULL OR account_id = ?)", (account_id, account_id)
    )
    if first_posted is None:
        return []
    data_start = _month_number(first_posted)
    first, last = _month_number(span.start.isoformat()), _month_number(span.end.isoformat())
    monthly: dict[tuple[int, str], dict[int, int]] = defaultdict(dict)
    for category_id, currency, month, spent in ctx.ledger.conn.execute(
        f"""
        SELECT t.category_id, t.currency, t.month, -SUM(t.amount)
        FROM monthly_flow_rows t JOIN categories c ON c.id = t.category_id  -- the maintained monthly aggregate
        WHERE t.month BETWEEN ? AND ? AND (? IS NULL OR t.account_id = ?) AND ({FLOW_SQL}) = 'spending'
        GROUP BY t.month, t.category_id, t.currency
        """,
        (_month_text(first - SPIKE_HISTORY), _month_text(last), account_id, account_id),
    ):
        monthly[(category_id, currency)][_month_number(month)] = spent
    names = {row["id"]: row["name"] for row in ctx.ledger.categories()}
    found = []
    for (category_id, currency), by_month in monthly.items():
        for month in range(first, last + 1):
            spent = by_month.get(month, 0)
            history = [by_month.get(m, 0) for m in range(max(month - SPIKE_HISTORY, data_start), month)]
            spike = _spike(spent, history, currency)
            if spike:
                found.append({"category": names[category_id], "month": _month_text(month), "currency": currency,
                              "spent": money(spent, currency), **spike})
    return sorted(found, key=lambda s: (s["month"], s["category"]))


def _month_number(iso: str) -> int:
    """The month of an ISO date ("2025-06-30") or month ("2025-06") as year·12 + month − 1."""
    return int(iso[:4]) * 12 + int(iso[5:7]) - 1


def _month_text(number: int) -> str:
    return f"{number // 12:04d}-{number % 12 + 1:02d}"


def _spike(spent: int, history: list[int], currency: str) -> dict | None:
    """Mean, stdev and threshold (exact Decimal math) when `spent` is a spike against `history`."""
    if len(history) < SPIKE_MIN_HISTORY or spent <= 0:
        return None
    mean = Decimal(sum(history)) / len(history)
    stdev = (sum((Decimal(h) - mean) ** 2 for h in history) / len(history)).sqrt()
    threshold = mean + SPIKE_K * stdev
    if spent <= threshold or spent < mean * SPIKE_RATIO or spent - mean < _major(SPIKE_MIN_MAJOR, currency):
        return None
    return {"usual_mean": _exact(mean, currency), "usual_stdev": _exact(stdev, currency),
            "threshold": _exact(threshold, currency), "history_months": len(history)}


def _exact(minor: Decimal, currency: str) -> str:
    """A Decimal count of minor units as a money string, rounded to the currency's decimals."""
    places = exponent(currency)
    return str(minor.scaleb(-places).quantize(Decimal(1).scaleb(-places)))


def new_payees(ctx: ToolContext, span: Period, account_id: int | None) -> list[dict]:
    """Payees first seen in the period (on any row, pending or not), with a sizeable charge in it.

    `payees` walks the distinct payee keys of the payee index one probe at a time and `fresh` keeps
    those with no row before the period, so only the new payees' rows are ever read.
    """
    rows = ctx.ledger.query(
        f"""
        WITH RECURSIVE payees(key) AS (
            SELECT (SELECT lower(payee) FROM transactions INDEXED BY transactions_payee_first
                    WHERE payee IS NOT NULL ORDER BY lower(payee) LIMIT 1)
            UNION ALL
            SELECT (SELECT lower(payee) FROM transactions INDEXED BY transactions_payee_first
                    WHERE payee IS NOT NULL AND lower(payee) > payees.key ORDER BY lower(payee) LIMIT 1)
            FROM payees WHERE payees.key IS NOT NULL
        ),
        fresh(key) AS (
            SELECT key FROM payees WHERE key IS NOT NULL AND NOT EXISTS (
                SELECT 1 FROM transactions INDEXED BY transactions_payee_first
                WHERE payee IS NOT NULL AND lower(payee) = payees.key AND posted < ?)
        )
        SELECT lower(t.payee) AS key, MAX(t.payee) AS payee, MIN(t.posted) AS first_date, COUNT(*) AS charges,
               SUM(t.amount) AS total, MIN(t.amount) AS largest, t.currency
        FROM fresh CROSS JOIN transactions t INDEXED BY transactions_payee_first LEFT JOIN categories c ON c.id = t.category_id
        WHERE t.payee IS NOT NULL AND lower(t.payee) = fresh.key AND t.posted BETWEEN ? AND ?
          AND t.pending = 0 AND t.amount < 0 AND ({FLOW_SQL}) = 'spending' AND (? IS NULL OR t.account_id = ?)
        GROUP BY lower(t.payee), t.currency
        """,
        (span.start.isoformat(), span.start.isoformat(), span.end.isoformat(), account_id, account_id),
    )
    return [
        {"payee": r["payee"], "first_date": r["first_date"], "charges": r["charges"], "currency": r["currency"],
         "total": money(-r["total"], r["currency"]), "largest": money(-r["largest"], r["currency"])}
        for r in sorted(rows, key=lambda r: r["first_date"])
        if -r["largest"] >= _major(NEW_PAYEE_MIN_MAJOR, r["currency"])
    ]


def price_rises(ctx: ToolContext, span: Period, account_id: int | None) -> list[dict]:
    history = Period(add_months(span.end, -PRICE_HISTORY_MONTHS), span.end)
    names = {row["id"]: row["name"] for row in ctx.ledger.categories()}
    accounts = {row["id"]: row["name"] for row in ctx.ledger.query("SELECT id, name FROM accounts")}
    found = []
    for s in detect(ctx.ledger, history, span.end, account_id, active_since=span.start):
        rise = s.price_rise() if "price_rose" in s.flags else None  # flagged only while active
        if rise and rise.on >= span.start:
            found.append(describe(s, span.end, names, accounts))
    return found


@tool(
    description="""
    Look for things worth a second look in a period (default: the 90 days up to end_date, or to
    today): possible duplicate charges (same payee and amount within 3 days), categories with
    unusually high spending for a month compared with their own previous 12 months, new payees
    with sizeable charges, and price rises in recurring charges. Use it for "anything unusual?", "did I get
    charged twice?", a monthly check-up. Every finding carries the ids or figures behind it;
    present them as things to check, not as certain errors.
    """,
)
def detect_anomalies(
    ctx: ToolContext,
    start_date: Annotated[date | None, "first day to check; default 90 days before end_date"] = None,
    end_date: Annotated[date | None, "last day to check (inclusive); default today"] = None,
    account: Annotated[str | None, "only this account"] = None,
    limit: Annotated[int | None, "at most this many findings per kind"] = None,
) -> dict:
    account_row = resolve_account(ctx.ledger, account) if account else None
    account_id = account_row["id"] if account_row else None
    start = start_date or (end_date or ctx.today) - timedelta(days=DEFAULT_DAYS - 1)
    span = period(start, end_date, ctx.today, default="all")
    cap = clamp_limit(limit)
    findings = {
        "duplicates": duplicates(ctx, span, account_id),
        "spikes": spikes(ctx, span, account_id),
        "new_payees": new_payees(ctx, span, account_id),
        "price_rises": price_rises(ctx, span, account_id),
    }
    count, currencies = ctx.ledger.query_one(
        "SELECT COUNT(*) AS n, group_concat(DISTINCT currency) AS currencies FROM transactions"
        " WHERE posted BETWEEN ? AND ? AND pending = 0 AND (? IS NULL OR account_id = ?)",
        (span.start.isoformat(), span.end.isoformat(), account_id, account_id),
    ).values()
    result: dict = {kind: items[:cap] for kind, items in findings.items()}
    result["counts"] = {kind: len(items) for kind, items in findings.items()}
    result["truncated"] = any(len(items) > cap for items in findings.values())
    result["covered"] = covered(span, count, sorted((currencies or "").split(",")) if currencies else None,
                                account=account_row["name"] if account_row else None)
    return result
