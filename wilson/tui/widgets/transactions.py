"""The transactions view: a keyboard-driven table over `search_transactions`, with edits through tools."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.reactive import reactive
from textual.widgets import DataTable, Input, Static

from wilson.tui.cells import amount_cell, records
from wilson.tui.messages import LedgerChanged, TransactionsLoaded
from wilson.tui.screens.category import CategoryModal
from wilson.tui.screens.confirm import ConfirmModal
from wilson.tui.screens.edit import EditModal

ROW_LIMIT = 500  # the most search_transactions returns in one call
COLUMNS = (("mark", " "), ("date", "Date"), ("payee", "Payee / description"), ("amount", "Amount"),
           ("category", "Category"), ("account", "Account"), ("flags", " "))


class TransactionsTable(DataTable):
    """Rows keyed by transaction id; space marks rows so one key can change several at once."""

    BINDINGS = [
        Binding("j", "cursor_down", "Down", show=False),
        Binding("k", "cursor_up", "Up", show=False),
        Binding("space", "mark", "Mark", show=False),
    ]

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)
        self.rows_by_id: dict[int, dict[str, Any]] = {}
        self.marked: set[int] = set()

    def on_mount(self) -> None:
        for key, label in COLUMNS:
            self.add_column(label, key=key)

    def show(self, rows: list[dict[str, Any]]) -> None:
        """Replace the rows, keeping the cursor on the same transaction when it is still there."""
        current = self.current_id()
        self.rows_by_id = {int(row["id"]): row for row in rows if "id" in row}
        self.marked &= set(self.rows_by_id)
        self.clear()
        for tx_id, row in self.rows_by_id.items():
            self.add_row(*self._cells(row), key=str(tx_id))
        if current in self.rows_by_id:
            self.move_cursor(row=self.get_row_index(str(current)))

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

    def _cells(self, row: dict[str, Any]) -> tuple[Any, ...]:
        name = row.get("payee") or row.get("description") or ""
        category = row.get("category") or Text("uncategorised", style="dim italic")
        flags = ("✓" if row.get("reviewed") else "") + ("…" if row.get("pending") else "")
        return (self._mark(int(row["id"])), row.get("date", ""), name, amount_cell(row.get("amount")), category,
                row.get("account") or "", flags)


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

    def compose(self) -> ComposeResult:
        yield Input(placeholder="Search descriptions and payees — Enter to search, Esc to close", id="search")
        yield Static("Loading transactions…", id="tx-status")
        yield TransactionsTable(id="transactions")

    @property
    def table(self) -> TransactionsTable:
        return self.query_one(TransactionsTable)

    def filters(self) -> dict[str, Any]:
        """search_transactions' arguments for the current filters (only the ones in use)."""
        wanted = {"query": self.search_text, "account": self.account, "uncategorized_only": self.uncategorized}
        return {**{key: value for key, value in wanted.items() if value}, "limit": ROW_LIMIT}

    def reload(self) -> None:
        self.app.call_tool("search_transactions", self.filters(), TransactionsLoaded, self)

    watch_search_text = watch_account = watch_uncategorized = reload

    def on_transactions_loaded(self, message: TransactionsLoaded) -> None:
        if message.args != self.filters():
            return  # an answer to filters that have since changed
        if message.error:
            self.notify(message.error, severity="error")
            self.query_one("#tx-status", Static).update(message.error)
            return
        rows = records(message.result)
        self.table.show(rows)
        self.query_one("#tx-status", Static).update(self._status(message.result, len(rows)))

    def _status(self, result: dict[str, Any], shown: int) -> str:
        count = result.get("count", shown)
        parts = [f"{count} transaction{'s' if count != 1 else ''}"]
        total = result.get("sum")
        if isinstance(total, dict):
            parts += [f"sum {amount} {currency}" for currency, amount in total.items()]
        elif total is not None:
            parts.append(f"sum {total}")
        if shown < count:
            parts.append(f"showing {shown}")
        parts += [f"search “{self.search_text}”"] if self.search_text else []
        parts += [f"account {self.account}"] if self.account else []
        parts += ["uncategorised only"] if self.uncategorized else []
        return " · ".join(parts)

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
        lines = [f"{row.get('date', '')}  {row.get('payee') or row.get('description', '')}  {row.get('amount', '')}"
                 for row in (self.table.rows_by_id[i] for i in ids[:5])]
        lines += [f"… and {len(ids) - 5} more"] if len(ids) > 5 else []
        title = f"Delete {len(ids)} transaction{'s' if len(ids) != 1 else ''}?"
        self.app.push_screen(
            ConfirmModal(title, "\n".join(lines)),
            lambda yes: yes and self._delete(ids),
        )

    def _delete(self, ids: list[int]) -> None:
        self.table.marked.clear()
        self.app.call_tool("delete_transaction", {"ids": ids}, LedgerChanged, self.app)
