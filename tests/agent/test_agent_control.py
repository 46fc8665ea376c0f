"""Cancellation, approval, the soft limits, the per-run cache and context clearing."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest
from agent_tools import CALLS, GATE
from conftest import collect, of_type

from wilson.agent.scratchpad import read


async def run_until(agent, query: str, ready, events: list) -> asyncio.Task:
    """Start a run in a task (as the TUI does) and return once `ready()` holds."""

    async def consume() -> None:
        async for event in agent.run(query):
            events.append(event)

    task = asyncio.create_task(consume())
    for _ in range(500):
        if ready():
            return task
        await asyncio.sleep(0.01)
    raise AssertionError("the run never got there")


async def test_cancel_mid_tool_stops_promptly_and_starts_no_write(make_agent, llm_providers, ledger):
    llm_providers.reply_tool_calls([("t_wait", {}), ("t_open_account", {"name": "Never"})])
    llm_providers.reply_text("unreachable")
    events: list = []

    async def approve(tool, args):
        return True

    task = await run_until(make_agent(approve=approve), "go", lambda: CALLS, events)
    started = time.perf_counter()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert time.perf_counter() - started < 1.5  # promptly: not after the blocked tool or slow reply
    GATE.set()

    done = events[-1]
    assert done.type == "done" and done.cancelled and done.answer == ""
    assert CALLS == [("t_wait", {})] and ledger.account("Never") is None
    assert len(llm_providers.requests) == 1
    records = read(Path(done.scratchpad))
    assert [r["type"] for r in records][-2:] == ["cancelled", "done"]


async def test_cancel_while_waiting_for_the_model(make_agent, llm_providers):
    llm_providers.reply_text("too late", delay=3)
    events: list = []
    task = await run_until(make_agent(), "go", lambda: llm_providers.requests, events)
    started = time.perf_counter()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert time.perf_counter() - started < 1.5  # promptly: not after the blocked tool or slow reply
    assert events[-1].cancelled and not of_type(events, "answer")


async def test_cancel_during_approval_never_starts_the_write(make_agent, llm_providers, ledger):
    llm_providers.reply_tool_calls([("t_open_account", {"name": "Pending"})])
    asked = asyncio.Event()

    async def approve(tool, args):
        asked.set()
        await asyncio.sleep(10)
        return True

    events: list = []
    task = await run_until(make_agent(approve=approve), "go", asked.is_set, events)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert events[-1].cancelled and CALLS == [] and ledger.account("Pending") is None


async def test_closing_the_stream_early_is_recorded_as_cancelled(make_agent, llm_providers):
    llm_providers.reply_tool_calls([("t_echo", {"text": "a"})])
    agent = make_agent()
    stream = agent.run("go")
    async for event in stream:
        if event.type == "tool_start":
            break
    await stream.aclose()
    pads = list((Path(agent.scratchpad_dir)).glob("*.jsonl"))
    assert read(pads[0])[-1]["cancelled"] is True


async def test_approved_write_runs(make_agent, llm_providers, ledger):
    llm_providers.reply_tool_calls([("t_open_account", {"name": "Savings"})])
    llm_providers.reply_text("opened")
    asked = []

    async def approve(tool, args):
        asked.append((tool, args))
        return True

    events = await collect(make_agent(approve=approve).run("open a savings account"))
    assert asked == [("t_open_account", {"name": "Savings"})]
    assert of_type(events, "approval_needed")[0].tool == "t_open_account"
    assert of_type(events, "tool_end")[0].result == {"created": "Savings"}
    assert ledger.account("Savings") is not None


async def test_denied_write_is_refused_and_the_model_is_told(make_agent, llm_providers, ledger):
    llm_providers.reply_tool_calls([("t_open_account", {"name": "Savings"})])
    llm_providers.reply_text("ok, not opened")

    async def approve(tool, args):
        return False

    events = await collect(make_agent(approve=approve).run("open it"))
    assert "declined" in of_type(events, "tool_error")[0].error
    told = json.loads(llm_providers.requests[1].last_tool_result())
    assert told["error"]["type"] == "refused"
    assert ledger.account("Savings") is None and CALLS == []


async def test_without_an_approver_writes_are_refused_at_once(make_agent, llm_providers, ledger):
    llm_providers.reply_tool_calls([("t_open_account", {"name": "Savings"})])
    llm_providers.reply_text("could not")
    events = await collect(make_agent(approve=None).run("open it"))
    assert not of_type(events, "approval_needed")
    assert json.loads(llm_providers.requests[1].last_tool_result())["error"]["type"] == "refused"
    assert ledger.account("Savings") is None


async def test_fourth_call_of_one_tool_warns(make_agent, llm_providers):
    llm_providers.reply_tool_calls([("t_echo", {"text": word}) for word in ("alpha", "bravo", "charlie", "delta")])
    llm_providers.reply_text("enough")
    events = await collect(make_agent().run("go"))
    limits = of_type(events, "tool_limit")
    assert len(limits) == 1 and limits[0].tool == "t_echo" and "4 times" in limits[0].message
    assert len(CALLS) == 4  # a soft limit guides, it never blocks
    note = llm_providers.requests[1].messages[-1]
    assert note["role"] == "user" and "4 times" in note["content"]


async def test_a_respelled_repeat_warns(make_agent, llm_providers):
    llm_providers.reply_tool_calls([("t_echo", {"text": "coffee spending in January"})])
    llm_providers.reply_tool_calls([("t_echo", {"pad": 0, "text": " Coffee  spending in january"})])
    llm_providers.reply_text("same thing")
    events = await collect(make_agent().run("go"))
    limits = of_type(events, "tool_limit")
    assert len(limits) == 1 and "same arguments as an earlier call" in limits[0].message
    assert "same arguments as an earlier call" in llm_providers.requests[2].messages[-1]["content"]


async def test_identical_read_only_calls_come_from_the_run_cache(make_agent, llm_providers):
    llm_providers.reply_tool_calls([("t_echo", {"text": "same"})])
    llm_providers.reply_tool_calls([("t_echo", {"text": "same"}), ("t_echo", {"text": "other"}), ("t_echo", {"text": "other"})])
    llm_providers.reply_text("done")
    events = await collect(make_agent().run("go"))
    ends = of_type(events, "tool_end")
    assert [e.cached for e in sorted(ends, key=lambda e: e.id)] == [False, True, False, True]
    assert "(cached)" in [e for e in ends if e.cached][0].summary
    assert sorted(text for _, args in CALLS for text in args.values()) == ["other", "same"]
    assert [json.loads(m["content"])["echo"] for m in llm_providers.requests[2].messages if m["role"] == "tool"] == [
        "same", "same", "other", "other"
    ]


async def test_a_fresh_run_has_a_fresh_cache(make_agent, llm_providers):
    agent = make_agent()
    for _ in range(2):
        llm_providers.reply_tool_calls([("t_echo", {"text": "same"})])
        llm_providers.reply_text("done")
        events = await collect(agent.run("go"))
        assert not of_type(events, "tool_end")[0].cached
    assert len(CALLS) == 2


async def test_old_results_are_cleared_over_budget_and_the_scratchpad_keeps_them(make_agent, llm_providers):
    llm_providers.reply_tool_calls([("t_echo", {"text": f"r{n}", "pad": 200}) for n in range(7)])
    llm_providers.reply_tool_calls([("t_echo", {"text": "r7", "pad": 200})])
    llm_providers.reply_text("done")
    events = await collect(make_agent(token_budget=1).run("go"))

    cleared = of_type(events, "context_cleared")
    assert [(c.cleared, c.kept) for c in cleared] == [(2, 5), (1, 5)]
    sent = [m["content"] for m in llm_providers.requests[1].messages if m["role"] == "tool"]
    assert sent[0] == '[cleared: t_echo {"pad":200,"text":"r0"} — result dropped to save context]'
    assert sent[1].startswith("[cleared: t_echo") and not any(s.startswith("[cleared") for s in sent[2:])
    last = [m["content"] for m in llm_providers.requests[2].messages if m["role"] == "tool"]
    assert sum(s.startswith("[cleared") for s in last) == 3
    records = read(Path(events[-1].scratchpad))
    assert sorted(r["result"]["echo"] for r in records if r["type"] == "tool") == [f"r{n}" for n in range(8)]
    assert [r["cleared"] for r in records if r["type"] == "context_cleared"] == [2, 1]


async def test_nothing_is_cleared_under_budget(make_agent, llm_providers):
    llm_providers.reply_tool_calls([("t_echo", {"text": f"r{n}", "pad": 200}) for n in range(7)])
    llm_providers.reply_text("done")
    events = await collect(make_agent().run("go"))
    assert not of_type(events, "context_cleared")
