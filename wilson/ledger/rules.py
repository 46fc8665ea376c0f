"""Categorisation rules: the one matching engine and the writes that keep the rules table.

Categorise, `manage_rules apply` and the learning from a user's corrections all match through
`RuleSet`, so a rule means exactly the same thing everywhere. Matching is case-insensitive.
Amount bounds compare against the size of the amount (its absolute value, minor units), so
"over 100" means a charge or a deposit of more than 100 whichever way the money moved.

Order: user rules first (oldest first, so an earlier rule wins a tie), then learned rules,
strongest first. User-written regexes are length-limited and checked for nested quantifiers,
the classic shape of catastrophic backtracking, before they are stored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

from wilson.ledger.db import LedgerError
from wilson.ledger.service import Ledger

MAX_PATTERN = 200
MATCH_TYPES = ("contains", "regex")
FIELDS = ("description", "payee", "any")
# A group that repeats something already repeated: (a+)+, (\w*)*, (x|y+){2,}.
_NESTED_QUANTIFIER = re.compile(r"\((?:[^()\\]|\\.)*[+*}](?:[^()\\]|\\.)*\)\s*(?:[+*]|\{\d*,)")


class RuleError(LedgerError):
    """A rule that cannot be stored: a bad or dangerous pattern, a bad field."""


@dataclass(frozen=True)
class Rule:
    id: int
    pattern: str
    match_type: str
    field: str
    min_amount: int | None
    max_amount: int | None
    category_id: int
    category: str
    source: str
    strength: int
    compiled: re.Pattern[str]

    def matches(self, description: str | None, payee: str | None, amount: int) -> bool:
        size = abs(amount)
        if self.min_amount is not None and size < self.min_amount:
            return False
        if self.max_amount is not None and size > self.max_amount:
            return False
        texts = {"description": (description,), "payee": (payee,), "any": (description, payee)}[self.field]
        return any(text and self.compiled.search(text) for text in texts)

    def as_dict(self) -> dict:
        return {
            "id": self.id, "pattern": self.pattern, "match_type": self.match_type, "field": self.field,
            "min_amount_minor": self.min_amount, "max_amount_minor": self.max_amount,
            "category": self.category, "source": self.source, "strength": self.strength,
        }


def compile_pattern(pattern: str, match_type: str) -> re.Pattern[str]:
    """The compiled, case-insensitive form of a pattern; raises `RuleError` for one we won't run."""
    if match_type not in MATCH_TYPES:
        raise RuleError(f"match_type must be one of {', '.join(MATCH_TYPES)}")
    if not pattern or not pattern.strip():
        raise RuleError("a rule needs a non-empty pattern")
    if len(pattern) > MAX_PATTERN:
        raise RuleError(f"pattern is {len(pattern)} characters; the limit is {MAX_PATTERN}")
    if match_type == "contains":
        return re.compile(re.escape(pattern.strip()), re.IGNORECASE)
    if _NESTED_QUANTIFIER.search(pattern):
        raise RuleError("pattern nests repetition inside repetition (like (a+)+), which can hang; simplify it")
    try:
        return re.compile(pattern, re.IGNORECASE)
    except re.error as exc:
        raise RuleError(f"invalid regular expression: {exc}") from None


class RuleSet:
    """The ledger's rules in the order they apply."""

    def __init__(self, rules: Iterable[Rule]):
        self.rules = list(rules)

    @classmethod
    def load(cls, ledger: Ledger, source: str | None = None) -> "RuleSet":
        rows = ledger.query(
            "SELECT r.*, c.name AS category FROM rules r JOIN categories c ON c.id = r.category_id"
            " WHERE ? IS NULL OR r.source = ?"
            " ORDER BY r.source = 'learned', CASE r.source WHEN 'learned' THEN -r.strength ELSE 0 END, r.id",
            (source, source),
        )
        rules = []
        for row in rows:
            try:
                compiled = compile_pattern(row["pattern"], row["match_type"])
            except RuleError:
                continue  # a rule stored before the checks tightened is skipped, not fatal
            rules.append(Rule(
                id=row["id"], pattern=row["pattern"], match_type=row["match_type"], field=row["field"],
                min_amount=row["min_amount"], max_amount=row["max_amount"], category_id=row["category_id"],
                category=row["category"], source=row["source"], strength=row["strength"], compiled=compiled,
            ))
        return cls(rules)

    def first_match(self, description: str | None, payee: str | None, amount: int) -> Rule | None:
        return next((rule for rule in self.rules if rule.matches(description, payee, amount)), None)

    def __len__(self) -> int:
        return len(self.rules)


def add_rule(
    ledger: Ledger, pattern: str, category_id: int, *, match_type: str = "contains", field: str = "any",
    min_amount: int | None = None, max_amount: int | None = None,
) -> int:
    """Store a user rule after checking it; returns its id."""
    compile_pattern(pattern, match_type)
    if field not in FIELDS:
        raise RuleError(f"field must be one of {', '.join(FIELDS)}")
    if min_amount is not None and max_amount is not None and min_amount > max_amount:
        raise RuleError("min_amount is larger than max_amount")
    with ledger.write() as conn:
        cur = conn.execute(
            "INSERT INTO rules (pattern, match_type, field, min_amount, max_amount, category_id, source)"
            " VALUES (?, ?, ?, ?, ?, ?, 'user')",
            (pattern.strip() if match_type == "contains" else pattern, match_type, field, min_amount, max_amount, category_id),
        )
    return cur.lastrowid  # type: ignore[return-value]


def remove_rule(ledger: Ledger, rule_id: int) -> dict | None:
    """Delete a rule; returns what it was, or None when there is no such rule."""
    row = ledger.query_one(
        "SELECT r.*, c.name AS category FROM rules r JOIN categories c ON c.id = r.category_id WHERE r.id = ?", (rule_id,)
    )
    if row is None:
        return None
    with ledger.write() as conn:
        conn.execute("DELETE FROM rules WHERE id = ?", (rule_id,))
    return row


def payee_pattern(payee: str) -> str:
    """The learned-rule pattern for a payee: the whole payee, exactly (case-insensitively)."""
    return "^" + re.escape(payee.strip()) + "$"


def learn(ledger: Ledger, payee: str, category_id: int) -> dict:
    """Turn a user's correction into a learned rule on the payee, or strengthen the one there.

    A correction that contradicts an earlier lesson replaces it (back to strength 1): the user's
    latest word wins. Returns `{"rule_id", "strength", "action"}`.
    """
    pattern = payee_pattern(payee)
    with ledger.write() as conn:
        existing = ledger.query_one(
            "SELECT id, category_id, strength FROM rules WHERE source = 'learned' AND field = 'payee'"
            " AND match_type = 'regex' AND pattern = ?",
            (pattern,),
        )
        if existing is None:
            cur = conn.execute(
                "INSERT INTO rules (pattern, match_type, field, category_id, source, strength)"
                " VALUES (?, 'regex', 'payee', ?, 'learned', 1)",
                (pattern, category_id),
            )
            return {"rule_id": cur.lastrowid, "strength": 1, "action": "learned"}
        if existing["category_id"] == category_id:
            conn.execute("UPDATE rules SET strength = strength + 1 WHERE id = ?", (existing["id"],))
            return {"rule_id": existing["id"], "strength": existing["strength"] + 1, "action": "strengthened"}
        conn.execute("UPDATE rules SET category_id = ?, strength = 1 WHERE id = ?", (category_id, existing["id"]))
        return {"rule_id": existing["id"], "strength": 1, "action": "replaced"}
