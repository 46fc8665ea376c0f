"""The Wilson app: transactions, budgets and balances on the left, the ask panel on the right.

Every read and write is a tool call made in a thread worker (`call_tool`), answered with a
message to the widget that asked; nothing on the start-up path opens the ledger or loads the agent.
"""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.message_pump import MessagePump
from textual.widgets import ContentSwitcher, DataTable, Footer, Header, Input, Tab, Tabs

from wilson.tui.cells import records
from wilson.tui.gateway import ToolGateway
from wilson.tui.messages import (
    BalancesLoaded, CategoriesLoaded, LedgerChanged, ToolFinished, TransactionsLoaded, result_notes,
)
from wilson.tui.screens.help import HelpScreen
from wilson.tui.widgets.accounts import AccountList
from wilson.tui.widgets.ask import AskPanel
from wilson.tui.widgets.records import BalancesView, BudgetsView
from wilson.tui.widgets.transactions import FLAG_HELP, TransactionsTable, TransactionsView

VIEWS = {"transactions": "1 Transactions", "budgets": "2 Budgets", "balances": "3 Accounts"}
# Below 100 columns the account sidebar hides (f brings it back); below 80 the ask panel shows only
# while it has focus (a, :), so the table keeps room for date, amount and payee (wilson.tcss).
BREAKPOINTS = [(0, "-narrow"), (80, "-medium"), (100, "-wide")]


class SkillWarnings(Message):
    def __init__(self, warnings: list[str]) -> None:
        super().__init__()
        self.warnings = warnings


class WilsonApp(App[None]):
    CSS_PATH = "wilson.tcss"
    HORIZONTAL_BREAKPOINTS = BREAKPOINTS
    TITLE = "Wilson"
    SUB_TITLE = "your money, in your terminal"
    BINDINGS = [
        Binding("q", "quit", "Quit"),
        Binding("question_mark", "help", "Help"),
        Binding("1", "show('transactions')", "Transactions", show=False),
        Binding("2", "show('budgets')", "Budgets", show=False),
        Binding("3", "show('balances')", "Accounts", show=False),
        Binding("a", "ask", "Ask"),
        Binding("colon", "ask", "Ask", show=False),
        Binding("f", "accounts", "Filter by account", show=False),
        Binding("escape", "escape", "Stop / back", show=False),
    ]

    def __init__(self, model: str | None = None) -> None:
        super().__init__()
        self.model = model
        self.tools = ToolGateway(model)
        self.categories: set[str] = set()

    def compose(self) -> ComposeResult:
        yield Header()
        yield Tabs(*(Tab(label, id=view) for view, label in VIEWS.items()), id="view-tabs")
        with Horizontal(id="body"):
            yield AccountList(id="sidebar")
            with ContentSwitcher(initial="transactions", id="views"):
                yield TransactionsView(id="transactions-view")
                yield BudgetsView(id="budgets-view")
                yield BalancesView(id="balances-view")
            yield AskPanel(self.model, id="ask")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(TransactionsTable).focus()
        self.refresh_data()
        self.run_worker(self._skill_warnings, thread=True, group="start-up")

    def on_unmount(self) -> None:
        self.tools.close()

    # -- tools -----------------------------------------------------------------------------------

    def call_tool(self, name: str, args: dict[str, Any], reply: type[ToolFinished], to: MessagePump) -> None:
        """Run a tool in a thread worker and post `reply(name, args, result)` to `to`."""

        def call() -> None:
            to.post_message(reply(name, args, self.tools.call(name, args)))

        self.run_worker(call, thread=True, group=f"tool:{name}", description=name)

    def changes_data(self, tool: str) -> bool:
        found = self.tools.tool(tool)
        return found is None or found.changes_data

    def refresh_data(self) -> None:
        """Reload every view from the ledger (after an edit here or a run that changed data)."""
        self.query_one(TransactionsView).reload()
        self.query_one(BudgetsView).reload()
        self.query_one(BalancesView).reload()
        self.call_tool("list_categories", {}, CategoriesLoaded, self)

    def on_categories_loaded(self, message: CategoriesLoaded) -> None:
        """The category pickers offer every category the ledger has."""
        if not message.error:
            self.categories = {str(row["name"]) for row in records(message.result) if row.get("name")}

    def known_transactions(self) -> dict[int, dict[str, Any]]:
        """The rows the table has listed, by id: what an approval can name without asking the ledger."""
        return dict(self.query_one(TransactionsTable).rows_by_id)

    def on_ledger_changed(self, message: LedgerChanged) -> None:
        """The tool's own notes (a split row keeps its parts' categories, a rule was learned) are shown,
        since a bare "done" would hide that the change did not do all the user expected."""
        if message.error:
            self.notify(message.error, severity="error", timeout=8, markup=False)
            return
        notes = result_notes(message.result)
        rows = self.known_transactions()
        split = any(rows.get(tx_id, {}).get("split") for tx_id in message.args.get("ids") or [])
        self.notify("\n".join([f"{message.tool.replace('_', ' ')}: done", *notes]), timeout=10 if notes else 2,
                    severity="warning" if notes and split else "information", markup=False)
        self.refresh_data()

    # A worker's result may arrive while the app closes and its screen is gone: then it goes nowhere.
    def on_transactions_loaded(self, message: TransactionsLoaded) -> None:
        for sidebar in self.query(AccountList) if not message.error else ():
            sidebar.add_accounts(row.get("account") for row in records(message.result))

    def on_balances_loaded(self, message: BalancesLoaded) -> None:
        for sidebar in self.query(AccountList) if not message.error else ():
            sidebar.add_accounts(row.get("account") or row.get("name") for row in records(message.result))

    def on_account_list_chosen(self, message: AccountList.Chosen) -> None:
        self.query_one(TransactionsView).account = message.account
        self.action_show("transactions")

    # -- start-up extras, off the start-up path ----------------------------------------------------

    def _skill_warnings(self) -> None:
        from wilson.skills import discover

        warnings = discover(known_tools=self.tools.available()).warnings
        if warnings:
            self.post_message(SkillWarnings(warnings))

    def on_skill_warnings(self, message: SkillWarnings) -> None:
        shown = "\n".join(message.warnings[:5])
        more = f"\n… and {len(message.warnings) - 5} more (wilson skills)" if len(message.warnings) > 5 else ""
        self.notify(shown + more, title=f"{len(message.warnings)} skill warning(s)", severity="warning", timeout=10,
                    markup=False)

    # -- keys ------------------------------------------------------------------------------------

    def action_show(self, view: str) -> None:
        self.query_one("#views", ContentSwitcher).current = f"{view}-view"
        self.query_one(Tabs).active = view
        self.query_one(f"#{view}-view").query_one(DataTable).focus()

    def on_tabs_tab_activated(self, event: Tabs.TabActivated) -> None:
        if event.tab.id and self.query_one("#views", ContentSwitcher).current != f"{event.tab.id}-view":
            self.action_show(event.tab.id)

    def action_ask(self) -> None:
        self.query_one("#ask-input", Input).focus()

    def action_accounts(self) -> None:
        self.query_one(AccountList).focus()

    def action_escape(self) -> None:
        """Esc stops a running question first; otherwise it leaves a text box or the sidebar for the table."""
        ask = self.query_one(AskPanel)
        if ask.running and not ask.stopping:
            ask.cancel()
        elif isinstance(self.focused, AccountList):
            self.query_one(TransactionsTable).focus()
        elif isinstance(self.focused, Input):
            transactions = self.query_one(TransactionsView)
            if self.focused.id == "search":
                transactions.close_search()
            else:
                self.action_show(self.query_one("#views", ContentSwitcher).current.removesuffix("-view"))

    def action_help(self) -> None:
        self.push_screen(HelpScreen([
            ("Everywhere", self.BINDINGS),
            ("Transactions", [*TransactionsView.BINDINGS, *TransactionsTable.BINDINGS]),
            ("Budgets", BudgetsView.BINDINGS),
        ], notes=[FLAG_HELP]))
