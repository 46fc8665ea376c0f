"""One TUI session's conversation with the agent: parsing a question, the agent itself, the history.

The agent module (and litellm and tiktoken behind it) is imported here only when the first
question is asked, in a thread, so neither start-up nor the screen ever waits on that import.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from wilson.agent.events import Event
    from wilson.agent.loop import Agent
    from wilson.agent.sessions import Session

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
    """One saved agent session per TUI session: each answered question joins the history."""

    model: str | None
    approve: Approve
    _agent: "Agent | None" = None
    _session: "Session | None" = None

    async def ask(self, question: Question) -> AsyncIterator["Event"]:
        """The agent's events for one question; an answered one is saved with the session."""
        from wilson.agent.events import Done
        from wilson.agent.sessions import save_session

        if self._agent is None:
            self._agent, self._session = await asyncio.to_thread(self._build)
        agent, session = self._agent, self._session
        async for event in agent.run(question.text, session.history(), skill=question.skill):
            if isinstance(event, Done) and event.answer and not event.cancelled and not event.error:
                session.add_turn(question.text, event.answer)
                await asyncio.to_thread(save_session, agent.ledger, session)
            yield event

    def _build(self) -> tuple["Agent", "Session"]:
        """The agent on its own ledger connection, sized here so litellm loads off the event loop."""
        from wilson.agent.loop import Agent
        from wilson.agent.sessions import new_session
        from wilson.ledger import Ledger

        agent = Agent(Ledger(), model=self.model, approve=self.approve)
        agent.budget()
        return agent, new_session(agent.config.model)

    def close(self) -> None:
        if self._agent is not None:
            self._agent.ledger.close()
