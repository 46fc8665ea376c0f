"""Fixes from the tools probe (s8): subscription price rises, lone end dates, split-row counts,
uncategorised split money, recategorised transfer legs, and the small validation slips."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from tests.tools.books import Books
from tests.tools.ledger_fixture import hard_books  # noqa: F401  (fixture)
from wilson.tools import scope
from wilson.tools.common import add_months, month_end

D = Decimal
# A monthly grocery shop that varies (scenario 2 of the probe): no price of it ever repeats.
GROCERIES = ["393.26", "386.17", "406.66", "382.96", "401.94", "394.97", "382.37", "400.78", "381.53", "397.76",
             "382.86"]


# 1. A subscription's price rise, charged more than once; a variable bill is no subscription.

@pytest.fixture
def subscriptions(tmp_path) -> Books:
    """today 2025-06-30: Netflix 15.49 Jan-Mar then 17.99 Apr-Jun; Whole Foods Aug 2024 - Jun 2025."""
    books = Books(tmp_path / "w.db")
    books.account("Card", "credit_card")
    for i in range(6):
        books.add("Card", add_months(date(2025, 1, 15), i), "-15.49" if i < 3 else "-17.99", "NETFLIX.COM",
                  payee="Netflix", category="Streaming")
    for i, amount in enumerate(GROCERIES):
        books.add("Card", add_months(date(2024, 8, 3), i), f"-{amount}", "WHOLE FOODS", payee="Whole Foods",
                  category="Groceries")
    return books


def by_payee(items: list[dict]) -> dict[str, dict]:
    return {item["payee"]: item for item in items}


def test_a_price_charged_twice_is_the_current_price_and_a_rise(subscriptions):
    result = subscriptions.run("list_recurring")
    netflix = by_payee(result["recurring"])["Netflix"]
    assert (netflix["typical_amount"], netflix["last_amount"], netflix["yearly_cost"]) == ("-17.99", "-17.99", "-215.88")
    assert netflix["flags"] == ["price_rose"] and netflix["possibly_forgotten"]
    assert (netflix["previous_amount"], netflix["price_rose_on"]) == ("-15.49", "2025-04-15")
    groceries = sorted(D(a) for a in GROCERIES)[len(GROCERIES) // 2]  # the median of 11
    assert result["yearly_cost_active"] == {"USD": str(-(D("17.99") + groceries) * 12)}


def test_anomalies_report_the_rise_in_the_window_that_holds_it(subscriptions):
    [rise] = subscriptions.run("detect_anomalies")["price_rises"]  # the last 90 days: from 2025-04-02
    assert (rise["payee"], rise["previous_amount"], rise["typical_amount"], rise["yearly_cost"]) == (
        "Netflix", "-15.49", "-17.99", "-215.88")
    april = subscriptions.run("detect_anomalies", start_date="2025-04-01", end_date="2025-04-30")["price_rises"]
    # Charged once so far, the new price is a rise but not yet the price: the steady one still is.
    assert [(r["previous_amount"], r["last_amount"], r["typical_amount"]) for r in april] == [("-15.49", "-17.99", "-15.49")]
    assert subscriptions.run("detect_anomalies", start_date="2025-05-01", end_date="2025-05-31")["price_rises"] == []


def test_a_variable_grocery_shop_is_not_a_price_rise_nor_forgotten(subscriptions):
    for month in range(1, 7):  # each month of 2025, among them May's 381.53 -> 397.76
        start = date(2025, month, 1)
        found = subscriptions.run("detect_anomalies", start_date=start.isoformat(), end_date=month_end(start).isoformat())
        assert "Whole Foods" not in by_payee(found["price_rises"])
    shop = by_payee(subscriptions.run("list_recurring")["recurring"])["Whole Foods"]
    assert not shop["possibly_forgotten"] and "flags" not in shop
    assert shop["typical_amount"] == str(-sorted(D(a) for a in GROCERIES)[len(GROCERIES) // 2])


def test_a_subscription_billed_in_another_currency_is_still_one_price(tmp_path):
    """Converted at each month's rate, it never charges one amount twice, yet it is one price: a
    charge running half a year with nothing else bought there may be forgotten."""
    books = Books(tmp_path / "w.db")
    books.account("Card", "credit_card")
    for i, amount in enumerate(["10.23", "10.31", "10.19", "10.27", "10.35", "10.21", "10.29", "10.25"]):
        books.add("Card", add_months(date(2024, 11, 20), i), f"-{amount}", "HEADSPACE.COM", payee="Headspace",
                  category="Streaming")
    headspace = by_payee(books.run("list_recurring", end_date="2025-06-30")["recurring"])["Headspace"]
    assert headspace["flags"] == ["nothing_else_from_merchant"] and headspace["possibly_forgotten"]


# 2. A lone end_date, and a start after the end.

def test_a_lone_end_date_covers_the_history_up_to_it(hard_books):
    result = hard_books.run("spending_summary", end_date="2025-05-31")
    assert (result["covered"]["start_date"], result["covered"]["end_date"]) == ("2025-04-10", "2025-05-31")
    usd = next(b for b in result["by_currency"] if b["currency"] == "USD")
    assert (usd["spending"], usd["income"]) == (str(D("50.00") + D("1200.00") + D("80.25") + D("19.75")), "3000.00")
    assert result["covered"]["transactions"] == 5
    flows = hard_books.run("cash_flow", end_date="2025-05-31")
    assert [m["month"] for m in flows["by_currency"][0]["months"]] == ["2025-04", "2025-05"]
    assert flows["covered"]["start_date"] == "2025-04-10"


def test_windowed_defaults_end_at_a_lone_end_date(hard_books):
    anomalies = hard_books.run("detect_anomalies", end_date="2025-05-31")["covered"]
    assert (anomalies["start_date"], anomalies["end_date"]) == ("2025-03-03", "2025-05-31")  # 90 days
    recurring = hard_books.run("list_recurring", end_date="2024-01-31")["covered"]
    assert (recurring["start_date"], recurring["end_date"]) == ("2022-01-31", "2024-01-31")  # 2 years


@pytest.mark.parametrize("tool, args, message", [
    ("spending_summary", {"start_date": "2025-06-10", "end_date": "2025-06-01"}, "end_date 2025-06-01 is before"),
    ("cash_flow", {"start_date": "2025-06-10", "end_date": "2025-06-01"}, "end_date 2025-06-01 is before"),
    ("search_transactions", {"start_date": "2025-07-01"}, "after today (2025-06-18)"),
    ("detect_anomalies", {"start_date": "2025-07-01"}, "give end_date too"),
    ("list_recurring", {"start_date": "2025-07-01"}, "give end_date too"),
])
def test_a_start_after_the_end_is_an_error_not_an_empty_answer(hard_books, tool, args, message):
    error = hard_books.run(tool, **args)["error"]
    assert error["type"] == "validation" and message in error["message"]


# 3. Split rows count once; uncategorised money is what no part covers.

@pytest.fixture
def split_rows(hard_books) -> dict[str, int]:
    """June split rows on the Visa: Amazon 100 = 30 Groceries + 70 Household, filed under Shopping;
    Starbucks 40 = 25 Dining + 15 Coffee, no category (both parts under Food); Target 60, no category,
    with 40 Household + 15 Gifts, leaving 5.00 uncategorised."""
    add = hard_books.add
    rows = {"amazon": add("Visa", "2025-06-09", "-100.00", "AMAZON MKTPLACE", category="Shopping"),
            "starbucks": add("Visa", "2025-06-11", "-40.00", "STARBUCKS"),
            "target": add("Visa", "2025-06-13", "-60.00", "TARGET")}
    for name, amount, category in [("amazon", "-30.00", "Groceries"), ("amazon", "-70.00", "Household"),
                                   ("starbucks", "-25.00", "Dining"), ("starbucks", "-15.00", "Coffee"),
                                   ("target", "-40.00", "Household"), ("target", "-15.00", "Gifts")]:
        hard_books.split(rows[name], amount, category)
    return rows


def counts(result: dict, currency: str = "USD") -> dict[str, tuple[str, int]]:
    block = next(b for b in result["by_currency"] if b["currency"] == currency)
    return {g["name"]: (g["spent"], g["transactions"]) for g in block["groups"]}


JUNE = {"start_date": "2025-06-01", "end_date": "2025-06-30"}
JUNE_POSTED = 14  # hard_books' posted June rows (tests/tools/test_reports.py)


@pytest.fixture(params=["probe the period", "read the split rows"])
def split_read(request, monkeypatch) -> None:
    """Both ways `recounted` finds split rows' postings, whichever is cheaper for the ledger."""
    monkeypatch.setattr(scope, "PROBES_PER_PART", 10**9 if request.param == "probe the period" else 0)


def test_spending_summary_counts_a_split_row_once_per_group(hard_books, split_rows, split_read):
    by_payee = counts(hard_books.run("spending_summary", group_by="payee", **JUNE))
    assert by_payee["AMAZON MKTPLACE"] == ("100.00", 1) and by_payee["TARGET"] == ("60.00", 1)
    by_account = hard_books.run("spending_summary", group_by="account", **JUNE)
    # Visa: Whole Foods, Chez Panisse, its refund, Food Truck and the three split rows; the card payment is a transfer.
    assert counts(by_account)["Visa"] == (str(D("45.20") + D("40.00") + D("10.00") + D("200.00")), 7)
    assert by_account["covered"]["transactions"] == JUNE_POSTED + 3
    rolled = counts(hard_books.run("spending_summary", **JUNE))
    assert rolled["Food"] == (str(D("45.20") + D("40.00") + D("10.00") + D("30.00") + D("40.00")), 6)
    detail = counts(hard_books.run("spending_summary", rollup=False, **JUNE))
    assert (detail["Household"], detail["Groceries"], detail["Uncategorized"]) == (
        ("110.00", 2), ("75.20", 2), (str(D("33.33") + D("5.00")), 2))


def test_partial_months_and_other_reports_count_split_rows_once(hard_books, split_rows, split_read):
    edge = hard_books.run("spending_summary", start_date="2025-06-09", end_date="2025-06-13", group_by="account")
    assert counts(edge)["Visa"] == ("200.00", 3) and edge["covered"]["transactions"] == 3 + 4  # and two transfers' legs
    assert hard_books.run("cash_flow", **JUNE)["covered"]["transactions"] == JUNE_POSTED + 3
    assert hard_books.run("check_budgets")["covered"]["transactions"] == JUNE_POSTED + 3


def test_uncategorized_only_finds_the_money_no_part_covers(hard_books, split_rows):
    result = hard_books.run("search_transactions", uncategorized_only=True, **JUNE)
    listed = {row["description"]: row for row in result["transactions"]}
    assert set(listed) == {"MYSTERY SHOP", "VENMO FROM BOB", "TARGET"}  # Starbucks' parts cover it all
    assert result["count"] == 3 and result["sum"] == {"USD": str(D("-33.33") + D("15.00") + D("-5.00"))}
    assert listed["TARGET"]["amount"] == "-60.00" and "what its parts leave uncategorised" in result["note"]
    summary = counts(hard_books.run("spending_summary", rollup=False, **JUNE))
    assert summary["Uncategorized"][0] == str(D("33.33") + D("5.00"))  # the same outflows, as spending


# 4. A linked transfer leg keeps a transfer category.

def card_payment_leg(books: Books) -> int:
    return books.ledger.scalar("SELECT id FROM transactions WHERE description LIKE 'CARD PAYMENT FROM%'")


def test_a_spending_category_on_a_linked_leg_is_refused(hard_books):
    leg, before = card_payment_leg(hard_books), hard_books.snapshot()
    mystery = hard_books.ledger.scalar("SELECT id FROM transactions WHERE description = 'MYSTERY SHOP'")
    error = hard_books.run("update_transaction", ids=[mystery, leg], category="Groceries")["error"]
    assert (error["type"], error["ids"]) == ("linked_transfer", [leg])
    assert f"transaction {leg} is a linked leg of a transfer" in error["message"]
    assert hard_books.snapshot() == before and not hard_books.ledger.scalar("SELECT COUNT(*) FROM rules")
    search = hard_books.run("search_transactions", category="Groceries", **JUNE)["sum"]["USD"]
    summary = counts(hard_books.run("spending_summary", category="Groceries", **JUNE))["Groceries"][0]
    assert (search, summary) == ("-45.20", "45.20")


def test_a_linked_leg_takes_a_transfer_category_and_other_changes(hard_books):
    leg = card_payment_leg(hard_books)
    assert hard_books.run("update_transaction", ids=[leg], category="Credit Card Payment")["updated"] == 1
    assert hard_books.run("update_transaction", ids=[leg], notes="paid in full", category="")["updated"] == 1
    assert hard_books.row(leg)["category"] is None and hard_books.row(leg)["notes"] == "paid in full"


# 5. Small validation slips.

def test_an_unreadable_row_names_what_the_tool_user_can_do(hard_books, tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("Date,Description,Amount\n2025-06-01,COFFEE,-4.50\n2025-06-02,LUNCH,abc\n")
    before = hard_books.snapshot()
    message = hard_books.run("import_transactions", path=str(path), account="Checking")["error"]["message"]
    assert message == ("1 row(s) could not be read: line 3, column Amount: not an amount: 'abc'; nothing was imported:"
                       " the user can fix those rows in the file and import it again, or import the readable rows"
                       " from a terminal with `wilson import --skip-bad <file>`")
    assert hard_books.snapshot() == before


def test_check_budgets_takes_a_month(hard_books):
    hard_books.run("set_budget", category="Groceries", amount="100")
    may = hard_books.run("check_budgets", month="2025-05")
    assert may["month"] == "2025-05" and may["budgets"][0]["spent"] == "80.25"
    assert hard_books.run("check_budgets", month="2025-05-09")["budgets"] == may["budgets"]
    for bad in ("2025-13", "May", "2025-5"):
        assert "not a month (YYYY-MM)" in hard_books.run("check_budgets", month=bad)["error"]["message"]


@pytest.mark.parametrize("args, message", [
    ({"category": "Transfer", "amount": "5"}, "Transfer is a transfer category; budgets are for spending categories"),
    ({"category": "Salary", "amount": "5"}, "Salary is an income category; budgets are for spending categories"),
    ({"category": "Dining", "amount": 1e308}, "amount: 1E+308 is out of range for an amount of money"),
    ({"category": "Dining", "amount": "1.000,50"}, "amount: '1.000,50' is not a decimal amount; write it like 1234.50"),
    ({"category": "Dining", "amount": "1,5"}, "amount: '1,5' is not a decimal amount; write it like 1234.50"),  # not 15
    ({"category": "Dining", "amount": "5", "currency": "XYZ"},
     "currency 'XYZ' is not a three-letter ISO 4217 code (such as USD or EUR) nor one the ledger uses"),
])
def test_set_budget_refusals_say_what_is_wrong(hard_books, args, message):
    assert hard_books.run("set_budget", **args)["error"]["message"] == message
    assert hard_books.ledger.scalar("SELECT COUNT(*) FROM budgets") == 0


def test_set_budget_takes_iso_codes_and_the_ledgers_own(hard_books):
    assert hard_books.run("set_budget", category="Dining", amount="50", currency="chf")["currency"] == "CHF"
    hard_books.account("Exchange", "checking", "XBT")  # a code no standard has, that an account holds
    assert hard_books.run("set_budget", category="Gifts", amount="0.5", currency="XBT")["budget"] == "0.50"
