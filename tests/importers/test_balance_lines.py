"""Balance brought and carried forward (UK, Indian and Gulf statements): balance lines, never rows."""

from __future__ import annotations

from pathlib import Path

import pytest

from parsed_fixtures import parse_written
from wilson.importers.pipeline import import_file
from wilson.ledger import Ledger

NBK = (  # a Kuwaiti debit/credit statement with a running balance, three decimals
    "Date,Description,Debit,Credit,Balance\n"
    '01/04/2024,{opening},,,"1,000.000"\n'
    "02/04/2024,Sultan Center,12.345,,987.655\n"
    '03/04/2024,Salary,,"1,250.500","2,238.155"\n'
    '05/04/2024,Zain Kuwait,5.000,,"2,233.155"\n'
    '30/04/2024,{closing},,,"2,233.155"\n'
)


@pytest.mark.parametrize(
    "opening, closing",
    [
        ("BALANCE BROUGHT FORWARD", "BALANCE CARRIED FORWARD"),
        ("Balance b/f", "Balance c/f"),
        ("B/F BALANCE", "C/F BALANCE"),
        ("Brought forward", "Carried Forward"),
        ("BAL B/FWD", "BAL C/FWD"),
        ("Opening Balance", "Closing Balance"),  # the wording that was always skipped, for comparison
    ],
)
def test_brought_and_carried_forward_lines_are_skipped_not_refused(tmp_path: Path, opening: str, closing: str) -> None:
    path = tmp_path / "nbk_kwd.csv"
    path.write_text(NBK.format(opening=opening, closing=closing), encoding="utf-8")
    with Ledger() as ledger:
        summary = import_file(ledger, path, currency="KWD")
        stored = ledger.query("SELECT posted, amount, description FROM transactions ORDER BY posted")
    assert summary.added == 3
    assert [(str(r["posted"]), r["amount"], r["description"]) for r in stored] == [
        ("2024-04-02", -12345, "Sultan Center"),
        ("2024-04-03", 1250500, "Salary"),
        ("2024-04-05", -5000, "Zain Kuwait"),
    ]


def test_a_purchase_with_forward_words_in_its_text_is_a_purchase(tmp_path: Path) -> None:
    result = parse_written(tmp_path, (
        "Date,Description,Amount\n"
        "03/01/2025,Balance brought forward,100.00\n"
        "03/02/2025,CARRIED FORWARD LOGISTICS LTD,-42.50\n"
        "03/03/2025,B/F FITNESS CLUB MUMBAI,-20.00\n"
        "03/04/2025,TESCO BALANCE B/F VOUCHER,-3.00\n"
    ))
    assert [(t.description, t.amount) for t in result.transactions] == [
        ("CARRIED FORWARD LOGISTICS LTD", -4250), ("B/F FITNESS CLUB MUMBAI", -2000), ("TESCO BALANCE B/F VOUCHER", -300),
    ]
    assert result.warnings == ["line 2: skipped 'Balance brought forward' (a balance line)"]
