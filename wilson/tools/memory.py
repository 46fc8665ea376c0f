"""Memory tools: what the user wants Wilson to keep in mind from one session to the next."""

from __future__ import annotations

from typing import Annotated, Literal

from wilson.ledger import LedgerError, Ledger
from wilson.ledger import memory as store
from wilson.tools.common import clamp_limit
from wilson.tools.registry import ToolContext, ToolError, tool

Kind = Literal["note", "goal", "commitment", "preference"]
PROMPT_MEMORIES = 40


def _public(row: dict) -> dict:
    return {"id": row["id"], "kind": row["kind"], "content": row["content"], "created_at": row["created_at"]}


@tool(
    description="""
    Remember something the user wants kept across sessions: a goal ("save 5,000 for a car by
    December"), a commitment ("I pay Sam back 50 a month"), a preference ("don't count the
    business card in my spending") or a note. Use it only when the user asks you to remember
    something or states a lasting goal or preference. Never store balances, totals or other
    figures read from the ledger: they go stale, and you must always read them fresh with the
    tools (notes that look like a current balance are refused).
    """,
    changes_data=True,
)
def remember(
    ctx: ToolContext,
    note: Annotated[str, "what to remember, in one or two plain sentences"],
    kind: Annotated[Kind, "note, goal, commitment or preference"] = "note",
) -> dict:
    if store.looks_like_balance(note):
        raise ToolError(
            "that looks like a current balance; balances are always read from the ledger, never remembered",
            kind="refused",
        )
    try:
        row = store.add(ctx.ledger, note, kind)
    except LedgerError as exc:
        raise ToolError(str(exc)) from None
    return {"remembered": _public(row), "already_known": bool(row.get("already_known"))}


@tool(
    description="""
    Look up what the user asked Wilson to remember (goals, commitments, preferences, notes).
    Give words to search for, or leave query empty to list everything (newest first). Use it when
    the user refers to something from an earlier session. Not for transactions: use the search
    tools for those.
    """,
)
def recall(
    ctx: ToolContext,
    query: Annotated[str | None, "words that must all appear in the memory; empty lists all"] = None,
    kind: Annotated[Kind | None, "only this kind of memory"] = None,
    limit: Annotated[int | None, "at most this many memories in the list"] = None,
) -> dict:
    found = store.search(ctx.ledger, query, kind)
    shown = found[: clamp_limit(limit)]
    return {
        "memories": [_public(row) for row in shown],
        "count": len(found),
        "truncated": len(found) > len(shown),
        "covered": {"memories": len(found), "filters": {k: v for k, v in {"query": query, "kind": kind}.items() if v}},
    }


@tool(
    description="""
    Forget one memory by its id (ids come from recall). Use it when the user says a goal is done,
    a commitment has ended or a note is wrong.
    """,
    changes_data=True,
)
def forget(ctx: ToolContext, memory_id: Annotated[int, "the id of the memory, from recall"]) -> dict:
    row = store.forget(ctx.ledger, memory_id)
    if row is None:
        raise ToolError(f"there is no memory {memory_id}", kind="not_found")
    return {"forgotten": _public(row)}


def memory_for_prompt(ledger: Ledger) -> list[dict]:
    """The memories the system prompt carries: goals and commitments first, then the newest."""
    rows = store.search(ledger)
    order = {"goal": 0, "commitment": 1, "preference": 2, "note": 3}
    rows.sort(key=lambda row: order[row["kind"]])
    return [{"id": r["id"], "kind": r["kind"], "content": r["content"]} for r in rows[:PROMPT_MEMORIES]]
