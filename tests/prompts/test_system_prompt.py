"""The system prompt: deterministic, SOUL.md overridable, and carrying the ledger's context."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from wilson import skills
from wilson.ledger import Ledger
from wilson.ledger import memory as memory_store
from wilson.paths import resource
from wilson.prompts.system import build_system_prompt
from wilson.tools import load_tools

TODAY = date(2025, 3, 15)


@pytest.fixture
def ledger(wilson_home: Path) -> Ledger:
    with Ledger(wilson_home / "wilson.db") as opened:
        checking = opened.create_account("Everyday", "checking", "EUR")
        opened.create_account("Card", "credit_card", "EUR")
        opened.set_balance(checking["id"], 123456, "2025-03-10", "statement")
        with opened.write() as conn:
            for n, (posted, amount, category) in enumerate(
                [("2025-01-03", -450, None), ("2025-02-11", -1200, "Groceries"), ("2025-03-01", 250000, None)]
            ):
                category_id = opened.ensure_category(category) if category else None
                conn.execute(
                    "INSERT INTO transactions (account_id, posted, amount, currency, description, category_id, fingerprint)"
                    " VALUES (?, ?, ?, 'EUR', ?, ?, ?)",
                    (checking["id"], posted, amount, f"row {n}", category_id, f"fp{n}"),
                )
        memory_store.add(opened, "Saving for a bike by June", "goal")
        yield opened


def build(ledger: Ledger) -> str:
    tools = load_tools()
    return build_system_prompt(ledger, tools, TODAY, skills.discover(known_tools=set(tools)))


def test_deterministic_for_the_same_ledger(ledger):
    assert build(ledger) == build(ledger)


def test_carries_soul_date_rules_tools_ledger_skills_and_notes(ledger):
    prompt = build(ledger)
    soul = resource("SOUL.md").read_text(encoding="utf-8")
    assert prompt.startswith(soul.strip()[:200])
    assert "Today is Saturday 2025-03-15." in prompt
    assert "Every number you state comes from a tool result" in prompt
    assert "- remember: " in prompt  # tools by name with their one-line purpose
    assert "Everyday (checking, EUR): balance 1234.56 as of 2025-03-10 (statement); 3 transactions 2025-01-03 to 2025-03-01" in prompt
    assert "Card (credit_card, EUR): balance unknown; no transactions" in prompt
    assert "3 posted from 2025-01-03 to 2025-03-01, 0 pending, 2 posted ones uncategorised" in prompt
    assert "- monthly-review: " in prompt
    assert "[goal] Saving for a bike by June" in prompt


def test_a_users_own_soul_replaces_the_bundled_one(ledger, wilson_home):
    (wilson_home / "SOUL.md").write_text("You are Jeeves, terse and dry.\n", encoding="utf-8")
    prompt = build(ledger)
    assert prompt.startswith("You are Jeeves, terse and dry.")
    assert "You are Wilson" not in prompt


def test_an_empty_ledger_says_so(wilson_home):
    with Ledger(wilson_home / "empty.db") as empty:
        prompt = build_system_prompt(empty, {}, TODAY, None)
    assert "The ledger is empty" in prompt and "No tools are available" in prompt
