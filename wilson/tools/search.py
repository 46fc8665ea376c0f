"""search_transactions: find rows by words, account, category, dates, size and state."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Annotated

from wilson.tools.common import Period, clamp_limit, covered, money, period, start_or_first
from wilson.tools.registry import ToolContext, tool
from wilson.tools.scope import Scope, build_scope, has_splits, postings


@tool(
    description="""
    Find individual transactions. Filters combine: `query` (words matched against description and
    payee, each word as a prefix: "starb" finds STARBUCKS; one with digits anywhere in them: "1043"
    finds CHECK 1043 and REF 910432), account, category (includes its
    subcategories), start_date/end_date, min_amount/max_amount (the size of the amount, ignoring
    its sign), uncategorized_only, include_pending (pending rows are left out unless asked).
    Returns the newest rows first (at most `limit`), plus `count` and `sum` per currency over ALL
    matches, not just the rows shown. A split row lists its parts (`split`); with a category it is
    found by its parts too, and counted by the parts in that category, as spending_summary counts
    it; with uncategorized_only it is found only when its parts leave some of its amount without a
    category, and `sum` counts just that rest. A row paid in another currency shows what it was
    there (`original`: amount and currency). Use it to look up, list or check specific transactions;
    for totals by category, payee or month use spending_summary instead (it separates spending,
    income and transfers). Amounts are outflow-negative decimal strings.
    """
)
def search_transactions(
    ctx: ToolContext,
    query: Annotated[str | None, "words to find in the description or payee"] = None,
    account: Annotated[str | None, "account name"] = None,
    category: Annotated[str | None, "category name; its subcategories are included"] = None,
    start_date: Annotated[date | None, "first day, inclusive"] = None,
    end_date: Annotated[date | None, "last day, inclusive"] = None,
    min_amount: Annotated[Decimal | None, "smallest size of amount, e.g. 100 finds -150.00 and 120.00"] = None,
    max_amount: Annotated[Decimal | None, "largest size of amount"] = None,
    uncategorized_only: Annotated[bool, "only uncategorised money (of a split row, what its parts leave)"] = False,
    include_pending: Annotated[bool, "also rows not yet posted"] = False,
    limit: Annotated[int | None, "most rows to list (default 50, max 500)"] = None,
) -> dict:
    cap = clamp_limit(limit)
    span = _span(ctx, start_date, end_date)
    scope = build_scope(
        ctx.ledger, span, account=account, category=category, uncategorized_only=uncategorized_only,
        include_pending=include_pending, query=query, min_amount=min_amount, max_amount=max_amount,
    )
    split = has_splits(ctx.ledger)
    # A category (or its absence) is found in split rows' parts too, and counted by them, as
    # spending_summary counts it: a split row whose parts carry every cent is not uncategorised.
    by_parts = split and (bool(scope.category_ids) or scope.uncategorized_only)
    if by_parts:
        from_postings, params = postings(ctx.ledger, "t.id, t.posted, t.currency, t.amount", *scope.where())
        source, counted = f"({from_postings}) t", "COUNT(DISTINCT t.id)"
    else:
        where, params = scope.where(joined=True)
        source, counted = f"{scope.source()} WHERE {where}", "COUNT(*)"
    totals = ctx.ledger.query(
        f"SELECT t.currency, {counted} AS count, SUM(t.amount) AS total, MIN(t.posted) AS first, MAX(t.posted) AS last"
        f" FROM {source} GROUP BY t.currency ORDER BY t.currency",
        params,
    )
    count = sum(row["count"] for row in totals)
    rows = _page_by_parts(ctx, source, params, cap) if by_parts and count else _page(ctx, scope, count, cap)
    parts = _parts(ctx, [row["id"] for row in rows]) if split else {}
    for row in rows:
        row["amount"] = money(row["amount"], row["currency"])
        row["pending"] = bool(row["pending"])
        row["reviewed"] = bool(row["reviewed"])
        original, code = row.pop("original_amount"), row.pop("original_currency")
        if original is not None and code:  # paid abroad: what it was in the shop's currency
            row["original"] = {"amount": money(original, code), "currency": code}
        if row["id"] in parts:
            row["split"] = [dict(part, amount=money(part["amount"], row["currency"])) for part in parts[row["id"]]]
    result: dict = {
        "transactions": rows,
        "count": count,
        "sum": {row["currency"]: money(row["total"], row["currency"]) for row in totals},
        "shown": len(rows),
    }
    if by_parts and any("split" in row for row in rows):
        counted = "what its parts leave uncategorised" if scope.uncategorized_only else "its parts in the category"
        result["note"] = f"a split row counts in count and sum by {counted} (see each row's split), not its amount"
    if count > len(rows):
        result["truncated"] = f"showing the newest {len(rows)} of {count}; narrow the filters or raise limit"
    if span is None and totals:
        span_dates = (min(row["first"] for row in totals), max(row["last"] for row in totals))
        result["covered"] = covered(None, count, [row["currency"] for row in totals], **scope.filters)
        result["covered"].update(start_date=span_dates[0], end_date=span_dates[1], dates="all matching")
    else:
        result["covered"] = covered(span, count, [row["currency"] for row in totals], **scope.filters)
    return result


def _span(ctx: ToolContext, start: date | None, end: date | None) -> Period | None:
    """No dates: all history. Only an end: from the first row. Only a start: up to today."""
    if start is None and end is None:
        return None
    return period(start_or_first(ctx.ledger, start, end), end, ctx.today, default="all")


# With many hits, walking the date index newest-first and probing the hits is cheaper than sorting
# them all: expected rows walked = ledger rows x limit / hits; below this the walk is chosen.
WALK_BUDGET = 50_000


def _page(ctx: ToolContext, scope: Scope, hits: int, cap: int) -> list[dict]:
    """The newest `cap` matching rows with their names, by the cheaper of two plans."""
    if not hits:
        return []
    rows_in_ledger = ctx.ledger.scalar("SELECT MAX(id) FROM transactions") or 0
    if scope.match and rows_in_ledger * cap <= WALK_BUDGET * hits:
        where, params = scope.where()
        source = "transactions t INDEXED BY transactions_posted"
    else:
        where, params = scope.where(joined=True)
        source = scope.source()
    ids = [row["id"] for row in ctx.ledger.query(
        f"SELECT t.id FROM {source} WHERE {where} ORDER BY t.posted DESC, t.id DESC LIMIT ?", [*params, cap])]
    return _listed(ctx, ids)


def _page_by_parts(ctx: ToolContext, source: str, params: list, cap: int) -> list[dict]:
    """The newest `cap` rows with a posting in `source` (a split row once, whichever parts match)."""
    ids = [row["id"] for row in ctx.ledger.query(
        f"SELECT t.id FROM {source} GROUP BY t.id ORDER BY MAX(t.posted) DESC, t.id DESC LIMIT ?", [*params, cap])]
    return _listed(ctx, ids)


def _listed(ctx: ToolContext, ids: list[int]) -> list[dict]:
    return ctx.ledger.query(
        "SELECT t.id, t.posted AS date, t.description, t.payee, t.amount, t.currency, c.name AS category,"
        " a.name AS account, t.pending, t.reviewed, t.notes, t.original_amount, t.original_currency"
        " FROM transactions t JOIN accounts a ON a.id = t.account_id"
        f" LEFT JOIN categories c ON c.id = t.category_id WHERE t.id IN ({','.join('?' * len(ids))})"
        " ORDER BY t.posted DESC, t.id DESC",
        ids,
    )


def _parts(ctx: ToolContext, ids: list[int]) -> dict[int, list[dict]]:
    """Each listed split row's parts: category, amount in minor units, memo."""
    parts: dict[int, list[dict]] = {}
    for part in ctx.ledger.query(
        "SELECT s.transaction_id, c.name AS category, s.amount, s.memo FROM splits s LEFT JOIN categories c ON c.id = s.category_id"
        f" WHERE s.transaction_id IN ({','.join('?' * len(ids))}) ORDER BY s.id",
        ids,
    ):
        parts.setdefault(part.pop("transaction_id"), []).append(part)
    return parts
