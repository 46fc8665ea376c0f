"""Skills: Markdown playbooks for multi-step jobs, loaded into a run only when asked for.

A skill is `<folder>/SKILL.md`: YAML frontmatter (`name`, `description`, optional `when_to_use`,
`tools`, `arguments`) and a Markdown body. Only the frontmatter goes into the system prompt, so a
large library costs a few lines per skill until one is actually used.

Skills come from three places, later ones replacing earlier ones of the same name: the built-in
`skills/`, the user's `$WILSON_HOME/skills/`, and the project's `./.wilson/skills/`. A broken skill
never stops discovery; it becomes a one-line `path: problem` warning, because one bad file in a
user's folder must not take the other skills (or the agent) down with it.

The body's placeholders are `{{name}}` (spaces inside the braces allowed), one for each declared
argument. This module knows tool names only as a set passed in: tools depend on skills, never the
reverse.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from wilson import paths

SKILL_FILE = "SKILL.md"
NOT_GIVEN = "(not given)"
_NAME = re.compile(r"^[a-z0-9][a-z0-9-]*$")
_FRONTMATTER = re.compile(r"\A---[ \t]*\r?\n(.*?)^---[ \t]*\r?$\n?", re.DOTALL | re.MULTILINE)
_PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")
_KEYS = {"name", "description", "when_to_use", "tools", "arguments"}


class SkillError(ValueError):
    """A skill asked for in a way that cannot work: unknown arguments, a missing one, a bad file."""


@dataclass(frozen=True)
class SkillArgument:
    name: str
    description: str
    required: bool = False
    default: str | None = None


@dataclass
class Skill:
    name: str
    description: str
    when_to_use: str | None
    tools: list[str]
    arguments: list[SkillArgument]
    body: str
    path: Path
    source: str  # "built-in", "user" or "project"
    overrides: list[Path] = field(default_factory=list)  # SKILL.md files this one replaced, earliest first

    @property
    def folder(self) -> Path:
        return self.path.parent


@dataclass
class Discovery:
    skills: dict[str, Skill]
    warnings: list[str]


def sources(cwd: Path | None = None) -> list[tuple[str, Path]]:
    """Where skills are looked for, lowest precedence first."""
    return [
        ("built-in", paths.resource("skills")),
        ("user", paths.data_dir(create=False) / "skills"),
        ("project", (cwd or Path.cwd()) / ".wilson" / "skills"),
    ]


def discover(known_tools: set[str] | None = None, cwd: Path | None = None) -> Discovery:
    """Every usable skill by name, plus a warning for each one that could not be used as written.

    With `known_tools`, a skill naming a tool outside it still loads (the rest of the playbook may
    be fine) but is reported, since the model would be told to call something that is not there.
    """
    found = Discovery(skills={}, warnings=[])
    for source, root in sources(cwd):
        seen_here: dict[str, Path] = {}
        for skill_file in _skill_files(root):
            try:
                skill, notes = parse(skill_file, source)
            except SkillError as exc:
                found.warnings.append(f"{skill_file}: {exc}")
                continue
            found.warnings.extend(f"{skill_file}: {note}" for note in notes)
            if skill.name in seen_here:
                found.warnings.append(
                    f"{skill_file}: skill name {skill.name!r} is already used by {seen_here[skill.name]}; skipped"
                )
                continue
            seen_here[skill.name] = skill_file
            if known_tools is not None:
                unknown = [name for name in skill.tools if name not in known_tools]
                if unknown:
                    found.warnings.append(f"{skill_file}: names unknown tool(s) {', '.join(unknown)}")
            earlier = found.skills.get(skill.name)
            if earlier is not None:
                skill.overrides = [*earlier.overrides, earlier.path]
            found.skills[skill.name] = skill
    return found


def _skill_files(root: Path) -> list[Path]:
    if not root.is_dir():
        return []
    return sorted(folder / SKILL_FILE for folder in root.iterdir() if (folder / SKILL_FILE).is_file())


def parse(skill_file: Path, source: str) -> tuple[Skill, list[str]]:
    """One SKILL.md and notes on what was ignored in it, or a `SkillError` saying what is wrong.

    Unknown frontmatter keys are only noted (skills written for other agents carry extras such
    as `license`), but noted all the same, since a misspelt `tools` would otherwise vanish.
    """
    try:
        text = skill_file.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise SkillError(f"cannot be read ({exc})") from None
    match = _FRONTMATTER.match(text)
    if not match:
        raise SkillError("no frontmatter (the file must start with a '---' line and close it with another)")
    try:
        meta = yaml.safe_load(match.group(1))
    except yaml.YAMLError as exc:
        raise SkillError(f"frontmatter is not valid YAML ({' '.join(str(exc).split())})") from None
    if meta is None:
        raise SkillError("frontmatter is empty (it needs at least name and description)")
    if not isinstance(meta, dict):
        raise SkillError(f"frontmatter must be a mapping, not {type(meta).__name__}")
    unknown_keys = sorted(str(key) for key in meta if key not in _KEYS)
    notes = [f"ignored unknown frontmatter key(s) {', '.join(unknown_keys)}"] if unknown_keys else []
    name = _text(meta, "name", required=True)
    if not _NAME.match(name):
        raise SkillError(f"name {name!r} must be lower-case letters, digits and hyphens")
    tools = meta.get("tools") or []
    if not isinstance(tools, list) or not all(isinstance(t, str) and t for t in tools):
        raise SkillError("'tools' must be a list of tool names")
    arguments = _arguments(meta.get("arguments") or [])
    body = text[match.end():].strip()
    if not body:
        raise SkillError("the body is empty (a skill is its playbook)")
    declared = {a.name for a in arguments}
    undeclared = sorted(set(_PLACEHOLDER.findall(body)) - declared)
    if undeclared:
        raise SkillError(f"the body uses undeclared argument(s) {', '.join(undeclared)}")
    skill = Skill(
        name=name,
        description=_text(meta, "description", required=True),
        when_to_use=_text(meta, "when_to_use", required=False) or None,
        tools=list(tools),
        arguments=arguments,
        body=body,
        path=skill_file,
        source=source,
    )
    return skill, notes


def _text(meta: dict, key: str, required: bool) -> str:
    value = meta.get(key)
    if value is None:
        if required:
            raise SkillError(f"missing required field {key!r}")
        return ""
    if not isinstance(value, str) or (required and not value.strip()):
        raise SkillError(f"{key!r} must be a non-empty string, not {type(value).__name__}")
    return " ".join(value.split())


def _arguments(raw: Any) -> list[SkillArgument]:
    if not isinstance(raw, list):
        raise SkillError("'arguments' must be a list of {name, description, required?, default?}")
    arguments: list[SkillArgument] = []
    for index, item in enumerate(raw):
        where = f"arguments[{index}]"
        if not isinstance(item, dict):
            raise SkillError(f"{where} must be a mapping with name and description")
        extra = sorted(str(k) for k in item if k not in {"name", "description", "required", "default"})
        if extra:
            raise SkillError(f"{where} has unknown key(s) {', '.join(extra)}")
        name = item.get("name")
        if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            raise SkillError(f"{where}: name must be an identifier like target_date")
        if not isinstance(item.get("description"), str) or not item["description"].strip():
            raise SkillError(f"{where} ({name}): description must be a non-empty string")
        required = item.get("required", False)
        if not isinstance(required, bool):
            raise SkillError(f"{where} ({name}): required must be true or false")
        default = item.get("default")
        if isinstance(default, (dict, list)):
            raise SkillError(f"{where} ({name}): default must be a single value")
        if required and default is not None:
            raise SkillError(f"{where} ({name}): a required argument cannot have a default")
        if any(a.name == name for a in arguments):
            raise SkillError(f"{where}: argument {name!r} is declared twice")
        arguments.append(SkillArgument(name, " ".join(item["description"].split()), required,
                                       None if default is None else str(default)))
    return arguments


def resolve_arguments(skill: Skill, arguments: dict[str, Any] | None) -> dict[str, str]:
    """Every declared argument's value as text: given, else its default, else `NOT_GIVEN`."""
    given = {key: value for key, value in (arguments or {}).items() if value is not None and str(value).strip()}
    declared = {a.name: a for a in skill.arguments}
    unknown = sorted(set(given) - set(declared))
    if unknown:
        known = ", ".join(declared) or "none"
        raise SkillError(f"skill {skill.name!r} has no argument(s) {', '.join(unknown)}; its arguments: {known}")
    missing = [a.name for a in skill.arguments if a.required and a.name not in given]
    if missing:
        raise SkillError(f"skill {skill.name!r} needs argument(s) {', '.join(missing)}: " + "; ".join(
            f"{a.name}: {a.description}" for a in skill.arguments if a.name in missing
        ))
    return {
        a.name: str(given[a.name]) if a.name in given else (a.default if a.default is not None else NOT_GIVEN)
        for a in skill.arguments
    }


def render(skill: Skill, arguments: dict[str, Any] | None = None) -> str:
    """The body with every `{{name}}` filled in; raises `SkillError` for unknown or missing arguments."""
    values = resolve_arguments(skill, arguments)
    return _PLACEHOLDER.sub(lambda m: values[m.group(1)], skill.body)


def read_file(skill: Skill, relative: str, max_bytes: int = 256_000) -> str:
    """A file from the skill's own folder, linked from its body; nothing outside that folder."""
    folder = skill.folder.resolve()
    if not relative or Path(relative).is_absolute():
        raise SkillError(f"file must be a path relative to the skill's folder, not {relative!r}")
    target = (folder / relative).resolve()
    if not target.is_relative_to(folder):
        raise SkillError(f"{relative!r} is outside the skill's folder")
    if not target.is_file():
        raise SkillError(f"skill {skill.name!r} has no file {relative!r}; it has: {', '.join(files(skill)) or 'none'}")
    if target.stat().st_size > max_bytes:
        raise SkillError(f"{relative!r} is larger than {max_bytes} bytes")
    try:
        return target.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise SkillError(f"{relative!r} is not a UTF-8 text file") from None


def files(skill: Skill) -> list[str]:
    """The files beside SKILL.md that `read_file` can open, as relative POSIX paths."""
    folder = skill.folder
    return sorted(
        p.relative_to(folder).as_posix()
        for p in folder.rglob("*")
        if p.is_file() and p.name != SKILL_FILE and p.resolve().is_relative_to(folder.resolve())
    )


def prompt_section(discovery: Discovery) -> str:
    """The system-prompt lines announcing the skills; empty when there are none to announce."""
    if not discovery.skills:
        return ""
    lines = [
        "## Skills",
        "Skills are playbooks for multi-step jobs. When a request matches one, call `use_skill` with its "
        "name (and arguments) before doing anything else, then follow its steps with tool calls. "
        "Each skill is loaded once per conversation; if it is already above, follow it from there.",
        "",
    ]
    for name in sorted(discovery.skills):
        skill = discovery.skills[name]
        line = f"- {name}: {skill.description}"
        if skill.when_to_use:
            line += f" Use when: {skill.when_to_use}"
        if skill.arguments:
            line += " Arguments: " + ", ".join(
                f"{a.name}{' (required)' if a.required else ''}" for a in skill.arguments
            ) + "."
        lines.append(line)
    return "\n".join(lines)
