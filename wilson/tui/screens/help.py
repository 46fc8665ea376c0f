"""The help screen: every key, read from the widgets' own BINDINGS so it can't drift from them."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import DataTable, Label

Section = tuple[str, Sequence[Binding]]


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q,question_mark", "dismiss(None)", "Close")]

    def __init__(self, sections: Sequence[Section], notes: Sequence[str] = ()) -> None:
        super().__init__()
        self.sections, self.notes = sections, notes

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog help"):
            yield Label("Wilson — keys (Esc closes)", classes="dialog-title")
            table: DataTable = DataTable(show_cursor=False, zebra_stripes=True)
            table.add_columns("Where", "Key", "Does")
            for section, bindings in self.sections:
                for binding in bindings:
                    if binding.description:
                        table.add_row(*map(Text, (section, self.app.get_key_display(binding), binding.description)))
            yield table
            for note in self.notes:
                yield Label(note, classes="help-note", markup=False)
