"""`wilson export`: the same export code as the agent's tool, to stdout or atomically to a file."""

from __future__ import annotations

import os
from datetime import date
from pathlib import Path

import click

from wilson.cli.output import fail


def _date(value: str | None, option: str) -> date | None:
    if value is None:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        fail(f"{option}: {value!r} is not a date (use YYYY-MM-DD)")


def _is_the_ledger(target: Path, ledger: Path) -> bool:
    """Whether `target` is the ledger's file or one of SQLite's beside it (a "backup" export over
    `wilson.db` would replace every transaction with their CSV)."""
    own = os.path.realpath(ledger)
    return os.path.realpath(target) in {own, *(own + suffix for suffix in ("-wal", "-shm", "-journal"))}


@click.command("export")
@click.option("--format", "fmt", type=click.Choice(["csv", "json", "beancount", "ledger"]), default="csv",
              show_default=True, help="Output format (ledger: a Ledger/hledger journal).")
@click.option("--output", "-o", default="-", show_default=True, help="File to write (replaced if it exists), or - for standard output.")
@click.option("--from", "start", metavar="DATE", help="First day to include (YYYY-MM-DD).")
@click.option("--to", "end", metavar="DATE", help="Last day to include (YYYY-MM-DD).")
@click.option("--account", metavar="NAME", help="Only this account.")
def export_command(fmt: str, output: str, start: str | None, end: str | None, account: str | None) -> None:
    """Export posted transactions (pending ones never) as CSV, JSON, Beancount or a Ledger journal."""
    from wilson.ledger import Ledger, LedgerError
    from wilson.tools.export import export, write_atomic
    from wilson.tools.registry import ToolError

    first, last = _date(start, "--from"), _date(end, "--to")
    try:
        with Ledger() as ledger:
            result = export(ledger, fmt, first, last, account)
            if output == "-":
                for piece in result.pieces():  # written as read: a large ledger is never held whole
                    click.echo(piece, nl=False)
                return
            target = Path(output).expanduser()
            if _is_the_ledger(target, ledger.path):
                fail(f"{target} is the ledger itself; export to another file")
            if not target.parent.is_dir():  # a mistyped path is an error, not new directories
                fail(f"could not write {target}: there is no directory {target.parent}")
            try:
                write_atomic(target, result.pieces())
            except OSError as exc:
                fail(f"could not write {target}: {exc.strerror or exc}")
    except (ToolError, LedgerError) as exc:
        suggestions = getattr(exc, "details", {}).get("suggestions")
        fail(f"{exc}" + (f" (did you mean {', '.join(suggestions)}?)" if suggestions else ""))
    click.echo(f"exported {result.count} transaction(s) to {target}", err=True)
