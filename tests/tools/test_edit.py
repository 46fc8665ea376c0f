"""update_transaction (and what it learns) and delete_transaction."""

from __future__ import annotations

import pytest

from wilson.tools import REGISTRY


def test_update_fields_and_learn_from_a_category_correction(books):
    one = books.add("Checking", "2025-06-01", "-12.00", "CORNER STORE 12", payee="Corner Store")
    two = books.add("Checking", "2025-06-08", "-9.00", "CORNER STORE 12", payee="Corner Store")
    result = books.run("update_transaction", ids=[one, two, one], category="groceries", notes="weekly shop", reviewed=True)
    assert result["updated"] == 2
    assert [t["category"] for t in result["transactions"]] == ["Groceries", "Groceries"]
    assert result["learned"][0]["action"] == "learned" and "Corner Store" in result["note"]
    row = books.row(one)
    assert (row["category_source"], row["notes"], row["reviewed"]) == ("user", "weekly shop", 1)
    again = books.run("update_transaction", ids=[two], category="Groceries")
    assert again["learned"][0]["strength"] == 2
    assert again["learned"][0]["action"] == "strengthened"
    later = books.add("Checking", "2025-06-15", "-15.00", "CORNER STORE 99", payee="corner store")
    assert books.run("categorize_transactions", use_model=False)["by_source"]["learned"] == 1
    assert (books.row(later)["category"], books.row(later)["category_source"]) == ("Groceries", "learned")


def test_a_category_set_on_a_split_transaction_says_its_parts_keep_theirs(books):
    costco = books.add("Checking", "2025-06-01", "-100.00", "COSTCO", payee="Costco")
    books.split(costco, "-60.00", "Groceries")
    books.split(costco, "-40.00", "Household")
    result = books.run("update_transaction", ids=[costco], category="Shopping")
    assert f"transaction {costco} is split (Groceries, Household): its parts keep their categories" in result["note"]
    plain = books.add("Checking", "2025-06-02", "-5.00", "KIOSK")
    assert "split" not in books.run("update_transaction", ids=[plain], notes="gum").get("note", "")


def test_a_contradicting_correction_replaces_the_lesson(books):
    row = books.add("Checking", "2025-06-01", "-12.00", "JOE'S", payee="Joe's")
    books.run("update_transaction", ids=[row], category="Dining")
    books.run("update_transaction", ids=[row], category="Dining")
    result = books.run("update_transaction", ids=[row], category="Coffee")
    assert result["learned"][0]["action"] == "replaced" and result["learned"][0]["strength"] == 1
    rules = books.run("manage_rules", action="list")["rules"]
    assert [(r["category"], r["source"]) for r in rules] == [("Coffee", "learned")]


def test_the_result_is_honest_when_a_user_rule_still_wins(books):
    books.run("manage_rules", action="add", pattern="joe", category="Dining")
    row = books.add("Checking", "2025-06-01", "-12.00", "JOE'S", payee="Joe's")
    result = books.run("update_transaction", ids=[row], category="Coffee")
    assert "matches first" in result["note"]


def test_renaming_the_payee_learns_on_the_new_name(books):
    row = books.add("Checking", "2025-06-01", "-12.00", "SQ *JOES 1234", payee="Sq Joes")
    result = books.run("update_transaction", ids=[row], payee="  Joe's   Coffee ", category="Coffee")
    assert books.row(row)["payee"] == "Joe's Coffee"
    assert result["learned"][0]["payee"] == "Joe's Coffee"


def test_clearing(books):
    row = books.add("Checking", "2025-06-01", "-12.00", "X", category="Dining", notes="n")
    books.run("update_transaction", ids=[row], category="", notes="")
    assert books.row(row)["category_id"] is None and books.row(row)["notes"] is None
    assert books.row(row)["category_source"] is None
    assert books.ledger.scalar("SELECT COUNT(*) FROM rules") == 0


@pytest.mark.parametrize("args, kind", [
    ({"ids": [1], "category": "Grocerys and more"}, "not_found"),
    ({"ids": [1, 404]}, "validation"),
    ({"ids": [1, 404], "notes": "x"}, "not_found"),
    ({"ids": [], "notes": "x"}, "validation"),
    ({"ids": [1], "payee": "  "}, "validation"),
    ({"ids": "1; DROP TABLE transactions", "notes": "x"}, "validation"),
])
def test_update_errors_change_nothing(books, args, kind):
    books.add("Checking", "2025-06-01", "-12.00", "X")
    before = books.snapshot()
    assert books.run("update_transaction", **args)["error"]["type"] == kind
    assert books.snapshot() == before


def test_injection_text_is_stored_verbatim(books):
    row = books.add("Checking", "2025-06-01", "-12.00", "X")
    other = books.add("Checking", "2025-06-02", "-13.00", "Y")
    text = "'); UPDATE transactions SET amount = 0; --"
    books.run("update_transaction", ids=[row], notes=text, payee=text)
    assert books.row(row)["notes"] == text and books.row(other)["amount"] == -1300


def test_delete_needs_approval_and_unlinks_transfers(books):
    books.account("Savings", "savings")
    out, into = books.transfer("Checking", "Savings", "2025-06-01", "50.00")
    tool = REGISTRY["delete_transaction"]
    assert tool.needs_approval and tool.changes_data and not tool.read_only
    result = books.run("delete_transaction", ids=[out])
    assert result["deleted"] == 1 and result["transactions"][0]["amount"] == "-50.00"
    assert books.row(out) is None and books.row(into)["transfer_id"] is None
    assert books.run("delete_transaction", ids=[out])["error"]["type"] == "not_found"


def test_update_flags():
    tool = REGISTRY["update_transaction"]
    assert tool.changes_data and not tool.needs_approval
