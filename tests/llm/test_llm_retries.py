"""Transient failures are retried within bounds, then fall back; permanent ones surface at once."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import pytest

from scripted_llm import RecordedRequest
from wilson.llm import LLM, ErrorKind, LLMError, RetryPolicy
from wilson.llm._litellm import litellm

FAST = RetryPolicy(attempts=4, base_delay=0.001, max_delay=0.01, total_timeout=5.0, request_timeout=5.0)
MESSAGES = [{"role": "user", "content": "hi"}]


@pytest.fixture(autouse=True, scope="module")
def litellm_imported() -> None:
    """Keep litellm's one-off import out of the timings below."""
    litellm()


async def test_rate_limit_then_success_is_retried(llm_providers):
    llm_providers.reply_error(429, headers={"Retry-After": "0"})
    llm_providers.reply_text("fine now")

    completion = await LLM("gpt-4o-mini", retry=FAST).complete(MESSAGES)

    assert completion.content == "fine now"
    assert len(llm_providers.requests) == 2


def gaps(requests: list[RecordedRequest]) -> list[float]:
    return [later.received_at - earlier.received_at for earlier, later in zip(requests, requests[1:])]


@pytest.mark.parametrize("model", ["gpt-4o-mini", "claude-sonnet-4-5", "gemini-2.5-flash", "ollama:llama3.1"])
async def test_retry_after_is_honoured_instead_of_backoff(llm_providers, model):
    llm_providers.reply_error(429, headers={"Retry-After": "0.3"})
    llm_providers.reply_text("ok")
    tiny_backoff = RetryPolicy(base_delay=0.001, max_delay=10.0)

    await LLM(model, retry=tiny_backoff).complete(MESSAGES)

    [gap] = gaps(llm_providers.requests)
    assert gap >= 0.3


async def test_retry_after_is_capped_by_max_delay(llm_providers):
    llm_providers.reply_error(429, headers={"Retry-After": "3600"})
    llm_providers.reply_text("ok")

    await LLM("claude-sonnet-4-5", retry=RetryPolicy(base_delay=0.001, max_delay=0.2)).complete(MESSAGES)

    [gap] = gaps(llm_providers.requests)
    assert 0.2 <= gap < 30


async def test_server_errors_until_the_fallback_model_answers(llm_providers):
    llm_providers.reply_error(500, times=4)
    llm_providers.reply_text("from claude")
    fallbacks: list[tuple[str, str, LLMError]] = []

    completion = await LLM("gpt-4o-mini", ["claude-3-5-haiku-20241022"], FAST).complete(
        MESSAGES, on_fallback=lambda src, dst, err: fallbacks.append((src, dst, err))
    )

    assert completion.content == "from claude"
    assert completion.model == "claude-3-5-haiku-20241022"
    assert [r.protocol for r in llm_providers.requests] == ["openai"] * 4 + ["anthropic"]
    [(src, dst, error)] = fallbacks
    assert (src, dst, error.kind) == ("gpt-4o-mini", "claude-3-5-haiku-20241022", ErrorKind.OVERLOADED)


async def test_fallback_chain_is_tried_in_order_and_the_last_error_surfaces(llm_providers):
    llm_providers.reply_error(503, times=2)
    llm_providers.reply_error(529, times=2)
    llm_providers.reply_error(429, times=2)
    seen: list[tuple[str, str]] = []
    two_tries = RetryPolicy(attempts=2, base_delay=0.001, max_delay=0.001)

    with pytest.raises(LLMError) as caught:
        await LLM("gpt-4o-mini", ["claude-3-5-haiku-20241022", "gemini-2.0-flash"], two_tries).complete(
            MESSAGES, on_fallback=lambda src, dst, err: seen.append((src, dst))
        )

    assert seen == [("gpt-4o-mini", "claude-3-5-haiku-20241022"), ("claude-3-5-haiku-20241022", "gemini-2.0-flash")]
    assert [r.protocol for r in llm_providers.requests] == ["openai"] * 2 + ["anthropic"] * 2 + ["gemini"] * 2
    assert caught.value.kind is ErrorKind.RATE_LIMIT
    assert caught.value.model == "gemini-2.0-flash"


async def test_anthropic_overloaded_529_is_retried(llm_providers):
    llm_providers.reply_error(529)
    llm_providers.reply_text("ok")

    await LLM("claude-3-5-haiku-20241022", retry=FAST).complete(MESSAGES)

    assert len(llm_providers.requests) == 2


@pytest.mark.parametrize(
    ("model", "status", "message", "kind"),
    [
        ("gpt-4o-mini", 401, None, ErrorKind.AUTH),
        ("claude-3-5-haiku-20241022", 401, None, ErrorKind.AUTH),
        ("gpt-4o-mini", 403, None, ErrorKind.AUTH),
        ("gpt-4o-mini", 400, "Invalid 'messages[1].role'", ErrorKind.BAD_REQUEST),
        ("gemini-2.0-flash", 400, "Invalid JSON payload", ErrorKind.BAD_REQUEST),
        ("gpt-4o-mini", 404, "The model `gpt-9` does not exist", ErrorKind.BAD_REQUEST),
        ("gpt-4o-mini", 400, "This model's maximum context length is 128000 tokens. However, your messages "
         "resulted in 130000 tokens.", ErrorKind.CONTEXT_OVERFLOW),
        ("claude-3-5-haiku-20241022", 400, "prompt is too long: 210000 tokens > 200000 maximum",
         ErrorKind.CONTEXT_OVERFLOW),
        ("ollama:llama3.1", 400, "the input length exceeds the context length", ErrorKind.CONTEXT_OVERFLOW),
    ],
)
async def test_permanent_errors_are_classified_and_not_retried_nor_fallen_back(
    llm_providers, model, status, message, kind
):
    llm_providers.reply_error(status, message=message)
    fallbacks: list[str] = []

    with pytest.raises(LLMError) as caught:
        await LLM(model, ["deepseek-chat"], FAST).complete(MESSAGES, on_fallback=lambda *a: fallbacks.append(a[1]))

    assert caught.value.kind is kind
    assert not caught.value.retryable
    assert caught.value.model == model
    assert "\n" not in caught.value.message and "Traceback" not in caught.value.message
    assert len(llm_providers.requests) == 1
    assert fallbacks == []


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def test_connection_refused_is_classified_retried_then_falls_back(llm_providers, monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", f"http://127.0.0.1:{_closed_port()}/v1")
    llm_providers.reply_text("from deepseek")
    errors: list[LLMError] = []

    started = time.monotonic()
    completion = await LLM("gpt-4o-mini", ["deepseek-chat"], FAST).complete(
        MESSAGES, on_fallback=lambda src, dst, err: errors.append(err)
    )

    assert time.monotonic() - started < 30.0
    assert completion.content == "from deepseek"
    assert [e.kind for e in errors] == [ErrorKind.CONNECTION]
    assert errors[0].retryable


async def test_connection_refused_without_fallback_names_the_endpoint(monkeypatch):
    endpoint = f"http://127.0.0.1:{_closed_port()}"
    monkeypatch.setenv("OLLAMA_API_BASE", endpoint)

    with pytest.raises(LLMError) as caught:
        await LLM("ollama:llama3.1", retry=FAST).complete(MESSAGES)

    assert caught.value.kind is ErrorKind.CONNECTION
    assert caught.value.message.startswith(f"ollama:llama3.1: could not connect to {endpoint}: ")
    assert "\n" not in caught.value.message and "HTTP 500" not in caught.value.message


async def test_total_time_bounds_retries_before_attempts_run_out(llm_providers):
    # Warm up first: litellm's import and first-call set-up take seconds in a fresh process, and
    # that time would be spent before the first attempt was even recorded.
    llm_providers.reply_text("warm")
    await LLM("gpt-4o-mini").complete(MESSAGES)
    llm_providers.reply_error(500, times=50)
    policy = RetryPolicy(attempts=50, base_delay=0.1, max_delay=0.1, total_timeout=0.3)

    with pytest.raises(LLMError) as caught:
        await LLM("gpt-4o-mini", retry=policy).complete(MESSAGES)

    attempts = llm_providers.requests[1:]
    assert caught.value.kind is ErrorKind.OVERLOADED
    assert 1 < len(attempts) < 10
    # the budget stops new attempts; the last one started may finish a little after it
    assert sum(gaps(attempts)) < 0.3 + 0.2


async def test_attempts_bound_retries(llm_providers):
    llm_providers.reply_error(502, times=10)

    with pytest.raises(LLMError):
        await LLM("deepseek-chat", retry=FAST).complete(MESSAGES)

    assert len(llm_providers.requests) == FAST.attempts


async def test_slow_response_times_out_and_is_retried(llm_providers):
    llm_providers.reply_text("too late", delay=1.0)
    llm_providers.reply_text("in time")
    policy = RetryPolicy(attempts=2, base_delay=0.001, max_delay=0.001, request_timeout=0.3)

    completion = await LLM("gpt-4o-mini", retry=policy).complete(MESSAGES)

    assert completion.content == "in time"
    assert len(llm_providers.requests) == 2


async def test_timeout_is_classified(llm_providers):
    llm_providers.reply_text("too late", delay=1.0)
    policy = RetryPolicy(attempts=1, request_timeout=0.3)

    with pytest.raises(LLMError) as caught:
        await LLM("claude-3-5-haiku-20241022", retry=policy).complete(MESSAGES)

    assert caught.value.kind is ErrorKind.TIMEOUT


def test_backoff_is_jittered_exponential_and_capped():
    policy = RetryPolicy(base_delay=1.0, max_delay=4.0)
    assert all(0.0 <= policy.delay(1) <= 1.0 for _ in range(50))
    assert all(0.0 <= policy.delay(10) <= 4.0 for _ in range(50))
    assert len({policy.delay(3) for _ in range(20)}) > 1
    assert policy.delay(1, retry_after=2.5) == 2.5
    assert policy.delay(1, retry_after=100.0) == 4.0


@pytest.fixture
def hang_up_port() -> Iterator[tuple[int, list[int]]]:
    """A port that accepts connections and closes them at once, counting each one."""
    listener = socket.create_server(("127.0.0.1", 0))
    accepted: list[int] = []

    def serve() -> None:
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            accepted.append(1)
            connection.close()

    threading.Thread(target=serve, daemon=True).start()
    yield listener.getsockname()[1], accepted
    listener.close()


async def test_dropped_connections_are_retried_exactly_attempts_times(hang_up_port, monkeypatch):
    port, accepted = hang_up_port
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("OPENAI_BASE_URL", f"http://127.0.0.1:{port}/v1")

    with pytest.raises(LLMError) as caught:
        await LLM("gpt-4o-mini", retry=FAST).complete(MESSAGES)

    assert caught.value.kind is ErrorKind.CONNECTION
    assert len(accepted) == FAST.attempts
