"""Set a monthly budget: a category (with the known ones offered) and an amount, sent to set_budget."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.suggester import SuggestFromList
from textual.widgets import Input, Label


class BudgetModal(ModalScreen[tuple[str, str] | None]):
    """The amount stays the text typed: set_budget parses it exactly (never through a float)."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel")]

    def __init__(self, categories: list[str]) -> None:
        super().__init__()
        self.categories = categories

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Set a monthly budget — Enter saves, Esc cancels", classes="dialog-title")
            yield Label("Category")
            yield Input(placeholder="e.g. Groceries", id="budget-category",
                        suggester=SuggestFromList(self.categories, case_sensitive=False))
            yield Label("Amount per month")
            yield Input(placeholder="e.g. 400.00", id="budget-amount", restrict=r"[0-9.,]*")

    def on_mount(self) -> None:
        self.query_one("#budget-category", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        category = self.query_one("#budget-category", Input).value.strip()
        amount = self.query_one("#budget-amount", Input).value.strip()
        if event.input.id == "budget-category" and not amount:
            self.query_one("#budget-amount", Input).focus()
        elif category and amount:
            self.dismiss((category, amount))
        else:
            self.notify("A budget needs a category and an amount", severity="warning")
