"""Budgets and balances views, help, and what start-up may (not) load."""

from __future__ import annotations

import subprocess
import sys

import pytest
from textual.widgets import ContentSwitcher, DataTable
from tui_helpers import SIZE, needs, settle

from wilson.tui.app import WilsonApp
from wilson.tui.screens.budget import BudgetModal
from wilson.tui.screens.help import HelpScreen
from wilson.tui.widgets.records import BalancesView, BudgetsView


def table_text(view) -> str:
    table = view.query_one(DataTable)
    return "\n".join(" ".join(str(cell) for cell in table.get_row_at(i)) for i in range(table.row_count))


@pytest.mark.usefixtures("seeded")
async def test_budgets_view_sets_and_shows_a_budget() -> None:
    needs("set_budget", "check_budgets")
    async with WilsonApp().run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2")
        assert pilot.app.query_one(ContentSwitcher).current == "budgets-view"
        await pilot.press("b")
        await pilot.pause()
        assert isinstance(pilot.app.screen, BudgetModal)
        pilot.app.screen.query_one("#budget-category").value = "Groceries"
        pilot.app.screen.query_one("#budget-amount").value = "400.00"
        await pilot.press("enter")
        await settle(pilot)
        text = table_text(pilot.app.query_one(BudgetsView))
        assert "Groceries" in text and "400.00" in text


@pytest.mark.usefixtures("seeded")
async def test_balances_view_lists_accounts() -> None:
    needs("account_balances")
    async with WilsonApp().run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("3")
        text = table_text(pilot.app.query_one(BalancesView))
        assert "Checking" in text and "Visa" in text


async def test_empty_ledger_and_help() -> None:
    async with WilsonApp().run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("c", "d", "3", "2")
        await settle(pilot)
        assert pilot.app.is_running
        assert any("No transaction selected" in n.message for n in pilot.app._notifications)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(pilot.app.screen, HelpScreen)
        rows = pilot.app.screen.query_one(DataTable)
        described = {str(rows.get_row_at(i)[2]) for i in range(rows.row_count)}
        assert {"Category", "Reviewed", "Delete", "Search", "Set budget", "Ask", "Quit"} <= described
        await pilot.press("escape")
        assert not isinstance(pilot.app.screen, HelpScreen)


def test_start_up_loads_neither_litellm_nor_the_agent() -> None:
    code = (
        "import sys, wilson.tui, wilson.tui.app\n"
        "heavy = {'litellm', 'tiktoken', 'wilson.agent.loop', 'wilson.llm', 'sqlite3'} & set(sys.modules)\n"
        "print(sorted(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


async def test_skill_warnings_are_a_notification(wilson_home) -> None:
    broken = wilson_home / "skills" / "broken"
    broken.mkdir(parents=True)
    (broken / "SKILL.md").write_text("no frontmatter here\n", encoding="utf-8")
    async with WilsonApp().run_test(size=SIZE) as pilot:
        await settle(pilot)
        [note] = [n for n in pilot.app._notifications if "skill warning" in n.title]
        assert note.severity == "warning" and "SKILL.md" in note.message
