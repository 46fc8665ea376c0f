"""Discovery: where skills come from, which one wins a name, and how broken ones are reported."""

from __future__ import annotations

from pathlib import Path

import pytest
from skill_helpers import project_skills, user_skills, write_skill

from wilson import skills


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    cwd = tmp_path / "project"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    return cwd


def test_builtin_user_and_project_skills_are_all_found(project: Path) -> None:
    user = write_skill(user_skills(), "mine")
    local = write_skill(project_skills(project), "local")
    found = skills.discover()
    assert found.warnings == []
    assert found.skills["mine"].source == "user" and found.skills["mine"].path == user
    assert found.skills["local"].source == "project" and found.skills["local"].path == local
    assert found.skills["monthly-review"].source == "built-in"


def test_user_overrides_builtin_and_project_overrides_both(project: Path) -> None:
    builtin = skills.discover().skills["monthly-review"].path
    user = write_skill(user_skills(), "my-review", {"name": "monthly-review", "description": "mine"})
    local = write_skill(project_skills(project), "review", {"name": "monthly-review", "description": "ours"})

    skill = skills.discover().skills["monthly-review"]

    assert (skill.description, skill.source, skill.path) == ("ours", "project", local)
    assert skill.overrides == [builtin, user]


def test_user_override_without_project(project: Path) -> None:
    write_skill(user_skills(), "tax-prep", {"name": "tax-prep", "description": "my accountant's way"})
    skill = skills.discover().skills["tax-prep"]
    assert skill.source == "user" and skill.description == "my accountant's way"
    assert [p.parent.name for p in skill.overrides] == ["tax-prep"]


def test_cwd_parameter_beats_the_process_cwd(tmp_path: Path, project: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    write_skill(project_skills(elsewhere), "there")
    write_skill(project_skills(project), "here")
    assert "there" in skills.discover(cwd=elsewhere).skills
    assert "there" not in skills.discover().skills and "here" in skills.discover().skills


def test_the_same_name_twice_in_one_place_keeps_the_first_and_warns(project: Path) -> None:
    first = write_skill(project_skills(project), "a-first", {"name": "dup", "description": "first"})
    second = write_skill(project_skills(project), "b-second", {"name": "dup", "description": "second"})
    found = skills.discover()
    assert found.skills["dup"].path == first
    assert found.warnings == [f"{second}: skill name 'dup' is already used by {first}; skipped"]


def test_discovery_does_not_create_the_data_directory(wilson_home: Path, project: Path) -> None:
    skills.discover()
    assert not wilson_home.exists()


BROKEN = {
    "no frontmatter": ("raw", "# Just a heading\n\nNo frontmatter here.\n", "no frontmatter"),
    "unclosed frontmatter": ("raw", "---\nname: x\ndescription: y\n\nbody\n", "no frontmatter"),
    "bad yaml": ("meta", "name: x\ndescription: [unclosed\n", "not valid YAML"),
    "empty frontmatter": ("meta", "", "frontmatter is empty"),
    "a list": ("meta", "- name\n- description\n", "must be a mapping, not list"),
    "a string": ("meta", "just words\n", "must be a mapping, not str"),
    "missing name": ("meta", "description: d\n", "missing required field 'name'"),
    "missing description": ("meta", "name: x\n", "missing required field 'description'"),
    "name not a string": ("meta", "name: 42\ndescription: d\n", "'name' must be a non-empty string, not int"),
    "blank description": ("meta", "name: x\ndescription: '  '\n", "'description' must be a non-empty string"),
    "name with spaces": ("meta", "name: My Skill\ndescription: d\n", "must be lower-case letters"),
    "tools not a list": ("meta", "name: x\ndescription: d\ntools: cash_flow\n", "'tools' must be a list"),
    "when_to_use a list": ("meta", "name: x\ndescription: d\nwhen_to_use: [a]\n", "'when_to_use' must be"),
    "arguments not a list": ("meta", "name: x\ndescription: d\narguments: {a: 1}\n", "'arguments' must be a list"),
    "argument without name": ("meta", "name: x\ndescription: d\narguments: [{description: d}]\n", "arguments[0]: name"),
    "argument without description": ("meta", "name: x\ndescription: d\narguments: [{name: a}]\n", "arguments[0] (a): description"),
    "required not a bool": ("meta", "name: x\ndescription: d\narguments: [{name: a, description: d, required: yes please}]\n", "required must be true or false"),
    "required with default": ("meta", "name: x\ndescription: d\narguments: [{name: a, description: d, required: true, default: 1}]\n", "cannot have a default"),
    "argument twice": ("meta", "name: x\ndescription: d\narguments: [{name: a, description: d}, {name: a, description: e}]\n", "declared twice"),
    "empty body": ("body", "", "the body is empty"),
    "undeclared placeholder": ("body", "Spend {{amount}}.\n", "undeclared argument(s) amount"),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_broken_skill_is_skipped_with_a_one_line_warning_naming_file_and_problem(project: Path, case: str) -> None:
    kind, text, problem = BROKEN[case]
    folder = project_skills(project) / "broken"
    folder.mkdir(parents=True)
    path = folder / "SKILL.md"
    if kind == "raw":
        path.write_text(text)
    elif kind == "meta":
        path.write_text(f"---\n{text}---\nbody\n")
    else:
        path.write_text(f"---\nname: broken\ndescription: d\n---\n{text}")
    good = write_skill(project_skills(project), "good")

    found = skills.discover()

    assert len(found.warnings) == 1, found.warnings
    (warning,) = found.warnings
    assert warning.startswith(f"{path}: ") and problem in warning
    assert "\n" not in warning
    assert "broken" not in found.skills and found.skills["good"].path == good


def test_undecodable_file_is_a_warning_too(project: Path) -> None:
    path = project_skills(project) / "binary" / "SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"---\nname: x\xff\xfe\n---\n")
    (warning,) = skills.discover().warnings
    assert warning.startswith(f"{path}: cannot be read")


def test_unknown_tool_is_reported_but_the_skill_still_loads(project: Path) -> None:
    path = write_skill(project_skills(project), "x", {"name": "x", "description": "d", "tools": ["cash_flow", "get_balance"]})
    found = skills.discover(known_tools={"cash_flow"})
    assert [w for w in found.warnings if w.startswith(str(path))] == [f"{path}: names unknown tool(s) get_balance"]
    assert found.skills["x"].tools == ["cash_flow", "get_balance"]


def test_tools_are_not_checked_without_a_known_set(project: Path) -> None:
    write_skill(project_skills(project), "x", {"name": "x", "description": "d", "tools": ["anything"]})
    assert skills.discover().warnings == []


def test_unknown_frontmatter_keys_are_noted_but_the_skill_loads(project: Path) -> None:
    path = write_skill(project_skills(project), "x", {"name": "x", "description": "d", "license": "MIT", "tool": ["a"]})
    found = skills.discover()
    assert found.warnings == [f"{path}: ignored unknown frontmatter key(s) license, tool"]
    assert "x" in found.skills


def test_folders_without_skill_md_and_stray_files_are_ignored(project: Path) -> None:
    root = project_skills(project)
    (root / "notes").mkdir(parents=True)
    (root / "README.md").write_text("not a skill")
    found = skills.discover()
    assert found.warnings == []


def test_fields_are_parsed_and_whitespace_normalised(project: Path) -> None:
    write_skill(project_skills(project), "x", (
        "name: x\n"
        "description: >\n  spread over\n  two lines\n"
        "when_to_use: when asked\n"
        "tools: [cash_flow]\n"
        "arguments:\n"
        "  - {name: year, description: the year, required: true}\n"
        "  - {name: months, description: how many, default: 3}\n"
    ), body="\nYear {{ year }}, {{months}} months.\n\n")
    skill = skills.discover().skills["x"]
    assert skill.description == "spread over two lines"
    assert skill.when_to_use == "when asked"
    assert skill.tools == ["cash_flow"]
    assert skill.arguments == [
        skills.SkillArgument("year", "the year", required=True),
        skills.SkillArgument("months", "how many", default="3"),
    ]
    assert skill.body == "Year {{ year }}, {{months}} months."


def test_crlf_and_bom_files_parse(project: Path) -> None:
    path = project_skills(project) / "win" / "SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_bytes("\ufeff---\r\nname: win\r\ndescription: from Windows\r\n---\r\nStep one.\r\n".encode())
    found = skills.discover()
    assert found.warnings == []
    assert found.skills["win"].description == "from Windows"
