"""Exact money: amounts are integer minor units in storage and `Decimal` everywhere else.

Binary floats never touch an amount. Parsing accepts what bank exports write: currency symbols,
thousands separators (`,` `.` `'` and spaces), decimal commas, parentheses and trailing minus signs.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

# ISO 4217 minor-unit exponents that differ from the common 2.
_EXPONENTS = {
    "BHD": 3, "IQD": 3, "JOD": 3, "KWD": 3, "LYD": 3, "OMR": 3, "TND": 3,
    "BIF": 0, "CLP": 0, "DJF": 0, "GNF": 0, "ISK": 0, "JPY": 0, "KMF": 0, "KRW": 0,
    "PYG": 0, "RWF": 0, "UGX": 0, "UYI": 0, "VND": 0, "VUV": 0, "XAF": 0, "XOF": 0, "XPF": 0,
}

# ISO 4217 currencies in use (fund, metal and test codes left out).
ISO_4217 = frozenset("""
    AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD CAD CDF
    CHF CLP CNY COP CRC CUC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD
    HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL
    LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR
    PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SLL SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND
    TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VED VES VND VUV WST XAF XCD XCG XOF XPF YER ZAR ZMW ZWG ZWL
""".split())

_SYMBOLS = "$€£¥₹₩₽₺₪₫₴₦₱฿"
# Arabic abbreviations, written before or after: the Jordanian dinar's `د.ا.`, the dirham's `د.إ`.
_ARABIC_SIGN = r"[\u0600-\u06FF]+(?:\.[\u0600-\u06FF]+)*\.?"
_CODE_RE = re.compile(
    rf"^(?:[A-Z]{{3}}|[A-Z]{{2}}\$|kr\.?|Kč|zł|Ft|Fr\.?|R\$|sFr\.?|RM|Rs\.?|{_ARABIC_SIGN})\s*"
    rf"|\s*(?:[A-Z]{{3}}|kr\.?|Kč|zł|Ft|Fr\.?|RM|Rs\.?|{_ARABIC_SIGN})$"
)
_BIDI_MARKS = str.maketrans("", "", "\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_WHOLE_SWISS = re.compile(r"\d[.,][-–]$")
_DIRECTION_MARK = re.compile(r"\s*(?<![A-Za-z])(?P<mark>debit|credit|dr|cr|d|c)\.?$", re.IGNORECASE)
_NUMBER_RE = re.compile(r"^(?:\d+(?:\.\d*)?|\.\d+)$")
_GROUPED = re.compile(r"\d{1,3}(?: \d{3})+|\d{1,2}(?: \d{2})* \d{3}")  # thousands, or lakhs (`1,23,456`)
_SPACES = str.maketrans("", "", " \u00a0\u202f\u2009\t")


class AmountError(ValueError):
    """An amount that cannot be read exactly."""


def exponent(currency: str | None) -> int:
    return _EXPONENTS.get((currency or "").upper(), 2)


def guess_decimal_separator(samples: list[str]) -> str:
    """Decide `.` or `,` for a whole column, so `1,234` means the same on every row.

    A value whose repeated marks group no digits the way numbers are written (`1.2.5`, `12..5`)
    has no say: its strong vote would let one typo outweigh a small file's good rows."""
    comma = dot = 0
    for raw in samples:
        text = raw.strip()
        last_comma, last_dot = text.rfind(","), text.rfind(".")
        if last_comma >= 0 and last_dot >= 0:
            decimal, thousands = (",", ".") if last_comma > last_dot else (".", ",")
            if text.count(decimal) > 1 or not _groups_thousands(text[: max(last_comma, last_dot)], thousands):
                continue  # `1.234.567,89.0`, `1.2.3,45`: no way of writing a number; it has no say
            if decimal == ",":
                comma += 10
            else:
                dot += 10
            continue
        for sep, pos in ((",", last_comma), (".", last_dot)):
            if pos < 0:
                continue
            digits_after = len(re.match(r"\d*", text[pos + 1 :]).group())
            if text.count(sep) > 1:
                if not _groups_thousands(text, sep):
                    continue
                # 1.234.567 or 1,234,567: repeated means thousands.
                if sep == ",":
                    dot += 5
                else:
                    comma += 5
            elif digits_after in (1, 2) or digits_after > 3:
                if sep == ",":
                    comma += 1
                else:
                    dot += 1
    return "," if comma > dot else "."


def _groups_thousands(text: str, mark: str) -> bool:
    """Whether each number in `text` that holds `mark` is grouped by it in thousands (or lakhs,
    `1,23,456`); a mark outside the digits (`kr. 1.234`) is no grouping."""
    numbers = re.findall(rf"\d[\d{re.escape(mark)}]*", text)
    return all(_GROUPED.fullmatch(number.replace(mark, " ")) for number in numbers if mark in number)


def direction_mark(text: str) -> tuple[str, str | None]:
    """The text without the debit or credit mark after its number, and the mark: `D` or `C` for
    `45.20 DR`, `45.20Cr.`, `45.20 D`, `2,100.00 Credit`, None when it has none (nor is the `D` of
    a code such as `USD` one)."""
    marked = _DIRECTION_MARK.search(text)
    if marked and marked.start():
        return text[: marked.start()], marked["mark"][0].upper()
    return text, None


def parse_amount(text: str, decimal_sep: str | None = None) -> Decimal:
    """Parse a bank-export amount to an exact `Decimal`.

    `decimal_sep` should be decided once per column with `guess_decimal_separator`; without it a
    lone separator followed by three digits is read as a thousands separator (`1,234` = 1234).
    """
    if text is None:
        raise AmountError("empty amount")
    s = str(text).strip()
    if not s:
        raise AmountError("empty amount")
    negative, signs = False, 0  # one sign at most: `--5` or `(-5)` is a typo, not a credit
    s, mark = direction_mark(s)
    if mark:
        negative, signs = mark == "D", 1
    s = s.strip()
    s = s.replace("\u2212", "-").translate(_BIDI_MARKS).strip()  # right-to-left text marks its sign's direction
    for _ in range(3):  # symbols, signs and parentheses in either order: `-$5`, `$-5`, `5 €-`, `$ (5)`
        s = s.strip().strip(_SYMBOLS).strip()
        s = _CODE_RE.sub("", s).strip()
        if s.startswith("(") and s.endswith(")"):
            s, negative, signs = s[1:-1], True, signs + 1
        if not s:
            raise AmountError(f"not an amount: {text!r}")
        if _WHOLE_SWISS.search(s):  # `12.-` / `12.–`: whole francs (a trailing minus follows digits)
            s = s[:-1] + "00"
        if s[:1] in "+-":
            negative, signs, s = s[0] == "-", signs + 1, s[1:]
        elif s[-1:] in "+-":
            negative, signs, s = s[-1] == "-", signs + 1, s[:-1]
    if signs > 1:
        raise AmountError(f"more than one sign: {text!r}")
    s = s.translate(_SPACES).replace("'", "").replace("\u2019", "")
    sep = decimal_sep or guess_decimal_separator([s])
    if decimal_sep is None and sep == "." and s.count(",") == 1 and "." not in s:
        tail = s.split(",")[1]
        sep = "," if len(tail) != 3 else "."
    thousands = "," if sep == "." else "."
    whole, _, fraction = s.partition(sep)
    if thousands in fraction or (thousands in whole and not _GROUPED.fullmatch(whole.replace(thousands, " "))):
        raise AmountError(f"not an amount: {text!r}")  # `-4,50` read with a decimal point is not 450
    s = s.replace(thousands, "")
    if sep == ",":
        s = s.replace(",", ".")
    if not _NUMBER_RE.match(s):
        raise AmountError(f"not an amount: {text!r}")
    try:
        value = Decimal(s)
    except InvalidOperation as exc:  # pragma: no cover - the regex admits only valid numbers
        raise AmountError(f"not an amount: {text!r}") from exc
    return -value if negative else value


# 11 digits before two decimals, far past any account's row: 900,000 such rows still sum inside
# SQLite's 64-bit integers, past which it would turn totals into inexact floats.
MAX_MINOR = 10**13 - 1


def to_minor(value: Decimal, currency: str | None = None) -> int:
    """Decimal major units to integer minor units, refusing to lose a digit."""
    scaled = value.scaleb(exponent(currency))
    integral = scaled.to_integral_value()
    if scaled != integral:
        raise AmountError(f"{value} has more decimals than {currency or 'the currency'} allows")
    if abs(integral) > MAX_MINOR:
        raise AmountError(f"{value} is out of range for an amount of money")
    return int(integral)


def to_decimal(minor: int, currency: str | None = None) -> Decimal:
    return Decimal(minor).scaleb(-exponent(currency))


def format_minor(minor: int, currency: str | None = None, thousands: bool = False) -> str:
    """`-1234.50` (or `-1,234.50`): always `.` and exactly the currency's decimals."""
    exp = exponent(currency)
    value = to_decimal(minor, currency)
    return f"{value:,.{exp}f}" if thousands else f"{value:.{exp}f}"
