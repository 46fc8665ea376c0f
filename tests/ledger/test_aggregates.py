"""The monthly aggregate filled from columns must equal SQLite's own grouping of the same rows."""

from __future__ import annotations

from wilson.ledger import Ledger
from wilson.ledger.aggregates import add_rows, rebuild_monthly_flows

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


def test_splits_inserted_before_their_batch_is_counted(wilson_home) -> None:  # type: ignore[no-untyped-def]
    """An import inserts a batch's rows, then their splits, then counts the rows whole (wilson/ledger/
    imports.py `_insert`): the split triggers' difference and the count add up to the postings, and
    no group is left behind at zero."""
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
        conn.executemany("INSERT INTO splits (transaction_id, amount, category_id) VALUES (?, ?, ?)", [
            (1, -300, 5), (1, -275, 6),  # uses the whole amount: nothing stays uncategorised
            (3, 260000, 2), (3, -10000, 7),  # an income split with a deduction
            (4, -1200, 5),  # pending: never counted
            (5, -500, None),  # leaves a rest of -499
        ])
        posted, account, category, currency, amount, pending, leg = map(list, zip(*ROWS))
        add_rows(conn, posted, account, category, currency, amount, pending, linked=[other is not None for other in leg])
        assert stored_flows(ledger) == flows_from_scratch(ledger)
        assert ledger.scalar("SELECT COUNT(*) FROM monthly_flows WHERE count <= 0") == 0
        rebuild_monthly_flows(conn)
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
