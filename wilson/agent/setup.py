"""The opening messages of a run: the system prompt, the session's earlier turns, the question.

A skill asked for up front (`wilson ask --skill`) is rendered into the system prompt and marked
loaded in the run state, the same marker `use_skill` checks, so the model is not handed it twice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from wilson import skills
from wilson.prompts.system import build_system_prompt
from wilson.tools import ToolContext
from wilson.tools.skills import DISCOVERY, LOADED

if TYPE_CHECKING:
    from wilson.agent.loop import Agent

HISTORY_ROLES = ("user", "assistant")


def prepare(agent: "Agent", ctx: ToolContext, query: str, history: list[dict[str, Any]], skill: str | None) -> list[dict[str, Any]]:
    """The messages for the first model call; raises `skills.SkillError` for an unknown skill."""
    discovery = skills.discover(known_tools=set(agent.tools))
    ctx.run[DISCOVERY] = discovery
    system = build_system_prompt(agent.ledger, agent.tools, ctx.today, discovery)
    if skill:
        system += "\n" + preload_skill(ctx, discovery, skill)
    turns = [
        {"role": m["role"], "content": m["content"]}
        for m in history
        if m.get("role") in HISTORY_ROLES and isinstance(m.get("content"), str) and m["content"]
    ]
    return [{"role": "system", "content": system}, *turns, {"role": "user", "content": query}]


def preload_skill(ctx: ToolContext, discovery: skills.Discovery, name: str) -> str:
    found = discovery.skills.get(name)
    if found is None:
        known = ", ".join(sorted(discovery.skills)) or "none"
        raise skills.SkillError(f"there is no skill named {name!r} (known: {known})")
    try:
        body = skills.render(found, None)
    except skills.SkillError:
        # Its required arguments are in the user's words, not in a flag: let the model load it.
        wanted = "; ".join(
            f"{arg.name}{' (required)' if arg.required else ''}: {arg.description}" for arg in found.arguments
        )
        return (
            f"\n## Skill requested for this request: {found.name}\n"
            f"The user started this request with the {found.name} skill. Call use_skill with name "
            f"{found.name!r} first, filling its arguments from the request ({wanted}); ask the user for a "
            "required one the request does not give.\n"
        )
    ctx.run.setdefault(LOADED, set()).add(found.name)
    return (
        f"\n## Skill loaded for this request: {found.name}\n"
        "The user started this request with the playbook below; follow its steps with tool calls.\n\n"
        f"{body}"
    )
