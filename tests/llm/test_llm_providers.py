"""Every supported prefix reaches the right wire protocol, with the right model name and key header."""

from __future__ import annotations

import json

import pytest

from scripted_llm import DUMMY_KEYS
from wilson.llm import LLM, ErrorKind, LLMError
from wilson.llm.providers import PROVIDERS, litellm_name, resolve

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "search_transactions",
            "description": "Find transactions matching a query.",
            "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]},
        },
    }
]
MESSAGES = [{"role": "user", "content": "How much did I spend on coffee?"}]

# model, expected path, model name on the wire, header carrying the key, expected header value
WIRE = [
    ("gpt-4o-mini", "/v1/chat/completions", "gpt-4o-mini", "authorization", "Bearer sk-test-openai"),
    ("o3-mini", "/v1/chat/completions", "o3-mini", "authorization", "Bearer sk-test-openai"),
    ("claude-3-5-haiku-20241022", "/v1/messages", "claude-3-5-haiku-20241022", "x-api-key", "sk-ant-test"),
    ("gemini-2.0-flash", "/v1beta/models/gemini-2.0-flash:generateContent", "gemini-2.0-flash",
     "x-goog-api-key", "test-gemini-key"),
    ("grok-3", "/v1/chat/completions", "grok-3", "authorization", "Bearer xai-test"),
    ("kimi-k2-0711-preview", "/v1/chat/completions", "kimi-k2-0711-preview",
     "authorization", "Bearer sk-test-moonshot"),
    ("moonshot-v1-8k", "/v1/chat/completions", "moonshot-v1-8k", "authorization", "Bearer sk-test-moonshot"),
    ("deepseek-chat", "/v1/chat/completions", "deepseek-chat", "authorization", "Bearer sk-test-deepseek"),
    ("openrouter:anthropic/claude-3.5-sonnet", "/v1/chat/completions", "anthropic/claude-3.5-sonnet",
     "authorization", "Bearer sk-or-test"),
    ("litellm:my-model", "/v1/chat/completions", "my-model", "authorization", "Bearer sk-test-litellm"),
    ("ollama:llama3.1", "/api/chat", "llama3.1", None, None),
]


@pytest.mark.parametrize(("model", "path", "wire_model", "header", "value"), WIRE, ids=[w[0] for w in WIRE])
async def test_request_reaches_the_provider_protocol(llm_providers, model, path, wire_model, header, value):
    llm_providers.reply_tool_calls(
        [("search_transactions", {"query": "coffee"}), ("search_transactions", {"query": "tea"})], usage=(21, 8)
    )

    completion = await LLM(model).complete(MESSAGES, TOOLS)

    [request] = llm_providers.requests
    assert request.path.split("?")[0] == path
    assert request.model == wire_model
    assert request.tool_names == ["search_transactions"]
    if header is not None:
        assert request.headers[header] == value
    else:
        assert "authorization" not in request.headers
    assert [(c.name, json.loads(c.arguments)) for c in completion.tool_calls] == [
        ("search_transactions", {"query": "coffee"}),
        ("search_transactions", {"query": "tea"}),
    ]
    assert all(c.id for c in completion.tool_calls)
    assert (completion.input_tokens, completion.output_tokens) == (21, 8)
    assert completion.model == model
    assert [c["id"] for c in completion.message["tool_calls"]] == [c.id for c in completion.tool_calls]


@pytest.mark.parametrize(
    ("model", "variable"),
    [
        ("gpt-4o-mini", "OPENAI_API_KEY"),
        ("o1", "OPENAI_API_KEY"),
        ("claude-sonnet-4-5", "ANTHROPIC_API_KEY"),
        ("gemini-2.5-pro", "GEMINI_API_KEY"),
        ("grok-4", "XAI_API_KEY"),
        ("kimi-k2", "MOONSHOT_API_KEY"),
        ("moonshot-v1-8k", "MOONSHOT_API_KEY"),
        ("deepseek-chat", "DEEPSEEK_API_KEY"),
        ("openrouter:openai/gpt-4o", "OPENROUTER_API_KEY"),
    ],
)
async def test_missing_key_is_one_line_naming_the_variable_and_sends_nothing(llm_server, monkeypatch, model, variable):
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.url + "/v1")
    llm = LLM(model)

    with pytest.raises(LLMError) as caught:
        llm.check_keys()
    with pytest.raises(LLMError):
        await llm.complete(MESSAGES)

    assert caught.value.kind is ErrorKind.MISSING_KEY
    assert not caught.value.retryable
    assert variable in caught.value.message and "\n" not in caught.value.message
    assert llm_server.requests == []


async def test_gemini_accepts_google_api_key(llm_providers, monkeypatch):
    monkeypatch.delenv("GEMINI_API_KEY")
    monkeypatch.setenv("GOOGLE_API_KEY", "google-key")
    llm_providers.reply_text("hello")

    await LLM("gemini-2.0-flash").complete(MESSAGES)

    assert llm_providers.requests[0].headers["x-goog-api-key"] == "google-key"


def test_keyless_providers_need_no_key():
    LLM("ollama:llama3.1").check_keys()
    LLM("litellm:my-model").check_keys()


def test_a_fallback_missing_its_key_is_reported_up_front(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-x")
    with pytest.raises(LLMError, match="ANTHROPIC_API_KEY"):
        LLM("gpt-4o-mini", fallbacks=["claude-3-5-haiku-20241022"]).check_keys()


async def test_litellm_proxy_without_key_never_sends_the_openai_key(llm_providers, monkeypatch):
    monkeypatch.delenv("LITELLM_API_KEY")
    llm_providers.reply_text("hello")

    await LLM("litellm:my-model").complete(MESSAGES)

    assert DUMMY_KEYS["OPENAI_API_KEY"] not in llm_providers.requests[0].headers.get("authorization", "")


def test_litellm_proxy_and_ollama_default_to_localhost():
    assert resolve("litellm:my-model").api_base == "http://localhost:4000"
    assert resolve("ollama:llama3.1").api_base == "http://localhost:11434"


@pytest.mark.parametrize(
    ("model", "expected"),
    [
        ("gpt-4o-mini", "openai/gpt-4o-mini"),
        ("o4-mini", "openai/o4-mini"),
        ("claude-opus-4-1", "anthropic/claude-opus-4-1"),
        ("gemini-2.5-flash", "gemini/gemini-2.5-flash"),
        ("grok-4", "xai/grok-4"),
        ("kimi-k2", "moonshot/kimi-k2"),
        ("deepseek-reasoner", "deepseek/deepseek-reasoner"),
        ("openrouter:meta-llama/llama-3.1-70b", "openrouter/meta-llama/llama-3.1-70b"),
        ("litellm:team-model", "litellm_proxy/team-model"),
        ("ollama:qwen2.5:7b", "ollama_chat/qwen2.5:7b"),
        ("mistral/mistral-large-latest", "mistral/mistral-large-latest"),
    ],
)
def test_litellm_names(model, expected):
    assert litellm_name(model) == expected


def test_an_empty_name_after_a_prefix_is_a_bad_request():
    with pytest.raises(LLMError) as caught:
        litellm_name("ollama:")
    assert caught.value.kind is ErrorKind.BAD_REQUEST


def test_every_provider_has_a_redirect_variable_the_test_server_sets():
    from scripted_llm import PROVIDER_BASES

    assert {p.base_var for p in PROVIDERS} == set(PROVIDER_BASES)
