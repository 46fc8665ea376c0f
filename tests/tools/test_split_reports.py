"""Split transactions in the reports: parts count under their own categories, the rest under the row's.

Every test checks the maintained aggregate against `flows_from_scratch` (tests/tools/books.py),
which works the postings out in Python, after each kind of write.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from tests.tools.books import flows_from_scratch, stored_flows
from tests.tools.ledger_fixture import hard_books  # noqa: F401  (fixture)
from wilson.ledger.undo import undo_batch

D = Decimal
# hard_books' June 2025 USD spending by leaf category, before any split row (tests/tools/test_reports.py).
JUNE_USD = {"Groceries": D("45.20"), "Dining": D("40.00"), "Food": D("10.00"), "Uncategorized": D("33.33"),
            "Other": D("1.00")}

QIF_SPLITS = """!Type:Bank
D06/05/2025
T-100.00
PAmazon
L--Split--
SFood:Groceries
$-30.00
SShopping:Household
$-70.00
^
D06/06/2025
T-40.00
PStarbucks
SFood:Dining
$-25.00
SGifts
$-15.00
^
D06/07/2025
T-12.00
PAmazon
^
"""


def block(result: dict, currency: str = "USD") -> dict:
    return next(b for b in result["by_currency"] if b["currency"] == currency)


def spent(books, start: str = "2025-06-01", end: str = "2025-06-30", **args) -> dict[str, str]:
    result = books.run("spending_summary", start_date=start, end_date=end, rollup=False, **args)
    return {g["name"]: g["spent"] for g in block(result)["groups"]}


def expected(**changes: str) -> dict[str, str]:
    figures = dict(JUNE_USD)
    for name, amount in changes.items():
        figures[name] = figures.get(name, D(0)) + D(amount)
    return {name: str(value) for name, value in figures.items() if value}


@pytest.fixture
def amazon(hard_books) -> int:
    """A $100 Amazon charge filed under Shopping, split 30 Groceries / 70 Household."""
    row = hard_books.add("Visa", "2025-06-09", "-100.00", "AMAZON MKTPLACE", category="Shopping")
    hard_books.split(row, "-30.00", "Groceries")
    hard_books.split(row, "-70.00", "Household")
    return row


def exact(books) -> bool:
    return stored_flows(books.ledger) == flows_from_scratch(books.ledger)


def test_spending_summary_counts_the_parts_not_the_parent(hard_books, amazon):
    assert exact(hard_books)
    assert spent(hard_books) == expected(Groceries="30.00", Household="70.00")
    rolled = hard_books.run("spending_summary", start_date="2025-06-01", end_date="2025-06-30")
    groups = {g["name"]: g["spent"] for g in block(rolled)["groups"]}
    assert groups["Shopping"] == "70.00" and groups["Food"] == str(D("45.20") + D("40.00") + D("10.00") + D("30.00"))
    food = hard_books.run("spending_summary", start_date="2025-06-01", end_date="2025-06-30", category="Food")
    assert {g["name"]: g["spent"] for g in block(food)["groups"]}["Groceries"] == "75.20"


def test_partial_months_read_the_parts_too(hard_books, amazon):
    """The edges of a period are read row by row; they must agree with the aggregate."""
    assert spent(hard_books, "2025-06-09", "2025-06-09") == {"Groceries": "30.00", "Household": "70.00"}
    whole = spent(hard_books)
    assert spent(hard_books, "2025-05-31", "2025-06-30") == {**whole, "Coffee": "19.75"}
    by_payee = hard_books.run("spending_summary", start_date="2025-06-01", end_date="2025-06-30", group_by="payee")
    assert {g["name"]: g["spent"] for g in block(by_payee)["groups"]}["AMAZON MKTPLACE"] == "100.00"


def test_cash_flow_and_budgets_count_the_parts(hard_books, amazon):
    june = next(m for m in block(hard_books.run("cash_flow"))["months"] if m["month"] == "2025-06")
    assert june["spending"] == str(sum(JUNE_USD.values()) + D("100.00"))
    hard_books.run("set_budget", category="Groceries", amount="100")
    hard_books.run("set_budget", category="Shopping", amount="50")
    budgets = {b["category"]: b for b in hard_books.run("check_budgets")["budgets"]}
    assert budgets["Groceries"]["spent"] == "75.20"
    assert budgets["Shopping"]["spent"] == "70.00" and budgets["Shopping"]["status"] == "over"


def test_an_income_part_of_a_split_counts_as_income(hard_books):
    """Paycheck 2,000 split into 2,500 Salary and -500 Taxes: income and spending by category kind."""
    row = hard_books.add("Checking", "2025-06-20", "2000.00", "ACME PAYROLL")
    hard_books.split(row, "2500.00", "Salary")
    hard_books.split(row, "-500.00", "Taxes")
    assert exact(hard_books)
    result = hard_books.run("spending_summary", start_date="2025-06-01", end_date="2025-06-30", rollup=False)
    assert block(result)["income"] == str(D("3015.00") + D("2500.00"))
    assert {g["name"]: g["spent"] for g in block(result)["groups"]}["Taxes"] == "500.00"


def test_parts_added_changed_and_deleted_later(hard_books):
    ledger = hard_books.ledger
    row = hard_books.add("Visa", "2025-06-09", "-100.00", "AMAZON MKTPLACE", category="Shopping")
    assert spent(hard_books) == expected(Shopping="100.00")
    hard_books.split(row, "-30.00", "Groceries")  # a part leaving a rest on the row's own category
    assert exact(hard_books) and spent(hard_books) == expected(Groceries="30.00", Shopping="70.00")
    hard_books.split(row, "-70.00", "Household")  # the rest is used up: Shopping goes
    assert exact(hard_books) and spent(hard_books) == expected(Groceries="30.00", Household="70.00")
    with ledger.write() as conn:
        conn.execute("UPDATE splits SET amount = -4000 WHERE transaction_id = ? AND amount = -3000", (row,))
        conn.execute("UPDATE splits SET category_id = ? WHERE transaction_id = ? AND amount = -7000",
                     (ledger.category("Dining")["id"], row))
    assert exact(hard_books)  # parts now over-use the amount: a +10.00 rest under Shopping reduces it
    assert spent(hard_books) == expected(Groceries="40.00", Dining="70.00", Shopping="-10.00")
    with ledger.write() as conn:
        conn.execute("DELETE FROM splits WHERE transaction_id = ? AND amount = -4000", (row,))
    assert exact(hard_books) and spent(hard_books) == expected(Dining="70.00", Shopping="30.00")
    with ledger.write() as conn:
        conn.execute("DELETE FROM splits WHERE transaction_id = ?", (row,))
    assert exact(hard_books) and spent(hard_books) == expected(Shopping="100.00")


def test_a_part_moved_to_another_transaction(hard_books, amazon):
    other = hard_books.add("Checking", "2025-05-20", "-50.00", "HARDWARE STORE", category="Household")
    with hard_books.ledger.write() as conn:
        conn.execute("UPDATE splits SET transaction_id = ? WHERE transaction_id = ? AND amount = -3000", (other, amazon))
    assert exact(hard_books)
    assert spent(hard_books) == expected(Household="70.00", Shopping="30.00")


def test_recategorising_the_parent_moves_only_the_rest(hard_books, amazon):
    ledger = hard_books.ledger
    ledger.update_transactions([amazon], category_id=ledger.category("Dining")["id"])
    assert exact(hard_books) and spent(hard_books) == expected(Groceries="30.00", Household="70.00")
    with ledger.write() as conn:
        conn.execute("UPDATE transactions SET amount = -12000, posted = '2025-06-10' WHERE id = ?", (amazon,))
    assert exact(hard_books) and spent(hard_books) == expected(Groceries="30.00", Household="70.00", Dining="20.00")
    with ledger.write() as conn:
        conn.execute("UPDATE transactions SET posted = '2025-07-02' WHERE id = ?", (amazon,))  # out of June
    assert exact(hard_books) and spent(hard_books) == expected()
    ledger.delete_transactions([amazon])
    assert exact(hard_books) and not ledger.scalar("SELECT COUNT(*) FROM splits")


def test_a_linked_split_row_is_a_transfer(hard_books, amazon):
    refund = hard_books.add("Checking", "2025-06-09", "100.00", "AMAZON TRANSFER")
    hard_books.ledger.link_transfer(amazon, refund)
    assert exact(hard_books) and spent(hard_books) == expected()
    with hard_books.ledger.write() as conn:
        conn.execute("UPDATE transactions SET transfer_id = NULL WHERE id IN (?, ?)", (amazon, refund))
    assert exact(hard_books) and spent(hard_books) == expected(Groceries="30.00", Household="70.00")


def test_a_pending_split_row_never_counts_until_it_posts(hard_books):
    ledger = hard_books.ledger
    row = hard_books.add("Visa", "2025-06-11", "-100.00", "AMAZON MKTPLACE", category="Shopping", pending=True)
    before = stored_flows(ledger)
    hard_books.split(row, "-30.00", "Groceries")
    hard_books.split(row, "-70.00", "Household")
    with ledger.write() as conn:
        conn.execute("UPDATE splits SET amount = -2000 WHERE transaction_id = ? AND amount = -3000", (row,))
    assert stored_flows(ledger) == before and exact(hard_books)
    with ledger.write() as conn:
        conn.execute("UPDATE transactions SET pending = 0 WHERE id = ?", (row,))
    assert exact(hard_books) and spent(hard_books) == expected(Groceries="20.00", Household="70.00", Shopping="10.00")
    with ledger.write() as conn:
        conn.execute("UPDATE transactions SET pending = 1 WHERE id = ?", (row,))
    assert stored_flows(ledger) == before and exact(hard_books)
    ledger.delete_transactions([row])
    assert stored_flows(ledger) == before


def test_a_deleted_category_leaves_its_parts_uncategorised(hard_books, amazon):
    with hard_books.ledger.write() as conn:
        conn.execute("DELETE FROM categories WHERE name = 'Household'")
    assert exact(hard_books)
    assert spent(hard_books) == expected(Groceries="30.00", Uncategorized="70.00")


def test_list_categories_counts_split_parts(hard_books, amazon):
    counts = {row["name"]: row["transactions"] for row in hard_books.run("list_categories")["categories"]}
    assert counts["Household"] == 1 and counts["Groceries"] == 5 and counts["Shopping"] == 0


def test_a_qif_import_with_splits_and_its_undo(hard_books, tmp_path: Path):
    path = tmp_path / "splits.qif"
    path.write_text(QIF_SPLITS)
    before = stored_flows(hard_books.ledger)
    done = hard_books.run("import_transactions", path=str(path), account="Visa")
    assert done["added"] == 3 and exact(hard_books)
    rows = hard_books.ledger.query("SELECT t.posted, c.name FROM transactions t LEFT JOIN categories c"
                                   " ON c.id = t.category_id WHERE t.batch_id = ? ORDER BY t.posted", (done["batch_id"],))
    # The split rows keep the file's (missing) category; the plain Amazon row is categorised as usual.
    assert [row["name"] for row in rows] == [None, None, "Shopping"]
    assert spent(hard_books) == expected(Groceries="30.00", Household="70.00", Dining="25.00", Gifts="15.00",
                                         Shopping="12.00")
    undo_batch(hard_books.ledger, done["batch_id"])
    assert stored_flows(hard_books.ledger) == before and exact(hard_books)
    assert not hard_books.ledger.scalar("SELECT COUNT(*) FROM splits")


def test_search_finds_a_category_in_split_parts_and_sums_them_as_spending_summary_does(hard_books, amazon):
    groceries = hard_books.run("search_transactions", category="Groceries", start_date="2025-06-01", end_date="2025-06-30")
    assert groceries["sum"]["USD"] == "-75.20"  # 45.20 of Groceries rows and the split's 30.00 part
    listed = {row["id"]: row for row in groceries["transactions"]}
    assert listed[amazon]["amount"] == "-100.00" and "split" in groceries["note"]
    assert [(p["category"], p["amount"]) for p in listed[amazon]["split"]] == [("Groceries", "-30.00"), ("Household", "-70.00")]
    assert groceries["count"] == len(groceries["transactions"])
    shopping = hard_books.run("search_transactions", category="Shopping", start_date="2025-06-01", end_date="2025-06-30")
    assert shopping["sum"]["USD"] == "-70.00" and amazon in {row["id"] for row in shopping["transactions"]}  # Household is under Shopping
    words = hard_books.run("search_transactions", query="amazon mktplace")
    assert [row.get("split") is not None for row in words["transactions"]] == [True] and words["sum"]["USD"] == "-100.00"
