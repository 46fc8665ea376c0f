"""Which provider a model name belongs to, how litellm must be called for it, and which key it needs.

Wilson's model names are what users type (`claude-sonnet-4-5`, `ollama:llama3.1`); litellm wants
`provider/model`. The table below is the single place that knows the mapping. Names matching no
prefix are handed to litellm exactly as written (`mistral/mistral-large-latest`), unchecked.

Keys and base URLs are read here and passed to litellm explicitly, so the key Wilson checked before
the request is the key that is sent (litellm's own lookup differs: it prefers GOOGLE_API_KEY for
Gemini, and for the LiteLLM proxy falls back to OPENAI_API_KEY, which would leak that key).

A base-URL variable is the prefix litellm appends the endpoint to (checked against litellm 1.106.0):
OpenAI, xAI, Moonshot, DeepSeek, OpenRouter and the LiteLLM proxy append `/chat/completions`, so
theirs end in `/v1` (`https://api.x.ai/v1`); Anthropic appends `/v1/messages` (`https://api.anthropic.com`);
Gemini appends `/models/{model}:generateContent`, so its base ends in `/v1beta`
(`https://generativelanguage.googleapis.com/v1beta`); Ollama appends `/api/chat`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from wilson.llm.errors import ErrorKind, LLMError

# Sent to a LiteLLM proxy that needs no key; keeps litellm from sending OPENAI_API_KEY instead.
_NO_KEY = "wilson-no-key"


@dataclass(frozen=True)
class Provider:
    """One row of the table. Prefixes ending in ':' are Wilson's own and are stripped."""

    name: str
    prefixes: tuple[str, ...]
    route: str
    key_vars: tuple[str, ...]
    base_var: str
    default_base: str | None = None
    key_optional: bool = False


PROVIDERS: tuple[Provider, ...] = (
    Provider("OpenAI", ("gpt-", "o1", "o3", "o4"), "openai/", ("OPENAI_API_KEY",), "OPENAI_BASE_URL"),
    Provider("Anthropic", ("claude-",), "anthropic/", ("ANTHROPIC_API_KEY",), "ANTHROPIC_BASE_URL"),
    Provider("Google Gemini", ("gemini-",), "gemini/", ("GEMINI_API_KEY", "GOOGLE_API_KEY"), "GEMINI_API_BASE"),
    Provider("xAI", ("grok-",), "xai/", ("XAI_API_KEY",), "XAI_API_BASE"),
    Provider("Moonshot", ("kimi-", "moonshot-"), "moonshot/", ("MOONSHOT_API_KEY",), "MOONSHOT_API_BASE"),
    Provider("DeepSeek", ("deepseek-",), "deepseek/", ("DEEPSEEK_API_KEY",), "DEEPSEEK_API_BASE"),
    Provider("OpenRouter", ("openrouter:",), "openrouter/", ("OPENROUTER_API_KEY",), "OPENROUTER_API_BASE"),
    Provider(
        "LiteLLM proxy",
        ("litellm:",),
        "litellm_proxy/",
        ("LITELLM_API_KEY", "LITELLM_PROXY_API_KEY"),
        "LITELLM_PROXY_API_BASE",
        default_base="http://localhost:4000",
        key_optional=True,
    ),
    Provider(
        "Ollama",
        ("ollama:",),
        "ollama_chat/",
        (),
        "OLLAMA_API_BASE",
        default_base="http://localhost:11434",
        key_optional=True,
    ),
)


@dataclass(frozen=True)
class Route:
    """Everything litellm needs to reach one model."""

    model: str
    litellm_model: str
    provider: Provider | None
    api_key: str | None
    api_base: str | None

    def litellm_kwargs(self) -> dict[str, str]:
        kwargs = {"model": self.litellm_model}
        if self.api_key is not None:
            kwargs["api_key"] = self.api_key
        if self.api_base is not None:
            kwargs["api_base"] = self.api_base
        return kwargs


def provider_for(model: str) -> Provider | None:
    return next((p for p in PROVIDERS if model.startswith(p.prefixes)), None)


def litellm_name(model: str) -> str:
    """The name litellm knows `model` by (`ollama:llama3.1` -> `ollama_chat/llama3.1`); no key needed."""
    provider = provider_for(model)
    if provider is None:
        return model
    prefix = next(p for p in provider.prefixes if model.startswith(p))
    name = model.removeprefix(prefix) if prefix.endswith(":") else model
    if not name:
        raise LLMError(ErrorKind.BAD_REQUEST, model, f"No model name after '{prefix}' (e.g. {prefix}my-model).")
    return provider.route + name


def resolve(model: str) -> Route:
    """The route to `model`; raises LLMError(MISSING_KEY) if its provider's key is not set."""
    provider = provider_for(model)
    if provider is None:
        return Route(model, model, None, None, None)
    api_base = _env(provider.base_var) or provider.default_base
    return Route(model, litellm_name(model), provider, _api_key(model, provider), api_base)


def _api_key(model: str, provider: Provider) -> str | None:
    key = next((value for var in provider.key_vars if (value := _env(var))), None)
    if key is not None or not provider.key_vars:
        return key
    if provider.key_optional:
        return _NO_KEY
    also = f" (or {' or '.join(provider.key_vars[1:])})" if len(provider.key_vars) > 1 else ""
    raise LLMError(
        ErrorKind.MISSING_KEY,
        model,
        f"No {provider.name} API key: set {provider.key_vars[0]}{also} to use {model}.",
    )


def _env(name: str) -> str | None:
    return os.environ.get(name, "").strip() or None
