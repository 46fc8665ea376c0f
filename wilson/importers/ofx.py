"""OFX 1.x (SGML), OFX 2.x (XML), hybrid files and QFX: bank and credit-card statements.

Why not ofxtools: we tried `ofxtools` 1.1.1 on every fixture and it refused 4 of 9 real bank files
outright (`CHARSET:8859-1`, blank lines before the header, no header at all, no LEDGERBAL) and
rejects whole files over one non-standard value (`DTSERVER` with a colon, an empty `LANGUAGE`); it
also converts every timestamp to UTC, which moves evening transactions to the next day. So Wilson
reads OFX with the small, lenient tokenizer below, which handles SGML and XML alike and turns
a bad value into an error on that one row instead of losing the file.
"""

from __future__ import annotations

import html
import re
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass, field
from datetime import date
from decimal import ROUND_HALF_EVEN, Decimal
from functools import lru_cache

from wilson.importers.model import CARD_PAYMENT, ImportRefused, ParsedAccount, ParsedTransaction, ParseResult, RowError, lines_named, payee_of
from wilson.money import AmountError, exponent, parse_amount, to_minor

# A tag and the text after it; a `<` that starts no tag (`CAFE <3`) is text.
# A tag (an XML namespace prefix and attributes are passed over: `<ofx:OFX xmlns:ofx="...">`) and its text.
_TOKEN = re.compile(
    r"<(/?)(?:[A-Za-z][\w.]*:)?([A-Za-z][\w.]*)(?:\s++(?:[^<>/\"']|\"[^\"]*\"|'[^']*')*+)?\s*>((?:[^<]+|<(?![/A-Za-z!?]))*)"
)
_SPECIAL = re.compile(r"<!\[CDATA\[(.*?)\]\]>|<!--.*?-->", re.S)
_OFX_START = re.compile(r"<(?:[A-Za-z][\w.]*:)?OFX(?:\s+[^<>]*)?>", re.I)
_DATE = re.compile(r"(\d{4})(\d{2})(\d{2})(?:\d{0,6}(?:\.\d+)?)?(?:\s*\[[^\]]*\])?")
_NUMBER = re.compile(r"[+-]?(?:\d+(?:[.,]\d*)?|[.,]\d+)")
_USELESS_NAME = re.compile(r"[\d\s.\-]*")
_NAME_CUT = 30  # NAME holds 32 characters; one near that long (less the spaces stripped) was cut
# Row types that only ever take money out (PAYMENT is left out: on a card statement it is the payment in).
_OUTFLOW_TYPES = frozenset(("DEBIT", "CHECK", "FEE", "SRVCHG", "CASH", "DIRECTDEBIT", "REPEATPMT"))
# "Debit or credit, depending on the amount's sign" in the OFX spec: an ATM deposit, a card refund.
_EITHER_WAY_TYPES = frozenset(("ATM", "POS"))
INVERTED_MIN = 3  # typed rows, every one signed against its type, before a statement is read the other way round
_MONEY_IN_TEXT = re.compile(r"deposit|\bdep\b|refund|return|credit|reversal|rebate", re.I)
_UNDONE_TEXT = re.compile(r"reversal|reversed|refund|rebate", re.I)  # money back, whatever the row's type
# A `CHECK` row that says it was paid in (`REMOTE ONLINE DEPOSIT`, `MOBILE CHECK DEPOSIT`, `DEPOSIT`
# alone); a check written for a `SECURITY DEPOSIT` is money out.
_DEPOSITED_CHECK = re.compile(
    r"\b(?:remote|mobile|online|atm|branch|e)[\s-]*(?:check\s+|cheque\s+)?deposit|\bdeposited\b|\b(?:check|cheque) deposit"
    r"|^\s*deposit\s*$",
    re.I,
)
_KIND = re.compile(r"[A-Z][A-Z ]+")  # `POS MERCHANDISE`, the transaction kind before `;PAYEE`
_STATEMENTS = frozenset({"STMTRS", "CCSTMTRS"})
_TRANSACTION = frozenset({"STMTTRN"})
_PENDING_TRANSACTION = frozenset({"STMTTRNP"})  # OFX 2.1's BANKTRANLISTP: holds not yet posted
_ROWS = _TRANSACTION | _PENDING_TRANSACTION
_SECURITIES = frozenset({  # an investment statement's trades and other security transactions
    "BUYDEBT", "BUYMF", "BUYOPT", "BUYOTHER", "BUYSTOCK", "CLOSUREOPT", "INCOME", "INVEXPENSE", "JRNLFUND", "JRNLSEC",
    "MARGININTEREST", "REINVEST", "RETOFCAP", "SELLDEBT", "SELLMF", "SELLOPT", "SELLOTHER", "SELLSTOCK", "SPLIT", "TRANSFER",
})
_ACCOUNT_TYPES = {
    "CHECKING": "checking",
    "SAVINGS": "savings",
    "MONEYMRKT": "savings",
    # A line of credit is revolving debt that behaves like a card: owed money is negative.
    "CREDITLINE": "credit_card",
}
# Banks whose OFX names them by a code (Chase's `<ORG>B1`, Bank of America's `HAN`): their
# institution id says who they are, so accounts read `Chase Credit Card 5678`, not `B1 …`.
_BANKS_BY_FID = {"10898": "Chase", "5959": "Bank of America", "3000": "Wells Fargo", "3101": "American Express", "24909": "Citi"}


class _Node:
    """One OFX element: an aggregate (`text is None`, with children) or a leaf with a value."""

    __slots__ = ("tag", "pos", "children", "text", "cut")

    def __init__(self, tag: str, pos: int, text: str | None = None):
        self.tag, self.pos = tag, pos
        # A leaf shares one empty tuple: a list each for 700k leaves of a 100k-row file cost 50 MB.
        self.children: list[_Node] | tuple[()] = () if text else []
        self.text = text
        self.cut = False  # still open when the file ended: the file was truncated inside it

    def child(self, tag: str) -> _Node | None:
        for node in self.children:
            if node.tag == tag:
                return node
        return None

    def value(self, *path: str) -> str | None:
        """The stripped text of the leaf at `path` below this node; '' or None when absent."""
        node: _Node | None = self
        for tag in path:
            node = node.child(tag) if node else None
        return node.text if node else None

    def find_all(self, tags: frozenset[str]) -> list[_Node]:
        """Descendants whose tag is in `tags`, without looking inside the ones found, nor inside a
        transaction: nothing searched for lives there, and its fields are most of a file's nodes."""
        found, todo = [], list(reversed(self.children))
        while todo:
            node = todo.pop()
            if node.tag in tags:
                found.append(node)
            elif node.children and node.tag not in _ROWS:
                todo.extend(reversed(node.children))
        return found


_ENTITY = re.compile(r"&(?:#\d+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);")


def _unescape(text: str) -> str:
    """Banks escape `&` twice (`&amp;lt;`), so undo entities until the text stops changing; only
    whole ones, ending in `;`: `PRINT&COPY` and `SMITH&REGAN` are names, not `©` and `®`."""
    for _ in range(3):
        unescaped = _ENTITY.sub(lambda m: html.unescape(m[0]), text)
        if unescaped == text:
            break
        text = unescaped
    return text


def _flatten_special(text: str) -> str:
    """CDATA sections become escaped text and comments blank space, keeping every newline."""
    if "<![CDATA[" not in text and "<!--" not in text:
        return text

    def replace(m: re.Match[str]) -> str:
        return html.escape(m[1], quote=False) if m[1] is not None else "\n" * m[0].count("\n")

    return _SPECIAL.sub(replace, text)


def _tree(text: str, start: int) -> _Node:
    """Parse SGML or XML leniently into a tree.

    SGML leaves are never closed, so a tag followed by text is a leaf and a tag followed by
    another tag is an aggregate. An element that turns out never to be closed was in fact an empty
    leaf: its would-be children are handed back to its parent when an enclosing tag closes.
    """
    root = _Node("", start)
    stack = [root]
    opened: set[str] = set()  # the tags on the stack, asked of every token
    last_leaf = ""  # `</CODE>` right after `<CODE>0` closes nothing that is still open
    for m in _TOKEN.finditer(text, start):
        slash, tag, raw = m.groups()
        tag = tag.upper()
        if slash:
            if tag != last_leaf:
                _close(stack, tag)
                opened = {node.tag for node in stack[1:]}
            last_leaf = ""
            continue
        if tag in opened:
            _close(stack, tag)  # `<STMTTRN>` again without `</STMTTRN>` (after an empty `<MEMO>` too): siblings, not nesting
            opened = {node.tag for node in stack[1:]}
        value = raw.strip()
        node = _Node(tag, m.start(), (_unescape(value) if "&" in value else value) or None)
        stack[-1].children.append(node)
        if value:
            last_leaf = tag
        else:
            stack.append(node)
            opened.add(tag)
            last_leaf = ""
    for node in stack[1:]:
        node.cut = True
    return root


def _close(stack: list[_Node], tag: str) -> None:
    if stack[-1].tag != tag:
        if not any(node.tag == tag for node in stack[1:]):
            return  # a stray close tag, e.g. after a leaf that already has its value
        while stack[-1].tag != tag:
            node = stack.pop()
            if node.tag in _TRANSACTION:
                continue  # the last row a writer left open (Capital One's QFX): closed here, its fields its own
            stack[-1].children.extend(node.children)
            node.children, node.text = [], ""
    node = stack.pop()
    if not node.children:
        node.text = ""  # `<NAME></NAME>`: an empty leaf


def _currency_block(fields: dict[str, _Node], tag: str) -> tuple[str, str | None]:
    """(CURSYM, CURRATE) of a row's CURRENCY or ORIGCURRENCY: its own, or the row's when the block
    was left open and its fields handed to the row (`<CURRENCY><CURRATE>1.10<CURSYM>EUR` then the
    next `<STMTTRN>`)."""
    node = fields.get(tag)
    if node is None:
        return "", None
    holder = node if node.children or "CURSYM" not in fields else None
    if holder is not None:
        return holder.value("CURSYM") or "", holder.value("CURRATE")
    rate = fields.get("CURRATE")
    return fields["CURSYM"].text or "", rate.text if rate else None


@lru_cache(maxsize=1 << 14)  # a statement repeats its days and amounts across its rows
def _is_one(rate: str | None) -> bool:
    """Whether a CURRATE reads as exactly 1 (`1`, `1.0000`, `1,00`)."""
    return rate is not None and _NUMBER.fullmatch(rate.strip()) is not None and Decimal(rate.strip().replace(",", ".")) == 1


def _date(raw: str | None) -> date:
    """The calendar date as written: `20090401122017.000[-5:EST]` is 1 April whatever the zone."""
    m = _DATE.fullmatch((raw or "").strip())
    if not m:
        raise ValueError(f"not an OFX date: {raw!r}")
    return date(int(m[1]), int(m[2]), int(m[3]))


_SPACE_THOUSANDS = re.compile(r"(?<=\d)[ \u00a0\u202f](?=\d{3}(?:\D|$))")
_COMMA_THOUSANDS = re.compile(r"[+-]?\d{1,3},\d{3}")  # `-1,000`: a comma decimal mark, or grouping?


@lru_cache(maxsize=1 << 14)
def _decimal(raw: str | None, currency: str | None = None) -> Decimal:
    """OFX writes `.` or `,` as the decimal mark and no thousands separator; a value holding both
    (`-1.234,56`, some European banks) has one, and the last mark is the decimal one. A comma then
    three digits, in a currency without three decimals, can only be grouping: `-1,000` dollars is
    not -1.000, nor `2,500` euros 2.500."""
    text = _SPACE_THOUSANDS.sub("", (raw or "").strip())  # Crédit Mutuel's `-1 234,56`
    if currency and exponent(currency) < 3 and _COMMA_THOUSANDS.fullmatch(text):
        text = text.replace(",", "")
    if _NUMBER.fullmatch(text):
        return Decimal(text.replace(",", "."))
    if "." in text and "," in text:
        return parse_amount(text, "," if text.rfind(",") > text.rfind(".") else ".")
    raise AmountError(f"not an amount: {raw!r}")


def _minor(raw: str | None, currency: str) -> int:
    return to_minor(_decimal(raw, currency), currency)


def _converted(value: Decimal, currency: str) -> int:
    """A converted amount in minor units; the bank's rate makes rounding unavoidable here."""
    return int(value.scaleb(exponent(currency)).quantize(Decimal(1), ROUND_HALF_EVEN))


@dataclass
class _Seen:
    """The rows the statements of one account read so far gave, and the days those statements
    cover: a later statement of the same account repeats some of them when the ranges overlap."""

    with_id: set[tuple] = field(default_factory=set)  # (FITID, date, amount, text)
    without_id: Counter[tuple[date, int, str]] = field(default_factory=Counter)  # (date, amount, text): how often kept
    periods: list[tuple[date, date]] = field(default_factory=list)

    def covers(self, day: date) -> bool:
        """Whether an earlier statement answers for `day`: only there can a row without a FITID be a repeat."""
        return any(start <= day <= end for start, end in self.periods)


def _bound(listed: _Node | None, tag: str) -> date | None:
    """DTSTART or DTEND of a transaction list; None when it is missing or unreadable."""
    try:
        return _date(listed.value(tag)) if listed is not None and listed.value(tag) else None
    except ValueError:
        return None


def _period(statement: _Node, days: list[date]) -> tuple[date, date] | None:
    """The days a statement answers for: its DTSTART to DTEND, its first or last row's date
    standing in for one it leaves out. Only on these days can another statement repeat its rows."""
    listed = statement.child("BANKTRANLIST") or statement.child("INVTRANLIST")
    start, end = _bound(listed, "DTSTART") or min(days, default=None), _bound(listed, "DTEND") or max(days, default=None)
    return (start, end) if start and end else None


class _OfxParser:
    def __init__(self, text: str, source: str, currency: str | None = None):
        self.text, self.source, self.currency = _flatten_special(text), source, currency
        self.newlines = [m.start() for m in re.finditer("\n", text)]
        self.result = ParseResult(format="ofx", transactions=[], accounts=[])
        self.cut_row = False  # a transaction was cut short by the end of the file
        self.seen: dict[str, _Seen] = {}  # per account: rows and days of the statements read so far
        self.repeated = 0  # rows an earlier statement of the same account already gave
        self.rounded: list[int] = []  # lines of amounts written finer than their currency's minor unit
        self.unrated: list[int] = []  # lines of rows in another currency that give no rate to the account's
        self.balance_statement: dict[str, _Node] = {}  # per account: the statement its balance is from

    def line(self, pos: int) -> int:
        return bisect_right(self.newlines, pos - 1) + 1

    def parse(self) -> ParseResult:
        start = _OFX_START.search(self.text)
        if not start:
            raise ImportRefused(self.source, "not an OFX file: no <OFX> element")
        root = _tree(self.text, start.start())
        institution = None
        for fi in root.find_all(frozenset({"FI"})):
            institution = _BANKS_BY_FID.get(fi.value("FID") or "") or fi.value("ORG") or institution
        statements = root.find_all(_STATEMENTS)
        investment = root.find_all(frozenset({"INVSTMTRS"}))
        # A cash-management account (Fidelity's) is an investment statement holding nothing but cash
        # rows: those are read like a bank's. One with trades is skipped: its cash alone would mislead.
        cash_only = [node for node in investment if node.find_all(_TRANSACTION) and not node.find_all(_SECURITIES)]
        statements += cash_only
        investment = [node for node in investment if node not in cash_only]
        failures = [  # the bank's own word on a request it could not answer: `2003: Account not found`
            f"{status.value('CODE') or '?'}: {status.value('MESSAGE') or 'no message'}"
            for status in root.find_all(frozenset({"STATUS"}))
            if (status.value("SEVERITY") or "").upper() == "ERROR"
        ]
        if not statements:
            if failures:
                raise ImportRefused(self.source, f"the bank answered with an error instead of a statement ({'; '.join(failures)})")
            what = "an investment statement, which Wilson does not import" if investment else "no bank or credit-card statement"
            raise ImportRefused(self.source, f"the OFX file holds {what}")
        self.result.warnings += [f"the bank could not send one statement ({failure}); it is not in the file" for failure in failures]
        if investment:
            self.result.warnings.append("skipped the investment statement: Wilson imports bank and credit-card statements")
        accounts: dict[str, ParsedAccount] = {}
        for number, node in enumerate(statements, 1):
            account = self.account(node, institution, number)
            if account.key in accounts and accounts[account.key].currency != account.currency:
                account.key = f"{account.key} {account.currency}"  # one account id holding several currencies
            elif account.key in accounts and accounts[account.key].type != account.type:
                account.key = f"{account.key} {account.type}"  # a credit union's checking and savings under one member number
            known = accounts.get(account.key)
            if known is None:
                accounts[account.key] = account
                self.balance_statement[account.key] = node
            elif account.balance_date and (known.balance_date is None or account.balance_date >= known.balance_date):
                known.balance, known.balance_date = account.balance, account.balance_date
                self.balance_statement[account.key] = node
            self.transactions(node, accounts[account.key])
        self.result.accounts = list(accounts.values())
        if self.repeated:
            self.result.warnings.append(f"{self.repeated} row(s) repeated by overlapping statements of one account were read once")
        if self.rounded:
            rounded = lines_named(list(dict.fromkeys(self.rounded)))
            self.result.warnings.append(f"{rounded}: an amount finer than its currency's smallest unit was rounded to it (half to even)")
        if self.unrated:
            self.result.warnings.append(f"{lines_named(self.unrated)}: in another currency with no exchange rate: booked in that currency,"
                                        " not in the account's")
        if self.result.superseded:  # a row corrected in the same file is gone already
            gone = set(self.result.superseded)
            self.result.transactions = [t for t in self.result.transactions if (t.account_key, t.bank_id) not in gone]
        self.report_truncation(root)
        return self.result

    def account(self, node: _Node, institution: str | None, number: int) -> ParsedAccount:
        credit, invested = node.tag == "CCSTMTRS", node.tag == "INVSTMTRS"
        acct = node.child("CCACCTFROM" if credit else "INVACCTFROM" if invested else "BANKACCTFROM") or _Node("", node.pos)
        acctid = acct.value("ACCTID") or None
        kind = "credit_card" if credit else "investment" if invested else _ACCOUNT_TYPES.get((acct.value("ACCTTYPE") or "").upper(), "checking")
        currency = (node.value("CURDEF") or "").upper() or self.currency_from_rows(node) or self.currency
        label = kind.replace("_", " ").title()
        tail = re.sub(r"\D", "", acctid or "")[-4:] or None
        name = " ".join(part for part in (institution, label, tail) if part)
        account = ParsedAccount(
            key=acctid or f"statement-{number}",
            name=name,
            type=kind,
            institution=institution,
            number=acctid,
            currency=currency or "USD",
            currency_stated=currency is not None,  # by the file or the user
            type_stated=True,
        )
        self.balance(node, account)
        return account

    def currency_from_rows(self, node: _Node) -> str | None:
        """No CURDEF (some Australian banks leave it empty): the currency the rows name at a rate of
        1 (CBA writes its own so on every row). One at another rate is a purchase abroad, not the
        account's currency."""
        own = Counter(
            trn.value("CURRENCY", "CURSYM").upper() for trn in node.find_all(_TRANSACTION)
            if trn.value("CURRENCY", "CURSYM") and _is_one(trn.value("CURRENCY", "CURRATE"))
        )
        if own:
            return own.most_common(1)[0][0]
        if not self.currency:
            self.result.warnings.append(f"statement at line {self.line(node.pos)} names no currency; assuming USD (or give --currency)")
        return None

    def balance(self, node: _Node, account: ParsedAccount) -> None:
        ledger = node.child("LEDGERBAL")
        if ledger is None or ledger.cut or not ledger.value("BALAMT"):
            return  # none, or cut short by the file's end: `<BALAMT>20` of 2000.00, no date
        try:
            account.balance = _minor(ledger.value("BALAMT"), account.currency)
            account.balance_date = _date(ledger.value("DTASOF")) if ledger.value("DTASOF") else None
        except (ValueError, ArithmeticError) as exc:
            account.balance = account.balance_date = None
            self.result.warnings.append(f"line {self.line(ledger.pos)}: ledger balance ignored: {exc}")
        listed = node.child("BANKTRANLIST")
        try:
            account.listed_from = _date(listed.value("DTSTART")) if listed is not None and listed.value("DTSTART") else None
        except ValueError:
            account.listed_from = None  # a start it cannot read only leaves the balance check less sure

    def transactions(self, statement: _Node, account: ParsedAccount) -> None:
        """The statement's rows, less those an earlier statement of the same account in this file
        already gave (a download of overlapping ranges)."""
        kinds: list[tuple[ParsedTransaction, str]] = []
        for trn in statement.find_all(_TRANSACTION):
            line = self.line(trn.pos)
            if trn.cut:
                self.cut_row = True
                self.result.errors.append(RowError(line, "the file ends inside this transaction (truncated file?)"))
                continue
            row = self.transaction(trn, account, line)
            if row is not None:
                kinds.append((row, (trn.value("TRNTYPE") or "").upper()))
        kinds = self.not_repeated(statement, account, kinds)
        self.result.transactions.extend(row for row, _ in kinds)
        self.sign_unsigned(statement, kinds)
        self.sign_inverted(statement, kinds, account)
        for trn in statement.find_all(_PENDING_TRANSACTION):
            row = None if trn.cut else self.transaction(trn, account, self.line(trn.pos))
            if row is not None:
                row.pending = True  # kept flagged, never counted, replaced when its posted row comes
                self.result.transactions.append(row)

    def not_repeated(
        self, statement: _Node, account: ParsedAccount, kinds: list[tuple[ParsedTransaction, str]]
    ) -> list[tuple[ParsedTransaction, str]]:
        """The rows an earlier statement of the account did not give. A row with a FITID repeats one
        with the same FITID, date, amount and text; within one statement a repeated FITID is kept,
        banks reuse them for a purchase and its fee. Without a FITID, as the ledger treats two
        overlapping downloads: on a day an earlier statement covers too, rows with the same date,
        amount and text are the same rows, each kept as often as the statement listing it more often lists it,
        so two $5.75 coffees of one day both stay however many statements list them."""
        seen = self.seen.setdefault(account.key, _Seen())
        period = _period(statement, [row.posted for row, _ in kinds])
        listed: Counter[tuple[date, int, str]] = Counter()  # this statement's rows without a FITID so far
        kept: list[tuple[ParsedTransaction, str]] = []
        for row, kind in kinds:
            key = (row.posted, row.amount, row.description)
            if row.bank_id:
                repeat = (row.bank_id, *key) in seen.with_id
            else:
                listed[key] += 1
                repeat = seen.covers(row.posted) and listed[key] <= seen.without_id[key]
            if repeat:
                self.repeated += 1
            else:
                kept.append((row, kind))
        seen.with_id.update((row.bank_id, row.posted, row.amount, row.description) for row, _ in kinds if row.bank_id)
        seen.without_id.update((row.posted, row.amount, row.description) for row, _ in kept if not row.bank_id)
        if period is not None:
            seen.periods.append(period)
        return kept

    def sign_unsigned(self, statement: _Node, kinds: list[tuple[ParsedTransaction, str]]) -> None:
        """A statement that writes no amount negative but types rows as only ever outflows (DEBIT,
        CHECK, FEE, ...) has its outflows unsigned: the types give the signs, and the summary says
        so. ATM and POS rows go either way: out with them, unless their text says money came in.
        A window of only deposits and refunds (payday, an ATM deposit) types nothing as an outflow."""
        if any(row.amount < 0 for row, _ in kinds):
            return
        typed = [
            (row, kind) for row, kind in kinds if row.amount > 0 and (
                (kind in _OUTFLOW_TYPES and not _UNDONE_TEXT.search(row.description)  # a `FEE` `LATE FEE REVERSAL` is money back
                 and not (kind == "CHECK" and _DEPOSITED_CHECK.search(row.description)))
                or (kind in _EITHER_WAY_TYPES and not _MONEY_IN_TEXT.search(f"{row.description} {row.notes or ''}"))
            )
        ]
        if not any(kind in _OUTFLOW_TYPES for _, kind in typed):
            return
        outflows = [row for row, _ in typed]
        for row in outflows:
            row.amount = -row.amount
            row.original_amount = -row.original_amount if row.original_amount else row.original_amount
        self.result.warnings.append(
            f"statement at line {self.line(statement.pos)} writes no amount negative: its {len(outflows)} debit row(s) are read as outflows"
        )

    def sign_inverted(self, statement: _Node, kinds: list[tuple[ParsedTransaction, str]], account: ParsedAccount) -> None:
        """A statement whose every DEBIT is positive and every CREDIT negative signs its rows from
        the bank's side (some card issuers' downloads do): the holder's side is the other way round,
        its balance too. It takes several typed rows, all contradicting their type, and the summary
        says so."""
        typed = [(row, kind) for row, kind in kinds if kind in ("DEBIT", "CREDIT") and row.amount]
        alike = {kind for _, kind in typed}
        if len(alike) == 1 and not any(kind not in alike and row.amount and (row.amount < 0) == (alike == {"DEBIT"}) for row, kind in kinds):
            return  # rows all typed alike, and no other row signed the other way: nothing says the signs are the bank's
        # A card's short month will do when its negative CREDIT is the card's payment (`PAYMENT THANK YOU`).
        paid = account.type == "credit_card" and any(
            kind in ("CREDIT", "PAYMENT") and row.amount < 0 and CARD_PAYMENT.search(row.description) for row, kind in kinds
        )
        if len(typed) < (2 if paid else INVERTED_MIN) or any((row.amount < 0) == (kind == "DEBIT") for row, kind in typed):
            return
        for row, _ in kinds:
            row.amount = -row.amount
            row.original_amount = -row.original_amount if row.original_amount else row.original_amount
        if self.balance_statement.get(account.key) is statement and account.balance is not None:
            account.balance = -account.balance
        self.result.warnings.append(
            f"statement at line {self.line(statement.pos)} writes its debits positive and credits negative: every amount is read the other way round"
        )

    def transaction(self, trn: _Node, account: ParsedAccount, line: int) -> ParsedTransaction | None:
        fields = {child.tag: child for child in trn.children}

        def text(tag: str) -> str:
            node = fields.get(tag)
            return node.text or "" if node else ""

        def line_of(*tags: str) -> int:  # a bad field's own line, the row's when it is missing
            return next((self.line(fields[tag].pos) for tag in tags if tag in fields), line)

        # A correction names the FITID of a row sent before: REPLACE it with this row, or DELETE it.
        action, corrected = text("CORRECTACTION").upper(), text("CORRECTFITID")
        if corrected and action in ("REPLACE", "DELETE") and (action == "DELETE" or corrected != text("FITID")):
            self.result.superseded.append((account.key, corrected))
            if action == "DELETE":
                return None

        errors = []
        try:
            posted = _date(text("DTPOSTED") or text("DTUSER") or text("DTTRAN"))
        except ValueError:
            raw = text("DTPOSTED") or text("DTUSER") or text("DTTRAN")
            errors.append(RowError(line_of("DTPOSTED", "DTUSER", "DTTRAN"), f"invalid date {raw!r}" if raw else "no date (DTPOSTED)", column="DTPOSTED"))
        row = ParsedTransaction(posted=date.min, amount=0, description="", line=line, account_key=account.key)
        try:
            self.amounts(row, text("TRNAMT"), fields, account.currency)
        except (AmountError, ArithmeticError):
            errors.append(RowError(line_of("TRNAMT"), f"invalid amount {text('TRNAMT')!r}", column="TRNAMT"))
        if errors:
            self.result.errors.extend(errors)
            return None
        row.posted = posted
        payee_node = fields.get("PAYEE")
        name = text("NAME") or (payee_node.value("NAME") or "" if payee_node else "")
        row.description, payee = _describe(name, text("MEMO"), text("TRNTYPE"))
        row.payee = payee_of(payee) if payee else None
        row.bank_id = text("FITID") or None
        checknum = text("CHECKNUM").lstrip("0")
        row.notes = f"check {checknum}" if checknum else None
        return row

    def amounts(self, row: ParsedTransaction, trnamt: str, fields: dict[str, _Node], currency: str) -> None:
        """TRNAMT in the account currency, plus the original amount for foreign-currency rows.

        `<CURRENCY>` means TRNAMT is in CURSYM (times CURRATE gives the account currency);
        `<ORIGCURRENCY>` means TRNAMT is already converted and CURSYM was the original.
        """
        amount = _decimal(trnamt, currency)
        for tag, in_foreign in (("CURRENCY", True), ("ORIGCURRENCY", False)):
            symbol, rate_text = _currency_block(fields, tag)
            symbol = symbol.upper()
            if not symbol or symbol == currency:
                continue
            rate = _decimal(rate_text) if rate_text else None
            row.original_currency = symbol
            if in_foreign:
                amount = _decimal(trnamt, symbol)  # written in the other currency
                row.original_amount = to_minor(amount, symbol)
                if rate is None:
                    row.currency, row.amount = symbol, row.original_amount
                    self.unrated.append(row.line)
                    return
                row.amount = _converted(amount * rate, currency)
            else:
                row.amount = to_minor(amount, currency)
                row.original_amount = _converted(amount / rate, symbol) if rate else None
            return
        if -amount.as_tuple().exponent > exponent(currency) and amount != amount.quantize(Decimal(1).scaleb(-exponent(currency))):
            self.rounded.append(row.line)  # a money-market fund's fractions of a cent: the account holds cents
            row.amount = _converted(amount, currency)
            return
        row.amount = to_minor(amount, currency)

    def report_truncation(self, root: _Node) -> None:
        """A file cut short mid-transaction already has its row error; otherwise say so once."""
        ofx = root.child("OFX")
        if ofx is None or not ofx.cut or self.cut_row:
            return
        last = len(self.newlines) + 1
        message = "the file ends before </OFX>: it looks truncated, later transactions may be missing"
        self.result.errors.append(RowError(last, message))


def _memo_payee(memo: str) -> str | None:
    """Canadian banks write `PREAUTHORIZED DEBIT;PAYEE;Electronic Funds Transfer` in MEMO."""
    parts = [part.strip() for part in memo.split(";")]
    if len(parts) > 1 and parts[1] and _KIND.fullmatch(parts[0]) and not _LABELLED.match(parts[1]):
        return parts[1]
    return None


_LABELLED = re.compile(r"(?:IBAN|BIC|BLZ|KTO|REF)\b\s*:", re.I)  # Sparkasse's `FOLGELASTSCHRIFT; IBAN: DE…; BIC: …` names no one
_LABELLED_MEMO = re.compile(r"[A-Z][A-Z ]+(?:;\s*(?:IBAN|BIC|BLZ|KTO|REF)\b\s*:[^;]*)+", re.I)


def _describe(name: str, memo: str, trntype: str) -> tuple[str, str]:
    """(description, payee source) from NAME and MEMO, without repeating what both say.

    NAME is the payee, often cut at 32 characters; MEMO is either the same text at full length,
    `TYPE;PAYEE;...`, or extra detail. An all-zero NAME is a placeholder, so MEMO names the payee.
    """
    if _USELESS_NAME.fullmatch(name):
        name = ""
    memo_payee = _memo_payee(memo)
    if not name:
        description = memo or trntype or "(no description)"
        return description, memo_payee or description
    if not memo or memo == name or memo_payee == name:
        return name, name
    if memo.startswith(name.rstrip()):
        return memo, memo_payee or memo
    joined = f"{name} {memo}"
    if _KIND_NAME.fullmatch(name.strip()) and (memo_payee or _names_someone(memo)):
        return joined, memo_payee or _LEADING_NUMBER.sub("", memo)  # `POS PURCHASE` says only what kind of row; MEMO names the shop
    if len(name) < _NAME_CUT or _LABELLED_MEMO.fullmatch(memo):  # MEMO only the kind and the bank's fields: no more name
        return joined, memo_payee or name
    return joined, memo_payee or joined  # a cut NAME goes on in MEMO


def _names_someone(memo: str) -> bool:
    """Whether a MEMO holds a word beyond a reference's (`THANK YOU`, `CONF# 1234567890`, `xxxx1234`):
    `BP`, `AT&T` and `H&M` are shops."""
    return any(word.casefold() not in _REFERENCE_WORDS and word.strip("xX") for word in _WORD.findall(memo))


_WORD = re.compile(r"[^\W\d_]+")
_REFERENCE_WORDS = frozenset({
    "thank", "you", "conf", "confirmation", "ref", "reference", "trace", "ppd", "ccd", "web", "payment", "number", "id", "no",
})
_LEADING_NUMBER = re.compile(r"^(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\s+")  # `0104 SHELL OIL`: the card's day, after `CHECK CARD`
# A NAME that says only what kind of row it is: the payee is in MEMO.
_KIND_NAME = re.compile(
    r"(?:\d{6}\s+)?"  # the card's day: Banque Populaire's `250822 CB****3419`
    r"(?:pos|point of sale|debit card|debit|check ?card|card|visa|ach|pre-?authori[sz]ed|electronic|recurring|online|web|bill|cb)"
    r"(?: (?:purchase|debit|payment|withdrawal|transaction))?(?:\s*[*xX]{2,}\d{4})?",
    re.I,
)


def _detect(text: str) -> int:
    head = text[:4096].lstrip("\ufeff \t\r\n")
    if head.upper().startswith("OFXHEADER") or "<?OFX" in head.upper():
        return 100
    return 90 if _OFX_START.search(head) else 0


class _OfxFormat:
    name = "ofx"

    def detect(self, text: str) -> int:
        return _detect(text)

    def parse(self, text: str, source: str, currency: str | None = None) -> ParseResult:
        try:
            return _OfxParser(text, source, currency).parse()
        except ImportRefused:
            raise
        except Exception as exc:  # noqa: BLE001 - the contract: nothing but ImportRefused escapes
            raise ImportRefused(source, f"could not read this OFX file: {exc}") from exc


FORMATS = [_OfxFormat()]
