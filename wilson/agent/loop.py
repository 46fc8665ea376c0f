"""The agent loop: a question in, tool calls against the ledger, an answer out, as a stream of events.

Native tool calling: each assistant message carrying `tool_calls` is followed by exactly one
`tool` message per call, in the same order, so every provider accepts the history. How a tool is
run (concurrently, after approval, from the per-run cache) is decided by its registry flags only.

Read-only tools in one response run concurrently in threads, each on its own SQLite connection
(a connection must not be shared by threads that are both mid-query); tools that change data run
one at a time, in the model's order, on the caller's ledger connection. A cancelled run starts no
further tool, and a write already under way is allowed to finish (it is one transaction in the
ledger service) before the cancellation goes on, so the ledger is never left half-changed.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

from wilson.agent import events as ev
from wilson.agent.context import ContextBudget, token_limit
from wilson.agent.figures import unbacked
from wilson.agent.scratchpad import CallHistory, Scratchpad, Signature, Stopwatch, canonical_args, signature
from wilson.agent.setup import prepare
from wilson.agent.summary import summarize
from wilson.agent.tokens import TokenCounter
from wilson.config import Config, load_config
from wilson.ledger import Ledger
from wilson.llm import LLM, Completion, ErrorKind, LLMError, ToolCall
from wilson.paths import data_dir
from wilson.skills import SkillError
from wilson.tools import Tool, ToolContext, load_tools, run_tool

Approve = Callable[[str, dict[str, Any]], Awaitable[bool]]

FINAL_NOTE = (
    "You have used all {limit} steps allowed for this question, so no more tools can be called. "
    "Answer now from the tool results above only: state what you found (with the numbers exactly "
    "as the tools gave them and what each result covered) and say plainly what you could not find "
    "or check."
)
OVERFLOW_KEEP = (3, 0)  # tool results kept in full on each retry after the provider's overflow
SOURCE_ROLES = ("system", "user")  # opening messages whose figures an answer may quote: code's and the user's


@dataclass
class _Run:
    """The mutable state of one run; `done()` is the single place a `Done` event is built."""

    llm: LLM
    ctx: ToolContext
    pad: Scratchpad
    context: ContextBudget
    history: CallHistory = field(default_factory=CallHistory)
    clock: Stopwatch = field(default_factory=Stopwatch)
    iterations: int = 0
    tool_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost: Decimal | None = Decimal(0)
    model: str = ""
    warnings: list[str] = field(default_factory=list)
    pending: list[ev.Event] = field(default_factory=list)  # side events of a model call
    sources: list[str] = field(default_factory=list)  # texts an answer's figures must come from
    finished: bool = False

    def count(self, completion: Completion) -> None:
        self.input_tokens += completion.input_tokens
        self.output_tokens += completion.output_tokens
        self.cost = None if self.cost is None or completion.cost is None else self.cost + completion.cost
        self.model = completion.model

    def answer(self, text: str) -> ev.Answer:
        """The answer, flagged with the figures in it that no source of the run backs (see `figures`).

        Flagged rather than sent back to the model: the check is a heuristic, so it informs the
        user instead of steering the model, and it costs no extra call or loop state.
        """
        missing = unbacked(text, self.sources)
        if missing:
            self.pad.write("unbacked_figures", figures=missing)
        return ev.Answer(text, missing)

    def done(self, answer: str, *, cancelled: bool = False, error: str | None = None) -> ev.Done:
        self.finished = True
        if cancelled:
            self.pad.write("cancelled", iterations=self.iterations, tool_calls=self.tool_calls)
        elif error:
            self.pad.write("error", message=error)
        else:
            self.pad.write("answer", text=answer)
        done = ev.Done(
            answer=answer, iterations=self.iterations, tool_calls=self.tool_calls,
            input_tokens=self.input_tokens, output_tokens=self.output_tokens, cost=self.cost,
            duration_ms=self.clock.ms, cancelled=cancelled, model=self.model or self.llm.model,
            error=error, scratchpad=str(self.pad.path),
        )
        self.pad.write("done", **done.to_dict())
        return done


class Agent:
    """Answers money questions from tool calls only. One Agent can serve many runs, one at a time.

    `approve(tool, args)` is awaited for tools registered with `needs_approval`; without it nobody
    can say yes, so such calls are refused at once and the model is told (a run never hangs).
    """

    def __init__(
        self,
        ledger: Ledger,
        *,
        model: str | None = None,
        config: Config | None = None,
        llm: LLM | None = None,
        approve: Approve | None = None,
        scratchpad_dir: Path | None = None,
        tools: dict[str, Tool] | None = None,
    ) -> None:
        self.config = config or load_config(model=model)
        self.ledger = ledger
        self.llm = llm or LLM(self.config.model, fallbacks=self.config.fallbacks)
        self.approve = approve
        self.scratchpad_dir = scratchpad_dir or data_dir() / "scratchpad"
        self.tools = tools if tools is not None else load_tools()
        self._sizing: tuple[int, TokenCounter] | None = None

    def budget(self) -> ContextBudget:
        """A fresh budget for a run; the limit and the token cache are shared by this Agent's runs."""
        if self._sizing is None:
            limit = token_limit(self.config.token_budget, self.llm.context_window())
            self._sizing = (limit, TokenCounter(self.llm.tokenizer_encoding()))
        return ContextBudget(*self._sizing)

    def tool_schemas(self) -> list[dict[str, Any]]:
        return [self.tools[name].openai_schema() for name in sorted(self.tools)]

    async def run(
        self, query: str, history: list[dict[str, Any]] | None = None, *, skill: str | None = None
    ) -> AsyncIterator[ev.Event]:
        """Answer `query`, yielding events; the last one is always `Done` (unless the consumer stops early).

        `history` is earlier user/assistant turns of the session. `skill` starts the run with that
        skill's playbook already loaded.
        """
        with Scratchpad(self.scratchpad_dir) as pad:
            ctx = ToolContext(self.ledger, date.today(), self.config.model, {})
            run = _Run(llm=self.llm, ctx=ctx, pad=pad, context=self.budget())
            try:
                messages = prepare(self, run.ctx, query, history or [], skill)
                run.sources = [m["content"] for m in messages if m["role"] in SOURCE_ROLES]
                pad.write("query", text=query, skill=skill, model=self.llm.model, history=len(history or []))
                async for event in self._iterate(run, messages):
                    yield event
            except asyncio.CancelledError:
                yield run.done("", cancelled=True)
                raise
            except LLMError as error:
                yield run.done("", error=error.message)
            except SkillError as error:
                yield run.done("", error=str(error))
            finally:
                if not run.finished:  # the consumer closed the stream early: still say so on disk
                    run.done("", cancelled=True)

    async def _iterate(self, run: _Run, messages: list[dict[str, Any]]) -> AsyncIterator[ev.Event]:
        schemas = self.tool_schemas()
        while run.iterations < self.config.max_iterations:
            run.iterations += 1
            async for event in self._fit(run, messages, schemas):
                yield event
            completion = await self._complete(run, messages, schemas)
            for event in run.pending:
                yield event
            run.pending.clear()
            messages.append(completion.message)
            if not completion.tool_calls:
                answer = completion.content or "The model returned an empty reply, so I have no answer."
                yield run.answer(answer)
                yield run.done(answer)
                return
            if completion.content:
                run.pad.write("thinking", text=completion.content)
                yield ev.Thinking(completion.content)
            async for event in self._run_tools(run, completion.tool_calls, messages):
                yield event
            if run.warnings:
                messages.append({"role": "user", "content": "Note from Wilson: " + " ".join(run.warnings)})
                run.warnings.clear()
        async for event in self._final_answer(run, messages):
            yield event

    async def _final_answer(self, run: _Run, messages: list[dict[str, Any]]) -> AsyncIterator[ev.Event]:
        """The iteration cap: one last call without tools asking for an honest account."""
        note = FINAL_NOTE.format(limit=self.config.max_iterations)
        messages.append({"role": "user", "content": note})
        run.pad.write("limit", message=note)
        async for event in self._fit(run, messages, None):
            yield event
        try:
            completion = await self._complete(run, messages, None)
            answer = completion.content or ""
        except LLMError as error:
            run.pad.write("warning", message=f"final answer failed: {error.message}")
            answer = ""
        for event in run.pending:
            yield event
        run.pending.clear()
        if not answer:
            answer = (
                f"I stopped after {self.config.max_iterations} steps without reaching an answer. "
                f"I made {run.tool_calls} tool calls; their full results are in {run.pad.path}."
            )
        yield run.answer(answer)
        yield run.done(answer)

    async def _fit(
        self, run: _Run, messages: list[dict[str, Any]], schemas: list[dict[str, Any]] | None, keep: int | None = None
    ) -> AsyncIterator[ev.Event]:
        """Clear old tool results when the request would exceed the budget (or always, with `keep`)."""
        cleared = run.context.fit(messages, schemas, keep)
        if cleared is not None:
            run.pad.write("context_cleared", cleared=cleared.cleared, kept=cleared.kept, tokens=cleared.tokens)
            yield cleared.event()

    async def _complete(
        self, run: _Run, messages: list[dict[str, Any]], schemas: list[dict[str, Any]] | None
    ) -> Completion:
        """One model call; on a context overflow, clear harder and retry (at most twice)."""
        for keep in (*OVERFLOW_KEEP, None):
            try:
                completion = await run.llm.complete(messages, tools=schemas, on_fallback=self._on_fallback(run))
            except LLMError as error:
                if error.kind is not ErrorKind.CONTEXT_OVERFLOW or keep is None:
                    raise
                run.pad.write("warning", message=error.message)
                async for event in self._fit(run, messages, schemas, keep):
                    run.pending.append(event)
                continue
            run.count(completion)
            return completion
        raise AssertionError("unreachable")

    def _on_fallback(self, run: _Run) -> Callable[[str, str, LLMError], None]:
        """Record a hand-over and stay on the fallback for the rest of the run (no repeated retries)."""

        def switched(from_model: str, to_model: str, error: LLMError) -> None:
            chain = (run.llm.model, *run.llm.fallbacks)
            rest = chain[chain.index(to_model) + 1:] if to_model in chain else ()
            run.llm = LLM(to_model, fallbacks=rest, retry=run.llm.retry)
            run.pad.write("model_fallback", from_model=from_model, to_model=to_model, reason=error.message)
            run.pending.append(ev.ModelFallback(from_model, to_model, error.message))

        return switched

    async def _run_tools(
        self, run: _Run, calls: list[ToolCall], messages: list[dict[str, Any]]
    ) -> AsyncIterator[ev.Event]:
        """Run one response's calls: consecutive read-only calls together, each write alone, in order."""
        results: dict[str, dict[str, Any]] = {}
        batch: list[_Call] = []
        for call in calls:
            prepared = _Call.parse(call, self.tools.get(call.name))
            run.tool_calls += 1
            warning = run.history.record(prepared.name, prepared.key, prepared.signature)
            if warning:
                run.warnings.append(warning)
                run.pad.write("warning", tool=prepared.name, message=warning)
                yield ev.ToolLimit(prepared.name, warning)
            if prepared.concurrent:
                batch.append(prepared)
                continue
            async for event in self._run_reads(run, batch, results):
                yield event
            batch = []
            async for event in self._run_write(run, prepared, results):
                yield event
        async for event in self._run_reads(run, batch, results):
            yield event
        for call in calls:
            content = _json(results[call.id])
            messages.append({"role": "tool", "tool_call_id": call.id, "content": content})
            run.sources.append(content)
            run.context.note_tool(call.id, call.name, _args_text(call.arguments))

    async def _run_reads(
        self, run: _Run, batch: list["_Call"], results: dict[str, dict[str, Any]]
    ) -> AsyncIterator[ev.Event]:
        if not batch:
            return
        for call in batch:
            yield ev.ToolStart(call.id, call.name, call.args or {})
        path = _database_file(self.ledger)
        separate = path is not None and len(batch) > 1

        async def one(call: _Call) -> tuple[_Call, dict[str, Any], float, bool]:
            cached = run.history.cached(call.name, call.key) if call.error is None else None
            if cached is not None:
                return call, cached, 0.0, True
            clock = Stopwatch()
            result = call.error or await asyncio.to_thread(_run_read, call, run.ctx, path if separate else None)
            return call, result, clock.ms, False

        async def same_as(earlier: asyncio.Task, call: _Call) -> tuple[_Call, dict[str, Any], float, bool]:
            _, result, _, _ = await earlier
            return call, result, 0.0, True

        tasks: list[asyncio.Task] = []
        first: dict[tuple[str, str], asyncio.Task] = {}
        for call in batch:
            key = (call.name, call.key)
            if call.error is None and key in first:  # the same call twice in one response runs once
                tasks.append(asyncio.ensure_future(same_as(first[key], call)))
            else:
                tasks.append(asyncio.ensure_future(one(call)))
                first.setdefault(key, tasks[-1])
        try:
            for finished in asyncio.as_completed(tasks):
                call, result, duration, cached = await finished
                results[call.id] = result
                yield self._finish(run, call, result, duration, cached)
        finally:
            for task in tasks:
                task.cancel()

    async def _run_write(self, run: _Run, call: "_Call", results: dict[str, dict[str, Any]]) -> AsyncIterator[ev.Event]:
        yield ev.ToolStart(call.id, call.name, call.args or {})
        clock = Stopwatch()
        result = call.error
        if result is None and call.tool.needs_approval:
            if self.approve is None:
                result = _refused(call.name, "there is no one to approve it in this session (headless, no --yes)")
            else:
                yield ev.ApprovalNeeded(call.id, call.name, call.args)
                if not await self.approve(call.name, call.args):
                    result = _refused(call.name, "the user declined")
            if result is not None:
                run.pad.write("approval", id=call.id, tool=call.name, approved=False)
        if result is None:
            work = asyncio.ensure_future(asyncio.to_thread(run_tool, call.name, call.args, run.ctx))
            try:
                result = await asyncio.shield(work)
            except asyncio.CancelledError:
                result = await work  # let the write's transaction finish; then stop
                run.pad.write("tool", **_record(call, result, clock.ms, False))
                raise
        results[call.id] = result
        yield self._finish(run, call, result, clock.ms, False)

    def _finish(self, run: _Run, call: "_Call", result: dict[str, Any], duration: float, cached: bool) -> ev.Event:
        run.pad.write("tool", **_record(call, result, duration, cached))
        cacheable = call.tool is not None and call.tool.read_only
        run.history.settle(call.name, call.key, call.signature, result, cacheable=cacheable)
        error = result.get("error") if isinstance(result, dict) else None
        if isinstance(error, dict):
            return ev.ToolError(call.id, call.name, str(error.get("message", error)), bool(error.get("recoverable", True)))
        return ev.ToolEnd(call.id, call.name, duration, summarize(result, cached), result, cached)


@dataclass
class _Call:
    """A tool call with its arguments parsed (exactly: numbers as Decimal), or the reason it can't run."""

    id: str
    name: str
    tool: Tool | None
    args: dict[str, Any] | None
    key: str
    error: dict[str, Any] | None = None
    signature: Signature | None = None  # None when there is nothing to compare (unknown tool, bad JSON)

    @property
    def concurrent(self) -> bool:
        return self.tool is None or self.error is not None or self.tool.read_only

    @classmethod
    def parse(cls, call: ToolCall, tool: Tool | None) -> "_Call":
        try:
            args = json.loads(call.arguments or "{}", parse_float=Decimal)
        except ValueError as exc:  # a number of thousands of digits is past what Python converts
            reason = exc.msg if isinstance(exc, json.JSONDecodeError) else "a number has thousands of digits"
            return cls(call.id, call.name, tool, None, call.arguments, _bad_arguments(call.name, f"not valid JSON ({reason})"))
        if not isinstance(args, dict):
            return cls(call.id, call.name, tool, None, call.arguments, _bad_arguments(call.name, "must be a JSON object"))
        spelled = signature(args, tool.parameters) if tool is not None else None
        return cls(call.id, call.name, tool, args, canonical_args(args), signature=spelled)


def _run_read(call: _Call, ctx: ToolContext, path: Path | None) -> dict[str, Any]:
    """A read-only call, on its own connection when others run beside it."""
    if path is None:
        return run_tool(call.name, call.args, ctx)
    with Ledger(path) as own:
        return run_tool(call.name, call.args, ToolContext(own, ctx.today, ctx.model, ctx.run))


def _database_file(ledger: Ledger) -> Path | None:
    """The ledger's file, or None for an in-memory database (which can't be opened twice)."""
    row = ledger.conn.execute("PRAGMA database_list").fetchone()
    return Path(row[2]) if row and row[2] else None


def _bad_arguments(tool: str, problem: str) -> dict[str, Any]:
    return {"error": {"type": "invalid_arguments", "message": f"arguments for {tool}: {problem}", "recoverable": True}}


def _refused(tool: str, why: str) -> dict[str, Any]:
    return {"error": {"type": "refused", "message": f"{tool} was not run: {why}.", "recoverable": True}}


def _record(call: _Call, result: dict[str, Any], duration: float, cached: bool) -> dict[str, Any]:
    return {"id": call.id, "tool": call.name, "args": call.args if call.args is not None else call.key,
            "result": result, "duration_ms": duration, "cached": cached}


def _args_text(arguments: str) -> str:
    try:
        return canonical_args(json.loads(arguments or "{}", parse_float=Decimal))
    except (ValueError, TypeError, AttributeError):
        return arguments


def _json(result: dict[str, Any]) -> str:
    return json.dumps(ev.jsonable(result), ensure_ascii=False)
