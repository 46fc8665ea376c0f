"""The repeated-call warning: it catches a call respelled in a loop, never a retry or a comparison."""

from __future__ import annotations

from typing import Annotated

import pytest
from conftest import collect, of_type

from wilson.agent.scratchpad import signature
from wilson.tools import REGISTRY, ToolContext, load_tools, tool

FAILED_ONCE: list[str] = []


def _register() -> None:
    if "t_flaky" in REGISTRY:
        return

    @tool(description="Fails the first time in a test, then works. Used by tests.")
    def t_flaky(ctx: ToolContext, account: Annotated[str, "an account"]) -> dict:
        if not FAILED_ONCE:
            FAILED_ONCE.append(account)
            raise RuntimeError("database is locked")
        return {"account": account, "balance": "10.00"}


_register()


@pytest.fixture(autouse=True)
def fresh_flaky() -> None:
    FAILED_ONCE.clear()


def spending_tools() -> dict:
    return {"spending_summary": load_tools()["spending_summary"]}


def warnings_sent(server) -> list[str]:
    return [m["content"] for r in server.requests for m in r.messages
            if m["role"] == "user" and m["content"].startswith("Note from Wilson")]


MARCH = {"start_date": "2025-03-01", "end_date": "2025-03-31"}
APRIL = {"start_date": "2025-04-01", "end_date": "2025-04-30"}
MARCH_2024 = {"start_date": "2024-03-01", "end_date": "2024-03-31"}


@pytest.mark.parametrize("first, second", [(MARCH, APRIL), (MARCH, MARCH_2024)], ids=["month", "year"])
async def test_comparing_two_periods_is_not_a_repeat(make_agent, llm_providers, first, second):
    llm_providers.reply_tool_calls([("spending_summary", first)])
    llm_providers.reply_tool_calls([("spending_summary", second)])
    llm_providers.reply_text("compared")
    events = await collect(make_agent(tools=spending_tools()).run("compare"))
    assert len(of_type(events, "tool_end")) == 2
    assert not of_type(events, "tool_limit") and not warnings_sent(llm_providers)


async def test_a_corrected_call_after_an_error_is_not_a_repeat(make_agent, llm_providers):
    llm_providers.reply_tool_calls([("spending_summary", {"start_date": "2025-13-45", "end_date": "2025-03-31"})])
    llm_providers.reply_tool_calls([("spending_summary", MARCH)])
    llm_providers.reply_text("recovered")
    events = await collect(make_agent(tools=spending_tools()).run("march"))
    assert len(of_type(events, "tool_error")) == 1 and len(of_type(events, "tool_end")) == 1
    assert not of_type(events, "tool_limit") and not warnings_sent(llm_providers)


async def test_the_same_call_again_after_it_failed_is_a_retry(make_agent, llm_providers):
    llm_providers.reply_tool_calls([("t_flaky", {"account": "Chase"})])
    llm_providers.reply_tool_calls([("t_flaky", {"account": "chase"})])  # fails, then the respelled retry works
    llm_providers.reply_tool_calls([("t_flaky", {"account": "CHASE "})])  # respelling a call that worked
    llm_providers.reply_text("done")
    events = await collect(make_agent(tools={"t_flaky": REGISTRY["t_flaky"]}).run("balance"))
    assert [e.type for e in events if e.type in ("tool_error", "tool_end", "tool_limit")] == [
        "tool_error", "tool_end", "tool_limit", "tool_end"
    ]
    assert len(warnings_sent(llm_providers)) == 1


async def test_a_respelled_call_warns_whatever_the_spelling(make_agent, llm_providers):
    llm_providers.reply_tool_calls([("spending_summary", {**MARCH, "category": "Dining"})])
    llm_providers.reply_tool_calls([("spending_summary", {
        "category": " dining", "group_by": "category", "end_date": "2025-03-31", "account": None,
        "start_date": "2025-03-01",
    })])
    llm_providers.reply_text("same")
    events = await collect(make_agent(tools=spending_tools()).run("dining"))
    limits = of_type(events, "tool_limit")
    assert len(limits) == 1 and limits[0].tool == "spending_summary"
    assert "same arguments as an earlier call" in warnings_sent(llm_providers)[0]


async def test_the_very_same_read_again_is_served_from_the_cache_without_a_warning(make_agent, llm_providers):
    llm_providers.reply_tool_calls([("spending_summary", MARCH)])
    llm_providers.reply_tool_calls([("spending_summary", MARCH)])
    llm_providers.reply_text("same")
    events = await collect(make_agent(tools=spending_tools()).run("march"))
    assert [e.cached for e in of_type(events, "tool_end")] == [False, True]
    assert not of_type(events, "tool_limit")


SCHEMA = load_tools()["search_transactions"].parameters


@pytest.mark.parametrize("a, b", [
    ({"query": "Starbucks", "limit": 5}, {"limit": 5, "query": "  starbucks "}),
    ({"min_amount": 50}, {"min_amount": "50.00"}),
    ({"min_amount": "1,250"}, {"min_amount": 1250}),
    ({"query": "rent"}, {"query": "RENT", "uncategorized_only": False, "account": None}),
])
def test_cosmetic_differences_give_one_signature(a, b):
    assert signature(a, SCHEMA) == signature(b, SCHEMA)


@pytest.mark.parametrize("a, b", [
    ({"start_date": "2025-03-01", "end_date": "2025-03-31"}, {"start_date": "2025-04-01", "end_date": "2025-04-30"}),
    ({"start_date": "2025-03-01"}, {"start_date": "2024-03-01"}),
    ({"query": "coffee in january"}, {"query": "coffee in januray"}),
    ({"account": "Checking …1234"}, {"account": "Checking …5678"}),
    ({"category": "Dining"}, {"category": "Dining Out"}),
    ({"min_amount": "50.00"}, {"min_amount": "50.01"}),
    ({"query": "rent"}, {"query": "rent", "include_pending": True}),
    ({"limit": 5}, {"limit": 50}),
])
def test_a_different_value_gives_a_different_signature(a, b):
    assert signature(a, SCHEMA) != signature(b, SCHEMA)


def test_ids_are_compared_exactly():
    schema = load_tools()["update_transaction"].parameters
    assert signature({"ids": [1, 2], "category": "Food"}, schema) != signature({"ids": [1, 3], "category": "Food"}, schema)
