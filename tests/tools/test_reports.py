"""spending_summary and cash_flow against sums worked out by hand from the hard-case ledger."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.tools.books import flows_from_scratch, stored_flows
from tests.tools.ledger_fixture import hard_books  # noqa: F401  (fixture)

D = Decimal
# June 2025, posted, USD spending by leaf category (refund nets Dining; pending Household left out).
JUNE_USD = {"Groceries": D("45.20"), "Dining": D("60.00") - D("20.00"), "Food": D("10.00"),
            "Uncategorized": D("33.33"), "Other": D("1.00")}
JUNE_USD_INCOME = D("3000.00") + D("15.00")  # salary + an uncategorised inflow
MAY_USD = {"Rent": D("1200.00"), "Groceries": D("80.25"), "Coffee": D("19.75")}


def block(result: dict, currency: str) -> dict:
    return next(b for b in result["by_currency"] if b["currency"] == currency)


def groups(result: dict, currency: str) -> dict[str, str]:
    return {g["name"]: g["spent"] for g in block(result, currency)["groups"]}


def test_a_month_by_category_rolls_children_into_parents(hard_books):
    result = hard_books.run("spending_summary", start_date="2025-06-01", end_date="2025-06-30")
    usd = block(result, "USD")
    food = JUNE_USD["Groceries"] + JUNE_USD["Dining"] + JUNE_USD["Food"]
    assert groups(result, "USD") == {"Food": str(food), "Uncategorized": "33.33", "Other": "1.00"}
    assert usd["spending"] == str(sum(JUNE_USD.values()))
    assert usd["income"] == str(JUNE_USD_INCOME)
    assert usd["transfers_net"] == "0.00" and usd["transfer_transactions"] == 4
    assert groups(result, "EUR") == {"Food": "12.50"}
    assert block(result, "EUR")["income"] == "1000.00"
    assert result["covered"]["transactions"] == 8 + 4 + 2  # posted June rows: USD, transfer legs, EUR


def test_detail_and_a_category_filter_group_by_subcategory(hard_books):
    detail = hard_books.run("spending_summary", start_date="2025-06-01", end_date="2025-06-30", rollup=False)
    assert groups(detail, "USD") == {k: str(v) for k, v in JUNE_USD.items()}
    assert next(g for g in block(detail, "USD")["groups"] if g["name"] == "Dining")["parent"] == "Food"
    food = hard_books.run("spending_summary", start_date="2025-06-01", end_date="2025-06-30", category="Food")
    assert groups(food, "USD") == {"Groceries": "45.20", "Dining": "40.00", "Food": "10.00"}
    assert block(food, "USD")["income"] == "0.00"


def test_split_months_read_partial_edges_row_by_row(hard_books):
    result = hard_books.run("spending_summary", start_date="2025-05-15", end_date="2025-06-14", rollup=False)
    expected = {"Coffee": D("19.75"), **JUNE_USD}
    assert groups(result, "USD") == {k: str(v) for k, v in expected.items()}
    assert block(result, "USD")["spending"] == str(sum(expected.values()))


def test_compare_previous_month(hard_books):
    result = hard_books.run("spending_summary", start_date="2025-06-01", end_date="2025-06-30", compare_previous=True)
    usd = block(result, "USD")
    assert result["previous_period"] == {"start_date": "2025-05-01", "end_date": "2025-05-31"}
    june, may = sum(JUNE_USD.values()), sum(MAY_USD.values())
    assert usd["previous"]["spending"] == str(may)
    assert usd["previous"]["spending_change"] == str(june - may)
    expected_pct = ((june - may) * 100 / may).quantize(D("0.1"))
    assert usd["previous"]["spending_change_pct"] == f"{expected_pct}%"
    food = next(g for g in usd["groups"] if g["name"] == "Food")
    assert food["previous_spent"] == str(MAY_USD["Groceries"] + MAY_USD["Coffee"])


@pytest.mark.parametrize("group_by, expected", [
    ("month", {"2025-05": str(sum(MAY_USD.values())), "2025-06": str(sum(JUNE_USD.values()))}),
    ("account", {"Checking": str(D("1200.00") + D("33.33") + D("1.00")),
                 "Visa": str(D("80.25") + D("19.75") + D("45.20") + D("40.00") + D("10.00"))}),
    ("payee", {"OAKWOOD RENT": "1200.00", "WHOLE FOODS MARKET": "125.45", "BLUE BOTTLE COFFEE": "19.75",
               "CHEZ PANISSE": "60.00", "REFUND CHEZ PANISSE": "-20.00", "FOOD TRUCK": "10.00",
               "MYSTERY SHOP": "33.33", "'; DROP TABLE transactions; --": "1.00"}),
])
def test_other_groupings(hard_books, group_by, expected):
    result = hard_books.run("spending_summary", start_date="2025-05-01", end_date="2025-06-30", group_by=group_by)
    assert groups(result, "USD") == expected
    if group_by == "month":
        assert [g["name"] for g in block(result, "USD")["groups"]] == ["2025-05", "2025-06"]


def test_limit_caps_groups_but_not_totals(hard_books):
    result = hard_books.run("spending_summary", start_date="2025-05-01", end_date="2025-06-30", group_by="payee", limit=2)
    usd = block(result, "USD")
    assert [g["name"] for g in usd["groups"]] == ["OAKWOOD RENT", "WHOLE FOODS MARKET"]
    assert usd["groups_count"] == 8 and usd["not_listed"]["groups"] == 6
    assert usd["spending"] == str(sum(MAY_USD.values()) + sum(JUNE_USD.values()))


def test_default_period_is_this_month_to_today(hard_books):
    result = hard_books.run("spending_summary")
    assert (result["covered"]["start_date"], result["covered"]["end_date"]) == ("2025-06-01", "2025-06-18")


def test_cash_flow_savings_rate(hard_books):
    result = hard_books.run("cash_flow", start_date="2025-05-01", end_date="2025-06-30")
    usd = block(result, "USD")
    may_income, june_income = D("3000.00"), JUNE_USD_INCOME
    may, june = sum(MAY_USD.values()), sum(JUNE_USD.values())
    assert [m["month"] for m in usd["months"]] == ["2025-05", "2025-06"]
    assert usd["months"][0] == {"month": "2025-05", "income": "3000.00", "spending": str(may),
                                "net": str(may_income - may),
                                "savings_rate": f"{((may_income - may) * 100 / may_income).quantize(D('0.1'))}%"}
    total_income, total_spending = may_income + june_income, may + june
    assert usd["net"] == str(total_income - total_spending)
    assert usd["savings_rate"] == f"{((total_income - total_spending) * 100 / total_income).quantize(D('0.1'))}%"
    assert block(result, "EUR")["spending"] == "12.50"


def test_cash_flow_defaults_to_twelve_months_and_lists_empty_months(hard_books):
    result = hard_books.run("cash_flow")
    assert result["covered"]["start_date"] == "2024-07-01"
    usd = block(result, "USD")
    assert usd["months_count"] == 12 and usd["months"][0]["income"] == "0.00"
    assert usd["months"][0]["savings_rate"] is None


@pytest.mark.parametrize("tool, args, message", [
    ("spending_summary", {"start_date": "2025-06-31"}, "not an ISO date"),
    ("spending_summary", {"start_date": "2025-06-10", "end_date": "2025-06-01"}, "before start_date"),
    ("spending_summary", {"group_by": "weekday"}, "is not one of"),
    ("spending_summary", {"limit": -3}, "limit"),
    ("spending_summary", {"account": "Chequing"}, "unknown account"),
    ("spending_summary", {"category": "Restaurants"}, "unknown category"),
    ("cash_flow", {"end_date": "yesterday"}, "not an ISO date"),
    ("cash_flow", {"account": "'; DROP TABLE transactions; --"}, "unknown account"),
])
def test_report_errors(hard_books, tool, args, message):
    before = hard_books.snapshot()
    assert message in hard_books.run(tool, **args)["error"]["message"]
    assert hard_books.snapshot() == before


def test_the_aggregate_follows_every_kind_of_edit(hard_books):
    """Recategorise, unlink, post a pending row, move a date, delete: reports still match the rows."""
    ledger = hard_books.ledger
    ids = [row["id"] for row in ledger.query("SELECT id FROM transactions ORDER BY id")]
    ledger.update_transactions([ids[6]], category_id=ledger.category("Dining")["id"])
    ledger.conn.execute("UPDATE transactions SET pending = 0 WHERE pending = 1")
    ledger.conn.execute("UPDATE transactions SET posted = '2025-05-20' WHERE description = 'FOOD TRUCK'")
    ledger.delete_transactions([ids[13]])  # one transfer leg: the other is unlinked first
    assert stored_flows(ledger) == flows_from_scratch(ledger)
