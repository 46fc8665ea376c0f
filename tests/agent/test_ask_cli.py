"""`wilson ask`: in-process through click's runner, and Ctrl-C in a real subprocess."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from click.testing import CliRunner
from scripted_llm import DUMMY_KEYS, PROVIDER_BASES

from wilson.agent.scratchpad import read
from wilson.agent.sessions import list_sessions, load_session
from wilson.cli import main
from wilson.ledger import Ledger


def ask(*args: str):
    return CliRunner().invoke(main, ["ask", *args], catch_exceptions=False)


def test_json_lines_parse_and_end_with_done(llm_providers):
    llm_providers.reply_tool_calls([("t_echo", {"text": "hi"})], text="Checking.")
    llm_providers.reply_text("All **fine**.")
    result = ask("how am I doing?", "--json")
    assert result.exit_code == 0, result.output
    events = [json.loads(line) for line in result.stdout.splitlines()]
    assert [e["type"] for e in events] == ["thinking", "tool_start", "tool_end", "answer", "done"]
    assert events[-1]["answer"] == "All **fine**." and events[-1]["cancelled"] is False


def test_plain_output_shows_tools_and_the_answer(llm_providers):
    llm_providers.reply_tool_calls([("t_echo", {"text": "hi"})])
    llm_providers.reply_text("Answer here.")
    result = ask("q")
    assert result.exit_code == 0
    assert result.stdout.strip() == "Answer here."
    assert "✓ t_echo" in result.stderr and " ms)" in result.stderr


def test_missing_key_is_one_line_naming_the_variable():
    result = CliRunner().invoke(main, ["ask", "q", "--model", "gpt-4o-mini"])
    assert result.exit_code == 1
    assert result.stderr.strip().count("\n") == 0 and "OPENAI_API_KEY" in result.stderr
    assert "Traceback" not in result.output


def test_unreachable_model_is_one_line(llm_providers):
    llm_providers.reply_error(401)
    result = ask("q")
    assert result.exit_code == 1 and "Traceback" not in result.stderr
    assert result.stderr.splitlines() == ["wilson: gpt-4o-mini: API key rejected (HTTP 401): Invalid API key provided"]


def test_headless_write_is_refused_without_yes_and_done_with_it(llm_providers, wilson_home):
    for flags, expected in (([], None), (["--yes"], "Approved")):
        llm_providers.reply_tool_calls([("t_open_account", {"name": "Approved"})])
        llm_providers.reply_text("ok")
        assert ask("open it", "--json", *flags).exit_code == 0
        with Ledger(wilson_home / "wilson.db") as ledger:
            found = ledger.account("Approved")
            assert (found and found["name"]) == expected


def test_sessions_carry_history_between_questions(llm_providers, wilson_home):
    llm_providers.reply_text("You spent 10.00.")
    first = ask("what did I spend?", "--new-session")
    assert first.exit_code == 0
    with Ledger(wilson_home / "wilson.db") as ledger:
        (saved,) = list_sessions(ledger)
    assert saved["title"] == "what did I spend?" and saved["message_count"] == 2

    llm_providers.reply_text("Same as before.")
    assert ask("and again?", "--session", saved["id"][:6]).exit_code == 0
    sent = [m for m in llm_providers.requests[-1].messages if m["role"] != "system"]
    assert [m["content"] for m in sent] == ["what did I spend?", "You spent 10.00.", "and again?"]
    with Ledger(wilson_home / "wilson.db") as ledger:
        assert len(load_session(ledger, saved["id"]).messages) == 4


def test_unknown_session_and_unknown_skill_are_one_line(llm_providers):
    result = ask("q", "--session", "nope")
    assert result.exit_code == 1 and "no saved session" in result.stderr
    result = ask("q", "--skill", "no-such-skill")
    assert result.exit_code == 1 and "no skill named" in result.stderr


def test_skill_starts_loaded(llm_providers):
    llm_providers.reply_text("reviewed")
    assert ask("review", "--skill", "monthly-review", "--json").exit_code == 0
    system = llm_providers.requests[0].messages[0]["content"]
    assert "## Skill loaded for this request: monthly-review" in system


def test_skill_with_required_arguments_is_loaded_by_the_model_from_the_question(llm_providers):
    llm_providers.reply_tool_calls([("use_skill", {"name": "affordability", "arguments": {"amount": "2000", "item": "laptop"}})])
    llm_providers.reply_text("Here is the plan.")
    result = ask("can I afford a $2,000 laptop?", "--skill", "affordability", "--json")
    assert result.exit_code == 0, result.output
    system = llm_providers.requests[0].messages[0]["content"]
    assert "## Skill requested for this request: affordability" in system and "amount (required)" in system
    loaded = llm_providers.requests[1].last_tool_result()
    assert "2000" in json.dumps(loaded) and "already loaded" not in json.dumps(loaded)


def test_ctrl_c_cancels_promptly_with_exit_130(llm_server, tmp_path):
    llm_server.reply_text("too slow", delay=20)
    env = {k: v for k, v in os.environ.items() if not k.endswith(("_API_KEY", "_API_BASE", "_BASE_URL"))}
    env.update({name: llm_server.url + suffix for name, suffix in PROVIDER_BASES.items()})
    env.update(DUMMY_KEYS)
    env["WILSON_HOME"] = str(tmp_path / "home")
    proc = subprocess.Popen(
        [sys.executable, "-m", "wilson", "ask", "q", "--model", "gpt-4o-mini"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    deadline = time.monotonic() + 60
    while not llm_server.requests and time.monotonic() < deadline:
        time.sleep(0.05)
    assert llm_server.requests, "the request never reached the server"
    proc.send_signal(signal.SIGINT)
    started = time.monotonic()
    _, err = proc.communicate(timeout=10)
    assert time.monotonic() - started < 3
    assert proc.returncode == 130 and err.strip().splitlines()[-1] == "wilson: cancelled"
    assert "Traceback" not in err
    (pad,) = (tmp_path / "home" / "scratchpad").glob("*.jsonl")
    assert "cancelled" in [r["type"] for r in read(pad)]


def test_figures_no_tool_result_backs_are_pointed_out(llm_providers):
    llm_providers.reply_text("You spent $12,345.67 on dining in March, 38% more than February.")
    result = ask("what did I spend on dining?")
    assert result.exit_code == 0 and "You spent $12,345.67" in result.stdout
    assert "figures not found in any tool result, check them: $12,345.67, 38%" in result.stderr
