"""What a Completion holds: content, tool calls, a replayable history message, usage and cost."""

from __future__ import annotations

import asyncio
import json
from decimal import Decimal

import pytest

from scripted_llm import RecordedRequest, Text
from wilson.llm import LLM, ErrorKind, LLMError, RetryPolicy

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "sum_spending",
            "description": "Total spent in a category.",
            "parameters": {"type": "object", "properties": {"category": {"type": "string"}}},
        },
    }
]


async def test_text_reply_with_usage_and_cost(llm_providers):
    llm_providers.reply_text("You spent 42.00 on coffee.", usage=(1000, 500))

    completion = await LLM("gpt-4o-mini").complete([{"role": "user", "content": "coffee?"}])

    assert completion.content == "You spent 42.00 on coffee."
    assert completion.tool_calls == []
    assert completion.message == {"role": "assistant", "content": "You spent 42.00 on coffee."}
    assert (completion.input_tokens, completion.output_tokens) == (1000, 500)
    assert isinstance(completion.cost, Decimal) and completion.cost > 0
    assert completion.model == "gpt-4o-mini"


async def test_a_call_leaves_no_litellm_logging_work_behind(llm_providers):
    """litellm's post-call logging (a payload for no callback) would cost the loop milliseconds."""
    llm_providers.reply_text("done", usage=(1000, 500))

    completion = await LLM("gpt-4o-mini").complete([{"role": "user", "content": "x" * 20_000}])

    assert _litellm_work_pending() == []
    assert (completion.input_tokens, completion.output_tokens) == (1000, 500)
    assert completion.cost is not None and completion.cost > 0
    from litellm._internal_context import is_internal_call

    assert is_internal_call.get() is False  # only Wilson's own call was marked, not the caller


def _litellm_work_pending() -> list[str]:
    """litellm coroutines still scheduled, bar its API-timing hook (a no-op with no service callbacks)."""
    coroutines = [task.get_coro() for task in asyncio.all_tasks()]
    return [
        coroutine.__qualname__
        for coroutine in coroutines
        if "/litellm/" in getattr(getattr(coroutine, "cr_code", None), "co_filename", "")
        and not coroutine.__qualname__.startswith("ServiceLogging.")
    ]


async def test_cost_is_none_when_litellm_has_no_price(llm_providers):
    llm_providers.reply_text("hi", usage=(1000, 500))

    completion = await LLM("litellm:team-model").complete([{"role": "user", "content": "hi"}])

    assert completion.cost is None
    assert (completion.input_tokens, completion.output_tokens) == (1000, 500)


def answer_from_tool_result(request: RecordedRequest) -> Text:
    return Text(f"The tool said {request.last_tool_result()}")


@pytest.mark.parametrize("model", ["gpt-4o-mini", "claude-sonnet-4-5", "gemini-2.5-flash", "ollama:llama3.1"])
async def test_history_message_replays_through_every_protocol(llm_providers, model):
    """The assistant message plus a tool result, sent back, reaches the provider as its tool result."""
    llm_providers.reply_tool_calls([("sum_spending", {"category": "coffee"})], text="Let me check.")
    llm_providers.reply(answer_from_tool_result)
    llm = LLM(model)
    messages = [{"role": "user", "content": "How much on coffee?"}]

    first = await llm.complete(messages, TOOLS)
    [call] = first.tool_calls
    messages += [first.message, {"role": "tool", "tool_call_id": call.id, "content": '{"total": "42.00"}'}]
    second = await llm.complete(messages, TOOLS)

    assert first.content == "Let me check."
    assert json.loads(call.arguments) == {"category": "coffee"}
    assert first.message["tool_calls"] == [
        {"id": call.id, "type": "function", "function": {"name": "sum_spending", "arguments": call.arguments}}
    ]
    assert "42.00" in second.content


async def test_an_empty_script_fails_loudly(llm_providers):
    with pytest.raises(LLMError) as caught:
        await LLM("gpt-4o-mini", retry=RetryPolicy(attempts=1)).complete([{"role": "user", "content": "hi"}])

    assert caught.value.kind is ErrorKind.OVERLOADED
    assert "queue is empty" in caught.value.message


@pytest.mark.parametrize(
    ("model", "window"),
    [("gpt-4o-mini", 128_000), ("deepseek-chat", 131_072), ("litellm:team-model", None), ("ollama:mystery", None)],
)
def test_context_window_from_the_local_model_map_without_keys(model, window):
    assert LLM(model).context_window() == window


@pytest.mark.parametrize(
    ("model", "encoding"),
    [
        ("gpt-4o-mini", "o200k_base"),
        ("gpt-4.1", "o200k_base"),
        ("gpt-5-mini", "o200k_base"),
        ("o3-mini", "o200k_base"),
        ("openrouter:openai/gpt-4o", "o200k_base"),
        ("gpt-4-turbo", "cl100k_base"),
        ("gpt-3.5-turbo", "cl100k_base"),
        ("claude-sonnet-4-5", "cl100k_base"),
        ("ollama:llama3.1", "cl100k_base"),
    ],
)
def test_tokenizer_encoding(model, encoding):
    assert LLM(model).tokenizer_encoding() == encoding


async def test_a_failing_reply_callable_is_reported_not_hung_up(llm_providers):
    llm_providers.reply(lambda request: 1 / 0)

    with pytest.raises(LLMError) as caught:
        await LLM("gpt-4o-mini", retry=RetryPolicy(attempts=1)).complete([{"role": "user", "content": "hi"}])

    assert "ZeroDivisionError" in caught.value.message
