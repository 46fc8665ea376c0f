"""The ledger file: where it lives, how it is opened, and how its schema is upgraded."""

from __future__ import annotations

import sqlite3
import stat
import threading
import time
from pathlib import Path

import pytest

from wilson.ledger import Ledger, LedgerError
from wilson.ledger import db as ledger_db


def test_created_owner_only_in_wilson_home(wilson_home: Path) -> None:
    with Ledger():
        pass
    path = wilson_home / "wilson.db"
    assert path.exists()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(wilson_home.stat().st_mode) == 0o700


def test_pragmas_wal_foreign_keys_busy_timeout() -> None:
    with Ledger() as ledger:
        assert ledger.scalar("PRAGMA journal_mode") == "wal"
        assert ledger.scalar("PRAGMA foreign_keys") == 1
        assert ledger.scalar("PRAGMA busy_timeout") >= 5000


def test_migrations_apply_once_in_order() -> None:
    with Ledger() as ledger:
        versions = [r["version"] for r in ledger.query("SELECT version FROM schema_migrations ORDER BY version")]
    assert versions == [v for v, _ in ledger_db.migration_files()]
    with Ledger() as ledger:
        assert ledger.scalar("SELECT COUNT(*) FROM schema_migrations") == len(versions)
        assert ledger.scalar("SELECT COUNT(*) FROM categories WHERE name = 'Groceries'") == 1


def test_old_ledger_is_upgraded_on_open(wilson_home: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    real = ledger_db.migration_files()
    monkeypatch.setattr(ledger_db, "migration_files", lambda: real[:1])
    with Ledger() as ledger:
        assert ledger.scalar("SELECT COUNT(*) FROM categories") == 0
    monkeypatch.setattr(ledger_db, "migration_files", lambda: real)
    with Ledger() as ledger:
        assert ledger.scalar("SELECT MAX(version) FROM schema_migrations") == real[-1][0]
        assert ledger.scalar("SELECT COUNT(*) FROM categories") > 20


def test_search_index_rebuilt_without_sizes_on_upgrade(monkeypatch: pytest.MonkeyPatch) -> None:
    real = ledger_db.migration_files()
    monkeypatch.setattr(ledger_db, "migration_files", lambda: [m for m in real if m[0] < 6])
    with Ledger() as ledger:
        _add_coffee(ledger)
    monkeypatch.setattr(ledger_db, "migration_files", lambda: real)
    with Ledger() as ledger:
        fts = ledger.scalar("SELECT sql FROM sqlite_master WHERE name = 'transactions_fts'")
        assert "columnsize=0" in fts and "separators '0123456789'" in fts
        hit = "SELECT COUNT(*) FROM transactions_fts WHERE transactions_fts MATCH ?"
        assert ledger.scalar(hit, ("bottle",)) == 1
        ledger.delete_transactions([1])
        assert ledger.scalar(hit, ("bottle",)) == 0
        ledger.conn.execute("INSERT INTO transactions_fts(transactions_fts) VALUES ('integrity-check')")  # raises if out of step


def with_migration(monkeypatch: pytest.MonkeyPatch, path: Path, script: str) -> list[tuple[int, Path]]:
    """The real migrations and then `script` as number 999; returns the real ones."""
    path.write_text(script)
    real = ledger_db.migration_files()
    monkeypatch.setattr(ledger_db, "migration_files", lambda: [*real, (999, path)])
    return real


def test_failed_migration_changes_nothing(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    real = with_migration(monkeypatch, tmp_path / "999_broken.sql", "CREATE TABLE half_done (id INTEGER);\nTHIS IS NOT SQL;\n")
    with pytest.raises(LedgerError, match="999_broken.sql"):
        Ledger()
    monkeypatch.setattr(ledger_db, "migration_files", lambda: real)
    with Ledger() as ledger:
        assert ledger.scalar("SELECT COUNT(*) FROM sqlite_master WHERE name = 'half_done'") == 0
        assert ledger.scalar("SELECT COUNT(*) FROM schema_migrations WHERE version = 999") == 0


def test_a_migration_failing_after_sqlite_ended_its_transaction_names_the_cause(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """SQLite rolls a transaction back itself on some errors (a full disk): the error the user sees
    is that one, not "cannot rollback - no transaction is active"."""
    with_migration(monkeypatch, tmp_path / "999_ended.sql", "ROLLBACK;\nSELECT * FROM no_such_table;\n")
    with pytest.raises(LedgerError, match="999_ended.sql failed: no such table: no_such_table"):
        Ledger()


def test_a_read_only_ledger_is_said_so_inside_a_nested_write_too() -> None:
    """A dry run imports inside a savepoint of its own transaction: the refusal reads as the
    import's does, not as an unexpected error."""
    with Ledger() as ledger:
        ledger.conn.execute("PRAGMA query_only = 1")  # what a read-only file does to a write
        with pytest.raises(LedgerError, match="the ledger is read-only"), ledger.write(), ledger.write() as conn:
            conn.execute("INSERT INTO categories (name) VALUES ('Pets')")


def test_not_a_database_is_a_clear_error(wilson_home: Path) -> None:
    wilson_home.mkdir(parents=True, exist_ok=True)
    (wilson_home / "wilson.db").write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(LedgerError, match="not a Wilson ledger"):
        Ledger()


def test_write_rolls_back_on_error() -> None:
    with Ledger() as ledger:
        with pytest.raises(RuntimeError):
            with ledger.write() as conn:
                conn.execute("INSERT INTO accounts (name) VALUES ('Temp')")
                raise RuntimeError("boom")
        assert ledger.account("Temp") is None


def test_second_process_waits_instead_of_failing(wilson_home: Path) -> None:
    with Ledger() as first, Ledger() as second:
        with first.write() as conn:
            conn.execute("INSERT INTO accounts (name) VALUES ('A')")
        second.create_account("B")
        assert {a["name"] for a in first.accounts()} == {"A", "B"}


def test_schema_has_indexes_for_bookkeeping_queries() -> None:
    with Ledger() as ledger:
        names = {r["name"] for r in ledger.query("SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert {"transactions_posted", "transactions_account_posted", "transactions_category_posted"} <= names


def test_deleting_rows_finds_their_transfer_legs_by_index() -> None:
    """ON DELETE SET NULL looks up `transfer_id` per deleted row: without an index, undoing a 40k-row
    batch scanned the table 40k times (minutes)."""
    with Ledger() as ledger:
        plan = " ".join(str(row[3]) for row in ledger.conn.execute("EXPLAIN QUERY PLAN SELECT id FROM transactions WHERE transfer_id = 7"))
    assert "transactions_transfer" in plan


def _add_coffee(ledger: Ledger) -> None:
    """One row written outside an import, so the search index's triggers index it."""
    account = ledger.create_account("Checking")
    with ledger.write() as conn:
        conn.execute(
            "INSERT INTO transactions (account_id, posted, amount, currency, description, payee, fingerprint)"
            " VALUES (?, '2025-01-02', -575, 'USD', 'SQ *BLUE BOTTLE COFFEE', 'Blue Bottle Coffee', 1)",
            (account["id"],),
        )


def test_full_text_search_follows_writes() -> None:
    with Ledger() as ledger:
        _add_coffee(ledger)
        hit = "SELECT COUNT(*) FROM transactions_fts WHERE transactions_fts MATCH ?"
        assert ledger.scalar(hit, ("bottle",)) == 1
        ledger.update_transactions([1], payee="Blue Bottle")
        assert ledger.scalar(hit, ("payee:coffee",)) == 0
        ledger.delete_transactions([1])
        assert ledger.scalar(hit, ("bottle",)) == 0


def test_foreign_keys_enforced() -> None:
    with Ledger() as ledger, pytest.raises(sqlite3.IntegrityError):
        with ledger.write() as conn:
            conn.execute(
                "INSERT INTO transactions (account_id, posted, amount, currency, description, fingerprint)"
                " VALUES (42, '2025-01-01', 1, 'USD', 'x', 'y')"
            )


def test_sqlite_utils_view_of_the_same_connection() -> None:
    """`Ledger.db` is for scripts and inspection; it sees the service layer's writes at once."""
    with Ledger() as ledger:
        ledger.create_account("Everyday", "checking", "EUR")
        table = ledger.db["accounts"]
        assert table.count == 1 and next(table.rows_where("currency = ?", ["EUR"]))["name"] == "Everyday"
        assert {"posted", "amount", "fingerprint"} <= set(ledger.db["transactions"].columns_dict)


def test_account_totals_keep_currencies_apart(wilson_home: Path) -> None:
    """A card's yen and dinar charges are never added to its dollars."""
    with Ledger() as ledger:
        card = ledger.create_account("Card", "credit_card", "USD")
        with ledger.write() as conn:
            conn.executemany(
                "INSERT INTO transactions (account_id, posted, amount, currency, description, fingerprint) VALUES (?, '2025-01-02', ?, ?, 'X', ?)",
                [(card["id"], -1250, "USD", 1), (card["id"], -15000, "JPY", 2), (card["id"], -1250, "KWD", 3), (card["id"], -100, "USD", 4)],
            )
        (row,) = ledger.accounts()
        assert (row["net_amount"], row["other_currencies"], row["transactions"]) == (-1350, {"JPY": -15000, "KWD": -1250}, 4)


@pytest.mark.parametrize("command", [["accounts"], ["export"], ["import", "x.csv"]])
def test_a_data_folder_that_is_a_file_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: list[str]) -> None:
    from click.testing import CliRunner

    from wilson.cli import main

    (tmp_path / "x.csv").write_text("Date,Description,Amount\n2025-01-02,X,-1.00\n")
    (tmp_path / "home").write_text("")
    monkeypatch.setenv("WILSON_HOME", str(tmp_path / "home" / "sub"))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, command)
    assert result.exit_code == 1
    assert result.output.strip() == f"wilson: {tmp_path}/home/sub/wilson.db: cannot create the ledger here ({tmp_path}/home is a file, not a folder)"


def test_processes_opening_a_new_ledger_at_once_each_apply_nothing_twice(tmp_path: Path) -> None:
    """The first run of the TUI and a CLI command together (or after an upgrade): each migration is
    applied by whichever gets the write lock first and skipped by the others."""
    path, ready, failures = tmp_path / "race.db", threading.Barrier(8), []

    def open_it() -> None:
        ready.wait()
        try:
            Ledger(path).close()
        except LedgerError as exc:
            failures.append(str(exc))

    threads = [threading.Thread(target=open_it) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    with Ledger(path) as ledger:
        assert ledger.scalar("SELECT COUNT(*) FROM schema_migrations") == len(ledger_db.migration_files())


def test_a_ledger_from_a_newer_wilson_is_refused(tmp_path: Path) -> None:
    with Ledger(tmp_path / "w.db") as ledger:
        ledger.conn.execute("INSERT INTO schema_migrations (version, name) VALUES (999, '999_future.sql')")
    with pytest.raises(LedgerError, match=r"w\.db: this ledger was upgraded by a newer Wilson \(schema 999"):
        Ledger(tmp_path / "w.db")


@pytest.mark.parametrize(("message", "meaning"), [
    ("file is not a database", "not a Wilson ledger"),
    ("attempt to write a readonly database", "the ledger is read-only"),
    ("database or disk is full", "is the disk full?"),
    ("disk I/O error", "is the disk full?"),
    ("database is locked", "the ledger is busy"),
])
def test_sqlite_errors_say_what_is_wrong(message: str, meaning: str) -> None:
    """A good ledger that is read-only or on a full disk must never be called "not a Wilson ledger"."""
    assert meaning in ledger_db.describe(sqlite3.OperationalError(message))


def test_a_writer_waits_for_another_in_short_turns_then_says_busy(wilson_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another writer's lock is waited out (a big import holds it for tens of seconds) in short
    turns, so Ctrl-C is not ignored meanwhile; past the wait it is one line, not a traceback."""
    from wilson.ledger import service

    monkeypatch.setattr(service, "WRITE_WAIT_S", 0.6)
    with Ledger() as first, Ledger() as second:
        with first.write():
            started = time.monotonic()
            with pytest.raises(LedgerError, match="the ledger is busy: another Wilson is writing to it"):
                with second.write():
                    pass
            assert 0.5 < time.monotonic() - started < 5
        with second.write() as conn:  # free again
            conn.execute("INSERT INTO accounts (name) VALUES ('After')")
        assert second.scalar("PRAGMA busy_timeout") == ledger_db.BUSY_TIMEOUT_MS


def test_account_names_match_in_any_letter_case_beyond_ascii(wilson_home: Path) -> None:
    with Ledger() as ledger:
        created = ledger.create_account("Épargne Čížek")
        assert ledger.account("ÉPARGNE ČÍŽEK")["id"] == created["id"] and ledger.account("épargne čížek")["id"] == created["id"]
        assert ledger.account("Épargne Ciz") is None


def test_a_write_to_a_read_only_ledger_is_said_as_such_and_rolled_back(wilson_home: Path) -> None:
    """A ledger file without write permission takes BEGIN and fails at the first write, inside the
    transaction; refused at BEGIN (the lock), it is said the same way."""
    with Ledger() as ledger:
        with pytest.raises(LedgerError, match=r"wilson\.db: the ledger is read-only"), ledger.write() as conn:
            conn.execute("PRAGMA query_only = ON")  # as a read-only file does after BEGIN (root ignores file modes)
            conn.execute("INSERT INTO accounts (name) VALUES ('Checking')")
        assert not ledger.conn.in_transaction
        with pytest.raises(LedgerError, match=r"wilson\.db: the ledger is read-only"):
            ledger.create_account("Checking")  # query_only is still on: BEGIN IMMEDIATE itself is refused
        assert not ledger.conn.in_transaction and ledger.account("Checking") is None
