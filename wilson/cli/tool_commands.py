"""`wilson tools` and `wilson tool NAME ARGS`: the agent's tools, listed and run by hand.

`wilson tool` prints the result exactly as the agent receives it, so a surprising answer can be
reproduced without a model in the loop. Arguments are parsed with Decimal for numbers: an amount
typed as 0.1 stays exactly 0.1.
"""

from __future__ import annotations

import json
import sys
from datetime import date
from decimal import Decimal

import click

from wilson.cli.output import complain, fail, print_json


@click.command("tools")
@click.option("--json", "as_json", is_flag=True, help="Print every tool's JSON schema.")
def tools_command(as_json: bool) -> None:
    """List the tools the agent can use, with their descriptions and flags."""
    from wilson.tools import load_tools

    tools = load_tools()
    if as_json:
        print_json([tools[name].openai_schema() for name in sorted(tools)])
        return
    for name in sorted(tools):
        found = tools[name]
        flags = [flag for flag, on in (("read-only", found.read_only), ("changes data", found.changes_data),
                                       ("needs approval", found.needs_approval)) if on]
        click.echo(f"{name}  [{', '.join(flags)}]")
        for line in found.description.splitlines():
            click.echo(f"    {line}")
        click.echo()


@click.command("tool")
@click.argument("name")
@click.argument("arguments", required=False, default="{}")
def tool_command(name: str, arguments: str) -> None:
    """Run one tool with JSON ARGUMENTS and print its result as the agent sees it."""
    from wilson.ledger import Ledger, LedgerError
    from wilson.tools import ToolContext, load_tools, run_tool

    try:
        args = json.loads(arguments, parse_float=Decimal)
    except json.JSONDecodeError as exc:
        fail(f"arguments are not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}")
    except ValueError:  # past the digits Python converts
        fail("arguments are not valid JSON: a number has thousands of digits")
    if not isinstance(args, dict):
        fail('arguments must be a JSON object, e.g. \'{"limit": 10}\'')
    load_tools()
    try:
        ledger = Ledger()
    except LedgerError as exc:
        fail(str(exc))
    with ledger:
        result = run_tool(name, args, ToolContext(ledger=ledger, today=date.today()))
    print_json(result)
    if isinstance(result, dict) and "error" in result:
        complain(f"{name}: {result['error'].get('message', 'failed')}")  # the JSON above is for scripts and the model
        sys.exit(1)
