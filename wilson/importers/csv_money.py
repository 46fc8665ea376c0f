"""Money cells of a CSV export as minor units, and the currencies cells name.

Pure functions of cells, apart from the row conversion (`csv_generic`) that calls them a column
at a time: each can be checked alone against `wilson.money`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from decimal import Decimal

from wilson.importers.csv_headers import cell_currency, currency_code
from wilson.importers.model import ParsedSplit
from wilson.money import MAX_MINOR, AmountError, exponent, parse_amount, to_minor

_PLAIN = {
    ".": re.compile(r"(-?)(\d{1,15})(?:\.(\d{1,6}))?"),
    ",": re.compile(r"(-?)(\d{1,15})(?:,(\d{1,6}))?"),
}
_PLAIN_CELL = r"-?[0-9]{{1,15}}{sep}[0-9][0-9]"
_GROUPED_CELL = r"-?(?:[0-9]{{1,3}}(?:{group}[0-9]{{3}})+|[0-9]{{1,15}}){sep}[0-9][0-9]"  # `-1.234,56`, `1,234.56`
_GROUPING = {".": ",", ",": "."}  # the thousands separator beside each decimal mark
_PLAIN_COLUMN = {  # a whole column of two-decimal cells joined by newlines
    sep: re.compile(f"{_PLAIN_CELL}(?:\n{_PLAIN_CELL})*".format(sep=re.escape(sep))) for sep in (".", ",")
}
_GROUPED = {  # a cell that may group thousands (a German bank's running balance), checked one by one: a
    # pattern over the whole column would keep each repeat's state, 50 MB for 100k cells
    sep: re.compile(_GROUPED_CELL.format(sep=re.escape(sep), group=re.escape(group))) for sep, group in _GROUPING.items()
}


def minor(text: str, sep: str, exp: int, currency: str | None) -> int:
    """Minor units of one cell."""
    text = text.strip()
    match = _PLAIN[sep].fullmatch(text)
    if match:
        sign, whole, frac = match.groups()
        if frac is None or len(frac) <= exp:
            value = int(whole) * 10**exp + (int(frac.ljust(exp, "0")) if frac else 0)
            if value <= MAX_MINOR:  # else refused as out of range below
                return -value if sign else value
    return to_minor(parse_amount(text, sep), currency)


def _minor_or_error(text: str, sep: str, exp: int, currency: str | None) -> int | None | AmountError:
    if not text.strip():
        return None
    try:
        return minor(text, sep, exp, currency)
    except AmountError as exc:
        return exc


def money_column(
    values: Sequence[str], sep: str, currency: str, row_currencies: list[str | None] | None = None
) -> list[int | None | AmountError]:
    """A column in minor units: None for an empty cell, the AmountError for an unreadable one.

    A column of plain `-1234.56` cells (what most banks write) is recognised by one regex over the
    whole column and converted by C-level maps; any other is read once per distinct cell, or per
    row when rows carry currencies with different numbers of decimals.
    """
    exp = exponent(currency)
    if row_currencies is not None and any(exponent(code) != exp for code in set(row_currencies) if code):
        return [_minor_or_error(v, sep, exponent(c or currency), c or currency) for v, c in zip(values, row_currencies)]
    # Mostly distinct cells (running balances) convert directly; repeated ones (amounts) once each.
    sample = values[:1000]
    cells = values if len(set(sample)) * 2 > len(sample) else list(set(values))
    joined = "\n".join(cells)
    plain = exp == 2 and sep in _GROUPING and joined.count("\n") == len(cells) - 1
    converted = None
    if plain and (_PLAIN_COLUMN[sep].fullmatch(joined) or all(map(_GROUPED[sep].fullmatch, cells))):
        # every cell is `-1234{sep}56`, its thousands perhaps grouped
        converted = list(map(int, joined.replace(_GROUPING[sep], "").replace(sep, "").split("\n")))
        if max(converted) > MAX_MINOR or -min(converted) > MAX_MINOR:
            converted = None  # each cell is refused as out of range below
    if converted is not None:
        if cells is values:
            return converted
        known = dict(zip(cells, converted))
    else:
        known = {value: _minor_or_error(value, sep, exp, currency) for value in set(values)}
    return list(map(known.__getitem__, values))


_GROUP_HEAD = re.compile(r"\(?[-+]?\s*[$€£]?\s*-?\d{1,3}")  # `-1` of `-1,250.00`, `$12` of `$12,000`
_GROUP_TAIL = re.compile(r"\d{3}(?:\.\d{1,2})?\)?")  # `250.00`, `000`, `567.89)`


def grouped_cells_joined(cells: list[str], money: set[int], most: int) -> list[str]:
    """`cells` with up to `most` cells taken back into the money cell before them that they
    continue (`-1` then `250.00`, `1` then `234` then `567.89`)."""
    joined: list[str] = []
    i = 0
    while i < len(cells):
        cell = cells[i]
        if len(joined) in money and most and _GROUP_HEAD.fullmatch(cell.strip()):
            while most and i + 1 < len(cells) and "." not in cell and _GROUP_TAIL.fullmatch(cells[i + 1].strip()):
                i, cell, most = i + 1, f"{cell},{cells[i + 1]}", most - 1
        joined.append(cell)
        i += 1
    return joined


def split_amount(debit: int | None | AmountError, credit: int | None | AmountError, raw_debit: str, raw_credit: str):
    """Debit/credit columns: a debit is an outflow and a credit an inflow whether or not the bank
    signed it (Citi writes its credits negative)."""
    if debit is None and credit is None:
        return None
    for value in (credit, debit):
        if isinstance(value, AmountError):
            return value
    inflow, outflow = abs(credit or 0), abs(debit or 0)
    if inflow and outflow:
        # A real row moves money one way; both filled is usually `1,200.00` split by an unquoted comma.
        return AmountError(f"both the debit ({raw_debit.strip()}) and the credit ({raw_credit.strip()}) column hold an amount")
    return inflow - outflow


def less_fee(amount, fee):
    """An amount after its fee column (a fee is always a cost); an unreadable fee is the row's error;
    a row with only a fee (Capitec's monthly fee) costs that fee."""
    if amount is None and fee.__class__ is int and fee:
        return -abs(fee)
    if amount.__class__ is not int or fee is None:
        return amount
    return amount - abs(fee) if fee.__class__ is int else fee


def directed(amount, flag: str, sign: int | None):
    """Apply a D/C flag; a row left unflagged where only credits are marked (CR) is a charge."""
    if amount.__class__ is not int:
        return amount
    if sign is not None:
        return abs(amount) * sign
    return -abs(amount) if not flag else amount


def currency_cell(cell: str) -> str | None:
    """A currency column's cell as a code: a code as written (`usd`, and `BTC`, which no list of
    ours holds), a symbol as its code (`£`, `R$`); a bare `$` names no one currency, so the row is
    in the file's."""
    text = cell.strip()
    if text.isascii() and text.isalpha():
        return currency_code(text) or text.upper()
    return cell_currency(text)


def row_currency(cell: str) -> str | None:
    """A cell's currency in a file of several: a bare `$` beside `€` and `£` cells is dollars."""
    return cell_currency(cell) or ("USD" if "$" in cell else None)


def split_parts(cell: str, currency: str) -> list[ParsedSplit]:
    """A ledger export's split parts (`[{"amount": "-60.00", "category": "Food:Groceries", ...}]`);
    none for an empty cell. ValueError says what is wrong with one that can't be read."""
    if not cell.strip():
        return []
    try:
        parts = json.loads(cell)
    except ValueError:
        raise ValueError("not a JSON list of split parts") from None
    if not isinstance(parts, list) or not all(isinstance(p, dict) and "amount" in p for p in parts):
        raise ValueError("each split part needs an amount")
    try:
        return [ParsedSplit(to_minor(Decimal(str(p["amount"])), currency), _text(p.get("category")), _text(p.get("memo"))) for p in parts]
    except (ArithmeticError, AmountError) as exc:
        raise ValueError(f"a split part's amount can't be read ({exc})") from None


def _text(value: object) -> str | None:
    return str(value) if value not in (None, "") else None


_BARE_DOLLAR = re.compile(r"(?<![A-Za-z])\$")  # not `AU$`, `MX$`, `R$`
_WRITTEN_WITH_DOLLARS = frozenset(("USD", "CAD", "AUD", "NZD", "SGD", "HKD", "MXN", "TWD", "CLP", "COP", "ARS"))


def original_amount(raw: str, raw_currency: str, sep: str, amount, currency: str) -> tuple[int | None, str | None]:
    """Foreign-currency amount: the cell may carry its code (`12.50 USD`); the sign follows the row.
    None when it is in the row's own currency (Curve fills it on every row)."""
    if not raw or amount.__class__ is not int:
        return None, None
    code = cell_currency(raw_currency) or cell_currency(raw)
    if code == currency.upper():
        return None, None
    try:
        value = abs(minor(raw, sep, exponent(code), code))
    except AmountError:
        return None, None
    if code is None and _BARE_DOLLAR.search(raw):
        # A lone `$` names no one currency: beside an account written in dollars, the account's own
        # when it is the row's amount, else (and beside euros, francs) most likely the US dollar.
        if currency.upper() in _WRITTEN_WITH_DOLLARS and value == abs(amount):
            return None, None
        code = None if currency.upper() == "USD" else "USD"
    return (-value if amount < 0 else value), code
