"""The account filter in the sidebar: "All accounts" and every account seen in a tool result."""

from __future__ import annotations

from collections.abc import Iterable

from textual.binding import Binding
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

ALL = "All accounts"


class AccountList(OptionList):
    BINDINGS = [
        Binding("j", "cursor_down", "Down", show=False),
        Binding("k", "cursor_up", "Up", show=False),
    ]

    class Chosen(Message):
        """The user picked an account to filter by (None: all accounts)."""

        def __init__(self, account: str | None) -> None:
            super().__init__()
            self.account = account

    def __init__(self, **kwargs: object) -> None:
        super().__init__(Option(ALL, id=ALL), markup=False, **kwargs)  # account names are data, not markup
        self.names: set[str] = set()

    def add_accounts(self, names: Iterable[object]) -> None:
        """Learn account names; the list is rebuilt (sorted) only when one is new."""
        new = {str(name) for name in names if name} - self.names
        if not new:
            return
        self.names |= new
        highlighted = self.highlighted
        self.clear_options()
        self.add_options([Option(ALL, id=ALL), *(Option(name, id=name) for name in sorted(self.names, key=str.casefold))])
        self.highlighted = highlighted

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        chosen = event.option.id
        self.post_message(self.Chosen(None if chosen == ALL else chosen))
