"""The model facade the agent loop talks to: one non-streamed completion at a time, any provider.

Retries and fallbacks live here rather than in litellm (which is always called with
`num_retries=0`) so that the policy is Wilson's: transient failures are retried with bounded,
jittered backoff; a model that stays unavailable hands over to the next fallback model and the
caller is told; errors a retry cannot fix (bad key, bad request, context overflow) surface at once.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from wilson.llm._litellm import litellm, unlogged
from wilson.llm.errors import LLMError, classify
from wilson.llm.providers import Route, litellm_name, resolve
from wilson.llm.retry import RetryPolicy

FallbackHook = Callable[[str, str, LLMError], None]

# Model families whose tokenizer is o200k_base; everything else is counted with cl100k_base.
_O200K_PREFIXES = ("gpt-4o", "gpt-4.1", "gpt-5", "o1", "o3", "o4", "chatgpt-4o")


@dataclass(frozen=True)
class ToolCall:
    id: str
    name: str
    arguments: str  # raw JSON text as the model sent it; the tool layer validates it


@dataclass
class Completion:
    content: str | None
    tool_calls: list[ToolCall]
    message: dict[str, Any]  # the assistant message to append to history, OpenAI format
    input_tokens: int
    output_tokens: int
    cost: Decimal | None
    model: str


class LLM:
    """A model plus its fallback chain and retry policy."""

    def __init__(self, model: str, fallbacks: Sequence[str] = (), retry: RetryPolicy = RetryPolicy()) -> None:
        self.model = model
        self.fallbacks = tuple(m for m in dict.fromkeys(fallbacks) if m != model)
        self.retry = retry

    def check_keys(self) -> None:
        """Raise LLMError(MISSING_KEY) naming the variable to set, for the model or any fallback."""
        for model in (self.model, *self.fallbacks):
            resolve(model)

    async def complete(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None = None,
        *,
        on_fallback: FallbackHook | None = None,
    ) -> Completion:
        """One assistant turn, from the first model in the chain that answers."""
        self.check_keys()
        chain = (self.model, *self.fallbacks)
        for model, next_model in zip(chain, chain[1:]):
            try:
                return await self._complete_with_retries(resolve(model), messages, tools)
            except LLMError as error:
                if not error.retryable:
                    raise
                if on_fallback is not None:
                    on_fallback(model, next_model, error)
        return await self._complete_with_retries(resolve(chain[-1]), messages, tools)

    async def _complete_with_retries(
        self, route: Route, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None
    ) -> Completion:
        deadline = time.monotonic() + self.retry.total_timeout
        attempt = 1
        while True:
            try:
                return await self._request(route, messages, tools)
            except Exception as exc:  # noqa: BLE001 - every failure is classified, none escapes raw
                error = classify(exc, route.model, route.api_base)
            delay = self.retry.delay(attempt, error.retry_after)
            if not error.retryable or attempt >= self.retry.attempts or time.monotonic() + delay >= deadline:
                raise error
            await asyncio.sleep(delay)
            attempt += 1

    async def _request(
        self, route: Route, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None
    ) -> Completion:
        extra = {"tools": tools} if tools else {}
        with unlogged():
            response = await litellm().acompletion(
                **route.litellm_kwargs(),
                messages=messages,
                stream=False,
                num_retries=0,
                max_retries=0,
                timeout=self.retry.request_timeout,
                **extra,
            )
        return _completion(route.model, response)

    def context_window(self) -> int | None:
        """Input-token limit from litellm's bundled model map, or None for unknown models."""
        try:
            info = litellm().get_model_info(model=litellm_name(self.model))
        except Exception:  # noqa: BLE001 - unknown model (litellm raises a bare Exception) or bad name
            return None
        window = info.get("max_input_tokens") or info.get("max_tokens")
        return int(window) if window else None

    def tokenizer_encoding(self) -> str:
        """The tiktoken encoding that best approximates this model's tokenizer."""
        name = self.model.rsplit("/", 1)[-1].rsplit(":", 1)[-1]
        return "o200k_base" if name.startswith(_O200K_PREFIXES) else "cl100k_base"


def _completion(model: str, response: Any) -> Completion:
    message = response.choices[0].message
    tool_calls = [
        ToolCall(
            id=call.id or f"call_{uuid.uuid4().hex[:24]}",
            name=call.function.name,
            arguments=call.function.arguments or "{}",
        )
        for call in message.tool_calls or []
    ]
    content = message.content or None
    history: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_calls:
        history["tool_calls"] = [
            {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
            for c in tool_calls
        ]
    usage = getattr(response, "usage", None)
    return Completion(
        content=content,
        tool_calls=tool_calls,
        message=history,
        input_tokens=int(getattr(usage, "prompt_tokens", 0) or 0),
        output_tokens=int(getattr(usage, "completion_tokens", 0) or 0),
        cost=_cost(response),
        model=model,
    )


def _cost(response: Any) -> Decimal | None:
    """The call's price when litellm knows the model's rates; None rather than a guess otherwise."""
    try:
        cost = litellm().completion_cost(completion_response=response)
    except Exception:  # noqa: BLE001 - litellm raises a bare Exception for unpriced models
        return None
    try:
        return Decimal(str(cost)) if cost is not None else None
    except InvalidOperation:
        return None
