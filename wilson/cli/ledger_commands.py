"""Headless ledger commands: `wilson import` and `wilson accounts`."""

from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path

import click

from wilson.cli.output import complain, fail, one_line, print_json, unexpected


@click.command("import")
# readable=False: an unreadable file gets Wilson's own one-line error, not click's usage text
@click.argument("paths", nargs=-1, required=False, type=click.Path(path_type=Path, readable=False))
@click.option("--account", help="Book every row into this account (created if new).")
@click.option("--format", "forced_format", help="Force a format instead of detecting it (see --list-formats).")
@click.option(
    "--currency", callback=lambda ctx, param, value: _currency_code(value), metavar="CODE",
    help="Currency of a file that states none (else euros for `;`/decimal-comma files, dollars otherwise).",
)
@click.option("--dry-run", is_flag=True, help="Show what would happen; write nothing.")
@click.option("--skip-bad", is_flag=True, help="Import the readable rows and list the ones skipped.")
@click.option("--json", "as_json", is_flag=True, help="Print the summaries as JSON.")
@click.option("--undo", "undo", type=int, metavar="BATCH", help="Take import batch BATCH back: what it added goes, but rows a later import lists stay.")
@click.option("--list-formats", is_flag=True, help="List the formats Wilson recognises.")
@click.option("--history", is_flag=True, help="List earlier import batches.")
def import_command(
    paths: tuple[Path, ...], account: str | None, forced_format: str | None, currency: str | None, dry_run: bool,
    skip_bad: bool, as_json: bool, undo: int | None, list_formats: bool, history: bool,
) -> None:
    """Import bank exports (CSV, OFX/QFX, QIF) into the ledger; re-importing adds nothing. A PATH
    of `-` reads one from standard input."""
    from wilson.ledger import Ledger, LedgerError
    from wilson.ledger.db import IN_MEMORY
    from wilson.paths import ledger_path

    if list_formats:
        from wilson.importers.formats import format_names

        click.echo("\n".join(format_names()))
        return
    first = not ledger_path().exists()
    try:
        # A dry run before the first import compares with an empty ledger it never writes to disk.
        ledger = Ledger(IN_MEMORY if dry_run and first else None)
    except LedgerError as exc:
        fail(str(exc))
    try:
        if [str(path) for path in paths].count("-") > 1:
            fail("- (standard input) can be given once: what is piped in is read once")
        if paths and (undo is not None or history):
            fail("give either files to import or --undo/--history, not both")
        if undo is not None and history:
            fail("give either --undo or --history, not both")
        if (undo is not None or history) and (dry_run or skip_bad or account or forced_format or currency):
            fail("--dry-run, --skip-bad, --account, --format and --currency apply to importing files, not to --undo/--history")
        try:
            if undo is not None:
                _undo(ledger, undo, as_json)
            elif history:
                _history(ledger, as_json)
            elif not paths:
                fail("give one or more files to import (or --undo BATCH, --history)")
            else:
                _import(ledger, paths, account, forced_format, currency, dry_run, skip_bad, as_json)
        except LedgerError as exc:  # busy past the wait, read-only, disk full
            fail(str(exc))
    finally:
        ledger.close_or_discard(created=first and not dry_run)


def _currency_code(value: str | None) -> str | None:
    from wilson.money import ISO_4217

    if value is not None and value.strip().upper() not in ISO_4217:
        raise click.BadParameter(f"{value!r} is not an ISO 4217 currency code such as AUD or CHF")
    return value.strip().upper() if value else None


def _import(ledger, paths, account, forced_format, currency, dry_run, skip_bad, as_json) -> None:  # type: ignore[no-untyped-def]
    from wilson.importers.model import ImportRefused
    from wilson.importers.pipeline import import_file
    from wilson.ledger import LedgerError

    def categorize(rows) -> None:  # type: ignore[no-untyped-def]
        from wilson.tools.categorize import AutoCategorizer  # only a file with new rows needs it

        AutoCategorizer(ledger)(rows)

    # --json of several files has an entry per file, in order, so a refused one can be told from stdout alone.
    entries, failures = [], []
    # A dry run of several files writes them all in one transaction it then rolls back, so each
    # file's figures count the rows the files before it would add.
    refused: list[str] = []  # the files not imported, for the closing line of several
    with contextlib.suppress(_RolledBack), ledger.write() if dry_run else contextlib.nullcontext():
        for number, path in enumerate(paths):
            last_batch = ledger.scalar("SELECT COALESCE(MAX(id), 0) FROM import_batches")
            try:
                with _progress(path, enabled=not as_json and sys.stderr.isatty()) as say:
                    summary = import_file(
                        ledger, path, account, forced_format, False, skip_bad, progress=say, categorize=categorize,
                        currency=currency,
                    )
            except (ImportRefused, LedgerError) as exc:
                message = str(exc) + ("; fix them or use --skip-bad" if getattr(exc, "skippable", False) else "")
                failures.append(message)
                refused.append(str(path))
                entries.append({"path": str(path), "errors": [message]})
                complain(message)
                continue
            except KeyboardInterrupt:
                message = f"{path}: interrupted; {_what_was_written(ledger, last_batch, dry_run)}"
                if number + 1 < len(paths):
                    message += f"; not read: {', '.join(map(str, paths[number + 1 :]))}"
                if as_json:  # the files before it are written: a script must learn of their batches
                    entries.append({"path": str(path), "errors": [message]})
                    print_json(entries if len(paths) > 1 else {"errors": [message]})
                fail(message, code=130)
            except Exception as exc:  # a fault of Wilson's in one file: nothing of it written; the others go on
                message = f"{path}: {unexpected(exc)}"
                failures.append(message)
                refused.append(str(path))
                entries.append({"path": str(path), "errors": [message]})
                complain(message)
                continue
            if dry_run:
                summary.dry_run, summary.batch_id = True, None
            entries.append(summary.as_dict())
            if not as_json:
                _print_summary(summary)
        if dry_run:
            raise _RolledBack
    if as_json:
        print_json(entries if len(paths) > 1 else (entries[0] if not failures else {"errors": failures}))
    elif refused and len(refused) < len(paths):  # each file is its own import: say which went in
        done = "would be imported" if dry_run else "imported"
        complain(f"{len(paths) - len(refused)} of {len(paths)} files {done}; not: {', '.join(refused)}")
    if failures:
        sys.exit(1)


def _what_was_written(ledger, last_batch: int, dry_run: bool) -> str:  # type: ignore[no-untyped-def]
    """An interrupt just after the import's commit comes too late to undo it: say which is true."""
    written = None if dry_run else ledger.scalar("SELECT MAX(id) FROM import_batches WHERE id > ?", (last_batch,))
    if written is None:
        return "nothing from this file was written"
    return f"the file was written all the same, as batch {written} (undo: wilson import --undo {written})"


class _RolledBack(Exception):
    """Ends a dry run's transaction, undoing everything it wrote."""


class _progress:
    """A transient rich progress line on a terminal while a file is read, checked and written: what
    is being done to how much, and for how long. Each stage is one call into code that works a
    column at a time, so the bar pulses rather than pretending to a share done."""

    def __init__(self, path: Path, enabled: bool):
        self.path, self.enabled, self._progress = path, enabled, None

    def __enter__(self):  # type: ignore[no-untyped-def]
        if not self.enabled:
            return lambda stage: None
        from rich.console import Console
        from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

        self._progress = Progress(
            SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn(),
            console=Console(stderr=True), transient=True,
        )
        self._progress.start()
        task = self._progress.add_task(f"{self.path.name}: reading", total=None)

        def say(stage: str) -> None:
            self._progress.update(task, description=f"{self.path.name}: {stage}")

        return say

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.stop()


def _print_summary(summary) -> None:  # type: ignore[no-untyped-def]
    verb = "would add" if summary.dry_run else "added"
    click.echo(one_line(f"{summary.path} ({summary.format}) → {', '.join(summary.accounts)}"))
    click.echo(
        f"  rows read {summary.rows_read}, {verb} {summary.added}, duplicates skipped {summary.duplicates}, "
        f"pending kept {summary.pending_added}, pending skipped {summary.pending_skipped}"
        + (f", pending replaced {summary.pending_replaced}" if summary.pending_replaced else "")
        + (f", reverted skipped {summary.reverted_skipped}" if summary.reverted_skipped else "")
    )
    click.echo(f"  dates {summary.first_date} … {summary.last_date}"
               + (f", transfers linked {summary.transfers_linked}" if summary.transfers_linked else "")
               + (f", corrected by the bank {summary.corrected}" if summary.corrected else "")
               + (f", categorised {summary.categorized}" if summary.categorized else "")
               + (f", batch {summary.batch_id} (undo: wilson import --undo {summary.batch_id})" if summary.batch_id else ""))
    for line in summary.skipped_bad:
        click.echo(f"  skipped {line}")
    for warning in summary.warnings:
        click.echo(f"  warning: {warning}")


def _undo(ledger, batch_id: int, as_json: bool) -> None:  # type: ignore[no-untyped-def]
    from wilson.ledger.undo import undo_batch

    if not 0 < batch_id < 2**63:
        fail(f"no import batch {batch_id}")
    try:
        undone = undo_batch(ledger, batch_id)
    except LookupError as exc:
        fail(str(exc))
    if as_json:
        print_json({"batch_id": batch_id, "removed": undone.removed, "accounts_removed": undone.accounts_removed,
                    "kept_by": undone.kept_by, "covered_by": undone.covered_by})
        return
    gone = f"; emptied account(s) removed too: {', '.join(undone.accounts_removed)}" if undone.accounts_removed else ""
    click.echo(f"batch {batch_id} undone: {undone.removed} transaction(s) removed{gone}")
    for other in undone.kept_by:
        click.echo(f"  kept {other['rows']} that batch {other['batch_id']} ({other['file_name']}) lists too: they are its rows now")
    for other in undone.covered_by:
        click.echo(f"  note: {other['rows']} of them fall in the days batch {other['batch_id']} ({other['file_name']}) covers;"
                   " its file may list them too: import it again to bring those back")


def _history(ledger, as_json: bool) -> None:  # type: ignore[no-untyped-def]
    rows = ledger.query(
        "SELECT b.id, b.file_name, b.format, a.name AS account, b.rows_read, b.added, b.duplicates, b.imported_at,"
        " b.undone_at, b.account_changes FROM import_batches b LEFT JOIN accounts a ON a.id = b.account_id ORDER BY b.id"
    )
    for row in rows:  # an undo removes the accounts its batch created; the batch keeps the name
        changes = json.loads(row.pop("account_changes") or "{}")
        row["account"] = row["account"] or changes.get("account")
    if as_json:
        print_json(rows)
        return
    for row in rows:
        state = f" (undone {row['undone_at']})" if row["undone_at"] else ""
        click.echo(
            f"{row['id']:>4}  {row['imported_at']}  {one_line(row['file_name'])}  {row['format']}  {row['account'] or 'several'}"
            f"  read {row['rows_read']}, added {row['added']}, duplicates {row['duplicates']}{state}"
        )


@click.command("accounts")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
def accounts_command(as_json: bool) -> None:
    """List accounts with transaction counts, date ranges and balances."""
    from wilson.ledger import Ledger, LedgerError
    from wilson.money import format_minor

    try:
        ledger = Ledger()
    except LedgerError as exc:
        fail(str(exc))
    with ledger:
        rows = ledger.accounts()
    for row in rows:
        row["balance"] = format_minor(row["balance"], row["currency"]) if row["balance"] is not None else None
        row["net_amount"] = format_minor(row["net_amount"], row["currency"])
        row["other_currencies"] = {code: format_minor(amount, code) for code, amount in row["other_currencies"].items()}
    if as_json:
        print_json(rows)
        return
    if not rows:
        click.echo("No accounts yet. Import an export: wilson import FILE")
        return
    for row in rows:
        parts = [f"{row['transactions']} transaction{'' if row['transactions'] == 1 else 's'}"]
        parts += [f"{row['pending']} pending"] if row["pending"] else []
        parts += [f"{row['first_date']} … {row['last_date']}"] if row["first_date"] else []
        parts.append(f"{row['balance']} {row['currency']} as of {row['balance_date']} ({row['balance_source']})" if row["balance"] else "balance unknown")
        parts += [f"{amount} {code} in rows of that currency" for code, amount in row["other_currencies"].items()]
        click.echo(one_line(f"{row['name']}  [{row['type']}]  {', '.join(parts)}"))
