"""The monthly aggregate filled from columns must equal SQLite's own grouping of the same rows."""

from __future__ import annotations

from wilson.ledger import Ledger
from wilson.ledger.aggregates import add_rows, rebuild_monthly_flows, split_triggers_dropped

ROWS = [  # posted, account, category, currency, amount, pending, transfer leg
    ("2025-01-03", 1, None, "USD", -575, False, None),
    ("2025-01-03", 1, None, "USD", -575, False, None),
    ("2025-01-31", 1, 2, "USD", 250000, False, None),
    ("2025-01-31", 1, 2, "USD", -1200, True, None),  # pending: never counted
    ("2025-02-01", 2, None, "EUR", -999, False, None),
    ("2025-02-01", 2, None, "EUR", 0, False, None),  # zero counts as an outflow group, as in SQL
    ("2025-02-14", 1, None, "USD", -50000, False, 1),
]


def _stored(ledger: Ledger) -> list[tuple]:
    return [tuple(r.values()) for r in ledger.query("SELECT * FROM monthly_flows ORDER BY 1, 2, 3, 4, 5, 6")]


def test_grouping_columns_matches_grouping_rows() -> None:
    with Ledger() as ledger, ledger.write() as conn:
        conn.execute("INSERT INTO accounts (id, name, type, currency) VALUES (1, 'A', 'checking', 'USD'),"
                     " (2, 'B', 'checking', 'EUR')")
        conn.execute("INSERT INTO import_batches (id, file_name, file_hash, format, rows_read) VALUES (1, 'f.csv', 'ab', 'csv', 7)")
        conn.executemany(
            "INSERT INTO transactions (posted, account_id, category_id, currency, amount, pending, transfer_id,"
            " description, fingerprint, batch_id) VALUES (?, ?, ?, ?, ?, ?, ?, 'x', 0, 1)",
            ROWS,
        )
        rebuild_monthly_flows(conn)
        expected = _stored(ledger)
        conn.execute("DELETE FROM monthly_flows")
        posted, account, category, currency, amount, pending, leg = map(list, zip(*ROWS))
        half = 3  # two calls: the second adds into groups the first created
        add_rows(conn, posted[:half], account[:half], category[:half], currency[:half], amount[:half], pending[:half])
        add_rows(conn, posted[half:], account[half:], category[half:], currency[half:], amount[half:], pending[half:],
                 linked=[other is not None for other in leg[half:]])
        assert _stored(ledger) == expected
        assert len(expected) == 4 and ("2025-01", 1, 0, "USD", 0, 0, -1150, 2) in expected


def test_a_batchs_parts_are_counted_as_its_postings(wilson_home) -> None:  # type: ignore[no-untyped-def]
    """An import inserts a batch's rows, then their parts with the parts' triggers dropped, then
    counts the rows as their postings (wilson/ledger/imports.py `_insert`). The triggers are back
    afterwards, for parts added later."""
    from tests.tools.books import flows_from_scratch, stored_flows

    with Ledger() as ledger, ledger.write() as conn:
        conn.execute("INSERT INTO accounts (id, name, type, currency) VALUES (1, 'A', 'checking', 'USD'),"
                     " (2, 'B', 'checking', 'EUR')")
        conn.execute("INSERT INTO import_batches (id, file_name, file_hash, format, rows_read) VALUES (1, 'f.qif', 'ab', 'qif', 7)")
        conn.executemany(
            "INSERT INTO transactions (posted, account_id, category_id, currency, amount, pending, transfer_id,"
            " description, fingerprint, batch_id) VALUES (?, ?, ?, ?, ?, ?, ?, 'x', 0, 1)",
            ROWS,
        )
        parts = {
            0: [(-300, 5), (-275, 6)],  # uses the whole amount: nothing stays uncategorised
            2: [(260000, 2), (-10000, 7)],  # an income split with a deduction
            3: [(-1200, 5)],  # pending: never counted
            4: [(-500, None)],  # leaves a rest of -499
        }
        with split_triggers_dropped(conn):
            conn.executemany("INSERT INTO splits (transaction_id, amount, category_id) VALUES (?, ?, ?)",
                             [(position + 1, amount, category) for position, own in parts.items() for amount, category in own])
        posted, account, category, currency, amount, pending, leg = map(list, zip(*ROWS))
        add_rows(conn, posted, account, category, currency, amount, pending, linked=[other is not None for other in leg], parts=parts)
        assert stored_flows(ledger) == flows_from_scratch(ledger)
        assert ("2025-01", 1, 7, "USD", 0, 0, -10000, 1) in stored_flows(ledger)
        conn.execute("INSERT INTO splits (transaction_id, amount, category_id) VALUES (2, -100, 5)")  # counted by its triggers
        assert stored_flows(ledger) == flows_from_scratch(ledger)
        rebuild_monthly_flows(conn)
        assert stored_flows(ledger) == flows_from_scratch(ledger)


SPLIT_FILE = """!Type:Bank
D01/02/2025
T-100.00
PGrocer
LHousehold
SFood:Groceries
$-60.00
SHousehold
$-30.00
^
D01/05/2025
T2500.00
PPayroll
SSalary
$2600.00
STaxes
$-100.00
^
D01/06/2025
T-10.00
PCafe
LFood:Dining
^
D02/03/2025
T-80.00
PPharmacy
SHealth
%50
SFood:Groceries
%50
^
"""
CARD_FILE = """!Type:CCard
D01/20/2025
T-45.00
PDepartment store
SClothing
$-40.00
S[Checking]
$-5.00
^
D02/04/2025
T-12.00
PBookshop
^
"""


def test_monthly_aggregate_follows_split_imports_and_undo(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """QIF batches with parts in several categories (and a rest, a refund, a transfer part) are
    counted as their postings: the aggregate equals a rebuild, and a count from scratch, at every
    step, undo included."""
    from tests.tools.books import flows_from_scratch, stored_flows
    from wilson.importers.pipeline import import_file
    from wilson.ledger.undo import undo_batch

    def rebuilt(ledger: Ledger) -> list[tuple]:
        with ledger.write() as conn:
            kept = stored_flows(ledger)
            rebuild_monthly_flows(conn)
            assert stored_flows(ledger) == kept
        return kept

    (tmp_path / "checking.qif").write_text(SPLIT_FILE)
    (tmp_path / "card.qif").write_text(CARD_FILE)
    with Ledger() as ledger:
        first = import_file(ledger, tmp_path / "checking.qif", account="Checking")
        assert rebuilt(ledger) == flows_from_scratch(ledger)
        second = import_file(ledger, tmp_path / "card.qif")
        assert rebuilt(ledger) == flows_from_scratch(ledger)
        assert ledger.scalar("SELECT COUNT(*) FROM splits") == 9  # the grocer's -10.00 rest is a part
        assert ledger.scalar("SELECT COUNT(DISTINCT category_id) FROM splits") >= 6
        undo_batch(ledger, first.batch_id)
        assert rebuilt(ledger) == flows_from_scratch(ledger)
        import_file(ledger, tmp_path / "checking.qif", account="Checking")
        undo_batch(ledger, second.batch_id)
        assert rebuilt(ledger) == flows_from_scratch(ledger)
        assert ledger.scalar("SELECT SUM(amount) FROM monthly_flows") == 231000


def test_thousands_of_parts_on_one_transaction_import_in_linear_time(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Each part's insert trigger re-read every part of its transaction: 2,500 parts took 20 s
    (50 s on the audit's machine), 5,000 took 88 s. Counted with their batch, they take 0.2 s."""
    import time

    from tests.tools.books import flows_from_scratch, stored_flows
    from wilson.importers.pipeline import import_file

    parts = "".join(f"S{('Food', 'Home', 'Fun')[i % 3]}\n$-1.00\n" for i in range(2500))
    path = tmp_path / "many.qif"
    path.write_text(f"!Type:Bank\nD01/02/2025\nT-2500.00\nPX\n{parts}^\n")
    with Ledger() as ledger:
        started = time.perf_counter()
        import_file(ledger, path)
        assert time.perf_counter() - started < 3
        assert ledger.scalar("SELECT COUNT(*) FROM splits") == 2500
        assert stored_flows(ledger) == flows_from_scratch(ledger)


def test_an_old_ledger_with_splits_is_recounted_on_upgrade(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Before db/009 the aggregate counted a split transaction whole under its own category."""
    from tests.tools.books import flows_from_scratch, stored_flows
    from wilson.ledger import db as ledger_db

    real = ledger_db.migration_files()
    monkeypatch.setattr(ledger_db, "migration_files", lambda: [m for m in real if m[0] < 9])
    with Ledger() as ledger, ledger.write() as conn:
        conn.execute("INSERT INTO accounts (id, name) VALUES (1, 'A')")
        conn.execute("INSERT INTO transactions (id, posted, account_id, category_id, currency, amount, description,"
                     " fingerprint) VALUES (1, '2025-03-01', 1, 7, 'USD', -10000, 'AMAZON', 0)")
        conn.executemany("INSERT INTO splits (transaction_id, amount, category_id) VALUES (1, ?, ?)",
                         [(-3000, 5), (-7000, 6)])
        assert stored_flows(ledger) == [("2025-03", 1, 7, "USD", 0, 0, -10000, 1)]
    monkeypatch.setattr(ledger_db, "migration_files", lambda: real)
    with Ledger() as ledger:
        assert stored_flows(ledger) == flows_from_scratch(ledger) == [
            ("2025-03", 1, 5, "USD", 0, 0, -3000, 1), ("2025-03", 1, 6, "USD", 0, 0, -7000, 1)]


def test_a_rows_postings_are_found_through_the_splits_index() -> None:
    """The split triggers read one row's postings per part inserted or deleted: a scan of every
    split there made importing and undoing split rows quadratic (8,000 of them took minutes)."""
    with Ledger() as ledger:
        for view in ("transaction_postings", "split_postings"):
            plan = [row[3] for row in ledger.conn.execute(f"EXPLAIN QUERY PLAN SELECT SUM(amount) FROM {view} WHERE id = 5")]
            assert not [step for step in plan if step.startswith("SCAN") and "postings" not in step], plan  # (the views' own rows)
