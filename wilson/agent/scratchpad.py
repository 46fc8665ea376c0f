"""The scratchpad: one append-only JSONL file per run, and the run's soft limits and result cache.

The file is the complete record of a run (every tool result in full, even ones later cleared
from the prompt), so a user can always see how an answer was reached. Each line is flushed as it
is written: a crash or Ctrl-C leaves everything up to that point on disk.

The soft limits guide the model rather than block it: calling one tool many times, or again with
near-identical arguments, usually means it is going round in circles, so the next prompt says so.
"""

from __future__ import annotations

import json
import time
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, TextIO

from wilson.agent.events import jsonable

CALLS_PER_TOOL = 3
NEAR_DUPLICATE = 90.0


def canonical_args(args: dict[str, Any]) -> str:
    """One spelling per set of arguments: sorted keys, Decimals and dates as strings."""
    return json.dumps(jsonable(args), sort_keys=True, ensure_ascii=False, separators=(",", ":"))


class Scratchpad:
    """An open JSONL record of one run. Use as a context manager, or call `close()`."""

    def __init__(self, directory: Path) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        self.run_id = uuid.uuid4().hex[:8]
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        self.path = directory / f"{stamp}-{self.run_id}.jsonl"
        self._file: TextIO | None = self.path.open("a", encoding="utf-8")

    def write(self, kind: str, **fields: Any) -> None:
        if self._file is None:
            return
        record = {"ts": datetime.now(timezone.utc).isoformat(timespec="milliseconds"), "type": kind, **fields}
        self._file.write(json.dumps(jsonable(record), ensure_ascii=False) + "\n")
        self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self) -> "Scratchpad":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read(path: Path) -> list[dict[str, Any]]:
    """Every record of a scratchpad file, in order."""
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


@dataclass
class CallHistory:
    """What this run has called so far: for the soft limits and the read-only result cache."""

    calls: list[tuple[str, str]] = field(default_factory=list)
    cache: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)

    def cached(self, tool: str, args_key: str) -> dict[str, Any] | None:
        return self.cache.get((tool, args_key))

    def remember(self, tool: str, args_key: str, result: dict[str, Any], *, cacheable: bool) -> None:
        if cacheable and "error" not in result:
            self.cache[(tool, args_key)] = result

    def record(self, tool: str, args_key: str) -> str | None:
        """Note a call; return a warning for the model when it crosses a soft limit, else None."""
        earlier = [key for name, key in self.calls if name == tool]
        self.calls.append((tool, args_key))
        if len(earlier) >= CALLS_PER_TOOL:
            return (
                f"You have called {tool} {len(earlier) + 1} times in this run. If the results so far "
                "answer the question, answer now; otherwise change approach rather than repeat it."
            )
        if earlier and args_key not in earlier and _near_duplicate(args_key, earlier):
            return (
                f"You called {tool} again with nearly the same arguments as before. Use the earlier "
                "result, or explain to the user what is missing instead of retrying variations."
            )
        return None


def _near_duplicate(args_key: str, earlier: list[str]) -> bool:
    from rapidfuzz import fuzz

    return any(fuzz.ratio(args_key, key) >= NEAR_DUPLICATE for key in earlier)


class Stopwatch:
    """Milliseconds since creation, for tool and run durations."""

    def __init__(self) -> None:
        self._start = time.perf_counter()

    @property
    def ms(self) -> float:
        return round((time.perf_counter() - self._start) * 1000, 2)
