"""A small ledger with the hard cases, for the report-side tool tests (and anyone else's).

Use the `hard_books` fixture (import it into a test module): a `Books` (tests/tools/books.py) with
today = 2025-06-18 and rows chosen so every expected figure can be added up by hand in the test:
refunds, linked transfers between own accounts, rows on both sides of a month edge, USD and EUR,
a pending row, uncategorised rows (one out, one in), a parent-category row beside its children,
and a description carrying SQL text.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from tests.tools.books import Books
from wilson.tools import load_tools

TODAY = date(2025, 6, 18)
INJECTION = "'; DROP TABLE transactions; --"


def build_hard_books(path: Path) -> Books:
    load_tools()
    books = Books(path, today=TODAY)
    books.account("Checking")
    books.account("Savings", "savings")
    books.account("Visa", "credit_card")
    books.account("Euro", "checking", "EUR")
    books.account("Cash", "cash")
    add = books.add
    add("Visa", "2025-04-10", "-50.00", "WHOLE FOODS MARKET", category="Groceries")
    add("Checking", "2025-05-01", "3000.00", "ACME PAYROLL", category="Salary")
    add("Checking", "2025-05-03", "-1200.00", "OAKWOOD RENT", category="Rent")
    add("Visa", "2025-05-05", "-80.25", "WHOLE FOODS MARKET", category="Groceries")
    add("Visa", "2025-05-31", "-19.75", "BLUE BOTTLE COFFEE", category="Coffee")
    add("Checking", "2025-06-01", "3000.00", "ACME PAYROLL", category="Salary")
    add("Visa", "2025-06-01", "-45.20", "WHOLE FOODS MARKET", category="Groceries")
    add("Visa", "2025-06-02", "-60.00", "CHEZ PANISSE", category="Dining")
    add("Visa", "2025-06-03", "20.00", "REFUND CHEZ PANISSE", category="Dining")
    add("Visa", "2025-06-04", "-10.00", "FOOD TRUCK", category="Food")
    add("Checking", "2025-06-05", "-33.33", "MYSTERY SHOP")
    add("Checking", "2025-06-06", "15.00", "VENMO FROM BOB")
    add("Checking", "2025-06-08", "-1.00", INJECTION, category="Other")
    books.transfer("Checking", "Savings", "2025-06-10", "500.00")
    books.transfer("Checking", "Visa", "2025-06-12", "300.00", "CARD PAYMENT")
    add("Euro", "2025-06-15", "-12.50", "BOULANGERIE", category="Groceries")
    add("Euro", "2025-06-16", "1000.00", "GMBH GEHALT", category="Salary")
    add("Visa", "2025-06-17", "-99.99", "AMAZON MKTPLACE", category="Household", pending=True)
    return books


@pytest.fixture
def hard_books(tmp_path: Path) -> Books:
    books = build_hard_books(tmp_path / "hard.db")
    yield books
    books.ledger.close()
