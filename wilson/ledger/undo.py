"""Undoing an import batch: the ledger goes back to what it was before the file, keeping what later
batches or the user still rely on."""

from __future__ import annotations

import json
import sqlite3
from array import array
from dataclasses import dataclass, field

from wilson.ledger.aggregates import add_rows
from wilson.ledger.imports import index_batch_rows
from wilson.ledger.service import Ledger

_COUNTED = ("posted", "account_id", "category_id", "currency", "amount", "pending")  # add_rows' columns


@dataclass
class Undone:
    removed: int  # transactions
    accounts_removed: list[str] = field(default_factory=list)
    # Imports still in force whose files list rows the batch added, which are theirs now: {batch_id, file_name, rows}
    kept_by: list[dict] = field(default_factory=list)
    # Imports from before imports noted what they listed, whose files covered the days of rows removed: {batch_id, file_name, rows}
    covered_by: list[dict] = field(default_factory=list)


def undo_batch(ledger: Ledger, batch_id: int) -> Undone:
    """Remove what a batch added, and put back what it changed: the rows it replaced or deleted,
    the transfer category it gave earlier rows it linked to its own, the balances it set, and the
    accounts and categories it created (when nothing else holds on to them). The ledger is then the
    one the files still imported make: a row a later file in force lists goes over to that file's
    batch (January–mid February undone keeps the February rows the February–March file lists), and
    a row the batch replaced stays gone where such a file covers its day without listing it."""
    with ledger.write() as conn:
        # Read under the write lock: a second undo of the same batch, queued behind the first,
        # must see it undone rather than put the rows it replaced back a second time.
        batch = ledger.query_one("SELECT * FROM import_batches WHERE id = ?", (batch_id,))
        if batch is None:
            raise LookupError(f"no import batch {batch_id}")
        if batch["undone_at"]:
            raise LookupError(f"import batch {batch_id} was already undone on {batch['undone_at']}")
        changes = json.loads(batch["account_changes"] or "{}")
        listed_later = _listed_later(conn, batch_id)
        kept_by = _hand_over(conn, batch_id, listed_later)
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
        covered_by = ledger.query(_COVERED_BY_OLDER_IMPORTS, {"batch": batch_id})
        removed = conn.execute("DELETE FROM transactions WHERE batch_id = ?", (batch_id,)).rowcount
        undone = Undone(removed, kept_by=kept_by, covered_by=covered_by)
        for old in json.loads(batch["replaced"] or "[]"):
            keeper = _gone_since(old, listed_later)
            if keeper is None:
                _restore(conn, old)
            else:  # that import stands for the row's going now: undone in turn, it weighs it again
                conn.execute("UPDATE import_batches SET replaced = json_insert(COALESCE(replaced, '[]'), '$[#]', json(?)) WHERE id = ?",
                             (json.dumps(old), keeper))
        for account_id, before, after in reversed(changes.get("balances", [])):
            conn.execute(  # only while the balance is still the one this batch set
                "UPDATE accounts SET balance = ?, balance_date = ?, balance_source = ?"
                " WHERE id = ? AND balance IS ? AND balance_date IS ? AND balance_source IS ?",
                (*before, account_id, *after),
            )
        conn.execute("UPDATE import_batches SET undone_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?", (batch_id,))
        _forget_unused_numbers(conn)
        stated = {account_id for account_id, _ in changes.get("stated", [])}  # set by it, or by another as it
        _newest_stated_balances(conn, stated | {account_id for account_id, _, _ in changes.get("balances", [])})
        undone.accounts_removed = [name for account_id in sorted(touched - {None}) if (name := _drop_if_unused(conn, account_id))]
        _drop_unused_categories(conn, categories)
    return undone


# Per later import in force made before imports noted what they listed (migration 014), how many of
# the batch's rows fall within the days its file covered: that file most likely listed them too, so
# importing it again brings them back. A file of several accounts names none in its batch: its
# accounts are those it added rows to.
_COVERED_BY_OLDER_IMPORTS = """
WITH later(id, account_id) AS (
    SELECT id, account_id FROM import_batches WHERE id > :batch AND undone_at IS NULL AND NOT listed_noted AND account_id IS NOT NULL
    UNION
    SELECT b.id, t.account_id FROM import_batches b JOIN transactions t ON t.batch_id = b.id
    WHERE b.id > :batch AND b.undone_at IS NULL AND NOT b.listed_noted AND b.account_id IS NULL
)
SELECT b.id AS batch_id, b.file_name, COUNT(*) AS rows FROM transactions t
JOIN later l ON l.account_id = t.account_id JOIN import_batches b ON b.id = l.id
WHERE t.batch_id = :batch AND t.pending = 0 AND t.posted BETWEEN b.first_date AND b.last_date
GROUP BY b.id ORDER BY b.id
"""


def _listed_later(conn: sqlite3.Connection, batch_id: int) -> dict[int, list[tuple[int, str, str, set[int]]]]:
    """Per account, the later imports in force that read its rows, oldest first: (batch, first and
    last day of its file, the fingerprints of the rows it listed that the account already held)."""
    listed: dict[int, list[tuple[int, str, str, set[int]]]] = {}
    for later_id, first, last, account_id, packed in conn.execute(
        "SELECT b.id, b.first_date, b.last_date, l.account_id, l.fingerprints FROM batch_listed l"
        " JOIN import_batches b ON b.id = l.batch_id WHERE b.id > ? AND b.undone_at IS NULL ORDER BY b.id",
        (batch_id,),
    ):
        fingerprints = array("q")
        fingerprints.frombytes(packed)
        listed.setdefault(account_id, []).append((later_id, first, last, set(fingerprints)))
    return listed


def _hand_over(conn: sqlite3.Connection, batch_id: int, listed: dict[int, list[tuple[int, str, str, set[int]]]]) -> list[dict]:
    """Give the batch's rows that a later import in force lists to the first such import; returns
    {batch_id, file_name, rows} per import that took some."""
    if not listed:
        return []
    owners: dict[int, list[int]] = {}
    for row_id, account_id, fingerprint in conn.execute(
        "SELECT id, account_id, fingerprint FROM transactions WHERE batch_id = ?", (batch_id,)
    ).fetchall():
        owner = next((later_id for later_id, _, _, fingerprints in listed.get(account_id, ()) if fingerprint in fingerprints), None)
        if owner is not None:
            owners.setdefault(owner, []).append(row_id)
    for owner, row_ids in owners.items():
        conn.executemany("UPDATE transactions SET batch_id = ? WHERE id = ?", [(owner, row_id) for row_id in row_ids])
    names = dict(conn.execute("SELECT id, file_name FROM import_batches WHERE id IN (SELECT value FROM json_each(?))", (json.dumps(list(owners)),)))
    return [{"batch_id": owner, "file_name": names[owner], "rows": len(row_ids)} for owner, row_ids in sorted(owners.items())]


def _gone_since(old: dict, listed: dict[int, list[tuple[int, str, str, set[int]]]]) -> int | None:
    """The first later import in force by which a row the batch replaced (a hold it booked, a row
    it amended) is gone too: one whose file covers the row's day in its account without listing it."""
    return next((
        later_id for later_id, first, last, fingerprints in listed.get(old["account_id"], ())
        if first <= old["posted"] <= last and old["fingerprint"] not in fingerprints
    ), None)


def _forget_unused_numbers(conn: sqlite3.Connection) -> None:
    """Take back the numbers undone batches gave accounts, unless a batch in force still went in by
    one. Only the batch that gave a number notes it: the next month's QFX found the account by that
    number and notes nothing, so with the first month undone it would open a second account. A later
    batch of the same format into the account may have come by the number, and keeps it; a number
    changed since is the user's."""
    for given_by, file_format, account_id, number in conn.execute(_NUMBERS_GIVEN_BY_UNDONE).fetchall():
        if not conn.execute(_LATER_BATCH_IN_FORCE, (given_by, file_format, account_id, account_id)).fetchone():
            conn.execute("UPDATE accounts SET number = NULL WHERE id = ? AND number = ?", (account_id, number))


# (batch, its format, account, number) for each number an undone batch gave an account that has it still
_NUMBERS_GIVEN_BY_UNDONE = (
    "SELECT b.id, b.format, a.id, a.number FROM import_batches b, json_each(b.account_changes, '$.numbered') n"
    " JOIN accounts a ON a.id = json_extract(n.value, '$[0]') AND a.number = json_extract(n.value, '$[1]')"
    " WHERE b.undone_at IS NOT NULL"
)
# A later batch in force of that format that went into the account: its own, or one of a file's accounts
_LATER_BATCH_IN_FORCE = (
    "SELECT 1 FROM import_batches b WHERE b.id > ? AND b.undone_at IS NULL AND b.format = ?"
    " AND (b.account_id = ? OR EXISTS (SELECT 1 FROM transactions t WHERE t.account_id = ? AND t.batch_id = b.id))"
)


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
    """After an undo, each account whose balance it took back holds one a file still imported
    stated: the newest (an older statement's, which the undone newer one had outdated), unless the
    one it holds is such a file's and no older; none when no such file states one. The balance put
    back may be one an import undone since had set. A running balance dated after the account's
    last row left is left out: it ran through rows the undo took away. The user's own stays."""
    if not account_ids:
        return
    last_row = dict(conn.execute(
        f"SELECT account_id, MAX(posted) FROM transactions WHERE pending = 0 AND account_id IN ({','.join('?' * len(account_ids))})"
        " GROUP BY account_id", sorted(account_ids),
    ).fetchall())
    stated: dict[int, set[tuple]] = {account_id: set() for account_id in account_ids}
    newest: dict[int, tuple] = {account_id: (None, None, None) for account_id in account_ids}
    for (changes,) in conn.execute(
        "SELECT account_changes FROM import_batches WHERE undone_at IS NULL AND account_changes IS NOT NULL ORDER BY id"
    ):
        for account_id, (amount, as_of, source) in json.loads(changes).get("stated", []):
            if account_id in stated and not (source == "running" and as_of > (last_row.get(account_id) or "")):
                stated[account_id].add((amount, as_of, source))
                if newest[account_id][1] is None or as_of >= newest[account_id][1]:  # of one day, the later import's
                    newest[account_id] = (amount, as_of, source)
    for account_id, figures in stated.items():
        held = conn.execute("SELECT balance, balance_date, balance_source FROM accounts WHERE id = ?", (account_id,)).fetchone()
        if held is None or held[2] == "manual" or tuple(held) == newest[account_id]:
            continue
        if tuple(held) in figures and held[1] >= newest[account_id][1]:
            continue
        conn.execute("UPDATE accounts SET balance = ?, balance_date = ?, balance_source = ? WHERE id = ?", (*newest[account_id], account_id))


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
