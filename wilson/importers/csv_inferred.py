"""CSV exports whose columns are known from their cells: files that write no header row (Raiffeisen,
POSB, Barclaycard, ...) or one in a language the generic mapper does not read (Swedish, Polish, ...).

Only a file whose first rows agree on it is taken: one column where (nearly) every cell is a date,
one (or a debit/credit pair) where they are money with decimals, and a column of words to call the
description. Anything less certain is refused rather than guessed; files with a header we can read,
and the Wells Fargo shape, are recognised by their own formats first.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from decimal import Decimal
from typing import Iterable

from wilson.importers.csv_generic import DIRECTION_WORDS, Head, Options, head_of, layout_from_roles, parse_table, sniff
from wilson.importers.csv_headers import MONEY_ROLES, classify, currency_code
from wilson.importers.dates import infer_date_format
from wilson.importers.model import ImportRefused, ParseResult
from wilson.money import AmountError, guess_decimal_separator, parse_amount

MIN_ROWS_AGREEING = 0.8  # share of the first rows that must have the common width
MOSTLY = 0.9  # share of a column's cells that must read as its role (a bad row is then a row error)
_MONEY = re.compile(r"\(?[-+]?\s*[$€£]?\s*\d{1,3}(?:[.,' ]?\d{3})*(?:[.,]\d{1,3})?\)?-?")
_DECIMALS = re.compile(r"[.,]\d\d\)?-?$")
_LETTERS = re.compile(r"[^\W\d_]")


@dataclass(frozen=True)
class Inferred:
    delimiter: str
    roles: dict[int, str]  # by column position
    header_line: int | None  # a first row of names we cannot read, if the file has one


def infer_roles(head: Head) -> Inferred | None:
    """The columns' roles read from the cells of the file's first rows, or None when unsure."""
    if head.not_csv:
        return None
    for delimiter, rows in head.rows.items():
        filled = [(line, cells) for line, cells in rows if any(c.strip() for c in cells)]
        if not filled:
            continue
        width, seen = Counter(len(cells) for _, cells in filled).most_common(1)[0]
        if width < 3 or seen < MIN_ROWS_AGREEING * len(filled):
            continue
        shaped = [(line, [c.strip() for c in cells]) for line, cells in filled if len(cells) == width]
        # A first row without a digit is names, not a transaction; otherwise try with it, then
        # without (a short file's header row alone can outvote its rows).
        named = not any(ch.isdigit() for cell in shaped[0][1] for ch in cell)
        for rows_read in (shaped[1:],) if named else (shaped, shaped[1:]):
            roles = _roles([list(column) for column in zip(*(cells for _, cells in rows_read))]) if rows_read else None
            if roles is not None:
                header = _header_line(shaped, roles)
                if header is not None and _contradicts(shaped[0][1], roles):
                    return None
                return Inferred(delimiter, roles, header)
    return None


def _contradicts(names: list[str], roles: dict[int, str]) -> bool:
    """Whether a header we partly read names a money column otherwise (the balance or an original
    amount taken for the amount): then the cells are not telling us more than the header."""
    for index, role in roles.items():
        named = classify(names[index]) if index < len(names) else None
        if role in MONEY_ROLES and named is not None and named[0] in MONEY_ROLES and named[0] != role:
            return True
    return False


def _header_line(rows: list[tuple[int, list[str]]], roles: dict[int, str]) -> int | None:
    """The first row's line when it names the columns instead of holding a transaction: no date
    where the dates are and no money where the money is."""
    line, cells = rows[0]
    dates = [i for i, role in roles.items() if role == "date"]
    money = [i for i, role in roles.items() if role in MONEY_ROLES]
    column = infer_date_format([values[dates[0]] for _, values in rows])
    if column.parse(cells[dates[0]]) is None and not any(_MONEY.fullmatch(cells[i]) for i in money):
        return line
    return None


def _roles(columns: list[list[str]]) -> dict[int, str] | None:
    """Dates, money, a D/C flag, a currency code and the wordiest text column, by position."""
    roles: dict[int, str] = {}
    money: list[int] = []
    # Whole amounts (forints, yen) are money beside a currency column when some are negative: an id
    # or a code column is neither signed nor next to a currency.
    priced = any(_mostly(map(currency_code, cells), len(cells)) for cells in columns if any(cells))
    for i, cells in enumerate(columns):
        filled = [c for c in cells if c]
        if not filled:
            continue
        if _mostly(_dates_read(cells), len(cells)):
            roles[i] = "date"
        elif _mostly(map(_MONEY.fullmatch, filled), len(filled)) and (
            any(map(_DECIMALS.search, filled)) or (priced and any(c.lstrip("(").startswith("-") for c in filled))
        ):
            money.append(i)
        elif _mostly((c.lower() in DIRECTION_WORDS for c in cells), len(cells)) and set(filled) - {"-"}:
            roles[i] = "direction"  # a column of lone dashes is a placeholder (Scotiabank's), not a flag
        elif _mostly(map(currency_code, cells), len(cells)):
            roles[i] = "currency"
    texts = [i for i in range(len(columns)) if i not in roles and i not in money]
    # A column holding one value on every row (a product name) describes no row; the first row
    # is left out of that test, as it may be a header.
    varied = [i for i in texts if len(columns[i]) < 3 or len(set(columns[i][1:])) > 1] or texts
    # Letters, weighed by how varied: a merchant differs row to row, a type (`EFTPOS DEBIT`) repeats.
    wordiest = max(varied, key=lambda i: sum(len(_LETTERS.findall(c)) for c in columns[i]) * len(set(columns[i])) / len(columns[i]),
                   default=None)
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
    """A debit/credit pair (never both filled on a row, debit written first) or a money column filled
    on every row; and a running balance the flows explain."""
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
        # The amount is the first full column, unless a later one is what a balance column moves
        # by (ABN AMRO writes the balances before and after each row ahead of its amount; ASN only
        # the balance before, which is no running balance to check against).
        explained = [
            (i, b, kind) for i in full for b in money if b != i and (kind := _explains(_decimals(columns[i]), columns[b]))
        ]
        amount, balance, kind = min(explained, key=lambda found: found[2] != "after", default=(full[0], None, None))
        return {amount: "amount", balance: "balance"} if kind == "after" else {amount: "amount"}
    for later in money:
        if later > max(roles) and _explains(flows, columns[later]) == "after":
            roles[later] = "balance"
            break
    return roles


def _explains(flows: list[Decimal], cells: list[str]) -> str | None:
    """Whether each balance is its neighbour's plus a row's flow (files run either way in time):
    "after" when it is the balance after the row, "before" when the balance before it."""
    balances = _decimals(cells)
    steps = len(flows) - 1
    if steps < 1:
        return None
    after = (  # oldest first, newest first
        sum(balances[i] == balances[i - 1] + flows[i] for i in range(1, len(flows))),
        sum(balances[i - 1] == balances[i] + flows[i - 1] for i in range(1, len(flows))),
    )
    before = (
        sum(balances[i] == balances[i - 1] + flows[i - 1] for i in range(1, len(flows))),
        sum(balances[i - 1] == balances[i] + flows[i] for i in range(1, len(flows))),
    )
    if max(after) * 2 > steps:
        return "after"
    return "before" if max(before) * 2 > steps else None


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


class InferredCsv:
    """A CSV with no header row whose columns read unambiguously as dates, money and text."""

    name = "inferred_csv"

    def detect(self, text: str) -> int:
        """20 when the cells decide; a token 1 for a file whose header the generic mapper reads, so
        this reading is tried (in `parse`) only when that one fails, and costs nothing before."""
        head = sniff(head_of(text))
        if head.not_csv:
            return 0
        if head.best_header() is not None:
            return 1
        return 20 if infer_roles(head) else 0

    def parse(self, text: str, source: str, currency: str | None = None) -> ParseResult:
        inferred = infer_roles(sniff(head_of(text)))
        if inferred is None:
            raise ImportRefused(source, "no header row we can read, and no columns that read as dates, amounts and text throughout")
        return parse_table(
            text, source, inferred.delimiter, inferred.header_line,
            lambda header: layout_from_roles(header, inferred.roles), Options(self.name, currency=currency),
        )


FORMATS = [InferredCsv()]
