"""Categorising transactions: the user's rules, then learned rules, then known merchants, then the model.

Each step only sees what the steps before it left, and every change records where it came from in
`category_source` (rule / learned / merchant / model), so a later correction or report can tell
a user's rule from a model's guess. A category the user set by hand is never overwritten, and rows
linked as transfers keep their transfer category.
"""

from __future__ import annotations

from collections import Counter
from datetime import date
from decimal import Decimal
from operator import itemgetter, sub
from typing import Annotated

from wilson.importers.model import per_distinct
from wilson.ledger import Ledger
from wilson.ledger.new_rows import NewRows
from wilson.ledger.rules import RuleSet
from wilson.tools.common import Period, clamp_limit, covered, money, period, resolve_account
from wilson.tools.merchants import default_category
from wilson.tools.registry import ToolContext, tool

SOURCES = ("rule", "learned", "merchant", "model")
Assignment = tuple[int, str, Decimal | None]  # category id, source, model confidence


def candidates(ctx: ToolContext, span: Period, account_id: int | None, uncategorized_only: bool) -> list[dict]:
    return ctx.ledger.query(
        """
        SELECT t.id, t.posted, t.description, t.payee, t.amount, t.currency, t.category_id
        FROM transactions t
        WHERE t.posted BETWEEN ? AND ? AND (? IS NULL OR t.account_id = ?) AND t.transfer_id IS NULL
          AND NOT EXISTS (SELECT 1 FROM splits s WHERE s.transaction_id = t.id)  -- its parts carry the categories
          AND (t.category_id IS NULL
               OR (? = 0 AND COALESCE(t.category_source, '') NOT IN ('user', 'transfer')))
        ORDER BY t.posted, t.id
        """,
        (span.start.isoformat(), span.end.isoformat(), account_id, account_id, int(uncategorized_only)),
    )


class AutoCategorizer:
    """The steps that need no model: the user's rules, then learned rules, then known merchants."""

    def __init__(self, ledger: Ledger):
        self.ids_by_name = {row["name"].casefold(): row["id"] for row in ledger.categories()}
        self.rules = RuleSet.load(ledger)

    def match(self, description: str, payee: str | None, amount: int) -> tuple[int, str] | None:
        rule = self.rules.first_match(description, payee, amount)
        if rule is not None:
            return rule.category_id, "rule" if rule.source == "user" else "learned"
        name = default_category(description, payee, amount)
        if name and name.casefold() in self.ids_by_name:
            return self.ids_by_name[name.casefold()], "merchant"
        return None

    def __call__(self, rows: NewRows) -> None:
        """Categorise rows an import is about to insert, so no second pass has to update them.

        An export repeats a few thousand payees over 100k rows, so each distinct (description, payee,
        direction) is matched once; the amount joins the key only when some rule has amount bounds.
        """
        if rows.category_id.count(None) == 0:
            return
        bounded = any(rule.min_amount is not None or rule.max_amount is not None for rule in self.rules.rules)
        # Without amount bounds only the direction matters: -1, 0 (never a merchant) or 1 (C-level
        # maps: `(0 < a) - (0 > a)` over 100k amounts).
        amounts = rows.amount if bounded else list(map(sub, map((0).__lt__, rows.amount), map((0).__gt__, rows.amount)))
        if any(rule.field != "payee" for rule in self.rules.rules):
            found = per_distinct(self._match, list(zip(rows.description, rows.payee, amounts)))
        else:
            found = self._by_payee_first(rows, amounts)
        ids, sources = list(map(itemgetter(0), found)), list(map(itemgetter(1), found))
        if rows.category_id.count(None) < len(rows) or rows.splits:  # the file's own categories stay
            kept = [own is not None for own in rows.category_id]
            for position in rows.splits:  # its parts carry the categories; one on the whole would contradict them
                kept[position] = True
            ids = [own if keep else hit for keep, own, hit in zip(kept, rows.category_id, ids)]
            sources = [own if keep else hit for keep, own, hit in zip(kept, rows.category_source, sources)]
        rows.category_id, rows.category_source = ids, sources

    def _match(self, row: tuple[str, str | None, int]) -> tuple[int | None, str | None]:
        return self.match(*row) or _NO_MATCH

    def _by_payee_first(self, rows: NewRows, amounts: list[int]) -> list[tuple[int | None, str | None]]:
        """When no rule reads the description, a row's payee decides it unless no rule or merchant
        knows the payee: a few hundred payees answer for 100k descriptions that each carry their
        own reference number. Only the rest are matched on their description, money in with its
        payee as well: whether money in from a merchant is a refund or pay may rest on a word only
        one of them has, so the payee alone never decides that (see `default_category`)."""
        found = per_distinct(self._decided_by_payee, list(zip(rows.payee, amounts)))
        undecided = [i for i, hit in enumerate(found) if hit is None]
        if undecided:
            by_text = per_distinct(self._match, [
                (rows.description[i], rows.payee[i] if amounts[i] > 0 else None, amounts[i]) for i in undecided
            ])
            for i, hit in zip(undecided, by_text):
                found[i] = hit
        return found

    def _decided_by_payee(self, key: tuple[str | None, int]) -> tuple[int | None, str | None] | None:
        payee, amount = key
        return self.match(None, payee, amount) or (_NO_MATCH if amount == 0 else None)


_NO_MATCH = (None, None)


def plan(ctx: ToolContext, rows: list[dict], use_model: bool) -> tuple[dict[int, Assignment], dict]:
    """What each row would become (id -> category id, source, confidence) and a report on the model step."""
    auto = AutoCategorizer(ctx.ledger)
    planned: dict[int, Assignment] = {}
    left = []
    for row in rows:
        found = auto.match(row["description"], row["payee"], row["amount"])
        if found:
            planned[row["id"]] = (*found, None)
        elif row["category_id"] is None:
            left.append(row)
    by_model, report = _model_step(ctx, left, use_model, auto.ids_by_name)
    return planned | by_model, report


def _model_step(
    ctx: ToolContext, rows: list[dict], use_model: bool, ids_by_name: dict[str, int]
) -> tuple[dict[int, Assignment], dict]:
    report: dict = {"used": False, "rows_sent": 0}
    if not rows:
        return {}, report
    if not use_model:
        report["note"] = f"{len(rows)} row(s) matched no rule or merchant; use_model was off"
        return {}, report
    if not ctx.model:
        report["note"] = f"{len(rows)} row(s) matched no rule or merchant and no model is configured"
        return {}, report
    from wilson.tools.classify import MAX_MODEL_ROWS, classify  # asyncio and friends: off an import's path
    sent = rows[:MAX_MODEL_ROWS]
    names = [row["name"] for row in ctx.ledger.categories()]
    outcome = classify(ctx.model, sent, names)
    report.update(used=True, rows_sent=len(sent), accepted=len(outcome.assigned), low_confidence=outcome.low_confidence)
    if len(rows) > len(sent):
        report["not_sent"] = len(rows) - len(sent)
        report["note"] = f"only the first {MAX_MODEL_ROWS} rows go to the model per call; run again for the rest"
    if outcome.problems:
        report["problems"] = outcome.problems
    assigned = {rid: (ids_by_name[name.casefold()], "model", conf) for rid, (name, conf) in outcome.assigned.items()}
    return assigned, report


def apply_plan(ctx: ToolContext, planned: dict[int, Assignment]) -> None:
    """Write the plan in one transaction, one UPDATE per (category, source)."""
    groups: dict[tuple[int, str], list[int]] = {}
    for row_id, (category_id, source, _) in planned.items():
        groups.setdefault((category_id, source), []).append(row_id)
    with ctx.ledger.write():
        for (category_id, source), ids in groups.items():
            ctx.ledger.update_transactions(ids, category_id=category_id, category_source=source)


@tool(
    description="""
    Assign categories to transactions automatically: the user's rules first, then rules learned
    from the user's corrections, then a built-in table of well-known merchants, then (optionally)
    the model for what is left, accepting only confident answers. Use it after an import or when
    the user asks to categorise or clean up uncategorised transactions. Run with dry_run=true
    first to show the plan when the user wants to review. It never overwrites a category the
    user set by hand. To fix one transaction's category use update_transaction instead; to add a
    standing rule use manage_rules.
    """,
    changes_data=True,
)
def categorize_transactions(
    ctx: ToolContext,
    start_date: Annotated[date | None, "first day to include; omit for all history"] = None,
    end_date: Annotated[date | None, "last day to include (inclusive); omit for up to today"] = None,
    account: Annotated[str | None, "only this account"] = None,
    uncategorized_only: Annotated[bool, "true: only rows without a category; false: also redo automatic ones"] = True,
    dry_run: Annotated[bool, "return the plan without writing anything"] = False,
    use_model: Annotated[bool, "ask the model about rows no rule or merchant matched"] = True,
    limit: Annotated[int | None, "how many example rows to show in the result"] = None,
) -> dict:
    shown = clamp_limit(limit)
    account_row = resolve_account(ctx.ledger, account) if account else None
    span = span_for(ctx, start_date, end_date)
    rows = candidates(ctx, span, account_row["id"] if account_row else None, uncategorized_only)
    planned, model_report = plan(ctx, rows, use_model)
    current = {row["id"]: row["category_id"] for row in rows}
    planned = {rid: a for rid, a in planned.items() if a[0] != current[rid]}
    if not dry_run:
        apply_plan(ctx, planned)
    names = {row["id"]: row["name"] for row in ctx.ledger.categories()}
    by_category = Counter(names[a[0]] for a in planned.values())
    still_empty = sum(1 for row in rows if row["category_id"] is None and row["id"] not in planned)
    currencies = sorted({row["currency"] for row in rows})
    return {
        "dry_run": dry_run,
        "examined": len(rows),
        "categorized": len(planned),  # with dry_run: how many would be
        "by_source": {source: sum(1 for a in planned.values() if a[1] == source) for source in SOURCES},
        "by_category": dict(by_category.most_common()),
        "left_uncategorized": still_empty,
        "model": model_report,
        "sample": [_sample(row, planned[row["id"]], names) for row in rows if row["id"] in planned][:shown],
        "covered": covered(span, len(rows), currencies, account=account_row["name"] if account_row else None,
                           uncategorized_only=uncategorized_only),
    }


def span_for(ctx: ToolContext, start: date | None, end: date | None) -> Period:
    """The given dates, defaulting to all of the ledger's history up to today."""
    first = ctx.ledger.scalar("SELECT MIN(posted) FROM transactions")
    return period(start or (date.fromisoformat(first) if first else ctx.today), end, ctx.today, default="all")


def _sample(row: dict, assignment: Assignment, names: dict[int, str]) -> dict:
    category_id, source, confidence = assignment
    item = {
        "id": row["id"], "date": row["posted"], "description": row["description"], "payee": row["payee"],
        "amount": money(row["amount"], row["currency"]), "currency": row["currency"],
        "category": names[category_id], "source": source,
    }
    if confidence is not None:
        item["confidence"] = str(confidence)
    return item
