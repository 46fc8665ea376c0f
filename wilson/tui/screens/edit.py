"""Edit payee and notes; only the fields the user changed are sent to update_transaction."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label


class EditModal(ModalScreen[dict[str, Any] | None]):
    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel")]

    def __init__(self, payee: str, notes: str, count: int = 1) -> None:
        super().__init__()
        self.payee, self.notes, self.count = payee, notes, count

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            rows = f"{self.count} transactions" if self.count > 1 else "transaction"
            yield Label(f"Edit {rows} — Enter saves, Tab moves, Esc cancels", classes="dialog-title")
            yield Label("Payee")
            yield Input(self.payee, id="payee")
            yield Label("Notes")
            yield Input(self.notes, id="notes")

    def on_mount(self) -> None:
        self.query_one("#payee", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        payee, notes = self.query_one("#payee", Input).value, self.query_one("#notes", Input).value
        changes = {"payee": payee.strip(), "notes": notes.strip()}
        before = {"payee": self.payee, "notes": self.notes}
        self.dismiss({key: value for key, value in changes.items() if value != before[key]} or None)
