"""The system prompt, assembled fresh for every run from the ledger as it is now.

It is deterministic for a given ledger, tool set, skill library and date (everything is sorted,
nothing is timestamped), so providers can cache it and tests can compare it. Figures in it come
from SQL here or from tools, never from the model; the model is told to fetch anything finer
with tool calls.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

from wilson import paths, skills
from wilson.ledger import Ledger
from wilson.money import format_minor
from wilson.tools import Tool, ToolContext, run_tool

BUDGET_TOOL = "check_budgets"

RULES = """\
## Rules
- Every number you state comes from a tool result in this conversation, copied exactly. Never
  estimate, round differently, add up figures in your head or recall one from memory: if you need
  a total, a difference or an average, get it from a tool.
- When you give a figure, say what it covered: the period, the accounts and any filters the tool
  reported.
- Say what is missing: no data for part of the period, uncategorised transactions, pending items,
  accounts not imported. If the tools cannot answer, say so plainly instead of guessing.
- Figures in this prompt are a snapshot for orientation; call a tool before relying on one.
- Dates are calendar dates in the user's local time. "This month" means the month of today's date.
- Change nothing in the ledger unless the user asked for it."""


def soul_path() -> Path:
    """The user's own SOUL.md if they wrote one, else the bundled one."""
    own = paths.data_dir(create=False) / "SOUL.md"
    return own if own.is_file() else paths.resource("SOUL.md")


def build_system_prompt(
    ledger: Ledger, tools: Mapping[str, Tool], today: date, skills_discovery: skills.Discovery | None
) -> str:
    sections = [
        _soul(),
        f"Today is {today.strftime('%A')} {today.isoformat()}.",
        RULES,
        _tools_section(tools),
        _ledger_section(ledger),
        _budgets_section(ledger, tools, today),
        skills.prompt_section(skills_discovery) if skills_discovery else "",
        _memory_section(ledger),
    ]
    return "\n\n".join(section.strip() for section in sections if section and section.strip()) + "\n"


def _soul() -> str:
    path = soul_path()
    return path.read_text(encoding="utf-8") if path.is_file() else ""


def _tools_section(tools: Mapping[str, Tool]) -> str:
    if not tools:
        return "## Tools\nNo tools are available: you cannot read the ledger, so say so."
    lines = ["## Tools", "Use these to read (and, when asked, change) the ledger. Their full schemas come with the request."]
    lines += [f"- {name}: {_first_sentence(tools[name].description)}" for name in sorted(tools)]
    return "\n".join(lines)


def _first_sentence(text: str) -> str:
    flat = " ".join(text.split())
    end = flat.find(". ")
    return flat if end == -1 else flat[: end + 1]


def _ledger_section(ledger: Ledger) -> str:
    accounts = ledger.accounts()
    if not accounts:
        return "## The ledger\nThe ledger is empty: no accounts or transactions have been imported yet."
    lines = ["## The ledger", "Accounts:"]
    lines += [f"- {_account_line(a)}" for a in accounts]
    stats = ledger.query_one(
        """
        SELECT COUNT(*) AS posted, MIN(posted) AS first, MAX(posted) AS last,
               SUM(category_id IS NULL AND transfer_id IS NULL) AS uncategorised
        FROM transactions WHERE pending = 0
        """
    ) or {}
    # The partial index holds only pending rows; the planner would scan a whole index of them all.
    pending = ledger.scalar("SELECT COUNT(*) FROM transactions INDEXED BY transactions_pending WHERE pending = 1") or 0
    if stats.get("posted"):
        lines.append(
            f"Transactions: {stats['posted']} posted from {stats['first']} to {stats['last']}, "
            f"{pending} pending, {stats['uncategorised'] or 0} posted ones uncategorised."
        )
    else:
        lines.append(f"Transactions: none posted yet ({pending} pending).")
    return "\n".join(lines)


def _account_line(account: dict[str, Any]) -> str:
    currency = account["currency"]
    head = f"{account['name']} ({account['type']}, {currency})"
    if account.get("balance") is not None:
        balance = f"balance {format_minor(account['balance'], currency)} as of {account['balance_date']}"
        if account.get("balance_source"):
            balance += f" ({account['balance_source']})"
    else:
        balance = "balance unknown"
    if account.get("transactions"):
        span = f"{account['transactions']} transactions {account['first_date']} to {account['last_date']}"
    else:
        span = "no transactions"
    return f"{head}: {balance}; {span}"


def _budgets_section(ledger: Ledger, tools: Mapping[str, Tool], today: date) -> str:
    if BUDGET_TOOL not in tools:
        return ""
    result = run_tool(BUDGET_TOOL, {}, ToolContext(ledger, today))
    if not result or "error" in result:
        return ""
    text = json.dumps(result, sort_keys=True, ensure_ascii=False, default=_plain)
    return f"## Budgets this month (from {BUDGET_TOOL})\n{text}"


def _memory_section(ledger: Ledger) -> str:
    try:
        from wilson.tools.memory import memory_for_prompt
    except ImportError:
        return ""
    notes = memory_for_prompt(ledger)
    if not notes:
        return ""
    lines = [
        "## What the user asked you to remember",
        "Their own words from earlier sessions; goals and preferences, never figures to quote.",
    ]
    lines += [f"- [{n['kind']}] {n['content']}" for n in notes]
    return "\n".join(lines)


def _plain(value: Any) -> str:
    if isinstance(value, (Decimal, date)):
        return str(value)
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")
