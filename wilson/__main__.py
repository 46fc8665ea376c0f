"""`python -m wilson` and the `wilson` command.

Loading the CLI (click, the rooms it names) takes a moment; Ctrl-C meanwhile ends quietly, as it
does once the command runs, instead of with a traceback.
"""

import sys


def main() -> None:
    try:
        from wilson.cli import main as cli
    except KeyboardInterrupt:
        sys.exit(130)
    cli()


if __name__ == "__main__":
    main()
