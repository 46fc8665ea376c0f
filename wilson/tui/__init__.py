"""Wilson's terminal UI.

Importing this package is deliberately cheap: `wilson` with no arguments must show its first
screen at once, so Textual and the app load only when `run_tui` is called, and the agent (with
litellm and tiktoken behind it) only when the first question is asked.
"""

from __future__ import annotations


def run_tui(model: str | None = None) -> None:
    """Run the TUI until the user quits; `model` overrides the configured model for questions."""
    from wilson.tui.app import WilsonApp

    WilsonApp(model=model).run()


__all__ = ["run_tui"]
