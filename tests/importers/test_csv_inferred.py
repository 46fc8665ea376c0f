"""Columns read from their cells, for files without a header or with one we cannot read: a role is
given only when the cells leave no doubt."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

import pytest

from wilson.importers.csv_inferred import InferredCsv
from wilson.importers.formats import choose_format, parse_file
from wilson.importers.model import ImportRefused, ParseResult
from wilson.importers.pipeline import import_file
from wilson.ledger import Ledger

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


def test_amounts_written_the_spreadsheet_way_beside_a_balance_of_cents_are_the_amounts(tmp_path: Path) -> None:
    """`-12.5` and `2000` (a spreadsheet drops trailing zeros) are not the money column of cents
    they stand beside: that is the balance they move."""
    path = tmp_path / "saved_from_excel.csv"
    path.write_text("2025-03-01,TESCO,-12.5,987.95\n2025-03-02,SALARY,2000,2987.95\n2025-03-03,RENT,-900,2087.95\n")
    result = parse_file(path)
    assert [(t.amount, t.balance) for t in result.transactions] == [(-1250, 98795), (200000, 298795), (-90000, 208795)]


def test_a_summary_line_of_the_rows_width_above_them_is_passed_over(tmp_path: Path) -> None:
    """Its `Balance` over the amounts' column is a figure's label, not the column's name."""
    path = tmp_path / "summary.csv"
    path.write_text(
        "Account Summary,Current Account 12-34-56 12345678,Balance,1234.56\n"
        '01/03/2025,"TESCO STORES 1234",-12.30,\n02/03/2025,"ACME LTD SALARY",2000.00,\n05/03/2025,"SHELL",-45.00,\n'
    )
    assert [t.amount for t in parse_file(path).transactions] == [-1230, 200000, -4500]


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


def test_a_summary_line_above_the_rows_and_amounts_grouped_by_spaces(tmp_path) -> None:
    """BNP Paribas' older export: an account summary line, then rows with `2 150,00` grouped by a
    no-break space (a narrow one, or a plain space, in other exports)."""
    rows = [
        "14/03/2025;FACTURE CARTE;FACTURE CARTE DU 130325 CARREFOUR CITY PARIS;-23,45",
        "05/03/2025;VIR SEPA RECU;VIR SEPA RECU /DE ACME SAS /MOTIF SALAIRE MARS;2\u00a0150,00",
        "04/03/2025;VIR SEPA RECU;VIR SEPA RECU /DE ACME SAS /PRIME;1\u202f000,00",
        "03/03/2025;PRLV SEPA;PRLV SEPA EDF CLIENTS PARTICULIERS;-1 057,80",
    ]
    path = tmp_path / "E1234.csv"
    path.write_bytes("\r\n".join(["Compte de chèques;Compte de chèques;****1234;14/03/2025;;3\u00a0368,75", *rows, ""]).encode())
    result = parse_file(path)
    assert (result.format, result.errors) == ("inferred_csv", [])
    assert [(t.line, t.posted, t.amount) for t in result.transactions] == [
        (2, date(2025, 3, 14), -2345), (3, date(2025, 3, 5), 215000), (4, date(2025, 3, 4), 100000), (5, date(2025, 3, 3), -105780),
    ]
    assert result.transactions[1].description == "VIR SEPA RECU /DE ACME SAS /MOTIF SALAIRE MARS"


def test_a_space_groups_digits_in_threes_with_one_mark() -> None:
    """`1234 567,89` is two numbers (a count and an amount, say), not one: read as money it booked 1,234,567.89."""
    text = "".join(f"2024-03-{day:02d};SHOP {day};12{day:02d} 567,89\n" for day in range(1, 6))
    assert INFERRED.detect(text) == 0


JPY_ROWS = "2025-03-03,-5780,124220,TOKYO DENRYOKU\n2025-03-05,250000,374220,KYUYO ACME\n2025-03-14,-2345,371875,VISA DEBIT SEVEN\n"


def test_whole_numbers_a_running_balance_adds_up_are_money_in_the_named_currency() -> None:
    """Rakuten Bank's rows without its header: yen, with no decimals to tell them from ids."""
    result = INFERRED.parse(JPY_ROWS, "inline.csv", "JPY")
    assert [(t.amount, t.balance) for t in result.transactions] == [(-5780, 124220), (250000, 374220), (-2345, 371875)]
    assert result.accounts[0].currency == "JPY"
    assert INFERRED.detect(JPY_ROWS) == 1  # read only when the user names the currency
    with pytest.raises(ImportRefused, match=r"whole numbers and it names no currency: give it with --currency"):
        INFERRED.parse(JPY_ROWS, "inline.csv")


def test_signed_whole_numbers_are_money_only_in_a_currency_without_cents() -> None:
    text = "2025-03-03,-5780,TOKYO DENRYOKU\n2025-03-05,250000,KYUYO ACME\n2025-03-14,-2345,SEVEN ELEVEN\n"
    assert [t.amount for t in INFERRED.parse(text, "inline.csv", "KRW").transactions] == [-5780, 250000, -2345]
    with pytest.raises(ImportRefused, match=r"in USD, a currency with cents, they may as well be ids or counts"):
        INFERRED.parse(text, "inline.csv", "USD")
    assert [t.amount for t in INFERRED.parse(JPY_ROWS, "inline.csv", "USD").transactions] == [-578000, 25000000, -234500]


@pytest.mark.parametrize(
    "text",
    [
        "2025-03-03,1,1,COFFEE\n2025-03-04,1,2,TEA\n2025-03-05,1,3,CAKE\n",  # a count a counter adds up: no flows
        "2025-03-03,1001,5,COFFEE\n2025-03-04,1002,7,TEA\n2025-03-05,1003,2,CAKE\n",  # ids and counts, unsigned
    ],
)
def test_whole_numbers_nothing_tells_from_ids_are_not_money(text: str) -> None:
    assert INFERRED.detect(text) == 0
    with pytest.raises(ImportRefused):
        INFERRED.parse(text, "inline.csv", "JPY")


def test_a_type_column_beside_the_merchant_is_not_the_description(tmp_path) -> None:
    """Scotiabank: date, amount, `-`, type, merchant. Over enough rows the types recur: the merchant
    describes the row and the type is its note; three rows cannot show which column is the type,
    so both describe it, the merchant last."""
    types = ["Debit Card Purchase", "Payroll Deposit", "Point of Sale Purchase"]
    merchants = ["TIM HORTONS #1234", "ACME CORP", "SHOPPERS DRUG MART", "LOBLAWS 1021", "ESSO 5521", "ROGERS"]
    path = tmp_path / "pcbanking.csv"
    path.write_text("".join(f"3/{day}/2025,-{day}.50,-,{types[day % 2]},{merchant}\n" for day, merchant in enumerate(merchants, 1)))
    result = parse_file(path, currency="CAD")
    assert [(t.description, t.notes) for t in result.transactions][:2] == [
        ("TIM HORTONS #1234", "Payroll Deposit"), ("ACME CORP", "Debit Card Purchase"),
    ]
    path.write_text("".join(f"3/{day}/2025,-{day}.50,-,{kind},{merchant}\n" for day, (kind, merchant) in enumerate(zip(types, merchants), 1)))
    assert [t.description for t in parse_file(path, currency="CAD").transactions] == [
        "Debit Card Purchase TIM HORTONS #1234", "Payroll Deposit ACME CORP", "Point of Sale Purchase SHOPPERS DRUG MART",
    ]


def test_a_column_an_unread_header_names_otherwise_is_not_joined_to_the_description(tmp_path) -> None:
    """Boursorama: `label` beside `category`; only the label describes the row."""
    path = tmp_path / "export.csv"
    path.write_text(
        "dateOp;label;category;amount\n2025-03-14;CARTE CARREFOUR CITY;Alimentation;-23,45\n"
        "2025-03-05;VIR SEPA ACME SAS;Salaires;2150,00\n2025-03-03;PRLV SEPA EDF;Energie;-57,80\n"
    )
    result = parse_file(path)
    assert result.format == "inferred_csv"
    assert [t.description for t in result.transactions] == ["CARTE CARREFOUR CITY", "VIR SEPA ACME SAS", "PRLV SEPA EDF"]


def test_a_pair_written_money_in_first_is_told_by_its_running_balance() -> None:
    """Kiwibank and Banorte write the credit before the debit; a card's balance owed runs the other
    way round too, and its payment (`PAYMENT - THANK YOU`) says which its charges are (TD's Visa)."""
    bank = INFERRED.parse("04-03-2024,COUNTDOWN AUCKLAND,,45.67,1954.33\n01-03-2024,ACME SALARY,2000.00,,2000.00\n", "k.csv")
    assert [t.amount for t in bank.transactions] == [-4567, 200000]
    card = INFERRED.parse(
        "01/03/2025,AMAZON.CA,56.78,,1056.78\n01/10/2025,PAYMENT - THANK YOU,,500.00,556.78\n01/14/2025,UBER,23.40,,580.18\n", "td.csv"
    )
    assert [t.amount for t in card.transactions] == [-5678, 50000, -2340]


TD_DEBITS = ("01/05/2025,TIM HORTONS #1234,2.45,,997.55\n", "01/15/2025,PETRO CANADA,45.00,,952.55\n", "01/20/2025,LOBLAWS,30.00,,922.55\n")


@pytest.mark.parametrize("lines", [TD_DEBITS, TD_DEBITS[::-1]], ids=["oldest first", "newest first"])
def test_an_unsigned_column_the_balance_goes_down_by_is_money_out(lines: tuple[str, ...]) -> None:
    """TD's `accountactivity.csv` (debit, credit, balance; no header) in a month without deposits:
    the credit column is empty on every row, and the running balance says the other is money out."""
    result = INFERRED.parse("".join(lines), "accountactivity.csv")
    by_day = sorted((t.posted, t.amount, t.balance) for t in result.transactions)
    assert by_day == [(date(2025, 1, 5), -245, 99755), (date(2025, 1, 15), -4500, 95255), (date(2025, 1, 20), -3000, 92255)]
    assert result.warnings == []


def test_the_balance_of_money_out_written_unsigned_is_the_accounts(tmp_path: Path) -> None:
    path = tmp_path / "accountactivity.csv"
    path.write_text("".join(TD_DEBITS))
    with Ledger() as ledger:
        import_file(ledger, path, currency="CAD")
        assert ledger.query_one("SELECT balance, balance_date FROM accounts") == {"balance": 92255, "balance_date": "2025-01-20"}
        assert [r["amount"] for r in ledger.query("SELECT amount FROM transactions ORDER BY posted")] == [-245, -4500, -3000]


def test_the_empty_column_beside_money_out_reads_the_deposits_further_down() -> None:
    """Only the file's first rows are read for its columns: a deposit after them, in the column
    they left empty, is money in (TD writes it after the debit, Kiwibank before)."""
    days = [date(2025, 1, 1) + timedelta(days=n) for n in range(55)]
    spent = [Decimal(n % 7) + Decimal("0.25") for n in range(55)]  # 0.25, 1.25, ... 6.25, 0.25, ...
    balances = [Decimal(1000) - sum(spent[: n + 1]) for n in range(55)]
    debits = [f"{day:%m/%d/%Y},SHOP {n},{out},,{balance}\n" for n, (day, out, balance) in enumerate(zip(days, spent, balances))]
    text = "".join(debits) + f"02/28/2025,PAYROLL DEP ACME,,2345.67,{balances[-1] + Decimal('2345.67')}\n"
    td = INFERRED.parse(text, "accountactivity.csv").transactions
    assert (len(td), td[0].amount, td[1].amount, td[-1].amount, td[-1].balance) == (56, -25, -125, 234567, 316992)
    credit_first = "".join(",".join(line.split(",")[i] for i in (0, 1, 3, 2, 4)) for line in debits)
    kiwi = INFERRED.parse(credit_first + f"02/28/2025,ACME SALARY,2345.67,,{balances[-1] + Decimal('2345.67')}\n", "k.csv")
    assert [t.amount for t in kiwi.transactions][:2] + [kiwi.transactions[-1].amount] == [-25, -125, 234567]


def test_a_column_the_balance_goes_down_by_stays_as_written_when_signed_or_a_cards_payments() -> None:
    """Signed amounts are money out only by their signs; a card's payments bring its balance owed
    down and are money in all the same (TD's Visa in a month of no charges)."""
    payments = INFERRED.parse("01/10/2025,PAYMENT - THANK YOU,,500.00,556.78\n01/25/2025,PAYMENT - THANK YOU,,200.00,356.78\n", "td.csv")
    assert [(t.amount, t.balance) for t in payments.transactions] == [(50000, None), (20000, None)]


def test_money_out_written_unsigned_without_a_balance_is_read_as_written() -> None:
    """No running balance tells which way unsigned amounts go: they are read as written, and the
    generic reader's warning says so."""
    result = INFERRED.parse("".join(line.rsplit(",", 1)[0] + "\n" for line in TD_DEBITS), "accountactivity.csv")
    assert [t.amount for t in result.transactions] == [245, 4500, 3000]
    assert result.warnings[0].startswith("most amounts are positive and no card payment shows how the file signs them")


@pytest.mark.parametrize(("cells", "separator"), [
    (("45.20 DR", "3,210.00 CR", "0.05 DR"), "."),
    (("\u221245.20", "3210.00", "\u22120.05"), "."),
    (("$-45.20", "$3210.00", "$-0.05"), "."),
    (("-45,20 EUR", "3.210,00 EUR", "-0,05 EUR"), ","),
    (("€-45,20", "€3.210,00", "€-0,05"), ","),
    (("45,20- USD", "3.210,00 USD", "0,05- USD"), ","),
    (("45.20 Dr.", "3210.00 Cr.", "0.05 Dr."), "."),
    (("45.20 D", "3210.00 C", "0.05 D"), "."),
    (("45.20 Debit", "3210.00 Credit", "0.05 Debit"), "."),
    (("$ (45.20)", "$ 3210.00", "$ (0.05)"), "."),
])
def test_amounts_written_with_marks_beside_a_running_balance_are_the_amounts(tmp_path: Path, cells: tuple[str, ...], separator: str) -> None:
    """A `DR`/`CR` mark, a Unicode minus, a sign after the currency's symbol or a code after the
    number: the amount column all the same, not the balance beside it."""
    balances = ("4954.80", "8164.80", "8164.75") if separator == "." else ("4954,80", "8164,80", "8164,75")
    delimiter = "," if separator == "." else ";"
    lines = [
        delimiter.join((day, text, f'"{amount}"', f'"{balance}"'))
        for day, text, amount, balance in zip(("2026-10-02", "2026-10-05", "2026-10-07"), ("REWE MARKT", "ACME SALARY", "BANK FEE"), cells, balances)
    ]
    path = tmp_path / "headerless.csv"
    path.write_text("\n".join(lines) + "\n")
    result = parse_file(path)
    assert [t.amount for t in result.transactions] == [-4520, 321000, -5]
    assert [t.balance for t in result.transactions] == [495480, 816480, 816475]


def test_letters_beside_digits_are_money_only_when_they_are_a_currency_code(tmp_path: Path) -> None:
    path = tmp_path / "refs.csv"
    path.write_text("2025-03-01,REF 48213,SHOP A,-12.50\n2025-03-02,REF 48214,SHOP B,-3.10\n2025-03-03,REF 48215,SHOP C,250.00\n")
    assert [t.amount for t in parse_file(path).transactions] == [-1250, -310, 25000]


def test_a_column_naming_a_currency_beside_one_naming_none_is_the_original_amount(tmp_path: Path) -> None:
    path = tmp_path / "card.csv"
    path.write_text("2026-11-03,CAFE DE FLORE PARIS,EUR 3.80,-4.42\n2026-11-04,UBER *TRIP PARIS,EUR 25.99,-30.21\n"
                    "2026-11-05,FNAC PARIS,EUR 12.40,-14.41\n")
    assert [t.amount for t in parse_file(path).transactions] == [-442, -3021, -1441]


def test_whole_francs_beside_a_running_balance(tmp_path: Path) -> None:
    path = tmp_path / "konto.csv"
    path.write_text("03.11.2026;MIGROS ZUERICH;-45.–;1'234.50\n04.11.2026;LOHN ACME AG;5'210.–;6'444.50\n05.11.2026;COOP;-12.40;6'432.10\n")
    assert [t.amount for t in parse_file(path).transactions] == [-4500, 521000, -1240]


def test_a_column_naming_several_currencies_is_the_original_amount_not_the_accounts(tmp_path: Path) -> None:
    path = tmp_path / "card.csv"
    path.write_text("2026-11-03,STARBUCKS LONDON,GBP 3.80,-4.95\n2026-11-04,AMAZON.COM,USD 25.99,-25.99\n"
                    "2026-11-05,UBER *TRIP,EUR 12.40,-13.02\n2026-11-06,SALARY ACME,USD 2100.00,2100.00\n")
    assert [t.amount for t in parse_file(path).transactions] == [-495, -2599, -1302, 210000]


def test_a_headerless_card_download_is_read_as_a_card_when_named_so_and_month_after_month(tmp_path: Path) -> None:
    """TD's Visa `accountactivity.csv` of charges only: nothing in it tells charges from deposits,
    so `--format card_csv` (which the warning names) reads it by its cells, its balance owed turned
    round with the charges; the card's next download is read so without being told."""
    january = tmp_path / "td_visa.csv"
    january.write_text("01/05/2025,AMAZON.CA,45.00,,145.00\n01/12/2025,TIM HORTONS,2.45,,147.45\n01/20/2025,PETRO CANADA,60.00,,207.45\n")
    february = tmp_path / "td_visa_feb.csv"
    february.write_text("02/05/2025,AMAZON.CA,12.00,,219.45\n02/12/2025,TIM HORTONS,3.10,,222.55\n")
    assert "--format card_csv" in parse_file(january).warnings[0]
    with Ledger() as ledger:
        first = import_file(ledger, january, forced_format="card_csv")
        assert first.warnings == ["the file states no currency: td visa is opened in USD (undo and import with --currency to choose another)"]
        second = import_file(ledger, february, account="td visa")
        assert second.format == "card_csv"
        assert [row["amount"] for row in ledger.query("SELECT amount FROM transactions ORDER BY posted")] == [-4500, -245, -6000, -1200, -310]
        assert (ledger.scalar("SELECT type FROM accounts"), ledger.scalar("SELECT balance FROM accounts")) == ("credit_card", -22255)


def test_a_message_far_after_the_party_describes_the_row_too() -> None:
    """ASN without a header: the party's name, and fourteen columns on its message in `'…'`; the
    message was dropped, and a fee row with no party had no text at all."""
    row = "{day},NL00ASNB9999999999,{iban},{party},,,,EUR,130.44,EUR,{amount},{day},{day},2754,{code},51392971,,{message},26\n"
    text = "".join(row.format(day=day, iban=iban, party=party, amount=amount, code=code, message=message) for day, iban, party, amount, code, message in (
        ("17-06-2022", "NL11ABNA0000000000", "International Card Services B V", "-200.00", "IDM", "'Betaling aan ICS 9999'"),
        ("25-06-2022", "", "", "-2.20", "MSC", "'Kosten gebruik betaalpas'"),
        ("27-06-2022", "NL25INGB0000000000", "Optimal Beleggingsfondsen Nederland BV", "503.15", "OVS", "'Dividend uitkering'"),
    ))
    result = INFERRED.parse(text, "asn.csv")
    assert [t.description for t in result.transactions] == [
        "International Card Services B V Betaling aan ICS 9999", "Kosten gebruik betaalpas",
        "Optimal Beleggingsfondsen Nederland BV Dividend uitkering",
    ]
