"""Helpers for the TUI tests: skipping on missing tools, reading the ledger, waiting for workers."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from wilson.ledger import Ledger
from wilson.tools import load_tools

SIZE = (110, 30)  # small enough to render fast, wide enough for the table and the ask panel


def needs(*tools: str) -> None:
    """Skip a test whose tools are not written yet (they are other engineers' work in progress)."""
    missing = sorted(set(tools) - set(load_tools()))
    if missing:
        pytest.skip(f"tool(s) not available yet: {', '.join(missing)}")


def ledger_rows(sql: str, params: tuple = ()) -> list[dict]:
    with Ledger() as ledger:
        return ledger.query(sql, params)


async def settle(pilot: Pilot) -> None:
    """Let every worker finish and every message they posted be handled (which may start more)."""
    await pilot.pause()
    while any(not worker.is_finished for worker in pilot.app.workers):  # pending ones too, not only running
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
