"""Shared CLI output: one-line errors on stderr and JSON on stdout."""

from __future__ import annotations

import json
import sys
from typing import Any, NoReturn

import click


def fail(message: str, code: int = 1) -> NoReturn:
    """Print a one-line error (never a traceback) and exit non-zero."""
    complain(message)
    sys.exit(code)


def complain(message: str) -> None:
    """One line on stderr, even for a file whose name holds a line break."""
    click.echo(f"wilson: {one_line(message)}", err=True)


def one_line(text: str) -> str:
    return text.replace("\r", "\\r").replace("\n", "\\n")


def print_json(value: Any) -> None:
    click.echo(json.dumps(value, indent=2, ensure_ascii=False, default=str))
