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
