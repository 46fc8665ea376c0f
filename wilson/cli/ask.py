"""`wilson ask "question"`: one question to the agent, headless, with its working shown as it goes.

Progress (tool calls, warnings, the footer) goes to stderr and the answer to stdout, so
`wilson ask … > answer.md` keeps just the answer. With `--json` every event is one JSON object
per line on stdout, the `done` event last. Exit codes: 0 answered, 1 could not answer (no key,
model unreachable, bad config), 130 cancelled with Ctrl-C.
"""

from __future__ import annotations

import asyncio
import atexit
import gc
import json
import sys
from typing import Any

import click

from wilson.cli.output import fail

EXIT_CANCELLED = 130


@click.command("ask")
@click.argument("question")
@click.option("--model", help="The model to ask (overrides config and $WILSON_MODEL).")
@click.option("--json", "as_json", is_flag=True, help="Print every event as one JSON object per line.")
@click.option("--yes", is_flag=True, help="Approve changes to the ledger without asking.")
@click.option("--skill", help="Start with this skill's playbook loaded.")
@click.option("--session", "session_id", help="Continue a saved session (its id or a unique prefix).")
@click.option("--new-session", is_flag=True, help="Start a new saved session with this question.")
@click.pass_context
def ask_command(
    ctx: click.Context, question: str, model: str | None, as_json: bool, yes: bool, skill: str | None,
    session_id: str | None, new_session: bool,
) -> None:
    """Ask Wilson a question about your money."""
    if session_id and new_session:
        fail("use either --session or --new-session, not both", 2)
    _skip_exit_collection()
    from wilson.agent.loop import Agent
    from wilson.agent.sessions import SessionNotFound, load_session, new_session as start_session, save_session
    from wilson.config import ConfigError, load_config
    from wilson.ledger import Ledger, LedgerError
    from wilson.llm import LLMError

    root_model = ctx.find_root().params.get("model")
    try:
        config = load_config(model=model or root_model)
        ledger = Ledger()
    except (ConfigError, LedgerError) as exc:
        fail(str(exc))
    with ledger:
        try:
            session = load_session(ledger, session_id) if session_id else None
        except SessionNotFound as exc:
            fail(str(exc))
        if new_session:
            session = start_session(config.model)
        agent = Agent(ledger, config=config, approve=_approver(yes))
        try:
            agent.llm.check_keys()
        except LLMError as exc:
            fail(exc.message)
        show = _JsonPrinter() if as_json else _Printer()
        history = session.history() if session else None
        try:
            done = asyncio.run(_drive(agent.run(question, history, skill=skill), show))
        except KeyboardInterrupt:
            fail("cancelled", EXIT_CANCELLED)
        if done is None or done.cancelled:
            fail("cancelled", EXIT_CANCELLED)
        if done.error:
            fail(done.error)
        if session is not None:
            session.add_turn(question, done.answer)
            save_session(ledger, session)
            click.echo(f"session {session.id} (continue with --session {session.id})", err=True)


def _skip_exit_collection() -> None:
    """Freeze the heap at exit: the interpreter's final garbage collection over litellm's large
    object graph otherwise holds the process open for seconds after the answer (or a Ctrl-C)."""
    atexit.unregister(gc.freeze)
    atexit.register(gc.freeze)


async def _drive(stream: Any, show: Any) -> Any:
    """Print each event as it arrives; return the `done` event. Ctrl-C cancels this task."""
    done = None
    try:
        async for event in stream:
            show(event)
            if event.type == "done":
                done = event
    finally:
        await stream.aclose()
    return done


def _approver(yes: bool) -> Any:
    """--yes approves; a terminal asks y/N; with no one to ask, None (the agent refuses at once)."""
    if yes:
        async def approve_all(tool: str, args: dict[str, Any]) -> bool:
            return True

        return approve_all
    if not sys.stdin.isatty():
        return None

    async def ask(tool: str, args: dict[str, Any]) -> bool:
        from wilson.agent.events import jsonable

        shown = json.dumps(jsonable(args), ensure_ascii=False)
        return await asyncio.to_thread(click.confirm, f"Allow {tool} {shown}?", default=False, err=True)

    return ask


class _JsonPrinter:
    def __call__(self, event: Any) -> None:
        click.echo(json.dumps(event.to_dict(), ensure_ascii=False))


class _Printer:
    """Readable progress: rich styling on a terminal, plain lines otherwise."""

    def __init__(self) -> None:
        from rich.console import Console

        self.err = Console(stderr=True, highlight=False)
        self.out = Console(highlight=False)

    def __call__(self, event: Any) -> None:
        line = _progress_line(event)
        if line is not None:
            self.err.print(line, markup=False, style=_STYLES.get(event.type, ""))
        elif event.type == "answer":
            self._answer(event.text)
            if event.unbacked:
                from wilson.agent.events import unbacked_warning

                self.err.print(unbacked_warning(event.unbacked), markup=False, style="yellow")
        elif event.type == "done" and not (event.error or event.cancelled):  # those end in one line from fail()
            self.err.print(_footer(event), markup=False, style="dim")

    def _answer(self, text: str) -> None:
        if self.out.is_terminal:
            from rich.markdown import Markdown

            self.out.print(Markdown(text))
        else:
            click.echo(text)


_STYLES = {"thinking": "italic dim", "tool_end": "cyan", "tool_error": "red", "tool_limit": "yellow",
           "context_cleared": "dim", "model_fallback": "yellow"}


def _progress_line(event: Any) -> str | None:
    kind = event.type
    if kind == "thinking":
        return event.text
    if kind == "tool_end":
        return f"  ✓ {event.tool}  {event.summary}  ({event.duration_ms:.0f} ms)"
    if kind == "tool_error":
        return f"  ✗ {event.tool}: {event.error}"
    if kind == "tool_limit":
        return f"  ! {event.message}"
    if kind == "context_cleared":
        return f"  … cleared {event.cleared} old tool results to save context ({event.kept} kept)"
    if kind == "model_fallback":
        return f"  ! {event.from_model} failed ({event.reason}); using {event.to_model}"
    return None


def _footer(done: Any) -> str:
    parts = [f"{done.tool_calls} tool call{'s' if done.tool_calls != 1 else ''}", f"{done.iterations} steps",
             f"{done.input_tokens + done.output_tokens:,} tokens"]
    if done.cost is not None:
        parts.append(f"${done.cost:.4f}")
    parts += [f"{done.duration_ms / 1000:.1f} s", done.model]
    return " · ".join(parts)
