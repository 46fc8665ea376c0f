"""Opening the SQLite file safely and upgrading its schema.

Migrations are the numbered `.sql` files in `db/`, applied in order, each once and each inside
its own transaction, so an old ledger is upgraded on open and a failed upgrade changes nothing.
"""

from __future__ import annotations

import os
import re
import sqlite3
import unicodedata
from contextlib import suppress
from pathlib import Path

from wilson.paths import ledger_path, resource

BUSY_TIMEOUT_MS = 10_000
_MIGRATION_RE = re.compile(r"^(\d+)_[\w-]+\.sql$")


class LedgerError(Exception):
    """A problem with the ledger itself; `str()` is a one-line message for the user."""


def migrations_dir() -> Path:
    return resource("db")


def migration_files() -> list[tuple[int, Path]]:
    found = []
    for path in migrations_dir().iterdir():
        match = _MIGRATION_RE.match(path.name)
        if match:
            found.append((int(match.group(1)), path))
    return sorted(found)


def _create_private(path: Path) -> None:
    """Create the file owner-only before SQLite touches it (SQLite copies its mode to -wal/-shm)."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(path, os.O_CREAT | os.O_RDWR, 0o600)
    os.close(fd)


IN_MEMORY = Path(":memory:")  # a ledger that is never written to disk: a dry run before the first import


def connect(path: Path) -> sqlite3.Connection:
    if path != IN_MEMORY and not path.exists():
        try:
            _create_private(path)
        except OSError as exc:  # WILSON_HOME naming a file, a folder without write permission
            blocker = next((folder for folder in path.parents if folder.exists()), None)
            reason = f"{blocker} is a file, not a folder" if blocker and not blocker.is_dir() else exc.strerror or str(exc)
            raise LedgerError(f"{path}: cannot create the ledger here ({reason})") from None
    try:
        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        conn.row_factory = sqlite3.Row
        conn.create_function("folded", 1, folded, deterministic=True)
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        with suppress(sqlite3.OperationalError):  # locked: a first big import is writing without it, and sets it back
            conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("PRAGMA synchronous = NORMAL")
        # 16 MB of page cache (the default is 2 MB): index updates on a large import and the
        # anomaly scans over two years of rows otherwise re-read the same pages from disk.
        conn.execute("PRAGMA cache_size = -16384")
    except sqlite3.DatabaseError as exc:
        raise LedgerError(f"{path}: {describe(exc)}") from None
    return conn


def folded(text: str | None) -> str | None:
    """Text without case or accents, as the full-text index compares words (`CAFÉ24` is `cafe24`):
    SQL's lower() folds ASCII letters only. Registered on every connection as `folded()`."""
    if text is None:
        return None
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()


def describe(exc: sqlite3.Error) -> str:
    """What a SQLite error means for the user: only a file that is not a database is "not a
    ledger"; a good ledger that is read-only, on a full disk or busy must not be called one."""
    return fault(exc) or f"cannot use the ledger ({exc})"


def fault(exc: sqlite3.Error) -> str | None:
    """What is wrong with the ledger file itself, if the error says (else it is a fault in a query)."""
    text = str(exc)
    if "not a database" in text or "malformed" in text:
        return f"not a Wilson ledger ({text})"
    if "readonly" in text or "read-only" in text:
        return f"the ledger is read-only ({text})"
    if "locked" in text or "busy" in text:
        return "the ledger is busy: another Wilson is writing to it; try again when it is done"
    if "full" in text or "I/O" in text:
        return f"cannot write the ledger ({text}); is the disk full?"
    return None


def migrate(conn: sqlite3.Connection) -> list[int]:
    """Apply the migrations this ledger has not seen yet; returns their numbers."""
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
        " applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')))"
    )
    done = {row[0] for row in conn.execute("SELECT version FROM schema_migrations")}
    known = migration_files()
    if done and max(done) > known[-1][0]:
        raise LedgerError(
            f"this ledger was upgraded by a newer Wilson (schema {max(done)}; this one knows {known[-1][0]}): upgrade Wilson to use it"
        )
    applied = []
    for version, path in known:
        if version in done:
            continue
        script = path.read_text(encoding="utf-8")
        try:
            conn.execute("BEGIN IMMEDIATE")
            if conn.execute("SELECT 1 FROM schema_migrations WHERE version = ?", (version,)).fetchone():
                conn.execute("ROLLBACK")  # another process opening the ledger at the same time applied it
                continue
            # executescript would commit first; run statement by statement inside our transaction.
            for statement in _statements(script):
                conn.execute(statement)
            conn.execute("INSERT INTO schema_migrations (version, name) VALUES (?, ?)", (version, path.name))
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            if conn.in_transaction:  # SQLite ends it itself on some errors (a full disk): a second ROLLBACK would hide the cause
                conn.execute("ROLLBACK")
            raise LedgerError(f"migration {path.name} failed: {exc}") from None
        applied.append(version)
    return applied


def _statements(script: str) -> list[str]:
    """Split a migration into complete statements (triggers contain inner semicolons)."""
    statements, current = [], ""
    for line in script.splitlines(keepends=True):
        if not current and (not line.strip() or line.lstrip().startswith("--")):
            continue
        current += line
        if sqlite3.complete_statement(current):
            statements.append(current.strip())
            current = ""
    if current.strip():
        statements.append(current.strip())
    return statements


def open_ledger(path: Path | None = None) -> sqlite3.Connection:
    """Open (creating and upgrading as needed) the user's ledger."""
    path = path or ledger_path()
    conn = connect(path)
    try:
        migrate(conn)
    except LedgerError as exc:
        conn.close()
        raise LedgerError(f"{path}: {exc}") from None
    except sqlite3.Error as exc:
        conn.close()
        raise LedgerError(f"{path}: {describe(exc)}") from None
    return conn
