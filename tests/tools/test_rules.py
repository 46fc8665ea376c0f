"""manage_rules and the one matching engine behind it."""

from __future__ import annotations

import pytest

from wilson.ledger.rules import MAX_PATTERN, RuleError, RuleSet, compile_pattern
from wilson.tools import REGISTRY


def test_add_list_remove(books):
    added = books.run("manage_rules", action="add", pattern="  Blue Bottle ", category="coffee", field="description")
    assert added["added"]["pattern"] == "Blue Bottle" and added["added"]["category"] == "Coffee"
    listed = books.run("manage_rules", action="list")
    assert listed["count"] == 1 and listed["rules"][0]["field"] == "description"
    assert books.run("manage_rules", action="remove", rule_id=added["added"]["id"])["removed"]["pattern"] == "Blue Bottle"
    assert books.run("manage_rules", action="list")["count"] == 0
    assert books.run("manage_rules", action="remove", rule_id=99)["error"]["type"] == "not_found"
    assert "rule_id" in books.run("manage_rules", action="remove")["error"]["message"]


@pytest.mark.parametrize("pattern, message", [
    ("([a-z", "invalid regular expression"),
    ("(a+)+$", "nests repetition"),
    (r"(\w*)*x", "nests repetition"),
    ("x" * (MAX_PATTERN + 1), "limit"),
])
def test_bad_regexes_are_structured_errors(books, pattern, message):
    result = books.run("manage_rules", action="add", pattern=pattern, match_type="regex", category="Coffee")
    assert result["error"]["type"] == "invalid_rule" and message in result["error"]["message"]
    assert books.ledger.scalar("SELECT COUNT(*) FROM rules") == 0


@pytest.mark.parametrize("args, message", [
    ({"pattern": "x"}, "pattern and a category"),
    ({"category": "Coffee"}, "pattern and a category"),
    ({"pattern": "x", "category": "Cofee Beans Deluxe"}, "unknown category"),
    ({"pattern": "x", "category": "Coffee", "min_amount": "10", "max_amount": "5"}, "larger than"),
    ({"pattern": "x", "category": "Coffee", "min_amount": "1.001"}, "decimals"),
    ({"pattern": "x", "category": "Coffee", "match_type": "glob"}, "invalid arguments"),
])
def test_add_validates(books, args, message):
    assert message in books.run("manage_rules", action="add", **args)["error"]["message"]


def test_injection_strings_are_literal_text(books):
    nasty = "'; DROP TABLE rules; --"
    assert "error" not in books.run("manage_rules", action="add", pattern=nasty, category="Coffee")
    plain = books.add("Checking", "2025-06-01", "-3.00", "COFFEE SHOP")
    hit = books.add("Checking", "2025-06-02", "-3.00", f"weird {nasty} shop")
    books.run("manage_rules", action="apply")
    assert books.row(plain)["category_id"] is None and books.row(hit)["category"] == "Coffee"
    assert books.ledger.scalar("SELECT COUNT(*) FROM rules") == 1


def test_amount_bounds_use_the_size_of_the_amount(books):
    books.run("manage_rules", action="add", pattern="amazon", category="Electronics", min_amount="100")
    books.run("manage_rules", action="add", pattern="amazon", category="Shopping")
    big = books.add("Checking", "2025-06-01", "-250.00", "AMAZON")
    small = books.add("Checking", "2025-06-02", "-20.00", "AMAZON")
    refund = books.add("Checking", "2025-06-03", "250.00", "AMAZON")
    books.run("manage_rules", action="apply")
    assert [books.row(i)["category"] for i in (big, small, refund)] == ["Electronics", "Shopping", "Electronics"]


def test_apply_dry_run_counts_without_writing_and_keeps_hand_set(books):
    books.run("manage_rules", action="add", pattern="^SQ \\*", match_type="regex", field="description", category="Dining")
    a = books.add("Checking", "2025-06-01", "-3.00", "SQ *TACO TRUCK")
    b = books.add("Checking", "2025-06-02", "-3.00", "SQ *BURRITO", category="Gifts", source="user")
    c = books.add("Checking", "2025-06-03", "-3.00", "SQ *NOODLES", category="Other", source="merchant")
    d = books.add("Checking", "2025-06-04", "-3.00", "A SQ *NOT AT START")
    before = books.snapshot()
    preview = books.run("manage_rules", action="apply", dry_run=True, include_categorized=True)
    assert books.snapshot() == before
    assert preview["categorized"] == 2 and preview["by_rule"] == [{"rule_id": 1, "rows": 2}]
    assert books.run("manage_rules", action="apply")["categorized"] == 1
    assert books.row(c)["category"] == "Other"
    books.run("manage_rules", action="apply", include_categorized=True)
    assert [books.row(i)["category"] for i in (a, b, c, d)] == ["Dining", "Gifts", "Dining", None]
    assert books.row(a)["category_source"] == "rule"


def test_engine_orders_user_rules_then_learned_by_strength(books):
    coffee, dining = books.ledger.category("Coffee")["id"], books.ledger.category("Dining")["id"]
    with books.ledger.write() as conn:
        conn.execute("INSERT INTO rules (pattern, match_type, field, category_id, source, strength)"
                     " VALUES ('cafe', 'contains', 'any', ?, 'learned', 1)", (coffee,))
        conn.execute("INSERT INTO rules (pattern, match_type, field, category_id, source, strength)"
                     " VALUES ('cafe', 'contains', 'any', ?, 'learned', 5)", (dining,))
    assert RuleSet.load(books.ledger).first_match("CAFE X", None, -100).category == "Dining"
    books.run("manage_rules", action="add", pattern="cafe", category="Gifts")
    assert RuleSet.load(books.ledger).first_match("CAFE X", None, -100).category == "Gifts"
    assert [r.source for r in RuleSet.load(books.ledger).rules] == ["user", "learned", "learned"]


def test_compile_pattern_contains_is_literal_and_case_insensitive():
    assert compile_pattern("a.b", "contains").search("xA.By")
    assert not compile_pattern("a.b", "contains").search("axb")
    with pytest.raises(RuleError):
        compile_pattern("   ", "contains")


def test_flags():
    found = REGISTRY["manage_rules"]
    assert found.changes_data and not found.read_only and not found.needs_approval
