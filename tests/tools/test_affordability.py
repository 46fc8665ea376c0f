"""affordability_check: the evidence, the thresholds and the data-quality block, worked out by hand.

On the hard-case ledger (today 2025-06-18) the only complete USD month with history is May 2025
(April's first row is mid-month, so April is partial and left out): income 3000.00, spending
1200.00 + 80.25 + 19.75 = 1300.00, net 1700.00.
"""

from __future__ import annotations

import sys
from decimal import ROUND_HALF_UP, Decimal

import pytest

from tests.tools.ledger_fixture import hard_books  # noqa: F401  (fixture)

D = Decimal
INCOME, SPENDING = D("3000.00"), D("1300.00")
NET = INCOME - SPENDING
CHECKING = D("5000.00") + D("15.00") - D("1.00") - D("500.00") - D("300.00")  # carried forward from 06-05
LIQUID = CHECKING + D("1500.00")


@pytest.fixture
def books(hard_books, monkeypatch):
    """Balances known for Checking and Savings (not Cash), and no recurring charges detected."""
    ledger = hard_books.ledger
    ledger.set_balance(hard_books.accounts["Checking"]["id"], 500000, "2025-06-05", "statement")
    ledger.set_balance(hard_books.accounts["Savings"]["id"], 150000, "2025-06-15", "manual")
    import wilson.tools.recurring as recurring

    monkeypatch.setattr(recurring, "recurring_obligations", lambda ledger, today, until: [])
    return hard_books


def runway(left: Decimal) -> str:
    return str((left / SPENDING).quantize(D("0.1"), rounding=ROUND_HALF_UP))


@pytest.mark.parametrize("amount, verdict", [
    ("100", "manageable"), ("1000", "manageable"), ("2500", "tight"), ("6000", "not without debt"),
])
def test_lump_sum_verdicts(books, amount, verdict):
    result = books.run("affordability_check", amount=amount)
    left = LIQUID - D(amount)
    assert result["liquid_balance"] == str(LIQUID)
    assert result["average_monthly_net"] == str(NET) and result["average_monthly_spending"] == str(SPENDING)
    assert result["balance_left"] == str(left)
    assert result["runway_months"] == runway(left)
    assert result["verdict"] == verdict and result["verdict_reason"]


def test_six_months_of_runway_is_comfortable(books):
    books.run("update_balance", account="Savings", amount="10000")
    result = books.run("affordability_check", amount="100")
    assert result["runway_months"] == runway(CHECKING + 10000 - 100) and result["verdict"] == "comfortable"


def test_data_quality_travels_with_the_verdict(books):
    quality = books.run("affordability_check", amount="100")["data_quality"]
    assert quality["months_covered"] == 1
    assert quality["transactions_used"] == 4  # May's USD rows: salary, rent, groceries, coffee
    assert quality["accounts_with_balance"] == ["Checking", "Savings"]
    assert quality["accounts_without_balance"] == ["Cash"]
    assert quality["rating"] == "limited" and "1 complete months" in quality["reason"]


@pytest.mark.parametrize("payment, months, verdict", [
    ("500", 12, "comfortable"), ("1000", 12, "manageable"), ("1500", 12, "tight"),
    ("2000", 12, "tight"), ("2000", 24, "not without debt"),
])
def test_monthly_payment_verdicts(books, payment, months, verdict):
    result = books.run("affordability_check", amount=payment, monthly_payment=True, months=months)
    assert result["net_after_payment"] == str(NET - D(payment))
    assert result["total_cost"] == f"{D(payment) * months:.2f}"
    assert result["verdict"] == verdict


def test_recurring_charges_before_the_date_are_set_aside(books, monkeypatch):
    import wilson.tools.recurring as recurring

    charges = [{"date": "2025-06-20", "amount_minor": -1549, "currency": "USD"},
               {"date": "2025-07-20", "amount_minor": -1549, "currency": "USD"},
               {"date": "2025-07-01", "amount_minor": -900, "currency": "EUR"}]
    monkeypatch.setattr(recurring, "recurring_obligations", lambda ledger, today, until: charges)
    result = books.run("affordability_check", amount="1000", by_date="2025-08-01")
    assert result["recurring_due"]["amount"] == "30.98"
    assert result["balance_left"] == str(LIQUID - 1000 - D("30.98"))
    months_until = D((44)) / D("30.44")  # 2025-06-18 -> 2025-08-01
    projected = (LIQUID + NET * months_until - 1000).quantize(D("0.01"), rounding=ROUND_HALF_UP)
    assert result["projected_balance_at_date"] == str(projected)


def test_without_the_recurring_detector_it_says_so(books, monkeypatch):
    monkeypatch.setitem(sys.modules, "wilson.tools.recurring", None)
    result = books.run("affordability_check", amount="100")
    assert result["recurring_due"]["amount"] == "0.00"
    assert "not estimated" in result["data_quality"]["recurring"]


def test_no_known_balance_means_no_verdict(hard_books):
    result = hard_books.run("affordability_check", amount="100")
    assert result["verdict"] == "unknown" and result["data_quality"]["rating"] == "limited"


@pytest.mark.parametrize("args, message", [
    ({"amount": "0"}, "positive"),
    ({"amount": "10.001"}, "decimals"),
    ({"amount": "10", "monthly_payment": True}, "months"),
    ({"amount": "10", "by_date": "2025-06-01"}, "past"),
    ({"amount": "10", "by_date": "2025-02-29"}, "not an ISO date"),
])
def test_affordability_errors(hard_books, args, message):
    assert message in hard_books.run("affordability_check", **args)["error"]["message"]
