"""Which rows the table lists and how: pending and split rows, paging past 500, the category picker."""

from __future__ import annotations

from pathlib import Path

import pytest
from odd_ledger import ODD_CATEGORY, odd_ledger  # noqa: F401
from tui_helpers import SIZE, needs, settle

from wilson.importers.pipeline import import_file
from wilson.ledger import Ledger
from wilson.tui.app import WilsonApp
from wilson.tui.screens.category import CategoryModal
from wilson.tui.widgets.transactions import ROW_LIMIT, TransactionsTable


def table(app: WilsonApp) -> TransactionsTable:
    return app.query_one(TransactionsTable)


async def pick_category(pilot, row: int) -> None:
    """Put the cursor on a row and open the category picker on it."""
    table(pilot.app).move_cursor(row=table(pilot.app).get_row_index(str(row)))
    await pilot.press("c")
    await pilot.pause()


def row_id(app: WilsonApp, payee: str) -> int:
    [tx_id] = [key for key, row in table(app).rows_by_id.items() if row.get("payee") == payee]
    return tx_id


def status(app: WilsonApp) -> str:
    return str(app.query_one("#tx-status").render())


@pytest.mark.usefixtures("odd_ledger")
async def test_pending_rows_are_listed_flagged_and_left_out_of_the_totals() -> None:
    needs("search_transactions")
    async with WilsonApp().run_test(size=SIZE) as pilot:
        await settle(pilot)
        hold = row_id(pilot.app, "Hotel Pending Hold")
        assert "P" in str(table(pilot.app).get_cell(str(hold), "flags"))
        assert table(pilot.app).row_count == 9
        # 7 posted rows; the sum leaves out the -250.00 and -27.40 holds
        assert status(pilot.app).startswith("7 transactions · sum 2433.68 USD · 2 pending, not counted")


@pytest.mark.usefixtures("odd_ledger")
async def test_split_row_is_marked_and_a_category_change_says_what_it_did() -> None:
    needs("search_transactions", "update_transaction")
    async with WilsonApp().run_test(size=SIZE) as pilot:
        await settle(pilot)
        costco = row_id(pilot.app, "Costco Wholesale")
        assert "S" in str(table(pilot.app).get_cell(str(costco), "flags"))
        assert str(table(pilot.app).get_cell(str(costco), "category")) == "Groceries, Household"
        await pick_category(pilot, costco)
        pilot.app.screen.query_one("#category-input").value = "Dining"
        await pilot.press("enter")
        await settle(pilot)
        [note] = [n for n in pilot.app._notifications if "update transaction" in n.message]
        assert "is split (Groceries, Household)" in note.message and note.severity == "warning"
        assert str(table(pilot.app).get_cell(str(costco), "category")) == "Groceries, Household"


@pytest.mark.usefixtures("odd_ledger")
async def test_category_picker_starts_on_the_current_category() -> None:
    needs("search_transactions", "list_categories")
    async with WilsonApp().run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pick_category(pilot, row_id(pilot.app, "Grocery Outlet"))
        assert isinstance(pilot.app.screen, CategoryModal)
        options = pilot.app.screen.query_one("#category-options")
        assert options.get_option_at_index(options.highlighted).id == ODD_CATEGORY


@pytest.fixture
def long_ledger(wilson_home: Path, tmp_path: Path) -> Path:
    """More rows than one page, spread over days (the newest page ends mid-history)."""
    lines = ["Date,Description,Amount"]
    lines += [f"{1 + day // 28:02d}/{1 + day % 28:02d}/2024,SHOP {number} DAY {day},-{number}.25"
              for day in range(300) for number in (1, 2)]
    export = tmp_path / "long.csv"
    export.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with Ledger() as ledger:
        import_file(ledger, export, account="Checking")
    return wilson_home


@pytest.mark.usefixtures("long_ledger")
async def test_older_rows_load_when_the_cursor_reaches_the_end() -> None:
    needs("search_transactions")
    async with WilsonApp().run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert table(pilot.app).row_count == ROW_LIMIT
        assert "showing 500 of 600" in status(pilot.app)
        await pilot.press("end")
        await settle(pilot)
        await pilot.press("end")
        await settle(pilot)
        assert table(pilot.app).row_count == 600
        assert len(table(pilot.app).rows_by_id) == 600
        assert "showing" not in status(pilot.app)
