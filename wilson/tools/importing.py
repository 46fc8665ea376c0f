"""The import tool: a bank export on disk into the ledger, through the same pipeline as `wilson import`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from wilson.importers.model import ImportRefused
from wilson.importers.pipeline import import_file
from wilson.ledger import LedgerError
from wilson.tools.categorize import AutoCategorizer
from wilson.tools.registry import ToolContext, ToolError, tool

# What the user can do about unreadable rows (the tool imports all of a file or nothing).
SKIPPABLE_ADVICE = ("; nothing was imported: the user can fix those rows in the file and import it again, or import"
                    " the readable rows from a terminal with `wilson import --skip-bad <file>`")


@tool(
    description="""
    Import a bank export file (CSV, OFX/QFX or QIF) from the user's disk into the ledger. Use it
    when the user gives you a file path to import. Duplicates already in the ledger are skipped,
    pending rows are tracked, and transfers between own accounts are linked; the result counts
    what was added. Use dry_run=true to preview without writing. A file that can't be imported
    comes back as an error naming the problem (the ledger is left unchanged). Don't use it to
    look at transactions already imported.
    """,
    changes_data=True,
)
def import_transactions(
    ctx: ToolContext,
    path: Annotated[str, "path to the export file, as the user gave it (~ is expanded)"],
    account: Annotated[str | None, "ledger account name to import into; omit to let the file decide"] = None,
    format: Annotated[str | None, "force a format by name; omit to detect it from the content"] = None,
    dry_run: Annotated[bool, "preview the counts without writing anything"] = False,
) -> dict:
    file = Path(path).expanduser()
    try:
        summary = import_file(
            ctx.ledger, file, account=account, forced_format=format, dry_run=dry_run,
            categorize=AutoCategorizer(ctx.ledger),
        )
    except ImportRefused as exc:
        message = exc.message + (SKIPPABLE_ADVICE if exc.skippable else "")
        raise ToolError(message, kind="import_refused", path=exc.path, line=exc.line, column=exc.column) from None
    except LedgerError as exc:
        raise ToolError(str(exc), kind="import_refused", path=str(file)) from None
    result = summary.as_dict()
    result["covered"] = {
        "transactions": summary.rows_read,
        "start_date": summary.first_date,
        "end_date": summary.last_date,
        "accounts": summary.accounts,
    }
    return result
