"""Dates are calendar dates: the date-sensitive tool tests must pass in any timezone.

They run again here in a subprocess under a timezone far ahead of UTC and one far behind it, so a
conversion that moves a date across midnight or a month edge fails CI, not a user in Auckland.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

DATE_SENSITIVE = ("test_reports.py", "test_budgets_balances.py", "test_recurring.py", "test_affordability.py")


@pytest.mark.parametrize("zone", ["Pacific/Auckland", "America/Los_Angeles"])
def test_date_sensitive_tools_pass_in_timezone(zone: str, tmp_path: Path) -> None:
    here = Path(__file__).parent
    env = dict(os.environ, TZ=zone, WILSON_HOME=str(tmp_path / "home"))
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
         *(str(here / name) for name in DATE_SENSITIVE)],
        env=env, capture_output=True, text=True, cwd=here.parent.parent,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
