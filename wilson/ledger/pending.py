"""Pending rows (card holds) against posted ones: a purchase counts once, whether its hold or its
settled row arrives first, and a hold that never settles does not pend forever."""

from __future__ import annotations

import re
from functools import partial
from typing import Sequence

from wilson.ledger.iso_dates import days, shift
from wilson.ledger.new_rows import NewRows
from wilson.ledger.service import Ledger

PENDING_MATCH_DAYS = 7
PENDING_STALE_DAYS = 14  # a hold settles or lapses within days: a file reaching this far past one it no longer lists retires it


def not_yet_posted(ledger: Ledger, account_id: int, rows: NewRows, until: str) -> Sequence[int]:
    """Positions minus pending rows the ledger already holds posted (an older export, ending on
    `until`, imported after a newer one): booked within a few days after, for the same amount, or
    for one a little off under the same description (a card hold settles at the final exchange
    rate or with a tip)."""
    pending = [i for i, flag in enumerate(rows.pending) if flag]
    if not pending:
        return range(len(rows))
    # The ledger holds the account's rows from well after a hold: a newer export, imported first,
    # no longer listed it (imported in date order, that export would have retired it).
    known_until = ledger.scalar("SELECT MAX(posted) FROM transactions WHERE account_id = ?", (account_id,))
    stale = {i for i in pending if known_until and days(known_until, rows.posted[i]) >= PENDING_STALE_DAYS}
    # Nor is a hold inside the days of a newer download that did not list it (one reaching past this
    # file's last day): imported in date order, that file would have retired it (`replace_pending`).
    spans = ledger.conn.execute(
        "SELECT MIN(posted), MAX(posted) FROM transactions WHERE account_id = ? AND batch_id IS NOT NULL"
        " GROUP BY batch_id HAVING MAX(posted) > ?",
        (account_id, until),
    ).fetchall()
    stale |= {i for i in pending if any(first <= rows.posted[i] <= last for first, last in spans)}
    pending = [i for i in pending if i not in stale]
    if not pending:
        return [i for i in range(len(rows)) if i not in stale]
    by_amount: dict[int, list[dict]] = {}
    by_text: dict[str, list[dict]] = {}
    for row in ledger.query(
        "SELECT id, amount, posted, description FROM transactions WHERE account_id = ? AND pending = 0 AND posted BETWEEN ? AND ?",
        (account_id, min(rows.posted[i] for i in pending), shift(max(rows.posted[i] for i in pending), PENDING_MATCH_DAYS)),
    ):
        by_amount.setdefault(row["amount"], []).append(row)
        by_text.setdefault(_held_text(row["description"]), []).append(row)
    used: set[int] = set()
    gone = set()
    for i in pending:
        nearby = by_amount.get(rows.amount[i], []) + by_text.get(_held_text(rows.description[i]), [])
        hit = next((
            row for row in nearby
            if row["id"] not in used and 0 <= days(row["posted"], rows.posted[i]) <= PENDING_MATCH_DAYS
            and (row["amount"] == rows.amount[i] or _settles(rows.amount[i], row["amount"], rows.description[i], row["description"]))
        ), None)
        if hit is not None:
            used.add(hit["id"])
            gone.add(i)
    return [i for i in range(len(rows)) if i not in gone and i not in stale]


def _settles(held: int, booked: int, held_text: str, booked_text: str) -> bool:
    """Whether a posted row settles a pending one for a different amount: same description (but
    for words marking a hold) and an amount it could settle for."""
    return _held_text(held_text) == _held_text(booked_text) and settled_amount(held, booked)


_HOLD_WORDS = re.compile(r"\b(?:pending|pend|pre-?auth(?:orization)?|auth(?:orization)?|hold)\b")


def _held_text(description: str) -> str:
    """A description as a hold and its posted row share it: `SHOP D PENDING` settles as `SHOP D`."""
    return " ".join(_HOLD_WORDS.sub(" ", description.casefold()).split())


def settled_amount(held: int, booked: int) -> bool:
    """A hold settles with a tip (30% is not unheard of) or at the final exchange rate, and a bank
    corrects a booked row by as much: same sign, within three tenths of it."""
    return (held < 0) == (booked < 0) and abs(booked - held) * 10 <= abs(held) * 3


def replace_pending(ledger: Ledger, account_id: int, rows: NewRows, fresh: NewRows) -> list[dict]:
    """Remove earlier pending rows that this file books or no longer lists; returns them for undo.

    A newer export is the authority on what is still pending inside the dates it covers, unless it
    could not list them, and on holds from well before them (a declined hold, or a $1 fuel hold that
    posted for $48.10, would pend forever). A pending row the new file confirms (same amount within a
    few days) is replaced by the posted row.
    """
    high = max(rows.posted)
    olds = ledger.query(
        "SELECT * FROM transactions INDEXED BY transactions_pending WHERE account_id = ? AND pending = 1 AND posted <= ?",
        (account_id, high),
    )
    if not olds:
        return []
    low = min(rows.posted)
    still_pending = {fp for fp, pending in zip(rows.fingerprint, rows.pending) if pending}
    booked_on: dict[int, list[str]] = {}
    booked_as: dict[str, list[tuple[int, str]]] = {}  # by description: a hold may settle for more (a tip)
    for amount, posted, pending, text in zip(fresh.amount, fresh.posted, fresh.pending, fresh.description):
        if not pending:
            booked_on.setdefault(amount, []).append(posted)
            booked_as.setdefault(_held_text(text), []).append((amount, posted))
    gone = []
    for old in olds:
        if old["fingerprint"] in still_pending:
            continue
        near = partial(_within_match_days, old["posted"])
        confirmed = any(map(near, booked_on.get(old["amount"], ()))) or any(
            near(day) and settled_amount(old["amount"], amount)
            for amount, day in booked_as.get(_held_text(old["description"]), ())
        )
        if confirmed or (rows.lists_pending and (old["posted"] >= low or days(high, old["posted"]) >= PENDING_STALE_DAYS)):
            gone.append(old)
    if gone:
        ledger.conn.executemany("DELETE FROM transactions WHERE id = ?", [(g["id"],) for g in gone])
    return gone


def _within_match_days(held: str, booked: str) -> bool:
    return abs(days(booked, held)) <= PENDING_MATCH_DAYS
