"""The `use_skill` tool: loading a playbook into a run once, its arguments, and its linked files."""

from __future__ import annotations

from pathlib import Path

import pytest
from skill_helpers import project_skills, write_skill

from wilson.ledger import Ledger
from wilson.tools import ToolContext, load_tools, run_tool


@pytest.fixture
def ctx(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ToolContext:
    load_tools()
    monkeypatch.chdir(tmp_path)
    ledger = Ledger(tmp_path / "ledger.db")
    yield ToolContext(ledger=ledger)
    ledger.close()


@pytest.fixture
def goal_skill(tmp_path: Path) -> Path:
    path = write_skill(project_skills(tmp_path), "goal", {
        "name": "goal",
        "description": "plan a goal",
        "tools": ["remember", "no_such_tool"],
        "arguments": [
            {"name": "goal", "description": "what for", "required": True},
            {"name": "months", "description": "how long", "default": 12},
        ],
    }, body="Save for {{goal}} over {{months}} months; details in [notes](notes/plan.md).\n")
    (path.parent / "notes").mkdir()
    (path.parent / "notes" / "plan.md").write_text("# Plan\nPut it aside first.\n")
    (tmp_path / "secret.txt").write_text("not for the model")
    return path


def test_loads_the_rendered_playbook_into_the_run(ctx: ToolContext, goal_skill: Path) -> None:
    result = run_tool("use_skill", {"name": "goal", "arguments": {"goal": "a bike"}}, ctx)
    assert result["skill"] == "goal" and result["source"] == "project"
    assert result["instructions"] == "Save for a bike over 12 months; details in [notes](notes/plan.md)."
    assert result["arguments"] == {"goal": "a bike", "months": "12"}
    assert result["files"] == ["notes/plan.md"]
    assert result["warnings"] == [f"{goal_skill}: names unknown tool(s) no_such_tool"]
    assert ctx.run["skills_loaded"] == {"goal"}


def test_a_second_load_in_the_same_run_points_back_instead_of_repeating(ctx: ToolContext, goal_skill: Path) -> None:
    run_tool("use_skill", {"name": "goal", "arguments": {"goal": "a bike"}}, ctx)
    again = run_tool("use_skill", {"name": "goal", "arguments": {"goal": "a car"}}, ctx)
    assert again["already_loaded"] is True
    assert "already loaded above" in again["message"]
    assert "instructions" not in again and "Save for" not in str(again)


def test_a_new_run_loads_it_again(ctx: ToolContext, goal_skill: Path) -> None:
    run_tool("use_skill", {"name": "goal", "arguments": {"goal": "a bike"}}, ctx)
    fresh = ToolContext(ledger=ctx.ledger)
    assert "instructions" in run_tool("use_skill", {"name": "goal", "arguments": {"goal": "a bike"}}, fresh)


def test_builtin_skills_load_through_the_tool(ctx: ToolContext) -> None:
    result = run_tool("use_skill", {"name": "subscription-audit"}, ctx)
    assert result["source"] == "built-in"
    assert "`list_recurring`" in result["instructions"]


def test_unknown_skill_is_a_structured_error_with_suggestions(ctx: ToolContext) -> None:
    result = run_tool("use_skill", {"name": "subscription-audti"}, ctx)
    error = result["error"]
    assert error["type"] == "not_found" and error["recoverable"] is True
    assert "no skill named 'subscription-audti'" in error["message"]
    assert error["suggestions"][0] == "subscription-audit"
    assert "tax-prep" in error["known"]


def test_missing_required_argument_is_an_error_and_does_not_count_as_loaded(ctx: ToolContext, goal_skill: Path) -> None:
    error = run_tool("use_skill", {"name": "goal"}, ctx)["error"]
    assert error["type"] == "validation"
    assert "needs argument(s) goal" in error["message"]
    assert error["arguments"][0] == {"name": "goal", "required": True, "description": "what for"}
    assert "goal" not in ctx.run.get("skills_loaded", set())
    assert "instructions" in run_tool("use_skill", {"name": "goal", "arguments": {"goal": "x"}}, ctx)


def test_unknown_argument_is_an_error_listing_the_known_ones(ctx: ToolContext, goal_skill: Path) -> None:
    error = run_tool("use_skill", {"name": "goal", "arguments": {"goal": "x", "colour": "red"}}, ctx)["error"]
    assert "has no argument(s) colour; its arguments: goal, months" in error["message"]


def test_reads_a_linked_file_from_the_skill_folder_once_per_run(ctx: ToolContext, goal_skill: Path) -> None:
    result = run_tool("use_skill", {"name": "goal", "file": "notes/plan.md"}, ctx)
    assert result == {"skill": "goal", "file": "notes/plan.md", "content": "# Plan\nPut it aside first.\n"}
    assert run_tool("use_skill", {"name": "goal", "file": "notes/plan.md"}, ctx)["already_loaded"] is True


def test_builtin_linked_files_exist_and_load(ctx: ToolContext) -> None:
    result = run_tool("use_skill", {"name": "debt-payoff", "file": "methods.md"}, ctx)
    assert result["content"].startswith("# Debt payoff methods")


@pytest.mark.parametrize("file", ["../../../secret.txt", "notes/../../../../secret.txt", "/etc/passwd", ".."])
def test_paths_outside_the_skill_folder_are_refused(ctx: ToolContext, goal_skill: Path, file: str) -> None:
    result = run_tool("use_skill", {"name": "goal", "file": file}, ctx)
    message = result["error"]["message"]
    assert "not for the model" not in str(result)
    assert "outside the skill's folder" in message or "relative to the skill's folder" in message


def test_a_symlink_out_of_the_folder_is_refused(ctx: ToolContext, goal_skill: Path, tmp_path: Path) -> None:
    (goal_skill.parent / "link.md").symlink_to(tmp_path / "secret.txt")
    result = run_tool("use_skill", {"name": "goal", "file": "link.md"}, ctx)
    assert "outside the skill's folder" in result["error"]["message"]
    assert "link.md" not in run_tool("use_skill", {"name": "goal", "arguments": {"goal": "x"}}, ctx)["files"]


def test_a_missing_file_lists_what_there_is(ctx: ToolContext, goal_skill: Path) -> None:
    message = run_tool("use_skill", {"name": "goal", "file": "nope.md"}, ctx)["error"]["message"]
    assert message == "skill 'goal' has no file 'nope.md'; it has: notes/plan.md"


def test_registered_as_run_state_changing_but_not_data_changing(ctx: ToolContext) -> None:
    registered = load_tools()["use_skill"]
    assert (registered.read_only, registered.changes_data, registered.needs_approval) == (False, False, False)
    assert registered.parameters["required"] == ["name"]
