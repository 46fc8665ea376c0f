"""Sessions: only the user's questions and Wilson's answers are kept, and resume in order."""

from __future__ import annotations

import pytest

from wilson.agent.sessions import MAX_TURNS, SessionNotFound, list_sessions, load_session, new_session, save_session


def test_save_load_list(ledger):
    session = new_session("gpt-4o-mini")
    session.add_turn("How much on coffee in March?", "You spent 42.10 on coffee in March.")
    save_session(ledger, session)
    session.add_turn("And April?", "38.00.")
    save_session(ledger, session)

    loaded = load_session(ledger, session.id)
    assert loaded.title == "How much on coffee in March?" and loaded.model == "gpt-4o-mini"
    assert [m["role"] for m in loaded.history()] == ["user", "assistant", "user", "assistant"]
    (row,) = list_sessions(ledger)
    assert row["id"] == session.id and row["message_count"] == 4


def test_history_replays_only_the_latest_turns(ledger):
    session = new_session()
    for n in range(MAX_TURNS + 5):
        session.add_turn(f"q{n}", f"a{n}")
    history = session.history()
    assert len(history) == 2 * MAX_TURNS and history[0]["content"] == "q5"


def test_unknown_session(ledger):
    with pytest.raises(SessionNotFound):
        load_session(ledger, "missing")
