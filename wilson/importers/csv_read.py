"""CSV text to cells: records with the line each starts on, or whole columns in one split.

A quote after a delimiter and a space opens a quoted field (`2026-10-02, "REWE, Filiale 12", -45.20`,
as hand-written and some exporters' files have it): in such a file the spaces before a field count
for nothing (the cells' readers strip them anyway).

Which row is the header and what each column means is the business of `csv_layout` and `csv_generic`;
this module only turns text into cells, the csv module's way, as fast as the file allows.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Sequence
from operator import methodcaller

from wilson.importers.model import RowError, digit_shape

MAX_FILE_FIELD = 256 * 1024 * 1024


def _spaced(text: str, delimiter: str) -> bool:
    """Whether the text quotes a field after a delimiter and a space: then spaces before fields are skipped."""
    return f'{delimiter} "' in text


def read_rows(text: str, delimiter: str) -> tuple[list[tuple[int, list[str]]], list[RowError]]:
    """(line, cells) for every physical record, blank ones included, with the line it starts on."""
    lines, records, errors, _ = read_records(text, delimiter)
    return list(zip(lines, records)), errors


def read_records(text: str, delimiter: str) -> tuple[Sequence[int], list[list[str]], list[RowError], list[str]]:
    """Every physical record's cells, blank ones included, the line each starts on, the rows that
    could not be read, and warnings."""
    if '"' not in text:
        # Nothing quoted: a record is a line, split at the delimiter (what the csv module would do).
        body = text[:-1] if text.endswith("\n") else text
        records = list(map(methodcaller("split", delimiter), body.split("\n")))
        return range(1, len(records) + 1), records, [], []
    # The csv module stops at a 128 KB field and loses every later row; read huge fields whole so
    # the row checks can name that one row and the rest still import.
    csv.field_size_limit(max(csv.field_size_limit(), MAX_FILE_FIELD))
    errors: list[RowError] = []
    try:
        records = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, skipinitialspace=_spaced(text, delimiter)))
    except csv.Error:
        records = None
    lines: Sequence[int]
    warnings: list[str] = []
    if records is not None and len(records) == text.count("\n") + (not text.endswith("\n")):
        lines = range(1, len(records) + 1)  # one record per line (no quoted line breaks)
    else:
        lines, records = [], []
        reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, skipinitialspace=_spaced(text, delimiter))
        start = 1
        try:
            for cells in reader:
                lines.append(start)
                records.append(cells)
                start = reader.line_num + 1
        except csv.Error as exc:
            errors.append(RowError(start, f"unreadable CSV from here on ({exc}); is a quote left open?"))
            return lines, records, errors, []
        lines, records, warnings = _stray_quotes_undone(text, lines, records, delimiter)
    if records and _ends_inside_quotes(text, lines[-1], delimiter):
        errors.append(RowError(lines[-1], "the file ends inside a quoted field (truncated file?); this row was not read"))
        lines, records = lines[:-1], records[:-1]
    return lines, records, errors, warnings


def _stray_quotes_undone(
    text: str, lines: list[int], records: list[list[str]], delimiter: str
) -> tuple[list[int], list[list[str]], list[str]]:
    """Records read over several lines because a field opened a quote it never closed (an exporter
    that does not escape a description's `"`), read again one line each, the quote kept as text,
    when a line inside them reads as a row of the file: as wide as most rows, its first cell shaped
    like theirs (`2025-04-06`). A field that really runs over lines (Amex's addresses) holds no such line."""
    physical = text[:-1].split("\n") if text.endswith("\n") else text.split("\n")
    ends = [*lines[1:], len(physical) + 1]
    spanning = [i for i, (start, end) in enumerate(zip(lines, ends)) if end - start > 1]
    if not spanning:
        return lines, records, []
    single = [cells for i, cells in enumerate(records) if ends[i] - lines[i] == 1 and cells]
    if not single:
        return lines, records, []
    width = Counter(map(len, single)).most_common(1)[0][0]
    shape = Counter(digit_shape(cells[0]) for cells in single).most_common(1)[0][0]
    redone: dict[int, list[list[str]]] = {}
    for i in spanning:
        inner = physical[lines[i] - 1 : ends[i] - 1]
        again = [  # a line whose quotes pair up is quoted as any other; the stray quote's own is text
            next(csv.reader(
                [line], delimiter=delimiter, skipinitialspace=_spaced(line, delimiter),
                quoting=csv.QUOTE_NONE if line.count('"') % 2 else csv.QUOTE_MINIMAL,
            ), [])
            for line in inner
        ]
        if any(len(cells) == width and digit_shape(cells[0]) == shape for cells in again[1:]):
            redone[i] = again
    if not redone:
        return lines, records, []
    new_lines: list[int] = []
    new_records: list[list[str]] = []
    for i, (line, cells) in enumerate(zip(lines, records)):
        taken = redone.get(i, [cells])
        new_lines += range(line, line + len(taken))
        new_records += taken
    warnings = [f"line {lines[i]}: a quote opened here is never closed; lines {lines[i]}–{lines[i] + len(again) - 1} are read"
                " a row each, the quote kept as text" for i, again in redone.items()]
    return new_lines, new_records, warnings


def has_long_line(text: str, limit: int) -> bool:
    """Whether some line is longer than `limit` characters. A line that long covers a whole block
    of limit/2 characters, so only blocks without a line break are looked at closely."""
    block = max(1, limit // 2)
    if all(text.find("\n", start, start + block) >= 0 for start in range(0, len(text) - block + 1, block)):
        return False
    return max(map(len, text.split("\n"))) > limit


_ROW_END, _JOIN = "\x1f", "\x1e"  # helpers while a block is split in one go; never in a decoded export


def uniform_columns(text: str, delimiter: str, first_line: int) -> tuple[int, list[list[str]]] | None:
    """(offset of `first_line`, its columns) when every line from there on has the same number of
    cells and none runs over a line end: unquoted, quoted cell by cell without quotes inside
    (`"a","b"`, as many banks write every field), or with a few quoted fields; None otherwise.

    The lines are joined by the separator and split once, so column i is every n-th cell from i:
    no list per row and no transposing. A marker on each line end proves the split stayed aligned.
    """
    if _ROW_END in text or _JOIN in text:
        return None
    start = 0
    for _ in range(first_line - 1):
        start = text.find("\n", start) + 1
        if not start:
            return None
    body = text[start:-1] if text.endswith("\n") else text[start:]
    if not body or body.startswith("\n") or body.endswith("\n") or "\n\n" in body:
        return None  # blank lines: the general read drops them
    quoted: dict[int, list[str]] = {}
    all_quoted = _all_quoted(body, delimiter)
    if '"' not in body:
        separator, joined = delimiter, body.replace("\n", _ROW_END + delimiter)
    elif all_quoted is not None:
        separator, joined = all_quoted
    else:
        blanked = _blank_quoted_lines(body, delimiter)
        if blanked is None:
            return None
        body, quoted = blanked
        separator, joined = delimiter, body.replace("\n", _ROW_END + delimiter)
    first = joined[: joined.find(_ROW_END)] if _ROW_END in joined else joined
    width = first.count(separator) + 1
    rows = body.count("\n") + 1
    del body, first  # a 100k-row file's text is held three times over here: let two go before the split
    cells = joined.split(separator)
    del joined
    if len(cells) != rows * width:
        return None
    # Aligned when each row's last cell holds one of the rows - 1 markers (a marker always ends a cell).
    ends = _JOIN.join(cells[width - 1 :: width])
    if ends.count(_ROW_END) != rows - 1 or ends.count(_ROW_END + _JOIN) != rows - 1:
        return None
    columns = [cells[i::width] for i in range(width - 1)]
    columns.append(ends.replace(_ROW_END, "").split(_JOIN))
    for row, values in quoted.items():
        for column, value in zip(columns, values):
            column[row] = value
    return start, columns


def _all_quoted(body: str, delimiter: str) -> tuple[str, str] | None:
    """(separator, lines joined by it) when every field of every line is quoted with no quote
    inside: then `","` separates fields and the outer quotes can go."""
    if not (body.startswith('"') and body.endswith('"')):
        return None
    separator = f'"{delimiter}"'
    joined = body[1:-1].replace('"\n"', _ROW_END + separator)
    if joined.count('"') != 2 * joined.count(separator):
        return None  # a quote that is not a field's own: escaped quotes, partly quoted rows
    return separator, joined


def _blank_quoted_lines(body: str, delimiter: str) -> tuple[str, dict[int, list[str]]] | None:
    """The few lines that quote a field (a description with a comma) read by the csv module and
    left as empty cells in `body`, so the rest still splits in one go; None when a quoted field
    runs over a line end or so many lines are quoted that the csv module reads the file faster."""
    lines = body.split("\n")
    marked = [i for i, line in enumerate(lines) if '"' in line]
    if len(marked) * 4 > len(lines):
        return None
    quoted = {}
    for i in marked:
        if lines[i].count('"') % 2:
            return None
        try:
            cells = next(csv.reader([lines[i]], delimiter=delimiter, skipinitialspace=_spaced(lines[i], delimiter)))
        except csv.Error:
            return None
        quoted[i] = cells
        lines[i] = delimiter * (len(cells) - 1)
    return "\n".join(lines), quoted


def _ends_inside_quotes(text: str, line: int, delimiter: str) -> bool:
    """Whether the record starting at `line` runs into the end of the file with a quote open."""
    pos = len(text)
    for _ in range(text.count("\n", 0, len(text)) - line + 2):
        pos = text.rfind("\n", 0, pos)
    tail = text[pos + 1 :]
    if tail.count('"') % 2 == 0:
        return False
    try:
        list(csv.reader(io.StringIO(tail, newline=""), delimiter=delimiter, skipinitialspace=_spaced(tail, delimiter), strict=True))
    except csv.Error:
        return True
    return False
