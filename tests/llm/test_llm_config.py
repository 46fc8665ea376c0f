"""Model precedence and config.toml parsing, including one-line errors for a broken file."""

from __future__ import annotations

from pathlib import Path

import pytest

from wilson.config import DEFAULT_MODEL, Config, ConfigError, load_config


def write_config(home: Path, text: str) -> Path:
    home.mkdir(parents=True, exist_ok=True)
    path = home / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults_without_a_file(wilson_home):
    assert load_config() == Config(model=DEFAULT_MODEL, fallbacks=(), max_iterations=10, token_budget=100_000)


def test_file_values(wilson_home):
    write_config(wilson_home, 'model = "claude-sonnet-4-5"\nfallbacks = ["gpt-4o-mini", "ollama:llama3.1"]\n'
                              "max_iterations = 6\ntoken_budget = 50_000\n")

    config = load_config()

    assert config == Config("claude-sonnet-4-5", ("gpt-4o-mini", "ollama:llama3.1"), 6, 50_000)


def test_precedence_flag_then_environment_then_file(wilson_home, monkeypatch):
    write_config(wilson_home, 'model = "from-file"\n')
    assert load_config().model == "from-file"
    monkeypatch.setenv("WILSON_MODEL", "from-env")
    assert load_config().model == "from-env"
    assert load_config(model="from-flag").model == "from-flag"


def test_malformed_file_is_one_line_with_file_line_and_column(wilson_home):
    path = write_config(wilson_home, 'model = "gpt-4o"\nfallbacks = [\n  "a",\n  oops\n]\n')

    with pytest.raises(ConfigError) as caught:
        load_config()

    message = str(caught.value)
    assert message.startswith(f"{path}:4:3: invalid TOML")
    assert "\n" not in message


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("model = 4\n", "model"),
        ('fallbacks = "gpt-4o"\n', "fallbacks"),
        ("fallbacks = [1]\n", "fallbacks"),
        ('max_iterations = "ten"\n', "max_iterations"),
        ("max_iterations = 0\n", "max_iterations"),
        ("token_budget = true\n", "token_budget"),
    ],
)
def test_wrong_types_name_the_file_and_key(wilson_home, text, key):
    path = write_config(wilson_home, text)

    with pytest.raises(ConfigError, match=key) as caught:
        load_config()

    assert str(caught.value).startswith(str(path))


def test_loading_does_not_create_the_data_directory(wilson_home):
    load_config()
    assert not wilson_home.exists()
