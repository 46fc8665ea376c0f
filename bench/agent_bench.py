"""The agent loop's own overhead per iteration, with 50 tool results of 2 KB in the prompt.

Runs the real loop against the scripted model server (started in-process, no network, no key)
and times the gaps between model calls: from one response arriving to the next request leaving.
That gap is everything the loop does itself (argument parsing, dispatching tools to threads, the
scratchpad, token counting and context checks, events) plus the tool's own run; the time inside
the tool (its `tool_end` duration) is reported apart. The server and litellm are excluded.
The process's CPU time over each gap (all threads) is reported beside the wall time, with the
load average, because on a busy machine wall time alone overstates the loop's own cost.

    python bench/agent_bench.py [--iterations 20]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from scripted_llm import DUMMY_KEYS, PROVIDER_BASES, ScriptedLLMServer  # noqa: E402

import wilson.tools  # noqa: E402  (names the tool's context type for the registry's hints)

RESULTS = 50
RESULT_BYTES = 2048


class TimedLLM:
    """Wraps the facade to note when each model call starts and ends, in wall and CPU time."""

    def __init__(self, llm) -> None:
        self._llm, self.spans, self.cpu_spans = llm, [], []

    def __getattr__(self, name):
        return getattr(self._llm, name)

    async def complete(self, *args, **kwargs):
        start, cpu_start = time.perf_counter(), time.process_time()
        try:
            return await self._llm.complete(*args, **kwargs)
        finally:
            self.spans.append((start, time.perf_counter()))
            self.cpu_spans.append((cpu_start, time.process_time()))


def register_tool() -> dict:
    from wilson.tools import REGISTRY, tool

    if "bench_rows" not in REGISTRY:
        @tool(description="Rows for the benchmark.")
        def bench_rows(ctx: "wilson.tools.ToolContext", page: int) -> dict:
            row = {"date": "2025-03-01", "amount": "-12.50", "payee": f"Merchant {page}", "category": "Groceries"}
            rows, size = [], 0
            while size < RESULT_BYTES:
                rows.append(row)
                size += 80
            return {"page": page, "rows": rows}

    return {"bench_rows": REGISTRY["bench_rows"]}


async def one_run(agent, server: ScriptedLLMServer, iterations: int) -> list[tuple[float, float, float]]:
    """(gap, time inside tools, CPU time) in ms for each gap between model calls."""
    from wilson.llm import LLM

    server.reply_tool_calls([("bench_rows", {"page": n}) for n in range(RESULTS)])
    for n in range(iterations):
        server.reply_tool_calls([("bench_rows", {"page": 1000 + n})])
    server.reply_text("done")
    timed = TimedLLM(LLM("gpt-4o-mini"))
    agent.llm = timed
    ends = []
    async for event in agent.run("benchmark"):
        if event.type == "tool_end":
            ends.append((time.perf_counter(), event.duration_ms))
    spans, cpu = timed.spans, timed.cpu_spans
    gaps = []
    for (_, ended), (started, _), (_, cpu_ended), (cpu_started, _) in zip(spans, spans[1:], cpu, cpu[1:]):
        in_tools = sum(ms for at, ms in ends if ended <= at <= started)
        gaps.append(((started - ended) * 1000, in_tools, (cpu_started - cpu_ended) * 1000))
    return gaps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=20)
    options = parser.parse_args()

    server = ScriptedLLMServer().start()
    home = Path(tempfile.mkdtemp(prefix="wilson-bench-"))
    os.environ.update({name: server.url + suffix for name, suffix in PROVIDER_BASES.items()})
    os.environ.update(DUMMY_KEYS)
    os.environ["WILSON_HOME"] = str(home)
    from wilson.agent.loop import Agent
    from wilson.config import Config
    from wilson.ledger import Ledger

    tools = register_tool()
    try:
        with Ledger(home / "wilson.db") as ledger:
            agent = Agent(ledger, config=Config(max_iterations=options.iterations + 2), tools=tools)
            asyncio.run(one_run(agent, server, 2))  # warm-up: imports, tokenizer, first connection
            gaps = asyncio.run(one_run(agent, server, options.iterations))
    finally:
        server.close()
    fan_out, steady = gaps[0], gaps[1:]
    print(f"iteration running {RESULTS} tools ({RESULT_BYTES} B results): {fan_out[0]:.2f} ms")
    whole = [gap for gap, _, _ in steady]
    own = [gap - in_tools for gap, in_tools, _ in steady]
    cpu = [cpu for _, _, cpu in steady]
    print(f"per iteration with {RESULTS} results in context, over {len(steady)} iterations:")
    print(f"  gap between model calls (incl. the tool call): median {statistics.median(whole):.2f} ms")
    print(f"  loop overhead (gap minus time inside the tool): median {statistics.median(own):.2f} ms, "
          f"max {max(own):.2f} ms")
    print(f"  CPU time in the gap (all threads, incl. the tool): median {statistics.median(cpu):.2f} ms")
    print("load average (1, 5, 15 min): " + ", ".join(f"{load:.2f}" for load in os.getloadavg()))


if __name__ == "__main__":
    main()
