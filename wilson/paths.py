"""Where Wilson keeps the user's data and finds its bundled resources.

The data directory is `$WILSON_HOME` when set (tests and power users point it anywhere), else the
platform's user data directory. Bundled resources (`SOUL.md`, `skills/`, `db/`) live at the top of
the source tree; a wheel carries copies inside the package under `_bundled/`.
"""

from __future__ import annotations

import os
from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent


def data_dir(create: bool = True) -> Path:
    """The user's data directory, created owner-only on first use."""
    home = os.environ.get("WILSON_HOME")
    if home:
        path = Path(home).expanduser()
    else:
        from platformdirs import user_data_dir

        path = Path(user_data_dir("wilson", appauthor=False))
    if create and not path.exists():
        path.mkdir(parents=True, mode=0o700)
    return path


def ledger_path() -> Path:
    """Where the ledger lives; opening it creates the folder (and says so in one line when it can't)."""
    return data_dir(create=False) / "wilson.db"


def resource(name: str) -> Path:
    """A bundled resource: the installed copy if present, else the source tree's."""
    bundled = _PACKAGE_DIR / "_bundled" / name
    if bundled.exists():
        return bundled
    return _PACKAGE_DIR.parent / name
