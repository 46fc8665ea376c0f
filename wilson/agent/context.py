"""Keeping a run's prompt under its token budget by dropping old tool results, oldest first.

Only the in-memory messages sent to the model lose anything: the scratchpad keeps every result in
full. A dropped result is replaced by a placeholder naming the tool and its arguments, so the model
knows what it had looked at and can call the tool again if it really needs the numbers back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from wilson.agent import events as ev
from wilson.agent.tokens import TokenCounter

KEEP_RECENT = 5
WINDOW_SHARE = 0.8  # never plan to fill more than this share of the model's context window


def token_limit(token_budget: int, context_window: int | None) -> int:
    """The configured budget, capped at 80% of the model's window when the window is known."""
    if context_window:
        return min(token_budget, int(context_window * WINDOW_SHARE))
    return token_budget


@dataclass(frozen=True)
class Cleared:
    cleared: int
    kept: int
    tokens: int  # the request's size after clearing

    def event(self) -> ev.ContextCleared:
        return ev.ContextCleared(cleared=self.cleared, kept=self.kept)


@dataclass
class ContextBudget:
    """One run's budget. `note_tool` labels each result so a placeholder can say what it was."""

    limit: int
    counter: TokenCounter
    labels: dict[str, str] = field(default_factory=dict)
    dropped: set[str] = field(default_factory=set)

    def note_tool(self, call_id: str, tool: str, args: str) -> None:
        self.labels[call_id] = f"{tool} {args}"

    def within(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None) -> bool:
        """Whether the request fits; the tokenizer is only consulted when the byte ceiling doesn't."""
        counter = self.counter
        return counter.upper_bound(messages, tools) <= self.limit or counter.request(messages, tools) <= self.limit

    def fit(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None, keep: int | None = None) -> Cleared | None:
        """Clear old tool results in place if the request is over the limit (or always, given `keep`)."""
        if keep is None:
            if self.within(messages, tools):
                return None
            keep = KEEP_RECENT
        live = [i for i, m in enumerate(messages) if m.get("role") == "tool" and m.get("tool_call_id") not in self.dropped]
        doomed = live[: max(0, len(live) - keep)]
        if not doomed:
            return None
        for index in doomed:
            call_id = messages[index].get("tool_call_id")
            label = self.labels.get(call_id, "tool result")
            messages[index] = {
                "role": "tool",
                "tool_call_id": call_id,
                "content": f"[cleared: {label} — result dropped to save context]",
            }
            self.dropped.add(call_id)
        return Cleared(cleared=len(doomed), kept=len(live) - len(doomed), tokens=self.counter.request(messages, tools))
