"""Checking an answer's figures against what the run was given, so a made-up number is never shown as fact.

The README promises that every number comes from code. The model is told so, but nothing made
it so: an answer can state "$12,345.67" without a single tool call. This module finds the money
amounts and percentages in an answer and looks for each in the run's sources: the system prompt
(built from the ledger by code), the user's messages and every tool result, as text.

What counts as a figure:
- money: a number with a currency symbol or ISO code beside it (`$50`, `-€45.20`, `1,234 EUR`,
  `$1.2k`), or written like an amount (two decimals, `412.30`, or thousands groups, `12,345`);
- a percentage: a number followed by `%` or "percent".
Other numbers are left alone: dates and years (`2025-03-01`, `2025`), counts (`3 transactions`),
account endings (`…1234`), and anything inside a longer token.

A money figure is backed when a source number equals it, ignoring sign and formatting (`45.20
spent` for `-45.2`, `$1,234.50` for `1234.5`), or rounds to it at the precision written (`$1,235`
or `$1.2k` for `1234.56`), or is exactly the sum or difference of two source amounts written
to the cent (`$2,414.80` for `1234.50` and `1180.30`). A percentage is backed when a source percentage rounds to it (`38%`
for `38.2%`); the tools compute changes and shares themselves, so a ratio the model worked out is
not taken on trust.

This is a tripwire for figures with nothing behind them, not a proof of correctness: a large run
holds many numbers, and a wrong figure can match one by chance. Figures written with a decimal
comma (`12,50 €`) are not read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from wilson.money import ISO_4217

_SYMBOLS = "$€£¥₹₩₽₺₪₫₴₦₱฿"
_SCALES = {"k": 3, "thousand": 3, "m": 6, "million": 6, "bn": 9, "billion": 9}
_CURRENCY_WORDS = r"dollars?|euros?|pounds?|francs?|yen"

# A number as written in prose; never part of a longer token, so `2025-03-01`, `03.01.2025`,
# `v1.2` and `x1234` hold no figure.
_FIGURE = re.compile(
    rf"(?<![\w.,/])(?<!\d-)"
    rf"(?P<number>\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    rf"(?P<scale>\s?(?:k|K|M|bn|thousand|million|billion)\b)?"
    rf"(?P<percent>\s?(?:%|percent\b|per cent\b))?"
    rf"(?![\w%]|[.,/-]\d)"
)
_BEFORE = re.compile(rf"(?:[{_SYMBOLS}]|\b[A-Z]{{3}})\s?[-−+]?\s?$")
_AFTER = re.compile(rf"^\s?(?:[{_SYMBOLS}]|[A-Z]{{3}}\b|(?:{_CURRENCY_WORDS})\b)")
_CENTS = re.compile(r"\.\d\d$")
_SOURCE_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")
_GROUPED = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?")
_SOURCE_PERCENT = re.compile(r"(\d+(?:\.\d+)?)\s?%")
_LONGEST = 24  # digits: ids and hashes beyond this are no amount, and would overflow rounding


@dataclass(frozen=True)
class Figure:
    """A money amount or percentage in an answer: `text` as written, `value` unsigned and exact."""

    text: str
    value: Decimal
    percent: bool


def figures(answer: str) -> list[Figure]:
    """The money amounts and percentages stated in `answer`, in order."""
    found = []
    for match in _FIGURE.finditer(answer):
        if not (match["percent"] or _is_money(answer, match)):
            continue
        value = Decimal(match["number"].replace(",", ""))
        if match["scale"]:
            value = value.scaleb(_SCALES[match["scale"].strip().lower()])
        found.append(Figure(_shown(answer, match), value, bool(match["percent"])))
    return found


def _is_money(answer: str, match: re.Match[str]) -> bool:
    """Written like an amount (two decimals, thousands groups) or with a currency beside it."""
    number = match["number"]
    before, after = _currency(answer, match)
    return "," in number or _CENTS.search(number) is not None or bool(before or after)


def _currency(answer: str, match: re.Match[str]) -> tuple[str, str]:
    """The currency written just before and just after a number (`$`, `EUR`, `dollars`), or ''."""
    before = _BEFORE.search(answer[max(0, match.start() - 5): match.start()])
    after = _AFTER.match(answer[match.end(): match.end() + 9])
    return _marker(before), _marker(after)


def _marker(found: re.Match[str] | None) -> str:
    return found[0] if found is not None and _names_currency(found[0]) else ""


def _names_currency(marker: str) -> bool:
    """A symbol or a currency word always does; three capitals only when they are an ISO code (not `MAR`)."""
    letters = re.search(r"[A-Z]{3}", marker)
    return letters is None or letters[0] in ISO_4217


def _shown(answer: str, match: re.Match[str]) -> str:
    """The figure as the answer wrote it, with its currency (`$12,345.67`, `50 CHF`) and sign."""
    before, after = _currency(answer, match)
    start = match.start() - len(before)
    if answer[max(0, start - 1): start] in ("-", "−"):
        start -= 1
    return (answer[start: match.end()] + after).strip()


class Sources:
    """The numbers a run was given, read once from its texts, for checking an answer's figures."""

    def __init__(self, texts: Iterable[str]) -> None:
        tokens: set[str] = set()
        percents: set[str] = set()
        for text in texts:
            tokens.update(_SOURCE_NUMBER.findall(text))
            if "%" in text:
                percents.update(_SOURCE_PERCENT.findall(text))
        self.numbers = _numbers(tokens)
        self.percents = _numbers(percents)
        self.cents = {int(n.scaleb(2)) for n in self.numbers if n.as_tuple().exponent == -2}
        self._rounded: dict[tuple[bool, int], set[Decimal]] = {}

    def backs(self, figure: Figure) -> bool:
        """Whether a source number (a percentage, for one) rounds to `figure`, or two amounts add up to it."""
        places = figure.value.as_tuple().exponent
        if figure.value in self._at(figure.percent, places):
            return True
        return not figure.percent and self._sum_or_difference(figure.value)

    def _at(self, percent: bool, places: int) -> set[Decimal]:
        """The source numbers (or percentages) rounded to `places`, worked out once per precision."""
        key = (percent, places)
        if key not in self._rounded:
            self._rounded[key] = {_rounded(n, places) for n in (self.percents if percent else self.numbers)}
        return self._rounded[key]

    def _sum_or_difference(self, value: Decimal) -> bool:
        """Whether `value` is a + b or a - b for two source amounts written to the cent (in whole cents, fast)."""
        if value.as_tuple().exponent < -2:
            return False
        target, cents = int(value.scaleb(2)), self.cents
        return any(abs(target - a) in cents or target + a in cents for a in cents)


def _numbers(tokens: Iterable[str]) -> set[Decimal]:
    """Unsigned exact values; `1,234` is one number, while a bare list `1,23,4` gives each of its parts."""
    found = set()
    for token in tokens:
        parts = [token] if _GROUPED.fullmatch(token) else token.split(",")
        found.update(Decimal(part.replace(",", "")) for part in parts if part and len(part) <= _LONGEST)
    return found


def _rounded(number: Decimal, places: int) -> Decimal:
    """`number` rounded half-up to `places` (a Decimal exponent), never to more digits than it has."""
    if number.as_tuple().exponent >= places:
        return number
    return number.quantize(Decimal(1).scaleb(places), rounding=ROUND_HALF_UP)


def unbacked(answer: str, texts: Iterable[str]) -> tuple[str, ...]:
    """The figures in `answer` that nothing in `texts` backs, as written, each once."""
    stated = figures(answer)
    if not stated:
        return ()
    sources = Sources(texts)
    return tuple(dict.fromkeys(figure.text for figure in stated if not sources.backs(figure)))
