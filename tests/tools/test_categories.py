"""list_categories: every category with its parent, kind and posted-transaction count."""

from __future__ import annotations

from tests.tools.ledger_fixture import hard_books  # noqa: F401 (a fixture)
from wilson.tools import REGISTRY


def test_lists_the_taxonomy_with_counts(hard_books) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    result = hard_books.run("list_categories")
    by_name = {row["name"]: row for row in result["categories"]}
    assert result["count"] == len(by_name) == hard_books.ledger.scalar("SELECT COUNT(*) FROM categories")
    assert by_name["Groceries"]["parent"] == "Food" and by_name["Food"]["parent"] is None
    assert by_name["Salary"]["kind"] == "income" and by_name["Credit Card Payment"]["kind"] == "transfer"
    expected = hard_books.ledger.query(
        "SELECT c.name, COUNT(*) AS n FROM transactions t JOIN categories c ON c.id = t.category_id"
        " WHERE t.pending = 0 GROUP BY c.name"
    )
    assert expected and all(by_name[row["name"]]["transactions"] == row["n"] for row in expected)
    assert REGISTRY["list_categories"].read_only
