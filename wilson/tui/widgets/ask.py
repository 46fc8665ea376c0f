"""The ask panel: a question box and a live log of the agent's run, ending in a Markdown answer."""

from __future__ import annotations

import asyncio
import json
from decimal import Decimal
from typing import Any

from textual import work
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widget import Widget
from textual.timer import Timer
from textual.widgets import Input, Markdown, Static
from textual.worker import Worker

from wilson.agent import events as ev
from wilson.tui.messages import AgentEvent, AgentStopped
from wilson.tui.screens.confirm import ConfirmModal
from wilson.tui.session import AgentSession, Question, parse_question

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"


class ToolLine(Static):
    """One tool call: a spinner while it runs, then ✓ (or ✗) with its duration and summary."""

    def __init__(self, tool: str, args: dict[str, Any]) -> None:
        super().__init__(classes="tool-line running", markup=False)
        self.tool, self.args_text, self._frame = tool, _short_args(args), 0
        self._timer: Timer | None = None
        self._spin()

    def on_mount(self) -> None:
        if self.has_class("running"):  # it may have finished before it was mounted
            self._timer = self.set_interval(0.1, self._spin)

    def _spin(self) -> None:
        self._frame += 1
        self.update(f"{SPINNER[self._frame % len(SPINNER)]} {self.tool}({self.args_text})")

    def finish(self, duration_ms: float, summary: str, cached: bool) -> None:
        self._settle("done", f"✓ {self.tool} {_duration(duration_ms)}{' (cached)' if cached else ''} — {summary}")

    def fail(self, error: str) -> None:
        self._settle("failed", f"✗ {self.tool} — {error}")

    def stop(self) -> None:
        if self.has_class("running"):
            self._settle("failed", f"■ {self.tool} — stopped")

    def _settle(self, state: str, text: str) -> None:
        if self._timer is not None:
            self._timer.stop()
        self.remove_class("running")
        self.add_class(state)
        self.update(text)


class AskPanel(Vertical):
    """Runs one question at a time in a worker; the worker only posts `AgentEvent`s back here."""

    def __init__(self, model: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.session = AgentSession(model, self._approve)
        self.tool_lines: dict[str, ToolLine] = {}
        self.changed_data = False
        self._worker: Worker[None] | None = None

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="ask-log"):
            yield Static("Ask about your money. /skill NAME question runs a skill. Esc stops.", classes="hint")
        yield Input(placeholder="Ask Wilson…", id="ask-input")

    def on_unmount(self) -> None:
        self.session.close()

    @property
    def running(self) -> bool:
        return self._worker is not None and self._worker.is_running

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id != "ask-input":
            return
        event.stop()
        if not event.value.strip():
            return
        if self.running:
            self.notify("A question is still running; Esc stops it", severity="warning")
            return
        try:
            question = parse_question(event.value)
        except ValueError as exc:
            self.notify(str(exc), severity="warning")
            return
        event.input.clear()
        self.tool_lines.clear()
        self.changed_data = False
        skill = f"[{question.skill}] " if question.skill else ""
        self._log(Static(f"› {skill}{question.text}", classes="question", markup=False))
        self._worker = self._run(question)

    def cancel(self) -> None:
        """Esc: stop the run now; the loop lets a write under way finish, then records the cancellation."""
        if self.running and self._worker is not None:
            self._worker.cancel()
            for line in self.tool_lines.values():
                line.stop()
            self._log(Static("■ stopped", classes="notice"))
            self._after_run()

    @work(group="agent", exclusive=True, exit_on_error=False)
    async def _run(self, question: Question) -> None:
        try:
            async for event in self.session.ask(question):
                self.post_message(AgentEvent(event))
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # no model configured, provider down: a line in the log, not a crash
            self.post_message(AgentStopped(f"{type(exc).__name__}: {exc}"))

    async def _approve(self, tool: str, args: dict[str, Any]) -> bool:
        """The loop awaits this for tools that need approval; only an explicit yes allows the call."""
        detail = json.dumps(args, indent=2, default=str, ensure_ascii=False)
        modal = ConfirmModal(f"Allow Wilson to run {tool}?", detail, yes="Allow", no="Refuse")
        return bool(await self.app.push_screen(modal, wait_for_dismiss=True))

    def on_agent_stopped(self, message: AgentStopped) -> None:
        self._log(Static(f"✗ {message.reason}", classes="error", markup=False))
        self._after_run()

    def on_agent_event(self, message: AgentEvent) -> None:
        event = message.event
        if isinstance(event, ev.ToolStart):
            line = self.tool_lines[event.id] = ToolLine(event.tool, event.args)
            self._log(line)
        elif isinstance(event, ev.ToolEnd):
            self._tool_line(event.id, event.tool).finish(event.duration_ms, event.summary, event.cached)
            self.changed_data |= self.app.changes_data(event.tool)
        elif isinstance(event, ev.ToolError):
            self._tool_line(event.id, event.tool).fail(event.error)
        elif isinstance(event, ev.Answer):
            self._log(Markdown(event.text, classes="answer"))
        elif isinstance(event, ev.Done):
            self._done(event)
        else:
            self._log(Static(_notice(event), classes=_NOTICE_CLASS.get(type(event), "notice"), markup=False))

    def _tool_line(self, call_id: str, tool: str) -> ToolLine:
        if call_id not in self.tool_lines:
            self.tool_lines[call_id] = ToolLine(tool, {})
            self._log(self.tool_lines[call_id])
        return self.tool_lines[call_id]

    def _done(self, done: ev.Done) -> None:
        if done.error:
            self._log(Static(f"✗ {done.error}", classes="error", markup=False))
        self._log(Static(_footer(done), classes="footer-line", markup=False))
        self._after_run()

    def _after_run(self) -> None:
        if self.changed_data:
            self.changed_data = False
            self.app.refresh_data()

    def _log(self, widget: Widget) -> None:
        log = self.query_one("#ask-log", VerticalScroll)
        log.mount(widget)
        log.scroll_end(animate=False)


_NOTICE_CLASS = {ev.Thinking: "thinking", ev.ToolLimit: "warning", ev.ApprovalNeeded: "warning"}


def _notice(event: ev.Event) -> str:
    """The one line for the events that are notes rather than steps."""
    if isinstance(event, ev.Thinking):
        return event.text
    if isinstance(event, ev.ToolLimit):
        return f"⚠ {event.tool}: {event.message}"
    if isinstance(event, ev.ContextCleared):
        return f"↺ cleared {event.cleared} old tool result(s) from the context to stay in budget (kept {event.kept})"
    if isinstance(event, ev.ModelFallback):
        return f"⇄ switched from {event.from_model} to {event.to_model}: {event.reason}"
    if isinstance(event, ev.ApprovalNeeded):
        return f"? waiting for your approval to run {event.tool}"
    return event.type


def _footer(done: ev.Done) -> str:
    parts = [
        "cancelled" if done.cancelled else done.model,
        f"{done.iterations} iteration{'s' if done.iterations != 1 else ''}",
        f"{done.tool_calls} tool call{'s' if done.tool_calls != 1 else ''}",
        f"{done.input_tokens:,} in / {done.output_tokens:,} out tokens",
        "cost unknown" if done.cost is None else f"${_cost(done.cost)}",
        _duration(done.duration_ms),
    ]
    return " · ".join(parts)


def _cost(cost: Decimal) -> str:
    return f"{cost:.4f}" if cost < 1 else f"{cost:.2f}"


def _duration(ms: float) -> str:
    return f"{ms:.0f} ms" if ms < 1000 else f"{ms / 1000:.1f} s"


def _short_args(args: dict[str, Any], width: int = 60) -> str:
    text = ", ".join(f"{key}={value!r}" for key, value in args.items())
    return text if len(text) <= width else text[: width - 1] + "…"
