"""The ask panel against the real agent loop and the scripted model server."""

from __future__ import annotations

import pytest
from textual.widgets import Markdown
from tui_helpers import SIZE, ledger_rows, needs, settle

from wilson import skills
from wilson.agent.sessions import list_sessions, load_session
from wilson.ledger import Ledger
from wilson.tui.app import WilsonApp
from wilson.tui.screens.confirm import ConfirmModal
from wilson.tui.widgets.ask import AskPanel, ToolLine

pytestmark = pytest.mark.usefixtures("seeded")
MODEL = "gpt-4o-mini"


def comcast_id() -> int:
    return ledger_rows("SELECT id FROM transactions WHERE description LIKE 'COMCAST%'")[0]["id"]


async def ask(pilot, question: str) -> None:
    await pilot.press("a")
    pilot.app.query_one("#ask-input").value = question
    await pilot.press("enter")


def log_text(app: WilsonApp) -> str:
    return "\n".join(str(line.render()) for line in app.query("#ask-log Static"))


async def test_question_shows_tool_line_answer_and_refreshes(llm_providers) -> None:
    needs("update_transaction")
    comcast = comcast_id()
    llm_providers.reply_tool_calls([("update_transaction", {"ids": [comcast], "category": "Internet"})])
    llm_providers.reply_text("I filed **Comcast** under Internet.", usage=(120, 30))
    async with WilsonApp(model=MODEL).run_test(size=SIZE) as pilot:
        await settle(pilot)
        await ask(pilot, "file comcast under internet")
        await settle(pilot)
        [line] = pilot.app.query(ToolLine)
        assert line.has_class("done") and "✓ update_transaction" in str(line.render())
        [answer] = pilot.app.query("#ask-log Markdown").results(Markdown)
        assert "Comcast" in answer.source
        text = log_text(pilot.app)
        assert "2 iterations · 1 tool call · 130 in / 35 out tokens" in text
        assert not pilot.app.query_one(AskPanel).running
    [row] = ledger_rows("SELECT c.name FROM transactions t JOIN categories c ON c.id = t.category_id WHERE t.id = ?",
                        (comcast,))
    assert row["name"] == "Internet"


async def test_history_carries_over_between_questions(llm_providers) -> None:
    llm_providers.reply_text("First answer.")
    llm_providers.reply_text("Second answer.")
    async with WilsonApp(model=MODEL).run_test(size=SIZE) as pilot:
        await settle(pilot)
        await ask(pilot, "first question")
        await settle(pilot)
        await ask(pilot, "second question")
        await settle(pilot)
    contents = [str(m.get("content")) for m in llm_providers.requests[-1].messages]
    assert any("first question" in c for c in contents) and any("First answer." in c for c in contents)
    with Ledger() as ledger:
        [saved] = list_sessions(ledger)
        assert load_session(ledger, saved["id"]).history()[-1]["content"] == "Second answer."


async def test_delete_needs_approval_and_no_refuses(llm_providers) -> None:
    needs("delete_transaction")
    comcast = comcast_id()
    llm_providers.reply_tool_calls([("delete_transaction", {"ids": [comcast]})])
    llm_providers.reply_text("Fine, I left it alone.")
    async with WilsonApp(model=MODEL).run_test(size=SIZE) as pilot:
        await settle(pilot)
        await ask(pilot, "delete the comcast charge")
        for _ in range(200):
            if isinstance(pilot.app.screen, ConfirmModal):
                break
            await pilot.pause(0.05)
        assert isinstance(pilot.app.screen, ConfirmModal)
        assert "delete_transaction" in pilot.app.screen.title_text
        await pilot.press("n")
        await settle(pilot)
        [line] = pilot.app.query(ToolLine)
        assert line.has_class("failed")
        assert "declined" in llm_providers.requests[-1].last_tool_result()
    assert ledger_rows("SELECT id FROM transactions WHERE id = ?", (comcast,))


async def test_escape_cancels_a_running_question(llm_providers) -> None:
    llm_providers.reply_text("too late", delay=5)
    async with WilsonApp(model=MODEL).run_test(size=SIZE) as pilot:
        await settle(pilot)
        await ask(pilot, "a slow question")
        panel = pilot.app.query_one(AskPanel)
        for _ in range(200):
            if llm_providers.requests:
                break
            await pilot.pause(0.05)
        assert panel.running
        await pilot.press("escape")
        await pilot.pause()
        assert not panel.running
        assert "stopped" in log_text(pilot.app)


async def test_skill_command_runs_with_the_skill(llm_providers) -> None:
    llm_providers.reply_text("Here is your review.")
    async with WilsonApp(model=MODEL).run_test(size=SIZE) as pilot:
        await settle(pilot)
        await ask(pilot, "/skill monthly-review how was january")
        await settle(pilot)
        assert "[monthly-review] how was january" in log_text(pilot.app)
    playbook = skills.render(skills.discover().skills["monthly-review"]).strip().splitlines()[0]
    sent = " ".join(str(m.get("content")) for m in llm_providers.requests[0].messages)
    assert "how was january" in sent and playbook in sent


async def test_skill_command_without_a_name_is_a_warning(llm_providers) -> None:
    async with WilsonApp(model=MODEL).run_test(size=SIZE) as pilot:
        await settle(pilot)
        await ask(pilot, "/skill")
        await pilot.pause()
        assert not pilot.app.query_one(AskPanel).running
        assert any("usage" in n.message for n in pilot.app._notifications)
        assert not llm_providers.requests
