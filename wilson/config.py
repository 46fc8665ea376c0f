"""Wilson's settings: which model to use, what to fall back to, and how far one turn may run.

Precedence for the model is `--model`, then `$WILSON_MODEL`, then `model` in `config.toml` in the
data directory, then a cheap capable default. The file is optional; every key in it is optional.
Errors in it are reported as one line naming the file (and the line and column when TOML itself
is malformed) so the user can fix it without reading a traceback.
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wilson.paths import data_dir

DEFAULT_MODEL = "gpt-4o-mini"
CONFIG_FILE = "config.toml"


class ConfigError(ValueError):
    """config.toml is malformed or holds a value of the wrong type; the message is one line."""


@dataclass(frozen=True)
class Config:
    model: str = DEFAULT_MODEL
    fallbacks: tuple[str, ...] = ()
    max_iterations: int = 10
    token_budget: int = 100_000


def config_path() -> Path:
    return data_dir(create=False) / CONFIG_FILE


def load_config(model: str | None = None) -> Config:
    """The effective settings; `model` is the `--model` option when the user gave one."""
    path = config_path()
    table = _read(path)
    defaults = Config()
    chosen = (
        _clean(model)
        or _clean(os.environ.get("WILSON_MODEL"))
        or _clean(_typed(path, table, "model", str, ""))
        or defaults.model
    )
    fallbacks = _typed(path, table, "fallbacks", list, [])
    if not all(isinstance(name, str) and name.strip() for name in fallbacks):
        raise ConfigError(f"{path}: 'fallbacks' must be a list of model names")
    return Config(
        model=chosen,
        fallbacks=tuple(name.strip() for name in fallbacks),
        max_iterations=_positive(path, table, "max_iterations", defaults.max_iterations),
        token_budget=_positive(path, table, "token_budget", defaults.token_budget),
    )


def _read(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read: {exc}") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(_describe(path, exc)) from None


def _describe(path: Path, exc: tomllib.TOMLDecodeError) -> str:
    """'<file>:<line>:<col>: <problem>' (Python 3.11's tomllib puts the position in the text only)."""
    text = str(exc)
    where = re.search(r"\(at line (\d+), column (\d+)\)", text)
    problem = re.sub(r"\s*\(at (?:line \d+, column \d+|end of document)\)", "", text)
    if where:
        return f"{path}:{where.group(1)}:{where.group(2)}: invalid TOML: {problem}"
    return f"{path}: invalid TOML at end of file: {problem}"


def _typed(path: Path, table: dict[str, Any], key: str, kind: type, default: Any) -> Any:
    value = table.get(key, default)
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise ConfigError(f"{path}: '{key}' must be {_KIND_NAMES[kind]}, not {value!r}")
    return value


def _positive(path: Path, table: dict[str, Any], key: str, default: int) -> int:
    value = _typed(path, table, key, int, default)
    if value <= 0:
        raise ConfigError(f"{path}: '{key}' must be a positive integer, not {value}")
    return value


def _clean(value: str | None) -> str | None:
    return value.strip() if value and value.strip() else None


_KIND_NAMES = {str: "a string", list: "a list", int: "an integer"}
