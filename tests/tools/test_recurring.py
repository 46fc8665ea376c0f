"""list_recurring and recurring_obligations against a hand-built history with known answers."""

from __future__ import annotations

import statistics
from datetime import date, timedelta
from decimal import Decimal

import pytest

from tests.tools.books import TODAY, Books
from wilson.tools import REGISTRY
from wilson.tools.common import add_months
from wilson.tools.recurring import recurring_obligations


def monthly(start: date, count: int) -> list[date]:
    return [add_months(start, i) for i in range(count)]


@pytest.fixture
def books(tmp_path) -> Books:
    b = Books(tmp_path / "w.db")
    b.account("Checking")
    b.account("Savings", "savings")
    for i, day in enumerate(monthly(date(2024, 7, 15), 12)):
        b.add("Checking", day, "-17.99" if i == 11 else "-15.49", "NETFLIX.COM", payee="Netflix", category="Streaming")
    for day in monthly(date(2024, 1, 5), 18):
        b.add("Checking", day, "-10.99", "SPOTIFY P1234", payee="Spotify", category="Streaming")
    for day in monthly(date(2024, 3, 20), 16):
        b.add("Checking", day, "-7.99", "HULU 877", payee="Hulu", category="Streaming")
    for day in (date(2023, 8, 1), date(2024, 8, 1)):
        b.add("Checking", day, "-139.00", "AMAZON PRIME", payee="Amazon Prime", category="Memberships")
    for day in monthly(date(2024, 1, 10), 12):
        b.add("Checking", day, "-30.00", "OLD GYM", payee="Old Gym", category="Fitness")
    for i, day in enumerate(monthly(date(2024, 6, 28), 13)):
        # Utility bills vary with the season and land a few days either side of the date.
        b.add("Checking", day + timedelta(days=(-2, 0, 3)[i % 3]), ["-80.00", "-95.50", "-120.25", "-140.00"][i % 4],
              "PG&E", payee="PG&E", category="Electricity")
    for week in range(26):
        b.add("Checking", date(2025, 1, 6) + timedelta(weeks=week), "-20.00", "YOGA STUDIO", payee="Yoga Studio")
    for day in monthly(date(2024, 9, 2), 10):
        b.add("Checking", day, "-0.99", "APPLE.COM/BILL", payee="Apple", category="Software")
        b.add("Checking", day, "-9.99", "APPLE.COM/BILL", payee="Apple", category="Software")
    for day in monthly(date(2024, 7, 1), 12):
        b.transfer("Checking", "Savings", day.isoformat(), "500.00")
    for offset in (3, 11, 12, 30, 31, 47, 70, 71, 99, 140, 141, 200):
        b.add("Checking", date(2024, 10, 1) + timedelta(days=offset), f"-{20 + offset}.00", "WHOLE FOODS", payee="Whole Foods")
    b.add("Checking", "2025-06-10", "5.00", "NETFLIX REFUND", payee="Netflix", category="Streaming")
    b.add("Checking", "2025-06-29", "-15.49", "NETFLIX PENDING", payee="Netflix", pending=True)
    return b


def by_payee(result: dict) -> dict[str, list[dict]]:
    found: dict[str, list[dict]] = {}
    for item in result["recurring"]:
        found.setdefault(item["payee"], []).append(item)
    return found


def test_finds_the_series_with_their_figures(books):
    result = books.run("list_recurring")
    found = by_payee(result)
    assert set(found) == {"Netflix", "Spotify", "Hulu", "Amazon Prime", "PG&E", "Yoga Studio", "Apple"}
    [netflix] = found["Netflix"]
    assert (netflix["cadence"], netflix["typical_amount"], netflix["last_amount"]) == ("monthly", "-15.49", "-17.99")
    assert netflix["last_date"] == "2025-06-15" and netflix["next_expected"] == "2025-07-15"
    assert netflix["yearly_cost"] == str(Decimal("-15.49") * 12) and netflix["charges"] == 12
    assert "price_rose" in netflix["flags"] and netflix["possibly_forgotten"]
    [prime] = found["Amazon Prime"]
    assert (prime["cadence"], prime["next_expected"], prime["yearly_cost"]) == ("yearly", "2025-08-01", "-139.00")
    [yoga] = found["Yoga Studio"]
    assert yoga["cadence"] == "weekly" and yoga["next_expected"] == "2025-07-07" and yoga["yearly_cost"] == "-1040.00"
    [power] = found["PG&E"]
    bills = [Decimal(a) for a in ["-80.00", "-95.50", "-120.25", "-140.00"] * 4][:13]
    assert power["cadence"] == "monthly" and Decimal(power["typical_amount"]) == statistics.median(bills)
    assert "flags" not in power
    assert sorted(a["typical_amount"] for a in found["Apple"]) == ["-0.99", "-9.99"]


def test_forgotten_flags(books):
    found = by_payee(books.run("list_recurring"))
    assert found["Spotify"][0]["flags"] == ["duplicate_service", "nothing_else_from_merchant"]
    assert "duplicate_service" in found["Hulu"][0]["flags"]
    assert "flags" not in found["Yoga Studio"][0]  # uncategorised: no duplicate check; under 6 months
    assert "nothing_else_from_merchant" not in found["Netflix"][0].get("flags", [])  # a refund is other activity


def test_inactive_series_only_on_request(books):
    result = books.run("list_recurring", include_inactive=True)
    [gym] = by_payee(result)["Old Gym"]
    assert not gym["active"] and gym["next_expected"] is None and gym["missed_charges"] >= 2
    assert result["inactive"] == 1 and result["count"] == 9


def test_totals_cover_every_active_series_even_when_capped(books):
    full = books.run("list_recurring")
    capped = books.run("list_recurring", limit=2)
    assert len(capped["recurring"]) == 2 and capped["truncated"] and capped["count"] == full["count"]
    expected = sum(Decimal(item["yearly_cost"]) for item in full["recurring"])
    assert Decimal(capped["yearly_cost_active"]["USD"]) == expected
    assert capped["recurring"][0]["payee"] == "PG&E"  # the most expensive a year first


def test_window_and_account_filters(books):
    recent = by_payee(books.run("list_recurring", start_date="2025-01-01"))
    assert "Amazon Prime" not in recent and "Netflix" in recent
    assert books.run("list_recurring", account="Savings")["count"] == 0
    assert books.run("list_recurring", account="Nope")["error"]["type"] == "not_found"
    assert books.run("list_recurring", start_date="2025-06-01", end_date="2025-01-01")["error"]["type"] == "validation"


def test_obligations_until_a_date(books):
    due = recurring_obligations(books.ledger, TODAY, date(2025, 7, 31))
    assert all(TODAY - timedelta(days=5) <= date.fromisoformat(d["date"]) <= date(2025, 7, 31) for d in due)
    assert {d["payee"] for d in due} == {"Netflix", "Spotify", "Hulu", "PG&E", "Yoga Studio", "Apple"}
    assert [d["date"] for d in due if d["payee"] == "Yoga Studio"] == [f"2025-07-{d:02d}" for d in (7, 14, 21, 28)]
    netflix = next(d for d in due if d["payee"] == "Netflix")
    assert (netflix["date"], netflix["amount"], netflix["amount_minor"]) == ("2025-07-15", "-15.49", -1549)
    total = sum(d["amount_minor"] for d in due)
    assert total == -1549 - 1099 - 799 - 4 * 2000 - 99 - 999 + next(d["amount_minor"] for d in due if d["payee"] == "PG&E")
    assert recurring_obligations(books.ledger, TODAY, date(2025, 8, 1))[-1]["payee"] in {"Amazon Prime", "Netflix", "Spotify"}


def test_flags():
    assert REGISTRY["list_recurring"].read_only
