"""Generate a realistic synthetic ledger for benchmarks and tool tests.

The ledger is written straight into SQLite through Wilson's own schema (migrations applied by
`open_ledger`), so every tool sees exactly what an import would produce: monthly salaries, rent,
utilities and subscriptions; everyday groceries, dining, coffee, fuel and shopping; transfers
between the user's own accounts as linked pairs (`transfer_id` on both legs); refunds (positive
rows in expense categories); several currencies (USD, EUR, GBP, JPY); pending rows in the last
days; and a few percent of uncategorised rows.

Speed matters (1M rows in well under a minute): rows are built in Python with explicit ids (so
transfer legs can point at each other without a second pass) and inserted with `executemany`
while the triggers on `transactions` are dropped; afterwards the triggers are recreated from their
own stored SQL and the derived tables (the FTS index) are rebuilt once.

Usage: python bench/ledger_gen.py PATH [-n 1000000] [-y 10] [-k 12] [--seed 7]
Library: `generate(path, transactions=..., years=..., accounts=...)` returns a summary dict.
"""

from __future__ import annotations

import argparse
import calendar
import random
import sqlite3
import sys
import time
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path

from wilson.ledger.aggregates import rebuild_monthly_flows
from wilson.ledger.bulk import derived_structures_dropped
from wilson.ledger.db import open_ledger

# (name, type, currency): the first K are used; more than 12 repeat with a numeric suffix.
ACCOUNT_TEMPLATES = [
    ("Everyday Checking", "checking", "USD"),
    ("Rewards Card", "credit_card", "USD"),
    ("High-Yield Savings", "savings", "USD"),
    ("Euro Account", "checking", "EUR"),
    ("UK Travel Card", "credit_card", "GBP"),
    ("Wallet", "cash", "USD"),
    ("Car Loan", "loan", "USD"),
    ("Brokerage", "investment", "USD"),
    ("Joint Checking", "checking", "USD"),
    ("Yen Account", "checking", "JPY"),
    ("Store Card", "credit_card", "USD"),
    ("Emergency Fund", "savings", "USD"),
]

# Rough value of one minor unit relative to a US cent, so amounts look right in every currency.
CENT_SCALE = {"USD": 1.0, "EUR": 0.92, "GBP": 0.79, "JPY": 1.5}

# Everyday spending: (category, weight, typical amount in cents, merchants).
EVERYDAY = [
    ("Groceries", 22, 6500, ["WHOLE FOODS MARKET", "TRADER JOE'S", "SAFEWAY", "ALDI", "COSTCO WHSE"]),
    ("Dining", 16, 3800, ["CHIPOTLE", "SWEETGREEN", "LOCAL BISTRO", "PIZZA NAPOLI", "SUSHI ZEN"]),
    ("Coffee", 14, 550, ["STARBUCKS", "BLUE BOTTLE COFFEE", "PEET'S COFFEE"]),
    ("Fuel", 7, 5200, ["SHELL OIL", "CHEVRON", "BP"]),
    ("Rideshare", 6, 1900, ["UBER TRIP", "LYFT RIDE"]),
    ("Public Transit", 5, 275, ["METRO TRANSIT", "CLIPPER CARD"]),
    ("Household", 7, 4200, ["AMAZON MKTPLACE", "TARGET", "IKEA"]),
    ("Clothing", 4, 7500, ["UNIQLO", "H&M", "ZARA"]),
    ("Electronics", 2, 18000, ["BEST BUY", "APPLE STORE"]),
    ("Pharmacy", 4, 2400, ["CVS PHARMACY", "WALGREENS"]),
    ("Parking", 3, 1200, ["CITY PARKING", "PARKMOBILE"]),
    ("Gifts", 2, 5000, ["ETSY", "FLOWERS DIRECT"]),
    ("Fees", 1, 350, ["ATM FEE", "FOREIGN TRANSACTION FEE"]),
    ("Hotels", 1, 21000, ["MARRIOTT", "HILTON"]),
]

# Monthly obligations: (day of month, category, amount in cents (negative = outflow), description, payee).
MONTHLY = [
    (1, "Rent", -210000, "RENT PAYMENT OAKWOOD APTS", "Oakwood Apartments"),
    (5, "Electricity", -9400, "PG&E UTILITY BILL", "PG&E"),
    (8, "Internet", -6999, "COMCAST XFINITY", "Comcast"),
    (12, "Phone", -4500, "VERIZON WIRELESS", "Verizon"),
    (15, "Car Insurance", -11800, "GEICO AUTO INSURANCE", "Geico"),
]
SUBSCRIPTIONS = [
    (3, "Streaming", -1549, "NETFLIX.COM", "Netflix"),
    (9, "Streaming", -1099, "SPOTIFY USA", "Spotify"),
    (17, "Fitness", -4999, "PLANET FITNESS CLUB", "Planet Fitness"),
    (21, "Software", -299, "APPLE.COM/BILL ICLOUD", "Apple"),
]

PENDING_DAYS = 3
UNCATEGORISED_SHARE = 0.03
REFUND_SHARE = 0.012
REFUNDABLE = {"Household", "Clothing", "Electronics", "Dining", "Hotels"}
INSERT_SQL = (
    "INSERT INTO transactions (id, account_id, posted, amount, currency, description, payee, category_id,"
    " category_source, pending, fingerprint, transfer_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


@dataclass
class Account:
    id: int
    name: str
    type: str
    currency: str


class _Rows:
    """Accumulates transaction tuples with explicit ids."""

    def __init__(self, categories: dict[str, int]):
        self.categories = categories
        self.rows: list[tuple] = []

    def add(
        self, account: Account, day: date, amount: int, description: str, payee: str | None,
        category: str | None, pending: bool = False, transfer_id: int | None = None,
    ) -> int:
        row_id = len(self.rows) + 1
        category_id = self.categories[category] if category else None
        self.rows.append((
            row_id, account.id, day.isoformat(), amount, account.currency, description, payee, category_id,
            "rule" if category_id else None, 1 if pending else 0, f"gen{row_id}", transfer_id,
        ))
        return row_id

    def transfer(self, source: Account, target: Account, day: date, cents: int, category: str, what: str) -> None:
        """Two linked legs: money leaves `source` and arrives in `target` the same day."""
        first = len(self.rows) + 1
        second = first + 1
        out_amount = _scaled(cents, source.currency)
        in_amount = _scaled(cents, target.currency)
        self.add(source, day, -out_amount, f"TRANSFER TO {target.name.upper()} {what}", None, category, transfer_id=second)
        self.add(target, day, in_amount, f"TRANSFER FROM {source.name.upper()} {what}", None, category, transfer_id=first)


def _scaled(cents: int, currency: str) -> int:
    return max(1, round(cents * CENT_SCALE.get(currency, 1.0)))


def _accounts(conn: sqlite3.Connection, count: int) -> list[Account]:
    accounts = []
    for index in range(count):
        name, kind, currency = ACCOUNT_TEMPLATES[index % len(ACCOUNT_TEMPLATES)]
        if index >= len(ACCOUNT_TEMPLATES):
            name = f"{name} {index // len(ACCOUNT_TEMPLATES) + 1}"
        cur = conn.execute(
            "INSERT INTO accounts (name, type, currency, institution, number) VALUES (?, ?, ?, ?, ?)",
            (name, kind, currency, "Synthetic Bank", f"GEN{index + 1:04d}"),
        )
        accounts.append(Account(cur.lastrowid, name, kind, currency))
    return accounts


def _first(accounts: list[Account], *types: str, exclude: Account | None = None) -> Account | None:
    return next((a for a in accounts if a.type in types and a is not exclude), None)


def _schedule(accounts: list[Account], start: date, end: date, spend: dict[int, int]) -> dict[date, list[tuple]]:
    """The monthly events (income, bills, subscriptions, own-account transfers), by day.

    `spend` is each account's expected everyday spending per month (in cents): salaries, card
    payments and top-ups are sized from it so balances and savings rates stay plausible at any
    density (a 1M-row ledger spends far more per month than a 2,000-row one).
    """
    checking = _first(accounts, "checking", "savings", "cash", "credit_card", "loan", "investment")
    cards = [a for a in accounts if a.type == "credit_card"]
    subscribed = cards[0] if cards else checking
    savings = _first(accounts, "savings", exclude=checking)
    loan = _first(accounts, "loan")
    others = [a for a in accounts if a.type in ("checking", "cash") and a is not checking]
    bills = -sum(entry[2] for entry in MONTHLY)
    subscriptions = -sum(entry[2] for entry in SUBSCRIPTIONS)
    card_payments = {card.id: spend.get(card.id, 0) + (subscriptions if card is subscribed else 0) for card in cards}
    top_ups = {a.id: spend.get(a.id, 0) * 21 // 20 for a in others if a.currency == checking.currency}
    outgoings = spend.get(checking.id, 0) + bills + sum(card_payments.values()) + sum(top_ups.values())
    outgoings += (80000 if savings else 0) + (38000 if loan else 0)
    salary = outgoings * 21 // 40  # half a month's outgoings plus 5%
    events: dict[date, list[tuple]] = {}
    month = date(start.year, start.month, 1)
    while month <= end:
        last = calendar.monthrange(month.year, month.month)[1]

        def on(day: int, event: tuple) -> None:
            when = month.replace(day=min(day, last))
            if start <= when <= end:
                events.setdefault(when, []).append(event)

        on(1, ("row", checking, salary, "ACME CORP PAYROLL", "Acme Corp", "Salary"))
        on(15, ("row", checking, salary, "ACME CORP PAYROLL", "Acme Corp", "Salary"))
        for day, category, cents, text, payee in MONTHLY:
            on(day, ("row", checking, cents, text, payee, category))
        for day, category, cents, text, payee in SUBSCRIPTIONS:
            on(day, ("row", subscribed, cents, text, payee, category))
        for account in others:
            if account.id in top_ups:
                on(4, ("transfer", checking, account, top_ups[account.id], "Transfer", "TOP UP"))
            else:
                on(25, ("row", account, spend.get(account.id, 0) * 11 // 10 + 1, "FREELANCE INVOICE PAID", "Client GmbH", "Other Income"))
        if savings:
            on(2, ("transfer", checking, savings, 80000, "Savings Transfer", "MONTHLY SAVINGS"))
            on(28, ("row", savings, 1200, "INTEREST PAID", None, "Interest"))
        for card in cards:
            on(20, ("transfer", checking, card, card_payments[card.id], "Credit Card Payment", "CARD PAYMENT"))
        if loan:
            on(10, ("transfer", checking, loan, 38000, "Transfer", "LOAN PAYMENT"))
        month = date(month.year + (month.month == 12), month.month % 12 + 1, 1)
    return events


def _daily_counts(total: int, days: int, rng: random.Random) -> list[int]:
    """Spread `total` rows over `days`: an even base, the remainder on random days."""
    base, extra = divmod(max(0, total), days)
    counts = [base] * days
    for offset in rng.sample(range(days), extra):
        counts[offset] += 1
    return counts


def _build(accounts: list[Account], categories: dict[str, int], total: int, start: date, end: date, rng: random.Random) -> _Rows:
    rows = _Rows(categories)
    spenders = [a for a in accounts if a.type in ("checking", "credit_card", "cash")] or accounts
    # Weighted pools indexed by one uniform draw each: far cheaper than random.choices per row.
    account_pool = [a for a in spenders for _ in range(5 if a.type == "credit_card" else 3 if a.type == "checking" else 1)]
    kinds = [entry for entry in EVERYDAY for _ in range(entry[1])]
    spread = [rng.lognormvariate(0, 0.45) for _ in range(4096)]
    days = (end - start).days + 1
    # The schedule's row count does not depend on its amounts: count it first, size it second.
    scheduled = sum(2 if e[0] == "transfer" else 1 for events in _schedule(accounts, start, end, {}).values() for e in events)
    everyday = max(0, total - scheduled)
    per_row = sum(kind[2] for kind in kinds) / len(kinds) * sum(spread) / len(spread)
    per_month = everyday / (days / 30.44) * per_row
    spend = {a.id: int(per_month * account_pool.count(a) / len(account_pool)) for a in spenders}
    schedule = _schedule(accounts, start, end, spend)
    per_day = _daily_counts(everyday, days, rng)
    draw = rng.random
    pending_from = end - timedelta(days=PENDING_DAYS - 1)
    for offset in range(days):
        day = start + timedelta(days=offset)
        for event in schedule.get(day, ()):
            if event[0] == "transfer":
                _, source, target, cents, category, what = event
                rows.transfer(source, target, day, cents, category, what)
            else:
                _, account, cents, text, payee, category = event
                amount = _scaled(abs(cents), account.currency) * (1 if cents > 0 else -1)
                rows.add(account, day, amount, text, payee, category)
        pending = day >= pending_from
        for _ in range(per_day[offset]):
            account = account_pool[int(draw() * len(account_pool))]
            category, _, cents, merchants = kinds[int(draw() * len(kinds))]
            merchant = merchants[int(draw() * len(merchants))]
            amount = _scaled(int(cents * spread[int(draw() * 4096)]), account.currency)
            description = f"{merchant} #{100 + int(draw() * 900)}"
            roll = draw()
            if category in REFUNDABLE and roll < REFUND_SHARE:
                rows.add(account, day, amount, f"REFUND {description}", merchant.title(), category)
            else:
                uncategorised = roll > 1 - UNCATEGORISED_SHARE
                rows.add(account, day, -amount, description, merchant.title(), None if uncategorised else category, pending)
    return rows


def _load(conn: sqlite3.Connection, rows: list[tuple]) -> None:
    """Insert with the `transactions` triggers and indexes dropped, then restore them from their own
    stored SQL and rebuild the FTS index and the monthly aggregate once: building an index after the load is far cheaper than
    maintaining it row by row."""
    with derived_structures_dropped(conn):
        for begin in range(0, len(rows), 100_000):
            conn.executemany(INSERT_SQL, rows[begin : begin + 100_000])
    conn.execute("INSERT INTO transactions_fts(transactions_fts) VALUES ('rebuild')")
    rebuild_monthly_flows(conn)


def _set_balances(conn: sqlite3.Connection, accounts: list[Account], end: date) -> None:
    """Statement balances for most accounts; cash and investments are left unknown on purpose.

    Cards and loans owe a plausible amount; other accounts hold an opening balance plus their rows.
    """
    for account in accounts:
        if account.type in ("cash", "investment"):
            continue
        total = conn.execute(
            "SELECT COALESCE(SUM(amount), 0) FROM transactions WHERE account_id = ? AND pending = 0", (account.id,)
        ).fetchone()[0]
        owed = {"loan": -1_500_000, "credit_card": -184_250}.get(account.type)
        balance = owed if owed is not None else total + (1_000_000 if account.type == "savings" else 250_000)
        conn.execute(
            "UPDATE accounts SET balance = ?, balance_date = ?, balance_source = 'statement' WHERE id = ?",
            (balance, end.isoformat(), account.id),
        )


def generate(
    path: Path, transactions: int = 1_000_000, years: int = 10, accounts: int = 12, seed: int = 7,
    end: date | None = None,
) -> dict:
    """Create a ledger at `path` (which must not exist yet); returns what was generated.

    `transactions` is a target: the monthly schedule is always generated in full, so a tiny target
    over many years yields slightly more rows.
    """
    path = Path(path)
    if path.exists():
        raise FileExistsError(f"{path} already exists")
    end = end or date.today()
    start = date(end.year - years, end.month, 1)
    started = time.perf_counter()
    conn = open_ledger(path)
    try:
        # A half-written file is useless anyway: no journal while generating, WAL again at the end.
        conn.execute("PRAGMA journal_mode = OFF")
        conn.execute("PRAGMA synchronous = OFF")
        conn.execute("PRAGMA cache_size = -262144")
        categories = {row[1]: row[0] for row in conn.execute("SELECT id, name FROM categories")}
        rng = random.Random(seed)
        # A transfer's first leg points at the row after it; a deferred check of that self-reference
        # scans the table per insert (there is no index on transfer_id), so check once at the end.
        conn.execute("PRAGMA foreign_keys = OFF")
        conn.execute("BEGIN IMMEDIATE")
        made = _accounts(conn, accounts)
        rows = _build(made, categories, transactions, start, end, rng)
        _load(conn, rows.rows)
        _set_balances(conn, made, end)
        broken = conn.execute("PRAGMA foreign_key_check(transactions)").fetchone()
        if broken:
            raise RuntimeError(f"generated a dangling reference: {tuple(broken)}")
        conn.execute("COMMIT")
        conn.execute("ANALYZE")
        conn.execute("PRAGMA journal_mode = WAL")
    finally:
        conn.close()
    return {
        "path": str(path),
        "transactions": len(rows.rows),
        "accounts": len(made),
        "start_date": start.isoformat(),
        "end_date": end.isoformat(),
        "seconds": round(time.perf_counter() - started, 2),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", type=Path)
    parser.add_argument("-n", "--transactions", type=int, default=1_000_000)
    parser.add_argument("-y", "--years", type=int, default=10)
    parser.add_argument("-k", "--accounts", type=int, default=12)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--end", type=date.fromisoformat, default=None, help="last date (default today)")
    args = parser.parse_args(argv)
    try:
        summary = generate(args.path, args.transactions, args.years, args.accounts, args.seed, args.end)
    except FileExistsError as exc:
        print(f"ledger_gen: {exc}", file=sys.stderr)
        return 1
    print(", ".join(f"{key}={value}" for key, value in summary.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
