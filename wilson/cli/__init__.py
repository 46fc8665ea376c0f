"""The `wilson` command: the TUI by default, headless subcommands for everything else.

Subcommands are imported only when invoked, so `wilson` (the TUI) starts without paying for
litellm, tiktoken or the importers.
"""

from __future__ import annotations

import errno
import importlib

import click

from wilson.cli.output import complain, unexpected

# name -> "module:attribute" of a click command
SUBCOMMANDS = {
    "import": "wilson.cli.ledger_commands:import_command",
    "export": "wilson.cli.export_command:export_command",
    "accounts": "wilson.cli.ledger_commands:accounts_command",
    "ask": "wilson.cli.ask:ask_command",
    "tools": "wilson.cli.tool_commands:tools_command",
    "tool": "wilson.cli.tool_commands:tool_command",
    "skills": "wilson.cli.skill_commands:skills_command",
}


def _unwritable(exc: Exception, command: str | None) -> str | None:
    """A full disk or a failing device under the output (`wilson export > /dev/full`) is no fault
    of Wilson's: said as such, without a traceback log. An import's summary comes after its
    write, which a full ledger disk would have refused first."""
    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EIO):
        saved = "; the import itself is not undone by it (wilson import --history lists what was saved)" if command == "import" else ""
        return f"could not write the output: {exc.strerror}{saved}"
    return None


class LazyGroup(click.Group):
    def invoke(self, ctx: click.Context) -> object:
        """Anything unexpected becomes one line for the user; the traceback goes to a log file."""
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:  # a mistyped option value: one line too, and where to look
            command = f"wilson {exc.ctx.info_name} --help" if exc.ctx and exc.ctx.parent else "wilson --help"
            click.echo(f"wilson: {exc.format_message()} (see {command})", err=True)
            ctx.exit(exc.exit_code)
        except (click.exceptions.Exit, click.ClickException, click.exceptions.Abort, SystemExit):
            raise
        except KeyboardInterrupt:
            click.echo("wilson: interrupted", err=True)
            ctx.exit(130)
        except BrokenPipeError:  # `wilson tools | head`: the reader left; nothing to report
            import os
            import sys

            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            ctx.exit(0)
        except Exception as exc:  # the last line of defence: never show a traceback
            complain(_unwritable(exc, ctx.invoked_subcommand) or unexpected(exc))
            ctx.exit(1)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(SUBCOMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        target = SUBCOMMANDS.get(name)
        if target is None:
            return None
        module, attribute = target.split(":")
        return getattr(importlib.import_module(module), attribute)




@click.group(cls=LazyGroup, invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--model", help="The model to talk to, e.g. gpt-4o-mini, claude-sonnet-4-5, ollama:llama3.1.")
@click.version_option(package_name="wilson")
@click.pass_context
def main(ctx: click.Context, model: str | None) -> None:
    """Wilson: your money, in your terminal, with an agent that shows its work."""
    if ctx.invoked_subcommand is None:
        from wilson.tui import run_tui

        run_tui(model=model)
