"""How values from tool results look on screen: always literal text, amounts exactly as given.

Payees, descriptions and names come from bank files and from the user, so `[b]` or `[/]` in them
is data: a plain `str` handed to a DataTable cell, a Static or an OptionList is read as markup
(and `[/]` crashes the app), so every value is wrapped in `Text` here, never parsed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from rich.cells import cell_len
from rich.text import Text

_AMOUNT = re.compile(r"^[-+]?\d[\d,]*(\.\d+)?$")
TEXT_WIDTH = 32  # the widest a text column gets; amounts always get their full width


def literal(value: Any, style: str = "") -> Text:
    """Any value as one line of literal text, ellipsised (not wrapped) when its column is narrower."""
    return Text("" if value is None else str(value), style=style, no_wrap=True, overflow="ellipsis")


def amount_cell(value: Any, style: str = "") -> Text:
    """The tool's own amount string, never re-formatted (no float ever touches it)."""
    text = "" if value is None else str(value)
    colour = "red" if text.startswith("-") else ""
    return Text(text, justify="right", style=f"{colour} {style}".strip(), no_wrap=True)


def cell(value: Any) -> Text:
    """Any result value: amount-looking strings as amounts, booleans as ticks, None as blank."""
    if isinstance(value, bool):
        return literal("✓" if value else "")
    if isinstance(value, str) and _AMOUNT.match(value) and "." in value:
        return amount_cell(value)
    if isinstance(value, (dict, list)):
        return literal(len(value), style="dim")
    return literal(value)


def column_width(label: str, cells: Iterable[Text], cap: int) -> int:
    """A column's width measured on its cells, text capped (it ends in an ellipsis), amounts never.

    Set explicitly because DataTable's automatic widths only ever grow and can be measured after
    the first paint, which showed `2650.0` for 2650.00 until a key was pressed.
    """
    widths = [cell.cell_len if cell.justify == "right" else min(cell.cell_len, cap) for cell in cells]
    return max([cell_len(label), *widths])


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
