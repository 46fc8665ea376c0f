"""import_transactions: the pipeline behind a tool, with refusals as structured errors."""

from __future__ import annotations

import csv
from decimal import Decimal

import pytest

from tests.tools.books import Books
from wilson.tools import REGISTRY


@pytest.fixture
def books(tmp_path) -> Books:
    return Books(tmp_path / "w.db")


def test_import_dry_run_then_real_then_again(books, fixture_path):
    path = str(fixture_path("written/chase_checking.csv"))
    preview = books.run("import_transactions", path=path, account="Chase", dry_run=True)
    assert preview["dry_run"] and preview["added"] == 6 and preview["batch_id"] is None
    assert books.ledger.scalar("SELECT COUNT(*) FROM transactions") == 0
    done = books.run("import_transactions", path=path, account="Chase")
    assert done["added"] == 6 and done["accounts"] == ["Chase"]
    assert done["covered"]["transactions"] == 6 and done["covered"]["end_date"] == "2025-01-31"
    with open(path, newline="") as handle:
        expected = sum(Decimal(row["Amount"]) for row in csv.DictReader(handle))
    assert Decimal(books.ledger.scalar("SELECT SUM(amount) FROM transactions")) / 100 == expected
    again = books.run("import_transactions", path=path, account="Chase")
    assert again["added"] == 0 and again["duplicates"] == 6


@pytest.mark.parametrize("content, message", [(None, "no such file"), (b"", "empty"), (b"\x00\x01garbage\x02", "")])
def test_refusals_are_structured(books, tmp_path, content, message):
    path = tmp_path / "export.csv"
    if content is not None:
        path.write_bytes(content)
    result = books.run("import_transactions", path=str(path))
    assert result["error"]["type"] == "import_refused"
    assert message in result["error"]["message"] and result["error"]["path"] == str(path)
    assert books.ledger.scalar("SELECT COUNT(*) FROM transactions") == 0


def test_unknown_format_is_refused(books, fixture_path):
    result = books.run("import_transactions", path=str(fixture_path("written/chase_checking.csv")), format="nope")
    assert result["error"]["type"] == "import_refused" and "unknown format" in result["error"]["message"]


def test_flags():
    tool = REGISTRY["import_transactions"]
    assert tool.changes_data and not tool.read_only
