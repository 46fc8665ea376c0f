"""A readable payee from a raw bank description: `SQ *BLUE BOTTLE #12 OAKLAND CA` → `Blue Bottle`.

The raw description is always kept as well; this is what rules, search and the agent group by, so
it must be stable (the same text always cleans the same way) and never empty. Card processors,
store and reference numbers, dates, card numbers and the merchant's city are noise for that.
Banks repeat a handful of descriptions thousands of times, so results are cached per description.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Sequence

from wilson.importers.model import digit_shape

_MONTHS = "JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC"
_US_STATES = (
    "AL|AK|AZ|AR|CA|CO|CT|DE|DC|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|"
    "NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY"
)
_COUNTRIES = "USA|GBR|GB|UK|IRL|IE|DEU|FRA|NLD|ESP|ITA|CHE|AUT|BEL|CAN|AUS|NZL|LND"

# Aliases for merchants whose descriptors are mostly noise; checked before anything else.
_ALIASES = [
    (re.compile(r"^(?:AMZN|AMAZON)\s*PRIME\b", re.I), "Amazon Prime"),
    (re.compile(r"^AMZN\b|^AMAZON\s*(?:MKTP|MKTPL|MARKETPLACE)\b|^AMAZON\.(?:COM(?:\.AU)?|CO\.(?:UK|JP)|DE|CA|FR|IT|ES)\b", re.I), "Amazon"),
    (re.compile(r"^UBER\s*\*?\s*EATS\b", re.I), "Uber Eats"),
    (re.compile(r"^UBER\b", re.I), "Uber"),
    (re.compile(r"^LYFT\b", re.I), "Lyft"),
    (re.compile(r"^PAYPAL\b(?!\s*\*)", re.I), "PayPal"),
    (re.compile(r"^ATM(?!\s*(?:FEE|SURCHARGE|REBATE|REFUND)\b)(?:\b|\d)|^GEA\s+NR:|^GA\s+NR\s*\d", re.I), "ATM"),  # GEA: a Dutch cash machine; GA: a German one (Sparkasse)
    (re.compile(r"^(?:APL\s*\*\s*)?APPLE\.COM/BILL\b|^APL\s*\*\s*ITUNES", re.I), "Apple"),
]
# All of them as one pattern (each is anchored at the start, so the first that matches wins, as in
# the list), matched once instead of once per alias.
_ALIAS = re.compile("|".join(f"(?P<alias{i}>{pattern.pattern})" for i, (pattern, _) in enumerate(_ALIASES)), re.I)
_ALIAS_NAMES = {f"alias{i}": name for i, (_, name) in enumerate(_ALIASES)}

# Prefixes added by card schemes, payment processors and the bank; stripped repeatedly.
_PREFIX = re.compile(
    r"^(?:"
    r"POS\s*\d{1,2}\s*(?:" + _MONTHS + r")\b"  # POS31AUG
    r"|(?:DEBIT|CREDIT|CHECK)\s*CARD(?:\s+(?:PURCHASE|PAYMENT))?(?:\s+\d{4}\b)?(?:\s*-\s*)?"
    r"|(?:PURCHASE\s+)?AUTHORI[SZ]ED\s+ON\s+\d\d/\d\d"  # Wells Fargo, after `PURCHASE` or `RECURRING PAYMENT`
    r"|CARD\s+(?:PURCHASE|PAYMENT)(?:\s+TO)?"
    r"|PURCHASE\s+\d{4}\b"  # Bank of America: `PURCHASE 0102 STARBUCKS STORE 12345` (month and day)
    r"|DEBIT\s+PURCHASE(?:\s*-\s*VISA)?"  # U.S. Bank
    r"|VD[ACP]\s*-"  # AIB: Visa debit purchase, contactless, cash
    r"|\[[A-Z]{2}\]"  # BMO's transaction code: `[PR]STARBUCKS`, `[CW]BMO MASTERCARD PAYMENT`
    r"|,?\s*\*+\d+\s*,|AUT\s+\d{6}\s+(?:VISA\s+)?(?:DDA\s+)?(?:PUR(?:CHASE)?|REF)\b(?:\s+AP\s+\d{6}\b)?"  # TD Bank: `, *****1234, AUT 011325 VISA DDA PUR`
    r"|(?:POS|VISA|EFTPOS)\b(?:\s+(?:DEBIT|PURCHASE|WDL|WITHDRAWAL|TRANSACTION|DDA\s+PUR)\b)*(?:\s+\d{4,}\b)?"
    r"|ACH\s+(?:DEBIT|CREDIT|WITHDRAWAL|DEPOSIT|PMT|PAYMENT)\b"
    r"|WEB\s+AUTHORI[SZ]ED\s+(?:PMT|PAYMENT)\b|ELECTRONIC\s+(?:DEPOSIT|WITHDRAWAL|PMT|PAYMENT)(?:-(?:WEB|ACH|TEL|PPD|CCD|ARC))?\b,?"
    r"|DEBIT\s+POS\b,?"  # TD Bank: `DEBIT POS, AUT 020125 VISA DDA PUR WAWA`
    r"|RECEIPT\s+\d+(?:\s+IN)?\b"  # ING Australia: `VISA PURCHASE - Receipt 123456 In BUNNINGS`
    r"|PAIEMENT\s+(?:PAR\s+)?(?:CB|CARTE)(?:\s+X?\d{4}\b)?"  # French card payments: `PAIEMENT CB 0401 CARREFOUR`
    r"|(?:EINKAUF|BEZUG)\b[^,]{0,40}?\bKARTE(?:\s+NR\.?)?(?:\s*[\dX*]+)?\s*,"  # Swiss: `Einkauf ZKB Maestro Karte Nr. 1234, Coop`
    r"|DIRECT\s+DEBIT(?:\s+PAYMENT)?(?:\s+TO)?\b"
    r"|(?:RECURRING|PREAUTHORI[SZ]ED)\s+(?:PAYMENT|DEBIT)\b"
    r"|(?:LASTSCHRIFT|KARTENZAHLUNG|FOLGELASTSCHRIFT|GUTSCHRIFT|UEBERWEISUNG|ÜBERWEISUNG)\b"
    r"|(?:SQ|TST|PAYPAL|PP|SP|GOOGLE|IN|WPY|SUMUP|IZ|ZETTLE|PY|BT|DD|FS)\s*_?\*"
    r"|(?:APLPAY|APPLE\s*PAY)\b"  # Apple Pay: `APLPAY WALGREENS #1234`, `AplPay REISS`
    r"|SP\s+"
    r"|(?:\d+,\d\d\s+)?[A-Z]{2}\s+K\d\b"  # Austrian card lines: `POS 23,55 AT K1 16.09. 11:32 SPAR`
    r"|BEA\s+NR:\s*\S+\s+\d\d\.\d\d\.\d\d/\d\d[.:]\d\d"  # Dutch card lines: `BEA NR:AB1234 01.03.24/12.34 ALBERT HEIJN,PAS123`
    r"|COMPRA(?:\s+(?:EN|CON\s+TARJETA|TARJETA|CART[AÃ]O(?:\s+D[EÉ]BITO)?|NO\s+(?:D[EÉ]BITO|CR[EÉ]DITO)))?(?:\s+\d+\b)?"  # Spanish and Portuguese card purchases
    r"|PAGAMENTO\s+(?:POS|BANCOMAT|CARTA|VISA\s+DEBIT)\b"  # Italian
    r"|VIR(?:EMENT)?(?:\s+SEPA)?(?:\s+INST(?:ANTANE)?)?\s+(?:RECU|EMIS|PERMANENT)\b(?:\s+\d+\b)?(?:\s+/?DE\b\s*:?)?"  # French transfers
    r"|PRLV(?:\s+SEPA)?\b|CARTE\s+X?\d{4}\s+\d\d/\d\d"  # French direct debits and card payments
    r"|(?:WITHDRAWAL|DEPOSIT)\s+(?:ONLINE|MOBILE)\s+\d+(?:\s+(?:BPAY|PYMT|TFR)\b)?"  # Westpac: `WITHDRAWAL ONLINE 1234567 BPAY AGL`
    r"|(?:(?:VISA|JCB|MASTER(?:CARD)?)\s*)?デビット|カード"  # Japanese debit and card purchases
    r"|(?:VARE|KORT)KJ(?:Ø|O)P\b(?:\s+\d\d\.\d\d)?"  # Norwegian: `Varekjøp`, a card purchase
    r"|BUCHUNGSTEXT\s*:"  # comdirect's card payments: `Buchungstext: EDEKA SAGT DANKE//Berlin/DE …`
    r")[\s:*\-]*",
    re.I,
)
# What a prefix may leave that names no one: the prefix was the name (`Visa payment - thank you`).
_GENERIC = re.compile(r"(?:(?:payment|pymt|purchase|debit|credit|transfer|withdrawal|deposit|thank you)\W*)*", re.I)
_SEPA_TAGS = re.compile(r"(EREF|KREF|MREF|CRED|DEBT|SVWZ|ABWA|ABWE|IBAN|BIC|PURP|COAM|OAMT)\+")
# comdirect-style text: `Auftraggeber: ACME GmbH Buchungstext: Gehalt Ref. 789`
# (Raiffeisen's after the booking's kind: `Lastschrift Auftraggeber: ACME Kundendaten: 0001 Verwendungszweck: …`)
_LABELLED_PARTY = re.compile(
    r"(?:^|(?<=\s))(?:Auftraggeber|Empf(?:ä|ae)nger|Zahlungsempf(?:ä|ae)nger)\s*:\s*(.+?)"
    r"(?:\s+(?:Kto/IBAN|IBAN|BLZ|Buchungstext|Verwendungszweck|Kundendaten)\s*:|$)",
    re.I,
)
# Targobank's fields: the booking's kind, then the party (`Lastschrift ; DLS GmbH ; DE08… ; Kd.369…`)
_KIND_THEN_PARTY = re.compile(
    r"[^\W\d_]*(?:überweisung|ueberweisung|lastschrift|gutschrift|zahlung|dauerauftrag|abbuchung|einzahlung|auszahlung)"
    r"\s+;\s+([^;]*[^\W\d_][^;]*?)\s*(?:;|$)",
    re.I,
)
# easybank's booking code (`FE/000000003`) stands between the booking's text and its party, after the party's BIC and IBAN:
# `Usage, specific reason FE/000000003 ABCDEF1G235 AT098765432109876543 Payment receiver`
_BOOKING_CODE = re.compile(r"\s+[A-Z]{2}/\d{9}\b(?:\s+[A-Z]{6}[A-Z0-9]{2}(?:[A-Z0-9]{3})?\b)?(?:\s+[A-Z]{2}\d{2}[A-Z0-9]{10,30}\b)?\s*")
# Dutch SEPA text names the party in a field: `/TRTP/.../NAME/ACME BV/REMI/...`, `Naam: ACME BV Omschrijving: ...`
_NAMED_FIELD = re.compile(r"/NAME/([^/]+)|\bNaam:\s*(.+?)(?=\s+(?:Omschrijving|Kenmerk|Machtiging|IBAN|BIC|Incassant)\s*:|$)", re.I)
# Indian transfers name the party in a field: `UPI/BESCOM/506212345678/Payment`, `NEFT CR-HDFC0000001-ACME PVT LTD-SALARY`
_INDIAN_TRANSFER = re.compile(
    r"^(?:NEFT|RTGS|IMPS|UPI)\s*(?:(?:CR|DR)\s*)?[-/]\s*(?:(?:CR|DR|P2M|P2A)[-/])?(?:[A-Z]{4}0[A-Z0-9]{6}[-/]|[A-Z]?\d+[-/])?"
    r"(?:(?:payment|paid|pay)[-/])?([^-/@]+)",
    re.I,
)
# Santander UK names the party of a payment received or sent by Faster Payments between its words:
# `FASTER PAYMENTS RECEIPT REF.SALARY FROM ACME LTD`, `BILL PAYMENT VIA FASTER PAYMENT TO J SMITH REFERENCE RENT`.
_FASTER_PAYMENT = re.compile(
    r"^(?:FASTER PAYMENTS? RECEIPT\s+(?:REF\S*\s+)?FROM|BILL PAYMENT VIA FASTER PAYMENT TO)\s+(.+?)(?:\s+REFERENCE\b.*)?$", re.I
)
# Chase's ACH entry names its originator first among labelled fields:
# `ORIG CO NAME:GUSTO ORIG ID:9138864001 DESC DATE:240401 CO ENTRY DESCR:PAYROLL SEC:PPD … IND NAME:JANE DOE`.
_ACH_ORIGINATOR = re.compile(r"^ORIG CO NAME\s*:\s*(.+?)\s+(?:ORIG ID|DESC DATE|CO ENTRY DESCR|SEC|IND ID|IND NAME|TRN)\s*:", re.I)
# The labelled fields after the party: a French transfer's (`ACME SAS MOTIF: FACTURE 12 REF: 345`),
# Bank of America's ACH entry description, ids, account holder's name and SEC code
# (`ACME CORP DES:PAYROLL ID:123 INDN:DOE JOHN CO ID:987 PPD`), and Chase's SEC code and company id
# after an ACH debit (`COMCAST 8155 PPD ID: 0000123456`, `CITI AUTOPAY WEB ID: CITICARDAP`).
_FIELD_TAIL = re.compile(
    r"\s+(?:/(?:MOTIF|REF|REFDO|ID EMETTEUR|LIB)\b|(?:MOTIF|REF|REFDO|ID EMETTEUR|LIB)\s*:|DES:(?=\S.*\b(?:ID|INDN):)"
    r"|(?:PPD|WEB|CCD|TEL|ARC|BOC|POP|RCK|CTX|IAT)\s+ID\s*:).*$"
    # Santander UK's card payment in another currency and its direct debit's mandate, comdirect's place:
    # `SAINSBURYS S/MKTS,12.34 GBP, RATE 1.00/GBP ON 01-03-2024`, `EE LTD REF 123, MANDATE NO 0012`, `EDEKA SAGT DANKE//Berlin/DE`
    r"|\s*,\s*[\d.,]+\s+[A-Z]{3}\s*,\s*RATE\b.*$|\s*,\s*MANDATE NO\b.*$|(?<=\w)//[^/]*/[A-Z]{2}\b.*$",
    re.I,
)
# German tails, looked for only in texts holding their words (tried at every space, they cost every
# text more than the rest): Sparkasse's quarterly notice (`Abrechnung 29.03.2018 siehe Anlage …`),
# a street address after the party (`1u1 Telecom GmbH Elgendorfer Str. 57`, `ACME GmbH Bohnenstr. 24`).
_GERMAN_TAIL_WORDS = ("siehe anlage", "str.", "straße", "strasse", "weg", "allee", "gasse", "damm")
_GERMAN_TAIL = re.compile(
    r"\s+siehe Anlage\b.*$"
    r"|\s+(?:[^\W\d_][\w-]*\s+(?:str\.|straße|strasse)|[^\W\d_]*(?:str\.|straße|strasse|weg|allee|gasse|damm))\s*\d+[a-z]?\b.*$",
    re.I,
)
# PKO BP's labelled fields: `Lokalizacja: Adres: ŻABKA Z1234 Miasto: …`, `Nazwa nadawcy: ACME SP. Z O.O. Tytuł: …`
_POLISH_PARTY = re.compile(
    r"\b(?:Nazwa (?:nadawcy|odbiorcy)|Adres)\s*:\s*(.+?)(?=\s+(?:Tytu[łl]|Data i czas operacji|Oryginalna kwota operacji|Numer karty"
    r"|Rachunek (?:nadawcy|odbiorcy)|Adres (?:nadawcy|odbiorcy)|Lokalizacja|Kraj|Miasto|Numer telefonu|Operacja)\s*:|$)",
    re.I,
)
# comdirect's card payment once its `Kartenzahlung` is gone: `//Netto Marken-Discount/Berlin/DE`, `//Netto/DE`
_SLASHED_SHOP = re.compile(r"//([^/]+)(?:/[^/]+)?/[A-Z]{2}")
_DUTCH_CARD_NUMBER = re.compile(r",\s*PAS\s*\d+\s*$", re.I)
_SEPA_PURCHASE = re.compile(r"(?:Ihr Einkauf bei|Your purchase at|Purchase at)\s+(.+)", re.I)
_CHECK = re.compile(r"^(?:CHECK|CHEQUE|CHQ|CHK)\s*(?:NO\.?|NUMBER)?\s*#?\s*(\d+)\b", re.I)
# A store number marks where the merchant's name ends and its location begins.
_STORE = re.compile(r"(?<=\S)\s+(?:#\s*\d+|(?:STORE|STR|NO\.?|NUM|UNIT)\s*#?\s*\d+|T-\d+|\d{3,}\b).*$", re.I)
_CARD_AND_REF = re.compile(
    r"\b(?:REF|REFERENCE|TRACE|CONF|CONFIRMATION|AUTH|ID|TXN|TRANSACTION(?=\s*#))\s*(?:NO\.?|NR\.?)?\s*#?[:.]?\s*[A-Z0-9\-/]*\d[A-Z0-9\-/]*"
    r"|\b(?:X{2,}|\*{2,})\d{2,}\b|\*{2,}\d+"  # card numbers: XXXX1234, ****1234
    r"|\bCAR(?:D|TE)\s+\d{4}\b|\bENDING\s+(?:IN\s+)?\d{4}\b(?![/.-]\d)",  # `card ending in 1234`: kept, `in` would pass for Indiana
    re.I,
)
_NOISE = re.compile(
    r"\b(?=[A-Z0-9]*\d[A-Z0-9]*\d[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z])[A-Z0-9]{8,}\b"  # order ids like 2K4LM1Q32
    r"|\b\d{5,}\b"
    r"|\b[A-Z]{3}\s*\d+(?:[.,]\d+)?\s*@\s*\d+(?:[.,]\d+)?"  # the exchange: `USD 20.00@1.0500`
    r"|(?<![\w.,])(?:\d{1,3}(?:[.,]\d{3})+|\d+)[.,]\d\d(?![\w.,])",  # an amount in the text: `POS 23,55 AT SPAR`
    re.I,
)
_DATES = re.compile(
    r"\b\d{1,2}\.\d{1,2}\.(?!\d)"  # `16.09.`: day and month, the dot included
    r"|\b(?:ON\s+)?(?:\d{4}-\d\d-\d\d|\d{1,2}[/.\-]\d{1,2}(?:[/.\-]\d{2,4})?|\d{1,2}\s*(?:" + _MONTHS + r")(?:\s*\d{2,4})?)\b"
    r"|\b\d\d:\d\d(?::\d\d)?\b",
    re.I,
)
_STATES = frozenset(_US_STATES.split("|"))
# Last words that are a place (or a cut-off PURCHASE), never part of a merchant's name.
_TRAILING_WORDS = _STATES | frozenset(_COUNTRIES.split("|")) | {"PURCHASE"[:n] for n in range(4, 9)}
_CITY_FIRST_WORDS = frozenset("SAN LOS LAS NEW SANTA ST FORT FT EL SALT PALO BATON CORPUS".split())
# Words a company's name puts before `Co` (`ACME TRADING CO`), never a city before Colorado's `CO`.
_COMPANY_WORDS = frozenset(
    "TRADING ELECTRIC GAS OIL WATER POWER LIGHT ENERGY TELEPHONE INSURANCE TRUST SUPPLY LUMBER HARDWARE "
    "MOTOR MOTORS BREWING BREAD COFFEE TEA PIZZA CANDY MERCANTILE PROVISIONS GOODS SONS BROS BROTHERS".split()
)
_SYMBOLS = re.compile(r"[¦|*~^{}<>\[\]%]")
_WIDTH_FORMS = re.compile("[\uff01-\uffee]")  # full-width Latin letters and digits, half-width kana
_DOMAIN = re.compile(r"^WWW\.|(?<=\w)\.(?:COM(?:\.AU)?|NET|ORG|CO\.(?:UK|JP)|DE|FR|CA|JP|IO)\b(?:/\S*)?", re.I)
_COLUMNS = re.compile(r"\s{2,}|\t|\\")  # fixed-width descriptors: name, then city, then country; SEB's `RIMI\TALLINN`

_KEEP_UPPER = frozenset(
    "ATM ATT AT&T BP CVS DHL H&M HSBC IBM IKEA KFC TSB UPS USPS USA UK US NY BBC HMRC DVLA TV ABC AMC "
    "CBA ANZ NAB RBC TD BMO CIBC BOA PNC IRS EE O2 DSW JCB".split()
)
_LETTERS = re.compile(r"[^\W\d_]+")
_THREE_LETTERS = re.compile(r"[^\W\d_](?:.*?[^\W\d_]){2}", re.S)
_VOWELS = re.compile(r"[AEIOUY]")
_LOWER = frozenset("a an and at de del der for in of on or the to und von".split())
# Words that join a name's parts: a payee never ends in one (`JONES &` was `JONES & CO`).
_CONNECTORS = frozenset({"&", "+"} | {word.upper() for word in _LOWER})


# Every pattern and word list above treats one digit like another ("O2" is the one word kept by
# its digits, and a result holding a digit is never shared), so descriptions that differ only in
# their reference, date and store numbers clean the same way, and are cleaned once.
def clean_payee(description: str) -> str:
    """Cleaned once per digit shape: real exports carry a new reference or date in nearly every
    row, and cleaning 100k distinct descriptions one by one took seconds."""
    return _from_shape(description or "", _clean(digit_shape(description or "")))


def clean_payees(descriptions: Sequence[str]) -> list[str]:
    """`clean_payee` of a whole column: each distinct shape is cleaned once, for all its rows, and
    in a column that repeats its texts (a card's `NETFLIX.COM` every month) each text is shaped once."""
    texts = [text or "" for text in descriptions]
    distinct = set(texts)
    if len(distinct) * 2 > len(texts):  # mostly distinct: looking texts up would only add work
        return _cleaned(texts)
    ordered = list(distinct)
    return list(map(dict(zip(ordered, _cleaned(ordered))).__getitem__, texts))


def _cleaned(texts: list[str]) -> list[str]:
    shapes = list(map(digit_shape, texts))
    cleaned = {shape: _clean(shape) for shape in set(shapes)}
    return list(map(_from_shape, texts, map(cleaned.__getitem__, shapes)))


def _from_shape(text: str, cleaned: str) -> str:
    """The shape's payee serves the text unless it kept a digit (`Check 0000`)."""
    return cleaned if "0" not in cleaned else _clean(text)


@lru_cache(maxsize=1 << 16)
def _clean(description: str) -> str:
    text = _narrowed(description).strip()
    if not text:
        return "Unknown"
    cleaned = _strip(text) or " ".join(text.split())
    return _tidy_case(_shortened(cleaned))


MAX_PAYEE_CHARS = 48


def _shortened(payee: str) -> str:
    """A payee is a name to group by: a bank's notice as the description (Sparkasse's quarterly
    `Abrechnung … siehe Anlage …`, 800 characters) keeps its first words only."""
    if len(payee) <= MAX_PAYEE_CHARS:
        return payee
    return payee[: MAX_PAYEE_CHARS + 1].rsplit(" ", 1)[0].rstrip(" ,;:-/") or payee[:MAX_PAYEE_CHARS]


def _narrowed(text: str) -> str:
    """Japanese exports write Latin letters full-width (`ＡＭＡＺＯＮ．ＣＯ．ＪＰ`) and kana half-width
    (`ｾﾌﾞﾝｲﾚﾌﾞﾝ`); written the usual way (NFKC), a merchant's rows share one payee, and the
    patterns below see the letters they know. Other text keeps its `½`, `™` and ligatures."""
    return unicodedata.normalize("NFKC", text) if _WIDTH_FORMS.search(text) else text


def _strip(text: str) -> str:
    alias = _ALIAS.match(text)
    if alias:
        return _ALIAS_NAMES[alias.lastgroup]
    if _SEPA_TAGS.search(text):
        text = _sepa_purpose(text)
    fields = _KIND_THEN_PARTY.match(text)
    if fields:
        text = fields[1]
    coded = _BOOKING_CODE.search(text) if "/" in text else None
    if coded:
        text = text[coded.end():] if _THREE_LETTERS.match(text[coded.end():]) else text[: coded.start()]
    party = (
        (_LABELLED_PARTY.search(text) if ":" in text else None) or _NAMED_FIELD.search(text) or _INDIAN_TRANSFER.match(text) or _POLISH_PARTY.search(text)
        or _ACH_ORIGINATOR.match(text) or _FASTER_PAYMENT.match(text)
    )
    if party:
        text = next(group for group in party.groups() if group)
    text = _DUTCH_CARD_NUMBER.sub("", text)
    check = _CHECK.match(text)
    if check:
        return f"Check {check[1]}"
    previous = None
    while previous != text:
        stripped = _PREFIX.sub("", text, count=1).strip()
        previous, text = text, text if _GENERIC.fullmatch(stripped) else stripped  # `VISA PAYMENT` is the card's, not `PAYMENT`
    shop = _SLASHED_SHOP.fullmatch(text)
    text = shop[1] if shop else _FIELD_TAIL.sub("", text)
    if any(word in text.casefold() for word in _GERMAN_TAIL_WORDS):
        text = _GERMAN_TAIL.sub("", text)
    alias = _ALIAS.match(text)  # `PAYPAL *UBER TRIP` is Uber once the processor is gone
    if alias:
        return _ALIAS_NAMES[alias.lastgroup]
    # the first column naming something: Alfa-Bank's masked card and ids come before the name
    head = _COLUMNS.split(text, maxsplit=1)[0]
    if _THREE_LETTERS.search(head):
        text = head
    elif head != text:
        text = next((part for part in _COLUMNS.split(text) if _THREE_LETTERS.search(part)), text)
    text = _CARD_AND_REF.sub(" ", text)
    text = _STORE.sub("", text)
    text = _NOISE.sub(" ", text)
    text = _DATES.sub(" ", text)
    text = _DOMAIN.sub("", text)
    text = " ".join(_SYMBOLS.sub(" ", text).split()).replace(" ,", ",").strip(" -*#/,.;:_+")
    text = _drop_location(text)
    return _REPEATED.sub(r"\1", text) if text.count(text.split(" ", 1)[0]) > 1 else text


_REPEATED = re.compile(r"^(.+?)(?:\s+\1)+$", re.I)  # `NETFLIX.COM NETFLIX.COM CA`: the name said twice


def _drop_location(text: str) -> str:
    """`BLUE BOTTLE COFFEE OAKLAND CA` → `BLUE BOTTLE COFFEE`: card descriptors end in city, state
    and maybe country. A word is only cut when what is left can end a name: the last word of
    `JONES & CO` or `BANK OF PA` belongs to the name, and `THE PURC` keeps its cut-off PURCHASE."""
    for _ in range(2):  # `SEATTLE WA`, `LONDON GBR`, `NY USA`
        before, _, last = text.rpartition(" ")  # `text` is single-spaced here
        before = before.strip(" -*#/,.;:")
        place = last.upper()
        if place not in _TRAILING_WORDS or not _can_end(before.split()):
            return text
        if place in _STATES:  # the country, if any, is gone: the state is where the location starts
            return _drop_state(text, before, last)
        text = before
    return text


def _drop_state(text: str, before: str, state: str) -> str:
    """The word(s) before a US state are the city when the name keeps 2+ words without them, or one
    before a two-word city (`NETFLIX LOS GATOS CA`). Some states are words too: `Transfer in` is no
    Indiana (a state is never in lower case), and `CO` after a lone name (`PG&E CO`) or a company
    word (`ACME TRADING CO`) is the company."""
    words = before.split()
    if state.islower() or (state.upper() == "CO" and (len(words) == 1 or words[-1].upper() in _COMPANY_WORDS)):
        return text
    city = 2 if len(words) >= 3 and words[-2].upper() in _CITY_FIRST_WORDS else 1
    name = words[:-city]
    return " ".join(name) if len(name) >= 3 - city and _can_end(name) else before


def _can_end(words: list[str]) -> bool:
    """What is left of a payee after a place is cut must not end on a connector (`PACIFIC GAS &`)."""
    return bool(words) and words[-1].upper() not in _CONNECTORS


def _sepa_purpose(text: str) -> str:
    """SEPA text glues `EREF+…MREF+…CRED+…SVWZ+purpose`; only the purpose (SVWZ) names anyone."""
    fields = dict(zip(*[iter(_SEPA_TAGS.split(text)[1:])] * 2))
    purpose = (fields.get("SVWZ") or fields.get("ABWA") or "").strip(" .,")
    purchase = _SEPA_PURCHASE.search(purpose)
    return (purchase[1] if purchase else purpose).strip(" .,") or text


def _tidy_case(text: str) -> str:
    """Title case for all-caps text, keeping acronyms, with the small words that join a name's
    parts in lower case; text that already has lower case stays."""
    if any(map(str.islower, text)):
        return text
    given = text.split()
    words = []
    for index, word in enumerate(given):
        if word in _KEEP_UPPER:
            words.append(word)
        elif 0 < index < len(given) - 1 and word.lower() in _LOWER:  # a last word joins nothing: `GROCER A`, `TORONTO ON`
            words.append(word.lower())
        elif word.isalpha():
            words.append(_case_word(word))
        else:
            words.append(_LETTERS.sub(_case_run, word))
    return " ".join(words).replace("i\u0307", "i")  # `NETFLİX` → `Netflix`: Python lowers `İ` to `i` and a dot above


def _case_run(m: re.Match[str]) -> str:
    """`CVS` and `BP` stay (short, no vowel: an acronym); `S` after an apostrophe is lower."""
    run = m[0]
    if m.start() and m.string[m.start() - 1] in "'’" and not _kept_upper(run):
        return run.lower()
    return _case_word(run)


def _case_word(run: str) -> str:
    return run if _kept_upper(run) else run.capitalize()


def _kept_upper(run: str) -> bool:
    """An acronym: listed, or short with no vowel (`SÜD`'s `Ü` is one)."""
    return run in _KEEP_UPPER or (1 < len(run) <= 3 and not _VOWELS.search(unicodedata.normalize("NFKD", run)))
