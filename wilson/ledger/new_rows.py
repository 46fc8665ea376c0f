"""One import batch's rows: the shape importers hand the ledger, shared by every step of recording."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Sequence


@dataclass
class NewRows:
    """One batch's rows column by column, positions aligned across the lists.

    An import of 100,000 rows fingerprints, de-duplicates and inserts whole columns with C-level
    `map` and `zip`, instead of paying for an object per row.
    """

    account_id: list[int]
    posted: list[str]
    amount: list[int]
    currency: list[str]
    description: list[str]
    fingerprint: list[int]
    payee: list[str | None]
    category_id: list[int | None]
    category_source: list[str | None]
    notes: list[str | None]
    pending: list[bool]
    bank_id: list[str | None]
    original_amount: list[int | None]
    original_currency: list[str | None]
    splits: dict[int, list[tuple[int, int | None, str | None]]] = field(default_factory=dict)  # by position
    transfer_hint: dict[int, str] = field(default_factory=dict)  # position: the own account the file says it moves to
    lists_pending: bool = True  # the file would list rows still pending (a ledger's own export leaves them out)

    def __len__(self) -> int:
        return len(self.fingerprint)

    def take(self, keep: Sequence[int]) -> "NewRows":
        """The rows at these positions, in this order."""
        if len(keep) == len(self):
            return self
        picked = {name: [getattr(self, name)[i] for i in keep] for name in _ROW_COLUMNS}
        moved = {old: new for new, old in enumerate(keep)} if self.splits or self.transfer_hint else {}
        return NewRows(
            **picked,
            splits={moved[i]: s for i, s in self.splits.items() if i in moved},
            transfer_hint={moved[i]: name for i, name in self.transfer_hint.items() if i in moved},
            lists_pending=self.lists_pending,
        )


_ROW_COLUMNS = tuple(f.name for f in fields(NewRows) if f.name not in ("splits", "transfer_hint", "lists_pending"))
