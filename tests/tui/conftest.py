"""TUI fixtures: a small two-account ledger seeded through the real importer, and app helpers."""

from __future__ import annotations

from pathlib import Path

import pytest

from wilson.importers.pipeline import import_file
from wilson.ledger import Ledger


@pytest.fixture
def seeded(wilson_home: Path, fixture_path) -> Path:
    """Checking (6 rows, all uncategorised) and Visa (5 rows); the Starbucks coffee is categorised."""
    with Ledger() as ledger:
        import_file(ledger, fixture_path("written/chase_checking.csv"), account="Checking")
        import_file(ledger, fixture_path("written/chase_credit.csv"), account="Visa")
        starbucks = ledger.scalar("SELECT id FROM transactions WHERE description LIKE 'STARBUCKS%'")
        ledger.update_transactions([starbucks], category_id=ledger.category("Coffee")["id"])
        ledger.update_transactions(
            [r["id"] for r in ledger.query("SELECT id FROM transactions WHERE account_id = 2")], category_id=None
        )
    return wilson_home
