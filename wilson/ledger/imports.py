"""Recording an import batch: de-duplication, pending replacement, transfer linking and undo.

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
from contextlib import nullcontext
from dataclasses import dataclass, field, fields
from datetime import date, timedelta
from functools import partial
from itertools import chain
from typing import Callable, Sequence

from wilson.ledger.aggregates import add_rows
from wilson.ledger.bulk import derived_structures_dropped
from wilson.ledger.service import Ledger

PENDING_MATCH_DAYS = 7
PENDING_STALE_DAYS = 14  # a hold settles or lapses within days: a file reaching this far past one it no longer lists retires it
BANK_ID_MATCH_DAYS = 7  # a row the bank re-dated keeps its id
MOVED_ROW_DAYS = 3  # without an id, a row the bank re-dated: authorisation to posting date
BULK_ROWS = 5_000  # batches this big, into a ledger no bigger, rebuild indexes instead of updating them
TRANSFER_MATCH_DAYS = 4
# A merchant's refund is never the other leg of an own-account move; a payment app's transfer is a
# leg only beside one that reads like a transfer too (`ZELLE TRANSFER TO JOHN` pays someone else).
NOT_TRANSFER = re.compile(
    r"refund|\breturn|reversal|chargeback|cash ?back|erstattung|rembourse|reembolso|rimborso|\binterest\b|dividend"
    # A check someone else wrote, deposited (`MOBILE DEPOSIT`, `REMOTE ONLINE DEPOSIT #1`): not a leg.
    r"|\b(?:mobile|remote(?: online)?|check|cheque|atm)[\s-]?deposit|\be-?deposit|deposit(?:ed)? (?:check|cheque|item)",
    re.IGNORECASE,
)
PEER_PAYMENT = re.compile(r"zelle|venmo|cash ?app|paypal|wise\b|revolut", re.IGNORECASE)
# The other leg of a worded transfer says little more than which way money went ("DEPOSIT",
# "ONLINE BANKING CREDIT 1234"); a merchant's name (a card purchase or refund for the same amount) is
# never a leg, however close its date.
PLAIN_LEG = re.compile(
    r"(?:(?:online|internet|mobile|web|branch|atm|internal|electronic|e-?banking|ach|bank)\s+)*"
    r"(?:deposit|withdrawal|credit|debit|payment|transaction|banking|funds|incoming|outgoing|received|sent)?"
    r"(?:[\s#:*/.-]+(?:credit|debit|deposit|withdrawal|ref(?:erence)?|conf(?:irmation)?|no|id|x+\d+|\d+))*[\s#:*/.-]*",
    re.IGNORECASE,
)
TRANSFER_WORDS = re.compile(
    r"transfer|xfer|trnsfr|\btfr\b|payment.{0,12}thank|autopay|auto pay|(?:online|mobile) (?:pmt|pymt)|\bpymt\b|card ?payment|"
    r"crd (?:autopay|pmt)|epay|(?:to|from) (?:[\w-]+ ){0,3}(?:savings|checking|chequing|shares?)\b|pocket|vault|"
    r"umbuchung|übertrag|uebertrag|virement|overboeking|payment received|bill ?pay|payment to .{0,20}card|credit ?card|"
    r"e-pay|card (?:online |mobile |internet |web )?(?:payment|pmt|pymt)|cardpmt|directpay|"
    # A card issuer paid from checking: `DISCOVER E-PAYMENT 8247`, `APPLECARD GSBANK PAYMENT`.
    r"\b(?:discover|citi(?! trends)|citicard|amex|american express|capital one|barclaycard|synchrony|syncb|apple ?card|"
    r"gsbank|goldman sachs|comenity|credit one|bank of america|bk of amer|wells fargo card|chase|target (?:card|credit|red)|"
    r"kohl'?s|elan|paypal credit|td (?:bank )?card)\b.{0,25}\b(?:payment|pmt|pymt|autopay)",
    re.IGNORECASE,
)
# A conversion between the user's own balances in two currencies (Revolut's `Exchanged to EUR` on
# both legs, Wise's `Converted 100.00 EUR to 107.50 USD`): a transfer whose legs differ in amount.
# The codes are upper case whatever the flags; a conversion *fee* is spending, not a move.
_CODE = r"(?-i:[A-Z]{3})\b"
CURRENCY_EXCHANGE = re.compile(
    rf"^\W*(?:exchanged?|converted|conversion)\b(?:[\s\d.,]+{_CODE})?\s*(?:to|from|into|for)\b[\s\d.,]*{_CODE}"
    r"|\b(?:currency|fx) (?:exchange|conversion)\b(?!\W*(?:fee|charge|commission|mark-?up))",
    re.IGNORECASE,
)
# A wallet's row for money its owner added from a card or bank of theirs (PayPal's `General Card
# Deposit`, `Bank Deposit to PP Account`): the other leg is the card's `PAYPAL *SHOP` row, so the
# purchase counts once, as the wallet's payment to the shop.
WALLET_FUNDING = re.compile(
    r"\bgeneral (?:credit )?card deposit\b|\bbank deposit to pp(?: account)?\b|\bgeneral card funding\b", re.IGNORECASE
)
EXCHANGE_MATCH_DAYS = 1  # both legs of a conversion are booked at once; a day allows for time zones


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


@dataclass
class BatchRecord:
    file_name: str
    file_path: str
    file_hash: str
    format: str
    account_id: int | None
    rows_read: int
    skipped: int = 0


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
        "INSERT INTO import_batches (file_name, file_path, file_hash, format, account_id, rows_read, skipped)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        (batch.file_name, batch.file_path, batch.file_hash, batch.format, batch.account_id, batch.rows_read, batch.skipped),
    )
    outcome = ImportOutcome(batch_id=cur.lastrowid)  # type: ignore[arg-type]
    corrected = _remove_superseded(ledger, superseded)
    replaced: list[dict] = list(corrected)
    for account_id, positions in _by_account(rows):
        account_rows = rows.take(positions)
        fresh = account_rows.take(_new_positions(ledger, account_id, account_rows))
        held = len(fresh)
        fresh = fresh.take(_not_yet_posted(ledger, account_id, fresh))
        outcome.pending_settled += held - len(fresh)
        outcome.duplicates += len(account_rows) - held
        replaced += _replace_pending(ledger, account_id, account_rows, fresh)
        if prepare and len(fresh):
            uncategorized = fresh.category_id.count(None)
            prepare(fresh)
            outcome.categorized += uncategorized - fresh.category_id.count(None)
        _insert(ledger, outcome.batch_id, fresh)
        pending = sum(fresh.pending)
        outcome.pending_added += pending
        outcome.added += len(fresh) - pending
    outcome.pending_replaced, outcome.corrected = len(replaced) - len(corrected), len(corrected)
    outcome.transfers_linked = link_transfers(ledger, outcome.batch_id, rows)
    conn.execute(
        "UPDATE import_batches SET added = ?, duplicates = ?, pending = ?, replaced = ? WHERE id = ?",
        (outcome.added, outcome.duplicates, outcome.pending_added, json.dumps(replaced) if replaced else None, outcome.batch_id),
    )
    return outcome


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


def _new_positions(ledger: Ledger, account_id: int, rows: NewRows) -> list[int]:
    """Rows not already in the account: by fingerprint, or by bank id with the same date and amount."""
    window = (account_id, min(rows.posted), max(rows.posted))
    # Fingerprints come straight from the account/date index, without touching the rows.
    existing_fps = set(chain.from_iterable(_plain_rows(
        ledger.conn, "SELECT fingerprint FROM transactions WHERE account_id = ? AND posted BETWEEN ? AND ?", window)))
    if existing_fps.issuperset(rows.fingerprint):
        return []  # a file imported before: every row is there
    held_in_window = bool(existing_fps)  # else no row of the account can have moved within the file's dates
    existing_fps.update(_replaced_fingerprints(ledger, account_id))
    existing_fps.update(chain.from_iterable(_plain_rows(
        ledger.conn, "SELECT fingerprint FROM deleted_rows WHERE account_id = ? AND posted BETWEEN ? AND ?", window)))
    fresh = [i for i, fp in enumerate(rows.fingerprint) if fp not in existing_fps]
    if fresh and rows.bank_id.count(None) < len(rows):
        fresh = _not_held_by_bank_id(ledger, window, rows, fresh)
    return _not_moved(ledger, window, rows, fresh) if fresh and held_in_window else fresh


def _not_held_by_bank_id(ledger: Ledger, window: tuple[int, str, str], rows: NewRows, fresh: list[int]) -> list[int]:
    """Positions minus rows the account holds under the same bank id and amount (see `_same_row`)."""
    held: dict[tuple[str, int], list[tuple[str, str]]] = {}
    answered = set(rows.fingerprint)  # rows already there by fingerprint answer for those, not for others
    for bank_id, posted, amount, text, fingerprint in _plain_rows(
        ledger.conn,
        "SELECT bank_id, posted, amount, description, fingerprint FROM transactions"
        " WHERE account_id = ? AND posted BETWEEN ? AND ? AND bank_id IS NOT NULL",
        (window[0], _shift(window[1], -BANK_ID_MATCH_DAYS), _shift(window[2], BANK_ID_MATCH_DAYS)),
    ):
        if fingerprint not in answered:
            held.setdefault((bank_id, amount), []).append((posted, text.casefold()))
    return _unmatched(fresh, lambda i: held.get((rows.bank_id[i], rows.amount[i])) if rows.bank_id[i] else None, rows, _same_row)


def _same_row(seen: tuple[str, str], posted: str, description: str) -> bool:
    """Whether a row holding the new row's bank id and amount is the new row: the bank may re-date a
    row between downloads, and reword it only by adding to it (an authorisation's `AMAZON MKTPL`
    settles as `AMAZON MKTPL*AB12C3DE4`); a bank that numbers its ids by position in each download
    gives another shop's purchase two days later the same id."""
    day, text = seen
    return abs(_days(day, posted)) <= BANK_ID_MATCH_DAYS and (day == posted or _reworded(text, description.casefold()))


def _not_moved(ledger: Ledger, window: tuple[int, str, str], rows: NewRows, fresh: list[int]) -> list[int]:
    """Positions minus rows the bank re-dated or re-worded since an earlier download, where no bank
    id tells: an imported row inside this file's dates that the file no longer lists is the file's
    new row of the same amount a few days off whose text is the old one's, cut or extended (an OFX
    cuts a name at 32 characters). A row the file still lists is never taken, so a second
    purchase of the same amount stays."""
    days = [rows.posted[i] for i in fresh]
    near = (window[0], max(window[1], _shift(min(days), -MOVED_ROW_DAYS)), min(window[2], _shift(max(days), MOVED_ROW_DAYS)))
    listed = set(rows.fingerprint)
    left_out: dict[int, list[tuple[str, str]]] = {}
    for posted, amount, text, fingerprint in _plain_rows(
        ledger.conn,
        "SELECT posted, amount, description, fingerprint FROM transactions"
        " WHERE account_id = ? AND posted BETWEEN ? AND ? AND pending = 0 AND batch_id IS NOT NULL AND bank_id IS NULL",
        near,
    ):
        if fingerprint not in listed:
            left_out.setdefault(amount, []).append((posted, text.casefold()))
    if not left_out:
        return fresh
    return _unmatched(fresh, lambda i: None if rows.pending[i] else left_out.get(rows.amount[i]), rows, _moved_row)


def _moved_row(seen: tuple[str, str], posted: str, description: str) -> bool:
    day, text = seen
    return abs(_days(day, posted)) <= MOVED_ROW_DAYS and _reworded(text, description.casefold())


def _reworded(old: str, new: str) -> bool:
    return old.startswith(new) or new.startswith(old)


def _unmatched(
    fresh: list[int], held_for: Callable[[int], list | None], rows: NewRows, same: Callable[[tuple[str, str], str, str], bool]
) -> list[int]:
    """The positions that no row the account holds answers for; each held row answers for one."""
    kept = []
    for i in fresh:
        seen = held_for(i)
        match = next((row for row in seen if same(row, rows.posted[i], rows.description[i])), None) if seen else None
        if match is None:
            kept.append(i)
        else:
            seen.remove(match)
    return kept


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


def _not_yet_posted(ledger: Ledger, account_id: int, rows: NewRows) -> Sequence[int]:
    """Positions minus pending rows the ledger already holds posted (an older export imported again
    after a newer one): booked within a few days after, for the same amount, or for one a little
    off under the same description (a card hold settles at the final exchange rate or with a tip)."""
    pending = [i for i, flag in enumerate(rows.pending) if flag]
    if not pending:
        return range(len(rows))
    # The ledger holds the account's rows from well after a hold: a newer export, imported first,
    # no longer listed it (imported in date order, that export would have retired it).
    known_until = ledger.scalar("SELECT MAX(posted) FROM transactions WHERE account_id = ?", (account_id,))
    stale = {i for i in pending if known_until and _days(known_until, rows.posted[i]) >= PENDING_STALE_DAYS}
    pending = [i for i in pending if i not in stale]
    if not pending:
        return [i for i in range(len(rows)) if i not in stale]
    by_amount: dict[int, list[dict]] = {}
    by_text: dict[str, list[dict]] = {}
    for row in ledger.query(
        "SELECT id, amount, posted, description FROM transactions WHERE account_id = ? AND pending = 0 AND posted BETWEEN ? AND ?",
        (account_id, min(rows.posted[i] for i in pending), _shift(max(rows.posted[i] for i in pending), PENDING_MATCH_DAYS)),
    ):
        by_amount.setdefault(row["amount"], []).append(row)
        by_text.setdefault(_held_text(row["description"]), []).append(row)
    used: set[int] = set()
    gone = set()
    for i in pending:
        nearby = by_amount.get(rows.amount[i], []) + by_text.get(_held_text(rows.description[i]), [])
        hit = next((
            row for row in nearby
            if row["id"] not in used and 0 <= _days(row["posted"], rows.posted[i]) <= PENDING_MATCH_DAYS
            and (row["amount"] == rows.amount[i] or _settles(rows.amount[i], row["amount"], rows.description[i], row["description"]))
        ), None)
        if hit is not None:
            used.add(hit["id"])
            gone.add(i)
    return [i for i in range(len(rows)) if i not in gone and i not in stale]


def _settles(held: int, booked: int, held_text: str, booked_text: str) -> bool:
    """Whether a posted row settles a pending one for a different amount: same description (but
    for words marking a hold) and an amount it could settle for."""
    return _held_text(held_text) == _held_text(booked_text) and _settled_amount(held, booked)


_HOLD_WORDS = re.compile(r"\b(?:pending|pend|pre-?auth(?:orization)?|auth(?:orization)?|hold)\b")


def _held_text(description: str) -> str:
    """A description as a hold and its posted row share it: `SHOP D PENDING` settles as `SHOP D`."""
    return " ".join(_HOLD_WORDS.sub(" ", description.casefold()).split())


def _settled_amount(held: int, booked: int) -> bool:
    """A hold settles with a tip (30% is not unheard of) or at the final exchange rate: same sign,
    within three tenths of it."""
    return (held < 0) == (booked < 0) and abs(booked - held) * 10 <= abs(held) * 3


def _replace_pending(ledger: Ledger, account_id: int, rows: NewRows, fresh: NewRows) -> list[dict]:
    """Remove earlier pending rows that this file books or no longer lists; returns them for undo.

    A newer export is the authority on what is still pending inside the dates it covers, unless it
    could not list them, and on holds from well before them (a declined hold, or a $1 fuel hold that
    posted for $48.10, would pend forever). A pending row the new file confirms (same amount within a
    few days) is replaced by the posted row.
    """
    high = max(rows.posted)
    olds = ledger.query(
        "SELECT * FROM transactions WHERE account_id = ? AND pending = 1 AND posted <= ?", (account_id, high)
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
            near(day) and _settled_amount(old["amount"], amount)
            for amount, day in booked_as.get(_held_text(old["description"]), ())
        )
        if confirmed or (rows.lists_pending and (old["posted"] >= low or _days(high, old["posted"]) >= PENDING_STALE_DAYS)):
            gone.append(old)
    if gone:
        ledger.conn.executemany("DELETE FROM transactions WHERE id = ?", [(g["id"],) for g in gone])
    return gone


def _insert(ledger: Ledger, batch_id: int, rows: NewRows) -> None:
    """Insert with ids chosen here, so splits, the search index and the aggregate can follow by id."""
    if not len(rows):
        return
    conn = ledger.conn
    start = (conn.execute("SELECT COALESCE(MAX(id), 0) FROM transactions").fetchone()[0]) + 1
    ids = range(start, start + len(rows))
    imported_at = conn.execute("SELECT imported_at FROM import_batches WHERE id = ?", (batch_id,)).fetchone()[0]
    columns: dict[str, Sequence] = {name: getattr(rows, name) for name in _INSERTED}
    columns |= {"batch_id": [batch_id] * len(rows), "created_at": [imported_at] * len(rows)}
    sql, bound = _insert_statement(ids, columns)
    # A batch at least as big as the ledger rebuilds the indexes instead of updating them.
    bulk = len(rows) >= BULK_ROWS and len(rows) >= start - 1
    with derived_structures_dropped(conn) if bulk else nullcontext():
        conn.executemany(sql, zip(*bound))  # zipped, not a list: 100k parameter tuples would double peak memory
    split_rows = [(ids[i], amount, cat, memo) for i, parts in sorted(rows.splits.items()) for amount, cat, memo in parts]
    if split_rows:
        conn.executemany("INSERT INTO splits (transaction_id, amount, category_id, memo) VALUES (?, ?, ?, ?)", split_rows)
    index_batch_rows(conn, ids[0], ids[-1])
    add_rows(conn, rows.posted, rows.account_id, rows.category_id, rows.currency, rows.amount, rows.pending)


_INSERTED = (
    "account_id", "posted", "amount", "currency", "description", "payee", "category_id", "category_source", "notes",
    "pending", "bank_id", "fingerprint", "original_amount", "original_currency",
)


def _insert_statement(ids: Sequence[int], columns: dict[str, Sequence]) -> tuple[str, list[Sequence]]:
    """The INSERT for a batch and the columns it binds per row (always the ids, so each row is one).

    A column holding one value on every row (the account, the currency, no notes, ...) is written
    into the statement as a literal instead: binding a parameter from Python costs more than the
    row's insert itself, so a typical batch binds half the columns it would otherwise.
    """
    slots, bound = ["?"], [ids]
    for values in columns.values():
        literal = _literal(values[0]) if values.count(values[0]) == len(values) else None
        if literal is None:
            bound.append(values)
        slots.append(literal or "?")
    return f"INSERT INTO transactions (id, {', '.join(columns)}) VALUES ({', '.join(slots)})", bound


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


def link_transfers(ledger: Ledger, batch_id: int, rows: NewRows) -> int:
    """Pair the two legs of moves between own accounts so reports keep them out of spending.

    A pair is two posted rows in different accounts, same currency, opposite amounts, a few days
    apart, at least one of which reads like a transfer (or the file said so). Of several possible
    other legs, the one that reads like a transfer, then the nearest in date; legs alike in all
    that but in different accounts leave the move unlinked, since nothing says which it was.
    """
    if ledger.scalar("SELECT COUNT(*) FROM accounts") < 2:
        return 0
    conn = ledger.conn
    if not len(rows):
        return 0
    low = _shift(min(rows.posted), -TRANSFER_MATCH_DAYS)
    high = _shift(max(rows.posted), TRANSFER_MATCH_DAYS)
    transfer_category = ledger.scalar("SELECT id FROM categories WHERE name = 'Transfer'")
    said = partial(_said, {(rows.account_id[i], rows.fingerprint[i]): name.casefold() for i, name in rows.transfer_hint.items()},
                   transfer_category)
    names = {row["id"]: row["name"].casefold() for row in ledger.query("SELECT id, name FROM accounts")}
    candidates = [
        row
        for row in ledger.query(
            f"SELECT {_LEG_COLUMNS} FROM transactions"
            " WHERE posted BETWEEN ? AND ? AND pending = 0 AND transfer_id IS NULL AND amount != 0 ORDER BY posted, id",
            (low, high),
        )
        if _reads_like_transfer(row["description"]) or said(row) is not None or CURRENCY_EXCHANGE.search(row["description"])
        or WALLET_FUNDING.search(row["description"])
    ]
    linked = 0
    taken: set[int] = set()
    for row in candidates:
        if row["id"] in taken:
            continue
        target = said(row)
        if CURRENCY_EXCHANGE.search(row["description"]):
            other = _exchange_leg(conn, row, taken)
        else:
            matches = [
                dict(m)
                for m in conn.execute(
                    f"SELECT {_LEG_COLUMNS} FROM transactions WHERE account_id != ? AND currency = ? AND amount = ?"
                    " AND posted BETWEEN date(?, ?) AND date(?, ?) AND pending = 0 AND transfer_id IS NULL ORDER BY id",
                    (row["account_id"], row["currency"], -row["amount"], row["posted"], f"-{TRANSFER_MATCH_DAYS} days",
                     row["posted"], f"+{TRANSFER_MATCH_DAYS} days"),
                )
                if m["id"] not in taken and _could_be_legs(row, m, target, said(m), names)
            ]
            other = _likeliest_leg(row, matches, target, names)
        if other is None or batch_id not in (row["batch_id"], other["batch_id"]):
            continue
        taken.update((row["id"], other["id"]))
        conn.execute("UPDATE transactions SET transfer_id = ? WHERE id = ?", (other["id"], row["id"]))
        conn.execute("UPDATE transactions SET transfer_id = ? WHERE id = ?", (row["id"], other["id"]))
        conn.execute(
            "UPDATE transactions SET category_id = ?, category_source = 'transfer'"
            " WHERE id IN (?, ?) AND category_id IS NULL",
            (transfer_category, row["id"], other["id"]),
        )
        linked += 1
    return linked


_LEG_COLUMNS = "id, account_id, posted, amount, currency, description, fingerprint, batch_id, category_id, category_source"


def _said(hinted: dict[tuple[int, int], str], transfer_category: int | None, row: dict) -> str | None:
    """What a file said of a row: the own account it moves money to (QIF `L[Savings]`, known for
    this batch's rows), '' for a move to an account it does not name (a row a file or the user
    filed under Transfer), None for nothing."""
    target = hinted.get((row["account_id"], row["fingerprint"]))
    if target is None and row["category_id"] == transfer_category and row["category_source"] in ("bank", "user"):
        return ""
    return target


def _could_be_legs(row: dict, other: dict, target: str | None, other_target: str | None, names: dict[int, str]) -> bool:
    """Whether `other` may be the other leg of `row`, by what they say: it is never a refund, an
    interest credit or a deposited check; it is in the account the file named, or the file marked it
    too, or it reads like a transfer or says no more than DEPOSIT. A payment app's transfer
    (`ZELLE TRANSFER TO JOHN`) pays someone else unless the other leg is one too, or a plain
    transfer: never a card's `PAYMENT THANK YOU`."""
    text = other["description"]
    if NOT_TRANSFER.search(text):
        return False
    for leg, account in ((other, target), (row, other_target)):  # a leg the file sends to an account we have is in it
        if account in names.values() and names[leg["account_id"]] != account:
            return False
    if names[other["account_id"]] == target or other_target is not None:
        return True
    peers = [bool(PEER_PAYMENT.search(t)) for t in (row["description"], text)]
    if any(peers) and not all(peers):
        plain = text if peers[0] else row["description"]
        return bool(re.search(r"transfer|xfer", plain, re.IGNORECASE) or WALLET_FUNDING.search(plain))
    return bool(TRANSFER_WORDS.search(text) or (not any(peers) and PLAIN_LEG.fullmatch(text)))


def _exchange_leg(conn: sqlite3.Connection, row: dict, taken: set[int]) -> dict | None:
    """The other leg of a currency conversion: money the other way, in another currency and another
    account, that reads like a conversion too, at once. Its amount cannot tell (the rate is not
    known), so a leg in the currency the text names is preferred, then the nearest; legs alike in
    that but in different accounts leave the conversion unlinked."""
    matches = [
        dict(m)
        for m in conn.execute(
            f"SELECT {_LEG_COLUMNS} FROM transactions WHERE account_id != ? AND currency != ? AND (amount > 0) = ?"
            " AND amount != 0 AND posted BETWEEN date(?, ?) AND date(?, ?) AND pending = 0 AND transfer_id IS NULL ORDER BY id",
            (row["account_id"], row["currency"], row["amount"] < 0, row["posted"], f"-{EXCHANGE_MATCH_DAYS} days",
             row["posted"], f"+{EXCHANGE_MATCH_DAYS} days"),
        )
        if m["id"] not in taken and CURRENCY_EXCHANGE.search(m["description"])
    ]
    named = [m for m in matches if _names(row["description"], m["currency"]) or _names(m["description"], row["currency"])]
    return _nearest_in_one_account(row, named or matches)


def _names(text: str, currency: str) -> bool:
    return re.search(rf"\b{re.escape(currency)}\b", text) is not None


def _reads_like_transfer(text: str) -> bool:
    return bool(TRANSFER_WORDS.search(text)) and not NOT_TRANSFER.search(text)


def _likeliest_leg(row: dict, matches: list[dict], target: str | None, names: dict[int, str]) -> dict | None:
    """The other leg among the possible ones: in the account the file names, else reading like a
    transfer, then nearest in date. Two regular $100 sweeps to savings on one day are
    interchangeable (same account), so either pairing is right; equally likely legs in different
    accounts are not."""
    for prefer in (lambda m: names[m["account_id"]] == target, lambda m: TRANSFER_WORDS.search(m["description"])):
        if len(matches) > 1 and any(map(prefer, matches)):
            matches = [m for m in matches if prefer(m)]
    return _nearest_in_one_account(row, matches)


def _nearest_in_one_account(row: dict, matches: list[dict]) -> dict | None:
    """The match nearest in date, when the nearest are all in one account (and so interchangeable)."""
    if not matches:
        return None
    nearest = min(abs(_days(m["posted"], row["posted"])) for m in matches)
    closest = [m for m in matches if abs(_days(m["posted"], row["posted"])) == nearest]
    return closest[0] if len({m["account_id"] for m in closest}) == 1 else None


_COUNTED = ("posted", "account_id", "category_id", "currency", "amount", "pending")  # add_rows' columns


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

    def __bool__(self) -> bool:
        return bool(self.created or self.balances or self.stated or self.categories or self.numbered)


def note_account_changes(ledger: Ledger, batch_id: int, changes: AccountChanges) -> None:
    if changes:
        ledger.conn.execute(
            "UPDATE import_batches SET account_changes = ? WHERE id = ?",
            (json.dumps({"created": changes.created, "balances": changes.balances, "stated": changes.stated,
                         "categories": changes.categories, "numbered": changes.numbered}), batch_id),
        )


@dataclass
class Undone:
    removed: int  # transactions
    accounts_removed: list[str] = field(default_factory=list)


def undo_batch(ledger: Ledger, batch_id: int) -> Undone:
    """Remove exactly what a batch added, and put back what it changed: the rows it replaced or
    deleted, the transfer category it gave earlier rows it linked to its own, the balances it set,
    and the accounts and categories it created (when nothing else holds on to them)."""
    with ledger.write() as conn:
        # Read under the write lock: a second undo of the same batch, queued behind the first,
        # must see it undone rather than put the rows it replaced back a second time.
        batch = ledger.query_one("SELECT * FROM import_batches WHERE id = ?", (batch_id,))
        if batch is None:
            raise LookupError(f"no import batch {batch_id}")
        if batch["undone_at"]:
            raise LookupError(f"import batch {batch_id} was already undone on {batch['undone_at']}")
        changes = json.loads(batch["account_changes"] or "{}")
        linked_to_batch = "transfer_id IN (SELECT id FROM transactions WHERE batch_id = ?)"
        conn.execute(
            f"UPDATE transactions SET category_id = NULL, category_source = NULL WHERE {linked_to_batch}"
            " AND category_source = 'transfer' AND batch_id IS NOT ?",
            (batch_id, batch_id),
        )
        conn.execute(f"UPDATE transactions SET transfer_id = NULL WHERE {linked_to_batch}", (batch_id,))
        touched = {row[0] for row in conn.execute("SELECT DISTINCT account_id FROM transactions WHERE batch_id = ?", (batch_id,))}
        touched.update(created["id"] for created in changes.get("created", []))
        touched.add(batch["account_id"])
        categories = _categories_of_batch(conn, batch_id) | {created["id"] for created in changes.get("categories", [])}
        undone = Undone(conn.execute("DELETE FROM transactions WHERE batch_id = ?", (batch_id,)).rowcount)
        for old in json.loads(batch["replaced"] or "[]"):
            _restore(conn, old)
        for account_id, before, after in reversed(changes.get("balances", [])):
            conn.execute(  # only while the balance is still the one this batch set
                "UPDATE accounts SET balance = ?, balance_date = ?, balance_source = ?"
                " WHERE id = ? AND balance IS ? AND balance_date IS ? AND balance_source IS ?",
                (*before, account_id, *after),
            )
        for account_id, number in changes.get("numbered", []):
            conn.execute("UPDATE accounts SET number = NULL WHERE id = ? AND number = ?", (account_id, number))
        conn.execute("UPDATE import_batches SET undone_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?", (batch_id,))
        _newest_stated_balances(conn, {account_id for account_id, _, _ in changes.get("balances", [])})
        undone.accounts_removed = [name for account_id in sorted(touched - {None}) if (name := _drop_if_unused(conn, account_id))]
        _drop_unused_categories(conn, categories)
    return undone


def _categories_of_batch(conn: sqlite3.Connection, batch_id: int) -> set[int]:
    """The categories a batch's rows and their splits are in."""
    return {category_id for (category_id,) in conn.execute(
        "SELECT category_id FROM transactions WHERE batch_id = ? UNION"
        " SELECT s.category_id FROM splits s JOIN transactions t ON t.id = s.transaction_id WHERE t.batch_id = ?",
        (batch_id, batch_id),
    )}


def _drop_unused_categories(conn: sqlite3.Connection, candidates: set[int]) -> None:
    """Delete the candidates that only undone batches created and that nothing refers to any more;
    a parent an undone batch made for them goes with them. A category the batch of March created
    and April's rows still used goes when April is undone too."""
    orphaned = dict(conn.execute(_ORPHANED_CATEGORIES).fetchall())
    pending = sorted(candidates & orphaned.keys(), reverse=True)  # newest first: children before their parents
    while pending:
        category_id = pending.pop(0)
        row = conn.execute("SELECT parent_id FROM categories WHERE id = ?", (category_id,)).fetchone()
        if row is None:
            continue  # deleted by hand since
        if conn.execute(_DROP_UNUSED_CATEGORY, {"id": category_id, "name": orphaned[category_id]}).rowcount and row[0] in orphaned:
            pending.append(row[0])


# Categories (id: name) that import batches created, all of them undone since. A category renamed
# since is the user's now, and stays.
_ORPHANED_CATEGORIES = (
    "SELECT json_extract(c.value, '$.id'), json_extract(c.value, '$.name') FROM import_batches b, json_each(b.account_changes, '$.categories') c"
    " GROUP BY 1, 2 HAVING MIN(b.undone_at IS NOT NULL) = 1"
)
# Nothing refers to it: no row, split, budget, rule or subcategory, nor a row that a batch in force
# replaced (undoing that batch puts the row back).
_DROP_UNUSED_CATEGORY = (
    "DELETE FROM categories WHERE id = :id AND name = :name"
    " AND NOT EXISTS (SELECT 1 FROM transactions WHERE category_id = :id)"
    " AND NOT EXISTS (SELECT 1 FROM splits WHERE category_id = :id)"
    " AND NOT EXISTS (SELECT 1 FROM budgets WHERE category_id = :id)"
    " AND NOT EXISTS (SELECT 1 FROM rules WHERE category_id = :id)"
    " AND NOT EXISTS (SELECT 1 FROM categories WHERE parent_id = :id)"
    " AND NOT EXISTS (SELECT 1 FROM import_batches b, json_each(b.replaced) r"
    "  WHERE b.replaced IS NOT NULL AND b.undone_at IS NULL AND json_extract(r.value, '$.category_id') = :id)"
)


def _newest_stated_balances(conn: sqlite3.Connection, account_ids: set[int]) -> None:
    """After an undo, each account whose balance it took back gets the newest balance a file still
    imported stated (an older statement's, which the undone newer one had outdated)."""
    if not account_ids:
        return
    newest: dict[int, list] = {}
    for (changes,) in conn.execute(
        "SELECT account_changes FROM import_batches WHERE undone_at IS NULL AND account_changes IS NOT NULL"
    ):
        for account_id, (amount, as_of, source) in json.loads(changes).get("stated", []):
            if account_id in account_ids and (account_id not in newest or as_of >= newest[account_id][1]):
                newest[account_id] = [amount, as_of, source]
    for account_id, (amount, as_of, source) in newest.items():
        conn.execute(
            "UPDATE accounts SET balance = ?, balance_date = ?, balance_source = ? WHERE id = ?"
            " AND COALESCE(balance_source, '') != 'manual' AND (balance_date IS NULL OR balance_date < ?)",
            (amount, as_of, source, account_id, as_of),
        )


def _drop_if_unused(conn: sqlite3.Connection, account_id: int) -> str | None:
    """Delete an account that an import created, once every batch that created it is undone and no
    rows or batch still in force use it; returns its name. The undone batches that named it keep
    the name for the history."""
    name = conn.execute("SELECT name FROM accounts WHERE id = ?", (account_id,)).fetchone()
    created_by = "SELECT undone_at IS NOT NULL FROM import_batches, json_each(account_changes, '$.created') WHERE json_extract(value, '$.id') = ?"
    if name is None or {undone for (undone,) in conn.execute(created_by, (account_id,))} != {1} or conn.execute(
        "SELECT 1 FROM transactions WHERE account_id = ? UNION ALL"
        " SELECT 1 FROM import_batches WHERE account_id = ? AND undone_at IS NULL",
        (account_id, account_id),
    ).fetchone():
        return None
    conn.execute(
        "UPDATE import_batches SET account_id = NULL,"
        " account_changes = json_set(COALESCE(account_changes, '{}'), '$.account', (SELECT name FROM accounts WHERE id = ?))"
        " WHERE account_id = ?",
        (account_id, account_id),
    )
    conn.execute("DELETE FROM accounts WHERE id = ?", (account_id,))
    return name[0]


def _restore(conn: sqlite3.Connection, old: dict) -> None:
    """Put a removed row back: under its old id unless a later row took it, without a transfer leg
    that is gone since."""
    row = dict(old)
    own_batch = conn.execute("SELECT undone_at FROM import_batches WHERE id = ?", (row.get("batch_id"),)).fetchone()
    if own_batch and own_batch[0]:
        return  # its own batch was undone since: it is not the ledger's any more
    if conn.execute("SELECT 1 FROM transactions WHERE id = ?", (row["id"],)).fetchone():
        del row["id"]
    if row.get("transfer_id") and not conn.execute("SELECT 1 FROM transactions WHERE id = ?", (row["transfer_id"],)).fetchone():
        row["transfer_id"] = None
    new_id = conn.execute(
        f"INSERT INTO transactions ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})", list(row.values())
    ).lastrowid
    if row.get("transfer_id"):  # its other leg lost the link when this row went
        conn.execute("UPDATE transactions SET transfer_id = ? WHERE id = ? AND transfer_id IS NULL", (new_id, row["transfer_id"]))
    if row.get("batch_id") is not None:  # rows outside a batch are indexed and counted by their triggers
        index_batch_rows(conn, new_id, new_id)
        add_rows(conn, *([row[name]] for name in _COUNTED), linked=[row["transfer_id"] is not None])


def _within_match_days(held: str, booked: str) -> bool:
    return abs(_days(booked, held)) <= PENDING_MATCH_DAYS


def _days(a: str, b: str) -> int:
    return (date.fromisoformat(a) - date.fromisoformat(b)).days


def _shift(day: str, days: int) -> str:
    return (date.fromisoformat(day) + timedelta(days=days)).isoformat()
