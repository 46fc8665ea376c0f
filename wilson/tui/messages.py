"""Messages workers post back to widgets: workers never touch a widget themselves."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.message import Message

if TYPE_CHECKING:
    from wilson.agent.events import Event


class ToolFinished(Message):
    """A tool call made in a worker came back; `result` may be an `{"error": ...}` result."""

    def __init__(self, tool: str, args: dict[str, Any], result: dict[str, Any]) -> None:
        super().__init__()
        self.tool, self.args, self.result = tool, args, result

    @property
    def error(self) -> str | None:
        return error_message(self.tool, self.result)


class TransactionsLoaded(ToolFinished):
    """search_transactions answered for the table (its rows, pending ones included)."""


class TotalsLoaded(ToolFinished):
    """search_transactions answered for the status line: count and sum of posted rows only."""


class BudgetsLoaded(ToolFinished):
    """check_budgets answered for the budgets view."""


class BalancesLoaded(ToolFinished):
    """account_balances answered, for the balances view and the account filter."""


class CategoriesLoaded(ToolFinished):
    """A category list answered for the category picker."""


class LedgerChanged(ToolFinished):
    """A tool that changes data finished (an edit, a delete, a budget): views reload."""


class AgentEvent(Message):
    """One event of a running question, in the order the agent reported it."""

    def __init__(self, event: "Event") -> None:
        super().__init__()
        self.event = event


class AgentStopped(Message):
    """A question ended without its own `Done` event: the agent could not start, or it crashed."""

    def __init__(self, reason: str) -> None:
        super().__init__()
        self.reason = reason


def error_message(tool: str, result: dict[str, Any]) -> str | None:
    """One line for the user from an error result (with the tool's suggestions), else None."""
    error = result.get("error") if isinstance(result, dict) else None
    if error is None:
        return None
    if not isinstance(error, dict):
        return f"{tool}: {error}"
    if error.get("type") == "unknown_tool":
        return f"{tool} is not available in this version of Wilson"
    message = f"{tool}: {error.get('message', 'failed')}"
    suggestions = error.get("suggestions")
    if suggestions:
        message += f" (did you mean {', '.join(map(str, suggestions))}?)"
    return message


def result_notes(result: dict[str, Any]) -> list[str]:
    """What a successful tool wants the user told: its `note` and any `warnings`."""
    note, warnings = result.get("note"), result.get("warnings")
    return ([str(note)] if note else []) + ([str(w) for w in warnings] if isinstance(warnings, list) else [])
