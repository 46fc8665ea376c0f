"""Named bank dialects: detection beats the generic mapper, and every row comes out exact."""

from __future__ import annotations

from datetime import date

import pytest

from wilson.importers import csv_banks, csv_generic, csv_inferred
from wilson.importers.formats import choose_format, parse_file
from wilson.importers.model import ImportRefused, ParseResult
from wilson.importers.pipeline import import_file
from wilson.ledger import Ledger

from parsed_fixtures import FIXTURES, parse_fixture as parse, read_text



@pytest.mark.parametrize(
    ("name", "dialect"),
    [
        ("written/chase_checking.csv", "chase_checking"),
        ("written/chase_credit.csv", "chase_credit"),
        ("written/Chase4321_Activity_20161231.CSV", "chase_credit"),
        ("written/amex.csv", "amex"),
        ("written/bofa_checking.csv", "bofa_checking"),
        ("written/bofa_credit.csv", "bofa_credit"),
        ("csv2ofx/capitalone.csv", "capital_one"),
        ("written/wells_fargo.csv", "wells_fargo"),
        ("written/discover.csv", "discover"),
        ("csv2ofx/schwab-checking.csv", "schwab_checking"),
        ("csv2ofx/schwab-checking-baltest-case1.csv", "schwab_checking"),
        ("written/revolut.csv", "revolut"),
        ("written/revolut_de_statement.csv", "revolut"),
    ],
)
def test_dialect_outscores_generic(name: str, dialect: str) -> None:
    text = read_text(FIXTURES / name)
    scores = {fmt.name: fmt.detect(text) for fmt in csv_banks.FORMATS + csv_generic.FORMATS + csv_inferred.FORMATS}
    assert scores[dialect] == max(scores.values())
    assert scores["generic_csv"] < scores[dialect]
    assert sorted(scores.values())[-2] < scores[dialect]


def test_chase_checking() -> None:
    result = parse("written/chase_checking.csv", "chase_checking")
    txs = result.transactions
    assert len(txs) == 6
    assert [t.amount for t in txs] == [-575, 15000, -12000, 250000, -125000, -8999]
    assert [t.balance for t in txs] == [311850, 312425, 297425, 309425, 59425, 184425]
    assert txs[0].posted == date(2025, 1, 31)
    assert txs[0].line == 2
    assert txs[0].description == "STARBUCKS STORE 12345 SEATTLE WA 01/30"
    assert txs[0].payee is None
    assert txs[2].notes == "CHECK_PAID; 1042"
    (account,) = result.accounts
    assert (account.key, account.name, account.type, account.institution, account.currency) == (
        "default", "Chase Checking", "checking", "Chase", "USD",
    )


def test_a_banks_layout_with_unreadable_amounts_is_refused_not_read_by_its_cells(tmp_path) -> None:
    """A spreadsheet's `#VALUE!` in every Amount cell: read by its cells alone, the file booked its
    running balances as the amounts."""
    path = tmp_path / "Chase1234_Activity.csv"
    path.write_text(
        "Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #\n"
        "DEBIT,02/03/2025,STARBUCKS,#VALUE!,DEBIT_CARD,995.50,,\n"
        "CREDIT,02/05/2025,PAYROLL,#VALUE!,ACH_CREDIT,2455.50,,\n"
    )
    result = parse_file(path)
    assert result.format == "chase_checking" and result.transactions == []
    assert [str(error) for error in result.errors] == [
        "line 2, column Amount: not an amount: '#VALUE!'", "line 3, column Amount: not an amount: '#VALUE!'",
    ]


def test_a_us_banks_point_is_always_its_decimal_mark(tmp_path) -> None:
    """Every amount with three decimals read as thousands booked -45.001 as -45,001.00."""
    path = tmp_path / "Chase1234_Activity.csv"
    head = "Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #\n"
    path.write_text(head + "DEBIT,02/03/2025,SHELL OIL,-1.250,DEBIT_CARD,998.750,,\nDEBIT,02/04/2025,SHELL OIL,-2.500,DEBIT_CARD,996.250,,\n")
    assert [(t.amount, t.balance) for t in parse_file(path).transactions] == [(-125, 99875), (-250, 99625)]
    path.write_text(head + "DEBIT,02/03/2025,SHELL OIL,-45.001,DEBIT_CARD,954.999,,\nDEBIT,02/04/2025,SHELL OIL,-1.250,DEBIT_CARD,953.749,,\n")
    assert [str(error) for error in parse_file(path).errors] == [
        "line 2, column Amount: -45.001 has more decimals than USD allows",
    ]
    path.write_text(head + 'DEBIT,02/03/2025,SHELL OIL,"-45,20",DEBIT_CARD,"954,80",,\n')  # re-saved by a European spreadsheet
    assert [(t.amount, t.balance) for t in parse_file(path).transactions] == [(-4520, 95480)]


def test_a_banks_own_date_order_holds_when_every_date_fits_both() -> None:
    """Chase writes month first: a small download of `01/04` and `02/04` is January and February,
    though read day first the two rows would be days in a row (which settles a generic file)."""
    text = (
        "Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #,\n"
        "CREDIT,02/04/2025,COMCAST,-89.99,ACH_DEBIT,1110.01,,\n"
        "CREDIT,01/04/2025,ZELLE FROM MOM,200.00,QUICKPAY_CREDIT,1200.00,,\n"
    )
    chase = next(fmt for fmt in csv_banks.FORMATS if fmt.name == "chase_checking")
    result = chase.parse(text, "Chase1234_Activity_20250205.CSV")
    assert [t.posted for t in result.transactions] == [date(2025, 2, 4), date(2025, 1, 4)]
    assert not result.warnings


def test_chase_credit_uses_post_date_and_keeps_signs() -> None:
    result = parse("written/chase_credit.csv", "chase_credit")
    txs = result.transactions
    assert [t.amount for t in txs] == [-4299, 50000, 1599, -2310, -123456]
    assert txs[0].posted == date(2025, 1, 29)  # Post Date, not Transaction Date
    assert txs[4].posted == date(2025, 1, 2)
    assert txs[4].description == "WHOLEFDS MKT #10234, AUSTIN"
    assert txs[0].category == "Shopping"
    assert txs[1].category is None
    assert txs[3].notes == "Sale; Airport ride"
    assert result.accounts[0].type == "credit_card"
    assert result.accounts[0].name == "Chase Card"


def test_chase_credit_before_2017_is_the_same_card_as_today() -> None:
    """`Type,Trans Date,Post Date,Description,Amount`: charges negative as today, booked on the Post
    Date, in the account a newer export of that card (`Chase4321_Activity20240201.CSV`) goes to."""
    old = parse("written/Chase4321_Activity_20161231.CSV", "chase_credit")
    assert [(t.posted, t.amount, t.notes) for t in old.transactions] == [
        (date(2016, 12, 29), -575, "Sale"), (date(2016, 12, 29), 2399, "Return"), (date(2016, 12, 15), 50000, "Payment"),
        (date(2016, 12, 5), -4012, "Sale"), (date(2016, 12, 1), -2500, "Fee"),
    ]
    text = "Transaction Date,Post Date,Description,Category,Type,Amount,Memo\n01/28/2024,01/29/2024,STARBUCKS,Food & Drink,Sale,-5.75,\n"
    new = choose_format(text, "Chase4321_Activity20240201.CSV").parse(text, "Chase4321_Activity20240201.CSV")
    assert [(a.name, a.type) for a in old.accounts] == [(a.name, a.type) for a in new.accounts] == [("Chase Card …4321", "credit_card")]


def test_a_card_row_without_a_post_date_yet_is_pending() -> None:
    text = (
        "Transaction Date,Post Date,Description,Category,Type,Amount,Memo\n"
        "06/09/2026,,CVS/PHARMACY #08812,Health & Wellness,Sale,-24.18,\n"
        "06/05/2026,06/08/2026,WHOLE FOODS MKT 10234,Groceries,Sale,-85.06,\n"
        "06/01/2026,06/02/2026,SHELL OIL 57444422,Gas,Sale,-41.20,\n"
    )
    result = choose_format(text, "Chase5678_Activity20260610.CSV").parse(text, "Chase5678_Activity20260610.CSV")
    assert result.format == "chase_credit" and result.errors == []
    assert [(t.posted, t.amount, t.pending) for t in result.transactions] == [
        (date(2026, 6, 9), -2418, True), (date(2026, 6, 8), -8506, False), (date(2026, 6, 2), -4120, False),
    ]


def test_amex_negates_charges_and_reads_multiline_fields() -> None:
    result = parse("written/amex.csv", "amex")
    txs = result.transactions
    assert len(txs) == 4
    assert [t.amount for t in txs] == [-3456, 120000, -102430, 1999]
    assert [t.line for t in txs] == [2, 6, 7, 12]  # each row starts where its first field does
    assert txs[0].bank_id == "320250160123456789"
    assert txs[0].category == "Restaurant-Restaurant"
    assert txs[0].notes == "4MWHS7UQ help.uber.com help.uber.com CA"
    assert txs[2].description == "DELTA AIR LINES"
    assert txs[2].posted == date(2025, 1, 10)
    account = result.accounts[0]
    assert (account.name, account.type, account.institution) == ("Amex", "credit_card", "American Express")


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        (  # `Foreign Spend Amount: 396.00 UNITED KINGDOM POUND STERLING`, glued to the line before it
            "written/amex_foreign_gbp.csv", [(-50086, -39600, "GBP"), (25000, None, None), (-4217, None, None)],
        ),
        (  # `Foreign Spend Amount: 1,000.00 EUR`, in the layout with Card Member and Account #
            "written/amex_foreign_eur.csv",
            [(-2345, None, None), (50000, None, None), (-110850, -100000, "EUR"), (1599, None, None), (-575, None, None), (-575, None, None)],
        ),
    ],
)
def test_amex_foreign_charges_keep_their_original_amount_and_currency(name: str, expected: list[tuple]) -> None:
    result = parse(name, "amex")
    assert [(t.amount, t.original_amount, t.original_currency) for t in result.transactions] == expected


def test_amex_foreign_spend_in_named_currencies_is_exact_in_their_minor_units() -> None:
    """Amex names the currency (`JAPANESE YEN`: no decimals) or writes its code; a refund's original
    is an inflow as the refund is, and a name Wilson does not know leaves the row without one."""
    head = (
        "Date,Description,Amount,Extended Details,Appears On Your Statement As,Address,City/State,Zip Code,Country,Reference,Category\n"
    )
    rows = [
        ("3,200 JAPANESE YEN", "21.40"), ("1,234.50 MEXICAN PESO", "72.31"), ("45.00 SWISS FRANC", "51.02"),
        ("88.20 EURO", "-95.11"), ("60.00 CANADIAN DOLLAR", "44.10"), ("500,000 VIETNAMESE DONG", "19.60"),
    ]
    text = head + "".join(
        f'03/1{n}/2025,SHOP {n},"{amount}","Foreign Spend Amount: {spend} Commission Amount: 0.00 Currency Exchange Rate: null\nSHOP",'
        f"SHOP {n},,,,,'3202507{n}',Shopping\n"
        for n, (spend, amount) in enumerate(rows)
    )
    assert choose_format(text, "activity.csv").name == "amex"
    result = _chosen(text)
    assert [(t.original_amount, t.original_currency) for t in result.transactions] == [
        (-3200, "JPY"), (-123450, "MXN"), (-4500, "CHF"), (8820, "EUR"), (-6000, "CAD"), (None, None),
    ]


def test_bofa_checking_skips_summary_block_and_balance_row() -> None:
    result = parse("written/bofa_checking.csv", "bofa_checking")
    txs = result.transactions
    assert len(txs) == 3
    assert [t.line for t in txs] == [9, 10, 11]
    assert [t.amount for t in txs] == [300000, -8745, -120000]
    assert [t.balance for t in txs] == [423456, 414711, 294711]
    assert txs[1].description == "KROGER #1234 01/04 PURCHASE HOUSTON TX"


def test_bofa_statements_joined_by_cat_skip_each_summary_block() -> None:
    text = read_text(FIXTURES / "written/bofa_checking.csv")
    later = text.replace("01/", "02/").replace("-87.45", "-12.00")
    bofa = next(f for f in csv_banks.FORMATS if f.name == "bofa_checking")
    result = bofa.parse(text + later, "joined.csv")
    assert result.errors == [] and result.warnings == []
    assert [t.line for t in result.transactions] == [9, 10, 11, 20, 21, 22]
    assert [t.amount for t in result.transactions] == [300000, -8745, -120000, 300000, -1200, -120000]


def test_bofa_credit_reference_is_bank_id() -> None:
    result = parse("written/bofa_credit.csv", "bofa_credit")
    txs = result.transactions
    assert [t.amount for t in txs] == [-4520, 80000, -1549]
    assert txs[0].bank_id == "24692165027100012345678"
    assert txs[0].description == "SHELL OIL 57444416804 HOUSTON TX"
    assert result.accounts[0].type == "credit_card"


def test_capital_one_debit_credit_columns() -> None:
    result = parse("csv2ofx/capitalone.csv", "capital_one")
    txs = result.transactions
    assert [(t.posted, t.amount, t.category) for t in txs] == [
        (date(2016, 1, 2), -100000, "Other Travel"),
        (date(2016, 1, 2), 100000, "Payment/Credit"),
    ]
    assert txs[1].description == "CAPITAL ONE AUTOPAY PYMT"
    assert result.accounts[0].name == "Capital One Card"
    assert result.accounts[0].type == "credit_card"


def test_wells_fargo_has_no_header() -> None:
    result = parse("written/wells_fargo.csv", "wells_fargo")
    txs = result.transactions
    assert [t.line for t in txs] == [1, 2, 3, 4]
    assert [t.amount for t in txs] == [-4567, 250000, -120000, -1234]
    assert txs[2].notes == "1043"
    assert txs[3].posted == date(2025, 1, 2)
    assert txs[3].description == "MONTHLY SERVICE FEE"


def test_discover_negates_charges() -> None:
    result = parse("written/discover.csv", "discover")
    txs = result.transactions
    assert [t.amount for t in txs] == [-5432, 30000, -1199, 1000]
    assert txs[2].posted == date(2025, 1, 13)
    assert txs[1].category == "Payments and Credits"


def test_schwab_split_columns_dollars_and_thousands() -> None:
    result = parse("csv2ofx/schwab-checking.csv", "schwab_checking")
    txs = result.transactions
    assert [t.amount for t in txs] == [2000, -10300, -7500, -5727]
    assert [t.balance for t in txs] == [87847, 85847, 96147, 103647]
    assert txs[0].posted == date(2022, 8, 17)
    assert txs[3].description == "PAYPAL INST XFER 220803~ Tran: ACHDW"
    assert not any(t.pending for t in txs)


def test_schwab_older_layout_with_headings_between_the_rows() -> None:
    result = parse("csv2ofx/schwab-checking-baltest-case1.csv", "schwab_checking")
    assert [t.amount for t in result.transactions] == [2000, -10300, -7500, -5727]
    assert [t.balance for t in result.transactions] == [87847, 85847, 96147, 103647]
    assert result.skipped_pending == 0  # the `Pending Transactions are not reflected…` note is no row
    assert result.warnings == [
        "line 3: skipped 'Pending Transactions are not reflected within this sort crit' (no date, no amount)",
        "line 4: skipped 'Posted Transactions' (no date, no amount)",
    ]


def test_revolut_pending_reverted_fee_and_products() -> None:
    result = parse("written/revolut.csv", "revolut")
    txs = result.transactions
    assert result.skipped_reverted == 2  # REVERTED and DECLINED never booked
    assert [t.description for t in txs] == [
        "Top-Up by *1234", "Lidl", "Exchanged to USD", "Starbucks", "Hotel Hold", "To EUR Savings",
    ]
    assert [t.amount for t in txs] == [50000, -2345, -10050, -410, 0, 5000]  # the 0.50 fee is an outflow
    assert [t.pending for t in txs] == [False, False, False, True, True, False]
    assert txs[1].posted == date(2022, 1, 4)  # completed, not started
    assert txs[3].posted == date(2022, 1, 8)  # pending: the started date
    assert txs[3].balance is None
    assert all(t.currency == "EUR" for t in txs)
    assert [a.name for a in result.accounts] == ["Revolut Current EUR", "Revolut Savings EUR"]  # an account per currency
    assert [t.account_key for t in txs] == ["Current EUR"] * 5 + ["Savings EUR"]
    assert {a.currency for a in result.accounts} == {"EUR"}


def test_revolut_names_an_account_per_product_and_currency_whatever_the_file_holds(tmp_path) -> None:  # type: ignore[no-untyped-def]
    head = "Type,Product,Started Date,Completed Date,Description,Amount,Fee,Currency,State,Balance\n"
    usd = tmp_path / "rev_usd.csv"
    usd.write_text(head + "EXCHANGE,Current,2025-01-05 10:00:00,2025-01-05 10:00:00,Exchanged from EUR,104.20,0.00,USD,COMPLETED,104.20\n")
    both = tmp_path / "statement.csv"
    both.write_text(head + "TOPUP,Current,2025-01-02 09:00:01,2025-01-02 09:00:05,Top-up by *1234,500.00,0.00,EUR,COMPLETED,500.00\n"
                    "EXCHANGE,Current,2025-01-05 10:00:00,2025-01-05 10:00:00,Exchanged from EUR,104.20,0.00,USD,COMPLETED,104.20\n")
    revolut = next(fmt for fmt in csv_banks.FORMATS if fmt.name == "revolut")
    alone, mixed = (revolut.parse(path.read_text(), str(path)) for path in (usd, both))
    assert [a.name for a in alone.accounts] == ["Revolut Current USD"]
    assert [(a.name, a.currency) for a in mixed.accounts] == [("Revolut Current EUR", "EUR"), ("Revolut Current USD", "USD")]


def test_revolut_in_german_reads_as_in_english() -> None:
    result = parse("written/revolut_de_statement.csv", "revolut")
    assert result.skipped_reverted == 2  # RÜCKGÄNGIG GEMACHT and ABGELEHNT never booked
    assert [(t.posted, t.amount, t.pending, t.balance) for t in result.transactions] == [
        (date(2025, 3, 2), -2345, False, 97655),  # Abschlussdatum, not Startdatum
        (date(2025, 3, 3), 50000, False, 147655),
        (date(2025, 3, 5), -1230, True, None),  # AUSSTEHEND: the Startdatum, kept flagged
    ]
    assert [(a.key, a.name, a.currency) for a in result.accounts] == [("Aktuell EUR", "Revolut Aktuell EUR", "EUR")]


def test_revolut_in_german_books_every_row_as_the_english_file_does() -> None:
    """The English fixture with the German header and states: fees, pending and reverted rows,
    dates and an account per product and currency all come out the same."""
    english = read_text(FIXTURES / "written/revolut.csv")
    german = english.replace(
        english.split("\n", 1)[0], "Typ,Produkt,Startdatum,Abschlussdatum,Beschreibung,Betrag,Gebühr,Währung,Status,Saldo"
    )
    for state, zustand in (("COMPLETED", "ABGESCHLOSSEN"), ("PENDING", "AUSSTEHEND"), ("REVERTED", "RÜCKGÄNGIG GEMACHT"),
                           ("DECLINED", "ABGELEHNT")):
        german = german.replace(f",{state},", f",{zustand},")
    assert choose_format(german, "konto.csv").name == "revolut"
    read = [choose_format(text, "konto.csv").parse(text, "konto.csv") for text in (english, german)]
    assert list(read[1].transactions) == list(read[0].transactions)
    assert read[1].accounts == read[0].accounts and read[1].skipped_reverted == read[0].skipped_reverted == 2


def test_dialect_parse_never_raises_on_a_truncated_file() -> None:
    text = read_text(FIXTURES / "written/amex.csv")
    cut = text[: text.index("Travel-Airline") - 120]  # inside the quoted address of row 3
    result = csv_banks.FORMATS[2].parse(cut, "cut.csv")
    assert [t.amount for t in result.transactions] == [-3456, 120000]
    assert len(result.errors) == 1
    assert result.errors[0].line == 7
    assert "quoted field" in result.errors[0].message


def _chosen(text: str) -> ParseResult:
    fmt = choose_format(text, "inline.csv")
    result = fmt.parse(text, "inline.csv")
    assert result.errors == []
    return result


@pytest.mark.parametrize(
    ("text", "dialect", "day"),
    [
        (  # Discover as it downloads today: `Post Date`, sometimes with a type and reference
            "Trans. Date,Post Date,Description,Amount,Category,Transaction Type,Reference Number\n"
            "04/01/2026,04/02/2026,COFFEE SHOP,4.50,Restaurants,Sale,D100\n"
            "04/03/2026,04/04/2026,INTERNET PAYMENT - THANK YOU,-25.00,Payments and Credits,Payment,D101\n",
            "discover", date(2026, 4, 2),
        ),
        (  # the short Amex download
            "Date,Description,Card Member,Account #,Amount\n"
            "05/24/2026,COFFEE SHOP,ALEX EXAMPLE,-11016,4.50\n"
            "05/21/2026,MOBILE PAYMENT - THANK YOU,SAM EXAMPLE,-11016,-25.00\n",
            "amex", date(2026, 5, 24),
        ),
        (  # Amex UK: day-first dates, UK address columns
            "Date,Description,Card Member,Account #,Amount,Extended Details,Appears On Your Statement As,Address,"
            "Town/City,Postcode,Country,Reference,Category\n"
            "15/01/2026,COFFEE SHOP,MR TEST,-12345,4.50,GOODS,COFFEE SHOP,1 ST,LONDON,SW1A 1AA,UK,'AT1',Entertainment\n"
            "14/01/2026,PAYMENT RECEIVED - THANK YOU,MR TEST,-12345,-25.00,,,,,,,'AT2',\n",
            "amex", date(2026, 1, 15),
        ),
        (
            "Transaction Date,Clearing Date,Description,Merchant,Category,Type,Amount (USD),Purchased By\r\n"
            "09/15/2026,09/16/2026,COFFEE SHOP,Coffee Shop,Restaurants,Purchase,4.50,Card Owner\r\n"
            "09/12/2026,09/13/2026,ACH DEPOSIT INTERNET TRANSFER,,Payment,Payment,-25.00,Card Owner\r\n",
            "apple_card", date(2026, 9, 16),
        ),
    ],
)
def test_card_exports_that_write_charges_positive(text: str, dialect: str, day: date) -> None:
    assert choose_format(text, "inline.csv").name == dialect
    result = _chosen(text)
    assert [t.amount for t in result.transactions] == [-450, 2500]
    assert result.transactions[0].posted == day
    assert result.accounts[0].type == "credit_card"


def test_citi_card_credits_written_negative_are_still_inflows() -> None:
    result = _chosen(
        "Status,Date,Description,Debit,Credit\n"
        'Cleared,03/28/2024,"AMAZON.COM*AB12CD SEATTLE WA",25.99,\n'
        'Cleared,03/27/2024,"ONLINE PAYMENT, THANK YOU",,-150.00\n'
        'Pending,03/29/2024,"STARBUCKS 123",5.75,\n'
    )
    assert result.format == "citi_card" and result.accounts[0].type == "credit_card"
    assert [(t.amount, t.pending) for t in result.transactions] == [(-2599, False), (15000, False), (-575, True)]


def test_us_bank_memo_is_a_note_not_the_description() -> None:
    result = _chosen(
        '"Date","Transaction","Name","Memo","Amount"\n'
        '"2024-03-28","DEBIT","WEB AUTHORIZED PMT COMCAST","Download from usbank.com. COMCAST","-89.99"\n'
        '"2024-03-27","CREDIT","ELECTRONIC DEPOSIT ACME","Download from usbank.com. ACME","1500.00"\n'
    )
    assert result.format == "us_bank"
    assert [(t.description, t.amount, t.notes) for t in result.transactions] == [
        ("WEB AUTHORIZED PMT COMCAST", -8999, "Download from usbank.com. COMCAST"),
        ("ELECTRONIC DEPOSIT ACME", 150000, "Download from usbank.com. ACME"),
    ]


@pytest.mark.parametrize(
    ("text", "dialect", "amounts"),
    [
        (  # header names in another letter case
            "Transaction Date,Posted Date,Card no.,Description,Category,Debit,Credit\n"
            "2022-07-01,2022-07-02,1234,STARBUCKS STORE 12345,Dining,5.75,\n"
            "2022-07-08,2022-07-08,1234,CAPITAL ONE AUTOPAY PYMT,Payment/Credit,,250.00\n",
            "capital_one", [-575, 25000],
        ),
        (  # Chase card before it added the Memo column
            "Transaction Date,Post Date,Description,Category,Type,Amount\n"
            "01/03/2025,01/04/2025,STARBUCKS STORE 12345,Food & Drink,Sale,-5.75\n"
            "01/10/2025,01/10/2025,Payment Thank You-Mobile,,Payment,250.00\n",
            "chase_credit", [-575, 25000],
        ),
    ],
)
def test_older_and_differently_cased_headers_still_find_their_bank(text: str, dialect: str, amounts: list[int]) -> None:
    result = _chosen(text)
    assert result.format == dialect and result.accounts[0].type == "credit_card"
    assert [t.amount for t in result.transactions] == amounts


def test_cash_app_net_amounts_times_with_zones_and_no_account_column() -> None:
    result = parse("written/cashapp.csv", "cash_app")
    assert [(t.posted, t.amount, t.description) for t in result.transactions] == [
        (date(2024, 3, 4), -850, "Chipotle"), (date(2024, 3, 3), 4000, "Sam Lee dinner"),
        (date(2024, 3, 2), -10150, "Cash Out"),  # after its fee
    ]
    assert [a.name for a in result.accounts] == ["Cash App"]


def test_a_file_with_us_banks_header_but_not_its_memos_is_not_called_us_bank() -> None:
    text = "Date,Transaction,Name,Memo,Amount\n3/4/2024,DEBIT,TIM HORTONS #1234,,-4.56\n3/1/2024,CREDIT,EFT Deposit from ACME INC,PAYROLL,2000.00\n"
    fmt = choose_format(text, "tangerine.csv")  # Tangerine's export
    assert fmt.name == "generic_csv"
    assert [t.amount for t in fmt.parse(text, "tangerine.csv").transactions] == [-456, 200000]


def test_amex_uk_layout_is_in_pounds_and_day_first() -> None:
    result = parse("written/amex_uk_town_city.csv", "amex_uk")  # `Town/City`, `Postcode`
    assert result.accounts[0].currency == "GBP" and result.accounts[0].type == "credit_card"
    assert [(t.posted, t.amount) for t in result.transactions][0] == (date(2025, 1, 28), -4567)


def test_wells_fargo_file_names_tell_its_accounts_apart() -> None:
    result = parse("written/Savings2.csv", "wells_fargo")  # Wells Fargo names downloads Checking1, Savings2, CreditCard3
    assert (result.accounts[0].name, result.accounts[0].type) == ("Wells Fargo Savings 2", "savings")


AMEX_SHORT = (
    "Date,Description,Amount\n"
    "03/15/2025,STARBUCKS COFFEE 1234 SEATTLE WA,5.75\n"
    "03/14/2025,AMAZON.COM*AB12CD AMZN.COM/BILL WA,42.18\n"
    "03/12/2025,UBER TRIP HELP.UBER.COM,18.40\n"
    "03/11/2025,WHOLE FOODS MARKET,88.12\n"
    "03/10/2025,AMAZON.COM*RT55 REFUND,-12.99\n"
)


def test_a_short_amex_download_without_a_payment_is_read_as_written_and_says_what_would_flip_it(tmp_path) -> None:
    """Nothing in Amex's three-column download tells its charges from deposits: the signs stand, and
    the summary names the two ways to read them as a card's."""
    path = tmp_path / "activity.csv"
    path.write_text(AMEX_SHORT)
    result = parse_file(path)
    assert result.format == "generic_csv" and [t.amount for t in result.transactions] == [575, 4218, 1840, 8812, -1299]
    assert any("--format card_csv" in w for w in result.warnings)
    for forced in ("amex", "card_csv"):
        result = parse_file(path, forced)
        assert result.format == forced and [t.amount for t in result.transactions] == [-575, -4218, -1840, -8812, 1299]
        assert result.accounts[0].type == "credit_card" and not result.warnings


def test_card_csv_is_chosen_only_by_name_and_a_savings_file_of_deposits_raises_no_doubt(tmp_path) -> None:
    assert choose_format(AMEX_SHORT, "activity.csv").name == "generic_csv"
    path = tmp_path / "savings.csv"
    path.write_text("Date,Description,Amount\n03/15/2025,INTEREST PAYMENT,1.75\n03/14/2025,TRANSFER FROM CHECKING,200.00\n"
                    "03/12/2025,MOBILE DEPOSIT,18.40\n03/10/2025,WITHDRAWAL,-12.99\n")
    result = parse_file(path)
    assert [t.amount for t in result.transactions][:2] == [175, 20000] and not result.warnings


def test_a_dialect_named_with_format_reads_a_file_without_its_header_by_the_generic_names(tmp_path) -> None:
    path = tmp_path / "export.csv"
    path.write_text("Trans. Date,Description,Amount\n03/15/2025,SHELL OIL,40.00\n")  # Discover without Post Date
    result = parse_file(path, "discover")
    assert (result.format, [t.amount for t in result.transactions]) == ("discover", [-4000])
    assert result.warnings == []
    amex = tmp_path / "activity.csv"  # another bank's own layout named as Chase's: its charges come out as money in, and it says so
    amex.write_text("Date,Description,Card Member,Account #,Amount\n03/15/2025,SHELL OIL,J SMITH,-41007,40.00\n")
    forced = parse_file(amex, "chase_checking")
    assert [t.amount for t in forced.transactions] == [4000]
    assert forced.warnings == ["the header is amex's: read as chase_checking (--format) writes its rows, charges negative"]



def test_a_headerless_bank_layout_forced_over_a_narrower_file_is_refused_as_such(tmp_path) -> None:
    path = tmp_path / "export.csv"
    path.write_text('"03/03/2025","-4.50","*"\n"03/04/2025","1000.00","*"\n')
    with pytest.raises(ImportRefused, match=r"its rows have 3 columns, wells_fargo's at least 5: is it another format\?"):
        parse_file(path, "wells_fargo")

def test_wises_transfer_history_books_finished_transfers_by_direction_with_the_other_party(tmp_path) -> None:
    path = tmp_path / "transaction-history.csv"
    path.write_text(
        "ID,Status,Direction,Created on,Finished on,Source fee amount,Source fee currency,Target fee amount,Target fee currency,"
        "Source name,Source amount (after fees),Source currency,Target name,Target amount (after fees),Target currency,Exchange rate,Reference,Batch\n"
        "TRANSFER-1,COMPLETED,OUT,2024-03-02 10:11:12,2024-03-02 10:11:13,0.35,GBP,,,Jane Smith,4.50,GBP,TESCO STORES,4.50,GBP,1.0,,\n"
        "TRANSFER-2,CANCELLED,OUT,2024-03-14 10:11:12,,0.00,GBP,,,Jane Smith,1234.56,GBP,LANDLORD LTD,1234.56,GBP,1.0,,\n"
        "TRANSFER-3,COMPLETED,IN,2024-03-15 10:11:12,2024-03-15 10:11:12,0.00,GBP,,,ACME LTD,2500.00,GBP,Jane Smith,2500.00,GBP,1.0,,\n"
        # Money in is what arrived, in its currency; a conversion between own balances is a row on each.
        "TRANSFER-4,COMPLETED,IN,2024-03-15 11:00:00,2024-03-15 11:00:00,1.20,USD,,,ACME INC,1000.00,USD,Jane Smith,785.40,GBP,0.7854,inv 42,\n"
        "BALANCE-5,COMPLETED,NEUTRAL,2024-03-16 09:00:00,2024-03-16 09:00:01,0.41,GBP,,,Jane Smith,100.00,GBP,Jane Smith,116.50,EUR,1.165,,\n"
    )
    result = parse_file(path)
    assert result.format == "wise_transfers" and result.skipped_reverted == 1 and result.second_legs == 1
    assert [(t.posted, t.amount, t.currency, t.description, t.bank_id) for t in result.transactions] == [
        (date(2024, 3, 2), -485, "GBP", "TESCO STORES", "TRANSFER-1"), (date(2024, 3, 15), 250000, "GBP", "ACME LTD", "TRANSFER-3"),
        (date(2024, 3, 15), 78540, "GBP", "ACME INC inv 42", "TRANSFER-4"),
        (date(2024, 3, 16), -10041, "GBP", "Converted 100.00 GBP to 116.50 EUR", "BALANCE-5"),
        (date(2024, 3, 16), 11650, "EUR", "Converted 100.00 GBP to 116.50 EUR", "BALANCE-5"),
    ]


def test_budgeting_apps_that_write_spending_positive(tmp_path) -> None:
    """Copilot and Rocket Money export spending positive and income negative, an account per row
    (Rocket Money with its type)."""
    copilot = tmp_path / "copilot.csv"
    copilot.write_text(
        "date,name,amount,status,category,parent category,excluded,tags,type,account,account mask,note,recurring\n"
        "2025-03-14,Trader Joe's,23.45,posted,Groceries,Food,false,,regular,Sapphire Preferred,9876,,\n"
        "2025-03-05,ACME Corp,-2150.00,posted,Paycheck,Income,false,,income,Checking,1234,,\n"
        "2025-03-15,Uber,12.00,pending,Rides,Transport,false,,regular,Sapphire Preferred,9876,,\n"
    )
    result = parse_file(copilot)
    assert result.format == "copilot"
    assert [(t.amount, t.pending, t.account_key) for t in result.transactions] == [
        (-2345, False, "Sapphire Preferred"), (215000, False, "Checking"), (-1200, True, "Sapphire Preferred")]
    rocket = tmp_path / "rocket.csv"
    rocket.write_text(
        "Date,Original Date,Account Type,Account Name,Account Number,Institution Name,Name,Custom Name,Amount,Description,"
        "Category,Note,Ignored From,Tax Deductible\n"
        "2025-03-14,2025-03-14,Credit Card,Sapphire Preferred,9876,Chase,Trader Joe's,,23.45,TRADER JOE'S #123,Groceries,,,\n"
        "2025-03-05,2025-03-05,Checking,Total Checking,1234,Chase,ACME Corp,,-2150.00,ACME CORP PAYROLL,Income,,,\n"
    )
    result = parse_file(rocket)
    assert result.format == "rocket_money"
    assert [(t.amount, t.description) for t in result.transactions] == [(-2345, "TRADER JOE'S #123"), (215000, "ACME CORP PAYROLL")]
    assert {a.name: a.type for a in result.accounts} == {"Sapphire Preferred": "credit_card", "Total Checking": "checking"}


SECOND_ACCOUNTS = {  # (file name, text) of one account: a second's, the same $5.75 coffee on both, stays apart
    "schwab_checking": ("Checking_Transactions_20250401-081522.csv", '"Transactions  for Checking account XXXXXX-{n} as of 04/01/2025 08:15:22 AM ET"\n'
                        '"Date","Status","Type","CheckNumber","Description","Withdrawal","Deposit","RunningBalance"\n'
                        '"03/28/2025","Posted","ATM","","STARBUCKS STORE 05421","$5.75","","$1,000.00"\n'
                        '"03/20/2025","Posted","ATM","","COSTCO WHSE #{n}","$2{n}.40","","$1,005.75"\n'),
    "bofa_credit": ("February2025_{n}.csv", "Posted Date,Reference Number,Payee,Address,Amount\n"
                    '03/28/2025,2469216{n}1,"STARBUCKS STORE 05421","SEATTLE WA",-5.75\n03/20/2025,2469216{n}2,"COSTCO WHSE #{n}","SEATTLE WA",-2{n}.40\n'),
}


@pytest.mark.parametrize("dialect", sorted(SECOND_ACCOUNTS))
def test_a_second_account_of_one_bank_is_named_by_the_digits_its_file_carries(tmp_path, dialect) -> None:  # type: ignore[no-untyped-def]
    """The last digits above the header or in the file's name name the account, as Chase's do: the
    second account's coffee is its own, not a duplicate of the first's."""
    name, text = SECOND_ACCOUNTS[dialect]
    opened = []
    with Ledger() as ledger:
        for number in ("4321", "8765"):
            folder = tmp_path / number
            folder.mkdir()
            path = folder / name.format(n=number)
            path.write_text(text.format(n=number))
            summary = import_file(ledger, path)
            assert (summary.format, summary.added, summary.duplicates) == (dialect, 2, 0)
            opened += summary.accounts
        assert [account[-5:] for account in opened] == ["…4321", "…8765"]
        assert ledger.scalar("SELECT COUNT(*) FROM transactions WHERE amount = -575") == 2


def test_next_months_schwab_download_follows_the_first_one_imported_with_account(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Its running balance carries on from that account's: the same account. Another account's
    download of the same name, whose balance does not, opens its own."""
    name, march = SECOND_ACCOUNTS["schwab_checking"]
    april = march.split('"03/28')[0] + '"04/28/2025","Posted","ATM","","SHELL","$20.00","","$980.00"\n'
    other = march.replace("$1,000.00", "$500.00").replace("$1,005.75", "$505.75")
    with Ledger() as ledger:
        for folder, text, number, account, expected in (
            ("mar", march, "4321", "My Schwab", "My Schwab"), ("apr", april, "4321", None, "My Schwab"),
            ("other", other, "8765", None, "Schwab Checking …8765"),
        ):
            (tmp_path / folder).mkdir()
            path = tmp_path / folder / name
            path.write_text(text.format(n=number))
            assert import_file(ledger, path, account=account).accounts == [expected]
        assert ledger.scalar("SELECT COUNT(*) FROM transactions WHERE amount = -575") == 2


MONZO_HEADER = (
    "Transaction ID,Date,Time,Type,Name,Emoji,Category,Amount,Currency,Local amount,Local currency,Notes and #tags,"
    "Address,Receipt,Description,Category split,Money Out,Money In\n"
)


def test_monzo_is_told_by_its_header_and_keeps_notes_tags_and_the_local_amount() -> None:
    text = MONZO_HEADER + (
        "tx_0000A2,05/01/2025,12:00:00,Faster payment,John Smith,,Transfers,250.00,GBP,250.00,GBP,rent share #flat,,,JOHN SMITH RENT,,,250.00\n"
        "tx_0000A3,09/01/2025,19:30:11,Card payment,Le Bistro,🥖,Eating out,-42.17,GBP,-49.90,EUR,,Paris,,LE BISTRO PARIS FRA,,-42.17,\n"
    )
    scores = {fmt.name: fmt.detect(text) for fmt in csv_banks.FORMATS + csv_generic.FORMATS + csv_inferred.FORMATS}
    assert scores["monzo"] == max(scores.values())
    result = choose_format(text, "Monzo Data Export - CSV (Friday, January 31st, 2025).csv").parse(
        text, "Monzo Data Export - CSV (Friday, January 31st, 2025).csv"
    )
    assert [(t.posted, t.amount, t.payee, t.notes, t.bank_id, t.original_amount, t.original_currency) for t in result.transactions] == [
        (date(2025, 1, 5), 25000, "John Smith", "Faster payment; rent share #flat", "tx_0000A2", None, None),
        (date(2025, 1, 9), -4217, "Le Bistro", "Card payment", "tx_0000A3", -4990, "EUR"),
    ]
    (account,) = result.accounts
    assert (account.name, account.institution, account.type, account.currency) == ("Monzo", "Monzo", "checking", "GBP")


def test_monzos_exports_named_by_the_day_they_were_made_land_in_one_account(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Monzo names each export by the day it was made: month after month, one account."""
    months = {
        "Wednesday, January 31st": "tx_0000A1,02/01/2025,08:15:02,Card payment,Pret A Manger,,Eating out,-4.35,GBP,-4.35,GBP,,,,PRET,,-4.35,\n",
        "Friday, February 28th": "tx_0000A6,03/02/2025,08:15:02,Card payment,Pret A Manger,,Eating out,-4.35,GBP,-4.35,GBP,,,,PRET,,-4.35,\n",
        "Monday, March 31st": "tx_0000B1,03/03/2025,08:15:02,Card payment,Tesco,,Groceries,-14.35,GBP,-14.35,GBP,,,,TESCO,,-14.35,\n",
    }
    with Ledger() as ledger:
        for day, row in months.items():
            path = tmp_path / f"Monzo Data Export - CSV ({day}, 2025).csv"
            path.write_text(MONZO_HEADER + row, encoding="utf-8")
            summary = import_file(ledger, path)
            assert (summary.format, summary.accounts, summary.added, summary.warnings) == ("monzo", ["Monzo"], 1, [])
        assert [a["name"] for a in ledger.accounts()] == ["Monzo"]
        assert ledger.scalar("SELECT SUM(amount) FROM transactions") == -435 - 435 - 1435


def test_wises_transfer_history_keeps_what_the_other_side_paid_or_got_in_its_currency(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A card payment abroad and a transfer to a pound account keep the target amount as their
    original; money in from abroad keeps what its sender sent. A conversion's legs are both the user's."""
    path = tmp_path / "transaction-history.csv"
    path.write_text(
        "ID,Status,Direction,Created on,Finished on,Source fee amount,Source fee currency,Target fee amount,Target fee currency,"
        "Source name,Source amount (after fees),Source currency,Target name,Target amount (after fees),Target currency,Exchange rate,Reference\n"
        "TRANSFER-1001,COMPLETED,IN,2025-01-05 09:00:00,2025-01-05 09:00:05,,,,,ACME GMBH,1000.00,EUR,Jane Doe,1000.00,EUR,1.0,Salary\n"
        "CARD_TRANSACTION-1002,COMPLETED,OUT,2025-01-10 12:00:00,2025-01-10 12:00:00,0.00,EUR,,,Jane Doe,13.85,EUR,Amazon US,15.00,USD,1.08303,\n"
        "TRANSFER-1005,COMPLETED,OUT,2025-01-25 08:00:00,2025-01-26 08:00:00,1.20,EUR,,,Jane Doe,200.00,EUR,Bob Smith,170.00,GBP,0.85,Loan\n"
        "TRANSFER-1006,COMPLETED,IN,2025-01-27 08:00:00,2025-01-27 08:00:00,1.20,USD,,,ACME INC,1000.00,USD,Jane Doe,921.50,EUR,0.9215,inv 42\n"
        "BALANCE-1003,COMPLETED,NEUTRAL,2025-01-20 08:00:00,2025-01-20 08:00:01,0.41,EUR,,,Jane Doe,99.59,EUR,Jane Doe,84.75,GBP,0.851,\n"
    )
    result = parse_file(path)
    assert [(t.amount, t.currency, t.original_amount, t.original_currency) for t in result.transactions] == [
        (100000, "EUR", None, None), (-1385, "EUR", -1500, "USD"), (-20120, "EUR", -17000, "GBP"), (92150, "EUR", 100000, "USD"),
        (-10000, "EUR", None, None), (8475, "GBP", None, None),
    ]


def test_wises_statement_keeps_a_card_payment_abroads_exchange_to_amount_as_its_original(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "statement_99999999_EUR_2025-01-01_2025-01-31.csv"
    path.write_text(
        '"TransferWise ID","Date","Amount","Currency","Description","Payment Reference","Running Balance","Exchange From",'
        '"Exchange To","Exchange Rate","Payer Name","Payee Name","Payee Account Number","Merchant","Card Last Four Digits",'
        '"Card Holder Full Name","Attachment","Note","Total fees","Exchange To Amount"\n'
        '"CARD-777","10-01-2025","-13.85","EUR","Card transaction of 15.00 USD issued by Amazon SEATTLE","","986.15","EUR","USD",'
        '"1.08303","","","","Amazon","1234","Jane Doe","","","0.00","15.00"\n'
        '"CARD-111","08-01-2025","-12.50","EUR","Card transaction of 12.50 EUR issued by Carrefour PARIS","","1000.00","","","",'
        '"","","","Carrefour","1234","Jane Doe","","","0.00",""\n'
        '"TRANSFER-776","05-01-2025","1012.50","EUR","Received money from ACME","","1012.50","","","","ACME","","","","","","","","0.00",""\n'
    )
    result = parse_file(path)
    assert [(t.posted, t.amount, t.original_amount, t.original_currency) for t in result.transactions] == [
        (date(2025, 1, 10), -1385, -1500, "USD"), (date(2025, 1, 8), -1250, None, None), (date(2025, 1, 5), 101250, None, None),
    ]
    assert result.accounts[0].currency == "EUR" and result.warnings == []
