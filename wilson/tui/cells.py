"""How values from tool results look in tables: amounts exactly as given, right-aligned, outflows red."""

from __future__ import annotations

import re
from typing import Any

from rich.text import Text

_AMOUNT = re.compile(r"^[-+]?\d[\d,]*(\.\d+)?$")


def amount_cell(value: Any) -> Text:
    """The tool's own amount string, never re-formatted (no float ever touches it)."""
    text = "" if value is None else str(value)
    return Text(text, justify="right", style="red" if text.startswith("-") else "")


def cell(value: Any) -> Text | str:
    """Any result value: amount-looking strings as amounts, booleans as ticks, None as blank."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "✓" if value else ""
    if isinstance(value, str) and _AMOUNT.match(value) and "." in value:
        return amount_cell(value)
    if isinstance(value, (dict, list)):
        return Text(str(len(value)), style="dim")
    return str(value)


def records(result: dict[str, Any]) -> list[dict[str, Any]]:
    """The rows of a tool result: its first list of objects, whatever the tool called it."""
    for value in result.values():
        if isinstance(value, list) and value and all(isinstance(item, dict) for item in value):
            return value
    return []


def columns(rows: list[dict[str, Any]], preferred: tuple[str, ...] = ()) -> list[str]:
    """Preferred keys first (when present), then the rest in the tool's order; nested values left out."""
    present: dict[str, None] = {}
    for row in rows:
        for key, value in row.items():
            if not isinstance(value, (dict, list)):
                present.setdefault(key)
    return [key for key in preferred if key in present] + [key for key in present if key not in preferred]
