"""`wilson tools` and `wilson tool`: listing, schemas, running a tool exactly as the agent would."""

from __future__ import annotations

import json
from decimal import Decimal

from click.testing import CliRunner

from wilson.cli import main
from wilson.ledger import Ledger


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_tools_lists_every_tool_with_flags():
    result = run("tools")
    assert result.exit_code == 0
    assert "search_transactions  [read-only]" in result.output
    assert "set_budget  [changes data]" in result.output


def test_tools_json_prints_the_schemas():
    schemas = json.loads(run("tools", "--json").output)
    by_name = {s["function"]["name"]: s["function"] for s in schemas}
    assert by_name["spending_summary"]["parameters"]["properties"]["group_by"]["enum"] == [
        "category", "payee", "month", "account"]


def test_tool_runs_against_the_ledger_in_wilson_home():
    with Ledger() as ledger:
        account = ledger.create_account("Checking")
        ledger.conn.execute(
            "INSERT INTO transactions (account_id, posted, amount, currency, description, fingerprint)"
            " VALUES (?, '2025-01-05', -1010, 'USD', 'CORNER SHOP', 'f1')", (account["id"],))
    result = run("tool", "search_transactions", '{"query": "corner", "min_amount": 10.1}')
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert answer["count"] == 1 and answer["sum"] == {"USD": "-10.10"}
    assert answer["covered"]["filters"]["min_amount"] == str(Decimal("10.1"))


def test_bad_json_is_one_line_with_its_position():
    result = run("tool", "search_transactions", '{"query": "x",\n "limit": }')
    assert result.exit_code != 0
    assert result.output.strip().count("\n") == 0
    assert "line 2 column" in result.output


def test_an_error_result_is_printed_and_exits_non_zero():
    result = run("tool", "spending_summary", '{"start_date": "2025-06-10", "end_date": "2025-06-01"}')
    assert result.exit_code == 1
    assert "before start_date" in json.loads(result.stdout)["error"]["message"]
    assert result.stderr.startswith("wilson: spending_summary: ") and result.stderr.count("\n") == 1  # one line
    assert run("tool", "no_such_tool").exit_code == 1
    assert run("tool", "search_transactions", "[1, 2]").exit_code != 0


def test_a_number_of_thousands_of_digits_is_invalid_json_not_a_crash():
    result = run("tool", "spending_summary", '{"limit": ' + "9" * 5000 + "}")
    assert result.exit_code == 1
    assert result.stderr.strip() == "wilson: arguments are not valid JSON: a number has thousands of digits"
