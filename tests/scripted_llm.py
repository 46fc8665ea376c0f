"""A scripted model server: a real HTTP server that answers like OpenAI, Anthropic, Gemini and Ollama.

Tests drive the real litellm stack against it instead of monkey-patching anything, so what is
exercised is exactly what runs against a provider: request translation, headers, response parsing
and error mapping. No network beyond 127.0.0.1, no real API key.

Fixtures (this module is a pytest plugin; `tests/conftest.py` loads it):

    llm_server      a running `ScriptedLLMServer` on a random free port (one per test).
    llm_providers   the same server with every provider pointed at it: all base-URL variables and
                    dummy keys set (see `point_all_providers_at`). Use this to run
                    `LLM("gpt-4o-mini")` (or any supported model) in agent-loop/tool/skill tests.

    point_all_providers_at(server, monkeypatch)   the same set-up as a function, for own fixtures.
    Keys are `DUMMY_KEYS` (distinct per provider, e.g. OPENAI_API_KEY="sk-test-openai");
    base URLs are `server.url` plus the suffix in `PROVIDER_BASES` (e.g. OPENAI_BASE_URL=.../v1).

Scripting replies (a FIFO queue; each request consumes one reply):

    server.reply_text("answer", usage=(12, 5))
    server.reply_tool_calls([("search_transactions", {"query": "coffee"}), ("get_balance", {})])
    server.reply_error(429, headers={"Retry-After": "0"})
    server.reply_error(500, times=3)                      # three identical failures
    server.reply_error(400, message="This model's maximum context length is 128000 tokens ...")
    server.reply_error(401)
    server.reply(lambda request: Text(f"saw {request.last_tool_result()}"))

Every reply_* method takes `delay=` (seconds to wait before answering, for timeout tests).
A callable reply receives the `RecordedRequest` and returns a `Text`, `ToolCalls` or `Error`
(or a plain `str`, meaning `Text`). Each reply is rendered in the wire protocol the request used:
tool calls become OpenAI `tool_calls`, Anthropic `tool_use` blocks, Gemini `functionCall` parts or
Ollama `message.tool_calls`. OpenAI tool-call ids are `call_1`, `call_2`, ... (Anthropic: `toolu_N`)
numbered across the server's lifetime; Gemini and Ollama send no ids, so litellm makes them up.
Default usage is (10 input, 5 output) tokens.

An empty queue answers 500 with a message saying so, so a test that under-scripts fails loudly.

Inspecting what was sent:

    server.requests             list of `RecordedRequest` (every request, in order)
    request.path, request.headers (lower-cased names), request.body (parsed JSON)
    request.protocol            "openai" | "anthropic" | "gemini" | "ollama"
    request.received_at         time.monotonic() on arrival (measure backoff between requests)
    request.model               model name as sent (Gemini: taken from the URL)
    request.messages            the conversation as sent (Gemini: `contents`)
    request.tool_names          names of the tools offered
    request.last_tool_result()  the text of the last tool result sent back, any protocol
    server.pending              replies still queued
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Union

import pytest


@dataclass(frozen=True)
class Text:
    """An assistant message with text only."""

    text: str
    usage: tuple[int, int] = (10, 5)
    delay: float = 0.0


@dataclass(frozen=True)
class ToolCalls:
    """An assistant message asking for one or more tool calls (optionally with some text)."""

    calls: Sequence[tuple[str, dict[str, Any]]]
    text: str | None = None
    usage: tuple[int, int] = (10, 5)
    delay: float = 0.0


@dataclass(frozen=True)
class Error:
    """An HTTP error in the provider's own error shape."""

    status: int
    message: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


Reply = Union[Text, ToolCalls, Error]
ReplySource = Union[Reply, Callable[["RecordedRequest"], Union[Reply, str]]]
_NumberedCalls = list[tuple[int, tuple[str, dict[str, Any]]]]  # (id number, (tool name, arguments))

_DEFAULT_ERROR_MESSAGES = {
    400: "Invalid request",
    401: "Invalid API key provided",
    403: "Permission denied",
    404: "Model not found",
    429: "Rate limit reached, please retry",
    500: "Internal server error",
    502: "Bad gateway",
    503: "Service unavailable",
    529: "Overloaded",
}
_ANTHROPIC_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    429: "rate_limit_error",
    529: "overloaded_error",
}
_GEMINI_STATUSES = {
    400: "INVALID_ARGUMENT",
    401: "UNAUTHENTICATED",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    429: "RESOURCE_EXHAUSTED",
    503: "UNAVAILABLE",
}


@dataclass
class RecordedRequest:
    """One request as the server received it."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any
    protocol: str | None
    received_at: float = field(default_factory=time.monotonic)  # for asserting waits between retries

    @property
    def model(self) -> str | None:
        if self.protocol == "gemini":
            match = re.search(r"/models/([^/:]+):", self.path)
            return match.group(1) if match else None
        return self.body.get("model") if isinstance(self.body, dict) else None

    @property
    def messages(self) -> list[dict[str, Any]]:
        key = "contents" if self.protocol == "gemini" else "messages"
        return list(self.body.get(key, [])) if isinstance(self.body, dict) else []

    @property
    def tool_names(self) -> list[str]:
        tools = self.body.get("tools", []) if isinstance(self.body, dict) else []
        names: list[str] = []
        for tool in tools:
            if "function" in tool:
                names.append(tool["function"]["name"])
            elif "functionDeclarations" in tool or "function_declarations" in tool:
                declarations = tool.get("functionDeclarations") or tool.get("function_declarations")
                names.extend(d["name"] for d in declarations)
            elif "name" in tool:
                names.append(tool["name"])
        return names

    def last_tool_result(self) -> str | None:
        """Text of the last tool result in the conversation, whatever the protocol."""
        results = [text for message in self.messages for text in _tool_results(message)]
        return results[-1] if results else None


def _tool_results(message: dict[str, Any]) -> Iterator[str]:
    if message.get("role") == "tool":
        yield _as_text(message.get("content"))
    content = message.get("content")
    if isinstance(content, list):
        for block in content:
            if isinstance(block, dict) and block.get("type") == "tool_result":
                yield _as_text(block.get("content"))
    for part in message.get("parts", []) or []:
        response = part.get("functionResponse") or part.get("function_response")  # Gemini accepts both
        if response is not None:
            yield json.dumps(response.get("response"))


def _as_text(content: Any) -> str:
    if isinstance(content, list):
        return "".join(b.get("text", "") for b in content if isinstance(b, dict))
    return "" if content is None else str(content)


def _protocol(path: str) -> str | None:
    path = path.split("?", 1)[0]
    if path.endswith("/chat/completions"):
        return "openai"
    if path.endswith("/messages"):
        return "anthropic"
    if ":generateContent" in path:
        return "gemini"
    if path.endswith("/api/chat"):
        return "ollama"
    return None


class ScriptedLLMServer:
    """The server and its reply queue; see the module docstring for the API."""

    def __init__(self) -> None:
        self.requests: list[RecordedRequest] = []
        self._queue: deque[ReplySource] = deque()
        self._lock = threading.Lock()
        self._call_ids = 0
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.01,), daemon=True)

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def pending(self) -> int:
        with self._lock:
            return len(self._queue)

    def start(self) -> ScriptedLLMServer:
        self._thread.start()
        return self

    def close(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def reply(self, source: ReplySource) -> None:
        """Queue a reply, or a callable computing one from the request."""
        with self._lock:
            self._queue.append(source)

    def reply_text(self, text: str, *, usage: tuple[int, int] = (10, 5), delay: float = 0.0) -> None:
        self.reply(Text(text, usage, delay))

    def reply_tool_calls(
        self,
        calls: Sequence[tuple[str, dict[str, Any]]],
        *,
        text: str | None = None,
        usage: tuple[int, int] = (10, 5),
        delay: float = 0.0,
    ) -> None:
        self.reply(ToolCalls(list(calls), text, usage, delay))

    def reply_error(
        self,
        status: int,
        *,
        message: str | None = None,
        headers: dict[str, str] | None = None,
        times: int = 1,
        delay: float = 0.0,
    ) -> None:
        for _ in range(times):
            self.reply(Error(status, message, dict(headers or {}), delay))

    def _record(self, request: RecordedRequest) -> None:
        with self._lock:
            self.requests.append(request)

    def _next_reply(self, request: RecordedRequest) -> Reply:
        self._record(request)
        with self._lock:
            source = self._queue.popleft() if self._queue else None
        if source is None:
            return Error(500, f"scripted_llm: no reply scripted for {request.method} {request.path} "
                              f"(model {request.model}); the queue is empty")
        if not callable(source):
            return source
        try:
            reply = source(request)
        except Exception as exc:  # noqa: BLE001 - a broken test callable must fail the test, not hang up
            return Error(500, f"scripted_llm: reply callable raised {type(exc).__name__}: {exc}")
        return Text(reply) if isinstance(reply, str) else reply

    def _next_call_id(self) -> int:
        with self._lock:
            self._call_ids += 1
            return self._call_ids

    def render(self, request: RecordedRequest, reply: Reply) -> tuple[int, dict[str, str], dict[str, Any]]:
        """The reply as (status, headers, JSON body) in the request's protocol."""
        protocol = request.protocol or "openai"
        if isinstance(reply, Error):
            message = reply.message or _DEFAULT_ERROR_MESSAGES.get(reply.status, f"HTTP {reply.status}")
            return reply.status, reply.headers, _ERROR_RENDERERS[protocol](reply.status, message)
        calls = list(reply.calls) if isinstance(reply, ToolCalls) else []
        ids = [self._next_call_id() for _ in calls]
        return 200, {}, _SUCCESS_RENDERERS[protocol](request, reply.text, list(zip(ids, calls)), reply.usage)


def _openai_success(
    request: RecordedRequest, text: str | None, calls: _NumberedCalls, usage: tuple[int, int]
) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": text}
    if calls:
        message["tool_calls"] = [
            {"id": f"call_{n}", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
            for n, (name, args) in calls
        ]
    return {
        "id": "chatcmpl-scripted",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": request.model,
        "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if calls else "stop"}],
        "usage": {"prompt_tokens": usage[0], "completion_tokens": usage[1], "total_tokens": sum(usage)},
    }


def _anthropic_success(
    request: RecordedRequest, text: str | None, calls: _NumberedCalls, usage: tuple[int, int]
) -> dict[str, Any]:
    content: list[dict[str, Any]] = [{"type": "text", "text": text}] if text is not None else []
    content += [{"type": "tool_use", "id": f"toolu_{n}", "name": name, "input": args} for n, (name, args) in calls]
    return {
        "id": "msg_scripted",
        "type": "message",
        "role": "assistant",
        "model": request.model,
        "content": content,
        "stop_reason": "tool_use" if calls else "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": usage[0], "output_tokens": usage[1]},
    }


def _gemini_success(
    request: RecordedRequest, text: str | None, calls: _NumberedCalls, usage: tuple[int, int]
) -> dict[str, Any]:
    parts: list[dict[str, Any]] = [{"text": text}] if text is not None else []
    parts += [{"functionCall": {"name": name, "args": args}} for _, (name, args) in calls]
    return {
        "candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {
            "promptTokenCount": usage[0],
            "candidatesTokenCount": usage[1],
            "totalTokenCount": sum(usage),
        },
        "modelVersion": request.model,
    }


def _ollama_success(
    request: RecordedRequest, text: str | None, calls: _NumberedCalls, usage: tuple[int, int]
) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": text or ""}
    if calls:
        message["tool_calls"] = [{"function": {"name": name, "arguments": args}} for _, (name, args) in calls]
    return {
        "model": request.model,
        "created_at": "2024-01-01T00:00:00Z",
        "message": message,
        "done": True,
        "done_reason": "stop",
        "prompt_eval_count": usage[0],
        "eval_count": usage[1],
    }


_SUCCESS_RENDERERS = {
    "openai": _openai_success,
    "anthropic": _anthropic_success,
    "gemini": _gemini_success,
    "ollama": _ollama_success,
}

_ERROR_RENDERERS: dict[str, Callable[[int, str], dict[str, Any]]] = {
    "openai": lambda status, message: {
        "error": {
            "message": message,
            "type": "invalid_request_error" if status < 500 else "server_error",
            "param": None,
            "code": "context_length_exceeded" if "context length" in message else None,
        }
    },
    "anthropic": lambda status, message: {
        "type": "error",
        "error": {"type": _ANTHROPIC_ERROR_TYPES.get(status, "api_error"), "message": message},
    },
    "gemini": lambda status, message: {
        "error": {"code": status, "message": message, "status": _GEMINI_STATUSES.get(status, "INTERNAL")}
    },
    "ollama": lambda status, message: {"error": message},
}


def _handler_for(server: ScriptedLLMServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            try:
                body = json.loads(raw) if raw else None
            except json.JSONDecodeError:
                body = raw.decode("utf-8", "replace")
            request = RecordedRequest(
                method="POST",
                path=self.path,
                headers={k.lower(): v for k, v in self.headers.items()},
                body=body,
                protocol=_protocol(self.path),
            )
            if request.protocol is None:
                server._record(request)
                self._send(404, {}, {"error": {"message": f"scripted_llm: unknown endpoint {self.path}"}})
                return
            reply = server._next_reply(request)
            if reply.delay:
                time.sleep(reply.delay)
            self._send(*server.render(request, reply))

        def _send(self, status: int, headers: dict[str, str], payload: dict[str, Any]) -> None:
            data = json.dumps(payload).encode()
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (a timeout test); nothing to answer

        def log_message(self, format: str, *args: Any) -> None:
            """Keep test output clean."""

    return Handler


# Where each provider's base-URL variable must point so litellm's request lands on this server,
# and the dummy key each provider gets (distinct, so tests can assert the right header carries it).
PROVIDER_BASES = {
    "OPENAI_BASE_URL": "/v1",
    "ANTHROPIC_BASE_URL": "",
    "GEMINI_API_BASE": "/v1beta",  # litellm appends /models/{model}:generateContent
    "XAI_API_BASE": "/v1",
    "MOONSHOT_API_BASE": "/v1",
    "DEEPSEEK_API_BASE": "/v1",
    "OPENROUTER_API_BASE": "/v1",
    "LITELLM_PROXY_API_BASE": "/v1",
    "OLLAMA_API_BASE": "",
}
DUMMY_KEYS = {
    "OPENAI_API_KEY": "sk-test-openai",
    "ANTHROPIC_API_KEY": "sk-ant-test",
    "GEMINI_API_KEY": "test-gemini-key",
    "XAI_API_KEY": "xai-test",
    "MOONSHOT_API_KEY": "sk-test-moonshot",
    "DEEPSEEK_API_KEY": "sk-test-deepseek",
    "OPENROUTER_API_KEY": "sk-or-test",
    "LITELLM_API_KEY": "sk-test-litellm",
}


def point_all_providers_at(server: ScriptedLLMServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """Redirect every provider Wilson supports to `server` and give each a dummy key."""
    for variable, suffix in PROVIDER_BASES.items():
        monkeypatch.setenv(variable, server.url + suffix)
    for variable, key in DUMMY_KEYS.items():
        monkeypatch.setenv(variable, key)


@pytest.fixture
def llm_server() -> Iterator[ScriptedLLMServer]:
    server = ScriptedLLMServer().start()
    try:
        yield server
    finally:
        server.close()


@pytest.fixture
def llm_providers(llm_server: ScriptedLLMServer, monkeypatch: pytest.MonkeyPatch) -> ScriptedLLMServer:
    point_all_providers_at(llm_server, monkeypatch)
    return llm_server
