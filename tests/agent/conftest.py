"""Agent-loop fixtures: a file ledger, test tools, and an Agent wired to the scripted model server."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from agent_tools import CALLS, GATE, TEST_TOOLS

from wilson.agent.events import Event
from wilson.agent.loop import Agent
from wilson.config import Config
from wilson.ledger import Ledger
from wilson.llm import LLM, RetryPolicy

FAST = RetryPolicy(attempts=3, base_delay=0.01, max_delay=0.02, total_timeout=10, request_timeout=10)


@pytest.fixture(autouse=True)
def clean_calls() -> None:
    CALLS.clear()
    GATE.clear()


@pytest.fixture
def ledger(wilson_home: Path) -> Ledger:
    with Ledger(wilson_home / "wilson.db") as opened:
        yield opened


@pytest.fixture
def make_agent(ledger: Ledger, llm_providers, wilson_home: Path) -> Callable[..., Agent]:
    def make(model: str = "gpt-4o-mini", fallbacks: tuple[str, ...] = (), tools=None, **options: Any) -> Agent:
        config = Config(
            model=model,
            fallbacks=tuple(fallbacks),
            max_iterations=options.pop("max_iterations", 10),
            token_budget=options.pop("token_budget", 100_000),
        )
        return Agent(
            ledger,
            config=config,
            llm=LLM(model, fallbacks=fallbacks, retry=FAST),
            tools=TEST_TOOLS if tools is None else tools,
            scratchpad_dir=wilson_home / "scratchpad",
            **options,
        )

    return make


async def collect(stream: AsyncIterator[Event]) -> list[Event]:
    return [event async for event in stream]


def of_type(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.type == kind]
