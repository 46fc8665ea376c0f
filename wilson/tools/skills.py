"""`use_skill`: the model loads a playbook into the run when a request calls for one.

The body enters the conversation as a tool result, so it costs context only when used, and at most
once per run: a second request for the same skill gets a pointer to the copy already above.
It is registered as not read-only, though it never touches the ledger: it changes the run's state,
so the loop must neither serve a repeat from its per-run result cache (which would hand the model
the body again) nor run two loads concurrently against the same run dict.
"""

from __future__ import annotations

from typing import Annotated, Any

from wilson import skills
from wilson.tools.common import _suggest
from wilson.tools.registry import REGISTRY, ToolContext, ToolError, tool

LOADED = "skills_loaded"
DISCOVERY = "skills_discovery"


def run_discovery(ctx: ToolContext) -> skills.Discovery:
    """The skills as discovered once per run, so the model sees one consistent library throughout."""
    if DISCOVERY not in ctx.run:
        ctx.run[DISCOVERY] = skills.discover(known_tools=set(REGISTRY))
    return ctx.run[DISCOVERY]


@tool(
    read_only=False,
    description="""
    Load a skill: a step-by-step playbook for a multi-step job (the skills are listed in the system
    prompt). Call it before starting such a job and follow the steps it returns. `arguments` fills
    the skill's declared arguments. `file` reads a file linked from an already named skill's
    playbook (a path relative to the skill's folder) instead of the playbook itself.
    """
)
def use_skill(
    ctx: ToolContext,
    name: Annotated[str, "the skill's name, as listed in the system prompt"],
    arguments: Annotated[dict[str, Any] | None, "values for the skill's arguments, by argument name"] = None,
    file: Annotated[str | None, "a file linked from the skill's playbook, relative to its folder"] = None,
) -> dict:
    discovery = run_discovery(ctx)
    skill = discovery.skills.get(name.strip().lower())
    if skill is None:
        known = sorted(discovery.skills)
        raise ToolError(f"there is no skill named {name!r}", kind="not_found",
                        suggestions=_suggest(name, known), known=known)
    loaded: set[str] = ctx.run.setdefault(LOADED, set())
    key = f"{skill.name}/{file}" if file else skill.name
    if key in loaded:
        what = f"file {file!r} of skill {skill.name!r}" if file else f"skill {skill.name!r}"
        return {"skill": skill.name, "already_loaded": True,
                "message": f"The {what} is already loaded above in this conversation; follow it from there."}
    try:
        if file:
            result = {"skill": skill.name, "file": file, "content": skills.read_file(skill, file)}
        else:
            result = {
                "skill": skill.name,
                "source": skill.source,
                "arguments": skills.resolve_arguments(skill, arguments),
                "instructions": skills.render(skill, arguments),
                "files": skills.files(skill),
            }
            problems = [w for w in discovery.warnings if w.startswith(f"{skill.path}: ")]
            if problems:
                result["warnings"] = problems
    except skills.SkillError as exc:
        raise ToolError(str(exc), arguments=[
            {"name": a.name, "required": a.required, "description": a.description} for a in skill.arguments
        ]) from None
    loaded.add(key)
    return result
