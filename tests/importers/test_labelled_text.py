"""Blocks of `Label: value` lines, a block per transaction: Santander UK's text download."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from parsed_fixtures import parse_fixture

from wilson.importers.formats import parse_file
from wilson.importers.labelled_text import LabelledText, as_table
from wilson.importers.pipeline import import_file
from wilson.ledger import Ledger


def test_santander_uk_text_download() -> None:
    """cp1252 with CRLF, a no-break space after each label, a note and the account above the blocks."""
    result = parse_fixture("written/santander_uk.txt", "labelled_text")
    rows = result.transactions
    assert [(t.posted, t.amount) for t in rows][:2] == [(date(2025, 1, 29), -95000), (date(2025, 1, 22), -320)]
    assert sum(t.amount for t in rows) == -95000 - 320 - 8900 + 210050 - 1240
    assert rows[1].description == "CARD PAYMENT TO CAFÉ NERO 44,3.20 GBP, RATE 1.00/GBP ON 20-01-2025"
    assert result.accounts[0].currency == "GBP"


def test_its_running_balance_sets_the_accounts(fixture_path) -> None:  # type: ignore[no-untyped-def]
    with Ledger() as ledger:
        summary = import_file(ledger, fixture_path("written/santander_uk.txt"))
        assert summary.added == 5 and not summary.warnings
        assert summary.accounts == ["Checking …4521"]  # the card's mask above the blocks is a number, not a name
        assert ledger.query_one("SELECT currency, balance FROM accounts") == {"currency": "GBP", "balance": 254590}


def test_a_row_error_names_the_line_its_block_starts_on(tmp_path: Path) -> None:
    path = tmp_path / "statement.txt"
    path.write_text("Date: 02/01/2025\nDescription: TESCO\nAmount: -12.50\n\nDate: 31/02/2025\nDescription: BAD\nAmount: -1.00\n")
    result = parse_file(path)
    assert [(t.posted, t.amount) for t in result.transactions] == [(date(2025, 1, 2), -1250)]
    assert [(e.line, e.column) for e in result.errors] == [(5, "Date")]


def test_other_files_with_colons_are_not_blocks() -> None:
    csv_preamble = "Account: 1234\nFrom: 01/01/2025\nTo: 31/01/2025\n\nDate,Description,Amount\n02/01/2025,TESCO,-12.50\n"
    assert LabelledText().detect(csv_preamble) == 0
    assert as_table("Notes: one\nTwo lines: here\n") is None
    assert LabelledText().detect("Name: Jo\nCity: Leeds\nPhone: 0113\n") == 0  # blocks, but no dates and amounts


def test_a_card_number_masked_any_way_above_the_blocks_is_the_accounts(fixture_path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    text = fixture_path("written/santander_uk.txt").read_bytes()
    for mask in (b"xxxx xxxx xxxx", b"XXXX-XXXX-XXXX-", b"**** **** ****"):
        masked = tmp_path / "statement.txt"
        masked.write_bytes(text.replace(b"XXXX XXXX XXXX ", mask + (b"" if mask.endswith(b"-") else b" ")))
        assert parse_file(masked).accounts[0].number.endswith("4521"), mask
