"""Every tool is registered before any test in this folder asks the registry about one."""

import pytest

from tests.tools.books import Books
from wilson.tools import load_tools

load_tools()


@pytest.fixture
def books(tmp_path) -> Books:
    """One checking account; modules that need more accounts define their own `books`."""
    b = Books(tmp_path / "w.db")
    b.account("Checking")
    return b
