"""Finding recurring charges (subscriptions and bills) from the dates and amounts alone.

A series is a payee's outflows in one currency that arrive on a regular cadence. SQL does the heavy
part (payees with far too many rows to be a bill are dropped in a grouped count, before any row
reaches Python); Python only looks at the few hundred plausible payees.

The rules, in one place:
- Cadences: weekly 7±2 days, biweekly 14±3, monthly 30±5, quarterly 91±12, yearly 365±20. A
  series fits when the median gap is within tolerance and at least 75% of gaps are.
- At least 3 charges (2 for yearly, and then the two amounts must be within 10%).
- Amounts may vary (utility bills) but the largest is at most 2.5× the smallest. When the payee's
  charges as a whole don't fit (two subscriptions from one company), they are split into amount
  clusters (a new cluster starts where an amount is 25% above the previous one) and each is tried.
- Prices: a subscription charges a few exact prices, each repeated (15.49 three times, then 17.99),
  where a variable bill (a grocery run, 380 to 420) rarely charges one amount twice in a row. A
  series is *priced* when at least 75% of its charges repeat the one before or after them (the
  latest may be a new price charged once so far). Its current price is its latest steady price
  (one charged at least twice in a row); a series that is not priced costs its median.
- Price rise: in a priced series, the latest steady price above the one before it, or a newer
  charge above the latest steady price (a rise charged once so far).
- Inactive: two or more expected dates have passed (plus tolerance) with no charge.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from datetime import date, timedelta
from functools import cached_property
from itertools import groupby
from typing import Iterator, NamedTuple

from wilson.ledger import Ledger
from wilson.tools.common import add_months


@dataclass(frozen=True)
class Cadence:
    name: str
    days: int
    tolerance: int
    months: int  # 0 for day-based cadences
    per_year: int

    def step(self, start: date, times: int) -> date:
        return add_months(start, self.months * times) if self.months else start + timedelta(days=self.days * times)


CADENCES = (
    Cadence("weekly", 7, 2, 0, 52),
    Cadence("biweekly", 14, 3, 0, 26),
    Cadence("monthly", 30, 5, 1, 12),
    Cadence("quarterly", 91, 12, 3, 4),
    Cadence("yearly", 365, 20, 12, 1),
)
MIN_FIT = 0.75
MAX_SPREAD = 2.5
CLUSTER_STEP = 1.25
FIXED_TOLERANCE = 0.05
RATE_TOLERANCE = 0.02  # a foreign subscription's charges, converted at each month's rate
STEADY_CHARGES = 2  # a price charged this many times in a row is steady
STEADY_SHARE = 0.75  # of a subscription's charges, at a steady price


class Run(NamedTuple):
    """Consecutive charges of one amount: `first` is the index of the first of them."""

    amount: int
    first: int
    count: int


class PriceRise(NamedTuple):
    """The price before a rise, and the date of the first charge at the higher one."""

    before: int
    on: date


@dataclass
class Series:
    payee: str
    currency: str
    cadence: Cadence
    charges: list[tuple[date, int, int, int | None]]  # (posted, amount, account_id, category_id), oldest first
    payee_rows: int  # every outflow from this payee in the window, in this currency
    flags: list[str] = field(default_factory=list)

    @property
    def amounts(self) -> list[int]:
        return [charge[1] for charge in self.charges]

    @property
    def typical(self) -> int:
        """What one charge costs now, in minor units: a priced series' latest steady price (a rise charged
        twice is the price, not a median that still leans on the old one), else the median charge (the
        lower middle for an even count: an amount that occurred)."""
        if self.priced():
            return self.steady()[-1].amount
        return statistics.median_high(self.amounts)  # amounts are negative: median_high is the smaller outflow

    @cached_property
    def runs(self) -> list[Run]:
        """The charges as runs of one amount, oldest first (the charges never change once found)."""
        runs: list[Run] = []
        for amount, same in groupby(self.amounts):
            first = runs[-1].first + runs[-1].count if runs else 0
            runs.append(Run(amount, first, len(list(same))))
        return runs

    def steady(self) -> list[Run]:
        """The prices charged at least twice in a row, oldest first."""
        return [run for run in self.runs if run.count >= STEADY_CHARGES]

    def priced(self) -> bool:
        """Charged at steady prices, as a subscription is: 75% of the charges repeat a neighbour's amount.
        A latest charge at a new price is left out, as it cannot have repeated yet."""
        considered = len(self.charges) - (1 if self.runs[-1].count < STEADY_CHARGES else 0)
        return considered > 0 and sum(run.count for run in self.steady()) >= STEADY_SHARE * considered

    @property
    def first(self) -> date:
        return self.charges[0][0]

    @property
    def last(self) -> date:
        return self.charges[-1][0]

    @property
    def account_id(self) -> int:
        return self.charges[-1][2]

    @property
    def category_id(self) -> int | None:
        return self.charges[-1][3]

    def expected_after(self, day: date) -> Iterator[date]:
        """Expected charge dates after the last one, from the first expected date past `day`."""
        times = 1
        while True:
            expected = self.cadence.step(self.last, times)
            if expected >= day:
                yield expected
            times += 1

    def missed(self, today: date) -> int:
        count = 0
        while self.cadence.step(self.last, count + 1) + timedelta(days=self.cadence.tolerance) < today:
            count += 1
        return count

    def active(self, today: date) -> bool:
        return self.missed(today) < 2

    def price_rise(self) -> PriceRise | None:
        """The latest step up of a priced series: a newer charge above the latest steady price, else the
        latest steady price above the one before it. A variable bill (not priced) has no price to rise."""
        if not self.priced():
            return None
        last, steady = self.runs[-1], self.steady()
        if last.count < STEADY_CHARGES and abs(last.amount) > abs(steady[-1].amount):
            return PriceRise(steady[-1].amount, self.charges[last.first][0])
        if len(steady) > 1 and abs(steady[-1].amount) > abs(steady[-2].amount):
            return PriceRise(steady[-2].amount, self.charges[steady[-1].first][0])
        return None

    def fixed(self) -> bool:
        """One price, as a subscription has: priced, every charge within 5% of the current price; or,
        priced or not, within 2% (a subscription billed in another currency moves with the rate, a
        grocery run of 380 to 420 moves more)."""
        size = abs(self.typical)
        tolerance = FIXED_TOLERANCE if self.priced() else RATE_TOLERANCE
        return all(abs(abs(a) - size) <= size * tolerance for a in self.amounts)


def find_series(
    ledger: Ledger, start: date, end: date, account_id: int | None = None, active_since: date | None = None
) -> list[Series]:
    """Every recurring outflow series with charges between `start` and `end`.

    Two passes keep it fast: a grouped count picks the payees with few enough rows to be a bill
    (and, with `active_since`, a charge since then), then only their rows are read, found through
    the payee index by their lowercased key (the exact payee is still checked).
    """
    where = ("posted BETWEEN ? AND ? AND pending = 0 AND transfer_id IS NULL AND amount < 0"
             " AND payee IS NOT NULL AND (? IS NULL OR account_id = ?)")
    params = [start.isoformat(), end.isoformat(), account_id, account_id]
    counts: dict[tuple[str, str], list] = {}
    for payee, key, currency, count, last in ledger.conn.execute(
        f"SELECT payee, lower(payee), currency, COUNT(*), MAX(posted) FROM transactions WHERE {where}"
        " GROUP BY payee, currency",
        params,
    ):
        entry = counts.setdefault((payee.casefold(), currency), [0, "", []])
        entry[0] += count
        entry[1] = max(entry[1], last)
        entry[2].append((payee, key))
    max_rows = (end - start).days // 5 + 3  # more charges than a weekly bill could make: not a bill
    since = active_since.isoformat() if active_since else ""
    wanted = [p for count, last, payees in counts.values() if 2 <= count <= max_rows and last >= since for p in payees]
    rows: dict[tuple[str, str], list] = {}
    for chunk in (wanted[i : i + 500] for i in range(0, len(wanted), 500)):
        marks = ",".join("?" * len(chunk))
        for payee, currency, posted, amount, account, category in ledger.conn.execute(
            f"SELECT payee, currency, posted, amount, account_id, category_id FROM transactions INDEXED BY transactions_payee_first"
            f" WHERE {where} AND lower(payee) IN ({marks}) AND payee IN ({marks})",
            [*params, *(key for _, key in chunk), *(payee for payee, _ in chunk)],
        ):
            rows.setdefault((payee.casefold(), currency), []).append((date.fromisoformat(posted), amount, account, category))
    transfer_kinds = {row[0] for row in ledger.conn.execute("SELECT id FROM categories WHERE kind = 'transfer'")}
    found = []
    for (key, currency), charges in rows.items():
        charges.sort()
        if charges[-1][3] in transfer_kinds:
            continue  # card payments and moves to savings are transfers, not bills
        payee = max(name for name, _ in counts[(key, currency)][2])
        found += _series_for(payee, currency, charges, counts[(key, currency)][0])
    return found


def _series_for(payee: str, currency: str, charges: list, count: int) -> list[Series]:
    whole = _fit(charges)
    if whole:
        return [Series(payee, currency, whole, charges, count)]
    found = []
    for cluster in _amount_clusters(charges):
        cadence = _fit(cluster)
        if cadence:
            found.append(Series(payee, currency, cadence, cluster, count))
    return found


def _amount_clusters(charges: list) -> list[list]:
    by_size = sorted(charges, key=lambda c: -c[1])
    clusters: list[list] = [[by_size[0]]]
    for charge in by_size[1:]:
        if -charge[1] * 100 > -clusters[-1][-1][1] * int(CLUSTER_STEP * 100):
            clusters.append([])
        clusters[-1].append(charge)
    return [sorted(cluster) for cluster in clusters if len(cluster) >= 2]


def _fit(charges: list) -> Cadence | None:
    """The cadence these charges follow, or None."""
    if len(charges) < 2:
        return None
    sizes = [-c[1] for c in charges]
    if max(sizes) * 10 > min(sizes) * int(MAX_SPREAD * 10):
        return None
    gaps = [(b[0] - a[0]).days for a, b in zip(charges, charges[1:])]
    middle = statistics.median(gaps)
    for cadence in CADENCES:
        if abs(middle - cadence.days) > cadence.tolerance:
            continue
        if len(charges) == 2 and (cadence.name != "yearly" or max(sizes) * 10 > min(sizes) * 11):
            return None
        fitting = sum(1 for gap in gaps if abs(gap - cadence.days) <= cadence.tolerance)
        return cadence if fitting >= MIN_FIT * len(gaps) else None
    return None
