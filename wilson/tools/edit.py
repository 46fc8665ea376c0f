"""Editing and deleting transactions by id.

A category the user sets by hand is a lesson: it becomes (or strengthens) a learned rule on the
payee, so the next import from that payee is categorised the same way without asking anyone.
"""

from __future__ import annotations

from typing import Annotated

from wilson.ledger.rules import MAX_PATTERN, RuleSet, learn
from wilson.tools.common import DEFAULT_LIMIT, money, resolve_category
from wilson.tools.registry import ToolContext, ToolError, tool

MAX_IDS = 5000


def _rows(ctx: ToolContext, ids: list[int]) -> list[dict]:
    """The transactions with these ids; every id must exist, so a typo changes nothing."""
    wanted = list(dict.fromkeys(ids))
    if not wanted:
        raise ToolError("give at least one transaction id")
    if len(wanted) > MAX_IDS:
        raise ToolError(f"at most {MAX_IDS} ids per call")
    rows: list[dict] = []
    for start in range(0, len(wanted), 500):
        chunk = wanted[start : start + 500]
        rows += ctx.ledger.query(
            "SELECT t.*, a.name AS account, c.name AS category FROM transactions t"
            " JOIN accounts a ON a.id = t.account_id LEFT JOIN categories c ON c.id = t.category_id"
            f" WHERE t.id IN ({','.join('?' * len(chunk))})",
            chunk,
        )
    missing = sorted(set(wanted) - {row["id"] for row in rows})
    if missing:
        raise ToolError(
            f"no transaction with id {', '.join(map(str, missing[:10]))}{' …' if len(missing) > 10 else ''}",
            kind="not_found", missing=missing[:50],
        )
    return rows


def _brief(row: dict) -> dict:
    return {
        "id": row["id"], "date": row["posted"], "account": row["account"], "description": row["description"],
        "payee": row["payee"], "amount": money(row["amount"], row["currency"]), "currency": row["currency"],
        "category": row["category"], "notes": row["notes"], "reviewed": bool(row["reviewed"]),
    }


@tool(
    description="""
    Change one or many transactions by id: category, payee, notes, reviewed flag. Use it when the
    user corrects a category, renames a payee, adds a note or marks rows reviewed. Only the
    fields you pass change; pass an empty string to clear a category or notes. Setting a
    category teaches Wilson: a learned rule on the payee makes future transactions from that
    payee get the same category (the result says which). A row linked as one leg of a transfer
    between the user's own accounts counts as a transfer in every report, so it takes only a
    transfer category. Get ids from the search tools first; for many rows by pattern, prefer
    manage_rules.
    """,
    changes_data=True,
)
def update_transaction(
    ctx: ToolContext,
    ids: Annotated[list[int], "the transaction ids to change"],
    category: Annotated[str | None, "new category name; empty string clears it"] = None,
    payee: Annotated[str | None, "new payee name"] = None,
    notes: Annotated[str | None, "new notes; empty string clears them"] = None,
    reviewed: Annotated[bool | None, "mark as reviewed (true) or not (false)"] = None,
) -> dict:
    if category is None and payee is None and notes is None and reviewed is None:
        raise ToolError("nothing to change: give category, payee, notes or reviewed")
    if payee is not None and not payee.strip():
        raise ToolError("payee cannot be empty")
    rows = _rows(ctx, ids)
    category_row = resolve_category(ctx.ledger, category) if category else None
    if category_row:
        _refuse_linked_legs(rows, category_row)
    changes: dict = {}
    if category is not None:
        changes["category_id"] = category_row["id"] if category_row else None
    if payee is not None:
        changes["payee"] = " ".join(payee.split())
    if notes is not None:
        changes["notes"] = notes.strip() or None
    if reviewed is not None:
        changes["reviewed"] = reviewed
    row_ids = [row["id"] for row in rows]
    learned = []
    with ctx.ledger.write():
        changed = ctx.ledger.update_transactions(row_ids, category_source="user", **changes)
        if category_row:
            by_payee = {changes.get("payee") or row["payee"]: row for row in rows if changes.get("payee") or row["payee"]}
            learned = [item for item in (_learn(ctx, row, p, category_row) for p, row in sorted(by_payee.items())) if item]
    result: dict = {
        "updated": changed,
        "transactions": [_brief(row) for row in _rows(ctx, row_ids[:DEFAULT_LIMIT])],
        "truncated": len(row_ids) > DEFAULT_LIMIT,
    }
    notes = [item["message"] for item in learned]
    if learned:
        result["learned"] = learned
    if category is not None:
        notes += _split_notes(ctx, row_ids)
    if notes:
        result["note"] = "; ".join(notes)
    return result


def _refuse_linked_legs(rows: list[dict], category: dict) -> None:
    """A row linked to its other leg is a transfer in every report whatever its category (FLOW_SQL).
    A spending or income category on it would count nowhere, yet search by that category would list
    it (and the rule learned from it would categorise the next payment): refused, changing nothing."""
    linked = [row["id"] for row in rows if row["transfer_id"] is not None]
    if not linked or category["kind"] == "transfer":
        return
    shown = ", ".join(map(str, linked[:10])) + (" …" if len(linked) > 10 else "")
    one = len(linked) == 1
    raise ToolError(
        f"transaction {shown} {'is a linked leg' if one else 'are linked legs'} of a transfer between the user's own"
        f" accounts: reports count {'it' if one else 'them'} as a transfer whatever the category, so {category['name']}"
        " would not count in spending or income; nothing was changed. Leave out these ids, or use a transfer category",
        kind="linked_transfer", ids=linked[:50],
    )


def _split_notes(ctx: ToolContext, ids: list[int]) -> list[str]:
    """A split transaction's parts keep their own categories (reports count the parts): a category
    set on the whole covers only what the parts leave, which the user must be told."""
    parts: dict[int, list[str]] = {}
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        for transaction_id, name in ctx.ledger.conn.execute(
            "SELECT s.transaction_id, IFNULL(c.name, 'uncategorised') FROM splits s LEFT JOIN categories c ON c.id = s.category_id"
            f" WHERE s.transaction_id IN ({','.join('?' * len(chunk))}) ORDER BY s.id",
            chunk,
        ):
            parts.setdefault(transaction_id, []).append(name)
    return [
        f"transaction {transaction_id} is split ({', '.join(dict.fromkeys(names))}): its parts keep their categories,"
        " and reports count them; the new category covers only what they leave of the amount"
        for transaction_id, names in parts.items()
    ]


def _learn(ctx: ToolContext, row: dict, payee: str, category: dict) -> dict | None:
    """Learn from the correction, and say honestly whether a user rule would still win."""
    if len(payee) > MAX_PATTERN - 10:
        return None
    outcome = learn(ctx.ledger, payee, category["id"])
    item = {"payee": payee, "category": category["name"], **outcome}
    first = RuleSet.load(ctx.ledger).first_match(row["description"], payee, row["amount"])
    if first is not None and first.category_id != category["id"]:
        item["message"] = (f"{outcome['action']} a rule for {payee!r} → {category['name']}, but your rule "
                           f"#{first.id} ({first.pattern!r} → {first.category}) matches first; change or remove it "
                           "with manage_rules to make this stick")
    else:
        item["message"] = (f"{outcome['action']} a rule (strength {outcome['strength']}): future transactions from "
                           f"{payee!r} will be categorised as {category['name']}")
    return item


@tool(
    description="""
    Delete transactions by id, for rows that should not be in the ledger at all (a duplicate the
    import missed, a test entry). The user must approve. Not for undoing a whole import, and not
    for fixing a wrong category or amount split: use update_transaction for corrections.
    """,
    changes_data=True,
    needs_approval=True,
)
def delete_transaction(ctx: ToolContext, ids: Annotated[list[int], "the transaction ids to delete"]) -> dict:
    rows = _rows(ctx, ids)
    deleted = ctx.ledger.delete_transactions([row["id"] for row in rows])
    return {
        "deleted": deleted,
        "transactions": [_brief(row) for row in rows[:DEFAULT_LIMIT]],
        "truncated": len(rows) > DEFAULT_LIMIT,
    }
