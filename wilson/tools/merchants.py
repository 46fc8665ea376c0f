"""A built-in table of well-known merchants and keywords, each mapped to a default category.

It runs after the user's own and learned rules and before the model: a Netflix charge should not
cost a model call. Keywords match whole words (case-insensitive) in the description or payee;
longer keywords are tried first, so "uber eats" beats "uber" and "amazon prime video" beats
"amazon". Some entries only apply to one direction of money: "interest" paid to you is income,
an interest charge is a fee.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterable

from wilson.importers.model import digit_shape

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
    ("Credit Card Payment", "any", (
        "payment thank you", "payment - thank you", "payment received", "autopay", "auto pay", "crd autopay",
        "card payment", "credit card payment", "epay", "applecard gsbank", "kreditkartenabrechnung",
    )),
    ("Salary", "in", ("payroll", "salary", "direct dep", "gehalt", "lohn", "adp")),
    ("Interest", "in", ("interest", "zinsen", "int paid")),
    ("Refunds", "in", ("refund", "reversal", "erstattung")),
)


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
