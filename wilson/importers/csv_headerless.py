"""CSV exports that write no header row (Raiffeisen, POSB, Barclaycard, ...): roles read from the cells.

Only a file whose first rows agree on it is taken: one column where every cell is a date, one
(or a debit/credit pair) where every cell is money with decimals, and a column of words to call
the description. Anything less certain is refused rather than guessed; files with a header, and
the Wells Fargo shape, are recognised by their own formats first.
"""

from __future__ import annotations

import re
from collections import Counter
from decimal import Decimal
from typing import Iterable

from wilson.importers.csv_generic import (
    DIRECTION_WORDS, Head, Options, currency_code, head_of, layout_from_roles, parse_table, sniff,
)
from wilson.importers.dates import infer_date_format
from wilson.importers.model import ImportRefused, ParseResult
from wilson.money import AmountError, guess_decimal_separator, parse_amount

MIN_ROWS_AGREEING = 0.8  # share of the first rows that must have the common width
MOSTLY = 0.9  # share of a column's cells that must read as its role (a bad row is then a row error)
_MONEY = re.compile(r"\(?[-+]?\s*[$€£]?\s*\d{1,3}(?:[.,' ]?\d{3})*(?:[.,]\d{1,3})?\)?-?")
_DECIMALS = re.compile(r"[.,]\d\d\)?-?$")
_LETTERS = re.compile(r"[^\W\d_]")


def infer_roles(head: Head) -> tuple[str, dict[int, str]] | None:
    """(delimiter, roles by column position) for a header-less file, or None when unsure."""
    if head.not_csv or head.best_header() is not None:
        return None
    for delimiter, rows in head.rows.items():
        records = [cells for _, cells in rows if any(c.strip() for c in cells)]
        if not records:
            continue
        width, seen = Counter(map(len, records)).most_common(1)[0]
        if width < 3 or seen < MIN_ROWS_AGREEING * len(records):
            continue
        columns = [[cells[i].strip() for cells in records if len(cells) == width] for i in range(width)]
        roles = _roles(columns)
        if roles is not None:
            return delimiter, roles
    return None


def _roles(columns: list[list[str]]) -> dict[int, str] | None:
    """Dates, money, a D/C flag, a currency code and the wordiest text column, by position."""
    roles: dict[int, str] = {}
    money: list[int] = []
    for i, cells in enumerate(columns):
        filled = [c for c in cells if c]
        if not filled:
            continue
        if _mostly(_dates_read(cells), len(cells)):
            roles[i] = "date"
        elif _mostly(map(_MONEY.fullmatch, filled), len(filled)) and any(map(_DECIMALS.search, filled)):
            money.append(i)
        elif _mostly((c.lower() in DIRECTION_WORDS for c in cells), len(cells)):
            roles[i] = "direction"
        elif _mostly(map(currency_code, cells), len(cells)):
            roles[i] = "currency"
    texts = [i for i in range(len(columns)) if i not in roles and i not in money]
    wordiest = max(texts, key=lambda i: sum(len(_LETTERS.findall(c)) for c in columns[i]), default=None)
    if "date" not in roles.values() or not money or wordiest is None or not any(map(_LETTERS.search, columns[wordiest])):
        return None
    roles[wordiest] = "text"
    roles.update(_money_roles(columns, money))
    return roles if "amount" in roles.values() or "debit" in roles.values() else None


def _mostly(hits: Iterable[object], total: int) -> bool:
    return total > 0 and sum(map(bool, hits)) >= MOSTLY * total


def _dates_read(cells: list[str]) -> list[bool]:
    column = infer_date_format(cells)
    return [column.parse(c) is not None for c in cells]


def _money_roles(columns: list[list[str]], money: list[int]) -> dict[int, str]:
    """A debit/credit pair (never both filled on a row, debit written first) or the first money
    column filled on every row; then, among the columns after it, a running balance it explains."""
    pair = next(
        ((d, c) for d, c in zip(money, money[1:]) if all(bool(a) != bool(b) for a, b in zip(columns[d], columns[c]))),
        None,
    )
    if pair is not None:
        roles = {pair[0]: "debit", pair[1]: "credit"}
        flows = [c - abs(d) for d, c in zip(_decimals(columns[pair[0]]), _decimals(columns[pair[1]]))]
    else:
        full = [i for i in money if _mostly(columns[i], len(columns[i]))]
        if not full:
            return {}
        roles = {full[0]: "amount"}
        flows = _decimals(columns[full[0]])
    for later in money:
        if later > max(roles) and _explains(flows, columns[later]):
            roles[later] = "balance"
            break
    return roles


def _explains(flows: list[Decimal], cells: list[str]) -> bool:
    """Whether each balance is its neighbour's plus the row's flow (files run either way in time)."""
    balances = _decimals(cells)
    steps = len(flows) - 1
    if steps < 1:
        return False
    forward = sum(balances[i] == balances[i - 1] + flows[i] for i in range(1, len(flows)))
    backward = sum(balances[i - 1] == balances[i] + flows[i - 1] for i in range(1, len(flows)))
    return max(forward, backward) * 2 > steps


def _decimals(column: list[str]) -> list[Decimal]:
    """Exact values of a money column's cells; blank or unreadable cells count as zero."""
    separator = guess_decimal_separator([c for c in column if c])
    values = []
    for cell in column:
        try:
            values.append(parse_amount(cell, separator) if cell else Decimal(0))
        except AmountError:
            values.append(Decimal(0))
    return values


class HeaderlessCsv:
    """A CSV with no header row whose columns read unambiguously as dates, money and text."""

    name = "headerless_csv"

    def detect(self, text: str) -> int:
        return 20 if infer_roles(sniff(head_of(text))) else 0

    def parse(self, text: str, source: str) -> ParseResult:
        inferred = infer_roles(sniff(head_of(text)))
        if inferred is None:
            raise ImportRefused(source, "no header row, and no columns that read as dates, amounts and text throughout")
        delimiter, roles = inferred
        return parse_table(
            text, source, delimiter, None, lambda header: layout_from_roles(header, roles), Options(self.name)
        )


FORMATS = [HeaderlessCsv()]
