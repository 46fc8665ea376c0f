"""CSV exports whose columns are known from their cells: files that write no header row (Raiffeisen,
POSB, Barclaycard, ...) or one in a language the generic mapper does not read (Swedish, Polish, ...).

Only a file whose first rows agree on it is taken: one column where (nearly) every cell is a date,
one (or a debit/credit pair) where they are money with decimals, and a column of words to call the
description. Whole numbers are money only where something tells them from ids and counts: a running
balance they add up to, or signs and a currency without minor units (yen). Anything less certain is
refused rather than guessed; files with a header we can read, and the Wells Fargo shape, are
recognised by their own formats first.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from decimal import Decimal
from typing import Iterable, Sequence

from wilson.importers.csv_generic import CARD_PAYMENT_WORDS, DIRECTION_WORDS, Options, parse_table
from wilson.importers.csv_headers import MONEY_ROLES, classify, currency_code
from wilson.importers.csv_layout import Head, head_of, layout_from_roles, sniff
from wilson.importers.dates import infer_date_format
from wilson.importers.model import ImportRefused, ParseResult
from wilson.money import AmountError, direction_mark, exponent, guess_decimal_separator, parse_amount

MIN_ROWS_AGREEING = 0.8  # share of the table's first rows that must have the common width
MOSTLY = 0.9  # share of a column's cells that must read as its role (a bad row is then a row error)
TYPE_REPEATS = 2  # a type column's values recur: it holds at most one distinct value per this many rows
# Digits grouped by one mark throughout (`2 150,00`, `1.234.567`, NBSP in French exports), or not at
# all: `2025 150` is two numbers, not one.
_DIGITS = r"(?:\d+|\d{1,3}(?P<mark>[.,' \u00a0\u202f\u2009])\d{3}(?:(?P=mark)\d{3})*)"
# A sign (U+2212 too) or parentheses before or after a symbol or currency code on either side
# (`$-45.20`, `-45,20 EUR`, `45,20- €`, `$ (45.20)`), whole francs (`-45.–`), and a debit or credit
# mark after (`45.20 DR`, `45.20 Cr.`, `45.20 D`: `direction_mark`): how banks write amounts.
_SIGN = r"[-+\u2212]"
_MARK = r"(?:[$€£¥]|[A-Z]{3})"
_MONEY = re.compile(rf"\(?{_SIGN}?\s*(?:{_MARK}\s*)?\(?{_SIGN}?\s*{_DIGITS}(?:[.,]\d{{1,3}}|[.,][-–])?-?\s*(?:{_MARK}\s*)?\)?-?")
_CODE = re.compile(r"[A-Z]{3}")
_DECIMALS = re.compile(r"[.,]\d\d(?!\d)")
_SIGNED = re.compile(rf"\(|^{_SIGN}|{_SIGN}\s*\d|-$")
_LETTERS = re.compile(r"[^\W\d_]")


@dataclass(frozen=True)
class Inferred:
    delimiter: str
    roles: dict[int, str]  # by column position
    header_line: int | None  # a first row of names we cannot read, if the file has one
    first_line: int  # where the table starts: lines above it of another width are a preamble (BNP's account summary)
    whole: str | None  # how whole-number money was told from ids: "balance" or "signs"; None for decimals
    currency: str | None  # what a currency column says

    def refusal(self, currency: str | None) -> str | None:
        """Why whole numbers read as money cannot be taken with the user's `currency`, or None. The
        dollars or euros a file naming no currency is read in have cents, which whole numbers argue
        against; and in a currency with cents only a running balance tells them from ids."""
        if self.whole is None:
            return None
        currency = currency or self.currency
        if currency is None:
            return "its amounts are whole numbers and it names no currency: give it with --currency (e.g. --currency JPY)"
        if self.whole == "balance" or exponent(currency) == 0:
            return None
        return (f"its amounts are whole numbers and no running balance adds them up: in {currency.upper()}, a currency"
                " with cents, they may as well be ids or counts")


def infer_roles(head: Head) -> Inferred | None:
    """The columns' roles read from the cells of the file's first rows, or None when unsure. A
    reading with decimals beats one of whole numbers (which may need the user's currency)."""
    if head.not_csv:
        return None
    readings = filter(None, (_reading(delimiter, rows) for delimiter, rows in head.rows.items()))
    first = next(readings, None)
    if first is None or first.whole is None:
        return first
    return next((reading for reading in readings if reading.whole is None), first)


def _reading(delimiter: str, rows: list[tuple[int, list[str]]]) -> Inferred | None:
    """The reading of the rows split by `delimiter`, if its cells show one."""
    filled = [(line, cells) for line, cells in rows if any(c.strip() for c in cells)]
    if not filled:
        return None
    width = Counter(len(cells) for _, cells in filled).most_common(1)[0][0]
    table = filled[next(i for i, (_, cells) in enumerate(filled) if len(cells) == width):]
    if width < 3 or sum(len(cells) == width for _, cells in table) < MIN_ROWS_AGREEING * len(table):
        return None
    shaped = [(line, [c.strip() for c in cells]) for line, cells in table if len(cells) == width]
    # A first row without a digit is names, not a transaction; otherwise try with it, then
    # without (a short file's header row alone can outvote its rows).
    named = not any(ch.isdigit() for cell in shaped[0][1] for ch in cell)
    for rows_read in (shaped[1:],) if named else (shaped, shaped[1:]):
        columns = [list(column) for column in zip(*(cells for _, cells in rows_read))]
        found = _roles(columns, shaped[0][1] if named else None) if rows_read else None
        if found is not None:
            roles, whole = found
            header = _header_line(shaped, roles)
            # A header naming the money otherwise outvotes the cells; a summary line holding figures
            # (`Account Summary,…,Balance,1234.56`) names no column.
            if header is not None and named and _contradicts(shaped[0][1], roles):
                return None
            return Inferred(delimiter, roles, header, shaped[0][0], whole, _stated_currency(columns, roles))
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
    if column.parse(cells[dates[0]]) is None and not any(_money(cells[i]) for i in money):
        return line
    return None


def _roles(columns: list[list[str]], names: list[str] | None) -> tuple[dict[int, str], str | None] | None:
    """Dates, money, a D/C flag, a currency code, the description and a type column, by position;
    and how whole-number money was told from ids (see `Inferred.whole`)."""
    roles: dict[int, str] = {}
    money: list[int] = []
    whole: list[int] = []
    # Whole amounts (forints, yen) are money beside a currency column when some are negative: an id
    # or a code column is neither signed nor next to a currency.
    priced = any(_mostly(map(currency_code, cells), len(cells)) for cells in columns if any(cells))
    for i, cells in enumerate(columns):
        filled = [c for c in cells if c]
        if not filled:
            continue
        if _mostly(_dates_read(cells), len(cells)):
            roles[i] = "date"
        elif _mostly(map(_money, filled), len(filled)):
            (money if any(map(_DECIMALS.search, filled)) or (priced and any(map(_signed, filled))) else whole).append(i)
        elif _mostly((c.lower() in DIRECTION_WORDS for c in cells), len(cells)) and set(filled) - {"-"}:
            roles[i] = "direction"  # a column of lone dashes is a placeholder (Scotiabank's), not a flag
        elif _mostly(map(currency_code, cells), len(cells)):
            roles[i] = "currency"
    if "date" not in roles.values() or not (money or whole):
        return None
    # A column the header names as something else (`category`) describes no row.
    named = [(classify(name) or ("text",))[0] for name in names] if names else ["text"] * len(columns)
    texts = [i for i in range(len(columns)) if i not in roles and i not in money + whole and named[i] in ("text", "payee")]
    described = _text_roles(columns, texts)
    if not described:
        return None
    roles.update(described)
    if money:
        roles.update(_money_roles(columns, money, whole))
        found = "amount" in roles.values() or "debit" in roles.values()
        return (roles, None) if found else None
    counted = _whole_money(columns, whole)
    if counted is None:
        return None
    roles.update(counted[0])
    return roles, counted[1]


def _text_roles(columns: list[list[str]], texts: list[int]) -> dict[int, str]:
    """The description: the wordiest column of words that vary row to row, and any later one at
    least half as wordy (ASN's party and, far off, its message; a column before it is the row's type,
    as Scotiabank's and LCL's are, when the rows are too few to show it). One whose few values
    recur over many rows (`Debit Card Purchase`, `EFTPOS DEBIT`) is the row's type, not its description."""
    wordy = [i for i in texts if any(map(_LETTERS.search, columns[i]))]
    # A column holding one value on every row (a product name) describes no row; the first row
    # is left out of that test, as it may be a header.
    varied = [i for i in wordy if len(columns[i]) < 3 or len(set(columns[i][1:])) > 1] or wordy
    types = [i for i in varied if _recurring(columns[i])]
    free = [i for i in varied if i not in types] or varied
    if not free:
        return {}
    best = max(free, key=lambda i: _wordiness(columns[i]))
    roles = {i: "text" for i in free if i >= best and _wordiness(columns[i]) * 2 >= _wordiness(columns[best])}
    kinds = [i for i in types if i not in roles]
    if kinds:
        roles[max(kinds, key=lambda i: _wordiness(columns[i]))] = "kind"
    return roles


def _wordiness(cells: list[str]) -> float:
    """Letters, weighed by how varied: a merchant differs row to row, a type (`EFTPOS DEBIT`) repeats."""
    return sum(len(_LETTERS.findall(c)) for c in cells) * len(set(cells)) / len(cells)


def _recurring(cells: list[str]) -> bool:
    """Whether a column's few values recur over many rows, as a type column's do."""
    filled = [c for c in cells if c]
    return len(filled) >= 2 * TYPE_REPEATS and len(set(filled)) * TYPE_REPEATS <= len(filled)


def _signed(cell: str) -> bool:
    """A sign, parentheses or a debit or credit mark, which amounts carry and ids and counts never do."""
    return _SIGNED.search(cell) is not None or direction_mark(cell)[1] is not None


def _currencies_named(cells: list[str]) -> int:
    return len({code for cell in cells for code in _CODE.findall(cell)})


def _money(cell: str) -> bool:
    """Whether a cell reads as an amount; letters beside it must be a currency's code (`REF 1234` is not
    money) or a debit or credit mark."""
    number = direction_mark(cell)[0]
    return _MONEY.fullmatch(number) is not None and all(map(currency_code, _CODE.findall(number)))


def _whole_money(columns: list[list[str]], whole: list[int]) -> tuple[dict[int, str], str] | None:
    """Money roles among columns of whole numbers, and what tells them from ids and counts: "balance"
    when a running balance adds up varied amounts (a counter adds up ones), "signs" when two take
    turns as debit and credit, or one full column alone is signed (an id or a count never is)."""
    roles = _money_roles(columns, whole)
    flows = [i for i, role in roles.items() if role != "balance"]
    if "balance" in roles.values() and len({c for i in flows for c in columns[i] if c}) > 1:
        return roles, "balance"
    if "debit" in roles.values():
        return roles, "signs"
    signed = [i for i in whole if _mostly(columns[i], len(columns[i])) and any(map(_signed, columns[i]))]
    return ({signed[0]: "amount"}, "signs") if len(signed) == 1 else None


def _stated_currency(columns: list[list[str]], roles: dict[int, str]) -> str | None:
    """The currency a currency column names on most rows."""
    index = next((i for i, role in roles.items() if role == "currency"), None)
    codes = Counter(filter(None, map(currency_code, columns[index]))) if index is not None else Counter()
    return codes.most_common(1)[0][0] if codes else None


def _mostly(hits: Iterable[object], total: int) -> bool:
    return total > 0 and sum(map(bool, hits)) >= MOSTLY * total


def _dates_read(cells: list[str]) -> list[bool]:
    column = infer_date_format(cells)
    return [column.parse(c) is not None for c in cells]


def _money_roles(columns: list[list[str]], money: list[int], whole: Sequence[int] = ()) -> dict[int, str]:
    """A debit/credit pair (never both filled on a row, see `_pair_roles`) or a money column filled
    on every row; and a running balance the flows explain. A column of `whole` numbers is the
    amount only when a balance column moves by it: a spreadsheet writes `-12.5` and `2000` beside
    balances of two decimals. An unsigned column the balance goes down by is a debit column whose
    credits the rows read so far left empty (TD's `accountactivity.csv` in a month of no deposits)."""
    pair = next(
        ((d, c) for d, c in zip(money, money[1:]) if all(bool(a) != bool(b) for a, b in zip(columns[d], columns[c]))),
        None,
    )
    if pair is not None:
        return _pair_roles(columns, money, *pair)
    # A column naming currencies (`EUR 3.80`, `USD 25.99`) beside one naming none, or naming
    # several beside one naming one, holds foreign purchases' original amounts, whatever the order.
    full = sorted((i for i in money if _mostly(columns[i], len(columns[i]))), key=lambda i: min(_currencies_named(columns[i]), 2))
    if not full:
        return {}
    # The amount is the first full column, unless a later one is what a balance column moves
    # by (ABN AMRO writes the balances before and after each row ahead of its amount; ASN only
    # the balance before, which is no running balance to check against).
    flows = full + [i for i in whole if _mostly(columns[i], len(columns[i]))]
    # Amounts are turned round only beside a balance after each row, which the import then checks
    # them against (one before each, ASN's, is no running balance).
    explained = [
        (i, b, kind, sign) for i in flows for sign in _directions(columns, i) for b in money
        if b != i and (kind := _explains([sign * value for value in _decimals(columns[i])], columns[b]))
        and (sign > 0 or kind == "after")
    ]
    # A balance after each row beats one before it; the amounts as written beat them turned round.
    default = (full[0], None, None, 1)
    amount, balance, kind, sign = min(explained, key=lambda found: (found[2] != "after", found[3] < 0), default=default)
    roles = {amount: "amount"} if sign > 0 else _debit_roles(columns, amount)
    return roles | {balance: "balance"} if kind == "after" else roles


def _directions(columns: list[list[str]], money: int) -> tuple[int, ...]:
    """The signs a column's amounts may be read with beside a balance: as written, or turned round
    when none is signed (money out written unsigned). A card's payments (`PAYMENT - THANK YOU`)
    bring its balance owed down, yet are its money in."""
    if any(map(_signed, columns[money])) or _card_payments_in(columns, money):
        return (1,)
    return (1, -1)


def _debit_roles(columns: list[list[str]], debit: int) -> dict[int, str]:
    """The debit column, and beside it (after it, as most banks write them, or else before it) the
    credit column left empty so far: the rows further down may fill it."""
    empty = (i for i in (debit + 1, debit - 1) if 0 <= i < len(columns) and not any(columns[i]))
    credit = next(empty, None)
    return {debit: "debit"} if credit is None else {debit: "debit", credit: "credit"}


def _pair_roles(columns: list[list[str]], money: list[int], first: int, second: int) -> dict[int, str]:
    """A pair's debit and credit, the debit first unless only the other way round does a running
    balance after them add up (Kiwibank and Banorte write the money in first). A card's balance
    owed runs that other way too: a card payment (`PAYMENT - THANK YOU`) in the second column says
    the first holds its charges (TD's Visa)."""
    orders = [(first, second)] if _card_payments_in(columns, second) else [(first, second), (second, first)]
    for debit, credit in orders:
        flows = [c - abs(d) for d, c in zip(_decimals(columns[debit]), _decimals(columns[credit]))]
        balance = next((later for later in money if later > second and _explains(flows, columns[later]) == "after"), None)
        if balance is not None:
            return {debit: "debit", credit: "credit", balance: "balance"}
    return {first: "debit", second: "credit"}


def _card_payments_in(columns: list[list[str]], money: int) -> bool:
    """Whether a row with money in that column reads as a card's payment received."""
    filled = [i for i, cell in enumerate(columns[money]) if cell.strip()]
    return any(CARD_PAYMENT_WORDS.search(column[i]) for column in columns for i in filled)


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


INFERRED_CSV = "inferred_csv"


class InferredCsv:
    """A CSV with no header row whose columns read unambiguously as dates, money and text."""

    name = INFERRED_CSV

    def detect(self, text: str) -> int:
        """20 when the cells decide. A token 1 for a file whose header the generic mapper reads, so
        this reading is tried (in `parse`) only when that one fails and costs nothing before; and
        for one whose whole-number amounts only the user's currency makes money, so that `parse`
        reads it or says why not."""
        head = sniff(head_of(text))
        if head.not_csv:
            return 0
        if head.best_header() is not None:
            return 1
        inferred = infer_roles(head)
        if inferred is None:
            return 0
        return 20 if inferred.refusal(None) is None else 1

    def parse(self, text: str, source: str, currency: str | None = None) -> ParseResult:
        return read_by_cells(text, source, Options(self.name, currency=currency))


def read_by_cells(text: str, source: str, options: Options) -> ParseResult:
    """A table read by what its cells hold (`card_csv` reads a headerless card download so too)."""
    inferred = infer_roles(sniff(head_of(text)))
    if inferred is None:
        raise ImportRefused(source, "no header row we can read, and no columns that read as dates, amounts and text throughout")
    refusal = inferred.refusal(options.currency)
    if refusal is not None:
        raise ImportRefused(source, f"no header row we can read, and {refusal}")
    if inferred.header_line is None:
        text = _from_line(text, inferred.first_line)
    return parse_table(text, source, inferred.delimiter, inferred.header_line, lambda header: layout_from_roles(header, inferred.roles), options)


def _from_line(text: str, line: int) -> str:
    """The text with the lines above `line` blanked (a preamble is no row); line numbers stay."""
    return "\n" * (line - 1) + text.split("\n", line - 1)[-1] if line > 1 else text


FORMATS = [InferredCsv()]
