"""Exporting transactions: CSV, JSON, Beancount and Ledger/hledger, shared by the tool and `wilson export`.

Pending rows are never exported (they may still change or vanish). CSV amounts are signed decimal
strings with `.` and exactly the currency's decimals, outflow negative; dates are ISO.
"""

from __future__ import annotations

import csv
import io
import json
import os
import secrets
from dataclasses import dataclass
from datetime import date, timedelta
from operator import itemgetter
from pathlib import Path
from typing import Annotated, Callable, Iterable, Iterator, Literal

from wilson.ledger import Ledger
from wilson.tools.common import Period, covered, home_currency, money, resolve_account
from wilson.tools.journal import AccountNames, build_entries, render_beancount, render_ledger
from wilson.tools.registry import ToolContext, ToolError, tool

Format = Literal["csv", "json", "beancount", "ledger"]
FORMATS = ("csv", "json", "beancount", "ledger")
EXTENSIONS = {"csv": "csv", "json": "json", "beancount": "beancount", "ledger": "journal"}
# `category_path` (`Income:Freelance`) lets an import put a category back under its parent, of its
# kind; `splits` (JSON, only on split rows) keeps a split transaction one row and its parts whole.
CSV_COLUMNS = (
    "id", "date", "account", "description", "payee", "amount", "currency", "category", "notes", "category_path", "splits",
    "account_type", "original_amount", "original_currency",  # so an import of the file puts them back
)


@dataclass
class Export:
    # The rendered export piece by piece, read from the ledger as it is written: a million rows
    # held as dicts and one string took gigabytes.
    pieces: Callable[[], Iterator[str]]
    count: int
    span: Period | None
    currencies: list[str]
    account: str | None

    @property
    def text(self) -> str:
        return "".join(self.pieces())


def _category_paths(ledger: Ledger) -> dict[int, tuple[list[str], str]]:
    """category id -> (names from the root down, kind)."""
    rows = {row["id"]: row for row in ledger.query("SELECT id, name, parent_id, kind FROM categories")}
    paths = {}
    for category_id, row in rows.items():
        path, seen, current = [], set(), row
        while current and current["id"] not in seen:
            seen.add(current["id"])
            path.insert(0, current["name"])
            current = rows.get(current["parent_id"])
        paths[category_id] = (path, row["kind"])
    return paths


_WHERE = "t.pending = 0 AND (? IS NULL OR t.posted >= ?) AND (? IS NULL OR t.posted <= ?) AND (? IS NULL OR t.account_id = ?)"
ROWS_PER_PIECE = 1_000


def _params(start: date | None, end: date | None, account_id: int | None) -> list:
    return [start and start.isoformat()] * 2 + [end and end.isoformat()] * 2 + [account_id] * 2


def _rows(ledger: Ledger, params: list, paths: dict[int, tuple[list[str], str]]) -> Iterator[dict]:
    """The selected rows oldest first, each with its account and category path, one at a time."""
    accounts = {row["id"]: row for row in ledger.query("SELECT id, name, type, currency FROM accounts")}
    for found in ledger.conn.execute(f"SELECT t.* FROM transactions t WHERE {_WHERE} ORDER BY t.posted, t.id", params):
        row = dict(found)
        row["account"] = accounts[row["account_id"]]
        row["category_path"], row["category_kind"] = paths.get(row["category_id"], (None, None))
        yield row


def _splits(ledger: Ledger, params: list, paths: dict[int, tuple[list[str], str]]) -> dict[int, list[dict]]:
    splits: dict[int, list[dict]] = {}
    for split in ledger.query(
        f"SELECT s.* FROM splits s JOIN transactions t ON t.id = s.transaction_id WHERE {_WHERE} ORDER BY s.id", params
    ):
        path, kind = paths.get(split["category_id"], (None, None))
        splits.setdefault(split["transaction_id"], []).append(split | {"path": path, "kind": kind})
    return splits


def _extent(ledger: Ledger, params: list) -> tuple[int, date | None, date | None, list[str]]:
    """How many rows, their first and last day and their currencies, before any is rendered (one pass)."""
    count, first, last, codes = ledger.conn.execute(
        f"SELECT COUNT(*), MIN(posted), MAX(posted), GROUP_CONCAT(DISTINCT currency) FROM transactions t WHERE {_WHERE}", params
    ).fetchone()
    return count, first and date.fromisoformat(first), last and date.fromisoformat(last), sorted(codes.split(",")) if codes else []


def _openings(ledger: Ledger, start: date, account_id: int | None) -> list[dict]:
    """Each account's balance before `start`, per currency: what its rows before then add up to,
    plus, in its own currency, what the balance the bank stated (`wilson accounts`) says the account
    held before its first row. Without that, a journal's balances were its rows' sums alone and
    disagreed with the bank's."""
    accounts = {row["id"]: row for row in ledger.query("SELECT * FROM accounts")}
    totals: dict[tuple[int, str], int] = {}
    for r in ledger.query(
        "SELECT account_id, currency, SUM(amount) AS total FROM transactions WHERE pending = 0 AND posted < ?"
        " AND (? IS NULL OR account_id = ?) GROUP BY account_id, currency",
        (start.isoformat(), account_id, account_id),
    ):
        totals[r["account_id"], r["currency"]] = r["total"]
    for account in accounts.values():
        if account["balance"] is None or account["balance_date"] is None or account_id not in (None, account["id"]):
            continue
        held = ledger.scalar(
            "SELECT COALESCE(SUM(amount), 0) FROM transactions WHERE account_id = ? AND currency = ? AND pending = 0 AND posted <= ?",
            (account["id"], account["currency"], account["balance_date"]),
        )
        key = (account["id"], account["currency"])
        totals[key] = totals.get(key, 0) + account["balance"] - held
    return [
        {"account": accounts[account], "amount": amount, "currency": currency}
        for (account, currency), amount in sorted(totals.items()) if amount
    ]


def _after_stated_balances(ledger: Ledger, account_id: int | None, end: date | None) -> date | None:
    latest = ledger.scalar(
        "SELECT MAX(balance_date) FROM accounts WHERE balance IS NOT NULL AND (? IS NULL OR id = ?) AND (? IS NULL OR balance_date <= ?)",
        (account_id, account_id, *[end and end.isoformat()] * 2),
    )
    return date.fromisoformat(latest) + timedelta(days=1) if latest else None


def _csv(rows: Iterable[dict], splits: dict[int, list[dict]]) -> Iterator[str]:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for n, row in enumerate(rows, 1):
        parts = splits.get(row["id"])
        cells = _plain_row(row) | {"splits": json.dumps(_parts(row, parts, ":".join), ensure_ascii=False) if parts else ""}
        writer.writerow(cells[column] for column in CSV_COLUMNS)
        if n % ROWS_PER_PIECE == 0:
            yield out.getvalue()
            out.seek(0)
            out.truncate()
    yield out.getvalue()


def _parts(row: dict, parts: list[dict], name: Callable[[list[str]], str]) -> list[dict]:
    """A split's parts; the CSV names each category by its path, so an import can put it back."""
    return [
        {"amount": money(s["amount"], row["currency"]), "category": name(s["path"]) if s["path"] else None, "memo": s["memo"]}
        for s in parts
    ]


def _plain_row(row: dict) -> dict:
    return {
        "id": row["id"], "date": row["posted"], "account": row["account"]["name"], "description": row["description"],
        "payee": row["payee"] or "", "amount": money(row["amount"], row["currency"]), "currency": row["currency"],
        "category": row["category_path"][-1] if row["category_path"] else "", "notes": row["notes"] or "",
        "category_path": ":".join(row["category_path"]) if row["category_path"] else "",
        "account_type": row["account"]["type"], "original_currency": row["original_currency"] or "",
        "original_amount": money(row["original_amount"], row["original_currency"]) if row["original_amount"] is not None else "",
    }


def _json(rows: Iterable[dict], splits: dict[int, list[dict]], block: dict) -> Iterator[str]:
    """One object, `covered` first, then one transaction a line."""
    yield '{"covered": ' + json.dumps(block, ensure_ascii=False) + ',\n "transactions": ['
    for n, row in enumerate(rows):
        item = _plain_row(row) | {"category_path": ":".join(row["category_path"]) if row["category_path"] else None,
                                  "transfer_id": row["transfer_id"], "original_amount": None, "original_currency": None}
        if row["original_amount"] is not None:
            item |= {"original_amount": money(row["original_amount"], row["original_currency"]), "original_currency": row["original_currency"]}
        if row["id"] in splits:
            item["splits"] = [  # named as the rows are: the leaf, and the path that tells leaves apart
                part | {"category_path": ":".join(s["path"]) if s["path"] else None}
                for part, s in zip(_parts(row, splits[row["id"]], itemgetter(-1)), splits[row["id"]])
            ]
        yield ("," if n else "") + "\n  " + json.dumps(item, ensure_ascii=False)
    yield "\n]}\n"


def export(ledger: Ledger, fmt: str, start: date | None = None, end: date | None = None,
           account: str | None = None) -> Export:
    """Render the selected posted transactions in `fmt`; raises ToolError for bad arguments."""
    if fmt not in FORMATS:
        raise ToolError(f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}")
    if start and end and end < start:
        raise ToolError(f"end date {end} is before start date {start}")
    account_row = resolve_account(ledger, account) if account is not None else None  # "" names no account
    account_id = account_row["id"] if account_row else None
    params = _params(start, end, account_id)
    count, first, last, currencies = _extent(ledger, params)
    span = Period(start or first, end or last) if (start or first) and (end or last) else None  # the dates asked for, even with no rows
    name = account_row["name"] if account_row else None
    block = covered(span, count, currencies, account=name)

    def pieces() -> Iterator[str]:
        paths = _category_paths(ledger)
        splits = _splits(ledger, params, paths)
        if fmt == "csv":
            yield from _csv(_rows(ledger, params, paths), splits)
        elif fmt == "json":
            yield from _json(_rows(ledger, params, paths), splits, block)
        else:
            # Before the first row a full export opens at the balance the bank stated; with no rows
            # at all (an account opened from an empty statement), the day after it.
            opened = start or first or _after_stated_balances(ledger, account_id, end)
            openings = _openings(ledger, opened, account_id) if opened else []
            entries = build_entries(list(_rows(ledger, params, paths)), splits, openings, opened, AccountNames())
            currency = account_row["currency"] if account_row else home_currency(ledger)
            yield render_beancount(entries, currency) if fmt == "beancount" else render_ledger(entries)

    return Export(pieces, count, span, currencies, name)


def write_atomic(path: Path, pieces: Iterable[str]) -> None:
    """Write via a temporary file in the same directory and rename, so a reader never sees half a file.

    A pipe, a device or `/dev/stdout` is written to, not replaced; a symlink's target is what gets
    replaced; a read-only file is refused. A new file gets the umask's mode, a replaced one keeps its own.
    """
    if path.exists() and not path.is_file():
        with path.open("w", encoding="utf-8", newline="") as handle:  # a FIFO, a device, process substitution
            handle.writelines(pieces)
        return
    try:
        os.stat(path)  # a symlink loop is an error here, not a link to replace
    except FileNotFoundError:
        pass  # a new file, or a link to one
    path = Path(os.path.realpath(path))
    existing = path.stat().st_mode & 0o7777 if path.exists() else None
    if existing is not None and not existing & 0o222:
        raise PermissionError(13, "the file is read-only")
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.parent / f".{path.name}.{secrets.token_hex(6)}.tmp"
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # the umask applies, as to any new file
    try:
        if existing is not None:
            os.chmod(temp, existing)
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.writelines(pieces)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


@tool(
    description="""
    Export posted transactions to a file: csv (date, description, signed amount, category,
    account, ...), json, beancount or ledger (a Ledger/hledger journal, double-entry, transfers
    as one transaction). Use it when the user asks to export, back up or move data to another
    tool. Pending transactions are never exported. Give a path, or omit it for a dated file in
    Wilson's exports folder; an existing file is never overwritten. Returns the path and counts,
    not the contents.
    """,
)
def export_transactions(
    ctx: ToolContext,
    format: Annotated[Format, "csv, json, beancount or ledger"] = "csv",
    start_date: Annotated[date | None, "first day to include; omit for all history"] = None,
    end_date: Annotated[date | None, "last day to include (inclusive); omit for everything"] = None,
    account: Annotated[str | None, "only this account"] = None,
    path: Annotated[str | None, "file to write (~ is expanded); must not exist yet"] = None,
) -> dict:
    result = export(ctx.ledger, format, start_date, end_date, account)
    target = Path(path).expanduser() if path else _default_path(ctx, format)
    if target.exists():
        raise ToolError(f"{target} already exists; choose another path", kind="exists", path=str(target))
    try:
        write_atomic(target, result.pieces())
    except OSError as exc:
        raise ToolError(f"could not write {target}: {exc.strerror or exc}", kind="io_error") from None
    return {
        "path": str(target),
        "format": format,
        "exported": result.count,
        "bytes": target.stat().st_size,
        "covered": covered(result.span, result.count, result.currencies, account=result.account),
    }


def _default_path(ctx: ToolContext, fmt: str) -> Path:
    from wilson.paths import data_dir

    base = data_dir() / "exports" / f"wilson-{ctx.today.isoformat()}"
    candidate, n = base.with_suffix(f".{EXTENSIONS[fmt]}"), 2
    while candidate.exists():
        candidate, n = base.with_name(f"{base.name}-{n}").with_suffix(f".{EXTENSIONS[fmt]}"), n + 1
    return candidate
