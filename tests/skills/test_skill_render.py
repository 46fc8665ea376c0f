"""Rendering `{{name}}` placeholders, and the system-prompt section that announces skills."""

from __future__ import annotations

from pathlib import Path

import pytest

from wilson import skills


def make(body: str = "Buy {{item}} for {{ amount }} by {{by_date}}.", **overrides: object) -> skills.Skill:
    fields: dict = dict(
        name="afford",
        description="can I afford it",
        when_to_use=None,
        tools=[],
        arguments=[
            skills.SkillArgument("amount", "the price", required=True),
            skills.SkillArgument("item", "what", default="the thing"),
            skills.SkillArgument("by_date", "when"),
        ],
        body=body,
        path=Path("/nowhere/afford/SKILL.md"),
        source="built-in",
    )
    fields.update(overrides)
    return skills.Skill(**fields)


def test_placeholders_are_filled_with_given_values() -> None:
    text = skills.render(make(), {"amount": 2500, "item": "a bike", "by_date": "2025-06-01"})
    assert text == "Buy a bike for 2500 by 2025-06-01."


def test_defaults_apply_and_optional_arguments_without_one_say_not_given() -> None:
    assert skills.render(make(), {"amount": "99.90"}) == f"Buy the thing for 99.90 by {skills.NOT_GIVEN}."


def test_blank_or_null_values_count_as_not_given() -> None:
    assert skills.render(make(), {"amount": "10", "item": "  ", "by_date": None}) == f"Buy the thing for 10 by {skills.NOT_GIVEN}."


def test_a_missing_required_argument_is_a_clear_error() -> None:
    with pytest.raises(skills.SkillError, match=r"skill 'afford' needs argument\(s\) amount: amount: the price"):
        skills.render(make(), {"item": "a bike"})


def test_unknown_arguments_are_an_error_listing_the_known_ones() -> None:
    with pytest.raises(skills.SkillError) as info:
        skills.render(make(), {"amount": 1, "colour": "red", "size": "L"})
    assert str(info.value) == "skill 'afford' has no argument(s) colour, size; its arguments: amount, item, by_date"


def test_a_skill_without_arguments_renders_its_body_and_rejects_any() -> None:
    plain = make(body="Just steps.", arguments=[])
    assert skills.render(plain) == skills.render(plain, {}) == "Just steps."
    with pytest.raises(skills.SkillError, match="its arguments: none"):
        skills.render(plain, {"x": 1})


def test_values_are_inserted_literally_not_re_expanded() -> None:
    assert skills.render(make(), {"amount": "{{item}}", "item": r"\1 $ARGUMENTS"}) == (
        rf"Buy \1 $ARGUMENTS for {{{{item}}}} by {skills.NOT_GIVEN}."
    )


def test_prompt_section_lists_every_skill_in_name_order_with_when_to_use_and_arguments() -> None:
    discovery = skills.Discovery(skills={
        "zeta": make(name="zeta", description="last one.", arguments=[]),
        "afford": make(when_to_use="a big purchase comes up."),
    }, warnings=["ignored: x"])
    section = skills.prompt_section(discovery)
    lines = section.splitlines()
    assert lines[0] == "## Skills"
    assert "`use_skill`" in lines[1]
    assert lines[-2:] == [
        "- afford: can I afford it Use when: a big purchase comes up. Arguments: amount (required), item, by_date.",
        "- zeta: last one.",
    ]
    reordered = skills.Discovery(skills=dict(reversed(list(discovery.skills.items()))), warnings=[])
    assert skills.prompt_section(reordered) == section


def test_prompt_section_is_empty_without_skills() -> None:
    assert skills.prompt_section(skills.Discovery(skills={}, warnings=[])) == ""


def test_prompt_section_for_the_real_library_is_stable() -> None:
    first, second = skills.prompt_section(skills.discover()), skills.prompt_section(skills.discover())
    assert first == second
    assert "- subscription-audit: " in first and "Use when: " in first
