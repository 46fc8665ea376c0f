"""Linking the two legs of a move between own accounts: each leg alone would read as spending or income."""

from __future__ import annotations

import json
import re
import sqlite3
from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache

from wilson.ledger.iso_dates import days, shift
from wilson.ledger.new_rows import NewRows
from wilson.ledger.service import Ledger

TRANSFER_MATCH_DAYS = 4
# A merchant's refund is never the other leg of an own-account move; a payment app's transfer is a
# leg only beside one that reads like a transfer too (`ZELLE TRANSFER TO JOHN` pays someone else).
NOT_TRANSFER = re.compile(
    r"refund|\breturn|reversal|chargeback|cash ?back|erstattung|rembourse|reembolso|rimborso|\binterest\b|dividend"
    # A check someone else wrote, deposited (`MOBILE DEPOSIT`, `REMOTE ONLINE DEPOSIT #1`): not a leg.
    r"|\b(?:mobile|remote(?: online)?|check|cheque|atm)[\s-]?deposit|\be-?deposit|deposit(?:ed)? (?:check|cheque|item)",
    re.IGNORECASE,
)
PEER_PAYMENT = re.compile(r"zelle|venmo|cash ?app|paypal|wise\b|revolut", re.IGNORECASE)
# The other leg of a worded transfer says little more than which way money went ("DEPOSIT",
# "ONLINE BANKING CREDIT 1234"); a merchant's name (a card purchase or refund for the same amount) is
# never a leg, however close its date.
PLAIN_LEG = re.compile(
    r"(?:(?:online|internet|mobile|web|branch|atm|internal|electronic|e-?banking|ach|bank)\s+)*"
    r"(?:deposit|withdrawal|credit|debit|payment|transaction|banking|funds|incoming|outgoing|received|sent)?"
    r"(?:[\s#:*/.-]+(?:credit|debit|deposit|withdrawal|ref(?:erence)?|conf(?:irmation)?|no|id|x+\d+|\d+))*[\s#:*/.-]*",
    re.IGNORECASE,
)
TRANSFER_WORDS = re.compile(
    r"transfer|xfer|trnsfr|\btfr\b|payment.{0,12}thank|autopay|auto pay|(?:online|mobile) (?:pmt|pymt)|\bpymt\b|card ?payment|"
    r"crd (?:autopay|pmt)|epay|(?:to|from) (?:[\w-]+ ){0,3}(?:savings|checking|chequing|current|shares?)\b|pocket|vault|"
    r"umbuchung|übertrag|uebertrag|virement|overboeking|payment received|bill ?pay|payment to .{0,20}card|credit ?card|"
    r"kartenabrechnung|ausgleich kreditkarte|"  # DKB's and comdirect's card settled from the Girokonto
    r"e-pay|card (?:online |mobile |internet |web )?(?:payment|pmt|pymt)|cardpmt|directpay|"
    # A card issuer paid from checking: `DISCOVER E-PAYMENT 8247`, `APPLECARD GSBANK PAYMENT`.
    r"\b(?:discover|citi(?! trends)|citicard|amex|american express|capital one|barclaycard|synchrony|syncb|apple ?card|"
    r"gsbank|goldman sachs|comenity|credit one|bank of america|bk of amer|wells fargo card|chase|target (?:card|credit|red)|"
    r"kohl'?s|elan|paypal credit|td (?:bank )?card)\b.{0,25}\b(?:payment|pmt|pymt|autopay)",
    re.IGNORECASE,
)
# A conversion between the user's own balances in two currencies (Revolut's `Exchanged to EUR` on
# both legs, Wise's `Converted 100.00 EUR to 107.50 USD`): a transfer whose legs differ in amount.
# The codes are upper case whatever the flags; a conversion *fee* is spending, not a move.
_CODE = r"(?-i:[A-Z]{3})\b"
CURRENCY_EXCHANGE = re.compile(
    rf"^\W*(?:exchanged?|converted|conversion)\b(?:[\s\d.,]+{_CODE})?\s*(?:to|from|into|for)\b[\s\d.,]*{_CODE}"
    r"|\b(?:currency|fx) (?:exchange|conversion)\b(?!\W*(?:fee|charge|commission|mark-?up))",
    re.IGNORECASE,
)
# A wallet's row for money its owner added from a card or bank of theirs (PayPal's `General Card
# Deposit`, `Bank Deposit to PP Account`): the other leg is the card's `PAYPAL *SHOP` row, so the
# purchase counts once, as the wallet's payment to the shop.
WALLET_FUNDING = re.compile(
    r"\bgeneral (?:credit )?card deposit\b|\bbank deposit to pp(?: account)?\b|\bgeneral card funding\b"
    r"|^funded by\b"  # what the importers write beside a Venmo payment a card or bank paid (`csv_generic`)
    r"|^top[ -]?up by\b",  # Revolut's `Top-up by *4821` (a phone's `VODAFONE TOP UP` is spending)
    re.IGNORECASE,
)
EXCHANGE_MATCH_DAYS = 1  # both legs of a conversion are booked at once; a day allows for time zones


def link_transfers(ledger: Ledger, batch_id: int, rows: NewRows) -> int:
    """Pair the two legs of moves between own accounts so reports keep them out of spending.

    A pair is two posted rows in different accounts, same currency, opposite amounts, a few days
    apart, at least one of which reads like a transfer (or the file said so); or the two legs of a
    currency conversion (see `_exchange_leg`). Of several possible other legs, the one whose text
    fits the other's account best (`_fit`), then one not linked yet, then one that reads like a
    transfer, then the nearest in date; legs alike in all that but in different accounts leave the
    move unlinked, since nothing says which it was. A leg of this batch that fits better than an
    earlier link takes that link over (`_Linker`).
    """
    if not len(rows):
        return 0
    # One account in one currency has no other leg (one holding several, as Wise's does, may: a conversion).
    if ledger.scalar("SELECT COUNT(*) FROM accounts") < 2 and len(set(rows.currency)) < 2:
        return 0
    hinted = {(rows.account_id[i], rows.fingerprint[i]): name.casefold() for i, name in rows.transfer_hint.items()}
    return _Linker(ledger, hinted, batch_id).link(min(rows.posted), max(rows.posted))


def relink_between(ledger: Ledger, first: str, last: str) -> int:
    """Link the legs left without a partner on these days (an undone batch took their other legs,
    or had taken them over): the ledger links as it would had that batch never been imported."""
    return _Linker(ledger, {}, None).link(first, last)


_LEG_COLUMNS = (
    "id, account_id, posted, amount, currency, description, fingerprint, batch_id, category_id, category_source, transfer_id"
)
# Both legs in one statement (each row's update runs the aggregate's triggers): each names the
# other, and an uncategorised leg is filed under Transfer.
_LINK = """
UPDATE transactions SET transfer_id = CASE id WHEN :one THEN :other ELSE :one END,
    category_source = CASE WHEN category_id IS NULL THEN 'transfer' ELSE category_source END,
    category_id = IFNULL(category_id, :transfer)
WHERE id IN (:one, :other)
"""
_UNLINKED = float("-inf")  # the fit of a pair that must never be linked


@dataclass(frozen=True)
class _Account:
    name: str  # casefolded
    kind: str | None  # the type its name says, or one a file stated (`checking` is also every unknown's)
    ending: str | None  # last four digits
    wallet: str | None  # the payment app or money service it is at (`wise`, `paypal`), by its name or institution


class _Linker:
    """One linking pass over a few days. Only pairs with a leg of `batch_id` are linked (any pair,
    for an undo's pass), or with a leg this pass freed: a leg whose link a better-fitting pair took
    over gets one more look for a partner of its own."""

    def __init__(self, ledger: Ledger, hinted: dict[tuple[int, int], str], batch_id: int | None) -> None:
        self.conn = ledger.conn
        self.batch_id = batch_id
        self.transfer_category = ledger.scalar("SELECT id FROM categories WHERE name = 'Transfer'")
        self.hinted = hinted
        self.accounts = {
            row["id"]: _Account(row["name"].casefold(), _kind_of_account(row["name"], row["type"]),
                                _last_digits(row["number"], row["name"]), _wallet_named(f"{row['name']} {row['institution'] or ''}"))
            for row in ledger.query("SELECT id, name, type, number, institution FROM accounts")
        }
        self.wallets = {account.wallet for account in self.accounts.values()} - {None}
        self.names = {account_id: account.name for account_id, account in self.accounts.items()}
        self.endings = {account_id: account.ending for account_id, account in self.accounts.items()}
        self.rows: dict[int, dict] = {}  # each row read once, so a link made shows in every list holding it
        self.opposite: dict[tuple[str, int], list[dict]] = defaultdict(list)  # (currency, amount): rows
        self.grouped: set[int] = set()  # the ids in `opposite`
        self.taken: set[int] = set()  # legs linked in this pass, which it does not undo
        self.freed: list[dict] = []  # legs whose link a better pair took, to be looked at again
        self.freed_ids: set[int] = set()
        self.linked = 0

    def link(self, first: str, last: str) -> int:
        low, high = shift(first, -TRANSFER_MATCH_DAYS), shift(last, TRANSFER_MATCH_DAYS)
        wide = (shift(low, -TRANSFER_MATCH_DAYS), shift(high, TRANSFER_MATCH_DAYS))
        legs = self._legs_between(low, high, wide)
        self._read_opposites(legs, *wide)
        for row in legs:
            self._link_one(row)
        looked_at: set[int] = set()
        while self.freed:
            row = self.freed.pop()
            if row["id"] not in looked_at:
                looked_at.add(row["id"])
                self._read_opposites([row], shift(row["posted"], -TRANSFER_MATCH_DAYS), shift(row["posted"], TRANSFER_MATCH_DAYS))
                self._link_one(row)
        return self.linked

    def _legs_between(self, low: str, high: str, wide: tuple[str, str]) -> list[dict]:
        """The rows on these days that may be a leg, linked or not: those with a row of the opposite
        amount a few days around, or reading like a conversion (whose legs differ in amount). They
        are read as plain tuples and only the few that may be legs in full: another big account's
        rows are all on these days."""
        cursor = self.conn.cursor()
        cursor.row_factory = None
        legs = [
            row_id
            for row_id, text, account_id, fingerprint, category_id, source in cursor.execute(
                "SELECT id, description, account_id, fingerprint, category_id, category_source FROM transactions"
                " WHERE posted BETWEEN ? AND ? AND pending = 0 AND amount != 0 AND (-amount IN"
                " (SELECT amount FROM transactions WHERE posted BETWEEN ? AND ? AND pending = 0)"
                " OR description LIKE '%xchange%' OR description LIKE '%conver%')",
                (low, high, *wide),
            )
            if _may_be_a_leg(text) or (category_id == self.transfer_category and source in _FILED_BY)
            or (account_id, fingerprint) in self.hinted or (self.wallets and _wallet_named(text) in self.wallets)
        ]
        return self._read(f"SELECT {_LEG_COLUMNS} FROM transactions WHERE id IN (SELECT value FROM json_each(?)) ORDER BY posted, id",
                          (json.dumps(legs),))

    def _read_opposites(self, legs: list[dict], low: str, high: str) -> None:
        """Read, in one query, the rows that may be the other leg of these: opposite amounts on
        these days (and the legs they are linked to now)."""
        amounts = sorted({-leg["amount"] for leg in legs})
        for row in self._read(
            f"SELECT {_LEG_COLUMNS} FROM transactions WHERE posted BETWEEN ? AND ? AND pending = 0"
            " AND amount IN (SELECT value FROM json_each(?))",
            (low, high, json.dumps(amounts)),
        ):
            if row["id"] not in self.grouped:
                self.grouped.add(row["id"])
                self.opposite[(row["currency"], row["amount"])].append(row)
        partners = {row["transfer_id"] for row in self.rows.values()} - self.rows.keys() - {None}
        self._read(f"SELECT {_LEG_COLUMNS} FROM transactions WHERE id IN (SELECT value FROM json_each(?))", (json.dumps(sorted(partners)),))

    def _read(self, sql: str, params: tuple) -> list[dict]:
        return [self.rows.setdefault(row["id"], dict(row)) for row in self.conn.execute(sql, params)]

    def _said(self, row: dict) -> str | None:
        """What a file said of a row: the own account it moves money to (QIF `L[Savings]`, known for
        this batch's rows), '' for a move to an account it does not name (a row a file or the user
        filed under Transfer), None for nothing."""
        target = self.hinted.get((row["account_id"], row["fingerprint"]))
        if target is None and row["category_id"] == self.transfer_category and row["category_source"] in _FILED_BY:
            return ""
        return target

    def _is_leg(self, row: dict) -> bool:
        text = row["description"]
        return _may_be_a_leg(text) or self._said(row) is not None or (bool(self.wallets) and _wallet_named(text) in self.wallets)

    def _link_one(self, row: dict) -> None:
        """Link a row to its likeliest other leg, when one of the two is this pass's to link."""
        if row["id"] in self.taken:
            return
        if CURRENCY_EXCHANGE.search(row["description"]):
            other = None if row["transfer_id"] else _exchange_leg(self.conn, row, self.taken)
            other = other and self.rows.setdefault(other["id"], other)
        else:
            other = self._likeliest_leg(row)
        if other is not None and self._ours(row, other):
            self._link(row, other)

    def _ours(self, row: dict, other: dict) -> bool:
        """Whether this pass links the pair: one of its legs is the batch's, or was freed by it."""
        if self.batch_id is None or self.batch_id in (row["batch_id"], other["batch_id"]):
            return True
        return row["id"] in self.freed_ids or other["id"] in self.freed_ids

    def _likeliest_leg(self, row: dict) -> dict | None:
        """The other leg among the possible ones: the best fitting, then one not linked yet, then one
        reading like a transfer, then the nearest in date. A leg linked already is possible only
        when the pair fits better than the link it would break (so does `row`'s own link). Two
        regular $100 sweeps to savings on one day are interchangeable (same account), so either
        pairing is right; equally likely legs in different accounts are not."""
        held = self._held(row)
        fits = []
        for other in self.opposite.get((row["currency"], -row["amount"]), ()):
            if (other["account_id"] == row["account_id"] or other["id"] in self.taken or other["id"] == row["transfer_id"]
                    or abs(days(other["posted"], row["posted"])) > TRANSFER_MATCH_DAYS or not self._may_pair(row, other)):
                continue
            fit = self._pair_fit(row, other)
            if fit > _UNLINKED and (held is None or fit > held) and (other["transfer_id"] is None or fit > self._held(other)):
                fits.append((fit, other))
        if not fits:
            return None
        best = max(fit for fit, _ in fits)
        matches = [other for fit, other in fits if fit == best]
        for prefer in (lambda m: m["transfer_id"] is None, lambda m: TRANSFER_WORDS.search(m["description"])):
            if len(matches) > 1 and any(map(prefer, matches)):
                matches = [m for m in matches if prefer(m)]
        return _nearest_in_one_account(row, matches)

    def _may_pair(self, row: dict, other: dict) -> bool:
        """Whether the two may be the legs of one move, by what they say (`_could_be_legs`, asked of
        the one that reads like a leg, or `_pays`) and the accounts they name: a leg the file sends
        to an account of the ledger's is in that account."""
        if _names_another_account(row, other, self.endings) or _names_another_account(other, row, self.endings):
            return False
        for leg, partner in ((row, other), (other, row)):
            target = self._said(leg)
            if target in self.names.values() and self.names[partner["account_id"]] != target:
                return False
        return any(
            self._is_leg(leg) and (_could_be_legs(leg, partner, self._said(leg), self._said(partner), self.names)
                                   or self._pays(partner, leg["account_id"]))
            or self._names_its_wallet(leg, partner)
            for leg, partner in ((row, other), (other, row))
        )

    def _names_its_wallet(self, row: dict, other: dict) -> bool:
        """Whether a row names the money service the other leg's account is at, and that leg is no
        refund: checking's `WISE US INC` beside the Wise account's `Received money from JANE DOE`."""
        wallet = self.accounts[other["account_id"]].wallet
        return bool(wallet) and _wallet_named(row["description"]) == wallet and not NOT_TRANSFER.search(other["description"])

    def _pays(self, row: dict, account_id: int) -> bool:
        """Whether a row says it pays the account, by its last digits or its kind: RBC's `ONLINE
        BANKING PAYMENT - 1234 / RBC VISA` beside the `PAYMENT - THANK YOU` of the Visa ending in 1234."""
        text = row["description"]
        return bool(self._fit(row, account_id) and (_PAYMENT.search(text) or TRANSFER_WORDS.search(text)) and not NOT_TRANSFER.search(text))

    def _held(self, row: dict) -> float | None:
        """How well the link a row has fits (None: it has none). A link a file or the user said is
        a move is kept whatever fits better."""
        if row["transfer_id"] is None:
            return None
        partner = self.rows.get(row["transfer_id"])
        if partner is None or self._said(row) is not None or self._said(partner) is not None:
            return float("inf")
        return self._pair_fit(row, partner)

    def _pair_fit(self, row: dict, other: dict) -> float:
        fits = (self._fit(row, other["account_id"]), self._fit(other, row["account_id"]))
        return _UNLINKED if None in fits else sum(fits)  # type: ignore[arg-type]

    def _fit(self, row: dict, account_id: int) -> int | None:
        """How well a leg's text fits the account of the other leg: 2 when the file names that
        account or the text its last digits or the money service it is at, 1 when the text names its kind (`TO SAVINGS` beside
        a savings account), 0 when it says nothing of it, None when it names another kind (`TO
        SAVINGS` beside a credit card, which is no savings account)."""
        account = self.accounts[account_id]
        text = row["description"]
        if self._said(row) == account.name or (account.ending and account.ending in _numbers(text)) or (
                account.wallet and _wallet_named(text) == account.wallet):
            return 2
        kind = _kind_named(text)
        if kind is None or account.kind is None:
            return 0
        return 1 if kind == account.kind else None

    def _link(self, row: dict, other: dict) -> None:
        for leg in (row, other):
            if leg["transfer_id"] is not None:
                self._unlink(self.rows[leg["transfer_id"]])
        self.conn.execute(_LINK, {"one": row["id"], "other": other["id"], "transfer": self.transfer_category})
        for leg, partner in ((row, other), (other, row)):
            leg["transfer_id"] = partner["id"]
            if leg["category_id"] is None:
                leg["category_id"], leg["category_source"] = self.transfer_category, "transfer"
        self.taken.update((row["id"], other["id"]))
        self.linked += 1

    def _unlink(self, leg: dict) -> None:
        """Free a leg whose other leg a better-fitting pair takes: without the link, and without the
        Transfer category the link gave it."""
        self.conn.execute("UPDATE transactions SET transfer_id = NULL WHERE id = ?", (leg["id"],))
        leg["transfer_id"] = None
        if leg["category_source"] == "transfer":
            self.conn.execute("UPDATE transactions SET category_id = NULL, category_source = NULL WHERE id = ?", (leg["id"],))
            leg["category_id"] = leg["category_source"] = None
        self.freed.append(leg)
        self.freed_ids.add(leg["id"])


_FILED_BY = ("bank", "user")  # a Transfer category these set says the row is a move; the categoriser's guess does not


def _could_be_legs(row: dict, other: dict, target: str | None, other_target: str | None, names: dict[int, str]) -> bool:
    """Whether `other` may be the other leg of `row`, by what they say: it is never a refund, an
    interest credit or a deposited check; it is in the account the file named (`_Linker._may_pair`
    sees to a leg the file sends elsewhere), or the file marked it too, or it reads like a transfer
    or says no more than DEPOSIT. A payment app's transfer
    (`ZELLE TRANSFER TO JOHN`) pays someone else unless the other leg is one too, or a plain
    transfer: never a card's `PAYMENT THANK YOU`."""
    text = other["description"]
    if NOT_TRANSFER.search(text):
        return False
    if names[other["account_id"]] == target or other_target is not None:
        return True
    peers = [bool(PEER_PAYMENT.search(t)) for t in (row["description"], text)]
    if any(peers) and not all(peers):
        plain = text if peers[0] else row["description"]
        return bool(re.search(r"transfer|xfer", plain, re.IGNORECASE) or WALLET_FUNDING.search(plain))
    return bool(TRANSFER_WORDS.search(text) or (not any(peers) and PLAIN_LEG.fullmatch(text)))


# The last digits a row names of the account it pays (`Payment to Chase card ending in 5678`,
# `Online Transfer to SAV ...9012`, `CAPITAL ONE MOBILE PMT xxxxxx1234`).
_ENDING_IN = re.compile(r"(?:ending(?: in)?|\.{2,}|…|x{2,}|\*{2,})\s*(\d{4})\b", re.IGNORECASE)


def _last_digits(number: str | None, name: str) -> str | None:
    """An account's last four digits: its number's, or those its name marks as such (`Chase Card
    …5678`; not the year of `House Fund 2026`)."""
    found = re.search(r"(\d{4})\D*$", number) if number else _ENDING_IN.search(name)
    return found[1] if found else None


def _names_another_account(row: dict, other: dict, endings: dict[int, str | None]) -> bool:
    """Whether `row` names only accounts ending in other digits than `other`'s and its own: a
    payment to a spouse's card of the same bank is not a leg of this card's payment."""
    named = set(_ENDING_IN.findall(row["description"]))
    ending = endings.get(other["account_id"])
    return bool(named) and ending is not None and not named & {ending, endings.get(row["account_id"])}


# The kind of account a leg's text moves money to or from: `ONLINE TRANSFER TO SAVINGS`, `Deposit
# from 360 Checking XXXX5678`, `PAYMENT TO VISA CARD 4321`, `CHASE CREDIT CRD AUTOPAY`. Only a kind
# after to/from (or a card beside its payment) is the other account's: `Monthly savings` may be a
# savings row's name for itself.
_TO_OR_FROM = r"\b(?:to|from|into)\s+(?:[\w'&.-]+\s+){0,3}?"
_CARD_WORDS = r"\b(?:card|crd|visa|master ?card|amex|american express)\b"
_PAYS = r"\b(?:payment|pmt|pymt|autopay|auto pay|e-?payment|paiement)\b"
_PAYMENT = re.compile(_PAYS, re.IGNORECASE)
_KIND_NAMED = (
    ("savings", re.compile(rf"{_TO_OR_FROM}(?:savings?|sav|saver)\b", re.IGNORECASE)),
    ("checking", re.compile(rf"{_TO_OR_FROM}(?:checking|chequing|chk|current account)\b", re.IGNORECASE)),
    ("credit_card", re.compile(rf"{_TO_OR_FROM}{_CARD_WORDS}|{_CARD_WORDS}.*{_PAYS}|{_PAYS}.*{_CARD_WORDS}", re.IGNORECASE)),
)
# The kind an account's own name says (`Ally Savings 1234`, `Chase Card`, `Checking …2345`)
_ACCOUNT_KINDS = (
    ("savings", re.compile(r"\bsav(?:ings?|er)?\b|épargne|epargne|spar", re.IGNORECASE)),
    ("credit_card", re.compile(r"credit ?card|\bcard\b|\bvisa\b|master ?card|\bamex\b|kreditkarte", re.IGNORECASE)),
    ("checking", re.compile(r"check|chequ|\bchk\b|giro|current account", re.IGNORECASE)),
)


# Money services an own account may be at, whose name a bank's row of a move to or from it says
# (`WISE US INC`, `ONLINE TRANSFER TO WISE ACCOUNT`, `PAYPAL INST XFER`); Wise was TransferWise.
_WALLET = re.compile(r"\b(?:transfer)?wise\b|\brevolut\b|\bpaypal\b|\bvenmo\b|\bcash ?app\b", re.IGNORECASE)


@lru_cache(maxsize=65536)
def _wallet_named(text: str) -> str | None:
    found = _WALLET.search(text)
    return found[0].casefold().replace(" ", "").removeprefix("transfer") if found else None


def _kind_named(text: str) -> str | None:
    return next((kind for kind, words in _KIND_NAMED if words.search(text)), None)


def _kind_of_account(name: str, stated: str) -> str | None:
    """The kind an account's name says, else its type unless that is `checking`: the type of every
    account nothing said the type of."""
    return next((kind for kind, words in _ACCOUNT_KINDS if words.search(name)), None) or (stated if stated != "checking" else None)


def _numbers(text: str) -> set[str]:
    """The four-digit numbers in a text, which may be the last digits of an account (`ONLINE
    BANKING PAYMENT - 1234`, `SAV ...7777`, `XXXX4321`)."""
    return set(re.findall(r"(?<!\d)\d{4}(?!\d)", text))


def _exchange_leg(conn: sqlite3.Connection, row: dict, taken: set[int]) -> dict | None:
    """The other leg of a currency conversion: money the other way, in another currency (in another
    account, or in the same one when it holds several, as Wise's does), that reads like a conversion
    too, at once. Its amount cannot tell (the rate is not known), so a leg in the currency the text
    names is preferred, then the nearest; legs alike in that but in different accounts leave the
    conversion unlinked."""
    matches = [
        dict(m)
        for m in conn.execute(
            f"SELECT {_LEG_COLUMNS} FROM transactions WHERE currency != ? AND (amount > 0) = ?"
            " AND amount != 0 AND posted BETWEEN date(?, ?) AND date(?, ?) AND pending = 0 AND transfer_id IS NULL ORDER BY id",
            (row["currency"], row["amount"] < 0, row["posted"], f"-{EXCHANGE_MATCH_DAYS} days",
             row["posted"], f"+{EXCHANGE_MATCH_DAYS} days"),
        )
        if m["id"] not in taken and CURRENCY_EXCHANGE.search(m["description"])
    ]
    named = [m for m in matches if _names(row["description"], m["currency"]) or _names(m["description"], row["currency"])]
    return _nearest_in_one_account(row, named or matches)


def _names(text: str, currency: str) -> bool:
    return re.search(rf"\b{re.escape(currency)}\b", text) is not None


def _reads_like_transfer(text: str) -> bool:
    return bool(TRANSFER_WORDS.search(text)) and not NOT_TRANSFER.search(text)


@lru_cache(maxsize=65536)
def _may_be_a_leg(text: str) -> bool:
    """Whether a row's text may make it a leg of a move between own accounts; asked once per
    distinct text (a second big account's import reads every row of the other's on its dates)."""
    return _reads_like_transfer(text) or bool(CURRENCY_EXCHANGE.search(text) or WALLET_FUNDING.search(text))


def _nearest_in_one_account(row: dict, matches: list[dict]) -> dict | None:
    """The match nearest in date, when the nearest are all in one account (and so interchangeable)."""
    if not matches:
        return None
    nearest = min(abs(days(m["posted"], row["posted"])) for m in matches)
    closest = [m for m in matches if abs(days(m["posted"], row["posted"])) == nearest]
    return closest[0] if len({m["account_id"] for m in closest}) == 1 else None
