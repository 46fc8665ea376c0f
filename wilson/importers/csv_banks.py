"""Named US/UK/EU bank CSV dialects, each a declarative column spec run by the CSV engine.

A dialect is recognised by its header (any of the layouts the bank has written over the years) or,
for Wells Fargo, which writes none, by the shape of its rows. It says what the generic mapper could
only guess: which date is the posting date, whether charges are written positive, what to call the
account and what kind it is.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from wilson.importers.csv_generic import AccountInfo, Options, parse_table, read_by_header_names
from wilson.importers.csv_headers import currency_code
from wilson.importers.csv_layout import Layout, head_of, layout_from_roles, sniff
from wilson.importers.model import ParsedRows, ParseResult
from wilson.money import AmountError, parse_amount, to_minor


@dataclass(frozen=True)
class Dialect:
    """One bank's export layout; `roles` maps header names (or positions) to engine roles, and a
    name missing from the header found is one that layout does not have."""

    name: str
    headers: tuple[tuple[str, ...], ...]  # each a header the bank writes, in column order
    roles: dict[str | int, str]
    account: AccountInfo
    negate: bool = False
    day_first: bool | None = False
    row_shape: re.Pattern[str] | None = field(default=None)  # for files without a header
    marker: str | None = None  # text the bank's rows carry, for a header another bank writes too
    file_digits: re.Pattern[str] | None = None  # the account's last digits in the bank's file names
    head_digits: re.Pattern[str] | None = None  # or in a line above its header
    file_product: re.Pattern[str] | None = None  # the product and its number in the bank's file names
    edited: bool = False  # a file people edit in a spreadsheet: its columns in any order, saved with `;` or tabs
    # A US bank's files state no currency: they are in dollars all the same, whatever --currency says
    # (meant for another file of the batch, it put a Schwab file's rows in dinars).
    home_currency: str | None = None
    # A foreign row's original (amount, currency) read from its notes, for a bank that writes it there.
    original_in_notes: Callable[[str], tuple[int, str] | None] | None = None

    def detect(self, text: str) -> int:
        head_text = head_of(text)
        if self.row_shape is not None:
            lines = [line for line in head_text.split("\n")[:10] if line.strip()]
            return 90 if lines and all(self.row_shape.match(line) for line in lines) else 0
        found = self._find(head_text)
        if found is None or (self.marker and self.marker not in head_text.casefold()):
            return 0
        return 95 if found[1] else 85

    def parse(self, text: str, source: str, currency: str | None = None) -> ParseResult:
        result, read = self._read(text, source, currency), self.original_in_notes
        return _with_originals(result, read) if read else result

    def _read(self, text: str, source: str, currency: str | None) -> ParseResult:
        # A US bank, whose files state no currency, writes its dollars the US way: `-45.001` is no thousands.
        decimal = "." if self.home_currency else None
        options = Options(self.name, self._account_for(source, text), self.negate, self.day_first, self.home_currency or currency, decimal)
        if self.row_shape is not None:
            return parse_table(text, source, ",", None, self._layout, options)
        head = head_of(text)
        found = self._find(head)
        if found is None:  # named with --format: a shorter download of the bank's (Amex's Date,Description,Amount)
            result = read_by_header_names(text, source, options)
            other = next((fmt.name for fmt in FORMATS if fmt is not self and fmt.row_shape is None and fmt._find(head)), None)
            if other:  # another bank's file named as this one's: its signs may be the other way round
                signs = "positive" if self.negate else "negative"
                result.warnings.append(f"the header is {other}'s: read as {self.name} (--format) writes its rows, charges {signs}")
            return result
        return parse_table(text, source, found[2], found[0], self._layout, options)

    def _account_for(self, source: str, text: str) -> AccountInfo:
        """The product's account, named with its last digits when the file's name or a line above
        its header carries them, so two accounts of one product stay apart
        (`Chase1234_Activity_20250201.CSV`, Schwab's `… Checking account XXXXXX-5678 as of …`), or
        with the product the name gives when the rows do not say (Wells Fargo's `Savings2.csv`).
        Only the last digits are known: a name that holds them finds the account's full number
        (its QFX's) by them, as a number would not."""
        name = Path(source).name
        digits = (self.file_digits.match(name) if self.file_digits else None) or (
            self.head_digits.search(head_of(text)) if self.head_digits else None
        )
        if digits:
            return replace(self.account, name=f"{self.account.name} …{digits[1]}")
        product = self.file_product.match(name) if self.file_product else None
        if product:
            kind = next(kind for word, kind in _PRODUCT_TYPES.items() if re.fullmatch(word, product[1], re.IGNORECASE))
            label = kind.replace("_", " ").title()
            return replace(self.account, name=f"{self.account.institution} {label} {product[2]}", type=kind)
        return self.account

    def _find(self, head_text: str) -> tuple[int, bool, str] | None:
        """(line, exact, delimiter) of the first of the dialect's headers found, an exact one preferred."""
        head = sniff(head_text)
        delimiters = tuple(head.rows) if self.edited else (",",)
        found = [
            (*hit, delimiter) for delimiter in delimiters for header in self.headers
            if (hit := head.find(header, delimiter, any_order=self.edited)) is not None
        ]
        return max(found, key=lambda hit: hit[1], default=None)

    def _layout(self, header: list[str]) -> Layout:
        present = {cell.strip().casefold() for cell in header}
        roles = {k: v for k, v in self.roles.items() if not isinstance(k, str) or k.casefold() in present}
        return layout_from_roles(header, roles, booked_first=True)  # each dialect lists its posting date first


def _with_originals(result: ParseResult, read: Callable[[str], tuple[int, str] | None]) -> ParseResult:
    """`result` with the original amount and currency its rows' notes state (as `read` finds
    them), signed like each row's amount: a charge of 396.00 pounds is -39600 pence. A note in the
    account's own currency states no foreign amount; one that can't be read leaves the row as it was."""
    rows = ParsedRows.of(result.transactions)
    if not rows.has("notes") or not result.accounts:
        return result
    home = result.accounts[0].currency
    found = [read(note) if note else None for note in rows.column("notes")]
    originals = list(map(_signed_original, found, rows.column("amount"), [own or home for own in rows.column("currency")]))
    if not any(code for _, code in originals):
        return result
    columns = {**rows.columns, "original_amount": [v for v, _ in originals], "original_currency": [c for _, c in originals]}
    return replace(result, transactions=ParsedRows(columns, len(rows)))


def _signed_original(found: tuple[int, str] | None, amount: int, currency: str) -> tuple[int | None, str | None]:
    """A row's original (amount, currency), signed like the row's amount since banks write it
    unsigned; none when it is in the row's own currency, which is no foreign amount."""
    if found is None or found[1] == currency:
        return None, None
    value, code = found
    return (-value if amount < 0 else value), code


_CHASE_FILE = re.compile(r"Chase(\d{4})_Activity", re.IGNORECASE)
_SCHWAB_HEAD = re.compile(r"\baccount\s+X+-?(\d{4})\b", re.IGNORECASE)  # `Transactions  for Checking account XXXXXX-5678 as of …`
_MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
_BOFA_CARD_FILE = re.compile(rf"(?:{_MONTHS})\d{{4}}_(\d{{4}})\b", re.IGNORECASE)  # `February2025_1234.csv`
_WELLS_FARGO_FILE = re.compile(r"(Checking|Savings|CreditCard)(\d+)\b", re.IGNORECASE)  # `Checking1.csv`, `CreditCard3.csv`
_PRODUCT_TYPES = {"checking": "checking", "savings": "savings", "creditcard": "credit_card"}


def _card(name: str, institution: str) -> AccountInfo:
    return AccountInfo(name, "credit_card", institution)


def _in_languages(
    header: tuple[str, ...], roles: dict[str | int, str], *translations: tuple[str, ...]
) -> tuple[tuple[tuple[str, ...], ...], dict[str | int, str]]:
    """The headers and roles of a bank that writes its header in the app's language: each
    translation names `header`'s columns in its order, so a file in any language reads as the
    first does (and its dates keep their order of preference in `roles`)."""
    names = [dict(zip(header, words, strict=True)) for words in translations]
    translated = {named[name]: role for named in names for name, role in roles.items() if name in named}
    return (header, *translations), {**roles, **translated}


# Amex writes a foreign charge's original in its Extended Details, unsigned and with the currency's
# name or code: `Foreign Spend Amount: 396.00 UNITED KINGDOM POUND STERLING Commission Amount: …`.
_FOREIGN_SPEND = "Foreign Spend Amount:"
_FOREIGN_SPEND_AMOUNT = re.compile(re.escape(_FOREIGN_SPEND) + r"\s*(\d[\d,]*(?:\.\d+)?)\s+([A-Za-z][A-Za-z ]*)")
# The names Amex gives currencies (codes and `EURO` are `currency_code`'s).
_AMEX_CURRENCY_NAMES = {
    "UNITED KINGDOM POUND STERLING": "GBP", "POUND STERLING": "GBP", "JAPANESE YEN": "JPY", "CANADIAN DOLLAR": "CAD",
    "MEXICAN PESO": "MXN", "SWISS FRANC": "CHF", "AUSTRALIAN DOLLAR": "AUD", "NEW ZEALAND DOLLAR": "NZD",
    "HONG KONG DOLLAR": "HKD", "SINGAPORE DOLLAR": "SGD", "DANISH KRONE": "DKK", "NORWEGIAN KRONE": "NOK",
    "SWEDISH KRONA": "SEK", "CZECH KORUNA": "CZK", "POLISH ZLOTY": "PLN", "HUNGARIAN FORINT": "HUF", "TURKISH LIRA": "TRY",
    "INDIAN RUPEE": "INR", "THAI BAHT": "THB", "SOUTH AFRICAN RAND": "ZAR", "BRAZILIAN REAL": "BRL",
    "UNITED STATES DOLLAR": "USD", "US DOLLAR": "USD",
}
_LONGEST_CURRENCY_NAME = max(len(name.split()) for name in _AMEX_CURRENCY_NAMES)


def _amex_foreign_spend(note: str) -> tuple[int, str] | None:
    """The unsigned original amount, in its currency's minor units, and the currency of an Amex
    row's Extended Details; None when it states none, or in a currency whose name is not known.
    Most rows are home charges: the plain text test spares them the pattern."""
    if _FOREIGN_SPEND not in note:
        return None
    match = _FOREIGN_SPEND_AMOUNT.search(note)
    code = _currency_named(match[2].split()[:_LONGEST_CURRENCY_NAME]) if match else None
    if match is None or code is None:
        return None
    try:
        return to_minor(parse_amount(match[1], "."), code), code
    except AmountError:  # more decimals than the currency has
        return None


def _currency_named(words: list[str]) -> str | None:
    """The code of the longest leading run of `words` that names a currency: the name runs into
    whatever Amex writes next (`EUR Commission Amount`, a merchant's name on the next line)."""
    for end in range(len(words), 0, -1):
        name = " ".join(words[:end]).upper()
        code = _AMEX_CURRENCY_NAMES.get(name) or currency_code(name)
        if code:
            return code
    return None


FORMATS = [
    Dialect(
        "chase_checking",
        (("Details", "Posting Date", "Description", "Amount", "Type", "Balance", "Check or Slip #"),),
        {"Posting Date": "date", "Description": "text", "Amount": "amount", "Balance": "balance", "Type": "kind", "Check or Slip #": "notes"},
        AccountInfo("Chase Checking", "checking", "Chase"),
        home_currency="USD",
        file_digits=_CHASE_FILE,
    ),
    Dialect(
        "chase_credit",
        (
            ("Transaction Date", "Post Date", "Description", "Category", "Type", "Amount", "Memo"),
            ("Transaction Date", "Post Date", "Description", "Category", "Type", "Amount"),  # before Memo was added
            ("Type", "Trans Date", "Post Date", "Description", "Amount"),  # before 2017; charges negative as today
        ),
        {
            "Post Date": "date", "Transaction Date": "date", "Trans Date": "date", "Description": "text", "Category": "category",
            "Type": "kind", "Amount": "amount", "Memo": "notes",
        },
        _card("Chase Card", "Chase"),
        home_currency="USD",
        file_digits=_CHASE_FILE,
    ),
    Dialect(
        "amex",
        (
            ("Date", "Description", "Amount", "Extended Details", "Appears On Your Statement As", "Address", "City/State", "Zip Code", "Country", "Reference", "Category"),
            ("Date", "Description", "Card Member", "Account #", "Amount"),  # in the US and the UK (--currency GBP)
        ),
        {"Date": "date", "Description": "text", "Amount": "amount", "Extended Details": "notes", "Reference": "bank_id", "Category": "category"},
        _card("Amex", "American Express"),
        negate=True,
        day_first=None,  # US exports write 08/29/2025, UK ones 15/01/2026
        original_in_notes=_amex_foreign_spend,
    ),
    Dialect(
        "amex_uk",
        (("Date", "Description", "Amount", "Extended Details", "Appears On Your Statement As", "Address", "Town/City", "Postcode", "Country", "Reference", "Category"),),
        {"Date": "date", "Description": "text", "Amount": "amount", "Extended Details": "notes", "Reference": "bank_id", "Category": "category"},
        AccountInfo("Amex", "credit_card", "American Express", "GBP"),
        negate=True,
        day_first=True,
        original_in_notes=_amex_foreign_spend,
    ),
    Dialect(
        "bofa_checking",
        (("Date", "Description", "Amount", "Running Bal."),),
        {"Date": "date", "Description": "text", "Amount": "amount", "Running Bal.": "balance"},
        AccountInfo("Bank of America Checking", "checking", "Bank of America"),
        home_currency="USD",
    ),
    Dialect(
        "bofa_credit",
        (("Posted Date", "Reference Number", "Payee", "Address", "Amount"),),
        {"Posted Date": "date", "Payee": "text", "Address": "text", "Amount": "amount", "Reference Number": "bank_id"},
        _card("Bank of America Card", "Bank of America"),
        home_currency="USD",
        file_digits=_BOFA_CARD_FILE,
    ),
    Dialect(
        "capital_one",
        (("Transaction Date", "Posted Date", "Card No.", "Description", "Category", "Debit", "Credit"),),
        {
            "Posted Date": "date", "Transaction Date": "date", "Description": "text", "Category": "category",
            "Debit": "debit", "Credit": "credit", "Status": "status",  # a later layout adds Status (Pending)
        },
        _card("Capital One Card", "Capital One"),  # in dollars, pounds or Canadian dollars: --currency says which
    ),
    Dialect(
        "wells_fargo",
        (),
        {0: "date", 1: "amount", 4: "text", 3: "notes"},
        AccountInfo("Wells Fargo Checking", "checking", "Wells Fargo"),
        home_currency="USD",
        row_shape=re.compile(r'"\d{1,2}/\d{1,2}/\d{4}","[-+]?[\d,]*\.?\d*","\*","[^"]*","'),
        file_product=_WELLS_FARGO_FILE,
    ),
    Dialect(
        "discover",
        (("Trans. Date", "Post Date", "Description", "Amount", "Category"), ("Trans. Date", "Post. Date", "Description", "Amount", "Category")),
        {
            "Post Date": "date", "Post. Date": "date", "Trans. Date": "date", "Description": "text", "Amount": "amount",
            "Category": "category", "Reference Number": "bank_id",
        },
        _card("Discover Card", "Discover"),
        home_currency="USD",
        negate=True,
    ),
    Dialect(
        "schwab_checking",
        (
            ("Date", "Status", "Type", "CheckNumber", "Description", "Withdrawal", "Deposit", "RunningBalance"),
            # before 2022: no Status column, pending rows under their own heading line
            ("Date", "Type", "Check #", "Description", "Withdrawal (-)", "Deposit (+)", "RunningBalance"),
        ),
        {
            "Date": "date", "Description": "text", "Withdrawal": "debit", "Withdrawal (-)": "debit", "Deposit": "credit",
            "Deposit (+)": "credit", "RunningBalance": "balance", "Status": "status", "Type": "kind", "CheckNumber": "notes",
            "Check #": "notes",
        },
        AccountInfo("Schwab Checking", "checking", "Charles Schwab"),
        home_currency="USD",
        head_digits=_SCHWAB_HEAD,
    ),
    Dialect(
        "apple_card",
        (("Transaction Date", "Clearing Date", "Description", "Merchant", "Category", "Type", "Amount (USD)"),),
        {
            "Clearing Date": "date", "Transaction Date": "date", "Description": "text", "Category": "category",
            "Type": "kind", "Amount (USD)": "amount",
        },
        _card("Apple Card", "Apple"),
        home_currency="USD",
        negate=True,  # purchases positive, payments negative
    ),
    Dialect(
        "citi_card",
        (("Status", "Date", "Description", "Debit", "Credit"),),  # some add `Member Name`
        {"Date": "date", "Description": "text", "Debit": "debit", "Credit": "credit", "Status": "status"},
        _card("Citi Card", "Citi"),
        home_currency="USD",
    ),
    Dialect(
        "us_bank",
        (("Date", "Transaction", "Name", "Memo", "Amount"),),
        # The memo is mostly `Download from usbank.com.` and the name again: a note, not the text.
        {"Date": "date", "Name": "text", "Memo": "notes", "Transaction": "kind", "Amount": "amount"},
        AccountInfo("U.S. Bank Checking", "checking", "U.S. Bank"),
        home_currency="USD",
        marker="usbank.com",  # Tangerine writes the same header; its memos do not say this
    ),
    Dialect(
        "revolut",
        *_in_languages(
            ("Type", "Product", "Started Date", "Completed Date", "Description", "Amount", "Fee", "Currency", "State", "Balance"),
            {
                "Completed Date": "date", "Started Date": "date", "Description": "text", "Amount": "amount", "Fee": "fee",
                "Currency": "currency", "State": "status", "Balance": "balance", "Type": "kind", "Product": "account_name",
            },
            # The app's language names the columns; the engine knows the German states (`AUSSTEHEND`, `ABGELEHNT`).
            ("Typ", "Produkt", "Startdatum", "Abschlussdatum", "Beschreibung", "Betrag", "Gebühr", "Währung", "Status", "Saldo"),
        ),
        AccountInfo("Revolut", "checking", "Revolut"),
        day_first=None,
    ),
    Dialect(
        "monzo",  # named `Monzo Data Export - CSV (Monday, March 31st, 2025).csv`, a new name each time: the account is Monzo's
        # Later exports add `Description`, `Category split`, `Money Out`/`Money In` (the amount again), `Balance`.
        (("Transaction ID", "Date", "Time", "Type", "Name", "Emoji", "Category", "Amount", "Currency"),),
        {
            "Date": "date", "Name": "payee", "Description": "text", "Amount": "amount", "Currency": "currency",
            "Local amount": "original_amount", "Local currency": "original_currency", "Balance": "balance",
            "Category": "category", "Type": "kind", "Notes and #tags": "notes", "Notes": "notes", "Transaction ID": "bank_id",
        },
        AccountInfo("Monzo", "checking", "Monzo"),
        day_first=True,
    ),
    Dialect(
        "cash_app",
        (("Transaction ID", "Date", "Transaction Type", "Currency", "Amount", "Fee", "Net Amount"),),
        # `Account` names the card or balance that paid, not an account of the user's: not read.
        {
            "Date": "date", "Name of sender/receiver": "text", "Notes": "text", "Net Amount": "amount",
            "Currency": "currency", "Status": "status", "Transaction Type": "kind", "Transaction ID": "bank_id",
        },
        AccountInfo("Cash App", "checking", "Cash App"),
        home_currency="USD",
    ),
    Dialect(
        "mint",  # Mint's export: US dates, month first, whatever the values; unsigned amounts with a debit/credit type
        (("Date", "Description", "Original Description", "Amount", "Transaction Type", "Category", "Account Name", "Labels", "Notes"),),
        {
            "Date": "date", "Description": "text", "Original Description": "original", "Amount": "amount",
            "Transaction Type": "direction", "Category": "category", "Account Name": "account_name", "Notes": "notes",
        },
        AccountInfo(None, "checking", None),
    ),
    Dialect(
        "copilot",  # Copilot Money's export: spending positive, income negative
        (("date", "name", "amount", "status", "category", "parent category", "excluded", "tags", "type", "account"),),
        {
            "date": "date", "name": "text", "amount": "amount", "status": "status", "parent category": "category",
            "category": "subcategory", "type": "kind", "account": "account_name", "note": "notes",
        },
        AccountInfo(None, "checking", "Copilot"),
        negate=True,
        day_first=None,
    ),
    Dialect(
        "rocket_money",  # Rocket Money's (Truebill's) export: spending positive, the account's type per row
        (("Date", "Original Date", "Account Type", "Account Name", "Account Number", "Institution Name", "Name"),),
        {
            "Date": "date", "Original Date": "date", "Account Type": "account_type", "Account Name": "account_name",
            "Name": "text", "Description": "original", "Amount": "amount", "Category": "category", "Note": "notes",
        },
        AccountInfo(None, "checking", None),
        negate=True,
        day_first=None,
    ),
    Dialect(
        "wise_transfers",  # Wise's transfer history (`transaction-history.csv`), one row per transfer
        (("ID", "Status", "Direction", "Created on", "Finished on"),),
        {
            # Finished first: a transfer not finished has not moved money (CANCELLED ones never will).
            "Finished on": "date", "Created on": "date", "Status": "status", "Direction": "direction",
            # The other party: the holder's own name fills the other column on every row, and is left out.
            "Target name": "payee", "Source name": "payee", "Reference": "text",
            "Source amount (after fees)": "amount", "Source fee amount": "fee", "Source currency": "currency", "ID": "bank_id",
            # What arrived: money in, and the other side of a conversion between own balances.
            "Target amount (after fees)": "amount_in", "Target currency": "currency_in",
        },
        AccountInfo("Wise", "checking", "Wise"),
        day_first=None,
    ),
    Dialect(
        "wilson",  # Wilson's own `export --format csv`, so a ledger can be rebuilt from it or moved
        (
            (
                "id", "date", "account", "description", "payee", "amount", "currency", "category", "notes", "category_path", "splits",
                "account_type", "original_amount", "original_currency",
            ),
            ("id", "date", "account", "description", "payee", "amount", "currency", "category", "notes", "category_path", "splits"),
            ("id", "date", "account", "description", "payee", "amount", "currency", "category", "notes"),  # before category_path
            ("date", "account", "description", "payee", "amount", "currency", "category"),  # edited: `id`, `notes` gone
        ),
        {
            "date": "date", "description": "original", "payee": "ledger_payee", "account": "ledger_account", "amount": "amount",
            "currency": "currency", "category": "category", "category_path": "category", "notes": "notes",  # the path wins
            "splits": "ledger_splits", "account_type": "account_type", "original_amount": "original_amount",
            "original_currency": "original_currency",
        },
        AccountInfo(),
        day_first=None,
        edited=True,
    ),
]
