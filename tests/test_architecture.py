"""The layering holds: the agent never loads Textual, the TUI never loads litellm, contracts pass."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def loaded_after_import(module: str) -> set[str]:
    code = f"import sys, {module}; print('\\n'.join(sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    return {name.split(".")[0] for name in done.stdout.split()}


def test_the_agent_loop_does_not_load_textual():
    assert "textual" not in loaded_after_import("wilson.agent.loop")


def test_the_tui_does_not_load_litellm():
    if importlib.util.find_spec("wilson.tui") is None or not (ROOT / "wilson" / "tui" / "__init__.py").exists():
        pytest.skip("the TUI is not written yet")
    assert "litellm" not in loaded_after_import("wilson.tui")


def test_import_contracts_pass():
    lint = shutil.which("lint-imports")
    if lint is None:
        pytest.skip("import-linter is not installed")
    done = subprocess.run([lint], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
