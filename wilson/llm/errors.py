"""One error type for every provider failure, classified so callers decide by kind, not by message.

litellm maps each provider's errors onto its own exception classes; those classes are matched by
name here so that this module does not import litellm (importing `wilson.llm` must stay cheap).
"""

from __future__ import annotations

import re
from email.utils import parsedate_to_datetime
from enum import Enum
from time import time


class ErrorKind(str, Enum):
    RATE_LIMIT = "rate_limit"
    TIMEOUT = "timeout"
    OVERLOADED = "overloaded"
    CONNECTION = "connection"
    CONTEXT_OVERFLOW = "context_overflow"
    AUTH = "auth"
    BAD_REQUEST = "bad_request"
    MISSING_KEY = "missing_key"
    UNKNOWN = "unknown"


TRANSIENT = frozenset({ErrorKind.RATE_LIMIT, ErrorKind.TIMEOUT, ErrorKind.OVERLOADED, ErrorKind.CONNECTION})

_SUMMARIES = {
    ErrorKind.RATE_LIMIT: "rate limited",
    ErrorKind.TIMEOUT: "request timed out",
    ErrorKind.OVERLOADED: "provider overloaded or failing",
    ErrorKind.CONNECTION: "could not connect",
    ErrorKind.CONTEXT_OVERFLOW: "conversation is too long for the model's context window",
    ErrorKind.AUTH: "API key rejected",
    ErrorKind.BAD_REQUEST: "request rejected",
    ErrorKind.UNKNOWN: "unexpected error",
}

# Exception class names that settle the kind wherever they appear in the exception chain: they win
# over the HTTP status litellm attaches (it files a refused connection under a made-up 500 for
# OpenAI and Anthropic, keeping the transport error only as the cause). Timeouts come first
# because openai's APITimeoutError is a subclass of its APIConnectionError.
_DECISIVE_CLASSES: tuple[tuple[str, ErrorKind], ...] = (
    ("ContextWindowExceededError", ErrorKind.CONTEXT_OVERFLOW),
    ("Timeout", ErrorKind.TIMEOUT),
    ("APITimeoutError", ErrorKind.TIMEOUT),
    ("TimeoutError", ErrorKind.TIMEOUT),
    ("TimeoutException", ErrorKind.TIMEOUT),
    ("ServerTimeoutError", ErrorKind.TIMEOUT),
    ("APIConnectionError", ErrorKind.CONNECTION),
    ("ConnectError", ErrorKind.CONNECTION),
    ("ClientConnectorError", ErrorKind.CONNECTION),
    ("ServerDisconnectedError", ErrorKind.CONNECTION),
    ("ConnectionError", ErrorKind.CONNECTION),
)
# The rest only count when the status says nothing: litellm sometimes files a provider's 401
# under BadRequestError.
_OTHER_CLASSES: tuple[tuple[str, ErrorKind], ...] = (
    ("RateLimitError", ErrorKind.RATE_LIMIT),
    ("AuthenticationError", ErrorKind.AUTH),
    ("PermissionDeniedError", ErrorKind.AUTH),
    ("ServiceUnavailableError", ErrorKind.OVERLOADED),
    ("InternalServerError", ErrorKind.OVERLOADED),
    ("BadGatewayError", ErrorKind.OVERLOADED),
    ("BadRequestError", ErrorKind.BAD_REQUEST),
    ("NotFoundError", ErrorKind.BAD_REQUEST),
    ("UnprocessableEntityError", ErrorKind.BAD_REQUEST),
)
_BY_STATUS = {
    400: ErrorKind.BAD_REQUEST,
    401: ErrorKind.AUTH,
    403: ErrorKind.AUTH,
    404: ErrorKind.BAD_REQUEST,
    408: ErrorKind.TIMEOUT,
    413: ErrorKind.CONTEXT_OVERFLOW,
    422: ErrorKind.BAD_REQUEST,
    429: ErrorKind.RATE_LIMIT,
}

# How providers word "too many tokens" when they only send a 400.
_CONTEXT_WORDING = re.compile(
    r"context.length|context.window|maximum context|prompt is too long|too many tokens|input is too long"
    r"|exceeds the (?:maximum|context)",
    re.IGNORECASE,
)
_LITELLM_PREFIX = re.compile(r"^(?:litellm\.\w+:\s*)?(?:\w+Error:\s*)?(?:\w+Exception\s*-\s*)?")


class LLMError(Exception):
    """A failed model call: `kind` says what happened, `message` is one line fit for the user."""

    def __init__(
        self,
        kind: ErrorKind,
        model: str,
        message: str,
        *,
        status: int | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.model = model
        self.message = message
        self.status = status
        self.retry_after = retry_after

    @property
    def retryable(self) -> bool:
        return self.kind in TRANSIENT


def classify(exc: BaseException, model: str, endpoint: str | None = None) -> LLMError:
    """Turn whatever litellm (or the transport under it) raised into an LLMError.

    `endpoint` is the base URL the request went to, named in connection errors so the user can
    tell a stopped local server from a wrong `*_API_BASE`.
    """
    if isinstance(exc, LLMError):
        return exc
    status = _status(exc)
    kind = _kind(exc, status)
    if kind in (ErrorKind.CONNECTION, ErrorKind.TIMEOUT):
        status = None  # litellm attaches a made-up 500 or 408 to transport failures
    detail = _one_line(getattr(exc, "message", None) or str(exc))
    if kind is ErrorKind.BAD_REQUEST and _CONTEXT_WORDING.search(detail):
        kind = ErrorKind.CONTEXT_OVERFLOW
    summary = _SUMMARIES[kind]
    if kind is ErrorKind.CONNECTION and endpoint:
        summary += f" to {endpoint}"
    code = f" (HTTP {status})" if status else ""
    message = f"{model}: {summary}{code}" + (f": {detail}" if detail else "")
    return LLMError(kind, model, message, status=status, retry_after=_retry_after(exc))


def _kind(exc: BaseException, status: int | None) -> ErrorKind:
    chain = _chain_class_names(exc)
    decisive = next((kind for name, kind in _DECISIVE_CLASSES if name in chain), None)
    if decisive is not None:
        return decisive
    if status is not None and (status in _BY_STATUS or status >= 500):
        return _BY_STATUS.get(status, ErrorKind.OVERLOADED)
    names = {cls.__name__ for cls in type(exc).__mro__}
    return next((kind for name, kind in _OTHER_CLASSES if name in names), ErrorKind.UNKNOWN)


def _chain_class_names(exc: BaseException) -> set[str]:
    """Class names (with bases) of `exc` and every exception it was raised from or during."""
    names: set[str] = set()
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        names.update(cls.__name__ for cls in type(current).__mro__)
        current = current.__cause__ or current.__context__
    return names


def _status(exc: BaseException) -> int | None:
    status = getattr(exc, "status_code", None)
    return status if isinstance(status, int) and status >= 400 else None


def _retry_after(exc: BaseException) -> float | None:
    """Seconds the provider asked us to wait, from Retry-After (seconds or HTTP date) or retry-after-ms."""
    headers = _headers(exc)
    if "retry-after-ms" in headers:
        try:
            return max(0.0, float(headers["retry-after-ms"]) / 1000)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        return max(0.0, parsedate_to_datetime(value).timestamp() - time())
    except (TypeError, ValueError):
        return None


def _headers(exc: BaseException) -> dict[str, str]:
    sources = (getattr(exc, "litellm_response_headers", None), getattr(getattr(exc, "response", None), "headers", None))
    merged: dict[str, str] = {}
    for source in sources:
        try:
            merged.update({str(k).lower(): str(v) for k, v in dict(source or {}).items()})
        except (TypeError, ValueError):
            continue
    return merged


def _one_line(text: str, limit: int = 240) -> str:
    line = " ".join(str(text).split())
    line = _LITELLM_PREFIX.sub("", line).strip()
    return line if len(line) <= limit else line[: limit - 1] + "…"
