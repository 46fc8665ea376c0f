"""The monthly aggregate (`monthly_flows`, db/003) for writes that bypass its per-row trigger.

Import batches and bulk loads skip the insert trigger (an upsert per row made a 100k-row import
several times slower) and add their rows here instead, grouped first. The aggregate sums postings
(db/009): a split transaction's parts and its rest. A batch's splits are inserted before its rows
are counted here; their triggers have already added the difference the parts make, so the rows
are counted whole, as if they had none.
"""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from itertools import compress, repeat
from typing import Sequence

_GROUPED_ROWS = """
INSERT INTO monthly_flows
SELECT substr(posted, 1, 7), account_id, IFNULL(category_id, 0), currency, transfer_id IS NOT NULL, amount > 0,
       SUM(amount), COUNT(*)
FROM transaction_postings WHERE pending = 0
GROUP BY 1, 2, 3, 4, 5, 6
"""

_ADD_GROUP = """
INSERT INTO monthly_flows VALUES (?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT DO UPDATE SET amount = amount + excluded.amount, count = count + excluded.count
"""

# Groups back at zero: the split triggers took a batch row's whole posting out before it was
# counted, and counting it made up the difference. The partial index (db/009) holds only these.
_DROP_EMPTIED = "DELETE FROM monthly_flows WHERE count <= 0 AND count = 0 AND amount = 0"


def add_rows(
    conn: sqlite3.Connection,
    posted: Sequence[str],
    account_id: Sequence[int],
    category_id: Sequence[int | None],
    currency: Sequence[str],
    amount: Sequence[int],
    pending: Sequence[bool],
    linked: Sequence[bool] | None = None,
) -> None:
    """Count rows just inserted, given as the columns the writer already holds, into the aggregate.

    Grouping the columns here costs a fraction of SQLite grouping the rows it has just written
    (which sorts the whole batch). `linked` defaults to no transfer leg, as for a fresh import.
    """
    booked = [not p for p in pending] if any(pending) else None

    def column(values: Sequence) -> Sequence:
        return values if booked is None else list(compress(values, booked))

    amounts = column(amount)
    keys = zip(
        [day[:7] for day in column(posted)], column(account_id), column(category_id), column(currency),
        column(linked) if linked is not None else repeat(False), map((0).__lt__, amounts),
    )
    groups: defaultdict[tuple, list[int]] = defaultdict(list)
    for key, value in zip(keys, amounts):
        groups[key].append(value)
    conn.executemany(_ADD_GROUP, [
        (month, account, category or 0, money, link, inflow, sum(values), len(values))
        for (month, account, category, money, link, inflow), values in groups.items()
    ])
    conn.execute(_DROP_EMPTIED)


def rebuild_monthly_flows(conn: sqlite3.Connection) -> None:
    """Recompute the aggregate from the postings (bench/ledger_gen.py loads with the triggers dropped)."""
    conn.execute("DELETE FROM monthly_flows")
    conn.execute(_GROUPED_ROWS)
