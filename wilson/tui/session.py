"""One TUI session's conversation with the agent: parsing a question, the agent itself, the history.

The agent module (and litellm and tiktoken behind it) is imported here only when the first
question is asked, in a thread, so neither start-up nor the screen ever waits on that import.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from wilson.agent.events import Event
    from wilson.agent.loop import Agent

Approve = Callable[[str, dict[str, Any]], Awaitable[bool]]
SKILL_PREFIX = "/skill"


@dataclass(frozen=True)
class Question:
    text: str
    skill: str | None = None


def parse_question(line: str) -> Question:
    """`/skill NAME rest of the question` runs with that skill loaded; anything else is a question."""
    line = line.strip()
    head, _, rest = line.partition(" ")
    if head != SKILL_PREFIX:
        return Question(line)
    name, _, text = rest.strip().partition(" ")
    if not name:
        raise ValueError("usage: /skill NAME your question")
    return Question(text.strip() or f"Run the {name} skill.", skill=name)


@dataclass
class AgentSession:
    """Carries the chat history from one question to the next within a TUI session."""

    model: str | None
    approve: Approve
    history: list[dict[str, Any]] = field(default_factory=list)
    _agent: "Agent | None" = None

    async def ask(self, question: Question) -> AsyncIterator["Event"]:
        """The agent's events for one question; a finished answer joins the history."""
        from wilson.agent.events import Done

        agent = self._agent or await asyncio.to_thread(self._build)
        self._agent = agent
        async for event in agent.run(question.text, list(self.history), skill=question.skill):
            if isinstance(event, Done) and event.answer and not event.cancelled and not event.error:
                self.history += [{"role": "user", "content": question.text},
                                 {"role": "assistant", "content": event.answer}]
            yield event

    def _build(self) -> "Agent":
        """The agent on its own ledger connection; sizing its budget pre-loads the model library."""
        from wilson.agent.loop import Agent
        from wilson.ledger import Ledger

        agent = Agent(Ledger(), model=self.model, approve=self.approve)
        agent.budget  # noqa: B018 - sized now, in this thread, so litellm loads off the event loop
        return agent

    def close(self) -> None:
        if self._agent is not None:
            self._agent.ledger.close()
