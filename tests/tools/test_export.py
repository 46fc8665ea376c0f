"""export_transactions and `wilson export`: CSV, JSON, Beancount and Ledger/hledger journals.

The journals are loaded by the real tools (bean-check; hledger when it is installed; CI installs it
with `apt-get install -y hledger`) and their balances compared with sums computed from the ledger.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import subprocess
import threading
from collections import defaultdict
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.tools.books import Books
from wilson.cli import main
from wilson.importers.model import ImportRefused
from wilson.importers.pipeline import import_file
from wilson.ledger import Ledger
from wilson.money import to_decimal
from wilson.tools import REGISTRY
from wilson.tools.export import export
from wilson.tools.journal import commodity, component

NASTY = 'ZÜRICH "CAFÉ"; | (x) \\ ; DROP TABLE transactions; --\nsecond line'


@pytest.fixture
def books(tmp_path) -> Books:
    b = Books(tmp_path / "w.db")
    b.account("Checking")
    b.account("Visa", "credit_card")
    b.account("Savings", "savings")
    b.account("Euro Konto", "checking", "EUR")
    b.account("Yen", "checking", "JPY")
    b.account("Dinar", "checking", "KWD")
    b.account("Visa!", "credit_card")  # sanitises like "Visa": must stay a separate journal account
    b.add("Checking", "2025-04-30", "1000.00", "OPENING DEPOSIT")
    b.add("Checking", "2025-05-01", "2500.00", "ACME PAYROLL", payee="Acme", category="Salary")
    b.add("Checking", "2025-05-02", "-15.99", "NETFLIX.COM", payee="Netflix", category="Streaming", notes="family plan")
    b.add("Checking", "2025-05-03", "25.00", "REFUND AMAZON", payee="Amazon", category="Shopping")
    b.add("Checking", "2025-05-04", "-42.00", NASTY, payee=NASTY)
    b.add("Checking", "2025-05-05", "-9.99", "PENDING THING", pending=True)
    costco = b.add("Checking", "2025-05-06", "-100.00", "COSTCO", payee="Costco", category="Groceries")
    b.split(costco, "-60.00", "Groceries")
    b.split(costco, "-30.00", "Household", "towels")
    b.transfer("Checking", "Visa", "2025-05-07", "300.00", "CARD PAYMENT")
    b.transfer("Checking", "Savings", "2025-05-08", "200.00")
    b.add("Visa", "2025-05-09", "-80.00", "SHELL OIL", payee="Shell", category="Fuel")
    b.add("Visa!", "2025-05-09", "-1.00", "FEE", category="Fees")
    b.add("Euro Konto", "2025-05-10", "-12.30", "REWE", payee="Rewe", category="Groceries")
    b.add("Euro Konto", "2025-05-10", "7.25", "ZINSEN", payee="Bank", category="Interest")
    b.add("Yen", "2025-05-11", "-1500", "TOKYO SHOP")
    b.add("Checking", "2025-05-12", "0.00", "FEE WAIVED", category="Fees")
    b.add("Dinar", "2025-05-12", "-1.250", "KUWAIT SHOP")
    b.add("Checking", "2025-05-13", "-5.00", "CUSTOM CAT", category=b.ledger.category("Streaming")["name"])
    return b


def _posted_sums(books: Books, start: str | None = None) -> dict[tuple[str, str], Decimal]:
    """Independent expectation: each own account's posted total per currency."""
    sums: dict[tuple[str, str], Decimal] = defaultdict(Decimal)
    for name, currency, amount in books.ledger.conn.execute(
        "SELECT a.name, t.currency, t.amount FROM transactions t JOIN accounts a ON a.id = t.account_id WHERE t.pending = 0"
    ):
        sums[(name, currency)] += to_decimal(amount, currency)
    return dict(sums)


def _write(books: Books, tmp_path: Path, fmt: str, **args) -> Path:
    path = tmp_path / f"out.{fmt}"
    result = books.run("export_transactions", format=fmt, path=str(path), **args)
    assert "error" not in result, result
    return path


def test_csv_matches_the_ledger(books, tmp_path):
    path = _write(books, tmp_path, "csv")
    rows = list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))
    assert {"date", "description", "amount", "category", "account", "payee", "currency", "notes", "id"} <= set(rows[0])
    assert len(rows) == books.ledger.scalar("SELECT COUNT(*) FROM transactions WHERE pending = 0")
    assert "PENDING THING" not in {r["description"] for r in rows}
    by_description = {r["description"]: r for r in rows}
    assert by_description["NETFLIX.COM"]["amount"] == "-15.99" and by_description["NETFLIX.COM"]["date"] == "2025-05-02"
    assert by_description["NETFLIX.COM"]["notes"] == "family plan"
    assert by_description["TOKYO SHOP"]["amount"] == "-1500" and by_description["KUWAIT SHOP"]["amount"] == "-1.250"
    assert by_description["REFUND AMAZON"]["amount"] == "25.00" and by_description["REFUND AMAZON"]["category"] == "Shopping"
    assert by_description[NASTY]["payee"] == NASTY
    totals: dict[tuple[str, str], Decimal] = defaultdict(Decimal)
    for r in rows:
        totals[(r["account"], r["currency"])] += Decimal(r["amount"])
    assert totals == _posted_sums(books)


def test_json_carries_splits_and_transfers(books, tmp_path):
    data = json.loads(_write(books, tmp_path, "json").read_text(encoding="utf-8"))
    assert data["covered"]["transactions"] == len(data["transactions"])
    costco = next(t for t in data["transactions"] if t["description"] == "COSTCO")
    assert costco["splits"] == [{"amount": "-60.00", "category": "Groceries", "memo": None, "category_path": "Food:Groceries"},
                                {"amount": "-30.00", "category": "Household", "memo": "towels", "category_path": "Shopping:Household"}]
    assert costco["category_path"] == "Food:Groceries"
    legs = [t for t in data["transactions"] if t["description"].startswith("CARD PAYMENT")]
    assert {t["id"] for t in legs} == {t["transfer_id"] for t in legs}
    empty = json.loads(export(books.ledger, "json", date(2030, 2, 1), date(2030, 2, 28)).text)["covered"]
    assert empty == {"transactions": 0, "start_date": "2030-02-01", "end_date": "2030-02-28"}  # the dates asked, with no rows


def _beancount_balances(path: Path) -> tuple[dict, list]:
    from beancount import loader
    from beancount.core import data

    entries, errors, _ = loader.load_file(str(path))
    balances: dict[tuple[str, str], Decimal] = defaultdict(Decimal)
    for entry in entries:
        if isinstance(entry, data.Transaction):
            for posting in entry.postings:
                balances[(posting.account, posting.units.currency)] += posting.units.number
    return balances, entries


def test_beancount_loads_and_balances(books, tmp_path):
    path = _write(books, tmp_path, "beancount")
    check = subprocess.run(["bean-check", str(path)], capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr
    balances, entries = _beancount_balances(path)
    assert balances[("Assets:Checking", "USD")] == _posted_sums(books)[("Checking", "USD")]
    assert balances[("Liabilities:Visa", "USD")] == Decimal("220.00")
    assert balances[("Liabilities:Visa-2", "USD")] == Decimal("-1.00")
    assert balances[("Assets:Dinar", "KWD")] == Decimal("-1.250")
    assert balances[("Expenses:Food:Groceries", "USD")] == Decimal("70.00")  # a 60.00 split + the 10.00 not split
    assert balances[("Expenses:Shopping:Household", "USD")] == Decimal("30.00")
    assert balances[("Expenses:Food:Groceries", "EUR")] == Decimal("12.30")
    assert balances[("Income:Salary", "USD")] == Decimal("-2500.00")
    assert balances[("Expenses:Shopping", "USD")] == Decimal("-25.00")
    transfers = [e for e in entries if getattr(e, "narration", "").startswith("CARD PAYMENT")]
    assert len(transfers) == 1 and len(transfers[0].postings) == 2
    assert not any(getattr(e, "narration", "") == "PENDING THING" for e in entries)
    assert [e for e in entries if getattr(e, "narration", "") == "FEE WAIVED"]  # a zero row is exported as counted


def test_beancount_from_a_start_date_opens_with_earlier_balances(books, tmp_path):
    path = _write(books, tmp_path, "beancount", start_date="2025-05-05")
    assert subprocess.run(["bean-check", str(path)], capture_output=True).returncode == 0
    balances, _ = _beancount_balances(path)
    assert balances[("Assets:Checking", "USD")] == _posted_sums(books)[("Checking", "USD")]
    assert balances[("Equity:Opening-Balances", "USD")] == -(Decimal("1000.00") + Decimal("2500.00") - Decimal("15.99")
                                                             + Decimal("25.00") - Decimal("42.00"))



@pytest.mark.parametrize("start", [None, date(2025, 3, 10)])
def test_a_journal_opens_at_the_balance_the_bank_stated(tmp_path, start):
    """A running balance says what the account held before its first row: the journal opens there,
    so its balance at the end is the one `wilson accounts` shows (not the rows' sum alone)."""
    path = tmp_path / "checking.csv"
    path.write_text("Date,Description,Amount,Balance\n2025-03-04,RENT,-900.00,393.74\n2025-03-09,GROCER,-100.00,293.74\n"
                    "2025-03-14,PAYROLL,800.00,1093.74\n2025-03-18,COFFEE,-15.27,1078.47\n", encoding="utf-8")
    with Ledger(tmp_path / "w.db") as ledger:
        import_file(ledger, path, account="Checking")
        text = export(ledger, "beancount", start=start).text
    out = tmp_path / "out.beancount"
    out.write_text(text, encoding="utf-8")
    assert subprocess.run(["bean-check", str(out)], capture_output=True).returncode == 0
    balances, _ = _beancount_balances(out)
    assert balances[("Assets:Checking", "USD")] == Decimal("1078.47")
    opening = Decimal("1293.74") if start is None else Decimal("293.74")  # what the bank held the day before
    assert balances[("Equity:Opening-Balances", "USD")] == -opening


def test_a_journal_of_an_account_without_rows_opens_at_its_stated_balance(tmp_path):
    with Ledger(tmp_path / "w.db") as ledger:
        account = ledger.create_account("Savings 8888", "savings", "USD")
        ledger.set_balance(account["id"], 500000, "2025-03-31", "statement")
        text = export(ledger, "beancount", account="Savings 8888").text
    out = tmp_path / "out.beancount"
    out.write_text(text, encoding="utf-8")
    assert subprocess.run(["bean-check", str(out)], capture_output=True).returncode == 0
    assert "2025-03-31 * \"\" \"Opening balances\"" in text
    assert _beancount_balances(out)[0][("Assets:Savings-8888", "USD")] == Decimal("5000.00")
    with Ledger(tmp_path / "w.db") as ledger:  # a journal up to a day before that balance knows nothing of it
        assert "Opening balances" not in export(ledger, "beancount", end=date(2025, 3, 1)).text

def test_a_transfer_whose_other_leg_is_not_exported_posts_to_its_category(books, tmp_path):
    path = _write(books, tmp_path, "beancount", account="Visa")
    assert subprocess.run(["bean-check", str(path)], capture_output=True).returncode == 0
    balances, _ = _beancount_balances(path)
    assert balances[("Liabilities:Visa", "USD")] == Decimal("220.00")
    assert balances[("Equity:Transfer", "USD")] == Decimal("-300.00")


@pytest.mark.skipif(shutil.which("hledger") is None, reason="hledger is not installed (apt-get install -y hledger)")
@pytest.mark.parametrize("start", [None, "2025-05-05"])
def test_hledger_loads_the_journal_and_balances_match(books, tmp_path, start):
    path = _write(books, tmp_path, "ledger", **({"start_date": start} if start else {}))
    check = subprocess.run(["hledger", "-f", str(path), "check"], capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    report = subprocess.run(["hledger", "-f", str(path), "bal", "-N", "--flat", "-O", "csv", "--layout=bare"],
                            capture_output=True, text=True, check=True).stdout
    balances = {(r["account"], r["commodity"]): Decimal(r["balance"]) for r in csv.DictReader(io.StringIO(report))}
    sums = _posted_sums(books)
    assert balances[("Assets:Checking", "USD")] == sums[("Checking", "USD")]
    assert balances[("Assets:Euro-Konto", "EUR")] == sums[("Euro Konto", "EUR")]
    assert balances[("Assets:Yen", "JPY")] == sums[("Yen", "JPY")]
    assert balances[("Assets:Dinar", "KWD")] == sums[("Dinar", "KWD")]
    assert balances[("Liabilities:Visa", "USD")] == Decimal("220.00")
    text = path.read_text(encoding="utf-8")
    assert text.count("CARD PAYMENT") == 1 and "PENDING THING" not in text


def test_names_are_sanitised_for_both_formats():
    assert component("Bills & Subscriptions") == "Bills-Subscriptions"
    assert component("café crème") == "Cafe-creme"
    assert component("  ") == "Unnamed" and component("2024 trip") == "2024-trip"
    assert commodity("usd") == "USD" and commodity("1$") == "XX"


def test_export_errors(books, tmp_path):
    assert books.run("export_transactions", format="xml")["error"]["type"] == "validation"
    assert books.run("export_transactions", account="Chequing account 9")["error"]["type"] == "not_found"
    assert "before" in books.run("export_transactions", start_date="2025-06-01", end_date="2025-05-01")["error"]["message"]
    existing = tmp_path / "keep.csv"
    existing.write_text("precious")
    assert books.run("export_transactions", path=str(existing))["error"]["type"] == "exists"
    assert existing.read_text() == "precious"
    (tmp_path / "dir-is-a-file").write_text("x")
    assert books.run("export_transactions", path=str(tmp_path / "dir-is-a-file" / "x.csv"))["error"]["type"] == "io_error"


def test_default_path_goes_to_the_exports_folder(books, wilson_home):
    first = books.run("export_transactions", format="ledger")
    second = books.run("export_transactions", format="ledger")
    assert Path(first["path"]).parent == wilson_home / "exports" and first["path"].endswith(".journal")
    assert first["path"] != second["path"] and first["exported"] == second["exported"] > 0


def test_empty_selection_exports_cleanly(books, tmp_path):
    for fmt in ("csv", "json", "beancount", "ledger"):
        result = books.run("export_transactions", format=fmt, start_date="2030-01-01", path=str(tmp_path / f"empty.{fmt}"))
        assert result["exported"] == 0
    assert subprocess.run(["bean-check", str(tmp_path / "empty.beancount")], capture_output=True).returncode == 0


def test_flags():
    tool = REGISTRY["export_transactions"]
    assert tool.read_only and not tool.changes_data and not tool.needs_approval


class TestCli:
    @pytest.fixture
    def ledger_books(self, wilson_home) -> Books:
        from wilson.paths import ledger_path

        b = Books(ledger_path())
        b.account("Checking")
        b.add("Checking", "2025-05-01", "-15.99", "NETFLIX.COM", category="Streaming")
        b.add("Checking", "2025-05-20", "-5.00", "STARBUCKS", category="Coffee")
        b.add("Checking", "2025-05-21", "-1.00", "PENDING", pending=True)
        return b

    def test_stdout_and_filters(self, ledger_books):
        result = CliRunner().invoke(main, ["export", "--from", "2025-05-10", "--account", "checking"])
        assert result.exit_code == 0, result.output
        rows = list(csv.DictReader(io.StringIO(result.stdout)))
        assert [r["description"] for r in rows] == ["STARBUCKS"]

    def test_file_output_matches_the_tool(self, ledger_books, tmp_path):
        out = tmp_path / "books.beancount"
        result = CliRunner().invoke(main, ["export", "--format", "beancount", "--output", str(out)])
        assert result.exit_code == 0 and "exported 2" in result.stderr
        assert out.read_text(encoding="utf-8") == export(ledger_books.ledger, "beancount").text
        assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
        assert subprocess.run(["bean-check", str(out)], capture_output=True).returncode == 0

    @pytest.mark.parametrize("args, message", [
        (["--from", "2025-13-01"], "--from"),
        (["--to", "yesterday"], "--to"),
        (["--from", "2025-06-01", "--to", "2025-05-01"], "before"),
        (["--account", "Nope"], "unknown account"),
        (["--account", ""], "unknown account"),  # an empty variable in a script is not "every account"
    ])
    def test_errors_are_one_line(self, ledger_books, args, message):
        result = CliRunner().invoke(main, ["export", *args])
        assert result.exit_code == 1 and message in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.output

    def test_unwritable_output(self, ledger_books, tmp_path):
        blocker = tmp_path / "file"
        blocker.write_text("x")
        result = CliRunner().invoke(main, ["export", "--output", str(blocker / "out.csv")])
        assert result.exit_code == 1 and "could not write" in result.stderr

    def test_a_mistyped_directory_is_an_error_not_made(self, ledger_books, tmp_path):
        result = CliRunner().invoke(main, ["export", "--output", str(tmp_path / "exprots" / "q1.csv")])
        assert result.exit_code == 1 and "there is no directory" in result.stderr
        assert not (tmp_path / "exprots").exists()

    def test_output_never_replaces_the_ledger_itself(self, ledger_books, tmp_path):
        ledger_file = Path(os.environ["WILSON_HOME"]) / "wilson.db"
        before = ledger_file.read_bytes()
        for target in (ledger_file, Path(f"{ledger_file}-wal")):
            result = CliRunner().invoke(main, ["export", "-o", str(target)])
            assert result.exit_code == 1 and "is the ledger itself" in result.stderr
        assert ledger_file.read_bytes() == before

    def test_output_writes_to_what_the_path_names(self, ledger_books, tmp_path):
        """A symlink's target is replaced, not the link; a read-only file is refused; a new file
        gets the umask's mode and a replaced one keeps its own."""
        real, link, locked, fresh = (tmp_path / name for name in ("real.csv", "link.csv", "locked.csv", "new.csv"))
        real.write_text("old")
        real.chmod(0o640)
        link.symlink_to(real)
        assert CliRunner().invoke(main, ["export", "-o", str(link)]).exit_code == 0
        assert link.is_symlink() and real.read_text().startswith("id,date") and real.stat().st_mode & 0o777 == 0o640
        locked.write_text("keep")
        locked.chmod(0o444)
        result = CliRunner().invoke(main, ["export", "-o", str(locked)])
        assert result.exit_code == 1 and "read-only" in result.stderr and locked.read_text() == "keep"
        (tmp_path / "loop_a").symlink_to(tmp_path / "loop_b")
        (tmp_path / "loop_b").symlink_to(tmp_path / "loop_a")
        looped = CliRunner().invoke(main, ["export", "-o", str(tmp_path / "loop_a")])
        assert looped.exit_code == 1 and "symbolic links" in looped.stderr and (tmp_path / "loop_a").is_symlink()
        mask = os.umask(0o027)
        try:
            assert CliRunner().invoke(main, ["export", "-o", str(fresh)]).exit_code == 0
        finally:
            os.umask(mask)
        assert fresh.stat().st_mode & 0o777 == 0o640

    @pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
    def test_output_to_a_named_pipe_feeds_its_reader(self, ledger_books, tmp_path):
        pipe = tmp_path / "pipe"
        os.mkfifo(pipe)
        received: list[str] = []
        reader = threading.Thread(target=lambda: received.append(pipe.read_text()))
        reader.start()
        result = CliRunner().invoke(main, ["export", "-o", str(pipe)])
        reader.join(timeout=10)
        assert result.exit_code == 0 and received[0].startswith("id,date") and not pipe.is_file()

    def test_unknown_format_is_a_usage_error(self, ledger_books):
        assert CliRunner().invoke(main, ["export", "--format", "xml"]).exit_code == 2


def test_an_account_number_that_differs_is_another_account_not_a_typo() -> None:
    from wilson.ledger import Ledger
    from wilson.tools.common import resolve_account
    from wilson.tools.registry import ToolError

    with Ledger() as ledger:
        ledger.create_account("Savings 9999")
        assert resolve_account(ledger, "Savngs 9999")["name"] == "Savings 9999"  # a misspelt word
        with pytest.raises(ToolError, match="unknown account"):
            resolve_account(ledger, "Savings 9998")


def _without_ids(text: str) -> list[list[str]]:
    """Rows without the ledger's ids, whitespace squeezed as every import keeps text."""
    return [[" ".join(cell.split()) for cell in row[1:]] for row in csv.reader(io.StringIO(text))]


def test_csv_export_imports_back_unchanged(books, tmp_path):
    """Wilson's own CSV is a dialect: into an empty ledger it gives back the same export (account
    names, payees and the user's own categories included, under their parents), and imported again
    it adds nothing."""
    books.ledger.ensure_category("Freelance", "Income")
    books.add("Checking", "2025-05-20", "400.00", "INVOICE 17", category="Freelance")
    books.account("Sapphire", "credit_card")  # nothing in the name says card: the file's account_type does
    paris = books.add("Sapphire", "2025-05-21", "-27.50", "PARIS SHOP")
    with books.ledger.write() as conn:
        conn.execute("UPDATE transactions SET original_amount = -2500, original_currency = 'EUR' WHERE id = ?", (paris,))
    path = _write(books, tmp_path, "csv")
    with Ledger(tmp_path / "rebuilt.db") as rebuilt:
        summary = import_file(rebuilt, path)
        assert summary.format == "wilson"
        assert not [w for w in summary.warnings if "description" in w]  # its description column is named as such
        assert rebuilt.account("Sapphire")["type"] == "credit_card"
        assert rebuilt.query("SELECT original_amount, original_currency FROM transactions WHERE original_amount IS NOT NULL") == [
            {"original_amount": -2500, "original_currency": "EUR"}]
        assert rebuilt.category("Freelance")["kind"] == "income"  # `Income:Freelance`, not a new expense
        assert rebuilt.scalar("SELECT DISTINCT category_source FROM transactions WHERE category_id IS NOT NULL") == "user"
        assert summary.added == summary.rows_read == len(_without_ids(path.read_text())) - 1
        assert _without_ids(export(rebuilt, "csv").text) == _without_ids(path.read_text())
        again = import_file(rebuilt, path)
        assert (again.added, again.duplicates) == (0, summary.added)
        costco = rebuilt.query_one("SELECT id FROM transactions WHERE description = 'COSTCO'")["id"]
        assert [(r["amount"], r["memo"]) for r in rebuilt.query(
            "SELECT amount, memo FROM splits WHERE transaction_id = ? ORDER BY id", (costco,))] == [(-6000, None), (-3000, "towels")]


@pytest.mark.parametrize("originals", [
    [(-12345, "BHD"), (-1500, "KWD"), (-1234, "JPY")],
    [(-12345, "BHD"), (-1500, "KWD")],  # `-12.345` and `-1.500` alone: no other original to show their dots are decimal
    [(-1500, "KWD")],
])
def test_csv_export_imports_back_its_original_amounts_in_their_currencys_decimals(tmp_path, originals):
    """The original amount column is filled only for rows paid in another currency: in a ledger of
    no account in dinars, their three decimals were read as thousands (-12.345 BHD came back as
    -12,345.000)."""
    books = Books(tmp_path / "w.db")
    books.account("Checking")
    books.account("Monzo", "checking", "GBP")
    books.add("Checking", "2025-06-01", "2500.00", "ACME PAYROLL")
    books.add("Monzo", "2025-06-01", "-10.00", "TESCO")
    ids = [books.add("Monzo", f"2025-06-0{i + 2}", f"-{i + 3}.90", f"ABROAD {code}") for i, (_, code) in enumerate(originals)]
    with books.ledger.write() as conn:
        for transaction_id, (amount, code) in zip(ids, originals):
            conn.execute("UPDATE transactions SET original_amount = ?, original_currency = ? WHERE id = ?", (amount, code, transaction_id))
    path = _write(books, tmp_path, "csv")
    stored = "SELECT a.name, t.posted, t.amount, t.currency, t.original_amount, t.original_currency" \
             " FROM transactions t JOIN accounts a ON a.id = t.account_id WHERE t.pending = 0 ORDER BY a.name, t.posted, t.description"
    with Ledger(tmp_path / "rebuilt.db") as rebuilt:
        import_file(rebuilt, path)
        assert rebuilt.query(stored) == books.ledger.query(stored)
        assert rebuilt.query("SELECT original_amount, original_currency FROM transactions WHERE original_amount IS NOT NULL ORDER BY posted") == [
            {"original_amount": amount, "original_currency": code} for amount, code in originals]
        assert _without_ids(export(rebuilt, "csv").text) == _without_ids(path.read_text())


def _edited(text: str, order: list[str], delimiter: str = ",", blank_account_on: int | None = None) -> str:
    """The export as a spreadsheet saves it back: columns reordered or dropped, another delimiter."""
    rows = list(csv.DictReader(io.StringIO(text)))
    if blank_account_on is not None:
        rows[blank_account_on]["account"] = ""
    out = io.StringIO()
    writer = csv.DictWriter(out, order, delimiter=delimiter, extrasaction="ignore", lineterminator="\r\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


@pytest.mark.parametrize(("order", "delimiter"), [
    (["amount", "currency", "date", "account", "description", "payee", "category", "notes", "id"], ","),
    (["date", "account", "description", "payee", "amount", "currency", "category"], ";"),  # no id, European Excel
    (["id", "date", "account", "description", "payee", "amount", "currency", "category", "notes", "my note"], "\t"),
])
def test_an_export_edited_in_a_spreadsheet_is_still_wilsons(books, tmp_path, order, delimiter):
    path = _write(books, tmp_path, "csv")
    with Ledger(tmp_path / "rebuilt.db") as rebuilt:
        first = import_file(rebuilt, path)
        edited = tmp_path / "edited.csv"
        edited.write_text(_edited(path.read_text(), order, delimiter), encoding="utf-8")
        again = import_file(rebuilt, edited)
        assert (again.format, again.added, again.duplicates) == ("wilson", 0, first.added)


def test_a_row_of_an_export_without_its_account_is_a_row_error(books, tmp_path):
    """One cleared cell must not send the whole file into an account named after it."""
    path = _write(books, tmp_path, "csv")
    order = ["id", "date", "account", "description", "payee", "amount", "currency", "category", "notes"]
    path.write_text(_edited(path.read_text(), order, blank_account_on=2), encoding="utf-8")
    with Ledger(tmp_path / "rebuilt.db") as rebuilt:
        with pytest.raises(ImportRefused, match="line 4, column account: no account"):
            import_file(rebuilt, path)


@pytest.mark.parametrize(("cell", "problem"), [
    ('[{"amount": "-60.00", "category": "Groceries"}', "not a JSON list of split parts"),
    ('[{"category": "Groceries"}]', "each split part needs an amount"),
    ('[{"amount": "-60.001"}]', "a split part's amount can't be read"),
])
def test_a_split_cell_edited_out_of_shape_is_a_row_error(books, tmp_path, cell, problem):
    """Booked whole, the transaction would put all its money under one category."""
    path = _write(books, tmp_path, "csv")
    rows = list(csv.DictReader(io.StringIO(path.read_text())))
    next(row for row in rows if row["splits"])["splits"] = cell
    rows = [row for row in rows if row["splits"]]  # the broken row alone: still Wilson's file, never a bank's
    out = io.StringIO()
    writer = csv.DictWriter(out, list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    path.write_text(out.getvalue(), encoding="utf-8")
    line = next(n for n, text in enumerate(out.getvalue().splitlines(), start=1) if "COSTCO" in text)
    with Ledger(tmp_path / "rebuilt.db") as rebuilt:
        with pytest.raises(ImportRefused, match=f"line {line}, column splits: {re.escape(problem)}"):
            import_file(rebuilt, path)


def test_csv_export_leaves_pending_rows_alone(books, tmp_path):
    """An export leaves pending rows out by design, so importing one says nothing about which rows
    are still pending (a bank's newer export would)."""
    path = _write(books, tmp_path, "csv")
    summary = import_file(books.ledger, path)
    assert summary.pending_replaced == 0
    assert books.ledger.scalar("SELECT COUNT(*) FROM transactions WHERE pending = 1 AND description = 'PENDING THING'") == 1
