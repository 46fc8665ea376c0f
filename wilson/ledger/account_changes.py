"""A batch's changes to accounts and categories, noted with it so undo can take them back."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from wilson.ledger.service import Ledger


@dataclass
class AccountChanges:
    """What a batch did to accounts besides adding rows: the accounts it created, and the balances
    it set as (account id, figures before, figures after), each figure (balance, date, source);
    and the categories it created."""

    created: list[dict] = field(default_factory=list)  # {"id", "name"}
    balances: list[tuple[int, list, list]] = field(default_factory=list)
    stated: list[tuple[int, list]] = field(default_factory=list)  # every balance the file gave, set or not
    categories: list[dict] = field(default_factory=list)  # {"id", "name"}
    numbered: list[tuple[int, str]] = field(default_factory=list)  # (account id, the bank's number it was given)
    issuer_side: list[int] = field(default_factory=list)  # card accounts whose QIF rows were read from the issuer's side

    def __bool__(self) -> bool:
        return bool(self.created or self.balances or self.stated or self.categories or self.numbered or self.issuer_side)


def note_account_changes(ledger: Ledger, batch_id: int, changes: AccountChanges) -> None:
    if changes:
        ledger.conn.execute(
            "UPDATE import_batches SET account_changes = ? WHERE id = ?",
            (json.dumps({"created": changes.created, "balances": changes.balances, "stated": changes.stated,
                         "categories": changes.categories, "numbered": changes.numbered, "issuer_side": changes.issuer_side}), batch_id),
        )
