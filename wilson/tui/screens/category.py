"""Pick a category: type to fuzzy-filter the ledger's categories (from `list_categories`), Enter
takes the highlighted one or the text as typed, which the tool resolves or rejects.

Names are data (a category may be called `Card [old]`), so options are built as literal Content:
Textual's own `Matcher.highlight` reads its candidate as markup."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.fuzzy import Matcher
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList
from textual.widgets.option_list import Option


class CategoryModal(ModalScreen[str | None]):
    BINDINGS = [
        Binding("escape", "dismiss(None)", "Cancel"),
        Binding("down", "move(1)", show=False),
        Binding("up", "move(-1)", show=False),
    ]

    def __init__(self, categories: list[str], current: str | None = None, count: int = 1) -> None:
        super().__init__()
        self.categories, self.current, self.count = categories, current, count

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            rows = f"{self.count} transactions" if self.count > 1 else "this transaction"
            now = f" (now {self.current})" if self.current else ""
            yield Label(f"Category for {rows}{now}", classes="dialog-title", markup=False)
            yield Input(placeholder="Type to filter, Enter to choose", id="category-input")
            yield OptionList(id="category-options", markup=False)

    def on_mount(self) -> None:
        self.query_one(Input).focus()
        self._filter("")

    def on_input_changed(self, event: Input.Changed) -> None:
        self._filter(event.value)

    def _filter(self, text: str) -> None:
        options = self.query_one(OptionList)
        options.clear_options()
        if text.strip():
            matcher = Matcher(text.strip())
            scored = sorted(((matcher.match(name), name) for name in self.categories), key=lambda s: -s[0])
            options.add_options(Option(_highlight(matcher, name), id=name) for score, name in scored if score > 0)
        else:
            options.add_options(Option(Content(name), id=name) for name in self.categories)
        if options.option_count:
            at_current = not text.strip() and self.current in self.categories
            options.highlighted = self.categories.index(self.current) if at_current else 0

    def action_move(self, step: int) -> None:
        options = self.query_one(OptionList)
        if options.option_count:
            options.highlighted = ((options.highlighted or 0) + step) % options.option_count

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        options = self.query_one(OptionList)
        if options.highlighted is not None and options.option_count:
            self.dismiss(options.get_option_at_index(options.highlighted).id)
        else:
            self.dismiss(event.value.strip() or None)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)


def _highlight(matcher: Matcher, name: str) -> Content:
    """The name as literal text with the matched letters styled."""
    content = Content(name)
    for offset in matcher.fuzzy_search.match(matcher.query, name)[1]:
        if not name[offset].isspace():
            content = content.stylize(matcher.match_style, offset, offset + 1)
    return content
