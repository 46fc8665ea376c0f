"""Read-only views over a tool's list result: budgets (check_budgets) and balances (account_balances).

Both render whatever columns the tool returns, so a tool adding a field shows up without a TUI change.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import DataTable, Static

from wilson.tui.cells import TEXT_WIDTH, cell, column_width, columns, records
from wilson.tui.messages import BalancesLoaded, BudgetsLoaded, LedgerChanged, ToolFinished
from wilson.tui.screens.budget import BudgetModal


class RecordTable(DataTable):
    BINDINGS = [
        Binding("j", "cursor_down", "Down", show=False),
        Binding("k", "cursor_up", "Up", show=False),
    ]

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)

    def show(self, rows: list[dict[str, Any]], preferred: tuple[str, ...]) -> None:
        self.clear(columns=True)
        keys = columns(rows, preferred)
        cells = [[cell(row.get(key)) for key in keys] for row in rows]
        for index, key in enumerate(keys):
            label = key.replace("_", " ").title()
            self.add_column(Text(label), key=key, width=column_width(label, (row[index] for row in cells), TEXT_WIDTH))
        for row_cells in cells:
            self.add_row(*row_cells)


class RecordView(Vertical):
    """A title, an empty-state line and a table, filled from one tool's answer."""

    TOOL: ClassVar[str]
    REPLY: ClassVar[type[ToolFinished]]
    TITLE: ClassVar[str]
    EMPTY: ClassVar[str]
    PREFERRED: ClassVar[tuple[str, ...]] = ()

    def compose(self) -> ComposeResult:
        yield Static(self.TITLE, classes="view-title")
        yield Static("Loading…", classes="view-status", markup=False)  # it may quote an error about user text
        yield RecordTable()

    def reload(self) -> None:
        self.app.call_tool(self.TOOL, {}, self.REPLY, self)

    def show_result(self, message: ToolFinished) -> list[dict[str, Any]]:
        status = self.query_one(".view-status", Static)
        if message.error:
            status.update(message.error)
            return []
        rows = records(message.result)
        status.update("" if rows else self.EMPTY)
        status.display = not rows
        self.query_one(RecordTable).show(rows, self.PREFERRED)
        return rows


class BudgetsView(RecordView):
    TOOL = "check_budgets"
    REPLY = BudgetsLoaded
    TITLE = "Budgets this month"
    EMPTY = "No budgets yet. Press b to set one."
    PREFERRED = ("category", "budget", "spent", "remaining", "used", "projected", "status")
    BINDINGS = [Binding("b", "set_budget", "Set budget")]

    def on_budgets_loaded(self, message: BudgetsLoaded) -> None:
        rows = self.show_result(message)

    def action_set_budget(self) -> None:
        self.app.push_screen(BudgetModal(sorted(self.app.categories)), self._set_budget)

    def _set_budget(self, budget: tuple[str, str] | None) -> None:
        if budget:
            category, amount = budget
            self.app.call_tool("set_budget", {"category": category, "amount": amount}, LedgerChanged, self.app)


class BalancesView(RecordView):
    TOOL = "account_balances"
    REPLY = BalancesLoaded
    TITLE = "Accounts and balances"
    EMPTY = "No accounts yet. Import a bank export with `wilson import FILE`."
    PREFERRED = ("account", "name", "type", "balance", "currency", "as_of")

    def on_balances_loaded(self, message: BalancesLoaded) -> None:
        self.show_result(message)
