"""QIF (Quicken Interchange Format): bank, cash, credit-card and other-asset/liability sections.

QIF is line-based: a `!` header line names the section, each record is a run of lines keyed by
their first character and ends with `^`. Lists (classes, memorised payees) and investment
sections hold no cash transactions and are skipped; of the category list, only whether each
category is income or expense is kept. `!Account` blocks name the account the following sections
belong to, which is how one file carries several accounts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from decimal import ROUND_HALF_EVEN, Decimal

from wilson.importers.csv_headers import cell_currency
from wilson.importers.dates import COMPACT, D_MON_Y, DMY, MON_D_Y, infer_date_format
from wilson.importers.model import CARD_PAYMENT, ParsedAccount, ParsedSplit, ParsedTransaction, ParseResult, RowError, name_from_file, payee_of
from wilson.money import AmountError, format_minor, guess_decimal_separator, parse_amount, to_minor

# Section kinds that hold cash transactions, and the account type each implies.
_SECTION_TYPES = {
    "bank": "checking",
    "cash": "cash",
    "ccard": "credit_card",
    "oth a": "investment",  # a house or a car: an asset, but not money to spend
    "oth l": "loan",
}
# What tells apart the accounts of sections no `!Account` block names (bank keeps the file's name).
_SECTION_LABELS = {"cash": "Cash", "ccard": "Credit Card", "oth a": "Other Asset", "oth l": "Other Liability"}
_ACCOUNT_TYPES = {**_SECTION_TYPES, "invst": "investment", "port": "investment", "401(k)/403(b)": "investment"}
_MONEY_LISTS = ("invst", "prices")  # sections holding money Wilson does not import: say so
_HEADER = re.compile(r"!(type|account|option|clear)\b", re.I)
# `2/10'2020`, `1/ 1'00`, `03/01/2025`, `10.18.23`, `18-10-2023`, `2025-03-01`
_DATE = re.compile(r"(\d{1,4})\s*([/.\-])\s*(\d{1,2})\s*(['/.\-])\s*(\d{1,4})")
_DIGIT = re.compile(r"\d")
_DOTTED_DATE = re.compile(r"\d{1,2}\.\s*\d{1,2}\.\s*\d{2,4}")
_CENTURY_PIVOT = 70  # two-digit years 00-69 are 2000s, 70-99 are 1900s
_FIRST_YEAR = 1900  # no bank record is older: a `0025` (or `202`) lost or gained a digit
_MAX_PERCENT = 100  # a split is a part of its transaction, at most all of it
TRANSFER = "Transfer"  # the default category (kind transfer) of moves between own accounts


@dataclass
class _Record:
    line: int
    fields: list[tuple[str, str, int]] = field(default_factory=list)  # (code, value, line)


@dataclass
class _Split:
    category: str | None = None
    transfer: str | None = None
    memo: str | None = None
    amount: str | None = None
    percent: str | None = None
    line: int = 0
    lines: dict[str, int] = field(default_factory=dict)  # each field code's line, for errors on it


class _YearError(ValueError):
    """A date whose year no QIF writer emits; its message says what is wrong with it."""


def _lines(text: str) -> list[str]:
    return [line.rstrip("\r") for line in text.lstrip("\ufeff").split("\n")]


def _date_order(lines: list[str]) -> tuple[str, str | None]:
    """(`MDY` or `DMY`, the warning a guess gets): the file's `!Option`, else what its dates show,
    read as a CSV date column is (a day over 12; else the order that keeps them close and in
    sequence, unless the rows repeat their payees month after month), else by separator (Quicken
    writes month first)."""
    dates, payees, charges, dots = [], [], [], 0
    day = payee = None
    for line in [*lines, "^"]:  # the last record counts whether or not the file closes it
        upper = line.strip().upper()
        if upper in ("!OPTION:MDY", "!OPTION:DMY"):
            return upper[-3:], None
        if line.startswith("P"):
            payee = _LETTERS.sub("", upper[1:])  # a transfer's own confirmation number says nothing
            payees.append(payee)
        elif line.startswith(("^", "!")):
            if day is not None and payee is not None:
                charges.append((day, payee))
            day = payee = None
        if not line.startswith("D"):
            continue
        m = _DATE.fullmatch(line[1:].strip())
        if not m or len(m[1]) == 4:
            continue
        day = f"{m[1]}/{m[3]}/{_year(m)}"
        dates.append(day)
        dots += m[2] == "."
    if not dates:
        return "MDY", None
    recurring = len(set(payees)) * 2 <= len(payees)  # a subscription's charges on one day of each month
    column = infer_date_format(dates, day_first=bool(dots), recurring=recurring, charges=lambda: charges, stated=bool(dots))
    return "DMY" if column.format is DMY else "MDY", column.doubt


_LETTERS = re.compile(r"[\W\d_]+")  # what is not a letter


def _year(m: re.Match[str]) -> int:
    """Quicken writes `'` for years from 2000 on and `/` for the 1900s; a two-digit year with no
    such mark, or one the mark would put years ahead (`'99`), follows the pivot."""
    year = int(m[5])
    if len(m[5]) > 2:
        return year
    if m[4] == "'" and year + 2000 <= date.today().year + 1:
        return year + 2000
    return year + (2000 if year < _CENTURY_PIVOT else 1900)


def _parse_date(raw: str, order: str) -> date:
    m = _DATE.fullmatch(raw.strip())
    if not m:
        # `Jan 5, 2024`, `5 Jan 2024`, `20240102` (GnuCash)
        named = D_MON_Y.parse(raw.strip()) or MON_D_Y.parse(raw.strip()) or COMPACT.parse(raw.strip())
        if named is None:
            raise ValueError(f"not a date: {raw!r}")
        return named
    a, b = m[1], m[3]
    if len(a) == 4:  # ISO: year first
        _check_year(a)
        return date(int(a), int(b), int(m[5]))
    _check_year(m[5])
    month, day = (int(a), int(b)) if order == "MDY" else (int(b), int(a))
    return date(_year(m), month, day)


def _check_year(digits: str) -> None:
    """Writers put one or two digits (`3/ 1' 5`, `3/1/25`) or four (`2025`) in a year; a corrupt
    `202` or `0025` would otherwise be booked, without a word, in antiquity."""
    if len(digits) == 3:
        raise _YearError(f"the year {digits} has 3 digits")
    if len(digits) == 4 and int(digits) < _FIRST_YEAR:
        raise _YearError(f"the year {digits} is before {_FIRST_YEAR}")


def _category(raw: str) -> tuple[str | None, str | None]:
    """(category, transfer account) from an `L`/`S` value: `Food:Groceries/Class`, `[Savings]`."""
    value = raw.strip()
    m = re.fullmatch(r"\[(.*?)\](?:/.*)?", value)
    if m:
        return None, m[1].strip() or None
    category = value.split("/", 1)[0].strip()
    if not category or category == "--Split--":
        return None, None
    return category, None


class _QifParser:
    def __init__(self, text: str, source: str, currency: str | None = None, issuer_side: bool = False):
        self.source = source
        self.issuer_side = issuer_side  # --format qif_issuer: card sections read from the issuer's side (`read_issuer_side`)
        self.lines = _lines(text)
        self.cut_short = not text.endswith("\n")  # the file stops mid-line: its last record may be cut
        self.order, doubt = _date_order(self.lines)
        self.dotted_dates = any(line[:1] == "D" and _DOTTED_DATE.fullmatch(line[1:].strip()) for line in self.lines)
        amounts = [line[1:] for line in self.lines if line[:1] in ("T", "U", "$")]
        self.decimal_sep = guess_decimal_separator(amounts)
        self.currency = currency or _written_currency(amounts)
        self.minors: dict[str, int] = {}
        self.dates: dict[str, date] = {}
        self.result = ParseResult(format=QIF, transactions=[], accounts=[], warnings=[doubt] if doubt else [])
        self.accounts: dict[str, ParsedAccount] = {}
        self.account_name: str | None = None  # from the latest `!Account` block
        self.account_type: str | None = None

    def parse(self) -> ParseResult:
        section: str | None = None
        record: _Record | None = None
        for number, line in enumerate(self.lines, 1):
            stripped = line.strip()
            if not stripped or stripped.startswith("#"):  # no field code is `#`: comment lines
                continue
            if stripped.startswith("!"):
                if record is not None and record.fields:
                    self.record(section, record)
                record = None
                section = self.header(stripped, number)
                continue
            if stripped.startswith("^"):
                if record is not None:  # a lone `^` (some writers put one after the header) ends nothing
                    self.record(section, record)
                record = None
                continue
            if record is None:
                record = _Record(number)
            record.fields.append((line[0], line[1:].strip(), number))
        if record is not None and record.fields:
            if self.cut_short and section in _SECTION_TYPES and not _complete(record):
                self.result.errors.append(RowError(record.line, "the file ends inside this record (truncated file?)"))
            else:
                if section in _SECTION_TYPES:  # every writer ends a record with `^`: the file may have lost its last lines
                    self.result.warnings.append(f"line {record.line}: the file's last record has no closing ^ (truncated file?); it was read")
                self.record(section, record)
        self.name_unnamed_sections()
        for account in self.accounts.values():
            if account.type == "credit_card":
                read_issuer_side(self.result, account, remembered=self.issuer_side)
        self.result.accounts = list(self.accounts.values())
        return self.result

    def name_unnamed_sections(self) -> None:
        """A card or cash section no `!Account` block (or opening balance) names is its own account,
        named after the file and its kind, so next month's export of the file lands in it again."""
        name = name_from_file(self.source)
        bank = self.accounts.get(_unnamed_key("bank"))
        for section, label in _SECTION_LABELS.items():
            parsed = self.accounts.get(_unnamed_key(section))
            if parsed is not None and parsed.name is None:
                # `cash.qif` is named for its kind already, unless its bank section takes the name
                parsed.name = name if label.casefold() in name.casefold() and bank is None else f"{name} {label}"

    def header(self, line: str, number: int) -> str | None:
        """The new section's kind: `account`, `cat`, a transaction kind, or None to skip its records."""
        head, _, rest = line[1:].partition(":")
        head, rest = head.strip().lower(), rest.strip().lower()
        if head == "account":
            return "account"
        if (head, rest) == ("clear", "autoswitch"):  # a Quicken export's list of all accounts ends: none is current
            self.account_name = self.account_type = None
        if head != "type":
            return None  # `!Option:…`, `!Clear:…`: directives, no records
        if rest in _SECTION_TYPES or rest == "cat":
            return rest
        if rest in _MONEY_LISTS:
            name = line.partition(":")[2].strip()
            self.result.warnings.append(f"line {number}: skipped the !Type:{name} section (investments are not imported)")
        return None

    def record(self, section: str | None, record: _Record) -> None:
        if section == "account":
            values = {code: value for code, value, _ in record.fields}
            self.account_name = values.get("N") or None
            self.account_type = _ACCOUNT_TYPES.get(values.get("T", "").lower())
        elif section == "cat":
            self.category_kind(record)
        elif section in _SECTION_TYPES:
            row = self.transaction(record, self.account(section))
            if row is not None:
                self.result.transactions.append(row)

    def category_kind(self, record: _Record) -> None:
        """A `!Type:Cat` entry: its `I` or `E` line says whether the category is income or expense,
        which its name alone does not (`Bonus`, `Gift Received`)."""
        codes = {code: value for code, value, _ in record.fields}
        name = codes.get("N", "").strip()
        kind = "income" if "I" in codes else "expense" if "E" in codes else None
        if name and kind:
            self.result.category_kinds[name] = kind

    def account(self, section: str) -> ParsedAccount:
        """The account this section's rows belong to, created when its first row is read."""
        # A card or cash section after a bank account's block, with none of its own, is not that account.
        named = self.account_name if self.account_type in (None, _SECTION_TYPES[section]) else None
        kind = _SECTION_TYPES[section] if named is None else self.account_type or _SECTION_TYPES[section]
        key = named or _unnamed_key(section)
        if key not in self.accounts:
            # QIF states no currency: the user's, else a file written the European way (`5.1.24`,
            # `1.234,56`) is in euros.
            currency = self.currency or ("EUR" if self.decimal_sep == "," or self.dotted_dates else "USD")
            self.accounts[key] = ParsedAccount(
                key=key, name=named, type=kind, currency=currency, currency_stated=bool(self.currency)
            )
        return self.accounts[key]

    def transaction(self, record: _Record, account: ParsedAccount) -> ParsedTransaction | None:
        values: dict[str, tuple[str, int]] = {}
        splits: list[_Split] = []
        errors: list[RowError] = []
        for code, value, line in record.fields:
            if code in "SE$%":
                self.split_line(splits, code, value, line)
            elif code not in values and not (code == "D" and splits):
                values[code] = (value, line)  # a `D` inside the splits is the split's own date
        posted = amount = None
        date_text, date_line = values.get("D", ("", record.line))
        try:
            posted = self.date(date_text)
        except _YearError as error:
            errors.append(RowError(date_line, f"invalid date {date_text!r}: {error}", column="D"))
        except ValueError:
            message = f"invalid date {date_text!r}" if date_text else "the record has no date (D line)"
            errors.append(RowError(date_line, message, column="D"))
        amount_code = "U" if "U" in values and "T" not in values else "T"
        amount_text, amount_line = values.get(amount_code, ("", record.line))
        if amount_text or not splits:
            try:
                amount = self.minor(amount_text)
            except AmountError:
                message = f"invalid amount {amount_text!r}" if amount_text else "the record has no amount (T line)"
                errors.append(RowError(amount_line, message, column=amount_code))
        parsed_splits = self.splits(splits, amount, errors)
        mismatch = self.split_mismatch(parsed_splits, amount) if amount is not None and not errors else None
        if mismatch:
            errors.append(RowError(amount_line, mismatch, column=amount_code))
        if errors:
            self.result.errors.extend(errors)
            return None
        if amount is None:  # no T line: the splits are the whole transaction
            amount = sum(split.amount for split in parsed_splits)
        payee, memo = values.get("P", ("", 0))[0], values.get("M", ("", 0))[0]
        category, transfer = _category(values.get("L", ("", 0))[0])
        opening = transfer is not None and (transfer == account.key or payee.casefold() == "opening balance")
        if opening:
            # Quicken's opening balance names the account itself (`L[This Account]`), not a transfer.
            account.name = account.name or transfer
            transfer = None
        check = values.get("N", ("", 0))[0]
        row = ParsedTransaction(
            posted=posted,
            amount=amount,
            description=_describe(payee, memo, category, transfer),
            line=record.line,
            payee=payee_of(payee) if payee else None,
            # A move between own accounts, or the balance the account started with, is neither
            # income nor spending, even when the other account is not in the ledger.
            category=category or (TRANSFER if transfer is not None or opening else None),
            notes=(f"check {check}" if check.isdigit() else check) or None,
            account_key=account.key,
            transfer_account=transfer,
            splits=parsed_splits,
        )
        self.balance_splits(row)
        return row

    def split_line(self, splits: list[_Split], code: str, value: str, line: int) -> None:
        """`S` starts a split; `E`, `$`, `%` fill the current one, or start one if it has them."""
        attr = {"E": "memo", "$": "amount", "%": "percent"}.get(code)
        if code == "S" or not splits or getattr(splits[-1], attr) is not None:
            splits.append(_Split(line=line))
        current = splits[-1]
        current.lines[code] = line
        if code == "S":
            current.category, current.transfer = _category(value)
        else:
            setattr(current, attr, value)

    def splits(self, splits: list[_Split], total: int | None, errors: list[RowError]) -> list[ParsedSplit]:
        """The parts; percentage shares are rounded as their running sum is, so that rounding each
        gains or loses no cent: 50% and 50% of -0.03 are -0.02 and -0.01, not -0.02 twice."""
        parsed = []
        shared = Decimal(0)  # the exact sum of the shares so far, in minor units
        for split in splits:
            amount = self.split_amount(split, total, errors)
            if isinstance(amount, Decimal):
                amount, shared = _whole(shared + amount) - _whole(shared), shared + amount
            if amount is None:
                continue
            category = split.category or (TRANSFER if split.transfer is not None else None)
            parsed.append(ParsedSplit(amount=amount, category=category, memo=split.memo or None, transfer_account=split.transfer))
        return parsed

    def split_amount(self, split: _Split, total: int | None, errors: list[RowError]) -> int | Decimal | None:
        """The split's `$` amount, else its exact `%` share of the transaction (in minor units, not
        rounded); None, with the error noted at the line at fault, when it has neither that can be read."""
        if split.amount:
            try:
                return self.minor(split.amount)
            except AmountError:
                errors.append(RowError(split.lines["$"], f"invalid split amount {split.amount!r}", column="$"))
                return None
        if split.percent is not None:
            return self.share(split.percent, split.lines["%"], total, errors)
        if split.amount is None:
            errors.append(RowError(split.line, "the split has no amount ($ line)", column="$"))
        else:
            errors.append(RowError(split.lines["$"], "the split's amount is empty", column="$"))
        return None

    def share(self, text: str, line: int, total: int | None, errors: list[RowError]) -> Decimal | None:
        """`text` percent of the total, exactly; a percentage that is not a plain number
        (`NaN`, `1e15`) or more than the whole transaction is an error, not an absurd split."""
        if total is None:
            errors.append(RowError(line, "a percentage split needs the record's amount (T line)", column="%"))
            return None
        try:
            percent = self.number(text.rstrip("%"))
        except AmountError:
            errors.append(RowError(line, f"invalid split percentage {text!r}", column="%"))
            return None
        if abs(percent) > _MAX_PERCENT:
            message = f"split percentage {text!r} is not between -{_MAX_PERCENT} and {_MAX_PERCENT}"
            errors.append(RowError(line, message, column="%"))
            return None
        return percent * total / 100

    def split_mismatch(self, splits: list[ParsedSplit], total: int) -> str | None:
        """What is wrong when parts add up to more than the transaction, or the other way: a damaged
        row, refused with an error at its amount's line (`--skip-bad` imports the others).

        The file contradicts itself and does not say which figure is wrong. Keeping the parts would
        take a rest the other way to balance them: money that never moved, which reports count (a
        $10 coffee split as $999 of Food reads as $999 spent and $989 earned). Keeping the total
        without its parts would book, with a mere warning, a row the file does not describe, and
        hide the damage. Parts that leave some of the total over, in its direction, add no money:
        `balance_splits` keeps that rest."""
        parts = sum(split.amount for split in splits)
        if parts * total >= 0 and abs(parts) <= abs(total):
            return None
        beyond = "the other way from" if parts * total < 0 else "more than"
        return f"the splits add up to {self.money(parts)}, {beyond} the transaction's {self.money(total)}"

    def balance_splits(self, row: ParsedTransaction) -> None:
        """Parts that leave some of the total over keep it as an uncategorised part: the bank moved
        T, and the rest is money it moved in the same direction that the parts leave unassigned. A
        writer may leave out the part that has no category, and percentages that add up to a
        little under 100 (33.33% three times) fall short of the whole."""
        if not row.splits:
            return
        missing = row.amount - sum(split.amount for split in row.splits)
        if missing:
            row.splits.append(ParsedSplit(amount=missing, memo="unallocated: the file's splits did not add up"))
            self.result.warnings.append(
                f"line {row.line}: the splits add up to {self.money(row.amount - missing)}, not {self.money(row.amount)};"
                f" the difference {self.money(missing)} is left uncategorised"
            )

    def money(self, minor: int) -> str:
        return format_minor(minor, self.currency)

    def minor(self, text: str) -> int:
        """Minor units of the user's currency (QIF states none): yen have no cents, dinars three
        decimals. Once per distinct text: a long file repeats its amounts."""
        value = self.minors.get(text)
        if value is None:
            value = self.minors[text] = to_minor(self.number(text), self.currency)
        return value

    def date(self, text: str) -> date:
        """Once per distinct text: a file repeats its few hundred days across thousands of rows."""
        day = self.dates.get(text)
        if day is None:
            day = self.dates[text] = _parse_date(text, self.order)
        return day

    def number(self, text: str) -> Decimal:
        if not _DIGIT.search(text):  # also keeps a lone `-` away from parse_amount, which trips on it
            raise AmountError(f"not an amount: {text!r}")
        return parse_amount(text, self.decimal_sep)


def _written_currency(amounts: list[str]) -> str | None:
    """The currency every amount that writes one writes beside its number (`T-£12.50`, a UK
    bank's QIF): QIF has no field for it."""
    written = set(map(cell_currency, set(amounts))) - {None}
    return written.pop() if len(written) == 1 else None


def _unnamed_key(section: str) -> str:
    """The account key of a section no `!Account` block names: one account per kind of section."""
    return "default" if section == "bank" else f"default-{section.replace(' ', '-')}"


def _whole(minor: Decimal) -> int:
    """Exact minor units rounded half to even, as amounts finer than the currency are elsewhere."""
    return int(minor.quantize(Decimal(1), ROUND_HALF_EVEN))


def _complete(record: _Record) -> bool:
    """A last record with neither `^` nor a line break after it may be cut short. It is read when
    nothing cut could change its money or its date: it has both, and its last line is neither."""
    codes = [code for code, _, _ in record.fields]
    return "D" in codes and not {"T", "U", "$"}.isdisjoint(codes) and codes[-1] not in ("D", "T", "U", "$", "%")


def _describe(payee: str, memo: str, category: str | None, transfer: str | None) -> str:
    """The payee, with the memo when it says something the payee does not."""
    if payee and memo and memo.casefold() not in payee.casefold():
        return f"{payee} - {memo}"
    return payee or memo or (f"Transfer: {transfer}" if transfer else category) or "(no description)"


def _detect(text: str) -> int:
    for line in text[:4096].lstrip("\ufeff").split("\n"):
        stripped = line.strip()
        if not stripped or stripped.startswith("#") or stripped == "^":
            continue
        return 95 if _HEADER.match(stripped) else 0
    return 0


def read_issuer_side(result: ParseResult, account: ParsedAccount, remembered: bool = False) -> None:
    """A card section that writes its payments (`PAYMENT RECEIVED - THANK YOU`) negative and
    most other rows positive is signed from the issuer's side, as some banks' card downloads
    are: charges positive. Quicken's own card register writes charges negative and payments
    positive. Read the other way round, as the card CSV and OFX readers do, and say so. A card
    `remembered` so (its last download, or `--format qif_issuer`) is read so without a payment to
    show it, unless the section shows Quicken's way: a payment in, or a month of charges out (a
    row or two may be refunds, which the issuer signs negative)."""
    rows = [row for row in result.transactions if row.account_key == account.key]
    paid = [CARD_PAYMENT.search(row.description) is not None for row in rows]
    payments = [row.amount for row, is_payment in zip(rows, paid) if is_payment]
    others = [row.amount for row, is_payment in zip(rows, paid) if not is_payment]
    charged_out = sum(row.amount < 0 and not _MONEY_BACK.search(row.description) for row, is_payment in zip(rows, paid) if not is_payment)
    name = account.name or "the card"
    positive, negative = sum(a > 0 for a in others), sum(a < 0 for a in others)
    doubt = (f"{name}: every amount is positive, read as money in (payments, refunds); if they are charges, undo and import"
             f" with --format {QIF_ISSUER}")
    quickens_way = (payments and min(payments) > 0) or (negative > positive and charged_out >= QUICKENS_CHARGES_MIN)
    if remembered and not quickens_way:
        said = f"{name}: read from the issuer's side (charges positive), as its earlier downloads or --format {QIF_ISSUER} say"
        if doubt in result.warnings:  # the first reading's, before the card's account was known
            result.warnings.remove(doubt)
    elif payments and max(payments) < 0 and positive > negative:
        said = f"{name}: its payments are negative and its charges positive (the issuer's side): every amount is read the other way round"
    else:
        if rows and min(row.amount for row in rows) > 0 and doubt not in result.warnings:
            result.warnings.append(doubt)
        return
    for row in rows:
        row.amount = -row.amount
        for split in row.splits:
            split.amount = -split.amount
    result.format = QIF_ISSUER
    result.issuer_side.append(account.key)
    result.warnings.append(said)


_MONEY_BACK = re.compile(r"refund|return|credit|reversal|rebate", re.I)  # a card's rows that are no charge


QUICKENS_CHARGES_MIN = 3  # charges (no refunds) written negative, at the least, that show a card section is Quicken's own way
QIF, QIF_ISSUER = "qif", "qif_issuer"  # the second: card sections signed from the issuer's side (charges positive)


class _QifFormat:
    def __init__(self, name: str, issuer_side: bool = False):
        self.name, self.issuer_side = name, issuer_side

    def detect(self, text: str) -> int:
        return 0 if self.issuer_side else _detect(text)  # by --format only (a card's memory reads its own section)

    def parse(self, text: str, source: str, currency: str | None = None) -> ParseResult:
        return _QifParser(text, source, currency, self.issuer_side).parse()


FORMATS = [_QifFormat(QIF), _QifFormat(QIF_ISSUER, issuer_side=True)]
