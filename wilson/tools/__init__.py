"""The tools: the only code the agent uses to read or change the ledger.

Importing a tool module registers its tools; `load_tools()` imports them all.
"""

from __future__ import annotations

import importlib

from wilson.tools.registry import REGISTRY, Tool, ToolContext, ToolError, run_tool, tool

TOOL_MODULES = (
    "wilson.tools.importing",
    "wilson.tools.search",
    "wilson.tools.reports",
    "wilson.tools.categories",
    "wilson.tools.categorize",
    "wilson.tools.edit",
    "wilson.tools.rules",
    "wilson.tools.budgets",
    "wilson.tools.anomalies",
    "wilson.tools.recurring",
    "wilson.tools.balances",
    "wilson.tools.affordability",
    "wilson.tools.memory",
    "wilson.tools.export",
    "wilson.tools.skills",
)


def load_tools() -> dict[str, Tool]:
    """Every registered tool, by name."""
    for module in TOOL_MODULES:
        importlib.import_module(module)
    return REGISTRY


__all__ = ["REGISTRY", "Tool", "ToolContext", "ToolError", "load_tools", "run_tool", "tool"]
