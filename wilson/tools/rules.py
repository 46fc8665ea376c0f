"""The rules tool: list, add, remove and apply categorisation rules.

Matching itself lives in `wilson.ledger.rules.RuleSet` (shared with categorise and learning), and
applying reuses categorise's candidate selection and writer, so "apply" and "categorise without
the merchant table or model" can never disagree.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Literal

from wilson.ledger.rules import RuleError, RuleSet, add_rule, remove_rule
from wilson.tools.categorize import apply_plan, candidates, span_for
from wilson.tools.common import clamp_limit, covered, home_currency, resolve_category, to_minor_units
from wilson.tools.registry import ToolContext, ToolError, tool


@tool(
    description="""
    Manage categorisation rules. action="list" shows them (user rules, then rules learned from
    corrections). action="add" stores a rule: transactions whose description/payee contains the
    pattern (or matches it, with match_type="regex"), optionally within an amount range (the size
    of the amount, in the main currency), get the category. action="remove" deletes rule_id.
    action="apply" runs all rules over uncategorised transactions now (all automatically
    categorised ones too with include_categorized=true; hand-set categories are never touched);
    use dry_run=true to preview counts. Use it when the user says "always put X in Y". For a
    one-off fix use update_transaction.
    """,
    changes_data=True,
)
def manage_rules(
    ctx: ToolContext,
    action: Annotated[Literal["list", "add", "remove", "apply"], "what to do"],
    pattern: Annotated[str | None, "add: the text to look for (or a regular expression)"] = None,
    match_type: Annotated[Literal["contains", "regex"], "add: how the pattern matches"] = "contains",
    field: Annotated[Literal["description", "payee", "any"], "add: which text the pattern looks at"] = "any",
    min_amount: Annotated[Decimal | None, "add: only amounts at least this large (absolute)"] = None,
    max_amount: Annotated[Decimal | None, "add: only amounts at most this large (absolute)"] = None,
    category: Annotated[str | None, "add: the category to assign"] = None,
    rule_id: Annotated[int | None, "remove: the rule's id (from list)"] = None,
    dry_run: Annotated[bool, "apply: count what would change without writing"] = False,
    include_categorized: Annotated[bool, "apply: also re-categorise rows categorised automatically"] = False,
    limit: Annotated[int | None, "list: at most this many rules"] = None,
) -> dict:
    if action == "list":
        return _list(ctx, clamp_limit(limit))
    if action == "add":
        return _add(ctx, pattern, match_type, field, min_amount, max_amount, category)
    if action == "remove":
        if rule_id is None:
            raise ToolError("remove needs rule_id (see action=list)")
        removed = remove_rule(ctx.ledger, rule_id)
        if removed is None:
            raise ToolError(f"there is no rule {rule_id}", kind="not_found")
        return {"removed": {k: removed[k] for k in ("id", "pattern", "match_type", "field", "category", "source")}}
    return _apply(ctx, dry_run, include_categorized)


def _list(ctx: ToolContext, limit: int) -> dict:
    rules = RuleSet.load(ctx.ledger).rules
    return {
        "rules": [rule.as_dict() for rule in rules[:limit]],
        "count": len(rules),
        "by_source": {s: sum(1 for r in rules if r.source == s) for s in ("user", "learned")},
        "amount_currency": home_currency(ctx.ledger),
        "truncated": len(rules) > limit,
    }


def _add(
    ctx: ToolContext, pattern: str | None, match_type: str, field: str,
    min_amount: Decimal | None, max_amount: Decimal | None, category: str | None,
) -> dict:
    if not pattern or not category:
        raise ToolError("add needs a pattern and a category")
    currency = home_currency(ctx.ledger)
    bounds = [None if a is None else abs(to_minor_units(a, currency, name)) for a, name in
              ((min_amount, "min_amount"), (max_amount, "max_amount"))]
    category_row = resolve_category(ctx.ledger, category)
    try:
        new_id = add_rule(ctx.ledger, pattern, category_row["id"], match_type=match_type, field=field,
                          min_amount=bounds[0], max_amount=bounds[1])
    except RuleError as exc:
        raise ToolError(str(exc), kind="invalid_rule", pattern=pattern[:80]) from None
    rule = next(r for r in RuleSet.load(ctx.ledger).rules if r.id == new_id)
    waiting = candidates(ctx, span_for(ctx, None, None), None, True)
    would = sum(1 for row in waiting if rule.matches(row["description"], row["payee"], row["amount"]))
    return {
        "added": rule.as_dict(),
        "amount_currency": currency,
        "matches_uncategorized_now": would,
        "note": "run manage_rules with action=apply (or categorize_transactions) to categorise the matching rows"
        if would else "no uncategorised rows match it yet; categorize_transactions will use it for new ones",
    }


def _apply(ctx: ToolContext, dry_run: bool, include_categorized: bool) -> dict:
    rules = RuleSet.load(ctx.ledger)
    span = span_for(ctx, None, None)
    rows = candidates(ctx, span, None, not include_categorized)
    planned, by_rule = {}, {}
    for row in rows:
        rule = rules.first_match(row["description"], row["payee"], row["amount"])
        if rule is None or rule.category_id == row["category_id"]:
            continue
        planned[row["id"]] = (rule.category_id, "rule" if rule.source == "user" else "learned", None)
        by_rule[rule.id] = by_rule.get(rule.id, 0) + 1
    if not dry_run:
        apply_plan(ctx, planned)
    return {
        "dry_run": dry_run,
        "examined": len(rows),
        "categorized": len(planned),
        "by_rule": [{"rule_id": rid, "rows": n} for rid, n in sorted(by_rule.items(), key=lambda kv: -kv[1])],
        "rules": len(rules),
        "covered": covered(span, len(rows), None, include_categorized=include_categorized),
    }
