"""Text from the ledger or the user is data: `[/]`, `[b]` and `[old]` show literally everywhere."""

from __future__ import annotations

import pytest
from odd_ledger import ODD_ACCOUNT, ODD_CATEGORY, ODD_DESCRIPTION, ODD_PAYEE, odd_ledger  # noqa: F401
from textual.widgets import DataTable
from tui_helpers import SIZE, ledger_rows, needs, settle

from wilson.tui.app import WilsonApp
from wilson.tui.screens.category import CategoryModal
from wilson.tui.screens.confirm import ConfirmModal
from wilson.tui.widgets.accounts import AccountList
from wilson.tui.widgets.ask import AskPanel, ToolLine
from wilson.tui.widgets.records import BalancesView
from wilson.tui.widgets.transactions import TransactionsTable

pytestmark = pytest.mark.usefixtures("odd_ledger")
WIDE = (200, 30)  # every column in view


def table_lines(table: DataTable) -> list[str]:
    """What the table draws, header included, as plain text."""
    return [table.render_line(y).text for y in range(table.size.height)]


def status(app: WilsonApp) -> str:
    return str(app.query_one("#tx-status").render())


def select(app: WilsonApp, payee: str) -> None:
    table = app.query_one(TransactionsTable)
    [tx_id] = [key for key, row in table.rows_by_id.items() if row.get("payee") == payee]
    table.move_cursor(row=table.get_row_index(str(tx_id)))


async def search(pilot, text: str) -> None:
    await pilot.press("slash")
    pilot.app.query_one("#search").value = text
    await pilot.press("enter")
    await settle(pilot)


async def test_table_and_sidebar_show_markup_like_names_literally() -> None:
    needs("search_transactions")
    async with WilsonApp().run_test(size=WIDE) as pilot:
        await settle(pilot)
        text = "\n".join(table_lines(pilot.app.query_one(TransactionsTable)))
        for name in (ODD_PAYEE, ODD_DESCRIPTION, ODD_ACCOUNT, ODD_CATEGORY):
            assert name in text
        sidebar = pilot.app.query_one(AccountList)
        assert any(ODD_ACCOUNT in sidebar.render_line(y).text for y in range(sidebar.size.height))
        await pilot.press("3")
        await settle(pilot)
        assert any(ODD_ACCOUNT in line for line in table_lines(pilot.app.query_one(BalancesView).query_one(DataTable)))


async def test_search_text_and_its_error_show_literally_and_clear_the_table() -> None:
    needs("search_transactions")
    async with WilsonApp().run_test(size=SIZE) as pilot:
        await settle(pilot)
        await search(pilot, "[b]bold")
        assert "“[b]bold”" in status(pilot.app)
        await search(pilot, "[/]")
        assert pilot.app.is_running
        assert "'[/]'" in status(pilot.app)
        assert pilot.app.query_one(TransactionsTable).row_count == 0  # not the previous search's rows
        assert any("[/]" in n.message for n in pilot.app._notifications)


async def test_modals_and_notifications_quote_names_literally() -> None:
    needs("search_transactions", "update_transaction", "list_categories")
    async with WilsonApp().run_test(size=SIZE) as pilot:
        await settle(pilot)
        select(pilot.app, ODD_PAYEE)
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(pilot.app.screen, ConfirmModal)
        assert any(ODD_PAYEE in str(line.render()) for line in pilot.app.screen.query(".dialog-detail Static"))
        await pilot.press("n", "c")
        await pilot.pause()
        assert isinstance(pilot.app.screen, CategoryModal)
        options = pilot.app.screen.query_one("#category-options")
        assert ODD_CATEGORY in {str(option.prompt) for option in options.options}
        pilot.app.screen.query_one("#category-input").value = "fun [x"
        await pilot.pause()
        assert [str(option.prompt) for option in options.options][:1] == [ODD_CATEGORY]
        pilot.app.screen.query_one("#category-input").value = "[/] nothing"
        await pilot.pause()
        await pilot.press("enter")
        await settle(pilot)
        assert pilot.app.is_running
        assert any("[/] nothing" in n.message for n in pilot.app._notifications)


async def test_a_payee_typed_with_markup_is_saved_and_shown_literally() -> None:
    needs("search_transactions", "update_transaction")
    async with WilsonApp().run_test(size=WIDE) as pilot:
        await settle(pilot)
        select(pilot.app, "Grocery Outlet")
        await pilot.press("e")
        await pilot.pause()
        pilot.app.screen.query_one("#payee").value = "Shop [red]x[/red] [/]"
        await pilot.press("enter")
        await settle(pilot)
        assert any("Shop [red]x[/red] [/]" in line for line in table_lines(pilot.app.query_one(TransactionsTable)))
    assert ledger_rows("SELECT id FROM transactions WHERE payee = ?", ("Shop [red]x[/red] [/]",))


async def test_ask_panel_log_shows_tool_arguments_and_errors_literally(llm_providers) -> None:
    needs("search_transactions")
    llm_providers.reply_tool_calls([("search_transactions", {"query": "[/]"}), ("search_transactions", {"account": ODD_ACCOUNT})],
                                   text="Looking for [bold]that[/bold]…")
    llm_providers.reply_text("Nothing matched `[/]`.")
    async with WilsonApp(model="gpt-4o-mini").run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("a")
        pilot.app.query_one("#ask-input").value = "find [/] in [b]my[/b] card"
        await pilot.press("enter")
        await settle(pilot)
        assert not pilot.app.query_one(AskPanel).running
        log = "\n".join(str(widget.render()) for widget in pilot.app.query("#ask-log Static"))
        assert "find [/] in [b]my[/b] card" in log
        assert "Looking for [bold]that[/bold]…" in log
        lines = [str(line.render()) for line in pilot.app.query(ToolLine)]
        assert any("'[/]'" in line and line.startswith("✗") for line in lines)
        assert any(line.startswith("✓") for line in lines)
