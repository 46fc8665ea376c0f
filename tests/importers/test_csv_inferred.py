"""Columns read from their cells, for files without a header or with one we cannot read: a role is
given only when the cells leave no doubt."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from wilson.importers.csv_inferred import InferredCsv
from wilson.importers.formats import choose_format, parse_file
from wilson.importers.model import ImportRefused, ParseResult

from parsed_fixtures import FIXTURES, parse_fixture, read_text

INFERRED = InferredCsv()


def parse(name: str) -> ParseResult:
    return parse_fixture(name, "inferred_csv")


def test_raiffeisen_dates_decimal_commas_and_a_currency_column() -> None:
    result = parse("bank2ynab/test01-raiffeisen.csv")
    assert len(result.transactions) == 73 and result.errors == []
    first = result.transactions[0]
    assert (first.posted, first.amount, first.currency) == (date(2017, 9, 18), -3387, "EUR")
    assert first.description == "HOFER DANKT 0527 K2 18.09. 17:20"


def test_an_in_out_flag_column_signs_unsigned_amounts() -> None:
    result = parse("bank2ynab/test_row_format_CD_flag.csv")
    txs = result.transactions
    assert len(txs) == 73
    assert txs[0].amount == -3387  # `O`: out
    lines = read_text(FIXTURES / "bank2ynab/test_row_format_CD_flag.csv").splitlines()
    assert sum(t.amount > 0 for t in txs[:70]) == sum(line.rstrip().endswith(";I") for line in lines)
    assert result.warnings == ["line 71: skipped 'A null transaction, just to confuse things' (no date, no amount)"]


def test_mint_without_header_debit_and_credit_words() -> None:
    result = parse("csv2ofx/mint_headerless.csv")
    assert [(t.posted, t.amount) for t in result.transactions] == [
        (date(2015, 6, 12), -100000), (date(2015, 6, 12), -150000), (date(2015, 6, 13), 200000), (date(2015, 6, 14), -250000),
    ]


def test_posb_month_name_dates() -> None:
    (tx,) = parse("bank2ynab/dba33fceecd62c3c727893361e0ba4d3.P000000027355791.csv").transactions
    assert (tx.posted, tx.amount, tx.description) == (date(2018, 2, 27), 780, "MCDONALD'S (TAM KIOSK) SI NG 22FEB")


def test_debit_and_credit_columns_and_a_running_balance_are_told_apart() -> None:
    text = "03/01/2024,COFFEE SHOP,4.50,,995.50\n03/02/2024,SALARY,,2000.00,2995.50\n03/03/2024,RENT,900.00,,2095.50\n"
    result = INFERRED.parse(text, "inline.csv")
    assert [t.amount for t in result.transactions] == [-450, 200000, -90000]
    assert [t.balance for t in result.transactions] == [99550, 299550, 209550]
    signed = "2024-03-01,COFFEE SHOP,-4.50,995.50\n2024-03-02,SALARY,2000.00,2995.50\n2024-03-03,RENT,-900.00,2095.50\n"
    assert [t.balance for t in INFERRED.parse(signed, "inline.csv").transactions] == [99550, 299550, 209550]


def test_row_errors_name_the_numbered_column() -> None:
    text = "".join(f"2024-03-{day:02d},COFFEE SHOP,-4.{day:02d}\n" for day in range(1, 11)) + "2024-03-11,BAKERY,abc\n"
    result = INFERRED.parse(text, "inline.csv")
    assert len(result.transactions) == 10
    assert [str(e) for e in result.errors] == ["line 11, column 3: not an amount: 'abc'"]


@pytest.mark.parametrize(
    "text",
    [
        "2024-03-01,COFFEE,4\n2024-03-02,TEA,5\n",  # no decimals: ids or counts, not money
        "COFFEE,-4.50,x\nTEA,-3.10,y\n",  # no date column
        "just words\nand more words\n",
    ],
)
def test_not_taken_without_certainty(text: str) -> None:
    assert INFERRED.detect(text) == 0
    with pytest.raises(ImportRefused):
        INFERRED.parse(text, "inline.csv")


def test_a_header_the_generic_mapper_reads_stays_its() -> None:
    assert choose_format("Date,Description,Amount\n2024-03-01,COFFEE,-4.50\n", "inline.csv").name == "generic_csv"


def test_a_header_read_wrongly_gives_way_to_the_cells(tmp_path: Path) -> None:
    """`Valuta` is the currency in Swedish (a value date in German): with no other date column the
    generic mapper's reading fails on every row, and the columns are read from their cells instead."""
    path = tmp_path / "konto.csv"
    path.write_text("Bokf.dag;Valuta;Belopp;Beskrivning\n2024-03-15;SEK;-245,50;ICA KVANTUM\n2024-03-14;SEK;25000,00;ACME AB\n")
    result = parse_file(path)
    assert result.format == "inferred_csv" and result.errors == []
    assert [(t.posted, t.amount, t.currency) for t in result.transactions] == [
        (date(2024, 3, 15), -24550, "SEK"), (date(2024, 3, 14), 2500000, "SEK"),
    ]


def test_swedish_and_polish_headers() -> None:
    result = parse_file(FIXTURES / "written/swedbank.csv")
    assert result.errors == []
    assert [(t.posted, t.amount, t.description) for t in result.transactions] == [
        (date(2024, 3, 15), -24550, "ICA KVANTUM"), (date(2024, 3, 14), 2500000, "ACME AB"),
        (date(2024, 3, 13), -10000, "SWISH TILL ANNA"), (date(2024, 3, 12), -40000, "ELLEVIO AB"),
    ]
    assert [t.balance for t in result.transactions] == [1025450, 1050000, -1450000, -1440000]
    assert result.accounts[0].currency == "SEK"
    polish = parse_file(FIXTURES / "written/pko.csv")
    assert [(t.amount, t.description) for t in polish.transactions] == [(-4599, "BIEDRONKA WARSZAWA")]
    assert polish.accounts[0].currency == "PLN"


def test_a_balance_is_never_taken_for_a_missing_amount(tmp_path: Path) -> None:
    """The generic reading fails (no amounts); reading the cells alone would book the balances."""
    path = tmp_path / "export.csv"
    path.write_text("Date,Description,Amount,Balance\n" + "".join(
        f"2024-03-{day:02d},SHOP {day},,{1000 + day}.50\n" for day in range(1, 6)
    ))
    result = parse_file(path)
    assert (result.format, len(result.transactions)) == ("generic_csv", 0)
    assert str(result.errors[0]) == "line 2, column Amount: no amount"


def test_an_unread_header_over_withdrawal_and_deposit_columns(tmp_path: Path) -> None:
    path = tmp_path / "konto.csv"
    path.write_text(
        "Bokföringsdatum;Text;Uttag;Insättning;Saldo\n2024-03-15;ICA KVANTUM;245,50;;10254,50\n"
        "2024-03-14;LÖN ACME;;25000,00;10500,00\n2024-03-13;SWISH ANNA;100,00;;-14500,00\n", encoding="utf-8"
    )
    result = parse_file(path)
    assert result.format == "inferred_csv" and result.errors == []
    assert [(t.amount, t.balance, t.description) for t in result.transactions] == [
        (-24550, 1025450, "ICA KVANTUM"), (2500000, 1050000, "LÖN ACME"), (-10000, -1450000, "SWISH ANNA"),
    ]


def test_headerless_balances_before_and_after_each_row_point_to_the_amount() -> None:
    result = parse("written/abnamro.tab")  # ABN AMRO .TAB: account, currency, date, balance before, after, date, amount
    assert [(t.posted, t.amount) for t in result.transactions] == [
        (date(2024, 3, 1), -1250), (date(2024, 3, 2), 250000), (date(2024, 3, 3), -5000),
    ]
    assert [t.balance for t in result.transactions] == [122206, 372206, 367206]


def test_headerless_australian_rows_read_day_first_from_their_span() -> None:
    result = parse("written/anz_au.csv")
    assert [(t.posted, t.amount) for t in result.transactions] == [(date(2024, 3, 4), -4567), (date(2024, 3, 1), 200000)]


def test_a_column_of_lone_dashes_is_a_placeholder_not_debit_flags() -> None:
    """Scotiabank's old headerless export: date, signed amount, `-`, type, description. Read as
    D/C flags, the dashes made every deposit a withdrawal."""
    result = parse_fixture("written/scotia_headerless.csv", "inferred_csv")
    assert [t.amount for t in result.transactions] == [-425, 250000, -4599]


def test_whole_forints_beside_a_currency_column_are_the_amount(tmp_path) -> None:
    """OTP writes no header and no decimals: signed whole numbers next to `HUF` are money."""
    from wilson.importers.formats import parse_file

    path = tmp_path / "export_otp.csv"
    path.write_text(
        '"11773016-12345678";"T";"-450";"HUF";"20240302";"20240302";"Tesco Áruház";"Vásárlás"\n'
        '"11773016-12345678";"T";"-123456";"HUF";"20240305";"20240305";"Albérlet Kovács";"Vásárlás"\n'
        '"11773016-12345678";"J";"250000";"HUF";"20240309";"20240309";"Munkabér Cég Kft.";"Jóváírás"\n',
        encoding="utf-8",
    )
    result = parse_file(path)
    assert [(t.amount, t.currency or result.accounts[0].currency) for t in result.transactions] == [
        (-45000, "HUF"), (-12345600, "HUF"), (25000000, "HUF")]


def test_a_header_less_files_description_is_its_varied_text_not_its_repeated_type(tmp_path) -> None:
    """NAB writes the transaction type and the merchant in two columns of about as many letters."""
    from wilson.importers.formats import parse_file

    path = tmp_path / "NAB_TransactionHistory.csv"
    path.write_text("02 Mar 24,-4.50,,,EFTPOS DEBIT,TESCO STORES 2143,4995.50\n05 Mar 24,-1234.56,,,EFTPOS DEBIT,RENT J SMITH,3760.94\n"
                    "09 Mar 24,2500.00,,,SALARY CREDIT,ACME LTD,6260.94\n14 Mar 24,-87.30,,,EFTPOS DEBIT,CAFE ROMA,6173.64\n")
    assert [t.description for t in parse_file(path).transactions] == ["TESCO STORES 2143", "RENT J SMITH", "ACME LTD", "CAFE ROMA"]
