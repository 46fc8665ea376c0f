"""The built-in library: every playbook parses, and names only tools that really exist."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from wilson import paths, skills

# The public tool interface the playbooks are written against.
TOOLS = {
    "import_transactions", "search_transactions", "spending_summary", "categorize_transactions",
    "update_transaction", "delete_transaction", "manage_rules", "set_budget", "check_budgets",
    "detect_anomalies", "list_recurring", "account_balances", "update_balance", "cash_flow",
    "affordability_check", "remember", "recall", "forget", "export_transactions", "use_skill",
}
# Identifiers a playbook may put in backticks that are not tools: tool argument names, and the
# `covered` block every result carries.
ARGUMENTS = {
    "start_date", "end_date", "account", "category", "query", "amount", "limit",
    "note", "kind", "file", "path", "dry_run", "ids",
}
NOT_TOOLS = ARGUMENTS | {"covered"}
REQUIRED = {
    "import-and-categorize", "monthly-review", "month-end-close", "subscription-audit", "budget-setup",
    "spending-review", "duplicate-and-anomaly-check", "affordability", "emergency-fund", "debt-payoff",
    "savings-goal", "tax-prep",
}
BUILTIN = paths.resource("skills")
FOLDERS = sorted(p.parent for p in BUILTIN.glob("*/SKILL.md"))


def backticked_identifiers(text: str) -> list[str]:
    """Code spans that are a bare identifier or a call (`name(...)`): the ones that could be tools."""
    spans = re.findall(r"`([^`\n]+)`", text)
    return [m.group(1) for span in spans if (m := re.fullmatch(r"([a-z][a-z0-9_]*)(\(.*\))?", span))]


@pytest.fixture(autouse=True)
def isolated_cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def test_the_library_has_every_required_skill_and_no_warnings() -> None:
    found = skills.discover(known_tools=TOOLS)
    assert found.warnings == []
    assert len(found.skills) >= 12
    assert REQUIRED <= set(found.skills)
    assert {s.source for s in found.skills.values()} == {"built-in"}


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: p.name)
def test_every_builtin_skill_parses_cleanly(folder: Path) -> None:
    skill, notes = skills.parse(folder / "SKILL.md", "built-in")
    assert notes == []
    assert skill.name == folder.name
    assert skill.when_to_use, "the prompt needs to say when to use it"
    assert skill.tools and set(skill.tools) <= TOOLS


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: p.name)
def test_every_tool_named_in_the_body_and_linked_files_exists(folder: Path) -> None:
    skill, _ = skills.parse(folder / "SKILL.md", "built-in")
    for path in sorted(folder.rglob("*.md")):
        names = set(backticked_identifiers(path.read_text()))
        assert names <= TOOLS | NOT_TOOLS, f"{path}: unknown tool-like names {sorted(names - TOOLS - NOT_TOOLS)}"
        used_tools = names & TOOLS
        assert used_tools <= set(skill.tools) | {"use_skill"}, (
            f"{path}: uses tools missing from its frontmatter: {sorted(used_tools - set(skill.tools))}"
        )
    body_tools = set(backticked_identifiers(skill.body)) & TOOLS
    assert set(skill.tools) <= body_tools, f"frontmatter lists tools the body never uses: {set(skill.tools) - body_tools}"


def test_every_argument_name_the_playbooks_use_is_a_real_tool_parameter() -> None:
    from wilson.tools import load_tools

    registered = load_tools()
    if not TOOLS <= set(registered):
        pytest.skip(f"tools not written yet: {', '.join(sorted(TOOLS - set(registered)))}")
    parameters = {p for found in registered.values() for p in found.parameters["properties"]}
    assert ARGUMENTS <= parameters, sorted(ARGUMENTS - parameters)


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: p.name)
def test_every_builtin_skill_is_a_real_playbook(folder: Path) -> None:
    skill, _ = skills.parse(folder / "SKILL.md", "built-in")
    assert re.search(r"^1\. ", skill.body, re.M) and re.search(r"^3\. ", skill.body, re.M), "numbered steps"
    assert "## Do not" in skill.body
    assert "`covered`" in skill.body, "answers cite what a result covers"
    for argument in skill.arguments:
        assert re.search(r"\{\{\s*" + argument.name + r"\s*\}\}", skill.body), f"argument {argument.name} unused"
    for link in re.findall(r"\]\(([^)]+)\)", skill.body):
        if "://" not in link:
            assert skills.read_file(skill, link), f"broken link {link}"
    sample = {a.name: "X" for a in skill.arguments if a.required}
    rendered = skills.render(skill, sample)
    assert "{{" not in rendered and "}}" not in rendered
