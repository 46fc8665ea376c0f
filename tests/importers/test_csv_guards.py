"""Generic CSV mapping on files no dialect knows: date order from the currency, and rows that only
look readable (a thousands comma that split an unquoted amount) read whole or refused, never
mis-booked."""

from __future__ import annotations

import csv
import io
from datetime import date
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wilson.importers.csv_read import has_long_line, uniform_columns
from wilson.importers.formats import parse_file
from wilson.importers.model import ImportRefused

from parsed_fixtures import parse_written


def test_a_uk_sort_code_export_is_pounds_and_day_first(tmp_path: Path) -> None:
    result = parse_written(tmp_path, (
        "Transaction Date,Transaction Type,Sort Code,Account Number,Transaction Description,Debit Amount,Credit Amount,Balance\n"
        "03/01/2025,DEB,'11-22-33,12345678,TESCO STORES 1234,12.50,,987.50\n"
        "02/01/2025,FPI,'11-22-33,12345678,SALARY ACME LTD,,1000.00,1000.00\n"
    ))
    assert result.accounts[0].currency == "GBP"
    assert [(t.posted, t.amount) for t in result.transactions] == [(date(2025, 1, 3), -1250), (date(2025, 1, 2), 100000)]


def test_euro_amounts_mean_day_first_dates(tmp_path: Path) -> None:
    result = parse_written(tmp_path, "Date,Description,Amount\n04/03/2025,Boulangerie,€-4.20\n05/03/2025,Café,€-3.10\n")
    assert [t.posted for t in result.transactions] == [date(2025, 3, 4), date(2025, 3, 5)]


def test_dollar_files_stay_month_first(tmp_path: Path) -> None:
    result = parse_written(tmp_path, "Date,Description,Amount\n04/03/2025,Deli,$-4.20\n")
    assert result.transactions[0].posted == date(2025, 4, 3)


def test_an_amount_split_by_an_unquoted_thousands_comma_is_read_whole(tmp_path: Path) -> None:
    result = parse_written(tmp_path, (
        "Date,Payee,Category,Memo,Outflow,Inflow\n"
        "2025-01-05,Landlord,Rent,,£1,200.00,\n"
        "2025-01-06,Grocer,Food,,12.00,\n"
    ))
    assert [t.amount for t in result.transactions] == [-120000, -1200] and not result.errors
    assert any(w.startswith("line 2: an amount written with an unquoted thousands comma") for w in result.warnings)


def test_a_chase_row_with_bare_thousands_commas_books_its_amount_and_balance(tmp_path: Path) -> None:
    """Chase rows end with a comma the header lacks, so a normal row is already wider than the
    header: the split rows are the ones wider than the rest, and a file where most rows are split
    (balances over 1,000) is read too."""
    header = "Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #\n"
    result = parse_written(tmp_path, header + (
        "DEBIT,03/03/2025,RENT ACME PROPERTIES,-1,250.00,ACH_DEBIT,1,234,567.89,,\n"
        "DEBIT,03/02/2025,STARBUCKS,-5.75,DEBIT_CARD,1,235,817.89,,\n"
        "DEBIT,03/01/2025,DELI,-4.25,DEBIT_CARD,1,235,823.64,,\n"
    ))
    assert [t.amount for t in result.transactions] == [-125000, -575, -425] and not result.errors
    assert [t.balance for t in result.transactions] == [123456789, 123581789, 123582364]
    assert [t.notes for t in result.transactions] == ["ACH_DEBIT", "DEBIT_CARD", "DEBIT_CARD"]


def test_a_row_wider_than_the_header_that_no_amount_explains_is_a_row_error(tmp_path: Path) -> None:
    result = parse_written(tmp_path, "Date,Description,Amount\n2025-01-05,Landlord, Inc,-1200.00\n2025-01-06,Grocer,-12.00\n")
    assert [t.amount for t in result.transactions] == [-1200]
    assert [e.line for e in result.errors] == [2] and "header has 3" in result.errors[0].message


def test_a_whole_amount_before_a_three_digit_balance_is_not_taken_for_one_number(tmp_path: Path) -> None:
    """Rows one comma wider than the header are this file's shape: `-12` and `345.67` are an
    amount and a balance, not -12,345.67."""
    result = parse_written(tmp_path, "Date,Description,Amount,Balance\n2025-01-05,Deli,-12,345.67,\n2025-01-06,Grocer,-3.50,342.17,\n")
    assert [(t.amount, t.balance) for t in result.transactions] == [(-1200, 34567), (-350, 34217)]
    assert not any("thousands" in w for w in result.warnings)


def test_a_huge_field_costs_only_its_own_row(tmp_path: Path) -> None:
    result = parse_written(tmp_path, f"Date,Description,Amount\n2025-01-01,{'A' * 300_000},-1.00\n2025-01-02,B,-2.00\n")
    assert [t.amount for t in result.transactions] == [-200]
    assert [e.line for e in result.errors] == [2]


CELL = st.text(alphabet=st.sampled_from('ab1 .-;,"'), max_size=4)


@settings(max_examples=500)
@given(
    st.lists(st.lists(CELL, min_size=1, max_size=4), min_size=1, max_size=8),
    st.sampled_from([csv.QUOTE_MINIMAL, csv.QUOTE_ALL]),
    st.booleans(),
)
def test_the_one_split_read_of_a_uniform_block_matches_the_csv_module(rows: list[list[str]], quoting: int, final_newline: bool) -> None:
    """Whenever `uniform_columns` answers, it says exactly what the csv module reads, column by
    column; and it does answer for equal-width files that are unquoted or quoted field by field."""
    out = io.StringIO()
    csv.writer(out, quoting=quoting, lineterminator="\n").writerows([["Date", "Amount"], *rows])
    text = out.getvalue() if final_newline else out.getvalue()[:-1]
    block = uniform_columns(text, ",", 2)
    data = list(csv.reader(io.StringIO(text), skipinitialspace=', "' in text))[1:]  # as Wilson reads `"a", "b"`
    if block is not None:
        assert block[0] == text.index("\n") + 1
        assert block[1] == [list(column) for column in zip(*data)]
    simple = all(set(cell) <= set("ab1 .-;") for cells in rows for cell in cells)
    plain_lines = quoting == csv.QUOTE_ALL or all(cells != [""] for cells in rows)
    if len({len(cells) for cells in rows}) == 1 and simple and plain_lines and [""] not in data:
        assert block is not None


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab\n", max_size=400), st.integers(min_value=1, max_value=60))
def test_long_line_check_agrees_with_measuring_every_line(text: str, limit: int) -> None:
    assert has_long_line(text, limit) == (max(map(len, text.split("\n"))) > limit)


def test_a_footnote_after_the_last_row_is_not_part_of_its_description(tmp_path: Path) -> None:
    """Joined to the payroll row, the note made the same row in the next export look new."""
    result = parse_written(tmp_path, (
        "Date,Description,Amount\n03/01/2024,COFFEE,-4.50\n03/02/2024,PAYROLL,2000.00\n"
        ',"* Pending transactions are not included in this download",\n,"Questions? Call 1-800-555-0100",\n'
    ))
    assert [t.description for t in result.transactions] == ["COFFEE", "PAYROLL"]
    assert result.errors == [] and len(result.warnings) == 2 and "a note after the last row" in result.warnings[0]
    wrapped = parse_written(tmp_path, (  # a row's text run on to the next line, also in the last row: not a footnote
        "Transaction date,Value date,Description,Withdrawals (SGD),Deposits (SGD)\n"
        "02/01/2024,02/01/2024,FAST PAYMENT,50.00,\n,,to TAN AH KOW OTHR - Lunch,,\n"
    ))
    assert [t.description for t in wrapped.transactions] == ["FAST PAYMENT to TAN AH KOW OTHR - Lunch"]
    after_a_wrap = parse_written(tmp_path, (
        "Date,Description,Amount\n01/03/2024,AMAZON MKTPLACE PMTS,-20.00\n,AMZN.COM/BILL WA,\n01/05/2024,SHELL OIL 5744,-40.00\n"
        ",Pending transactions are not included in this download,\n"
    ))
    assert [t.description for t in after_a_wrap.transactions] == ["AMAZON MKTPLACE PMTS AMZN.COM/BILL WA", "SHELL OIL 5744"]


def test_footers_with_their_figure_in_a_money_column_are_skipped(tmp_path: Path) -> None:
    net = parse_written(tmp_path, "Date,Description,Amount\n03/01/2024,COFFEE,-4.50\n03/02/2024,PAYROLL,2000.00\n,Total Debits,-4.50\n,Net Change,1995.50\n")
    assert (len(net.transactions), net.errors) == (2, [])
    balance = parse_written(tmp_path, (
        "Buchungstag;Wert;Umsatzart;Verwendungszweck;Soll;Haben;Währung\n"
        "31.01.2024;31.01.2024;Lastschrift;REWE SAGT DANKE;-45,67;;EUR\n30.01.2024;30.01.2024;Gutschrift;Gehalt;;3.100,00;EUR\n"
        ";;;;;;\nKontostand;31.01.2024;;;;2.033,83;EUR\n"
    ))
    assert ([t.amount for t in balance.transactions], balance.errors) == ([-4567, 310000], [])


def test_apostrophe_thousands_are_swiss_francs_when_the_file_names_no_currency(tmp_path: Path) -> None:
    result = parse_written(tmp_path, "Datum;Buchungstext;Belastung;Gutschrift;Saldo\n31.01.2024;Migros Zürich;1'234.50;;10'000.00\n")
    assert (result.accounts[0].currency, result.accounts[0].currency_stated) == ("CHF", False)
    assert [t.amount for t in result.transactions] == [-123450]


def test_balance_footers_as_german_banks_word_them_and_a_dated_net_change_are_skipped(tmp_path: Path) -> None:
    rows = "Buchungstag;Verwendungszweck;Betrag\n31.01.2024;REWE;-45,67\n30.01.2024;Gehalt;3.100,00\n"
    for footer in ("Kontostand:;;2.033,83", "Aktueller Kontostand;;2.033,83", "Kontostand in EUR;;2.033,83"):
        result = parse_written(tmp_path, rows + footer + "\n")
        assert ([t.amount for t in result.transactions], result.errors) == ([-4567, 310000], []), footer
    net = parse_written(tmp_path, "Date,Description,Amount\n03/01/2024,COFFEE,-4.50\n03/02/2024,PAYROLL,2000.00\n03/02/2024,Net Change,1995.50\n")
    assert [t.description for t in net.transactions] == ["COFFEE", "PAYROLL"]


def test_a_table_no_format_takes_is_told_what_was_looked_for(tmp_path: Path) -> None:
    table = tmp_path / "pnc.csv"
    table.write_text("Account,Period\n12345678,March\nreference,note\nA1,first\n", encoding="utf-8")
    prose = tmp_path / "notes.txt"
    prose.write_text("hello world\n", encoding="utf-8")
    with pytest.raises(ImportRefused, match="no header row in the first lines names a date and an amount column"):
        parse_file(table)
    with pytest.raises(ImportRefused, match=r"not a recognisable bank export \(CSV, OFX/QFX or QIF\)"):
        parse_file(prose)
    swift = tmp_path / "umsaetze.sta"
    swift.write_text(":20:STARTUMS\r\n:25:76069559/0003267288\r\n:28C:0\r\n:60F:C251127EUR15188,85\r\n:61:2511271127DR17,90NDDTKREF+\r\n")
    with pytest.raises(ImportRefused, match=r"an MT940 \(SWIFT\) statement, which Wilson does not read"):
        parse_file(swift)


def test_a_one_line_file_cut_inside_a_quote_says_so(tmp_path: Path) -> None:
    """A Wells Fargo download (no header) truncated in its first row read no record at all."""
    path = tmp_path / "wf.csv"
    path.write_text('"01/31/2025","-45.67","*","","PURCHASE AUT')
    result = parse_file(path)
    assert not result.transactions
    assert [str(e) for e in result.errors] == ["line 1: the file ends inside a quoted field (truncated file?); this row was not read"]


def test_a_header_with_a_stray_quote_is_read_by_the_general_reader(tmp_path: Path) -> None:
    path = tmp_path / "paypal.csv"
    path.write_text('"Date","Name",""Receipt ID","Gross"\n"03/15/2024","Coffee","","-4.50"\n"03/16/2024","Friend","","20.00"\n')
    assert [t.amount for t in parse_file(path).transactions] == [-450, 2000]


CHASE = "Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #\n"


@pytest.mark.parametrize("text", [
    CHASE + "DEBIT,03/12/2025,GROCER,-25.10,DEBIT_CARD,974.90,,\nCHECK,03/10/2025,\"CHECK 1042\",-15",  # cut in -150.00
    "Date,Description,Amount,Balance\n2025-03-01,GROCERY OUTLET,-25.10,974.90\n2025-03-03,PAYROLL,15",  # cut in 1500.00
])
def test_a_file_cut_inside_its_last_row_refuses_that_row(tmp_path: Path, text: str) -> None:
    """A download that stopped inside the last amount booked what was left of it (-15.00)."""
    path = tmp_path / "cut.csv"
    path.write_text(text, encoding="utf-8")
    result = parse_file(path)
    assert [e.message for e in result.errors] == ["the file ends inside this row (truncated file?)"] and len(result.transactions) == 1


def test_a_row_one_field_wider_than_every_other_row_is_refused(tmp_path: Path) -> None:
    """Chase ends each row with a comma: an unquoted `5,00` in a description made a row of 9 fields
    beside rows of 8, within the header's 7 but for empty cells, and shifted its amount (0.00)."""
    path = tmp_path / "chase.csv"
    path.write_text(CHASE + "DEBIT,03/20/2025,COSTCO,-86.12,DEBIT_CARD,912.32,,\n"
                    "DEBIT,03/18/2025,ZELLE TO SMITH REF 5,00,-250.00,QUICKPAY_DEBIT,998.44,,\n"
                    "CREDIT,03/17/2025,PAYROLL,2000.00,ACH_CREDIT,1248.44,,\n", encoding="utf-8")
    result = parse_file(path)
    assert [(e.line, e.message) for e in result.errors] == [(3, "9 fields but the header has 7; is a value holding a comma not quoted?")]


@pytest.mark.parametrize(("text", "count"), [
    # comdirect with no line end after its balance line: short, but no cut transaction
    ('"Buchungstag";"Wertstellung (Valuta)";"Vorgang";"Buchungstext";"Umsatz in EUR";\n'
     '"17.02.2025";"17.02.2025";"Lastschrift";"Auftraggeber: REWE";"-12,34";\n"Alter Kontostand";"1.500,00 EUR";', 1),
    ("Date,Description,Amount\n2025-03-01,GROCER,-25.10\n2025-03-02,BAKERY,-3.00,\n2025-03-03,PAYROLL,1500.00\n", 3),  # a stray comma
    ("Date,Description,Amount,Memo\n2025-03-01,GROCER,-25.10,weekly\n2025-03-03,RENT,-900.00,March, flat 2\n", 2),  # the memo's comma
])
def test_short_last_lines_stray_commas_and_a_last_texts_commas_are_no_broken_rows(tmp_path: Path, text: str, count: int) -> None:
    path = tmp_path / "ok.csv"
    path.write_text(text, encoding="utf-8")
    result = parse_file(path)
    assert (len(result.transactions), result.errors) == (count, [])


@pytest.mark.parametrize("memo", ["rent share", ""])
def test_an_amount_among_a_last_text_columns_extra_fields_is_a_shifted_row(tmp_path: Path, memo: str) -> None:
    """`ZELLE TO SMITH REF 5,00` unquoted before a memo column: joining `-250.00,rent share` into the
    memo, or reading `-250.00` as the memo when the row's own is empty, booked the payment as 0.00."""
    path = tmp_path / "memo.csv"
    path.write_text("Date,Description,Amount,Memo\n2025-03-01,GROCER,-25.10,weekly\n"
                    f"2025-03-02,ZELLE TO SMITH REF 5,00,-250.00,{memo}\n", encoding="utf-8")
    assert [(e.line, e.message) for e in parse_file(path).errors] == [
        (3, "5 fields but the header has 4; is a value holding a comma not quoted?")]
