"""Which transactions a question is about, and their totals by flow: shared by search and reports.

One `Scope` turns the common arguments (period, account, category with its children, free text,
amount range, uncategorised, pending) into SQL, so `search_transactions` and `spending_summary`
can never disagree about what "Food in March on the Visa" means.

`flow_totals` groups a scope by a key (category, month, account, payee) and flow (`FLOW_SQL`). For
whole months it reads the trigger-maintained `monthly_flows` aggregate (db/003) and only the
partial months at the edges from the rows, so a year of a million-row ledger costs a few hundred
aggregate rows instead of a hundred thousand row reads. Both count postings (db/009): a split
transaction's parts under their own categories and the rest under the transaction's. A count of
transactions subtracts `recounted`: the postings beyond the first that a split transaction added.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_UP, Decimal
from typing import Callable, Hashable, Iterable

from wilson.ledger import Ledger
from wilson.ledger.db import folded
from wilson.money import exponent
from wilson.tools.common import FLOW_SQL, Period, add_months, month_end, month_start, resolve_account, resolve_category
from wilson.tools.registry import ToolError

_WORD_RE = re.compile(r"[^\W_]+")  # letters and digits: the index splits words at `_` too
# A text holding a word without regard to case or accents, as the full-text index finds words: LIKE
# ignores the case of ASCII letters at C speed; only a text with other characters (its UTF-8 longer
# than its letters) is folded row by row in Python (`wilson.ledger.db.folded`), at many times the cost.
_CONTAINS = (
    "({column} LIKE ? ESCAPE '\\' OR (length({column}) != length(CAST({column} AS BLOB)) AND instr(folded({column}), ?)))"
)
_LIKE_SPECIALS = re.compile(r"[%_\\]")
_DIGITS_RE = re.compile(r"\d+")

# The raw-row expression and the aggregate column for each grouping key.
_KEYS = {
    "category": ("t.category_id", "t.category_id"),
    "month": ("substr(t.posted, 1, 7)", "t.month"),
    "account": ("t.account_id", "t.account_id"),
    "payee": ("COALESCE(NULLIF(t.payee, ''), t.description)", None),
}


def text_terms(text: str) -> tuple[str | None, tuple[str, ...]]:
    """User text as a safe FTS5 expression, each word's letters a quoted prefix term, all required;
    and the words that hold digits, which the index leaves out (db/013) and rows must contain.

    Only runs of letters and digits survive, so quotes, `*`, `NEAR`, `OR`, column filters and SQL
    punctuation can neither break the MATCH syntax nor change its meaning.
    """
    words = _WORD_RE.findall(text)
    if not words:
        raise ToolError(f"query {text!r} has no words to search for")
    letters = [run for word in words for run in _DIGITS_RE.split(word) if run]
    numbered = tuple(dict.fromkeys(word for word in words if _DIGITS_RE.search(word)))
    return (" ".join(f'"{run}"*' for run in letters) or None), numbered


@dataclass(frozen=True)
class Scope:
    period: Period | None = None
    account_ids: tuple[int, ...] = ()
    category_ids: tuple[int, ...] = ()
    uncategorized_only: bool = False
    include_pending: bool = False
    match: str | None = None
    numbered: tuple[str, ...] = ()  # words holding digits, found by substring (see `text_terms`)
    # (currency, lowest magnitude, highest magnitude) in minor units; None leaves a side open.
    amount_ranges: tuple[tuple[str, int | None, int | None], ...] = ()
    filters: dict = field(default_factory=dict, compare=False)

    @property
    def row_level_only(self) -> bool:
        """Filters the monthly aggregate cannot answer."""
        return bool(self.match or self.numbered or self.amount_ranges or self.include_pending)

    def source(self) -> str:
        """FROM clause for `where(joined=True)`: with words, drive from the FTS hits into a covering
        index (db/003), so counting tens of thousands of hits never reads the wide table rows."""
        if self.match:
            return "transactions_fts JOIN transactions t INDEXED BY transactions_search ON t.id = transactions_fts.rowid"
        return "transactions t"

    def where(self, start: date | None = None, end: date | None = None, joined: bool = False) -> tuple[str, list]:
        """WHERE conditions over rows aliased `t` (dates default to the period); `joined` when the
        query reads from `source()`, else words are matched through a subquery."""
        clauses, params = self._shared()
        start = start or (self.period.start if self.period else None)
        end = end or (self.period.end if self.period else None)
        if start:
            clauses.append("t.posted >= ?")
            params.append(start.isoformat())
        if end:
            clauses.append("t.posted <= ?")
            params.append(end.isoformat())
        if not self.include_pending:
            clauses.append("t.pending = 0")
        if self.match:
            clauses.append("transactions_fts MATCH ?" if joined else
                           "t.id IN (SELECT rowid FROM transactions_fts WHERE transactions_fts MATCH ?)")
            params.append(self.match)
        for word in self.numbered:
            clauses.append(f"({_CONTAINS.format(column='t.description')} OR {_CONTAINS.format(column='t.payee')})")
            key = folded(word)
            escaped = _LIKE_SPECIALS.sub(r"\\\g<0>", key)
            params += [f"%{escaped}%", key] * 2
        if self.amount_ranges:
            options = []
            for currency, low, high in self.amount_ranges:
                option = ["t.currency = ?"]
                params.append(currency)
                if low is not None:
                    option.append("abs(t.amount) >= ?")
                    params.append(low)
                if high is not None:
                    option.append("abs(t.amount) <= ?")
                    params.append(high)
                options.append("(" + " AND ".join(option) + ")")
            clauses.append("(" + " OR ".join(options) + ")")
        return " AND ".join(clauses) or "1", params

    def _shared(self) -> tuple[list[str], list]:
        """Conditions that hold for rows and aggregate rows alike (same column names)."""
        clauses: list[str] = []
        params: list = []
        if self.account_ids:
            clauses.append(f"t.account_id IN ({','.join('?' * len(self.account_ids))})")
            params += self.account_ids
        if self.category_ids:
            clauses.append(f"t.category_id IN ({','.join('?' * len(self.category_ids))})")
            params += self.category_ids
        if self.uncategorized_only:
            clauses.append("t.category_id IS NULL")
        return clauses, params


def build_scope(
    ledger: Ledger, span: Period | None, *, account: str | None = None, category: str | None = None,
    uncategorized_only: bool = False, include_pending: bool = False, query: str | None = None,
    min_amount: Decimal | None = None, max_amount: Decimal | None = None,
) -> Scope:
    """Resolve names and check arguments once, for every tool that filters transactions."""
    if category and uncategorized_only:
        raise ToolError("use either category or uncategorized_only, not both")
    account_row = resolve_account(ledger, account) if account else None
    category_row = resolve_category(ledger, category) if category else None
    ranges = _amount_ranges(ledger, account_row, min_amount, max_amount)
    filters = {
        "account": account_row["name"] if account_row else None,
        "category": category_row["name"] if category_row else None,
        "query": query.strip() if query and query.strip() else None,
        "min_amount": str(min_amount) if min_amount is not None else None,
        "max_amount": str(max_amount) if max_amount is not None else None,
        "uncategorized_only": uncategorized_only,
        "include_pending": include_pending,
    }
    match, numbered = text_terms(filters["query"]) if filters["query"] else (None, ())
    return Scope(
        period=span,
        account_ids=(account_row["id"],) if account_row else (),
        category_ids=tuple(ledger.category_with_children(category_row["id"])) if category_row else (),
        uncategorized_only=uncategorized_only,
        include_pending=include_pending,
        match=match,
        numbered=numbered,
        amount_ranges=ranges,
        filters={k: v for k, v in filters.items() if v not in (None, False)},
    )


def _amount_ranges(
    ledger: Ledger, account_row: dict | None, low: Decimal | None, high: Decimal | None
) -> tuple[tuple[str, int | None, int | None], ...]:
    """Magnitude bounds per currency in minor units.

    With an account the bounds must fit its currency exactly. Without one they must fit the
    finest currency in the ledger; coarser currencies (JPY) round the bounds inward, never outward.
    """
    if low is None and high is None:
        return ()
    for name, value in (("min_amount", low), ("max_amount", high)):
        if value is not None and value < 0:
            raise ToolError(f"{name} compares the size of an amount; give it without a sign ({-value})")
    if low is not None and high is not None and high < low:
        raise ToolError(f"max_amount {high} is below min_amount {low}")
    currencies = [account_row["currency"]] if account_row else [
        row["currency"] for row in ledger.query("SELECT DISTINCT currency FROM transactions")
    ] or ["USD"]
    finest = max(exponent(c) for c in currencies)
    for name, value in (("min_amount", low), ("max_amount", high)):
        if value is not None and value.as_tuple().exponent < -finest:
            raise ToolError(f"{name}: {value} has more than {finest} decimals")

    def minor(value: Decimal | None, currency: str, rounding: str) -> int | None:
        return None if value is None else int(value.scaleb(exponent(currency)).to_integral_value(rounding))

    return tuple(
        (c, minor(low, c, ROUND_CEILING), minor(high, c, ROUND_FLOOR)) for c in sorted(set(currencies))
    )


def _month_split(span: Period) -> tuple[tuple[str, str] | None, list[tuple[date, date]]]:
    """Whole months inside the period (as YYYY-MM bounds) and the partial edges to read row by row."""
    first = span.start if span.start.day == 1 else add_months(month_start(span.start), 1)
    last = span.end if span.end == month_end(span.end) else month_start(span.end) - timedelta(days=1)
    if first > last:
        return None, [(span.start, span.end)]
    edges = []
    if span.start < first:
        edges.append((span.start, first - timedelta(days=1)))
    if last < span.end:
        edges.append((last + timedelta(days=1), span.end))
    return (first.isoformat()[:7], last.isoformat()[:7]), edges


def flow_totals(ledger: Ledger, scope: Scope, key: str) -> list[dict]:
    """Sum and count per (key, currency, flow) over the scope; flow per `FLOW_SQL`.

    Rows are read as postings (db/009), as the aggregate holds them, so a split transaction counts
    under its parts' categories and a category filter finds its parts.
    """
    raw_key, aggregate_key = _KEYS[key]
    if scope.period is None or scope.row_level_only or aggregate_key is None:
        where, params = scope.where()
        return _grouped(ledger, *_postings(ledger, raw_key, where, params))
    months, edges = _month_split(scope.period)
    parts, params = [], []
    if months:
        shared, shared_params = scope._shared()
        clauses = " AND ".join(["t.month BETWEEN ? AND ?", *shared])
        parts.append(f"SELECT {aggregate_key} AS key, t.currency, t.transfer_id, t.amount, t.count, t.category_id"
                     f" FROM monthly_flow_rows t WHERE {clauses}")
        params += [*months, *shared_params]
    for start, end in edges:
        where, where_params = scope.where(start, end)
        sql, sql_params = _postings(ledger, raw_key, where, where_params)
        parts.append(sql)
        params += sql_params
    return _grouped(ledger, " UNION ALL ".join(parts), params)


def postings(ledger: Ledger, columns: str, where: str, params: list) -> tuple[str, list]:
    """SQL for the rows matching `where` as postings (db/009), in `columns` over alias `t`. Rows
    without parts come straight from the table, each checked by one index probe (reading them
    through the `transaction_postings` view, a co-routine, took twice as long); a ledger without
    any split, the usual case, skips the probe too."""
    rows = f"SELECT {columns} FROM transactions t WHERE {where}"
    if not has_splits(ledger):
        return rows, params
    return (f"{rows} AND NOT EXISTS (SELECT 1 FROM splits s WHERE s.transaction_id = t.id)"
            f" UNION ALL SELECT {columns} FROM split_postings t WHERE {where}", params * 2)


# Every split transaction's postings, as `split_postings` (db/010) holds them, but found from the
# splits table: each split transaction is read once by its id, so the cost follows the ledger's split
# rows (8,000 parts of a million-row ledger: 20 ms), where the view probes every row of the period
# for parts (1 µs a row: a month 9 ms, a year 71 ms). `IN` keeps SQLite from building a Bloom filter
# over the whole period first, as a join on the ids did (120 ms).
_SPLIT_POSTINGS = """owners AS MATERIALIZED (
    SELECT t.id, t.posted, t.account_id, t.currency, t.transfer_id, t.pending, t.payee, t.description, t.category_id,
           t.amount, (SELECT SUM(s.amount) FROM splits s WHERE s.transaction_id = t.id) AS parts
    FROM transactions t WHERE t.id IN (SELECT transaction_id FROM splits)
),
split_rows AS (
    SELECT id, posted, account_id, currency, transfer_id, pending, payee, description, category_id,
           amount - parts AS amount
    FROM owners WHERE amount != parts
    UNION ALL
    SELECT o.id, o.posted, o.account_id, o.currency, o.transfer_id, o.pending, o.payee, o.description, s.category_id,
           s.amount
    FROM owners o JOIN splits s ON s.transaction_id = o.id
)"""


PROBES_PER_PART = 2  # reading a split part whole costs about as much as probing two rows for parts


def recounted(ledger: Ledger, scope: Scope, key: str, counted: int,
              labels: Callable[[dict], Iterable[Hashable]]) -> Counter:
    """How many times more than once `flow_totals` counted a split transaction under each label.

    flow_totals counts postings, the only count the aggregate can keep (it holds no ids), so a
    transaction split in three counts three times under its account. `labels` names the groups a
    posting (its key, currency and flow) counts in; a count of transactions per group subtracts this.
    `counted`, the postings flow_totals found, says whether probing the period's rows for parts is
    cheaper than reading every split row.
    """
    again: Counter = Counter()
    parts = ledger.scalar("SELECT COUNT(*) FROM splits")
    if not parts:
        return again
    where, params = scope.where()
    probe = counted < PROBES_PER_PART * parts
    with_rows, source = ("", "split_postings") if probe else (f"WITH {_SPLIT_POSTINGS}", "split_rows")
    seen: set[tuple[int, Hashable]] = set()
    for posting in ledger.query(
        f"{with_rows} SELECT t.id, {_KEYS[key][0]} AS key, t.currency, {FLOW_SQL} AS flow"
        f" FROM {source} t LEFT JOIN categories c ON c.id = t.category_id WHERE {where}",
        params,
    ):
        for label in labels(posting):
            if (posting["id"], label) in seen:
                again[label] += 1
            seen.add((posting["id"], label))
    return again


def has_splits(ledger: Ledger) -> bool:
    return bool(ledger.scalar("SELECT EXISTS (SELECT 1 FROM splits)"))


def _postings(ledger: Ledger, raw_key: str, where: str, params: list) -> tuple[str, list]:
    """Postings keyed by `raw_key`, in the columns `_grouped` reads."""
    return postings(ledger, f"{raw_key} AS key, t.currency, t.transfer_id, t.amount, 1 AS count, t.category_id", where, params)


def _grouped(ledger: Ledger, source: str, params: list) -> list[dict]:
    return ledger.query(
        f"SELECT t.key, t.currency, {FLOW_SQL} AS flow, SUM(t.amount) AS amount, SUM(t.count) AS count"
        f" FROM ({source}) t LEFT JOIN categories c ON c.id = t.category_id"
        " GROUP BY t.key, t.currency, flow",
        params,
    )


def percent(part: int | Decimal, whole: int | Decimal) -> str | None:
    """`part / whole` as a percentage string rounded half-up to one decimal ("12.5%"), exact until then."""
    if not whole:
        return None
    value = (Decimal(part) * 100 / Decimal(whole)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
    return f"{value}%"
