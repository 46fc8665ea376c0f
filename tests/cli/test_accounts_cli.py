"""`wilson accounts`: one line per account that says all the ledger holds of it."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from wilson.cli import main


def test_each_account_is_one_line_with_its_pending_rows_and_other_currencies(tmp_path: Path) -> None:
    pending = tmp_path / "pending.csv"
    pending.write_text("Date,Description,Amount,Status\n2025-03-04,HOTEL,-100.00,Pending\n", encoding="utf-8")
    mixed = tmp_path / "mixed.csv"
    mixed.write_text("Date,Description,Amount,Currency\n2025-03-04,COFFEE,-4.50,USD\n2025-03-05,RAMEN,-1200,JPY\n", encoding="utf-8")
    runner = CliRunner()
    assert runner.invoke(main, ["import", str(pending), "--account", 'Acme, "Main"\nSaver']).exit_code == 0
    assert runner.invoke(main, ["import", str(mixed), "--account", "Travel"]).exit_code == 0
    lines = runner.invoke(main, ["accounts"]).stdout.splitlines()
    assert lines == [
        'Acme, "Main"\\nSaver  [savings]  0 transactions, 1 pending, balance unknown',
        "Travel  [checking]  2 transactions, 2025-03-04 … 2025-03-05, balance unknown, -1200 JPY in rows of that currency",
    ]


def test_a_name_holding_line_breaks_or_terminal_codes_stays_on_its_line(tmp_path: Path) -> None:
    path = tmp_path / "a.csv"
    path.write_text("Date,Description,Amount\n2025-03-04,COFFEE,-4.50\n", encoding="utf-8")
    runner = CliRunner()
    assert runner.invoke(main, ["import", str(path), "--account", "Joint\u2028Saver \x1b[31mred\x0bX"]).exit_code == 0
    assert runner.invoke(main, ["accounts"]).stdout.splitlines() == [
        "Joint\\u2028Saver \\x1b[31mred\\x0bX  [savings]  1 transaction, 2025-03-04 … 2025-03-04, balance unknown"
    ]
