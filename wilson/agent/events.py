"""What an agent run reports, as it happens: typed, immutable events with a JSON form.

The TUI and `wilson ask` render these; neither ever sees the model's raw messages. Every event
has a `type` string (the JSON discriminator) and `to_dict()` gives a JSON-ready dict in which
Decimals become strings, so amounts and costs never pass through a float.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from datetime import date, datetime
from decimal import Decimal
from typing import Any, ClassVar, Union


def jsonable(value: Any) -> Any:
    """A JSON-ready copy: Decimal and dates as strings, tuples as lists, nested containers walked."""
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, (date, datetime)):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value


@dataclass(frozen=True)
class _Event:
    type: ClassVar[str]

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, **{f.name: jsonable(getattr(self, f.name)) for f in fields(self)}}


@dataclass(frozen=True)
class Thinking(_Event):
    """Text the model wrote beside its tool calls (its reasoning out loud), not the answer."""

    type: ClassVar[str] = "thinking"
    text: str


@dataclass(frozen=True)
class ToolStart(_Event):
    type: ClassVar[str] = "tool_start"
    id: str
    tool: str
    args: dict[str, Any]


@dataclass(frozen=True)
class ToolEnd(_Event):
    """A tool finished. `summary` is one short line for a UI; `result` is what the model saw."""

    type: ClassVar[str] = "tool_end"
    id: str
    tool: str
    duration_ms: float
    summary: str
    result: dict[str, Any]
    cached: bool = False


@dataclass(frozen=True)
class ToolError(_Event):
    """A tool call came back as an error; the model hears about it and the run goes on."""

    type: ClassVar[str] = "tool_error"
    id: str
    tool: str
    error: str
    recoverable: bool


@dataclass(frozen=True)
class ToolLimit(_Event):
    """A soft limit was hit (a tool called often, or a call that worked repeated in other words); the model is warned."""

    type: ClassVar[str] = "tool_limit"
    tool: str
    message: str


@dataclass(frozen=True)
class ContextCleared(_Event):
    """Old tool results were dropped from the prompt to stay under the token budget."""

    type: ClassVar[str] = "context_cleared"
    cleared: int
    kept: int


@dataclass(frozen=True)
class ModelFallback(_Event):
    type: ClassVar[str] = "model_fallback"
    from_model: str
    to_model: str
    reason: str


@dataclass(frozen=True)
class ApprovalNeeded(_Event):
    """A tool that changes data is waiting for the caller's approval callback."""

    type: ClassVar[str] = "approval_needed"
    id: str
    tool: str
    args: dict[str, Any]


@dataclass(frozen=True)
class Answer(_Event):
    """The final answer. `unbacked` lists, as written, the money figures and percentages in it that
    no tool result of the run (nor the user, nor the ledger summary in the prompt) contains; a UI
    should show them beside the answer, e.g. "figures not found in any tool result: $12,345.67"."""

    type: ClassVar[str] = "answer"
    text: str
    unbacked: tuple[str, ...] = ()


def unbacked_warning(figures: tuple[str, ...]) -> str:
    """The line every UI shows under an answer whose figures no tool result backs."""
    return f"⚠ figures not found in any tool result, check them: {', '.join(figures)}"


@dataclass(frozen=True)
class Done(_Event):
    """The last event of every run, answered, failed or cancelled. `cost` is None when unknown."""

    type: ClassVar[str] = "done"
    answer: str
    iterations: int
    tool_calls: int
    input_tokens: int
    output_tokens: int
    cost: Decimal | None
    duration_ms: float
    cancelled: bool
    model: str
    error: str | None = None
    scratchpad: str | None = field(default=None)


Event = Union[
    Thinking, ToolStart, ToolEnd, ToolError, ToolLimit, ContextCleared, ModelFallback, ApprovalNeeded, Answer, Done
]

__all__ = [
    "Answer",
    "ApprovalNeeded",
    "ContextCleared",
    "Done",
    "Event",
    "ModelFallback",
    "Thinking",
    "ToolEnd",
    "ToolError",
    "ToolLimit",
    "ToolStart",
    "jsonable",
]
