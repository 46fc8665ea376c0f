"""One date format per column, decided from every value in it.

Banks write `03/04/2024` meaning either 3 April or 4 March; a single row cannot tell, a whole
column usually can (some day is over 12). When no value decides, the file's order and span can
(a statement lists its rows in date order over a stretch of days); failing that, the caller's hint
(European file or not) does. Parsing is cached per distinct string because a statement repeats
the same few hundred dates across thousands of rows. Only the calendar date is kept: a time or
zone suffix is ignored, never converted.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Callable, Iterable

_MONTHS = {
    # English, German, French, Dutch, Spanish and Italian abbreviations that differ.
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8, "sep": 9,
    "oct": 10, "nov": 11, "dec": 12, "mrz": 3, "mai": 5, "okt": 10, "dez": 12,
    "janv": 1, "fevr": 2, "fev": 2, "mars": 3, "avr": 4, "juin": 6, "juil": 7, "aout": 8,
    "sept": 9, "mei": 5, "mrt": 3, "ene": 1, "abr": 4, "ago": 8, "dic": 12,
    "gen": 1, "mag": 5, "giu": 6, "lug": 7, "set": 9, "ott": 10,
}

_WEEKDAY = r"(?:[^\W\d_]{2,9}\.?,?\s+)?"  # `Sun, 5 Jan 2025`, `Mon 6 Jan 2025`
# A time after the date, ignored: `2024-03-02 10:11`, `…T10:11:12Z`, `5:04 PM EST`, NETELLER's `02-03-2024 / 00:00`.
_TIME = r"(?:(?:,?[T ]+|\s*/\s*)\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:\s*[AaPp][Mm])?(?:\s*(?:Z|[A-Z]{2,5}(?:[+-]\d{1,2}(?::?\d{2})?)?|[+-]\d{2}:?\d{2}))?)?"


def _month(name: str) -> int | None:
    key = unicodedata.normalize("NFKD", name.lower()).encode("ascii", "ignore").decode().rstrip(".")
    if len(key) < 3:
        return None
    return _MONTHS.get(key) or _MONTHS.get(key[:3])


def _year(text: str) -> int:
    year = int(text)
    if len(text) <= 2:
        # Two-digit years in bank exports are recent: 00-69 is 2000-2069.
        year += 2000 if year < 70 else 1900
    return year


@dataclass(frozen=True)
class DateFormat:
    """A layout of a date string, and how to turn its match into (year, month, day)."""

    name: str
    pattern: re.Pattern[str]
    fields: Callable[[re.Match[str]], tuple[int, int | None, int]]

    def parse(self, text: str) -> date | None:
        match = self.pattern.fullmatch(text)
        if match is None:
            return None
        try:
            year, month, day = self.fields(match)
            if month is None:
                return None
            return date(year, month, day)
        except ValueError:
            return None


def _fmt(name: str, regex: str, fields: Callable[[re.Match[str]], tuple[int, int | None, int]]) -> DateFormat:
    return DateFormat(name, re.compile(regex + _TIME), fields)


_NUM3 = r"(\d{1,2})([/.\-])(\d{1,2})\2(\d{4}|\d{2})\.?"

YMD = _fmt("Y-m-d", r"(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\.?", lambda m: (int(m[1]), int(m[2]), int(m[3])))
DMY = _fmt("d/m/Y", _NUM3, lambda m: (_year(m[4]), int(m[3]), int(m[1])))
MDY = _fmt("m/d/Y", _NUM3, lambda m: (_year(m[4]), int(m[1]), int(m[3])))
COMPACT = _fmt("YYYYMMDD", r"((?:19|20)\d{2})(\d{2})(\d{2})", lambda m: (int(m[1]), int(m[2]), int(m[3])))
D_MON_Y = _fmt(
    "d-Mon-Y", _WEEKDAY + r"(\d{1,2})\.?[\s\-/]*([^\W\d_]{3,9}\.?)[\s\-/,]*(\d{4}|\d{2})",
    lambda m: (_year(m[3]), _month(m[2]), int(m[1])),
)
MON_D_Y = _fmt(
    "Mon d, Y", r"([^\W\d_]{3,9}\.?)[\s\-/]*(\d{1,2}),?[\s\-/]*(\d{4})",
    lambda m: (_year(m[3]), _month(m[1]), int(m[2])),
)

_EXCEL_DAY_ZERO = date(1899, 12, 30)  # spreadsheets count days from here (1900 date system)


def _day_number(match: re.Match[str]) -> tuple[int, int, int]:
    day = _EXCEL_DAY_ZERO + timedelta(days=int(match[1]))
    return day.year, day.month, day.day


# A spreadsheet's day number (`45658`, `45658.5` with a time), 1954 to 2118: a date cell formatted
# General, saved as CSV. Taken only in a column whose header names a date.
DAY_NUMBER = DateFormat("spreadsheet day number", re.compile(r"([2-7]\d{4})(?:\.\d+)?"), _day_number)

_DAY_FIRST = (YMD, COMPACT, DMY, MDY, D_MON_Y, MON_D_Y)
_MONTH_FIRST = (YMD, COMPACT, MDY, DMY, D_MON_Y, MON_D_Y)
_DOTTED = re.compile(r"\d{1,2}\.\d{1,2}\.")


@dataclass
class DateColumn:
    """The format chosen for a column, with a cache keyed by the raw cell (callers may read it
    directly in a hot loop)."""

    format: DateFormat | None
    cache: dict[str, date | None] = field(default_factory=dict)
    guessed: bool = False  # every value fits both day/month orders and only the file's hint chose

    @property
    def doubt(self) -> str | None:
        """The warning a guessed order gets: a user reading the dates can tell which it is."""
        if not self.guessed:
            return None
        order = "day/month" if self.format is DMY else "month/day"
        return f"every date fits both day/month orders and no day over 12 decides: read as {order}"

    def parse(self, text: str) -> date | None:
        try:
            return self.cache[text]
        except KeyError:
            value = self.format.parse(text.strip()) if self.format else None
            self.cache[text] = value
            return value


FUTURE_GRACE_DAYS = 7  # an export lists little dated later than this after the day it is read


def infer_date_format(
    values: Iterable[str], day_first: bool = False, recurring: bool = True, known: bool = False, named: bool = False,
    charges: Callable[[], Iterable[tuple[str, str]]] | None = None, stated: bool = False,
) -> DateColumn:
    """The format that reads the most distinct values; when every value fits both day/month orders,
    the reading that keeps the file in date order over a short stretch, else the hinted order.

    `values` in file order; `day_first` is the file's hint (`;` delimiter, decimal comma, European
    headers, a currency outside North America), or with `known` the order the bank always writes
    (Chase's month first): then two rows on `01/04` and `02/04` are January and February, not
    two days in April; `recurring` whether its rows repeat the same payees, as a subscription's
    monthly charges do, and `charges` each row's (date value, payee), asked for only then; `named`
    when the column's header says it holds dates, so a column of nothing but spreadsheet day
    numbers is read as those; `stated` when the file itself gives the hint (its currency, a
    European layout) rather than a default: then recurring payees will do for the monthly reading.
    """
    ordered = [v for v in dict.fromkeys(v.strip() for v in values) if v]
    distinct = set(ordered)
    # Dotted numeric dates (24.12.2023) are day-first wherever they are written.
    dotted = any(_DOTTED.match(v) for v in distinct)
    candidates = _DAY_FIRST if day_first or dotted else _MONTH_FIRST
    best, best_count, best_dates = None, 0, {}
    for fmt in candidates:
        dates = {v: fmt.parse(v) for v in distinct}
        count = len(dates) - list(dates.values()).count(None)
        if count > best_count:
            best, best_count, best_dates = fmt, count, dates
            if count == len(distinct):
                break  # no later format can read more, and ties go to the earlier one
    if best in (DMY, MDY) and best_count == len(distinct):
        other = MDY if best is DMY else DMY
        if all(map(other.parse, ordered)):  # stops at the first day over 12: the usual case
            other_dates = {v: other.parse(v) for v in ordered}
            if other_dates == best_dates or known:  # `05/05/2021`: both orders agree
                return DateColumn(best, best_dates)
            # With a hint the file states, payees that recur will do; with a default's, they must be
            # paid as subscriptions are.
            monthly = recurring and (stated or _paid_monthly(best_dates, charges))
            readings = [other_dates[v] for v in ordered], [best_dates[v] for v in ordered]
            weight, sure = _weigh(*readings, monthly) if len(ordered) > 1 else (0, False)
            if weight > 0:
                best, best_dates = other, other_dates
            return DateColumn(best, best_dates, guessed=not sure)
    if not best_count and named and distinct:
        numbered = {v: DAY_NUMBER.parse(v) for v in distinct}
        if None not in numbered.values():
            return DateColumn(DAY_NUMBER, numbered)
    return DateColumn(best, best_dates)


def _paid_monthly(reading: dict[str, date], charges: Callable[[], Iterable[tuple[str, str]]] | None) -> bool:
    """Whether the payees that recur do so as subscriptions and standing orders in `reading`, each
    on one day of the month, a month skipped at most, and some payee in months in a row. A week of
    a commuter's fares and groceries, or two shops taking turns, has payees paid on and off, or
    none paid month after month."""
    if charges is None:
        return True
    days_by_payee: dict[str, set[date]] = {}
    for value, payee in charges():
        day = reading.get(value.strip())
        if day is not None:
            days_by_payee.setdefault(payee, set()).add(day)
    recurring = [sorted(days) for days in days_by_payee.values() if len(days) > 1]
    return all(map(_monthly_with_a_gap, recurring)) and any(map(_consecutive_months, recurring))


def _monthly_with_a_gap(days: list[date]) -> bool:
    """One day of the month, a month skipped at most (`days` in order)."""
    span = (days[-1].year - days[0].year) * 12 + days[-1].month - days[0].month + 1
    return len({day.day for day in days}) == 1 and span - len(days) <= 1


def _consecutive_months(days: list[date]) -> bool:
    """One day of each month in a row: `2025-01-03, 2025-02-03, 2025-03-03`."""
    return len({d.day for d in days}) == 1 and all((b.year - a.year) * 12 + b.month - a.month == 1 for a, b in zip(days, days[1:]))


def _weigh(other: list[date], hinted: list[date], monthly: bool) -> tuple[int, bool]:
    """For an all-ambiguous column: 1 when the unhinted reading is the likelier, -1 when the hinted
    one is, 0 when nothing in the dates decides (the hint then does); and whether the dates
    decided for sure, or only made one reading likelier (the summary then says it was a guess).

    A reading that dates most rows after the day they can have been exported loses (a scheduled
    payment or two may be dated ahead); one in date order beats one that is not; of two in order,
    one over a far shorter stretch wins (`04/03, 01/03`: 3 days, not 3 months), unless the hinted
    reading is one day of each month in a row and the payees recur `monthly` (a savings account's
    interest and standing order on the 1st): then the hint stands, likelier, not sure. A shorter
    stretch against the hint is likelier, not sure, where the hinted one is one day of each month
    in a row (the bills of the 1st: `2/1, 3/1, 4/1` may be three months as well as three days).
    """
    horizon = date.today() + timedelta(days=FUTURE_GRACE_DAYS)
    ahead = [sum(day > horizon for day in reading) * 2 > len(reading) for reading in (other, hinted)]
    if ahead[0] != ahead[1]:
        return (-1 if ahead[0] else 1), True
    in_order = _in_order(other), _in_order(hinted)
    if in_order[0] != in_order[1]:
        return (1 if in_order[0] else -1), True
    days = sorted(set(hinted))
    spans = (max(other) - min(other)).days, (days[-1] - days[0]).days
    weight = 1 if spans[0] * 4 < spans[1] else -1 if spans[1] * 4 < spans[0] else 0
    if monthly and _consecutive_months(days):
        return -1, weight == -1
    return weight, weight == -1 or (weight == 1 and not _consecutive_months(days))


def _in_order(days: list[date]) -> bool:
    pairs = list(zip(days, days[1:]))
    return all(a <= b for a, b in pairs) or all(a >= b for a, b in pairs)

