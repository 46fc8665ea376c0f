"""A yes/no dialog: deleting from the table, and approving an agent's destructive tool call."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

from wilson.tui.cells import literal

SHOWN_ROWS = 5


def summary_lines(ids: Sequence[int], known: dict[int, dict[str, Any]], shown: int = SHOWN_ROWS) -> list[str]:
    """What a list of ids means to the user: date, amount and payee of the first rows, then a count.

    Amount comes before the payee so a narrow dialog cuts the payee, never the amount. Ids Wilson
    has not listed anywhere can only be counted.
    """
    rows = [known[tx_id] for tx_id in ids if tx_id in known]
    width = max((len(str(row.get("amount") or "")) for row in rows[:shown]), default=0)
    lines = [f"{row.get('date') or '':<10}  {str(row.get('amount') or ''):>{width}}  "
             f"{row.get('payee') or row.get('description') or ''}" for row in rows[:shown]]
    unknown = len(ids) - len(rows)
    if len(rows) > shown:
        lines.append(f"… and {len(rows) - shown} more")
    if unknown:
        lines.append(f"{'… and ' if rows else ''}{unknown} transaction{'s' if unknown != 1 else ''} "
                     "Wilson has not listed yet")
    return lines


class ConfirmModal(ModalScreen[bool]):
    """Dismisses with True only on an explicit yes; Esc and n mean no, so the safe answer is easy.

    The buttons are docked to the dialog's bottom and the detail scrolls, so however long the
    detail and however small the terminal, the answer and its keys stay on screen.
    """

    BINDINGS = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, title: str, detail: Sequence[str] = (), yes: str = "Yes", no: str = "No") -> None:
        super().__init__()
        self.title_text, self.detail, self.yes, self.no = title, list(detail), yes, no

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.title_text, classes="dialog-title", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button(f"{self.yes} (y)", variant="error", id="yes")
                yield Button(f"{self.no} (n)", variant="primary", id="no")
            if self.detail:
                with VerticalScroll(classes="dialog-detail"):
                    yield from (Static(literal(line)) for line in self.detail)

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "yes")

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)
