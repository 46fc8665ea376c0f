"""The transactions view: a keyboard-driven table over `search_transactions`, with edits through tools."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.reactive import reactive
from textual.widgets import DataTable, Input, Static

from wilson.tui.cells import TEXT_WIDTH, amount_cell, column_width, literal, records
from wilson.tui.messages import LedgerChanged, TotalsLoaded, TransactionsLoaded
from wilson.tui.screens.category import CategoryModal
from wilson.tui.screens.confirm import ConfirmModal, summary_lines
from wilson.tui.screens.edit import EditModal

ROW_LIMIT = 500  # the most search_transactions returns in one call
# Date and amount come first and stay in view when scrolling right, so no width hides an amount.
COLUMNS = (("mark", " "), ("date", "Date"), ("amount", "Amount"), ("flags", " "),
           ("payee", "Payee / description"), ("category", "Category"), ("account", "Account"))
FIXED_COLUMNS = 4
MAX_WIDTH = {"payee": 36, "category": 24, "account": 24}  # longer text ends in an ellipsis
FLAGS = (("reviewed", "✓", "green"), ("pending", "P", "yellow"), ("split", "S", "cyan"))
FLAG_HELP = "Flags: ✓ reviewed · P pending (not posted yet, left out of totals) · S split into parts"


class TransactionsTable(DataTable):
    """Rows keyed by transaction id; space marks rows so one key can change several at once."""

    BINDINGS = [
        Binding("j", "cursor_down", "Down", show=False),
        Binding("k", "cursor_up", "Up", show=False),
        Binding("space", "mark", "Mark", show=False),
        Binding("home", "scroll_top", "First row", show=False),  # DataTable's scroll sideways
        Binding("end", "scroll_bottom", "Last row (loads older rows)", show=False),
    ]

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, fixed_columns=FIXED_COLUMNS, **kwargs)
        self.rows_by_id: dict[int, dict[str, Any]] = {}
        self.marked: set[int] = set()

    def on_mount(self) -> None:
        self.show([])

    def show(self, rows: list[dict[str, Any]]) -> None:
        """Replace the rows, keeping the cursor on the same transaction when it is still there.

        Columns are rebuilt each time with widths measured on these rows: DataTable's own widths
        only ever grow, so one long description would push the amount off-screen for good.
        """
        current = self.current_id()
        self.rows_by_id = {int(row["id"]): row for row in rows if "id" in row}
        self.marked &= set(self.rows_by_id)
        cells = [self._cells(row) for row in self.rows_by_id.values()]
        self.clear(columns=True)
        for (key, label), width in zip(COLUMNS, _widths(cells)):
            self.add_column(label, key=key, width=width)
        for tx_id, row_cells in zip(self.rows_by_id, cells):
            self.add_row(*row_cells, key=str(tx_id))
        if current in self.rows_by_id:
            self.move_cursor(row=self.get_row_index(str(current)))

    def append(self, rows: list[dict[str, Any]]) -> None:
        """Add older rows below; the table is rebuilt only if one of them needs a wider column."""
        cells = [self._cells(row) for row in rows]
        if any(width > column.width for width, column in zip(_widths(cells), self.columns.values())):
            self.show([*self.rows_by_id.values(), *rows])
            return
        for row, row_cells in zip(rows, cells):
            self.rows_by_id[int(row["id"])] = row
            self.add_row(*row_cells, key=str(row["id"]))

    def current_id(self) -> int | None:
        if not self.row_count:
            return None
        key = self.coordinate_to_cell_key(self.cursor_coordinate).row_key.value
        return int(key) if key is not None else None

    def selected_ids(self) -> list[int]:
        """The marked rows, or else the row under the cursor."""
        if self.marked:
            return sorted(self.marked)
        current = self.current_id()
        return [] if current is None else [current]

    def action_mark(self) -> None:
        current = self.current_id()
        if current is None:
            return
        self.marked ^= {current}
        self.update_cell(str(current), "mark", self._mark(current))
        self.action_cursor_down()

    def _mark(self, tx_id: int) -> Text:
        return Text("●", style="bold $accent") if tx_id in self.marked else Text(" ")

    def _cells(self, row: dict[str, Any]) -> tuple[Text, ...]:
        pending = "dim italic" if row.get("pending") else ""
        return (self._mark(int(row["id"])), literal(row.get("date"), pending),
                amount_cell(row.get("amount"), pending), _flags(row),
                literal(row.get("payee") or row.get("description")), _category(row), literal(row.get("account")))


def _widths(cells: list[tuple[Text, ...]]) -> list[int]:
    return [column_width(label, (row[index] for row in cells), MAX_WIDTH.get(key, TEXT_WIDTH))
            for index, (key, label) in enumerate(COLUMNS)]


def _flags(row: dict[str, Any]) -> Text:
    return Text.assemble(*((flag, style) for key, flag, style in FLAGS if row.get(key)), no_wrap=True)


def _category(row: dict[str, Any]) -> Text:
    """A split row is counted by its parts, so their categories are what it shows."""
    parts = row.get("split")
    if parts:
        names = dict.fromkeys(str(part.get("category") or "uncategorised") for part in parts)
        return literal(", ".join(names), style="italic")
    if not row.get("category"):
        return literal("uncategorised", style="dim italic")
    return literal(row["category"])


class TransactionsView(Vertical):
    """The table, its search box and a status line; filters live here and every change reloads."""

    BINDINGS = [
        Binding("slash", "search", "Search"),
        Binding("u", "toggle_uncategorized", "Uncategorised"),
        Binding("c", "categorize", "Category"),
        Binding("e", "edit", "Edit"),
        Binding("r", "toggle_reviewed", "Reviewed"),
        Binding("d", "delete", "Delete"),
    ]

    search_text: reactive[str] = reactive("", init=False)
    account: reactive[str | None] = reactive(None, init=False)
    uncategorized: reactive[bool] = reactive(False, init=False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._rows: TransactionsLoaded | None = None
        self._totals: TotalsLoaded | None = None
        self._older_pending = self._exhausted = False

    def compose(self) -> ComposeResult:
        yield Input(placeholder="Search descriptions and payees — Enter to search, Esc to close", id="search")
        yield Static("Loading transactions…", id="tx-status", markup=False)
        yield TransactionsTable(id="transactions")

    @property
    def table(self) -> TransactionsTable:
        return self.query_one(TransactionsTable)

    def filters(self) -> dict[str, Any]:
        """search_transactions' arguments for the current filters (only the ones in use)."""
        wanted = {"query": self.search_text, "account": self.account, "uncategorized_only": self.uncategorized}
        return {key: value for key, value in wanted.items() if value}

    def rows_args(self) -> dict[str, Any]:
        """The table lists pending rows too (flagged P), newest first."""
        return {**self.filters(), "include_pending": True, "limit": ROW_LIMIT}

    def totals_args(self) -> dict[str, Any]:
        """The status line's count and sum leave pending rows out, as every report does."""
        return {**self.filters(), "limit": 1}

    def reload(self) -> None:
        self._rows = self._totals = None
        self._older_pending = self._exhausted = False
        self.app.call_tool("search_transactions", self.rows_args(), TransactionsLoaded, self)
        self.app.call_tool("search_transactions", self.totals_args(), TotalsLoaded, self)

    watch_search_text = watch_account = watch_uncategorized = reload

    def on_transactions_loaded(self, message: TransactionsLoaded) -> None:
        if message.args == self.rows_args():
            self._rows = message
            self.table.show(records(message.result))
            if message.error:
                self.notify(message.error, severity="error", markup=False)
            self._show_status()
        elif self._rows is not None and message.args == self._older_args():
            self._add_older(message)

    def on_totals_loaded(self, message: TotalsLoaded) -> None:
        if message.args == self.totals_args():
            self._totals = message
            self._show_status()

    def _show_status(self) -> None:
        status = self.query_one("#tx-status", Static)
        if self._rows is not None and self._rows.error:
            status.update(Text(self._rows.error))
        elif self._totals is not None and self._totals.error:
            status.update(Text(self._totals.error))
        elif self._rows is not None and self._totals is not None:
            status.update(Text(self._status(self._rows.result, self._totals.result)))

    def _status(self, rows: dict[str, Any], totals: dict[str, Any]) -> str:
        count, listed, shown = totals.get("count", 0), rows.get("count", 0), self.table.row_count
        parts = [f"{count} transaction{'s' if count != 1 else ''}"]
        parts += [f"sum {amount} {currency}" for currency, amount in (totals.get("sum") or {}).items()]
        parts += [f"{listed - count} pending, not counted"] if listed > count else []
        parts += [f"showing {shown} of {listed}{'' if self._exhausted else ', more at the end'}"] if shown < listed else []
        parts += [f"search “{self.search_text}”"] if self.search_text else []
        parts += [f"account {self.account}"] if self.account else []
        parts += ["uncategorised only"] if self.uncategorized else []
        return " · ".join(parts)

    # -- older rows, a page at a time ------------------------------------------------------------

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """Reaching the last row asks for the next page, so the whole ledger can be browsed."""
        table = self.table
        if event.data_table is not table or event.cursor_row < table.row_count - 1:
            return
        if self._older_pending or self._exhausted or self._rows is None or self._rows.error:
            return
        if table.row_count >= self._rows.result.get("count", 0):
            return
        self._older_pending = True
        self.app.call_tool("search_transactions", self._older_args(), TransactionsLoaded, self)

    def _older_args(self) -> dict[str, Any]:
        """Rows up to the oldest day shown; the ones already listed are dropped when they come back."""
        oldest = min((str(row.get("date")) for row in self.table.rows_by_id.values()), default=None)
        return {**self.rows_args(), "end_date": oldest}

    def _add_older(self, message: TransactionsLoaded) -> None:
        self._older_pending = False
        shown = self.table.rows_by_id
        older = [row for row in records(message.result) if row.get("id") not in shown]
        if older and not message.error:
            self.table.append(older)
        else:
            self._exhausted = True  # more than a page on one day, or an error: stop asking
        self._show_status()

    # -- search --------------------------------------------------------------------------------

    def action_search(self) -> None:
        box = self.query_one("#search", Input)
        box.display = True
        box.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "search":
            event.stop()
            self.search_text = event.value.strip()
            self.close_search()

    def close_search(self) -> None:
        box = self.query_one("#search", Input)
        box.display = bool(self.search_text)
        self.table.focus()

    def action_toggle_uncategorized(self) -> None:
        self.uncategorized = not self.uncategorized

    # -- edits, each one tool call ---------------------------------------------------------------

    def _selection(self) -> list[int]:
        ids = self.table.selected_ids()
        if not ids:
            self.notify("No transaction selected", severity="warning")
        return ids

    def _update(self, ids: list[int], **changes: Any) -> None:
        self.table.marked.clear()
        self.app.call_tool("update_transaction", {"ids": ids, **changes}, LedgerChanged, self.app)

    def action_categorize(self) -> None:
        ids = self._selection()
        if not ids:
            return
        current = self.table.rows_by_id[ids[0]].get("category")
        self.app.push_screen(
            CategoryModal(sorted(self.app.categories), current, len(ids)),
            lambda category: category and self._update(ids, category=category),
        )

    def action_edit(self) -> None:
        ids = self._selection()
        if not ids:
            return
        row = self.table.rows_by_id[ids[0]]
        self.app.push_screen(
            EditModal(row.get("payee") or "", row.get("notes") or "", len(ids)),
            lambda changes: changes and self._update(ids, **changes),
        )

    def action_toggle_reviewed(self) -> None:
        ids = self._selection()
        if ids:
            self._update(ids, reviewed=not all(self.table.rows_by_id[i].get("reviewed") for i in ids))

    def action_delete(self) -> None:
        ids = self._selection()
        if not ids:
            return
        title = f"Delete {len(ids)} transaction{'s' if len(ids) != 1 else ''}?"
        self.app.push_screen(
            ConfirmModal(title, summary_lines(ids, self.table.rows_by_id)),
            lambda yes: yes and self._delete(ids),
        )

    def _delete(self, ids: list[int]) -> None:
        self.table.marked.clear()
        self.app.call_tool("delete_transaction", {"ids": ids}, LedgerChanged, self.app)
