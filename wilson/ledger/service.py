"""The service layer: every write to the ledger goes through here (importers, tools, TUI).

Writes run inside `Ledger.write()`, one `BEGIN IMMEDIATE` transaction, so a crash or Ctrl-C part
way leaves the ledger as it was. Reads are plain SQL on the shared connection.
"""

from __future__ import annotations

import sqlite3
import time
from contextlib import contextmanager, nullcontext, suppress
from datetime import date
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Sequence

from wilson.ledger.db import BUSY_TIMEOUT_MS, LedgerError, describe, fault, open_ledger
from wilson.paths import ledger_path

if TYPE_CHECKING:
    import sqlite_utils

WRITE_WAIT_S = 300  # how long a writer waits for another to finish before saying the ledger is busy
WRITE_POLL_MS = 200
ACCOUNT_TYPES = ("checking", "savings", "credit_card", "cash", "loan", "investment")
LIQUID_TYPES = ("checking", "savings", "cash")


class Ledger:
    """One open ledger. Cheap to create; close it when done (or use it as a context manager)."""

    def __init__(self, path: Path | None = None):
        self.path = path or ledger_path()
        self.conn: sqlite3.Connection = open_ledger(self.path)
        self._depth = 0

    def close(self) -> None:
        self.conn.close()

    def close_or_discard(self, created: bool) -> None:
        """Close; and if this open `created` the file and nothing was written since (a first
        import refused), remove it again: a refused file leaves no ledger behind."""
        unused = False
        with suppress(sqlite3.Error):
            unused = created and self.conn.execute(
                "SELECT NOT EXISTS (SELECT 1 FROM accounts) AND NOT EXISTS (SELECT 1 FROM import_batches)"
            ).fetchone()[0] == 1
        self.close()
        if unused:
            for suffix in ("", "-wal", "-shm", "-journal"):
                self.path.with_name(self.path.name + suffix).unlink(missing_ok=True)

    def __enter__(self) -> "Ledger":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @cached_property
    def db(self) -> "sqlite_utils.Database":
        """sqlite-utils' view of the same connection, for table conveniences off the hot paths."""
        import sqlite_utils

        return sqlite_utils.Database(self.conn)

    # -- transactions ------------------------------------------------------------------------

    @contextmanager
    def write(self, bulk: bool = False) -> Iterator[sqlite3.Connection]:
        """An atomic unit of work; nested calls join the outer one through a savepoint.

        `bulk` is for a write of most of the ledger's pages (a first big import): see `_journal_once`.
        """
        if self._depth:
            name = f"sp{self._depth}"
            self.conn.execute(f"SAVEPOINT {name}")
            self._depth += 1
            try:
                yield self.conn
            except BaseException as exc:
                self.conn.execute(f"ROLLBACK TO {name}")
                self.conn.execute(f"RELEASE {name}")
                self._said_as_such(exc)
                raise
            else:
                self.conn.execute(f"RELEASE {name}")
            finally:
                self._depth -= 1
            return
        with self._journal_once() if bulk else nullcontext():
            self._begin()
            self._depth = 1
            try:
                yield self.conn
                self.conn.execute("COMMIT")
            except BaseException as exc:
                self._roll_back()
                self._said_as_such(exc)
                raise
            finally:
                self._depth = 0

    def _said_as_such(self, exc: BaseException) -> None:
        """A read-only file, a full disk: raised as a LedgerError that says so (in a dry run, whose
        import writes inside a savepoint, too)."""
        message = fault(exc) if isinstance(exc, sqlite3.OperationalError) else None
        if message is not None:
            raise LedgerError(f"{self.path}: {message}") from None

    def _roll_back(self) -> None:
        if self.conn.in_transaction:  # a failed COMMIT may have ended it already
            self.conn.execute("ROLLBACK")

    @contextmanager
    def _journal_once(self) -> Iterator[None]:
        """Write through a rollback journal instead of the WAL while nobody else has the ledger open.

        The WAL writes every page twice, into the log and again at the checkpoint after commit: a
        tenth of a 100k-row import. The rollback journal writes a new page once. Its price is that
        readers wait while the pages are written, so only the writer alone switches (SQLite refuses
        the switch otherwise), and WAL comes back at the end (or at the next open, if someone opened
        the ledger meanwhile). FULL sync: the rollback journal is power-safe only with it.

        Into a ledger without transactions, SQLite's foreign-key lookups are left out too: they were
        a tenth of a 100k-row insert, and such a write can delete no row that others point at. The
        rows' own parents are checked whole-column instead (`wilson.ledger.imports._check_parents`).
        """
        try:
            switched = self.conn.execute("PRAGMA journal_mode = DELETE").fetchone()[0] == "delete"
        except sqlite3.OperationalError:  # another connection has the ledger open
            switched = False
        unchecked = switched and self.conn.execute("SELECT 1 FROM transactions LIMIT 1").fetchone() is None
        if switched:
            self.conn.execute("PRAGMA synchronous = FULL")
        if unchecked:
            self.conn.execute("PRAGMA foreign_keys = OFF")
        try:
            yield
        finally:
            if unchecked:
                self.conn.execute("PRAGMA foreign_keys = ON")
            if switched:
                self.conn.execute("PRAGMA synchronous = NORMAL")
                with suppress(sqlite3.OperationalError):  # someone opened it meanwhile: their open sets WAL
                    self.conn.execute("PRAGMA journal_mode = WAL")

    def _begin(self) -> None:
        """Take the write lock, waiting up to WRITE_WAIT_S for another writer (a 1M-row import
        holds it for tens of seconds). SQLite waits in short turns, so Ctrl-C still works."""
        deadline = time.monotonic() + WRITE_WAIT_S
        self.conn.execute(f"PRAGMA busy_timeout = {WRITE_POLL_MS}")
        try:
            while True:
                try:
                    self.conn.execute("BEGIN IMMEDIATE")
                    return
                except sqlite3.OperationalError as exc:  # busy, read-only, disk full
                    if "locked" not in str(exc) or time.monotonic() > deadline:
                        raise LedgerError(f"{self.path}: {describe(exc)}") from None
        finally:
            self.conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")

    def query(self, sql: str, params: Sequence[Any] | dict = ()) -> list[dict]:
        return [dict(row) for row in self.conn.execute(sql, params)]

    def query_one(self, sql: str, params: Sequence[Any] | dict = ()) -> dict | None:
        row = self.conn.execute(sql, params).fetchone()
        return dict(row) if row else None

    def scalar(self, sql: str, params: Sequence[Any] | dict = ()) -> Any:
        row = self.conn.execute(sql, params).fetchone()
        return row[0] if row else None

    # -- accounts ----------------------------------------------------------------------------

    def account(self, name: str) -> dict | None:
        """The account of that name in any letter case: SQLite's NOCASE folds only ASCII, so
        `ÉPARGNE` and `Épargne` are matched here."""
        found = self.query_one("SELECT * FROM accounts WHERE name = ?", (name,))
        if found is None and not name.isascii():
            folded = name.casefold()
            found = next((row for row in self.query("SELECT * FROM accounts") if row["name"].casefold() == folded), None)
        return found

    def account_by_id(self, account_id: int) -> dict | None:
        return self.query_one("SELECT * FROM accounts WHERE id = ?", (account_id,))

    def account_by_number(self, number: str, currency: str | None = None, type: str | None = None) -> dict | None:
        """The account a bank id names; with a currency, only one in that currency (a bank may give
        its EUR and USD pockets one account id); with a type, only one of that type (a credit
        union's checking and savings under one member number, a card of another bank)."""
        return self.query_one(
            "SELECT * FROM accounts WHERE number = ? AND (? IS NULL OR currency = ?) AND (? IS NULL OR type = ?) ORDER BY id LIMIT 1",
            (number, currency, currency, type, type),
        )

    def create_account(
        self,
        name: str,
        type: str = "checking",
        currency: str = "USD",
        institution: str | None = None,
        number: str | None = None,
    ) -> dict:
        if type not in ACCOUNT_TYPES:
            raise LedgerError(f"unknown account type {type!r}; use one of {', '.join(ACCOUNT_TYPES)}")
        if not name.strip():
            raise LedgerError("an account needs a name")
        with self.write() as conn:
            cur = conn.execute(
                "INSERT INTO accounts (name, type, currency, institution, number) VALUES (?, ?, ?, ?, ?)",
                (name.strip(), type, currency.upper(), institution, number),
            )
        return self.account_by_id(cur.lastrowid)  # type: ignore[return-value]

    def accounts(self) -> list[dict]:
        """Accounts with their posted-transaction counts, date ranges and balances, and how many
        pending rows each holds (never counted in the rest).

        `net_amount` sums the rows in the account's own currency; rows in another (a card charge
        booked in yen) are summed apart in `other_currencies`, never added to it."""
        rows = self.query(
            """
            SELECT a.*, COUNT(posted.id) AS transactions, MIN(posted.posted) AS first_date, MAX(posted.posted) AS last_date,
                   COALESCE(SUM(CASE WHEN posted.currency = a.currency THEN posted.amount END), 0) AS net_amount,
                   (SELECT COUNT(*) FROM transactions p WHERE p.account_id = a.id AND p.pending = 1) AS pending
            FROM accounts a LEFT JOIN transactions posted ON posted.account_id = a.id AND posted.pending = 0
            GROUP BY a.id ORDER BY a.name
            """
        )
        others: dict[int, dict[str, int]] = {}
        for row in self.query(
            "SELECT t.account_id, t.currency, SUM(t.amount) AS amount FROM transactions t JOIN accounts a ON a.id = t.account_id"
            " WHERE t.pending = 0 AND t.currency != a.currency GROUP BY t.account_id, t.currency ORDER BY t.currency"
        ):
            others.setdefault(row["account_id"], {})[row["currency"]] = row["amount"]
        for row in rows:
            row["other_currencies"] = others.get(row["id"], {})
        return rows

    def set_balance(self, account_id: int, amount: int, as_of: date | str, source: str = "manual") -> None:
        """Record a known balance; an older figure never overwrites a newer one."""
        as_of = as_of.isoformat() if isinstance(as_of, date) else as_of
        with self.write() as conn:
            conn.execute(
                """
                UPDATE accounts SET balance = ?, balance_date = ?, balance_source = ?
                WHERE id = ? AND (balance_date IS NULL OR balance_date <= ? OR ? = 'manual')
                """,
                (amount, as_of, source, account_id, as_of, source),
            )

    # -- categories --------------------------------------------------------------------------

    def category(self, name: str) -> dict | None:
        return self.query_one("SELECT * FROM categories WHERE name = ?", (name.strip(),))

    def categories(self) -> list[dict]:
        return self.query(
            "SELECT c.id, c.name, c.kind, p.name AS parent FROM categories c "
            "LEFT JOIN categories p ON p.id = c.parent_id ORDER BY COALESCE(p.name, c.name), c.parent_id IS NOT NULL, c.name"
        )

    def ensure_category(self, name: str, parent: str | None = None, kind: str | None = None) -> int:
        """The category's id, creating it (under `parent`) when it is new."""
        found = self.category(name)
        if found:
            return found["id"]
        parent_row = self.category(parent) if parent else None
        if parent and not parent_row:
            raise LedgerError(f"unknown parent category {parent!r}")
        kind = kind or (parent_row["kind"] if parent_row else "expense")
        with self.write() as conn:
            cur = conn.execute(
                "INSERT INTO categories (name, parent_id, kind) VALUES (?, ?, ?)",
                (name.strip(), parent_row["id"] if parent_row else None, kind),
            )
        return cur.lastrowid  # type: ignore[return-value]

    def category_with_children(self, category_id: int) -> list[int]:
        rows = self.conn.execute(
            "WITH RECURSIVE tree(id) AS (SELECT ? UNION ALL "
            "SELECT c.id FROM categories c JOIN tree ON c.parent_id = tree.id) SELECT id FROM tree",
            (category_id,),
        )
        return [row[0] for row in rows]

    # -- transactions ------------------------------------------------------------------------

    def transaction(self, transaction_id: int) -> dict | None:
        return self.query_one("SELECT * FROM transactions WHERE id = ?", (transaction_id,))

    def update_transactions(
        self,
        ids: Iterable[int],
        *,
        category_id: int | None | type[...] = ...,
        category_source: str = "user",
        payee: str | None | type[...] = ...,
        notes: str | None | type[...] = ...,
        reviewed: bool | type[...] = ...,
    ) -> int:
        """Change fields of several transactions at once; `...` leaves a field as it is."""
        sets, params = [], []
        if category_id is not ...:
            sets += ["category_id = ?", "category_source = ?"]
            params += [category_id, category_source if category_id is not None else None]
        for column, value in (("payee", payee), ("notes", notes)):
            if value is not ...:
                sets.append(f"{column} = ?")
                params.append(value)
        if reviewed is not ...:
            sets.append("reviewed = ?")
            params.append(1 if reviewed else 0)
        ids = list(ids)
        if not sets or not ids:
            return 0
        changed = 0
        with self.write() as conn:
            for chunk in _chunks(ids, 500):
                marks = ",".join("?" * len(chunk))
                cur = conn.execute(f"UPDATE transactions SET {', '.join(sets)} WHERE id IN ({marks})", [*params, *chunk])
                changed += cur.rowcount
        return changed

    def delete_transactions(self, ids: Iterable[int]) -> int:
        ids = list(ids)
        deleted = 0
        with self.write() as conn:
            for chunk in _chunks(ids, 500):
                marks = ",".join("?" * len(chunk))
                conn.execute(f"UPDATE transactions SET transfer_id = NULL WHERE transfer_id IN ({marks})", chunk)
                conn.execute(  # so that no import brings them back (db/011)
                    "INSERT INTO deleted_rows (account_id, posted, fingerprint) SELECT account_id, posted, fingerprint"
                    f" FROM transactions WHERE id IN ({marks}) AND batch_id IS NOT NULL",
                    chunk,
                )
                deleted += conn.execute(f"DELETE FROM transactions WHERE id IN ({marks})", chunk).rowcount
        return deleted

    def link_transfer(self, first_id: int, second_id: int) -> None:
        with self.write() as conn:
            conn.execute("UPDATE transactions SET transfer_id = ? WHERE id = ?", (second_id, first_id))
            conn.execute("UPDATE transactions SET transfer_id = ? WHERE id = ?", (first_id, second_id))


def _chunks(items: Sequence[Any], size: int) -> Iterator[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]
