"""The ask panel around a run: approvals in the user's terms, Esc during a write, long answers."""

from __future__ import annotations

import sqlite3

import pytest
from textual.widgets import Button
from tui_helpers import SIZE, ledger_rows, needs, settle

from wilson.paths import data_dir
from wilson.tui.app import WilsonApp
from wilson.tui.screens.confirm import ConfirmModal
from wilson.tui.widgets.ask import AskPanel, LongAnswer, ToolLine
from wilson.tui.widgets.transactions import TransactionsTable

pytestmark = pytest.mark.usefixtures("seeded")
MODEL = "gpt-4o-mini"


async def ask(pilot, question: str) -> None:
    await pilot.press("a")
    pilot.app.query_one("#ask-input").value = question
    await pilot.press("enter")


async def wait_for(pilot, condition, tries: int = 400) -> None:
    for _ in range(tries):
        if condition():
            return
        await pilot.pause(0.05)
    raise AssertionError("condition never became true")


async def test_delete_approval_names_the_rows_and_keeps_its_buttons_on_a_small_screen(llm_providers) -> None:
    needs("search_transactions", "delete_transaction")
    ids = [row["id"] for row in ledger_rows("SELECT id FROM transactions ORDER BY posted DESC, id DESC")]
    llm_providers.reply_tool_calls([("delete_transaction", {"ids": [*ids, 9999]})])
    llm_providers.reply_text("Left them alone.")
    async with WilsonApp(model=MODEL).run_test(size=(60, 20)) as pilot:
        await settle(pilot)
        await ask(pilot, "delete everything")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ConfirmModal))
        await pilot.pause()
        modal = pilot.app.screen
        assert "delete_transaction on 12 transactions" in modal.title_text
        newest = ledger_rows("SELECT posted, payee, description, amount FROM transactions ORDER BY posted DESC, id DESC")[0]
        first = str(modal.query(".dialog-detail Static").first().render())
        assert first.startswith(newest["posted"]) and f"{newest['amount'] / 100:.2f}" in first
        assert modal.detail[-2:] == ["… and 6 more", "… and 1 transaction Wilson has not listed yet"]
        assert not any("9999" in line or "{" in line for line in modal.detail)
        screen = pilot.app.screen.region
        for button in modal.query(Button):
            assert button.region.height and screen.contains_region(button.region), button.id
        await pilot.press("n")
        await settle(pilot)
    assert len(ledger_rows("SELECT id FROM transactions")) == len(ids)


async def test_escape_during_a_write_reports_it_finished_and_refreshes(llm_providers) -> None:
    needs("search_transactions", "update_transaction")
    [comcast] = ledger_rows("SELECT id FROM transactions WHERE description LIKE 'COMCAST%'")
    llm_providers.reply_tool_calls([("update_transaction", {"ids": [comcast["id"]], "category": "Internet"})])
    llm_providers.reply_text("Filed.")
    llm_providers.reply_text("Second answer.")
    blocker = sqlite3.connect(data_dir() / "wilson.db", isolation_level=None)
    async with WilsonApp(model=MODEL).run_test(size=SIZE) as pilot:
        await settle(pilot)
        panel = pilot.app.query_one(AskPanel)
        blocker.execute("BEGIN EXCLUSIVE")  # the write waits on this lock until the test lets go
        try:
            await ask(pilot, "file comcast under internet")
            await wait_for(pilot, lambda: any(line.tool == "update_transaction" for line in pilot.app.query(ToolLine)))
            await pilot.pause(0.3)
            await pilot.press("escape")
            await pilot.pause()
            [line] = pilot.app.query(ToolLine)
            assert panel.stopping and "finishing" in str(line.render())
            await ask(pilot, "a second question")
            await pilot.pause()
            assert any("Stopping" in n.message for n in pilot.app._notifications)
        finally:
            blocker.execute("COMMIT")
            blocker.close()
        await wait_for(pilot, lambda: not panel.running)
        await settle(pilot)
        assert "ran to the end" in str(line.render())
        table = pilot.app.query_one(TransactionsTable)
        assert table.rows_by_id[comcast["id"]]["category"] == "Internet"
        await ask(pilot, "a second question")
        await settle(pilot)
        assert not panel.running
        assert "a second question" in str(llm_providers.requests[-1].messages)


async def test_a_long_answer_is_drawn_in_one_light_widget(llm_providers) -> None:
    answer = "# Report\n\n" + "\n".join(f"- line {i}: **Starbucks** spent 5.75 [/]" for i in range(400))
    llm_providers.reply_text(answer)
    async with WilsonApp(model=MODEL).run_test(size=SIZE) as pilot:
        await settle(pilot)
        await ask(pilot, "list everything")
        await settle(pilot)
        [drawn] = pilot.app.query(LongAnswer)
        assert drawn.size.height >= 400
        text = " ".join(drawn.render_line(y).text.strip() for y in range(drawn.size.height))
        assert "line 399: Starbucks spent 5.75 [/]" in " ".join(text.split())


async def test_figures_no_tool_result_backs_are_pointed_out_under_the_answer(llm_providers) -> None:
    llm_providers.reply_text("You spent $12,345.67 on dining in March.")
    async with WilsonApp(model=MODEL).run_test(size=SIZE) as pilot:
        await settle(pilot)
        await ask(pilot, "dining?")
        await settle(pilot)
        warnings = [str(w.render()) for w in pilot.app.query("#ask-log .warning")]
        assert any("figures not found in any tool result, check them: $12,345.67" in w for w in warnings)
