"""The one normalised shape every importer produces, whatever the bank wrote."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

ACCOUNT_TYPES = ("checking", "savings", "credit_card", "cash", "loan", "investment")


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


@dataclass
class ParsedAccount:
    key: str  # the id the file uses for it (OFX ACCTID, CSV account column value, "default")
    name: str | None = None  # a suggested display name, e.g. "Chase Checking"
    type: str = "checking"
    institution: str | None = None
    number: str | None = None  # the bank's account number/id when the file gives one
    currency: str = "USD"
    balance: int | None = None  # statement (ledger) balance, minor units
    balance_date: date | None = None


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
    transactions: list[ParsedTransaction]
    accounts: list[ParsedAccount]
    errors: list[RowError] = field(default_factory=list)  # rows that could not be read
    warnings: list[str] = field(default_factory=list)  # balance mismatches and the like
    skipped_pending: int = 0  # pending rows the parser dropped (if it does not keep them flagged)
    skipped_reverted: int = 0  # reverted/declined/cancelled rows, never booked


class ImportRefused(Exception):
    """A file Wilson will not import; `str()` is the one-line message for the user."""

    def __init__(self, path: str, message: str, line: int | None = None, column: str | None = None):
        self.path, self.message, self.line, self.column = path, message, line, column
        where = path + (f":{line}" if line else "") + (f" (column {column})" if column else "")
        super().__init__(f"{where}: {message}")
