"""Tiny tools registered for the agent-loop tests only (names prefixed `t_` so none clash)."""

from __future__ import annotations

import threading
import time
from decimal import Decimal
from typing import Annotated

from wilson.tools import REGISTRY, ToolContext, tool

CALLS: list[tuple[str, dict]] = []
GATE = threading.Event()


def _register() -> None:
    if "t_echo" in REGISTRY:
        return

    @tool(description="Echo the text back. Used by tests.")
    def t_echo(ctx: ToolContext, text: Annotated[str, "what to echo"], pad: int = 0) -> dict:
        CALLS.append(("t_echo", {"text": text}))
        return {"echo": text, "filler": " ".join("x" * pad)}

    @tool(description="Add two exact amounts. Used by tests.")
    def t_add(ctx: ToolContext, a: Decimal, b: Decimal) -> dict:
        CALLS.append(("t_add", {"a": a, "b": b}))
        return {"sum": str(a + b)}

    @tool(description="Always fails. Used by tests.")
    def t_boom(ctx: ToolContext) -> dict:
        CALLS.append(("t_boom", {}))
        raise RuntimeError("kaboom")

    @tool(description="Wait until the test opens the gate. Used by tests.")
    def t_wait(ctx: ToolContext, seconds: int = 5) -> dict:
        CALLS.append(("t_wait", {}))
        GATE.wait(seconds)
        return {"waited": True}

    @tool(description="Count the accounts (reads the ledger). Used by tests.")
    def t_count(ctx: ToolContext) -> dict:
        CALLS.append(("t_count", {}))
        time.sleep(0.05)
        return {"accounts": ctx.ledger.scalar("SELECT COUNT(*) FROM accounts")}

    @tool(description="Create an account (a write). Used by tests.", changes_data=True, needs_approval=True)
    def t_open_account(ctx: ToolContext, name: str) -> dict:
        CALLS.append(("t_open_account", {"name": name}))
        account = ctx.ledger.create_account(name)
        return {"created": account["name"]}


_register()
TEST_TOOLS = {name: REGISTRY[name] for name in ("t_echo", "t_add", "t_boom", "t_wait", "t_count", "t_open_account")}
