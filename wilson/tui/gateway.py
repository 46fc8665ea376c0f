"""The TUI's only door to the ledger: the agent's own tools, called one at a time.

The table's keys call the same functions the agent uses, so a fix made by hand passes the same
validation as one made by the agent. Calls come from worker threads and share one SQLite
connection, so they are serialised with a lock; the agent gets its own connection.
"""

from __future__ import annotations

import threading
from typing import Any

from wilson.tools import Tool, ToolContext, load_tools, run_tool


class ToolGateway:
    """Opens the ledger on first use (off the start-up path) and runs tools against it."""

    def __init__(self, model: str | None = None) -> None:
        self.model = model
        self._ctx: ToolContext | None = None
        self._lock = threading.Lock()

    def call(self, name: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
        """Run a tool; a missing tool or a ledger that can't be opened comes back as an error too."""
        clean = {key: value for key, value in (args or {}).items() if value is not None}
        with self._lock:
            try:
                ctx = self._context()
            except Exception as exc:  # an unreadable ledger file must become a message, not a crash
                return {"error": {"type": "ledger", "message": str(exc), "recoverable": False}}
            return run_tool(name, clean, ctx)

    def available(self) -> set[str]:
        return set(load_tools())

    def tool(self, name: str) -> Tool | None:
        return load_tools().get(name)

    def close(self) -> None:
        with self._lock:
            if self._ctx is not None:
                self._ctx.ledger.close()
                self._ctx = None

    def _context(self) -> ToolContext:
        if self._ctx is None:
            from wilson.ledger import Ledger

            load_tools()
            self._ctx = ToolContext(ledger=Ledger(), model=self.model)
        return self._ctx
