"""What every tool shares: resolving names, periods, money in results, and what counts as spending.

Spending, income and transfers are told apart in one place (`FLOW_SQL`), so every report agrees:
pending rows never count; a row linked to its other leg, or in a transfer category, is a transfer;
income categories are income; everything else is spending (refunds reduce it), and an
uncategorised inflow counts as income.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from wilson.ledger import Ledger
from wilson.money import ISO_4217, MAX_MINOR, exponent, format_minor, to_minor
from wilson.tools.registry import ToolError

DEFAULT_LIMIT = 50
MAX_LIMIT = 500


# `flow` of a row aliased `t` joined to its category `c`: 'transfer', 'income' or 'spending'.
FLOW_SQL = """CASE
    WHEN t.transfer_id IS NOT NULL OR c.kind = 'transfer' THEN 'transfer'
    WHEN c.kind = 'income' THEN 'income'
    WHEN c.kind IS NULL AND t.amount > 0 THEN 'income'
    ELSE 'spending' END"""


def money(minor: int | None, currency: str) -> str | None:
    """Amounts in results are exact decimal strings ("-45.20"), never floats."""
    return None if minor is None else format_minor(minor, currency)


def to_minor_units(amount: Decimal, currency: str, param: str = "amount") -> int:
    """`amount` in the currency's minor units; a refusal says which limit it broke (1e308 has no decimals)."""
    if abs(amount.scaleb(exponent(currency))) > MAX_MINOR:
        raise ToolError(f"{param}: {amount} is out of range for an amount of money")
    try:
        return to_minor(amount, currency)
    except ValueError:
        raise ToolError(f"{param}: {amount} has more than {exponent(currency)} decimals for {currency}") from None


def currency_code(ledger: Ledger, text: str) -> str:
    """A currency the user named: an ISO 4217 code, or one the ledger already holds (a bank's own
    code). Anything else is refused: a typo would be a budget that no spending ever counts against."""
    code = text.strip().upper()
    if code in ISO_4217 or ledger.scalar(
        "SELECT EXISTS (SELECT 1 FROM accounts WHERE currency = ?)"
        " OR EXISTS (SELECT 1 FROM transactions WHERE currency = ?)", (code, code),
    ):
        return code
    raise ToolError(f"currency {text!r} is not a three-letter ISO 4217 code (such as USD or EUR)"
                    " nor one the ledger uses")


def clamp_limit(limit: int | None) -> int:
    if limit is None:
        return DEFAULT_LIMIT
    if limit < 1:
        raise ToolError("limit must be at least 1")
    return min(limit, MAX_LIMIT)


SUGGESTION_SCORE = 75  # `grocery` is 75 like Groceries; `Nonexistent` is like no word of Rent, Internet, Phone
_WORDS = re.compile(r"[^\W\d_]{3,}")


def _suggest(name: str, choices: list[str]) -> list[str]:
    """Up to three names like the one given, as a whole or word for word (`grocery stuff` →
    Groceries, `card payment` → Credit Card Payment); a name like none gets no suggestions,
    which would only mislead (partial matching offered Rent for `Nonexistent Cat`)."""
    from rapidfuzz import fuzz, utils

    wanted = utils.default_process(name)

    def likeness(choice: str) -> float:
        known = utils.default_process(choice)
        pairs = [(a, b) for a in _WORDS.findall(wanted) for b in _WORDS.findall(known)]
        return max([fuzz.ratio(wanted, known), *(fuzz.ratio(a, b) for a, b in pairs)])

    scored = sorted(((likeness(choice), choice) for choice in choices), key=lambda pair: -pair[0])
    return [choice for score, choice in scored[:3] if score >= SUGGESTION_SCORE]


_DIGITS = re.compile(r"\d+")


def _resolve(name: str, rows: list[dict], what: str) -> dict:
    """Exact (case-insensitive) name, else one confident misspelling of a whole name, else an error
    with suggestions. Whole-string similarity, not partial matching: "Food'; DROP TABLE …" must not
    quietly become Food, since the resolved name may be written to (a budget, a rule)."""
    wanted = name.strip().casefold()
    for row in rows:
        if row["name"].casefold() == wanted:
            return row
    from rapidfuzz import fuzz, process, utils

    names = [row["name"] for row in rows]
    best = process.extract(wanted, names, scorer=fuzz.ratio, processor=utils.default_process, limit=2)
    if best and best[0][1] >= 85 and (len(best) == 1 or best[0][1] - best[1][1] >= 5) \
            and _DIGITS.findall(wanted) == _DIGITS.findall(best[0][0]):  # `Savings 9998` is another account, not a typo
        return rows[best[0][2]]
    raise ToolError(f"unknown {what} {name!r}", kind="not_found", suggestions=_suggest(name, names), known=names[:60])


def resolve_account(ledger: Ledger, name: str) -> dict:
    return _resolve(name, ledger.query("SELECT * FROM accounts ORDER BY name"), "account")


def resolve_category(ledger: Ledger, name: str) -> dict:
    return _resolve(name, ledger.query("SELECT * FROM categories ORDER BY name"), "category")


@dataclass(frozen=True)
class Period:
    start: date
    end: date  # inclusive

    @property
    def days(self) -> int:
        return (self.end - self.start).days + 1

    def previous(self) -> "Period":
        """The period of the same length just before this one (whole months map to whole months)."""
        if self.start.day == 1 and self.end == month_end(self.end):
            months = (self.end.year - self.start.year) * 12 + self.end.month - self.start.month + 1
            start = add_months(self.start, -months)
            return Period(start, self.start - timedelta(days=1))
        return Period(self.start - timedelta(days=self.days), self.start - timedelta(days=1))

    def as_dict(self) -> dict:
        return {"start_date": self.start.isoformat(), "end_date": self.end.isoformat()}


def month_start(day: date) -> date:
    return day.replace(day=1)


def month_end(day: date) -> date:
    return day.replace(day=calendar.monthrange(day.year, day.month)[1])


def add_months(day: date, months: int) -> date:
    index = day.year * 12 + day.month - 1 + months
    year, month = divmod(index, 12)
    return date(year, month + 1, min(day.day, calendar.monthrange(year, month + 1)[1]))


def period(start: date | None, end: date | None, today: date, default: str = "month") -> Period:
    """The period a tool covers: given dates, else this month (or the last 12 months) to today.

    A start after the end is refused, a default one too: an empty answer for a period without a
    single day would read as "nothing happened".
    """
    if start and end and end < start:
        raise ToolError(f"end_date {end} is before start_date {start}")
    if start is None:
        start = month_start(today) if default == "month" else add_months(month_start(today), -11)
        if end is not None and end < start:
            raise ToolError(f"end_date {end} is before {start}, where the period starts by default;"
                            " give start_date too")
    if end is None:
        end = max(today, start) if default != "all" else today
        if end < start:
            raise ToolError(f"start_date {start} is after today ({today}), where the period ends by default;"
                            " give end_date too")
    return Period(start, end)


def start_or_first(ledger: Ledger, start: date | None, end: date | None) -> date | None:
    """`start`; with only an end given, the ledger's first transaction: "up to October" covers all of
    the history up to it (the end itself when nothing is older)."""
    if start is not None or end is None:
        return start
    first = ledger.scalar("SELECT MIN(posted) FROM transactions")
    return min(date.fromisoformat(first), end) if first else end


def covered(period: Period | None, count: int, currency: str | list[str] | None, **filters: object) -> dict:
    """The block every result carries, so an answer can say what it is based on."""
    block: dict[str, object] = {"transactions": count}
    if period:
        block.update(period.as_dict())
    if currency:
        block["currency"] = currency
    active = {k: v for k, v in filters.items() if v not in (None, False, [], "")}
    if active:
        block["filters"] = active
    return block


def home_currency(ledger: Ledger) -> str:
    """The currency most accounts use: how amounts given without a currency are read."""
    return ledger.scalar(
        "SELECT currency FROM accounts GROUP BY currency ORDER BY COUNT(*) DESC, currency LIMIT 1"
    ) or "USD"
