"""Hand-made ledgers for the write-side tool tests: every row states exactly what it is.

Rows go in with plain SQL through `ledger.write()` (a fixture, not an import), so a test controls
payees, bank ids, batches, transfer links and pending flags precisely and can compute the expected
answer independently.
"""

from __future__ import annotations

import importlib
import itertools
from collections import defaultdict
from datetime import date
from decimal import Decimal
from pathlib import Path

from wilson.ledger import Ledger
from wilson.money import to_minor
from wilson.tools import ToolContext, run_tool

# The tool modules these tests exercise, imported directly so another module's state can't break them.
TOOL_MODULES = ("importing", "categorize", "edit", "rules", "anomalies", "recurring", "memory", "export")

TODAY = date(2025, 6, 30)
_serial = itertools.count(1)


class Books:
    def __init__(self, path: Path, today: date = TODAY, model: str | None = None):
        self.path = path
        self.ledger = Ledger(path)
        self.today, self.model = today, model
        self.accounts: dict[str, dict] = {}
        for module in TOOL_MODULES:
            importlib.import_module(f"wilson.tools.{module}")

    def account(self, name: str, type: str = "checking", currency: str = "USD") -> dict:
        self.accounts[name] = self.ledger.create_account(name, type, currency)
        return self.accounts[name]

    def batch(self, name: str = "statement.csv") -> int:
        with self.ledger.write() as conn:
            return conn.execute(
                "INSERT INTO import_batches (file_name, file_hash, format) VALUES (?, ?, 'csv')", (name, name)
            ).lastrowid

    def add(
        self, account: str, posted: str | date, amount: str, description: str, *, payee: str | None = None,
        category: str | None = None, source: str | None = None, pending: bool = False, bank_id: str | None = None,
        batch: int | None = None, notes: str | None = None, currency: str | None = None,
    ) -> int:
        acct = self.accounts[account]
        currency = currency or acct["currency"]
        category_id = self.ledger.category(category)["id"] if category else None
        with self.ledger.write() as conn:
            return conn.execute(
                "INSERT INTO transactions (account_id, posted, amount, currency, description, payee, category_id,"
                " category_source, notes, pending, bank_id, batch_id, fingerprint) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (acct["id"], str(posted), to_minor(Decimal(amount), currency), currency, description,
                 payee if payee is not None else description, category_id,
                 (source or "bank") if category else None, notes, int(pending), bank_id, batch, f"fp{next(_serial)}"),
            ).lastrowid

    def transfer(self, from_account: str, to_account: str, posted: str, amount: str, description: str = "TRANSFER") -> tuple[int, int]:
        out = self.add(from_account, posted, f"-{amount}", f"{description} TO {to_account.upper()}", category="Transfer")
        into = self.add(to_account, posted, amount, f"{description} FROM {from_account.upper()}", category="Transfer")
        self.ledger.link_transfer(out, into)
        return out, into

    def split(self, transaction_id: int, amount: str, category: str, memo: str | None = None) -> None:
        row = self.ledger.transaction(transaction_id)
        with self.ledger.write() as conn:
            conn.execute(
                "INSERT INTO splits (transaction_id, amount, category_id, memo) VALUES (?, ?, ?, ?)",
                (transaction_id, to_minor(Decimal(amount), row["currency"]), self.ledger.category(category)["id"], memo),
            )

    def ctx(self) -> ToolContext:
        return ToolContext(ledger=self.ledger, today=self.today, model=self.model)

    def run(self, tool: str, **args: object) -> dict:
        return run_tool(tool, args, self.ctx())

    def row(self, transaction_id: int) -> dict:
        return self.ledger.query_one(
            "SELECT t.*, c.name AS category FROM transactions t LEFT JOIN categories c ON c.id = t.category_id"
            " WHERE t.id = ?", (transaction_id,)
        )

    def snapshot(self) -> list[tuple]:
        """Everything a tool could change, for "nothing changed" assertions."""
        tables = ("transactions", "rules", "memory", "categories", "accounts", "splits")
        return [tuple(r) for t in tables for r in self.ledger.conn.execute(f"SELECT * FROM {t} ORDER BY id")]


def stored_flows(ledger: Ledger) -> list[tuple]:
    """The maintained monthly aggregate (db/003, db/009), in key order."""
    return [tuple(r) for r in ledger.conn.execute("SELECT * FROM monthly_flows ORDER BY 1, 2, 3, 4, 5, 6")]


def flows_from_scratch(ledger: Ledger) -> list[tuple]:
    """The aggregate worked out here in Python, independently of the SQL that maintains it: each
    posted transaction's split parts, plus the rest of its amount under its own category (left out
    when it has parts and they leave nothing), grouped like `monthly_flows`."""
    parts: dict[int, list[tuple[int | None, int]]] = defaultdict(list)
    for tid, amount, category in ledger.conn.execute("SELECT transaction_id, amount, category_id FROM splits"):
        parts[tid].append((category, amount))
    groups: dict[tuple, list[int]] = defaultdict(lambda: [0, 0])
    for row in ledger.query("SELECT * FROM transactions WHERE pending = 0"):
        own = parts.get(row["id"], [])
        rest = row["amount"] - sum(amount for _, amount in own)
        for category, amount in own + ([(row["category_id"], rest)] if rest or not own else []):
            key = (row["posted"][:7], row["account_id"], category or 0, row["currency"],
                   int(row["transfer_id"] is not None), int(amount > 0))
            groups[key][0] += amount
            groups[key][1] += 1
    return sorted(key + tuple(totals) for key, totals in groups.items())
