"""A batch at least as big as the ledger: indexes rebuilt after the insert, rows inserted many per
statement, and the pages written through a rollback journal when nobody else has the ledger open."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from wilson.importers.pipeline import import_file
from wilson.ledger import Ledger
from wilson.ledger.aggregates import rebuild_monthly_flows
from wilson.ledger.new_rows import NewRows

ROWS = 6_050  # past BULK_ROWS, and not a whole number of statements


def big_csv(tmp_path: Path, rows: int = ROWS, name: str = "big.csv") -> Path:
    """Dates, amounts and shops that vary, two identical coffees a day, one bank id column left empty."""
    lines = ["Date,Description,Amount"]
    for i in range(rows):
        shop = "BLUE BOTTLE COFFEE" if i % 50 < 2 else f"SHOP {i % 997} O'HARE"
        lines.append(f"2024-{1 + i % 12:02d}-{1 + i // 12 % 28:02d},{shop},-{1 + i % 500}.{i % 100:02d}")
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def expected_total(rows: int = ROWS) -> int:
    return -sum((1 + i % 500) * 100 + i % 100 for i in range(rows))


def derived(ledger: Ledger) -> list[tuple]:
    return sorted(tuple(row) for row in ledger.conn.execute("SELECT type, name, sql FROM sqlite_master"))


def assert_whole(ledger: Ledger, schema: list[tuple], rows: int = ROWS) -> None:
    """Every row, every index and trigger back, and the search index and report aggregate exact."""
    assert ledger.scalar("SELECT COUNT(*) FROM transactions") == rows
    assert ledger.scalar("SELECT SUM(amount) FROM transactions") == expected_total(rows)
    assert ledger.scalar("SELECT COUNT(*) FROM transactions WHERE description = ?", ("SHOP 5 O'HARE",)) == len(range(5, rows, 997))
    assert derived(ledger) == schema
    assert ledger.scalar("PRAGMA integrity_check") == "ok"
    ledger.conn.execute("INSERT INTO transactions_fts(transactions_fts) VALUES ('integrity-check')")
    hits = ledger.scalar("SELECT COUNT(*) FROM transactions_fts WHERE transactions_fts MATCH 'bottle'")
    assert hits == ledger.scalar("SELECT COUNT(*) FROM transactions WHERE description LIKE '%BOTTLE%'") > 0
    flows = "SELECT * FROM monthly_flows ORDER BY 1, 2, 3, 4, 5, 6"
    kept = ledger.conn.execute(flows).fetchall()
    with pytest.raises(RuntimeError), ledger.write() as conn:
        rebuild_monthly_flows(conn)
        assert conn.execute(flows).fetchall() == kept
        raise RuntimeError("roll the rebuild back")


def import_until_writing(path: Path, account: str, home: Path) -> tuple[subprocess.Popen, Path]:
    """A `wilson import` process, returned once it writes its pages (its rollback journal is there)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "wilson", "import", "--account", account, str(path)],
        env=dict(os.environ, WILSON_HOME=str(home)), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    journal = home / "wilson.db-journal"
    deadline = time.monotonic() + 30
    while proc.poll() is None and time.monotonic() < deadline:
        # Leaving WAL rewrites the header through a journal of its own, gone a millisecond later: the
        # rows' journal is the one still there a while after.
        if journal.exists():
            time.sleep(0.02)
            if journal.exists():
                break
        time.sleep(0.002)
    return proc, journal


def test_a_bulk_import_keeps_every_row_index_and_aggregate(tmp_path: Path) -> None:
    with Ledger() as ledger:
        schema = derived(ledger)
        summary = import_file(ledger, big_csv(tmp_path), account="Checking")
        assert summary.added == ROWS
        assert_whole(ledger, schema)
        assert ledger.scalar("PRAGMA journal_mode") == "wal"
        assert ledger.scalar("PRAGMA foreign_keys") == 1
        assert ledger.conn.execute("PRAGMA foreign_key_check").fetchall() == []


def test_a_first_import_without_foreign_key_lookups_still_refuses_a_missing_parent(tmp_path: Path) -> None:
    """The first bulk import leaves SQLite's per-row lookups out and checks each parent once: a row
    pointing at no category is refused all the same, and nothing is written."""

    def categorize(rows: NewRows) -> None:
        rows.category_id = [999] * len(rows)

    with Ledger() as ledger:
        with pytest.raises(sqlite3.IntegrityError, match="categories row 999"):
            import_file(ledger, big_csv(tmp_path), account="Checking", categorize=categorize)
        assert ledger.scalar("SELECT COUNT(*) FROM transactions") == 0 and ledger.accounts() == []
        assert ledger.scalar("PRAGMA foreign_keys") == 1
        summary = import_file(ledger, big_csv(tmp_path), account="Checking")
        assert summary.added == ROWS


def test_rows_per_statement_stay_within_the_variable_limit(tmp_path: Path) -> None:
    """Some SQLite builds allow 999 parameters a statement, or fewer: the statements shrink to fit."""
    with Ledger() as ledger:
        schema = derived(ledger)
        ledger.conn.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, 20)
        import_file(ledger, big_csv(tmp_path), account="Checking")
        assert_whole(ledger, schema)


def test_a_bulk_import_beside_an_open_reader_keeps_the_wal(tmp_path: Path) -> None:
    """Another connection (the TUI) keeps reading while the import writes: no journal switch then."""
    with Ledger() as reader, Ledger() as ledger:
        schema = derived(ledger)
        assert reader.scalar("SELECT COUNT(*) FROM transactions") == 0
        import_file(ledger, big_csv(tmp_path), account="Checking")
        assert reader.scalar("SELECT COUNT(*) FROM transactions") == ROWS
        assert ledger.scalar("PRAGMA journal_mode") == "wal"
        assert_whole(ledger, schema)


def test_a_ledger_opened_during_a_bulk_import_waits_then_sees_it_all(tmp_path: Path, wilson_home: Path) -> None:
    """A second Wilson opening the ledger mid-import cannot set WAL then; it reads what is committed."""
    proc, _ = import_until_writing(big_csv(tmp_path, rows=60_000), "Checking", wilson_home)
    with Ledger() as second:
        assert second.scalar("SELECT COUNT(*) FROM transactions") in (0, 60_000)
    assert proc.wait(timeout=60) == 0, proc.stderr.read()
    with Ledger() as ledger:
        assert ledger.scalar("SELECT COUNT(*) FROM transactions") == 60_000
        assert ledger.scalar("PRAGMA journal_mode") == "wal"


def test_killed_bulk_import_leaves_the_ledger_as_it_was(tmp_path: Path, wilson_home: Path) -> None:
    """SIGKILL while the pages are written: the next open rolls the journal back, and is in WAL again."""
    with Ledger() as ledger:
        import_file(ledger, big_csv(tmp_path, rows=30, name="small.csv"), account="Checking")
        before = ledger.query("SELECT * FROM transactions ORDER BY id")
    proc, journal = import_until_writing(big_csv(tmp_path, rows=150_000), "Savings", wilson_home)
    time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert journal.exists(), "the import was not caught while writing"
    with Ledger() as ledger:
        assert ledger.query("SELECT * FROM transactions ORDER BY id") == before
        assert ledger.scalar("PRAGMA integrity_check") == "ok"
        assert ledger.scalar("PRAGMA journal_mode") == "wal"
