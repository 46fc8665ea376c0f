"""One question per tool, through the real loop, litellm and the scripted model server.

The model asks for the tool; the test checks that the result the loop sent back to the model holds
the right figure, computed here independently (by hand from the fixture, or straight from SQL).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.tools.ledger_fixture import hard_books  # noqa: F401 (a fixture)
from wilson.agent.loop import Agent
from wilson.config import Config
from wilson.llm import LLM, RetryPolicy
from wilson.money import format_minor
from wilson.tools import load_tools

FIXTURES = Path(__file__).parent.parent / "fixtures"
JUNE = {"start_date": "2025-06-01", "end_date": "2025-06-30"}


def row_id(books: Any, description: str) -> int:
    return books.ledger.scalar("SELECT id FROM transactions WHERE description = ?", (description,))


def usd(result: dict) -> dict:
    return next(block for block in result["by_currency"] if block["currency"] == "USD")


def checking_sum(books: Any) -> str:
    minor = books.ledger.scalar(
        "SELECT SUM(amount) FROM transactions t JOIN accounts a ON a.id = t.account_id"
        " WHERE a.name = 'Checking' AND t.pending = 0"
    )
    return format_minor(minor, "USD")


Check = Callable[[dict, Any], None]
CASES: list[tuple[str, Callable[[Any], dict], Check]] = [
    # 3 Whole Foods rows, -50.00 - 80.25 - 45.20 (the pending Amazon row is not a match anyway)
    ("search_transactions", lambda b: {"query": "whole foods"},
     lambda r, b: (r["count"] == 3) and r["sum"]["USD"] == "-175.45" or pytest.fail(str(r))),
    # June USD spending: groceries 45.20, dining 60 - 20 refund, food 10, mystery 33.33, other 1.00
    ("spending_summary", lambda b: JUNE,
     lambda r, b: usd(r)["spending"] == "129.53" or pytest.fail(str(usd(r)))),
    # June USD income: payroll 3000 + an uncategorised 15 inflow; transfers are neither
    ("cash_flow", lambda b: JUNE,
     lambda r, b: "3015.00" in str(r) and "129.53" in str(r) or pytest.fail(str(r))),
    # a Food budget covers its children: 45.20 + 40.00 + 10.00 = 95.20 spent, 104.80 left
    ("check_budgets", lambda b: (b.run("set_budget", category="Food", amount="200"), {"month": "2025-06-01"})[1],
     lambda r, b: "95.20" in str(r) and "104.80" in str(r) or pytest.fail(str(r))),
    ("set_budget", lambda b: {"category": "Dining", "amount": "150"},
     lambda r, b: b.ledger.scalar("SELECT amount FROM budgets") == 15000 or pytest.fail(str(r))),
    # no statement balance for Checking: the estimate is the sum of its posted rows
    ("account_balances", lambda b: {"account": "Checking"},
     lambda r, b: checking_sum(b) in str(r) or pytest.fail(f"{checking_sum(b)} not in {r}")),
    ("update_balance", lambda b: {"account": "Savings", "amount": "2500.00", "date": "2025-06-18"},
     lambda r, b: b.ledger.scalar("SELECT balance FROM accounts WHERE name = 'Savings'") == 250000
     or pytest.fail(str(r))),
    ("affordability_check", lambda b: (b.run("update_balance", account="Checking", amount="4000"), {"amount": "1000"})[1],
     lambda r, b: "data_quality" in r and "4000.00" in str(r) or pytest.fail(str(r))),
    ("categorize_transactions", lambda b: {**JUNE, "use_model": False, "dry_run": True},
     lambda r, b: r["examined"] == b.ledger.scalar(
         "SELECT COUNT(*) FROM transactions WHERE posted BETWEEN '2025-06-01' AND '2025-06-30'"
         " AND category_id IS NULL AND transfer_id IS NULL") or pytest.fail(str(r))),
    ("update_transaction", lambda b: {"ids": [row_id(b, "MYSTERY SHOP")], "category": "Shopping"},
     lambda r, b: b.ledger.scalar("SELECT c.name FROM transactions t JOIN categories c ON c.id = t.category_id"
                                  " WHERE t.description = 'MYSTERY SHOP'") == "Shopping" or pytest.fail(str(r))),
    ("delete_transaction", lambda b: {"ids": [row_id(b, "FOOD TRUCK")]},
     lambda r, b: row_id(b, "FOOD TRUCK") is None or pytest.fail(str(r))),
    ("manage_rules", lambda b: {"action": "add", "pattern": "MYSTERY", "category": "Shopping"},
     lambda r, b: b.ledger.scalar("SELECT COUNT(*) FROM rules WHERE pattern = 'MYSTERY'") == 1 or pytest.fail(str(r))),
    # June's payees never seen before, charging 20 or more: Chez Panisse 60.00 and Mystery Shop 33.33
    # (Food Truck 10.00, Boulangerie 12.50 EUR and the 1.00 row are below the floor)
    ("detect_anomalies", lambda b: JUNE,
     lambda r, b: [(p["payee"], p["total"]) for p in r["new_payees"]]
     == [("CHEZ PANISSE", "60.00"), ("MYSTERY SHOP", "33.33")] or pytest.fail(str(r))),
    # Whole Foods monthly: -50.00, -80.25, -45.20 -> median -50.00, twelve a year -600.00
    ("list_recurring", lambda b: {"start_date": "2025-01-01", "end_date": "2025-06-30"},
     lambda r, b: [(s["payee"], s["charges"], s["typical_amount"], s["yearly_cost"]) for s in r["recurring"]]
     == [("WHOLE FOODS MARKET", 3, "-50.00", "-600.00")] or pytest.fail(str(r))),
    ("remember", lambda b: {"note": "Moving 500 a month to the house fund until June"},
     lambda r, b: b.ledger.scalar("SELECT COUNT(*) FROM memory WHERE content LIKE '%house fund%'") == 1
     or pytest.fail(str(r))),
    ("recall", lambda b: (b.run("remember", note="Goal: emergency fund of six months"), {"query": "emergency"})[1],
     lambda r, b: "six months" in str(r) or pytest.fail(str(r))),
    ("forget", lambda b: {"memory_id": b.run("remember", note="Temporary note")["remembered"]["id"]},
     lambda r, b: b.ledger.scalar("SELECT COUNT(*) FROM memory") == 0 or pytest.fail(str(r))),
    ("export_transactions", lambda b: {**JUNE, "format": "csv", "path": str(b.path.parent / "june.csv")},
     lambda r, b: len((b.path.parent / "june.csv").read_text().splitlines()) - 1 == b.ledger.scalar(
         "SELECT COUNT(*) FROM transactions WHERE posted BETWEEN '2025-06-01' AND '2025-06-30' AND pending = 0")
     or pytest.fail(str(r))),
    ("import_transactions", lambda b: {"path": str(FIXTURES / "written" / "chase_checking.csv")},
     lambda r, b: r["added"] == 6 == b.ledger.scalar(
         "SELECT COUNT(*) FROM transactions t JOIN accounts a ON a.id = t.account_id WHERE a.name = 'Chase Checking'")
     or pytest.fail(str(r))),
    ("list_categories", lambda b: {},
     lambda r, b: r["count"] == b.ledger.scalar("SELECT COUNT(*) FROM categories") or pytest.fail(str(r))),
    ("use_skill", lambda b: {"name": "monthly-review"},
     lambda r, b: "spending_summary" in str(r) or pytest.fail(str(r))),
]


def test_every_tool_has_a_question() -> None:
    wilson_tools = [name for name, found in load_tools().items() if found.func.__module__.startswith("wilson.tools.")]
    assert sorted(name for name, _, _ in CASES) == sorted(wilson_tools)


@pytest.mark.parametrize(("tool", "make_args", "check"), CASES, ids=[c[0] for c in CASES])
def test_the_model_gets_the_right_figure(
    tool: str, make_args: Callable[[Any], dict], check: Check, hard_books, llm_providers, tmp_path: Path  # noqa: F811
) -> None:
    args = make_args(hard_books)
    llm_providers.reply_tool_calls([(tool, args)])
    llm_providers.reply_text("Here is what I found.")

    async def approve(name: str, arguments: dict) -> bool:
        return True

    agent = Agent(
        hard_books.ledger,
        config=Config(model="gpt-4o-mini", fallbacks=(), max_iterations=4, token_budget=100_000),
        llm=LLM("gpt-4o-mini", retry=RetryPolicy(attempts=1, base_delay=0.01, max_delay=0.01, total_timeout=10)),
        approve=approve,
        scratchpad_dir=tmp_path / "scratchpad",
    )

    async def run() -> list:
        return [event async for event in agent.run(f"question for {tool}")]

    events = asyncio.run(run())
    assert events[-1].type == "done" and events[-1].error is None, events[-1]
    sent = json.loads(llm_providers.requests[1].last_tool_result())
    assert "error" not in sent, sent
    check(sent, hard_books)
