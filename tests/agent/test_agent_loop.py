"""The agent loop against the scripted model server, through the real litellm stack."""

from __future__ import annotations

import json
from decimal import Decimal

from agent_tools import CALLS
from conftest import collect, of_type

from wilson.agent.loop import _Call
from wilson.agent.scratchpad import read
from wilson.llm import ToolCall


def tool_messages(request) -> list[dict]:
    return [m for m in request.messages if m["role"] == "tool"]


async def test_single_tool_call_then_answer(make_agent, llm_providers):
    llm_providers.reply_tool_calls([("t_add", {"a": 0.1, "b": 0.2})], text="Adding them up.")
    llm_providers.reply_text("The sum is 0.3.")
    events = await collect(make_agent().run("What is 0.1 + 0.2?"))

    assert [e.type for e in events] == ["thinking", "tool_start", "tool_end", "answer", "done"]
    start, end = of_type(events, "tool_start")[0], of_type(events, "tool_end")[0]
    assert start.args == {"a": Decimal("0.1"), "b": Decimal("0.2")}  # exact, never a float
    assert end.result == {"sum": "0.3"} and end.id == start.id and not end.cached
    done = events[-1]
    assert done.answer == "The sum is 0.3." and done.iterations == 2 and done.tool_calls == 1
    assert (done.input_tokens, done.output_tokens) == (20, 10) and not done.cancelled
    assert done.model == "gpt-4o-mini" and done.error is None
    second = llm_providers.requests[1]
    assistant = second.messages[-2]
    assert assistant["role"] == "assistant" and assistant["tool_calls"][0]["id"] == "call_1"
    assert tool_messages(second) == [{"role": "tool", "tool_call_id": "call_1", "content": '{"sum": "0.3"}'}]
    assert json.loads(json.dumps(done.to_dict()))["type"] == "done"


async def test_several_calls_in_one_response_all_run_and_pair_in_order(make_agent, llm_providers, ledger):
    ledger.create_account("Checking")
    llm_providers.reply_tool_calls([("t_count", {}), ("t_echo", {"text": "a"}), ("t_count", {"x": 1})])
    llm_providers.reply_text("ok")
    events = await collect(make_agent().run("go"))

    assert [e.id for e in of_type(events, "tool_start")] == ["call_1", "call_2", "call_3"]
    assert {e.id for e in of_type(events, "tool_end")} == {"call_1", "call_2"}
    assert of_type(events, "tool_error")[0].id == "call_3"  # schema-invalid: x is not a parameter
    sent = tool_messages(llm_providers.requests[1])
    assert [m["tool_call_id"] for m in sent] == ["call_1", "call_2", "call_3"]
    assert json.loads(sent[0]["content"]) == {"accounts": 1}
    assert "invalid arguments" in json.loads(sent[2]["content"])["error"]["message"]


async def test_several_iterations(make_agent, llm_providers):
    llm_providers.reply_tool_calls([("t_echo", {"text": "one"})])
    llm_providers.reply_tool_calls([("t_echo", {"text": "two"})])
    llm_providers.reply_text("two steps")
    events = await collect(make_agent().run("go"))
    assert events[-1].iterations == 3 and events[-1].tool_calls == 2
    assert [r["echo"] for r in (e.result for e in of_type(events, "tool_end"))] == ["one", "two"]
    assert len(tool_messages(llm_providers.requests[2])) == 2


async def test_unknown_tool_is_reported_to_the_model_and_the_run_goes_on(make_agent, llm_providers):
    llm_providers.reply_tool_calls([("no_such_tool", {"q": 1})])
    llm_providers.reply_text("sorry")
    events = await collect(make_agent().run("go"))
    error = of_type(events, "tool_error")[0]
    assert error.tool == "no_such_tool" and "no tool named" in error.error
    assert json.loads(llm_providers.requests[1].last_tool_result())["error"]["type"] == "unknown_tool"
    assert events[-1].answer == "sorry"


async def test_arguments_that_are_not_an_object_or_not_json(make_agent, llm_providers):
    llm_providers.reply_tool_calls([("t_echo", "just a string")])
    llm_providers.reply_text("fine")
    events = await collect(make_agent().run("go"))
    assert "must be a JSON object" in of_type(events, "tool_error")[0].error
    assert json.loads(llm_providers.requests[1].last_tool_result())["error"]["type"] == "invalid_arguments"
    assert CALLS == []

    broken = _Call.parse(ToolCall("c1", "t_echo", '{"text": "unterminated'), None)
    assert broken.error["error"]["type"] == "invalid_arguments" and "not valid JSON" in broken.error["error"]["message"]
    endless = _Call.parse(ToolCall("c2", "t_echo", '{"n": ' + "9" * 5000 + "}"), None)  # past what Python converts
    assert "a number has thousands of digits" in endless.error["error"]["message"]


async def test_a_tool_that_raises_becomes_an_error_result(make_agent, llm_providers):
    llm_providers.reply_tool_calls([("t_boom", {})])
    llm_providers.reply_text("it failed")
    events = await collect(make_agent().run("go"))
    error = of_type(events, "tool_error")[0]
    assert "kaboom" in error.error and error.recoverable is False
    assert "kaboom" in llm_providers.requests[1].last_tool_result()
    assert events[-1].answer == "it failed"


async def test_rate_limit_then_success(make_agent, llm_providers):
    llm_providers.reply_error(429, headers={"Retry-After": "0"})
    llm_providers.reply_text("after the wait")
    events = await collect(make_agent().run("go"))
    assert events[-1].answer == "after the wait" and len(llm_providers.requests) == 2
    assert not of_type(events, "model_fallback")


async def test_server_errors_hand_over_to_the_fallback_for_the_rest_of_the_run(make_agent, llm_providers):
    llm_providers.reply_error(500, times=3)  # the retry policy allows 3 attempts
    llm_providers.reply_tool_calls([("t_echo", {"text": "hi"})])
    llm_providers.reply_text("from the fallback")
    events = await collect(make_agent(fallbacks=("claude-sonnet-4-5",)).run("go"))

    fallback = of_type(events, "model_fallback")[0]
    assert (fallback.from_model, fallback.to_model) == ("gpt-4o-mini", "claude-sonnet-4-5")
    assert "HTTP 500" in fallback.reason
    assert events[-1].answer == "from the fallback" and events[-1].model == "claude-sonnet-4-5"
    assert [r.protocol for r in llm_providers.requests] == ["openai"] * 3 + ["anthropic"] * 2


async def test_model_unreachable_ends_the_run_with_an_error(make_agent, llm_providers):
    llm_providers.reply_error(401)
    events = await collect(make_agent().run("go"))
    assert [e.type for e in events] == ["done"]
    assert "API key rejected" in events[0].error and events[0].answer == ""


async def test_context_overflow_clears_down_to_three_and_retries(make_agent, llm_providers):
    llm_providers.reply_tool_calls([("t_echo", {"text": f"r{n}"}) for n in range(5)])
    llm_providers.reply_error(400, message="This model's maximum context length is 128000 tokens. Too long.")
    llm_providers.reply_text("fits now")
    events = await collect(make_agent().run("go"))

    cleared = of_type(events, "context_cleared")[0]
    assert (cleared.cleared, cleared.kept) == (2, 3)
    retried = tool_messages(llm_providers.requests[2])
    assert [m["content"].startswith("[cleared: t_echo") for m in retried] == [True, True, False, False, False]
    assert '{"text":"r0"}' in retried[0]["content"]
    assert events[-1].answer == "fits now"


async def test_context_overflow_gives_up_after_two_retries(make_agent, llm_providers):
    llm_providers.reply_error(400, message="maximum context length exceeded", times=3)
    events = await collect(make_agent().run("go"))
    assert "too long" in events[-1].error and len(llm_providers.requests) == 3


async def test_iteration_cap_asks_for_an_honest_answer_without_tools(make_agent, llm_providers):
    llm_providers.reply_tool_calls([("t_echo", {"text": "a"})])
    llm_providers.reply_tool_calls([("t_echo", {"text": "b"})])
    llm_providers.reply_text("I found a and b; I could not find c.")
    events = await collect(make_agent(max_iterations=2).run("go"))

    final = llm_providers.requests[-1]
    assert final.body.get("tools") is None
    assert "no more tools can be called" in final.messages[-1]["content"]
    assert events[-1].answer == "I found a and b; I could not find c." and events[-1].iterations == 2


async def test_iteration_cap_composes_an_answer_when_the_final_call_fails(make_agent, llm_providers):
    llm_providers.reply_tool_calls([("t_echo", {"text": "a"})])
    llm_providers.reply_error(401)
    events = await collect(make_agent(max_iterations=1).run("go"))
    assert "stopped after 1 steps" in events[-1].answer and events[-1].error is None
    assert of_type(events, "answer")


async def test_scratchpad_records_the_whole_run(make_agent, llm_providers):
    llm_providers.reply_tool_calls([("t_echo", {"text": "hi"})], text="Looking.")
    llm_providers.reply_text("done")
    events = await collect(make_agent().run("the question"))
    records = read(__import__("pathlib").Path(events[-1].scratchpad))
    kinds = [r["type"] for r in records]
    assert kinds == ["query", "thinking", "tool", "answer", "done"]
    assert records[0]["text"] == "the question"
    assert records[2]["result"] == {"echo": "hi", "filler": ""} and records[2]["args"] == {"text": "hi"}
    assert "duration_ms" in records[2]
