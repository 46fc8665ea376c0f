"""The `wilson` command's entry point."""

from __future__ import annotations

import builtins

import pytest

from wilson import __main__ as entry


def test_ctrl_c_while_the_cli_loads_ends_quietly(monkeypatch: pytest.MonkeyPatch) -> None:
    """Loading click and the CLI takes a moment; a Ctrl-C then printed a traceback."""
    real_import = builtins.__import__

    def interrupted(name: str, *args, **kwargs):  # type: ignore[no-untyped-def]
        if name == "wilson.cli":
            raise KeyboardInterrupt
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", interrupted)
    with pytest.raises(SystemExit) as exited:
        entry.main()
    assert exited.value.code == 130
