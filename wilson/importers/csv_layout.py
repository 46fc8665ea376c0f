"""Where a CSV export's header is and which column holds what: what every CSV format needs to
recognise its files and state its columns, before `csv_generic` converts the rows under the header.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from wilson.importers.csv_headers import classify, header_currency, normalise_header
from wilson.importers.csv_read import read_rows

HEAD_LINES = 50
MAX_COLUMNS = 1000
DELIMITERS = (",", ";", "\t", "|")

_NAME_ACCOUNT_ROLES = ("kontoname", "account name")
_OTHER_SIDE = {"destination account", "target account", "to account", "recipient account", "beneficiary account"}
_NOT_CSV = re.compile(r"^\s*(<\?xml|<OFX|OFXHEADER|!Type:|!Account|!Option)", re.I | re.M)


@dataclass
class Head:
    """The first lines of a file, tokenised with each candidate delimiter (detection input)."""

    rows: dict[str, list[tuple[int, list[str]]]]
    not_csv: bool
    folded: dict[str, list[tuple[int, tuple[str, ...]]]] = field(default_factory=dict, repr=False)

    def best_header(self) -> tuple[str, int, list[str], int] | None:
        """(delimiter, line, cells, score) of the row that looks most like a transaction header."""
        best: tuple[str, int, list[str], int] | None = None
        for delimiter, rows in self.rows.items():
            for line, cells in rows:
                score = header_score(cells)
                if score and (best is None or score > best[3]):
                    best = (delimiter, line, cells, score)
        return best

    def find(self, header: tuple[str, ...], delimiter: str = ",", any_order: bool = False) -> tuple[int, bool] | None:
        """(line, exact) of a row holding `header` in order (or, `any_order`, anywhere in the row),
        in any letter case (`Card no.`); `exact` when nothing else is there."""
        wanted = tuple(name.casefold() for name in header)
        for line, stripped in self._folded(delimiter):
            found = tuple(c for c in stripped if c in wanted)
            if any_order and sorted(found) == sorted(wanted):
                return line, len(stripped) == len(wanted)
            if stripped == wanted:
                return line, True
            if len(stripped) > len(wanted) and found == wanted:
                return line, False
        return None

    def _folded(self, delimiter: str) -> list[tuple[int, tuple[str, ...]]]:
        """The rows' cells stripped and casefolded, without trailing empty ones: once per delimiter,
        not once for each of the forty-odd bank headers looked for."""
        if delimiter not in self.folded:
            rows = []
            for line, cells in self.rows.get(delimiter, []):
                stripped = [c.strip().casefold() for c in cells]
                while stripped and not stripped[-1]:
                    stripped.pop()
                rows.append((line, tuple(stripped)))
            self.folded[delimiter] = rows
        return self.folded[delimiter]


@lru_cache(maxsize=4)
def sniff(head_text: str) -> Head:
    """The first lines split with each delimiter; a line of more than MAX_COLUMNS cells is no
    export's header or row, and looking at each of its cells would take seconds."""
    rows = {d: [row for row in read_rows(head_text, d)[0] if len(row[1]) <= MAX_COLUMNS] for d in DELIMITERS if d in head_text}
    return Head(rows, bool(_NOT_CSV.search(head_text)))


# Coins that exchanges list (Kraken writes Bitcoin XXBT, Ether XETH): a column or cell naming one
# holds quantities of it, not money. Only codes no bank writes for anything else: no tickers, no
# fiat, no words (`DOT`, `ETC`, `OP`, `SOL`, `ADA` stay out).
_COINS = frozenset("""
    BTC XBT XXBT ETH XETH USDT USDC BUSD DOGE XDG XXDG XRP XXRP LTC XLTC BNB CRO MATIC AVAX SHIB TRX XLM XXLM BCH XETC
    XTZ HBAR AAVE XMR XXMR ZEC XZEC GUSD PAXG WBTC STETH
""".split())
_COIN_CELL = re.compile(r"[-+]?\s*\d[\d,.]*\s+([A-Z]{2,5})")  # Bitstamp's `0.01000000 BTC`


def crypto_assets(text: str) -> list[str]:
    """The coins a crypto exchange's history trades, in a column of them (Coinbase's `Asset`,
    Kraken's `asset`, Crypto.com's `Currency`) or beside amounts (Bitstamp's `0.01 BTC`): its
    amounts are quantities and prices of coins, which no account's money is. A bank export names none."""
    head = sniff(head_of(text))
    if head.not_csv:
        return []
    coins: set[str] = set()
    for rows in head.rows.values():
        for _, cells in rows:
            for cell in cells:
                value = cell.strip().upper()
                coin = _COIN_CELL.fullmatch(value)
                coins.update(found for found in (value, coin[1] if coin else None) if found in _COINS)
    return sorted(coins)


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
    payees: list[int] = field(default_factory=list)  # the payee columns among them
    kinds: list[int] = field(default_factory=list)  # every type column (`kind` in `single` is the first)
    single: dict[str, int] = field(default_factory=dict)  # amount, debit, balance, ...
    european: bool = False
    account_is_name: bool = False
    ledger_accounts: bool = False  # the account column holds a ledger's own names (Wilson's export)
    booked_on_first_date: bool = False  # the first date column is a booking date, a later one the purchase's


def layout_from_header(cells: list[str]) -> Layout:
    """The generic mapper: a role per recognised header name."""
    layout = Layout()
    dates: list[tuple[int, int]] = []
    payees: list[int] = []
    texts: list[int] = []
    best: dict[str, tuple[int, int]] = {}
    for index, cell in enumerate(cells):
        if not cell.strip() and texts and texts[-1] == index - 1:
            texts.append(index)  # PKO BP's `Opis transakcji` runs on into columns with no name
            continue
        hit = classify(cell)
        if hit is None:
            continue
        role, prio, european = hit
        layout.european |= european
        if role == "date":
            dates.append((prio, index))
        elif role in ("payee", "text"):
            (payees if role == "payee" else texts).append(index)
        else:
            if role == "kind":
                layout.kinds.append(index)
            if role == "direction" and "direction" in best and "balance" in best and index == best["balance"][1] + 1:
                role = "balance_direction"  # Kotak's `Balance,Dr / Cr`: an overdrawn balance's own flag
            if role == "amount" and "amount" in best and _other_currency(cells[best["amount"][1]], cell):
                role = "amount_alt"  # RBC: `CAD$` and `USD$`, each row filled in one of them
            elif role == "amount" and index and "foreign" in normalise_header(cells[index - 1]).split():
                role = "original_amount"  # Deutsche Bank's card: `Foreign currency;Amount;…;Amount;Currency`
            elif role == "amount" and "amount" in best and "original_amount" not in best \
                    and bool(header_currency(cell)) != bool(header_currency(cells[best["amount"][1]])):
                # `Amount;…;Amount in EUR` (ING's `Bedrag in EUR`), in either order: the one in a
                # currency is what the account moved, the other what was paid in the row's own currency
                # (unless every row is in one other currency: see `csv_generic._amount_in_one_currency`).
                if header_currency(cell):
                    best["original_amount"] = best.pop("amount")
                else:
                    role = "original_amount"
            if role not in best or prio < best[role][0]:
                best[role] = (prio, index)
    layout.dates = [i for _, i in sorted(dates)]
    layout.booked_on_first_date = len(dates) > 1 and min(dates)[0] == 0
    layout.texts, layout.payees = payees + texts, payees
    layout.single = single = {role: index for role, (_, index) in best.items()}
    if "fee" in single and "amount" in single and normalise_header(cells[single["amount"]]) in _NET_AMOUNTS:
        del single["fee"]  # PayPal's `Net` is the amount after its `Fee` already
    if "currency" in single and "original_amount" in single and "original_currency" not in single and "amount" in single \
            and header_currency(cells[single["amount"]]):
        single["original_currency"] = single.pop("currency")  # Up: `Total (AUD)`, and `Currency` of the purchase
    if "account" in single and payees and normalise_header(cells[single["account"]]) == "bank account":
        del single["account"]  # a payments list's `Payee Name,Sort Code,Bank Account`: the payee's (Westpac's own names none)
    if "account" in single and normalise_header(cells[single["account"]]) == "source account" \
            and _OTHER_SIDE & {normalise_header(cell) for cell in cells}:
        del single["account"]  # a transfer list's `Source Account,Destination Account`: either side may be the user's
    if "account" in layout.single:
        layout.account_is_name = normalise_header(cells[layout.single["account"]]) in _NAME_ACCOUNT_ROLES
    return layout


_NET_AMOUNTS = frozenset(("net", "net amount", "transaction net amount", "netto", "neto", "liquido"))


def _other_currency(first: str, second: str) -> bool:
    stated = header_currency(first), header_currency(second)
    return None not in stated and stated[0] != stated[1]


def layout_from_roles(cells: list[str], roles: dict[str, str], booked_first: bool = False) -> Layout:
    """A dialect's layout: `roles` maps header names (in any letter case) or positions to roles,
    dates and texts in order of preference. `booked_first`: the first date is the posting date and
    a later one the purchase's (bank dialects), so a row without the first is not booked yet."""
    index = {c.strip().casefold(): i for i, c in reversed(list(enumerate(cells)))}
    layout = Layout()
    for name, role in roles.items():
        i = index[name.casefold()] if isinstance(name, str) else name
        if role == "date":
            layout.dates.append(i)
        elif role in ("text", "payee"):
            layout.texts.append(i)
            if role == "payee":
                layout.payees.append(i)
        elif role in ("account_name", "ledger_account"):
            layout.single["account"] = i
            layout.account_is_name = True
            layout.ledger_accounts = role == "ledger_account"
        else:
            layout.single[role] = i
    layout.booked_on_first_date = booked_first and len(layout.dates) > 1
    return layout
