"""The import pipeline end to end: de-duplication, overlap, undo, pending, transfers, bad input."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from wilson.cli import main
from wilson.importers.model import ImportRefused
from wilson.importers.pipeline import import_file
from wilson.ledger import Ledger
from wilson.ledger.transfers import CURRENCY_EXCHANGE
from wilson.ledger.undo import undo_batch

HEADER = "Date,Description,Amount\n"


def write(tmp_path: Path, name: str, body: str, header: str = HEADER) -> Path:
    path = tmp_path / name
    path.write_text(header + body, encoding="utf-8")
    return path


def rows(ledger: Ledger, where: str = "1") -> list[dict]:
    return ledger.query(f"SELECT posted, amount, currency, description, pending, account_id FROM transactions WHERE {where} ORDER BY id")


JAN_FEB = """2025-01-05,COFFEE SHOP,-5.75
2025-01-05,COFFEE SHOP,-5.75
2025-01-20,GROCER,-45.10
2025-02-03,PAYROLL,2500.00
2025-02-10,GROCER,-12.00
"""
FEB_MAR = """2025-02-03,PAYROLL,2500.00
2025-02-10,GROCER,-12.00
2025-02-25,ELECTRIC CO,-80.00
2025-03-03,PAYROLL,2500.00
"""


def test_reimport_adds_nothing_and_identical_rows_in_one_file_are_kept(tmp_path: Path) -> None:
    path = write(tmp_path, "jan.csv", JAN_FEB)
    with Ledger() as ledger:
        first = import_file(ledger, path, account="Checking")
        assert (first.added, first.duplicates) == (5, 0)
        coffees = rows(ledger, "description = 'COFFEE SHOP'")
        assert [r["amount"] for r in coffees] == [-575, -575]
        search = "SELECT COUNT(*) FROM transactions_fts WHERE transactions_fts MATCH ?"
        assert ledger.scalar(search, ("grocer",)) == 2 and ledger.scalar(search, ("coffee",)) == 2
        again = import_file(ledger, path, account="Checking")
        assert (again.added, again.duplicates) == (0, 5)
        assert ledger.scalar("SELECT COUNT(*) FROM transactions") == 5


def test_overlapping_exports_add_only_new_rows(tmp_path: Path) -> None:
    with Ledger() as ledger:
        import_file(ledger, write(tmp_path, "a.csv", JAN_FEB), account="Checking")
        second = import_file(ledger, write(tmp_path, "b.csv", FEB_MAR), account="Checking")
        assert (second.added, second.duplicates) == (2, 2)
        assert ledger.scalar("SELECT SUM(amount) FROM transactions") == -575 * 2 - 4510 + 250000 * 2 - 1200 - 8000


def test_same_rows_in_another_account_are_not_duplicates(tmp_path: Path) -> None:
    path = write(tmp_path, "a.csv", JAN_FEB)
    with Ledger() as ledger:
        first = import_file(ledger, path, account="Checking")
        other = import_file(ledger, path, account="Joint")
        assert other.added == 5
        assert other.warnings == [
            "the file states no currency: Joint is opened in USD (undo and import with --currency to choose another)",
            f"this file was imported before as batch {first.batch_id} into Checking",
        ]


def test_a_mistyped_account_name_is_refused_and_another_that_doubles_an_accounts_rows_says_so(tmp_path: Path) -> None:
    """A typo of an account's name would open a second account holding the month again; a name
    only its `…` tells from the account's is that account."""
    with Ledger() as ledger:
        import_file(ledger, write(tmp_path, "jan.csv", JAN_FEB), account="Checking …1234")
        february = write(tmp_path, "feb.csv", "\n".join(JAN_FEB.splitlines()[-3:]) + "\n2025-03-02,GROCER,-12.00\n")
        with pytest.raises(ImportRefused, match=r"no account is named \"Chekcing 1234\", and Checking …1234 holds rows of this file:"
                                                 r" did you mean Checking …1234\?"):
            import_file(ledger, february, account="Chekcing 1234")
        assert ledger.scalar("SELECT COUNT(*) FROM accounts") == 1
        # A name like another's that shares no more than a row or two with it is an account of its own (Mary's, beside Mark's).
        march = write(tmp_path, "march.csv", "2025-02-03,PAYROLL,2500.00\n2025-03-20,RENT,-900.00\n2025-03-21,GROCER,-80.00\n")
        opened = import_file(ledger, march, account="Chekcing 1234")
        assert opened.accounts == ["Chekcing 1234"]
        assert opened.warnings[0] == ("Chekcing 1234 is a new account, named like Checking …1234: if the file is Checking …1234's,"
                                      ' undo it and import it with --account "Checking …1234"')
        undo_batch(ledger, ledger.scalar("SELECT MAX(id) FROM import_batches"))
        other = import_file(ledger, february, account="Joint")
        assert other.warnings[-1] == ('3 of its rows in Joint are in Checking …1234 too (same day, amount and text): if the file'
                                      ' is Checking …1234\'s, undo it and import it with --account "Checking …1234"')
        undo_batch(ledger, other.batch_id)
        meant = import_file(ledger, february, account="checking 1234")
        assert (meant.accounts, meant.added, meant.duplicates) == (["Checking …1234"], 1, 3)


def test_a_pending_row_posting_under_its_transaction_id_is_replaced_not_lost(tmp_path: Path) -> None:
    header = "Date,Description,Amount,Status,Transaction ID\n"
    with Ledger() as ledger:
        import_file(ledger, write(tmp_path, "a.csv", "2025-03-02,JANE DOE,-25.00,Posted,T1001\n2025-03-08,KIM PARK,-40.00,Pending,T1002\n", header), account="W")
        posted = import_file(ledger, write(tmp_path, "b.csv", "2025-03-02,JANE DOE,-25.00,Posted,T1001\n2025-03-09,KIM PARK,-40.00,Posted,T1002\n", header), account="W")
        assert (posted.added, posted.duplicates, posted.pending_replaced) == (1, 1, 1)
        assert [(r["posted"], r["amount"], r["pending"]) for r in rows(ledger)] == [("2025-03-02", -2500, 0), ("2025-03-09", -4000, 0)]


def test_undo_removes_exactly_one_batch(tmp_path: Path) -> None:
    with Ledger() as ledger:
        a = import_file(ledger, write(tmp_path, "a.csv", JAN_FEB), account="Checking")
        b = import_file(ledger, write(tmp_path, "b.csv", FEB_MAR), account="Checking")
        assert undo_batch(ledger, a.batch_id).removed == 3  # b's file lists its two February rows: they are b's now
        assert [r["description"] for r in rows(ledger)] == ["PAYROLL", "GROCER", "ELECTRIC CO", "PAYROLL"]
        with pytest.raises(LookupError, match="already undone"):
            undo_batch(ledger, a.batch_id)
        assert undo_batch(ledger, b.batch_id).removed == 4
        assert ledger.scalar("SELECT COUNT(*) FROM transactions") == 0


def test_a_file_undone_and_imported_again_goes_where_it_went(tmp_path: Path) -> None:
    """Imported with --account the first time, undone, imported again without it: the same file
    goes back into the same account, not into one its name would open."""
    path = write(tmp_path, "stmt.csv", JAN_FEB)
    with Ledger() as ledger:
        import_file(ledger, write(tmp_path, "older.csv", "2024-12-30,GROCER,-10.00\n"), account="Joint Checking")
        first = import_file(ledger, path, account="Joint Checking")
        undo_batch(ledger, first.batch_id)
        again = import_file(ledger, path)
        assert (again.accounts, again.added) == (["Joint Checking"], 5)
        assert ledger.scalar("SELECT COUNT(*) FROM accounts") == 1
        assert again.warnings[0] == (f"this file went into Joint Checking when it was imported before (batch {first.batch_id}, undone):"
                                     " it goes there again (to send it elsewhere, give --account)")


def test_a_file_naming_its_account_goes_by_it_after_a_wrong_account_was_undone(tmp_path: Path) -> None:
    """Imported with the wrong --account and undone: imported again without it, a file whose name
    gives its account's digits (Chase1234_…) goes by them, not back where --account sent it."""
    header = "Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #,\n"
    with Ledger() as ledger:
        import_file(ledger, write(tmp_path, "Chase9012_Activity_20250331.csv", "CREDIT,03/30/2025,INTEREST,0.52,ACH_CREDIT,500.52,,\n", header))
        path = write(tmp_path, "Chase1234_Activity_20250131.csv", "DEBIT,01/20/2025,GROCER,-23.45,DEBIT_CARD,976.55,,\n", header)
        wrong = import_file(ledger, path, account="Chase Checking …9012")
        undo_batch(ledger, wrong.batch_id)
        assert import_file(ledger, path).accounts == ["Chase Checking …1234"]


def test_a_file_put_into_another_numbers_account_goes_there_again(tmp_path: Path) -> None:
    """A new card's first download, put by --account into the old card's account, imported again
    without it: no account has its number, so it goes where it went and adds nothing, rather than
    opening an account for the number and booking every row again."""
    with Ledger() as ledger:
        import_file(ledger, write(tmp_path, "old.ofx", ofx([("20250105", "-10.00", "A1", "COFFEE")]), header=""))
        new_card = write(tmp_path, "new.ofx", ofx([("20250205", "-12.00", "B1", "TEA")]).replace("555123", "555999"), header="")
        assert import_file(ledger, new_card, account="Checking 5123").added == 1
        again = import_file(ledger, new_card)
        assert (again.accounts, again.added, ledger.scalar("SELECT COUNT(*) FROM accounts")) == (["Checking 5123"], 0, 1)


def test_undo_takes_back_the_accounts_and_balances_a_batch_set(tmp_path: Path) -> None:
    def statement(name: str, balance: str, day: str, fitid: str) -> Path:
        body = ofx([(day, "-10.00", fitid, "COFFEE")]).replace("<BANKTRANLIST>", "<BANKTRANLIST>", 1)
        return write(tmp_path, name, body.replace("</BANKTRANLIST>", f"</BANKTRANLIST><LEDGERBAL><BALAMT>{balance}<DTASOF>{day}</LEDGERBAL>"), header="")

    with Ledger() as ledger:
        first = import_file(ledger, statement("jan.ofx", "100.00", "20250131", "1"))
        account = ledger.query_one("SELECT * FROM accounts")
        assert (account["balance"], account["balance_date"]) == (10000, "2025-01-31")
        second = import_file(ledger, statement("feb.ofx", "90.00", "20250228", "2"))
        assert ledger.scalar("SELECT balance FROM accounts") == 9000
        assert undo_batch(ledger, second.batch_id).accounts_removed == []  # the January rows still need it
        restored = ledger.query_one("SELECT * FROM accounts")
        assert (restored["balance"], restored["balance_date"], restored["balance_source"]) == (10000, "2025-01-31", "statement")
        assert undo_batch(ledger, first.batch_id).accounts_removed == [account["name"]]
        assert ledger.scalar("SELECT COUNT(*) FROM accounts") == 0
    history = CliRunner().invoke(main, ["import", "--history", "--json"])
    assert [row["account"] for row in json.loads(history.output)] == [account["name"]] * 2
    with Ledger() as ledger:  # the newer statement first: undoing it brings back the older one's balance
        newer = import_file(ledger, statement("dec.ofx", "70.00", "20251231", "9"))
        import_file(ledger, statement("mar.ofx", "95.00", "20250331", "3"))
        assert ledger.scalar("SELECT balance FROM accounts") == 7000
        undo_batch(ledger, newer.batch_id)
        assert ledger.query_one("SELECT balance, balance_date FROM accounts") == {"balance": 9500, "balance_date": "2025-03-31"}


@pytest.mark.parametrize(("listed", "balance"), [(True, (10000, "2025-04-15")), (False, (19000, "2025-03-20"))])
def test_undo_leaves_out_a_running_balance_that_ran_through_the_rows_it_took(tmp_path: Path, listed: bool, balance: tuple) -> None:
    """March, then April twice (the second adding nothing): undoing the first April import keeps
    April's rows, which the second lists, and its balance; a ledger from before imports noted what
    they listed loses them, and the balance the re-import stated ran through them."""
    header = "Date,Description,Amount,Balance\n"
    march = write(tmp_path, "march.csv", header + "2025-03-03,SHOP,-10.00,90.00\n2025-03-20,PAY,100.00,190.00\n")
    april = write(tmp_path, "april.csv", header + "2025-04-02,SHOP,-5.00,185.00\n2025-04-15,RENT,-85.00,100.00\n")
    with Ledger() as ledger:
        import_file(ledger, march, account="Checking")
        first = import_file(ledger, april, account="Checking")
        assert import_file(ledger, april, account="Checking").added == 0
        if not listed:
            ledger.conn.execute("DELETE FROM batch_listed")
        undo_batch(ledger, first.batch_id)
        assert tuple(ledger.query_one("SELECT balance, balance_date FROM accounts").values()) == balance


@pytest.mark.parametrize(("body", "misses"), [
    ("2025-01-31,PAYROLL,2500.00,1879.67\n2025-01-10,RENT,-1000.00,-520.33\n", 1),  # two rows that do not chain
    ("2025-01-31,PAYROLL,2500.00,1879.67\n2025-01-10,RENT,-1100.00,-620.34\n2025-01-02,GROCER,-20.33,479.67\n", 2),  # one bad cell
])
def test_a_newest_first_file_whose_balance_breaks_keeps_its_latest_balance(tmp_path: Path, body: str, misses: int) -> None:
    """A bad balance in a newest-first file (ING's `Datum absteigend`) breaks the chain read either
    way as often: the mismatch is reported, and the balance is still the latest row's, not the
    oldest's at the file's end."""
    with Ledger() as ledger:
        summary = import_file(ledger, write(tmp_path, "umsatz.csv", body, "Date,Description,Amount,Balance\n"), account="Giro")
        assert f"Giro: {misses} row(s) do not agree with the running balance (first at line 2)" in summary.warnings
        assert ledger.query_one("SELECT balance, balance_date FROM accounts") == {"balance": 187967, "balance_date": "2025-01-31"}


def test_a_file_sorted_newest_first_by_date_alone_keeps_each_days_rows_chained(tmp_path: Path) -> None:
    """An oldest-first export sorted by date, newest first, in a spreadsheet: each day's rows stay
    oldest first. The balance was the last day's first row's, and its boundaries disagreed."""
    body = ("2025-03-14,TRANSFER TO SAVINGS,-300.00,5962.05\n2025-03-14,NETFLIX.COM,-15.49,5946.56\n"
            "2025-03-10,TRADER JOE S,-63.18,6262.05\n2025-03-05,PAYROLL,2100.00,6366.43\n2025-03-05,SHELL OIL,-41.20,6325.23\n")
    with Ledger() as ledger:
        summary = import_file(ledger, write(tmp_path, "sorted.csv", body, "Date,Description,Amount,Balance\n"), account="Checking")
        assert not [w for w in summary.warnings if "running balance" in w]
        assert ledger.query_one("SELECT balance, balance_date FROM accounts") == {"balance": 594656, "balance_date": "2025-03-14"}


def test_undo_removes_an_imported_account_only_once_nothing_uses_it(tmp_path: Path) -> None:
    with Ledger() as ledger:
        ledger.create_account("Checking")
        mine = import_file(ledger, write(tmp_path, "a.csv", JAN_FEB), account="Checking")
        assert undo_batch(ledger, mine.batch_id).accounts_removed == []  # the user made it
        first = import_file(ledger, write(tmp_path, "b.csv", JAN_FEB), account="Joint")
        again = import_file(ledger, write(tmp_path, "c.csv", JAN_FEB), account="Joint")
        assert again.added == 0
        assert undo_batch(ledger, first.batch_id).accounts_removed == []  # batch `again` still names it
        assert undo_batch(ledger, again.batch_id).accounts_removed == ["Joint"]
        assert [a["name"] for a in ledger.query("SELECT name FROM accounts")] == ["Checking"]


def test_undo_from_the_cli(tmp_path: Path) -> None:
    path = write(tmp_path, "a.csv", JAN_FEB)
    runner = CliRunner()
    out = runner.invoke(main, ["import", "--json", "--account", "Checking", str(path)])
    assert out.exit_code == 0, out.output
    batch = json.loads(out.output)["batch_id"]
    undone = runner.invoke(main, ["import", "--undo", str(batch)])
    assert undone.exit_code == 0 and "5 transaction(s) removed" in undone.output
    missing = runner.invoke(main, ["import", "--undo", "999"])
    assert missing.exit_code == 1 and "no import batch 999" in missing.output
    previewed = runner.invoke(main, ["import", "--dry-run", "--undo", str(batch)])  # never a real undo in disguise
    assert previewed.exit_code == 1 and "apply to importing files" in previewed.output


def test_undoing_an_earlier_download_keeps_the_rows_a_later_one_lists(tmp_path: Path) -> None:
    """January–mid February, then February–March: undoing the first keeps its February rows, which
    the second file lists (they were taken away, and re-importing the second brought them back).
    The ledger is the one the second file alone makes; undoing that too empties it."""
    runner = CliRunner()
    first, second = write(tmp_path, "jan.csv", JAN_FEB), write(tmp_path, "feb.csv", FEB_MAR)
    for path in (first, second):
        assert runner.invoke(main, ["import", "--account", "Checking", str(path)]).exit_code == 0
    undone = runner.invoke(main, ["import", "--undo", "1"])
    assert undone.output.splitlines() == [
        "batch 1 undone: 3 transaction(s) removed",
        "  kept 2 that batch 2 (feb.csv) lists too: they are its rows now",
    ]
    with Ledger() as ledger:
        assert [(r["posted"], r["description"]) for r in rows(ledger)] == [
            ("2025-02-03", "PAYROLL"), ("2025-02-10", "GROCER"), ("2025-02-25", "ELECTRIC CO"), ("2025-03-03", "PAYROLL"),
        ]
    again = json.loads(runner.invoke(main, ["import", "--json", "--account", "Checking", str(second)]).output)
    assert (again["added"], again["duplicates"]) == (0, 4)
    later = json.loads(runner.invoke(main, ["import", "--undo", "2", "--json"]).output)
    assert (later["removed"], later["kept_by"]) == (0, [{"batch_id": 3, "file_name": "feb.csv", "rows": 4}])  # the same file again
    last = json.loads(runner.invoke(main, ["import", "--undo", "3", "--json"]).output)
    assert (last["removed"], last["kept_by"]) == (4, [])


def test_undoing_a_batch_names_the_imports_made_before_listings_were_noted_that_covered_its_days(tmp_path: Path) -> None:
    """A ledger from before imports noted the rows they list: its later import's file may list the
    rows the undo takes, and the undo says so, as it did then."""
    runner = CliRunner()
    first, second = write(tmp_path, "jan.csv", JAN_FEB), write(tmp_path, "feb.csv", FEB_MAR)
    for path in (first, second):
        assert runner.invoke(main, ["import", "--account", "Checking", str(path)]).exit_code == 0
    with Ledger() as ledger:
        ledger.conn.execute("DELETE FROM batch_listed")
        ledger.conn.execute("UPDATE import_batches SET listed_noted = 0")
    assert runner.invoke(main, ["import", "--undo", "1"]).output.splitlines() == [
        "batch 1 undone: 5 transaction(s) removed",
        "  note: 2 of them fall in the days batch 2 (feb.csv) covers; its file may list them too: import it again to bring those back",
    ]


def test_undoing_a_file_of_several_accounts_keeps_what_the_later_one_lists(tmp_path: Path) -> None:
    header = "Type,Product,Started Date,Completed Date,Description,Amount,Fee,Currency,State,Balance\n"

    def row(day: str, text: str, amount: str, currency: str, balance: str) -> str:
        return f"CARD_PAYMENT,Current,{day} 10:00:00,{day} 11:00:00,{text},{amount},0.00,{currency},COMPLETED,{balance}\n"

    march = header + row("2025-03-03", "TESCO", "-10.00", "GBP", "90.00") + row("2025-03-20", "CAFE", "-5.00", "EUR", "45.00")
    april = (header + row("2025-03-03", "TESCO", "-10.00", "GBP", "90.00") + row("2025-04-02", "BOOTS", "-3.00", "GBP", "87.00")
             + row("2025-04-03", "CAFE", "-2.00", "EUR", "43.00"))
    with Ledger() as ledger:
        first = import_file(ledger, write(tmp_path, "statement-march.csv", march, header=""))
        assert import_file(ledger, write(tmp_path, "statement-april.csv", april, header="")).added == 2
        undone = undo_batch(ledger, first.batch_id)
        assert (undone.removed, [(b["batch_id"], b["rows"]) for b in undone.kept_by]) == (1, [(2, 1)])  # TESCO kept, the café gone


def test_dry_run_writes_nothing(tmp_path: Path) -> None:
    with Ledger() as ledger:
        summary = import_file(ledger, write(tmp_path, "a.csv", JAN_FEB), dry_run=True)
        assert summary.added == 5 and summary.batch_id is None
        assert ledger.scalar("SELECT COUNT(*) FROM transactions") == 0
        assert ledger.scalar("SELECT COUNT(*) FROM accounts") == 0
        assert ledger.scalar("SELECT COUNT(*) FROM import_batches") == 0


OFX_TEMPLATE = """OFXHEADER:100
DATA:OFXSGML
VERSION:102

<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD
<BANKACCTFROM><BANKID>123<ACCTID>555123<ACCTTYPE>CHECKING</BANKACCTFROM>
<BANKTRANLIST><DTSTART>20250101<DTEND>20250131
{rows}
</BANKTRANLIST><LEDGERBAL><BALAMT>1000.00<DTASOF>20250131</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>
"""


def ofx(rows: list[tuple[str, str, str, str]]) -> str:
    return OFX_TEMPLATE.format(
        rows="\n".join(
            f"<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>{d}<TRNAMT>{a}<FITID>{f}<NAME>{n}</STMTTRN>" for d, a, f, n in rows
        )
    )


@pytest.mark.parametrize(
    ("name", "body", "header"),
    [
        ("au.csv", "03/01/2025,WOOLWORTHS 1234,-45.20\n13/01/2025,COLES,-1200.00\n", HEADER),
        ("au.qif", "D03/01/2025\nT-45.20\nPWOOLWORTHS 1234\n^\nD13/01/2025\nT-1,200.00\nPCOLES\n^\n", "!Type:Bank\n"),
    ],
)
def test_currency_given_for_a_file_that_states_none(tmp_path: Path, name: str, body: str, header: str) -> None:
    with Ledger() as ledger:
        summary = import_file(ledger, write(tmp_path, name, body, header), currency="AUD")
        assert summary.warnings == []
        assert ledger.scalar("SELECT currency FROM accounts") == "AUD"
        assert [(r["posted"], r["amount"], r["currency"]) for r in rows(ledger)] == [
            ("2025-01-03", -4520, "AUD"), ("2025-01-13", -120000, "AUD")]


def test_a_file_in_another_currency_never_relabels_its_money(tmp_path: Path) -> None:
    """The same bank's export from another country names the same account: pounds must not be
    booked as dollars. Into an account the user names, the rows keep their own currency."""
    (tmp_path / "us").mkdir()
    (tmp_path / "uk").mkdir()
    dollars = write(tmp_path / "us", "card.csv", "2025-01-03,UBER,-23.45\n", "Date,Description,Amount (USD)\n")
    pounds = write(tmp_path / "uk", "card.csv", "2025-01-03,TESCO,-42.18\n", "Date,Description,Amount (GBP)\n")
    with Ledger() as ledger:
        assert import_file(ledger, dollars).accounts == ["card"]
        assert import_file(ledger, pounds).accounts == ["card GBP"]
        named = import_file(ledger, write(tmp_path, "more.csv", "2025-01-04,BOOTS,-3.00\n", "Date,Description,Amount (GBP)\n"), account="card")
        assert named.warnings == ["the file is in GBP and card in USD: its rows stay in GBP"]
        assert ledger.query("SELECT a.name, t.description, t.currency FROM transactions t JOIN accounts a ON a.id = t.account_id ORDER BY t.id") == [
            {"name": "card", "description": "UBER", "currency": "USD"},
            {"name": "card GBP", "description": "TESCO", "currency": "GBP"},
            {"name": "card", "description": "BOOTS", "currency": "GBP"},
        ]


def test_currency_given_is_in_its_own_minor_units_and_yields_to_a_stated_one(tmp_path: Path) -> None:
    no_curdef = ofx([("20250103", "-1500", "1", "RAMEN")]).replace("<CURDEF>USD", "")
    assert "<CURDEF>" not in no_curdef
    with Ledger() as ledger:
        yen = import_file(ledger, write(tmp_path, "jp.ofx", no_curdef, header=""), currency="JPY")
        assert yen.warnings == []
        assert [(r["amount"], r["currency"]) for r in rows(ledger)] == [(-1500, "JPY")]
        stated = import_file(ledger, write(tmp_path, "us.ofx", ofx([("20250103", "-15.00", "9", "TACO")]), header=""), currency="JPY")
        assert stated.warnings == ["the file states USD; --currency JPY applies only to files that state none"]
        dinars = import_file(ledger, write(tmp_path, "kw.csv", "2025-01-03,SHAWARMA,-1.250\n"), currency="KWD")
        assert dinars.warnings == [] and ledger.scalar("SELECT amount FROM transactions WHERE currency = 'KWD'") == -1250
    for code in ("A1", "XYZ"):
        bad = CliRunner().invoke(main, ["import", "--currency", code, str(tmp_path / "us.ofx")])
        assert bad.exit_code != 0 and "not an ISO 4217 currency code" in bad.output


def test_bank_ids_are_scoped_and_not_trusted_alone(tmp_path: Path) -> None:
    statement = [
        ("20250105", "-100.00", "A1", "HOTEL PARIS"),
        ("20250105", "-3.00", "A1", "FOREIGN TRANSACTION FEE"),  # purchase and its fee share a FITID
        ("20250106", "-20.00", "", "NO FITID SHOP"),
    ]
    first = tmp_path / "one.ofx"
    first.write_text(ofx(statement))
    renamed = tmp_path / "two.ofx"  # the bank re-exports with a different description, same FITID
    renamed.write_text(ofx([("20250105", "-100.00", "A1", "HOTEL PARIS 75001"), *statement[1:]]))
    with Ledger() as ledger:
        assert import_file(ledger, first).added == 3
        second = import_file(ledger, renamed)
        assert (second.added, second.duplicates) == (0, 3)
        account = ledger.query_one("SELECT * FROM accounts")
        assert account["number"] == "555123" and account["balance"] == 100000
        redated = tmp_path / "three.ofx"  # the bank moves a row by a day, same FITID and text
        redated.write_text(ofx([("20250107", "-20.00", "", "NO FITID SHOP"), ("20250106", "-100.00", "A1", "HOTEL PARIS")]))
        # Without an id, too: the file covers the 6th and no longer lists the shop there.
        assert import_file(ledger, redated).added == 0
        settled = tmp_path / "settled.ofx"  # an authorisation settles two days later, its text added to
        settled.write_text(ofx([("20250112", "-7.00", "Z9", "AMAZON MKTPL")]))
        import_file(ledger, settled)
        settled.write_text(ofx([("20250114", "-7.00", "Z9", "AMAZON MKTPL*AB12C3DE4")]))
        assert import_file(ledger, settled).added == 0
        numbered = tmp_path / "four.ofx"  # ids by position in each download: two days later, another shop
        numbered.write_text(ofx([("20250107", "-100.00", "A1", "PHILZ COFFEE")]))
        assert import_file(ledger, numbered).added == 1


def test_ids_a_bank_repeats_or_numbers_by_position_name_no_row(tmp_path: Path) -> None:
    """A bank that writes `0` as every FITID, or numbers each download's rows 1 to N: the next
    download's coffee and fares, a week after the same ones, are new rows, not the old ones again."""
    constant = [("20250224", "-25.00", "0", "AUTOSAVE TO SAVINGS"), ("20250226", "-4.50", "0", "COFFEE"),
                ("20250228", "-25.00", "0", "AUTOSAVE TO SAVINGS")]
    next_month = [("20250303", "-4.50", "0", "COFFEE"), ("20250307", "-25.00", "0", "AUTOSAVE TO SAVINGS")]
    week = [(f"202503{day:02d}", "-2.90", str(day), "MTA*NYCT PAYGO") for day in range(1, 8)]
    next_week = [(f"202503{day + 7:02d}", "-2.90", str(day), "MTA*NYCT PAYGO") for day in range(1, 8)]
    daily = [("20250303", "-2.90", "1", "MTA*NYCT PAYGO")]  # one fare a download, each numbered 1
    # Places from 11, one left out (a declined row), a fare and its fee sharing one.
    gapped = [(f"202503{day:02d}", "-2.90", str(10 + day), "MTA*NYCT PAYGO") for day in (1, 2, 4)] + [("20250301", "-0.10", "11", "FEE")]
    next_gapped = [(f"202503{day + 7:02d}", "-2.90", str(10 + day), "MTA*NYCT PAYGO") for day in (1, 2, 4)] + [("20250308", "-0.10", "11", "FEE")]
    with Ledger() as ledger:
        for account, first, second in (("Credit Union", constant, next_month), ("Transit", week, next_week),
                                       ("Fares", daily, [("20250304", "-2.90", "1", "MTA*NYCT PAYGO")]),
                                       ("Metro", gapped, next_gapped)):
            assert import_file(ledger, write(tmp_path, "first.ofx", ofx(first), header=""), account=account).added == len(first)
            assert import_file(ledger, write(tmp_path, "second.ofx", ofx(second), header=""), account=account).added == len(second)
            assert import_file(ledger, tmp_path / "second.ofx", account=account).added == 0
            held = ledger.scalar("SELECT COUNT(*) FROM transactions t JOIN accounts a ON a.id = t.account_id WHERE a.name = ?", (account,))
            assert held == len(first) + len(second)


def test_stable_ids_follow_rows_the_next_download_dates_later(tmp_path: Path) -> None:
    """The week's last three card purchases settle in the next download two to four days later,
    text extended, under their own FITIDs: they are the same rows, though more ids in the file are
    held on other days than on the same ones."""
    first = [("20250303", "-12.00", "A101", "GROCER"), ("20250305", "-33.19", "A102", "AMAZON MKTPL"),
             ("20250306", "-40.00", "A103", "SHELL OIL"), ("20250307", "-27.00", "A104", "BISTRO")]
    second = [("20250308", "-33.19", "A102", "AMAZON MKTPL*AB12C3DE4"), ("20250309", "-40.00", "A103", "SHELL OIL 5543"),
              ("20250310", "-27.00", "A104", "BISTRO 21"), ("20250311", "-9.99", "A105", "NETFLIX")]
    with Ledger() as ledger:
        import_file(ledger, write(tmp_path, "w1.ofx", ofx(first), header=""))
        later = import_file(ledger, write(tmp_path, "w2.ofx", ofx(second), header=""))
        assert (later.added, later.duplicates) == (1, 3)
    # A young account's ids are small numbers; the statement downloaded again lists them on their
    # days, the last purchase settled four days later: the ids are the bank's, not places.
    young = [(f"202503{2 * n:02d}", f"-1{n}.0{n}", str(n), f"SHOP {n}") for n in range(1, 5)] + [("20250310", "-25.99", "5", "AMAZON MKTPL")]
    again = young[:4] + [("20250314", "-25.99", "5", "AMAZON MKTPL*AB12C3"), ("20250315", "-9.99", "6", "NETFLIX.COM")]
    with Ledger() as ledger:
        import_file(ledger, write(tmp_path, "s1.ofx", ofx(young), header=""), account="Young")
        later = import_file(ledger, write(tmp_path, "s2.ofx", ofx(again), header=""), account="Young")
        assert (later.added, later.duplicates) == (1, 5)
    # A bank numbering each download's rows from 1: a week, then twenty days.
    week_of_fares = [(f"202503{day:02d}", "-2.90", str(day), "MTA*NYCT PAYGO") for day in range(1, 8)]
    twenty_days = [(f"202503{day + 7:02d}", "-2.90", str(day), "MTA*NYCT PAYGO") for day in range(1, 21)]
    with Ledger() as ledger:
        import_file(ledger, write(tmp_path, "f1.ofx", ofx(week_of_fares), header=""), account="Fares")
        assert import_file(ledger, write(tmp_path, "f2.ofx", ofx(twenty_days), header=""), account="Fares").added == 20
    # The same with each download's first row pending (never held under its id): its numbers start below the account's.
    head = "Date,Transaction ID,Description,Amount,Status\n"
    held_first = head + "03/07/2025,1,MTA*NYCT PAYGO,-2.90,Pending\n" + "".join(
        f"03/{day:02d}/2025,{day + 1},MTA*NYCT PAYGO,-2.90,Posted\n" for day in range(1, 7))
    next_days = head + "03/27/2025,1,MTA*NYCT PAYGO,-2.90,Pending\n" + "".join(
        f"03/{day + 7:02d}/2025,{day + 1},MTA*NYCT PAYGO,-2.90,Posted\n" for day in range(1, 20))
    with Ledger() as ledger:
        import_file(ledger, write(tmp_path, "p1.csv", held_first, header=""), account="Fares with holds")
        assert import_file(ledger, write(tmp_path, "p2.csv", next_days, header=""), account="Fares with holds").added == 19
    # A credit union's ids run on from one download to the next; the one row they share was dated again.
    first_week = [(f"202503{day:02d}", f"-{day}0.00", str(10233 + day), f"SHOP {day}") for day in range(1, 8)]
    second_week = [("20250308", "-70.00", "10240", "SHOP 7")] + [(f"202503{day:02d}", f"-{day}1.00", str(10233 + day), f"STORE {day}") for day in range(8, 15)]
    with Ledger() as ledger:
        import_file(ledger, write(tmp_path, "c1.ofx", ofx(first_week), header=""), account="Credit Union")
        later = import_file(ledger, write(tmp_path, "c2.ofx", ofx(second_week), header=""), account="Credit Union")
        assert (later.added, later.duplicates) == (7, 1)


def test_a_row_the_bank_books_again_for_another_amount_replaces_the_first(tmp_path: Path) -> None:
    """A FITID sent again with a corrected amount, and a CSV row whose tip was added, replace the
    row they amend (undo puts it back). A purchase and its fee under one FITID, a second purchase
    while the first is still listed, and a row on the file's first day (the download may start
    part-way through it) are new rows."""
    first = tmp_path / "may1.ofx"
    first.write_text(ofx([
        ("20240501", "-10.00", "F1", "GROCER"), ("20240503", "-45.00", "F2", "PAYPAL *EBAY"), ("20240506", "-90.00", "F4", "SHELL OIL"),
    ]))
    second = tmp_path / "may2.ofx"
    second.write_text(ofx([
        ("20240501", "-10.00", "F1", "GROCER"), ("20240503", "-54.00", "F2", "PAYPAL *EBAY"),
        ("20240506", "-90.00", "F4", "SHELL OIL"), ("20240506", "-2.70", "F4", "SHELL OIL FEE"),
    ]))
    with Ledger() as ledger:
        import_file(ledger, first)
        amended = import_file(ledger, second)
        assert (amended.added, amended.corrected) == (2, 1)
        assert [r["amount"] for r in rows(ledger)] == [-1000, -9000, -5400, -270]
        undo_batch(ledger, amended.batch_id)
        assert sorted(r["amount"] for r in rows(ledger)) == [-9000, -4500, -1000]
    csv = """05/01/2024,COFFEE BAR,-4.00\n05/02/2024,PHARMACY,-8.00\n05/03/2024,BISTRO 21,-42.00\n05/04/2024,UBER TRIP,-12.50\n05/06/2024,SQ *BLUE BOTTLE,-12.00
05/08/2024,GROCER,-30.00\n"""
    # The tip added, a second ride, and the coffee's merchant named in full on its day (the same row).
    tipped = """05/01/2024,COFFEE BAR,-4.40\n05/02/2024,PHARMACY,-8.00\n05/04/2024,BISTRO 21,-50.40\n05/04/2024,UBER TRIP,-12.50\n05/05/2024,UBER TRIP,-8.75
05/06/2024,BLUE BOTTLE COFFEE SAN FRANCISCO,-12.00\n05/08/2024,GROCER,-30.00\n"""
    with Ledger() as ledger:  # the same ledger, another account
        import_file(ledger, write(tmp_path, "may.csv", csv), account="Checking")
        amended = import_file(ledger, write(tmp_path, "may_again.csv", tipped), account="Checking")
        assert (amended.added, amended.corrected) == (3, 1)
        checking = rows(ledger, "account_id = (SELECT id FROM accounts WHERE name = 'Checking')")
        assert sorted(r["amount"] for r in checking) == [-5040, -3000, -1250, -1200, -875, -800, -440, -400]


def test_a_row_answered_for_once_is_never_amended_and_consecutive_statements_lose_nothing(tmp_path: Path) -> None:
    """The 6.45 coffee swiped on the 8th posts on the 9th: the next download's row is that one,
    and the next coffee on the 10th is a purchase of its own, not its correction. Two statements
    share no rows: the next one's Uber ride, NYT charge and coffee at the boundary are new, though
    the last one ended with a ride, an Apple charge of the same amount and a coffee days before."""
    first = "04/08/2024,STARBUCKS STORE 08123,-6.45\n04/05/2024,STARBUCKS STORE 08123,-5.75\n04/01/2024,PAYROLL,3100.00\n"
    later = ("04/20/2024,SHELL OIL,-63.11\n04/10/2024,STARBUCKS STORE 08123,-5.75\n04/09/2024,STARBUCKS STORE 08123,-6.45\n"
             "04/05/2024,STARBUCKS STORE 08123,-5.75\n04/01/2024,PAYROLL,3100.00\n")
    march = ("03/01/2024,GROCER,-40.00\n03/12/2024,STARBUCKS,-6.45\n03/13/2024,APPLE.COM/BILL,-4.99\n03/14/2024,UBER TRIP,-23.50\n"
             "03/14/2024,LYFT RIDE,-9.00\n")
    april = "03/13/2024,NYTIMES DIGITAL,-4.99\n03/15/2024,UBER TRIP,-19.80\n03/15/2024,STARBUCKS,-6.45\n04/10/2024,GROCER,-52.00\n"
    with Ledger() as ledger:
        import_file(ledger, write(tmp_path, "a.csv", first), account="Checking")
        second = import_file(ledger, write(tmp_path, "b.csv", later), account="Checking")
        assert (second.added, second.duplicates, second.corrected) == (2, 3, 0)
        assert ledger.scalar("SELECT SUM(amount) FROM transactions") == 310000 - 645 - 575 - 575 - 6311
        import_file(ledger, write(tmp_path, "march.csv", march), account="Card")
        statement = import_file(ledger, write(tmp_path, "april.csv", april), account="Card")
        assert (statement.added, statement.corrected) == (4, 0)
        assert statement.warnings == []  # the days two statements share are no sign of another account's file


def test_a_running_balance_that_the_rows_since_the_last_one_do_not_explain_is_reported(tmp_path: Path) -> None:
    """Revolut books a payment, then lists it REVERTED: the next download's balances run without
    it, and the ledger, which still holds it, is told apart from them."""
    header = "Type,Product,Started Date,Completed Date,Description,Amount,Fee,Currency,State,Balance\n"
    top_up = "TOPUP,Current,2025-05-01 09:00:00,2025-05-01 09:00:05,Top-Up,500.00,0.00,GBP,COMPLETED,500.00\n"
    netflix = "CARD_PAYMENT,Current,2025-05-02 10:00:00,2025-05-02 10:00:01,Netflix,-15.99,0.00,GBP,{},{}\n"
    pret = "CARD_PAYMENT,Current,2025-05-03 10:00:00,2025-05-04 10:00:01,Pret A Manger,-8.40,0.00,GBP,COMPLETED,{}\n"
    tesco = "CARD_PAYMENT,Current,2025-05-07 10:00:00,2025-05-07 10:00:01,Tesco,-20.00,0.00,GBP,COMPLETED,471.60\n"
    with Ledger() as ledger:
        first = import_file(ledger, write(tmp_path, "a.csv", top_up + netflix.format("COMPLETED", "484.01") + pret.format("475.61"), header))
        assert first.warnings == []
        later = import_file(ledger, write(tmp_path, "b.csv", top_up + netflix.format("REVERTED", "") + pret.format("491.60") + tesco, header))
        assert later.warnings == [
            "Revolut Current GBP: the running balance 471.60 on 2025-05-07 is 15.99 off the 475.61 known on 2025-05-04"
            " and the rows between: a row may be missing, or in the ledger twice"
        ]



def test_a_row_booked_later_under_an_earlier_day_is_counted_against_the_known_balance(tmp_path: Path) -> None:
    """PayPal's eCheck is pending when February's file is taken and completes under its first day:
    March's balances include it, and so does the ledger, which is no row missing. A row doubled
    under an earlier day by the overlap of two downloads is one too many, and is said so."""
    header = "Date,Description,Amount,Status,Balance\n"
    february = ("2025-02-01,DEPOSIT,100.00,Completed,100.00\n2025-02-10,FRIEND,40.00,Completed,140.00\n"
                "2025-02-20,UTILITY ECHECK,-25.00,Pending,\n2025-02-21,COFFEE,-5.00,Completed,135.00\n")
    march = ("2025-02-20,UTILITY ECHECK,-25.00,Completed,115.00\n2025-02-21,COFFEE,-5.00,Completed,110.00\n"
             "2025-03-10,FRIEND,40.00,Completed,150.00\n")
    with Ledger() as ledger:
        import_file(ledger, write(tmp_path, "feb.csv", february, header), account="PayPal")
        assert import_file(ledger, write(tmp_path, "mar.csv", march, header), account="PayPal").warnings == []
    doubled = ("2025-02-19,STARBUCKS COFFEE,-5.00,Completed,135.00\n"  # February's coffee re-dated and re-worded: booked again
               "2025-02-20,UTILITY ECHECK,-25.00,Completed,110.00\n2025-03-10,FRIEND,40.00,Completed,150.00\n")
    with Ledger(tmp_path / "other.db") as ledger:
        import_file(ledger, write(tmp_path, "feb.csv", february, header), account="PayPal")
        assert import_file(ledger, write(tmp_path, "mar2.csv", doubled, header), account="PayPal").warnings == [
            "PayPal: the running balance 150.00 on 2025-03-10 is 5.00 off the 135.00 known on 2025-02-21"
            " and the rows between: a row may be missing, or in the ledger twice"
        ]


def test_a_newest_row_without_its_balance_is_in_the_days_balance(tmp_path: Path) -> None:
    """A newest-first download whose newest row has a blank balance: that row is in the day's
    balance (as the chain reads it), so the next download's balances follow on without a word."""
    header = "Date,Description,Amount,Balance\n"
    march = "2025-03-04,CHIPOTLE,-70.28,\n2025-03-04,SHELL,-40.00,6026.81\n2025-03-02,PAYROLL,2000.00,6066.81\n"
    april = "2025-04-04,RENT,-1500.00,4400.00\n2025-03-20,KROGER,-56.53,5900.00\n"
    with Ledger() as ledger:
        import_file(ledger, write(tmp_path, "march.csv", march, header), account="Checking")
        assert ledger.query_one("SELECT balance, balance_date FROM accounts") == {"balance": 595653, "balance_date": "2025-03-04"}
        assert [w for w in import_file(ledger, write(tmp_path, "april.csv", april, header), account="Checking").warnings
                if "running balance" in w] == []


def test_a_statement_balance_that_the_rows_since_the_last_one_do_not_explain_is_reported(tmp_path: Path) -> None:
    january = ofx([("20250105", "-100.00", "A1", "HOTEL PARIS")])
    february = ofx([("20250203", "-40.00", "B1", "GROCER")]).replace("<BALAMT>1000.00<DTASOF>20250131", "<BALAMT>930.00<DTASOF>20250228")
    (tmp_path / "jan.ofx").write_text(january)
    (tmp_path / "feb.ofx").write_text(february)
    with Ledger() as ledger:
        assert import_file(ledger, tmp_path / "jan.ofx").warnings == []
        assert import_file(ledger, tmp_path / "feb.ofx").warnings == [
            "Checking 5123: the statement's balance 930.00 on 2025-02-28 is -30.00 off the 1000.00 known on 2025-01-31"
            " and the rows between: a row may be missing, or in the ledger twice"
        ]
        fixed = february.replace("<BALAMT>930.00", "<BALAMT>960.00").replace("B1", "B2")
        (tmp_path / "feb2.ofx").write_text(fixed)
        assert import_file(ledger, tmp_path / "feb2.ofx").warnings == []
        late = ofx([("20250228", "-10.00", "C1", "LATE COFFEE"), ("20250305", "-20.00", "C2", "LUNCH")])  # after that download
        (tmp_path / "mar.ofx").write_text(late.replace("<BALAMT>1000.00<DTASOF>20250131", "<BALAMT>930.00<DTASOF>20250310"))
        assert import_file(ledger, tmp_path / "mar.ofx").warnings == []


def test_a_statement_balance_beyond_a_month_not_imported_yet_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """March's statement after January's, February not imported yet: the balances cannot agree,
    and the warning names the days the ledger lacks instead of suspecting a row. A statement whose
    only row is late in its days still answers for them all (its DTSTART)."""
    january = ofx([("20250105", "-100.00", "A1", "HOTEL PARIS")])
    march = ofx([("20250303", "-40.00", "C1", "GROCER")]).replace("<BALAMT>1000.00<DTASOF>20250131", "<BALAMT>500.00<DTASOF>20250331")
    (tmp_path / "jan.ofx").write_text(january)
    (tmp_path / "mar.ofx").write_text(march.replace("<DTSTART>20250101<DTEND>20250131", "<DTSTART>20250301<DTEND>20250331"))
    # February's statement lists its own days, though its only row is on the 28th: nothing is missing but its row
    (tmp_path / "feb.ofx").write_text(ofx([("20250228", "-40.00", "B1", "GROCER")]).replace(
        "<DTSTART>20250101<DTEND>20250131", "<DTSTART>20250201<DTEND>20250228").replace("<BALAMT>1000.00<DTASOF>20250131", "<BALAMT>950.00<DTASOF>20250228"))
    with Ledger() as ledger:
        import_file(ledger, tmp_path / "jan.ofx")
        assert import_file(ledger, tmp_path / "mar.ofx").warnings == [
            "Checking 5123: the statement's balance 500.00 on 2025-03-31 cannot be checked against the 1000.00 known on"
            " 2025-01-31: the ledger has no row from 2025-02-01 to 2025-02-28 (a download of those days not imported yet?)"
        ]
    monkeypatch.setenv("WILSON_HOME", str(tmp_path / "other"))  # a fresh ledger
    with Ledger() as ledger:
        import_file(ledger, tmp_path / "jan.ofx")
        assert import_file(ledger, tmp_path / "feb.ofx").warnings == [
            "Checking 5123: the statement's balance 950.00 on 2025-02-28 is -10.00 off the 1000.00 known on 2025-01-31"
            " and the rows between: a row may be missing, or in the ledger twice"
        ]


PENDING_FILE = """Type,Product,Started Date,Completed Date,Description,Amount,Fee,Currency,State,Balance
CARD_PAYMENT,Current,2025-01-10 10:00:00,,Coffee Bar,-4.50,0.00,EUR,PENDING,
CARD_PAYMENT,Current,2025-01-09 09:00:00,2025-01-09 12:00:00,Bakery,-3.20,0.00,EUR,COMPLETED,96.80
CARD_PAYMENT,Current,2025-01-08 09:00:00,,Shoe Shop,-60.00,0.00,EUR,REVERTED,
TOPUP,Current,2025-01-01 09:00:00,2025-01-01 09:05:00,Top-up,100.00,0.00,EUR,COMPLETED,100.00
"""
POSTED_FILE = """Type,Product,Started Date,Completed Date,Description,Amount,Fee,Currency,State,Balance
CARD_PAYMENT,Current,2025-01-10 10:00:00,2025-01-11 08:00:00,Coffee Bar,-4.50,0.00,EUR,COMPLETED,92.30
CARD_PAYMENT,Current,2025-01-09 09:00:00,2025-01-09 12:00:00,Bakery,-3.20,0.00,EUR,COMPLETED,96.80
TOPUP,Current,2025-01-01 09:00:00,2025-01-01 09:05:00,Top-up,100.00,0.00,EUR,COMPLETED,100.00
"""


def test_pending_rows_never_count_and_are_replaced_not_doubled(tmp_path: Path) -> None:
    with Ledger() as ledger:
        first = import_file(ledger, write(tmp_path, "jan.csv", PENDING_FILE, header=""))
        assert first.reverted_skipped == 1
        assert first.pending_added == 1
        assert ledger.scalar("SELECT COUNT(*) FROM transactions WHERE description = 'Shoe Shop'") == 0
        second = import_file(ledger, write(tmp_path, "jan2.csv", POSTED_FILE, header=""))
        coffee = rows(ledger, "description = 'Coffee Bar'")
        assert [(r["amount"], r["pending"]) for r in coffee] == [(-450, 0)]
        assert second.added == 1
        assert ledger.scalar("SELECT SUM(amount) FROM transactions WHERE pending = 0") == 10000 - 320 - 450
        undo_batch(ledger, second.batch_id)
        assert [(r["amount"], r["pending"]) for r in rows(ledger, "description = 'Coffee Bar'")] == [(-450, 1)]


PAYPAL_MEMO = """\ufeff"Date","Time","TimeZone","Name","Type","Status","Currency","Gross","Fee","Net","Transaction ID","Reference Txn ID","Balance","Balance Impact"
"02/01/2025","10:00:00","GMT","Shop","General Authorization","Completed","GBP","-50.00","0.00","-50.00","3AA","","0.00","Memo"
"04/01/2025","10:00:00","GMT","Shop","Express Checkout Payment","Completed","GBP","-50.00","0.00","-50.00","3AB","3AA","-50.00","Debit"
"04/01/2025","10:00:00","GMT","","Bank Deposit to PP Account","Completed","GBP","50.00","0.00","50.00","3AC","3AB","0.00","Credit"
"06/01/2025","10:00:00","GMT","Seller","Order","Completed","GBP","-30.00","0.00","-30.00","3AD","","0.00","Memo"
"""


def test_paypal_memo_rows_are_counted_as_never_booked_and_the_running_balance_agrees(tmp_path: Path) -> None:
    with Ledger() as ledger:
        summary = import_file(ledger, write(tmp_path, "Download.CSV", PAYPAL_MEMO, header=""))
        assert (summary.added, summary.rows_read, summary.reverted_skipped, summary.warnings) == (2, 4, 2, [])
        assert [r["amount"] for r in rows(ledger)] == [-5000, 5000]
        assert ledger.query_one("SELECT balance, balance_date FROM accounts") == {"balance": 0, "balance_date": "2025-01-04"}


@pytest.mark.parametrize("older_first", [True, False])
def test_a_hold_a_later_download_no_longer_lists_is_retired_in_either_order(tmp_path: Path, older_first: bool) -> None:
    """The coffee's hold was declined: the later download covers its day and lists it no more.
    Imported in date order it retires the hold; imported first, it keeps the hold from coming in."""
    declined = POSTED_FILE.replace(
        "CARD_PAYMENT,Current,2025-01-10 10:00:00,2025-01-11 08:00:00,Coffee Bar,-4.50,0.00,EUR,COMPLETED,92.30\n",
        "CARD_PAYMENT,Current,2025-01-12 10:00:00,2025-01-12 11:00:00,Grocer,-6.80,0.00,EUR,COMPLETED,90.00\n",
    )
    older, later = write(tmp_path, "jan.csv", PENDING_FILE, header=""), write(tmp_path, "jan2.csv", declined, header="")
    with Ledger() as ledger:
        for path in (older, later) if older_first else (later, older):
            import_file(ledger, path)
        assert rows(ledger, "pending = 1") == []
        assert sorted(r["description"] for r in rows(ledger)) == ["Bakery", "Grocer", "Top-up"]


def test_transfer_legs_between_own_accounts_are_linked(tmp_path: Path) -> None:
    checking = write(tmp_path, "checking.csv", "2025-03-01,PAYROLL,3000.00\n2025-03-05,ONLINE TRANSFER TO SAVINGS,-500.00\n")
    savings = write(tmp_path, "savings.csv", "2025-03-06,TRANSFER FROM CHECKING,500.00\n2025-03-31,INTEREST,1.25\n")
    with Ledger() as ledger:
        import_file(ledger, checking, account="Checking")
        summary = import_file(ledger, savings, account="Savings")
        assert summary.transfers_linked == 1
        legs = ledger.query("SELECT id, transfer_id, amount FROM transactions WHERE transfer_id IS NOT NULL ORDER BY id")
        assert [leg["amount"] for leg in legs] == [-50000, 50000]
        assert legs[0]["transfer_id"] == legs[1]["id"] and legs[1]["transfer_id"] == legs[0]["id"]
        assert ledger.scalar("SELECT COUNT(*) FROM transactions WHERE transfer_id IS NULL") == 2


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"", "empty"),
        (b"\x00\x01\x02\x03binary\xff\xfe" * 50, ""),
        (b"Date,Description,Amount\n", "no"),
        (b"just some words\nthat are not an export\n", "not a recognisable"),
    ],
)
def test_unreadable_files_are_refused_with_nothing_written(tmp_path: Path, body: bytes, message: str) -> None:
    path = tmp_path / "bad.csv"
    path.write_bytes(body)
    with Ledger() as ledger:
        with pytest.raises(ImportRefused) as refused:
            import_file(ledger, path)
        assert str(path) in str(refused.value) and message in str(refused.value)
        assert ledger.scalar("SELECT COUNT(*) FROM transactions") == 0
        assert ledger.scalar("SELECT COUNT(*) FROM accounts") == 0


def test_bad_rows_name_their_lines_and_skip_bad_imports_the_rest(tmp_path: Path) -> None:
    body = "2025-01-01,GOOD,-1.00\n2025-13-45,BAD DATE,-2.00\n2025-01-03,BAD AMOUNT,abc\n2025-01-04,GOOD TOO,-4.00\n"
    path = write(tmp_path, "rows.csv", body)
    with Ledger() as ledger:
        with pytest.raises(ImportRefused) as refused:
            import_file(ledger, path)
        text = str(refused.value)
        assert "line 3" in text and "line 4" in text and refused.value.skippable
        assert ledger.scalar("SELECT COUNT(*) FROM transactions") == 0
    told = CliRunner().invoke(main, ["import", str(path)])
    assert told.exit_code == 1 and "line 3" in told.output and "fix them or use --skip-bad" in told.output
    with Ledger() as ledger:
        summary = import_file(ledger, path, skip_bad=True)
        assert summary.added == 2 and len(summary.skipped_bad) == 2


@pytest.mark.parametrize(
    ("body", "header"),
    [
        ("03.01.2025;KAFFEE;-4,50\n04.01.2025;A;1.234.567,89.0\n06.01.2025;C;-20,00\n", "Datum;Buchungstext;Betrag\n"),
        ("2025-01-03,COFFEE,-4.50\n2025-01-04,A,1.234.567,89.0\n2025-01-05,B,--5\n2025-01-06,C,-20.00\n", HEADER),
    ],
)
def test_a_skipped_row_has_no_say_in_how_the_others_read(tmp_path: Path, body: str, header: str) -> None:
    with Ledger() as ledger:
        summary = import_file(ledger, write(tmp_path, "bad.csv", body, header), skip_bad=True)
        assert [line.split(",")[0].split(":")[0] for line in summary.skipped_bad] == ["line 3", "line 4"][: 1 + ("--5" in body)]
        assert [r["amount"] for r in rows(ledger)] == [-450, -2000]


def test_qif_transfers_and_opening_balance_are_neither_income_nor_spending(tmp_path: Path) -> None:
    qif = (
        "!Type:Bank\nD1/ 1' 5\nT1,000.00\nPOpening Balance\nL[Checking]\n^\n"
        "D1/ 6' 5\nT-500.00\nPTo savings\nL[Savings]\n^\n"  # the savings account is not in the ledger
        "D1/ 7' 5\nT-75.00\nPGas Co\nLUtilities:Gas/Home\n^\n"  # the user's own category, with a class
    )
    with Ledger() as ledger:
        import_file(ledger, write(tmp_path, "checking.qif", qif, header=""))
        kinds = ledger.query(
            "SELECT t.amount, c.name, c.kind, p.name AS parent FROM transactions t JOIN categories c ON c.id = t.category_id"
            " LEFT JOIN categories p ON p.id = c.parent_id ORDER BY t.id"
        )
        assert [(k["amount"], k["name"], k["kind"], k["parent"]) for k in kinds] == [
            (100000, "Transfer", "transfer", None), (-50000, "Transfer", "transfer", None), (-7500, "Gas", "expense", "Utilities"),
        ]


def test_megabyte_description_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "huge.csv", f"2025-01-01,{'X' * 2_000_000},-1.00\n2025-01-02,OK,-2.00\n")
    with Ledger() as ledger:
        with pytest.raises(ImportRefused, match="line 2"):
            import_file(ledger, path)
        assert ledger.scalar("SELECT COUNT(*) FROM transactions") == 0


def test_cli_errors_are_one_line_without_traceback(tmp_path: Path) -> None:
    runner = CliRunner()
    missing = runner.invoke(main, ["import", str(tmp_path / "nope.csv")])
    assert missing.exit_code == 1
    assert "no such file" in missing.output and "Traceback" not in missing.output
    assert len(missing.output.strip().splitlines()) == 1
    mistyped = runner.invoke(main, ["import", "--undo", "three"])
    assert mistyped.exit_code == 2
    assert mistyped.output.strip().splitlines() == [
        "wilson: Invalid value for '--undo': 'three' is not a valid integer. (see wilson import --help)"
    ]


def test_odd_paths_are_one_line_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A symlink loop, a name holding a line break, an endless stream (`/dev/zero`: it states no
    size, so the read stops at the limit), and a batch number SQLite cannot hold."""
    from wilson.importers import formats

    (tmp_path / "loop_a").symlink_to(tmp_path / "loop_b")
    (tmp_path / "loop_b").symlink_to(tmp_path / "loop_a")
    odd = write(tmp_path, "bad\nrow.csv", "2025-01-02,X,abc\n")
    monkeypatch.setattr(formats, "MAX_FILE_BYTES", 1024 * 1024)
    endless = ["/dev/zero"] if Path("/dev/zero").exists() else []
    for target in [str(tmp_path / "loop_a"), str(odd), *endless]:
        result = CliRunner().invoke(main, ["import", target])
        assert result.exit_code == 1 and len(result.output.strip().splitlines()) == 1, result.output
    assert "too many levels of symbolic links" in CliRunner().invoke(main, ["import", str(tmp_path / "loop_a")]).output
    if endless:
        assert "more than 1 MB to read" in CliRunner().invoke(main, ["import", "/dev/zero"]).output
    assert CliRunner().invoke(main, ["import", "--undo", str(2**70)]).output == f"wilson: no import batch {2**70}\n"
    fine = write(tmp_path, "two\nlines.csv", "2025-01-02,X,-1.00\n")
    summary = CliRunner().invoke(main, ["import", str(fine)]).output.splitlines()[0]
    assert summary.startswith(f"{tmp_path}/two\\nlines.csv (generic_csv)")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_named_pipe_is_read_once(tmp_path: Path) -> None:
    """`wilson import <(unzip -p export.zip)`: a pipe can be read only once, so the batch's hash
    comes from the bytes parsed, not from a second read that would hang or find nothing."""
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    feeder = threading.Thread(target=lambda: pipe.write_text(JAN_FEB))
    feeder.start()
    with Ledger() as ledger:
        summary = import_file(ledger, pipe, account="Checking")
        feeder.join(timeout=10)
        digest = ledger.scalar("SELECT file_hash FROM import_batches")
    assert summary.added == 5 and digest == hashlib.sha256(JAN_FEB.encode()).hexdigest()


def test_interrupted_import_leaves_ledger_as_it_was(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from wilson.importers import pipeline

    path = write(tmp_path, "a.csv", JAN_FEB)

    def explode(*args: object) -> list[str]:
        raise KeyboardInterrupt

    with Ledger() as ledger:
        monkeypatch.setattr(pipeline, "_apply_balances", explode)
        with pytest.raises(KeyboardInterrupt):
            import_file(ledger, path)
        assert ledger.scalar("SELECT COUNT(*) FROM transactions") == 0
        assert ledger.scalar("SELECT COUNT(*) FROM import_batches") == 0
        assert ledger.scalar("SELECT COUNT(*) FROM accounts") == 0


def test_killed_import_process_leaves_ledger_whole(tmp_path: Path, wilson_home: Path) -> None:
    """SIGKILL part way through a large import: afterwards the ledger has all of it or none of it."""
    lines = "".join(f"2024-{1 + i % 12:02d}-{1 + i % 28:02d},SHOP {i},-{1 + i % 500}.{i % 100:02d}\n" for i in range(150_000))
    path = write(tmp_path, "big.csv", lines)
    proc = subprocess.Popen(
        [sys.executable, "-m", "wilson", "import", str(path)], env=dict(os.environ, WILSON_HOME=str(wilson_home)),
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    db = wilson_home / "wilson.db"
    deadline = time.monotonic() + 20
    while not (wilson_home / "wilson.db-wal").exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.4)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert db.exists()
    with Ledger() as ledger:
        assert ledger.scalar("SELECT COUNT(*) FROM transactions") in (0, 150_000)
        assert ledger.scalar("PRAGMA integrity_check") == "ok"


def test_accounts_named_by_the_file_get_a_fitting_type(fixture_path) -> None:  # type: ignore[no-untyped-def]
    with Ledger() as ledger:
        summary = import_file(ledger, fixture_path("csv2ofx/mint_extra.csv"))
        assert sorted(summary.accounts) == ["Checking", "Savings"]
        types = {a["name"]: a["type"] for a in ledger.accounts()}
        assert types == {"Checking": "checking", "Savings": "savings"}


def test_cli_import_categorises_known_merchants_and_card_payments(fixture_path) -> None:  # type: ignore[no-untyped-def]
    runner = CliRunner()
    out = runner.invoke(main, ["import", "--json", str(fixture_path("written/chase_credit.csv"))])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["categorized"] >= 1
    with Ledger() as ledger:
        payment = ledger.query_one(
            "SELECT c.name, c.kind FROM transactions t JOIN categories c ON c.id = t.category_id"
            " WHERE t.description LIKE 'Payment Thank You%'"
        )
    assert payment == {"name": "Credit Card Payment", "kind": "transfer"}


def test_monthly_aggregate_follows_imports_and_undo(tmp_path: Path) -> None:
    """Batches fill the report aggregate in bulk; it must equal a rebuild from the rows at every step."""
    from wilson.ledger.aggregates import rebuild_monthly_flows

    def snapshot(ledger: Ledger) -> list[tuple]:
        return [tuple(r.values()) for r in ledger.query("SELECT * FROM monthly_flows ORDER BY 1, 2, 3, 4, 5, 6")]

    def rebuilt(ledger: Ledger) -> list[tuple]:
        with pytest.raises(RuntimeError), ledger.write() as conn:
            rebuild_monthly_flows(conn)
            fresh = snapshot(ledger)
            raise RuntimeError("roll the rebuild back")
        return fresh

    with Ledger() as ledger:
        first = import_file(ledger, write(tmp_path, "jan.csv", PENDING_FILE, header=""))
        import_file(ledger, write(tmp_path, "a.csv", JAN_FEB), account="Checking")
        second = import_file(ledger, write(tmp_path, "jan2.csv", POSTED_FILE, header=""))
        assert snapshot(ledger) == rebuilt(ledger) and snapshot(ledger)
        undo_batch(ledger, second.batch_id)
        undo_batch(ledger, first.batch_id)
        assert snapshot(ledger) == rebuilt(ledger)


@pytest.mark.parametrize(
    ("first", "second", "account"),
    [
        ("Checking_Activity_2025-01-31.csv", "Checking_Activity_2025-02-28 (1).csv", "Checking"),
        ("statement-jan-2025.csv", "statement-february-2025.csv", "Imported"),
        ("MS_JANE_SMITH_01-12-2019_14-12-2019.csv", "MS_JANE_SMITH_01-01-2020_14-01-2020.csv", "MS JANE SMITH"),
        ("MonzoDataExport_February2018_2018-02-26_174335.csv", "MonzoDataExport_March2018_2018-03-26_101010.csv", "MonzoDataExport"),
        ("MonzoDataExport_28Jul-27Aug_2025-08-25_094131.csv", "MonzoDataExport_28Aug-27Sep_2025-09-25_101010.csv", "MonzoDataExport"),
        ("account-statement_2024-12-01_2024-12-31_en-gb_8a1b2c.csv", "account-statement_2025-01-01_2025-01-31_en-gb_9f3e1d.csv", "account"),
        ("Visa 1234 2025-01.csv", "Visa 1234 2025-02.csv", "Visa 1234"),
        ("Acct_4567_202501.csv", "Acct_4567_202502.csv", "Acct 4567"),
        ("Checking_2026-04-01_to_2026-05-23.csv", "Checking_2026-05-01_to_2026-06-30.csv", "Checking"),
        ("ING_Girokonto_DE12345_20250131.csv", "ING_Girokonto_DE12345_20250228.csv", "ING Girokonto DE12345"),
        ("Privatkonto 1234 - 2025.01.31 10.11.csv", "Privatkonto 1234 - 2025.02.28 09.05.csv", "Privatkonto 1234"),
        ("movimenti_31_01_2025_10_11_12.csv", "movimenti_28_02_2025_08_15_00.csv", "movimenti"),
        ("stmt 31 01 2025 1234.csv", "stmt 28 02 2025 1234.csv", "stmt 1234"),  # an ending, not a time
    ],
)
def test_monthly_exports_of_an_unnamed_account_land_in_one_account(tmp_path: Path, first: str, second: str, account: str) -> None:
    with Ledger() as ledger:
        import_file(ledger, write(tmp_path, first, JAN_FEB))
        overlap = import_file(ledger, write(tmp_path, second, FEB_MAR))
        assert overlap.accounts == [account] and (overlap.added, overlap.duplicates) == (2, 2)
        assert [a["name"] for a in ledger.accounts()] == [account]


def _index_sql(ledger: Ledger) -> list[tuple]:
    return [tuple(r.values()) for r in ledger.query(
        "SELECT type, name, sql FROM sqlite_master WHERE type IN ('index', 'trigger') AND tbl_name = 'transactions'"
        " ORDER BY name")]


def test_fingerprints_keep_their_formula_so_older_ledgers_still_deduplicate() -> None:
    from wilson.importers.pipeline import fingerprints

    # blake2b-64 of "2025-01-05|-575|coffee shop|0|n", signed big-endian: stored in every ledger so far.
    assert fingerprints([1, 1, 2], ["2025-01-05"] * 3, [-575] * 3, ["coffee shop"] * 3, [False] * 3) == [
        _blake("2025-01-05|-575|coffee shop|0|0"), _blake("2025-01-05|-575|coffee shop|0|1"),
        _blake("2025-01-05|-575|coffee shop|0|0"),
    ]
    # Every row pending, and a column mixing both, give the same formula.
    assert fingerprints([1, 1], ["2025-01-05"] * 2, [-575, 120], ["coffee shop"] * 2, [True] * 2) == [
        _blake("2025-01-05|-575|coffee shop|1|0"), _blake("2025-01-05|120|coffee shop|1|0"),
    ]
    assert fingerprints([1, 1], ["2025-01-05"] * 2, [-575] * 2, ["coffee shop"] * 2, [True, False]) == [
        _blake("2025-01-05|-575|coffee shop|1|0"), _blake("2025-01-05|-575|coffee shop|0|0"),
    ]


def _blake(material: str) -> int:
    import hashlib

    return int.from_bytes(hashlib.blake2b(material.encode(), digest_size=8).digest(), "big", signed=True)


def test_a_big_first_import_rebuilds_the_indexes_and_triggers_it_dropped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from wilson.importers import pipeline

    lines = "".join(f"2024-{1 + i % 12:02d}-{1 + i % 28:02d},SHOP {i % 700},-{1 + i % 90}.{i % 100:02d}\n" for i in range(6000))
    path = write(tmp_path, "big.csv", lines)
    with Ledger() as ledger:
        before = _index_sql(ledger)
        monkeypatch.setattr(pipeline, "_apply_balances", lambda *a: (_ for _ in ()).throw(KeyboardInterrupt))
        with pytest.raises(KeyboardInterrupt):
            import_file(ledger, path)
        assert _index_sql(ledger) == before and ledger.scalar("SELECT COUNT(*) FROM transactions") == 0
        monkeypatch.undo()
        assert import_file(ledger, path).added == 6000
        assert _index_sql(ledger) == before
        plan = " ".join(r["detail"] for r in ledger.query(
            "EXPLAIN QUERY PLAN SELECT COUNT(*) FROM transactions WHERE posted BETWEEN '2024-03-01' AND '2024-03-31'"))
        assert "transactions_posted" in plan or "INDEX" in plan
        assert ledger.scalar("PRAGMA integrity_check") == "ok"
        assert import_file(ledger, path).duplicates == 6000


def test_constant_columns_are_written_as_literals_and_read_back_exactly(tmp_path: Path) -> None:
    """One value on every row (an account, a currency, an apostrophe in every description) is put in
    the INSERT as a literal; what comes back must be exactly what was parsed."""
    body = "".join(f"2025-03-{day:02d},O'Reilly's -- '); DROP TABLE transactions; --,-1.00\n" for day in range(1, 8))
    path = write(tmp_path, "constant.csv", body)
    with Ledger() as ledger:
        assert import_file(ledger, path).added == 7
        stored = ledger.query("SELECT DISTINCT description, amount, currency, pending, batch_id IS NOT NULL AS batched FROM transactions")
        assert stored == [{"description": "O'Reilly's -- '); DROP TABLE transactions; --", "amount": -100,
                           "currency": "USD", "pending": 0, "batched": 1}]
        assert import_file(ledger, path).duplicates == 7


def test_every_parser_hands_over_squeezed_descriptions() -> None:
    """Fingerprints and stored descriptions take the description as parsed, so every format must
    give it with single spaces and none at the ends (`ParsedRows.of` and the CSV engine do)."""
    from tests.conftest import FIXTURES
    from wilson.importers.formats import parse_file
    from wilson.importers.model import ParsedRows, squeeze

    checked = 0
    for path in sorted(p for p in FIXTURES.rglob("*") if p.is_file() and p.suffix.lower() in (".csv", ".ofx", ".qfx", ".qif")):
        try:
            rows = ParsedRows.of(parse_file(path).transactions)
        except ImportRefused:
            continue
        descriptions = rows.column("description")
        assert descriptions == [squeeze(d) for d in descriptions], path.name
        checked += 1
    assert checked >= 20
    text = "STARBUCKS #123 SEATTLE WA"
    assert squeeze(text) is text and squeeze(f" {text}\t") == text  # a squeezed column is not held twice


def test_pending_rows_that_carry_the_running_balance_are_part_of_its_chain(tmp_path: Path) -> None:
    """PayPal lists a pending bank deposit with the balance after it; the booked rows follow on."""
    body = (
        '"Date","Name","Type","Status","Currency","Gross","Fee","Net","Balance"\n'
        '"10/01/2019","Calm Radio","Subscription Payment","Completed","USD","-6.99","0.00","-6.99","-6.99"\n'
        '"10/01/2019","","Bank Deposit to PP Account","Pending","USD","6.99","0.00","6.99","0.00"\n'
        '"10/02/2019","Patreon","Subscription Payment","Completed","USD","-7.00","0.00","-7.00","-7.00"\n'
        '"10/02/2019","","Bank Deposit to PP Account","Pending","USD","7.00","0.00","7.00","0.00"\n'
    )
    with Ledger() as ledger:
        summary = import_file(ledger, write(tmp_path, "paypal.csv", body, header=""))
    assert (summary.added, summary.pending_added, summary.warnings) == (2, 2, [])


def test_a_row_the_bank_re_dated_is_known_by_its_fitid(tmp_path: Path) -> None:
    january, february = tmp_path / "jan.ofx", tmp_path / "feb.ofx"
    january.write_text(ofx([("20250130", "-42.10", "202501300042", "BOOKSHOP")]))
    february.write_text(ofx([("20250131", "-42.10", "202501300042", "BOOKSHOP"), ("20250203", "-9.00", "F2", "CAFE")]))
    with Ledger() as ledger:
        import_file(ledger, january)
        later = import_file(ledger, february)
        assert (later.added, later.duplicates) == (1, 1)


def test_corrections_replace_and_delete_rows_and_undo_restores_them(tmp_path: Path) -> None:
    before, corrected = tmp_path / "before.ofx", tmp_path / "corrected.ofx"
    before.write_text(ofx([("20250105", "-50.00", "T100", "GROCERY"), ("20250106", "-9.99", "T099", "NETFLIX")]))
    corrected.write_text(OFX_TEMPLATE.format(rows=(
        "<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20250105<TRNAMT>-55.00<FITID>T101<CORRECTFITID>T100<CORRECTACTION>REPLACE<NAME>GROCERY</STMTTRN>"
        "<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20250106<TRNAMT>-9.99<FITID>T102<CORRECTFITID>T099<CORRECTACTION>DELETE<NAME>NETFLIX</STMTTRN>"
        "<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20250107<TRNAMT>-1.00<FITID>T103<NAME>GUM</STMTTRN>"
        "<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20250107<TRNAMT>-2.00<FITID>T104<CORRECTFITID>T103<CORRECTACTION>REPLACE<NAME>GUM</STMTTRN>"
    )).replace("<BALAMT>1000.00<DTASOF>20250131", "<BALAMT>1002.99<DTASOF>20250207"))
    with Ledger() as ledger:
        import_file(ledger, before)
        summary = import_file(ledger, corrected)
        assert (summary.added, summary.corrected) == (2, 2)  # T101 and T104; T100 and T099 gone, T103 never booked
        assert summary.warnings == []  # the known balance was the bank's before its corrections: no row is missing
        assert [(r["description"], r["amount"]) for r in rows(ledger)] == [("GROCERY", -5500), ("GUM", -200)]
        undo_batch(ledger, summary.batch_id)
        assert sorted((r["description"], r["amount"]) for r in rows(ledger)) == [("GROCERY", -5000), ("NETFLIX", -999)]


def test_one_account_id_in_another_currency_gets_its_own_account(tmp_path: Path) -> None:
    euros, dollars = tmp_path / "eur.ofx", tmp_path / "usd.ofx"
    euros.write_text(ofx([("20250105", "-5.00", "E1", "CAFE")]).replace("<CURDEF>USD", "<CURDEF>EUR"))
    dollars.write_text(ofx([("20250106", "-7.00", "U1", "DINER")]))
    with Ledger() as ledger:
        import_file(ledger, euros)
        import_file(ledger, dollars)
        accounts = ledger.query("SELECT name, currency, number FROM accounts ORDER BY id")
        assert [(a["currency"], a["number"]) for a in accounts] == [("EUR", "555123"), ("USD", "555123")]
        assert ledger.query("SELECT currency FROM transactions ORDER BY id") == [{"currency": "EUR"}, {"currency": "USD"}]


def test_two_accounts_of_one_product_stay_apart_by_the_digits_in_chases_file_names(tmp_path: Path) -> None:
    header = "Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #,\n"
    fee = "DEBIT,01/31/2025,MONTHLY SERVICE FEE,-12.00,FEE_TRANSACTION,988.00,,\n"
    first, second = write(tmp_path, "Chase1234_Activity_20250201.CSV", fee, header), write(tmp_path, "Chase5678_Activity_20250201.CSV", fee, header)
    with Ledger() as ledger:
        assert import_file(ledger, first).accounts == ["Chase Checking …1234"]
        other = import_file(ledger, second)
        assert (other.accounts, other.added) == (["Chase Checking …5678"], 1)  # its fee is its own, not a duplicate


def test_next_months_download_follows_the_first_one_imported_with_account(tmp_path: Path) -> None:
    """January went into "Joint Checking" by --account; February's download, named the same way and
    overlapping by one row, goes there too. A file named like no earlier one opens its own account."""
    header = "Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #,\n"
    january = "DEBIT,01/31/2024,GROCER,-30.00,DEBIT_CARD,970.00,,\nCREDIT,01/02/2024,PAYROLL,1000.00,ACH_CREDIT,1000.00,,\n"
    february = "DEBIT,02/12/2024,RENT,-500.00,ACH_DEBIT,470.00,,\nDEBIT,01/31/2024,GROCER,-30.00,DEBIT_CARD,970.00,,\n"
    with Ledger() as ledger:
        import_file(ledger, write(tmp_path, "Chase1234_Activity_20240131.CSV", january, header), account="Joint Checking")
        next_month = import_file(ledger, write(tmp_path, "Chase1234_Activity_20240229.CSV", february, header))
        assert (next_month.accounts, next_month.added, next_month.duplicates) == (["Joint Checking"], 1, 1)
        other = import_file(ledger, write(tmp_path, "Chase5678_Activity_20240229.CSV", february, header))
        assert other.accounts == ["Chase Checking …5678"]
    # A bank that names every account's download alike: the savings file shares the chequing's days, not its rows.
    chequing = "".join(f"DEBIT,03/{day:02d}/2024,SHOP {day},-{day}.00,DEBIT_CARD,,,\n" for day in range(2, 30, 4))
    savings = "CREDIT,03/05/2024,TRANSFER FROM CHEQUING,500.00,ACH_CREDIT,,,\nCREDIT,03/28/2024,INTEREST,1.20,ACH_CREDIT,,,\n"
    (tmp_path / "sav").mkdir()
    with Ledger() as ledger:
        import_file(ledger, write(tmp_path, "accountactivity.csv", chequing, header), account="TD Chequing")
        assert import_file(ledger, write(tmp_path / "sav", "accountactivity.csv", savings, header)).accounts != ["TD Chequing"]


def test_a_renamed_download_goes_to_the_account_already_holding_its_rows(tmp_path: Path) -> None:
    """Named by nothing the ledger knows, a file whose overlap is already an account's is that
    account's next month, not a new account taking the overlap a second time."""
    header = "Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #,\n"
    september = "DEBIT,09/12/2026,GROCER,-30.00,DEBIT_CARD,970.00,,\nDEBIT,09/10/2026,COFFEE,-5.00,DEBIT_CARD,1000.00,,\nCREDIT,09/01/2026,PAYROLL,1005.00,ACH_CREDIT,1005.00,,\n"
    october = "DEBIT,10/02/2026,RENT,-500.00,ACH_DEBIT,470.00,,\n" + september
    with Ledger() as ledger:
        import_file(ledger, write(tmp_path, "Chase1234_Activity_20260912.CSV", september, header))
        renamed = import_file(ledger, write(tmp_path, "checking oct.csv", october, header))
        assert (renamed.accounts, renamed.added, renamed.duplicates) == (["Chase Checking …1234"], 1, 3)
        assert renamed.warnings == ["no account is named Chase Checking; Chase Checking …1234 holds the rows it shares"
                                    " dates with, so it went there (to send it elsewhere, give --account)"]
        other = import_file(ledger, write(tmp_path, "savings.csv", "10/02/2026,INTEREST,1.00\n"))
        assert other.accounts == ["savings"]


def test_a_file_whose_rows_hardly_match_its_accounts_on_shared_dates_says_so(tmp_path: Path) -> None:
    """Two accounts' exports with one default name (a bank's checking and savings, both `stmt.csv`):
    nothing in them names the account, so they land together, but the user is told."""
    (tmp_path / "savings").mkdir()
    checking = "".join(f"2025-01-{day:02d},SHOP {day},-{day}.00\n" for day in range(2, 30, 3))
    savings = "2025-01-05,INTEREST,1.10\n2025-01-12,TRANSFER FROM CHECKING,200.00\n2025-01-20,ATM FEE,-2.50\n2025-01-25,SHOP 26,-26.00\n"
    with Ledger() as ledger:
        import_file(ledger, write(tmp_path, "stmt.csv", checking))
        other = import_file(ledger, write(tmp_path / "savings", "stmt.csv", savings))
        assert other.warnings == ["stmt already holds 7 row(s) on the dates this file covers, and only 0 of its 4 match them:"
                                  " if it is another account's, undo it and name that account with --account"]
        again = import_file(ledger, write(tmp_path, "stmt.csv", checking + "2025-01-31,SHOP 31,-31.00\n"))
        assert again.warnings == []  # the next download of the same account
        (tmp_path / "pocket").mkdir()  # a savings pocket's two rows: few, but none of the account's on its dates
        pocket = import_file(ledger, write(tmp_path / "pocket", "stmt.csv", "2025-01-06,INTEREST,0.40\n2025-01-21,INTEREST,0.41\n"))
        assert pocket.warnings == ["stmt already holds 7 row(s) on the dates this file covers, and only 0 of its 2 match them:"
                                   " if it is another account's, undo it and name that account with --account"]


def test_a_card_sharing_a_days_subscriptions_with_another_is_not_that_card(tmp_path: Path) -> None:
    mine = "2026-02-05,HEB GROCERY,-82.10\n2026-02-15,SHELL OIL,-41.00\n2026-03-01,NETFLIX.COM,-15.49\n2026-03-01,SPOTIFY USA,-11.99\n"
    spouse = "2026-03-01,NETFLIX.COM,-15.49\n2026-03-01,SPOTIFY USA,-11.99\n2026-03-03,TARGET T-1234,-54.20\n2026-03-07,STARBUCKS,-6.45\n"
    with Ledger() as ledger:
        import_file(ledger, write(tmp_path, "mine.csv", mine), account="My Visa")
        other = import_file(ledger, write(tmp_path, "joint visa.csv", spouse))
        assert (other.accounts, other.added) == (["joint visa"], 4)


def test_the_next_download_is_recognised_though_its_last_hold_has_posted_since(tmp_path: Path) -> None:
    march = "2026-03-02,GROCER,-20.00,Posted\n2026-03-05,FUEL,-30.00,Posted\n2026-03-08,BOOKS,-12.00,Posted\n2026-03-10,DINER,-25.00,Pending\n"
    april = "2026-03-02,GROCER,-20.00,Posted\n2026-03-05,FUEL,-30.00,Posted\n2026-03-08,BOOKS,-12.00,Posted\n2026-03-11,DINER,-30.00,Posted\n"
    with Ledger() as ledger:
        import_file(ledger, write(tmp_path, "march.csv", march, STATUS_HEAD), account="Card")
        assert import_file(ledger, write(tmp_path, "download.csv", april, STATUS_HEAD)).accounts == ["Card"]


def test_a_file_in_another_currency_is_never_recognised_as_an_account_in_one(tmp_path: Path) -> None:
    rows_ = "2026-03-02,GROCER,-20.00\n2026-03-05,FUEL,-30.00\n2026-03-08,BOOKS,-12.00\n"
    (tmp_path / "cad").mkdir()
    with Ledger() as ledger:
        import_file(ledger, write(tmp_path, "scotia.csv", rows_, "Date,Description,Amount (USD)\n"))
        assert import_file(ledger, write(tmp_path / "cad", "scotia.csv", rows_, "Date,Description,Amount (CAD)\n")).accounts == ["scotia CAD"]


def test_a_refund_or_a_payment_to_someone_else_is_not_a_transfer_leg(tmp_path: Path) -> None:
    checking = write(tmp_path, "checking.csv", "2025-04-03,ZELLE TRANSFER TO JOHN SMITH,-50.00\n")
    card = write(tmp_path, "visa.csv", "2025-04-04,AMAZON.COM REFUND,50.00\n2025-04-05,GROCER,-20.00\n")
    with Ledger() as ledger:
        import_file(ledger, checking, account="Checking")
        assert import_file(ledger, card, account="Visa").transfers_linked == 0


def test_undo_takes_back_the_transfer_category_it_gave_an_earlier_row(tmp_path: Path) -> None:
    checking = write(tmp_path, "checking.csv", "2025-03-01,PAYROLL,3000.00\n2025-03-05,ONLINE TRANSFER TO SAVINGS,-500.00\n")
    savings = write(tmp_path, "savings.csv", "2025-03-06,TRANSFER FROM CHECKING,500.00\n")
    with Ledger() as ledger:
        import_file(ledger, checking, account="Checking")
        before = rows(ledger)
        categories = ledger.query("SELECT category_id, category_source FROM transactions ORDER BY id")
        batch = import_file(ledger, savings, account="Savings").batch_id
        undo_batch(ledger, batch)
        assert rows(ledger) == before
        assert ledger.query("SELECT category_id, category_source FROM transactions ORDER BY id") == categories


STATUS_HEAD = "Date,Description,Amount,Status\n"
PENDING_THEN_POSTED = [  # a posted file, one with a pending row, one that no longer lists it, a later one
    "01/02/2025,AMAZON,-23.99,Posted\n",
    "01/14/2025,WHOLE FOODS,-45.20,Pending\n",
    "01/02/2025,AMAZON,-23.99,Posted\n01/20/2025,CHEVRON,-38.00,Posted\n",
    "02/03/2025,SPOTIFY,-11.99,Posted\n",
]


def import_batches(ledger: Ledger, tmp_path: Path, bodies: list[str]) -> list[int]:
    return [
        import_file(ledger, write(tmp_path, f"u{n}.csv", body, STATUS_HEAD), account="Card").batch_id
        for n, body in enumerate(bodies, 1)
    ]


HOLDS = [  # downloads that do not overlap: a declined hold, and a $1 fuel hold that posts for $48.10
    "10/01/2026,COFFEE,-4.50,Posted\n10/14/2026,DELTA AIR LINES,-420.00,Pending\n10/15/2026,SHELL OIL 57442,-1.00,Pending\n",
    "10/16/2026,SHELL OIL 57442,-48.10,Posted\n10/20/2026,GROCER,-30.00,Posted\n10/30/2026,CHIPOTLE,-13.20,Pending\n",
]


@pytest.mark.parametrize("order", [[0, 1], [1, 0]])
def test_a_hold_no_later_download_lists_does_not_pend_forever(tmp_path: Path, order: list[int]) -> None:
    """A file reaching two weeks past a hold it does not list retires it, and the same holds when
    the newer file came first; whichever the order, the ledger ends the same."""
    with Ledger() as ledger:
        import_batches(ledger, tmp_path, [HOLDS[i] for i in order])
        assert [r["description"] for r in rows(ledger, "pending = 1")] == ["CHIPOTLE"]
        assert len(rows(ledger, "pending = 0")) == 3


def test_undo_restores_a_replaced_pending_row_whose_id_a_later_row_took(tmp_path: Path) -> None:
    with Ledger() as ledger:
        batches = import_batches(ledger, tmp_path, PENDING_THEN_POSTED)
        undo_batch(ledger, batches[2])  # it replaced the pending WHOLE FOODS; SPOTIFY now has that id
        assert sorted((r["description"], r["pending"]) for r in rows(ledger)) == [
            ("AMAZON", 0), ("SPOTIFY", 0), ("WHOLE FOODS", 1),
        ]


def test_undoing_the_download_that_booked_a_hold_keeps_it_booked_where_a_later_one_lists_it(tmp_path: Path) -> None:
    """A hold, the download that books it (for a tip more), and a later one that lists it booked:
    undone, the middle one's booked row is the later one's, and the hold stays gone (the later file
    covers its day without it). The ledger is the one the first and last files make."""
    bodies = [
        "03/01/2025,AMAZON,-23.99,Posted\n03/14/2025,CAFE ROMA,-40.00,Pending\n",
        "03/01/2025,AMAZON,-23.99,Posted\n03/16/2025,CAFE ROMA,-46.00,Posted\n03/18/2025,CHEVRON,-38.00,Posted\n",
        "03/14/2025,BAKERY,-3.00,Posted\n03/16/2025,CAFE ROMA,-46.00,Posted\n03/18/2025,CHEVRON,-38.00,Posted\n"
        "03/25/2025,SPOTIFY,-11.99,Posted\n",
    ]
    with Ledger() as ledger:
        batches = import_batches(ledger, tmp_path, bodies)
        undone = undo_batch(ledger, batches[1])
        assert (undone.removed, [(b["batch_id"], b["rows"]) for b in undone.kept_by]) == (0, [(batches[2], 2)])
        assert sorted((r["description"], r["amount"], r["pending"]) for r in rows(ledger)) == [
            ("AMAZON", -2399, 0), ("BAKERY", -300, 0), ("CAFE ROMA", -4600, 0), ("CHEVRON", -3800, 0), ("SPOTIFY", -1199, 0),
        ]


def test_a_correction_undone_before_the_later_download_comes_back_when_that_goes_too(tmp_path: Path) -> None:
    """The dinner corrected by the second download, a third listing it corrected: undoing the
    second keeps the corrected row gone (the third covers its day), undoing the third then brings
    it back, as the first file, all that is left, lists it. The balance is that file's again."""
    def statement(rows: str, end: str, balance: str) -> str:
        return ("<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD<BANKACCTFROM><BANKID>1<ACCTID>555111<ACCTTYPE>CHECKING"
                f"</BANKACCTFROM><BANKTRANLIST><DTSTART>20250301<DTEND>{end}{rows}</BANKTRANLIST>"
                f"<LEDGERBAL><BALAMT>{balance}<DTASOF>{end}</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>")

    def trn(fitid: str, day: str, amount: str, name: str) -> str:
        return f"<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>{day}<TRNAMT>{amount}<FITID>{fitid}<NAME>{name}</STMTTRN>"

    starbucks, netflix = trn("X1", "20250303", "-5.00", "STARBUCKS"), trn("X3", "20250306", "-9.99", "NETFLIX.COM")
    files = [
        statement(starbucks + trn("X2", "20250305", "-20.00", "THE CHEESECAKE FACTORY") + netflix, "20250307", "965.01"),
        statement(starbucks + trn("X2", "20250305", "-24.00", "THE CHEESECAKE FACTORY") + netflix
                  + trn("X4", "20250312", "-30.00", "SHELL"), "20250314", "931.01"),
        statement(trn("X2", "20250305", "-24.00", "THE CHEESECAKE FACTORY") + netflix + trn("X4", "20250312", "-30.00", "SHELL")
                  + trn("X5", "20250318", "-12.00", "FEE"), "20250320", "919.01"),
    ]
    with Ledger() as ledger:
        batches = []
        for n, text in enumerate(files, 1):
            (tmp_path / f"f{n}.ofx").write_text(text)
            batches.append(import_file(ledger, tmp_path / f"f{n}.ofx").batch_id)
        undo_batch(ledger, batches[1])
        assert sorted(r["amount"] for r in rows(ledger)) == [-3000, -2400, -1200, -999, -500]
        undo_batch(ledger, batches[2])
        assert sorted(r["amount"] for r in rows(ledger)) == [-2000, -999, -500]
        assert ledger.query_one("SELECT balance, balance_date FROM accounts") == {"balance": 96501, "balance_date": "2025-03-07"}


def test_a_second_undo_waiting_for_the_first_finds_the_batch_undone(tmp_path: Path) -> None:
    """Two undos of one batch at once (two terminals): the one that waited for the write lock must
    see the batch undone, not put the pending row it had replaced back a second time."""
    with Ledger() as first, Ledger() as second:
        batches = import_batches(first, tmp_path, PENDING_THEN_POSTED)
        failed: list[Exception] = []

        def undo_again() -> None:
            try:
                undo_batch(second, batches[2])
            except LookupError as exc:
                failed.append(exc)

        with first.write():
            undo_batch(first, batches[2])
            waiting = threading.Thread(target=undo_again)
            waiting.start()
            time.sleep(0.3)  # the second undo is now queued behind this transaction
        waiting.join(timeout=30)
        assert failed and "already undone" in str(failed[0])
        assert sorted((r["description"], r["pending"]) for r in rows(first)) == [("AMAZON", 0), ("SPOTIFY", 0), ("WHOLE FOODS", 1)]


def test_an_older_export_imported_again_does_not_bring_back_a_pending_row(tmp_path: Path) -> None:
    head = "Date,Description,Amount,Status\n"
    older = write(tmp_path, "a.csv", "01/14/2025,WHOLE FOODS,-45.20,Pending\n01/02/2025,AMAZON,-23.99,Posted\n", head)
    newer = write(tmp_path, "b.csv", "01/15/2025,WHOLE FOODS MARKET,-45.20,Posted\n01/02/2025,AMAZON,-23.99,Posted\n", head)
    with Ledger() as ledger:
        for path in (older, newer, older):
            import_file(ledger, path, account="Card")
        assert [(r["description"], r["pending"]) for r in rows(ledger)] == [("AMAZON", 0), ("WHOLE FOODS MARKET", 0)]


def test_an_older_exports_holds_posted_since_are_pending_rows_skipped_not_duplicates(tmp_path: Path) -> None:
    head = "Date,Description,Amount,Status\n"
    newer = write(tmp_path, "new.csv", "06/01/2025,RENT,-900.00,Posted\n06/05/2025,FUEL,-48.10,Posted\n06/25/2025,BOOKS,-10.00,Posted\n", head)
    older = write(tmp_path, "old.csv", "06/01/2025,RENT,-900.00,Posted\n06/03/2025,FUEL HOLD,-1.00,Pending\n", head)
    with Ledger() as ledger:
        import_file(ledger, newer, account="Card")
        summary = import_file(ledger, older, account="Card")
        assert (summary.added, summary.duplicates, summary.pending_added, summary.pending_skipped) == (0, 1, 0, 1)


def test_a_dry_run_of_several_files_counts_what_the_earlier_ones_would_add(tmp_path: Path) -> None:
    first, second = write(tmp_path, "jan.csv", JAN_FEB), write(tmp_path, "feb.csv", FEB_MAR)
    out = CliRunner().invoke(main, ["import", "--dry-run", "--json", "--account", "Checking", str(first), str(second)])
    assert out.exit_code == 0, out.output
    assert [(s["added"], s["duplicates"], s["batch_id"]) for s in json.loads(out.output)] == [(5, 0, None), (2, 2, None)]
    with Ledger() as ledger:
        assert ledger.scalar("SELECT COUNT(*) FROM transactions") == 0 and ledger.scalar("SELECT COUNT(*) FROM accounts") == 0


def test_out_of_range_amounts_and_far_future_dates(tmp_path: Path) -> None:
    huge = write(tmp_path, "huge.csv", "2025-01-02,AMAZON,-23.99\n2025-01-03,BIG,-99999999999999999999999.00\n")
    with Ledger() as ledger:
        with pytest.raises(ImportRefused, match=r"line 3, column Amount: .* is out of range"):
            import_file(ledger, huge)
        assert import_file(ledger, huge, skip_bad=True).added == 1
        ahead = import_file(ledger, write(tmp_path, "ahead.csv", "2099-01-05,X,-1.00\n"))
        assert ahead.warnings == [
            "1 row(s) dated more than a year ahead (latest 2099-01-05): check the dates",
            "the file states no currency: ahead is opened in USD (undo and import with --currency to choose another)",
        ]
        long_ago = import_file(ledger, write(tmp_path, "old.csv", "1901-01-02,Y,-1.00\n2025-01-02,Z,-2.00\n"), account="Old")
        assert long_ago.warnings[0] == "1 row(s) dated before 1970 (earliest 1901-01-02): check the dates"


def test_undo_with_files_is_refused() -> None:
    out = CliRunner().invoke(main, ["import", "--undo", "1", "a.csv"])
    assert out.exit_code == 1 and "not both" in out.output


def test_a_name_that_merely_contains_credit_is_not_a_card(tmp_path: Path) -> None:
    with Ledger() as ledger:
        summary = import_file(ledger, write(tmp_path, "unicredit_it.csv", "2025-01-03,STIPENDIO,2500.00\n"))
        assert ledger.scalar("SELECT type FROM accounts WHERE name = ?", (summary.accounts[0],)) == "checking"


CARD_HEAD = "Transaction Date,Posted Date,Card No.,Description,Category,Debit,Credit,Status\n"


def test_capital_ones_pending_rows_settle_once_even_for_another_amount(tmp_path: Path) -> None:
    first = write(tmp_path, "march.csv", "2025-03-10,2025-03-10,4321,ONLINE PAYMENT THANK YOU,Payment/Credit,,500.00,Posted\n"
                  "2025-03-12,,4321,UBER TRIP,Travel,23.45,,Pending\n", CARD_HEAD)
    later = write(tmp_path, "march_b.csv", "2025-03-10,2025-03-10,4321,ONLINE PAYMENT THANK YOU,Payment/Credit,,500.00,Posted\n"
                  "2025-03-12,2025-03-13,4321,UBER TRIP,Travel,27.95,,Posted\n", CARD_HEAD)  # a tip added
    with Ledger() as ledger:
        assert import_file(ledger, first).pending_added == 1
        assert import_file(ledger, later).pending_replaced == 1
        again = import_file(ledger, first)  # the older file again
        assert (again.added, again.pending_added, again.duplicates) == (0, 0, 2)
        assert [(r["description"], r["amount"], r["pending"]) for r in rows(ledger, "description = 'UBER TRIP'")] == [
            ("UBER TRIP", -2795, 0),
        ]


def test_a_hold_settled_for_more_in_a_file_that_starts_after_it_is_replaced(tmp_path: Path) -> None:
    head = "Date,Description,Amount,Status\n"
    held = write(tmp_path, "Checking_2026-06-10.csv", "06/09/2026,SQ *JOES DINER,-40.00,Pending\n06/08/2026,WHOLE FOODS,-85.06,Posted\n", head)
    later = write(tmp_path, "Checking_2026-06-30.csv", "06/20/2026,TARGET,-31.13,Posted\n06/11/2026,SQ *JOES DINER,-47.00,Posted\n", head)
    with Ledger() as ledger:
        import_file(ledger, held)
        assert import_file(ledger, later).pending_replaced == 1  # the newer file's dates begin after the hold's
        assert ledger.scalar("SELECT COUNT(*) FROM transactions WHERE pending = 1") == 0
    with Ledger(tmp_path / "other.db") as ledger:  # the older file after the newer, and a 25% tip
        import_file(ledger, write(tmp_path, "Checking_2026-07-01.csv", "06/11/2026,SQ *JOES DINER,-50.00,Posted\n", head))
        assert import_file(ledger, held).pending_added == 0


def test_a_short_download_whose_recent_row_is_not_booked_yet(tmp_path: Path) -> None:
    head = "Transaction Date,Posting Date,Description,Amount\n"
    first = write(tmp_path, "Visa_2026-07-30.csv", "07/30/2026,,BLUE BOTTLE COFFEE,-59.25\n07/28/2026,07/30/2026,LYFT *RIDE,-29.88\n", head)
    later = write(tmp_path, "Visa_2026-08-06.csv", "08/04/2026,08/05/2026,SHELL OIL,-41.20\n"
                  "07/30/2026,08/01/2026,BLUE BOTTLE COFFEE,-59.25\n07/28/2026,07/30/2026,LYFT *RIDE,-29.88\n", head)
    with Ledger() as ledger:
        assert import_file(ledger, first).pending_added == 1  # one of two rows has no posting date yet
        assert import_file(ledger, later).pending_replaced == 1
        assert ledger.scalar("SELECT COUNT(*) FROM transactions WHERE description = 'BLUE BOTTLE COFFEE'") == 1


def test_a_move_to_a_named_savings_pocket_is_a_transfer(tmp_path: Path) -> None:
    head = "Type,Product,Started Date,Completed Date,Description,Amount,Fee,Currency,State,Balance\n"
    statement = write(tmp_path, "revolut.csv", "TRANSFER,Savings,2025-01-14 07:00:00,2025-01-14 07:00:00,To EUR Savings,50.00,0.00,EUR,COMPLETED,50.00\n"
                      "TRANSFER,Current,2025-01-14 07:00:00,2025-01-14 07:00:00,To EUR Savings,-50.00,0.00,EUR,COMPLETED,139.05\n", head)
    with Ledger() as ledger:
        assert import_file(ledger, statement).transfers_linked == 1
    back = write(tmp_path, "back.csv", "TRANSFER,Savings,2025-01-20 07:00:00,2025-01-20 07:00:00,From GBP Current,100.00,0.00,GBP,COMPLETED,100.00\n"
                 "TRANSFER,Current,2025-01-20 07:00:00,2025-01-20 07:00:00,To GBP Savings,-100.00,0.00,GBP,COMPLETED,411.77\n", head)
    with Ledger() as ledger:  # the Savings leg names the current account it came from
        assert import_file(ledger, back).transfers_linked == 1


def test_a_worded_transfer_never_pairs_with_a_merchants_purchase_or_refund(tmp_path: Path) -> None:
    checking = write(tmp_path, "checking.csv", "2025-03-10,Online Transfer to SAV ...7777,-129.00\n"
                     "2025-03-12,Withdrawal to 360 Performance Savings XXXX4321,-250.00\n")
    card = write(tmp_path, "card.csv", "2025-03-11,DELTA AIR LINES ATLANTA,129.00\n")  # a refund in the merchant's name
    savings = write(tmp_path, "savings.csv", "2025-03-12,Deposit from 360 Checking XXXX5678,250.00\n")
    with Ledger() as ledger:
        import_file(ledger, checking, account="Checking")
        assert import_file(ledger, card, account="Amex").transfers_linked == 0
        assert import_file(ledger, savings, account="Savings").transfers_linked == 1
        paid = write(tmp_path, "paid.csv", "2025-01-10,CAPITAL ONE      MOBILE PMT 250110,-101.01\n")
        assert import_file(ledger, paid, account="Checking").transfers_linked == 0
        card_side = write(tmp_path, "card_side.csv", "2025-01-11,CAPITAL ONE MOBILE PYMT,101.01\n")
        assert import_file(ledger, card_side, account="Capital One Card").transfers_linked == 1


def test_a_card_payment_links_past_another_payment_of_the_same_amount(tmp_path: Path) -> None:
    card = write(tmp_path, "visa.csv", "2025-03-10,2025-03-10,4321,ONLINE PAYMENT THANK YOU,Payment/Credit,,500.00,Posted\n", CARD_HEAD)
    checking = write(tmp_path, "checking.csv", "2025-03-10,PAYMENT TO VISA CARD 4321,-500.00\n2025-03-11,VENMO PAYMENT JOHN,-500.00\n")
    with Ledger() as ledger:
        import_file(ledger, card)
        assert import_file(ledger, checking, account="Checking").transfers_linked == 1
        linked = ledger.query("SELECT description FROM transactions WHERE transfer_id IS NOT NULL ORDER BY id")
        assert [r["description"] for r in linked] == ["ONLINE PAYMENT THANK YOU", "PAYMENT TO VISA CARD 4321"]


@pytest.mark.parametrize("card_first", [True, False])
def test_a_payment_to_a_card_ending_in_other_digits_is_not_this_cards_payment(tmp_path: Path, card_first: bool) -> None:
    """The day before this card's payment, the same $300 to the spouse's card of the same bank:
    the text names its last digits, which are not this card's."""
    checking = write(tmp_path, "Chase1234_Activity_20250331.csv", (
        'DEBIT,03/22/2025,"Payment to Chase card ending in 5678 03/22",-300.00,LOAN_PMT,4100.00,,\n'
        'DEBIT,03/21/2025,"Payment to Chase card ending in 4321 03/21",-300.00,LOAN_PMT,4400.00,,\n'
    ), "Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #\n")
    card = write(tmp_path, "Chase5678_Activity20250301_20250331_20250401.CSV", (
        "03/22/2025,03/22/2025,Payment Thank You-Mobile,,Payment,300.00,\n03/18/2025,03/19/2025,WHOLEFDS MKT #10421,Groceries,Sale,-88.12,\n"
    ), "Transaction Date,Post Date,Description,Category,Type,Amount,Memo\n")
    with Ledger() as ledger:
        for path in (card, checking) if card_first else (checking, card):
            import_file(ledger, path)
        linked = ledger.query("SELECT description FROM transactions WHERE transfer_id IS NOT NULL AND amount < 0")
        assert [r["description"] for r in linked] == ["Payment to Chase card ending in 5678 03/22"]


def test_a_year_in_an_accounts_name_is_not_its_last_digits(tmp_path: Path) -> None:
    with Ledger() as ledger:
        import_file(ledger, write(tmp_path, "fund.csv", "2025-03-10,Online Transfer from CHK ...1234,250.00\n"), account="House Fund 2026")
        checking = import_file(ledger, write(tmp_path, "chk.csv", "2025-03-10,Online Transfer to SAV ...9012,-250.00\n"), account="Checking")
        assert checking.transfers_linked == 1


def test_topping_up_a_wallet_from_the_bank_is_a_transfer(tmp_path: Path) -> None:
    bank = write(tmp_path, "giro.csv", "2025-02-03,Revolut Bank UAB Top-up Revolut Max Mueller,-300.00\n2025-02-04,REWE SAGT DANKE,-42.10\n")
    wallet = write(tmp_path, "revolut.csv", "2025-02-03,Top-up by *4821,300.00\n2025-02-05,LIDL,-12.40\n")
    with Ledger() as ledger:
        import_file(ledger, bank, account="Girokonto")
        assert import_file(ledger, wallet, account="Revolut").transfers_linked == 1


@pytest.mark.parametrize("paid", [
    "DISCOVER E-PAYMENT 8247 WEB ID: 2510020270", "CITI CARD ONLINE PAYMENT 372951846 WEB ID: CITICARDAP",
    "APPLECARD GSBANK PAYMENT 2731886 WEB ID: 9999999999",
])
def test_a_card_issuers_payment_from_checking_is_a_transfer(tmp_path: Path, paid: str) -> None:
    with Ledger() as ledger:
        import_file(ledger, write(tmp_path, "card.csv", "2026-10-07,INTERNET PAYMENT - THANK YOU,212.34\n"), account="Card")
        assert import_file(ledger, write(tmp_path, "checking.csv", f"2026-10-07,{paid},-212.34\n"), account="Checking").transfers_linked == 1


def test_an_online_deposit_is_still_a_transfer_leg_and_a_zelle_payment_never_pays_a_card(tmp_path: Path) -> None:
    with Ledger() as ledger:
        import_file(ledger, write(tmp_path, "checking.csv", "2026-03-02,ONLINE TRANSFER TO SAVINGS,-100.00\n"
                                  "2026-03-05,ZELLE TRANSFER TO JOHN SMITH,-200.00\n2026-03-05,CHASE CREDIT CRD AUTOPAY,-200.00\n"), account="Checking")
        assert import_file(ledger, write(tmp_path, "savings.csv", "2026-03-02,ONLINE DEPOSIT,100.00\n"), account="Savings").transfers_linked == 1
        assert import_file(ledger, write(tmp_path, "card.csv", "2026-03-05,Payment Thank You,200.00\n"), account="Card").transfers_linked == 1
        assert ledger.query("SELECT description FROM transactions WHERE transfer_id IS NOT NULL AND account_id = 1 ORDER BY id") == [
            {"description": "ONLINE TRANSFER TO SAVINGS"}, {"description": "CHASE CREDIT CRD AUTOPAY"}]


def test_a_qif_transfer_links_only_in_the_account_it_names_and_never_to_interest(tmp_path: Path) -> None:
    with Ledger() as ledger:
        import_file(ledger, write(tmp_path, "savings.csv", "2026-05-01,INTEREST PAID,80.00\n"), account="Savings")
        import_file(ledger, write(tmp_path, "brokerage.csv", "2026-05-02,TRANSFER FROM CHECKING,80.00\n"), account="Brokerage")
        checking = write(tmp_path, "checking.qif", "D05/01/2026\nT-80.00\nPMonthly savings\nL[Savings]\n^\n", "!Type:Bank\n")
        assert import_file(ledger, checking, account="Checking").transfers_linked == 0


@pytest.mark.parametrize(("paid", "card_side"), [
    ("CAPITAL ONE DES:CRCARDPMT ID:XXXXX", "CAPITAL ONE MOBILE PYMT"), ("DISCOVER E-PAYMENT 8247", "DIRECTPAY FULL BALANCE"),
    ("TARGET CARD PAYMENT 1234", "PAYMENT - THANK YOU"), ("GOLDMAN SACHS PAYMENT", "ACH DEPOSIT INTERNET TRANSFER"),
])
def test_more_card_issuers_payments_link(tmp_path: Path, paid: str, card_side: str) -> None:
    with Ledger() as ledger:
        import_file(ledger, write(tmp_path, "card.csv", f"2026-10-07,{card_side},212.34\n"), account="Card")
        assert import_file(ledger, write(tmp_path, "checking.csv", f"2026-10-07,{paid},-212.34\n"), account="Checking").transfers_linked == 1


def test_regular_transfers_of_one_amount_pair_by_date(tmp_path: Path) -> None:
    """Two $100 sweeps on one day and $250 on two days running: every leg has more than one
    possible other leg, and every pairing of alike legs is right."""
    checking = write(tmp_path, "checking.csv", "2026-10-02,Online Transfer to SAV ...5555,-100.00\n2026-10-02,Online Transfer to SAV ...5555,-100.00\n"
                     "2026-10-09,Online Transfer to SAV ...5555,-250.00\n2026-10-10,Online Transfer to SAV ...5555,-250.00\n")
    savings = write(tmp_path, "savings.csv", "2026-10-02,Online Transfer from CHK ...1234,100.00\n2026-10-02,Online Transfer from CHK ...1234,100.00\n"
                    "2026-10-09,Online Transfer from CHK ...1234,250.00\n2026-10-10,Online Transfer from CHK ...1234,250.00\n")
    with Ledger() as ledger:
        import_file(ledger, checking, account="Checking")
        assert import_file(ledger, savings, account="Savings").transfers_linked == 4
        pairs = ledger.query("SELECT t.posted, o.posted AS other FROM transactions t JOIN transactions o ON o.id = t.transfer_id")
        assert all(p["posted"] == p["other"] for p in pairs) and len(pairs) == 8
        ambiguous = write(tmp_path, "more.csv", "2026-11-02,TRANSFER TO SAVINGS,-75.00\n")
        import_file(ledger, write(tmp_path, "brokerage.csv", "2026-11-02,DEPOSIT,75.00\n"), account="Brokerage")
        import_file(ledger, write(tmp_path, "savings2.csv", "2026-11-02,DEPOSIT,75.00\n"), account="Savings")
        assert import_file(ledger, ambiguous, account="Checking").transfers_linked == 0  # nothing says which it went to


def test_a_deposited_check_is_not_the_other_leg_of_a_transfer(tmp_path: Path) -> None:
    with Ledger() as ledger:
        import_file(ledger, write(tmp_path, "checking.csv", "2026-10-13,MOBILE DEPOSIT,500.00\n"), account="Checking")
        assert import_file(ledger, write(tmp_path, "savings.csv", "2026-10-15,Online Transfer to CHK ...1234,-500.00\n"), account="Savings").transfers_linked == 0
        leg = write(tmp_path, "later.csv", "2026-10-13,MOBILE DEPOSIT,500.00\n2026-10-15,Online Transfer from SAV ...5555,500.00\n")
        assert import_file(ledger, leg, account="Checking").transfers_linked == 1


def test_qif_legs_that_name_each_others_accounts_are_linked_whatever_they_say(tmp_path: Path) -> None:
    checking = write(tmp_path, "checking.qif", "D10/01/2026\nT-400.00\nPMonthly savings\nL[Savings]\n^\n", "!Type:Bank\n")
    savings = write(tmp_path, "savings.qif", "D10/01/2026\nT400.00\nPMonthly savings\nL[Checking]\n^\n", "!Type:Bank\n")
    with Ledger() as ledger:
        import_file(ledger, checking, account="Checking")
        assert import_file(ledger, savings, account="Savings").transfers_linked == 1


def test_undo_in_any_order_leaves_nothing(tmp_path: Path) -> None:
    with Ledger() as ledger:
        batches = import_batches(ledger, tmp_path, PENDING_THEN_POSTED[:3])
        for batch in (batches[1], batches[2], batches[0]):  # the pending row's batch first, then the one that replaced it
            undo_batch(ledger, batch)
        assert rows(ledger) == []


def test_undoing_a_correction_restores_the_rows_transfer_link(tmp_path: Path) -> None:
    checking = write(tmp_path, "checking.csv", "2025-03-05,ONLINE TRANSFER TO SAVINGS,-300.00\n")
    savings = write(tmp_path, "savings.csv", "2025-03-05,TRANSFER FROM CHECKING,300.00\n")
    with Ledger() as ledger:
        import_file(ledger, checking, account="Checking")
        import_file(ledger, savings, account="Savings")
        before = ledger.query("SELECT id, transfer_id FROM transactions ORDER BY id")
        leg = before[0]["id"]
        with ledger.write() as conn:  # what a batch that corrected (deleted) the checking leg records
            gone = ledger.query("SELECT * FROM transactions WHERE id = ?", (leg,))
            conn.execute("DELETE FROM transactions WHERE id = ?", (leg,))
            conn.execute("INSERT INTO import_batches (file_name, file_hash, format, replaced) VALUES ('c.ofx', 'x', 'ofx', ?)",
                         (json.dumps(gone),))
        undo_batch(ledger, ledger.scalar("SELECT MAX(id) FROM import_batches"))
        assert ledger.query("SELECT id, transfer_id FROM transactions ORDER BY id") == before


def test_an_older_export_does_not_bring_back_a_row_the_bank_corrected(tmp_path: Path) -> None:
    before, corrected = tmp_path / "before.ofx", tmp_path / "corrected.ofx"
    before.write_text(ofx([("20250105", "-50.00", "T100", "GROCERY")]))
    corrected.write_text(OFX_TEMPLATE.format(rows=(
        "<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20250105<TRNAMT>-55.00<FITID>T101<CORRECTFITID>T100<CORRECTACTION>REPLACE<NAME>GROCERY</STMTTRN>"
    )))
    with Ledger() as ledger:
        import_file(ledger, before)
        import_file(ledger, corrected)
        again = import_file(ledger, before)
        assert (again.added, again.duplicates) == (0, 1)
        assert [r["amount"] for r in rows(ledger)] == [-5500]


def test_a_replace_that_names_its_own_fitid_is_an_ordinary_row(tmp_path: Path) -> None:
    path = tmp_path / "self.ofx"
    path.write_text(OFX_TEMPLATE.format(rows=(
        "<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20250105<TRNAMT>-58.73<FITID>T1<CORRECTFITID>T1<CORRECTACTION>REPLACE<NAME>VIREMENT</STMTTRN>"
    )))
    with Ledger() as ledger:
        assert import_file(ledger, path).added == 1


def test_two_accounts_whose_ids_end_alike_stay_apart(tmp_path: Path) -> None:
    """Both OFX files would name their account by its last four digits; merged, the second's row
    passed as a duplicate of the first's and its balance replaced the first's."""
    first = ofx([("20250105", "-10.00", "1", "SHOP")]).replace("<ACCTID>555123", "<ACCTID>11110001")
    second = first.replace("<ACCTID>11110001", "<ACCTID>22220001").replace("<BALAMT>1000.00", "<BALAMT>555.00")
    with Ledger() as ledger:
        one = import_file(ledger, write(tmp_path, "a.ofx", first, header=""))
        two = import_file(ledger, write(tmp_path, "b.ofx", second, header=""))
        assert one.accounts != two.accounts and two.accounts[0].endswith("…20001") and two.added == 1
        assert import_file(ledger, write(tmp_path, "b2.ofx", second, header="")).accounts == two.accounts
        assert [(a["number"], a["balance"]) for a in ledger.query("SELECT number, balance FROM accounts ORDER BY id")] == [
            ("11110001", 100000), ("22220001", 55500)]


def test_a_file_stating_no_currency_into_a_named_account_is_in_its_currency(tmp_path: Path) -> None:
    no_curdef = ofx([("20250103", "-1500", "1", "RAMEN")]).replace("<CURDEF>USD", "")
    with Ledger() as ledger:
        import_file(ledger, write(tmp_path, "jp.ofx", no_curdef, header=""), currency="JPY")
        name = ledger.scalar("SELECT name FROM accounts")
        import_file(ledger, write(tmp_path, "more.qif", "D1/4/25\nT-2,400\nPSUSHI\n^\n", "!Type:Bank\n"), account=name)
        import_file(ledger, write(tmp_path, "more.csv", "2025-01-05,UDON,-900\n"), account=name)
        assert [(r["description"], r["amount"], r["currency"]) for r in rows(ledger)] == [
            ("RAMEN", -1500, "JPY"), ("SUSHI", -2400, "JPY"), ("UDON", -900, "JPY")]


def booked(ledger: Ledger) -> list[tuple[str, str, int, str]]:
    return [(r["name"], r["posted"], r["amount"], r["currency"]) for r in ledger.query(
        "SELECT a.name, t.posted, t.amount, t.currency FROM transactions t JOIN accounts a ON a.id = t.account_id ORDER BY t.id")]


def test_next_month_stating_no_currency_is_read_in_its_accounts_yen(tmp_path: Path) -> None:
    """The first month imported with --currency JPY, the next without: found by its name, the
    account's yen are read as yen (they were read as US cents, ¥300,000 booked as ¥30,000,000)."""
    march = write(tmp_path, "Yucho_2025-03.csv", "2025-03-01,SALARY,300000\n2025-03-02,SEVEN ELEVEN,-1234\n")
    april = write(tmp_path, "Yucho_2025-04.csv", "2025-04-01,SALARY,300000\n2025-04-02,SEVEN ELEVEN,-1234\n2025-04-03,JR EAST,-220\n")
    with Ledger() as ledger:
        import_file(ledger, march, currency="JPY")
        summary = import_file(ledger, april)
        assert (summary.accounts, summary.added, summary.warnings) == (["Yucho"], 3, [])
        assert import_file(ledger, april).added == 0
        assert booked(ledger) == [
            ("Yucho", "2025-03-01", 300000, "JPY"), ("Yucho", "2025-03-02", -1234, "JPY"),
            ("Yucho", "2025-04-01", 300000, "JPY"), ("Yucho", "2025-04-02", -1234, "JPY"), ("Yucho", "2025-04-03", -220, "JPY"),
        ]


def test_next_month_stating_no_currency_is_read_in_its_accounts_dinars(tmp_path: Path) -> None:
    """Three decimals are the dinar's, not thousands, and `-2.00` is two dinars: a file of an
    account kept in BHD was refused (`1500.125 has more decimals than USD allows`), or read as
    -0.200 and its re-import doubled."""
    march = write(tmp_path, "Gulf_2025-03.csv", "2025-03-01,SALARY,1500.125\n2025-03-02,LULU,-12.345\n")
    april = write(tmp_path, "Gulf_2025-04.csv", "2025-04-01,SALARY,1500.125\n2025-04-02,PARKING,-2.00\n2025-04-02,PARKING,-2.00\n2025-04-03,BATELCO,-20.50\n")
    with Ledger() as ledger:
        import_file(ledger, march, currency="BHD")
        assert import_file(ledger, april).added == 4
        assert import_file(ledger, april).added == 0
        assert import_file(ledger, march).added == 0
        assert booked(ledger)[2:] == [
            ("Gulf", "2025-04-01", 1500125, "BHD"), ("Gulf", "2025-04-02", -2000, "BHD"), ("Gulf", "2025-04-02", -2000, "BHD"),
            ("Gulf", "2025-04-03", -20500, "BHD"),
        ]


def test_a_file_stating_no_currency_found_otherwise_than_by_name_is_read_again_in_its_accounts(tmp_path: Path) -> None:
    """An account the resolution finds by more than the file's name (earlier downloads named alike,
    the file's own earlier import under --account) is known only after the file was read: the
    import starts again, reading the file in that account's currency."""
    march = write(tmp_path, "Yucho_2025-03.csv", "2025-03-01,SALARY,300000\n2025-03-02,SEVEN ELEVEN,-1234\n")
    april = write(tmp_path, "Yucho_2025-04.csv", "2025-04-01,SALARY,300000\n2025-04-02,SEVEN ELEVEN,-1234\n")
    gulf = write(tmp_path, "Gulf_2025-03.csv", "2025-03-01,SALARY,1500.125\n2025-03-02,LULU,-12.345\n")
    with Ledger() as ledger:
        import_file(ledger, march, account="Post Office", currency="JPY")
        summary = import_file(ledger, april)
        assert (summary.accounts, summary.added) == (["Post Office"], 2)
        assert summary.warnings == ["no account is named Yucho; Post Office is where the earlier downloads named like this file went,"
                                    " so it went there (to send it elsewhere, give --account)"]
        import_file(ledger, gulf, account="NBB", currency="BHD")
        again = import_file(ledger, gulf)
        assert (again.accounts, again.added, again.duplicates) == (["NBB"], 0, 2)
        assert booked(ledger) == [
            ("Post Office", "2025-03-01", 300000, "JPY"), ("Post Office", "2025-03-02", -1234, "JPY"),
            ("Post Office", "2025-04-01", 300000, "JPY"), ("Post Office", "2025-04-02", -1234, "JPY"),
            ("NBB", "2025-03-01", 1500125, "BHD"), ("NBB", "2025-03-02", -12345, "BHD"),
        ]


def test_a_third_identical_row_sharing_a_repeated_bank_id_is_added(tmp_path: Path) -> None:
    """Banks that derive ids from date and amount give identical coffees one id: the two already
    there answer for two of the later download's three, not for all three."""
    coffee = ("20250105", "-3.00", "X", "COFFEE")
    with Ledger() as ledger:
        assert import_file(ledger, write(tmp_path, "a.ofx", ofx([coffee, coffee]), header="")).added == 2
        assert import_file(ledger, write(tmp_path, "b.ofx", ofx([coffee] * 3), header="")).added == 1
        assert import_file(ledger, write(tmp_path, "c.ofx", ofx([coffee] * 3), header="")).added == 0


def test_qif_categories_are_the_users_own(tmp_path: Path) -> None:
    """Set in Quicken, they are never overwritten by the categoriser's guesses."""
    with Ledger() as ledger:
        import_file(ledger, write(tmp_path, "q.qif", "D1/4/25\nT-24.00\nPTARGET\nLHousehold\n^\n", "!Type:Bank\n"))
        assert ledger.query("SELECT category_source FROM transactions") == [{"category_source": "user"}]


def test_a_hold_marked_pending_in_its_text_is_settled_by_its_posted_row_with_a_tip(tmp_path: Path) -> None:
    held = ofx([]).replace("</BANKTRANLIST>", "</BANKTRANLIST><BANKTRANLISTP><STMTTRNP><TRNTYPE>DEBIT<DTTRAN>20250109"
                           "<TRNAMT>-40.00<NAME>BISTRO PENDING</STMTTRNP></BANKTRANLISTP>")
    posted = ofx([("20250111", "-46.00", "T4", "BISTRO")])
    with Ledger() as ledger:
        assert import_file(ledger, write(tmp_path, "a.ofx", held, header="")).pending_added == 1
        assert import_file(ledger, write(tmp_path, "b.ofx", posted, header="")).pending_replaced == 1
        assert [(r["amount"], r["pending"]) for r in rows(ledger)] == [(-4600, 0)]


def test_a_quiet_statement_beside_a_busy_one_still_updates_its_accounts_balance(tmp_path: Path) -> None:
    savings = ofx([("20250110", "-5.00", "S1", "FEE")]).replace("<ACCTID>555123<ACCTTYPE>CHECKING", "<ACCTID>444<ACCTTYPE>SAVINGS")
    quiet = savings.split("<STMTTRNRS>")[1].split("</STMTTRNRS>")[0].replace(
        "<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20250110<TRNAMT>-5.00<FITID>S1<NAME>FEE</STMTTRN>", "").replace(
        "<BALAMT>1000.00<DTASOF>20250131", "<BALAMT>1002.50<DTASOF>20250228")
    both = ofx([("20250205", "-10.00", "C1", "SHOP")]).replace("</STMTTRNRS>", f"</STMTTRNRS><STMTTRNRS>{quiet}</STMTTRNRS>", 1)
    with Ledger() as ledger:
        import_file(ledger, write(tmp_path, "sav.ofx", savings, header=""))
        batch = import_file(ledger, write(tmp_path, "both.ofx", both, header="")).batch_id
        balance = "SELECT balance, balance_date FROM accounts WHERE number = '444'"
        assert ledger.query_one(balance) == {"balance": 100250, "balance_date": "2025-02-28"}
        undo_batch(ledger, batch)
        assert ledger.query_one(balance) == {"balance": 100000, "balance_date": "2025-01-31"}


REVOLUT_HEADER = "Type,Product,Started Date,Completed Date,Description,Amount,Fee,Currency,State,Balance\n"


def test_a_conversion_between_own_currency_balances_is_a_linked_transfer(tmp_path: Path) -> None:
    """Revolut books a conversion as two rows, one per currency pocket: £100 out, €116.50 in. The
    amounts differ, yet neither is spending nor income, and a conversion fee stays spending."""
    body = (
        "EXCHANGE,Current,2025-03-02 10:00:00,2025-03-02 10:00:01,Exchanged to EUR,-100.00,0.00,GBP,COMPLETED,400.00\n"
        "EXCHANGE,Current,2025-03-02 10:00:00,2025-03-02 10:00:01,Exchanged to EUR,116.50,0.00,EUR,COMPLETED,116.50\n"
        "CARD_PAYMENT,Current,2025-03-03 12:00:00,2025-03-04 08:00:00,Cafe de Flore,-12.40,0.00,EUR,COMPLETED,104.10\n"
        "FEE,Current,2025-03-05 12:00:00,2025-03-05 12:00:00,Currency conversion fee,-0.50,0.00,EUR,COMPLETED,103.60\n"
    )
    with Ledger() as ledger:
        assert import_file(ledger, write(tmp_path, "revolut.csv", body, REVOLUT_HEADER)).transfers_linked == 1
        legs = ledger.query(
            "SELECT t.amount, t.currency, o.currency AS other, c.name FROM transactions t"
            " JOIN transactions o ON o.id = t.transfer_id JOIN categories c ON c.id = t.category_id ORDER BY t.id"
        )
        assert legs == [
            {"amount": -10000, "currency": "GBP", "other": "EUR", "name": "Transfer"},
            {"amount": 11650, "currency": "EUR", "other": "GBP", "name": "Transfer"},
        ]
        fee = ledger.query_one("SELECT transfer_id, category_id FROM transactions WHERE description = 'Currency conversion fee'")
        transfer = ledger.scalar("SELECT id FROM categories WHERE name = 'Transfer'")
        assert fee["transfer_id"] is None and fee["category_id"] != transfer


@pytest.mark.parametrize(
    ("text", "conversion"),
    [
        ("Exchanged to EUR", True), ("Exchanged from GBP", True), ("Converted 100.00 EUR to 107.50 USD", True),
        ("Converted 000.00 EUR to 000.00 USD", True), ("Currency exchange", True), ("FX exchange EUR/USD", True),
        ("Currency conversion fee", False), ("Exchanged to the new plan", False), ("Foreign transaction fee", False),
    ],
)
def test_what_reads_as_a_currency_conversion(text: str, conversion: bool) -> None:
    assert bool(CURRENCY_EXCHANGE.search(text)) is conversion


CHASE_HEADER = "Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #\n"


def test_a_row_the_bank_moved_or_reworded_between_downloads_is_not_added_again(tmp_path: Path) -> None:
    """No bank id tells, so the row must be one the new download no longer lists, inside its
    dates, for the same amount a few days off, its text cut or extended: a second purchase of the
    same amount that the new file lists beside the old one is still added."""
    january = write(tmp_path, "Chase1234_Activity_20250115.CSV", (
        "DEBIT,01/10/2025,SHELL OIL,-30.00,DEBIT_CARD,,\n"
        "DEBIT,01/13/2025,AMAZON MKTPL,-42.99,DEBIT_CARD,,\n"
        "DEBIT,01/13/2025,STARBUCKS,-5.75,DEBIT_CARD,,\n"
    ), CHASE_HEADER)
    later = write(tmp_path, "Chase1234_Activity_20250131.CSV", (
        "DEBIT,01/10/2025,SHELL OIL,-30.00,DEBIT_CARD,,\n"
        "DEBIT,01/14/2025,AMAZON MKTPL*AB12C3DE4,-42.99,DEBIT_CARD,,\n"
        "DEBIT,01/13/2025,STARBUCKS,-5.75,DEBIT_CARD,,\n"
        "DEBIT,01/14/2025,STARBUCKS,-5.75,DEBIT_CARD,,\n"
    ), CHASE_HEADER)
    with Ledger() as ledger:
        import_file(ledger, january)
        summary = import_file(ledger, later)
        assert (summary.added, summary.duplicates) == (1, 3)
        assert [(r["posted"], r["description"]) for r in rows(ledger, "amount IN (-4299, -575)")] == [
            ("2025-01-13", "AMAZON MKTPL"), ("2025-01-13", "STARBUCKS"), ("2025-01-14", "STARBUCKS"),
        ]


def _chase_qfx(tmp_path: Path, name: str, account: str, rows: tuple[tuple[str, str, str, str], ...]) -> Path:
    """A Chase checking QFX of (day, amount, FITID, NAME) rows; a NAME may carry `<MEMO>` for the rest of a cut text."""
    statement = "".join(f"<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>{day}<TRNAMT>{amount}<FITID>{fitid}<NAME>{text}</STMTTRN>" for day, amount, fitid, text in rows)
    return write(tmp_path, name, (
        f"<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD<BANKACCTFROM><BANKID>121000248<ACCTID>{account}"
        f"<ACCTTYPE>CHECKING</BANKACCTFROM><BANKTRANLIST>{statement}</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n"
    ), "OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n")


def test_a_row_worded_otherwise_on_the_last_day_of_the_previous_download_is_the_same(tmp_path: Path) -> None:
    """The QFX after the CSV shares its last days: the payroll on the CSV's last day, worded
    `ORIG CO NAME:…` there and `ACME CORP PAYROLL` here, is the same row, since the QFX lists that
    day whole (it goes on past it) and relists the account's rows from the day before. On its own
    last day, which it may list only in part, a row of the same amount is another one."""
    csv_file = write(tmp_path, "Chase1234_Activity_20250403.CSV", (
        "DEBIT,03/30/2025,AMAZON MKTPL,-25.50,DEBIT_CARD,,\n"
        "CREDIT,04/01/2025,ORIG CO NAME:ACME CORP ORIG ID:1234567890 DESC DATE:040125 SEC:PPD,2850.00,ACH_CREDIT,,\n"
    ), CHASE_HEADER)
    qfx = _chase_qfx(tmp_path, "Chase1234.qfx", "000001234", (
        ("20250330", "-25.50", "1", "AMAZON MKTPL"), ("20250401", "2850.00", "2", "ACME CORP PAYROLL"),
        ("20250415", "-9.99", "3", "SPOTIFY"),
    ))
    with Ledger() as ledger:
        import_file(ledger, csv_file)
        assert (import_file(ledger, qfx).added, ledger.scalar("SELECT COUNT(*) FROM transactions WHERE amount = 285000")) == (1, 1)
        ending_on_it = write(tmp_path, "Chase1234_Activity_20250416.CSV", (
            "DEBIT,03/30/2025,AMAZON MKTPL,-25.50,DEBIT_CARD,,\n" "DEBIT,04/15/2025,NETFLIX,-9.99,DEBIT_CARD,,\n"
        ), CHASE_HEADER)
        assert import_file(ledger, ending_on_it).added == 1


def test_a_daily_coffee_reworded_pairs_each_day_with_its_own(tmp_path: Path) -> None:
    """Twenty days of one $4.50 coffee, the next download's text extended: each row takes the held
    row of its own day (taking the first within three days, newest first, left the oldest three
    days none and booked them twice)."""
    coffee = lambda text: "".join(f"DEBIT,03/{day:02d}/2025,{text},-4.50,DEBIT_CARD,,\n" for day in range(20, 0, -1))  # noqa: E731
    with Ledger() as ledger:
        import_file(ledger, write(tmp_path, "Chase1234_Activity_20250320.CSV", coffee("SQ *BLUE BOTTLE COFFEE"), CHASE_HEADER))
        again = import_file(ledger, write(tmp_path, "Chase1234_Activity_20250321.CSV", coffee("SQ *BLUE BOTTLE COFFEE OAKLAND CA"), CHASE_HEADER))
        assert (again.added, again.duplicates) == (0, 20)


def test_a_row_reworded_takes_its_own_before_another_of_the_same_amount_that_day(tmp_path: Path) -> None:
    """The QFX relists the CSV's days: its `SQ *BLUE BOTTLE COFFEE` is the CSV's `SQ *BLUE BOTTLE`,
    and the diner's $5.75 of the same day is new, not the coffee's (its payee was the coffee's)."""
    csv_file = write(tmp_path, "Chase1234_Activity_20250403.CSV", (
        "DEBIT,04/02/2025,SQ *BLUE BOTTLE,-5.75,DEBIT_CARD,,\n" "DEBIT,03/30/2025,AMAZON MKTPL,-25.50,DEBIT_CARD,,\n"
    ), CHASE_HEADER)
    qfx = _chase_qfx(tmp_path, "Chase1234.qfx", "000001234", (
        ("20250330", "-25.50", "1", "AMAZON MKTPL"), ("20250402", "-5.75", "2", "TST* JOES DINER"),
        ("20250402", "-5.75", "3", "SQ *BLUE BOTTLE COFFEE"), ("20250415", "-9.99", "4", "SPOTIFY"),
    ))
    with Ledger() as ledger:
        import_file(ledger, csv_file)
        assert import_file(ledger, qfx).added == 2
        assert [r["description"] for r in rows(ledger, "amount = -575")] == ["SQ *BLUE BOTTLE", "TST* JOES DINER"]


def test_a_new_cards_download_never_takes_the_old_cards_row_of_its_day(tmp_path: Path) -> None:
    """Both cards' downloads go into one account: the new card's second file relists its first
    file's rows, not the old card's, so the old card's $40.00 at SHELL is no earlier version of
    the new card's $40.00 at CHEVRON the same day."""
    header = "Date,Description,Amount\n"
    old = "01/05/2025,TRADER JOES #552,-63.10\n01/20/2025,SHELL OIL 57444,-40.00\n01/28/2025,UBER *TRIP,-18.40\n"
    first = "01/18/2025,NETFLIX.COM,-15.49\n01/20/2025,TARGET 00012345,-12.00\n"
    with Ledger() as ledger:
        for name, body in (("old.csv", old), ("new1.csv", first)):
            import_file(ledger, write(tmp_path, name, body, header), account="Visa")
        second = write(tmp_path, "new2.csv", first + "01/20/2025,CHEVRON 0209876,-40.00\n02/01/2025,CHIPOTLE 1234,-11.25\n", header)
        assert import_file(ledger, second, account="Visa").added == 2
        assert [r["description"] for r in rows(ledger, "amount = -4000")] == ["SHELL OIL 57444", "CHEVRON 0209876"]


def test_another_cards_fares_of_the_same_amounts_on_the_same_days_are_all_kept(tmp_path: Path) -> None:
    """Two family members' cards, £2.80 each way every weekday at other stations, in one account:
    every day and amount has a partner, but the second file lists none of the first's rows, so
    its fares are all booked."""
    header = "Date,Description,Amount\n"
    fares = lambda there, back: "".join(  # noqa: E731
        f"2025-03-{day:02d},{there},-2.80\n2025-03-{day:02d},{back},-2.80\n" for day in (3, 4, 5, 6, 7, 10, 11, 12, 13, 14))
    with Ledger() as ledger:
        import_file(ledger, write(tmp_path, "dad.csv", fares("Walthamstow Central to Oxford Circus", "Oxford Circus to Walthamstow Central"), header), account="Fares")
        mom = import_file(ledger, write(tmp_path, "mom.csv", fares("Clapham Common to Bank", "Bank to Clapham Common"), header), account="Fares")
        assert (mom.added, ledger.scalar("SELECT COUNT(*) FROM transactions")) == (20, 40)


def test_a_row_the_user_deleted_stays_deleted_when_its_file_comes_again(tmp_path: Path) -> None:
    path = write(tmp_path, "checking.csv", JAN_FEB)
    with Ledger() as ledger:
        import_file(ledger, path, account="Checking")
        grocer = ledger.scalar("SELECT id FROM transactions WHERE description = 'GROCER' AND amount = -4510")
        ledger.delete_transactions([grocer])
        assert import_file(ledger, path, account="Checking").added == 0
        assert import_file(ledger, write(tmp_path, "later.csv", FEB_MAR), account="Checking").added == 2
        assert not rows(ledger, "amount = -4510")


def _chase_csv_and_qfx(tmp_path: Path) -> tuple[Path, Path]:
    """One Chase account's January as CSV (no account number) and as QFX, whose names are cut at
    32 characters, mid-word, the rest in MEMO: four rows in both, worded otherwise, and one more in the QFX."""
    csv_file = write(tmp_path, "Chase1234_Activity_20250131.CSV", (
        "DEBIT,01/05/2025,STARBUCKS STORE 12345 SEATTLE WA 01/04,-5.75,DEBIT_CARD,,\n"
        "CREDIT,01/10/2025,ACME PAYROLL PPD ID: 9876543210,2500.00,ACH_CREDIT,,\n"
        "DEBIT,01/20/2025,SHELL OIL 57444,-40.00,DEBIT_CARD,,\n"
        "DEBIT,01/28/2025,ONLINE TRANSFER TO SAV ...9876 TRANSACTION#: 23456789012 01/28,-100.00,ACCT_XFER,,\n"
    ), CHASE_HEADER)
    trn = "<STMTTRN><TRNTYPE>{kind}<DTPOSTED>{day}<TRNAMT>{amount}<FITID>{fitid}<NAME>{name}</STMTTRN>"
    statement = "".join(trn.format(kind="DEBIT" if amount < "0" else "CREDIT", day=day, amount=amount, fitid=day + "01", name=name) for day, amount, name in (
        ("20250105", "-5.75", "STARBUCKS STORE 12345 SEATTLE WA"), ("20250110", "2500.00", "ACME PAYROLL PPD ID: 98765432"),
        ("20250120", "-40.00", "SHELL OIL 57444"), ("20250125", "-9.99", "SPOTIFY"),
        ("20250128", "-100.00", "ONLINE TRANSFER TO SAV ...9876 T<MEMO>RANSACTION#: 23456789012 01/28"),
    ))
    qfx = write(tmp_path, "Chase1234.qfx", (
        "<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD<BANKACCTFROM><BANKID>121000248<ACCTID>000001234"
        f"<ACCTTYPE>CHECKING</BANKACCTFROM><BANKTRANLIST>{statement}</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n"
    ), "OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n")
    return csv_file, qfx


def test_the_same_accounts_ofx_after_its_csv_goes_into_it_and_undo_forgets_its_number(tmp_path: Path) -> None:
    """Chase's CSV states no account number and its QFX does: the QFX's rows, worded otherwise
    (an OFX name is cut at 32 characters), are the CSV account's, not a new account's."""
    csv_file, qfx = _chase_csv_and_qfx(tmp_path)
    with Ledger() as ledger:
        import_file(ledger, csv_file)
        summary = import_file(ledger, qfx)
        assert (summary.accounts, summary.added, summary.duplicates) == (["Chase Checking …1234"], 1, 4)
        assert ledger.scalar("SELECT number FROM accounts") == "000001234"
        undo_batch(ledger, summary.batch_id)
        assert ledger.scalar("SELECT number FROM accounts") is None


def test_the_same_accounts_csv_after_its_qfx_adds_nothing_the_qfx_gave(tmp_path: Path) -> None:
    """The other order: the CSV's rows are the QFX's, though the QFX's carry bank ids and cut names."""
    csv_file, qfx = _chase_csv_and_qfx(tmp_path)
    with Ledger() as ledger:
        import_file(ledger, qfx)
        summary = import_file(ledger, csv_file)
        assert (summary.added, summary.duplicates) == (0, 4)
        assert ledger.scalar("SELECT COUNT(*) FROM transactions") == 5


def _citi_csv_and_qfx(tmp_path: Path) -> tuple[Path, Path]:
    """One Citi card's January as CSV (no account number) and as QFX, which leaves out two of the
    CSV's rows and has a later one: three rows in both, all of the QFX's but not most of the CSV's."""
    csv_file = write(tmp_path, "citi_card.csv", (
        'Cleared,01/20/2025,"AMAZON.COM REFUND",,"-25.00",JOHN DOE\n'
        'Cleared,01/19/2025,"AMAZON.COM*AB1CD2EF3","109.99",,JOHN DOE\n'
        'Cleared,01/12/2025,"UBER *TRIP HELP.UBER.COM CA","23.15",,JOHN DOE\n'
        'Cleared,01/08/2025,"ONLINE PAYMENT, THANK YOU",,"-500.00",JOHN DOE\n'
        'Cleared,01/03/2025,"WHOLEFDS MKT 10234","87.34",,JOHN DOE\n'
    ), "Status,Date,Description,Debit,Credit,Member Name\n")
    trn = "<STMTTRN><TRNTYPE>{kind}<DTPOSTED>{day}<TRNAMT>{amount}<FITID>{day}CITI<NAME>{name}</STMTTRN>"
    statement = "".join(trn.format(kind="DEBIT" if amount < "0" else "CREDIT", day=day, amount=amount, name=name) for day, amount, name in (
        ("20250103", "-87.34", "WHOLEFDS MKT 10234"), ("20250108", "500.00", "ONLINE PAYMENT, THANK YOU"),
        ("20250119", "-109.99", "AMAZON.COM*AB1CD2EF3"), ("20250124", "-456.78", "DELTA AIR 0062345678901"),
    ))
    qfx = write(tmp_path, "citi.qfx", (
        "<OFX><SIGNONMSGSRSV1><SONRS><FI><ORG>Citigroup<FID>24909</FI></SONRS></SIGNONMSGSRSV1><CREDITCARDMSGSRSV1><CCSTMTTRNRS>"
        f"<CCSTMTRS><CURDEF>USD<CCACCTFROM><ACCTID>5424180000001234</CCACCTFROM><BANKTRANLIST>{statement}</BANKTRANLIST>"
        "</CCSTMTRS></CCSTMTTRNRS></CREDITCARDMSGSRSV1></OFX>\n"
    ), "OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n")
    return csv_file, qfx


@pytest.mark.parametrize("qfx_first", [False, True])
def test_one_cards_downloads_that_list_other_rows_go_into_one_account(tmp_path: Path, qfx_first: bool) -> None:
    """Citi's QFX lists three of its CSV's five rows, and one after them: the same card all the
    same, in either order, each row once; and either file again adds nothing."""
    files = list(_citi_csv_and_qfx(tmp_path))
    if qfx_first:
        files.reverse()
    with Ledger() as ledger:
        import_file(ledger, files[0])
        second = import_file(ledger, files[1])
        assert (second.added, second.duplicates) == ((2, 3) if qfx_first else (1, 3))
        assert ledger.scalar("SELECT COUNT(*) FROM accounts") == 1
        assert ledger.scalar("SELECT COUNT(*) FROM transactions") == 6
        assert [import_file(ledger, path).added for path in files] == [0, 0]


def test_a_paypal_history_is_not_the_card_that_paid_all_its_purchases(tmp_path: Path) -> None:
    """Every card row is one of PayPal's, but only half of PayPal's are the card's (its deposits)."""
    card = write(tmp_path, "Chase5678_Activity20250205.CSV", "".join(
        f"01/{day}/2025,01/{day}/2025,PAYPAL *SHOP,Shopping,Sale,-{amount},\n" for day, amount in (("08", "30.00"), ("14", "45.00"), ("20", "12.50"))
    ), "Transaction Date,Post Date,Description,Category,Type,Amount,Memo\n")
    paypal = write(tmp_path, "Download.CSV", "".join(
        f'"01/{day}/2025","10:27:00","PST","","General Card Deposit","Completed","USD","{amount}","0.00","{amount}","{amount}"\n'
        f'"01/{day}/2025","10:28:00","PST","Etsy Shop","Express Checkout Payment","Completed","USD","-{amount}","0.00","-{amount}","0.00"\n'
        for day, amount in (("08", "30.00"), ("14", "45.00"), ("20", "12.50"))
    ), '"Date","Time","TimeZone","Name","Type","Status","Currency","Gross","Fee","Net","Balance"\n')
    with Ledger() as ledger:
        import_file(ledger, card)
        summary = import_file(ledger, paypal)
        assert (summary.added, ledger.scalar("SELECT COUNT(*) FROM accounts")) == (6, 2)


VENMO_HEADER = (
    "Account Statement - (@Jane-Doe-12) ,,,,,,,,,,,,,,,,,,,,,\nAccount Activity,,,,,,,,,,,,,,,,,,,,,\n"
    ",ID,Datetime,Type,Status,Note,From,To,Amount (total),Amount (tip),Amount (tax),Amount (fee),Tax Rate,Tax Exempt,"
    "Funding Source,Destination,Beginning Balance,Ending Balance,Statement Period Venmo Fees,Terminal Location,"
    "Year to Date Venmo Fees,Disclaimer\n"
)


def test_a_venmo_payment_a_bank_paid_arrives_from_the_bank_and_links_to_its_row(tmp_path: Path) -> None:
    """Venmo's balance pays only rows whose `Funding Source` is the balance; a payment the bank
    account paid is money in from the bank and out to the friend, and the bank's own row for it is
    the transfer's other leg, so the concert counts once."""
    venmo = write(tmp_path, "venmo_statement.csv", "".join((
        ",3123456789,2025-01-05T14:02:11,Payment,Complete,Pizza,Jane Doe,John Smith,- $15.00,,0,,0,,Venmo balance,,,,,Venmo,,\n",
        ",3123456790,2025-01-07T09:15:00,Payment,Complete,Rent share,John Smith,Jane Doe,+ $500.00,,0,,0,,,Venmo balance,,,,Venmo,,\n",
        ",3123456791,2025-01-10T19:30:00,Payment,Complete,Concert,Jane Doe,Bob Lee,- $40.00,,0,,0,,Chase Bank *1234,,,,,Venmo,,\n",
        ",3123456792,2025-01-15T08:00:00,Standard Transfer,Issued,,,,- $485.00,,,,,,,Chase Bank *1234,,,,Venmo,,\n",
    )), VENMO_HEADER)
    bank = write(tmp_path, "Chase1234_Activity20250131.CSV", (
        "DEBIT,01/10/2025,VENMO PAYMENT 1023456789 WEB ID: 3264681992,-40.00,ACH_DEBIT,960.00,,\n"
        "CREDIT,01/16/2025,VENMO CASHOUT PPD ID: 5264681992,485.00,ACH_CREDIT,1445.00,,\n"
    ), "Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #\n")
    with Ledger() as ledger:
        import_file(ledger, bank)
        summary = import_file(ledger, venmo)
        assert (summary.rows_read, summary.added) == (4, 5)
        wallet = rows(ledger, "account_id = 2")
        assert [(r["amount"], r["description"]) for r in wallet if r["posted"] == "2025-01-10"] == [
            (-4000, "Bob Lee"), (4000, "Funded by Chase Bank *1234"),
        ]
        assert sum(r["amount"] for r in wallet) == 0  # it began and ended the month empty
        linked = ledger.query("SELECT a.amount, b.description FROM transactions a JOIN transactions b ON b.id = a.transfer_id")
        assert sorted((r["amount"], r["description"]) for r in linked) == [
            (-48500, "VENMO CASHOUT PPD ID: 5264681992"), (-4000, "Funded by Chase Bank *1234"),
            (4000, "VENMO PAYMENT 1023456789 WEB ID: 3264681992"), (48500, "Standard Transfer"),
        ]
        assert import_file(ledger, venmo).added == 0


@pytest.mark.parametrize("qif_first", [True, False])
def test_a_quicken_month_and_the_banks_csv_of_it_are_one_set_of_rows(tmp_path: Path, qif_first: bool) -> None:
    """Quicken joins a row's payee and memo as `SHELL OIL 57442 - HOUSTON TX`, the bank's CSV
    writes `SHELL OIL 57442 HOUSTON TX`: the same letters and digits on the same day for the same
    amount are the same row, whichever file comes first."""
    qif = write(tmp_path, "checking.qif", (
        "D03/03/2025\nT-45.67\nPSHELL OIL 57442\nMHOUSTON TX\n^\nD03/05/2025\nT2500.00\nPACME CORP PAYROLL\nMPPD ID 1234567890\n^\n"
        "D03/28/2025\nT-60.00\nPCOMCAST\n^\n"
    ), "!Type:Bank\n")
    csv = write(tmp_path, "checking.csv", (
        "2025-03-03,SHELL OIL 57442 HOUSTON TX,-45.67\n2025-03-05,ACME CORP PAYROLL PPD ID 1234567890,2500.00\n2025-03-28,COMCAST,-60.00\n"
    ))
    first, second = (qif, csv) if qif_first else (csv, qif)
    with Ledger() as ledger:
        import_file(ledger, first)
        again = import_file(ledger, second)
        assert (again.added, again.duplicates) == (0, 3)


def test_quickens_own_payee_names_for_the_banks_rows_are_the_same_rows(tmp_path: Path) -> None:
    """A Quicken history names payees as the user did (`Avalon Apartments` for `ONLINE PAYMENT
    11873321 TO AVALON APARTMENTS`); the bank's CSV of the same weeks lists the same days and
    amounts, which are the same rows once the rows whose texts match have paired."""
    qif = write(tmp_path, "Checking.QIF", "".join(
        f"D{day}\nT{amount}\nP{payee}\n^\n" for day, amount, payee in (
            ("03/01/2025", "-2150.00", "Avalon Apartments"), ("03/03/2025", "-45.67", "SHELL OIL"), ("03/07/2025", "-500.00", "Transfer to Savings"),
            ("03/10/2025", "-6.45", "Starbucks"), ("03/10/2025", "-6.45", "Starbucks"), ("03/14/2025", "3412.55", "Acme Corp"),
        )
    ), "!Type:Bank\n")
    csv = write(tmp_path, "checking.csv", (
        "2025-03-01,ONLINE PAYMENT 11873321 TO AVALON APARTMENTS,-2150.00\n2025-03-03,SHELL OIL 57442 HOUSTON TX,-45.67\n"
        "2025-03-07,Online Transfer to SAV ...9012,-500.00\n2025-03-10,STARBUCKS STORE 05813,-6.45\n2025-03-10,STARBUCKS STORE 05813,-6.45\n"
        "2025-03-14,ACME CORP PAYROLL PPD,3412.55\n2025-03-15,HEB #512 AUSTIN TX,-82.10\n"
    ))
    with Ledger() as ledger:
        import_file(ledger, qif, account="Checking")
        bank = import_file(ledger, csv, account="Checking")
        assert (bank.added, bank.duplicates) == (1, 6)



def test_a_renamed_paycheck_in_a_quiet_account_is_the_same_row(tmp_path: Path) -> None:
    """An aggregator's export downloaded again after the user renamed a payee: the account's other
    rows that month are listed again, so the paycheck of the same day and amount is the same one,
    though no other row of the account sits near it."""
    month = "2025-01-15,{},2500.00\n2025-01-30,Chase Credit Crd Epay,-400.00\n2025-01-31,Interest Paid,0.85\n"
    with Ledger() as ledger:
        import_file(ledger, write(tmp_path, "ally.csv", month.format("Acme Corp Payroll")), account="Ally")
        again = import_file(ledger, write(tmp_path, "ally 2.csv", month.format("ACME Payroll")), account="Ally")
        assert (again.added, again.duplicates) == (0, 3)
        assert ledger.scalar("SELECT SUM(amount) FROM transactions") == 250000 - 40000 + 85

def test_a_quicken_export_of_the_months_held_in_its_own_words_adds_nothing(tmp_path: Path) -> None:
    """Quicken writes its own payee names and the user's memos (`Acme Corp - salary`) where the user
    renamed a payee, the bank's text elsewhere: nearly all of the account's rows on its days are
    there on their day for their amount, twins included, and some in the bank's words, so it lists
    those days again and adds only what the account lacks."""
    bank = (
        "DEBIT,02/01/2025,ZELLE PAYMENT TO LANDLORD LLC JPM99A1,-1850.00,QUICKPAY_DEBIT,,\n"
        "DEBIT,02/05/2025,STARBUCKS STORE 05432 SEATTLE WA,-5.75,DEBIT_CARD,,\n"
        "DEBIT,02/05/2025,STARBUCKS STORE 05432 SEATTLE WA,-5.75,DEBIT_CARD,,\n"
        "CREDIT,02/14/2025,ORIG CO NAME:ACME CORP ORIG ID:1234567890 SEC:PPD,2850.00,ACH_CREDIT,,\n"
        "DEBIT,02/20/2025,PUGET SOUND ENERGY BILLPAY PPD ID: 9100000001,-65.00,ACH_DEBIT,,\n"
    )
    quicken = "".join(f"D{day}\nT{amount}\nP{payee}\n" + (f"M{memo}\n" if memo else "") + "^\n" for day, amount, payee, memo in (
        ("2/ 1'25", "-1,850.00", "Landlord LLC", "February rent"), ("2/ 5'25", "-5.75", "STARBUCKS STORE 05432", ""),
        ("2/ 5'25", "-5.75", "STARBUCKS STORE 05432", ""), ("2/14'25", "2,850.00", "Acme Corp", "salary"),
        ("2/20'25", "-65.00", "PSE", "electricity"), ("2/26'25", "-30.00", "Cash", "farmers market"),
    ))
    with Ledger() as ledger:
        import_file(ledger, write(tmp_path, "Chase1234_Activity_20250228.CSV", bank, CHASE_HEADER))
        again = import_file(ledger, write(tmp_path, "quicken.qif", quicken, "!Type:Bank\n"), account="Chase Checking …1234")
        assert (again.added, again.duplicates) == (1, 5)
        assert ledger.scalar("SELECT SUM(amount) FROM transactions") == -185000 - 1150 + 285000 - 6500 - 3000


def test_a_daily_fare_in_downloads_sharing_a_day_is_never_taken_for_a_moved_row(tmp_path: Path) -> None:
    """Two downloads sharing only their boundary day: the next days' $2.90 fares are new, though
    the same text for the same amount sits a day or two before the second file's first."""
    fares = lambda days: "".join(f"{day},MTA*NYCT PAYGO,-2.90\n" for day in days)  # noqa: E731
    with Ledger() as ledger:
        import_file(ledger, write(tmp_path, "jan.csv", fares(("2025-01-28", "2025-01-29", "2025-01-30", "2025-01-31"))), account="Card")
        february = import_file(ledger, write(tmp_path, "feb.csv", fares(("2025-01-31", "2025-02-01", "2025-02-02", "2025-02-03"))), account="Card")
        assert (february.added, february.duplicates) == (3, 1)


def test_another_accounts_rows_on_the_same_days_for_the_same_amounts_stay(tmp_path: Path) -> None:
    """Two banks' `transactions.csv` land in one account by name: a row of the second on a day and
    for an amount the first also has, at another shop, is another purchase, and the user is told."""
    (tmp_path / "b").mkdir()
    first = "2025-03-03,TESCO,-12.00\n2025-03-07,COSTA,-3.20\n2025-03-14,SHELL,-40.00\n2025-03-20,SAINSBURYS,-40.00\n"
    second = "2025-03-07,PRET,-3.20\n2025-03-12,BOOTS,-8.99\n2025-03-20,BOOTS,-40.00\n"
    with Ledger() as ledger:
        import_file(ledger, write(tmp_path, "transactions.csv", first))
        other = import_file(ledger, write(tmp_path / "b", "transactions.csv", second))
        assert (other.added, other.duplicates) == (3, 0)
        assert "only 0 of its 3 match them" in other.warnings[-1]


def test_a_row_the_other_download_dates_past_this_ones_last_day_is_not_doubled(tmp_path: Path) -> None:
    """A card's QFX dates rows by purchase, its CSV by posting: the CSV's last row, posted two
    days after the QFX's last, is the QFX's last row."""
    csv = write(tmp_path, "card.csv", "".join(f"2025-03-{day:02d},SHOP {day},-{day}.00\n" for day in (3, 8, 12, 17, 21, 28)))
    qfx_days = {3: 1, 8: 7, 12: 11, 17: 15, 21: 20, 28: 26}  # each purchase a day or two before it posted
    qfx = write(tmp_path, "card 2.csv", "".join(f"2025-03-{qfx_days[day]:02d},SHOP {day},-{day}.00\n" for day in qfx_days))
    with Ledger() as ledger:
        import_file(ledger, csv, account="Card")
        assert import_file(ledger, qfx, account="Card").added == 0
        assert ledger.scalar("SELECT COUNT(*) FROM transactions") == 6


def test_a_download_filling_a_gap_keeps_its_last_row_beside_the_next_downloads_first(tmp_path: Path) -> None:
    """March, then May, then the spring between: spring's coffee on 28 April was taken for May's
    coffee on 1 May (same shop, same amount, three days off), a download spring lists nothing of."""
    coffee = "BAECKEREI MUELLER KARTENZAHLUNG"
    march = write(tmp_path, "march.csv", f"2025-03-20,{coffee},-3.20\n2025-03-20,REWE,-55.64\n2025-03-27,{coffee},-3.20\n")
    may = write(tmp_path, "may.csv", f"2025-05-01,{coffee},-3.20\n")
    spring = write(tmp_path, "spring.csv", f"2025-03-20,{coffee},-3.20\n2025-03-20,REWE,-55.64\n2025-03-27,{coffee},-3.20\n"
                                          f"2025-04-28,{coffee},-3.20\n")
    with Ledger() as ledger:
        for path in (march, may):
            import_file(ledger, path, account="Giro")
        assert (import_file(ledger, spring, account="Giro").added, ledger.scalar("SELECT COUNT(*) FROM transactions")) == (1, 5)


def test_twin_rows_keep_their_own_references_when_a_mid_day_download_listed_one(tmp_path: Path) -> None:
    """Two coffees on 2 August: the mid-day download lists the second, the next lists both, the
    first first. Its new row is the first's (the second's reference was booked twice), and the
    mid-day file, undone (in a ledger from before imports noted what they listed) and imported
    again, brings its own coffee back."""
    header = "Date,Description,Amount,Reference\n"
    midday = write(tmp_path, "activity_0802.csv", "07/30/2025,WHOLEFDS,-43.10,'3202500100176001'\n"
                                                   "08/02/2025,BLUE BOTTLE COFFEE,-5.75,'3202500100176333'\n", header)
    later = write(tmp_path, "activity_0904.csv", "07/30/2025,WHOLEFDS,-43.10,'3202500100176001'\n"
                                                  "08/02/2025,BLUE BOTTLE COFFEE,-5.75,'3202500100176501'\n"
                                                  "08/02/2025,BLUE BOTTLE COFFEE,-5.75,'3202500100176333'\n", header)
    coffees = "SELECT bank_id FROM transactions WHERE posted = '2025-08-02' ORDER BY bank_id"
    with Ledger() as ledger:
        first = import_file(ledger, midday, account="Amex")
        assert import_file(ledger, later, account="Amex").added == 1
        assert [r["bank_id"] for r in ledger.query(coffees)] == ["3202500100176333", "3202500100176501"]
        ledger.conn.execute("DELETE FROM batch_listed")
        undo_batch(ledger, first.batch_id)
        assert import_file(ledger, midday, account="Amex").added == 2
        assert [r["bank_id"] for r in ledger.query(coffees)] == ["3202500100176333", "3202500100176501"]


@pytest.mark.parametrize(("listed", "removed", "added"), [(True, 0, 0), (False, 3, 3)])
def test_a_mid_day_download_undone_and_imported_again_brings_back_its_twin_coffee(tmp_path: Path, listed: bool, removed: int, added: int) -> None:
    """The mid-day download lists one of the day's two coffees, the next both. Undone, its rows
    are the next download's; in a ledger from before imports noted what they listed, they go, and
    imported again its coffee was taken for the second's (the same day and text)."""
    midday = write(tmp_path, "a.csv", "2025-06-28,GROCER,-40.00\n2025-07-01,PAYROLL,2500.00\n2025-07-01,COFFEE SHOP,-5.75\n")
    later = write(tmp_path, "b.csv", "2025-06-28,GROCER,-40.00\n2025-07-01,PAYROLL,2500.00\n2025-07-01,COFFEE SHOP,-5.75\n"
                                     "2025-07-01,COFFEE SHOP,-5.75\n2025-07-03,GAS,-30.00\n")
    with Ledger() as ledger:
        first = import_file(ledger, midday, account="C")
        import_file(ledger, later, account="C")
        if not listed:
            ledger.conn.execute("DELETE FROM batch_listed")
        assert (undo_batch(ledger, first.batch_id).removed, import_file(ledger, midday, account="C").added) == (removed, added)
        assert ledger.scalar("SELECT COUNT(*) FROM transactions WHERE description = 'COFFEE SHOP'") == 2


def test_a_file_imported_with_a_format_named_is_read_that_way_again(tmp_path: Path) -> None:
    """A card's short download the user imported with `--format card_csv`, as the summary advised:
    imported again without it, its rows are the same rows, not their opposites."""
    card = write(tmp_path, "amex.csv", "01/05/2025,UBER TRIP,18.20\n01/06/2025,WHOLEFDS MKT,88.12\n", HEADER)
    with Ledger() as ledger:
        assert import_file(ledger, card, forced_format="card_csv").added == 2
        again = import_file(ledger, card)
        assert (again.format, again.added, again.duplicates) == ("card_csv", 0, 2)


def test_next_month_of_a_card_that_writes_charges_positive_is_read_as_charges(tmp_path: Path) -> None:
    """January's payment showed the card signs its charges positive; February, with no payment,
    goes into that credit card account, so its positive amounts are its charges too, not income.
    A bank account's month of deposits keeps its signs."""
    (tmp_path / "jan").mkdir()
    (tmp_path / "feb").mkdir()
    january = write(tmp_path / "jan", "activity.csv", (
        "01/10/2024,AMAZON MARKETPLACE,19.99\n01/15/2024,DELTA AIR LINES,412.80\n"
        "01/20/2024,AUTOPAY PAYMENT - THANK YOU,-512.33\n01/28/2024,WHOLE FOODS MARKET,87.12\n"
    ))
    february = write(tmp_path / "feb", "activity.csv", (
        "02/02/2024,WHOLE FOODS MARKET,64.20\n02/09/2024,NETFLIX.COM,15.49\n02/14/2024,OPENTABLE RESTAURANT,120.00\n"
    ))
    (tmp_path / "mar").mkdir()
    march = write(tmp_path / "mar", "activity.csv", "03/20/2024,AUTOPAY PAYMENT - THANK YOU,-146.51\n03/22/2024,DELTA AIR LINES REFUND,-87.90\n")
    with Ledger() as ledger:
        assert import_file(ledger, january).format == "card_csv"
        summary = import_file(ledger, february)
        assert summary.format == "card_csv"
        assert any("is a credit card" in warning for warning in summary.warnings)
        assert [r["amount"] for r in rows(ledger, "posted >= '2024-02-01'")] == [-6420, -1549, -12000]
        assert import_file(ledger, february).duplicates == 3
        assert import_file(ledger, march).format == "card_csv"  # credits only, written negative: credits all the same
        assert [r["amount"] for r in rows(ledger, "posted >= '2024-03-01'")] == [14651, 8790]
        (tmp_path / "apr").mkdir()
        april = write(tmp_path / "apr", "activity.csv", "04/03/2024,AMAZON.COM RETURN,-60.00\n04/15/2024,NETFLIX.COM,15.49\n04/20/2024,MOBILE PAYMENT,-128.09\n")
        assert import_file(ledger, april).format == "card_csv"  # a quiet month: a return, a charge, a payment not worded `thank you`
        assert [r["amount"] for r in rows(ledger, "posted >= '2024-04-01'")] == [6000, -1549, 12809]
        (tmp_path / "may").mkdir()  # charges whose words money in has too: still the card's
        may = write(tmp_path / "may", "activity.csv", "05/02/2024,BALANCE TRANSFER,2500.00\n05/14/2024,INTEREST CHARGE ON PURCHASES,18.22\n"
                    "05/20/2024,MARRIOTT HOTEL DEPOSIT,150.00\n05/22/2024,STORAGE SECURE DEPOSIT,80.00\n")
        assert import_file(ledger, may).format == "card_csv"
        savings = import_file(ledger, write(tmp_path, "savings.csv", (
            "02/01/2024,ACME PAYROLL,2500.00\n02/15/2024,ACME PAYROLL,2500.00\n03/01/2024,ACME PAYROLL,2500.00\n"
        )))
        assert summary.accounts != savings.accounts and savings.format == "generic_csv"
        (tmp_path / "bank").mkdir()
        bank = import_file(ledger, write(tmp_path / "bank", "activity.csv", (  # another bank's file of the same name
            "06/25/2024,PAYROLL ACME CORP,2345.67\n06/26/2024,STARBUCKS STORE 05421,-5.75\n06/28/2024,RENT PAYMENT,-1200.00\n"
        )))
        assert bank.format == "generic_csv" and [r["amount"] for r in rows(ledger, "posted >= '2024-06-01'")] == [234567, -575, -120000]
        (tmp_path / "bank2").mkdir()
        deposits = write(tmp_path / "bank2", "activity.csv", "07/02/2024,MOBILE DEPOSIT REF 1234,1200.00\n07/05/2024,ZELLE FROM JOHN,50.00\n"
                         "07/08/2024,STARBUCKS,-5.75\n07/10/2024,RENT,-1200.00\n")
        assert import_file(ledger, deposits).format == "generic_csv"
        assert [r["amount"] for r in rows(ledger, "description = 'ACME PAYROLL'")] == [250000] * 3


def test_a_cards_first_download_paid_by_online_payment_opens_a_card_and_a_bank_bill_stays_money_out(tmp_path: Path) -> None:
    """A card's first download of charges positive, its payment `ONLINE PAYMENT` and a return, opens
    a credit card owing the charges; a checking file's bill worded the same stays money out. Money
    out of nothing but payments opening an account named for a card is its charges too."""
    head = "Transaction Date,Posting Date,Description,Amount\n"
    with Ledger() as ledger:
        card = import_file(ledger, write(tmp_path, "Target Credit Card.csv", (
            "01/28/2025,01/29/2025,TARGET 00012345 MINNEAPOLIS MN,54.99\n01/20/2025,01/20/2025,ONLINE PAYMENT,-200.00\n"
            "01/15/2025,01/16/2025,TARGET.COM * 800-591-3869,23.45\n01/12/2025,01/13/2025,TARGET 00012345 RETURN,-12.00\n"
            "01/04/2025,01/05/2025,TARGET 00012345 MINNEAPOLIS MN,61.20\n"
        ), head))
        assert (card.format, card.accounts, card.added) == ("card_csv", ["Target Credit Card"], 5)
        assert ledger.query_one("SELECT type FROM accounts WHERE name = 'Target Credit Card'")["type"] == "credit_card"
        assert [r["amount"] for r in rows(ledger)] == [-5499, 20000, -2345, 1200, -6120]
        checking = import_file(ledger, write(tmp_path, "Checking_Activity.csv", (
            "01/31/2025,ACME CORP PAYROLL,2500.00\n01/22/2025,ONLINE PAYMENT,-200.00\n01/15/2025,SHELL OIL 5744,-41.00\n"
        )))
        assert checking.format == "generic_csv" and not any("card" in warning for warning in checking.warnings)
        assert checking.accounts == ["Checking"]
        assert [r["amount"] for r in rows(ledger, "account_id = (SELECT id FROM accounts WHERE name = 'Checking')")] == [250000, -20000, -4100]
        (tmp_path / "visa").mkdir()
        visa = import_file(ledger, write(tmp_path / "visa", "My Visa.csv", (
            "02/03/2025,NETFLIX.COM,15.49\n02/10/2025,ONLINE PAYMENT,-300.00\n02/12/2025,SHELL OIL 5744,41.00\n"
        )))
        assert visa.format == "card_csv" and [r["amount"] for r in rows(ledger, "posted >= '2025-02-01'")] == [-1549, 30000, -4100]


def test_a_purchase_abroad_named_in_an_original_currency_column_leaves_the_account_in_its_own(tmp_path: Path) -> None:
    """One EUR purchase in a column blank elsewhere: the account named for it keeps its dollars."""
    with Ledger() as ledger:
        import_file(ledger, write(tmp_path, "checking.csv", "01/02/2025,OPENING DEPOSIT,100.00\n"), currency="USD")
        summary = import_file(ledger, write(tmp_path, "transactions.csv", (
            "01/31/2025,Stripe,4210.55,\n01/15/2025,Figma,-45.00,\n01/10/2025,OVH SAS,-102.33,EUR\n"
        ), "Date,Description,Amount,Original Currency\n"), account="checking")
        assert (summary.accounts, summary.added, summary.warnings) == (["checking"], 3, [])
        assert [(r["amount"], r["currency"]) for r in rows(ledger)] == [(10000, "USD"), (421055, "USD"), (-4500, "USD"), (-10233, "USD")]


def test_a_card_whose_files_sign_charges_negative_keeps_a_month_of_returns_as_written(tmp_path: Path) -> None:
    """Visa's January wrote charges negative; February is mostly returns and a payment: credits, as written."""
    january = write(tmp_path, "Visa_January.csv", "01/05/2024,WHOLEFDS MKT,-64.20\n01/12/2024,SHELL OIL,-45.00\n01/20/2024,TARGET,-31.10\n")
    february = write(tmp_path, "Visa_February.csv", (
        "02/02/2024,AMAZON MKTPL RETURN,65.11\n02/05/2024,TARGET RETURN CREDIT,43.20\n02/09/2024,BEST BUY,129.99\n"
        "02/15/2024,ONLINE PYMT ACH,312.00\n02/20/2024,NETFLIX.COM,-15.49\n"
    ))
    with Ledger() as ledger:
        import_file(ledger, january)
        assert ledger.query_one("SELECT type FROM accounts")["type"] == "credit_card"
        assert import_file(ledger, february).format == "generic_csv"
        assert [r["amount"] for r in rows(ledger, "posted >= '2024-02-01'")] == [6511, 4320, 12999, 31200, -1549]


def test_a_file_named_for_a_card_opens_a_card_and_is_read_the_same_way_again(tmp_path: Path) -> None:
    """`amex.csv` of positive amounts and no payment opens a credit card account: its amounts are
    its charges. A file imported before keeps the reading it had, whatever its account is now."""
    amex = write(tmp_path, "amex.csv", "03/02/2025,UBER TRIP,18.20\n03/05/2025,WHOLEFDS MKT,88.12\n03/14/2025,DELTA AIR LINES,412.30\n")
    with Ledger() as ledger:
        first = import_file(ledger, amex)
        assert (first.format, first.accounts) == ("card_csv", ["amex"])
        assert [r["amount"] for r in rows(ledger)] == [-1820, -8812, -41230]
        again = import_file(ledger, amex)
        assert again.duplicates == 3
        assert undo_batch(ledger, first.batch_id).kept_by == [{"batch_id": again.batch_id, "file_name": "amex.csv", "rows": 3}]
        undo_batch(ledger, again.batch_id)
        kept = import_file(ledger, amex, forced_format="generic_csv")  # the user's own choice
        assert import_file(ledger, amex).format == "generic_csv" and kept.added == 3
        assert ledger.scalar("SELECT COUNT(*) FROM transactions") == 3


def test_a_one_row_download_follows_its_cards_earlier_downloads_and_is_not_guessed_for_a_new_one(tmp_path: Path) -> None:
    """One or two positive rows say nothing of how a file signs them: a card's earlier downloads,
    whatever their names, do; opening a card's account, they are read as written, and said so."""
    header = "Date,Description,Amount\n"
    with Ledger() as ledger:
        amex = import_file(ledger, write(tmp_path, "amex.csv", "03/02/2025,UBER TRIP,18.20\n03/05/2025,WHOLEFDS MKT,88.12\n"
                                                             "03/14/2025,DELTA AIR LINES,412.30\n", header))
        assert amex.format == "card_csv"
        one = import_file(ledger, write(tmp_path, "download.csv", "03/20/2025,LOBLAWS,23.45\n", header), account="amex")
        assert one.format == "card_csv"
        (tmp_path / "visa").mkdir()
        visa = import_file(ledger, write(tmp_path / "visa", "visa.csv", "03/12/2025,AMAZON MKTPLACE,23.99\n", header))
        assert (visa.format, visa.accounts) == ("generic_csv", ["visa"])
        assert any("read as money in" in warning for warning in visa.warnings)
        assert [r["amount"] for r in rows(ledger, "posted >= '2025-03-12'")] == [-41230, -2345, 2399]


def test_a_conversion_inside_one_multi_currency_account_links_its_legs(tmp_path: Path) -> None:
    """Wise keeps every currency in one account: a conversion's two legs are there, linked."""
    wise = write(tmp_path, "transaction-history.csv", (
        "BALANCE-5,COMPLETED,NEUTRAL,2024-03-16 09:00:00,2024-03-16 09:00:01,0.41,GBP,,,Jane Smith,100.00,GBP,Jane Smith,116.50,EUR,1.165,,\n"
    ), "ID,Status,Direction,Created on,Finished on,Source fee amount,Source fee currency,Target fee amount,Target fee currency,"
       "Source name,Source amount (after fees),Source currency,Target name,Target amount (after fees),Target currency,Exchange rate,Reference,Batch\n")
    with Ledger() as ledger:
        assert import_file(ledger, wise).transfers_linked == 1
        legs = ledger.query("SELECT id, amount, currency, transfer_id FROM transactions ORDER BY id")
        assert [(leg["amount"], leg["currency"], leg["transfer_id"]) for leg in legs] == [
            (-10041, "GBP", legs[1]["id"]), (11650, "EUR", legs[0]["id"]),
        ]


def test_a_paypal_purchase_paid_by_card_counts_once(tmp_path: Path) -> None:
    """The card's `PAYPAL *SHOP` and PayPal's `General Card Deposit` are one move of the owner's
    money; PayPal's payment to the shop is the spending."""
    card = write(tmp_path, "Chase5678_Activity20250205.CSV", (
        "01/14/2025,01/15/2025,PAYPAL *SHOP,Shopping,Sale,-45.00,\n01/08/2025,01/09/2025,TRADER JOE S #552,Groceries,Sale,-30.00,\n"
    ), "Transaction Date,Post Date,Description,Category,Type,Amount,Memo\n")
    paypal = write(tmp_path, "Download.CSV", (
        '"01/14/2025","10:27:00","PST","","General Card Deposit","Completed","USD","45.00","0.00","45.00","45.00"\n'
        '"01/14/2025","10:28:00","PST","Etsy Shop","Express Checkout Payment","Completed","USD","-45.00","0.00","-45.00","0.00"\n'
    ), '"Date","Time","TimeZone","Name","Type","Status","Currency","Gross","Fee","Net","Balance"\n')
    with Ledger() as ledger:
        import_file(ledger, card)
        assert import_file(ledger, paypal).transfers_linked == 1
        counted = ledger.query_one(
            "SELECT SUM(amount) FILTER (WHERE amount < 0) AS spent, SUM(amount) FILTER (WHERE amount > 0) AS earned"
            " FROM transactions WHERE transfer_id IS NULL"
        )
        assert (counted["spent"], counted["earned"]) == (-7500, None)


def test_a_renamed_download_with_a_short_overlap_goes_to_its_numbered_account(tmp_path: Path) -> None:
    """`sapphire aug.csv` reads as `Chase Card`; the one `Chase Card …5678` sharing its two rows is it."""
    head = "Transaction Date,Post Date,Description,Category,Type,Amount,Memo\n"
    july = write(tmp_path, "Chase5678_Activity20250804.CSV", "08/01/2025,08/02/2025,UNIQLO SOHO,Shopping,Sale,-19.58,\n"
                 "08/01/2025,08/02/2025,PAYPAL *SHOP,Shopping,Sale,-44.00,\n07/20/2025,07/21/2025,TARGET 00012345,Shopping,Sale,-17.50,\n", head)
    renamed = write(tmp_path, "sapphire aug.csv", "08/12/2025,08/13/2025,WHOLEFDS MKT #10234,Groceries,Sale,-55.10,\n"
                    "08/01/2025,08/02/2025,UNIQLO SOHO,Shopping,Sale,-19.58,\n08/01/2025,08/02/2025,PAYPAL *SHOP,Shopping,Sale,-44.00,\n", head)
    with Ledger() as ledger:
        import_file(ledger, july)
        summary = import_file(ledger, renamed)
        assert (summary.accounts, summary.added, summary.duplicates) == (["Chase Card …5678"], 1, 2)
        assert ledger.scalar("SELECT COUNT(*) FROM accounts") == 1


@pytest.mark.parametrize("qfx_first", [False, True])
def test_a_cards_csv_and_qfx_that_share_no_rows_meet_by_the_cards_last_digits(tmp_path: Path, qfx_first: bool) -> None:
    """March as QFX, numbered 4147202212345678, April as `Chase5678_Activity….CSV`: one card in
    either order, though no row tells it (the files share none). Another card's file stays apart,
    and so does a Citi card that ends in the same digits as another Chase card."""
    head = "Transaction Date,Post Date,Description,Category,Type,Amount,Memo\n"
    april = write(tmp_path, "Chase5678_Activity20240401_20240430_20240430.CSV",
                  "04/02/2024,04/03/2024,UNIQLO SOHO,Shopping,Sale,-19.58,\n04/11/2024,04/12/2024,PAYPAL *SHOP,Shopping,Sale,-44.00,\n", head)
    other = write(tmp_path, "Chase9999_Activity20240401_20240430_20240430.CSV", "04/05/2024,04/06/2024,TARGET,Shopping,Sale,-17.50,\n", head)
    trn = "<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>{day}<TRNAMT>{amount}<FITID>{day}C<NAME>{name}</STMTTRN>"
    march = write(tmp_path, "Chase5678_Activity_20240331.QFX", (
        "<OFX><SIGNONMSGSRSV1><SONRS><FI><ORG>B1<FID>10898</FI></SONRS></SIGNONMSGSRSV1><CREDITCARDMSGSRSV1><CCSTMTTRNRS>"
        "<CCSTMTRS><CURDEF>USD<CCACCTFROM><ACCTID>4147202212345678</CCACCTFROM><BANKTRANLIST>"
        + trn.format(day="20240304", amount="-12.00", name="BLUE BOTTLE") + trn.format(day="20240320", amount="-60.00", name="SHELL OIL")
        + "</BANKTRANLIST></CCSTMTRS></CCSTMTTRNRS></CREDITCARDMSGSRSV1></OFX>\n"
    ), "OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n")
    citi = write(tmp_path, "citi.qfx", march.read_text().replace("<ORG>B1<FID>10898", "<ORG>Citigroup<FID>24909").replace(
        "4147202212345678", "5424180011119999"), "")
    with Ledger() as ledger:
        for path in ((march, april) if qfx_first else (april, march)):
            import_file(ledger, path)
        assert ledger.query("SELECT number, type FROM accounts") == [{"number": "4147202212345678", "type": "credit_card"}]
        assert ledger.scalar("SELECT COUNT(*) FROM transactions") == 4
        assert import_file(ledger, citi).accounts == ["Citi Credit Card 9999"]
        assert import_file(ledger, other).accounts == ["Chase Card …9999"]  # another bank's card ends the same


def test_dates_outside_1900_to_2199_are_row_errors_in_every_format(tmp_path: Path) -> None:
    """`0001-01-01` is .NET's empty date; such a row was stored, or crashed the import past it."""
    csv_file = write(tmp_path, "null_date.csv", "0001-01-01,PLACEHOLDER,-1.00\n2025-01-02,COFFEE,-4.50\n")
    qif = tmp_path / "far.qif"
    qif.write_text("!Type:Bank\nD12/31/9999\nT-5.00\nPFAR\n^\nD01/02/2025\nT-4.50\nPCOFFEE\n^\n")
    added = []
    with Ledger() as ledger:
        for path, line, day in ((csv_file, 2, "0001-01-01"), (qif, 2, "9999-12-31")):
            with pytest.raises(ImportRefused, match=rf"line {line}, column date: the date {day} is out of range \(1900 to 2199\)"):
                import_file(ledger, path, account="Checking")
            added.append(import_file(ledger, path, account="Checking", skip_bad=True).added)
        assert added == [1, 0]  # the QIF's coffee is the CSV's
        assert ledger.scalar("SELECT MIN(posted) || ' ' || MAX(posted) FROM transactions") == "2025-01-02 2025-01-02"


def test_a_file_name_that_is_not_utf8_is_kept_readable(tmp_path: Path) -> None:
    """`stmt_\\xff.csv` from an old archive: the batch records it with a replacement character."""
    path = Path(os.fsdecode(bytes(tmp_path) + b"/stmt_\xff.csv"))
    path.write_text(HEADER + JAN_FEB, encoding="utf-8")
    with Ledger() as ledger:
        assert import_file(ledger, path, account="Checking").added == 5
        assert ledger.scalar("SELECT file_name FROM import_batches") == "stmt_\ufffd.csv"


def test_a_us_banks_file_is_in_dollars_without_a_guess(fixture_path) -> None:  # type: ignore[no-untyped-def]
    with Ledger() as ledger:
        summary = import_file(ledger, fixture_path("written/chase_checking.csv"))
        assert not [w for w in summary.warnings if "currency" in w]
        assert ledger.scalar("SELECT currency FROM accounts") == "USD"


SCHWAB = '"Date","Status","Type","CheckNumber","Description","Withdrawal","Deposit","RunningBalance"\n'


def test_a_us_banks_file_stays_in_dollars_whatever_currency_is_given(fixture_path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """--currency is the currency of a file that states none: a bank whose files are always in
    dollars states it. One --currency meant for another file of the batch put a Schwab file in
    dinars ($4.50 became 4.500 BHD), and its next file opened a second account in dollars."""
    schwab = write(tmp_path, "schwab.csv", (
        '"03/18/2025","Posted","DEPOSIT","","Deposit Mobile Banking","","$20.00","$1,078.47"\n'
        '"03/14/2025","Posted","ATM","","BMO HARRIS BANK","$103.00","","$1,058.47"\n'
        '"03/09/2025","Posted","CHECK","558","Check Paid #558","$75.00","","$1,161.47"\n'), SCHWAB)
    gulf = write(tmp_path, "Gulf.csv", "2025-03-01,SALARY,1500.125\n")
    with Ledger() as ledger:
        chase = import_file(ledger, fixture_path("written/chase_checking.csv"), currency="EUR")
        assert chase.warnings == ["the file states USD; --currency EUR applies only to files that state none"]
        assert [import_file(ledger, path, currency="BHD").warnings for path in (schwab, gulf)] == [
            ["the file states USD; --currency BHD applies only to files that state none"], []]
        more = import_file(ledger, write(tmp_path, "schwab_more.csv", '"03/25/2025","Posted","ACH","","NEW ROW","$1.00","","$1,077.47"\n', SCHWAB))
        assert (more.accounts, more.added) == (["Schwab Checking"], 1)
        assert [(a["name"], a["currency"]) for a in ledger.query("SELECT name, currency FROM accounts ORDER BY id")] == [
            ("Chase Checking", "USD"), ("Schwab Checking", "USD"), ("Gulf", "BHD")]
        assert booked(ledger)[-5:] == [
            ("Schwab Checking", "2025-03-18", 2000, "USD"), ("Schwab Checking", "2025-03-14", -10300, "USD"),
            ("Schwab Checking", "2025-03-09", -7500, "USD"), ("Gulf", "2025-03-01", 1500125, "BHD"),
            ("Schwab Checking", "2025-03-25", -100, "USD"),
        ]
        assert ledger.scalar("SELECT COUNT(*) FROM transactions WHERE currency = 'EUR'") == 0


def test_a_capital_one_card_is_in_the_currency_given(fixture_path) -> None:  # type: ignore[no-untyped-def]
    """Capital One's cards are American, British and Canadian, in one layout: --currency says which."""
    with Ledger() as ledger:
        summary = import_file(ledger, fixture_path("csv2ofx/capitalone.csv"), currency="CAD")
        assert summary.warnings == [] and ledger.scalar("SELECT currency FROM accounts") == "CAD"

def test_a_renamed_download_sharing_a_row_or_two_goes_where_its_running_balance_continues(tmp_path: Path) -> None:
    """Two shared rows are too few to recognise an account by, unless the file's running balance
    shows the account's known balance on that day; without a balance, the doubled rows are named."""
    header = "Date,Description,Amount,Balance\n"
    with Ledger() as ledger:
        import_file(ledger, write(tmp_path, "checking-export.csv", (
            "2025-03-01,COFFEE SHOP,-4.50,995.50\n2025-03-08,GROCERY STORE,-23.45,972.05\n2025-03-10,CHECK 1042,-80.00,892.05\n"
        ), header))
        renamed = import_file(ledger, write(tmp_path, "bank.csv", (
            "2025-03-08,GROCERY STORE,-23.45,972.05\n2025-03-10,CHECK 1042,-80.00,892.05\n2025-03-14,SPOTIFY,-11.99,880.06\n"
        ), header))
        assert (renamed.accounts, renamed.added, renamed.duplicates) == (["checking"], 1, 2)
        unbalanced = import_file(ledger, write(tmp_path, "other.csv", (
            "2025-03-10,CHECK 1042,-80.00\n2025-03-14,SPOTIFY,-11.99\n2025-03-16,BOOKSHOP,-30.00\n"
        ), "Date,Description,Amount\n"))
        assert unbalanced.accounts == ["other"]
        assert unbalanced.warnings[-1] == (
            '2 of its rows in other are in checking too (same day, amount and text): if the file is'
            ' checking\'s, undo it and import it with --account "checking"'
        )
        netflix = import_file(ledger, write(tmp_path, "card.csv", "2025-03-14,SPOTIFY,-11.99\n", "Date,Description,Amount\n"))
        assert not any("too (same day" in warning for warning in netflix.warnings)  # two cards may pay one subscription



def test_a_download_into_its_account_doubling_rows_a_renamed_one_put_elsewhere_says_so(tmp_path: Path) -> None:
    """March's renamed download went in first and opened an account of its own; February's, by
    its name into the account, adds the two rows they share again: the user is told where."""
    header = "Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #,\n"
    january = "DEBIT,01/20/2025,GROCER,-23.45,DEBIT_CARD,976.55,,\n"
    shared = "CREDIT,02/28/2025,ACME PAYROLL,3412.55,ACH_CREDIT,4389.10,,\nDEBIT,02/25/2025,AMEX EPAYMENT,-886.78,ACH_DEBIT,976.55,,\n"
    with Ledger() as ledger:
        import_file(ledger, write(tmp_path, "Chase1234_Activity_20250131.csv", january, header))
        import_file(ledger, write(tmp_path, "export (3).csv", "DEBIT,03/05/2025,RENT,-2150.00,ACH_DEBIT,2239.10,,\n" + shared, header))
        february = import_file(ledger, write(tmp_path, "Chase1234_Activity_20250228.csv", shared, header))
        assert february.accounts == ["Chase Checking …1234"]
        assert any(w.startswith("2 of its rows in Chase Checking …1234 are in Chase Checking too (same day, amount and text)")
                   for w in february.warnings)


def test_a_qfx_opening_an_account_beside_its_csvs_says_which_rows_they_share_though_its_names_are_cut(tmp_path: Path) -> None:
    """The CSV went in with --account; the QFX names its number and shares two rows with it, too
    few to tell it is that account's, so it opens its own: the two rows, the QFX's names cut at 32
    characters, are said to be in both."""
    csv_file = write(tmp_path, "checking 2025.csv", (
        "DEBIT,03/28/2025,ATM WITHDRAWAL 003421 04TH AVE SEATTLE WA,-20.00,ATM,,\n"
        "DEBIT,03/30/2025,AMAZON.COM*RT4Y67 AMZN.COM/BILL WA,-125.50,DEBIT_CARD,,\n"
    ), CHASE_HEADER)
    qfx = _chase_qfx(tmp_path, "JPMC.qfx", "000004321", (
        ("20250328", "-20.00", "1", "ATM WITHDRAWAL 003421 04TH AVE S<MEMO>EATTLE WA"),
        ("20250330", "-125.50", "2", "AMAZON.COM*RT4Y67 AMZN.COM/BILL <MEMO>WA"), ("20250405", "-9.99", "3", "SPOTIFY"),
    ))
    with Ledger() as ledger:
        import_file(ledger, csv_file, account="Joint Checking")
        separate = import_file(ledger, qfx)
        assert separate.accounts != ["Joint Checking"]
        assert any(w.startswith(f"2 of its rows in {separate.accounts[0]} are in Joint Checking too") for w in separate.warnings)


def test_next_months_renamed_download_goes_where_its_running_balance_starts(tmp_path: Path) -> None:
    """No row shared, but the first row's balance before it is the account's balance at its last
    day: the next download of it, renamed; an opening balance of nothing says nothing."""
    header = "Date,Description,Amount,Balance\n"
    with Ledger() as ledger:
        import_file(ledger, write(tmp_path, "checking-jan.csv", "2025-01-20,GROCERY STORE,-23.45,1976.55\n2025-01-28,PAYROLL,1000.00,2976.55\n", header))
        import_file(ledger, write(tmp_path, "savings.csv", "2025-01-05,INTEREST,0.52,500.52\n", header))
        february = import_file(ledger, write(tmp_path, "export.csv", "2025-02-03,RENT,-1200.00,1776.55\n2025-02-10,SPOTIFY,-11.99,1764.56\n", header))
        assert february.accounts == ["checking"]
        assert "checking ended on the balance its running balance starts from" in february.warnings[0]


def test_a_text_whose_spaces_moved_is_the_same_row_and_a_longer_name_is_not(tmp_path: Path) -> None:
    """`ZELLE TO JO ANNE` and `ZELLE TO JOANNE SMITH` on the boundary day are two payments; a cut
    text read back with a space where the cut was is one (see the Chase QFX and CSV test)."""
    header = "Date,Description,Amount\n"
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with Ledger() as ledger:
        import_file(ledger, write(tmp_path / "a", "checking.csv", "2025-01-20,GROCERY,-40.00\n2025-01-31,ZELLE TO JO ANNE,-50.00\n", header))
        later = import_file(ledger, write(tmp_path / "b", "checking.csv", "2025-01-31,ZELLE TO JOANNE SMITH,-50.00\n2025-02-03,GROCERY,-22.00\n", header))
        assert (later.added, later.duplicates) == (2, 0)


def test_a_wallets_download_of_one_currency_meets_its_download_of_all(tmp_path: Path) -> None:
    """`wallet.csv` of euros and pounds opens `wallet EUR` and `wallet GBP`; next month's euros alone
    go into `wallet EUR`, and the other way round a download of all lands beside `wallet` in euros."""
    header = "Date,Description,Amount,Currency,Balance\n"
    both = "2025-01-02,TOP UP,500.00,EUR,500.00\n2025-01-05,CAFE,-12.50,EUR,487.50\n2025-01-06,PRET,-8.20,GBP,291.80\n2025-01-07,TUBE,-2.80,GBP,289.00\n"
    euros = "2025-01-05,CAFE,-12.50,EUR,487.50\n2025-02-03,CARREFOUR,-22.00,EUR,465.50\n"
    for order, (first, second) in enumerate(((both, euros), (euros, both))):
        with Ledger(tmp_path / f"ledger{order}.db") as ledger:
            (tmp_path / "a").mkdir(exist_ok=True)
            (tmp_path / "b").mkdir(exist_ok=True)
            import_file(ledger, write(tmp_path / "a", "wallet.csv", first, header))
            later = import_file(ledger, write(tmp_path / "b", "wallet.csv", second, header))
            assert later.duplicates == 1
            assert ledger.scalar("SELECT COUNT(*) FROM accounts WHERE currency = 'EUR'") == 1


def test_another_accounts_file_amends_none_of_the_rows_it_does_not_list(tmp_path: Path) -> None:
    """A second checking account's file put into the first by --account lists one or two of its
    rows (the same salary on the same days) and leaves out the rest: it is no new download of the
    account, and its purchases, near the first's in text and amount, replace none of them."""
    mine = "".join(f"05/{day:02d}/2024,COFFEE BAR,-4.{day:02d}\n" for day in range(2, 12)) + "05/01/2024,ACME PAYROLL,2500.00\n05/12/2024,ACME PAYROLL,2500.00\n"
    theirs = "".join(f"05/{day:02d}/2024,COFFEE BAR,-4.{day + 20:02d}\n" for day in range(2, 12)) + "05/01/2024,ACME PAYROLL,2500.00\n05/12/2024,ACME PAYROLL,2500.00\n"
    with Ledger() as ledger:
        import_file(ledger, write(tmp_path, "mine.csv", mine), account="Checking")
        other = import_file(ledger, write(tmp_path, "theirs.csv", theirs), account="Checking")
        assert (other.added, other.duplicates, other.corrected) == (10, 2, 0)
        assert ledger.scalar("SELECT COUNT(*) FROM transactions") == 22


def test_a_german_card_settled_from_the_girokonto_is_a_transfer(tmp_path: Path) -> None:
    header = "Buchungsdatum;Empfänger;Verwendungszweck;Betrag (€)\n"
    with Ledger() as ledger:
        import_file(ledger, write(tmp_path, "giro.csv", "05.01.2023;DKB VISACARD;4748********1234 Kreditkartenabrechnung;-150,00\n", header),
                    account="Girokonto")
        card = import_file(ledger, write(tmp_path, "visa.csv", "05.01.2023;;Ausgleich Kreditkarte;150,00\n06.01.2023;;REWE;-23,45\n", header),
                           account="Kreditkarte")
        assert card.transfers_linked == 1


def test_an_account_named_with_spaces_around_is_the_account_of_that_name(tmp_path: Path) -> None:
    path = write(tmp_path, "one.csv", "2025-02-03,STARBUCKS,-4.50\n")
    with Ledger() as ledger:
        assert import_file(ledger, path, account="Amex").added == 1
        again = import_file(ledger, path, account=" amex ")
        assert (again.accounts, again.duplicates) == (["Amex"], 1)
        assert import_file(ledger, path, account="\u200bAmex\ufeff").accounts == ["Amex"]  # pasted with invisible characters
        for nameless in ("  ", "\u200b"):
            with pytest.raises(ImportRefused, match="--account needs a name"):
                import_file(ledger, path, account=nameless)
