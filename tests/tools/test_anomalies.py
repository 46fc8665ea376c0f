"""detect_anomalies: duplicates, spikes, new payees and price rises, checked against hand computation."""

from __future__ import annotations

import statistics
from datetime import date
from decimal import Decimal

import pytest

from tests.tools.books import Books
from wilson.tools import REGISTRY
from wilson.tools.common import add_months

DINING = ["280.00", "320.00", "300.00", "310.00", "290.00", "305.00", "295.00", "300.00", "315.00", "285.00", "300.00", "300.00"]


@pytest.fixture
def books(tmp_path) -> Books:
    b = Books(tmp_path / "w.db")
    b.account("Checking")
    b.account("Visa", "credit_card")
    b.account("Euro", "checking", "EUR")
    first, second = b.batch("may.csv"), b.batch("june.csv")
    for i, amount in enumerate(DINING):  # June 2024 .. May 2025, then a spike in June 2025
        b.add("Checking", add_months(date(2024, 6, 12), i), f"-{amount}", "BISTRO", payee="Bistro", category="Dining")
    b.add("Checking", "2025-06-12", "-900.00", "BISTRO", payee="Bistro", category="Dining")
    b.add("Checking", "2025-06-14", "40.00", "BISTRO REFUND", payee="Bistro", category="Dining")
    # Duplicates: across imports, inside one import, the same bank id (not a duplicate), too far apart.
    b.add("Visa", "2025-06-10", "-499.99", "BEST BUY 123", payee="Best Buy", batch=first)
    b.add("Visa", "2025-06-12", "-499.99", "BEST BUY 123", payee="Best Buy", batch=second)
    b.add("Checking", "2025-06-20", "-5.75", "STARBUCKS", payee="Starbucks", batch=second)
    b.add("Checking", "2025-06-20", "-5.75", "STARBUCKS", payee="Starbucks", batch=second)
    b.add("Checking", "2025-06-01", "-200.00", "HOTEL", payee="Hotel", bank_id="FIT1", batch=first)
    b.add("Checking", "2025-06-02", "-200.00", "HOTEL", payee="Hotel", bank_id="FIT1", batch=second)
    b.add("Checking", "2025-05-01", "-60.00", "GAS CO", payee="Gas Co")
    b.add("Checking", "2025-05-06", "-60.00", "GAS CO", payee="Gas Co")
    b.add("Checking", "2025-06-21", "-5.75", "STARBUCKS", payee="Starbucks", pending=True)
    b.add("Checking", "2025-06-25", "-100.00", "CHECKING TO VISA", category="Transfer")
    b.transfer("Checking", "Visa", "2025-06-25", "100.00")
    # New payees: big and new, tiny and new, big but known from before.
    b.add("Checking", "2025-06-05", "-250.00", "FANCY JEWELER", payee="Fancy Jeweler")
    b.add("Checking", "2025-06-06", "-3.00", "TINY KIOSK", payee="Tiny Kiosk")
    b.add("Checking", "2024-01-06", "-25.00", "OLD FRIEND", payee="Old Friend")
    b.add("Checking", "2025-06-07", "-45.00", "OLD FRIEND", payee="old friend")
    b.add("Euro", "2025-06-08", "-30.00", "NEUER LADEN", payee="Neuer Laden")
    # A price rise on a steady subscription.
    for i, day in enumerate(add_months(date(2024, 8, 3), i) for i in range(11)):
        b.add("Checking", day, "-22.99" if i == 10 else "-19.99", "STREAMFLIX", payee="Streamflix", category="Streaming")
    return b


def test_duplicates(books):
    found = books.run("detect_anomalies")["duplicates"]
    by_payee = {d["payee"]: d for d in found}
    assert set(by_payee) == {"Best Buy", "Starbucks"}
    assert by_payee["Best Buy"]["amount"] == "-499.99" and by_payee["Best Buy"]["dates"] == ["2025-06-10", "2025-06-12"]
    assert "double charge" in by_payee["Best Buy"]["note"]
    assert len(by_payee["Starbucks"]["ids"]) == 2 and "same import" in by_payee["Starbucks"]["note"]
    assert all(d["kind"] == "possible_duplicate" for d in found)


def test_spike_against_the_categorys_own_history(books):
    [spike] = books.run("detect_anomalies")["spikes"]
    history = [Decimal(a) for a in DINING]
    mean, stdev = statistics.fmean(history), statistics.pstdev(history)
    assert (spike["category"], spike["month"], spike["spent"]) == ("Dining", "2025-06", "860.00")
    assert Decimal(spike["usual_mean"]) == Decimal(mean).quantize(Decimal("0.01"))
    assert abs(Decimal(spike["usual_stdev"]) - Decimal(stdev)) < Decimal("0.01")
    assert spike["history_months"] == 12


def test_no_spike_without_enough_history(books):
    assert books.run("detect_anomalies", start_date="2024-10-01", end_date="2024-12-31")["spikes"] == []


def test_new_payees(books):
    found = {p["payee"]: p for p in books.run("detect_anomalies")["new_payees"]}
    assert set(found) == {"Fancy Jeweler", "Neuer Laden", "Best Buy", "Hotel", "Gas Co"}
    assert found["Fancy Jeweler"]["largest"] == "250.00" and found["Neuer Laden"]["currency"] == "EUR"
    assert found["Best Buy"]["charges"] == 2 and found["Best Buy"]["total"] == "999.98"


def test_price_rises(books):
    [rise] = books.run("detect_anomalies")["price_rises"]
    assert (rise["payee"], rise["previous_amount"], rise["last_amount"]) == ("Streamflix", "-19.99", "-22.99")


def test_default_period_covers_the_last_90_days(books):
    covered = books.run("detect_anomalies")["covered"]
    assert (covered["start_date"], covered["end_date"]) == ("2025-04-02", "2025-06-30")
    assert covered["currency"] == ["EUR", "USD"]


def test_limit_caps_lists_not_counts(books):
    result = books.run("detect_anomalies", limit=1)
    assert len(result["new_payees"]) == 1 and result["counts"]["new_payees"] == 5 and result["truncated"]


def test_filters_and_errors(books):
    only_euro = books.run("detect_anomalies", account="euro")
    assert [p["payee"] for p in only_euro["new_payees"]] == ["Neuer Laden"] and only_euro["duplicates"] == []
    assert books.run("detect_anomalies", account="'; DROP TABLE accounts; --")["error"]["type"] == "not_found"
    assert books.run("detect_anomalies", start_date="2025-06-30", end_date="2025-06-01")["error"]["type"] == "validation"
    assert books.run("detect_anomalies", start_date="June")["error"]["type"] == "validation"


def test_flags():
    assert REGISTRY["detect_anomalies"].read_only
