"""Shared CLI output: one-line errors on stderr and JSON on stdout."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, NoReturn

import click


def fail(message: str, code: int = 1) -> NoReturn:
    """Print a one-line error (never a traceback) and exit non-zero."""
    complain(message)
    sys.exit(code)


def complain(message: str) -> None:
    """One line on stderr, even for a file whose name holds a line break."""
    click.echo(f"wilson: {one_line(message)}", err=True)


# Characters that would break a line or drive the terminal (a colour code in an account's name),
# written as their escapes.
_UNPRINTED = {
    code: {"\n": "\\n", "\r": "\\r"}.get(chr(code), chr(code).encode("unicode_escape").decode())
    for code in (*range(0x20), *range(0x7F, 0xA0), 0x2028, 0x2029) if chr(code) != "\t"
}


def one_line(text: str) -> str:
    return text.translate(_UNPRINTED)


def print_json(value: Any) -> None:
    click.echo(json.dumps(value, indent=2, ensure_ascii=False, default=str))


def unexpected(exc: Exception) -> str:
    """What to say of an error Wilson did not foresee: its kind and text, and where its traceback
    was written."""
    return f"unexpected error: {type(exc).__name__}: {exc} (details in {_log_traceback()})"


def _log_traceback() -> str:
    """The log goes beside the ledger, or to the temporary directory when the data directory is
    what went wrong (`WILSON_HOME` naming a file)."""
    import tempfile
    import traceback

    from wilson.paths import data_dir

    details = traceback.format_exc()
    for folder in (data_dir, lambda: Path(tempfile.gettempdir())):
        try:
            path = folder() / "wilson-last-error.txt"
            path.write_text(details, encoding="utf-8")
            return str(path)
        except OSError:
            continue
    return "no log could be written"
