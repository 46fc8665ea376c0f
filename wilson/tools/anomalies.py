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
- price rise: a recurring charge whose latest amount, inside the period, beat a steady price.
"""

from __future__ import annotations

import re
from collections import defaultdict
from datetime import date, timedelta
from decimal import Decimal
from typing import Annotated

from wilson.money import exponent
from wilson.tools.common import FLOW_SQL, Period, add_months, clamp_limit, covered, money, month_start, period, resolve_account
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
    rows = ctx.ledger.query(
        f"""
        WITH f AS (
            SELECT t.id, t.account_id, t.posted, t.amount, t.currency, t.payee, t.description, t.batch_id,
                   LAG(t.id) OVER w AS prev_id, LAG(t.posted) OVER w AS prev_posted, LAG(t.bank_id) OVER w AS prev_bank,
                   t.bank_id
            FROM transactions t LEFT JOIN categories c ON c.id = t.category_id
            WHERE t.posted BETWEEN date(?, '-{DUPLICATE_DAYS} days') AND ? AND t.pending = 0 AND t.amount < 0
              AND ({FLOW_SQL}) = 'spending' AND (? IS NULL OR +t.account_id = ?)
            WINDOW w AS (PARTITION BY t.account_id, lower(COALESCE(t.payee, t.description)), t.amount, t.currency
                         ORDER BY t.posted, t.id)
        )
        SELECT f.*, a.name AS account, p.batch_id AS prev_batch FROM f
        JOIN accounts a ON a.id = f.account_id JOIN transactions p ON p.id = f.prev_id
        WHERE f.posted >= ? AND julianday(f.posted) - julianday(f.prev_posted) <= {DUPLICATE_DAYS}
          AND NOT (f.bank_id IS NOT NULL AND f.bank_id = f.prev_bank)
        ORDER BY f.posted, f.id
        """,
        (span.start.isoformat(), span.end.isoformat(), account_id, account_id, span.start.isoformat()),
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
    history_start = add_months(month_start(span.start), -SPIKE_HISTORY)
    first_posted = ctx.ledger.scalar(
        "SELECT MIN(posted) FROM transactions WHERE pending = 0 AND (? IS NULL OR account_id = ?)", (account_id, account_id)
    )
    if first_posted is None:
        return []
    data_start = month_start(date.fromisoformat(first_posted))
    monthly: dict[tuple[int, str], dict[str, int]] = defaultdict(dict)
    for category_id, currency, month, spent in ctx.ledger.conn.execute(
        f"""
        SELECT t.category_id, t.currency, t.month, -SUM(t.amount)
        FROM monthly_flow_rows t JOIN categories c ON c.id = t.category_id  -- the maintained monthly aggregate
        WHERE t.month BETWEEN ? AND ? AND (? IS NULL OR t.account_id = ?) AND ({FLOW_SQL}) = 'spending'
        GROUP BY t.month, t.category_id, t.currency
        """,
        (history_start.strftime("%Y-%m"), span.end.strftime("%Y-%m"), account_id, account_id),
    ):
        monthly[(category_id, currency)][month] = spent
    names = {row["id"]: row["name"] for row in ctx.ledger.categories()}
    found = []
    months = _months(month_start(span.start), span.end)
    for (category_id, currency), by_month in monthly.items():
        for month in months:
            spent = by_month.get(month.strftime("%Y-%m"), 0)
            history = [by_month.get(m.strftime("%Y-%m"), 0) for m in _months(add_months(month, -SPIKE_HISTORY), add_months(month, -1))
                       if m >= data_start]
            spike = _spike(spent, history, currency)
            if spike:
                found.append({"category": names[category_id], "month": month.strftime("%Y-%m"), "currency": currency,
                              "spent": money(spent, currency), **spike})
    return sorted(found, key=lambda s: (s["month"], s["category"]))


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


def _months(first: date, last: date) -> list[date]:
    months, current = [], month_start(first)
    while current <= last:
        months.append(current)
        current = add_months(current, 1)
    return months


def new_payees(ctx: ToolContext, span: Period, account_id: int | None) -> list[dict]:
    rows = ctx.ledger.query(
        f"""
        SELECT lower(t.payee) AS key, MAX(t.payee) AS payee, MIN(t.posted) AS first_date, COUNT(*) AS charges,
               SUM(t.amount) AS total, MIN(t.amount) AS largest, t.currency
        FROM transactions t LEFT JOIN categories c ON c.id = t.category_id
        WHERE t.posted BETWEEN ? AND ? AND t.pending = 0 AND t.amount < 0 AND ({FLOW_SQL}) = 'spending'
          AND t.payee IS NOT NULL AND (? IS NULL OR t.account_id = ?)
        GROUP BY lower(t.payee), t.currency
        """,
        (span.start.isoformat(), span.end.isoformat(), account_id, account_id),
    )
    rows = [r for r in rows if -r["largest"] >= _major(NEW_PAYEE_MIN_MAJOR, r["currency"])]
    seen = {key for key in {r["key"] for r in rows} if _seen_before(ctx, key, span.start)}
    return [
        {"payee": r["payee"], "first_date": r["first_date"], "charges": r["charges"], "currency": r["currency"],
         "total": money(-r["total"], r["currency"]), "largest": money(-r["largest"], r["currency"])}
        for r in sorted(rows, key=lambda r: r["first_date"]) if r["key"] not in seen
    ]


def _seen_before(ctx: ToolContext, payee_key: str, before: date) -> bool:
    """Whether any row before `before` has this payee, found through the full-text index.

    The FTS phrase narrows the search to rows sharing the payee's words (no payee index exists),
    oldest first, so a known payee is confirmed after a few rows and a new one costs only its own.
    """
    if not re.search(r"\w", payee_key):
        return ctx.ledger.scalar(
            "SELECT 1 FROM transactions WHERE posted < ? AND lower(payee) = ? LIMIT 1", (before.isoformat(), payee_key)
        ) is not None
    phrase = 'payee : "' + payee_key.replace('"', '""') + '"'
    return ctx.ledger.scalar(
        "SELECT 1 FROM transactions_fts f JOIN transactions t ON t.id = f.rowid"
        " WHERE transactions_fts MATCH ? AND t.posted < ? AND lower(t.payee) = ? LIMIT 1",
        (phrase, before.isoformat(), payee_key),
    ) is not None


def price_rises(ctx: ToolContext, span: Period, account_id: int | None) -> list[dict]:
    history = Period(add_months(span.end, -PRICE_HISTORY_MONTHS), span.end)
    names = {row["id"]: row["name"] for row in ctx.ledger.categories()}
    accounts = {row["id"]: row["name"] for row in ctx.ledger.query("SELECT id, name FROM accounts")}
    found = []
    for s in detect(ctx.ledger, history, span.end, account_id, active_since=span.start):
        if "price_rose" in s.flags and s.last >= span.start:
            item = describe(s, span.end, names, accounts)
            item["previous_amount"] = money(s.amounts[-2], s.currency)
            found.append(item)
    return found


@tool(
    description="""
    Look for things worth a second look in a period (default: the last 90 days): possible
    duplicate charges (same payee and amount within 3 days), categories with unusually high
    spending for a month compared with their own previous 12 months, new payees with sizeable
    charges, and price rises in recurring charges. Use it for "anything unusual?", "did I get
    charged twice?", a monthly check-up. Every finding carries the ids or figures behind it;
    present them as things to check, not as certain errors.
    """,
)
def detect_anomalies(
    ctx: ToolContext,
    start_date: Annotated[date | None, "first day to check; default 90 days ago"] = None,
    end_date: Annotated[date | None, "last day to check (inclusive); default today"] = None,
    account: Annotated[str | None, "only this account"] = None,
    limit: Annotated[int | None, "at most this many findings per kind"] = None,
) -> dict:
    account_row = resolve_account(ctx.ledger, account) if account else None
    account_id = account_row["id"] if account_row else None
    span = period(start_date or ctx.today - timedelta(days=DEFAULT_DAYS - 1), end_date, ctx.today, default="all")
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
