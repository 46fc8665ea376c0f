"""Figures in an answer that no tool result backs are flagged on the `Answer` event, never passed as fact."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
from conftest import collect, of_type

from wilson.agent.figures import figures, unbacked
from wilson.agent.scratchpad import read
from wilson.tools import REGISTRY, ToolContext, tool

MARCH = {"spent": "-1234.50", "previous_spent": "-1180.30", "change": "-54.20", "change_pct": "4.6%",
         "transactions": 12, "largest": "-45.20"}


def _register() -> None:
    if "t_march" not in REGISTRY:
        @tool(description="March's spending, as fixed figures. Used by tests.")
        def t_march(ctx: ToolContext) -> dict:
            return dict(MARCH)


_register()


def march_agent(make_agent, **options):
    return make_agent(tools={"t_march": REGISTRY["t_march"]}, **options)


async def test_a_made_up_answer_is_flagged(make_agent, llm_providers):
    llm_providers.reply_text(
        "You spent **$12,345.67** on dining in March, 38% more than February ($8,941.02)."
    )
    events = await collect(make_agent().run("how much on dining in March?"))
    answer = of_type(events, "answer")[0]
    assert answer.unbacked == ("$12,345.67", "38%", "$8,941.02")
    assert answer.to_dict()["unbacked"] == ["$12,345.67", "38%", "$8,941.02"]
    assert events[-1].answer == answer.text  # flagged, not rewritten
    records = read(Path(events[-1].scratchpad))
    assert [r["figures"] for r in records if r["type"] == "unbacked_figures"] == [list(answer.unbacked)]


async def test_figures_from_tool_results_in_any_format_are_not_flagged(make_agent, llm_providers):
    llm_providers.reply_tool_calls([("t_march", {})])
    llm_providers.reply_text(
        "You spent **$1,234.50** in March (1 to 31 March 2025) across 12 transactions on card …4821: "
        "54.20 more than February's $1,180.30, up 4.6% (about 5%). The largest was 45.20 spent at "
        "Café Luna. The two months come to $2,414.80; in round figures March was $1,235, or $1.2k."
    )
    events = await collect(march_agent(make_agent).run("march?"))
    assert of_type(events, "answer")[0].unbacked == ()


async def test_only_the_figures_nothing_backs_are_flagged(make_agent, llm_providers):
    llm_providers.reply_tool_calls([("t_march", {})])
    llm_providers.reply_text("You spent $1,234.50 in March, and $999.99 of it on rent, 80.9% of the total.")
    events = await collect(march_agent(make_agent).run("march?"))
    assert of_type(events, "answer")[0].unbacked == ("$999.99", "80.9%")


async def test_figures_the_user_gave_are_backed(make_agent, llm_providers):
    llm_providers.reply_text("A $2,000.00 laptop is 20% of what you asked about; I need to check your balance.")
    events = await collect(make_agent().run("Can I afford a $2,000 laptop if I keep 20% aside?"))
    assert of_type(events, "answer")[0].unbacked == ()


async def test_numbers_that_are_not_money_are_never_flagged(make_agent, llm_providers):
    llm_providers.reply_text(
        "You have 3 accounts. Card ending 4821 (…4821) was last imported on 2025-03-01, 03.01.2025 in "
        "the bank's format; I looked at 2 months of 2024 and 12 transactions from March 2025."
    )
    events = await collect(make_agent().run("what do you have?"))
    assert of_type(events, "answer")[0].unbacked == ()


async def test_the_answer_forced_at_the_step_limit_is_checked_too(make_agent, llm_providers):
    llm_providers.reply_tool_calls([("t_march", {})])
    llm_providers.reply_text("I ran out of steps; March was $1,234.50 and April $777.77.")
    events = await collect(march_agent(make_agent, max_iterations=1).run("march and april?"))
    assert of_type(events, "answer")[0].unbacked == ("$777.77",)


@pytest.mark.parametrize("text, expected", [
    ("$12,345.67", [("$12,345.67", "12345.67", False)]),
    ("-€45.20 and 45.20 EUR", [("-€45.20", "45.20", False), ("45.20 EUR", "45.20", False)]),
    ("CHF 50, 50 dollars, $1.2k", [("CHF 50", "50", False), ("50 dollars", "50", False), ("$1.2k", "1.2E+3", False)]),
    ("up 4.6% or 12 percent", [("4.6%", "4.6", True), ("12 percent", "12", True)]),
    ("412.30 on food, 1,204 rows", [("412.30", "412.30", False), ("1,204", "1204", False)]),
    ("on 2025-03-01, 03.01.2025, 03/2025, in 2024, 3 times, …4821, x1234, v1.2, MAR 2025, Q1", []),
])
def test_what_counts_as_a_figure(text, expected):
    assert [(f.text, f.value, f.percent) for f in figures(text)] == [
        (shown, Decimal(value), percent) for shown, value, percent in expected
    ]


def test_rounding_is_to_the_precision_written_only():
    sources = ['{"spent": "1234.56", "share": "12.46%"}']
    assert unbacked("$1,235, $1,234.6, $1.2k, 12.5%, 12%", sources) == ()
    assert unbacked("$1,234.00, $1,236, 12.4%", sources) == ("$1,234.00", "$1,236", "12.4%")
