"""Amounts stay in view and whole at usual sizes; narrow terminals keep the table usable."""

from __future__ import annotations

import pytest
from odd_ledger import BIG_AMOUNT, odd_ledger  # noqa: F401
from textual.widgets import Input
from tui_helpers import needs, settle

from wilson.tui.app import WilsonApp
from wilson.tui.widgets.accounts import AccountList
from wilson.tui.widgets.ask import AskPanel
from wilson.tui.widgets.transactions import MAX_WIDTH, TransactionsTable

pytestmark = pytest.mark.usefixtures("odd_ledger")


def drawn_rows(table: TransactionsTable) -> list[str]:
    return [table.render_line(y).text for y in range(1, min(table.size.height, table.row_count + 1))]


def column_widths(table: TransactionsTable) -> dict[str, int]:
    return {str(column.key.value): column.width for column in table.columns.values()}


@pytest.mark.parametrize("size", [(80, 24), (120, 30), (160, 40), (60, 20)])
async def test_every_amount_is_drawn_whole_on_the_first_paint(size: tuple[int, int]) -> None:
    needs("search_transactions")
    async with WilsonApp().run_test(size=size) as pilot:
        await settle(pilot)
        table = pilot.app.query_one(TransactionsTable)
        rows = drawn_rows(table)
        amounts = [str(row["amount"]) for row in table.rows_by_id.values()][: len(rows)]
        assert len(rows) >= 5 and BIG_AMOUNT in amounts
        for line, amount in zip(rows, amounts):
            assert f" {amount} " in f" {line} ", (line, amount)


async def test_payee_is_capped_and_widths_follow_the_rows_shown() -> None:
    needs("search_transactions")
    async with WilsonApp().run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        table = pilot.app.query_one(TransactionsTable)
        assert column_widths(table)["payee"] == MAX_WIDTH["payee"]  # a 300-character description
        assert any("…" in line for line in drawn_rows(table))
        await pilot.press("slash", *"acme", "enter")
        await settle(pilot)
        assert table.row_count == 1
        assert column_widths(table)["payee"] == len("Payee / description")  # shrunk to "Acme Corp Payroll"


async def test_narrow_terminal_hides_the_side_panels_until_asked_for() -> None:
    needs("search_transactions")
    async with WilsonApp().run_test(size=(60, 20)) as pilot:
        await settle(pilot)
        table, ask, sidebar = (pilot.app.query_one(kind) for kind in (TransactionsTable, AskPanel, AccountList))
        assert not ask.display and not sidebar.display
        assert table.size.width >= 55
        await pilot.press("a")
        await pilot.pause()
        assert ask.display and ask.size.width >= 55
        assert isinstance(pilot.app.focused, Input)
        await pilot.press("escape")
        await pilot.pause()
        assert pilot.app.focused is table and not ask.display
        await pilot.press("f")
        await pilot.pause()
        assert sidebar.display and pilot.app.focused is sidebar
        await pilot.press("escape")
        await pilot.pause()
        assert pilot.app.focused is table and not sidebar.display


async def test_an_answer_while_the_narrow_ask_panel_is_hidden_is_announced(llm_providers) -> None:
    llm_providers.reply_text("Here you are.", delay=0.5)
    async with WilsonApp(model="gpt-4o-mini").run_test(size=(60, 20)) as pilot:
        await settle(pilot)
        await pilot.press("a")
        pilot.app.query_one("#ask-input").value = "how much?"
        await pilot.press("enter")
        pilot.app.query_one(TransactionsTable).focus()  # Esc would stop the question
        await pilot.pause()
        assert not pilot.app.query_one(AskPanel).display
        await settle(pilot)
        assert any("press a to read it" in n.message for n in pilot.app._notifications)
