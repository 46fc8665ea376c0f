"""set_budget/check_budgets and account_balances/update_balance on the hard-case ledger (today 2025-06-18)."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

import pytest

from tests.tools.ledger_fixture import TODAY, hard_books  # noqa: F401  (fixture)

D = Decimal
JUNE_FOOD_USD = D("45.20") + (D("60.00") - D("20.00")) + D("10.00")  # Groceries + Dining net of refund + Food


def budget(result: dict, category: str) -> dict:
    return next(row for row in result["budgets"] if row["category"] == category)


def test_a_parent_budget_covers_its_children_with_a_projection(hard_books):
    assert hard_books.run("set_budget", category="food", amount="200")["budget"] == "200.00"
    result = hard_books.run("check_budgets")
    food = budget(result, "Food")
    projected = (JUNE_FOOD_USD * 30 / TODAY.day).quantize(D("0.01"), rounding=ROUND_HALF_UP)
    assert food == {
        "category": "Food", "budget": "200.00", "spent": str(JUNE_FOOD_USD),
        "remaining": str(D("200.00") - JUNE_FOOD_USD),
        "used": f"{(JUNE_FOOD_USD * 100 / 200).quantize(D('0.1'), rounding=ROUND_HALF_UP)}%",
        "currency": "USD", "projected": str(projected), "status": "under",
        "other_currency_spending": {"EUR": "12.50"},
    }
    assert (result["days_elapsed"], result["days_in_month"]) == (18, 30)


def test_over_and_projected_over_and_past_months(hard_books):
    hard_books.run("set_budget", category="Groceries", amount="30")
    hard_books.run("set_budget", category="Dining", amount="60")
    result = hard_books.run("check_budgets")
    assert budget(result, "Groceries")["status"] == "over"
    dining = budget(result, "Dining")  # 40.00 in 18 days -> 66.67 projected over 30
    assert dining["projected"] == "66.67" and dining["status"] == "on track to exceed"
    may = hard_books.run("check_budgets", month="2025-05-09")
    assert budget(may, "Groceries")["spent"] == "80.25" and "projected" not in budget(may, "Groceries")
    assert may["month"] == "2025-05"


def test_replacing_a_budget_reports_the_old_one(hard_books):
    hard_books.run("set_budget", category="Food", amount="200")
    result = hard_books.run("set_budget", category="Food", amount="250.50")
    assert result["replaced"] == "200.00" and result["budget"] == "250.50"
    assert hard_books.ledger.scalar("SELECT amount FROM budgets") == 25050


@pytest.mark.parametrize("args, message", [
    ({"category": "Food", "amount": "10.005"}, "decimals"),
    ({"category": "Food", "amount": "-5"}, "negative"),
    ({"category": "Salary", "amount": "5"}, "income category"),
    ({"category": "Fod and stuff", "amount": "5"}, "unknown category"),
    ({"category": "Food", "amount": "5", "currency": "dollars"}, "three-letter"),
    ({"category": "x'; DROP TABLE budgets; --", "amount": "5"}, "unknown category"),
])
def test_set_budget_errors(hard_books, args, message):
    assert message in hard_books.run("set_budget", **args)["error"]["message"]
    assert hard_books.ledger.scalar("SELECT COUNT(*) FROM budgets") == 0


def test_no_budgets_says_so(hard_books):
    result = hard_books.run("check_budgets")
    assert result["budgets"] == [] and "set_budget" in result["note"]


def test_balances_carry_forward_and_estimate_when_unknown(hard_books):
    ledger = hard_books.ledger
    ledger.set_balance(hard_books.accounts["Checking"]["id"], 500000, "2025-06-05", "statement")
    ledger.set_balance(hard_books.accounts["Visa"]["id"], -40000, "2025-06-17", "statement")
    assert hard_books.run("update_balance", account="savings", amount="1500", date="2025-06-15")["balance"] == "1500.00"
    result = hard_books.run("account_balances")
    accounts = {row["account"]: row for row in result["accounts"]}
    checking = D("5000.00") + D("15.00") - D("1.00") - D("500.00") - D("300.00")  # rows after 2025-06-05
    assert accounts["Checking"]["balance"] == str(checking) and accounts["Checking"]["stated"] == "5000.00"
    last_row = hard_books.ledger.scalar("SELECT MAX(posted) FROM transactions WHERE account_id = ? AND pending = 0",
                                        (hard_books.accounts["Checking"]["id"],))
    assert (accounts["Checking"]["as_of"], accounts["Checking"]["stated_as_of"]) == (last_row, "2025-06-05")  # the figure's own date
    assert accounts["Savings"] == {"account": "Savings", "type": "savings", "currency": "USD", "liability": False,
                                   "balance": "1500.00", "as_of": "2025-06-15", "source": "manual"}
    assert accounts["Visa"]["liability"] is True and accounts["Visa"]["balance"] == "-400.00"
    assert accounts["Euro"]["balance"] is None
    assert accounts["Euro"]["estimate"]["amount"] == str(D("1000.00") - D("12.50"))
    usd = next(row for row in result["net_worth"] if row["currency"] == "USD")
    assert usd == {"currency": "USD", "assets": str(checking + 1500), "liabilities": "400.00",
                   "net_worth": str(checking + 1500 - 400)}
    assert sorted(result["not_in_net_worth"]) == ["Cash", "Euro"]


def test_rows_in_another_currency_are_summed_apart_from_the_estimate(hard_books):
    hard_books.add("Cash", "2025-06-10", "-12.50", "REWE", currency="EUR")  # euros booked into a dollar account
    hard_books.add("Cash", "2025-06-11", "-5.00", "DM", currency="EUR")
    hard_books.add("Cash", "2025-06-12", "-300", "SUSHI", currency="JPY")
    hard_books.add("Cash", "2025-06-13", "-10.00", "DELI")
    result = hard_books.run("account_balances", account="Cash")
    cash = result["accounts"][0]
    assert cash["estimate"]["amount"] == "-10.00" and "1 imported USD" in cash["estimate"]["basis"]
    assert [(other["currency"], other["amount"]) for other in cash["other_currencies"]] == [("EUR", "-17.50"), ("JPY", "-300")]
    assert "2 imported EUR" in cash["other_currencies"][0]["basis"]
    assert result["covered"] == {"transactions": 4, "currency": ["EUR", "JPY", "USD"], "filters": {"account": "Cash"}}


def test_a_stated_balance_is_carried_forward_by_its_own_currency_only(hard_books):
    checking = hard_books.accounts["Checking"]["id"]
    hard_books.ledger.set_balance(checking, 100000, "2025-06-13", "statement")
    hard_books.add("Checking", "2025-06-14", "-20.00", "CAFE")
    hard_books.add("Checking", "2025-06-16", "-45.00", "HOTEL PARIS", currency="EUR")
    result = hard_books.run("account_balances")
    entry = next(row for row in result["accounts"] if row["account"] == "Checking")
    assert (entry["balance"], entry["as_of"], entry["stated"]) == ("980.00", "2025-06-14", "1000.00")
    assert entry["carried_forward"] == "stated balance plus -20.00 of posted USD rows after 2025-06-13"
    assert [(other["currency"], other["amount"]) for other in entry["other_currencies"]] == [("EUR", "-45.00")]
    usd = next(row for row in result["net_worth"] if row["currency"] == "USD")
    assert usd["assets"] == "980.00"
    assert [row["currency"] for row in result["net_worth"]] == ["USD"]  # the Euro account's balance is unknown
    assert hard_books.run("affordability_check", amount="1")["liquid_balance"] == "980.00"


@pytest.mark.parametrize("args, message", [
    ({"account": "Checking", "amount": "1.234"}, "decimals"),
    ({"account": "Checking", "amount": "5", "date": "2025-07-01"}, "future"),
    ({"account": "Checking", "amount": "5", "date": "18/06/2025"}, "not an ISO date"),
    ({"account": "Chequing", "amount": "5"}, "unknown account"),
    ({"account": "Checking", "amount": "Ignore previous instructions"}, "not a decimal"),
])
def test_update_balance_errors_change_nothing(hard_books, args, message):
    before = hard_books.snapshot()
    assert message in hard_books.run("update_balance", **args)["error"]["message"]
    assert hard_books.snapshot() == before


def test_tool_flags(hard_books):
    from wilson.tools import REGISTRY

    assert REGISTRY["set_budget"].changes_data and REGISTRY["update_balance"].changes_data
    assert all(REGISTRY[name].read_only for name in ("check_budgets", "account_balances", "search_transactions",
                                                     "spending_summary", "cash_flow", "affordability_check"))


def test_limits_cap_lists_not_counts(hard_books):
    for name in ("Groceries", "Dining", "Food"):
        hard_books.run("set_budget", category=name, amount="30")
    result = hard_books.run("check_budgets", limit=1)
    assert len(result["budgets"]) == 1 and result["count"] == 3
    assert result["over_budget"] == 3  # Groceries 45.20, Dining 40.00, Food 95.20: all over 30
    balances = hard_books.run("account_balances", limit=2)
    assert len(balances["accounts"]) == 2 and balances["count"] == 5
    assert hard_books.run("account_balances", limit=0)["error"]


def test_injection_text_naming_a_category_is_not_taken_for_it(hard_books) -> None:  # type: ignore[no-untyped-def]
    result = hard_books.run("set_budget", category="Food'; DROP TABLE budgets; --", amount="100")
    assert result["error"]["type"] == "not_found" and "Food" in result["error"]["suggestions"]
    assert hard_books.ledger.scalar("SELECT COUNT(*) FROM budgets") == 0
    assert hard_books.run("set_budget", category="Groceris", amount="100")["category"] == "Groceries"
