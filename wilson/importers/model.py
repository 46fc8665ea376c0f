"""The one normalised shape every importer produces, whatever the bank wrote."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import MISSING, dataclass, field, fields
from datetime import date
from pathlib import Path
from typing import Any, overload

ACCOUNT_TYPES = ("checking", "savings", "credit_card", "cash", "loan", "investment")
# A ledger's own export (Wilson's CSV): its categories are the user's, settled (no rule should redo
# them); it leaves pending rows out by design, so it says nothing about which still pend; and its
# rows' errors are the user's edits, never a sign that the file is another bank's.
LEDGER_EXPORTS = ("wilson",)
# The card's payment as its statement words it: money in for the holder, whichever way a file signs it.
CARD_PAYMENT = re.compile(r"\bpayment\b.{0,20}\bthank|\bautopay\b|\bpayment received\b", re.I)


@dataclass(slots=True)
class ParsedSplit:
    amount: int  # minor units, same sign convention as the transaction
    category: str | None = None
    memo: str | None = None
    transfer_account: str | None = None


@dataclass(slots=True)
class ParsedTransaction:
    posted: date
    amount: int  # integer minor units, outflow negative whatever the bank did
    description: str  # the raw description, as the bank wrote it (joined if split over columns)
    currency: str | None = None  # None: the account's currency
    line: int = 0  # 1-based line in the source file where the row starts, for error messages
    payee: str | None = None  # None: the pipeline derives a cleaned payee from the description
    bank_id: str | None = None  # FITID or the bank's own reference, if any
    pending: bool = False
    category: str | None = None  # a category the file itself supplies (bank category, QIF L line)
    notes: str | None = None
    original_amount: int | None = None  # foreign-currency rows: amount in original_currency
    original_currency: str | None = None
    balance: int | None = None  # running balance after this row, when the file has one
    account_key: str | None = None  # which ParsedAccount (several accounts in one file)
    transfer_account: str | None = None  # QIF `L[Other Account]`: a transfer to an own account
    splits: list[ParsedSplit] = field(default_factory=list)


def per_distinct(function: Callable[[Any], Any], values: Sequence) -> list:
    """`function` of every value, computed once per distinct value: export columns repeat a lot
    (a few thousand payees over 100k rows), and the lookups run as one C-level `map`."""
    decided = {value: function(value) for value in set(values)}
    return list(map(decided.__getitem__, values))


MAX_LINES_NAMED = 5  # in a warning about rows, the first few lines


def lines_named(lines: list[int]) -> str:
    """`line 7`, `lines 3, 9`, `lines 1, 2, 3, 4, 5 and 12 more`: where a warning's rows are."""
    shown = ", ".join(map(str, lines[:MAX_LINES_NAMED]))
    return f"line{'s' if len(lines) > 1 else ''} {shown}" + (f" and {len(lines) - MAX_LINES_NAMED} more" if len(lines) > MAX_LINES_NAMED else "")


def payee_of(name: str) -> str:
    """The cleaned payee a parser keeps for a name; the cleaner (and its patterns) load only when a
    file names payees, so reading a CSV without them never compiles them."""
    from wilson.importers.payee import clean_payee

    return clean_payee(name)


_DIGIT_SHAPE = bytes.maketrans(b"123456789", b"000000000")  # as bytes: five times faster than str.translate


def digit_shape(text: str) -> str:
    """`text` with every ASCII digit written as 0: `REF 12345 03/14` → `REF 00000 00/00`. Payee
    cleaning and merchant matching work once per shape (see `wilson.importers.payee`)."""
    # UTF-8 never uses the bytes of ASCII digits inside a multi-byte character.
    return text.encode("utf-8", "surrogatepass").translate(_DIGIT_SHAPE).decode("utf-8", "surrogatepass")


def squeeze(text: str) -> str:
    """Runs of whitespace as one space, none at the ends: how descriptions are compared and kept.
    A text already squeezed comes back as itself, so a column of them is not held twice."""
    squeezed = " ".join(text.split())
    return text if squeezed == text else squeezed


_DEFAULTS: dict[str, Any] = {f.name: None if f.default is MISSING else f.default for f in fields(ParsedTransaction)}


class ParsedRows(Sequence[ParsedTransaction]):
    """Parsed transactions held column by column.

    A 100,000-row export is then a dozen lists instead of 100,000 objects, so the pipeline can
    fingerprint, de-duplicate and insert it with C-level `map` and `zip` over whole columns. A
    column nobody filled is absent and reads as its default on every row. Descriptions are
    squeezed (see `squeeze`): `of` does it for parsers that build rows, the CSV engine as it reads.
    Indexing yields a `ParsedTransaction` (a copy: change rows before they become a `ParsedRows`).
    """

    __slots__ = ("columns", "length")

    def __init__(self, columns: dict[str, list], length: int):
        unknown = set(columns) - set(_DEFAULTS)
        if unknown:
            raise ValueError(f"unknown columns: {', '.join(sorted(unknown))}")
        self.columns = {name: values for name, values in columns.items() if values is not None}
        self.length = length

    @classmethod
    def of(cls, rows: Sequence[ParsedTransaction]) -> "ParsedRows":
        """The columns of a list of rows (OFX and QIF build rows one at a time)."""
        if isinstance(rows, ParsedRows):
            return rows
        columns = {}
        for name, default in _DEFAULTS.items():
            values = [getattr(row, name) for row in rows]
            if any(values) if name == "splits" else any(value != default for value in values):
                columns[name] = values
        if "description" in columns:
            columns["description"] = per_distinct(squeeze, columns["description"])
        return cls(columns, len(rows))

    def column(self, name: str) -> list:
        """Every row's value of one field, defaults included."""
        values = self.columns.get(name)
        if values is not None:
            return values
        if name not in _DEFAULTS:
            raise KeyError(name)
        if name == "splits":
            return [[] for _ in range(self.length)]
        return [_DEFAULTS[name]] * self.length

    def has(self, name: str) -> bool:
        """Whether any row holds something other than the default in this field."""
        return name in self.columns

    def take(self, keep: Sequence[int]) -> "ParsedRows":
        """The rows at these positions, in this order."""
        if len(keep) == self.length:
            return self
        return ParsedRows({name: [values[i] for i in keep] for name, values in self.columns.items()}, len(keep))

    def __len__(self) -> int:
        return self.length

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other))

    __hash__ = None  # type: ignore[assignment]

    @overload
    def __getitem__(self, index: int) -> ParsedTransaction: ...

    @overload
    def __getitem__(self, index: slice) -> list[ParsedTransaction]: ...

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self.length))]
        if index < 0:
            index += self.length
        if not 0 <= index < self.length:
            raise IndexError(index)
        values = {name: column[index] for name, column in self.columns.items()}
        return ParsedTransaction(**values)


@dataclass
class ParsedAccount:
    key: str  # the id the file uses for it (OFX ACCTID, CSV account column value, "default")
    name: str | None = None  # a suggested display name, e.g. "Chase Checking"
    type: str = "checking"
    institution: str | None = None
    number: str | None = None  # the bank's account number/id when the file gives one
    currency: str = "USD"
    currency_stated: bool = True  # False when the file names none and `currency` is a guess
    type_stated: bool = False  # the file says the type (an OFX card or bank statement), not a guess from its rows
    balance: int | None = None  # statement (ledger) balance, minor units
    balance_date: date | None = None
    listed_from: date | None = None  # the first day the statement lists (OFX `DTSTART`), rows or not


@dataclass
class RowError:
    line: int
    message: str
    column: str | None = None

    def __str__(self) -> str:
        where = f"line {self.line}" + (f", column {self.column}" if self.column else "")
        return f"{where}: {self.message}"


@dataclass
class ParseResult:
    format: str  # e.g. "chase_checking", "ofx", "qif", "generic_csv"
    transactions: Sequence[ParsedTransaction]  # a list while a parser appends, or ParsedRows
    accounts: list[ParsedAccount]
    errors: list[RowError] = field(default_factory=list)  # rows that could not be read
    warnings: list[str] = field(default_factory=list)  # balance mismatches and the like
    skipped_pending: int = 0  # pending rows the parser dropped (if it does not keep them flagged)
    skipped_reverted: int = 0  # reverted/declined/cancelled rows, never booked
    second_legs: int = 0  # rows a file line gave beside its own (Wise: a conversion's arrival), not lines read
    superseded: list[tuple[str, str]] = field(default_factory=list)  # (account key, bank id) an OFX correction replaces or deletes
    file_hash: str = ""  # sha256 of the bytes read, for the batch record
    category_kinds: dict[str, str] = field(default_factory=dict)  # the file's category list (QIF `!Type:Cat`): path → "income"/"expense"
    # How the generic reader signed a lone amount column: "written" (as the file does), "unsure"
    # (as written, though most are positive and no card payment tells whether they are a card's
    # charges) or "card" (a card's charges written positive, negated). The account they go to may
    # know better (see the import pipeline).
    sign_reading: str | None = None
    issuer_side: list[str] = field(default_factory=list)  # QIF card sections read from the issuer's side (account keys)


class ImportRefused(Exception):
    """A file Wilson will not import; `str()` is the one-line message for the user. `skippable`
    when it also holds readable rows that skipping the bad ones would import: each caller says
    how that is done from where the user is (a command-line flag, a tool's argument)."""

    def __init__(self, path: str, message: str, line: int | None = None, column: str | None = None, skippable: bool = False):
        self.path, self.message, self.line, self.column, self.skippable = path, message, line, column, skippable
        where = path + (f":{line}" if line else "") + (f" (column {column})" if column else "")
        super().__init__(f"{where}: {message}")


# Month names a file name may carry: English, German, French, Spanish, Portuguese, Dutch and Italian,
# with their abbreviations. Dropped wherever they stand, like `Kontoauszug_Januar`.
_MONTH_NAMES = "|".join((
    r"jan(?:uary|uar|uari|v|vier|eiro)?|j(?:ä|ae)nner|enero|ene|gennaio",
    r"feb(?:ruary|ruar|ruari|rero|braio)?|f[ée]v(?:r|rier|ereiro)?",
    r"mar(?:ch|s|zo)?|m(?:ä|ae|a)rz|mär|mrz|mrt|maart|março",
    r"apr(?:il|ile)?|abr|avr(?:il)?",
    r"may|mai|maio|maggio",
    r"jun(?:e|i|io|ho)?|juin|giu(?:gno)?",
    r"jul(?:y|i|ho)?|juil(?:let)?|luglio",
    r"aug(?:ust|ustus)?|ao[ûu]t|agosto",
    r"sep(?:t|tember|tembre|tiembre)?|setiembre|setembro|settembre",
    r"oct(?:ober|obre|ubre)?|okt(?:ober)?|outubro|ott(?:obre)?",
    r"nov(?:ember|embre|iembre|embro)?",
    r"dec(?:ember)?|d[ée]c(?:embre)?|dez(?:ember|embro)?|dic(?:iembre|embre)?",
))
# Months that are also everyday words or given names (`out.csv`, `julio.csv`): dropped only with a
# day or year beside them, as in Nubank's `01OUT2024`.
_MONTH_WORDS = "out|set|ago|gen|mag|lug|mei|marco|abril|mayo|julio"
_ANY_MONTH = rf"(?:{_MONTH_NAMES}|{_MONTH_WORDS})"
_MM = r"(?:0[1-9]|1[0-2])"
_DD = r"(?:0[1-9]|[12]\d|3[01])"
_YEAR = r"(?:19|20)\d{2}"
_DAY_AFTER = rf" ?(?:[1-9]|{_DD})(?!\d)"
# `FEV2024`, `jan24`, `marco 2024`; not a year that starts a date (`28Jul_2025-08-25`)
_YEAR_AFTER = rf"(?:{_YEAR}|\d{{2}}| {_YEAR}(?! \d))(?!\d)"
_SPACED_TIME = r"(?: (?:[01]\d|2[0-3]) [0-5]\d(?: [0-5]\d)?(?! \d{2}))?"  # `10-35-48`; not `… 1234`, a card's digits
_MONTH_DATE = (  # Nationwide's `2024-Feb-01 10-35-48`, `01FEV2024`, `Jan 1`, `feb24`, `28Jul`, `Januar`
    rf"\b(?:{_YEAR} ?{_ANY_MONTH}(?:{_DAY_AFTER}{_SPACED_TIME})?"
    rf"|(?:\d{{1,2}} ?)?{_ANY_MONTH}(?:{_DAY_AFTER}(?:{_YEAR_AFTER})?|{_YEAR_AFTER})"
    rf"|\d{{1,2}} ?{_ANY_MONTH}|{_MONTH_NAMES})\b"
)
# 2000 to 2039 written yymmdd, and maybe a time (ABN AMRO's `TXT240131003548`); any other six digits
# are an account's.
_YYMMDD = rf"[0-3]\d{_MM}{_DD}"
# A year a download is dated in, written after its day and month (`23112026`): eight digits that
# end in another are an account's (a UK account number `30061988`).
_DOWNLOAD_YEAR = r"20[0-3]\d"
_HHMMSS = r"(?:[01]\d|2[0-3])[0-5]\d[0-5]\d"
# Words between the two dates of a range (`2026-04-01_to_2026-05-23`, `01ENE al 31ENE`).
_RANGE_WORDS = ("to", "till", "until", "bis", "tot", "au", "al", "hasta", "até")
# Matched after separators became single spaces. Compiled by `re` on first use: it takes longer
# to compile than a bank's file takes to read, and a file that names its account never needs it.
_FILE_NAME_NOISE = (
    _MONTH_DATE + rf"(?: (?:{'|'.join(_RANGE_WORDS)})\b)?"
    + rf"|\b(?:{_YEAR} ?{_MM} ?{_DD}(?: ?(?:[01]\d|2[0-3]) ?[0-5]\d(?: ?[0-5]\d)?(?! ?\d{{2}}))?"  # dates, a time after one
    rf"|\d{{1,2}} \d{{1,2}} \d{{2,4}}{_SPACED_TIME}"  # `01_04_2024_10_11_12`
    rf"|{_DD} ?{_MM} ?{_DOWNLOAD_YEAR}|{_MM} ?{_DD} ?{_DOWNLOAD_YEAR}"  # Westpac's and ICICI's `23112026`, `23-11-2026`
    rf"|{_YEAR} ?{_MM}|{_YYMMDD}(?:{_HHMMSS})?|{_YEAR})\b"  # months, yymmdd stamps, years
    rf"|\b(?:{_YEAR} ?)?(?:q[1-4]|[1-4]q)(?:{_YEAR_AFTER})?\b"  # quarters: `2024_Q1`, `Q1-24`, `1Q2024`
    r"|\b(?:en|de|fr|es|it|nl|pt|pl|sv|da|nb) (?:gb|us|ie|au|nz|ca|de|at|ch|fr|be|es|it|nl|pt|pl|se|dk|no)\b"  # `en-gb`
    r"|\b(?=[a-f\d]*\d[a-f])(?=[a-f\d]*[a-f]\d)[a-f\d]{6,}\b"  # a download's hex id (`8a1b2c`, not `DE12345`)
    r"|\b(?:export|download|statement|transactions?|activity|history|umsaetze|umsätze|copy)\b|\(\d+\)"
)


CARD_NAME = re.compile(r"credit ?card|\bcard\b|\bvisa\b|master ?card|\bamex\b|kreditkarte", re.I)  # not UniCredit
_TYPE_WORDS = (
    ("savings", re.compile(r"sav(ings?|er)|spar|tagesgeld|épargne|livret|pocket", re.I)),
    ("credit_card", CARD_NAME),
    ("loan", re.compile(r"loan|mortgage|kredit\b|darlehen|line of credit", re.I)),
    ("investment", re.compile(r"brokerage|invest|401k|\bira\b|depot|isa\b|tfsa|rrsp", re.I)),
    ("cash", re.compile(r"\bcash\b|wallet|bargeld", re.I)),
    ("checking", re.compile(r"check|chequ|giro|current account", re.I)),
)


def type_named(name: str) -> str | None:
    """The account type a name or a bank's product word says (`Visa`, `US Dollar Savings`), if any;
    a debit card (`Visa Debit`) pays from a bank account, which is no credit card."""
    kind = next((kind for kind, words in _TYPE_WORDS if words.search(name)), None)
    return None if kind == "credit_card" and _DEBIT_CARD.search(name) else kind


_DEBIT_CARD = re.compile(r"\bdebit\b|debitkart|\bec.?kart", re.I)


UNNAMED = "Imported"  # the account of files whose names are all dates and export words


def name_from_file(source: str) -> str:
    """An account name for a file that names none, the same for every month's export of it.

    `Checking_Activity_2025-01-31.csv` and `Checking_Activity_2025-02-28 (1).csv` both give
    "Checking", so the second month lands in the same account and its overlap is de-duplicated.
    """
    if str(Path(source).parent) in ("/dev/fd", "/proc/self/fd", "/dev"):  # `<(…)`, /dev/stdin: a pipe has no name
        return UNNAMED
    spaced = re.sub(r"[\s_\-.]+", " ", Path(source).stem)
    spaced = _GLUED_DATE.sub(" ", spaced)  # ASB's `Export20250201091244`
    words = re.sub(_FILE_NAME_NOISE, " ", spaced, flags=re.IGNORECASE).split()
    while words and words[-1].casefold() in _RANGE_WORDS:  # `..._2026-04-01_to_2026-05-23`
        words.pop()
    return " ".join(words) or UNNAMED


# A date, and maybe a time, glued to a word: a calendar date, so a card number such as `20001234` stays.
# Six digits glued to a word are more likely an account's (`Konto100512`) than a date: only a whole
# yymmddhhmmss stamp leaves.
_GLUED_DATE = re.compile(rf"(?<=[^\W\d_])(?=(?:{_YEAR}{_MM}{_DD}(?:\d{{4}}|\d{{6}})?|{_YYMMDD}{_HHMMSS}|{_DD} ?{_MM} ?{_DOWNLOAD_YEAR})\b)")
