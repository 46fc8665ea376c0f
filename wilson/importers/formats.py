"""Recognising an export from its content and handing it to the right parser.

Each parser module exposes `FORMATS`, a list of objects with a `name`, a `detect(text) -> int`
confidence (0 = not mine, 100 = certain) and a `parse(text, source, currency) -> ParseResult`, where
`currency` is the user's word for a file that states none. The file's name never decides the
format; `--format NAME` may force one.
"""

from __future__ import annotations

import hashlib
import importlib
import re
import sys
from pathlib import Path
from typing import Protocol

from wilson.importers.model import LEDGER_EXPORTS, ImportRefused, ParseResult

_PARSER_MODULES = (
    "wilson.importers.ofx",
    "wilson.importers.qif",
    "wilson.importers.csv_banks",
    "wilson.importers.csv_generic",
    "wilson.importers.csv_inferred",
    "wilson.importers.labelled_text",
)

MAX_FILE_BYTES = 200 * 1024 * 1024
STDIN = Path("-")  # `wilson import -`: the export piped in


class Format(Protocol):
    name: str

    def detect(self, text: str) -> int: ...

    def parse(self, text: str, source: str, currency: str | None = None) -> ParseResult: ...


def all_formats() -> list[Format]:
    formats: list[Format] = []
    for module in _PARSER_MODULES:
        formats.extend(importlib.import_module(module).FORMATS)
    return formats


def format_names() -> list[str]:
    return [f.name for f in all_formats()]


def ranked_formats(text: str, source: str, forced: str | None = None) -> list[Format]:
    """The formats that recognise the text, most confident first (on a tie, the earlier listed);
    only the forced one when `--format` names one."""
    formats = all_formats()
    if forced:
        for fmt in formats:
            if fmt.name == forced.strip().lower():  # `--format QIF`
                return [fmt]
        raise ImportRefused(source, f"unknown format {forced!r}; known: {', '.join(f.name for f in formats)}")
    scored = sorted(((fmt.detect(text), -order, fmt) for order, fmt in enumerate(formats)), key=lambda s: s[:2], reverse=True)
    ranked = [fmt for score, _, fmt in scored if score > 0]
    if not ranked:
        raise ImportRefused(source, _unrecognised(text))
    return ranked


_SWIFT_STATEMENT = re.compile(r"^:20:.*\n(?:.*\n)*?:25:.*\n(?:.*\n)*?:6[01][FM]?:", re.M)  # `:20:` reference, `:25:` account, `:60F:` balance


def _unrecognised(text: str) -> str:
    """Why no format took the file; a table is told what was looked for in it."""
    from wilson.importers.csv_layout import head_of, sniff

    if _SWIFT_STATEMENT.search(text[:4096]):
        return "an MT940 (SWIFT) statement, which Wilson does not read: download the account's CSV, OFX or QIF instead"
    head = sniff(head_of(text))
    if not head.not_csv and any(len(cells) > 1 for rows in head.rows.values() for _, cells in rows):
        return ("not a recognisable bank export: no header row in the first lines names a date and an amount column,"
                " and no column of its rows reads as dates beside one of amounts")
    return "not a recognisable bank export (CSV, OFX/QFX or QIF)"


def choose_format(text: str, source: str, forced: str | None = None) -> Format:
    return ranked_formats(text, source, forced)[0]


def read_bytes(path: Path) -> bytes:
    """The file's bytes, read once (a pipe or process substitution cannot be read twice)."""
    source = str(path)
    limit = f"the limit is {MAX_FILE_BYTES // (1024 * 1024)} MB"
    try:
        if path == STDIN:
            data = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
        else:
            size = path.stat().st_size
            if size > MAX_FILE_BYTES:
                raise ImportRefused(source, f"file is {size // (1024 * 1024)} MB; {limit}")
            with path.open("rb") as handle:  # a pipe or a device states no size: read no further than the limit
                data = handle.read(MAX_FILE_BYTES + 1)
        if len(data) > MAX_FILE_BYTES:
            raise ImportRefused(source, f"more than {MAX_FILE_BYTES // (1024 * 1024)} MB to read; {limit}")
    except FileNotFoundError:
        raise ImportRefused(source, "no such file") from None
    except IsADirectoryError:
        raise ImportRefused(source, "is a directory, not a file") from None
    except PermissionError:
        raise ImportRefused(source, "permission denied") from None
    except OSError as exc:  # a symlink loop, a device that cannot be read
        raise ImportRefused(source, (exc.strerror or str(exc)).lower()) from None
    if not data or data.isspace():
        raise ImportRefused(source, "the file is empty")
    return data


def parse_file(path: Path, forced_format: str | None = None, currency: str | None = None) -> ParseResult:
    return parse_bytes(read_bytes(path), str(path), forced_format, currency)


def parse_bytes(data: bytes, source: str, forced_format: str | None = None, currency: str | None = None) -> ParseResult:
    """Parse a file's bytes, read once by the caller: a pipe cannot be read again to parse it another way."""
    from wilson.importers.text import decode

    text = decode(data, source)
    ranked = ranked_formats(text, source, forced_format)
    if ranked[0].name in _GUESSING:
        _refuse_coins(text, source)
    fmt, result = _best_reading(ranked, text, source, currency)
    result.file_hash = hashlib.sha256(data).hexdigest()
    if not result.transactions and not result.errors:
        if forced_format and not fmt.detect(text):
            raise ImportRefused(source, f"no transactions read as {forced_format} (--format); is it another format?")
        noted = f" ({'; '.join(result.warnings)})" if result.warnings else ""
        raise ImportRefused(source, "the file holds no transactions" + noted)
    return result


# The formats that map any table: a bank's own dialect knows its coins (Cash App's `Bitcoin Buy` costs dollars).
_BY_CELLS = "inferred_csv"  # reads a table by its cells alone, without a header
_GUESSING = ("generic_csv", "card_csv", _BY_CELLS)


def _refuse_coins(text: str, source: str) -> None:
    """A crypto exchange's history is refused when it would be read as a table of money (also
    forced to one): its coin prices and quantities came out as income."""
    from wilson.importers.csv_layout import crypto_assets

    coins = crypto_assets(text)
    if coins:
        raise ImportRefused(source, f"a crypto exchange's history (it trades {', '.join(coins[:3])}{' …' if len(coins) > 3 else ''}):"
                                    " Wilson books money, not coins")


def _best_reading(ranked: list[Format], text: str, source: str, currency: str | None) -> tuple[Format, ParseResult]:
    """The most confident format's reading, unless it refuses the file or fails on most rows and a
    less confident one reads every row (`Valuta` is a value date in German, a currency in Swedish).
    A ledger's own export stands: its rows fail only where the user edited them. Nor is a table in
    a bank's own layout read by its cells alone: they would take its balances for the amounts."""
    first: tuple[Format, ParseResult] | None = None
    refusal: ImportRefused | None = None
    for rank, fmt in enumerate(ranked):
        if first is not None and first[0].name not in _GUESSING and fmt.name == _BY_CELLS:
            break  # a bank's own header was found: its rows' errors are real (a column of `#VALUE!` beside the balance)
        try:
            result = fmt.parse(text, source, currency)
        except ImportRefused as exc:
            refusal = refusal or exc
            continue
        if (result.transactions and not result.errors) or (
            rank == 0 and (len(result.errors) <= len(result.transactions) or result.format in LEDGER_EXPORTS)
        ):
            return fmt, result
        first = first or (fmt, result)
    if first is not None:
        return first
    assert refusal is not None  # every format refused
    raise refusal
