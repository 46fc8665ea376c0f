"""Recording an import batch, de-duplicated against the rows the ledger holds.

A row's fingerprint is its account, date, amount and normalised description plus its occurrence
number among identical rows of the same file, so two genuine $5.75 coffees in one export are both
kept while the same rows seen again in an overlapping export are not added twice. Bank ids
(FITIDs) are a second signal, scoped to the account and only trusted together with the amount and
a date a few days away (a bank may re-date a row between two downloads and keep its FITID).
"""

from __future__ import annotations

import json
import re
import sqlite3
from array import array
from bisect import bisect_left, bisect_right
from collections import Counter
from contextlib import nullcontext
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain, compress, islice
from operator import not_
from typing import Callable, Iterable, Sequence

from wilson.ledger.aggregates import add_rows, split_triggers_dropped
from wilson.ledger.bulk import derived_structures_dropped, is_bulk
from wilson.ledger.iso_dates import days, shift
from wilson.ledger.new_rows import NewRows
from wilson.ledger.pending import not_yet_posted, replace_pending, settled_amount
from wilson.ledger.service import Ledger
from wilson.ledger.transfers import link_transfers

BANK_ID_MATCH_DAYS = 7  # a row the bank re-dated keeps its id
MOVED_ROW_DAYS = 3  # without an id, a row the bank re-dated: authorisation to posting date
# A new download of an account leaves out at most this share of its rows where it lists them again, or this many.
AMENDED_SHARE, AMENDED_FEW = 0.5, 3
SHARED_SPAN_DAYS = 4  # a file and an account sharing more days than this cover the same stretch, not a boundary
SAME_DAYS_MIN = 3  # held rows on a file's days, at the least, before it can be shown to list the same days
SOURCE_ROWS = 2_000  # an account's rows on a file's days read whole to tell which downloads it lists again
SAME_DAYS_SHARE = 0.8  # of them, this many listed again by text, or on their day for their amount, show it does


@dataclass
class BatchRecord:
    file_name: str
    file_path: str | None  # None: piped in
    file_hash: str
    format: str
    account_id: int | None
    rows_read: int
    skipped: int = 0
    first_date: str | None = None  # the days the file covered
    last_date: str | None = None


@dataclass
class ImportOutcome:
    batch_id: int | None  # None after a dry run
    added: int = 0
    duplicates: int = 0
    pending_added: int = 0
    pending_replaced: int = 0
    pending_settled: int = 0  # the file's pending rows that the ledger holds posted already, or that settled long ago
    corrected: int = 0  # rows the bank's corrections replaced or deleted
    transfers_linked: int = 0
    categorized: int = 0


def record_import(
    ledger: Ledger,
    batch: BatchRecord,
    rows: NewRows,
    prepare: Callable[[NewRows], None] | None = None,
    superseded: Sequence[tuple[int, str]] = (),
) -> ImportOutcome:
    """Insert what is new in `rows` as one batch. Call inside `ledger.write()`.

    `prepare` (payee cleaning, categorising) sees only the rows that will really be inserted, so
    duplicates cost nothing beyond their fingerprint. `superseded` names rows already in the ledger
    (account id, bank id) that the file's corrections replace or delete; undo restores them.
    """
    conn = ledger.conn
    cur = conn.execute(
        "INSERT INTO import_batches (file_name, file_path, file_hash, format, account_id, rows_read, skipped, first_date, last_date,"
        " listed_noted) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1)",
        (batch.file_name, batch.file_path, batch.file_hash, batch.format, batch.account_id, batch.rows_read, batch.skipped,
         batch.first_date, batch.last_date),
    )
    outcome = ImportOutcome(batch_id=cur.lastrowid)  # type: ignore[arg-type]
    corrected = _remove_superseded(ledger, superseded)
    pending_replaced: list[dict] = []
    for account_id, positions in _by_account(rows):
        account_rows = rows.take(positions)
        window = (account_id, min(account_rows.posted), max(account_rows.posted))
        new, taken, relisted = _new_positions(ledger, window, account_rows)
        _record_listed(conn, outcome.batch_id, account_id, account_rows, new, taken)
        corrected += _remove_amended(ledger, window, account_rows, new, taken, relisted)
        fresh = account_rows.take(new)
        held = len(fresh)
        fresh = fresh.take(not_yet_posted(ledger, account_id, fresh, window[2]))
        outcome.pending_settled += held - len(fresh)
        outcome.duplicates += len(account_rows) - held
        pending_replaced += replace_pending(ledger, account_id, account_rows, fresh)
        if prepare and len(fresh):
            uncategorized = fresh.category_id.count(None)
            prepare(fresh)
            outcome.categorized += uncategorized - fresh.category_id.count(None)
        _insert(ledger, outcome.batch_id, fresh)
        pending = sum(fresh.pending)
        outcome.pending_added += pending
        outcome.added += len(fresh) - pending
    outcome.pending_replaced, outcome.corrected = len(pending_replaced), len(corrected)
    replaced = corrected + pending_replaced
    outcome.transfers_linked = link_transfers(ledger, outcome.batch_id, rows)
    conn.execute(
        "UPDATE import_batches SET added = ?, duplicates = ?, pending = ?, replaced = ? WHERE id = ?",
        (outcome.added, outcome.duplicates, outcome.pending_added, json.dumps(replaced) if replaced else None, outcome.batch_id),
    )
    return outcome


def _record_listed(conn: sqlite3.Connection, batch_id: int, account_id: int, rows: NewRows, new: Sequence[int], taken: set[int]) -> None:
    """Note the account's rows the file lists that it already held (see `batch_listed`): those it
    did not add (their fingerprints are the held rows'), and the held rows it matched otherwise."""
    if len(new) == len(rows) and not taken:
        return  # a first download: it listed nothing already there
    added = set(new)
    listed = {fingerprint for i, fingerprint in enumerate(rows.fingerprint) if i not in added} if added else set(rows.fingerprint)
    conn.execute("INSERT INTO batch_listed (batch_id, account_id, fingerprints) VALUES (?, ?, ?)",
                 (batch_id, account_id, array("q", listed | taken).tobytes()))


def _by_account(rows: NewRows) -> list[tuple[int, Sequence[int]]]:
    """Positions of each account's rows (most files hold one account: all positions)."""
    owners = set(rows.account_id)
    if len(owners) == 1:
        return [(owners.pop(), range(len(rows)))]
    grouped: dict[int, list[int]] = {}
    for position, account_id in enumerate(rows.account_id):
        grouped.setdefault(account_id, []).append(position)
    return list(grouped.items())


def _plain_rows(conn: sqlite3.Connection, sql: str, params: tuple) -> sqlite3.Cursor:
    """A cursor yielding plain tuples: `sqlite3.Row` objects cost a lot over 100k rows."""
    cursor = conn.cursor()
    cursor.row_factory = None
    return cursor.execute(sql, params)


def _new_positions(ledger: Ledger, window: tuple[int, str, str], rows: NewRows) -> tuple[list[int], set[int], tuple[str, str] | None]:
    """Rows not already in the account (id, first and last day of the file): by fingerprint, or by
    bank id with the same date and amount, or as a row the bank moved; the fingerprints of the held
    rows that the last two answered for (another row of the file cannot amend them); and the days
    the file lists the account's rows again (`_relisted_days`)."""
    account_id = window[0]
    taken: set[int] = set()
    # Fingerprints come straight from the account/date index, without touching the rows.
    existing_fps = set(chain.from_iterable(_plain_rows(
        ledger.conn, "SELECT fingerprint FROM transactions WHERE account_id = ? AND posted BETWEEN ? AND ?", window)))
    if existing_fps.issuperset(rows.fingerprint):
        return [], taken, None  # a file imported before: every row is there
    held = len(existing_fps)  # without any, no row of the account can have moved within the file's dates
    existing_fps.update(_replaced_fingerprints(ledger, account_id))
    existing_fps.update(chain.from_iterable(_plain_rows(
        ledger.conn, "SELECT fingerprint FROM deleted_rows WHERE account_id = ? AND posted BETWEEN ? AND ?", window)))
    fresh = list(compress(range(len(rows)), map(not_, map(existing_fps.__contains__, rows.fingerprint))))  # C-level over 100k
    answered = len(rows) - len(fresh)
    ids = rows.bank_id
    if fresh and ids.count(None) < len(rows):
        fresh = _twins_by_bank_id(ledger, window, rows, fresh)
        ids, fresh = _not_held_by_bank_id(ledger, window, rows, fresh, taken)
    relisted = _relisted_days(rows, fresh) if held and 0 < len(fresh) < len(rows) else None
    return (_not_moved(ledger, window, rows, ids, fresh, taken, relisted, (held, answered)) if fresh and held else fresh), taken, relisted


def _twins_by_bank_id(ledger: Ledger, window: tuple[int, str, str], rows: NewRows, fresh: list[int]) -> list[int]:
    """Of identical rows (the same day, amount and text) told apart by their bank ids, the ones the
    account holds are those under its ids, whatever their order in the file: a download taken
    mid-day lists one of two coffees, the next lists both, the other first, and its new row is the
    one under the id not held (the held id was booked twice, the other never). The two change
    fingerprints too, so the held row's stays its own: undone, its file brings it back."""
    key = lambda i: (rows.posted[i], rows.amount[i], rows.description[i].casefold())  # noqa: E731
    new_twins: dict[tuple, list[int]] = {}
    for i in fresh:
        if rows.bank_id[i]:
            new_twins.setdefault(key(i), []).append(i)
    if not new_twins:
        return fresh
    held = dict(_plain_rows(
        ledger.conn, "SELECT fingerprint, bank_id FROM transactions WHERE account_id = ? AND posted BETWEEN ? AND ? AND bank_id IS NOT NULL",
        window,
    ))
    held_ids = set(held.values())
    days = {day for day, _, _ in new_twins}
    swapped: dict[int, int] = {}  # a new row under a held id: the listed row it changes places with
    for j in compress(range(len(rows)), map(days.__contains__, rows.posted)):
        twins = new_twins.get(key(j))
        held_id = held.get(rows.fingerprint[j])
        if not twins or held_id is None or held_id == rows.bank_id[j] or rows.bank_id[j] in held_ids:
            continue
        i = next((i for i in twins if rows.bank_id[i] == held_id and i not in swapped), None)
        if i is not None:
            swapped[i] = j
    prints = rows.fingerprint
    for i, j in swapped.items():
        prints[i], prints[j] = prints[j], prints[i]
    return sorted(swapped.get(i, i) for i in fresh) if swapped else fresh


def _not_held_by_bank_id(
    ledger: Ledger, window: tuple[int, str, str], rows: NewRows, fresh: list[int], taken: set[int]
) -> tuple[list[str | None], list[int]]:
    """The ids that name rows (see `_naming_ids`), and the positions minus rows the account holds
    under the same one and amount (see `_same_row`)."""
    held: dict[str, list[tuple[str, int, str, int]]] = {}
    for bank_id, posted, amount, text, fingerprint in _plain_rows(
        ledger.conn,
        "SELECT bank_id, posted, amount, description, fingerprint FROM transactions"  # a pending row is replaced, not matched
        " WHERE account_id = ? AND posted BETWEEN ? AND ? AND bank_id IS NOT NULL AND pending = 0",
        (window[0], shift(window[1], -BANK_ID_MATCH_DAYS), shift(window[2], BANK_ID_MATCH_DAYS)),
    ):
        held.setdefault(bank_id, []).append((posted, amount, text, fingerprint))
    if not held:
        return rows.bank_id, fresh  # nothing for an id to name (an account's first download)
    ids = _naming_ids(rows, held)
    answered = set(rows.fingerprint)  # rows already there by fingerprint answer for those, not for others
    candidates: dict[tuple[str, int], list[tuple[str, str, int]]] = {}
    for bank_id, seen in held.items():
        for posted, amount, text, fingerprint in seen:
            if fingerprint not in answered:
                candidates.setdefault((bank_id, amount), []).append((posted, text.casefold(), fingerprint))
    return ids, _unmatched(fresh, lambda i: candidates.get((ids[i], rows.amount[i])) if ids[i] else None, rows, _same_row, taken)


def _naming_ids(rows: NewRows, held: dict[str, list[tuple[str, int, str, int]]]) -> list[str | None]:
    """The file's bank ids that each name one day's row (a purchase and its fee may share one),
    None for the others. Numbers by the rows' places in each download (`1` to `N`, restarting in
    the next) name none: told by ids that are numbers close together, starting where the account's
    near its days start, and held on other days or amounts more often than on the same ones (a
    young account's stable `1`, `2`, `3` come back on their own days; a credit union's `10240`,
    `10241` go on from `10234`, though the row the next download shares was dated again). Nor
    does an id that the file, or the account near its days, gives rows on several days (a bank
    that writes `0` on every row). Trusted, such ids took the next download's new rows for the
    same purchases a week before."""
    named: dict[str, set[str]] = {}
    same = other = 0
    for bank_id, posted, amount in zip(rows.bank_id, rows.posted, rows.amount):
        if not bank_id:
            continue
        named.setdefault(bank_id, set()).add(posted)
        seen = held.get(bank_id)
        if seen:
            if any(day == posted and was == amount for day, was, _, _ in seen):
                same += 1
            else:
                other += 1
    booked = [bank_id for bank_id, pending in zip(rows.bank_id, rows.pending) if bank_id and not pending]  # as the account holds them
    if other > same and _numbered(named) and _restarts(booked, held):
        return [None] * len(rows)
    one_day = {bank_id for bank_id, on in named.items() if len(on) == 1 and len({day for day, *_ in held.get(bank_id, ())}) <= 1}
    return [bank_id if bank_id in one_day else None for bank_id in rows.bank_id]


def _restarts(ids: Iterable[str], held: dict[str, list]) -> bool:
    """Whether the file's numbers start where the account's near its days do, or below (`1` again,
    the account's first row having been a declined or pending one; a bank's own run goes on:
    `10240` after `10234`)."""
    held_numbers = [int(bank_id) for bank_id in held if bank_id.isdigit()]
    numbers = [int(bank_id) for bank_id in ids if bank_id.isdigit()]
    return bool(held_numbers) and bool(numbers) and min(numbers) <= min(held_numbers)


def _numbered(ids: Iterable[str]) -> bool:
    """Whether ids are numbers close together (`1`, `2`, `4`, or `011` to `015`): places in a
    download, some rows perhaps left out, where a bank's own ids are long or far apart."""
    values = sorted({int(bank_id) for bank_id in ids if bank_id.isdigit()})
    return bool(values) and len(values) == len(set(ids)) and values[-1] - values[0] < 2 * len(values)


def _same_row(seen: tuple[str, str, int], posted: str, description: str) -> bool:
    """Whether a row holding the new row's bank id and amount is the new row: the bank may re-date a
    row between downloads, and reword it only by adding to it (an authorisation's `AMAZON MKTPL`
    settles as `AMAZON MKTPL*AB12C3DE4`); a bank that numbers its ids by position in each download
    gives another shop's purchase two days later the same id."""
    day, text, _ = seen
    return abs(days(day, posted)) <= BANK_ID_MATCH_DAYS and (day == posted or reworded(text, description.casefold()))


Held = tuple[str, str, int, int]  # a held row: its day, casefolded text, fingerprint and batch


def _not_moved(
    ledger: Ledger, window: tuple[int, str, str], rows: NewRows, ids: list[str | None], fresh: list[int], taken: set[int],
    relisted: tuple[str, str] | None, coverage: tuple[int, int],
) -> list[int]:
    """Positions minus rows the bank re-dated or re-worded since an earlier download, where no bank
    id tells: an imported row inside this file's dates that the file no longer lists is the file's
    new row of the same amount a few days off whose text is the old one's, cut or extended (an OFX
    cuts a name at 32 characters), or any text on the same day where the file lists that day whole
    again (`SQ *BLUE BOTTLE` named in full later) or covers the same stretch of days. A row the file
    still lists is never taken, so a second purchase of the same amount stays; nor is one from a
    download none of whose rows the file lists (the old card's, in an account it shares with the
    new one's). `coverage` is the account's rows on the file's days and how many of them the file
    lists again."""
    new_days = [rows.posted[i] for i in fresh]
    listed = set(rows.fingerprint)
    # A row with a bank id is left to the bank-id match, unless this file has none to match by (a
    # CSV after the account's QFX, whose names are cut at 32 characters or carry the memo).
    by_bank_id = "" if ids.count(None) == len(ids) else " AND bank_id IS NULL"
    inside: dict[int, list[Held]] = {}  # by amount: the held rows the file leaves out on its days
    edge: dict[int, list[Held]] = {}  # and a few days past its first and last
    sources: set[int] = set()  # the batches whose rows the file lists again
    # All of a quiet account's rows on the file's days tell which downloads it lists again; a busy
    # account's near the new rows do (read whole, a re-download of years with one new row read 100k).
    held, answered = coverage
    near = (window[1], window[2]) if held <= SOURCE_ROWS else (min(new_days), max(new_days))
    for posted, amount, text, fingerprint, batch in _plain_rows(
        ledger.conn,
        "SELECT posted, amount, description, fingerprint, batch_id FROM transactions"
        " WHERE account_id = ? AND posted BETWEEN ? AND ? AND pending = 0 AND batch_id IS NOT NULL" + by_bank_id,
        (window[0], shift(near[0], -MOVED_ROW_DAYS), shift(near[1], MOVED_ROW_DAYS)),
    ):
        if fingerprint in listed:
            sources.add(batch)
        else:
            (inside if window[1] <= posted <= window[2] else edge).setdefault(amount, []).append((posted, text.casefold(), fingerprint, batch))
    if not inside and not edge:
        return fresh
    batch_of = {row[2]: row[3] for by_amount in (inside, edge) for seen in by_amount.values() for row in seen}
    # A file that lists none of the account's rows again is another download of its days only if
    # they share more than a few (the same month in another format, whose texts all differ): two
    # statements share the day or two at their boundary, where the next one's row of the same
    # amount at the same shop on another day is another purchase. On the same day, a text cut or
    # extended is the same row (the card's QFX cuts its CSV's names at 32 characters).
    since, until = posted_span(ledger, *window)
    overlapping = relisted is not None or (since is not None and days(until, since) > SHARED_SPAN_DAYS)

    def reworded_near(seen: Held, posted: str, description: str) -> bool:
        day, text, _, _ = seen
        return (overlapping or day == posted) and abs(days(day, posted)) <= MOVED_ROW_DAYS and reworded(text, description.casefold()) \
            and not _twin(seen, posted, description)

    def listed_whole(seen: Held, posted: str, description: str) -> bool:
        """Its day is one the file lists whole again: from the first it relists the account's rows
        on, before its own last (a download may hold only part of the day it was taken)."""
        return seen[0] == posted and relisted is not None and relisted[0] <= posted < window[2] and seen[3] in sources \
            and not _twin(seen, posted, description)

    def held_in(rows_by_amount: dict[int, list]) -> Callable[[int], list | None]:
        return lambda i: None if rows.pending[i] else rows_by_amount.get(rows.amount[i])

    unpaired = len(fresh)
    # Texts first: a row reworded takes its own, before a row of the same amount whose text says nothing.
    fresh = _unmatched(fresh, held_in(inside), rows, reworded_near, taken)
    sources |= {batch_of[fingerprint] for fingerprint in taken if fingerprint in batch_of}
    fresh = _unmatched(fresh, held_in(inside), rows, listed_whole, taken)
    # A file that covers more of the account's days than a statement's boundary and lists at least
    # half of its rows there again (by fingerprint, or by text just now), or nearly all of them on
    # their day for their amount (a Quicken export's own payee names and memos), is another
    # download of those days: not another account's file landing in it, nor the next statement
    # sharing a day or two. Counted over all of the file's days, not only those near its new rows:
    # a renamed paycheck has few neighbours in its account.
    listed = answered + unpaired - len(fresh)
    same_days = (
        fresh and since is not None and days(until, since) > SHARED_SPAN_DAYS and held >= SAME_DAYS_MIN
        and (listed * 2 >= held or listed + _on_their_day(rows, fresh, inside, sources) >= SAME_DAYS_SHARE * held)
    )
    if same_days:
        # The same days in other words (Quicken's own payee names for the bank's texts): once the
        # rows whose texts match have paired, a row on the same day for the same amount is the same,
        # if it came from a download whose rows the file lists again.
        fresh = _unmatched(
            fresh, held_in(inside), rows, lambda seen, posted, text: seen[0] == posted and seen[3] in sources and not _twin(seen, posted, text), taken,
        )
    if same_days and fresh and edge:
        # Its first or last row may be one the other dated a day or two further out (a QFX dates
        # rows by purchase, its CSV by posting), from a download the file lists again: the next
        # download's coffee two days after the file's last is another coffee.
        fresh = _unmatched(fresh, held_in(edge), rows, lambda seen, *row: seen[3] in sources and reworded_near(seen, *row), taken)
    return fresh


def _twin(seen: Held, posted: str, description: str) -> bool:
    """Whether a held row is the new row's identical twin: the same day and text (and amount) under
    another fingerprint is another of the day's identical rows, numbered apart (a download taken
    mid-day listed one of two coffees; the next, listing both, booked the second)."""
    return seen[0] == posted and seen[1] == description.casefold()


def _on_their_day(rows: NewRows, fresh: list[int], inside: dict[int, list[Held]], sources: set[int]) -> int:
    """How many of the held rows the file leaves out, from downloads whose rows it lists again, it
    has a new posted row for, on their day for their amount."""
    wanted = Counter((rows.posted[i], rows.amount[i]) for i in fresh if not rows.pending[i])
    offered = Counter((day, amount) for amount, seen in inside.items() for day, _, _, batch in seen if batch in sources)
    return sum((wanted & offered).values())


def posted_span(ledger: Ledger, account_id: int, low: str = "0000-00-00", high: str = "9999-99-99") -> tuple[str | None, str | None]:
    """The account's first and last day between `low` and `high`: each end one probe of its index,
    where `MIN(posted), MAX(posted)` in one query read all of the account's entries."""
    bounds = "FROM transactions WHERE account_id = ?1 AND posted BETWEEN ?2 AND ?3"
    return ledger.conn.execute(f"SELECT (SELECT MIN(posted) {bounds}), (SELECT MAX(posted) {bounds})", (account_id, low, high)).fetchone()


def _relisted_days(rows: NewRows, fresh: Sequence[int]) -> tuple[str, str] | None:
    """The first and last day of the file's posted rows the account already holds (all but `fresh`,
    by fingerprint or bank id): between them the file lists the account's days again, so a held row
    there that it leaves out was changed or withdrawn. Consecutive statements share no rows, and a
    file sharing none says nothing of the account's rows."""
    booked = list(map(not_, rows.pending))
    for i in fresh:
        booked[i] = False
    held = list(compress(rows.posted, booked))
    return (min(held), max(held)) if held else None


def _remove_amended(
    ledger: Ledger, window: tuple[int, str, str], rows: NewRows, new: list[int], taken: set[int], relisted: tuple[str, str] | None
) -> list[dict]:
    """Delete the account's rows that the file's new rows (positions `new`) amend; returns them for undo.

    A bank may book a row again for another amount (a tip added, a charge corrected) and stop
    listing the first: the file's new row under the same bank id, or the same text a few days off
    for nearly the same amount, replaces an imported row that it no longer lists, between days
    whose rows it lists again (see `_relisted_days`) and not on its own first or last day (a
    download may start or stop part-way through one). A held row another of the file's rows
    answered for (`taken`: moved, or matched by bank id) is listed. A file that leaves out most of
    the account's rows on those days is another account's (two checking accounts' files of one
    bank), whose rows amend none.
    """
    account_id, first, last = window
    if not new or relisted is None:
        return []  # a re-import, or a first import or next statement: nothing it lists again
    booked = [i for i in new if not rows.pending[i]]
    if not booked:
        return []
    new_days = [rows.posted[i] for i in booked]
    start = max(shift(first, 1), relisted[0], shift(min(new_days), -BANK_ID_MATCH_DAYS))
    end = min(shift(last, -1), relisted[1], shift(max(new_days), BANK_ID_MATCH_DAYS))
    if start > end:
        return []
    listed = set(rows.fingerprint)
    # By the text's first letters, which a cut or extended text keeps, and the day: a new row looks
    # only at the days it may have moved by (a busy account holds thousands of one shop's rows).
    left_out: dict[tuple[str, str], list[tuple]] = {}
    held = 0
    for row in _plain_rows(
        ledger.conn,
        "SELECT id, posted, amount, description, bank_id, fingerprint FROM transactions"
        " WHERE account_id = ? AND posted BETWEEN ? AND ? AND pending = 0 AND batch_id IS NOT NULL",
        (account_id, start, end),
    ):
        held += 1
        if row[5] not in listed and row[5] not in taken:
            left_out.setdefault((row[3].casefold()[:_KEY_LETTERS], row[1]), []).append(row)
    left = sum(map(len, left_out.values()))
    if left > AMENDED_FEW and left > AMENDED_SHARE * held:
        return []  # a file that lists few of the account's rows on those days again is no new download of it
    gone: list[int] = []
    for i in booked if left_out else ():
        posted, key = rows.posted[i], rows.description[i].casefold()[:_KEY_LETTERS]
        for olds in filter(None, (left_out.get((key, day)) for day in _days_around(posted, BANK_ID_MATCH_DAYS))):
            old = next((row for row in olds if _amends(row, posted, rows.amount[i], rows.description[i], rows.bank_id[i])), None)
            if old is not None:
                olds.remove(old)
                gone.append(old[0])
                break
    if not gone:
        return []
    amended = ledger.query("SELECT * FROM transactions WHERE id IN (SELECT value FROM json_each(?))", (json.dumps(gone),))
    ledger.conn.executemany("DELETE FROM transactions WHERE id = ?", [(old_id,) for old_id in gone])
    return amended


_KEY_LETTERS = 4


@lru_cache(maxsize=4096)
def _days_around(day: str, most: int) -> tuple[str, ...]:
    """`day`, then the days before and after it, nearest first, up to `most` days away (worked out
    once per day: a big download's new rows share a few hundred days)."""
    return (day, *(shift(day, sign * gap) for gap in range(1, most + 1) for sign in (-1, 1)))


def _amends(old: tuple, posted: str, amount: int, description: str, bank_id: str | None) -> bool:
    """Whether a new row books `old` (id, posted, amount, description, bank id) again for another
    amount: the same text, cut or extended, and under the same bank id within days, or (neither
    having one) nearly the same amount."""
    _, day, was, text, old_bank_id = old[:5]
    if amount == was or (amount < 0) != (was < 0) or not reworded(text.casefold(), description.casefold()):
        return False
    gap = abs(days(day, posted))
    if old_bank_id or bank_id:
        return old_bank_id == bank_id and gap <= BANK_ID_MATCH_DAYS
    return gap <= MOVED_ROW_DAYS and settled_amount(was, amount)


def reworded(old: str, new: str) -> bool:
    """Whether one text is the other cut or extended, or the same letters and digits spaced and
    punctuated otherwise: Chase's QFX cuts a description mid-word into NAME and MEMO (`…9876 T` /
    `RANSACTION#`), read back with a space that its CSV does not have; a QIF joins its payee and
    memo with ` - `. (A prefix once spaces are gone would take `ZELLE TO JO ANNE` for `ZELLE TO
    JOANNE SMITH`.)"""
    return old.startswith(new) or new.startswith(old) or _SPACING.sub("", old) == _SPACING.sub("", new)


_SPACING = re.compile(r"[\W_]+")


def _unmatched(
    fresh: list[int], held_for: Callable[[int], list | None], rows: NewRows, same: Callable[[tuple, str, str], bool], taken: set[int],
) -> list[int]:
    """The positions that no row the account holds (day, text, fingerprint, …) answers for; each held
    row answers for one, the nearest in days first (a daily coffee reworded: each day's its own,
    where the first within reach left the oldest days none), and its fingerprint goes into `taken`.
    The held rows are looked up by day and text, not scanned: `same` reads only those (and the
    batch), and years of one fare took seconds per import."""
    kept = []
    by_list: dict[int, tuple[list, dict[str, dict[tuple, list]], list[str]]] = {}  # by id() of a held list
    gone: set[int] = set()
    for i in fresh:
        seen = held_for(i)
        match = None
        if seen:
            held = by_list.get(id(seen))
            if held is None:
                by_day: dict[str, dict[tuple, list]] = {}
                for row in seen:  # by day, then by what `same` reads of a row: its text (and batch, where held)
                    by_day.setdefault(row[0], {}).setdefault(row[1:2] + row[3:4], []).append(row)
                held = by_list[id(seen)] = (seen, by_day, sorted(by_day))
            match = _nearest(held[1], held[2], rows.posted[i], rows.description[i], same)
        if match is None:
            kept.append(i)
            continue
        alike = held[1][match[0]]
        key = match[1:2] + match[3:4]
        alike[key].pop(0)
        if not alike[key]:
            del alike[key]
        gone.add(id(match))
        taken.add(match[2])
    for seen, _, _ in by_list.values():  # later passes see what is left
        seen[:] = [row for row in seen if id(row) not in gone]
    return kept


def _nearest(
    by_day: dict[str, dict[tuple, list]], ordered: list[str], posted: str, description: str, same: Callable[[tuple, str, str], bool],
) -> tuple | None:
    """The first held row of the day nearest to `posted` whose text `same` takes, within a bank id's reach."""
    low = bisect_left(ordered, shift(posted, -BANK_ID_MATCH_DAYS))
    high = bisect_right(ordered, shift(posted, BANK_ID_MATCH_DAYS))
    for day in sorted(ordered[low:high], key=lambda day: abs(days(day, posted))):
        for held in by_day[day].values():
            if same(held[0], posted, description):
                return held[0]
    return None


def _remove_superseded(ledger: Ledger, superseded: Sequence[tuple[int, str]]) -> list[dict]:
    """Delete the rows the bank's corrections name; returns them for undo."""
    gone = [
        row
        for account_id, bank_id in superseded
        for row in ledger.query("SELECT * FROM transactions WHERE account_id = ? AND bank_id = ?", (account_id, bank_id))
    ]
    if gone:
        ledger.conn.executemany("DELETE FROM transactions WHERE id = ?", [(row["id"],) for row in gone])
    return gone


def _replaced_fingerprints(ledger: Ledger, account_id: int) -> set[int]:
    """Rows of the account that later batches replaced (a pending row posted) or the bank corrected:
    an older export holding them again must not bring them back."""
    return {
        row["fingerprint"]
        for (replaced,) in _plain_rows(
            ledger.conn, "SELECT replaced FROM import_batches WHERE replaced IS NOT NULL AND undone_at IS NULL", ()
        )
        for row in json.loads(replaced)
        if row["account_id"] == account_id
    }


def _insert(ledger: Ledger, batch_id: int, rows: NewRows) -> None:
    """Insert with ids chosen here, so splits, the search index and the aggregate can follow by id."""
    if not len(rows):
        return
    conn = ledger.conn
    bulk = is_bulk(conn, len(rows))
    start = (conn.execute("SELECT COALESCE(MAX(id), 0) FROM transactions").fetchone()[0]) + 1
    ids = range(start, start + len(rows))
    imported_at = conn.execute("SELECT imported_at FROM import_batches WHERE id = ?", (batch_id,)).fetchone()[0]
    columns: dict[str, Sequence] = {name: getattr(rows, name) for name in _INSERTED}
    columns |= {"batch_id": [batch_id] * len(rows), "created_at": [imported_at] * len(rows)}
    _check_parents(conn, batch_id, rows)
    with derived_structures_dropped(conn) if bulk else nullcontext():
        _insert_rows(conn, ids, columns)
    _insert_splits(conn, ids, rows)
    index_batch_rows(conn, ids[0], ids[-1])
    parts = {i: [(amount, cat) for amount, cat, _ in own] for i, own in rows.splits.items()}
    add_rows(conn, rows.posted, rows.account_id, rows.category_id, rows.currency, rows.amount, rows.pending, parts=parts)


def _check_parents(conn: sqlite3.Connection, batch_id: int, rows: NewRows) -> None:
    """With SQLite's foreign-key lookups off (a first import: `Ledger._journal_once`), check that
    the rows' account, categories and batch exist, once per distinct id instead of once per row."""
    if conn.execute("PRAGMA foreign_keys").fetchone()[0]:
        return
    split_categories = {category for parts in rows.splits.values() for _, category, _ in parts}
    wanted = {
        "accounts": set(rows.account_id),
        "categories": (set(rows.category_id) | split_categories) - {None},
        "import_batches": {batch_id},
    }
    for table, ids in wanted.items():
        missing = ids - {held for (held,) in conn.execute(f"SELECT id FROM {table}")}  # small tables
        if missing:
            raise sqlite3.IntegrityError(f"FOREIGN KEY constraint failed: no {table} row {min(missing)}")


def _insert_splits(conn: sqlite3.Connection, ids: Sequence[int], rows: NewRows) -> None:
    """Insert the rows' split parts without their triggers: the caller counts the rows as their
    postings (one trigger per part re-read all of its transaction's parts: quadratic)."""
    split_rows = [(ids[i], amount, cat, memo) for i, parts in sorted(rows.splits.items()) for amount, cat, memo in parts]
    if split_rows:
        with split_triggers_dropped(conn):
            conn.executemany("INSERT INTO splits (transaction_id, amount, category_id, memo) VALUES (?, ?, ?, ?)", split_rows)


_INSERTED = (
    "account_id", "posted", "amount", "currency", "description", "payee", "category_id", "category_source", "notes",
    "pending", "bank_id", "fingerprint", "original_amount", "original_currency",
)


ROWS_PER_STATEMENT = 100


def _insert_rows(conn: sqlite3.Connection, ids: range, columns: dict[str, Sequence]) -> None:
    """Insert a hundred rows per statement: `executemany` costs more per row it steps through than
    the row's insert itself, whatever the number of parameters.

    A column holding one value on every row (the account, the currency, no notes, ...) is written
    into the statement as a literal instead of bound: binding from Python costs more than the
    insert too, so a typical batch binds half the columns it would otherwise. The ids are not
    bound either: SQLite numbers each row one past the table's largest id, which is what `ids`
    holds, and appends it without looking for the id first.
    """
    slots, bound = [], []
    for values in columns.values():
        literal = _literal(values[0]) if _one_value(values) else None
        if literal is None:
            bound.append(values)
        slots.append(literal or "?")
    limit = conn.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER) // max(1, len(bound))  # none bound: one row
    per_statement = max(1, min(ROWS_PER_STATEMENT, limit))
    row = f"({', '.join(slots)})"

    def statement(count: int) -> str:
        return f"INSERT INTO transactions ({', '.join(columns)}) VALUES " + ", ".join([row] * count)

    # Parameters are taken from the columns a statement at a time: 100k parameter tuples at once
    # would double peak memory.
    flat = chain.from_iterable(zip(*bound))
    full, rest = divmod(len(ids), per_statement)
    width = per_statement * len(bound)
    conn.executemany(statement(per_statement), (tuple(islice(flat, width)) for _ in range(full)))
    if rest:
        conn.execute(statement(rest), tuple(flat))
    if conn.execute("SELECT MAX(id) FROM transactions").fetchone()[0] != ids[-1]:
        raise sqlite3.DatabaseError(f"the new rows were not numbered {ids[0]}…{ids[-1]}")


def _one_value(values: Sequence) -> bool:
    """Whether every row holds the same value: the last and middle rows answer most columns
    without a count over all of them."""
    first = values[0]
    return values[-1] == first and values[len(values) // 2] == first and values.count(first) == len(values)


def _literal(value: object) -> str | None:
    """SQL for a constant value, or None when it should be bound (text holding NUL, other types)."""
    if value is None:
        return "NULL"
    if isinstance(value, int):  # bools too
        return str(int(value))
    if isinstance(value, str) and "\x00" not in value:
        return "'" + value.replace("'", "''") + "'"
    return None


def index_batch_rows(conn: sqlite3.Connection, first_id: int, last_id: int) -> None:
    """Add batch rows to the full-text index in one statement (its insert trigger skips them: a
    trigger per row made a 100k-row import several times slower). The caller counts them into the
    monthly aggregate, for the same reason."""
    conn.execute(
        "INSERT INTO transactions_fts(rowid, description, payee)"
        " SELECT id, description, payee FROM transactions WHERE id BETWEEN ? AND ? AND batch_id IS NOT NULL",
        (first_id, last_id),
    )
