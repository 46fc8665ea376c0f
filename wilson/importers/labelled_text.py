"""Statements written as blocks of `Label: value` lines, a block per transaction (Santander UK's
text download: `Date:`, `Description:`, `Amount:`, `Balance:`, blocks apart by a blank line).

Each block becomes a row of a table that the CSV reader then reads by its labels, as it reads any
header, so dates, amounts, balances and the lines above the blocks are decided as for a CSV. A row
sits on the line its block starts on, so a row's error names the file's own line.
"""

from __future__ import annotations

import csv
import io
import re

from wilson.importers.csv_generic import GenericCsv, Options, read_by_header_names
from wilson.importers.model import ImportRefused, ParseResult

_FIELD = re.compile(r"([^\W\d_][^:]{0,39}?):[ \t\u00a0]*(.*?)[ \t\u00a0]*")
MIN_FIELDS = 3  # a block of fewer is a note above the statement (`From: … to …`), not a transaction
HEAD_LINES = 60


def as_table(text: str) -> str | None:
    """The blocks as CSV lines, each row on its block's first line and the labels on the line
    before the first block; None when the text is not such blocks."""
    lines = text.split("\n")
    blocks = _blocks(lines)
    records = [block for block in blocks if block[1] and len(block[1]) >= MIN_FIELDS]
    if not records:
        return None
    labels = list(dict.fromkeys(label for _, fields in records for label, _ in fields))
    table = [""] * len(lines)
    for first, fields in blocks:
        if fields is None:
            continue  # prose above or below the statement stays out
        if len(fields) < MIN_FIELDS:  # `Account: XXXX 4521` above the blocks, for the reader's preamble
            for offset, (label, value) in enumerate(fields):
                table[first + offset] = _csv_line([label, value])
        else:
            values = dict(fields)
            table[first] = _csv_line([values.get(label, "") for label in labels])
    start = records[0][0]
    if start == 0:  # no line above the first block to hold the labels: its row moves one down
        table[0], table[1] = "", table[0]
        start = 1
    table[start - 1] = _csv_line(labels)
    return "\n".join(table)


def _blocks(lines: list[str]) -> list[tuple[int, list[tuple[str, str]] | None]]:
    """(first line index, its fields) per run of non-blank lines; fields None when a line of it
    is not `Label: value`."""
    blocks: list[tuple[int, list[tuple[str, str]] | None]] = []
    first, fields = None, []
    for index, line in enumerate([*lines, ""]):
        stripped = line.strip(" \t\u00a0")
        if not stripped:
            if first is not None:
                blocks.append((first, fields))
            first, fields = None, []
            continue
        if first is None:
            first = index
        match = _FIELD.fullmatch(stripped)
        if match is None or fields is None:
            fields = None
        else:
            fields.append((match[1].strip(), match[2]))
    return blocks


def _csv_line(cells: list[str]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="").writerow(cells)
    return out.getvalue()


class LabelledText:
    name = "labelled_text"

    def detect(self, text: str) -> int:
        head = as_table("\n".join(text.split("\n", HEAD_LINES)[:HEAD_LINES]))
        return GenericCsv().detect(head) if head else 0

    def parse(self, text: str, source: str, currency: str | None = None) -> ParseResult:
        table = as_table(text)
        if table is None:
            raise ImportRefused(source, "no blocks of `Date:`, `Amount:` lines")
        # Santander UK writes no currency: pounds, unless the user says otherwise or the lines do.
        return read_by_header_names(table, source, Options(self.name, currency=currency or "GBP"))


FORMATS = [LabelledText()]
