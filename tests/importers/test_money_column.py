"""One malformed amount in a small file is that row's error alone, never the whole column's."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from wilson.cli import main
from wilson.importers.model import ImportRefused
from wilson.importers.pipeline import import_file
from wilson.ledger import Ledger

GOOD = "2025-02-01,OK1,-1.00\n2025-02-02,OK2,-2.00\n{bad}2025-02-04,OK3,-4.00\n"


def small_file(tmp_path: Path, bad: str) -> Path:
    path = tmp_path / "x.csv"
    path.write_text("Date,Description,Amount\n" + GOOD.format(bad=f"2025-02-03,BAD,{bad}\n"), encoding="utf-8")
    return path


@pytest.mark.parametrize("bad", ["1.2.5", "12..5", "-4.50.1"])
def test_the_error_names_only_the_bad_line_and_skip_bad_keeps_the_good_rows(tmp_path: Path, bad: str) -> None:
    path = small_file(tmp_path, bad)
    with Ledger() as ledger:
        with pytest.raises(ImportRefused) as refused:
            import_file(ledger, path)
        assert str(refused.value) == f"{path}: 1 row(s) could not be read: line 4, column Amount: not an amount: {bad!r}"
        summary = import_file(ledger, path, skip_bad=True)
        assert (summary.added, summary.skipped_bad) == (3, [f"line 4, column Amount: not an amount: {bad!r}"])
        assert ledger.scalar("SELECT SUM(amount) FROM transactions") == -700


def test_the_cli_says_so_in_one_line(tmp_path: Path) -> None:
    out = CliRunner().invoke(main, ["import", str(small_file(tmp_path, "12..5"))])
    assert out.exit_code == 1
    assert out.stderr.splitlines() == [
        f"wilson: {tmp_path / 'x.csv'}: 1 row(s) could not be read: line 4, column Amount: not an amount: '12..5';"
        " fix them or use --skip-bad"
    ]
