"""What the categoriser makes of a row on its own, through an import and the report tools.

Card payments and own-account transfers seen from one side only, merchant refunds, and Revolut
top-ups: each must land in a category that keeps the figures right when the other leg, or the
original purchase's context, is not there to help.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.tools.books import Books
from wilson.tools.merchants import default_category

CARD_PAYMENTS = {
    "AMEX EPAYMENT ACH PMT PPD ID: 2005032111": "-410.12",
    "CAPITAL ONE MOBILE PMT PPD ID: 9279744991": "-701.25",
    "CAPITAL ONE ONLINE PMT": "-100.00",
    "DISCOVER E-PAYMENT 8247": "-200.00",
    "CHASE CREDIT CRD AUTOPAY PPD ID: 4760039224": "-300.00",
    "CITI AUTOPAY PAYMENT 061234": "-50.00",
    "BK OF AMER VISA ONLINE PMT": "-75.50",
    "ONLINE PAYMENT, THANK YOU": "-500.00",  # Citi's wording, seen from the bank
}
SAVINGS_MOVES = {
    "Online Transfer to SAV ...7890 transaction#: 20250605511": "-500.00",
    "Online Transfer from SAV ...7890 transaction#: 20250614777": "1000.00",
    "TRANSFER TO SAVINGS": "-250.00",
    "Online Banking transfer to SAV 7890 Confirmation# 1234567": "-40.00",
    "Internet transfer to Online Savings account XXXXXX4321": "-1000.00",  # Ally
    "TRANSFER TO POT": "-50.00",  # Monzo
    "Överföring till sparkonto": "-5000.00",  # ICA Banken
}
CHECKING_MOVES = {"ONLINE TRANSFER TO CHK ...1234": "-60.00"}
# Payments to someone else, which must stay spending.
PAYMENTS_TO_OTHERS = {
    "PAYPAL INST XFER 1234567 SHOPNAME": "-45.00",
    "VENMO PAYMENT 1029384756": "-30.00",
    "ZELLE PAYMENT TO JOHN SMITH JPM99A1B2C3": "-120.00",
    "WIRE TRANSFER TO LAWYER LLP": "-2000.00",
    "BILL PAYMENT CITY WATER DEPT": "-64.10",
    "PAYMENT TO ACME DENTAL": "-180.00",
    "CAPITAL ONE AUTO PMT": "-390.00",  # a car loan, not the card
    "CHASE QUICKPAY PAYMENT TO JOHN": "-25.00",
}


@pytest.fixture
def books(tmp_path: Path) -> Books:
    return Books(tmp_path / "w.db")


def write_csv(tmp_path: Path, name: str, rows: list[tuple[str, str, str]]) -> str:
    """A plain `Date,Description,Amount` export (money out negative)."""
    path = tmp_path / name
    lines = ["Date,Description,Amount"] + [f'{day},"{text}",{amount}' for day, text, amount in rows]
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def import_rows(books: Books, tmp_path: Path, account: str, rows: dict[str, str]) -> dict:
    """Rows (description: amount) dated 2025-06-10, imported into `account` as a user would."""
    result = books.run("import_transactions", path=write_csv(tmp_path, f"{account}.csv", [
        ("2025-06-10", text, amount) for text, amount in rows.items()
    ]), account=account)
    assert "error" not in result, result
    return result


def usd(result: dict) -> dict:
    return next(block for block in result["by_currency"] if block["currency"] == "USD")


def categories(books: Books) -> dict[str, str | None]:
    return {row["description"]: row["name"] for row in books.ledger.query(
        "SELECT t.description, c.name FROM transactions t LEFT JOIN categories c ON c.id = t.category_id"
    )}


def test_checking_alone_keeps_card_payments_and_savings_moves_out_of_spending_and_income(books, tmp_path):
    """The usual first import: only checking. Salary and rent are the only income and spending."""
    own = CARD_PAYMENTS | SAVINGS_MOVES | CHECKING_MOVES
    result = import_rows(books, tmp_path, "Checking", {
        "ACME CORP PAYROLL PPD ID: 9876543210": "3245.67", "OAKWOOD APARTMENTS RENT": "-2150.00", **own,
    })
    assert result["transfers_linked"] == 0  # nothing to link: the cards and savings were never imported
    summary = usd(books.run("spending_summary", start_date="2025-06-01", end_date="2025-06-30"))
    assert (summary["spending"], summary["income"]) == ("2150.00", "3245.67")
    assert summary["transfer_transactions"] == len(own) == 16
    assert summary["transfers_net"] == "-8236.87"
    found = categories(books)
    assert {found[text] for text in CARD_PAYMENTS} == {"Credit Card Payment"}
    assert {found[text] for text in SAVINGS_MOVES} == {"Savings Transfer"}
    assert found["ONLINE TRANSFER TO CHK ...1234"] == "Transfer"


def test_payments_to_other_people_and_merchants_stay_spending(books, tmp_path):
    import_rows(books, tmp_path, "Checking", PAYMENTS_TO_OTHERS)
    summary = usd(books.run("spending_summary", start_date="2025-06-01", end_date="2025-06-30"))
    assert summary["spending"] == "2854.10" and summary["transfer_transactions"] == 0
    assert books.run("categorize_transactions", use_model=False)["categorized"] == 0


def test_categorize_transactions_files_rows_already_in_the_ledger(books):
    books.account("Checking")
    payment = books.add("Checking", "2025-06-20", "-701.25", "CAPITAL ONE MOBILE PMT PPD ID: 9279744991")
    saved = books.add("Checking", "2025-06-05", "-500.00", "Online Transfer to SAV ...7890 transaction#: 2025")
    lawyer = books.add("Checking", "2025-06-06", "-2000.00", "WIRE TRANSFER TO LAWYER LLP")
    result = books.run("categorize_transactions", use_model=False)
    assert result["by_category"] == {"Credit Card Payment": 1, "Savings Transfer": 1}
    row = books.row(payment)
    assert (row["category"], row["category_source"]) == ("Credit Card Payment", "merchant")
    assert books.row(saved)["category"] == "Savings Transfer" and books.row(lawyer)["category"] is None
    summary = usd(books.run("spending_summary", start_date="2025-06-01", end_date="2025-06-30"))
    assert (summary["spending"], summary["income"], summary["transfer_transactions"]) == ("2000.00", "0.00", 2)


def test_both_legs_imported_still_link_and_keep_their_categories(books, tmp_path):
    import_rows(books, tmp_path, "Checking", {"CAPITAL ONE MOBILE PMT PPD ID: 9279744991": "-701.25"})
    result = import_rows(books, tmp_path, "Capital One", {"CAPITAL ONE MOBILE PYMT": "701.25"})
    assert result["transfers_linked"] == 1
    assert set(categories(books).values()) == {"Credit Card Payment"}
    assert usd(books.run("spending_summary", start_date="2025-06-01", end_date="2025-06-30"))["transfers_net"] == "0.00"


REFUND_MONTH = [
    ("2025-06-03", "AMAZON MKTPL*2X4RT5QW2", "-89.99"),
    ("2025-06-12", "AMAZON MKTPL*2X4RT5QW2", "89.99"),
    ("2025-06-06", "BEST BUY 00012", "-249.99"),
    ("2025-06-20", "BEST BUY 00012", "49.99"),
    ("2025-06-21", "TARGET T-1234 DENVER CO", "-60.00"),
    ("2025-06-22", "OVERDRAFT FEE REFUND", "35.00"),
    ("2025-06-02", "OVERDRAFT FEE", "-35.00"),
]


@pytest.mark.parametrize("description_rule", [False, True], ids=["payee first", "every row by its text"])
def test_a_refund_from_a_known_merchant_reduces_its_spending(books, tmp_path, description_rule):
    """An import matches rows by payee first unless a rule reads descriptions; both ways agree."""
    if description_rule:
        books.run("manage_rules", action="add", pattern="zz-no-such-shop", category="Gifts")
    books.run("import_transactions", path=write_csv(tmp_path, "card.csv", REFUND_MONTH), account="Checking")
    found = categories(books)
    assert (found["AMAZON MKTPL*2X4RT5QW2"], found["BEST BUY 00012"], found["OVERDRAFT FEE REFUND"]) == (
        "Shopping", "Electronics", "Fees",
    )
    flows = usd(books.run("cash_flow", start_date="2025-06-01", end_date="2025-06-30"))
    assert (flows["income"], flows["spending"]) == ("0.00", "260.00")  # 249.99 - 49.99 + 60.00
    books.run("set_budget", category="Shopping", amount="300")
    [shopping] = books.run("check_budgets", month="2025-06-01")["budgets"]
    assert (shopping["spent"], shopping["used"], shopping["status"]) == ("260.00", "86.7%", "under")


INCOME_FROM_MERCHANT_NAMES = {
    "AMAZON.COM*1234 PAYROLL": ("2500.00", "Salary"),  # its payee cleans to `Amazon`
    "TARGET CORP DIRECT DEP": ("1800.00", "Salary"),
    "ETSY INC DEPOSIT": ("310.25", None),  # a seller's payout
    "EBAY O*12-345 PAYOUT": ("99.00", None),
    "ZELLE FROM JOHN FOR UBER": ("14.50", None),  # a friend paying back, not Uber's refund
    "PAYPAL *EBAY INC": ("20.00", None),
    "VENMO FROM BOB TARGET TICKETS": ("40.00", None),
    "AMAZON CASHBACK REWARD": ("12.34", "Other Income"),
    "DISCOVER CASHBACK BONUS": ("25.00", "Other Income"),
    "INTEREST PAID": ("1.23", "Interest"),
    "ACME DENTAL REFUND": ("80.00", "Refunds"),  # a refund from a merchant the table does not know
}


@pytest.mark.parametrize("description_rule", [False, True], ids=["payee first", "every row by its text"])
def test_money_in_that_is_earned_or_sent_by_a_person_stays_income(books, tmp_path, description_rule):
    if description_rule:
        books.run("manage_rules", action="add", pattern="zz-no-such-shop", category="Gifts")
    import_rows(books, tmp_path, "Checking", {text: amount for text, (amount, _) in INCOME_FROM_MERCHANT_NAMES.items()})
    found = categories(books)
    assert {text: found[text] for text in INCOME_FROM_MERCHANT_NAMES} == {
        text: category for text, (_, category) in INCOME_FROM_MERCHANT_NAMES.items()
    }
    summary = usd(books.run("spending_summary", start_date="2025-06-01", end_date="2025-06-30"))
    assert (summary["income"], summary["spending"]) == ("4902.32", "0.00")


def test_a_revolut_top_up_is_a_transfer_on_both_sides(books, tmp_path):
    revolut = tmp_path / "account-statement_2025-06-01_2025-06-30_en-us_abc123.csv"
    revolut.write_text(
        "Type,Product,Started Date,Completed Date,Description,Amount,Fee,Currency,State,Balance\n"
        "TOPUP,Current,2025-06-02 13:02:11,2025-06-02 14:22:10,Top-Up by *1234,300.00,0.00,EUR,COMPLETED,300.00\n"
        "CARD_PAYMENT,Current,2025-06-03 13:02:11,2025-06-03 14:22:10,Pingo Doce,-23.45,0.00,EUR,COMPLETED,276.55\n"
    )
    assert "error" not in books.run("import_transactions", path=str(revolut))
    import_rows(books, tmp_path, "Checking", {
        "REVOLUT**1234* DUBLIN": "-350.12", "VODAFONE TOP UP 0712345678": "-20.00",
    })
    flows = books.run("cash_flow", start_date="2025-06-01", end_date="2025-06-30")["by_currency"]
    assert {b["currency"]: (b["income"], b["spending"]) for b in flows} == {
        "EUR": ("0.00", "23.45"), "USD": ("0.00", "20.00"),  # a phone top-up is still spending
    }
    found = categories(books)
    assert (found["Top-Up by *1234"], found["REVOLUT**1234* DUBLIN"]) == ("Transfer", "Transfer")


@pytest.mark.parametrize("description, amount, category", [
    ("Payment to Chase card ending in 4417 06/20", -50000, "Credit Card Payment"),
    ("BK OF AMER VISA DES:ONLINE PMT ID:CKF812345", -7550, "Credit Card Payment"),
    ("CAPITAL ONE MOBILE PYMT", 70125, "Credit Card Payment"),  # the card's side
    ("Transfer to Brokerage XXXX5678", -100000, "Transfer"),
    ("TRANSFER TO BROKERAGE", -100000, None),  # no account ending: could be anyone's
    ("CHASE MORTGAGE PAYMENT", -180000, "Mortgage"),
    ("BANK OF AMERICA MORTGAGE PMT", -180000, "Mortgage"),
    ("CITI TRENDS PAYMENT", -4000, None),
    ("AMEX SEND PAYMENT TO JOHN", -4000, None),
    ("ZELLE PAYMENT TO JOHN", -4000, None),
    ("CARD PAYMENT TO SMALL CAFE LTD ON 01-03-2025", -320, None),  # Santander UK's purchase, not a card's payment
    ("CREDIT CARD PAYMENT", -50000, "Credit Card Payment"),
    ("BEST BUY 00012", 4999, "Electronics"),
    ("WALMART PAYROLL", 120000, "Salary"),
    # a wallet topped up from the bank: money moved, not spent
    ("VENMO ADDFUNDS 1234567890 WEB ID: 3264681992", -4000, "Transfer"), ("Cash App*Add Cash 8774174551 CA", -2000, "Transfer"),
    ("WISE INC TOP UP", -6000, "Transfer"), ("VENMO PAYMENT 1029384756", -4000, None),
    ("FASTER PAYMENT RECEIVED REF JOHN SMITH", 65000, None), ("PAYMENT RECEIVED - THANK YOU", 65000, "Credit Card Payment"),
])
def test_default_category(description, amount, category):
    assert default_category(description, None, amount) == category


def test_the_model_is_told_a_shops_money_in_is_a_refund_of_what_was_bought(tmp_path, llm_providers):
    """Rows the table does not know go to the model; its answer must net a refund the same way."""
    books = Books(tmp_path / "w.db", model="gpt-4o-mini")
    books.account("Checking")
    bought = books.add("Checking", "2025-06-02", "-64.00", "JOE'S HARDWARE #12")
    returned = books.add("Checking", "2025-06-09", "24.00", "JOE'S HARDWARE #12")
    llm_providers.reply_text(json.dumps({"results": [
        {"id": row, "category": "Home Maintenance", "confidence": 0.9} for row in (bought, returned)
    ]}))
    books.run("categorize_transactions")
    [request] = llm_providers.requests
    assert "usually a refund: give it the category of what was bought" in request.messages[0]["content"]
    summary = usd(books.run("spending_summary", start_date="2025-06-01", end_date="2025-06-30"))
    assert (summary["spending"], summary["income"]) == ("40.00", "0.00")
