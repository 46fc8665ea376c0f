"""The `wilson` command's entry point."""

from __future__ import annotations

import builtins
import subprocess
import sys
from pathlib import Path

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


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_disk_under_the_output_is_said_as_such() -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "wilson", "accounts", "--json"], stdout=full, stderr=subprocess.PIPE, text=True)
    assert done.returncode == 1
    assert done.stderr.strip() == "wilson: could not write the output: No space left on device"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_an_import_whose_summary_cannot_be_written_says_the_import_stands(tmp_path: Path) -> None:
    path = tmp_path / "a.csv"
    path.write_text("Date,Description,Amount\n2025-03-04,COFFEE,-4.50\n", encoding="utf-8")
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "wilson", "import", str(path)], stdout=full, stderr=subprocess.PIPE, text=True)
    assert done.returncode == 1 and done.stderr.strip().endswith(
        "could not write the output: No space left on device; the import itself is not undone by it (wilson import --history lists what was saved)")
