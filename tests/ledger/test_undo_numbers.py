"""Undo and the bank's account number a batch gave an account: it goes only when no batch in force
was let in by it."""

from __future__ import annotations

from pathlib import Path

from wilson.importers.pipeline import import_file
from wilson.ledger import Ledger
from wilson.ledger.undo import undo_batch

ACCTID = "4147202212345678"
# One card's January, as its CSV (no number) and its QFX (numbered, one more row), then February and March.
JANUARY = (("20240105", "-5.75", "STARBUCKS STORE 12345"), ("20240110", "-64.20", "WHOLEFDS MKT 10234"),
           ("20240120", "-40.00", "SHELL OIL 57444"))
FEBRUARY = (("20240203", "-15.49", "NETFLIX.COM"), ("20240212", "-120.00", "DELTA AIR 0062345678901"),
            ("20240226", "512.33", "AUTOPAY PAYMENT - THANK YOU"))
MARCH = (("20240304", "-45.00", "UBER *TRIP"), ("20240318", "-31.10", "TRADER JOE S #123"))


def _csv(tmp_path: Path, name: str, rows: tuple[tuple[str, str, str], ...]) -> Path:
    path = tmp_path / name
    lines = "".join(f"{day[:4]}-{day[4:6]}-{day[6:]},{text},{amount}\n" for day, amount, text in rows)
    path.write_text("Date,Description,Amount\n" + lines, encoding="utf-8")
    return path


def _qfx(tmp_path: Path, name: str, rows: tuple[tuple[str, str, str], ...]) -> Path:
    trn = "<STMTTRN><TRNTYPE>{kind}<DTPOSTED>{day}<TRNAMT>{amount}<FITID>{day}{amount}<NAME>{text}</STMTTRN>"
    statement = "".join(trn.format(kind="DEBIT" if amount < "0" else "CREDIT", day=day, amount=amount, text=text) for day, amount, text in rows)
    path = tmp_path / name
    path.write_text(
        "OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n<OFX><CREDITCARDMSGSRSV1><CCSTMTTRNRS><CCSTMTRS><CURDEF>USD"
        f"<CCACCTFROM><ACCTID>{ACCTID}</CCACCTFROM><BANKTRANLIST>{statement}</BANKTRANLIST>"
        "</CCSTMTRS></CCSTMTTRNRS></CREDITCARDMSGSRSV1></OFX>\n",
        encoding="utf-8",
    )
    return path


def _accounts(ledger: Ledger) -> list[tuple[str, str | None]]:
    return [(a["name"], a["number"]) for a in ledger.query("SELECT name, number FROM accounts ORDER BY id")]


def test_undoing_the_qfx_that_numbered_an_account_keeps_the_number_later_qfx_went_in_by(tmp_path: Path) -> None:
    january_qfx = JANUARY + (("20240125", "-9.99", "SPOTIFY"),)
    with Ledger() as ledger:
        import_file(ledger, _csv(tmp_path, "joint card.csv", JANUARY), account="Joint Card")
        numbering = import_file(ledger, _qfx(tmp_path, "Chase5678_Activity_20240131.QFX", january_qfx))
        february = import_file(ledger, _qfx(tmp_path, "Chase5678_Activity_20240229.QFX", FEBRUARY))
        assert numbering.accounts == february.accounts == ["Joint Card"]
        undo_batch(ledger, numbering.batch_id)
        assert _accounts(ledger) == [("Joint Card", ACCTID)]
        march = import_file(ledger, _qfx(tmp_path, "Chase5678_Activity_20240331.QFX", MARCH))
        assert march.accounts == ["Joint Card"]
        assert _accounts(ledger) == [("Joint Card", ACCTID)]
        assert ledger.scalar("SELECT COUNT(*) FROM transactions") == len(JANUARY + FEBRUARY + MARCH)
        # Once no QFX is in force, the number goes with the batch that gave it.
        undo_batch(ledger, march.batch_id)
        assert _accounts(ledger) == [("Joint Card", ACCTID)]  # February's still went in by it
        undo_batch(ledger, february.batch_id)
        assert _accounts(ledger) == [("Joint Card", None)]


def _numbered_by_january_qfx(ledger: Ledger, tmp_path: Path) -> int:
    """The card's January CSV under --account, then its QFX, which gives the account its number: that batch."""
    import_file(ledger, _csv(tmp_path, "joint card.csv", JANUARY), account="Joint Card")
    batch = import_file(ledger, _qfx(tmp_path, "Chase5678_Activity_20240131.QFX", JANUARY)).batch_id
    assert batch is not None
    return batch


def test_a_later_csv_went_in_by_name_and_keeps_no_number(tmp_path: Path) -> None:
    with Ledger() as ledger:
        numbering = _numbered_by_january_qfx(ledger, tmp_path)
        import_file(ledger, _csv(tmp_path, "joint card feb.csv", FEBRUARY), account="Joint Card")
        assert _accounts(ledger) == [("Joint Card", ACCTID)]
        undo_batch(ledger, numbering)
        assert _accounts(ledger) == [("Joint Card", None)]


def test_a_number_the_user_changed_since_is_the_users(tmp_path: Path) -> None:
    with Ledger() as ledger:
        numbering = _numbered_by_january_qfx(ledger, tmp_path)
        with ledger.write() as conn:
            conn.execute("UPDATE accounts SET number = '9999'")
        undo_batch(ledger, numbering)
        assert _accounts(ledger) == [("Joint Card", "9999")]
