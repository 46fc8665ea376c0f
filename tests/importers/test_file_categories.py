"""Categories a file brings: their kind (income or expense), their place in the user's hierarchy,
and undo taking back the ones an import created."""

from __future__ import annotations

from pathlib import Path

import pytest

from wilson.importers.model import ImportRefused
from wilson.importers.pipeline import import_file
from wilson.ledger import Ledger
from wilson.ledger.undo import undo_batch

DEFAULT_CATEGORIES = 57


def qif(tmp_path: Path, name: str, *records: tuple[str, str, str], categories: str = "") -> Path:
    """A bank QIF of (date, amount, category) records, after an optional `!Type:Cat` list."""
    body = "".join(f"D{day}\nT{amount}\nPPayee {i}\nL{category}\n^\n" for i, (day, amount, category) in enumerate(records))
    path = tmp_path / name
    path.write_text(categories + "!Type:Bank\n" + body, encoding="utf-8")
    return path


def category(ledger: Ledger, name: str) -> tuple[str, str | None] | None:
    """(kind, parent name) of the category of that name."""
    row = ledger.query_one(
        "SELECT c.kind, p.name AS parent FROM categories c LEFT JOIN categories p ON p.id = c.parent_id WHERE c.name = ?", (name,)
    )
    return (row["kind"], row["parent"]) if row else None


def booked(ledger: Ledger) -> list[tuple[int, str | None]]:
    return [(r["amount"], r["name"]) for r in ledger.query(
        "SELECT t.amount, c.name FROM transactions t LEFT JOIN categories c ON c.id = t.category_id ORDER BY t.id")]


def added_categories(ledger: Ledger) -> list[str]:
    return [r["name"] for r in ledger.query("SELECT name FROM categories WHERE id > ? ORDER BY id", (DEFAULT_CATEGORIES,))]


def test_quickens_income_categories_are_income(tmp_path: Path) -> None:
    path = qif(tmp_path, "income.qif", ("3/1/2025", "100.00", "Interest Inc"), ("3/2/2025", "100.00", "Wages & Salary:Gross Pay"),
               ("3/3/2025", "100.00", "Gift Received"), ("3/4/2025", "-20.00", "Gift Received"), ("3/5/2025", "-5.00", "Dues"))
    with Ledger() as ledger:
        import_file(ledger, path)
        assert category(ledger, "Interest Inc") == ("income", None)
        assert category(ledger, "Wages & Salary") == ("income", None)
        assert category(ledger, "Gross Pay") == ("income", "Wages & Salary")
        # Money both ways (a gift returned) or only out: spending, as before.
        assert category(ledger, "Gift Received") == ("expense", None)
        assert category(ledger, "Dues") == ("expense", None)


def test_the_files_category_list_decides_the_kind(tmp_path: Path) -> None:
    categories = "!Type:Cat\nNSide Gig\nI\n^\nNSide Gig:Costs\nE\n^\nNReimbursed\nE\n^\nNOther Inc\nDno flag\n^\n"
    path = qif(tmp_path, "listed.qif", ("3/1/2025", "-10.00", "Side Gig"), ("3/2/2025", "-4.00", "Side Gig:Costs"),
               ("3/3/2025", "30.00", "Reimbursed"), ("3/4/2025", "8.00", "Other Inc"), ("3/5/2025", "9.00", "Jardin"),
               categories=categories)
    with Ledger() as ledger:
        import_file(ledger, path)
        assert category(ledger, "Side Gig") == ("income", None)  # flagged `I`, although money went out
        assert category(ledger, "Costs") == ("expense", "Side Gig")
        assert category(ledger, "Reimbursed") == ("expense", None)  # flagged `E`, although money came in
        assert category(ledger, "Other Inc") == ("income", None)  # no flag: its name, and only money in
        assert category(ledger, "Jardin") == ("expense", None)  # a refund: money in, but no income by name


def test_a_category_the_ledger_had_keeps_its_kind_and_an_income_path_its_own(tmp_path: Path) -> None:
    path = qif(tmp_path, "gifts.qif", ("3/1/2025", "50.00", "Gifts"), ("3/2/2025", "60.00", "Income:Gifts"),
               ("3/3/2025", "-5.00", "Income:Bonus"), ("3/4/2025", "7.00", "Food:Refund"))
    with Ledger() as ledger:
        import_file(ledger, path)
        assert category(ledger, "Gifts") == ("expense", "Gifts & Donations")  # the ledger's, unchanged
        assert category(ledger, "Income Gifts") == ("income", "Income")
        assert category(ledger, "Bonus") == ("income", "Income")  # under income, whatever its sign
        assert category(ledger, "Refund") == ("expense", "Food")  # a refund under Food is Food's, though money came in
        assert booked(ledger) == [(5000, "Gifts"), (6000, "Income Gifts"), (-500, "Bonus"), (700, "Refund")]


def test_the_users_hierarchy_is_kept_and_found_again(tmp_path: Path) -> None:
    march = qif(tmp_path, "march.qif", ("3/1/2025", "-100.00", "Auto:Insurance"), ("3/2/2025", "-200.00", "Home:Insurance"),
                ("3/3/2025", "-40.00", "Home:Utilities:Water"), ("3/4/2025", "-60.00", "Utilities:Water"),
                ("3/5/2025", "-70.00", "Insurance"), ("3/6/2025", "-80.00", "Food:Groceries"))
    april = qif(tmp_path, "april.qif", ("4/1/2025", "-100.00", "Auto:Insurance"), ("4/3/2025", "-40.00", "home:utilities:water"))
    with Ledger() as ledger:
        import_file(ledger, march)
        assert booked(ledger) == [
            (-10000, "Auto Insurance"), (-20000, "Home Insurance"), (-4000, "Home Utilities Water"),
            (-6000, "Water"), (-7000, "Insurance"), (-8000, "Groceries"),  # the ledger's own, where the path says so
        ]
        assert category(ledger, "Auto Insurance") == ("expense", "Auto")
        assert category(ledger, "Home Utilities Water") == ("expense", "Home Utilities")
        assert category(ledger, "Home Utilities") == ("expense", "Home")
        assert category(ledger, "Water") == ("expense", "Utilities")
        created = added_categories(ledger)
        import_file(ledger, april)
        assert added_categories(ledger) == created  # next month's file lands in the same categories
        assert booked(ledger)[-2:] == [(-10000, "Auto Insurance"), (-4000, "Home Utilities Water")]


def test_a_banks_category_path_lands_only_in_ours(tmp_path: Path) -> None:
    path = tmp_path / "bank.csv"
    path.write_text("Date,Description,Amount,Category\n2025-03-01,GEICO,-10.00,Bills:Insurance\n"
                    "2025-03-02,SHOP,-5.00,Gadgets:Widgets\n", encoding="utf-8")
    with Ledger() as ledger:
        import_file(ledger, path)
        assert booked(ledger)[0] == (-1000, "Insurance")
        assert added_categories(ledger) == []


def test_a_dry_run_or_a_refused_file_leaves_no_category(tmp_path: Path) -> None:
    good = qif(tmp_path, "good.qif", ("3/1/2025", "-1.00", "Hobby:Paint"))
    bad = qif(tmp_path, "bad.qif", ("3/1/2025", "-1.00", "Hobby:Paint"), ("13/45/2025", "-1.00", "Hobby:Brushes"))
    with Ledger() as ledger:
        import_file(ledger, good, dry_run=True)
        with pytest.raises(ImportRefused):
            import_file(ledger, bad)
        assert added_categories(ledger) == []


def test_undo_removes_the_categories_its_batch_created_once_unused(tmp_path: Path) -> None:
    march = qif(tmp_path, "march.qif", ("3/1/2025", "-1.00", "Hobby:Paint"), ("3/2/2025", "50.00", "Gift Received"),
                ("3/3/2025", "-2.00", "Pets:Vet"), ("3/4/2025", "-3.00", "Garden"))
    april = qif(tmp_path, "april.qif", ("4/1/2025", "-4.00", "Hobby:Paint"), ("4/2/2025", "-5.00", "Hobby:Brushes"))
    with Ledger() as ledger:
        first = import_file(ledger, march).batch_id
        second = import_file(ledger, april).batch_id
        garden = ledger.category("Garden")["id"]
        ledger.conn.execute("INSERT INTO rules (pattern, category_id) VALUES ('SEEDS', ?)", (garden,))
        assert added_categories(ledger) == ["Hobby", "Paint", "Gift Received", "Vet", "Garden", "Brushes"]
        undo_batch(ledger, first)
        # Paint (and its parent) are April's too; Garden has a rule; Pets was the ledger's.
        assert added_categories(ledger) == ["Hobby", "Paint", "Garden", "Brushes"]
        assert category(ledger, "Pets") == ("expense", None)
        undo_batch(ledger, second)
        assert added_categories(ledger) == ["Garden"]  # March's Paint, which April used, goes with April


def test_undo_in_reverse_order_removes_them_all_but_a_renamed_one(tmp_path: Path) -> None:
    march = qif(tmp_path, "march.qif", ("3/1/2025", "-1.00", "Hobby:Paint"), ("3/2/2025", "-2.00", "Garden"))
    april = qif(tmp_path, "april.qif", ("4/1/2025", "-4.00", "Hobby:Paint"), ("4/2/2025", "-5.00", "Hobby:Brushes"))
    with Ledger() as ledger:
        first = import_file(ledger, march).batch_id
        second = import_file(ledger, april).batch_id
        ledger.conn.execute("UPDATE categories SET name = 'My Garden' WHERE name = 'Garden'")
        undo_batch(ledger, second)
        assert added_categories(ledger) == ["Hobby", "Paint", "My Garden"]
        undo_batch(ledger, first)
        assert added_categories(ledger) == ["My Garden"]  # the user's since they renamed it


def test_split_categories_get_their_kind_and_go_with_their_batch(tmp_path: Path) -> None:
    path = tmp_path / "pay.qif"
    path.write_text("!Type:Bank\nD3/1/2025\nT900.00\nPEmployer\nSPay:Gross\n$1000.00\nSTax:Withheld\n$-100.00\n^\n", encoding="utf-8")
    with Ledger() as ledger:
        batch = import_file(ledger, path).batch_id
        assert (category(ledger, "Gross"), category(ledger, "Withheld")) == (("income", "Pay"), ("expense", "Tax"))
        undo_batch(ledger, batch)
        assert added_categories(ledger) == []
