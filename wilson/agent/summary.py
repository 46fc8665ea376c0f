"""One short line describing a tool result, for a UI's tool list (the model always gets it all)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

MAX_PARTS = 4
MAX_CHARS = 100


def summarize(result: Any, cached: bool = False) -> str:
    """A tool's own `summary` when it gives one, else counts of its lists and its first few scalars."""
    if isinstance(result, dict) and isinstance(result.get("summary"), str):
        line = result["summary"]
    elif isinstance(result, dict):
        parts = []
        for key, value in result.items():
            if isinstance(value, (list, tuple)):
                parts.append(f"{len(value)} {key}")
            elif isinstance(value, (str, int, float, Decimal, bool)) and value is not None:
                parts.append(f"{key}: {value}")
            if len(parts) == MAX_PARTS:
                break
        line = ", ".join(parts) or "done"
    elif isinstance(result, list):
        line = f"{len(result)} items"
    else:
        line = str(result)
    line = " ".join(line.split())
    if len(line) > MAX_CHARS:
        line = line[: MAX_CHARS - 1] + "…"
    return f"{line} (cached)" if cached else line
