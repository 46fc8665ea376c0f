"""`wilson skills`: the list with sources, overrides and warnings, as text and as JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from skill_helpers import project_skills, user_skills, write_skill

from wilson import paths
from wilson.cli import main

BUILTIN_TAX_PREP = paths.resource("skills") / "tax-prep" / "SKILL.md"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def library(project: Path) -> dict[str, Path]:
    return {
        "user": write_skill(user_skills(), "tax-prep", {"name": "tax-prep", "description": "my way", "arguments": [
            {"name": "year", "description": "the year", "required": True}]}, body="Year {{year}}.\n"),
        "project": write_skill(project_skills(project), "local", {"name": "local", "description": "project only"}),
        "broken": write_skill(project_skills(project), "broken", "name: broken\n"),
    }


def run(*args: str) -> "click.testing.Result":
    return CliRunner().invoke(main, ["skills", *args])


def test_lists_skills_with_source_path_overrides_and_warnings(library: dict[str, Path]) -> None:
    result = run()
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert f"local  [project] {library['project']}" in out
    assert f"tax-prep  [user] {library['user']}" in out
    assert "arguments: year (required)" in out
    assert f"    overrides {BUILTIN_TAX_PREP}" in out
    assert "monthly-review  [built-in] " in out
    assert f"{library['broken']}: missing required field 'description'" in result.stderr
    assert "warning(s):" in result.stderr


def test_json_output(library: dict[str, Path]) -> None:
    result = run("--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    by_name = {s["name"]: s for s in data["skills"]}
    assert [s["name"] for s in data["skills"]] == sorted(by_name)
    tax = by_name["tax-prep"]
    assert (tax["source"], tax["path"]) == ("user", str(library["user"]))
    assert tax["overrides"] == [str(BUILTIN_TAX_PREP)]
    assert tax["arguments"] == [{"name": "year", "description": "the year", "required": True, "default": None}]
    assert by_name["local"]["source"] == "project" and by_name["local"]["overrides"] == []
    assert by_name["monthly-review"]["source"] == "built-in"
    assert "broken" not in by_name
    assert f"{library['broken']}: missing required field 'description'" in data["warnings"]
