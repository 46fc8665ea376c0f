"""From a file on disk to rows in the ledger: parse, check, resolve accounts, de-duplicate, record.

Everything for one file happens inside one ledger transaction, so a refused file, a dry run or an
interrupted import leaves the ledger exactly as it was.
"""

from __future__ import annotations

import gc
import hashlib
import json
import re
import struct
import unicodedata
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field, fields
from datetime import date, timedelta
from itertools import chain, compress, groupby
from operator import add, ne, not_
from pathlib import Path
from typing import Callable, Iterable, Iterator

from wilson.importers.csv_generic import CARD_CSV, CARD_SAMPLE, GENERIC_CSV, UNSURE_SIGNS_MIN
from wilson.importers.csv_inferred import INFERRED_CSV
from wilson.importers.file_categories import file_categories
from wilson.importers.formats import STDIN, format_names, parse_bytes, read_bytes
from wilson.importers.model import (
    LEDGER_EXPORTS, UNNAMED, ImportRefused, ParsedAccount, ParsedRows, ParseResult, RowError, name_from_file, per_distinct, type_named,
)
from wilson.importers.qif import QIF, QIF_ISSUER, read_issuer_side
from wilson.ledger import Ledger
from wilson.ledger.account_changes import AccountChanges, note_account_changes
from wilson.ledger.bulk import is_bulk
from wilson.ledger.imports import SHARED_SPAN_DAYS, BatchRecord, ImportOutcome, posted_span, record_import, reworded
from wilson.ledger.iso_dates import days, shift
from wilson.ledger.new_rows import NewRows
from wilson.money import format_minor

MAX_DESCRIPTION = 4096
MAX_ERRORS_SHOWN = 3
FUTURE_DAYS = 366  # a row dated further ahead than this is most likely a misread date
EARLIEST_LIKELY = date(1970, 1, 1)  # nor does a bank's download reach back before this: `01` read as 1901


class _DryRun(Exception):
    """Raised inside the write transaction to roll a dry run back."""


class _ReadAgain(Exception):
    """Raised inside the write transaction when a file stating no currency went into an account the
    ledger holds in another: its amounts were read in the wrong minor units (and dates maybe in the
    wrong order), so the import starts again, reading it in the account's currency."""

    def __init__(self, currency: str):
        super().__init__(currency)
        self.currency = currency


@dataclass(kw_only=True)
class ImportSummary(ImportOutcome):
    """What one file's import did: the ledger's counts, plus what the file itself held."""

    path: str
    format: str
    accounts: list[str]
    rows_read: int
    pending_skipped: int = 0
    reverted_skipped: int = 0
    first_date: str | None = None
    last_date: str | None = None
    dry_run: bool = False
    skipped_bad: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def as_dict(self) -> dict:
        return dict(self.__dict__)


def import_file(
    ledger: Ledger,
    path: Path,
    account: str | None = None,
    forced_format: str | None = None,
    dry_run: bool = False,
    skip_bad: bool = False,
    progress: Callable[[str], None] | None = None,
    categorize: Callable[[NewRows], None] | None = None,
    currency: str | None = None,
) -> ImportSummary:
    """Import one export; raises `ImportRefused` (nothing written) when the file can't be taken.

    `categorize` may set categories on the new rows before they are written (the tools layer
    passes its rule and merchant matcher; the importers know nothing of it). `currency` is the
    user's for a file that states none (most CSVs do not; an Australian bank's is not in dollars).
    """
    if account is not None:
        # The name the account is kept under: `--account "Amex "` found none, then clashed with it;
        # a zero-width space or a byte-order mark pasted with it opened a second "Amex".
        account = "".join(ch for ch in account if unicodedata.category(ch) != "Cf").strip()
        if not any(map(str.isalnum, account)):
            raise ImportRefused(str(path), "--account needs a name")
    with _collector_paused():
        return _import_file(ledger, path, account, forced_format, dry_run, skip_bad, progress, categorize, currency)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """An import makes hundreds of thousands of objects and no reference cycles; the cyclic garbage
    collector walking them again and again cost a third of a 100k-row re-import."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _import_file(
    ledger: Ledger,
    path: Path,
    account: str | None,
    forced_format: str | None,
    dry_run: bool,
    skip_bad: bool,
    progress: Callable[[str], None] | None,
    categorize: Callable[[NewRows], None] | None,
    currency: str | None,
    read_in: str | None = None,
    data: bytes | None = None,
) -> ImportSummary:
    """`read_in`: the currency of the account a file stating none turned out to go into (`_ReadAgain`);
    `data`: the file's bytes when it is read again."""
    say = progress or (lambda stage: None)
    source = str(path)
    # A file stating no currency that goes into an account the user named is in that account's.
    named_account = _account_named(ledger, account) if account and not currency else None
    given = currency or (named_account["currency"] if named_account else None) or read_in
    data = data or read_bytes(path)
    say(f"reading {len(data) / 1e6:.1f} MB")
    result = parse_bytes(data, source, forced_format, given)
    guessed = set() if given else {parsed.key for parsed in result.accounts if not parsed.currency_stated}
    # So is one going by its number or name into an account the ledger holds (next month's `Yucho.csv`).
    held_in = _known_currency(ledger, result, guessed, source) if guessed and not account else None
    before = None if forced_format else _format_read_before(ledger, result)
    read_as_table = result.format in (GENERIC_CSV, INFERRED_CSV)
    card, doubt = (None, None) if forced_format or before or not read_as_table else _card_awaiting(ledger, result, account, source)
    again_as = CARD_CSV if card else before if before != result.format else None
    if again_as or held_in:
        result = parse_bytes(data, source, again_as or forced_format, given or held_in)
    if result.format in (QIF, QIF_ISSUER) and not forced_format:
        _issuer_side_remembered(ledger, result, account)
    if card:
        result.warnings.append(f"{card} is a credit card whose files write its charges positive: this one was read so (card_csv)")
    result.warnings += [doubt] if doubt else []
    rows = _check_rows(result)
    result.transactions = []  # `rows` holds them from here on
    if result.errors and not skip_bad:
        raise ImportRefused(source, _describe_errors(result.errors), skippable=bool(rows))
    if not rows:
        raise ImportRefused(source, "no readable transactions" + (f" ({_describe_errors(result.errors)})" if result.errors else ""))
    file_hash = result.file_hash
    say(f"checking {len(rows):,} rows")
    summary = ImportSummary(
        batch_id=None,
        path=source,
        format=result.format,
        accounts=[],
        rows_read=len(rows) - result.second_legs + len(result.errors) + result.skipped_pending + result.skipped_reverted,
        pending_skipped=result.skipped_pending,
        reverted_skipped=result.skipped_reverted,
        dry_run=dry_run,
        skipped_bad=[str(e) for e in result.errors],
        warnings=list(result.warnings),
    )
    stated = sorted({a.currency.upper() for a in result.accounts} - {currency.upper()}) if currency else []
    if stated:
        summary.warnings.append(f"the file states {', '.join(stated)}; --currency {currency.upper()} applies only to files that state none")
    dates = rows.column("posted")
    summary.first_date, summary.last_date = min(dates).isoformat(), max(dates).isoformat()
    horizon = date.today() + timedelta(days=FUTURE_DAYS)
    if max(dates) > horizon:
        ahead = sum(day > horizon for day in dates)
        summary.warnings.append(f"{ahead} row(s) dated more than a year ahead (latest {summary.last_date}): check the dates")
    if min(dates) < EARLIEST_LIKELY:
        before = sum(day < EARLIEST_LIKELY for day in dates)
        summary.warnings.append(f"{before} row(s) dated before {EARLIEST_LIKELY.year} (earliest {summary.first_date}): check the dates")
    balances = _balance_facts(result, rows)
    say(f"writing {len(rows):,} rows")
    try:
        # A file at least twice the ledger's size is mostly new rows (not a re-import, whose
        # small write the rollback journal's syncs would slow down).
        with ledger.write(bulk=is_bulk(ledger.conn, len(rows), ledger_share=0.5)):
            known = {row["id"] for row in ledger.query("SELECT id FROM accounts")}
            changes = AccountChanges()
            accounts = _resolve_accounts(ledger, result, rows, account, source, summary.warnings, changes)
            misread = _misread_currency(result, accounts, known, guessed)
            if misread:
                raise _ReadAgain(misread)
            changes.created = [{"id": a["id"], "name": a["name"]} for a in accounts.values() if a["id"] not in known]
            changes.issuer_side = [accounts[key]["id"] for key in result.issuer_side if key in accounts]
            summary.accounts = [accounts[key]["name"] for key in _keys_in_order(result, rows)]
            elsewhere = _imported_elsewhere(ledger, file_hash, {a["id"] for a in accounts.values()})
            summary.warnings += elsewhere
            summary.warnings += _foreign_accounts(result, accounts)
            new_rows = _ledger_rows(ledger, result, rows, accounts, changes)
            overlap = _overlap(ledger, accounts, new_rows, known) if not account and len(accounts) == 1 else None
            del rows, dates  # the parsed rows are not needed past here; free them before the insert
            only_account = accounts[next(iter(accounts))]["id"] if len(accounts) == 1 else None
            batch = BatchRecord(
                file_name=_storable(path.name),
                file_path=None if path == STDIN else _storable(str(path.resolve())),
                file_hash=file_hash,
                format=result.format,
                account_id=only_account,
                rows_read=summary.rows_read,
                skipped=len(result.errors),
                first_date=summary.first_date,
                last_date=summary.last_date,
            )
            superseded = [(accounts[key]["id"], bank_id) for key, bank_id in result.superseded if key in accounts]
            outcome = record_import(ledger, batch, new_rows, _preparer(categorize), superseded)
            summary.warnings += _strangers(overlap, outcome.duplicates)
            if known and len(accounts) == 1 and not elsewhere:  # `--account` with a new name too: a typo for one the ledger has
                opened = [a["id"] for a in changes.created]
                if opened or outcome.added <= REPEATED_CHECK_MAX:
                    summary.warnings += _repeated_elsewhere(
                        ledger, outcome.batch_id, outcome.added + outcome.pending_added, opened or [only_account], same_format=not opened
                    )
            idle = _idle_accounts(ledger, result, accounts, account, source, summary.warnings, changes)
            changes.created += [{"id": a["id"], "name": a["name"]} for a in idle.values() if a["id"] not in known]
            summary.accounts += [a["name"] for a in idle.values()]
            summary.warnings += _apply_balances(ledger, balances, accounts | idle, changes, not outcome.corrected)
            note_account_changes(ledger, outcome.batch_id, changes)
            for counted in fields(ImportOutcome):
                setattr(summary, counted.name, getattr(outcome, counted.name))
            summary.pending_skipped += outcome.pending_settled  # held in the file, posted in the ledger
            if dry_run:
                raise _DryRun
    except _DryRun:
        summary.batch_id = None
    except _ReadAgain as again:
        return _import_file(ledger, path, account, forced_format, dry_run, skip_bad, progress, categorize, currency, again.currency, data)
    return summary


def _known_currency(ledger: Ledger, result: ParseResult, guessed: set[str], source: str) -> str | None:
    """The currency to read a file in whose `guessed` accounts state none, when they go into
    accounts the ledger holds in one other currency than the guess, by the file's earlier import,
    their number or name: the first month imported with `--currency JPY`, the next without, was
    read in US cents. (`_misread_currency` catches the rest, after the accounts are resolved.)"""
    earlier = _account_before(ledger, result.file_hash, _storable(Path(source).name)) if len(guessed) == 1 else None
    found = [earlier] if earlier else [
        _by_number(ledger, parsed) or _by_name(ledger, parsed, source)[1] for parsed in result.accounts if parsed.key in guessed
    ]
    held = {account["currency"].upper() for account in found if account}
    guesses = {parsed.currency.upper() for parsed in result.accounts if parsed.key in guessed}
    return held.pop() if len(held) == 1 and held != guesses else None


def _misread_currency(result: ParseResult, accounts: dict[str, dict], known: set[int], guessed: set[str]) -> str | None:
    """The one currency of the accounts the ledger held that the file's `guessed` accounts went into
    (by rows they hold, earlier downloads named alike, the file's own earlier import) other than
    the one the file was read in; None when the file was read in theirs."""
    reading = {parsed.key: parsed.currency.upper() for parsed in result.accounts}
    misread = {
        accounts[key]["currency"].upper() for key in guessed
        if key in accounts and accounts[key]["id"] in known and accounts[key]["currency"].upper() != reading[key]
    }
    return misread.pop() if len(misread) == 1 else None


def _storable(name: str) -> str:
    """A file name as text SQLite can hold: a byte that is not UTF-8 in it (`stmt_\xff.csv`) shows as �."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _card_awaiting(ledger: Ledger, result: ParseResult, named: str | None, source: str) -> tuple[str | None, str | None]:
    """(the name of the card account whose charges a generic file's amounts, read as written,
    are; a warning when the signs were left as written in doubt): next month's download of a card
    that writes charges positive may hold no payment to show it. The account's last download named
    like this one tells (read as `card_csv` or not), else its last of any name; failing that, a
    file of mostly positive amounts into a credit card account, or one of three rows or more
    opening one its name types so (`amex.csv`), is its charges. A row or two opening a card's
    account may be a refund or a charge: read as written, and said so."""
    if result.sign_reading is None or len(result.accounts) > 1:
        return None, None
    parsed = result.accounts[0] if result.accounts else None
    name = named or _account_name(parsed, source)
    found = ledger.account(named) if named else (
        parsed and parsed.number and ledger.account_by_number(parsed.number, None, None)
    ) or ledger.account(name)
    unsure = result.sign_reading == "unsure"
    if found:
        earlier = "b.account_id = ? AND b.format IN (?, ?, ?) ORDER BY b.id DESC"
        params = (found["id"], GENERIC_CSV, INFERRED_CSV, CARD_CSV)
        before = next((row["format"] for row in _named_like(ledger, source, earlier, params)), None) or next(
            (row["format"] for row in ledger.query(f"SELECT b.format FROM import_batches b WHERE b.undone_at IS NULL AND {earlier}", params)),
            None,
        )
        card = before == CARD_CSV and not _bank_like(result) if before else unsure and found["type"] == "credit_card"
        return (found["name"] if card else None), None
    kind = _type_for(parsed, name) if parsed else type_named(name)
    if named or not unsure or kind != "credit_card":
        return None, None
    if len(result.transactions) >= UNSURE_SIGNS_MIN:
        return name, None
    return None, (f"{name} opens as a credit card, and its positive row(s) were read as money in (a refund or payment);"
                  " if they are charges, undo and import with --format card_csv")


def _issuer_side_remembered(ledger: Ledger, result: ParseResult, named: str | None) -> None:
    """Read from the issuer's side the file's card sections whose account's last QIF download was
    (`read_issuer_side`): next month's may hold no payment to show it, and its charges came out as
    money in. Each card by its own: one file may hold an issuer's card beside Quicken's own."""
    for parsed in result.accounts:
        if parsed.type != "credit_card" or parsed.key in result.issuer_side:
            continue
        found = _account_named(ledger, named if named and len(result.accounts) == 1 else parsed.name or "")
        if found and found["id"] in _last_qif_issuer_side(ledger, found["id"]):
            read_issuer_side(result, parsed, remembered=True)


def _last_qif_issuer_side(ledger: Ledger, account_id: int) -> list[int]:
    """The accounts the account's last QIF download read from the issuer's side (a batch noted
    before they were noted card by card: all of its accounts, if it was `qif_issuer`)."""
    last = ledger.query_one(  # a file of several accounts names none in its batch: its rows tell
        "SELECT format, account_changes FROM import_batches b WHERE undone_at IS NULL AND format IN (?2, ?3) AND (account_id = ?1"
        " OR account_id IS NULL AND EXISTS (SELECT 1 FROM transactions t WHERE t.batch_id = b.id AND t.account_id = ?1))"
        " ORDER BY id DESC LIMIT 1",
        (account_id, QIF, QIF_ISSUER),
    )
    if last is None:
        return []
    noted = json.loads(last["account_changes"] or "{}")
    return noted["issuer_side"] if "issuer_side" in noted else [account_id] if last["format"] == QIF_ISSUER else []


# Money in only a bank account gets: a card's charges are never someone's pay, a deposit at the
# bank, interest earned or a Zelle payment received (a card charges interest, and a hotel's or an
# Airbnb's deposit).
_PAY = re.compile(
    r"payroll|salary|salaries|wages|direct dep|\b(?:mobile|remote|online|atm|branch|cash|check|counter|e)[\s-]*deposit|deposit from"
    r"|zelle (?:payment )?from|interest (?:paid|earned|payment)|soc sec|ssa treas|treas 310|ach credit"
    r"|gehalt|\blohn\b|salaire|n[oó]mina|stipendio",
    re.IGNORECASE,
)


def _bank_like(result: ParseResult) -> bool:
    """Whether the file's money in includes pay or deposits: then it is not the next download of a
    card that writes its charges positive, whose positive rows are charges (interest, a balance
    transfer, a Venmo payment), but another bank's file going by the same generic name (a second
    `transactions.csv`)."""
    rows = ParsedRows.of(result.transactions)
    return any(
        amount > 0 and _PAY.search(text) for amount, text in zip(rows.column("amount")[:CARD_SAMPLE], rows.column("description"))
    )


def _format_read_before(ledger: Ledger, result: ParseResult) -> str | None:
    """The format this very file was read in when it was imported before (maybe another than its
    content says: a card file with `--format card_csv`): read the same way again, or its rows come
    back with other signs and a re-import adds them all."""
    row = ledger.query_one(
        "SELECT format FROM import_batches WHERE file_hash = ? AND undone_at IS NULL ORDER BY id DESC LIMIT 1", (result.file_hash,)
    )
    # A QIF read from the issuer's side is so card by card: each card's account remembers it.
    return row["format"] if row and row["format"] in format_names() and row["format"] != QIF_ISSUER else None


def _account_before(ledger: Ledger, file_hash: str, file_name: str) -> dict | None:
    """The account this very file (its name and bytes: two accounts' one-row downloads may hold the
    same bytes) went into when it was imported before, undone since or not, so undoing it and
    importing it again gives back the ledger there was, whatever accounts the ledger has gained
    since and whatever `--account` named it then."""
    return ledger.query_one(
        "SELECT b.id, b.undone_at, a.name, a.currency FROM import_batches b JOIN accounts a ON a.id = b.account_id"
        " WHERE b.file_hash = ? AND b.file_name = ?"
        " ORDER BY b.id DESC LIMIT 1",
        (file_hash, file_name),
    )


def _imported_elsewhere(ledger: Ledger, file_hash: str, account_ids: set[int]) -> list[str]:
    """The same file imported before into other accounts: its rows are now in the ledger twice."""
    return [
        f"this file was imported before as batch {row['id']} into {row['name']}"
        for row in ledger.query(
            "SELECT b.id, a.name, b.account_id FROM import_batches b JOIN accounts a ON a.id = b.account_id"
            " WHERE b.file_hash = ? AND b.undone_at IS NULL",
            (file_hash,),
        )
        if row["account_id"] not in account_ids
    ]


def _check_rows(result: ParseResult) -> ParsedRows:
    """Guards every parser shares: absurd descriptions and dates are row errors, not ledger rows."""
    rows = ParsedRows.of(result.transactions)
    if not rows:
        return rows
    problems: dict[int, tuple[str, str]] = {}
    descriptions = rows.column("description")
    if max(map(len, descriptions)) > MAX_DESCRIPTION:
        problems.update(
            (i, (f"description is {len(text):,} characters long", "description"))
            for i, text in enumerate(descriptions) if len(text) > MAX_DESCRIPTION
        )
    posted = rows.column("posted")
    if min(posted) < EARLIEST or max(posted) > LATEST:  # .NET's empty date is 0001-01-01
        for i, day in enumerate(posted):
            if not EARLIEST <= day <= LATEST:
                problems.setdefault(i, (f"the date {day.isoformat()} is out of range ({EARLIEST.year} to {LATEST.year})", "date"))
    if problems:
        lines = rows.column("line")
        result.errors += [RowError(lines[i], message, column) for i, (message, column) in problems.items()]
        rows = rows.take([i for i in range(len(rows)) if i not in problems])
    result.errors.sort(key=lambda e: e.line)
    return rows


EARLIEST, LATEST = date(1900, 1, 1), date(2199, 12, 31)


def _describe_errors(errors: list[RowError]) -> str:
    shown = "; ".join(str(e) for e in errors[:MAX_ERRORS_SHOWN])
    more = f" (and {len(errors) - MAX_ERRORS_SHOWN} more)" if len(errors) > MAX_ERRORS_SHOWN else ""
    return f"{len(errors)} row(s) could not be read: {shown}{more}"


def _keys_in_order(result: ParseResult, rows: ParsedRows) -> list[str]:
    default = _default_key(result)
    used = {key or default for key in set(rows.column("account_key"))}
    return [a.key for a in result.accounts if a.key in used]


def _idle_accounts(
    ledger: Ledger, result: ParseResult, accounts: dict[str, dict], named: str | None, source: str, warnings: list[str],
    changes: AccountChanges,
) -> dict[str, dict]:
    """Accounts whose statement in the file has a balance but no rows (a quiet month's savings
    beside the checking statement): their balance is news all the same, and one the ledger does
    not hold yet is opened with it, as the file's other accounts are."""
    if named:
        return {}
    return {
        parsed.key: _account_for(ledger, parsed, None, source, None, warnings, changes, result.format)
        for parsed in result.accounts
        if parsed.key not in accounts and parsed.number and parsed.balance is not None and parsed.balance_date
    }


def _default_key(result: ParseResult) -> str:
    return result.accounts[0].key if result.accounts else "default"


TYPO_LIKENESS = 85  # of 100: `Amx` is Amex mistyped; `Visa` and `Visa Gold` are two cards


def _meant(ledger: Ledger, named: str, source: str, rows: ParsedRows | None, warnings: list[str]) -> dict | None:
    """The account an `--account` that names none means (`_account_named`). A name like another's
    but for a typo (`Amx`) whose account holds a few of the file's rows is refused rather than
    opened: those rows would go into the ledger a second time, under the new account. (`Wise AUD`
    beside `Wise USD`, or `Mary Savings` beside `Mark Savings`, shares a row or two at most: it is
    opened, and the summary names its look-alike.)"""
    from rapidfuzz import fuzz

    alike = _account_named(ledger, named)
    if alike:
        return alike
    wanted = _letters_and_digits(named)
    names = [row["name"] for row in ledger.query("SELECT name FROM accounts")]
    ours = _day_amounts(_booked(rows)) if rows else []
    like = [name for name in names if ours and _DIGIT_RUNS.findall(name) == _DIGIT_RUNS.findall(named)
            and fuzz.ratio(wanted, _letters_and_digits(name)) >= TYPO_LIKENESS]
    holding = [name for name in like if _shares_rows(ledger, ledger.account(name)["id"], ours)]
    if holding:
        raise ImportRefused(source, f"no account is named \"{named}\", and {' and '.join(holding)} holds rows of this file:"
                                    f" did you mean {' or '.join(holding)}? (--account with a name like no other's opens a new account)")
    if like:  # next month's file under a mistyped name shares no rows: said, not refused
        warnings.append(f"{named} is a new account, named like {' and '.join(like)}: if the file is {like[0]}'s, undo it and"
                        f" import it with --account \"{like[0]}\"")
    return None


def _account_named(ledger: Ledger, name: str) -> dict | None:
    """The account of that name, or the one account of the same letters and digits (`Chase Checking
    1234` for `Chase Checking …1234`, whose `…` nobody types)."""
    found = ledger.account(name)
    if found or not name:
        return found
    wanted = _letters_and_digits(name)
    same = [row["name"] for row in ledger.query("SELECT name FROM accounts") if _letters_and_digits(row["name"]) == wanted]
    return ledger.account(same[0]) if len(same) == 1 else None


_DIGIT_RUNS = re.compile(r"\d+")


def _shares_rows(ledger: Ledger, account_id: int, ours: list[tuple[str, int]]) -> bool:
    """Whether the account holds a few of the file's posted rows (day, amount): Mark's and Mary's
    savings share a transfer and a cent of interest."""
    return (_compared(ledger, account_id, ours) or (0,))[0] >= RECOGNISED_MIN


def _letters_and_digits(name: str) -> str:
    return "".join(ch for ch in name.casefold() if ch.isalnum())


def _resolve_accounts(
    ledger: Ledger, result: ParseResult, rows: ParsedRows, named: str | None, source: str, warnings: list[str],
    changes: AccountChanges,
) -> dict[str, dict]:
    """Map the file's accounts to ledger accounts, creating the ones that are new (and saying so
    where an account was recognised by the rows it already holds)."""
    if not result.accounts:
        result.accounts = [ParsedAccount(key="default", name=name_from_file(source))]
    keys = _keys_in_order(result, rows)
    if named and len(keys) > 1:
        raise ImportRefused(source, f"the file holds {len(keys)} accounts; --account can only name one (leave it out)")
    own = next((parsed for parsed in result.accounts if parsed.key in keys), None)
    # A file that names its account's number goes by it, even where an earlier `--account` sent it,
    # unless no account has that number and that import stands: the same file again must add nothing
    # (a new card's first download, put into the old card's account).
    numbered = own is not None and bool(own.number or re.search(rf"\d{{{LAST_DIGITS}}}", _account_name(own, source)))
    if not named and len(keys) == 1:
        before = _account_before(ledger, result.file_hash, _storable(Path(source).name))
        if before and numbered and (before["undone_at"] or _by_number(ledger, own)):
            before = None
        if before:
            named = before["name"]
            if before["undone_at"]:  # a plain re-import goes there anyway, adding nothing
                warnings.append(f"this file went into {named} when it was imported before (batch {before['id']}, undone):"
                                " it goes there again (to send it elsewhere, give --account)")
    resolved = {}
    for parsed in result.accounts:
        if parsed.key not in keys:
            continue
        resolved[parsed.key] = _account_for(
            ledger, parsed, named, source, rows if len(keys) == 1 else None, warnings, changes, result.format
        )
    return resolved


def _account_for(
    ledger: Ledger, parsed: ParsedAccount, named: str | None, source: str, rows: ParsedRows | None, warnings: list[str],
    changes: AccountChanges, file_format: str,
) -> dict:
    by_number = None if named else _by_number(ledger, parsed)
    if by_number:
        return by_number
    if named:
        name, found = named, ledger.account(named) or _meant(ledger, named, source, rows, warnings)
    else:
        name, found = _by_name(ledger, parsed, source)
    if found and not named and parsed.currency_stated and found["currency"] != parsed.currency.upper():
        # Another currency is another account: the same account id (a bank's EUR and USD pockets),
        # or the same bank's export from another country (Amex in dollars and in pounds).
        name = f"{name} {parsed.currency.upper()}"
        found = ledger.account(name)
    elif found is None and not named and parsed.currency_stated:
        name, found = _in_its_currency(ledger, name, parsed.currency.upper())
    if found is None and not named and rows is not None:
        # A file that states its account's number may be the next download of one first imported
        # from a CSV, which stated none (Chase's QFX after its CSV): only such an account can be it.
        currency = parsed.currency.upper() if parsed.currency_stated else None
        held = _account_holding(ledger, rows, currency, bool(parsed.number))
        sibling = None if held or parsed.number else _numbered_sibling(ledger, name, currency)
        if sibling is not None:
            booked = _booked(rows)
            held = sibling if booked and _holds(ledger, sibling["id"], _day_amounts(booked), minimum=1) else None
        digits = None if held else _same_last_digits(ledger, name, parsed, currency)
        named_by_digits = re.search(rf"\d{{{LAST_DIGITS}}}", name)  # `Chase Checking …5678`: its number says which
        continued = None if held or digits or named_by_digits else _balance_continued(ledger, rows, currency)
        runs_on = None if held or digits or named_by_digits or continued else _balance_runs_on(ledger, rows, currency)
        namesake = None if held or digits or continued or runs_on or parsed.number else _namesakes_account(
            ledger, source, file_format, currency, rows
        )
        if namesake and named_by_digits and named_by_digits[0] not in Path(source).name:
            # Earlier files of the same name went there, but this one's digits come from inside it
            # (Schwab's line above the header): two accounts' downloads share the name. An account
            # named by its digits is this one only by the same digits; one named otherwise (by
            # `--account`) only when this file's running balance carries on from its balance.
            if re.search(rf"\d{{{LAST_DIGITS}}}", namesake["name"]):
                namesake = namesake if named_by_digits[0] in namesake["name"] else None
            else:
                carried = _balance_continued(ledger, rows, currency) or _balance_runs_on(ledger, rows, currency)
                namesake = namesake if carried and carried["id"] == namesake["id"] else None
        found = held or digits or continued or runs_on or namesake
        if found:
            why = ("holds the rows it shares dates with" if held else "is numbered with the same last digits" if digits
                   else "holds its rows and the balance its running balance shows that day" if continued
                   else "ended on the balance its running balance starts from" if runs_on
                   else "is where the earlier downloads named like this file went")
            warnings.append(f"no account is named {name}; {found['name']} {why}, so it went there (to send it elsewhere, give --account)")
            if parsed.number:
                ledger.conn.execute("UPDATE accounts SET number = ? WHERE id = ?", (parsed.number, found["id"]))
                changes.numbered.append((found["id"], parsed.number))
    if found:
        return found
    if not parsed.currency_stated:  # a Swiss or Norwegian file would otherwise be in euros unnoticed
        warnings.append(f"the file states no currency: {name} is opened in {parsed.currency.upper()} (undo and import"
                        " with --currency to choose another)")
    return ledger.create_account(name, _type_for(parsed, name), parsed.currency, parsed.institution, parsed.number)


def _by_number(ledger: Ledger, parsed: ParsedAccount) -> dict | None:
    """The account of the file's account number (in the currency and type the file states, if it does)."""
    if not parsed.number:
        return None
    return ledger.account_by_number(
        parsed.number, parsed.currency if parsed.currency_stated else None, parsed.type if parsed.type_stated else None
    )


def _by_name(ledger: Ledger, parsed: ParsedAccount, source: str) -> tuple[str, dict | None]:
    """(name, account) of the file's account by its name; one of that name numbered otherwise is
    another account, and the file's goes by more of its number's digits."""
    name = _account_name(parsed, source)
    found = ledger.account(name)
    if found and parsed.number and found["number"] not in (None, parsed.number):
        name = _unclaimed_name(ledger, name, parsed.number)
        found = ledger.account(name)
    return name, found


RECOGNISED_SHARE = 0.8  # of the rows a file and an account share dates with, this many of the fewer side's in both
RECOGNISED_MAJORITY = 0.5  # and more than this many of the other side's: one download may lack a few of the other's rows
RECOGNISED_MIN = 3  # and no fewer: two cards may both pay Netflix and Spotify on one day


def _account_holding(ledger: Ledger, rows: ParsedRows, currency: str | None, unnumbered: bool = False) -> dict | None:
    """The account that already holds the file's rows, for a file whose name and content name none
    the ledger knows: a renamed download (`checking oct.csv`), the next month of a file first
    imported with `--account`, or the same account's download in another format. A new account
    would take the overlap a second time.

    Rows are compared by date and amount, since another format words them otherwise (an OFX
    name is cut at 32 characters). Over the dates both cover, most of the account's posted rows
    must be the file's and most of the file's the account's: two cards that both pay Netflix and
    Spotify on the same day are not one, nor is a PayPal history and the card that paid its
    purchases (its deposits are not the card's). Nearly all of one side's rows must be the other's,
    but not of both: two downloads of one card need not list the same rows (Citi's QFX leaves out
    some its CSV lists), and asking it of both put the QFX in an account of its own, every row they
    share counted twice. Pending rows say nothing (a hold posts under another amount).
    `unnumbered`: only accounts that have no number of the bank's yet."""
    booked = _booked(rows)
    if not booked:
        return None
    posted = booked.column("posted")
    candidates = ledger.query(
        "SELECT a.id FROM accounts a WHERE (:currency IS NULL OR a.currency = :currency) AND (:any OR a.number IS NULL)"
        " AND EXISTS (SELECT 1 FROM transactions t WHERE t.account_id = a.id AND t.pending = 0 AND t.posted BETWEEN :low AND :high)",
        {"currency": currency, "any": not unnumbered, "low": min(posted).isoformat(), "high": max(posted).isoformat()},
    )
    if not candidates:  # a first import: nothing to compare
        return None
    ours = _day_amounts(booked)
    return next((ledger.account_by_id(account["id"]) for account in candidates if _holds(ledger, account["id"], ours)), None)


def _in_its_currency(ledger: Ledger, name: str, currency: str) -> tuple[str, dict | None]:
    """(name, account) of the account a file's rows in one currency belong to under the other
    naming: `wallet EUR`, opened by a download of all its currencies, for this month's `wallet` in
    euros only, and `wallet` in euros for next month's `wallet EUR`."""
    suffix = f" {currency}"
    other = name.removesuffix(suffix) if name.endswith(suffix) else name + suffix
    found = ledger.account(other)
    return (other, found) if found and found["currency"] == currency else (name, None)


def _balance_continued(ledger: Ledger, rows: ParsedRows, currency: str | None) -> dict | None:
    """The one account whose known balance the file's running balance shows on that day, after a
    row they share, worded the same: a renamed download that overlaps its account by a row or two
    (too few for `_account_holding`) whose balances run on from the account's."""
    balances: dict[tuple[str, int], list[int]] = {}  # (day, balance that day) -> accounts
    for account in _known_balances(ledger, rows, currency):
        balances.setdefault((account["balance_date"], account["balance"]), []).append(account["id"])
    if not balances:  # most first imports: no account to continue
        return None
    booked = _booked(rows)
    at_balance: dict[tuple[str, int], set[tuple[int, str]]] = {}  # (day, balance after) -> (amount, text) of the rows there
    for day, balance, amount, text in zip(
        per_distinct(date.isoformat, booked.column("posted")), booked.column("balance"), booked.column("amount"), booked.column("description")
    ):
        if (day, balance) in balances:
            at_balance.setdefault((day, balance), set()).add((amount, text.casefold()))
    found = [account_id for (day, balance), owners in balances.items() if (day, balance) in at_balance
             for account_id in owners if _holds_any(ledger, account_id, day, at_balance[day, balance])]
    return ledger.account_by_id(found[0]) if len(found) == 1 else None


def _known_balances(ledger: Ledger, rows: ParsedRows, currency: str | None) -> list[dict]:
    """The accounts (in the file's currency, if it states one) whose balance is known, for a file
    whose running balance can say which of them it continues; none for a file without one."""
    if not rows.has("balance"):
        return []
    return ledger.query(
        "SELECT id, balance, balance_date FROM accounts WHERE balance IS NOT NULL AND (:currency IS NULL OR currency = :currency)",
        {"currency": currency},
    )


RUNS_ON_DAYS = 45  # a file's first row at most this long after an account's known balance continues it


def _balance_runs_on(ledger: Ledger, rows: ParsedRows, currency: str | None) -> dict | None:
    """The one account whose known balance (not zero: any new account's) is where the file's
    running balance starts, on its first day or within weeks after: next month's download,
    renamed, that shares no row with the last one."""
    accounts = [account for account in _known_balances(ledger, rows, currency) if account["balance"] and account["balance_date"]]
    booked = _booked(rows) if accounts else None  # most first imports: no account to run on from
    if not booked:
        return None
    days_, amounts, balances = booked.column("posted"), booked.column("amount"), booked.column("balance")
    first = min(days_)
    opening = {balance - amount for day, amount, balance in zip(days_, amounts, balances) if day == first and balance is not None}
    found = [
        account["id"] for account in accounts
        if account["balance"] in opening and 0 <= (first - date.fromisoformat(account["balance_date"])).days <= RUNS_ON_DAYS
    ]
    return ledger.account_by_id(found[0]) if len(found) == 1 else None


def _holds_any(ledger: Ledger, account_id: int, day: str, rows: set[tuple[int, str]]) -> bool:
    """Whether the account holds one of `rows` (amount, casefolded text) on `day`, worded the same."""
    held = ledger.query("SELECT amount, description FROM transactions WHERE account_id = ? AND posted = ? AND pending = 0", (account_id, day))
    return any((row["amount"], row["description"].casefold()) in rows for row in held)


def _booked(rows: ParsedRows) -> ParsedRows:
    """The posted rows: pending ones say nothing of an account (a hold posts under another amount)."""
    return rows.take([i for i, pending in enumerate(rows.column("pending")) if not pending]) if rows.has("pending") else rows


def _day_amounts(rows: ParsedRows) -> list[tuple[str, int]]:
    return list(zip(per_distinct(date.isoformat, rows.column("posted")), rows.column("amount")))


def _holds(ledger: Ledger, account_id: int, ours: list[tuple[str, int]], minimum: int = RECOGNISED_MIN) -> bool:
    """Whether the account holds the file's posted rows, (ISO day, amount): at least `minimum`
    of them, nearly all of one side's rows over the dates both cover and most of the other's (see
    `_account_holding`)."""
    compared = _compared(ledger, account_id, ours)
    if compared is None:
        return False
    shared, theirs, mine, _ = compared
    fewer, more = sorted((theirs, mine))
    return shared >= minimum and shared >= RECOGNISED_SHARE * fewer and shared > RECOGNISED_MAJORITY * more


def _contradicts(ledger: Ledger, account_id: int, ours: list[tuple[str, int]]) -> bool:
    """Whether the account holds a few rows over more than a boundary's days of the file's, and none
    of the file's rows: another account's file, whatever its name says."""
    compared = _compared(ledger, account_id, ours)
    return compared is not None and compared[0] == 0 and compared[1] >= RECOGNISED_MIN and compared[3] > SHARED_SPAN_DAYS


def _compared(ledger: Ledger, account_id: int, ours: list[tuple[str, int]]) -> tuple[int, int, int, int] | None:
    """(rows shared, the account's, the file's, days from the first to the last) over the dates the
    file's posted rows (ISO day, amount) and the account's both cover; None when they share none."""
    held = ledger.conn.execute(
        "SELECT posted, amount FROM transactions WHERE account_id = ? AND pending = 0 AND posted BETWEEN ? AND ?",
        (account_id, min(ours)[0], max(ours)[0]),
    ).fetchall()
    if not held:
        return None
    first, last = min(day for day, _ in held), max(day for day, _ in held)
    mine = Counter(row for row in ours if first <= row[0] <= last)
    shared = sum((mine & Counter(map(tuple, held))).values())
    return shared, len(held), sum(mine.values()), days(last, first)


def _numbered_sibling(ledger: Ledger, name: str, currency: str | None) -> dict | None:
    """The one account named for the same bank and product with its last digits (`Chase Card …5678`
    for a renamed `Chase Card` download): that name is evidence enough for a short overlap."""
    found = [
        account for account in ledger.query("SELECT id, currency FROM accounts WHERE name LIKE ? ESCAPE '\\'", (_like_prefix(name) + " …%",))
        if currency is None or account["currency"] == currency
    ]
    return ledger.account_by_id(found[0]["id"]) if len(found) == 1 else None


def _same_last_digits(ledger: Ledger, name: str, parsed: ParsedAccount, currency: str | None) -> dict | None:
    """The one account of the file's type and bank that shares its last digits: a card's CSV named
    for them (`Chase Card …5678`) after its QFX numbered 4147202212345678, or that QFX after the
    CSV. A short overlap or none at all says nothing, and these downloads do not share a name."""
    if parsed.number:
        digits = re.sub(r"\D", "", parsed.number)[-LAST_DIGITS:]
        clause, pattern = "a.number IS NULL AND a.name LIKE ?", f"% …%{digits}"
    else:
        shown = re.search(r" …(\d{%d,})$" % LAST_DIGITS, name)
        digits = shown[1] if shown else ""
        clause, pattern = "a.number LIKE ?", f"%{digits}"
    if len(digits) < LAST_DIGITS:
        return None
    found = [
        account for account in ledger.query(f"SELECT a.* FROM accounts a WHERE {clause} AND a.type = ?", (pattern, parsed.type))
        if account[("name" if parsed.number else "number")].endswith(digits) and currency in (None, account["currency"])
        and _same_bank(parsed.institution, account["institution"])
    ]
    return found[0] if len(found) == 1 else None


LAST_DIGITS = 4  # a card's or account's, as banks print them


def _same_bank(one: str | None, other: str | None) -> bool:
    """Whether two names may be one bank's (`Citi` and `Citigroup`); an unknown one may be any."""
    first, second = (re.sub(r"\W", "", name).casefold() if name else "" for name in (one, other))
    return not first or not second or first.startswith(second) or second.startswith(first)


def _namesakes_account(ledger: Ledger, source: str, file_format: str, currency: str | None, rows: ParsedRows) -> dict | None:
    """The one account that earlier downloads of this format named like this file went into: the
    first month imported with `--account "Joint Checking"`, the next month's `Chase1234_Activity_…`
    without it. A name that is all dates and export words says nothing, and a bank that names
    every account's download alike (TD's `accountactivity.csv`) is told by the rows: a file that
    matches none of the account's rows on the days both cover is another account's."""
    went = {row["account_id"] for row in _named_like(
        ledger, source, "b.format = ? AND (? IS NULL OR a.currency = ?)", (file_format, currency, currency),
    )}
    if len(went) != 1 or name_from_file(source) == UNNAMED:
        return None
    account_id, booked = went.pop(), _booked(rows)
    return None if booked and _contradicts(ledger, account_id, _day_amounts(booked)) else ledger.account_by_id(account_id)


def _named_like(ledger: Ledger, source: str, where: str, params: tuple) -> list[dict]:
    """The imports in force (`b`, into account `a`) matching `where` whose file name gives the same
    account name as this file's (`Chase1234_Activity_20240131` and `…_20240229`)."""
    imports = ledger.query(
        f"SELECT b.* FROM import_batches b JOIN accounts a ON a.id = b.account_id WHERE b.undone_at IS NULL AND {where}", params
    )
    stem = name_from_file(source) if imports else None  # its patterns compile only when there is something to compare
    return [row for row in imports if name_from_file(row["file_name"]) == stem]


def _like_prefix(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


STRANGERS_SHARE = 0.2  # of the rows a file and an account share dates with, at most this many in both: two accounts


def _overlap(ledger: Ledger, accounts: dict[str, dict], rows: NewRows, known: set[int]) -> tuple[str, int, int, int] | None:
    """(account name, the file's posted rows, the account's, days from the first to the last) over
    the dates both cover, for a file that went by its name into an account the ledger already had;
    None when they share no dates."""
    account = next(iter(accounts.values()))
    if account["id"] not in known:
        return None
    # ISO days, a few thousand distinct objects that cache their hashes: counted in C
    booked = Counter(compress(rows.posted, map(not_, rows.pending)))
    if not booked:
        return None
    # The days both cover: from the later first day to the earlier last (a file of two rows covers
    # the days between them, though it has none on the days the account has rows).
    since, until = posted_span(ledger, account["id"])
    if since is None:
        return None
    first, last = max(min(booked), since), min(max(booked), until)
    held = _posted_per_day(ledger, account["id"], first, last) if first <= last else None
    if not held:
        return None
    return account["name"], sum(times for day, times in booked.items() if first <= day <= last), sum(held.values()), days(last, first)


def _posted_per_day(ledger: Ledger, account_id: int, low: str, high: str) -> Counter:
    """The account's posted rows per day from `low` to `high`, from two indexes alone: reading
    `pending` from the rows themselves took a tenth of a second on a 100k-row re-import."""
    def per_day(sql: str) -> Counter:
        return Counter(dict(ledger.conn.execute(sql + " GROUP BY posted", (account_id, low, high)).fetchall()))

    rows = per_day("SELECT posted, COUNT(*) FROM transactions WHERE account_id = ? AND posted BETWEEN ? AND ?")
    rows.subtract(per_day(
        "SELECT posted, COUNT(*) FROM transactions INDEXED BY transactions_pending"
        " WHERE account_id = ? AND pending = 1 AND posted BETWEEN ? AND ?"
    ))
    return +rows


def _strangers(overlap: tuple[str, int, int, int] | None, duplicates: int) -> list[str]:
    """A file whose rows share dates with its account's but hardly match them is most likely another
    account's (two cards of one bank, a checking and a savings export both named `stmt.csv`), or its
    bank reworded the rows, which are then in the ledger twice: either way the user must know. A
    file of a row or two says as much when the account holds a few on its dates and none is its,
    unless those are the day or two that consecutive statements share (never a row)."""
    if overlap is None:
        return []
    name, ours, theirs, span = overlap
    if not ours or theirs < RECOGNISED_MIN or duplicates > STRANGERS_SHARE * min(ours, theirs):
        return []
    if ours < RECOGNISED_MIN and span <= SHARED_SPAN_DAYS:
        return []
    return [f"{name} already holds {theirs} row(s) on the dates this file covers, and only {duplicates} of its {ours} match them:"
            " if it is another account's, undo it and name that account with --account"]


REPEATED_CHECK_MAX = 5_000  # new rows of an existing account checked against the others (a month's download, not a history)


def _repeated_elsewhere(ledger: Ledger, batch_id: int, added: int, accounts: list[int], same_format: bool = False) -> list[str]:
    """The file's accounts whose new rows another account holds too (same day and amount, the text
    the same, cut or extended: a QFX cuts its CSV's at 32 characters): a renamed download sharing
    a few rows with its account, too few to recognise it by, whose shared rows are now in the
    ledger twice. One row says nothing (two cards both pay Netflix). For an account the file did
    not open (`same_format`), only another account that files of the same format went into: one
    bank's download imported before the one that would have told them apart. The batch's `added`
    rows are the table's last (no index leads with the batch): read by id, not through the
    account's index (`+t.account_id`), which holds all of the account's rows."""
    formats = (" AND EXISTS (SELECT 1 FROM import_batches ob WHERE ob.account_id = a.id AND ob.undone_at IS NULL"
               " AND ob.format = (SELECT format FROM import_batches WHERE id = ?1))") if same_format else ""
    # A history's new account compares texts whole: its index probe finds the one row, where an
    # amount reads each of the day's rows (a second 100k-row account took seconds more).
    same = "o.amount = t.amount" if added <= REPEATED_CHECK_MAX else "o.fingerprint = t.fingerprint"
    shared: dict[tuple[str, str], set[int]] = {}
    for row in ledger.query(  # one probe of the account/date index per new row and other account
        "SELECT n.name AS opened, a.name, t.id, t.description AS ours, o.description AS theirs FROM transactions t"
        " CROSS JOIN accounts a CROSS JOIN transactions o INDEXED BY transactions_account_posted JOIN accounts n ON n.id = t.account_id"
        " WHERE t.id > (SELECT MAX(id) FROM transactions) - ?3 AND t.batch_id = ?1"
        " AND +t.account_id IN (SELECT value FROM json_each(?2)) AND a.id NOT IN (SELECT value FROM json_each(?2))"
        f"{formats} AND o.account_id = a.id AND o.posted = t.posted AND {same}",
        (batch_id, json.dumps(accounts), added),
    ):
        if reworded(row["theirs"].casefold(), row["ours"].casefold()):
            shared.setdefault((row["opened"], row["name"]), set()).add(row["id"])
    return [
        f"{len(ids)} of its rows in {opened} are in {name} too (same day, amount and text): if the file"
        f" is {name}'s, undo it and import it with --account \"{name}\""
        for (opened, name), ids in shared.items()
        if len(ids) > 1
    ]


def _type_for(parsed: ParsedAccount, name: str) -> str:
    """A file that only names its accounts ("Savings", "Visa") still gets the right account type."""
    if parsed.type != "checking" or re.search(r"check|chequ|giro|current", name, re.I):
        return parsed.type
    return type_named(name) or parsed.type


def _account_name(parsed: ParsedAccount | None, source: str) -> str:
    """The name a file's account goes by when the ledger knows none of its number."""
    return (parsed and (parsed.name or _name_from_number(parsed))) or name_from_file(source)


def _name_from_number(parsed: ParsedAccount) -> str | None:
    if not parsed.number:
        return None
    label = parsed.institution or parsed.type.replace("_", " ").title()
    digits = re.sub(r"\D", "", parsed.number)
    return f"{label} …{digits[-4:]}" if len(digits) >= 4 else f"{label} {parsed.number}"


def _unclaimed_name(ledger: Ledger, name: str, number: str) -> str:
    """A name for an account whose would-be name another account holds under another id (two
    checking accounts ending in 0001, two `Girokonto` with different IBANs): as many of the id's
    last digits as tell them apart. Merged, the second's rows would pass as duplicates of the first's."""
    digits = re.sub(r"\D", "", number) or number
    stem = re.sub(rf"\s*…?{re.escape(digits[-4:])}$", "", name)  # `Checking 0001`, `Checking …0001`: show more digits
    for shown in range(4 if stem == name else 5, len(digits) + 1):
        candidate = f"{stem} …{digits[-shown:]}"
        holder = ledger.account(candidate)
        if holder is None or holder["number"] == number:
            return candidate
    return f"{stem} ({number})"


def _ledger_rows(ledger: Ledger, result: ParseResult, rows: ParsedRows, accounts: dict[str, dict], changes: AccountChanges) -> NewRows:
    """Ledger rows with their fingerprints, built a column at a time. Hot: 100k rows, most of them
    duplicates on a re-import, so only what de-duplication needs is computed for every row (payees
    and categories come later, for new rows only)."""
    count = len(rows)
    stated = _stated_currencies(result)
    if rows.has("account_key"):
        default = _default_key(result)
        keys = [key or default for key in rows.column("account_key")]
        owners = [accounts[key] for key in keys]
        account_ids = [owner["id"] for owner in owners]
        currencies = [stated.get(key) or owner["currency"].upper() for key, owner in zip(keys, owners)]
    else:  # one account: constant columns
        key = _default_key(result)
        owner = accounts[key]
        currency = stated.get(key) or owner["currency"].upper()
        owners, account_ids, currencies = [owner] * count, [owner["id"]] * count, [currency] * count
    if rows.has("currency"):
        currencies = [(own or owner["currency"]).upper() for own, owner in zip(rows.column("currency"), owners)]
    posted = rows.column("posted")
    days = per_distinct(date.isoformat, posted)
    amounts = rows.column("amount")
    descriptions = rows.column("description")  # already squeezed
    pending = rows.column("pending")
    new = NewRows(
        account_ids, days, amounts, currencies, descriptions,
        fingerprints(account_ids, days, amounts, descriptions, pending),
        payee=rows.column("payee"), category_id=[None] * count, category_source=[None] * count,
        notes=rows.column("notes"), pending=pending, bank_id=rows.column("bank_id"),
        original_amount=rows.column("original_amount"), original_currency=rows.column("original_currency"),
    )
    restored = result.format in LEDGER_EXPORTS
    new.lists_pending = not restored
    if rows.has("category") or rows.has("splits"):
        # A QIF's categories are the user's own, set in Quicken or GnuCash: the categoriser never overwrites them.
        users_own = restored or result.format in (QIF, QIF_ISSUER)
        changes.categories += file_categories(
            ledger, rows, new, create=users_own, source="user" if users_own else "bank", kinds=result.category_kinds
        )
    if rows.has("transfer_account"):
        new.transfer_hint = {i: other for i, other in enumerate(rows.column("transfer_account")) if other}
    return new


def _stated_currencies(result: ParseResult) -> dict[str, str]:
    """The currency each of the file's accounts states: its rows are in it, whatever the ledger
    account they land in (`--account` may name one kept in another)."""
    return {parsed.key: parsed.currency.upper() for parsed in result.accounts if parsed.currency_stated}


def _foreign_accounts(result: ParseResult, accounts: dict[str, dict]) -> list[str]:
    return [
        f"the file is in {currency} and {accounts[key]['name']} in {accounts[key]['currency']}: its rows stay in {currency}"
        for key, currency in _stated_currencies(result).items()
        if key in accounts and currency != accounts[key]["currency"].upper()
    ]


_HASH = hashlib.blake2b(digest_size=8)  # copied per row: a copy costs half of building one from arguments


def fingerprints(
    account_ids: list[int], days: list[str], amounts: list[int], descriptions: list[str], pending: list[bool]
) -> list[int]:
    """Each row's signed 64-bit fingerprint: blake2b of `date|amount|casefolded description|pending|n`,
    where n numbers identical rows of one account in this file (two genuine $5.75 coffees on one
    day are 0 and 1). An INTEGER column indexes faster and smaller than hex text.

    Every row is hashed as occurrence 0 with C-level maps over whole columns; rows whose hash
    repeats within their account are the identical ones, and only those are numbered and hashed
    again one by one.
    """
    day_bytes, text_bytes = per_distinct(str.encode, days), per_distinct(_folded_bytes, descriptions)
    if pending and pending.count(pending[0]) == len(pending):  # every row posted, most often: a third less formatting
        found = _digests(map((b"%s|%d|%s|" + b"%d|0" % pending[0]).__mod__, zip(day_bytes, amounts, text_bytes)))
    else:
        found = _digests(map(b"%s|%d|%s|%d|0".__mod__, zip(day_bytes, amounts, text_bytes, pending)))
    owned = found if len(set(account_ids)) <= 1 else list(zip(account_ids, found))
    if len(set(owned)) < len(owned):
        repeated = {key for key, times in Counter(owned).items() if times > 1}
        seen: Counter = Counter()
        for i in compress(range(len(owned)), map(repeated.__contains__, owned)):
            occurrence, seen[owned[i]] = seen[owned[i]], seen[owned[i]] + 1
            if occurrence:
                found[i] = _digests([b"%s|%d|%s|%d|%d" % (day_bytes[i], amounts[i], text_bytes[i], pending[i], occurrence)])[0]
    return found


def _folded_bytes(description: str) -> bytes:
    return description.casefold().encode()


def _digests(materials: Iterable[bytes]) -> list[int]:
    """blake2b-64 of each, as signed big-endian integers."""
    digests = []
    for material in materials:
        state = _HASH.copy()
        state.update(material)
        digests.append(state.digest())
    packed = b"".join(digests)
    return list(chain.from_iterable(struct.iter_unpack(">q", packed)))


def _preparer(categorize: Callable[[NewRows], None] | None) -> Callable[[NewRows], None]:
    """What new rows get just before they are written: a cleaned payee, then any categories."""

    def prepare(rows: NewRows) -> None:
        from wilson.importers.payee import clean_payees  # its patterns compile only when a file has new rows

        cleaned = clean_payees(rows.description)
        rows.payee = cleaned if rows.payee.count(None) == len(rows) else [
            payee or clean for payee, clean in zip(rows.payee, cleaned)
        ]
        if categorize:
            categorize(rows)

    return prepare


@dataclass
class _Balance:
    """What one account's rows say about its balance, worked out before the rows are let go."""

    mismatches: list[int]
    amount: int | None = None
    as_of: date | None = None
    source: str = "running"
    currency: str | None = None  # the one the file states, if it does
    since: date | None = None  # for a statement's balance, the first day the file answers for: its start, or its first row


def _balance_facts(result: ParseResult, rows: ParsedRows) -> dict[str, _Balance]:
    """Per account key: rows that disagree with the running balance, and the balance to record."""
    default = _default_key(result)
    split = rows.has("account_key") or rows.has("pending")
    keys = [key or default for key in rows.column("account_key")]
    pending = rows.column("pending")
    facts = {}
    for parsed in result.accounts:
        if split or parsed.key != default:
            own = rows.take([i for i, (key, held) in enumerate(zip(keys, pending)) if key == parsed.key and not held])
        else:
            own = rows
        mismatches, latest = check_running_balance(own) if own.has("balance") else ([], None)
        if mismatches and any(pending):  # pending rows that carry a balance may be in the chain (PayPal)
            chained = check_running_balance(rows.take([i for i, key in enumerate(keys) if key == parsed.key]))
            if len(chained[0]) < len(mismatches):
                mismatches, latest = chained
        fact = _Balance(mismatches, currency=parsed.currency.upper() if parsed.currency_stated else None)
        if parsed.balance is not None and (parsed.balance_date or own):
            fact.amount, fact.source = parsed.balance, "statement"
            fact.as_of = parsed.balance_date or max(own.column("posted"))
            fact.since = min(filter(None, (parsed.listed_from, min(own.column("posted")) if own else None)), default=None)
        elif latest is not None:
            fact.amount, fact.as_of = latest
        facts[parsed.key] = fact
    return facts


def _apply_balances(
    ledger: Ledger, facts: dict[str, _Balance], accounts: dict[str, dict], changes: AccountChanges, checked: bool = True
) -> list[str]:
    """Set each account's balance from the statement or running balance, noting the change for
    undo; warn about mismatches. A file whose corrections changed rows the known balance counted
    (OFX `CORRECTACTION`) is not `checked` against it: that balance was the bank's before them."""
    warnings = []
    for key, fact in facts.items():
        account = accounts.get(key)
        if account is None:
            continue
        if fact.mismatches:
            warnings.append(
                f"{account['name']}: {len(fact.mismatches)} row(s) do not agree with the running balance"
                f" (first at line {fact.mismatches[0]})"
            )
        if fact.amount is None or fact.as_of is None:
            continue
        if fact.currency not in (None, account["currency"].upper()):
            warnings.append(f"{account['name']}: the file's balance is in {fact.currency}, the account's in {account['currency']}: not recorded")
            continue
        changes.stated.append((account["id"], [fact.amount, fact.as_of.isoformat(), fact.source]))
        before = _balance_of(ledger, account["id"])
        if checked:
            warnings += _disagreement(ledger, account, before, fact)
        ledger.set_balance(account["id"], fact.amount, fact.as_of, fact.source)
        after = _balance_of(ledger, account["id"])
        if after != before:
            changes.balances.append((account["id"], before, after))
    return warnings


def _disagreement(ledger: Ledger, account: dict, before: list, fact: _Balance) -> list[str]:
    """A statement's or running balance checked against the one the ledger knew and the rows
    between them: a download that left out a row (or one whose row is in the ledger twice, or one
    the bank later reverted) shows here. A file with no running balance has nothing else to check
    its amounts against, and one with a running balance checks only its own rows."""
    known, known_on, _ = before
    stated_on = fact.as_of.isoformat()
    if known is None or known_on is None or known_on == stated_on:
        return []
    low, high = sorted((known_on, stated_on))
    moved = ledger.scalar(
        "SELECT COALESCE(SUM(amount), 0) FROM transactions"
        " WHERE account_id = ? AND currency = ? AND pending = 0 AND posted > ? AND posted <= ?",
        (account["id"], account["currency"], low, high),
    )
    if stated_on > known_on:  # a row the earlier download came too early for
        moved += ledger.scalar(_BOOKED_AFTER_STATED, {"account": account["id"], "currency": account["currency"], "day": known_on})
    expected = known + moved if stated_on > known_on else known - moved
    if expected == fact.amount:
        return []
    code = account["currency"]
    # The file answers for its own days: a stretch without rows between them and the known balance
    # is more likely a download not imported yet (months imported out of order) than a lost row.
    until = min(high, shift(fact.since.isoformat(), -1)) if fact.since and stated_on > known_on else high
    gap = _widest_gap(ledger, account["id"], low, until)
    said = "the statement's balance" if fact.source == "statement" else "the running balance"
    stated = f"{account['name']}: {said} {format_minor(fact.amount, code)} on {stated_on}"
    known_then = f"{format_minor(known, code)} known on {known_on}"
    if gap:
        return [f"{stated} cannot be checked against the {known_then}: the ledger has no row from {gap[0]} to {gap[1]}"
                " (a download of those days not imported yet?)"]
    return [f"{stated} is {format_minor(fact.amount - expected, code)} off the {known_then} and the rows between:"
            " a row may be missing, or in the ledger twice"]


UNIMPORTED_GAP_DAYS = 20  # an account with no row for this long likely lacks a download (statements imported out of order)


def _widest_gap(ledger: Ledger, account_id: int, low: str, high: str) -> tuple[str, str] | None:
    """The longest stretch of days inside (low, high] without a posted row of the account, if one
    is long enough to be a download not imported yet rather than a quiet month."""
    if high <= low:
        return None
    held = [low] + [day for (day,) in ledger.conn.execute(
        "SELECT DISTINCT posted FROM transactions WHERE account_id = ? AND pending = 0 AND posted > ? AND posted <= ? ORDER BY posted",
        (account_id, low, high),
    )] + [shift(high, 1)]
    widest = max(zip(held, held[1:]), key=lambda pair: days(pair[1], pair[0]))
    return (shift(widest[0], 1), shift(widest[1], -1)) if days(widest[1], widest[0]) > UNIMPORTED_GAP_DAYS else None


# Rows that batches after the one stating an account's known balance added on the days its file
# covered up to that balance: posted that day, but after the download (a balance is as of a day, a
# download at an hour), or booked later under an earlier date (PayPal's eCheck, pending when that
# file was taken, completes under its first day). Days before that file are not among them: an
# older month imported later was in the bank's balance all along.
_BOOKED_AFTER_STATED = """
WITH stating AS (
    SELECT b.id, b.first_date FROM import_batches b, json_each(b.account_changes, '$.stated') s
    WHERE b.undone_at IS NULL AND json_extract(s.value, '$[0]') = :account AND json_extract(s.value, '$[1][1]') = :day
    ORDER BY b.id DESC LIMIT 1
)
SELECT COALESCE(SUM(t.amount), 0) FROM transactions t, stating
WHERE t.account_id = :account AND t.currency = :currency AND t.pending = 0
  AND t.posted BETWEEN COALESCE(stating.first_date, :day) AND :day AND t.batch_id > stating.id
"""


def _balance_of(ledger: Ledger, account_id: int) -> list:
    row = ledger.query_one("SELECT balance, balance_date, balance_source FROM accounts WHERE id = ?", (account_id,))
    return [row["balance"], row["balance_date"], row["balance_source"]]


def check_running_balance(rows: ParsedRows) -> tuple[list[int], tuple[int, date] | None]:
    """Lines where amount and running balance disagree, and the latest balance with its date.

    Files list rows oldest-first or newest-first, and some fill the balance on only a few rows; the
    order that explains more rows is taken, and rows without a balance carry their amount forward.
    When both explain as many (one bad balance breaks either chain alike), the dates tell the order:
    a newest-first file's latest balance is on its first row, not its last.
    """
    lines, amounts, balances, posted = (rows.column(name) for name in ("line", "amount", "balance", "posted"))
    known = [i for i, balance in enumerate(balances) if balance is not None] if None in balances else range(len(rows))
    if not known:
        return [], None
    if len(known) == len(rows):
        # Every row has its balance: each row is checked against its neighbour with C-level maps.
        forward = list(compress(lines[1:], map(ne, map(add, balances, amounts[1:]), balances[1:])))
        backward = list(compress(lines[:-1], map(ne, map(add, balances[1:], amounts), balances)))
    else:
        entries = list(zip(lines, amounts, balances))
        forward, backward = _misses(entries), sorted(_misses(reversed(entries)))
    # The latest balance carries the newer rows without one (as the chain does): Chase's newest row
    # of a day with its balance cell blank was left out of that day's balance.
    first, last = known[0], known[-1]
    if forward and backward and len(known) == len(rows):
        chained = _day_by_day_chain(lines, amounts, balances, posted)
        if len(chained[0]) < min(len(forward), len(backward)):
            return chained
    if (len(backward), posted[last]) < (len(forward), posted[first]):
        return backward, (balances[first] + sum(amounts[:first]), posted[0])
    return forward, (balances[last] + sum(amounts[last + 1:]), posted[-1])


def _day_by_day_chain(lines: list[int], amounts: list[int], balances: list[int], posted: list[date]) -> tuple[list[int], tuple[int, date]]:
    """Mismatches and the latest balance with the rows taken day by day, each day's in the order
    their balances chain: a file sorted newest first by date in a spreadsheet keeps each day's rows
    oldest first, and read either way round its days' boundaries disagreed (and a day's first row
    was taken for its last)."""
    bad: list[int] = []
    running: int | None = None
    for _, day in groupby(sorted(range(len(lines)), key=posted.__getitem__), key=posted.__getitem__):
        left = list(day)
        if running is None:  # the first day starts where no row of it ends
            ends = {balances[i] for i in left}
            running = next((balances[i] - amounts[i] for i in left if balances[i] - amounts[i] not in ends), balances[left[0]] - amounts[left[0]])
        while left:
            i = next((i for i in left if balances[i] - amounts[i] == running), None)
            if i is None:
                i = left[0]
                bad.append(lines[i])
            left.remove(i)
            running = balances[i]
    return sorted(bad), (running, max(posted))


def _misses(ordered: Iterable[tuple[int, int, int | None]]) -> list[int]:
    """Lines whose balance isn't the running balance carried from the rows before them."""
    bad, running = [], None
    for line, amount, balance in ordered:
        if running is not None:
            running += amount
        if balance is not None:
            if running is not None and running != balance:
                bad.append(line)
            running = balance
    return bad
