"""CSV exports: the one engine every CSV format goes through, and the generic mapper.

A CSV format is a *layout*: which column holds the date, the amount (or debit/credit), the
text, the balance and so on. The generic mapper derives the layout from header names in several
languages; a named bank dialect (`csv_banks`) states it. Either way the same code finds the
header row, decides the date format and decimal separator once per column, and turns rows into
`ParsedTransaction`s, so a fix to row handling helps every bank at once.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache

from wilson.importers.dates import DateColumn, infer_date_format
from wilson.importers.model import ImportRefused, ParsedAccount, ParsedTransaction, ParseResult, RowError
from wilson.money import AmountError, exponent, guess_decimal_separator, parse_amount, to_minor

HEAD_LINES = 50
MAX_COLUMNS = 1000
MAX_ROW_CHARS = 64 * 1024
MAX_DESCRIPTION_CHARS = 4 * 1024
DELIMITERS = (",", ";", "\t", "|")

# Header names per role, normalised (lower case, no accents, punctuation as single spaces).
# Within "date" the number is a preference: the booking date beats the transaction date beats
# the value date, because the booking date is what a statement and an OFX file call "posted".
_ENGLISH: dict[str, tuple[str, ...]] = {
    "date:0": ("posting date", "posted date", "post date", "booking date", "date processed", "completed date", "date posted"),
    "date:1": ("date", "transaction date", "trans date", "started date", "operation date"),
    "date:2": ("value date", "valuedate"),
    "payee": ("payee", "beneficiary", "payee name", "merchant", "merchant name", "counterparty", "name"),
    "text": (
        "description", "details", "memo", "narrative", "particulars", "transaction details",
        "transaction description", "original description", "purpose", "extended details",
    ),
    "amount": ("amount", "transaction amount", "amt", "value"),
    "debit": ("debit", "debits", "debit amount", "withdrawal", "withdrawals", "withdrawal amount", "paid out", "money out", "outflow", "charge"),
    "credit": ("credit", "credits", "credit amount", "deposit", "deposits", "deposit amount", "paid in", "money in", "inflow", "payment"),
    "direction": ("d k", "d c", "dr cr", "cr dr", "debit credit", "credit debit", "c d"),
    "balance": ("balance", "running bal", "running balance", "runningbalance", "closing balance"),
    "currency": ("currency", "ccy", "currency code"),
    "account:0": ("account name",),
    "account:1": ("account", "account no", "account number"),
    "bank_id": ("reference", "reference number", "reference no", "transaction id", "transaction reference", "id", "fitid"),
    "category": ("category",),
    "subcategory": ("subcategory", "sub category"),
    "status": ("status", "state"),
    "notes": ("notes", "note"),
    "kind": ("type", "transaction type"),
    "original_amount": ("original amount", "foreign amount", "amount in original currency"),
    "original_currency": ("original currency", "foreign currency"),
}
_OTHER: dict[str, tuple[str, ...]] = {
    "date:0": ("buchungstag", "buchungsdatum", "datum zauctovani", "boekingsdatum", "date comptable", "fecha contable"),
    "date:1": ("datum", "tranzakcio datuma", "datum provedeni", "transaktionsdatum", "belegdatum", "date operation", "date de l operation", "fecha", "data"),
    "date:2": ("valuta", "valutadatum", "wertstellung", "wertstellungsdatum", "date de valeur", "erteknap", "rentedatum", "valutadag"),
    "payee": (
        "empfanger", "empfaenger", "zahlungsempfanger", "zahlungsempfaenger", "auftraggeber empfanger",
        "auftraggeber empfaenger", "beguenstigter zahlungspflichtiger", "begunstigter zahlungspflichtiger",
        "name zahlungsbeteiligter", "auftraggeber", "naam tegenpartij", "tegenpartij", "partner neve",
        "nazev protiuctu", "beneficiaire", "tiers",
    ),
    "text": (
        "verwendungszweck", "beschreibung", "omschrijving", "vrije mededeling", "mededelingen", "libelle",
        "libelle operation", "zprava", "reszletek", "kozlemeny", "descripcion", "concepto", "descrizione", "causale",
    ),
    "amount": ("betrag", "bedrag", "montant", "importe", "importo", "belopp", "summe", "umsatz", "zauctovana castka", "tranzakcio osszege", "castka", "kwota"),
    "debit": ("soll", "belastung", "ausgang", "ausgabe", "debet", "af", "sortie", "betrag soll"),
    "credit": ("haben", "gutschrift", "eingang", "einnahme", "bij", "entree", "betrag haben", "credito"),
    "direction": ("soll haben", "s h", "bevetel kiadas", "af bij", "debet credit"),
    "balance": ("saldo", "kontostand", "solde", "egyenleg", "saldo nach buchung"),
    "currency": ("waehrung", "wahrung", "munt", "monn", "devise", "mena uctu", "mena", "tranzakcio devizaneme", "devizanem", "divisa"),
    "account:-1": ("auftragskonto",),
    "account:0": ("kontoname",),
    "account:1": ("konto", "rekeningnummer", "produit", "cislo uctu", "szamlaszam"),
    "account:2": ("kontonummer",),
    "bank_id": ("id transakce", "n de transaction", "transaktions id", "transaktionsreferenz", "referenz"),
    "category": ("kategorie", "categorie", "categoria", "kategoria"),
    "subcategory": ("unterkategorie", "sous categorie"),
    "status": ("info", "buchungsstatus", "statut"),
    "notes": ("notiz", "poznamka", "bemerkung"),
    "kind": ("transaktionstyp", "buchungstext", "typ transakce", "tranzakcio tipusa", "umsatzart", "vorgang", "type d operation"),
    "original_amount": (
        "originalbetrag", "ursprunglicher betrag", "betrag in fremdwahrung", "fremdwahrungsbetrag",
        "puvodni castka a mena", "montant en devise",
    ),
    "original_currency": ("originalwahrung", "originalwaehrung", "fremdwahrung"),
}
_PATTERNS = (
    (re.compile(r"(vwz|verwendungszweck|description|transaction ref|details|memo) ?\d{1,2}"), "text"),
)
_NAME_ACCOUNT_ROLES = ("kontoname", "account name")

_DIRECTION_WORDS = {
    "d": -1, "dr": -1, "debit": -1, "s": -1, "soll": -1, "outflow": -1, "kiadas": -1, "withdrawal": -1, "-": -1, "af": -1, "debet": -1,
    "c": 1, "k": 1, "cr": 1, "credit": 1, "h": 1, "haben": 1, "inflow": 1, "bevetel": 1, "deposit": 1, "+": 1, "bij": 1,
}
_PENDING = re.compile(r"pending|vorgemerkt|authori[sz]|in bearbeitung|en attente|nicht gebucht|ausstehend", re.I)
_REVERTED = re.compile(r"revert|declin|fail|cancel|storn|abgelehnt|reject|void", re.I)
_SUMMARY = re.compile(
    r"(opening|closing|beginning|ending|starting|previous|new) balance\b|turnover$|anfangssaldo|endsaldo|"
    r"schlusssaldo|saldo (alt|neu|anfang|ende)|solde (initial|final|precedent|au)|kontostand (alt|neu|vom|am)",
    re.I,
)
_DECISIVE = re.compile(r"[.,]\d{1,2}(?!\d)|\d[.,]\d{3}[.,]")
_CURRENCY_IN_TEXT = re.compile(r"(?<![A-Z])([A-Z]{3})(?![A-Z])")
_SYMBOL_CURRENCY = (("€", "EUR"), ("£", "GBP"), ("CHF", "CHF"), ("EUR", "EUR"), ("GBP", "GBP"), ("¥", "JPY"))
_PARENTHETICAL = re.compile(r"\(([^)]*)\)")
_MONTH_FIRST = ("USD", "CAD", "PHP")
MAX_FILE_FIELD = 256 * 1024 * 1024  # currencies whose banks commonly write dates month first
_AMOUNT_ROLES = ("amount", "debit", "credit", "balance", "fee", "original_amount")
_PLAIN = {
    ".": re.compile(r"(-?)(\d{1,15})(?:\.(\d{1,6}))?"),
    ",": re.compile(r"(-?)(\d{1,15})(?:,(\d{1,6}))?"),
}
_NOT_CSV = re.compile(r"^\s*(<\?xml|<OFX|OFXHEADER|!Type:|!Account|!Option)", re.I | re.M)


def normalise_header(name: str) -> str:
    """Lower case, no accents, no parentheses, punctuation as single spaces: one key per spelling."""
    text = unicodedata.normalize("NFKD", _PARENTHETICAL.sub(" ", name.lower().replace("ß", "ss")))
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return " ".join(re.sub(r"[^a-z0-9]+", " ", text).split())


def _build_lookup() -> dict[str, tuple[str, int, bool]]:
    lookup: dict[str, tuple[str, int, bool]] = {}
    for european, table in ((False, _ENGLISH), (True, _OTHER)):
        for key, names in table.items():
            role, _, prio = key.partition(":")
            for name in names:
                lookup.setdefault(name, (role, int(prio or 0), european))
    return lookup


_LOOKUP = _build_lookup()


def classify(header: str) -> tuple[str, int, bool] | None:
    """(role, preference, is-European) for a header name, or None when it means nothing to us."""
    key = normalise_header(header)
    hit = _LOOKUP.get(key)
    if hit is None:
        for pattern, role in _PATTERNS:
            if pattern.fullmatch(key):
                return role, 0, key.startswith(("vwz", "verwendungszweck"))
    return hit


# ---------------------------------------------------------------------------------------- reading


def read_rows(text: str, delimiter: str) -> tuple[list[tuple[int, list[str]]], list[RowError]]:
    """(line, cells) for every physical record, blank ones included, with the line it starts on."""
    # The csv module stops at a 128 KB field and loses every later row; read huge fields whole so
    # the row checks can name that one row and the rest still import.
    csv.field_size_limit(max(csv.field_size_limit(), MAX_FILE_FIELD))
    errors: list[RowError] = []
    try:
        records = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))
    except csv.Error:
        records = None
    if records is not None and len(records) == text.count("\n") + (not text.endswith("\n")):
        # One record per line (no quoted line breaks): line numbers are positions.
        rows = list(zip(range(1, len(records) + 1), records))
    else:
        rows = []
        reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
        start = 1
        try:
            for cells in reader:
                rows.append((start, cells))
                start = reader.line_num + 1
        except csv.Error as exc:
            errors.append(RowError(start, f"unreadable CSV from here on ({exc}); is a quote left open?"))
            return rows, errors
    if rows and _ends_inside_quotes(text, rows[-1][0], delimiter):
        line = rows.pop()[0]
        errors.append(RowError(line, "the file ends inside a quoted field (truncated file?); this row was not read"))
    return rows, errors


def _ends_inside_quotes(text: str, line: int, delimiter: str) -> bool:
    """Whether the record starting at `line` runs into the end of the file with a quote open."""
    pos = len(text)
    for _ in range(text.count("\n", 0, len(text)) - line + 2):
        pos = text.rfind("\n", 0, pos)
    tail = text[pos + 1 :]
    if tail.count('"') % 2 == 0:
        return False
    try:
        list(csv.reader(io.StringIO(tail, newline=""), delimiter=delimiter, strict=True))
    except csv.Error:
        return True
    return False


@dataclass
class Head:
    """The first lines of a file, tokenised with each candidate delimiter (detection input)."""

    rows: dict[str, list[tuple[int, list[str]]]]
    not_csv: bool

    def best_header(self) -> tuple[str, int, list[str], int] | None:
        """(delimiter, line, cells, score) of the row that looks most like a transaction header."""
        best: tuple[str, int, list[str], int] | None = None
        for delimiter, rows in self.rows.items():
            for line, cells in rows:
                score = header_score(cells)
                if score and (best is None or score > best[3]):
                    best = (delimiter, line, cells, score)
        return best

    def find(self, header: tuple[str, ...], delimiter: str = ",") -> tuple[int, bool] | None:
        """(line, exact) of a row holding `header` in order; `exact` when nothing else is there."""
        for line, cells in self.rows.get(delimiter, []):
            stripped = [c.strip() for c in cells]
            while stripped and not stripped[-1]:
                stripped.pop()
            if tuple(stripped) == header:
                return line, True
            if len(stripped) > len(header) and tuple(c for c in stripped if c in header) == header:
                return line, False
        return None


@lru_cache(maxsize=4)
def sniff(head_text: str) -> Head:
    rows = {d: read_rows(head_text, d)[0] for d in DELIMITERS if d in head_text}
    return Head(rows, bool(_NOT_CSV.search(head_text)))


def head_of(text: str) -> str:
    end = -1
    for _ in range(HEAD_LINES):
        end = text.find("\n", end + 1)
        if end < 0:
            return text
    return text[:end]


def header_score(cells: list[str]) -> int:
    """Distinct roles a row's cells name; 0 unless it has a date and some amount column."""
    if len(cells) < 2 or len(cells) > MAX_COLUMNS:
        return 0
    roles = set()
    for cell in cells:
        if len(cell) < 60:
            hit = classify(cell)
            if hit:
                roles.add(hit[0])
    if "date" not in roles or not roles & {"amount", "debit", "credit"}:
        return 0
    return len(roles)


# ----------------------------------------------------------------------------------------- layout


@dataclass
class Layout:
    """Where each piece of a transaction lives: column indices per role."""

    dates: list[int] = field(default_factory=list)  # preferred first; later ones fill gaps
    texts: list[int] = field(default_factory=list)  # payee columns first, then text columns
    single: dict[str, int] = field(default_factory=dict)  # amount, debit, balance, ...
    european: bool = False
    account_is_name: bool = False


def layout_from_header(cells: list[str]) -> Layout:
    """The generic mapper: a role per recognised header name."""
    layout = Layout()
    dates: list[tuple[int, int]] = []
    payees: list[int] = []
    texts: list[int] = []
    best: dict[str, tuple[int, int]] = {}
    for index, cell in enumerate(cells):
        hit = classify(cell)
        if hit is None:
            continue
        role, prio, european = hit
        layout.european |= european
        if role == "date":
            dates.append((prio, index))
        elif role == "payee":
            payees.append(index)
        elif role == "text":
            texts.append(index)
        elif role not in best or prio < best[role][0]:
            best[role] = (prio, index)
    layout.dates = [i for _, i in sorted(dates)]
    layout.texts = payees + texts
    layout.single = {role: index for role, (_, index) in best.items()}
    if "account" in layout.single:
        layout.account_is_name = normalise_header(cells[layout.single["account"]]) in _NAME_ACCOUNT_ROLES
    return layout


def layout_from_roles(cells: list[str], roles: dict[str, str]) -> Layout:
    """A dialect's layout: `roles` maps header names (or positions) to roles, dates/texts in order."""
    index = {c.strip(): i for i, c in reversed(list(enumerate(cells)))}
    layout = Layout()
    for name, role in roles.items():
        i = index[name] if isinstance(name, str) else name
        if role == "date":
            layout.dates.append(i)
        elif role == "text":
            layout.texts.append(i)
        elif role == "account_name":
            layout.single["account"] = i
            layout.account_is_name = True
        else:
            layout.single[role] = i
    return layout


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
    negate: bool = False  # the bank writes charges positive
    day_first: bool | None = None  # None: decide from the file's hints


def parse_table(text: str, source: str, delimiter: str, header_line: int | None, layout_for, options: Options) -> ParseResult:
    """Rows of `text` to a ParseResult; `layout_for(header_cells)` maps the header to a Layout."""
    try:
        return _Conversion(text, source, delimiter, header_line, layout_for, options).run()
    except ImportRefused:
        raise
    except Exception as exc:  # a bug must not surface as a traceback to the user
        raise ImportRefused(source, f"could not read this CSV ({type(exc).__name__}: {exc})") from exc


class _Conversion:
    """One parse: the analysis that decides formats per column, then the row loop."""

    def __init__(self, text, source, delimiter, header_line, layout_for, options: Options):
        self.source, self.options = source, options
        all_rows, self.errors = read_rows(text, delimiter)
        self.header: list[str] = []
        self.preamble: list[list[str]] = []
        rows = all_rows
        if header_line is not None:
            for pos, (line, cells) in enumerate(all_rows):
                if line == header_line:
                    self.header = cells
                    self.preamble = [c for _, c in all_rows[:pos]]
                    rows = all_rows[pos + 1 :]
                    break
        self.layout: Layout = layout_for(self.header)
        self.rows = self._data_rows(rows)
        self.width = max([len(self.header)] + [len(c) for _, c in self.rows[:200]])
        self.delimiter = delimiter
        # Only a file with a 64 KB stretch free of line breaks can hold a row that long (give or take
        # quoted line breaks, which the 4 KB description check still catches); most files skip the check.
        self.check_sizes = max(map(len, text.split("\n"))) > MAX_ROW_CHARS

    def _data_rows(self, rows: list[tuple[int, list[str]]]) -> list[tuple[int, list[str]]]:
        """Rows minus empty lines and copies of the header (some banks repeat it at the end)."""
        header = [c.strip() for c in self.header]
        first = self.header[0] if self.header else None
        return [
            (line, cells) for line, cells in rows
            if any(cells) and not (cells[0] == first and [c.strip() for c in cells[: len(header)]] == header)
        ]

    # -- per-column decisions ------------------------------------------------------------------

    def _column(self, index: int | None, limit: int | None = None) -> list[str]:
        if index is None:
            return []
        rows = self.rows if limit is None else self.rows[:limit]
        return [cells[index].strip() for _, cells in rows if index < len(cells) and cells[index].strip()]

    def _separator(self, index: int | None, european: bool) -> str:
        sample = self._column(index, 400)
        decisive = [v for v in sample if _DECISIVE.search(v)]
        if decisive:
            return guess_decimal_separator(decisive)
        has_dot = any("." in v for v in sample)
        has_comma = any("," in v for v in sample)
        if has_dot != has_comma:
            return "," if has_dot else "."  # a lone separator before three digits groups thousands
        return "," if european else "."

    def _currency(self) -> str:
        if self.options.account.currency:
            return self.options.account.currency
        single = self.layout.single
        if "currency" in single:
            values = Counter(v.upper() for v in self._column(single["currency"], 1000) if len(v) == 3)
            if values:
                return values.most_common(1)[0][0]
        if any(normalise_header(name) == "sort code" for name in self.header):
            return "GBP"  # only UK banks export a sort code
        for name in self.header:
            for inner in _PARENTHETICAL.findall(name):
                if re.fullmatch(r"[A-Z]{3}", inner.strip()):
                    return inner.strip()
        amounts = " ".join(v for role in ("amount", "debit", "credit", "balance") for v in self._column(single.get(role), 50))
        for symbol, code in _SYMBOL_CURRENCY:
            if symbol in amounts:
                return code
        return "USD"

    def _direction_column(self) -> int | None:
        """An explicit D/C column, or a type/unnamed column whose values are all direction words."""
        single = self.layout.single
        candidates = [single[r] for r in ("direction", "kind") if r in single]
        candidates += [i for i, name in enumerate(self.header) if not name.strip()]
        for index in candidates:
            values = {v.lower() for v in self._column(index, 500)}
            if values and all(v in _DIRECTION_WORDS for v in values):
                return index
        return None

    def _unique(self, index: int | None) -> int | None:
        values = self._column(index)
        return index if values and len(set(values)) == len(values) else None

    def _informative_texts(self) -> list[int]:
        """Text columns minus those that hold one value on every row (a product name, say)."""
        texts = self.layout.texts
        if len(self.rows) < 3 or len(texts) < 2:
            return texts
        keep = []
        for index in texts:
            values = self._column(index)
            if len(values) == len(self.rows) and len(set(values)) == 1:
                continue
            keep.append(index)
        return keep or texts

    # -- the row loop ----------------------------------------------------------------------------

    def run(self) -> ParseResult:
        """The row loop. Hot: 100k rows must convert in a fraction of a second, so the common
        path (one text column, plain `-12.34` amounts, a cached date) does as little as it can."""
        options, layout, single = self.options, self.layout, self.layout.single
        european = layout.european or self.delimiter == ";"
        seps = {r: self._separator(i, european) for r, i in single.items() if r in _AMOUNT_ROLES}
        currency = self._currency()
        day_first = options.day_first
        if day_first is None:
            # Only North America writes month first; a file in pounds or euros is day-first.
            day_first = european or seps.get("amount", seps.get("debit")) == "," or currency not in _MONTH_FIRST
        date_cols = [(i, infer_date_format(self._column(i), day_first)) for i in layout.dates]
        direction = self._direction_column()
        bank_id = self._unique(single.get("bank_id"))
        texts = self._informative_texts()
        names = [n.strip() for n in self.header]

        result = ParseResult(options.format, [], [], self.errors)
        accounts: dict[str, list[str]] = {}
        txs, errors = result.transactions, result.errors
        status_cache: dict[str, str] = {}
        cur_i, acct_i = single.get("currency"), single.get("account")
        amount_i, debit_i, credit_i, fee_i = single.get("amount"), single.get("debit"), single.get("credit"), single.get("fee")
        balance_i, cat_i, sub_i = single.get("balance"), single.get("category"), single.get("subcategory")
        status_i, orig_i, orig_cur_i = single.get("status"), single.get("original_amount"), single.get("original_currency")
        note_cols = [i for i in (single.get("kind"), single.get("notes")) if i is not None and i != direction]
        money_cols = [i for i in (amount_i, debit_i, credit_i) if i is not None]
        amount_name = _name(names, money_cols[0] if money_cols else None)
        negate, width, check_sizes = options.negate, self.width, self.check_sizes
        exp = exponent(currency)
        first_date = date_cols[0] if date_cols else (0, None)
        date_i, date_cache = first_date[0], first_date[1].cache if first_date[1] else {}
        one_text = texts[0] if len(texts) == 1 else None
        amount_sep, balance_sep = seps.get("amount", "."), seps.get("balance", ".")

        header_width = len(self.header) or None
        rows, self.rows = self.rows, []
        for index, (line, cells) in enumerate(rows):
            rows[index] = None  # let each row's cells go as it converts: peak memory is rows or result, not both
            if header_width and len(cells) > header_width and any(c.strip() for c in cells[header_width:]):
                errors.append(RowError(
                    line, f"{len(cells)} fields but the header has {header_width}; is a value with a comma not quoted?"
                ))
                continue
            if len(cells) < width:
                cells = cells + [""] * (width - len(cells))
            elif len(cells) > MAX_COLUMNS:
                errors.append(RowError(line, f"{len(cells)} columns; more than {MAX_COLUMNS} is not a bank export row"))
                continue
            if check_sizes and sum(map(len, cells)) > MAX_ROW_CHARS:
                errors.append(RowError(line, "row is longer than 64 KB"))
                continue
            if one_text is not None:
                description = " ".join(cells[one_text].split())
            else:
                description = _join_text(cells, texts)
            if len(description) > MAX_DESCRIPTION_CHARS:
                errors.append(RowError(line, "description is longer than 4 KB", _name(names, texts[0])))
                continue

            status = "booked"
            if status_i is not None:
                value = cells[status_i]
                status = status_cache.get(value) or status_cache.setdefault(value, _status(value))
                if status == "reverted":
                    result.skipped_reverted += 1
                    continue

            raw_date = cells[date_i]
            posted = date_cache.get(raw_date)
            if posted is None:
                raw_date, posted, column = _find_date(cells, date_cols)
                if not raw_date:
                    if status == "pending":
                        result.skipped_pending += 1
                    elif not any(cells[i].strip() for i in money_cols):
                        if description and txs:
                            txs[-1].description = f"{txs[-1].description} {description}"  # a wrapped row (OCBC)
                        elif description:
                            errors.append(RowError(line, "no date", _name(names, date_i)))
                    else:
                        errors.append(RowError(line, "no date", _name(names, date_i)))
                    continue
                if posted is None:
                    if _PENDING.search(raw_date):
                        result.skipped_pending += 1
                    else:
                        errors.append(RowError(line, f"cannot read the date {raw_date!r}", _name(names, column)))
                    continue
            if _SUMMARY.match(description):
                continue

            row_currency = (cells[cur_i].strip().upper() or None) if cur_i is not None else None
            money_currency = row_currency or currency
            row_exp = exp if row_currency is None else exponent(row_currency)
            try:
                if amount_i is not None and cells[amount_i]:
                    amount = _minor(cells[amount_i], amount_sep, row_exp, money_currency)
                else:
                    amount = self._split_amount(cells, debit_i, credit_i, seps, row_exp, money_currency)
                    if amount is None:
                        errors.append(RowError(line, "no amount", amount_name))
                        continue
                if direction is not None:
                    flag = cells[direction].strip()
                    sign = _DIRECTION_WORDS.get(flag.lower())
                    if sign is not None:
                        amount = abs(amount) * sign
                    elif not flag:
                        amount = -abs(amount)  # only credits are marked (CR); the rest are charges
                if fee_i is not None and cells[fee_i].strip():
                    amount -= abs(_minor(cells[fee_i], seps["fee"], row_exp, money_currency))
                if negate:
                    amount = -amount
            except AmountError as exc:
                errors.append(RowError(line, str(exc), amount_name))
                continue

            tx = ParsedTransaction(posted, amount, description, row_currency, line)
            txs.append(tx)
            if status == "pending":
                tx.pending = True
            if balance_i is not None and cells[balance_i]:
                try:
                    tx.balance = _minor(cells[balance_i], balance_sep, row_exp, money_currency)
                except AmountError:
                    pass  # a balance is a cross-check, never a reason to lose the row
            if bank_id is not None:
                tx.bank_id = cells[bank_id].strip().strip("'") or None
            if cat_i is not None:
                category = cells[cat_i].strip()
                sub = cells[sub_i].strip() if sub_i is not None else ""
                tx.category = (f"{category}:{sub}" if sub and sub != category else category) or None
            if note_cols:
                tx.notes = "; ".join(filter(None, (" ".join(cells[i].split()) for i in note_cols))) or None
            if orig_i is not None and cells[orig_i].strip():
                _original(tx, cells[orig_i].strip(), cells[orig_cur_i].strip() if orig_cur_i is not None else "", seps["original_amount"])
            if acct_i is not None:
                key = cells[acct_i].strip() or "default"
                tx.account_key = key
                accounts.setdefault(key, []).append(money_currency)

        result.accounts = self._accounts(accounts, currency)
        return result

    @staticmethod
    def _split_amount(cells, debit_i, credit_i, seps, exp, currency) -> int | None:
        """Debit/credit columns: a debit is an outflow whether or not the bank signed it."""
        debit = cells[debit_i].strip() if debit_i is not None else ""
        credit = cells[credit_i].strip() if credit_i is not None else ""
        if not debit and not credit:
            return None
        inflow = _minor(credit, seps["credit"], exp, currency) if credit else 0
        outflow = abs(_minor(debit, seps["debit"], exp, currency)) if debit else 0
        if inflow and outflow:
            # A real row moves money one way; both filled is usually `1,200.00` split by an unquoted comma.
            raise AmountError(f"both the debit ({debit}) and the credit ({credit}) column hold an amount")
        return inflow - outflow

    def _accounts(self, seen: dict[str, list[str]], currency: str) -> list[ParsedAccount]:
        info = self.options.account
        if not seen:
            return [ParsedAccount("default", info.name or self._preamble_name(), info.type, info.institution, currency=currency)]
        accounts = []
        for key, currencies in seen.items():
            own = Counter(currencies).most_common(1)[0][0]
            name, number = (key, None) if self.layout.account_is_name else (None, key)
            if info.name:
                name = info.name if len(seen) == 1 else f"{info.name} {key}"
            accounts.append(ParsedAccount(key, name, info.type, info.institution, number, own))
        return accounts

    def _preamble_name(self) -> str | None:
        """`Account details for:,DBS Savings Plus Account XXX` above the header names the account."""
        for cells in self.preamble:
            if len(cells) >= 2 and re.match(r"\s*account(\s+(details\s+for|name))?\s*:?\s*$", cells[0], re.I):
                name = " ".join(cells[1].split())
                if name:
                    return name
        return None


def _minor(text: str, sep: str, exp: int, currency: str | None) -> int:
    """Minor units. Most cells are a plain `-1234.56`, read with one int() and no regex."""
    if exp == 2 and len(text) > 3 and text[-3] == sep and "_" not in text:
        try:
            return int(text[:-3] + text[-2:])
        except ValueError:
            pass
    text = text.strip()
    match = _PLAIN[sep].fullmatch(text)
    if match:
        sign, whole, frac = match.groups()
        if frac is None or len(frac) <= exp:
            value = int(whole) * 10**exp + (int(frac.ljust(exp, "0")) if frac else 0)
            return -value if sign else value
    return to_minor(parse_amount(text, sep), currency)


def _name(names: list[str], index: int | None) -> str | None:
    return names[index] if index is not None and index < len(names) and names[index] else None


def _join_text(cells: list[str], texts: list[int]) -> str:
    """Several text columns as one description, skipping a part an earlier one already holds."""
    parts: list[str] = []
    for i in texts:
        part = " ".join(cells[i].split())
        if part and not any(part in p for p in parts):
            parts.append(part)
    return " ".join(parts)


def _find_date(cells: list[str], date_cols: list[tuple[int, DateColumn]]) -> tuple[str, object, int | None]:
    """(raw, date or None, column) from the first date column that has a value in this row."""
    for index, column in date_cols:
        raw = cells[index]
        if raw.strip():
            return raw.strip(), column.parse(raw), index
    return "", None, date_cols[0][0] if date_cols else None


def _status(value: str) -> str:
    return "pending" if _PENDING.search(value) else "reverted" if _REVERTED.search(value) else "booked"


def _original(tx: ParsedTransaction, raw: str, raw_currency: str, sep: str) -> None:
    """Foreign-currency amount: the cell may carry its code (`12.50 USD`); the sign follows the row."""
    found = _CURRENCY_IN_TEXT.search(raw_currency.upper()) or _CURRENCY_IN_TEXT.search(raw)
    code = found.group(1) if found else None
    try:
        value = abs(_minor(raw, sep, exponent(code), code))
    except AmountError:
        return
    tx.original_amount = -value if tx.amount < 0 else value
    tx.original_currency = code


# ------------------------------------------------------------------------------------ the format


class GenericCsv:
    """Any CSV whose header names a date and an amount (or debit/credit) in a language we know."""

    name = "generic_csv"

    def detect(self, text: str) -> int:
        head = sniff(head_of(text))
        if head.not_csv:
            return 0
        best = head.best_header()
        if best is None:
            return 0
        return min(60, 30 + 5 * best[3])

    def parse(self, text: str, source: str) -> ParseResult:
        head = sniff(head_of(text))
        best = None if head.not_csv else head.best_header()
        if best is None:
            raise ImportRefused(source, "no header row naming a date and an amount column in the first 50 lines")
        delimiter, line, _, _ = best
        return parse_table(text, source, delimiter, line, layout_from_header, Options(self.name))


FORMATS = [GenericCsv()]
