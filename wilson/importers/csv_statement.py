"""The balances a CSV export states around its table, as a statement does.

DKB writes `Kontostand vom 31.03.2025:;1.234,56 EUR` above it, Nationwide `Account Balance:,£1,234.56`,
ING `Saldo;1.234,56;EUR`, comdirect `Neuer Kontostand` above and `Alter Kontostand` below. With no
running-balance column that is the only balance the file gives: the closing one becomes the
account's, as an OFX's ledger balance does, and with an opening one the rows between are checked
against the two.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date

from wilson.importers.dates import COMPACT
from wilson.money import format_minor, parse_amount, to_minor

# A date inside the label (`Kontostand vom 31.03.2025:`, `Solde au 31/03/2025`) says when.
_LABEL_DATE = re.compile(r"\d{1,4}[./-]\d{1,2}[./-]\d{1,4}")
_AS_OF = r"(?:\s+(?:as\s+(?:of|at)|on|at|vom|am|au|al|per|del|du))?"
_CLOSING = re.compile(
    r"(?:(?:closing|ending|current|new|account|ledger|statement|booked)\s+)?balance" + _AS_OF
    + r"|(?:neuer|aktueller)\s+kontostand|kontostand(?:\s+neu)?" + _AS_OF
    + r"|endsaldo|schlusssaldo|eindsaldo|saldo(?:\s+(?:neu|final|finale|actual|atual|eind|koncowe|końcowe))?" + _AS_OF
    + r"|solde(?:\s+(?:final|actuel|comptable))?" + _AS_OF + r"|solde\s+en\s+fin\s+de\s+p[ée]riode|utg[aå]ende\s+saldo|loppusaldo",
    re.I,
)
_OPENING = re.compile(
    r"(?:opening|beginning|starting|previous)\s+balance" + _AS_OF
    + r"|alter\s+kontostand|anfangssaldo|beginsaldo|alkusaldo|ing[aå]ende\s+saldo"
    + r"|saldo\s+(?:alt|anfang|anterior|inicial|iniziale|poczatkowe|początkowe)" + _AS_OF
    + r"|solde\s+(?:initial|precedent|précédent)" + _AS_OF + r"|solde\s+en\s+d[ée]but\s+de\s+p[ée]riode",
    re.I,
)
_FINAL = re.compile(r"closing|ending|carried|endsaldo|schlusssaldo|eindsaldo|final|fin de p|utg[aå]ende|loppusaldo|koncowe|końcowe", re.I)
_VALUE_AS_OF = re.compile(r"\s+as\s+(?:of|at)\s+(\S+)$", re.I)


@dataclass
class StatedBalances:
    opening: int | None = None
    closing: int | None = None
    as_of: date | None = None  # the closing balance's date, when its label or line gives one
    final: bool = False  # the label names a statement's end (`Closing balance`), not a balance now (`Account Balance`)


def stated_balances(
    lines: Iterable[list[str]], decimal_sep: str, currency: str, read_date: Callable[[str], date | None]
) -> StatedBalances:
    """The first opening and closing balance the lines name, each a label and the first amount in
    the cells after it (or after a `:` in one cell). `Available balance` is not the account's: it
    leaves out what is held."""
    found = StatedBalances()
    for cells in lines:
        named = [cell.strip() for cell in cells if cell.strip()]
        if len(named) == 1 and ":" in named[0]:
            named = [part.strip() for part in named[0].rsplit(":", 1)]
        for at, cell in enumerate(named[:-1]):  # the label, wherever a balance line in the table puts it
            day = _LABEL_DATE.search(cell) or next(filter(None, map(_LABEL_DATE.fullmatch, named[:at])), None)  # or its date cell
            label = " ".join(_LABEL_DATE.sub(" ", cell).strip(" :").split())
            closing = found.closing is None and _CLOSING.fullmatch(label)
            if closing or (found.opening is None and _OPENING.fullmatch(label)):
                values = named[at + 1:]
                dated = next(filter(None, map(_VALUE_AS_OF.search, values)), None)  # ASB: `2603.33 as of 20250201`
                values = [_VALUE_AS_OF.sub("", value) for value in values]
                amount = next((a for a in (_amount(value, decimal_sep, currency) for value in values) if a is not None), None)
                if amount is not None and closing:
                    found.closing, found.as_of = amount, (read_date(day[0]) if day else _value_date(dated, read_date))
                    found.final = bool(_FINAL.search(label))
                elif amount is not None:
                    found.opening = amount
                break
    return found


def _value_date(dated: re.Match[str] | None, read_date: Callable[[str], date | None]) -> date | None:
    if dated is None:
        return None
    return read_date(dated[1]) or COMPACT.parse(dated[1])


def _amount(text: str, decimal_sep: str, currency: str) -> int | None:
    try:
        return to_minor(parse_amount(text, decimal_sep), currency)
    except ValueError:  # AmountError too: a date or a word after the label is no balance
        return None


def disagreement(stated: StatedBalances, booked: Iterable[int], held: Iterable[int], currency: str) -> str | None:
    """A warning when the booked rows do not lead from the opening balance to the closing one,
    with or without the pending (`held`) ones: comdirect's `Neuer Kontostand` counts its `offen` rows."""
    if stated.opening is None or stated.closing is None:
        return None
    total = sum(booked)
    if stated.closing - stated.opening in (total, total + sum(held)):
        return None
    return (
        f"the rows add up to {format_minor(total, currency)}, but the statement's balance goes from"
        f" {format_minor(stated.opening, currency)} to {format_minor(stated.closing, currency)}"
    )


def running_disagreement(stated: StatedBalances, booked: Iterable[tuple[date, int, int | None]], currency: str) -> str | None:
    """A warning when the running balance of the booked rows (day, amount, balance) does not start
    from the statement's opening balance on its first day, or reach its closing balance on its last
    day up to the closing date: a running balance agrees with itself when rows are cut off at
    either end. A balance with neither a date nor a statement's closing word may be today's
    (Nationwide's `Account Balance` above a range of past days) and is left alone; statements
    joined end to end each close on their own day."""
    before: dict[date, set[int]] = {}  # each row's balance before it, by day
    after: dict[date, set[int]] = {}
    for day, amount, balance in booked:
        if balance is not None:
            before.setdefault(day, set()).add(balance - amount)
            if stated.as_of is None or day <= stated.as_of:
                after.setdefault(day, set()).add(balance)
    if stated.opening is not None and before and stated.opening not in before[min(before)]:
        first = min(before)
        return (f"the statement's opening balance is {format_minor(stated.opening, currency)}, but the running balance"
                f" before its first day, {first.isoformat()}, is {_listed(before[first], currency)}: rows may be missing")
    if stated.closing is None or not (stated.as_of or stated.final) or not after:
        return None
    last = max(after)
    if stated.closing in after[last]:
        return None
    return (f"the statement's closing balance is {format_minor(stated.closing, currency)}, but the running balance"
            f" on its last day, {last.isoformat()}, is {_listed(after[last], currency)}: rows may be missing")


def _listed(balances: set[int], currency: str) -> str:
    return ", ".join(format_minor(balance, currency) for balance in sorted(balances))
