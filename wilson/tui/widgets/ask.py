"""The ask panel: a question box and a live log of the agent's run, ending in a Markdown answer."""

from __future__ import annotations

import asyncio
import io
from decimal import Decimal
from typing import Any

from rich.console import Console
from rich.markdown import Markdown as RichMarkdown
from textual import work
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.events import Resize
from textual.geometry import Size
from textual.strip import Strip
from textual.widget import Widget
from textual.timer import Timer
from textual.widgets import Input, Markdown, Static
from textual.worker import Worker

from wilson.agent import events as ev
from wilson.tui.messages import AgentEvent, AgentStopped
from wilson.tui.screens.confirm import ConfirmModal, summary_lines
from wilson.tui.session import AgentSession, Question, parse_question

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
LONG_ANSWER_LINES = 60


class ToolLine(Static):
    """One tool call: a spinner while it runs, then ✓ (or ✗) with its duration and summary.

    `writes` marks a call that changes data: Esc can't cut it off (the loop lets it finish, so the
    ledger is never half-changed), so its line says so instead of claiming it stopped.
    """

    def __init__(self, tool: str, args: dict[str, Any], writes: bool = False) -> None:
        super().__init__(classes="tool-line running", markup=False)
        self.tool, self.args_text, self.writes, self._frame = tool, _short_args(args), writes, 0
        self._timer: Timer | None = None
        self._spin()

    def on_mount(self) -> None:
        if self.has_class("running"):  # it may have finished before it was mounted
            self._timer = self.set_interval(0.1, self._spin)

    def _spin(self) -> None:
        self._frame += 1
        detail = " — under way, finishing before the stop" if self.has_class("finishing") else f"({self.args_text})"
        self.update(f"{SPINNER[self._frame % len(SPINNER)]} {self.tool}{detail}")

    def finish(self, duration_ms: float, summary: str, cached: bool) -> None:
        self._settle("done", f"✓ {self.tool} {_duration(duration_ms)}{' (cached)' if cached else ''} — {summary}")

    def fail(self, error: str) -> None:
        self._settle("failed", f"✗ {self.tool} — {error}")

    def stop(self) -> None:
        """Esc: a read is abandoned at once; a write carries on until `settle_stopped`."""
        if not self.has_class("running"):
            return
        if self.writes:
            self.add_class("finishing")
            self._spin()
        else:
            self._settle("failed", f"■ {self.tool} — stopped")

    def settle_stopped(self, cancelled: bool) -> None:
        """The run is over and this call never reported back: a stopped write still ran to its end."""
        if not self.has_class("running"):
            return
        if cancelled and self.writes:
            self._settle("done", f"■ {self.tool} — ran to the end before the stop; views reloaded")
        else:
            self._settle("failed", f"■ {self.tool} — stopped")

    def _settle(self, state: str, text: str) -> None:
        if self._timer is not None:
            self._timer.stop()
        self.remove_class("running", "finishing")
        self.add_class(state)
        self.update(text)


class AskPanel(Vertical):
    """Runs one question at a time in a worker; the worker only posts `AgentEvent`s back here.

    A run is over when its worker is: only then are tool lines settled and the views reloaded,
    so a write that Esc could not cut off is reported, and shown, once it has really landed.
    """

    def __init__(self, model: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.session = AgentSession(model, self._approve)
        self.tool_lines: dict[str, ToolLine] = {}
        self.seen: dict[int, dict[str, Any]] = {}  # transactions listed by this session's tool results
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

    @property
    def stopping(self) -> bool:
        """Esc was pressed, but a write under way is still finishing."""
        return self.running and self._worker is not None and self._worker.is_cancelled

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id != "ask-input":
            return
        event.stop()
        if not event.value.strip():
            return
        if self.running:
            busy = ("Stopping: a change already under way is finishing; ask again in a moment" if self.stopping
                    else "A question is still running; Esc stops it")
            self.notify(busy, severity="warning")
            return
        try:
            question = parse_question(event.value)
        except ValueError as exc:
            self.notify(str(exc), severity="warning", markup=False)
            return
        event.input.clear()
        self.tool_lines.clear()
        self.changed_data = False
        skill = f"[{question.skill}] " if question.skill else ""
        self._log(Static(f"› {skill}{question.text}", classes="question", markup=False))
        self._worker = self._run(question)

    def cancel(self) -> None:
        """Esc: stop the run now; the loop lets a write under way finish, then records the cancellation."""
        if not self.running or self.stopping or self._worker is None:
            return
        self._worker.cancel()
        running = [line for line in self.tool_lines.values() if line.has_class("running")]
        for line in running:
            line.stop()
        finishing = any(line.writes for line in running)
        self._log(Static("■ stopping once the change under way is saved" if finishing else "■ stopped", classes="notice"))

    @work(group="agent", exclusive=True, exit_on_error=False)
    async def _run(self, question: Question) -> None:
        try:
            async for event in self.session.ask(question):
                self.post_message(AgentEvent(event))
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # no model configured, provider down: a line in the log, not a crash
            self.post_message(AgentStopped(f"{type(exc).__name__}: {exc}"))

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker is self._worker and event.worker.is_finished:
            self._after_run(event.worker.is_cancelled)

    async def _approve(self, tool: str, args: dict[str, Any]) -> bool:
        """The loop awaits this for tools that need approval; only an explicit yes allows the call."""
        modal = ConfirmModal(*self._approval(tool, args), yes="Allow", no="Refuse")
        return bool(await self.app.push_screen(modal, wait_for_dismiss=True))

    def _approval(self, tool: str, args: dict[str, Any]) -> tuple[str, list[str]]:
        """The question and what it touches in the user's terms: rows by date, amount and payee, not ids."""
        ids = args.get("ids")
        if isinstance(ids, list) and ids and all(isinstance(tx_id, int) for tx_id in ids):
            known = {**self.app.known_transactions(), **self.seen}
            count = f"{len(ids)} transaction{'s' if len(ids) != 1 else ''}"
            return f"Allow Wilson to run {tool} on {count}?", summary_lines(ids, known)
        return f"Allow Wilson to run {tool}?", [f"{key}: {value}" for key, value in args.items()]

    def on_agent_stopped(self, message: AgentStopped) -> None:
        self._log(Static(f"✗ {message.reason}", classes="error", markup=False))

    def on_agent_event(self, message: AgentEvent) -> None:
        event = message.event
        if isinstance(event, ev.ToolStart):
            line = self.tool_lines[event.id] = ToolLine(event.tool, event.args, self.app.changes_data(event.tool))
            self._log(line)
        elif isinstance(event, ev.ToolEnd):
            self._tool_line(event.id, event.tool).finish(event.duration_ms, event.summary, event.cached)
            self.changed_data |= self.app.changes_data(event.tool)
            self._remember(event.result)
        elif isinstance(event, ev.ToolError):
            self._tool_line(event.id, event.tool).fail(event.error)
        elif isinstance(event, ev.Answer):
            self._log(_answer(event.text))
            if event.unbacked:
                self._log(Static(ev.unbacked_warning(event.unbacked), classes="warning", markup=False))
        elif isinstance(event, ev.Done):
            self._done(event)
        else:
            self._log(Static(_notice(event), classes=_NOTICE_CLASS.get(type(event), "notice"), markup=False))

    def _remember(self, result: dict[str, Any]) -> None:
        """Transactions a tool listed, so a later approval can name them (the model passes only ids)."""
        rows = result.get("transactions") if isinstance(result, dict) else None
        for row in rows if isinstance(rows, list) else []:
            if isinstance(row, dict) and isinstance(row.get("id"), int):
                self.seen[row["id"]] = row

    def _tool_line(self, call_id: str, tool: str) -> ToolLine:
        if call_id not in self.tool_lines:
            self.tool_lines[call_id] = ToolLine(tool, {})
            self._log(self.tool_lines[call_id])
        return self.tool_lines[call_id]

    def _done(self, done: ev.Done) -> None:
        if done.error:
            self._log(Static(f"✗ {done.error}", classes="error", markup=False))
        self._log(Static(_footer(done), classes="footer-line", markup=False))
        if not self.display:  # a narrow terminal hides the panel while the table has focus
            self.notify("Wilson has answered: press a to read it", timeout=5)

    def _after_run(self, cancelled: bool) -> None:
        """Settle the lines that never reported back and reload the views if anything may have changed."""
        unfinished = [line for line in self.tool_lines.values() if line.has_class("running")]
        for line in unfinished:
            line.settle_stopped(cancelled)
        if self.changed_data or any(line.writes for line in unfinished):
            self.changed_data = False
            self.app.refresh_data()

    def _log(self, widget: Widget) -> None:
        log = self.query_one("#ask-log", VerticalScroll)
        log.mount(widget)
        log.scroll_end(animate=False)


def _answer(text: str) -> Widget:
    """Textual's Markdown makes a widget per block and list item, so a few hundred lines froze the
    app for seconds: a long answer is drawn by Rich, off the event loop, into one light widget."""
    if text.count("\n") < LONG_ANSWER_LINES:
        return Markdown(text, classes="answer")
    return LongAnswer(text)


class LongAnswer(Widget):
    """A long Markdown answer drawn by Rich in a thread at the log's width (again on a resize) and
    shown line by line from the drawn strips, so neither drawing nor layout holds up the event loop."""

    def __init__(self, source: str) -> None:
        super().__init__(classes="answer")
        self.source = source
        self._strips: list[Strip] = []
        self._width = 0

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return max(len(self._strips), 1)

    def render_line(self, y: int) -> Strip:
        return self._strips[y] if y < len(self._strips) else Strip.blank(self.size.width)

    def on_resize(self, event: Resize) -> None:
        if event.size.width and event.size.width != self._width:
            self._width = event.size.width
            self._draw(self._width)

    @work(thread=True, exclusive=True, group="long-answer")
    def _draw(self, width: int) -> None:
        console = Console(width=width, file=io.StringIO())
        lines = console.render_lines(RichMarkdown(self.source), pad=False)
        self.app.call_from_thread(self._show, width, [Strip(line) for line in lines])

    def _show(self, width: int, strips: list[Strip]) -> None:
        if width == self._width:  # a draw for an older width can finish after the newest one
            self._strips = strips
            self.refresh(layout=True)


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
