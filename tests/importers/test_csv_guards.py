"""Generic CSV mapping on files no dialect knows: date order from the currency, and rows that only
look readable (a thousands comma that split an unquoted amount) refused instead of mis-booked."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from wilson.importers.csv_generic import read_records, uniform_columns
from wilson.importers.formats import parse_file


def parse(tmp_path: Path, text: str) -> object:
    path = tmp_path / "export.csv"
    path.write_text(text, encoding="utf-8")
    return parse_file(path)


def test_a_uk_sort_code_export_is_pounds_and_day_first(tmp_path: Path) -> None:
    result = parse(tmp_path, (
        "Transaction Date,Transaction Type,Sort Code,Account Number,Transaction Description,Debit Amount,Credit Amount,Balance\n"
        "03/01/2025,DEB,'11-22-33,12345678,TESCO STORES 1234,12.50,,987.50\n"
        "02/01/2025,FPI,'11-22-33,12345678,SALARY ACME LTD,,1000.00,1000.00\n"
    ))
    assert result.accounts[0].currency == "GBP"
    assert [(t.posted, t.amount) for t in result.transactions] == [(date(2025, 1, 3), -1250), (date(2025, 1, 2), 100000)]


def test_euro_amounts_mean_day_first_dates(tmp_path: Path) -> None:
    result = parse(tmp_path, "Date,Description,Amount\n04/03/2025,Boulangerie,€-4.20\n05/03/2025,Café,€-3.10\n")
    assert [t.posted for t in result.transactions] == [date(2025, 3, 4), date(2025, 3, 5)]


def test_dollar_files_stay_month_first(tmp_path: Path) -> None:
    result = parse(tmp_path, "Date,Description,Amount\n04/03/2025,Deli,$-4.20\n")
    assert result.transactions[0].posted == date(2025, 4, 3)


def test_an_amount_split_by_an_unquoted_comma_is_a_row_error(tmp_path: Path) -> None:
    result = parse(tmp_path, (
        "Date,Payee,Category,Memo,Outflow,Inflow\n"
        "2025-01-05,Landlord,Rent,,£1,200.00,\n"
        "2025-01-06,Grocer,Food,,12.00,\n"
    ))
    assert [t.amount for t in result.transactions] == [-1200]
    assert len(result.errors) == 1 and result.errors[0].line == 2 and "both the debit" in result.errors[0].message


def test_a_row_with_more_values_than_the_header_is_a_row_error(tmp_path: Path) -> None:
    result = parse(tmp_path, "Date,Description,Amount\n2025-01-05,Landlord,-1,200.00\n2025-01-06,Grocer,-12.00\n")
    assert [t.amount for t in result.transactions] == [-1200]
    assert [e.line for e in result.errors] == [2] and "header has 3" in result.errors[0].message


def test_a_huge_field_costs_only_its_own_row(tmp_path: Path) -> None:
    result = parse(tmp_path, f"Date,Description,Amount\n2025-01-01,{'A' * 300_000},-1.00\n2025-01-02,B,-2.00\n")
    assert [t.amount for t in result.transactions] == [-200]
    assert [e.line for e in result.errors] == [2]


CELL = st.text(alphabet=st.sampled_from("ab1 .-;"), max_size=4)


@settings(max_examples=400)
@given(st.lists(st.lists(CELL, min_size=1, max_size=4), min_size=1, max_size=8), st.booleans())
def test_the_one_split_read_of_a_uniform_block_matches_the_row_by_row_read(rows: list[list[str]], final_newline: bool) -> None:
    """`uniform_columns` answers only when every line has the same number of cells and none is blank,
    and then with exactly what the row-by-row read says, column by column."""
    text = "Date,Amount\n" + "\n".join(",".join(cells) for cells in rows) + ("\n" if final_newline else "")
    block = uniform_columns(text, ",", 2)
    _, records, _ = read_records(text, ",")
    data = records[1:]
    if len({len(cells) for cells in data}) != 1 or [""] in data:
        assert block is None
    else:
        assert block is not None and block[0] == len("Date,Amount\n")
        assert block[1] == [list(column) for column in zip(*data)]
