"""The monthly aggregate (`monthly_flows`, db/003) for writes that bypass its per-row triggers.

Import batches and bulk loads skip the insert trigger (an upsert per row made a 100k-row import
several times slower) and add their rows here instead, grouped first. The aggregate sums postings
(db/009): a split transaction's parts and its rest. A batch's splits skip their insert triggers too
(`split_triggers_dropped`): each re-reads every posting of its transaction, so one transaction's
2,500 parts cost seconds. Its rows are then counted here as their postings.
"""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from contextlib import contextmanager
from itertools import compress, repeat
from typing import Iterator, Mapping, Sequence

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

# The triggers (db/009) that count a part inserted into a transaction already counted.
_SPLIT_INSERT_TRIGGERS = ("monthly_flows_split_insert_before", "monthly_flows_split_insert")

Parts = Mapping[int, Sequence[tuple[int, int | None]]]  # a row's split parts by position: (amount, category)


def add_rows(
    conn: sqlite3.Connection,
    posted: Sequence[str],
    account_id: Sequence[int],
    category_id: Sequence[int | None],
    currency: Sequence[str],
    amount: Sequence[int],
    pending: Sequence[bool],
    linked: Sequence[bool] | None = None,
    parts: Parts | None = None,
) -> None:
    """Count rows just inserted, given as the columns the writer already holds, into the aggregate.

    Grouping the columns here costs a fraction of SQLite grouping the rows it has just written
    (which sorts the whole batch). `linked` defaults to no transfer leg, as for a fresh import. A
    row with `parts` (inserted while `split_triggers_dropped`) is counted as its postings.
    """
    if parts:
        legs = linked if linked is not None else [False] * len(amount)
        posted, account_id, category_id, currency, amount, pending, linked = _postings(
            parts, posted, account_id, category_id, currency, amount, pending, legs
        )
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


def _postings(parts: Parts, *columns: Sequence) -> list[list]:
    """The columns with each row that has parts replaced by its postings, as db/009's views read
    them: every part under its own category, and the rest of the row's amount under the row's,
    left out when parts leave none."""
    category_id, amount = columns[2], columns[4]
    postings: list[tuple[int, int | None, int]] = []  # (row position, category, amount)
    for position, whole in enumerate(amount):
        own = parts.get(position, ())
        postings += [(position, category, value) for value, category in own]
        rest = whole - sum(value for value, _ in own)
        if rest or not own:
            postings.append((position, category_id[position], rest))
    rows, categories, amounts = zip(*postings)
    expanded = [[values[row] for row in rows] for values in columns]
    expanded[2], expanded[4] = list(categories), list(amounts)
    return expanded


@contextmanager
def split_triggers_dropped(conn: sqlite3.Connection) -> Iterator[None]:
    """Insert split parts without their per-part triggers; the caller counts their rows with
    `add_rows(..., parts=...)`. Each trigger re-aggregates every posting of the part's transaction,
    so one transaction's parts cost time quadratic in their number (2,500 parts: 20 s). Run it
    inside a transaction, so that a failure rolls the DDL back with everything else."""
    placeholders = ", ".join("?" * len(_SPLIT_INSERT_TRIGGERS))
    triggers = [sql for (sql,) in conn.execute(
        f"SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name IN ({placeholders})", _SPLIT_INSERT_TRIGGERS)]
    for name in _SPLIT_INSERT_TRIGGERS:
        conn.execute(f'DROP TRIGGER IF EXISTS "{name}"')
    yield
    for sql in triggers:
        conn.execute(sql)


def rebuild_monthly_flows(conn: sqlite3.Connection) -> None:
    """Recompute the aggregate from the postings (bench/ledger_gen.py loads with the triggers dropped)."""
    conn.execute("DELETE FROM monthly_flows")
    conn.execute(_GROUPED_ROWS)
