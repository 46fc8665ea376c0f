"""Linking the two legs of a move between own accounts: each leg alone would read as spending or income."""

from __future__ import annotations

import json
import re
import sqlite3
from functools import lru_cache, partial

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
    currency conversion (see `_exchange_leg`). Of several possible
    other legs, the one that reads like a transfer, then the nearest in date; legs alike in all
    that but in different accounts leave the move unlinked, since nothing says which it was.
    """
    if not len(rows):
        return 0
    # One account in one currency has no other leg (one holding several, as Wise's does, may: a conversion).
    if ledger.scalar("SELECT COUNT(*) FROM accounts") < 2 and len(set(rows.currency)) < 2:
        return 0
    conn = ledger.conn
    low = shift(min(rows.posted), -TRANSFER_MATCH_DAYS)
    high = shift(max(rows.posted), TRANSFER_MATCH_DAYS)
    transfer_category = ledger.scalar("SELECT id FROM categories WHERE name = 'Transfer'")
    hinted = {(rows.account_id[i], rows.fingerprint[i]): name.casefold() for i, name in rows.transfer_hint.items()}
    said = partial(_said, hinted, transfer_category)
    accounts = ledger.query("SELECT id, name, number FROM accounts")
    names = {row["id"]: row["name"].casefold() for row in accounts}
    endings = {row["id"]: _last_digits(row["number"], row["name"]) for row in accounts}
    # The rows on these dates are read as plain tuples and only the few that may be legs in full:
    # another big account's rows are all on them.
    cursor = conn.cursor()
    cursor.row_factory = None
    legs = [
        row_id
        for row_id, text, account_id, fingerprint, category_id, source in cursor.execute(
            "SELECT id, description, account_id, fingerprint, category_id, category_source FROM transactions"
            " WHERE posted BETWEEN ? AND ? AND pending = 0 AND transfer_id IS NULL AND amount != 0",
            (low, high),
        )
        if _may_be_a_leg(text) or (category_id == transfer_category and source in _FILED_BY) or (account_id, fingerprint) in hinted
    ]
    candidates = ledger.query(
        f"SELECT {_LEG_COLUMNS} FROM transactions WHERE id IN (SELECT value FROM json_each(?)) ORDER BY posted, id", (json.dumps(legs),)
    )
    linked = 0
    taken: set[int] = set()
    for row in candidates:
        if row["id"] in taken:
            continue
        target = said(row)
        if CURRENCY_EXCHANGE.search(row["description"]):
            other = _exchange_leg(conn, row, taken)
        else:
            matches = [
                dict(m)
                for m in conn.execute(
                    f"SELECT {_LEG_COLUMNS} FROM transactions WHERE account_id != ? AND currency = ? AND amount = ?"
                    " AND posted BETWEEN date(?, ?) AND date(?, ?) AND pending = 0 AND transfer_id IS NULL ORDER BY id",
                    (row["account_id"], row["currency"], -row["amount"], row["posted"], f"-{TRANSFER_MATCH_DAYS} days",
                     row["posted"], f"+{TRANSFER_MATCH_DAYS} days"),
                )
                if m["id"] not in taken and _could_be_legs(row, m, target, said(m), names)
                and not _names_another_account(row, m, endings) and not _names_another_account(m, row, endings)
            ]
            other = _likeliest_leg(row, matches, target, names)
        if other is None or batch_id not in (row["batch_id"], other["batch_id"]):
            continue
        taken.update((row["id"], other["id"]))
        conn.execute("UPDATE transactions SET transfer_id = ? WHERE id = ?", (other["id"], row["id"]))
        conn.execute("UPDATE transactions SET transfer_id = ? WHERE id = ?", (row["id"], other["id"]))
        conn.execute(
            "UPDATE transactions SET category_id = ?, category_source = 'transfer'"
            " WHERE id IN (?, ?) AND category_id IS NULL",
            (transfer_category, row["id"], other["id"]),
        )
        linked += 1
    return linked


_LEG_COLUMNS = "id, account_id, posted, amount, currency, description, fingerprint, batch_id, category_id, category_source"


def _said(hinted: dict[tuple[int, int], str], transfer_category: int | None, row: dict) -> str | None:
    """What a file said of a row: the own account it moves money to (QIF `L[Savings]`, known for
    this batch's rows), '' for a move to an account it does not name (a row a file or the user
    filed under Transfer), None for nothing."""
    target = hinted.get((row["account_id"], row["fingerprint"]))
    if target is None and row["category_id"] == transfer_category and row["category_source"] in _FILED_BY:
        return ""
    return target


_FILED_BY = ("bank", "user")  # a Transfer category these set says the row is a move; the categoriser's guess does not


def _could_be_legs(row: dict, other: dict, target: str | None, other_target: str | None, names: dict[int, str]) -> bool:
    """Whether `other` may be the other leg of `row`, by what they say: it is never a refund, an
    interest credit or a deposited check; it is in the account the file named, or the file marked it
    too, or it reads like a transfer or says no more than DEPOSIT. A payment app's transfer
    (`ZELLE TRANSFER TO JOHN`) pays someone else unless the other leg is one too, or a plain
    transfer: never a card's `PAYMENT THANK YOU`."""
    text = other["description"]
    if NOT_TRANSFER.search(text):
        return False
    for leg, account in ((other, target), (row, other_target)):  # a leg the file sends to an account we have is in it
        if account in names.values() and names[leg["account_id"]] != account:
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


def _likeliest_leg(row: dict, matches: list[dict], target: str | None, names: dict[int, str]) -> dict | None:
    """The other leg among the possible ones: in the account the file names, else reading like a
    transfer, then nearest in date. Two regular $100 sweeps to savings on one day are
    interchangeable (same account), so either pairing is right; equally likely legs in different
    accounts are not."""
    for prefer in (lambda m: names[m["account_id"]] == target, lambda m: TRANSFER_WORDS.search(m["description"])):
        if len(matches) > 1 and any(map(prefer, matches)):
            matches = [m for m in matches if prefer(m)]
    return _nearest_in_one_account(row, matches)


def _nearest_in_one_account(row: dict, matches: list[dict]) -> dict | None:
    """The match nearest in date, when the nearest are all in one account (and so interchangeable)."""
    if not matches:
        return None
    nearest = min(abs(days(m["posted"], row["posted"])) for m in matches)
    closest = [m for m in matches if abs(days(m["posted"], row["posted"])) == nearest]
    return closest[0] if len({m["account_id"] for m in closest}) == 1 else None
