"""Categories an export supplies itself: a bank's category column, QIF `L` and split lines, the
category path of Wilson's own CSV."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping

from wilson.importers.model import ParsedRows
from wilson.ledger import Ledger
from wilson.ledger.new_rows import NewRows

CategoryPath = tuple[str, ...]  # a category's names from the root down, casefolded: ("auto", "insurance")


def file_categories(
    ledger: Ledger, rows: ParsedRows, new: NewRows, create: bool, source: str, kinds: Mapping[str, str] | None = None
) -> list[dict]:
    """Categories the file supplies; returns the ones it created ({"id", "name"}), for undo.

    A bank's category column lands only where it names one of ours; a QIF file's categories are
    the user's own (from Quicken and the like), as are those of a ledger's export, so they are
    added. `kinds` is the file's own category list (path: "income" or "expense")."""
    categories = _CategoryResolver(ledger, _Kinds(kinds or {}, _usage(rows)))
    for i, (category, splits) in enumerate(zip(rows.column("category"), rows.column("splits"))):
        if category:
            new.category_id[i] = categories.resolve(category, create=create or bool(splits))
            new.category_source[i] = source if new.category_id[i] else None
        if splits:
            new.splits[i] = [(s.amount, categories.resolve(s.category, create=True), s.memo) for s in splits]
    return categories.created


def _parts(name: str | None) -> list[str]:
    """`Home: Utilities :Water` → ["Home", "Utilities", "Water"]."""
    return [part.strip() for part in (name or "").split(":") if part.strip()]


def _path(parts: Iterable[str]) -> CategoryPath:
    return tuple(part.casefold() for part in parts)


def _usage(rows: ParsedRows) -> dict[CategoryPath, set[bool]]:
    """Per category path and each of its parents: whether the file's money under it flows in
    (True), out (False), or both. Worked out once per distinct (category, sign): a 100k-row file
    names a few dozen categories."""
    uses = {(category, amount > 0) for category, amount in zip(rows.column("category"), rows.column("amount")) if category and amount}
    uses.update((s.category, s.amount > 0) for splits in rows.column("splits") for s in splits if s.category and s.amount)
    flows: dict[CategoryPath, set[bool]] = {}
    for category, inflow in uses:
        path = _path(_parts(category))
        for depth in range(1, len(path) + 1):
            flows.setdefault(path[:depth], set()).add(inflow)
    return flows


class _Kinds:
    """The kind a new category gets: what the file's category list says (Quicken flags income
    `I`); else its parent's (a refund under Food is still Food's); else, at the top, income when
    its name says so and the file only ever puts money in under it (`Interest Inc`, `Gift
    Received`), so that income is not booked as negative spending. A name alone is not enough
    (`Interest Exp`), nor are inflows alone: a file holding only a refund under `Garden` would make
    every later garden purchase negative income."""

    def __init__(self, listed: Mapping[str, str], flows: dict[CategoryPath, set[bool]]):
        self.listed = {_path(_parts(name)): kind for name, kind in listed.items()}
        self.flows = flows

    def of(self, path: CategoryPath, parent: dict | None) -> str:
        if path in self.listed:
            return self.listed[path]
        if parent is not None:
            return parent["kind"]
        return "income" if self.flows.get(path) == {True} and _INCOME_WORDS.search(path[-1]) else "expense"


# Income as Quicken, banks and people name it, in the languages Wilson reads.
_INCOME_WORDS = re.compile(
    r"\b(?:inc|income|salary|salaries|wages?|pay|payroll|paycheck|bonus|interest|dividends?|div|gifts? received|tax refund|"
    r"pension|revenue|commission|tips|freelance|consulting|royalt(?:y|ies)|allowance|stipend|gehalt|lohn|zinsen|einnahmen|einkommen|dividenden?|rente|salaire|revenus?|"
    r"int[ée]r[êe]ts|sueldo|n[óo]mina|ingresos?|intereses|stipendio|reddito|interessi|sal[áa]rio|rendimentos?|juros|"
    r"salaris|inkomsten|l[øö]n|r[äa]nta|renter)\b",
    re.IGNORECASE,
)


class _CategoryResolver:
    """Category paths as the file writes them (`Auto:Insurance`) to ledger categories, keeping the
    file's hierarchy.

    Names are unique in the ledger, so a category whose name the ledger already gives one under
    another parent (`Insurance`, under Bills & Subscriptions) is named after its parent instead
    (`Auto Insurance`, under `Auto`); resolved the same way, next month's file lands in it again.
    A path's first name is the ledger's category of that name wherever it sits, as a single name
    (`Insurance`) is."""

    def __init__(self, ledger: Ledger, kinds: _Kinds):
        self.ledger, self.kinds = ledger, kinds
        self.by_name = {row["name"].casefold(): row for row in ledger.query("SELECT id, name, parent_id, kind FROM categories")}
        self.resolved: dict[tuple[str, bool], int | None] = {}
        self.created: list[dict] = []

    def resolve(self, name: str | None, create: bool) -> int | None:
        if not name:
            return None
        if (name, create) not in self.resolved:
            self.resolved[name, create] = self.lookup(_parts(name), create)
        return self.resolved[name, create]

    def lookup(self, parts: list[str], create: bool) -> int | None:
        """The path's category, created with its parents when `create`; without, a bank's path
        (`Bills:Insurance`) lands in our category of its last name, if we have one."""
        parent: dict | None = None
        for depth, part in enumerate(parts):
            row = self.place(part, parent)
            if isinstance(row, str):
                if not create:
                    leaf = self.by_name.get(parts[-1].casefold())
                    return leaf["id"] if leaf else None
                row = self.add(row, parent, self.kinds.of(_path(parts[: depth + 1]), parent))
            parent = row
        return parent["id"] if parent else None

    def place(self, part: str, parent: dict | None) -> dict | str:
        """The ledger's category for `part` under `parent`, or the free name to create it under."""
        taken = ((name, self.by_name.get(name.casefold())) for name in _names(part, parent))
        name, row = next((name, row) for name, row in taken if row is None or parent is None or row["parent_id"] == parent["id"])
        return row or name

    def add(self, name: str, parent: dict | None, kind: str) -> dict:
        category_id = self.ledger.ensure_category(name, parent["name"] if parent else None, kind)
        row = {"id": category_id, "name": name, "parent_id": parent["id"] if parent else None, "kind": kind}
        self.by_name[name.casefold()] = row
        self.created.append({"id": category_id, "name": name})
        return row


def _names(part: str, parent: dict | None) -> Iterator[str]:
    """The names a category may have under `parent`: its own, then made from its parent's
    (`Auto Insurance`), then numbered, which some name eventually is free."""
    yield part
    if parent is None:
        return
    yield f"{parent['name']} {part}"
    number = 2
    while True:
        yield f"{parent['name']} {part} {number}"
        number += 1
