"""The scratchpad: one append-only JSONL file per run, and the run's soft limits and result cache.

The file is the complete record of a run (every tool result in full, even ones later cleared
from the prompt), so a user can always see how an answer was reached. Each line is flushed as it
is written: a crash or Ctrl-C leaves everything up to that point on disk.

The soft limits guide the model rather than block it: calling one tool many times, or repeating a
call that worked with its arguments merely respelled, usually means it is going round in circles,
so the next prompt says so.
"""

from __future__ import annotations

import json
import re
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timezone
from decimal import Decimal
from pathlib import Path
from typing import Any, TextIO

from wilson.agent.events import jsonable

CALLS_PER_TOOL = 3
_NUMBER = re.compile(r"-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?")  # an amount given as text, e.g. "1,250.00"


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


Signature = tuple[tuple[str, Any], ...]


def signature(args: dict[str, Any], parameters: dict[str, Any]) -> Signature:
    """The arguments as far as the answer depends on them, for spotting a call repeated in other words.

    A loop shows up as the same call spelled again: keys in another order, `Chase` for `chase`, an
    extra space, `50` for `"50.00"`, a default or a null spelled out. Those are ironed out here.
    Every value is still compared whole, so a different date, id, account, category, amount or
    query is a different call: comparing the JSON text fuzzily took March and April (or 2024 and
    2025) for the same call. Names are matched without case by the tools, so case is cosmetic.
    """
    properties = parameters.get("properties", {})
    defaults = {name: _plain(spec["default"]) for name, spec in properties.items() if "default" in spec}
    plain = ((name, _plain(value)) for name, value in args.items())
    return tuple(sorted((name, value) for name, value in plain if value is not None and value != defaults.get(name)))


def _plain(value: Any) -> Any:
    """One hashable spelling of a JSON value: text trimmed and case-folded, numbers (even as text) exact."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, Decimal)):  # arguments are parsed with Decimal for floats
        return Decimal(value)
    if isinstance(value, str):
        number = _NUMBER.fullmatch(value.strip())
        return Decimal(number[0].replace(",", "")) if number else " ".join(value.split()).casefold()
    if isinstance(value, dict):
        return tuple(sorted((key, _plain(item)) for key, item in value.items()))
    return tuple(_plain(item) for item in value)  # a list, the one JSON type left


@dataclass
class CallHistory:
    """What this run has called so far: for the soft limits and the read-only result cache.

    `answered` holds the calls that came back without an error, by signature, with the exact
    argument text of each: only those can be repeated. A retry after an error is the model fixing
    its call, which is what the error asked for. Calls of the same response are recorded before
    any of them has an outcome, so they are only compared with earlier responses' calls.
    """

    counts: Counter[str] = field(default_factory=Counter)
    answered: dict[tuple[str, Signature], set[str]] = field(default_factory=dict)
    cache: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)

    def cached(self, tool: str, args_key: str) -> dict[str, Any] | None:
        return self.cache.get((tool, args_key))

    def settle(self, tool: str, args_key: str, args: Signature | None, result: Any, *, cacheable: bool) -> None:
        """Note a call's outcome: one without an error can be repeated, and a read is cached."""
        if isinstance(result, dict) and "error" in result:
            return
        if cacheable:
            self.cache[(tool, args_key)] = result
        if args is not None:
            self.answered.setdefault((tool, args), set()).add(args_key)

    def record(self, tool: str, args_key: str, args: Signature | None) -> str | None:
        """Note a call; return a warning for the model when it crosses a soft limit, else None.

        The very same text again is not warned about: a read comes from the cache, and the
        per-tool count catches a loop of them.
        """
        earlier = self.counts[tool]
        self.counts[tool] += 1
        if earlier >= CALLS_PER_TOOL:
            return (
                f"You have called {tool} {earlier + 1} times in this run. If the results so far "
                "answer the question, answer now; otherwise change approach rather than repeat it."
            )
        spellings = self.answered.get((tool, args), set()) if args is not None else set()
        if spellings and args_key not in spellings:
            return (
                f"You called {tool} again with the same arguments as an earlier call, only written "
                "differently. Use the earlier result, or explain to the user what is missing instead "
                "of retrying variations."
            )
        return None


class Stopwatch:
    """Milliseconds since creation, for tool and run durations."""

    def __init__(self) -> None:
        self._start = time.perf_counter()

    @property
    def ms(self) -> float:
        return round((time.perf_counter() - self._start) * 1000, 2)
