"""Exports that hold several accounts' tables one after the other, each under a title line
(comdirect): each table is read as a file of its own, and the results joined under their accounts.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from wilson.importers.csv_headers import normalise_header
from wilson.importers.csv_layout import HEAD_LINES, header_score
from wilson.importers.model import ParsedAccount, ParsedRows, ParseResult

# A line naming the account of the table under it, in an export of several accounts' tables one
# after the other, each with its own header: comdirect's `"Umsätze Girokonto";"Zeitraum: 30 Tage"`,
# `"Umsätze Visa-Karte (Kreditkarte) ..9255 (Ismael)";…`, `"Umsätze Tagesgeld PLUS-Konto";…`.
_SECTION_TITLE = re.compile(r"\s*ums(?:ä|ae)tze\s+(?P<product>[^\W\d_].*)", re.I)
_SECTION_PERIOD = re.compile(r"\s*zeitraum\b", re.I)  # comdirect's second cell: `Zeitraum: 30 Tage`
_CARD_PRODUCT = re.compile(r"karte\b|\bvisa\b|master\s*card|credit\s*card", re.I)
_PARENTHESES = re.compile(r"\([^)]*\)")
_A_DATE = re.compile(r"\d{1,4}[./-]\d{1,2}[./-]\d{1,4}")
_SECURITY_COLUMNS = frozenset(("wkn", "isin", "stuck nom", "stuck", "stueck"))
_CARD_DIGITS = re.compile(r"(?:\.\.|\*+|x+)\s*(\d{4})\b", re.I)  # `..9255`


def section_title(cells: list[str]) -> tuple[str, None, bool] | None:
    """(name, number, is a card) of the account a section title names, or None for another line:
    comdirect's `Umsätze Visa-Karte (Kreditkarte) ..9255 (Ismael)` is `comdirect Visa-Karte …9255`."""
    match = _SECTION_TITLE.fullmatch(cells[0]) if cells and sum(map(bool, cells)) <= 2 else None
    if match is None or not match["product"][0].isupper() or _A_DATE.search(match["product"]):
        return None  # a product is a noun: `Umsätze vom 01.03.2024` names a period
    product = " ".join(_PARENTHESES.sub(" ", match["product"]).split())  # `(Kreditkarte)`, the holder's `(Ismael)`
    digits = _CARD_DIGITS.search(product)
    if digits:
        product = f"{product[: digits.start()].strip()} …{digits[1]}"
    named = f"comdirect {product}" if len(cells) > 1 and _SECTION_PERIOD.match(cells[1]) else product
    return named, None, bool(_CARD_PRODUCT.search(match["product"]))


def titled_tables(
    lines: Sequence[int], records: list[list[str]], header_line: int | None
) -> list[tuple[int, int | None, int, str | None]]:
    """(first line, end line or None for the file's end, header line, why it is skipped or None)
    of each table when the file holds several accounts' tables, each under a title line naming its
    account and with a header of its own (they may differ: comdirect's card table has a `Referenz`
    column); [] for one table. A title with no table under it (`Keine Umsätze vorhanden.`) is left
    out with its lines; a table of securities trades (comdirect's `Depot`: `WKN`, `Stück / Nom.`)
    is skipped with a warning, as its money moved in the cash account, whose table holds it too."""
    if header_line is None or header_line not in lines:
        return []
    if not any(map(section_title, records[: lines.index(header_line)])):
        return []  # the usual file: no title above the (first) header, so no titled tables
    titles = [i for i, cells in enumerate(records) if cells and section_title(cells)]
    if len(titles) < 2:
        return []
    tables, start = [], 0
    for title, end in zip(titles, titles[1:] + [len(records)]):
        header = next((i for i in range(title + 1, min(end, title + HEAD_LINES)) if header_score(records[i])), None)
        if header is not None:
            securities = not _SECURITY_COLUMNS.isdisjoint(map(normalise_header, records[header]))
            skipped = f"line {lines[title]}: skipped the table {records[title][0].strip()!r}: securities trades, not payments" \
                if securities else None
            tables.append((lines[start], lines[end] if end < len(records) else None, lines[header], skipped))
        start = end
    return tables


def joined_sections(format_name: str, results: list[ParseResult]) -> ParseResult:
    """The results of a file's tables as one, each table's rows under its own account (the title's
    name is the key, so a title repeated in files joined by `cat` is the same account)."""
    joined = ParseResult(format_name, [], [])
    accounts: dict[str, ParsedAccount] = {}
    parts: list[tuple[ParsedRows, list[str]]] = []
    for n, result in enumerate(results, 1):
        rows = ParsedRows.of(result.transactions)
        if rows.has("account_key"):  # a table that names its rows' accounts itself
            keys = rows.column("account_key")
            for account in result.accounts:
                accounts.setdefault(account.key, account)
        elif result.accounts:  # (a skipped table has none)
            account = result.accounts[0]
            account.key = account.name or f"table {n}"
            accounts.setdefault(account.key, account)
            keys = [account.key] * len(rows)
        else:
            keys = []
        parts.append((rows, keys))
        joined.errors += result.errors
        joined.warnings += result.warnings
        joined.skipped_pending += result.skipped_pending
        joined.skipped_reverted += result.skipped_reverted
    names = dict.fromkeys(name for rows, _ in parts for name in rows.columns)
    columns = {name: [value for rows, _ in parts for value in rows.column(name)] for name in names}
    columns["account_key"] = [key for _, keys in parts for key in keys]
    joined.transactions = ParsedRows(columns, len(columns["account_key"]))
    joined.accounts = list(accounts.values())
    joined.warnings = list(dict.fromkeys(joined.warnings))
    joined.errors.sort(key=lambda e: e.line)
    return joined
