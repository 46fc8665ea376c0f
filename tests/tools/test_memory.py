"""remember / recall / forget, and what the system prompt carries."""

from __future__ import annotations

import pytest

from tests.tools.books import Books
from wilson.ledger.memory import looks_like_balance
from wilson.tools import REGISTRY
from wilson.tools.memory import memory_for_prompt


@pytest.fixture
def books(tmp_path) -> Books:
    return Books(tmp_path / "w.db")


def test_remember_recall_forget(books):
    goal = books.run("remember", note="Save 5,000 for a car by December", kind="goal")["remembered"]
    books.run("remember", note="Rent is split with Sam", kind="commitment")
    books.run("remember", note="Don't count the business card in spending", kind="preference")
    assert books.run("remember", note="save 5,000 for a car  by december", kind="goal")["already_known"]
    everything = books.run("recall")
    assert everything["count"] == 3 and everything["covered"]["memories"] == 3
    assert [m["id"] for m in books.run("recall", query="car december")["memories"]] == [goal["id"]]
    assert books.run("recall", query="100%_")["count"] == 0
    assert books.run("recall", kind="commitment")["memories"][0]["content"] == "Rent is split with Sam"
    assert books.run("recall", limit=1)["truncated"]
    assert books.run("forget", memory_id=goal["id"])["forgotten"]["kind"] == "goal"
    assert books.run("forget", memory_id=goal["id"])["error"]["type"] == "not_found"
    assert books.run("recall")["count"] == 2


@pytest.mark.parametrize("note", [
    "My checking balance is $4,210.55", "I have 3000 EUR in savings", "balance: 1200 dollars", "There's £250 available",
])
def test_balances_are_refused(books, note):
    assert looks_like_balance(note)
    assert books.run("remember", note=note)["error"]["type"] == "refused"
    assert books.ledger.scalar("SELECT COUNT(*) FROM memory") == 0


@pytest.mark.parametrize("note", ["Save 200 a month for the holiday", "Pay Sam back 50 every month", "Budget 400 for groceries"])
def test_goals_with_numbers_are_fine(note):
    assert not looks_like_balance(note)


def test_bad_input(books):
    assert books.run("remember", note="   ")["error"]["type"] == "validation"
    assert books.run("remember", note="x" * 2000)["error"]["type"] == "validation"
    assert books.run("remember", note="x", kind="secret")["error"]["type"] == "validation"
    text = "'); DELETE FROM memory; --"
    books.run("remember", note="keep me")
    books.run("remember", note=text)
    assert books.run("recall", query="DELETE FROM")["memories"][0]["content"] == text
    assert books.run("recall")["count"] == 2


def test_prompt_memory_puts_goals_first(books):
    books.run("remember", note="likes short answers", kind="preference")
    books.run("remember", note="a note")
    books.run("remember", note="pay off the card", kind="goal")
    assert [m["kind"] for m in memory_for_prompt(books.ledger)] == ["goal", "preference", "note"]


def test_flags():
    assert REGISTRY["remember"].changes_data and REGISTRY["forget"].changes_data
    assert REGISTRY["recall"].read_only
