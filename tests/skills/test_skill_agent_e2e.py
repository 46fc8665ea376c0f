"""End to end: the model loads a skill through the agent loop and follows it with real tool calls.

The scripted model server plays the model; everything between it and the ledger is real: litellm,
the agent loop, the tool registry, `use_skill`, the importer and the SQLite ledger.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wilson.agent.loop import Agent
from wilson.ledger import Ledger
from wilson.llm import LLM, RetryPolicy
from wilson.tools import load_tools

FAST = RetryPolicy(attempts=2, base_delay=0.01, max_delay=0.02, total_timeout=10, request_timeout=10)
EXPORT = """Date,Description,Amount
2025-01-03,STARBUCKS 1234,-5.75
2025-01-05,NETFLIX.COM,-15.49
2025-01-15,ACME CORP PAYROLL,2500.00
"""


@pytest.fixture
def agent(wilson_home: Path, llm_providers, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Agent:
    monkeypatch.chdir(tmp_path)
    with Ledger(wilson_home / "wilson.db") as ledger:
        yield Agent(
            ledger,
            model="gpt-4o-mini",
            llm=LLM("gpt-4o-mini", retry=FAST),
            tools=load_tools(),
            scratchpad_dir=wilson_home / "scratchpad",
        )


def tool_results(request) -> list[dict]:
    return [json.loads(m["content"]) for m in request.messages if m["role"] == "tool"]


async def run(agent: Agent, question: str, **options) -> list:
    return [event async for event in agent.run(question, **options)]


async def test_model_loads_import_skill_and_follows_it(agent: Agent, llm_providers, tmp_path: Path) -> None:
    export = tmp_path / "january.csv"
    export.write_text(EXPORT)
    server = llm_providers
    server.reply_tool_calls([("use_skill", {"name": "import-and-categorize",
                                            "arguments": {"path": str(export), "account": "Checking"}})])
    server.reply_tool_calls([("import_transactions", {"path": str(export), "account": "Checking", "dry_run": True})])
    server.reply_tool_calls([("import_transactions", {"path": str(export), "account": "Checking", "dry_run": False})])
    server.reply_tool_calls([("use_skill", {"name": "import-and-categorize"})])
    server.reply_text("Imported 3 transactions into Checking.")

    events = await run(agent, f"Import {export} into Checking")

    first = server.requests[0]
    assert "use_skill" in first.tool_names
    system = first.messages[0]["content"]
    assert "- import-and-categorize: " in system and "`use_skill`" in system

    loaded = tool_results(server.requests[1])[0]
    assert loaded["skill"] == "import-and-categorize" and loaded["source"] == "built-in"
    assert f"File: {export}. Account: Checking." in loaded["instructions"]
    assert "`dry_run` true" in loaded["instructions"]

    preview, imported = tool_results(server.requests[3])[1:3]
    assert preview["covered"]["transactions"] == 3
    assert imported["covered"]["transactions"] == 3
    count = agent.ledger.conn.execute("SELECT count(*) FROM transactions").fetchone()[0]
    assert count == 3

    again = tool_results(server.requests[4])[-1]
    assert again["already_loaded"] is True and "instructions" not in again
    assert events[-1].type == "done" and events[-1].answer == "Imported 3 transactions into Checking."
    assert events[-1].error is None


async def test_unknown_skill_reaches_the_model_with_suggestions(agent: Agent, llm_providers) -> None:
    llm_providers.reply_tool_calls([("use_skill", {"name": "month-end-clos"})])
    llm_providers.reply_text("Did you mean month-end-close?")

    events = await run(agent, "close the month")

    error = json.loads(llm_providers.requests[1].last_tool_result())["error"]
    assert error["type"] == "not_found" and error["suggestions"][0] == "month-end-close"
    assert [e.type for e in events if e.type.startswith("tool_")] == ["tool_start", "tool_error"]


async def test_a_skill_preloaded_by_the_user_is_not_handed_over_twice(agent: Agent, llm_providers) -> None:
    llm_providers.reply_tool_calls([("use_skill", {"name": "monthly-review"})])
    llm_providers.reply_text("Following the monthly review.")

    await run(agent, "review last month", skill="monthly-review")

    system = llm_providers.requests[0].messages[0]["content"]
    assert "# Monthly review" in system
    assert json.loads(llm_providers.requests[1].last_tool_result())["already_loaded"] is True
