"""account_balances and update_balance: what each account holds, and net worth per currency.

A balance is only ever a figure someone stated (a statement, a running balance in an export, or
the user): Wilson never invents an opening balance. Where none is known, the sum of imported
transactions is offered, labelled as an estimate, and left out of net worth.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from decimal import Decimal
from typing import Annotated

from wilson.ledger import Ledger
from wilson.tools.common import clamp_limit, covered, money, resolve_account, to_minor_units
from wilson.tools.registry import ToolContext, ToolError, tool

LIABILITY_TYPES = ("credit_card", "loan")


def known_balances(ledger: Ledger, account_id: int | None = None) -> list[dict]:
    """Accounts with their known balance and the posted activity dated after it.

    Only rows in the account's own currency add to its figures: a balance is in that currency,
    and a row booked in another (euros imported into a dollar account) has no known value in it.
    Those rows are summed per currency apart, in `other_currencies`."""
    rows = ledger.query(
        """
        SELECT a.id, a.name, a.type, a.currency, a.balance, a.balance_date, a.balance_source,
               (SELECT COALESCE(SUM(t.amount), 0) FROM transactions t WHERE t.account_id = a.id AND t.pending = 0
                   AND t.currency = a.currency AND t.posted > a.balance_date) AS since,
               (SELECT MAX(t.posted) FROM transactions t WHERE t.account_id = a.id AND t.pending = 0
                   AND t.currency = a.currency AND t.posted > a.balance_date) AS since_until,
               (SELECT COALESCE(SUM(t.amount), 0) FROM transactions t
                 WHERE t.account_id = a.id AND t.pending = 0 AND t.currency = a.currency) AS all_rows,
               (SELECT COUNT(*) FROM transactions t
                 WHERE t.account_id = a.id AND t.pending = 0 AND t.currency = a.currency) AS rows
        FROM accounts a WHERE ? IS NULL OR a.id = ? ORDER BY a.name
        """,
        (account_id, account_id),
    )
    others = _other_currencies(ledger, account_id)
    for row in rows:
        row["other_currencies"] = others.get(row["id"], [])
    return rows


def _other_currencies(ledger: Ledger, account_id: int | None) -> dict[int, list[dict]]:
    """Per account, the posted rows in currencies other than its own: a sum and a count per currency."""
    found: dict[int, list[dict]] = defaultdict(list)
    for row in ledger.query(
        """
        SELECT t.account_id, t.currency, SUM(t.amount) AS amount, COUNT(*) AS rows
        FROM transactions t JOIN accounts a ON a.id = t.account_id
        WHERE t.pending = 0 AND t.currency != a.currency AND (? IS NULL OR a.id = ?)
        GROUP BY t.account_id, t.currency ORDER BY t.currency
        """,
        (account_id, account_id),
    ):
        found[row["account_id"]].append({"currency": row["currency"], "amount": row["amount"], "rows": row["rows"]})
    return found


def current_balance(row: dict) -> int | None:
    """The known balance carried forward by posted rows dated after it; None when none is known."""
    return None if row["balance"] is None else row["balance"] + row["since"]


def _account_entry(row: dict) -> dict:
    currency = row["currency"]
    entry: dict = {"account": row["name"], "type": row["type"], "currency": currency,
                   "liability": row["type"] in LIABILITY_TYPES}
    if row["balance"] is None:
        entry.update(balance=None, note="no balance known: import a statement with a balance or use update_balance",
                     estimate={"amount": money(row["all_rows"], currency),
                               "basis": f"sum of {row['rows']} imported {currency} transactions; the opening balance is unknown"})
    else:
        entry.update(_known_balance(row))
    if row["other_currencies"]:
        entry["other_currencies"] = [_foreign_sum(other, currency) for other in row["other_currencies"]]
    return entry


def _known_balance(row: dict) -> dict:
    currency = row["currency"]
    known = {"balance": money(current_balance(row), currency), "as_of": row["balance_date"], "source": row["balance_source"]}
    if row["since"]:  # the figure holds the later rows: it is as of the last of them
        known.update(as_of=row["since_until"], stated=money(row["balance"], currency), stated_as_of=row["balance_date"],
                     carried_forward=f"stated balance plus {money(row['since'], currency)} of posted {currency} rows"
                                     f" after {row['balance_date']}")
    return known


def _foreign_sum(other: dict, currency: str) -> dict:
    """Rows in another currency get a figure of their own: their value in the account's is unknown."""
    code = other["currency"]
    return {"currency": code, "amount": money(other["amount"], code),
            "basis": f"sum of {other['rows']} imported {code} transactions booked into this {currency} account;"
                     " in neither its balance nor its estimate"}


@tool(
    description="""
    Balances of the user's accounts: per account the balance, its as-of date and source
    (statement, running, manual); where no balance is known it says so and offers the sum of
    imported transactions as a labelled estimate. Rows booked into an account in another currency
    than its own are summed apart per currency (other_currencies), never added to its balance or
    estimate. Also net worth per currency: assets minus liabilities (credit cards and loans), from
    known balances only. Use it for "what's my balance", "how much do I have", "net worth", "how
    much do I owe". Not for spending.
    """
)
def account_balances(
    ctx: ToolContext,
    account: Annotated[str | None, "only this account"] = None,
    limit: Annotated[int | None, "most accounts to list (default 50); net worth covers all"] = None,
) -> dict:
    cap = clamp_limit(limit)
    only = resolve_account(ctx.ledger, account)["id"] if account else None
    rows = known_balances(ctx.ledger, only)
    worth: dict[str, dict[str, int]] = defaultdict(lambda: {"assets": 0, "liabilities": 0})
    for row in rows:
        amount = current_balance(row)
        if amount is not None:
            worth[row["currency"]]["liabilities" if row["type"] in LIABILITY_TYPES else "assets"] += amount
    result: dict = {
        "accounts": [_account_entry(row) for row in rows[:cap]],
        "count": len(rows),
        "net_worth": [
            {"currency": cur, "assets": money(v["assets"], cur), "liabilities": money(-v["liabilities"], cur),
             "net_worth": money(v["assets"] + v["liabilities"], cur)}
            for cur, v in sorted(worth.items())
        ],
    }
    unknown = [row["name"] for row in rows if row["balance"] is None]
    if unknown:
        result["not_in_net_worth"] = unknown
    if not rows:
        result["note"] = "no accounts yet: import a bank export first"
    counted = sum(row["rows"] + sum(other["rows"] for other in row["other_currencies"]) for row in rows)
    currencies = {row["currency"] for row in rows} | {other["currency"] for row in rows for other in row["other_currencies"]}
    result["covered"] = covered(None, counted, sorted(currencies),
                                account=rows[0]["name"] if only and rows else None)
    return result


@tool(
    description="""
    Record an account's balance as the user states it (amount in the account's currency, as of a
    date, default today); it becomes the account's manual balance. Owed amounts on credit cards
    and loans are negative. Use only when the user tells you a balance.
    """,
    changes_data=True,
)
def update_balance(
    ctx: ToolContext,
    account: Annotated[str, "account name"],
    amount: Annotated[Decimal, "the balance, e.g. 2450.10 (negative when owed)"],
    date: Annotated[dt.date | None, "the day the balance is for (default: today)"] = None,
) -> dict:
    row = resolve_account(ctx.ledger, account)
    as_of = date or ctx.today
    if as_of > ctx.today:
        raise ToolError(f"date {as_of} is in the future")
    minor = to_minor_units(amount, row["currency"])
    ctx.ledger.set_balance(row["id"], minor, as_of, "manual")
    result: dict = {"account": row["name"], "balance": money(minor, row["currency"]), "currency": row["currency"],
                    "as_of": as_of.isoformat(), "source": "manual"}
    if row["balance"] is not None:
        result["previous"] = {"balance": money(row["balance"], row["currency"]), "as_of": row["balance_date"],
                              "source": row["balance_source"]}
    return result
