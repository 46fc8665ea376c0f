"""Double-entry journals from the ledger: Beancount and Ledger/hledger.

Wilson stores one row per bank line; a journal needs balanced transactions. Each exported row
becomes a transaction between its account (Assets: or Liabilities: by account type) and its
category (Expenses:, Income:, or Equity: for transfer categories; uncategorised rows go to
Expenses:Uncategorized or Income:Uncategorized by sign). Splits become one posting per split.
A transfer whose two legs are both exported becomes ONE transaction with both legs; a leg whose
partner is not exported posts against its transfer category instead. When the export starts
after earlier history, each account opens with its earlier balance against Equity:Opening-Balances,
so balances in the journal match the ledger.

Names are sanitised to what both formats accept (ASCII letters, digits and dashes, each component
starting with a capital or a digit), and kept unique when two names sanitise alike.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from datetime import date, timedelta

from wilson.money import format_minor

OPENING = ("Equity", "Opening-Balances")
LIABILITY_TYPES = ("credit_card", "loan")
ROOT_BY_KIND = {"expense": "Expenses", "income": "Income", "transfer": "Equity"}


@dataclass
class Entry:
    day: date
    id: int
    payee: str
    narration: str
    notes: str | None = None
    postings: list[tuple[str, int, str]] = field(default_factory=list)  # (account, minor units, currency)


def component(text: str) -> str:
    """One account-name component both formats accept: `Café & Bar` → `Cafe-Bar`."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    cleaned = re.sub(r"[^A-Za-z0-9]+", "-", ascii_text).strip("-") or "Unnamed"
    return cleaned[0].upper() + cleaned[1:]


def commodity(currency: str) -> str:
    """An uppercase commodity code: letters only, two or more, so it never reads as a number."""
    letters = re.sub(r"[^A-Z]", "", currency.upper())
    return letters if len(letters) >= 2 else f"X{letters or 'X'}"


class AccountNames:
    """Journal account names for ledger accounts and categories, unique after sanitising."""

    def __init__(self) -> None:
        self.by_key: dict[tuple, str] = {}
        self.taken: set[str] = set()

    def name(self, key: tuple, parts: list[str]) -> str:
        if key not in self.by_key:
            base = ":".join(component(p) if i else p for i, p in enumerate(parts))
            candidate, n = base, 2
            while candidate in self.taken:
                candidate, n = f"{base}-{n}", n + 1
            self.taken.add(candidate)
            self.by_key[key] = candidate
        return self.by_key[key]

    def own(self, account: dict) -> str:
        root = "Liabilities" if account["type"] in LIABILITY_TYPES else "Assets"
        return self.name(("account", account["id"]), [root, account["name"]])

    def category(self, path: list[str] | None, kind: str | None, amount: int) -> str:
        if not path:
            root = "Income" if amount > 0 else "Expenses"
            return self.name(("uncategorized", root), [root, "Uncategorized"])
        root = ROOT_BY_KIND.get(kind or "expense", "Expenses")
        inner = path[1:] if path[0].casefold() == root.casefold() else path  # Income:Salary, not Income:Income:Salary
        return self.name(("category", *path), [root, *(inner or ["General"])])

    def opening(self) -> str:
        return self.name(("opening",), list(OPENING))


def build_entries(rows: list[dict], splits: dict[int, list[dict]], openings: list[dict], start: date | None,
                  names: AccountNames) -> list[Entry]:
    """The balanced transactions for `rows` (posted, oldest first), opening balances first."""
    entries: list[Entry] = []
    if openings and start:
        opening = Entry(start - timedelta(days=1), 0, "", "Opening balances")
        for item in openings:
            opening.postings.append((names.own(item["account"]), item["amount"], item["currency"]))
            opening.postings.append((names.opening(), -item["amount"], item["currency"]))
        entries.append(opening)
    exported = {row["id"]: row for row in rows}
    done: set[int] = set()
    for row in rows:
        if row["id"] in done:  # a zero row (a waived fee) too: the count says it is there
            continue
        entry = Entry(date.fromisoformat(row["posted"]), row["id"], row["payee"] or "", row["description"], row["notes"])
        entry.postings.append((names.own(row["account"]), row["amount"], row["currency"]))
        other = exported.get(row["transfer_id"]) if row["transfer_id"] else None
        if other and other["currency"] == row["currency"] and other["amount"] == -row["amount"]:
            entry.postings.append((names.own(other["account"]), other["amount"], other["currency"]))
            done.add(other["id"])
        else:
            entry.postings += _counter_postings(row, splits.get(row["id"], []), names)
        entries.append(entry)
    return entries


def _counter_postings(row: dict, splits: list[dict], names: AccountNames) -> list[tuple[str, int, str]]:
    postings = [(names.category(s["path"], s["kind"], s["amount"]), -s["amount"], row["currency"]) for s in splits]
    rest = row["amount"] - sum(s["amount"] for s in splits)
    if rest or not splits:
        postings.append((names.category(row["category_path"], row["category_kind"], row["amount"]), -rest, row["currency"]))
    return postings


def _quote(text: str) -> str:
    return '"' + " ".join(text.split()).replace("\\", "\\\\").replace('"', '\\"') + '"'


def render_beancount(entries: list[Entry], home_currency: str) -> str:
    lines = ['option "title" "Wilson export"', f'option "operating_currency" "{commodity(home_currency)}"', ""]
    lines += _open_lines(entries, lambda day, account: f"{day} open {account}")
    for entry in entries:
        lines.append(f"{entry.day} * {_quote(entry.payee)} {_quote(entry.narration)}")
        if entry.id:
            lines.append(f"  wilson-id: {entry.id}")
        if entry.notes:
            lines.append(f"  note: {_quote(entry.notes)}")
        lines += [f"  {account}  {format_minor(amount, currency)} {commodity(currency)}"
                  for account, amount, currency in entry.postings]
        lines.append("")
    return "\n".join(lines)


def render_ledger(entries: list[Entry]) -> str:
    """Ledger/hledger syntax: `account` directives, then `DATE * (ID) PAYEE | DESCRIPTION`."""
    lines = ["; Wilson export", ""]
    lines += _open_lines(entries, lambda day, account: f"account {account}")
    for entry in entries:
        code = f" ({entry.id})" if entry.id else ""
        parts = [_plain(t) for t in (entry.payee, entry.narration) if t.strip()]
        text = " | ".join(dict.fromkeys(parts))
        lines.append(f"{entry.day} *{code} {text}".rstrip())
        if entry.notes:
            lines.append(f"    ; {_plain(entry.notes)}")
        lines += [f"    {account}  {format_minor(amount, currency)} {commodity(currency)}"
                  for account, amount, currency in entry.postings]
        lines.append("")
    return "\n".join(lines)


def _plain(text: str) -> str:
    """Free text safe in a Ledger/hledger line: one line, no comment or payee/note separators."""
    return " ".join(text.split()).replace(";", ",").replace("|", "/")


def _open_lines(entries: list[Entry], line) -> list[str]:
    if not entries:
        return []
    first = min(entry.day for entry in entries)
    accounts = sorted({account for entry in entries for account, _, _ in entry.postings})
    return [line(first, account) for account in accounts] + [""]
