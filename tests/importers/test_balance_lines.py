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


BOFA_SUMMARY = (
    "Description,,Summary Amt.\n"
    'Beginning balance as of 01/01/2025,,"1,000.00"\n'
    'Total credits,,"3,500.00"\n'
    'Total debits,,"-2,345.67"\n'
    'Ending balance as of 01/31/2025,,"2,154.33"\n'
    "\n"
    "Date,Description,Amount,Running Bal.\n"
    '01/01/2025,Beginning balance as of 01/01/2025,,"1,000.00"\n'
    '01/02/2025,"ACME CORP DES:PAYROLL PPD","3,500.00","4,500.00"\n'
    '01/05/2025,"NETFLIX.COM DES:NETFLIX.C WEB","-15.49","4,484.51"\n'
    '01/10/2025,"Online Banking transfer to SAV 5678","-2,000.00","2,484.51"\n'
)


def test_a_statement_summary_beside_a_running_balance_tells_a_file_that_lacks_rows(tmp_path: Path) -> None:
    """Bank of America's summary above its table: the running balance agrees with itself when the
    last rows are cut off, the summary's ending balance does not."""
    whole = BOFA_SUMMARY + '01/20/2025,"PGANDE WEB ONLINE","-330.18","2,154.33"\n'
    assert parse_written(tmp_path, whole).warnings == []
    cut = parse_written(tmp_path, BOFA_SUMMARY)
    assert cut.warnings == [
        "the statement's closing balance is 2154.33, but the running balance on its last day, 2025-01-10, is 2484.51: rows may be missing"
    ]


@pytest.mark.parametrize(
    "text, warning",
    [
        (  # newest first, its oldest row cut off: the opening balance tells
            "Opening balance,1000.00\nClosing balance,1150.00\n\nDate,Description,Amount,Balance\n"
            "01/28/2025,ELECTRIC CO,-100.00,1150.00\n01/20/2025,PAYROLL ACME,500.00,1250.00\n",
            "the statement's opening balance is 1000.00, but the running balance before its first day, 2025-01-20, is 750.00:"
            " rows may be missing",
        ),
        (  # Nationwide's `Account Balance` is today's, above whatever days were asked for
            '"Account Name:","FlexAccount ****12345"\n"Account Balance:","£1,250.00"\n\n'
            '"Date","Transaction type","Description","Paid out","Paid in","Balance"\n'
            '"31 Jan 2025","Payment to","TESCO STORES 1234","£12.34","","£987.66"\n'
            '"15 Jan 2025","Bank credit","ACME LTD SALARY","","£1,000.00","£1,000.00"\n',
            None,
        ),
        (  # two statements joined, each closing on its own day
            "Date,Description,Amount,Balance\n01/01/2025,Opening balance,,0.00\n01/15/2025,ACME PAYROLL,1000.00,1000.00\n"
            "01/31/2025,Closing balance,,1000.00\n02/01/2025,Opening balance,,1000.00\n02/10/2025,RENT,-500.00,500.00\n"
            "02/28/2025,Closing balance,,500.00\n",
            None,
        ),
    ],
)
def test_a_running_balance_is_checked_against_the_statements_own_balances(tmp_path: Path, text: str, warning: str | None) -> None:
    warnings = [w for w in parse_written(tmp_path, text).warnings if "rows may be missing" in w]
    assert warnings == ([warning] if warning else [])
