"""Shared test set-up: every test gets its own data directory and no network, no API keys."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest_plugins = ["scripted_llm"]

FIXTURES = Path(__file__).parent / "fixtures"

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")


@pytest.fixture(autouse=True)
def wilson_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty, private data directory per test, and no real provider keys or endpoints."""
    home = tmp_path / "wilson-home"
    monkeypatch.setenv("WILSON_HOME", str(home))
    for name in list(os.environ):
        if name.endswith(("_API_KEY", "_API_BASE", "_BASE_URL")) or name == "WILSON_MODEL":
            monkeypatch.delenv(name, raising=False)
    return home


@pytest.fixture
def fixture_path() -> "callable":
    def find(name: str) -> Path:
        path = FIXTURES / name
        assert path.exists(), f"missing fixture {name}"
        return path

    return find
