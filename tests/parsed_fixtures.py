"""Fixture files parsed the way `wilson import` parses them: format chosen from the content."""

from __future__ import annotations

from pathlib import Path

from wilson.importers.formats import choose_format, parse_file, read_bytes
from wilson.importers.model import ParseResult
from wilson.importers.text import decode

FIXTURES = Path(__file__).parent / "fixtures"


def read_text(path: Path) -> str:
    """A file's text as `wilson import` decodes it."""
    return decode(read_bytes(path), str(path))


def parse_fixture(name: str, expected_format: str) -> ParseResult:
    """The parse of `fixtures/<name>`, which must be recognised as `expected_format` and read cleanly."""
    path = FIXTURES / name
    text = read_text(path)
    fmt = choose_format(text, str(path))
    assert fmt.name == expected_format
    result = fmt.parse(text, str(path))
    # The generic reader reports a card file whose charges it negated as read in `card_csv`.
    assert result.format == expected_format or (result.format, result.sign_reading) == ("card_csv", "card")
    assert result.errors == []
    return result


def parse_written(tmp_path: Path, text: str, encoding: str = "utf-8") -> ParseResult:
    """The parse of `text` written to a file in `encoding`, as `wilson import` reads it."""
    path = tmp_path / "export.csv"
    path.write_bytes(text.encode(encoding))
    return parse_file(path)
