"""CSV exports: the one engine every CSV format goes through, and the generic mapper.

A CSV format is a *layout*: which column holds the date, the amount (or debit/credit), the
text, the balance and so on. The generic mapper derives the layout from header names in several
languages; a named bank dialect (`csv_banks`) states it. Either way the same code finds the
header row (`csv_layout`), decides the date format and decimal separator once per column, and
turns the cells (read by `csv_read`) into `ParsedRows` a column at a time, so a fix to row
handling helps every bank at once.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from functools import cached_property, partial
from itertools import compress, permutations, repeat
from operator import contains, itemgetter, not_

from wilson.importers.csv_headers import (
    MONEY_ROLES, cell_currency, classify, currency_code, header_currency, language_currency, normalise_header,
)
from wilson.importers.csv_layout import MAX_COLUMNS, Layout, head_of, layout_from_header, sniff
from wilson.importers.csv_money import (
    currency_cell, directed, grouped_cells_joined, less_fee, money_column, original_amount, row_currency, split_amount, split_parts,
)
from wilson.importers.csv_read import has_long_line, read_records, uniform_columns
from wilson.importers.csv_sections import joined_sections, section_title, titled_tables
from wilson.importers.csv_statement import disagreement, running_disagreement, stated_balances
from wilson.importers.dates import DAY_NUMBER, DateColumn, infer_date_format
from wilson.importers.model import (
    ACCOUNT_TYPES, ImportRefused, ParsedAccount, ParsedRows, ParseResult, ParsedSplit, RowError, lines_named, name_from_file,
    payee_of, per_distinct, squeeze, type_named,
)
from wilson.money import direction_mark, exponent, guess_decimal_separator

MAX_ROW_CHARS = 64 * 1024
_DELIMITER_NAMES = {",": "a comma", ";": "a semicolon", "\t": "a tab", "|": "a bar"}
_AMOUNT_CELL = re.compile(r"[-+]?\(?[$€£]?\s?\d[\d.,' ]*[.,]\d\d\)?")  # `-250.00`, `1.234,56`: money, not words
_DATE_SHAPE = re.compile(r"\d{1,4}([./-])\d{1,2}\1\d{1,4}")  # `23.11.2026`, `2026-11-23`: no amount
MAX_DESCRIPTION_CHARS = 4 * 1024

CARD_POSITIVE_SHARE = 0.5  # of a file's rows at least this many positive before its payments are checked (refunds are negative too)
UNSURE_SIGNS_SHARE, UNSURE_SIGNS_MIN = 0.8, 3  # this many rows positive, and no payment: a card's charges or money in? (warned)
_MONEY_IN = re.compile(
    r"deposit|interest|dividend|payroll|salary|direct dep|transfer|xfer|zelle|venmo|refund|reversal|cash ?back|rebate|"
    r"gehalt|lohn|zinsen|gutschrift|einzahlung|[uü]berweisung|salaire|virement|int[ée]r[eê]ts",
    re.I,
)
# How a card statement names the holder's payment; the bank side says `CARD AUTOPAY`, `EPAYMENT`.
CARD_SAMPLE = 2000  # rows a card's signs and words are told from
_THANKED = re.compile(r"(?:payment|pymt|pmt).{0,24}thank\b|zahlung.{0,3}danke|danke f(?:ü|ue)r ihre zahlung", re.I)
CARD_PAYMENT_WORDS = re.compile(
    r"(?:payment|pymt|pmt).{0,24}thank\b|(?:payment|pymt|pmt) received|pagamento rece?bido|pago recibido|paiement re[cç]u|zahlung erhalten|"
    r"betaling ontvangen|pagamento ricevuto|zahlung.{0,3}danke|danke f(?:ü|ue)r ihre zahlung",
    re.I,
)


def _unexplained(amounts: list, descriptions: list[str]) -> bool:
    """Whether few of the rows of money in read as money coming in (deposits, pay, interest)."""
    inflows = [text for a, text in zip(amounts[:2000], descriptions) if a.__class__ is int and a > 0]
    return sum(map(bool, per_distinct(_MONEY_IN.search, inflows))) * 2 < len(inflows)


def _adds_up(amounts: list, posted: list, totals: list[int], i: int, booked: Callable[[int, int], bool]) -> bool:
    """Whether dated row i, whose text is a total word (`TOTAL`, `Daily total`), is a totals line:
    it has no amount of its own, or its amount adds up the `booked` rows (not balance lines,
    pending rows or other totals) between it and the totals line (`totals`: the rows whose text
    is one) or the file's end before or after it: all of them, that day's, or their debits or
    credits alone. Otherwise it is a purchase: `TOTAL` is how TotalEnergies' stations appear on
    card statements."""
    amount = amounts[i]
    if amount.__class__ is not int:
        return True
    start = max((j + 1 for j in totals if j < i), default=0)
    end = min((j for j in totals if j > i), default=len(amounts))
    spans = {range(start, i), range(i + 1, end)}
    spans |= {range(i)} if i == totals[-1] else set()  # the file's total at its end, or at its top
    spans |= {range(i + 1, len(amounts))} if i == totals[0] else set()
    for rows in spans:
        money = [(amounts[j], posted[j]) for j in rows if amounts[j].__class__ is int and booked(j, i)]
        sums = {sum(a for a, _ in money), sum(a for a, day in money if day == posted[i]),
                sum(a for a, _ in money if a < 0), sum(a for a, _ in money if a > 0)}
        if money and (amount in sums or -amount in sums):
            return True
    return False


_PAYMENT_WORD = re.compile(r"\b(?:payment|pymt|pmt|paiement|pago|pagamento|zahlung|betaling)\b", re.I)
# A shop's money back on a card (`TARGET 00012345 RETURN`, `AMAZON REFUND`, `STATEMENT CREDIT`): a
# bank books it as money in, so written negative it shows the issuer's side, charges positive. A
# bank's own returns (`RETURNED ITEM FEE`, `NSF RETURN`, `ACH RETURN`) are money out.
_MONEY_BACK = re.compile(
    r"(?<!\bach )(?<!\bnsf )\b(?:refund|return)\b(?!\s*(?:item|check|chk|fee|payment|pmt|deposit))|statement credit|\bcredit adj",
    re.I,
)
_OUTFLOW_CELL = re.compile(r"[(\-−]|.*\d-$")  # `-12.50`, `- $12.50`, `(12.50)`, `12.50-`
HOLDER_SHARE = 0.8  # of the rows naming parties that must name one person for it to be the holder
_CARD_WORDS = {
    "sale": -1, "purchase": -1, "fee": -1, "interest": -1, "charge": -1,
    "payment": 1, "return": 1, "refund": 1, "credit": 1,
}
DIRECTION_SHARE = 0.95  # of a column's filled cells that must be direction words for it to count as D/C flags
DIRECTION_WORDS = {
    "d": -1, "dr": -1, "debit": -1, "s": -1, "soll": -1, "outflow": -1, "kiadas": -1, "withdrawal": -1, "-": -1, "af": -1, "debet": -1,
    "c": 1, "k": 1, "cr": 1, "credit": 1, "h": 1, "haben": 1, "inflow": 1, "bevetel": 1, "deposit": 1, "+": 1, "bij": 1,
    "i": 1, "in": 1, "o": -1, "out": -1,  # In/Out flags
    "refund": 1, "debito": -1, "débito": -1, "credito": 1, "crédito": 1, "kredit": 1,  # Tatra banka: `Debet`/`Kredit`
    "dbit": -1, "crdt": 1,  # ISO 20022's codes (CAMT): Virgin Money's card writes them in `Debit or Credit`
    "neutral": -1,  # Wise: a conversion between own balances leaves one of them (see `_both_sides`)
    "χ": -1, "π": 1,  # Greek: Χρέωση, Πίστωση
    "支出": -1, "收入": 1,  # Alipay's and WeChat Pay's `收/支`
}
_WORD = re.compile(r"[^\W\d_]{4,}")
_UNITS = re.compile(r"\([^)\d]*\)")  # `(EUR)` under a header name
_A_LETTER = re.compile(r"[^\W\d_]")
_IBAN = re.compile(r"[A-Z]{2}\d{2}[A-Z0-9]{10,30}")
# A totals line where the date or (on a row without one) the text goes: never a transaction; on a
# dated row only text that is nothing but a total (`Daily total`; `TOTAL WINE & MORE` is a shop).
_TOTALS = re.compile(
    r"(grand\s+|sub-?|transactions?\s+)?totals?\b|total\s+(debits|credits)|net\s+(change|movement)\b|summe\b|gesamt|totaal|totale\b|sous-total",
    re.I,
)
_AS_OF = re.compile(r"(?<=\d)\s+as of\s+\S+$", re.I)
_TOTAL_TEXT = re.compile(  # Quicken's report: `TOTAL INFLOWS`, `TOTAL OUTFLOWS`, `NET TOTAL`
    r"((daily|day|grand|sub-?|monthly|net)\s*)?totals?(\s+(for\b.*|in-?flows?|out-?flows?|income|expenses?|debits?|credits?"
    r"|deposits?|withdrawals?|payments?|charges?))?:?|net\s+(change|movement):?",
    re.I,
)
_PENDING = re.compile(
    r"pending|pendient|pendent|vorgemerkt|authori[sz]|in bearbeitung|en attente|nicht gebucht|ausstehend|^offen$|^neu$|^reserve|^varaus"
    r"|^venter\b|^v(?:ä|a)ntande"  # Danske: `Venter`, waiting
    r"|autorizzat|in lavorazione|non contabilizzat|da contabilizzare|in sospeso"  # Fineco's `Autorizzato`, PayPal's `In sospeso`
    r"|in behandeling|oczekuj"  # Dutch and Polish: being processed, awaited
    r"|^等待|处理中|處理中",  # Alipay's `等待付款`, processing
    re.I,
)
_YES = re.compile(r"ja|yes|oui|si|sí|1|true|x", re.I)
_MEMO = re.compile(r"m[eé]mo", re.I)  # PayPal's balance impact of a row that moved no money (`Mémo` in French)
_REVERTED = re.compile(
    r"revert|expired|abgelaufen|declin|denied|fail|cancel|storn|abgelehnt|r(?:ü|ue|u)ckg(?:ä|ae|a)ngig|zur(?:ü|ue|u)ckgesetzt|fehlgeschlagen"
    r"|reject|void|refus|rechaz|recus|rifiut|geweigerd|afgewezen|odrzuc|annul|anulad|anulow"  # `Annulé`, `Anulado`, `Anulowano`
    r"|交易关闭|交易關閉|失败|失敗|已撤销|已取消",  # Alipay: a closed (never paid) order, failed, cancelled
    re.I,
)
_SUMMARY = re.compile(
    r"(opening|closing|beginning|ending|starting|previous|new) balance\b|turnover$|anfangssaldo|endsaldo|tagessaldo|"
    r"schlusssaldo|saldo (alt|neu|anfang|ende)|solde (initial|final|precedent|au)|solde en (d[ée]but|debut|fin) de p[ée]riode|kontostand (alt|neu|vom|am)|"
    r"(alter|neuer|aktueller) kontostand|kontostand\b(?:\s*(?:in\s+)?[a-z]{3})?\s*:?\s*$|#?saldo (koncowe|końcowe|poczatkowe|początkowe)|saldo (anterior|inicial|final|total|do dia|del dia|contabil[ií]stico|dispon[ií]vel)|"
    r"account balance:?$|accrued interest$|s ?a ?l ?d ?o:?$|liczba transakcji|number of transactions|anzahl (?:der )?(?:ums(?:ä|ae)tze|buchungen)|saldo (iniziale|finale|contabile)|beginsaldo|eindsaldo|"
    # Swedbank's Baltic and Swedish statements, and the Nordic words: opening, closing, turnover, accrued interest
    r"(s[aā]kuma|beigu) atlikums|apgroz[iī]jums$|uzkr[aā]tie procenti$|algsaldo|l[oõ]ppsaldo|k[aä]ive$|(pradinis|galutinis) likutis|"
    r"apyvarta$|sukauptos pal[uū]kanos|(ing[aå]ende|inng[aå]ende|utg[aå]ende) saldo|oms[aä]ttning$|upplupen r[aä]nta|alkusaldo|loppusaldo|"
    # UK, Indian and Gulf statements open with the balance brought forward and may end with the one
    # carried forward: `BALANCE BROUGHT FORWARD`, `Balance b/f`, `B/F BALANCE`, `Carried Forward`
    r"(bal(ance)?\.?\s+)?((brought|carried)\s+(forward|fwd)|[bc]/f(wd)?)\b(\s+bal(ance)?\b)?|balance\s+forward\b",
    re.I,
)
# A dated row that is a balance line says only that (`Beginning balance as of 01/01/2025`): `NEW
# BALANCE ATHLETICS #0123` and `Closing balance adjustment fee` are purchases.
_SUMMARY_LINE = re.compile(
    rf"(?:{_SUMMARY.pattern})(?:\s+(?:as\s+(?:of|at)|on|per|vom|am|au|al|du|del|zum))?[\s:]*(?:\d{{1,4}}[./-]\d{{1,2}}[./-]\d{{1,4}})?\.?\s*",
    re.I,
)
# Either, in one C-level pass over a column of 100k distinct descriptions, lowercased first: the
# pattern matches its alternatives letter by letter, twice as fast as re.I folding each letter.
_SUMMARY_OR_TOTAL = re.compile(rf"(?:{_SUMMARY.pattern})|(?:{_TOTAL_TEXT.pattern})\Z")
UNPOSTED_DAYS = 10  # a card purchase posts within days
_SWISS_GROUPING = re.compile(r"\d['’]\d{3}(?!\d)")
_LAKH = re.compile(r"(?<![\d,])\d{1,2},\d\d,\d{3}(?:\.\d\d)?(?!\d)")
_DECISIVE = re.compile(r"[.,]\d{1,2}(?!\d)|\d[.,]\d{3}[.,]")
_UNGROUPED = {  # numbers a lone separator cannot be grouping: `1500.000`, `-0.500`, `-45.6700` (U.S. Bank)
    sep: re.compile(rf"(?<![\d.,'])(?:0|\d{{4,}}){re.escape(sep)}\d{{3}}(?!\d)|{re.escape(sep)}\d{{4,}}") for sep in ".,"
}
_SORT_CODE_ACCOUNT = re.compile(r"\d\d-?\d\d-?\d\d[\s-]+\d{6,8}")  # `20-32-06 13152170`, `123456-12345678`
_MONTH_FIRST = ("USD", "CAD", "PHP")  # currencies whose banks commonly write dates month first
_COMMISSION = ("commission", "provision", "courtage")  # a broker's column beside its fees (English, German, French)
_OWN_CURRENCY = {"original_amount": "original_currency", "amount_in": "currency_in"}  # money columns in another column's currencies


# ------------------------------------------------------------------------------------- conversion


@dataclass
class AccountInfo:
    """What a dialect knows about the account beyond the rows."""

    name: str | None = None
    type: str = "checking"
    institution: str | None = None
    currency: str | None = None


@dataclass
class Options:
    format: str
    account: AccountInfo = field(default_factory=AccountInfo)
    negate: bool | None = None  # True: the bank writes charges positive; None: tell from the rows
    day_first: bool | None = None  # None: decide from the file's hints
    currency: str | None = None  # the user's, for a file that states none
    decimal: str | None = None  # the bank's own decimal mark, where its layout fixes one


def parse_table(text: str, source: str, delimiter: str, header_line: int | None, layout_for, options: Options) -> ParseResult:
    """Rows of `text` to a ParseResult; `layout_for(header_cells)` maps the header to a Layout."""
    try:
        conversion = _Conversion(text, source, delimiter, header_line, layout_for, options)
        if conversion.sections:  # several accounts' tables, each read as a file of its own
            lines = text.split("\n")
            return joined_sections(options.format, [
                _Conversion("\n" * (first - 1) + "\n".join(lines[first - 1 : end and end - 1]) + ("\n" if end else ""), source,
                            delimiter, header, layout_for, options).run()  # a table the file goes on after ends its last line
                if skipped is None else ParseResult(options.format, [], [], warnings=[skipped])
                for first, end, header, skipped in conversion.sections
            ])
        return conversion.run()
    except ImportRefused:
        raise
    except Exception as exc:  # a bug must not surface as a traceback to the user
        raise ImportRefused(source, f"could not read this CSV ({type(exc).__name__}: {exc})") from exc


class _Conversion:
    """One parse: the analysis that decides formats per column, then the row loop."""

    def __init__(self, text, source, delimiter, header_line, layout_for, options: Options):
        self.source, self.options, self.delimiter = source, options, delimiter
        self.header: list[str] = []
        self.preamble: list[list[str]] = []
        self.errors: list[RowError] = []
        self.refused: dict[int, RowError] = {}
        self.card: str | None = None  # how the rows showed a card statement that writes charges positive
        self.currency_guessed = False  # set when the file states no currency
        self.cut_short = False  # the text stops without a line end: its last row may be cut (`_cut_row`)
        self.cut_row: int | None = None
        self.unbooked: set[int] = set()  # rows with a purchase date but no booking date yet: pending
        self.balance_rows: list[int] = []  # rows that state a balance (comdirect's `Alter Kontostand` under the table)
        self.sections: list[tuple[int, int | None, int, str | None]] = []  # per titled table, see `titled_tables`
        self.warnings: list[str] = []  # what the reading had to decide that the user should know
        self.sign_reading: str | None = None  # see ParseResult.sign_reading
        self.per_currency = False  # the rows' currencies are the accounts (no account column)
        self.owed = False  # the balance is a card's owed, which its issuer may write positive (`_owed_turned_round`)
        self.purchases: int | None = None  # a currency column that turned out to be the purchases' (`_purchase_currencies`)
        self.billed_in: str | None = None  # the account's currency, told by its purchases' (`_billing_currency`)
        # Only a file with a 64 KB stretch free of line breaks can hold a row that long (give or take
        # quoted line breaks, which the 4 KB description check still catches); most files skip the check.
        self.check_sizes = has_long_line(text, MAX_ROW_CHARS)
        # Column-wise from here on: every later step maps over a column instead of looping over rows.
        if not self._read_uniform(text, header_line, layout_for):
            self._read_records(text, header_line, layout_for)
            if self.sections:
                return  # `parse_table` reads each table on its own
        if header_line is None:
            self._check_width()
        self._drop_text_markers()
        if layout_for is layout_from_header:
            self._merge_second_header()
            self._currencies_named_as_dates()
            self._value_dates()
            self._amount_in_one_currency()
            self._purchase_currencies()
            self._references_in_words()
            self._years_from_value_dates()
        self._clean_party_columns()

    def _check_width(self) -> None:
        """A headerless bank layout (Wells Fargo's five columns) named with --format over a narrower
        file: refused as what it is, not with an index error."""
        layout = self.layout
        needed = max((*layout.dates, *layout.texts, *layout.kinds, *layout.single.values()), default=-1) + 1
        if self.count and needed > len(self.columns):
            raise ImportRefused(
                self.source, f"its rows have {len(self.columns)} columns, {self.options.format}'s at least {needed}: is it another format?"
            )

    def _drop_text_markers(self) -> None:
        """NatWest starts text cells with `'` (Excel's mark for "this is text"), ASN wraps them in
        a pair of `'`: not part of the value."""
        for index, column in enumerate(self.columns):
            sample = [cell for cell in column[:200] if cell]
            if sample and sum(cell.startswith("'") for cell in sample) * 2 >= len(sample):
                wrapped = all(cell.endswith("'") and len(cell) > 1 for cell in sample if cell.startswith("'"))
                self.columns[index] = [
                    (cell[1:-1] if wrapped else cell[1:]) if cell.startswith("'") else cell for cell in column
                ]

    def _merge_second_header(self) -> None:
        """A first row of header names or units is the header's second line (`,,Debit,Credit` under
        `Amount`, `,,(EUR),(EUR)`): its names take their columns, its units join theirs; then it goes."""
        if not self.count:
            return
        below = [column[0].strip() for column in self.columns]
        if not any(below) or not all(classify(cell) or _UNITS.fullmatch(cell) for cell in below if cell):
            return
        header = list(self.header) + [""] * (len(below) - len(self.header))
        self.header = [
            sub if classify(sub) else f"{head} {sub}" if sub.startswith("(") else head for head, sub in zip(header, below)
        ]
        self.layout = layout_from_header(self.header)
        self.columns = [column[1:] for column in self.columns]
        self.lines, self.count = self.lines[1:], self.count - 1
        self.refused = {i - 1: error for i, error in self.refused.items() if i}

    def _currencies_named_as_dates(self) -> None:
        """A date column whose cells are all currency codes is the file's currency column: `Valuta`
        is a value date in German and Dutch, the currency in Swedish (Nordea's, Swedbank's)."""
        for index in list(self.layout.dates):
            cells = {cell.strip() for cell in self._column(index, 200)} - {""}
            if cells and all(map(currency_code, cells)):
                self.layout.dates.remove(index)
                self.layout.single.setdefault("currency", index)

    def _value_dates(self) -> None:
        """An amount column of dates beside credit and debit columns is a date column: PostFinance's
        `Value` is the value date; elsewhere `Value` is the signed amount."""
        single = self.layout.single
        if not {"amount", "debit", "credit"} <= single.keys():
            return
        cells = [cell.strip() for cell in self._column(single["amount"], 200) if cell.strip()]
        if cells and all(map(_DATE_SHAPE.fullmatch, cells)):
            self.layout.dates.append(single.pop("amount"))

    def _amount_in_one_currency(self) -> None:
        """`Amount;Currency;Amount (USD)` whose Currency says one other currency on every row (EUR,
        salary and all): the plain amount is the account's, and the named one a conversion for
        show, not what moved."""
        single = self.layout.single
        currency_i = single.get("original_currency", single.get("currency"))
        if "original_amount" not in single or "amount" not in single or currency_i is None:
            return
        named = header_currency(self.header[single["amount"]])
        cells = self.columns[currency_i][:1000]
        codes = set(map(currency_cell, cells))  # None for a blank cell: N26 names only a purchase abroad's
        if named and len(codes) == 1 and None not in codes and named not in codes and not header_currency(self.header[single["original_amount"]]):
            single["amount"] = single.pop("original_amount")
            single.pop("original_currency", None)
            single["currency"] = currency_i

    def _purchase_currencies(self) -> None:
        """A currency column of several currencies beside an original amount that has none of its
        own is the original amount's (`Payment currency`, `Original amount`): the amounts are the
        account's, whatever each purchase was paid in. A purchase's currency beside no original
        amount (Virgin Money's card's `Transaction Currency` beside its `Billing Amount`) may tell
        the account's (`_billing_currency`)."""
        single = self.layout.single
        if "currency" in single and "original_amount" in single and "original_currency" not in single:
            if len(set(filter(None, map(currency_cell, self._column(single["currency"], 1000))))) > 1:
                single["original_currency"] = self.purchases = single.pop("currency")
        elif "original_currency" in single and "original_amount" not in single and "currency" not in single:
            self.billed_in = self._billing_currency(single.pop("original_currency"))

    def _billing_currency(self, index: int) -> str | None:
        """The account's currency, from what each purchase was paid in beside no original amount:
        the one they all name, else the one money in names (a payment to the card is in its own
        currency; a month abroad's purchases, the most of them, are not). None when some purchases
        name none: those are in the account's own currency, which the file leaves unsaid (Mercury's
        `Original Currency` is filled only on a purchase abroad); a payment to the card naming none
        (Virgin Money's `CRDT` row) says nothing of it."""
        column = self.columns[index]
        direction = self.layout.single.get("direction")
        flags = self.columns[direction] if direction is not None else repeat("")
        if any(not cell.strip() and DIRECTION_WORDS.get(flag.strip().lower()) != 1 for cell, flag in zip(column, flags)):
            return None
        codes = per_distinct(currency_cell, column)
        named = set(filter(None, codes))
        if len(named) != 1 and direction is not None:
            named = {code for code, flag in zip(codes, self.columns[direction]) if code and DIRECTION_WORDS.get(flag.strip().lower()) == 1}
        return named.pop() if len(named) == 1 else None

    def _references_in_words(self) -> None:
        """In a file with no text column, a reference column written in words is the transaction's
        text, not an id: Metro Bank's `Reference` holds `SAINSBURYS S/MKTS` beside only a type."""
        index = self.layout.single.get("bank_id")
        cells = [cell.strip() for cell in self._column(index, 200) if cell.strip()] if not self.layout.texts else []
        if cells and sum(" " in cell or not any(map(str.isdigit, cell)) for cell in cells) * 2 > len(cells):
            del self.layout.single["bank_id"]
            self.layout.texts.append(index)

    def _years_from_value_dates(self) -> None:
        """Sparkasse's CSV-MT940 writes its booking day without a year (`12.03.`, as MT940 books
        it) beside a value date with one (`12.03.25`): the booking day takes the value date's year,
        the one before or after when the two straddle a new year (`02.01.` valued `31.12.24`)."""
        if len(self.layout.dates) < 2:
            return
        first = self.layout.dates[0]
        for other in self.layout.dates[1:]:
            pairs = list(zip(self.columns[first], self.columns[other]))
            matched = [(_YEARLESS.fullmatch(day.strip()), _DATED.fullmatch(dated.strip())) for day, dated in pairs]
            if matched and all(day and dated for day, dated in matched):
                self.columns[first] = [_with_year(day, dated) for day, dated in matched]
                return

    def _clean_party_columns(self) -> None:
        """Blank party cells that name nobody: account numbers and IBANs (Nordea writes the payer's),
        and the account holder's own name in a pair of party columns (`From`/`To`, `Auftraggeber`/
        `Empfänger`), which is on most rows beside the other party."""
        payees = self.layout.payees
        for index in payees:
            self.columns[index] = per_distinct(_name_or_blank, self.columns[index])
        if len(payees) < 2 or self.count < 2:
            return
        rows = list(zip(*(self.columns[i] for i in payees)))
        named = [{c.strip() for c in cells} - {""} for cells in rows]
        seen = Counter(value for names in named for value in names)
        if not seen:
            return
        times = seen.most_common(1)[0][1]
        if times < HOLDER_SHARE * sum(map(bool, named)):
            return
        holder = self._holder([name for name, count in seen.items() if count == times], rows)
        if holder is None:
            return
        for index in payees:
            self.columns[index] = [
                "" if cell.strip() == holder and any(c.strip() not in ("", holder) for c in cells) else cell
                for cell, cells in zip(self.columns[index], rows)
            ]

    def _holder(self, candidates: list[str], rows: list[tuple[str, ...]]) -> str | None:
        """Of names on equally many rows (a short Venmo file: the holder pays one, is paid by the
        other), the one that pays from the first party column and is paid in the last, as a
        `From`/`To` pair is written; None when that does not tell them apart either."""
        if len(candidates) == 1:
            return candidates[0]
        amount_i = self.layout.single.get("amount")
        if amount_i is None:
            return None
        signs = [_OUTFLOW_CELL.match(cell.strip()) is not None for cell in self.columns[amount_i]]
        score = Counter(
            name for cells, out in zip(rows, signs) for name in candidates if cells[0 if out else -1].strip() == name
        )
        ranked = score.most_common(2)
        return ranked[0][0] if ranked and (len(ranked) == 1 or ranked[0][1] > ranked[1][1]) else None

    def _read_uniform(self, text: str, header_line: int | None, layout_for) -> bool:
        """The fast read, for the usual export: nothing quoted, every row as wide as the header, no
        blank or repeated header rows. False (nothing set) when the file needs `_read_records`."""
        first = (header_line or 0) + 1
        block = None if self.check_sizes else uniform_columns(text, self.delimiter, first)
        if block is None:
            return False
        start, columns = block
        head = read_records(text[:start], self.delimiter)[1] if header_line else [[]]
        if not head:  # the header is no record (a quote left open): the general read says where
            return False
        header = head[-1]
        if (header and len(header) != len(columns)) or "" in columns[0] or (header and header[0] in columns[0]):
            return False
        self.header, self.preamble = header, head[:-1]
        self.layout: Layout = layout_for(header)
        self.count, self.width, self.columns = len(columns[0]), len(columns), columns
        self.lines: Sequence[int] = range(first, first + self.count)
        return True

    def _read_records(self, text: str, header_line: int | None, layout_for) -> None:
        """The general read: quoted fields, line breaks inside them, ragged, blank and repeated rows."""
        lines, records, self.errors, warnings = read_records(text, self.delimiter)
        self.cut_short = not text.endswith(("\n", "\r"))  # the last line has no end: the file may stop inside it
        self.warnings += warnings
        self.sections = titled_tables(lines, records, header_line)
        if self.sections:
            return
        if header_line is not None and header_line in lines:
            pos = lines.index(header_line)
            self.header, self.preamble = records[pos], records[:pos]
            lines, records = lines[pos + 1 :], records[pos + 1 :]
        self.layout = layout_for(self.header)
        lines, records = self._data_rows(lines, records)
        self._rejoin_thousands(lines, records)
        self.width = max([len(self.header)] + [len(c) for c in records[:200]])
        self.lines, self.refused = lines, self._shaped(lines, records)
        self.count = len(records)
        # `zip(*records)` transposes in C.
        self.columns: list[Sequence[str]] = list(zip(*records)) if records else [()] * self.width

    def _data_rows(self, lines: Sequence[int], records: list[list[str]]) -> tuple[Sequence[int], list[list[str]]]:
        """Records minus empty lines and copies of the header (some banks repeat it at the end), and
        in exports joined by `cat`, the lines above each copy that repeat the file's first lines
        (Bank of America's `Description,,Summary Amt.` block before each statement's header)."""
        header = [c.strip() for c in self.header]
        first = self.header[0] if self.header else None
        if [] not in records:
            starts = list(map(itemgetter(0), records))
            if not starts.count("") and (first is None or not starts.count(first)):
                return lines, records  # no row can be blank or a header: the usual case, checked in C
        keep: list[int] = []
        copies: list[int] = []  # the header's copies
        for i, cells in enumerate(records):
            if not any(cells):
                continue
            if cells[0] == first and [c.strip() for c in cells[: len(header)]] == header:
                copies.append(i)
            else:
                keep.append(i)
        opening = next((_trimmed(cells) for cells in self.preamble if any(cells)), None) if copies else None
        restarts: set[int] = set()
        for copy in copies if opening else ():  # the nearest line before a copy that starts the file again, if near enough
            restart = next((
                i for i in range(copy - 1, max(-1, copy - len(self.preamble) - 2), -1) if _trimmed(records[i]) == opening
            ), None)
            if restart is not None:
                restarts.update(range(restart, copy))
        if restarts:
            keep = [i for i in keep if i not in restarts]
        return [lines[i] for i in keep], [records[i] for i in keep]

    def _rejoin_thousands(self, lines: Sequence[int], records: list[list[str]]) -> None:
        """Put back amounts an export wrote with a bare thousands comma (`-1,250.00` unquoted, which
        Chase has done) and the comma split in two: read as they fall, the row books -1.00 and shifts
        every later column. A row wider than the header is rejoined where a money column's cell and
        the next read as one grouped number, when that leaves nothing past the header's columns and
        the row as wide as the rows that needed nothing (trailing commas may make them wider than
        the header)."""
        if self.delimiter != "," or not self.header:
            return
        money = {i for role, i in self.layout.single.items() if role in MONEY_ROLES}
        named = len(self.header)
        rejoined = {}
        for i, cells in enumerate(records):
            if len(cells) > named and money:
                joined = grouped_cells_joined(cells, money, len(cells) - named)
                if len(joined) < len(cells) and not any(map(str.strip, joined[named:])):
                    rejoined[i] = joined
        if not rejoined:
            return
        kept = Counter(len(cells) for i, cells in enumerate(records) if i not in rejoined)
        usual = (kept or Counter(map(len, rejoined.values()))).most_common(1)[0][0]
        named_lines = []
        for i, joined in rejoined.items():
            if len(joined) == usual:
                records[i] = joined
                named_lines.append(lines[i])
        if named_lines:
            self.warnings.append(
                f"{lines_named(named_lines)}: an amount written with an unquoted thousands comma (`1,250.00`), read as one amount"
            )

    def _shaped(self, lines: Sequence[int], records: list[list[str]]) -> dict[int, RowError]:
        """Pad short records to the file's width (in place); returns the rows whose shape alone refuses them."""
        refused: dict[int, RowError] = {}
        header_width = len(self.header) or None
        widths = set(map(len, records))
        if not widths or (widths == {self.width} and not self.check_sizes):
            return refused
        last_is_text = bool(header_width) and header_width - 1 in self.layout.texts
        usual = Counter(map(len, records)).most_common(1)[0][0]  # Chase writes a comma after every row's last field
        self.cut_row = self._cut_row(records)
        for i, cells in enumerate(records):
            filled = [c.strip() for c in cells if c.strip()]
            prose = i == len(records) - 1 and len(filled) == 1 and _prose(filled[0])
            if prose:
                cells = records[i] = filled + [""] * (self.width - 1)  # Robinhood's disclaimer in a column of its own
            wide = bool(header_width) and len(cells) > header_width
            # an amount where a last text column runs on is the row's own, shifted by a comma earlier
            # (`ZELLE REF 5,00,-250.00,` with an empty memo), not its text
            shifted = wide and last_is_text and any(_AMOUNT_CELL.fullmatch(c.strip()) for c in cells[header_width - 1 :])
            if len(cells) > MAX_COLUMNS:
                refused[i] = RowError(lines[i], f"{len(cells)} columns; more than {MAX_COLUMNS} is not a bank export row")
            elif wide and (
                shifted or any(c.strip() for c in cells[header_width:])
                # every row ends with a delimiter (Chase): one more field is a value split, not a stray comma
                or len(cells) > usual > header_width and not prose
            ):
                if last_is_text and not shifted:
                    # its text runs on: Livebank's `Umsatztext` in several fields, an unquoted `ACME, INC`
                    cells = records[i] = [*cells[: header_width - 1], self.delimiter.join(cells[header_width - 1 :]).rstrip(self.delimiter)]
                else:
                    unquoted = _DELIMITER_NAMES.get(self.delimiter, repr(self.delimiter))
                    refused[i] = RowError(lines[i], f"{len(cells)} fields but the header has {header_width}; is a value holding {unquoted} not quoted?")
            if i not in refused and self.check_sizes and sum(map(len, cells)) > MAX_ROW_CHARS:
                refused[i] = RowError(lines[i], "row is longer than 64 KB")
            if len(cells) < self.width:
                records[i] = cells + [""] * (self.width - len(cells))
        return refused

    def _cut_row(self, records: list[list[str]]) -> int | None:
        """The last record, when the file may stop inside it: no line end after it, and fewer fields
        than the header and every other row have (a download cut in `-150.00` reads `-15`). Refused
        in `_settle` if it reads as a transaction: a balance or totals line under the table is short
        anyway (comdirect's `"Alter Kontostand";"1.500,00 EUR";`)."""
        if not self.cut_short or len(records) < 2:
            return None
        others = min(map(len, records[:-1]))
        expected = len(self.header) or others
        if others < expected:
            return None  # rows short of the header already: an exporter that leaves off empty last fields
        return len(records) - 1 if len(records[-1]) < expected else None

    @cached_property
    def names(self) -> list[str]:
        """Column names for messages (`line 4, column Amount`); a file without a header numbers them."""
        return [n.strip() for n in self.header] or [str(i) for i in range(1, self.width + 1)]

    @cached_property
    def money_cols(self) -> list[int]:
        return [i for i in (self.layout.single.get(r) for r in ("amount", "debit", "credit")) if i is not None]

    # -- per-column decisions ------------------------------------------------------------------

    def _column(self, index: int | None, limit: int | None = None) -> list[str]:
        """The column's filled cells, for deciding how to read it: a row refused for its shape
        (`1.234.567,89` split over two cells) has no say."""
        if index is None or index >= len(self.columns):
            return []
        values = self.columns[index]
        if self.refused:
            end = None if limit is None else limit + len(self.refused)
            values = [value for i, value in enumerate(values[:end]) if i not in self.refused]
        values = values if limit is None else values[:limit]
        return [value.strip() for value in values if value.strip()]

    def _separator(self, index: int | None, european: bool, thousandths: bool) -> str:
        """The column's decimal mark. A lone separator before three digits groups thousands, unless
        the file's currency has three decimals (`-1.234` Kuwaiti dinars) or a number could not be
        grouped that way in any money column (`1500.000`, `-0.500`, `-45.6700`: YNAB's `4.750`
        outflow beside its `0.000` inflow), or it is the bank's own decimal mark (a US bank's `-45.001`
        is no thousands; its file re-saved by a European spreadsheet, `-5,75`, still reads by its commas)."""
        sample = self._column(index, 400)
        decisive = [v for v in sample if _DECISIVE.search(v)]
        if decisive:
            return guess_decimal_separator(decisive)
        has_dot = any("." in v for v in sample)
        has_comma = any("," in v for v in sample)
        if has_dot != has_comma:
            sep = "." if has_dot else ","
            return sep if thousandths or sep in self._ungroupable or sep == self.options.decimal else ("," if has_dot else ".")
        return "," if european else "."

    @cached_property
    def _ungroupable(self) -> set[str]:
        """The separators some money cell of the file writes where it cannot group thousands."""
        sample = [v for role, i in self.layout.single.items() if role in MONEY_ROLES for v in self._column(i, 400)]
        return {sep for sep, pattern in _UNGROUPED.items() if any(map(pattern.search, sample))}

    def _in_thousandths(self, role: str, stated: set[str]) -> bool:
        """Whether a money column may hold amounts of a currency with three decimals, whose `-1.500`
        is one and a half (Kuwaiti dinars), not fifteen hundred: those of the file's currencies
        (`stated`), except where the column's amounts are in the currencies a column of their own
        names. A purchase abroad's original amount is in its original currency (Wilson's export
        fills it only for such rows: a column of `-12.345` dinars read as thousands), a transfer's
        arrived amount in its target currency."""
        own = _OWN_CURRENCY.get(role)
        codes = set(filter(None, map(currency_cell, self._column(self.layout.single.get(own), 1000)))) if own else set()
        return any(exponent(code) == 3 for code in codes or stated if code)

    def _stated_currencies(self) -> set[str]:
        """Currencies the file names: the dialect's, a currency column's, a header's, its cells'."""
        single = self.layout.single
        stated = {value.upper() for value in self._column(single.get("currency"), 1000)}
        stated.update(filter(None, map(header_currency, self.header)))
        stated.update(self._cell_currencies)
        return stated | ({self.options.account.currency} if self.options.account.currency else set())

    @cached_property
    def _cell_currencies(self) -> Counter[str]:
        """Currencies the first money cells write beside their numbers."""
        single = self.layout.single
        cells = [v for role in ("amount", "debit", "credit", "balance") for v in self._column(single.get(role), 50)]
        return Counter(filter(None, map(cell_currency, cells)))

    def _preamble_currency(self) -> str | None:
        """`Currency:,GBP` (or `Währung;EUR`, mBank's `#Waluta;` over `PLN;`, Caisse d'Épargne's
        `Devise : EUR` in a cell of its own) in the lines above the header."""
        for cells in self._preamble_labelled:
            named = [c.strip() for c in cells if c.strip()]
            pairs = [named[:2]] + [[part.strip() for part in cell.split(":", 1)] for cell in named if ":" in cell.strip(":")]
            for label, value in (pair for pair in pairs if len(pair) == 2):
                if (classify(label) or ("",))[0] == "currency" and currency_code(value):
                    return currency_code(value)
        return None

    def _currency(self, european: bool) -> str:
        """The file's currency: stated, implied (a UK sort code, a symbol), else the likeliest for
        how the file is written (euros for `;` and decimal commas, dollars otherwise)."""
        if self.options.account.currency:
            return self.options.account.currency
        single = self.layout.single
        if self.billed_in:
            return self.billed_in
        if "currency" in single or self.purchases is not None:  # the purchases' currencies: most of them are the account's
            values = Counter(filter(None, map(currency_cell, self._column(single.get("currency", self.purchases), 1000))))
            if values:
                return values.most_common(1)[0][0]
        if any(normalise_header(name) in ("sort code", "date entered") for name in self.header) or any(
            values and all(map(_SORT_CODE_ACCOUNT.fullmatch, values))
            for values in (self._column(index, 50) for index in range(self.width))
        ):
            return "GBP"  # only UK banks export a sort code (Barclays: `20-32-06 13152170` per row) or a card's `Date entered` (Lloyds)
        for name in self.header:
            stated = header_currency(name)
            if stated:
                return stated
        stated = self._preamble_currency() or next(iter(self._cell_currencies.most_common(1)), (None,))[0]
        if stated:
            return stated
        if any(_LAKH.search(v) for role in ("amount", "debit", "credit", "balance") for v in self._column(single.get(role), 200)):
            return "INR"  # `1,23,456.78`: only Indian banks group by lakhs
        if self.options.currency:
            return self.options.currency
        self.currency_guessed = True
        implied = next(filter(None, map(language_currency, self.header)), None)
        # The account's own money says how it is written; a foreign purchase's original amount does not.
        sample = [v for role in ("amount", "debit", "credit", "balance") for v in self._column(single.get(role), 50)]
        dollars = any("$" in v for v in sample)
        if not implied and not dollars and any(_SWISS_GROUPING.search(v) for v in sample):
            return "CHF"  # `1'234.50`: grouping by apostrophes is Swiss (and Liechtenstein's); `$3'210.00` is dollars
        guess = implied or ("EUR" if european and not dollars else "USD")  # `$1,234.50` under Spanish headers: no euros
        if guess in {code.upper() for code in self._column(single.get("original_currency"), 1000)}:
            self.warnings.append(f"its rows name {guess} as a purchase's foreign currency, so the account is not in {guess}:"
                                 " give its currency with --currency")
        return guess

    def _direction_column(self) -> int | None:
        """An explicit D/C column, or a type/unnamed column whose values are direction words (a stray
        other value on a few rows leaves those rows' amounts as written)."""
        single = self.layout.single
        candidates = [single[r] for r in ("direction", "kind") if r in single]
        candidates += [i for i, name in enumerate(self.header) if not name.strip()]
        for index in candidates:
            values = [v.lower() for v in self._column(index, 500)]
            if values and sum(v in DIRECTION_WORDS for v in values) >= DIRECTION_SHARE * len(values):
                return index
        return None

    def _unique(self, index: int | None) -> int | None:
        values = self._column(index)
        return index if values and len(set(values)) == len(values) else None

    def _informative_texts(self) -> list[int]:
        """Text columns minus those that hold one value on every row (a product name, say). A file
        with no text column describes its rows in the type column (Commerzbank's `Buchungstext`)."""
        texts = self.layout.texts
        if not texts and self.layout.kinds:  # the wordiest type column (on a tie the later: types come first)
            texts = [max(reversed(self.layout.kinds), key=lambda i: sum(map(len, self.columns[i][:200])))]
        if not texts and "original" not in self.layout.single:  # an original text alone (Wilson's export) is the description
            texts = self._unnamed_text()
        if self.count < 3 or len(texts) < 2:
            return texts
        keep = []
        for index in texts:
            values = self._column(index)
            if len(values) == self.count and len(set(values)) == 1:
                continue
            keep.append(index)
        return keep or texts

    def _unnamed_text(self) -> list[int]:
        """No column is named as a description: of the columns no role took, the one with the most
        different words (shops, not their few cities or tags), said in a warning, rather than rows
        with no text at all."""
        taken = {*self.layout.dates, *self.layout.single.values()}
        worded = {
            i: len({cell for cell in column[:200] if any(map(str.isalpha, cell))})
            for i, column in enumerate(self.columns) if i not in taken
        }
        best = max(worded, key=worded.__getitem__, default=None)
        if best is None or not worded[best]:
            return []
        self.warnings.append(f"no column is named as the description: {_name(self.names, best)!r} is read as it")
        return [best]

    # -- the conversion ---------------------------------------------------------------------------

    def run(self) -> ParseResult:
        """Columns to parsed rows. Hot: 100k rows must convert in a fraction of a second, so each
        column converts at once (dates and statuses once per distinct value, plain amounts after one
        regex check of the whole column) and only rows that need a second look (no date, a status,
        an unreadable amount, a summary line) go through `_settle` one by one."""
        if not self.count:  # not one record read (a one-line file cut inside a quote): only its errors tell
            return ParseResult(self.options.format, [], [], self.errors)
        options, layout, single = self.options, self.layout, self.layout.single
        european = layout.european or self.delimiter == ";"
        file_currencies = self._stated_currencies() or {options.currency}  # the user's word for a file that states none
        seps = {r: self._separator(i, european, self._in_thousandths(r, file_currencies)) for r, i in single.items() if r in MONEY_ROLES}
        currency = self._currency(european or "," in seps.values())
        day_first = options.day_first
        written_european = european or seps.get("amount", seps.get("debit")) == ","
        if day_first is None:
            # Only North America writes month first; a file in pounds or euros is day-first.
            day_first = written_european or currency not in _MONTH_FIRST
        stated = written_european or not self.currency_guessed  # the file's own hint, not a default's
        for i in layout.dates:  # Schwab: `03/05/2025 as of 03/04/2025`, booked on the first
            if any(map(_AS_OF.search, self.columns[i][:1000])):
                self.columns[i] = per_distinct(partial(_AS_OF.sub, ""), self.columns[i])
        distinct_dates = {i: dict.fromkeys(self.columns[i]) for i in layout.dates}  # in file order
        texts = self._informative_texts()
        descriptions = self._descriptions(texts)
        recurring = len(set(descriptions)) * 2 <= len(descriptions)  # the same payees month after month
        known = options.day_first is not None  # a bank's own order, not a guess from the file
        date_cols = [
            (i, infer_date_format(
                distinct_dates[i], day_first, recurring, known, named=True, charges=partial(zip, self.columns[i], descriptions), stated=stated,
            ))
            for i in layout.dates
        ]
        if any(column.format is DAY_NUMBER for _, column in date_cols):
            self.warnings.append("the dates are spreadsheet day numbers (45658 is 2025-01-01): read as such")
        columns, count = self.columns, self.count
        result = ParseResult(options.format, [], [], self.errors)

        cur_i, alt_i = single.get("currency"), single.get("amount_alt")
        row_currencies = per_distinct(currency_cell, columns[cur_i]) if cur_i is not None else None
        if alt_i is not None and row_currencies is None and "amount" in single:  # rows paid in the second column's currency
            alt_code = header_currency(self.header[alt_i])
            row_currencies = [None if main.strip() else alt_code for main in columns[single["amount"]]]
        elif row_currencies is None and len(self._cell_currencies) > 1 and "amount" in single:  # `-4.50 EUR`, `-3500 JPY`
            row_currencies = per_distinct(row_currency, columns[single["amount"]])
        money = partial(money_column, currency=currency, row_currencies=row_currencies)
        direction = self._direction_column()
        if date_cols:
            index, column = date_cols[0]
            posted = _dates(columns[index], column, distinct_dates[index])
        else:
            posted = [None] * count
        parsed: dict[str, list] = {
            "line": self.lines,
            "description": descriptions,
            "posted": posted,
            "amount": self._amounts(money, seps, direction, descriptions),
        }
        payees = self._payees(texts)
        if payees is not None:
            parsed["payee"] = payees
        if self.card:
            result.warnings.append(self.card)
        result.warnings += self.warnings
        result.sign_reading = self.sign_reading
        if self.sign_reading == "card" and result.format == GENERIC_CSV:
            result.format = CARD_CSV  # what it was read as: a re-import, forced to it, reads the same
        if date_cols and date_cols[0][1].doubt:
            result.warnings.append(date_cols[0][1].doubt)
        statuses = self._statuses(single.get("status"), single.get("planned"), single.get("impact"))
        if "hold" in single and None in parsed["amount"]:
            statuses = self._holds(parsed["amount"], money(columns[single["hold"]], seps["hold"]), statuses)
        if date_cols:
            self.unbooked |= self._under_pending_heading(date_cols[0][0], distinct_dates[date_cols[0][0]])
        splits_i = single.get("ledger_splits")
        if splits_i is not None and any(columns[splits_i]):
            parsed["splits"] = self._ledger_splits(columns[splits_i], row_currencies, currency)
        kept = self._settle(result, parsed, statuses, date_cols, texts)
        if statuses is not None and "pending" in statuses:
            parsed["pending"] = [status == "pending" for status in statuses]
        if self.unbooked:
            pending = parsed.get("pending") or [False] * count
            parsed["pending"] = [flag or i in self.unbooked for i, flag in enumerate(pending)]
        if row_currencies is not None:
            parsed["currency"] = row_currencies
        self._extras(parsed, money, seps, direction, currency)
        if "funding" in single or ("amount_in" in single and direction is not None):
            kept = list(kept)  # a range when no row needed a second look; the rows added join it
            parsed.update((key, list(values)) for key, values in parsed.items() if values.__class__ is not list)  # `line` may be a range
            if "funding" in single:
                self._funding_legs(parsed, kept)
            if "amount_in" in single and direction is not None:
                self._both_sides(parsed, kept, direction, currency, european, file_currencies)
            count = len(parsed["amount"])
            result.second_legs = count - self.count
        if "account_key" in parsed and not all(map(parsed["account_key"].__getitem__, kept)):
            if self.layout.ledger_accounts:  # a ledger's export names every row's account: a blank is a row error
                kept = self._named_rows(result, parsed["account_key"], parsed["line"], kept)
            else:
                # A file's own-account column is filled on every row; one left blank on some (card
                # payments) holds the counterparty's account number (DKB's "Kontonummer" next to "BLZ").
                del parsed["account_key"]
        if "account_key" not in parsed and "balance" in parsed and row_currencies is not None and len(set(row_currencies)) > 1 \
                and _balance_per_currency(parsed["amount"], parsed["balance"], [code or currency for code in row_currencies], kept):
            # A running balance per currency (Wise's statement of all balances, PayPal's): each
            # currency is a balance of its own, an account per currency.
            parsed["account_key"] = [code or currency for code in row_currencies]
            self.per_currency = True
        if "account_key" in parsed and self.layout.account_is_name and not self.layout.ledger_accounts and row_currencies is not None:
            # A product held in several currencies is an account per currency (Revolut's Current in
            # EUR and in USD), named the same whichever of them a file holds; a ledger's names are whole.
            parsed["account_key"] = [f"{key} {code or currency}" for key, code in zip(parsed["account_key"], row_currencies)]
        rows = ParsedRows(parsed, count).take(kept)
        result.transactions = rows
        result.accounts = self._accounts(rows, currency)
        if (self.preamble or self.balance_rows) and len(result.accounts) == 1 and len(set(rows.column("currency")) - {None}) <= 1:
            self._stated_balance(result, rows, seps.get("amount") or seps.get("debit") or ".", date_cols, currency, "balance" in single)
        result.errors.sort(key=lambda e: e.line)
        return result

    def _stated_balance(
        self, result: ParseResult, rows: ParsedRows, sep: str, date_cols: list[tuple[int, DateColumn]], currency: str,
        running: bool,
    ) -> None:
        """The balance the lines above the table, or its balance lines, state (see `csv_statement`)
        is the account's, when no `running` balance gives one; a card's `Current balance` is what is
        owed, of no sure sign. Beside a running balance, a statement's opening and dated closing
        balance (Bank of America's summary above its table) still tell a file that lacks rows."""
        account = result.accounts[0]
        if "credit_card" in (account.type, type_named(account.name or "")):  # `Nationwide Credit Card ****1234`
            return
        lines = self.preamble + [[column[i] for column in self.columns] for i in self.balance_rows]
        stated = stated_balances(lines, sep, currency, date_cols[0][1].parse if date_cols else lambda text: None)
        if stated.closing is None:
            return
        held = rows.column("pending") if rows.has("pending") else [False] * len(rows)
        if running:
            booked = zip(rows.column("posted"), rows.column("amount"), rows.column("balance"))
            warning = running_disagreement(stated, compress(booked, map(not_, held)), currency)
        else:
            account.balance, account.balance_date = stated.closing, stated.as_of
            amounts = rows.column("amount")
            # Pending rows left out are not checked against it: the closing balance may count them (comdirect's `offen`).
            warning = None if result.skipped_pending else disagreement(
                stated, compress(amounts, map(not_, held)), compress(amounts, held), currency
            )
        if warning:
            result.warnings.append(warning)

    def _funding_legs(self, parsed: dict[str, list], kept: list[int]) -> None:
        """A wallet's payment that a card or bank account paid (Venmo's `Funding Source`) never
        touched the wallet's balance: beside it, the same money arriving from that account, so the
        balance stays whole and that account's own row for it links as a transfer to the wallet
        instead of counting the purchase twice. Appended to `parsed` and `kept`."""
        sources, amounts = self.columns[self.layout.single["funding"]], parsed["amount"]
        for i in list(kept):
            source = sources[i].strip()
            if not source or "balance" in source.lower() or amounts[i].__class__ is not int or amounts[i] >= 0:
                continue
            added = _copied(parsed, kept, i)
            amounts[added], parsed["description"][added] = -amounts[i], f"Funded by {source}"
            if "payee" in parsed:
                parsed["payee"][added] = source

    def _both_sides(
        self, parsed: dict[str, list], kept: list[int], direction: int, currency: str, european: bool, stated: set[str]
    ) -> None:
        """A transfer history's rows as they touch the user's balances (Wise): money in is what
        arrived (the target amount, in its currency, whatever fee the sender paid), and a conversion
        between two of the user's own balances (NEUTRAL) leaves one, fee and all, and arrives in the
        other: a row for each side, appended to `parsed` and `kept`. Money sent or received in
        another currency (a card payment abroad, a transfer to a pound account) keeps what the
        other side paid or got as its original amount."""
        single, columns = self.layout.single, self.columns
        in_i, out_i = single["amount_in"], single["amount"]
        rows = len(parsed["amount"])
        own = parsed.setdefault("currency", [None] * rows)
        originals = parsed.setdefault("original_amount", [None] * rows)
        original_codes = parsed.setdefault("original_currency", [None] * rows)
        codes = [c.strip().upper() or None for c in columns[single["currency_in"]]] if "currency_in" in single else own
        arrived = money_column(columns[in_i], self._separator(in_i, european, self._in_thousandths("amount_in", stated)), currency, codes)
        sent = money_column(columns[out_i], self._separator(out_i, european, self._in_thousandths("amount", stated)), currency, own)
        for i in [i for i in kept if i < self.count]:  # the file's own rows
            flag = columns[direction][i].strip().lower()
            if arrived[i].__class__ is not int:
                continue
            source, target = own[i] or currency, codes[i] or own[i] or currency
            if flag == "out" and target != source:
                originals[i], original_codes[i] = -abs(arrived[i]), target
            elif flag == "in":
                if target != source and sent[i].__class__ is int:  # what the sender sent, before it was converted
                    originals[i], original_codes[i] = abs(sent[i]), source
                parsed["amount"][i], own[i] = abs(arrived[i]), codes[i] or own[i]
            if flag != "neutral":
                continue
            left = f"{columns[out_i][i].strip()} {own[i] or currency}"
            parsed["description"][i] = f"Converted {left} to {columns[in_i][i].strip()} {codes[i] or currency}"
            if "payee" in parsed:  # the holder on both sides: no one was paid
                parsed["payee"][i] = "Currency conversion"
            added = _copied(parsed, kept, i)
            parsed["amount"][added], own[added] = abs(arrived[i]), codes[i] or own[i]

    def _ledger_splits(self, cells: list[str], row_currencies: list[str | None] | None, currency: str) -> list[list[ParsedSplit]]:
        """A ledger export's split parts, row by row (what they leave of the amount stays under the
        row's category). A cell edited into something unreadable refuses the row: booked without
        its parts, all of its money would land in one category."""
        column = _name(self.names, self.layout.single["ledger_splits"])
        found = []
        for i, (cell, code) in enumerate(zip(cells, row_currencies or [None] * self.count)):
            try:
                found.append(split_parts(cell, code or currency))
            except ValueError as exc:
                self.refused[i] = RowError(self.lines[i], str(exc), column)
                found.append([])
        return found

    def _named_rows(self, result: ParseResult, accounts: list[str], lines: list[int], kept: Sequence[int]) -> list[int]:
        """The kept rows that name their account; the others are row errors."""
        column = _name(self.names, self.layout.single["account"])
        result.errors += [RowError(lines[i], "no account", column) for i in kept if not accounts[i]]
        return [i for i in kept if accounts[i]]

    def _descriptions(self, texts: list[int]) -> list[str]:
        """Each row's text: the bank's original statement text where it keeps one beside its cleaned
        name (USAA, Mint, Monarch), else the text columns joined; a row with none says what it is in
        its type column (PayPal's `General Card Deposit`), or failing that its category (Monefy's
        `Clothes`), if the file has one."""
        found = self._joined(texts)
        original = self.layout.single.get("original")
        if original is not None:
            found = [squeeze(raw) or text for text, raw in zip(found, self.columns[original])]
        for stand_in in (self.layout.single.get("kind"), self.layout.single.get("category")):
            if stand_in is not None and stand_in not in texts and "" in found:
                found = [text or squeeze(other) for text, other in zip(found, self.columns[stand_in])]
        return found

    def _joined(self, texts: list[int]) -> list[str]:
        if not texts:
            return [""] * self.count
        columns = [per_distinct(squeeze, self.columns[i]) for i in texts]  # each column repeats its few kinds and names
        return columns[0] if len(columns) == 1 else _join_columns(columns)

    def _payees(self, texts: list[int]) -> list[str | None] | None:
        """The bank's own name for the other party where it keeps one: a payee column (`Merchant`,
        `Counter Party`), or the cleaned name beside an original statement text. It beats a payee
        cleaned out of the joined text; rows without one get that later."""
        own = self.layout.single.get("ledger_payee")
        if own is not None:  # a ledger's own export: payees as the user left them
            return [squeeze(cell) or None for cell in self.columns[own]]
        sources = [i for i in self.layout.payees if i in texts]
        if self.layout.single.get("original") is not None:
            sources = sources or texts
        if not sources:
            return None
        return per_distinct(_party, list(zip(*(self.columns[i] for i in sources))))

    def _holds(self, amounts: list, holds: list, statuses: list[str] | None) -> list[str]:
        """A row with no amount but a card hold is pending for the held amount (in place)."""
        statuses = list(statuses) if statuses is not None else ["booked"] * self.count
        for i, (amount, hold) in enumerate(zip(amounts, holds)):
            if amount is None and hold.__class__ is int:
                amounts[i], statuses[i] = hold, "pending"
        return statuses

    def _statuses(self, index: int | None, planned: int | None, impact: int | None) -> list[str] | None:
        """booked / pending / reverted per row, or None when the file has no status column. A
        payment the bank has only scheduled is pending: it has not happened yet. A PayPal row whose
        balance impact is `Memo` (an authorization, an order, a hold for a dispute) never moves the
        balance, whatever its status says (`Completed`): it is left out as a reverted row is."""
        statuses = per_distinct(_status, self.columns[index]) if index is not None else None
        if planned is not None:
            flags = per_distinct(_YES.fullmatch, [v.strip() for v in self.columns[planned]])
            statuses = ["pending" if flag else status for flag, status in zip(flags, statuses or ["booked"] * self.count)]
        if impact is not None:
            memos = per_distinct(_MEMO.fullmatch, [v.strip() for v in self.columns[impact]])
            if any(memos):
                statuses = ["reverted" if memo else status for memo, status in zip(memos, statuses or ["booked"] * self.count)]
        return statuses

    def _amounts(
        self, money: Callable[[Sequence[str], str], list], seps: dict[str, str], direction: int | None, descriptions: list[str]
    ) -> list:
        """Signed minor units per row; None where the row has no amount, the AmountError where one
        can't be read."""
        single, columns = self.layout.single, self.columns
        amount_i, debit_i, credit_i, fee_i = (single.get(r) for r in ("amount", "debit", "credit", "fee"))
        amounts = money(columns[amount_i], seps["amount"]) if amount_i is not None else [None] * self.count
        if "amount_alt" in single and None in amounts:
            alts = money(columns[single["amount_alt"]], seps["amount_alt"])
            amounts = [alt if amount is None else amount for amount, alt in zip(amounts, alts)]
        if debit_i is None and credit_i is not None and amount_i is None:
            amounts = money(columns[credit_i], seps["credit"])  # a lone `Inflow` column is the signed amount
        elif (debit_i is not None or credit_i is not None) and None in amounts:
            empty = [""] * self.count
            debit_cells = columns[debit_i] if debit_i is not None else empty
            credit_cells = columns[credit_i] if credit_i is not None else empty
            debits = money(debit_cells, seps["debit"]) if debit_i is not None else [None] * self.count
            credits = money(credit_cells, seps["credit"]) if credit_i is not None else [None] * self.count
            amounts = [
                split_amount(*both) if amount is None else amount
                for amount, *both in zip(amounts, debits, credits, debit_cells, credit_cells)
            ]
        if direction is not None:
            flags = columns[direction]
            signs = {flag: DIRECTION_WORDS.get(flag.strip().lower()) for flag in set(flags)}
            amounts = [directed(amount, flag.strip(), signs[flag]) for amount, flag in zip(amounts, flags)]
        if fee_i is not None:
            net = list(map(less_fee, amounts, money(columns[fee_i], seps["fee"])))
            amounts = net if self._fee_apart(amounts, net, money, seps) else [n if a is None else a for a, n in zip(amounts, net)]
        lone = amount_i is not None and debit_i is None and credit_i is None and direction is None
        if lone and self.options.negate is None:
            signed = self._credits_marked(columns[amount_i], amounts)
            if signed is None:
                signed = self._signed_by_card_words(amounts)
            if signed is not None:
                return signed
        if lone and self.options.negate is None:
            self.sign_reading = "written"
            if self._charges_positive(amounts, descriptions):
                self.sign_reading = "card"
        # A card's charges written positive in its one amount column (debit and credit columns, or a
        # direction, have signed them already: TD's Visa download of charges and payments).
        turned = self.options.negate and lone and not self._signed_by_holder(amounts, descriptions)
        self.owed = bool(turned or self.sign_reading == "card" or (self.options.negate and not lone))
        if turned or self.sign_reading == "card":
            amounts = [-amount if amount.__class__ is int else amount for amount in amounts]
        return amounts

    def _signed_by_holder(self, amounts: list, descriptions: list[str]) -> bool:
        """Whether a file read as a card that writes its charges positive (`card_csv`) signs them the
        holder's way after all: its card payments positive and most other rows negative (CommBank's
        card). Turned round, its charges came out as money in."""
        paid = per_distinct(CARD_PAYMENT_WORDS.search, descriptions)
        payments = [a for a, hit in zip(amounts, paid) if hit and a.__class__ is int and a]
        others = [a for a, hit in zip(amounts, paid) if not hit and a.__class__ is int and a]
        if not payments or min(payments) < 0 or sum(a < 0 for a in others) * 2 <= len(others):
            return False
        self.warnings.append("its card payments are positive and its charges negative already: read as written (not turned round)")
        return True

    def _charges_positive(self, amounts: list, descriptions: list[str]) -> bool:
        """A card statement that writes charges positive: most rows are positive and its card
        payments (`AUTOPAY PAYMENT - THANK YOU`) are all negative, or, in a file named for a card,
        its money out is nothing but payments and returns (`ONLINE PAYMENT`, `TARGET RETURN`) beside
        purchases. A bank account's rows are mostly negative, and a card that signs charges negative
        has positive payments."""
        # A sample decides cheaply; the payments are left out of it, so a month with two of them
        # and two charges is still mostly charges.
        sample = zip(amounts[:2000], map(CARD_PAYMENT_WORDS.search, descriptions[:2000]))
        signed = [a for a, hit in sample if a.__class__ is int and a and not hit]
        if not signed or sum(a > 0 for a in signed) < CARD_POSITIVE_SHARE * len(signed):
            return False
        paid = per_distinct(CARD_PAYMENT_WORDS.search, descriptions)
        payments = [a for a, hit in zip(amounts, paid) if hit and a.__class__ is int and a]
        if payments and all(a < 0 for a in payments):
            self.card = "charges are written positive and card payments negative: read as a card statement"
            return True
        if payments:
            return False
        money_out = self._paid_off(amounts, descriptions)
        # Money out of nothing but payments and shops' returns is a card's paid off, or a bank
        # account's bills and refunds to customers (a landlord's, an HSA): only a file named for a
        # card tells.
        if money_out and type_named(name_from_file(self.source)) == "credit_card":
            self.card = "its money out is all payments or returns, its money in purchases: read as a card statement whose charges are positive"
        elif self._credit_card_columns:
            self.card = "a card's columns, with its charges written positive: read as a card statement"
        elif money_out or self._mostly_unexplained_inflows(amounts, descriptions):
            # A card's (`ONLINE PAYMENT` and charges) or a bank's (bills paid, and money in of no telling name).
            self.sign_reading = "unsure"  # the account they go into may tell (a credit card's: charges)
            if len(signed) >= UNSURE_SIGNS_MIN:  # one or two rows say too little to warn of
                seen = ("its money out is all payments or returns and its money in reads as purchases" if money_out
                        else "most amounts are positive and no card payment shows how the file signs them")
                self.warnings.append(
                    f"{seen}: read as money in; if they are a card's charges (Amex's Date,Description,Amount download),"
                    " undo and import with --format card_csv"
                )
        return bool(self.card)

    @staticmethod
    def _paid_off(amounts: list, descriptions: list[str]) -> list[str]:
        """The texts of the rows of money out when every one is a payment (`PAYMENT`, `ONLINE
        PAYMENT`) or a shop's money back (`TARGET RETURN`) and few rows of money in read as money
        coming in: a card's charges, paid off now and then; else none. A bank's money out is its
        purchases too."""
        outflows = [text for a, text in zip(amounts[:CARD_SAMPLE], descriptions) if a.__class__ is int and a < 0]
        paid = all(_PAYMENT_WORD.search(text) or _MONEY_BACK.search(text) for text in outflows)
        return outflows if outflows and paid and _unexplained(amounts, descriptions) else []

    @staticmethod
    def _mostly_unexplained_inflows(amounts: list, descriptions: list[str]) -> bool:
        """Whether nearly every row is positive and few of those read as money coming in (a savings
        account's deposits and interest do): then they may as well be a card's charges."""
        inflows = sum(a.__class__ is int and a > 0 for a in amounts[:2000])
        signed = sum(a.__class__ is int and a != 0 for a in amounts[:2000])
        return inflows >= UNSURE_SIGNS_SHARE * signed and _unexplained(amounts, descriptions)

    def _signed_by_card_words(self, amounts: list) -> list | None:
        """Amounts signed by a card statement's type column (`Sale`, `Purchase`, `Fee` out; `Payment`,
        `Return`, `Refund` in), when the amounts are unsigned or charges are written positive."""
        kind = self.layout.single.get("kind")
        values = [v.lower() for v in self._column(kind, 500)]
        if not values or sum(v in _CARD_WORDS for v in values) < DIRECTION_SHARE * len(values):
            return None
        signs = per_distinct(_CARD_WORDS.get, [v.strip().lower() for v in self.columns[kind]])
        charges = [a for a, sign in zip(amounts, signs) if sign == -1 and a.__class__ is int and a]
        if not charges or (any(a.__class__ is int and a < 0 for a in amounts) and sum(a > 0 for a in charges) * 2 <= len(charges)):
            return None  # no charges, or charges already negative: the signs stand
        self.card = "amounts signed by the type column (Sale, Purchase, Fee out; Payment, Return, Refund in): read as a card statement"
        return [abs(a) * sign if sign and a.__class__ is int else a for a, sign in zip(amounts, signs)]

    def _credits_marked(self, cells: Sequence[str], amounts: list) -> list | None:
        """Where only credits carry a mark (`£500.00 CR`) and nothing else is signed, the rest are
        debits: a card statement's way (a bank's marks its debits too, or signs them)."""
        sample = [v.strip().upper() for v in self._column(self.layout.single.get("amount"), 400)]
        marks = [direction_mark(v)[1] for v in sample]
        if "C" not in marks or "D" in marks or any(v.endswith("-") or v.startswith("-") or "(" in v or " -" in v for v in sample):
            return None
        self.card = "only the credits are marked CR: read as a card statement"
        return [
            -abs(amount) if amount.__class__ is int and direction_mark(cell.strip())[1] != "C" else amount
            for amount, cell in zip(amounts, cells)
        ]

    def _settle(
        self, result: ParseResult, parsed: dict[str, list], statuses: list[str] | None,
        date_cols: list[tuple[int, DateColumn]], texts: list[int],
    ) -> Sequence[int]:
        """Decide, in file order, each row that needs a second look; returns the positions kept.

        Rows are refused for their shape, an over-long description or an amount that can't be read;
        skipped when reverted, pending without a date, or a statement's summary line; a line with
        text but no date and no money continues the row above it (OCBC wraps long descriptions).
        """
        descriptions, posted, amounts, lines = parsed["description"], parsed["posted"], parsed["amount"], parsed["line"]
        names, errors = self.names, result.errors
        suspects = set(self.refused) | ({self.cut_row} if self.cut_row is not None else set())
        if descriptions and max(map(len, descriptions)) > MAX_DESCRIPTION_CHARS:
            suspects.update(i for i, text in enumerate(descriptions) if len(text) > MAX_DESCRIPTION_CHARS)
        if statuses is not None:
            suspects.update(i for i, status in enumerate(statuses) if status != "booked")
        if None in posted:
            suspects.update(i for i, day in enumerate(posted) if day is None)
        distinct = list(set(descriptions))
        summaries = set(compress(distinct, map(_SUMMARY_OR_TOTAL.match, map(str.lower, distinct))))
        if summaries:
            suspects.update(i for i, text in enumerate(descriptions) if text in summaries)
        # A last row with a date and money and nothing else, under rows that all have text, is the
        # statement's closing balance (LCL), not a transaction.
        closing = self.count - 1 if self.count >= 3 and descriptions[-1] == "" and "" not in descriptions[:-1] else None
        if closing is not None:
            bare = set(self.money_cols) | {index for index, _ in date_cols}
            if any(column[closing].strip() for index, column in enumerate(self.columns) if index not in bare):
                closing = None
        if closing is not None:
            suspects.add(closing)
        balance_words = self._balance_lines(descriptions) if "" in descriptions else {}
        suspects.update(balance_words)
        if set(map(type, amounts)) != {int}:
            suspects.update(i for i, amount in enumerate(amounts) if amount.__class__ is not int)
        if not suspects:
            return range(self.count)
        amount_name = _name(names, self.money_cols[0] if self.money_cols else None)
        dropped: set[int] = set()
        details = self._detail_rows(suspects, amounts)
        totals = [i for i in sorted(suspects) if _TOTAL_TEXT.fullmatch(descriptions[i])]

        def booked(j: int, current: int) -> bool:
            """Rows before the one in hand are decided; of those after it, one that needs a second look is left out."""
            if statuses is not None and statuses[j] != "booked":
                return False
            return j not in (dropped if j < current else suspects)

        for i in sorted(suspects):
            line, description = lines[i], descriptions[i]
            status = statuses[i] if statuses is not None else "booked"
            dropped.add(i)
            if i in self.refused:
                errors.append(self.refused[i])
            elif len(description) > MAX_DESCRIPTION_CHARS:
                errors.append(RowError(line, "description is longer than 4 KB", _name(names, texts[0])))
            elif status == "reverted":
                result.skipped_reverted += 1
            elif i in details:
                pass  # said once below
            elif i in balance_words:  # dated or not (mBank's and Caixa's closing lines have no date)
                self.balance_rows.append(i)
                result.warnings.append(f"line {line}: skipped {balance_words[i][:60]!r} (a balance line)")
            elif posted[i] is None and not self._dated(i, result, parsed, status, date_cols, dropped):
                pass
            elif self._balance_line(description, amounts[i]):
                self.balance_rows.append(i)
                if amounts[i] is not None:  # money where a transaction's goes: say it was left out
                    result.warnings.append(f"line {line}: skipped {description[:60]!r} (a balance line)")
            elif i in totals and _adds_up(amounts, posted, totals, i, booked):
                result.warnings.append(f"line {line}: skipped {description[:60]!r} (a totals line)")
            elif i == closing:
                result.warnings.append(f"line {line}: skipped a closing balance line (a date and an amount, no text)")
            elif i == self.cut_row:
                errors.append(RowError(line, "the file ends inside this row (truncated file?)"))
            elif amounts[i] is None and self._filled(i) == 1 and i + 1 < self.count and posted[i + 1] is None:
                # comdirect's card table: `"13.01.2026";` above a `neu` row. A date alone above a dated
                # row, or at the end, is a row cut short.
                result.warnings.append(f"line {line}: skipped a line holding only a date")
            elif amounts[i] is None:
                errors.append(RowError(line, "no amount", amount_name))
            elif amounts[i].__class__ is not int:
                errors.append(RowError(line, str(amounts[i]), self._unread_column(i, amounts[i]) or amount_name))
            else:
                dropped.discard(i)
        if details:
            lines_of = sorted(lines[i] for i in details)
            result.warnings.append(f"{lines_named(lines_of)}: skipped as a collective order's single payments (its total is booked)")
        return [i for i in range(self.count) if i not in dropped]

    def _unread_column(self, i: int, error: object) -> str | None:
        """The money column whose cell of row i the error quotes (a debit/credit pair's `Inflow`)."""
        single = self.layout.single
        for index in (single.get(role) for role in ("amount", "debit", "credit", "fee", "amount_alt")):
            cell = self.columns[index][i].strip() if index is not None else ""
            if cell and repr(cell) in str(error):
                return _name(self.names, index)
        return None

    def _detail_rows(self, suspects: set[int], amounts: list) -> set[int]:
        """Rows of no amount of their own but a single payment's (UBS's `Einzelbetrag`): the parts
        of a collective order whose total the row above them books. Counting them would count it twice."""
        index = self.layout.single.get("detail")
        if index is None:
            return set()
        return {i for i in suspects if amounts[i] is None and self.columns[index][i].strip()}

    def _balance_line(self, description: str, amount: object) -> bool:
        """Whether a dated row is the statement's balance line: one with no amount whose text starts
        with a balance word (Itaú's `SALDO TOTAL DISPONÍVEL DIA`), or one whose text is nothing else
        (`Beginning balance as of 01/01/2025`). A ledger's `Opening Balance` row is a transaction."""
        if self.layout.ledger_accounts:
            return False
        return bool(_SUMMARY.match(description)) if amount is None else bool(_SUMMARY_LINE.fullmatch(description))

    def _totals_cell(self, i: int) -> str:
        """A cell of row i that says the row is a total, wherever the file puts it (Quicken's
        `Total` in its cleared column), or ''."""
        return next((cell.strip() for cell in (column[i] for column in self.columns) if _TOTAL_TEXT.fullmatch(cell.strip())), "")

    def _dated(
        self, i: int, result: ParseResult, parsed: dict[str, list], status: str,
        date_cols: list[tuple[int, DateColumn]], dropped: set[int],
    ) -> bool:
        """Whether a row with no date in its first date column has one in another; if not, records
        why it goes (pending, a continuation of the row above, or an error)."""
        names = self.names
        raw, day, column = _find_date([self.columns[index][i] for index, _ in date_cols], date_cols)
        if day is not None:
            parsed["posted"][i] = day
            if self.layout.booked_on_first_date and (self._some_booked or day >= self._recent):
                self.unbooked.add(i)  # a purchase date but no booking date yet (a card's authorisation)
            return True
        line, description = parsed["line"][i], parsed["description"][i]
        if not raw:
            if status == "pending":
                result.skipped_pending += 1
            elif total := description if _TOTALS.match(description) else self._totals_cell(i):
                result.warnings.append(f"line {line}: skipped {total[:60]!r} (a totals line)")
            elif _SUMMARY.match(description):
                self.balance_rows.append(i)
                result.warnings.append(f"line {line}: skipped {description[:60]!r} (a balance line)")
            elif not any(self.columns[c][i].strip() for c in self.money_cols):
                above = next((j for j in range(i - 1, -1, -1) if j not in dropped), None)
                if description and above is not None and (i < self._last_dated or not _prose(description)):
                    parsed["description"][above] = squeeze(f"{parsed['description'][above]} {description}")  # OCBC wraps
                elif description and above is not None:  # a sentence after the last row: the bank's footnote
                    result.warnings.append(f"line {line}: skipped {description[:60]!r} (a note after the last row)")
                elif description:
                    result.errors.append(RowError(line, "no date", _name(names, date_cols[0][0] if date_cols else None)))
            else:
                result.errors.append(RowError(line, "no date", _name(names, date_cols[0][0] if date_cols else None)))
        elif _SUMMARY.match(raw.lstrip("# ")):
            self.balance_rows.append(i)
            result.warnings.append(f"line {line}: skipped {squeeze(raw)[:60]!r} (a balance line)")  # mBank's `#Saldo końcowe`
        elif _TOTALS.match(raw):
            result.warnings.append(f"line {line}: skipped {squeeze(raw)[:60]!r} (a totals line)")
        elif (
            _WORD.search(raw) and (len(raw.split()) > 1 or not _PENDING.search(raw))
            and not any(self.columns[c][i].strip() for c in self.money_cols)
        ):
            # Words where the date goes and no money: a heading or note between the rows
            # (`Posted Transactions`, `Kontostand`, `Disclaimer:`), not a transaction. (A lone
            # `Pending` is a pending row.)
            result.warnings.append(f"line {line}: skipped {squeeze(raw)[:60]!r} (no date, no amount)")
        elif _PENDING.search(raw):
            result.skipped_pending += 1
        else:
            result.errors.append(RowError(line, f"cannot read the date {raw!r}", _name(names, column)))
        return False

    @cached_property
    def _last_dated(self) -> int:
        """The last row with something in a date column."""
        dates = [self.columns[index] for index in self.layout.dates]
        return next((i for i in range(self.count - 1, -1, -1) if any(column[i].strip() for column in dates)), -1)

    def _filled(self, i: int) -> int:
        """How many cells of row i hold something."""
        return sum(bool(column[i].strip()) for column in self.columns)

    def _under_pending_heading(self, index: int, distinct: Iterable[str]) -> set[int]:
        """Rows under a `Pending Transactions` heading line, up to the next heading (Schwab). A
        heading is alone on its line, words where the date goes; `Pending` beside an amount or a
        description is that row's own status (John Lewis), not a heading."""
        words = {cell for cell in distinct if _WORD.search(cell) and not any(ch.isdigit() for ch in cell)}
        if not any(_PENDING.search(cell) for cell in words):
            return set()
        under, pending = set(), False
        for i, cell in enumerate(self.columns[index]):
            if cell in words and not any(column[i].strip() for c, column in enumerate(self.columns) if c != index):
                pending = bool(_PENDING.search(cell))
            elif pending:
                under.add(i)
        return under

    def _balance_lines(self, descriptions: list[str]) -> dict[int, str]:
        """Rows with no text but a balance word in another column (Volksbank's `Anfangssaldo` under
        the reference column), by row, with the word: balance lines, not transactions."""
        found = {}
        for i, text in enumerate(descriptions):
            word = None if text else next((c[i].strip() for c in self.columns if _SUMMARY.match(c[i].strip())), None)
            if word:
                found[i] = word
        return found

    @cached_property
    def _some_booked(self) -> bool:
        """Whether the bank fills the booking date at all, so a row without one is not booked yet
        (a short download's recent card rows may mostly be unbooked)."""
        return bool(self._column(self.layout.dates[0], 1000))

    @cached_property
    def _recent(self) -> date:
        """In a file that posts no row, a purchase since this day is still pending (a download of
        only the last days' card rows); an older one is booked: the bank just leaves that column empty."""
        return date.today() - timedelta(days=UNPOSTED_DAYS)

    def _fee_apart(self, amounts: list, net: list, money: Callable[[Sequence[str], str], list], seps: dict[str, str]) -> bool:
        """Whether a fee column is a cost beside the amount (Revolut's: its balance moves by the amount
        less the fee) rather than within it (a broker's `Amount` is the cash that moved, after its
        commission and fees). The running balance tells, where there is one; otherwise a file with a
        commission column is a broker's."""
        balance_i = self.layout.single.get("balance")
        if balance_i is None:
            return not any(normalise_header(name).startswith(_COMMISSION) for name in self.header)
        balances = money(self.columns[balance_i], seps["balance"])
        rows = [i for i, (a, n, b) in enumerate(zip(amounts, net, balances)) if a.__class__ is n.__class__ is b.__class__ is int]
        return _chain_breaks(net, balances, rows) <= _chain_breaks(amounts, balances, rows)

    def _extras(
        self, parsed: dict[str, list], money: Callable[[Sequence[str], str], list], seps: dict[str, str],
        direction: int | None, currency: str,
    ) -> None:
        """The columns beyond date, text and amount: balance, bank id, category, notes, account, and
        a foreign-currency original amount."""
        single, columns = self.layout.single, self.columns
        balance_i, cat_i, sub_i = single.get("balance"), single.get("category"), single.get("subcategory")
        if balance_i is not None:  # a balance is a cross-check, never a reason to lose the row
            balances = money(columns[balance_i], seps["balance"])
            if "balance_direction" in single:
                flags = [DIRECTION_WORDS.get(flag.strip().lower()) for flag in columns[single["balance_direction"]]]
                balances = [directed(b, "x", sign) if sign else b for b, sign in zip(balances, flags)]
            elif self.owed:
                balances = _owed_turned_round(parsed["amount"], balances)
            parsed["balance"] = balances if set(map(type, balances)) == {int} else [
                b if b.__class__ is int else None for b in balances
            ]
        bank_id = self._unique(single.get("bank_id"))
        if bank_id is not None:
            parsed["bank_id"] = [v.strip().strip("'") or None for v in columns[bank_id]]
        if cat_i is not None:
            subs = columns[sub_i] if sub_i is not None else [""] * self.count
            parsed["category"] = [_category(c.strip(), s.strip()) for c, s in zip(columns[cat_i], subs)]
        note_cols = [i for i in (single.get("kind"), single.get("notes")) if i is not None and i != direction]
        if note_cols:
            used = [i for i in note_cols if any(columns[i])]
            if len(used) == 1:
                parsed["notes"] = per_distinct(_notes, columns[used[0]])
            elif used:
                parsed["notes"] = per_distinct(_notes, list(zip(*(columns[i] for i in used))))
        orig_i, orig_cur_i = single.get("original_amount"), single.get("original_currency")
        if orig_i is not None:
            codes = columns[orig_cur_i] if orig_cur_i is not None else [""] * self.count
            own = parsed.get("currency") or [None] * self.count
            originals = [
                original_amount(raw.strip(), code.strip(), seps["original_amount"], amount, row or currency)
                for raw, code, amount, row in zip(columns[orig_i], codes, parsed["amount"], own)
            ]
            parsed["original_amount"] = [value for value, _ in originals]
            parsed["original_currency"] = [code for _, code in originals]
        if single.get("account") is not None and (self.layout.account_is_name or self._preamble_account[1] is None):
            # (Above the table `Kontonummer:;DE12…` names the one account; a number column is then
            # the other party's: old DKB exports.)
            parsed["account_key"] = [v.strip() for v in columns[single["account"]]]

    def _accounts(self, rows: ParsedRows, currency: str) -> list[ParsedAccount]:
        info = self.options.account
        kind = "credit_card" if self.card or self._credit_card_columns else info.type
        thanked = self._thanked_accounts(rows) if kind == "checking" and info.name is None else set()
        if not rows.has("account_key") or not rows:
            named, number, card = self._preamble_account
            return [ParsedAccount(
                "default", info.name or named, "credit_card" if card or thanked else kind, info.institution, number,
                currency=currency, currency_stated=not self.currency_guessed,
            )]
        seen: dict[str, Counter[str]] = {}
        for (key, own), times in Counter(zip(rows.column("account_key"), rows.column("currency"))).items():
            seen.setdefault(key, Counter())[own or currency] += times
        accounts = []
        for key, currencies in seen.items():
            own = currencies.most_common(1)[0][0]
            # A value with words is a name (`Chase Sapphire - Ending in 1234`), not an account number.
            named = self.layout.account_is_name or (_WORD.search(key) and not _IBAN.fullmatch(key.replace(" ", "")))
            name, number = (key, None) if named else (None, key)
            if self.per_currency:
                name, number = f"{info.name or self._preamble_account[0] or name_from_file(self.source)} {key}", None
            elif info.name:
                name = f"{info.name} {key}" if self.layout.account_is_name or len(seen) > 1 else info.name
            stated = self._stated_types.get(key, "credit_card" if key in thanked else kind)
            accounts.append(ParsedAccount(key, name, stated, info.institution, number, own, not self.currency_guessed))
        return accounts

    @staticmethod
    def _thanked_accounts(rows: ParsedRows) -> set[str | None]:
        """The accounts (keys; None for a file of one) a payment thanked for comes into (`PAYMENT -
        THANK YOU`, `AUTOMATIC PAYMENT - THANK YOU`): only a card's statement thanks its payer.
        Synchrony's and Barclays US's files sign their charges negative, so no sign reading tells."""
        keys = rows.column("account_key")[:CARD_SAMPLE] if rows.has("account_key") else repeat(None)
        return {
            key for key, amount, text in zip(keys, rows.column("amount")[:CARD_SAMPLE], rows.column("description")[:CARD_SAMPLE])
            if amount.__class__ is int and amount > 0 and _THANKED.search(text)
        }

    @cached_property
    def _credit_card_columns(self) -> bool:
        """A column named for a credit card (Rabobank's `Creditcard Nummer`): the file is a card's.
        A plain `Card number` is not: checking exports name the debit card that paid."""
        return any(_CREDIT_CARD_HEADER.search(normalise_header(name)) for name in self.header)

    @cached_property
    def _stated_types(self) -> dict[str, str]:
        """Each account's type where a column states it: Wilson's own export (a card named
        `Sapphire` stays a card, its balance owed, when a ledger is rebuilt from the file), or a
        bank's product word (RBC's `Chequing`, `Visa`, `US Dollar Savings` in one download)."""
        type_i, account_i = self.layout.single.get("account_type"), self.layout.single.get("account")
        if type_i is None or account_i is None:
            return {}
        stated: dict[str, Counter[str]] = {}
        for key, word in zip(self.columns[account_i], self.columns[type_i]):
            kind = word.strip().lower() if word.strip().lower() in ACCOUNT_TYPES else type_named(word)
            if kind:
                stated.setdefault(key.strip(), Counter())[kind] += 1
        return {key: kinds.most_common(1)[0][0] for key, kinds in stated.items()}

    @cached_property
    def _preamble_labelled(self) -> list[list[str]]:
        """The lines above the header as `label;value` lines: a line of labels over a line of their
        values (Postbank's `Konto;Filter;Zeitraum`, mBank's `#Waluta;` over `PLN;`) becomes a line
        per label, as most banks write them."""
        lines: list[list[str]] = []
        rows = iter(self.preamble)
        for cells in rows:
            below = next(rows, None) if _labels_line(cells) else None
            if below is not None and _values_under(cells, below):
                lines += [[label, value] for label, value in zip(cells, below) if label.strip()]
                continue
            lines += [cells] + ([below] if below is not None else [])
        return lines

    @cached_property
    def _preamble_account(self) -> tuple[str | None, str | None, bool]:
        """(name, number, is a card) of the account a line above the header names: `Account
        details for:,DBS Savings Plus Account XXX`, `Konto:;CH52 0900 0000 1234 5678 9`,
        `Kontonummer:;DE12… / Girokonto`, `Kreditkarte:;4930********1234`, and DKB's since 2023,
        `Girokonto;DE12 1203 …` and `Karte;Visa Kreditkarte;4930 **** **** 1234`. A number keeps
        each month's export (of either DKB layout) in one account and two accounts' exports apart."""
        found = []
        for cells in self._preamble_labelled:
            title = section_title(cells)
            if title:
                found.append(title)
                continue
            label = _ACCOUNT_LABEL.fullmatch(cells[0].strip().lstrip("#")) if len(cells) >= 2 else None
            texts = [" ".join(cell.split()) for cell in cells[1:3]] if label else [""]
            value = texts[0]
            if not value:
                continue
            number = next(filter(None, map(_ACCOUNT_NUMBER.search, texts)), None)  # the next cell's, if not the value's
            words = " ".join(value.replace(number[0], " ").replace(" / ", " ").split()).strip(" -–") if number else value
            if not _WORD.search(words) and label["product"]:
                words = label["product"]  # `Girokonto;DE12…` is named as `Kontonummer:;DE12… / Girokonto` is
            digits = re.sub(r"\D", "", number[0])[-4:] if number else ""
            name = (f"{words} …{digits}" if digits else words) if _WORD.search(words) else None  # `Girokonto …7890`
            found.append((name, number[0].replace(" ", "") if number else None, bool(label["card"])))
        # A line with the account's number beats one with only a name (`Account Name:` is often the holder's).
        return next((line for line in found if line[1]), found[0] if found else (None, None, False))


def _balance_per_currency(amounts: list, balances: list, currencies: list[str], kept: Iterable[int]) -> bool:
    """Whether the running balance runs per currency (Wise's and PayPal's balances) rather than
    through all the rows (a card's statement naming each purchase's own currency): fewer rows
    break each currency's chain than break the file's (as few: PayPal's balances that each
    return to zero read either way, and its balances are per currency)."""
    rows = [i for i in kept if amounts[i].__class__ is int and balances[i].__class__ is int]
    by_currency: dict[str, list[int]] = {}
    for i in rows:
        by_currency.setdefault(currencies[i], []).append(i)
    return sum(_chain_breaks(amounts, balances, own) for own in by_currency.values()) <= _chain_breaks(amounts, balances, rows)


def _chain_breaks(amounts: list, balances: list, rows: list[int]) -> int:
    """Rows whose balance is not the one before plus their amount, read oldest or newest first,
    whichever breaks fewer."""
    pairs = list(zip(rows, rows[1:]))
    oldest_first = sum(balances[a] + amounts[b] != balances[b] for a, b in pairs)
    newest_first = sum(balances[b] + amounts[a] != balances[a] for a, b in pairs)
    return min(oldest_first, newest_first)


_YEARLESS = re.compile(r"(\d{1,2})\.(\d{1,2})\.?")
_DATED = re.compile(r"(\d{1,2})\.(\d{1,2})\.(\d{2}|\d{4})")


def _with_year(day: re.Match[str], dated: re.Match[str]) -> str:
    """`dd.mm.` with the year of the dated `dd.mm.yy`, moved to the next or last year when the
    months lie more than half a year apart."""
    month, dated_month, year = int(day[2]), int(dated[2]), int(dated[3])
    year += (month < dated_month - 6) - (month > dated_month + 6)
    digits = len(dated[3])
    return f"{day[1]}.{day[2]}.{year % 10**digits:0{digits}d}"


def _known_label(cell: str) -> bool:
    text = cell.strip().lstrip("#").rstrip(":").strip()
    return bool(_ACCOUNT_LABEL.fullmatch(text)) or (classify(text) or ("",))[0] == "currency"


def _labels_line(cells: list[str]) -> bool:
    """Whether a line above the header may be labels over a line of values: one known label alone
    (`#Waluta;`), or three or more names without digits or colons, one of them known
    (`Konto;Filter;Zeitraum`); `Konto:;Girokonto` and `Account Name,Joint Checking` are a label and its value."""
    named = [cell.strip() for cell in cells if cell.strip()]
    if len(named) == 1:
        return _known_label(named[0])
    return (
        len(named) >= 3 and not any(any(c.isdigit() for c in name) or name.endswith(":") for name in named)
        and any(map(_known_label, named))
    )


def _values_under(labels: list[str], values: list[str]) -> bool:
    """Whether `values` holds a value under each known label, and no label itself, alone or before
    its own value (Postbank's `Girokonto` over `IBAN: DE12…`)."""
    under = [(label, values[i].strip() if i < len(values) else "") for i, label in enumerate(labels) if label.strip()]
    return all(value for label, value in under if _known_label(label)) and not any(
        _known_label(value) or _LABELLED.match(value) for _, value in under
    )


_LABELLED = re.compile(r"[^\W\d][\w .-]*:\s")  # `IBAN: DE12…`, `Name: Max Mustermann`


# Of a normalised header. Lloyds, Halifax and Bank of Scotland cards' `Date entered` beside `Date`;
# Sparkasse's card statement names the card that paid in `Umsatz getätigt von`.
# A card account bills its holder (Virgin Money's and Vancity's `Billing Amount`) and its additional cardholders.
_CREDIT_CARD_HEADER = re.compile(
    r"\bcredit ?card\b|\bkreditkart|\bcarte de credit\b|\bcreditcard|^date entered$|^umsatz getatigt von$|^billing amount$"
    r"|^additional card ?holder$"
)


_ACCOUNT_LABEL = re.compile(
    r"(?:account(?:\s+(?:details\s+for|name|number|no\.?))?|konto(?:nummer|-?nr\.?)?|iban|compte|n° de compte|numer\s+rachunku"
    r"|rekening(?:nummer)?|(?P<product>girokonto|tagesgeld)|(?P<card>kreditkarte|karte|credit\s*card(?:\s+number)?|carte))\s*:?",
    re.I,
)
_ACCOUNT_NUMBER = re.compile(  # an IBAN, a run of digits, or a card's last four digits after its first or a mask
    # (`4930 **** **** 1234`, Santander UK's `XXXX XXXX XXXX 1234`, `**** **** **** 1234`)
    r"\b[A-Z]{2}\d\d(?: ?[A-Z\d]{4}){2,7}(?: ?[A-Z\d]{1,4})?\b|\b\d[\d .-]{4,}\d\b|\b\d{4}[ *]*\*{4}[ *]*\d{4}\b"
    r"|(?<![\w*])(?:[Xx]{4}|\*{4})(?:[ -]?(?:[Xx]{4}|\*{4})){1,2}[ -]?\d{4}\b"
)


def _prose(text: str) -> bool:
    """Whether a line reads as a sentence (`* Pending transactions are not included in this
    download`, `Questions? Call 1-800-555-0100`), as a bank's footnote does, rather than as the
    rest of a description (`to TAN AH KOW OTHR - Lunch`, a collective order's `Swisscom AG`)."""
    words = _LETTER_WORDS.findall(text)
    lower = sum(word.islower() for word in words)
    return (
        text[:1] in "*(†" or "?" in text or text.rstrip().endswith(".") or bool(_FOOTNOTE_WORDS.search(text))
        or (len(words) >= 4 and lower * 5 >= len(words) * 3)
    )


_LETTER_WORDS = re.compile(r"[^\W\d_]+")
_FOOTNOTE_WORDS = re.compile(r"\b(?:statement|period|page \d|generated|printed|disclaimer|downloaded?|please)\b", re.I)


def _trimmed(cells: list[str]) -> list[str]:
    """A record's cells stripped, without the empty ones at its end: `Description,,Summary Amt.,`
    is the line `Description,,Summary Amt.`."""
    found = [cell.strip() for cell in cells]
    while found and not found[-1]:
        found.pop()
    return found


def _dates(values: Sequence[str], column: DateColumn, distinct: Iterable[str]) -> list[date | None]:
    """A date per cell, each distinct cell parsed once."""
    for value in distinct:
        column.parse(value)
    return list(map(column.cache.__getitem__, values))


def _notes(cells: Sequence[str] | str) -> str | None:
    """One note from one cell or from several (joined with `; `), or None when all are blank."""
    if isinstance(cells, str):
        return squeeze(cells) or None
    return "; ".join(filter(None, map(squeeze, cells))) or None


def _category(category: str, sub: str) -> str | None:
    return (f"{category}:{sub}" if sub and sub != category else category) or None


def _copied(parsed: dict[str, list], kept: list[int], i: int) -> int:
    """Append a copy of row `i` to every parsed column, and keep it; its position."""
    for values in parsed.values():
        values.append(values[i])
    kept.append(len(parsed["amount"]) - 1)
    return kept[-1]


def _name(names: list[str], index: int | None) -> str | None:
    return names[index] if index is not None and index < len(names) and names[index] else None


def _join_columns(columns: list[list[str]]) -> list[str]:
    """Each row's (squeezed) text columns as one description (see `_join_text`). Hot: with a
    reference in every row, each of 100k rows is distinct; a C-level test of each pair of columns
    finds the few rows where one part holds another, and only those are joined part by part."""
    joined = list(map(" ".join, map(partial(filter, None), zip(*columns))))
    marked = [[cell or "\0" for cell in column] for column in columns]  # an empty text is in every text
    for holder, held in permutations(marked, 2):
        for i in compress(range(len(joined)), map(contains, holder, held)):
            joined[i] = _join_text([column[i] for column in columns])
    return joined


def _join_text(parts: Sequence[str]) -> str:
    """Several text columns as one description, without a part another one holds or starts with
    (Société Générale's `Libellé` is the start of its `Détail de l'écriture`)."""
    kept: list[str] = []
    for part in parts:
        if not part:
            continue
        for other in kept:
            if part in other:
                break
        else:
            for i, other in enumerate(kept):
                if part.startswith(other):
                    kept[i] = part
                    break
            else:
                kept.append(part)
    return " ".join(kept)


def _name_or_blank(cell: str) -> str:
    """A party cell as it is, or blank when it holds an account number or IBAN instead of a name."""
    return cell if _A_LETTER.search(cell) and not _IBAN.fullmatch(cell.replace(" ", "")) else ""


def _party(cells: Sequence[str]) -> str | None:
    """The payee among a row's party cells: the first that names someone (an IBAN does not)."""
    for cell in cells:
        name = squeeze(_name_or_blank(cell))
        if name:
            return payee_of(name)
    return None


def _find_date(raws: list[str], date_cols: list[tuple[int, DateColumn]]) -> tuple[str, date | None, int | None]:
    """(raw, date or None, column) from the first date column that has a value in this row."""
    for raw, (index, column) in zip(raws, date_cols):
        if raw.strip():
            return raw.strip(), column.parse(raw), index
    return "", None, date_cols[0][0] if date_cols else None


def _status(value: str) -> str:
    return "pending" if _PENDING.search(value) else "reverted" if _REVERTED.search(value) else "booked"


# ------------------------------------------------------------------------------------ the format


def _owed_turned_round(amounts: list, balances: list) -> list:
    """A card's balances turned round with its charges (a balance owed written positive, as such a
    card writes it), unless as written they move by the amounts more often (a card that writes what
    is owed negative): a single balance shows nothing, and is taken as owed."""
    turned = [-b if b.__class__ is int else b for b in balances]
    return balances if _moves_by(amounts, balances) > _moves_by(amounts, turned) else turned


def _moves_by(amounts: list, balances: list) -> int:
    """How many of the first thousand rows' balances follow from the one before by their amounts,
    oldest or newest first."""
    rows = [(a, b) for a, b in zip(amounts[:1000], balances[:1000]) if a.__class__ is int and b.__class__ is int]
    pairs = list(zip(rows, rows[1:]))
    return max(sum(later - earlier == amount for (_, earlier), (amount, later) in pairs),
               sum(newer - older == amount for (amount, newer), (_, older) in pairs))


def read_by_header_names(text: str, source: str, options: Options) -> ParseResult:
    """Any CSV whose header names a date and an amount (or debit/credit) in a language we know."""
    head = sniff(head_of(text))
    best = None if head.not_csv else head.best_header()
    if best is None:
        raise ImportRefused(source, "no header row naming a date and an amount column in the first 50 lines")
    delimiter, line, _, _ = best
    return parse_table(text, source, delimiter, line, layout_from_header, options)


GENERIC_CSV, CARD_CSV = "generic_csv", "card_csv"  # the second: a card file that writes its charges positive


@dataclass(frozen=True)
class GenericCsv:
    """The generic mapper as a format; `card_csv` reads a card statement that writes charges
    positive. Detection never picks it: `--format` names it, the generic reader reports it for a
    file whose payments show it, and the import chooses it for a file going to such a card's account."""

    name: str = GENERIC_CSV
    account: AccountInfo = field(default_factory=AccountInfo)
    negate: bool | None = None
    detected: bool = True  # False: only --format chooses it

    def detect(self, text: str) -> int:
        head = sniff(head_of(text))
        if not self.detected or head.not_csv:
            return 0
        best = head.best_header()
        if best is None:
            return 0
        return min(60, 30 + 5 * best[3])

    def parse(self, text: str, source: str, currency: str | None = None) -> ParseResult:
        options = Options(self.name, self.account, self.negate, currency=currency)
        if not self.detected and sniff(head_of(text)).best_header() is None:
            from wilson.importers.csv_inferred import read_by_cells  # which reads its tables with this reader

            return read_by_cells(text, source, options)  # a card's download without a header (TD's accountactivity.csv)
        return read_by_header_names(text, source, options)


FORMATS = [GenericCsv(), GenericCsv(CARD_CSV, AccountInfo(type="credit_card"), negate=True, detected=False)]
