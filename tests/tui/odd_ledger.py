"""A ledger with the awkward data real files bring: markup-like text, pending rows, a split, a long line.

Seeded through the real importers (a card CSV with blank posting dates for pending rows, a QIF with
a split), then a payee, a category and an account are given names that read as Rich markup.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from wilson.importers.pipeline import import_file
from wilson.ledger import Ledger

ODD_PAYEE = "Refund [/] test"
ODD_ACCOUNT = "Card [old]"
ODD_CATEGORY = "Fun [x]"
ODD_DESCRIPTION = "[b]BOLD SHOP[/b]"
LONG_DESCRIPTION = "ACH DEBIT " + "VERY LONG BANK REFERENCE TEXT " * 10 + "END"
BIG_AMOUNT = "2650.00"

CARD_CSV = f"""Transaction Date,Posting Date,Description,Amount
03/09/2025,,HOTEL PENDING HOLD,-250.00
03/08/2025,,DOORDASH PENDING ORDER,-27.40
03/07/2025,03/07/2025,{LONG_DESCRIPTION},-21.73
03/06/2025,03/06/2025,ACME CORP PAYROLL,{BIG_AMOUNT}
03/05/2025,03/05/2025,SQ *JOE'S [DOWNTOWN] CAFE,-4.50
03/04/2025,03/04/2025,{ODD_DESCRIPTION},-3.00
03/03/2025,03/03/2025,PAYPAL [/] GADGETS,-19.99
03/02/2025,03/02/2025,GROCERY OUTLET,-42.10
"""

SPLIT_QIF = """!Account
NHousehold Cash
TCash
^
!Type:Cash
D03/01/2025
T-125.00
PCOSTCO WHOLESALE
LGroceries
SGroceries
$-85.00
SHousehold
$-40.00
^
"""


def tx_id(ledger: Ledger, description_start: str) -> int:
    return ledger.scalar("SELECT id FROM transactions WHERE description LIKE ?", (description_start + "%",))


@pytest.fixture
def odd_ledger(wilson_home: Path, tmp_path: Path) -> Path:
    card, household = tmp_path / "card_export.csv", tmp_path / "household.qif"
    card.write_text(CARD_CSV, encoding="utf-8")
    household.write_text(SPLIT_QIF, encoding="utf-8")
    with Ledger() as ledger:
        import_file(ledger, card, account=ODD_ACCOUNT)
        import_file(ledger, household)
        ledger.update_transactions([tx_id(ledger, "PAYPAL")], payee=ODD_PAYEE)
        ledger.update_transactions([tx_id(ledger, ODD_DESCRIPTION)], payee=None)  # the table shows the description
        ledger.update_transactions([tx_id(ledger, "GROCERY")], category_id=ledger.ensure_category(ODD_CATEGORY))
    return wilson_home
