"""The transactions table: rows, search, filters and edits, all through the tools."""

from __future__ import annotations

import pytest
from tui_helpers import SIZE, ledger_rows, needs, settle

from wilson.tui.app import WilsonApp
from wilson.tui.screens.category import CategoryModal
from wilson.tui.screens.confirm import ConfirmModal
from wilson.tui.screens.edit import EditModal
from wilson.tui.widgets.transactions import TransactionsTable, TransactionsView

pytestmark = pytest.mark.usefixtures("seeded")


def table(app: WilsonApp) -> TransactionsTable:
    return app.query_one(TransactionsTable)


def payees(app: WilsonApp) -> list[str]:
    rows = table(app).rows_by_id.values()
    return [row.get("payee") or row.get("description") for row in rows]


def select(app: WilsonApp, tx_id: int) -> None:
    table(app).move_cursor(row=table(app).get_row_index(str(tx_id)))


def tx_id(description_prefix: str) -> int:
    return ledger_rows("SELECT id FROM transactions WHERE description LIKE ?", (description_prefix + "%",))[0]["id"]


async def test_mounts_and_shows_rows() -> None:
    needs("search_transactions")
    async with WilsonApp().run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert table(pilot.app).row_count == 11
        amounts = [str(table(pilot.app).get_cell(str(tx_id("COMCAST")), "amount"))]
        assert amounts == ["-89.99"]
        assert table(pilot.app).get_cell(str(tx_id("COMCAST")), "amount").style == "red"
        assert pilot.app.focused is table(pilot.app)


async def test_search_and_filters() -> None:
    needs("search_transactions")
    async with WilsonApp().run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"comcast", "enter")
        await settle(pilot)
        assert list(table(pilot.app).rows_by_id) == [tx_id("COMCAST")]
        assert pilot.app.focused is table(pilot.app)
        view = pilot.app.query_one(TransactionsView)
        view.search_text = ""
        await pilot.press("u")
        await settle(pilot)
        assert table(pilot.app).row_count == 10
        assert tx_id("STARBUCKS") not in table(pilot.app).rows_by_id
        await pilot.press("u")
        view.account = "Visa"
        await settle(pilot)
        assert {row["account"] for row in table(pilot.app).rows_by_id.values()} == {"Visa"}


async def test_set_category_with_the_keyboard() -> None:
    needs("search_transactions", "update_transaction")
    comcast = tx_id("COMCAST")
    async with WilsonApp().run_test(size=SIZE) as pilot:
        await settle(pilot)
        select(pilot.app, comcast)
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(pilot.app.screen, CategoryModal)
        pilot.app.screen.query_one("#category-input").value = "Internet"
        await pilot.press("enter")
        await settle(pilot)
        assert table(pilot.app).rows_by_id[comcast]["category"] == "Internet"
    [row] = ledger_rows("SELECT c.name FROM transactions t JOIN categories c ON c.id = t.category_id WHERE t.id = ?",
                        (comcast,))
    assert row["name"] == "Internet"


async def test_marked_rows_change_together_and_reviewed_toggles() -> None:
    needs("search_transactions", "update_transaction")
    first, second = tx_id("COMCAST"), tx_id("CHECK 1042")
    async with WilsonApp().run_test(size=SIZE) as pilot:
        await settle(pilot)
        select(pilot.app, first)
        await pilot.press("space")
        select(pilot.app, second)
        await pilot.press("space", "r")
        await settle(pilot)
        assert {r["id"] for r in ledger_rows("SELECT id FROM transactions WHERE reviewed = 1")} == {first, second}
        select(pilot.app, first)
        await pilot.press("r")
        await settle(pilot)
        assert {r["id"] for r in ledger_rows("SELECT id FROM transactions WHERE reviewed = 1")} == {second}


async def test_edit_payee_and_notes() -> None:
    needs("search_transactions", "update_transaction")
    comcast = tx_id("COMCAST")
    async with WilsonApp().run_test(size=SIZE) as pilot:
        await settle(pilot)
        select(pilot.app, comcast)
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(pilot.app.screen, EditModal)
        pilot.app.screen.query_one("#payee").value = "Comcast"
        pilot.app.screen.query_one("#notes").value = "internet, moving to fibre"
        await pilot.press("enter")
        await settle(pilot)
    [row] = ledger_rows("SELECT payee, notes FROM transactions WHERE id = ?", (comcast,))
    assert row == {"payee": "Comcast", "notes": "internet, moving to fibre"}


async def test_delete_asks_first_and_cancel_keeps_the_row() -> None:
    needs("search_transactions", "delete_transaction")
    comcast = tx_id("COMCAST")
    async with WilsonApp().run_test(size=SIZE) as pilot:
        await settle(pilot)
        select(pilot.app, comcast)
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(pilot.app.screen, ConfirmModal)
        await pilot.press("n")
        await settle(pilot)
        assert comcast in table(pilot.app).rows_by_id
        assert ledger_rows("SELECT id FROM transactions WHERE id = ?", (comcast,))
        await pilot.press("d", "y")
        await settle(pilot)
        assert comcast not in table(pilot.app).rows_by_id
    assert not ledger_rows("SELECT id FROM transactions WHERE id = ?", (comcast,))


async def test_tool_error_is_a_notification_not_a_crash() -> None:
    needs("search_transactions", "update_transaction")
    async with WilsonApp().run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("c")
        pilot.app.screen.query_one("#category-input").value = "Nonsense Category Xyz"
        await pilot.press("enter")
        await settle(pilot)
        assert any("update_transaction" in n.message for n in pilot.app._notifications)
        assert pilot.app.is_running


async def test_category_picker_offers_every_category() -> None:
    needs("search_transactions", "list_categories")
    async with WilsonApp().run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(pilot.app.screen, CategoryModal)
        offered = {str(option.prompt) for option in pilot.app.screen.query_one("#category-options").options}
    assert {"Pets", "Groceries", "Credit Card Payment"} <= offered
