"""Categories an export supplies itself: a bank's category column, QIF `L` and split lines, the
category path of Wilson's own CSV."""

from __future__ import annotations

from wilson.importers.model import ParsedRows
from wilson.ledger import Ledger
from wilson.ledger.imports import NewRows


def file_categories(ledger: Ledger, rows: ParsedRows, new: NewRows, create: bool, source: str) -> None:
    """Categories the file supplies. A bank's category column lands only where it names one of
    ours; a QIF file's categories are the user's own (from Quicken and the like), as are those of
    a ledger's export, so they are added."""
    categories = _CategoryResolver(ledger)
    for i, (category, splits) in enumerate(zip(rows.column("category"), rows.column("splits"))):
        if category:
            new.category_id[i] = categories.resolve(category, create=create or bool(splits))
            new.category_source[i] = source if new.category_id[i] else None
        if splits:
            new.splits[i] = [(s.amount, categories.resolve(s.category, create=True), s.memo) for s in splits]


class _CategoryResolver:
    """Category names as the file writes them (`Utilities:Gas`) to ledger categories."""

    def __init__(self, ledger: Ledger):
        self.ledger = ledger
        self.known = {row["name"].casefold(): row["id"] for row in ledger.categories()}

    def resolve(self, name: str | None, create: bool) -> int | None:
        if not name or not name.strip():
            return None
        parts = [p.strip() for p in name.split(":") if p.strip()]
        if not parts:
            return None
        leaf = parts[-1]
        if leaf.casefold() in self.known:
            return self.known[leaf.casefold()]
        if not create:
            return None
        parent = None
        for part in parts:
            if part.casefold() not in self.known:
                self.known[part.casefold()] = self.ledger.ensure_category(part, parent)
            parent = part
        return self.known[leaf.casefold()]
