"""A built-in table of well-known merchants and keywords, each mapped to a default category.

It runs after the user's own and learned rules and before the model: a Netflix charge should not
cost a model call. Keywords match whole words (case-insensitive) in the description or payee;
longer keywords are tried first, so "uber eats" beats "uber" and "amazon prime video" beats
"amazon". Some entries only apply to one direction of money: "interest" paid to you is income,
an interest charge is a fee.

`default_category` adds two things to the table. A move between the user's own accounts is
recognised from one side, since the other leg is often never imported: a payment to a card issuer,
a transfer naming an own account kind, a wallet top-up. Without that, checking's card payments
count as spending and money back from savings as income. And money in from a merchant whose
purchases the table files is a refund or return of one of them: it takes the purchase's category,
so it reduces that spending instead of counting as income.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterable

from wilson.importers.model import digit_shape
from wilson.ledger.transfers import CURRENCY_EXCHANGE, WALLET_FUNDING

CARD_PAYMENT = "Credit Card Payment"
# (category, direction, keywords). direction: "out" (amount < 0), "in" (amount > 0) or "any".
MERCHANTS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("Streaming", "out", (
        "netflix", "spotify", "hulu", "disney plus", "disneyplus", "disney+", "hbo max", "max.com", "youtube premium",
        "youtubepremium", "amazon prime video", "prime video", "apple tv", "paramount+", "paramount plus", "peacock",
        "deezer", "tidal", "audible", "crunchyroll", "dazn", "sky go", "now tv", "twitch",
    )),
    ("Software", "out", (
        "adobe", "microsoft 365", "office 365", "dropbox", "github", "google storage", "google one", "icloud",
        "1password", "lastpass", "notion", "openai", "chatgpt", "anthropic", "jetbrains", "zoom.us", "slack",
        "canva", "evernote",
    )),
    ("Memberships", "out", ("amazon prime", "costco membership", "patreon", "substack")),
    ("Coffee", "out", (
        "starbucks", "dunkin", "peet's", "peets coffee", "blue bottle", "costa coffee", "caffe nero", "pret a manger",
        "tim hortons", "philz",
    )),
    ("Dining", "out", (
        "mcdonald's", "mcdonalds", "burger king", "wendy's", "chipotle", "subway", "taco bell", "kfc", "domino's",
        "dominos", "pizza hut", "papa john's", "five guys", "shake shack", "panera", "chick-fil-a", "nando's",
        "nandos", "wagamama", "greggs", "uber eats", "ubereats", "doordash", "grubhub", "deliveroo", "just eat",
        "lieferando", "wolt", "restaurant",
    )),
    ("Groceries", "out", (
        "whole foods", "wholefds", "trader joe's", "trader joe", "safeway", "kroger", "publix", "wegmans",
        "albertsons", "h-e-b", "sprouts", "aldi", "lidl", "tesco", "sainsbury's", "sainsburys", "asda", "morrisons",
        "waitrose", "co-op food", "rewe", "edeka", "netto", "penny markt", "kaufland", "carrefour", "auchan",
        "leclerc", "intermarche", "albert heijn", "mercadona", "esselunga", "migros", "instacart",
        "ocado", "food lion", "stop & shop", "giant eagle", "meijer",
    )),
    ("Fuel", "out", (
        "shell", "chevron", "exxon", "exxonmobil", "mobil", "texaco", "bp", "arco", "valero", "sunoco",
        "phillips 66", "marathon petro", "speedway", "circle k", "aral", "esso", "total energies", "totalenergies",
        "jet tankstelle", "wawa",
    )),
    ("Rideshare", "out", ("uber", "lyft", "bolt.eu", "free now", "freenow", "cabify")),
    ("Public Transit", "out", (
        "deutsche bahn", "db vertrieb", "db fernverkehr", "bvg", "mvv", "hvv", "tfl", "transport for london",
        "trainline", "national rail", "amtrak", "mta", "clipper", "ventra", "sncf", "ns reizigers",
        "oyster", "septa",
    )),
    ("Parking", "out", ("parkmobile", "spothero", "ringgo", "easypark", "parking")),
    ("Car Insurance", "out", ("geico", "progressive", "state farm", "allstate", "esurance")),
    ("Shopping", "out", ("amazon", "amzn", "ebay", "etsy", "walmart", "target", "aliexpress", "temu", "shein", "zalando")),
    ("Electronics", "out", ("best buy", "apple store", "media markt", "mediamarkt", "saturn", "currys", "newegg", "b&h photo")),
    ("Clothing", "out", ("h&m", "zara", "uniqlo", "primark", "gap", "old navy", "nike", "adidas", "tj maxx", "marshalls", "nordstrom")),
    ("Household", "out", ("ikea", "home depot", "lowe's", "lowes", "bed bath", "wayfair", "b&q", "dm drogerie", "rossmann", "bauhaus")),
    ("Internet", "out", (
        "comcast", "xfinity", "spectrum", "cox communications", "frontier", "verizon fios", "virgin media",
        "bt broadband", "sky broadband", "vodafone kabel", "1&1", "telekom", "o2",
    )),
    ("Phone", "out", ("verizon wireless", "t-mobile", "tmobile", "at&t", "mint mobile", "vodafone", "ee limited", "three.co.uk", "giffgaff")),
    ("Electricity", "out", (
        "pg&e", "pacific gas", "con edison", "coned", "duke energy", "southern california edison", "national grid",
        "octopus energy", "british gas", "edf energy", "e.on", "eon energie", "vattenfall", "stadtwerke",
    )),
    ("Water", "out", ("water utility", "thames water", "water dept", "wasserwerk")),
    ("Rent", "out", ("rent payment", "apartments", "miete")),
    ("Mortgage", "out", ("mortgage",)),
    ("Pharmacy", "out", ("cvs", "walgreens", "rite aid", "boots", "apotheke", "pharmacy")),
    ("Fitness", "out", ("planet fitness", "equinox", "peloton", "24 hour fitness", "la fitness", "puregym", "mcfit", "classpass", "strava")),
    ("Flights", "out", (
        "united airlines", "delta air", "american airlines", "southwest", "jetblue", "alaska air", "ryanair",
        "easyjet", "lufthansa", "british airways", "air france", "klm", "eurowings",
    )),
    ("Hotels", "out", ("marriott", "hilton", "hyatt", "airbnb", "booking.com", "expedia", "holiday inn", "premier inn")),
    ("Fees", "out", ("overdraft", "monthly service fee", "atm fee", "foreign transaction fee", "interest charge", "late fee")),
    ("Charity", "out", ("red cross", "unicef", "oxfam", "wikimedia", "gofundme")),
    (CARD_PAYMENT, "any", (
        "payment thank you", "payment - thank you", "payment received", "autopay", "auto pay", "crd autopay",
        "credit card payment", "epay", "applecard gsbank", "kreditkartenabrechnung",
    )),
    ("Salary", "in", ("payroll", "salary", "direct dep", "gehalt", "lohn", "adp")),
    # Earned by spending, not the undoing of one purchase: filed under the merchant's category it
    # would hide part of what was spent there (and of its budget).
    ("Other Income", "in", ("cashback", "cash back", "rewards", "reward")),
    ("Interest", "in", ("interest", "zinsen", "int paid")),
    ("Refunds", "in", ("refund", "reversal", "erstattung")),
)

REFUNDS = "Refunds"  # an income category: only for a refund whose merchant the table does not know

# A card issuer's name, the few words banks put after it, and the payment word: `CAPITAL ONE MOBILE
# PMT`, `BK OF AMER VISA ONLINE PMT`, `CHASE CREDIT CRD DES:AUTOPAY`, `DISCOVER E-PAYMENT`. Nothing
# else may come between, so a loan (`CAPITAL ONE AUTO PMT`, `CHASE MORTGAGE PAYMENT`) or a payment
# app (`CHASE QUICKPAY PAYMENT`) is never one, nor a payment the text says goes to someone.
_ISSUER = (
    r"amex|american express|capital one|discover|chase|citi|citicards?|citibank|bank of america|bk of amer|"
    r"barclaycard|barclays|synchrony|syncb|apple ?card|gsbank|goldman sachs|comenity|credit one|wells fargo|usaa|"
    r"target (?:card|credit|red ?card)|paypal credit"
)
_ISSUER_WORDS = (
    r"credit|crd|cards?|cc|visa|mastercard|mc|online|mobile|web|internet|ach|electronic|bank|n\.?a|usa?|"
    r"srvcs?|svcs?|services?|des|ppd"
)
_PAYMENT_WORD = r"e?-?payment|e?-?pmt|pymt|paymt|e-?pay|auto ?pay|crcardpmt|ccpymt"
_SEP = r"[\s.:*/-]+"
# An own account named by its kind: in full, or abbreviated with its number's ending (`SAV ...7890`).
_ENDING = r"[\s.#*:x-]*(?:ending(?: in)?[\s.#*:x-]*)?\d{3,}\b"
_MOVED_TO = r"\b(?:transfer|xfer|trnsfr|tfr)\s+(?:to|from)\s+(?:my\s+)?"

# (transfer category, pattern): a move between the user's own accounts, recognised from either leg.
# A move the text says goes to or from savings is a Savings Transfer; any other is a Transfer.
OWN_MONEY_MOVES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (CARD_PAYMENT, re.compile(
        rf"\b(?:{_ISSUER})(?:{_SEP}(?:{_ISSUER_WORDS})\b){{0,3}}{_SEP}(?:{_PAYMENT_WORD})\b(?!{_SEP}to\b)"
        rf"|\bpayment to (?:{_ISSUER})(?: credit)? card\b"
        r"|\b(?:payment|pymt|pmt)\W{1,4}thank\s?you\b",  # Citi's `ONLINE PAYMENT, THANK YOU`
        re.IGNORECASE,
    )),
    # `Internet transfer to Online Savings account`, a Monzo pot, a Swedish or Danish `sparkonto`.
    ("Savings Transfer", re.compile(
        rf"{_MOVED_TO}(?:(?:[\w-]+\s+){{0,2}}(?:savings|pot)\b|money market\b|(?:sav|mma){_ENDING})"
        r"|\b(?:överföring|overføring|overførsel) (?:till|til|fra|från) (?:\w+ )?spar\w*",
        re.IGNORECASE,
    )),
    # A wallet's top-up as the wallet writes it (Revolut's `Top-Up by *1234`) and as the card or
    # bank paying it does (`VENMO ADDFUNDS`, `Cash App*Add Cash`, `WISE INC TOP UP`).
    ("Transfer", re.compile(
        rf"{_MOVED_TO}(?:checking\b|chequing\b|(?:chk|brokerage){_ENDING})|^\W*top-?\s?up (?:by|from)\b"
        r"|\brevolut\W*(?:\d{4}|top-?\s?up)\b|\bvenmo\W+add\s?funds\b|\bcash\s?app\W*add\s?cash\b"
        r"|\bapple\s?cash\W+add\s?money\b|\bwise\b(?:\W+inc)?\W+top-?\s?up\b",
        re.IGNORECASE,
    )),
    ("Transfer", CURRENCY_EXCHANGE),  # one leg of a conversion between own balances, the other maybe never imported
    ("Transfer", WALLET_FUNDING),  # money added to PayPal from one's own card or bank
)
# Money in that was earned or sent by a person, not a merchant's refund: `AMAZON.COM*1234 PAYROLL`,
# `ETSY INC DEPOSIT`, `ZELLE FROM JOHN FOR UBER`.
_EARNED_OR_SENT = re.compile(
    r"\b(?:payroll|salary|wages?|direct dep|deposit|dep|payouts?|earnings|commission|bonus|dividends?|pension)\b"
    r"|zelle|venmo|paypal|cash ?app|quickpay",
    re.IGNORECASE,
)


# A bank transfer scheme's word before `payment received`: a checking account's money in.
_SCHEME_RECEIVED = re.compile(r"\b(?:faster|fps|bacs|sepa|giro|interac)\b.{0,20}\bpayments? received\b", re.IGNORECASE)


def default_category(description: str | None, payee: str | None, amount: int) -> str | None:
    """The built-in category for a row no rule took, or None.

    A move between own accounts comes first, whatever merchant it names: `TARGET CARD PAYMENT`
    pays a card, it buys nothing. Then the table; money in that the table files under nothing but
    Refunds is taken as a refund from the merchant it names, if it names one. From a payee alone
    (no description) such money in is left undecided: the word that says it is pay may be in the
    description only."""
    if amount == 0:
        return None
    moved = (payee and _own_move(digit_shape(payee))) or (description and _own_move(digit_shape(description)))
    if moved:
        return moved
    found = merchant_category(description, payee, amount)
    if found == CARD_PAYMENT and any(text and _SCHEME_RECEIVED.search(text) for text in (description, payee)):
        return None  # `FASTER PAYMENT RECEIVED`: money from someone, not a card's `PAYMENT RECEIVED`
    if amount < 0 or found not in (None, REFUNDS):
        return found
    if description is None:
        return None
    return _refunded(description, payee) or found


@lru_cache(maxsize=65_536)
def _own_move(shape: str) -> str | None:
    """The transfer category of an own-account move the text describes. Digits only matter as an
    account's ending, and any ending will do, so this is worked out once per digit shape."""
    return next((category for category, pattern in OWN_MONEY_MOVES if pattern.search(shape)), None)


def _refunded(description: str, payee: str | None) -> str | None:
    """The spending category of the merchant money in came from: a refund, return or reversal of
    a purchase there. Pay, a seller's payout or money through a payment app is none of those,
    whichever merchant it names, so it stays income. Both texts are read: the payee may have left
    out the word that tells (`AMAZON.COM*1234 PAYROLL` cleans to `Amazon`)."""
    if any(text and _EARNED_OR_SENT.search(text) for text in (payee, description)):
        return None
    return merchant_category(description, payee, -1)


@lru_cache(maxsize=None)
def _patterns(direction: str) -> tuple[re.Pattern[str], re.Pattern[str], dict[str, str]]:
    """The keywords without digits and the few with them (`phillips 66`, `1password`), each set as
    one alternation, longest first; and keyword → category.

    A keyword without digits matches the same way in every text that differs only in its digits,
    so its match is found once per digit shape: 100k descriptions that each carry their own
    reference number are a few dozen shapes. Only the short list with digits reads each text.
    """
    table = {kw: category for category, where, keywords in MERCHANTS if where in (direction, "any") for kw in keywords}
    numbered = {kw for kw in table if re.search(r"\d", kw)}
    return _alternation(table.keys() - numbered), _alternation(numbered), table


def _alternation(keywords: Iterable[str]) -> re.Pattern[str]:
    alternation = "|".join(re.escape(kw) for kw in sorted(keywords, key=len, reverse=True)) or "(?!)"
    return re.compile(rf"(?<![\w&+])(?:{alternation})(?![\w&+])", re.IGNORECASE)


def merchant_category(description: str | None, payee: str | None, amount: int) -> str | None:
    """The default category name for a row, or None when no known merchant or keyword appears.

    The payee is looked at first, and on its own: a few hundred payees stand for 100k descriptions
    that each carry their own reference number, so most rows are answered from the cache."""
    if amount == 0:
        return None
    direction = "out" if amount < 0 else "in"
    return (payee and _lookup(direction, payee)) or (description and _lookup(direction, description)) or None


@lru_cache(maxsize=65_536)
def _lookup(direction: str, text: str) -> str | None:
    """The category of the leftmost keyword in `text` (the longest, where several start there),
    as one alternation of every keyword would find it."""
    _, numbered, table = _patterns(direction)
    found = [span for span in (_plain_span(direction, digit_shape(text)), _span(numbered.search(text))) if span]
    if not found:
        return None
    start, end = min(found, key=lambda span: (span[0], span[0] - span[1]))
    matched = text[start:end]
    return table.get(matched.casefold()) or next(  # `MİGROS`: re folds `İ` to `i`, casefold() to `i̇`
        category for keyword, category in table.items() if re.fullmatch(re.escape(keyword), matched, re.IGNORECASE)
    )


@lru_cache(maxsize=65_536)
def _plain_span(direction: str, shape: str) -> tuple[int, int] | None:
    return _span(_patterns(direction)[0].search(shape))


def _span(found: re.Match[str] | None) -> tuple[int, int] | None:
    return found.span() if found else None
