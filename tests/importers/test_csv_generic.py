"""The generic CSV mapper on every public CSV fixture, written edge-case files and hostile input."""

from __future__ import annotations

import os
from datetime import date, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wilson.importers.csv_generic import GenericCsv
from wilson.importers.model import ImportRefused, ParseResult

from parsed_fixtures import FIXTURES, parse_fixture, read_text

GENERIC = GenericCsv()


def parse(name: str) -> ParseResult:
    return parse_fixture(name, "generic_csv")


def parse_text(text: str) -> ParseResult:
    return GENERIC.parse(text, "inline.csv")


# ------------------------------------------------------------------------------ public fixtures


def test_john_lewis_pending_dates_pound_signs_and_cr_marker() -> None:
    result = parse("bank2ynab/MS_JANE_SMITH_01-12-2019_14-12-2019.csv")
    txs = result.transactions
    assert len(txs) == 10
    assert result.skipped_pending == 3  # the date column says "Pending": no date to book
    assert (txs[0].line, txs[0].posted, txs[0].amount) == (5, date(2019, 12, 12), -118323)
    assert txs[0].description == "ROYAL LONDON INSURANCE 01222 61234 GBR"
    assert (txs[-1].line, txs[-1].posted, txs[-1].amount) == (14, date(2019, 12, 2), 110000)
    assert txs[-1].description == "PAYMENT RECEIVED - THANK YOU"
    assert sum(t.amount for t in txs[:-1]) == -(118323 + 1889 + 2300 + 8099 + 150 + 5000 + 1000 + 999 + 820)
    assert result.accounts[0].currency == "GBP"


def test_raiffeisen_cp1250_duplicate_headers() -> None:
    result = parse("bank2ynab/Movements_1234512345_201805271848.csv")
    (tx,) = result.transactions
    assert (tx.posted, tx.amount, tx.currency, tx.bank_id) == (date(2018, 5, 27), -100, "CZK", "3228446118")
    assert tx.description == "Name Surname Memo for me test"
    assert tx.notes == "Jednorázová platba"
    (account,) = result.accounts
    assert (account.key, account.currency) == ("123456789/1234", "CZK")


def test_ocbc_two_row_transactions_and_preamble() -> None:
    result = parse("bank2ynab/TransactionHistory_20180418043121.csv")
    txs = result.transactions
    assert len(txs) == 8
    assert [t.line for t in txs] == [7, 9, 11, 13, 15, 17, 19, 21]
    assert [t.amount for t in txs] == [-666, -666, -6666, -666, -666, -6666, -666, -666]
    assert txs[0].posted == date(2018, 4, 18)
    assert txs[0].description == "DEBIT PURCHASE 15/04/18 66-6666 UBER EATS AN2GO HELP.UBERh"
    assert txs[1].description == "CCY CONVERSION FEE FOR: 6.66 SGD"
    (account,) = result.accounts
    assert (account.name, account.currency) == ("FRANK Account …6666", "SGD")  # its number: 666-666666-666


def test_erste_year_first_dotted_dates_and_inflow_outflow_column() -> None:
    result = parse("bank2ynab/W80844_EBH_201945.202122.csv")
    txs = result.transactions
    assert [(t.posted, t.amount, t.balance) for t in txs] == [
        (date(2019, 4, 19), -35000, 234556),
        (date(2019, 4, 17), 129000, 105556),
    ]
    assert result.accounts[0].currency == "HUF"


def test_kbc_padded_fields_and_decimal_comma() -> None:
    result = parse("bank2ynab/export_BE11123456789012_20180304_1422.csv")
    (tx,) = result.transactions
    assert (tx.posted, tx.amount, tx.balance, tx.currency) == (date(2018, 2, 28), -340, 21995, "EUR")
    assert tx.description == "BIJDRAGE 01-02-2018 - 28-02-2018 28-02 KBC-PLUSREKENING"
    assert result.accounts[0].key == "BE11123456789012"


def test_bank_of_ireland_day_first_from_the_column() -> None:
    result = parse("bank2ynab/test_BOI_TransactionExport.csv")
    txs = result.transactions
    assert len(txs) == 27
    assert (txs[0].posted, txs[0].amount, txs[0].balance) == (date(2017, 9, 1), 42803, 10000)
    assert (txs[1].description, txs[1].amount, txs[1].balance) == ("Éáú üüüümlaut! GP", 2950, None)
    assert (txs[2].description, txs[2].amount) == ("Random Bill", -51200)
    assert (txs[7].description, txs[7].amount) == ("P0109US 5.00@1.18483", -422)
    assert [t.amount for t in txs if t.description == "CTO"] == [84592, 84592, 84593, 84592]
    assert txs[-1].posted.month == 9


def test_swedbank_xls_that_is_csv_skips_balance_records() -> None:
    result = parse("bank2ynab/test_swedebank_statement.xls")
    txs = result.transactions
    assert len(txs) == 13
    assert (txs[0].line, txs[0].posted, txs[0].amount, txs[0].currency) == (3, date(2014, 10, 1), -1531, "LTL")
    # The file's own turnover lines: debits 284.70, credits 2863.63.
    assert sum(t.amount for t in txs if t.amount < 0) == -28470
    assert sum(t.amount for t in txs if t.amount > 0) == 286363
    assert txs[-1].description == "UAB IMONE Darbo užmokestis"
    assert txs[0].bank_id is None  # "Record ID" repeats on every row: not an id


def test_c24_euro_in_amount_and_two_accounts() -> None:
    result = parse("csv2ofx/c24.csv")
    txs = result.transactions
    assert [t.amount for t in txs] == [-12345, 12345, -5000]
    assert [t.posted for t in txs] == [date(2025, 12, 5), date(2025, 12, 5), date(2026, 1, 5)]
    assert [t.account_key for t in txs] == ["My main account", "My savings account", "My savings account"]
    assert [(a.key, a.name, a.currency) for a in result.accounts] == [
        ("My main account", "My main account", "EUR"),
        ("My savings account", "My savings account", "EUR"),
    ]
    assert txs[2].category == "Finanzen & Steuern:Spende"
    assert txs[2].description.startswith("Ärzte ohne Grenzen Ihre Spendernummer 1234567")


def test_dbs_preamble_blank_lines_and_leading_spaces() -> None:
    result = parse("csv2ofx/dbs.csv")
    txs = result.transactions
    assert len(txs) == 9
    assert (txs[0].line, txs[0].posted, txs[0].amount) == (21, date(2020, 5, 6), -3465)
    assert txs[0].description == "COLD STORAGE NG 04MAY 4628-4500-"
    assert sum(t.amount for t in txs) == -1688026
    assert result.accounts[0].name == "DBS Savings Plus Account XXX"


def test_gls_latin1_vwz_columns() -> None:
    result = parse("csv2ofx/gls.csv")
    (tx,) = result.transactions
    assert (tx.posted, tx.amount, tx.balance, tx.currency) == (date(2017, 10, 10), -9876, 123456, "EUR")
    assert tx.description == "Drillisch Online AG B4658645 U123456789 B123456 987 SIMply Rechnung"
    assert tx.notes == "SEPA-Basislastschrift"


def test_mint_cr_line_endings_type_column_and_repeated_header() -> None:
    result = parse_fixture("csv2ofx/mint_extra.csv", "mint")
    txs = result.transactions
    assert [t.line for t in txs] == [5, 6, 7, 8]
    assert [t.amount for t in txs] == [-100000, -150000, 200000, -250000]
    assert txs[0].posted == date(2015, 6, 12)
    assert [a.name for a in result.accounts] == ["Savings", "Checking"]


def test_sparkasse_two_digit_years() -> None:
    result = parse("csv2ofx/sparkasse.csv")
    (tx,) = result.transactions
    assert (tx.posted, tx.amount, tx.currency, tx.pending) == (date(2020, 11, 4), -2414, "EUR", False)
    assert tx.description.startswith("PayPal (Europe) S.a.r.l. et Cie., S.C.A. EREF+1111111111111")
    assert result.accounts[0].key == "DE11111100100100100100"


def test_ubs_apostrophe_thousands_and_constant_column_dropped() -> None:
    result = parse("csv2ofx/ubs-ch-fr_trimmed.csv")
    txs = result.transactions
    assert [(t.posted, t.amount, t.balance) for t in txs] == [
        (date(2019, 3, 31), -1000, 1137394),
        (date(2019, 2, 28), 24000, 1161394),
        (date(2019, 4, 27), -20000, 1141394),
    ]
    assert txs[0].description == "Solde prix prestations"
    assert txs[0].bank_id == "A01234BC01234567"
    assert result.accounts[0].currency == "CHF"


# ------------------------------------------------------------------------------ written fixtures


def test_sparkasse_pending_rows() -> None:
    result = parse("written/sparkasse_pending.csv")
    txs = result.transactions
    assert result.skipped_pending == 1  # pending and no booking date yet
    assert [(t.line, t.posted, t.amount, t.pending) for t in txs] == [
        (3, date(2025, 1, 30), 284510, False),
        (4, date(2025, 1, 29), -115000, True),
        (5, date(2025, 1, 2), -495, False),
    ]
    assert txs[2].description == "Kontoführung"


def test_cp1252_french_debit_credit() -> None:
    result = parse("written/banque_cp1252.csv")
    txs = result.transactions
    assert [(t.posted, t.amount, t.balance) for t in txs] == [
        (date(2025, 2, 3), -7240, 192760),
        (date(2025, 2, 5), -480, 192280),
        (date(2025, 2, 10), 231000, 423280),
        (date(2025, 2, 14), -100525, 322755),
    ]
    assert txs[1].description == "CB CAFÉ DE LA GARE 04/02"
    assert result.accounts[0].currency == "EUR"


def test_utf8_bom_crlf_paid_in_paid_out() -> None:
    result = parse("written/uk_bom_crlf.csv")
    txs = result.transactions
    assert [(t.line, t.posted, t.amount, t.balance) for t in txs] == [
        (2, date(2025, 1, 31), -6500, 193500),
        (3, date(2025, 1, 28), 120000, 200000),
        (4, date(2025, 1, 27), -1234, 80000),
    ]
    assert txs[0].description == "BRITISH GAS"
    assert txs[2].description == "TESCO STORES 3217 — CAFÉ"
    assert result.accounts[0].currency == "GBP"


def test_repeated_header_and_metadata_line() -> None:
    result = parse("written/repeated_header.csv")
    assert [(t.line, t.amount, t.balance) for t in result.transactions] == [(3, -350, 9650), (4, 200000, 209650), (6, -95000, 114650)]


# ------------------------------------------------------------------------------ inline edge cases


def test_german_soll_haben_flag_and_thousands() -> None:
    text = "Buchungstag;Empfänger;Verwendungszweck;Umsatz;Soll/Haben\n01.02.24;Miete GmbH;Februar;1.150,00;S\n02.02.24;Arbeitgeber;Gehalt;2.500,50;H\n"
    txs = parse_text(text).transactions
    assert [(t.posted, t.amount, t.description) for t in txs] == [
        (date(2024, 2, 1), -115000, "Miete GmbH Februar"),
        (date(2024, 2, 2), 250050, "Arbeitgeber Gehalt"),
    ]


@pytest.mark.parametrize(("delimiter", "expected"), [(";", date(2024, 2, 3)), (",", date(2024, 3, 2))])
def test_ambiguous_dates_follow_the_file_hint(delimiter: str, expected: date) -> None:
    amount = "-1,00" if delimiter == ";" else "-1.00"
    text = f"Date{delimiter}Description{delimiter}Amount\n03/02/2024{delimiter}X{delimiter}{amount}\n"
    assert parse_text(text).transactions[0].posted == expected


@pytest.mark.parametrize("delimiter", ["\t", "|"])
def test_tab_and_pipe_delimiters(delimiter: str) -> None:
    text = delimiter.join(["Date", "Payee", "Amount"]) + "\n" + delimiter.join(["2024-05-01", "Shop", "-9.99"]) + "\n"
    (tx,) = parse_text(text).transactions
    assert (tx.posted, tx.amount, tx.description) == (date(2024, 5, 1), -999, "Shop")


def test_amount_with_euro_sign_and_original_currency() -> None:
    text = "Datum;Beschreibung;Betrag;Originalbetrag;Originalwährung\n05.03.2024;Hotel NYC;\"-123,45 €\";-134,00;USD\n"
    (tx,) = parse_text(text).transactions
    assert (tx.amount, tx.original_amount, tx.original_currency) == (-12345, -13400, "USD")


def test_an_original_amount_is_read_in_its_own_currencys_decimals() -> None:
    """Original amounts only beside purchases abroad, all in dinars: `-1.500` is one and a half of
    them, not fifteen hundred, though the account's own amounts are pounds; a transfer's arrived
    amount is read in its target currency alike."""
    text = ("Date,Description,Amount,Currency,Original amount,Original currency\n"
            "2025-03-02,SULTAN CENTER,-3.90,GBP,-1.500,KWD\n2025-03-03,TESCO,-10.00,GBP,,\n2025-03-04,LULU,-26.10,GBP,-12.345,BHD\n")
    assert [(t.amount, t.original_amount, t.original_currency) for t in parse_text(text).transactions] == [
        (-390, -1500, "KWD"), (-1000, None, None), (-2610, -12345, "BHD")]
    grouped = text.replace("-1.500,KWD", "-1.500,EUR").replace("-12.345,BHD", "-12.345,EUR")  # euros: thousands
    assert [t.original_amount for t in parse_text(grouped).transactions] == [-150000, None, -1234500]


def test_a_transfers_arrived_amount_is_read_in_its_target_currencys_decimals() -> None:
    from wilson.importers.csv_banks import FORMATS

    wise = next(fmt for fmt in FORMATS if fmt.name == "wise_transfers")
    text = ("ID,Status,Direction,Created on,Finished on,Source fee amount,Source fee currency,Target fee amount,Target fee currency,"
            "Source name,Source amount (after fees),Source currency,Target name,Target amount (after fees),Target currency,"
            "Exchange rate,Reference,Batch\n"
            "TRANSFER-1,COMPLETED,OUT,2025-03-01 10:00:00,2025-03-01 10:05:00,0.50,GBP,,,Ann Holder,12.50,GBP,Ali,4.750,KWD,0.38,rent,\n")
    (tx,) = wise.parse(text, "transaction-history.csv").transactions
    assert (tx.amount, tx.currency, tx.original_amount, tx.original_currency) == (-1300, "GBP", -4750, "KWD")  # the fee is money out too


def test_header_without_rows_gives_no_transactions() -> None:
    result = parse_text("Date,Description,Amount\n\n")
    assert result.transactions == [] and result.errors == []


def test_unreadable_date_and_amount_are_row_errors() -> None:
    result = parse_text("Date,Description,Amount\n2024-01-02,OK,-1.00\n2024-13-45,Bad date,-1.00\n2024-01-03,Bad amount,abc\n,No date,-2.00\n")
    assert [t.line for t in result.transactions] == [2]
    assert [(e.line, e.column) for e in result.errors] == [(3, "Date"), (4, "Amount"), (5, "Date")]
    assert "2024-13-45" in result.errors[0].message


def test_absurd_rows_are_row_errors() -> None:
    long_text = "x" * 5000
    wide = ",".join(["2024-01-01", "wide", "-1.00"] + [""] * 1001)
    huge = "2024-01-01,huge," + "9" * 70000
    text = f"Date,Description,Amount\n2024-01-01,{long_text},-1.00\n{wide}\n{huge}\n2024-01-02,fine,-2.00\n"
    result = parse_text(text)
    assert [t.description for t in result.transactions] == ["fine"]
    assert [e.line for e in result.errors] == [2, 3, 4]
    assert "4 KB" in result.errors[0].message
    assert "columns" in result.errors[1].message


def test_truncated_file_is_a_row_error_not_a_traceback() -> None:
    result = parse_text('Date,Description,Amount\n2024-01-01,"fine",-1.00\n2024-01-02,"cut off in the mid')
    assert [t.line for t in result.transactions] == [2]
    assert result.errors[0].line == 3
    assert "quoted field" in result.errors[0].message


@pytest.mark.parametrize(
    "name",
    ["ofxparse/bank_medium.ofx", "ofxparse/suncorp.ofx", "ofxparse/chase_cc.qfx", "quiffen/test.qif", "actual/8859-1.qfx"],
)
def test_generic_detector_ignores_ofx_and_qif(name: str) -> None:
    assert GENERIC.detect(read_text(FIXTURES / name)) == 0


def test_no_header_is_refused() -> None:
    with pytest.raises(ImportRefused):
        parse_text("just some words\nand more words\n")


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list('Date,Amount;Description\n"-1.5 €2024-01/ 0')), max_size=300))
def test_parse_raises_only_import_refused(body: str) -> None:
    try:
        parse_text("Date,Description,Amount\n" + body)
    except ImportRefused:
        pass


def test_dkb_style_quoted_semicolons_with_a_counterparty_account_column() -> None:
    """DKB quotes every field, writes cp1252 and a preamble, and its "Kontonummer" column is the
    counterparty's (blank for card payments): one account, not one per counterparty."""
    result = parse("written/dkb_cp1252.csv")
    txs = result.transactions
    assert [(t.posted, t.amount) for t in txs] == [
        (date(2024, 1, 2), -2345), (date(2024, 1, 3), 250000), (date(2024, 1, 5), -780),
    ]
    assert [t.description for t in txs] == [
        "REWE Markt GmbH REWE SAGT DANKE 1234", "ACME GmbH Gehalt Januar", "Café Müller Kaffee und Kuchen",
    ]
    assert {t.account_key for t in txs} == {None} and [a.key for a in result.accounts] == ["default"]
    assert result.accounts[0].currency == "EUR"


def test_starling_and_n26_name_the_counterparty_and_the_reference() -> None:
    """Starling writes "Counter Party"; N26 puts the transfer's text in "Payment reference"."""
    starling = parse("written/starling.csv").transactions
    assert [(t.posted, t.amount, t.description) for t in starling] == [
        (date(2024, 2, 1), -1234, "TESCO STORES"), (date(2024, 2, 2), 200000, "Employer Ltd"),
    ]
    n26 = parse("written/n26.csv").transactions
    assert [t.description for t in n26] == ["Spotify", "Max Mustermann Rent share", "Amazon"]
    assert [t.amount for t in n26] == [-999, 40000, -2550]
    assert (n26[2].original_amount, n26[2].original_currency) == (-2780, "USD")  # `Type Foreign Currency`, before 2024
    assert {t.account_key for t in n26} == {None}


def test_barclays_uk_sort_code_accounts_mean_pounds_and_day_first_dates() -> None:
    """Barclays UK names no currency; its account column (`20-32-06 13152170`) says UK all the same."""
    result = parse("written/barclays_uk.csv")
    assert [(t.posted, t.amount) for t in result.transactions] == [(date(2024, 3, 5), -2350), (date(2024, 3, 6), 120000)]
    assert [a.currency for a in result.accounts] == ["GBP"]


def test_a_note_line_where_a_date_belongs_is_skipped_with_a_warning() -> None:
    result = parse("bank2ynab/test_headers.csv")
    assert len(result.transactions) == 73
    assert result.warnings == ["line 72: skipped 'A null transaction, just to confuse things' (no date, no amount)"]


def test_a_lone_pending_word_still_counts_as_a_pending_row() -> None:
    result = parse_text("Date,Description,Amount\nPending,COFFEE,\n2024-03-01,TEA,-1.00\n")
    assert result.skipped_pending == 1 and result.warnings == [] and len(result.transactions) == 1


def test_monzo_2018_created_column_with_time_and_zone() -> None:
    (tx,) = parse("bank2ynab/MonzoDataExport_February2018_2018-02-26_174335.csv").transactions
    assert (tx.posted, tx.amount, tx.currency, tx.description) == (date(2018, 2, 25), -1000, "GBP", "Tesco")


def test_kbc_card_dutch_headers() -> None:
    result = parse("bank2ynab/export_KBC-Mastercard Business Essential_20200204_1604.csv")
    assert [(t.posted, t.amount, t.description) for t in result.transactions] == [
        (date(2020, 2, 3), -1652, "More info"),  # `Datum verrekening` (settled) is the booking date
        (date(2020, 1, 24), 3577, "Payment from Checking account"),
        (date(2020, 1, 2), -1652, "More info"),
    ]
    assert result.accounts[0].currency == "EUR"


def test_an_amount_header_naming_its_currency_sets_it() -> None:
    result = parse("bank2ynab/TH_20180521-20180523.csv")
    assert (result.transactions[0].amount, result.accounts[0].currency) == (-11111, "CZK")
    result = parse_text("Date;Bedrag in EUR;Omschrijving\n01-03-2024;-12,50;Bakker\n")
    assert (result.transactions[0].amount, result.accounts[0].currency) == (-1250, "EUR")


def test_german_in_and_out_columns_with_dates_carrying_a_time() -> None:
    result = parse("written/sumup_de.csv")
    assert [(t.posted, t.amount, t.description) for t in result.transactions] == [
        (date(2024, 12, 29), -84012, "Miete Januar"),
        (date(2024, 12, 26), -450, "Brötchen"),
        (date(2024, 3, 15), 4000, "Rückzahlung"),
        (date(2024, 1, 20), 1000, "Geschenk"),
    ]
    assert result.skipped_reverted == 1  # `Abgelehnt`: declined, never booked
    assert result.warnings == []  # the `Verfügbares Guthaben` running balance agrees


def test_a_card_export_writing_charges_positive_is_told_by_its_payments() -> None:
    card = parse_text(
        "Date,Description,Amount\n05/24/2026,COFFEE SHOP,4.50\n05/23/2026,GROCERY STORE,54.10\n"
        "05/22/2026,GAS STATION,40.00\n05/21/2026,AUTOPAY PAYMENT - THANK YOU,-98.60\n"
    )
    assert [t.amount for t in card.transactions] == [-450, -5410, -4000, 9860]
    assert card.accounts[0].type == "credit_card"
    assert card.warnings == ["charges are written positive and card payments negative: read as a card statement"]
    # A bank account that is mostly deposits keeps its signs; so does a card that signs charges negative.
    savings = parse_text("Date,Description,Amount\n05/24/2026,SALARY,2000.00\n05/23/2026,INTEREST,1.10\n"
                         "05/22/2026,TRANSFER IN,40.00\n05/21/2026,CHASE CREDIT CRD AUTOPAY,-98.60\n")
    chase_like = parse_text("Date,Description,Amount\n05/24/2026,COFFEE SHOP,-4.50\n05/21/2026,PAYMENT THANK YOU,98.60\n")
    assert [t.amount for t in chase_like.transactions] == [-450, 9860] and chase_like.warnings == []
    assert savings.accounts[0].type == "checking"
    assert [t.amount for t in savings.transactions] == [200000, 110, 4000, -9860]


def test_comdirect_open_rows_footer_balance_and_amount_header_in_euros() -> None:
    result = parse("written/comdirect_cp1252.csv")
    assert [(t.posted, t.amount) for t in result.transactions] == [(date(2024, 3, 15), -5678), (date(2024, 3, 14), 250000)]
    assert result.skipped_pending == 1  # `offen`: not booked yet
    assert (result.accounts[0].currency, result.accounts[0].balance) == ("EUR", 123456)  # `Neuer Kontostand`, though rows pend
    assert result.warnings == ["line 10: skipped 'Alter Kontostand' (a balance line)"]


def test_comdirect_sections_are_accounts_each_read_with_its_own_header() -> None:
    # Girokonto, a card with a header of its own, Tagesgeld, a Depot of trades and an empty account.
    result = parse("written/comdirect_sections.csv")
    accounts = {a.key: (a.name, a.type, a.currency) for a in result.accounts}
    assert accounts == {
        "comdirect Girokonto": ("comdirect Girokonto", "checking", "EUR"),
        "comdirect Visa-Karte …9255": ("comdirect Visa-Karte …9255", "credit_card", "EUR"),
        "comdirect Tagesgeld PLUS-Konto": ("comdirect Tagesgeld PLUS-Konto", "checking", "EUR"),  # the ledger types it savings
    }
    assert [(t.account_key.split()[1], t.line, t.posted, t.amount) for t in result.transactions] == [
        ("Girokonto", 7, date(2024, 1, 31), -50000),
        ("Girokonto", 8, date(2024, 1, 30), 310000),
        ("Visa-Karte", 16, date(2024, 1, 29), -5500),
        ("Tagesgeld", 24, date(2024, 1, 31), 50000),
        ("Tagesgeld", 25, date(2024, 1, 31), 312),
    ]
    assert result.transactions[2].description == "AMAZON EU S.A R.L., LUXEMBOURG"
    assert result.skipped_pending == 1  # the Girokonto's `offen` row, as in a file of that account alone
    assert result.errors == []
    assert result.warnings == [
        "line 10: skipped 'Alter Kontostand' (a balance line)",
        "line 18: skipped 'Alter Kontostand' (a balance line)",
        "line 27: skipped 'Alter Kontostand' (a balance line)",
        "line 29: skipped the table 'Umsätze Depot': securities trades, not payments",
    ]


def test_comdirect_sections_with_the_same_header_stay_apart() -> None:
    giro = read_text(FIXTURES / "written/comdirect_cp1252.csv")
    tagesgeld = (
        ';\n"Umsätze Tagesgeld PLUS-Konto";"Zeitraum: 30 Tage";\n\n'
        '"Buchungstag";"Wertstellung (Valuta)";"Vorgang";"Buchungstext";"Umsatz in EUR";\n'
        '"15.03.2024";"15.03.2024";"Kontoabschluss";"Buchungstext: Zinsen";"3,12";\n'
    )
    result = parse_text(giro + tagesgeld)
    assert [(t.account_key, t.amount) for t in result.transactions] == [
        ("comdirect Girokonto", -5678), ("comdirect Girokonto", 250000), ("comdirect Tagesgeld PLUS-Konto", 312),
    ]
    assert [a.key for a in result.accounts] == ["comdirect Girokonto", "comdirect Tagesgeld PLUS-Konto"]
    # One account's export alone is named the same way, so next month's full export finds it.
    alone = parse_text(giro)
    assert [(a.name, a.type) for a in alone.accounts] == [("comdirect Girokonto", "checking")]
    assert not alone.transactions.has("account_key")


def test_comdirect_card_rows_not_booked_yet_offen_and_neu() -> None:
    # The card table writes `offen` or `neu` for the booking day of a purchase not booked yet, a
    # `neu` one under a line holding only a date.
    result = parse_text(
        ';\n"Umsätze Visa-Karte (Kreditkarte)";"Zeitraum: 01.01.2026 - 25.06.2026";\n\n'
        '"Buchungstag";"Umsatztag";"Vorgang";"Referenz";"Buchungstext";"Umsatz in EUR";\n'
        '"offen";"24.06.2026";"Kartenumsatz";"151420018103";" ALDI NORD ";"-82,03";\n'
        '"24.06.2026";"23.06.2026";"Kartenumsatz";"151150884903";" STADTBAECKEREI ";"-7,90";\n'
        '"13.01.2026";\n'
        '"neu";"12.01.2026";"Kartenumsatz";"110092508203";" Amazon.de Z73G55TA4 ";"-5,95";\n'
    )
    assert [(t.posted, t.amount, t.description) for t in result.transactions] == [(date(2026, 6, 24), -790, "STADTBAECKEREI")]
    assert result.skipped_pending == 2 and result.errors == []
    assert result.warnings == ["line 7: skipped a line holding only a date"]
    assert [(a.name, a.type) for a in result.accounts] == [("comdirect Visa-Karte", "credit_card")]


def test_a_title_naming_a_period_is_no_account_section() -> None:
    text = (
        "Umsätze vom 01.03.2024 bis 31.03.2024;\n\nDatum;Text;Betrag\n15.03.2024;REWE;-12,34\n\n"
        "Umsätze vom 01.04.2024 bis 30.04.2024;\n\nDatum;Text;Betrag\n15.04.2024;REWE;-5,00\n"
    )
    result = parse_text(text)
    assert [a.name for a in result.accounts] == [None]
    assert [t.amount for t in result.transactions] == [-1234, -500]


def test_commerzbank_describes_rows_in_its_posting_text_column() -> None:
    result = parse("written/commerzbank.csv")
    assert [t.description for t in result.transactions] == ["REWE SAGT DANKE", "Gehalt"]
    assert [t.notes for t in result.transactions] == ["Lastschrift", "Gutschrift"]


@pytest.mark.parametrize(
    ("name", "currency", "expected"),
    [
        ("written/ing_nl.csv", "EUR", [(-1234, "Albert Heijn 1234 Pasvolgnr: 001 15-03-2024 12:00"), (250000, "ACME BV Salaris maart")]),
        ("written/lloyds.csv", "GBP", [(-1234, "TESCO STORES 1234"), (100000, "ACME LTD SALARY")]),
        ("written/nationwide.csv", "GBP", [(-1234, "TESCO STORES 1234"), (100000, "ACME LTD SALARY")]),  # £ in cp1252
        ("written/natwest.csv", "GBP", [(-1234, "TESCO STORES 1234"), (100000, "ACME LTD SALARY")]),  # `'` text marks
        ("written/banquepostale.csv", "EUR", [(-1234, "CARTE X1234 14/03 CARREFOUR"), (250000, "VIR SEPA ACME SALAIRE")]),
        ("written/creditagricole.csv", "EUR",
         [(-1234, "PAIEMENT PAR CARTE X1234 CARREFOUR 14/03"), (250000, "VIREMENT EN VOTRE FAVEUR ACME")]),
        ("written/santander_es.csv", "EUR", [(-1234, "COMPRA TARJETA MERCADONA"), (100000, "NOMINA ACME")]),
        ("written/intesa.csv", "EUR", [(-1234, "PAGAMENTO POS ESSELUNGA"), (250000, "STIPENDIO ACME")]),
        ("written/capital_one_360.csv", "USD",
         [(52, "Monthly Interest Paid"), (-10000, "Zelle money sent to JOHN"), (160000, "Deposit from ACME PAYROLL")]),
        ("written/pnc.csv", "USD", [(-4510, "DEBIT CARD PURCHASE XXXXX1234 TARGET"), (200000, "DIRECT DEPOSIT ACME")]),
    ],
)
def test_more_banks_through_the_generic_mapper(name: str, currency: str, expected: list[tuple[int, str]]) -> None:
    result = parse(name)
    assert [(t.amount, t.description) for t in result.transactions] == expected
    assert result.accounts[0].currency == currency
    assert all(t.posted.year == 2024 and t.posted.month == 3 for t in result.transactions)


def test_paypal_net_amount_and_a_type_for_rows_without_a_name() -> None:
    result = parse("written/paypal.csv")
    assert [(t.amount, t.description) for t in result.transactions] == [
        (-2500, "Coffee Roasters Inc"), (2500, "General Card Deposit"), (9680, "Jane Client"),  # net of the fee
    ]
    assert [t.balance for t in result.transactions] == [-2500, 0, 9680]


def test_three_decimal_currencies_read_a_lone_separator_as_the_decimal_mark() -> None:
    dinars = parse_text("Date,Description,Amount,Currency\n2024-03-01,SHOP,-1.234,KWD\n2024-03-02,SHOP,-12.500,KWD\n")
    assert [t.amount for t in dinars.transactions] == [-1234, -12500]  # fils: 1.234 KWD
    dollars = parse_text("Date,Description,Amount,Currency\n2024-03-01,CAR,-1.234,USD\n")
    assert dollars.transactions[0].amount == -123400  # a thousands separator: 1,234.00 USD
    yen = parse_text("Date,Description,Amount,Currency\n2024-03-01,SUSHI,-1200,JPY\n")
    assert yen.transactions[0].amount == -1200


def test_an_amount_with_a_credit_debit_indicator_column_is_signed_by_it() -> None:
    result = parse("written/navyfed.csv")  # Navy Federal writes every amount unsigned
    assert [t.amount for t in result.transactions] == [-4567, 250000, -125000]


def test_an_original_statement_column_is_the_description_and_the_cleaned_name_the_payee() -> None:
    usaa = parse("written/usaa.csv")
    assert [(t.description, t.payee) for t in usaa.transactions][:2] == [
        ("NETFLIX.COM 866-579-7172 CA", "Netflix"), ("STARBUCKS STORE 12345 SAN ANTONIO TX", "Starbucks"),
    ]
    monarch = parse("written/monarch.csv")
    assert [(t.description, t.payee) for t in monarch.transactions][0] == ("COSTCO WHSE #0123 SEATTLE WA", "Costco")


def test_an_account_column_holding_names_names_the_accounts() -> None:
    empower = parse("written/empower.csv")
    assert [(a.name, a.number) for a in empower.accounts] == [
        ("Chase Sapphire - Ending in 1234", None), ("Ally Savings - Ending in 9876", None),
    ]
    assert [(a.name, a.number) for a in parse("written/ynab.csv").accounts] == [("Checking", None)]
    assert [(a.name, a.number) for a in parse("written/bunq.csv").accounts] == [(None, "NL12BUNQ0123456789")]  # an IBAN


def test_a_payee_column_gives_the_payee_and_an_iban_in_it_does_not() -> None:
    wise = parse("written/wise.csv")
    assert wise.transactions[0].payee == "Cafe Central"
    assert wise.transactions[1].payee == "John Smith"  # the payer of money in
    assert wise.transactions[2].payee is None  # no party: cleaned from the description later
    bunq = parse("written/bunq.csv")
    assert [t.payee for t in bunq.transactions] == ["Albert Heijn", "Acme BV"]


def test_the_account_holder_in_both_party_columns_is_left_out() -> None:
    venmo = parse("written/venmo.csv")  # header on line 3 after an empty first column, `- $25.00`
    assert [(t.posted, t.amount, t.description) for t in venmo.transactions] == [
        (date(2024, 3, 1), -2500, "John Smith"), (date(2024, 3, 2), 65000, "Mary Major"),
        (date(2024, 3, 3), -62500, "Standard Transfer"),
    ]
    postbank = parse("written/postbank.csv")
    assert [t.payee for t in postbank.transactions] == ["Stadtwerke Bonn", "ACME GmbH"]
    assert "Max Muster" not in postbank.transactions[0].description


def test_a_footer_word_where_the_date_goes_is_skipped_with_a_warning() -> None:
    deutsche = parse("written/deutschebank.csv")  # cp1252, metadata above, `Kontostand` footer, Soll/Haben
    assert [(t.amount, t.payee) for t in deutsche.transactions] == [
        (-8500, "Stadtwerke München"), (-115000, "Max Mustermann"), (325000, "ACME GmbH"),
    ]
    assert deutsche.warnings == ["line 8: skipped 'Kontostand' (a balance line)"]
    postfinance = parse("written/postfinance.csv")  # `Lastschrift in CHF`, a disclaimer below the rows
    assert [t.amount for t in postfinance.transactions] == [-4560, 650000]
    assert postfinance.accounts[0].currency == "CHF"
    assert len(postfinance.warnings) == 2


def test_amount_columns_named_credit_and_debit_in_parentheses() -> None:
    kiwibank = parse("written/kiwibank.csv")  # `Amount (credit)`, `Amount (debit)`, `Amount`; dd-mm-yyyy
    assert [(t.posted, t.amount, t.description) for t in kiwibank.transactions] == [
        (date(2024, 3, 4), -4567, "COUNTDOWN AUCKLAND ;"), (date(2024, 3, 1), 200000, "ACME SALARY ;"),
    ]


def test_numbered_dutch_description_columns_join_the_counterparty() -> None:
    rabo = parse("written/rabobank.csv")
    assert [t.description for t in rabo.transactions] == [
        "Albert Heijn 1234 Betaalautomaat 12:34 pasnr. 123", "Acme BV Salaris maart", "Betaalautomaat 18:00 pasnr. 123 Paris",
    ]


def test_amount_columns_per_currency() -> None:
    rbc = parse("written/rbc.csv")  # RBC: `CAD$` and `USD$`, each row filled in one
    assert [(t.amount, t.currency) for t in rbc.transactions] == [(-456, None), (210000, None), (-4500, None), (-1234, "USD")]
    assert {a.currency for a in rbc.accounts} == {"CAD"}


def test_a_danish_amount_header_means_kroner() -> None:
    danske = parse("written/danske.csv")
    assert danske.accounts[0].currency == "DKK"
    assert [t.amount for t in danske.transactions] == [-12345, 2500000]


def test_all_ambiguous_dates_read_in_the_order_that_keeps_them_close() -> None:
    westpac = parse("written/westpac.csv")  # `04/03/2024`, `01/03/2024`: 4 and 1 March, not April and January
    assert [t.posted for t in westpac.transactions] == [date(2024, 3, 4), date(2024, 3, 1)]


@pytest.mark.parametrize(
    ("name", "currency", "amounts", "first_text"),
    [
        ("written/scotiabank_ca.csv", "USD", [-8745, 210000, -125000, -1695, -425], "POS Purchase LOBLAWS #1234 TORONTO ON"),
        ("written/fidelity_history.csv", "USD", [245000, -8642, -8999, -47530, 317], "DIRECT DEPOSIT ACME CORP PAYROLL (Cash)"),
        ("written/mbank_pl.csv", "PLN", [-4567, 520000, -16680, -80000], "ZAKUP PRZY UŻYCIU KARTY BIEDRONKA 1234"),
        ("written/fio_cz.csv", "CZK", [-123450, 2500000, -230000, -2760], "Nákup: ALBERT 0123, PRAHA"),
        ("written/nordea_fi.csv", "EUR", [-4567, 250000, -85000, -1290], "K-CITYMARKET HELSINKI"),
        ("written/nordea_dk.csv", "DKK", [-24567, 2500000, -850000, -9900], "Netto 1234"),
        ("written/societe_generale.csv", "EUR", [-4567, 250000, -85000, -1999], "CARTE X1234 14/01 CARREFOUR PARIS"),
        ("written/millennium_bcp.csv", "EUR", [-4567, 250000, -85000, -2990], "COMPRA 1234 CONTINENTE LISBOA"),
        ("written/ing_pl.csv", "PLN", [-4567, 520000, -80000, -1299], "BIEDRONKA 1234 KRAKÓW"),
        ("written/mercadopago.csv", "EUR", [-456050, 5250000, -320000, 0, -120000], "Pago Supermercado Coto"),
        ("written/seb_se.csv", "SEK", [-24567, 2500000, -850000, 15000], "ICA NARA HOLMEN"),
        ("written/handelsbanken_se.csv", "SEK", [-24567, 2500000, -850000, 15000], "ICA NARA HOLMEN"),
        ("written/ing_be.csv", "EUR", [-4567, 250000, -85000, -3999], "Paiement Bancontact DELHAIZE BRUXELLES"),
        ("written/belfius_be.csv", "EUR", [-4567, 250000, -85000, -3999], "BETALING MET DEBETKAART NUMMER"),
        ("written/hdfc_in.csv", "USD", [-45000, 8500000, -500000, -129900], "UPI-SWIGGY-SWIGGY@ICICI"),  # no currency stated
    ],
)
def test_banks_across_europe_the_americas_and_india(name: str, currency: str, amounts: list[int], first_text: str) -> None:
    result = parse(name)
    assert [t.amount for t in result.transactions] == amounts
    assert result.transactions[0].description.startswith(first_text)
    assert result.accounts[0].currency == currency
    assert all(date(2024, 12, 1) <= t.posted <= date(2025, 1, 31) for t in result.transactions)


def test_a_card_export_with_refunds_is_still_told_by_its_negative_payments() -> None:
    bmo = parse("written/bmo_ca_mastercard.csv")  # 2 of 5 rows negative: a payment and a refund
    assert [t.amount for t in bmo.transactions] == [-4567, -1230, 50000, -8820, 1999]
    assert bmo.accounts[0].type == "credit_card"
    nubank = parse("written/nubank_card.csv")  # `Pagamento recebido`
    assert [t.amount for t in nubank.transactions][:3] == [-4590, -1872, 120000]


def test_foreign_spend_columns_are_the_original_amount_only_in_another_currency() -> None:
    curve = parse("written/curve.csv")  # `Txn Amount (Funding Card)` and `(Foreign Spend)`; DEBIT/REFUND
    assert [(t.amount, t.original_amount, t.original_currency) for t in curve.transactions] == [
        (-2345, None, None), (-1280, -1510, "EUR"), (1999, None, None), (-650, None, None),
    ]
    revolut = parse("written/revolut_business.csv")  # `Date completed (UTC)`, `Orig amount`, a pending row
    assert [(t.posted, t.amount, t.pending) for t in revolut.transactions][1] == (date(2025, 1, 7), -5192, False)
    assert revolut.transactions[-1].pending and revolut.transactions[-1].original_currency == "USD"


def test_holds_refused_payments_and_closing_balance_lines() -> None:
    ing = parse("written/ing_pl.csv")  # a card hold: no amount booked, a blocked amount instead
    assert (ing.transactions[-1].amount, ing.transactions[-1].pending) == (-1299, True)
    bnp = parse("written/bnp_fortis_be.csv")  # Statut `Refusé`
    assert bnp.skipped_reverted == 1 and len(bnp.transactions) == 4
    nordea = parse("written/nordea_dk.csv")  # `Reserveret` where the date goes
    assert nordea.skipped_pending == 1
    mbank = parse("written/mbank_pl.csv")
    assert mbank.warnings == ["line 30: skipped '#Saldo końcowe' (a balance line)"]
    lcl = parse_fixture("written/lcl.csv", "inferred_csv")  # no header; the last line is the balance
    assert [t.amount for t in lcl.transactions] == [-4567, 250000, -85000, -1999]
    assert lcl.warnings == ["line 5: skipped a closing balance line (a date and an amount, no text)"]


def test_a_currency_stated_above_the_table_in_a_header_symbol_or_in_the_cells() -> None:
    preamble = parse("written/d23_uk_march_gbp_preamble.csv")  # `Currency:,GBP` above the table
    assert preamble.accounts[0].currency == "GBP"
    assert [t.posted for t in preamble.transactions][:2] == [date(2025, 3, 1), date(2025, 3, 2)]  # so day-first
    assert parse("written/d22_uk_march_pound_header.csv").accounts[0].currency == "GBP"  # `Amount (£)`
    assert parse("written/m13_aud_code_cells.csv").accounts[0].currency == "AUD"  # `-4.50 AUD`
    mixed = parse("written/m11_currency_in_amount_cells_mixed.csv")  # EUR, USD and JPY cells in one column
    assert [(t.amount, t.currency) for t in mixed.transactions] == [(-450, "EUR"), (-1200, "USD"), (-3500, "JPY")]
    dinars = parse("written/m18_kwd_code_cells.csv")
    assert dinars.accounts[0].currency == "KWD" and [t.amount for t in dinars.transactions] == [-12345, 1500000]


def test_three_decimals_that_cannot_group_thousands_are_decimals() -> None:
    result = GENERIC.parse((FIXTURES / "written/m20_3dec_nocurrency.csv").read_text(), "m20.csv")
    assert [t.amount for t in result.transactions] == [150000, -50]  # 1500.000 and -0.500 (no currency: dollars)
    assert result.errors[0].message == "-12.345 has more decimals than USD allows"


def test_card_statements_signed_by_their_type_column_or_their_credit_marks() -> None:
    sales = parse("written/s01_sale_payment_pos.csv")  # Sale positive; Payment and Return negative
    assert [t.amount for t in sales.transactions][:4] == [-5210, -8843, 30000, 1500]
    assert sales.accounts[0].type == "credit_card"
    unsigned = parse("written/s09_unsigned_type_words.csv")  # Purchase, Payment, Refund, Fee, all unsigned
    assert [t.amount for t in unsigned.transactions][:4] == [-5210, 30000, 2000, -9500]
    truncated = parse("written/s10_pos_charges_thanks_truncated.csv")  # `AUTOMATIC PAYMENT - THANK`
    assert [t.amount for t in truncated.transactions] == [-5210, 30000, -8843]
    marked = parse("written/a27_only_cr_marked.csv")  # only credits carry `CR`
    assert [t.amount for t in marked.transactions] == [-4500, 50000, -1299, 1299]
    assert marked.accounts[0].type == "credit_card" and any("marked CR" in w for w in marked.warnings)


def test_a_row_with_a_purchase_date_but_no_posting_date_is_pending() -> None:
    result = parse("written/d24_posting_blank_pending.csv")
    assert [(t.posted, t.pending) for t in result.transactions] == [
        (date(2025, 1, 6), True), (date(2025, 1, 4), False), (date(2025, 1, 2), False),
    ]


@pytest.mark.parametrize(
    ("name", "amounts", "warning"),
    [
        ("written/f03_totals_row.csv", [-4500, 150000, -90000], "line 5: skipped 'Total' (a totals line)"),
        ("written/f04_totals_row2.csv", [-4500, 150000, -90000], "line 5: skipped 'Total' (a totals line)"),
        ("written/t09_summary_footer_block.csv", [-4500, 150000], "line 5: skipped 'Total Debits' (a totals line)"),
    ],
)
def test_a_totals_line_is_skipped_with_a_warning(name: str, amounts: list[int], warning: str) -> None:
    result = parse(name)
    assert [t.amount for t in result.transactions] == amounts
    assert result.warnings[0] == warning


def test_a_second_header_line_names_its_columns() -> None:
    split = parse("written/f01_two_header_rows.csv")  # `Amount` over `Debit,Credit`
    assert [t.amount for t in split.transactions] == [-4500, 150000, -90000]
    units = parse("written/f19_units_row_below_header.csv")  # `(EUR)` under `Amount` and `Balance`
    assert [t.amount for t in units.transactions] == [-4500, 150000] and units.accounts[0].currency == "EUR"


def test_ambiguous_dates_of_different_payees_are_not_taken_for_monthly_charges() -> None:
    result = parse("written/d21_uk_march_1to12_no_ccy.csv")  # 01/03 ... 12/03, twelve payees
    assert [t.posted for t in result.transactions][:3] == [date(2025, 3, 1), date(2025, 3, 2), date(2025, 3, 3)]


def test_indian_headers_and_weekday_dates() -> None:
    hdfc = parse("written/a20_hdfc_real.csv")  # `Withdrawal Amt.`, `Deposit Amt.`, `Value Dt`, `1,23,456.78`
    assert [(t.posted, t.amount) for t in hdfc.transactions] == [
        (date(2025, 1, 3), -123450), (date(2025, 1, 4), 15000000), (date(2025, 1, 5), -2500000),
    ]
    assert [t.balance for t in hdfc.transactions] == [12345678, 27345678, 24845678]
    weekdays = parse("written/d20_weekday.csv")  # `Sun, 5 Jan 2025`
    assert [t.posted for t in weekdays.transactions] == [date(2025, 1, 5), date(2025, 1, 6)]


def test_ing_netherlands_balance_after_each_row() -> None:
    result = parse_text(
        '"Datum";"Naam / Omschrijving";"Rekening";"Tegenrekening";"Code";"Af Bij";"Bedrag (EUR)";"Mutatiesoort";"Mededelingen";"Saldo na mutatie";"Tag"\n'
        '"20261002";"Albert Heijn 1234";"NL12INGB0001234567";"";"BA";"Af";"45,20";"Betaalautomaat";"Pasvolgnr:001";"4954,80";""\n'
        '"20261005";"ACME BV";"NL12INGB0001234567";"NL98RABO0123456789";"OV";"Bij";"3210,00";"Overschrijving";"Salaris";"8164,80";""\n'
    )
    assert [(t.amount, t.balance) for t in result.transactions] == [(-4520, 495480), (321000, 816480)]


@pytest.mark.parametrize("mark", ["CR", "Cr.", "C", "Credit"])
def test_a_card_that_marks_only_its_credits(mark: str) -> None:
    result = parse_text(f'Date,Description,Amount\n03/11/2026,TESCO STORES,45.20\n04/11/2026,PAYMENT RECEIVED,"1,000.00 {mark}"\n'
                        "05/11/2026,SHELL,60.00\n")
    assert [t.amount for t in result.transactions] == [-4520, 100000, -6000] and result.accounts[0].type == "credit_card"


def test_a_quoted_field_after_a_comma_and_a_space() -> None:
    result = parse_text('Date, Description, Amount\n2026-10-02, "REWE Markt, Filiale 12", -45.20\n2026-10-03, Netflix.com, -12.00\n')
    assert [(t.description, t.amount) for t in result.transactions] == [("REWE Markt, Filiale 12", -4520), ("Netflix.com", -1200)]


def test_apostrophes_group_francs_unless_the_amounts_are_in_dollars() -> None:
    assert parse_text("Date,Description,Amount\n2026-10-02,SHOP,-45.20\n2026-10-05,PAY,3'210.00\n").accounts[0].currency == "CHF"
    dollars = parse_text("Date,Description,Amount\n2026-10-02,SHOP,-$45.20\n2026-10-05,PAY,$3'210.00\n")
    assert dollars.accounts[0].currency == "USD" and [t.amount for t in dollars.transactions] == [-4520, 321000]
    abroad = parse_text("Date,Description,Amount,Original amount\n03.11.2026,MIGROS,-45.20,\n04.11.2026,SALARY,5'210.00,\n"
                        "05.11.2026,AMAZON.COM SEATTLE,-43.75,$48.90\n")  # a purchase's original in dollars: francs all the same
    assert abroad.accounts[0].currency == "CHF"
    assert [(t.original_amount, t.original_currency) for t in abroad.transactions][2] == (-4890, "USD")
    dollars = parse_text("Date,Description,Amount (GBP),Original amount\n03/11/2026,QANTAS,-25.40,AU$ 48.90\n"
                         '04/11/2026,OXXO,-52.10,"MX$1,250.00"\n05/11/2026,TIM HORTONS,-7.05,CA$12.00\n06/11/2026,STARBUCKS,-4.10,$5.25\n')
    assert [t.original_currency for t in dollars.transactions] == ["AUD", "MXN", "CAD", "USD"]


def test_a_dated_total_word_that_adds_nothing_up_is_a_purchase() -> None:
    """`TOTAL` is how TotalEnergies' stations appear on card statements: a row of its own unless its
    amount adds up the rows beside it."""
    result = parse_text("Date,Description,Amount\n2026-10-02,REWE Markt,-45.20\n2026-10-03,Netflix.com,-12.00\n"
                        "2026-10-05,TOTAL,-56.00\n2026-10-07,Shell,-15.75\n2026-10-07,TOTAL,-128.95\n")
    assert [t.amount for t in result.transactions] == [-4520, -1200, -5600, -1575]
    assert result.warnings[:1] == ["line 6: skipped 'TOTAL' (a totals line)"]
    booked = parse_text("Date,Status,Description,Amount\n2026-11-01,Posted,Opening balance,1000.00\n2026-11-03,Posted,GROCERY,-45.00\n"
                        "2026-11-04,Pending,UBER,-18.40\n2026-11-05,Posted,RENT,-900.00\n2026-11-06,Posted,Total,-945.00\n")
    assert "line 6: skipped 'Total' (a totals line)" in booked.warnings  # the balance line and the pending row are no part of it


def test_more_totals_card_payments_and_currency_hints() -> None:
    daily = parse("written/t08_subtotal_per_day.csv")  # a dated `Daily total` row
    assert [t.amount for t in daily.transactions] == [-4500, -500, 150000]
    assert daily.warnings == ["line 4: skipped 'Daily total' (a totals line)"]
    pymt = parse("written/s11_pos_charges_pymt.csv")  # `ONLINE PYMT RECEIVED`, half the rows refunds and payments
    assert [t.amount for t in pymt.transactions] == [-5210, 30000, -8843, 1000]
    mixed = parse("written/m14_mixed_symbols.csv")  # `-$4.50` beside `-€5.00` and `-£4.50`
    assert [t.currency for t in mixed.transactions] == ["USD", "EUR", "GBP"]
    assert parse("written/a37_indian_grouping_std.csv").accounts[0].currency == "INR"  # `1,23,456.78`


def test_rows_under_a_pending_heading_are_pending() -> None:
    text = (
        '"Date","Type","Check #","Description","Withdrawal (-)","Deposit (+)","RunningBalance"\n'
        '"Pending Transactions"\n"05/09/2023","","","APPLE CASH","$130.00","",""\n'
        '"Posted Transactions"\n"05/08/2023","ACH","","Electronic Deposit","","$5,000.00","$5,000.00"\n'
    )
    result = parse_text(text)
    assert [(t.amount, t.pending) for t in result.transactions] == [(-13000, True), (500000, False)]


def test_hungarian_headers() -> None:
    result = parse_text("Könyvelés dátuma;Összeg;Devizanem;Közlemény\n2025.12.04;100;HUF;TESZT\n")
    assert [(t.posted, t.amount, t.currency) for t in result.transactions] == [(date(2025, 12, 4), 10000, "HUF")]  # fillér


def test_a_guessed_day_month_order_is_a_warning() -> None:
    result = parse_text("Date,Description,Amount\n06/12/2021,X,-1.00\n06/12/2021,Y,-2.00\n")
    assert result.warnings == ["every date fits both day/month orders and no day over 12 decides: read as month/day"]


@pytest.mark.parametrize(
    ("name", "amounts", "payees"),
    [
        ("written/sparebank1_no.csv", [-28900, 3500000, -49900], None),  # `Inn`/`Ut`, out already negative
        ("written/knab_nl.csv", [-2345, 250000, -105000], ["Albert Heijn", "Acme BV", "Woonstichting"]),  # `CreditDebet` D/C
        ("written/n26_2024.csv", [-2345, 250000, -1873], ["REWE Markt GmbH", "ACME GmbH", "Amazon US"]),  # `Partner Name`
        ("written/westpac_nz.csv", [-4560, 210000, -1299], ["New World Thorndon", "Acme LTD", "Spotify"]),  # `Other Party`
        ("written/millennium_pl.csv", [-4567, 500000], None),  # `Obciążenia`/`Uznania`, `Opis`
        ("written/usbank_us.csv", [-4567, 250000, -1000], None),  # four decimals: `-45.6700`
    ],
)
def test_more_banks_columns_and_signs(name: str, amounts: list[int], payees: list[str] | None) -> None:
    result = parse_fixture(name, "us_bank" if "usbank" in name else "generic_csv")
    assert [t.amount for t in result.transactions] == amounts
    if payees:
        assert [t.payee for t in result.transactions] == payees
    if "millennium" in name:
        assert [t.description for t in result.transactions][0] == "BIEDRONKA 1234 WARSZAWA"


def test_up_total_is_the_amount_and_its_currency_column_the_purchase_currency() -> None:
    up = parse("written/up_au_fee.csv")  # `Fee (AUD)` is no amount; `Currency` goes with `Subtotal (Transaction Currency)`
    assert [(t.amount, t.original_amount, t.original_currency) for t in up.transactions] == [
        (-5230, None, None), (-717, -550, "USD"), (300000, None, None), (-1900, None, None),
    ]
    assert up.accounts[0].currency == "AUD" and {t.currency for t in up.transactions} == {None}


def test_paypal_in_german_and_a_ubs_card_payment_not_yet_booked() -> None:
    paypal = parse("written/paypal_de.csv")  # `Brutto`/`Gebühr`/`Netto`, `Ausstehend`
    assert [(t.amount, t.pending) for t in paypal.transactions] == [(-1099, False), (1099, False), (2427, False), (-4500, True)]
    ubs = parse("written/ubs_ch.csv")  # `Beschreibung1..3`; `Abschlussdatum` without `Buchungsdatum`
    assert [(t.amount, t.pending) for t in ubs.transactions] == [(-1280, True), (-6544, False), (250000, False), (-5000, False)]
    assert ubs.transactions[1].description.startswith("Coop-1234 Zürich")


def test_aib_posted_columns_and_local_currency_amount() -> None:
    aib = parse("written/aib_ie.csv")  # leading spaces in the header; `Local Currency Amount` of a USD purchase
    assert [(t.amount, t.currency, t.original_amount, t.original_currency) for t in aib.transactions] == [
        (-4560, "EUR", None, None), (250000, "EUR", None, None), (-1905, "EUR", -2000, "USD"),
    ]


def test_asn_balance_before_each_row_is_not_its_amount() -> None:
    asn = parse_fixture("written/asn_nl.csv", "inferred_csv")  # no header; the balance before the row, then the amount
    assert [t.amount for t in asn.transactions] == [-2345, 250000, -105000]
    assert asn.transactions[0].description == "Betaalautomaat AH 1234 Amsterdam"  # `'...'` around the text


def test_german_party_columns_balance_lines_and_the_account_named_above_the_table() -> None:
    volksbank = parse("written/volksbank_old.csv")  # `Auftraggeber/Zahlungsempfänger`, `Anfangssaldo` under the reference
    assert [(t.amount, t.payee) for t in volksbank.transactions] == [(250000, "ACME GmbH"), (-8900, "Stadtwerke"), (-2345, "Rewe")]
    assert volksbank.warnings == ["line 21: skipped 'Anfangssaldo' (a balance line)", "line 22: skipped 'Endsaldo' (a balance line)"]
    assert volksbank.accounts[0].number == "1234567"  # `Konto:;1234567`
    dkb = parse("written/dkb_old_counterparty_numbers.csv")  # its `Kontonummer` column is the other party's
    assert len(dkb.accounts) == 1 and dkb.accounts[0].number == "DE12120300001234567890"
    assert {t.account_key for t in dkb.transactions} == {None}
    new_dkb = parse("written/dkb_2023.csv")  # `Zahlungspflichtige*r`, `Zahlungsempfänger*in`
    assert "ACME GmbH" in {t.payee for t in new_dkb.transactions}
    # `Girokonto;DE12…` above the 2023 layout names the account the old layout's `Kontonummer:` line does
    assert [(a.name, a.number) for a in new_dkb.accounts] == [(a.name, a.number) for a in dkb.accounts]


def test_dkb_day_balances_are_skipped_and_a_card_named_above_the_table_is_a_card() -> None:
    giro = parse("written/dkb_tagessaldo.csv")  # `Tagessaldo` rows carry the day's balance where the amount goes
    assert [t.amount for t in giro.transactions] == [-3999]
    assert giro.accounts[0].name == "Girokonto …7890"
    visa = parse("written/dkb_visa.csv")  # `Kreditkarte:;4930********1234 Kreditkarte`
    assert visa.accounts[0].type == "credit_card" and len(visa.transactions) == 4
    new_visa = parse("written/dkb_2023_visa.csv")  # `Karte;Visa Kreditkarte;4930 **** **** 1234`: the same card
    assert [(a.name, a.number, a.type) for a in new_visa.accounts] == [("Visa Kreditkarte …1234", "4930********1234", "credit_card")]
    assert visa.accounts[0].number == "4930********1234"


def test_ing_germany_books_on_the_booking_date_not_the_value_date() -> None:
    """ING writes `Buchung` and `Valuta`; the year's closing charge is booked 02.01. with value 31.12."""
    ing = parse("written/ing_de.csv")
    assert [(t.posted, t.amount) for t in ing.transactions] == [
        (date(2024, 1, 31), -4567), (date(2024, 1, 30), 250000), (date(2024, 1, 15), -1983), (date(2024, 1, 2), -50),
    ]


@pytest.mark.parametrize(
    ("name", "amounts", "currency"),
    [
        ("written/banorte_movimientos.csv", [-123450, 2500000, -9900], "USD"),  # Depósitos before Retiros; `$` is no euro
        ("written/paypal_es.csv", [-4590, 4590, 11557], "EUR"),  # Bruto/Comisión/Neto: the net is the amount; Pendiente held
        ("written/itau_extrato_web.csv", [-4590, 500000], "BRL"),  # `valor (R$)`, `saldos (R$)`, SALDO ANTERIOR skipped
        ("written/icici_cc_statement.csv", [-45000, -84512, 1500000], "INR"),  # `Amount(in Rs)`, BillingAmountSign CR
        ("written/capitec_transactions.csv", [-4590, -750, 2500000, -101000], "USD"),  # a Fee column, a fee-only row
        ("written/axis_statement.csv", [-45000, 8500000, -1000000], "USD"),  # DR/CR/BAL; TRANSACTION TOTAL, CLOSING BALANCE
        ("written/bradesco_02012025.csv", [-4590, 500000, -18933], "BRL"),  # `Débito (R$)`
    ],
)
def test_latin_american_asian_and_african_layouts(name: str, amounts: list[int], currency: str) -> None:
    result = parse(name)
    assert sorted(t.amount for t in result.transactions if not t.pending) == sorted(amounts)
    assert result.accounts[0].currency == currency


def test_more_european_and_uk_layouts() -> None:
    danske = parse("written/danske_no.csv")  # `Status`: `Reservert` and `Venter` are both still pending
    assert [(t.amount, t.pending) for t in danske.transactions if t.pending] == [(-12000, True), (-9900, True)]
    caixa = parse("written/cgd_pt.csv")  # `Data mov.`, `Débito`/`Crédito`, a closing `Saldo contabilístico` line
    assert [t.amount for t in caixa.transactions] == [-4599, 250000, -425]
    assert caixa.warnings == ["line 11: skipped 'Saldo contabilístico' (a balance line)"]
    mbank = parse("written/mbank_pl_lista.csv")  # `#Saldo końcowe` in the category column, no date
    assert [t.amount for t in mbank.transactions] == [-4599, 250000, -425]
    nationwide = parse("written/nationwide_old.csv")  # `Transactions` is the description
    assert [t.description for t in nationwide.transactions][0] == "Pay card TESCO STORES 3297"
    metro = parse("written/metro_uk.csv")  # `In`/`Out`
    assert [t.amount for t in metro.transactions] == [-1234, 250000, -4599]
    op = parse("written/op_fi.csv")  # `Määrä EUROA`, `Saaja/Maksaja`, `Viesti`
    assert [(t.amount, t.payee) for t in op.transactions] == [(-4599, "Amazon Eu"), (250000, "Acme Oy"), (-425, "Kahvila Helsinki")]
    isbank = parse("written/isbank_tr.csv")  # Turkish: `Tarih`, `Açıklama`, `Tutar`, `Bakiye`
    assert [(t.posted, t.amount, t.description) for t in isbank.transactions] == [
        (date(2025, 3, 5), -24590, "MİGROS KADIKÖY"), (date(2025, 3, 3), 2500000, "MAAŞ ÖDEMESİ ACME A.Ş."),
    ]
    garanti = parse("written/garanti_tr_cp1254.csv")  # cp1254 `Açıklama`, `Para Birimi;TL` above the table
    assert garanti.accounts[0].currency == "TRY" and garanti.transactions[1].description == "MAAS ODEMESI ACME A.S."
    tinkoff = parse("written/tinkoff_ru_cp1251.csv")  # cp1251, Russian headers, the payment's amount in roubles
    assert [(t.posted, t.amount, t.description) for t in tinkoff.transactions] == [
        (date(2025, 3, 6), -123456, "Пятёрочка"), (date(2025, 3, 4), -185040, "NETFLIX.COM"),
        (date(2025, 3, 3), 5000000, "Зарплата ООО Ромашка"),
    ]
    assert tinkoff.skipped_reverted == 1 and tinkoff.transactions[1].original_currency == "USD"
    unicredit = parse("written/unicredit_it.csv")  # `Data Registrazione` is the booking date, before `Data valuta`
    assert [t.posted for t in unicredit.transactions] == [date(2025, 3, 5), date(2025, 3, 3), date(2025, 3, 1)]


def test_czech_popis_is_the_description() -> None:
    result = parse_text("Datum;Popis;Částka\n01.03.2025;Albert Praha;-100,00\n")
    assert [(t.description, t.amount) for t in result.transactions] == [("Albert Praha", -10000)]


def test_a_download_of_only_unposted_card_rows_is_pending_when_recent() -> None:
    """No row has a posting date: the last days' purchases are holds still to post, while old ones
    are booked (that bank just leaves the column empty)."""
    today = date.today()
    rows = "".join(f"{today - timedelta(days=ago):%m/%d/%Y},,SPOTIFY USA,-9.99\n" for ago in (1, 3, 40))
    result = parse_text("Transaction Date,Posting Date,Description,Amount\n" + rows)
    assert [t.pending for t in result.transactions] == [True, True, False]


# ------------------------------------------------------------- layouts from bank2ynab's configuration


def read_inline(tmp_path, text: str, name: str = "export.csv") -> ParseResult:
    from wilson.importers.formats import parse_file

    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return parse_file(path)


def test_swedbank_balance_and_turnover_lines_in_latvian_are_not_transactions(tmp_path) -> None:
    head = '"Klienta konts";"Ieraksta tips";"Datums";"Saņēmējs/Maksātājs";"Informācija saņēmējam";"Summa";"Valūta";"Debets/Kredīts"\n'
    rows = [("10", "01.03.2024", "", "Sākuma atlikums", "5000,00", "K"), ("20", "02.03.2024", "Rimi", "Pirkums Rimi", "4,50", "D"),
            ("20", "09.03.2024", "Alga", "Alga SIA Firma", "2500,00", "K"), ("82", "31.03.2024", "", "Apgrozījums", "4,50", "D"),
            ("82", "31.03.2024", "", "Apgrozījums", "2500,00", "K"), ("86", "31.03.2024", "", "Beigu atlikums", "7495,50", "K"),
            ("900", "31.03.2024", "", "Uzkrātie procenti", "0,00", "K")]
    body = "".join(f'"LV12HABA0551012345678";"{t}";"{d}";"{p}";"{i}";"{a}";"EUR";"{f}"\n' for t, d, p, i, a, f in rows)
    assert [t.amount for t in read_inline(tmp_path, head + body).transactions] == [-450, 250000]


def test_tatra_bankas_debet_and_kredit_words_sign_the_amounts(tmp_path) -> None:
    result = read_inline(tmp_path, (
        "Číslo účtu,Dátum,Suma,Mena,Typ,Protistrana,Popis\n"
        "SK3111000000001234567890,02.03.2024,4.50,EUR,Debet,Billa,Platba Billa\n"
        "SK3111000000001234567890,05.03.2024,1234.56,EUR,Debet,Nájom,Platba Nájom\n"
        "SK3111000000001234567890,09.03.2024,2500.00,EUR,Kredit,Mzda,Platba Mzda\n"
    ))
    assert [t.amount for t in result.transactions] == [-450, -123456, 250000]


def test_a_spaced_out_closing_balance_line_is_not_income(tmp_path) -> None:
    result = read_inline(tmp_path, (
        '"Data","Dependencia Origem","Histórico","Data do Balancete","Número do documento","Valor",\n'
        '"29/02/2024","","Saldo Anterior","","0","5000.00",\n"02/03/2024","","Padaria","","100","-4.50",\n'
        '"09/03/2024","","Salário","","101","2500.00",\n"31/03/2024","","S A L D O","","0","7495.50",\n'
    ))
    assert [t.amount for t in result.transactions] == [-450, 250000]


def test_a_german_card_statement_is_told_by_its_payment_thanks(tmp_path) -> None:
    result = read_inline(tmp_path, (
        "Karteninhaber;Belegdatum;Buchungsdatum;Beschreibung;Betrag;Währung\n"
        "Max Mustermann;02.03.2024;02.03.2024;REWE Markt GmbH;4,50;EUR\n"
        "Max Mustermann;05.03.2024;05.03.2024;Lufthansa;1.234,56;EUR\n"
        "Max Mustermann;14.03.2024;14.03.2024;Zahlung Danke / Gutschrift;-1.500,00;EUR\n"
    ))
    assert [t.amount for t in result.transactions] == [-450, -123456, 150000] and result.accounts[0].type == "credit_card"


def test_deutsche_bank_footers_counterparties_and_foreign_amounts(tmp_path) -> None:
    account = read_inline(tmp_path, (
        "Old balance:;;;;5,000.00;EUR\n"
        "Booking date;Value date;Transaction Type;Beneficiary / Originator;Payment Details;Debit;Credit;Currency\n"
        "03/02/2024;03/02/2024;Debit Card Payment;REWE Markt GmbH;Ref 1;-4.50;;EUR\n"
        "03/14/2024;03/14/2024;SEPA Credit Transfer from;Gehalt Musterfirma GmbH;Ref 2;;2,500.00;EUR\n"
        "Account balance;;;;;;7,495.50;EUR\n"
    ))
    assert [(t.posted, t.amount) for t in account.transactions] == [(date(2024, 3, 2), -450), (date(2024, 3, 14), 250000)]
    assert account.transactions[0].description.startswith("REWE Markt GmbH") and not account.errors
    card = read_inline(tmp_path, (
        "Credit card transactions Deutsche Bank Card Plus\nCard number: 5311 XXXX XXXX 1234\n\n"
        "Voucher date;Date of receipt;Reason for payment;Foreign currency;Amount;Exchange rate;Amount;Currency\n"
        "03/02/2024;03/04/2024;REWE Markt GmbH;;;;-4.50;EUR\n"
        "03/05/2024;03/06/2024;AMAZON.COM;USD;-20.00;1.08;-18.52;EUR\n"
        "Total;;;;;;-23.02;EUR\n"
    ), "card.csv")
    assert [(t.posted, t.amount, t.original_amount, t.original_currency) for t in card.transactions] == [
        (date(2024, 3, 4), -450, None, None), (date(2024, 3, 6), -1852, -2000, "USD")]


@pytest.mark.parametrize(("text", "descriptions"), [
    ("Kontonummer;BLZ;Gegenkonto;Gegenkonto Inhaber;Betrag;Valuta;Datum;Verwendungszweck\n"  # Hibiscus
     "1234567890;12030000;DE89370400440532013000;REWE Markt GmbH;-4,50;02.03.2024;02.03.2024;Rechnung 4711\n",
     ["REWE Markt GmbH Rechnung 4711"]),
    ("Buchung;Valuta;Sender / Empfänger;IBAN;Buchungstext;Verwendungszweck;Betrag\n"  # Consorsbank
     "02.03.2024;02.03.2024;REWE Markt GmbH;DE89370400440532013000;LASTSCHRIFT;Rechnung 4711;-4,50\n",
     ["REWE Markt GmbH Rechnung 4711"]),
    ("Data księgowania;Data waluty;Nadawca / Odbiorca;Tytułem;Kwota operacji;Waluta;Typ operacji\n"  # Pekao
     "02.03.2024;02.03.2024;Biedronka;Zapłata;-4,50;PLN;TRANSAKCJA KARTĄ\n", ["Biedronka Zapłata"]),
    ("Data contabile;Data valuta;Addebiti;Accrediti;Divisa;Descrizione operazioni;Causale\n"  # RomagnaBanca
     "02/03/2024;02/03/2024;4,50;;EUR;Esselunga;PAGAMENTO POS\n", ["Esselunga PAGAMENTO POS"]),
    ("Timestamp (UTC),Transaction Description,Currency,Amount,Transaction Kind\n"  # Crypto.com
     "2024-03-02 10:11:12,TESCO STORES 2143,EUR,-4.50,card_purchase\n", ["TESCO STORES 2143"]),
])
def test_counterparty_and_description_columns_in_more_languages(tmp_path, text: str, descriptions: list[str]) -> None:
    result = read_inline(tmp_path, text)
    assert [t.description for t in result.transactions] == descriptions
    assert [t.amount for t in result.transactions] == [-450]


def test_dnbs_norwegian_withdrawals_and_deposits_are_in_kroner(tmp_path) -> None:
    result = read_inline(tmp_path, '"Dato";"Forklaring";"Rentedato";"Uttak";"Innskudd"\n'
                                   '"02.03.2024";"Rema 1000";"02.03.2024";"4,50";""\n"09.03.2024";"Lønn";"09.03.2024";"";"2500,00"\n')
    assert [(t.amount, t.description) for t in result.transactions] == [(-450, "Rema 1000"), (250000, "Lønn")]
    assert result.accounts[0].currency == "NOK"


def test_a_column_named_for_a_credit_card_makes_the_file_a_cards(tmp_path) -> None:
    card = read_inline(tmp_path, '"Munt","Creditcard Nummer","Datum","Bedrag","Omschrijving"\n"EUR","1234","2024-03-02","-4,50","Albert Heijn"\n')
    debit = read_inline(tmp_path, "Date,Card number,Description,Amount\n2024-03-02,*1234,TESCO,-4.50\n", "debit.csv")
    assert (card.accounts[0].type, debit.accounts[0].type) == ("credit_card", "checking")


def test_aliors_sender_and_recipient_leave_out_the_holder_and_the_account_amount_wins(tmp_path) -> None:
    result = read_inline(tmp_path, (
        "Data transakcji;Data księgowania;Nazwa nadawcy;Nazwa odbiorcy;Szczegóły transakcji;Kwota operacji;Waluta operacji;"
        "Kwota w walucie rachunku;Waluta rachunku\n"
        "02-03-2024;02-03-2024;JAN KOWALSKI;Biedronka;Zakupy;-4,50;PLN;-4,50;PLN\n"
        "05-03-2024;06-03-2024;JAN KOWALSKI;Booking.com;Hotel;-100,00;EUR;-432,10;PLN\n"
        "09-03-2024;09-03-2024;FIRMA SP. Z O.O.;JAN KOWALSKI;Wynagrodzenie;2500,00;PLN;2500,00;PLN\n"
    ))
    assert [(t.amount, t.description) for t in result.transactions] == [
        (-450, "Biedronka Zakupy"), (-43210, "Booking.com Hotel"), (250000, "FIRMA SP. Z O.O. Wynagrodzenie")]
    assert result.accounts[0].currency == "PLN"


def test_a_cards_file_paid_off_by_a_bare_payment_is_read_as_a_card() -> None:
    """Charges positive and the one row of money out a `PAYMENT` (Rogers Mastercard): a card's
    file by its name, its signs turned. A file not named for a card keeps them (and is warned of)."""
    text = "Date,Description,Amount\n2025-03-14,TIM HORTONS #1234,4.50\n2025-03-10,ONLINE PAYMENT,-500.00\n2025-03-03,LOBLAWS #1234,1023.45\n"
    card = GENERIC.parse(text, "rogers_mastercard.csv")
    assert [t.amount for t in card.transactions] == [-450, 50000, -102345]
    plain = GENERIC.parse(text, "export.csv")
    assert [t.amount for t in plain.transactions] == [450, -50000, 102345]
    assert plain.sign_reading == "unsure" and any("--format card_csv" in warning for warning in plain.warnings)


VISA_ACTIVITY = (  # the audit's `Visa_activity.csv`: charges positive, a payment not worded `thank you`, a return
    "Transaction Date,Posting Date,Description,Amount\n"
    "01/28/2025,01/29/2025,TARGET 00012345 MINNEAPOLIS MN,54.99\n01/25/2025,01/26/2025,SHELL OIL 5744,41.00\n"
    "01/22/2025,01/23/2025,CHIPOTLE 1234,13.75\n01/20/2025,01/20/2025,ONLINE PAYMENT,-200.00\n"
    "01/15/2025,01/16/2025,TARGET.COM * 800-591-3869,23.45\n01/12/2025,01/13/2025,TARGET 00012345 RETURN,-12.00\n"
    "01/08/2025,01/09/2025,NETFLIX.COM,15.49\n01/04/2025,01/05/2025,TARGET 00012345 MINNEAPOLIS MN,61.20\n"
)


def test_a_cards_file_paid_off_and_given_a_return_is_read_as_a_card_whatever_its_payment_is_called() -> None:
    """Charges positive, and money out only the card's payment and a shop's return, in a file named
    for a card: the issuer's side of a card, however the payment is worded. Named otherwise, it may
    as well be a landlord's account (rents in, the mortgage paid, a deposit refunded): read as
    written, and said so."""
    visa = GENERIC.parse(VISA_ACTIVITY, "Visa_activity.csv")
    assert [(t.posted, t.amount) for t in visa.transactions] == [
        (date(2025, 1, 29), -5499), (date(2025, 1, 26), -4100), (date(2025, 1, 23), -1375), (date(2025, 1, 20), 20000),
        (date(2025, 1, 16), -2345), (date(2025, 1, 13), 1200), (date(2025, 1, 9), -1549), (date(2025, 1, 5), -6120),
    ]  # booked on the posting dates
    assert sum(t.amount for t in visa.transactions) == 212 and visa.accounts[0].type == "credit_card"
    assert visa.sign_reading == "card" and visa.warnings[0].endswith("read as a card statement whose charges are positive")
    for payment in ("AUTOPAY PAYMENT", "ONLINE PAYMENT", "PAYMENT - ACH", "ELECTRONIC PAYMENT", "MOBILE PYMT"):
        redcard = GENERIC.parse(
            "Transaction Date,Posting Date,Description,Amount\n01/28/2025,01/29/2025,TARGET 00012345 MINNEAPOLIS MN,54.99\n"
            f"01/20/2025,01/20/2025,{payment},-200.00\n01/15/2025,01/16/2025,TARGET.COM * 800-591-3869,23.45\n"
            "01/12/2025,01/13/2025,TARGET 00012345 RETURN,-12.00\n01/04/2025,01/05/2025,TARGET 00012345 MINNEAPOLIS MN,61.20\n",
            "redcard_0.csv",
        )
        assert [t.amount for t in redcard.transactions] == [5499, -20000, 2345, -1200, 6120], payment
        assert redcard.sign_reading == "unsure" and any("--format card_csv" in warning for warning in redcard.warnings)
    landlord = GENERIC.parse(
        "Date,Description,Amount\n01/01/2025,J SMITH,1450.00\n01/02/2025,M JONES,1475.00\n01/05/2025,WELLS FARGO HOME MORTGAGE PAYMENT,-2875.40\n"
        "01/20/2025,SECURITY DEPOSIT REFUND,-2.00\n",
        "Rental Property.csv",
    )
    assert [t.amount for t in landlord.transactions] == [145000, 147500, -287540, -200] and landlord.sign_reading == "unsure"


def test_a_bank_files_bill_payments_stay_money_out() -> None:
    """A checking account pays its bills `ONLINE PAYMENT`: with its purchases beside them, or its
    money in pay and refunds, the file is a bank's; with money in of no telling name and nothing
    else going out, it may be either, and is read as written and said so. A bank's own returns
    (a returned item's fee) are no shop's refund."""
    checking = GENERIC.parse(
        "Date,Description,Amount\n01/31/2025,ACME CORP PAYROLL,2500.00\n01/20/2025,ONLINE PAYMENT,-200.00\n"
        "01/18/2025,AMAZON.COM REFUND,23.99\n01/15/2025,ONLINE PAYMENT,-84.12\n01/10/2025,KROGER #123,54.10\n",
        "Checking.csv",
    )
    assert [t.amount for t in checking.transactions] == [250000, -20000, 2399, -8412, 5410]
    assert checking.sign_reading == "written" and checking.warnings == [] and checking.accounts[0].type == "checking"
    text = ("Date,Description,Amount\n01/31/2025,ACME INC INVOICE 1042,1800.00\n01/24/2025,ONLINE PAYMENT,-200.00\n"
            "01/17/2025,BETA LLC,950.00\n01/05/2025,GAMMA CO,400.00\n")
    paid_only = GENERIC.parse(text, "export.csv")
    assert [t.amount for t in paid_only.transactions] == [180000, -20000, 95000, 40000]
    assert paid_only.sign_reading == "unsure" and paid_only.accounts[0].type == "checking"
    assert paid_only.warnings == [
        "its money out is all payments or returns and its money in reads as purchases: read as money in; if they are a card's charges"
        " (Amex's Date,Description,Amount download), undo and import with --format card_csv"
    ]
    charged = GENERIC.parse(text + "01/12/2025,NSF RETURN ITEM FEE,-35.00\n", "export.csv")
    assert [t.amount for t in charged.transactions] == [180000, -20000, 95000, 40000, -3500]
    assert charged.sign_reading == "written" and charged.warnings == []


def test_italian_pending_and_a_transaction_count_footer() -> None:
    fineco = parse_text(
        "Data_Operazione;Data_Valuta;Entrate;Uscite;Descrizione;Descrizione_Completa;Stato\n"
        "15/03/2025;15/03/2025;;-18,60;Pagamento Visa Debit;Amazon.it Lussemburgo;Autorizzato\n"
        "14/03/2025;14/03/2025;;-23,45;Pagamento Visa Debit;Esselunga Milano;Contabilizzato\n"
    )
    assert [(t.amount, t.pending) for t in fineco.transactions] == [(-1860, True), (-2345, False)]
    counted = parse_text(
        "Data;Opis;Kwota;Saldo\n03.03.2025;ZABKA;-12,50;987,50\n04.03.2025;PRZELEW;100,00;1087,50\n;Liczba transakcji w wybranym okresie:;2;\n"
    )
    assert [t.amount for t in counted.transactions] == [-1250, 10000] and not counted.errors


@pytest.mark.parametrize(
    ("header", "row"),
    [
        ("Date,Description,Amount,Ending Balance", "2025-03-03,SHELL,-40.00,960.00"),  # Marcus
        ("Datum;Omschrijving;Bedrag;Saldo na trn", "03-03-2025;SHELL;-40,00;960,00"),  # Rabobank
        ("Fecha;Movimiento;Importe;Disponible", "03/03/2025;SHELL;-40,00;960,00"),  # CaixaBank, BBVA
        ("Date,Transaction,Amount,Balance", "03/03/2025,SHELL,-40.00,960.00"),  # Standard Chartered
    ],
)
def test_more_names_of_description_and_running_balance_columns(header: str, row: str) -> None:
    (only,) = parse_text(f"{header}\n{row}\n").transactions
    assert (only.description, only.amount, only.balance) == ("SHELL", -4000, 96000)


def test_a_row_cut_short_after_its_date_is_a_row_error() -> None:
    """Only a date above a row with none (comdirect's heading of a `neu` row) is skipped."""
    result = parse_text("Date,Description,Amount\n2025-02-01,OK1,-1.00\n2025-02-02\n2025-02-03,OK3,-3.00\n2025-02-04\n")
    assert [(e.line, e.message) for e in result.errors] == [(3, "no amount"), (5, "no amount")]
    assert not result.warnings


def test_a_currency_column_of_symbols_reads_as_codes() -> None:
    pounds = parse_text("Date,Description,Currency,Amount\n14/03/2025,TESCO STORES,£,-23.45\n05/03/2025,ACME LTD,£,2150.00\n")
    assert {t.currency for t in pounds.transactions} == {"GBP"} and pounds.accounts[0].currency == "GBP"
    dollars = parse_text("Date,Description,Currency,Amount\n03/14/2025,TARGET,$,-23.45\n03/15/2025,BTC BUY,btc,0.5\n")
    assert [t.currency for t in dollars.transactions] == [None, "BTC"]  # a bare `$`: the file's currency


def test_schwab_as_of_dates_and_totals_lines_wherever_they_stand() -> None:
    schwab = parse_text(
        '"Date","Action","Description","Amount"\n"03/14/2025","Bank Interest","BANK INT","$0.45"\n'
        '"03/05/2025 as of 03/04/2025","MoneyLink Transfer","Tfr WELLS FARGO","$2,150.00"\n"Transactions Total","","","$2,150.45"\n'
    )
    assert [(t.posted, t.amount) for t in schwab.transactions] == [(date(2025, 3, 14), 45), (date(2025, 3, 5), 215000)]
    assert schwab.warnings == ["line 4: skipped 'Transactions Total' (a totals line)"]
    quicken = parse_text('"Date","Payee","Clr","Amount"\n"3/3/2025","SHELL","R","-40.00"\n"","","Total","-40.00"\n')
    assert len(quicken.transactions) == 1 and quicken.warnings == ["line 3: skipped 'Total' (a totals line)"]


def test_a_disclaimer_in_a_column_of_its_own_after_the_last_row_is_no_row() -> None:
    robinhood = parse_text(
        "Settle Date,Description,Amount\n3/3/2025,Deposit,$500.00\n,,,The data provided is for informational purposes only.\n"
    )
    assert [t.amount for t in robinhood.transactions] == [50000] and not robinhood.errors


def test_greek_headers_and_their_debit_credit_flags() -> None:
    alpha = parse_text("Ημερομηνία;Αιτιολογία;Ποσό;Χ/Π;Υπόλοιπο\n14/03/2025;ΑΓΟΡΑ ΚΑΡΤΑ;23,45;Χ;1.000,00\n15/03/2025;ΜΙΣΘΟΔΟΣΙΑ;2.150,00;Π;3.150,00\n")
    assert [(t.amount, t.balance) for t in alpha.transactions] == [(-2345, 100000), (215000, 315000)]


def test_an_account_type_column_types_each_account() -> None:
    rbc = parse_text(
        '"Account Type","Account Number","Transaction Date","Description 1","CAD$"\n'
        "Chequing,06702-5012345,3/3/2025,TIM HORTONS,-4.50\nVisa,4510123412341234,3/4/2025,AMAZON.CA,-45.99\n"
    )
    assert {a.number: a.type for a in rbc.accounts} == {"06702-5012345": "checking", "4510123412341234": "credit_card"}


def test_finnish_headers_and_the_holder_in_either_party_column() -> None:
    """S-Pankki names the payer and the payee; the holder is one of them on every row."""
    spankki = parse_text(
        "Kirjauspäivä;Maksupäivä;Summa;Tapahtumalaji;Maksaja;Saajan nimi;Viesti;Arkistointitunnus\n"
        "14.03.2025;13.03.2025;-23,45;KORTTIOSTO;Matti Meikäläinen;PRISMA ITIS;;20250314123\n"
        "05.03.2025;05.03.2025;+2150,00;PALKKA;ACME OY;Matti Meikäläinen;Palkka maaliskuu;20250305123\n"
    )
    assert [(t.amount, t.payee, t.bank_id) for t in spankki.transactions] == [
        (-2345, "Prisma Itis", "20250314123"), (215000, "Acme Oy", "20250305123")]


def test_a_description_runs_on_into_columns_with_no_name() -> None:
    pko = parse_text(
        '"Data operacji","Typ transakcji","Kwota","Waluta","Opis transakcji","",""\n'
        '"2025-03-14","Płatność kartą","-23.45","PLN","Tytuł: 000498849","Lokalizacja: Adres: ŻABKA Z1234","Numer karty: 4251"\n'
    )
    (row,) = pko.transactions
    assert row.description == "Tytuł: 000498849 Lokalizacja: Adres: ŻABKA Z1234 Numer karty: 4251"


def test_hebrew_headers_read_in_shekels() -> None:
    hapoalim = parse_text(
        "תאריך,הפעולה,פרטים,אסמכתא,חובה,זכות,יתרה בש''ח\n"
        "14/03/2025,כרטיס דביט,שופרסל דיל,12345,23.45,,3339.85\n05/03/2025,העברה,ACME,12346,,2150.00,3363.30\n"
    )
    assert [(t.amount, t.description) for t in hapoalim.transactions] == [(-2345, "שופרסל דיל"), (215000, "ACME")]
    assert hapoalim.accounts[0].currency == "ILS"


def test_komercni_banka_names_the_merchant_beside_its_system_description() -> None:
    kb = parse_text(
        "Datum splatnosti;Protiúčet a kód banky;Název protiúčtu;Částka;Identifikace transakce;Systémový popis;Popis příkazce;Popis pro příjemce\n"
        "14.03.2025;;;-234,50;1234;Platba kartou;ALBERT PRAHA;\n05.03.2025;987654321/0800;ACME s.r.o.;21500,00;1235;Příchozí úhrada;;Mzda březen\n"
    )
    assert [(t.description, t.amount, t.notes) for t in kb.transactions] == [
        ("ALBERT PRAHA", -23450, "Platba kartou"), ("ACME s.r.o. Mzda březen", 2150000, "Příchozí úhrada")]
    assert kb.accounts[0].currency == "CZK"


@pytest.mark.parametrize("seed", ["1", "2", "3", "4"])
def test_the_holder_of_a_short_from_to_file_is_the_one_who_pays_from_and_is_paid_to(seed: str) -> None:
    """Each name is on both rows; string hashing (which orders sets) must not decide which is left out."""
    import subprocess
    import sys

    code = (
        "from wilson.importers.csv_generic import GenericCsv\n"
        "text = 'Datetime,Note,From,To,Amount (total)\\n2025-03-01T18:22:05,pizza,John Doe,Jane Smith,- $12.50\\n"
        "2025-03-02T09:10:11,rent,Jane Smith,John Doe,+ $450.00\\n'\n"
        "print([t.payee for t in GenericCsv().parse(text, 'venmo.csv').transactions])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": seed})
    assert out.stdout.strip() == "['Jane Smith', 'Jane Smith']", out.stderr


def test_mint_dates_are_month_first_however_close_the_other_order_puts_them() -> None:
    """`8/02/2016` and `6/02/2016` read day first are two days apart; Mint writes month first."""
    from wilson.importers.csv_banks import FORMATS

    mint = next(fmt for fmt in FORMATS if fmt.name == "mint")
    text = (
        '"Date","Description","Original Description","Amount","Transaction Type","Category","Account Name","Labels","Notes"\n'
        '"8/02/2016","Amazon","AMAZON MKTPLACE PMTS","29.99","debit","Shopping","1234","",""\n'
        '"6/02/2016","Autopay","AUTOPAY AUTO-PMT","123.45","credit","Credit Card Payment","1234","",""\n'
    )
    assert [t.posted for t in mint.parse(text, "transactions.csv").transactions] == [date(2016, 8, 2), date(2016, 6, 2)]


def test_a_row_without_text_is_described_by_its_category_and_item_columns_are_text() -> None:
    monefy = parse_text("date,account,category,amount,currency,description\n2021-12-06,Cash,Clothes,-25,USD,\n2021-12-07,Cash,Bills,-55,USD,fbbd\n")
    assert [t.description for t in monefy.transactions] == ["Clothes", "fbbd"]
    csb43 = parse_text("transaction_date,item1,item2,amount\n2019-11-02,MY_INCOME_LINE,,1500.00\n")
    assert csb43.transactions[0].description == "MY_INCOME_LINE"


def test_dates_written_as_spreadsheet_day_numbers_are_read_with_a_warning() -> None:
    result = parse_text("Date;Buchungstext;Betrag\n45658;REWE;-12,50\n45690;GEHALT;2500,00\n")
    assert [(t.posted, t.amount) for t in result.transactions] == [(date(2025, 1, 1), -1250), (date(2025, 2, 2), 250000)]
    assert any("spreadsheet day numbers" in w for w in result.warnings)


def test_denied_payments_and_scheduled_ones_are_not_booked_as_posted() -> None:
    """PayPal's `Denied` never moved money; Consorsbank's `Umsatz geplant: Ja` has not happened yet."""
    paypal = parse_text(
        "Date,Name,Status,Currency,Gross\n01/03/2025,Coffee Shop,Completed,USD,-4.50\n"
        "01/04/2025,Gadget Store,Denied,USD,-199.00\n01/05/2025,Friend,Completed,USD,20.00\n"
    )
    assert [t.amount for t in paypal.transactions] == [-450, 2000] and paypal.skipped_reverted == 1
    planned = parse_text(
        "Buchung;Sender / Empfänger;Umsatz geplant;Betrag;Währung\n03.03.2025;Miete;Ja;-1.150,00;EUR\n"
        "15.02.2025;Miete;Nein;-1.150,00;EUR\n"
    )
    assert [(t.amount, t.pending) for t in planned.transactions] == [(-115000, True), (-115000, False)]


def test_paypal_memo_rows_never_move_money_in_english_german_or_french() -> None:
    """A `Memo` balance impact (an authorization before its payment, an order, a dispute hold)
    is `Completed` yet moves nothing: left out as a reverted row is, and the balance chain holds."""
    english = parse_text(
        '"Date","Time","TimeZone","Name","Type","Status","Currency","Gross","Fee","Net","Transaction ID","Balance","Balance Impact"\n'
        '"02/01/2025","10:00:00","GMT","Shop","General Authorization","Completed","GBP","-50.00","0.00","-50.00","3AA","0.00","Memo"\n'
        '"04/01/2025","10:00:00","GMT","Shop","Express Checkout Payment","Completed","GBP","-50.00","0.00","-50.00","3AB","-50.00","Debit"\n'
        '"04/01/2025","10:00:00","GMT","","Bank Deposit to PP Account","Completed","GBP","50.00","0.00","50.00","3AC","0.00","Credit"\n'
        '"06/01/2025","10:00:00","GMT","Seller","Order","Completed","GBP","-30.00","0.00","-30.00","3AD","0.00","Memo"\n'
        '"08/01/2025","10:00:00","GMT","","Hold on Balance for Dispute Investigation","Completed","GBP","-20.00","0.00","-20.00","3AE","0.00","Memo"\n'
    )
    assert [(t.line, t.posted, t.amount, t.balance) for t in english.transactions] == [
        (3, date(2025, 1, 4), -5000, -5000), (4, date(2025, 1, 4), 5000, 0),
    ]
    assert english.skipped_reverted == 3 and english.skipped_pending == 0
    german = parse_text(
        '"Datum","Uhrzeit","Name","Typ","Status","Währung","Brutto","Gebühr","Netto","Transaktionscode","Guthaben","Auswirkung auf Guthaben"\n'
        '"03.01.2025","10:12:45","Spotify AB","Allgemeine Autorisierung","Abgeschlossen","EUR","-10,99","0,00","-10,99","1AA","0,00","Memo"\n'
        '"05.01.2025","10:12:45","Spotify AB","Zahlung im Einzugsverfahren","Abgeschlossen","EUR","-10,99","0,00","-10,99","1AB","-10,99","Soll"\n'
        '"05.01.2025","10:12:45","","Bankgutschrift auf PayPal-Konto","Abgeschlossen","EUR","10,99","0,00","10,99","1AC","0,00","Haben"\n'
    )
    assert [(t.line, t.posted, t.amount, t.balance) for t in german.transactions] == [
        (3, date(2025, 1, 5), -1099, -1099), (4, date(2025, 1, 5), 1099, 0),
    ]
    assert german.skipped_reverted == 1
    french = parse_text(
        '"Date","Heure","Fuseau horaire","Nom","Type","État","Devise","Avant commission","Commission","Net","Numéro de transaction",'
        '"Solde","Impact sur le solde"\n'
        '"03/01/2025","10:12:45","CET","Spotify AB","Autorisation générale","Terminé","EUR","-10,99","0,00","-10,99","2AA","0,00","Mémo"\n'
        '"05/01/2025","10:12:45","CET","Fnac","Paiement","En attente","EUR","-25,00","0,00","-25,00","2AB","0,00","Débit"\n'
        '"06/01/2025","10:12:45","CET","Darty","Paiement","Annulé","EUR","-15,00","0,00","-15,00","2AC","0,00","Débit"\n'
    )
    assert [(t.amount, t.pending) for t in french.transactions] == [(-2500, True)] and french.skipped_reverted == 2
    for pending, cancelled in (("In sospeso", "Annullato"), ("In behandeling", "Geannuleerd"), ("Oczekująca", "Anulowano")):
        other = parse_text('"Date","Name","Status","Currency","Net"\n"2025-01-05","Shop","{}","EUR","-25.00"\n'
                           '"2025-01-06","Shop","{}","EUR","-15.00"\n'.format(pending, cancelled))
        assert [(t.amount, t.pending) for t in other.transactions] == [(-2500, True)] and other.skipped_reverted == 1



def test_an_expired_hold_is_never_booked() -> None:
    result = parse_text("Date,Description,Amount,Status\n2025-03-04,HOTEL HOLD,-100.00,Expired\n2025-03-07,TARGET,-15.00,Posted\n")
    assert [t.amount for t in result.transactions] == [-1500] and result.skipped_reverted == 1


VIRGIN_MONEY_CARD = (
    "Transaction Date,Posting Date,Billing Amount,Merchant,Merchant City,Merchant State,Merchant Postcode,Reference Number,"
    "Debit or Credit,SICMCC Code,Status,Transaction Currency,Additional Card Holder,Card Used\n"
    "28/01/2025,29/01/2025,12.50,TESCO STORES,LONDON,,SW1,74064493002820133211288,DBIT,5411,BILLED,GBP,No,1234\n"
    "20/01/2025,21/01/2025,500.00,PAYMENT RECEIVED,,,,74064493002820133211289,CRDT,0,BILLED,GBP,No,1234\n"
    "15/01/2025,16/01/2025,45.99,AMAZON,LONDON,,SW1,74064493002820133211290,DBIT,5942,BILLED,GBP,No,1234\n"
    "12/01/2025,14/01/2025,21.37,LE BISTRO,PARIS,,,74064493002820133211292,DBIT,5812,BILLED,EUR,No,1234\n"
    "30/01/2025,,8.00,COSTA,LONDON,,SW1,74064493002820133211291,DBIT,5814,PENDING,GBP,No,1234\n"
)


def test_a_virgin_money_card_signs_by_its_iso_flags_holds_its_pending_rows_and_bills_in_pounds() -> None:
    """`Billing Amount` unsigned, `Debit or Credit` DBIT/CRDT (ISO 20022's codes), `Status`
    BILLED/PENDING; `Transaction Currency` is what each purchase was paid in, mostly the card's own."""
    result = parse_text(VIRGIN_MONEY_CARD)
    assert [(t.posted, t.amount, t.pending, t.description) for t in result.transactions] == [
        (date(2025, 1, 29), -1250, False, "TESCO STORES"), (date(2025, 1, 21), 50000, False, "PAYMENT RECEIVED"),
        (date(2025, 1, 16), -4599, False, "AMAZON"), (date(2025, 1, 14), -2137, False, "LE BISTRO"),
        (date(2025, 1, 30), -800, True, "COSTA"),
    ]
    assert {t.currency for t in result.transactions} == {None}  # each in the account's pounds
    (account,) = result.accounts
    assert (account.type, account.currency, account.currency_stated) == ("credit_card", "GBP", True)
    assert result.warnings == []


def test_a_purchase_currency_named_only_abroad_leaves_the_account_in_its_own() -> None:
    """Mercury's `Original Currency` is blank on every row but a purchase abroad: the blanks are the
    account's own currency, which the file leaves unsaid (the user's `--currency`, else dollars,
    said so); with no original amount the foreign row keeps no original of its own. A column that
    names one currency on every row is the account's."""
    text = ("Date,Description,Amount,Original Currency\n01/31/2025,Stripe,4210.55,\n01/15/2025,Figma,-45.00,\n"
            "01/10/2025,OVH SAS,-102.33,EUR\n")
    result = parse_text(text)
    assert [(t.posted, t.amount, t.currency, t.original_amount, t.original_currency) for t in result.transactions] == [
        (date(2025, 1, 31), 421055, None, None, None), (date(2025, 1, 15), -4500, None, None, None),
        (date(2025, 1, 10), -10233, None, None, None),
    ]
    (account,) = result.accounts
    assert (account.currency, account.currency_stated) == ("USD", False)
    assert GENERIC.parse(text, "mercury.csv", currency="CAD").accounts[0].currency == "CAD"
    with_original = parse_text(
        "Date,Description,Amount,Original Amount,Original Currency\n01/31/2025,Stripe,4210.55,,\n"
        "01/10/2025,OVH SAS,-102.33,-94.50,EUR\n"
    )
    assert [(t.amount, t.original_amount, t.original_currency) for t in with_original.transactions] == [
        (421055, None, None), (-10233, -9450, "EUR"),
    ]
    assert with_original.accounts[0].currency == "USD"
    euros = parse_text("Date,Description,Amount,Original Currency\n31/01/2025,Stripe,4210.55,EUR\n15/01/2025,Figma,-45.00,EUR\n")
    assert [(t.posted, t.amount, t.currency) for t in euros.transactions] == [(date(2025, 1, 31), 421055, None), (date(2025, 1, 15), -4500, None)]
    assert (euros.accounts[0].currency, euros.accounts[0].currency_stated) == ("EUR", True)
    # A card naming pounds on every purchase, and nothing on its payment (`CRDT`), is in pounds.
    pounds = parse_text("Date,Description,Billing Amount,Debit or Credit,Transaction Currency\n28/01/2025,TESCO,12.50,DBIT,GBP\n"
                        "20/01/2025,PAYMENT RECEIVED,500.00,CRDT,\n15/01/2025,AMAZON,45.99,DBIT,GBP\n")
    assert (pounds.accounts[0].currency, pounds.accounts[0].currency_stated) == ("GBP", True)
    assert [t.amount for t in pounds.transactions] == [-1250, 50000, -4599]


def test_iso_debit_and_credit_codes_and_tesco_banks_flag_column_sign_unsigned_amounts() -> None:
    camt = parse_text(
        "Booking Date;Amount;Currency;Credit Debit Indicator;Remittance Information\n"
        "2025-03-03;1.234,56;EUR;CRDT;SALARY MARCH\n2025-03-04;45,10;EUR;DBIT;REWE SAGT DANKE\n"
    )
    assert [(t.posted, t.amount) for t in camt.transactions] == [(date(2025, 3, 3), 123456), (date(2025, 3, 4), -4510)]
    tesco = parse_text(
        "Transaction Date, Posting Date, Billing Amount, Merchant, Merchant City , Merchant State , Merchant Zip ,"
        " Reference Number , Debit/Credit Flag , SICMCC Code\n"
        '21/10/2012,22/10/2012,£3.95,"COSTA COFFEE","STAINES",,TW18 4WB,55541962296544000080771,D,5812\n'
        '15/10/2012,16/10/2012,£200.00,"PAYMENT THANK YOU","",,,55541962296544000080772,C,0\n'
        '05/10/2012,06/10/2012,"£1,234.56","CURRYS","LONDON",,SW1,55541962296544000080773,D,5732\n'
    )
    assert [(t.posted, t.amount) for t in tesco.transactions] == [
        (date(2012, 10, 22), -395), (date(2012, 10, 16), 20000), (date(2012, 10, 6), -123456),
    ]
    assert (tesco.accounts[0].type, tesco.accounts[0].currency) == ("credit_card", "GBP")


def test_a_ubs_collective_orders_single_payments_are_detail_lines_not_errors() -> None:
    """UBS books an `e-banking-Sammelauftrag` once, then lists its parts with only an `Einzelbetrag`."""
    result = parse_text(
        "\ufeffKontonummer:;0123 00123456.40;\nIBAN:;CH12 0023 3233 1234 5678 A;\nBewertet in:;CHF;\n\n"
        "Abschlussdatum;Abschlusszeit;Buchungsdatum;Valutadatum;Währung;Belastung;Gutschrift;Einzelbetrag;Saldo;Transaktions-Nr.;"
        "Beschreibung1;Beschreibung2;Beschreibung3;Fussnoten;\n"
        "2025-01-31;;2025-01-31;2025-01-31;CHF;;2345.67;;3320.67;9930031TI0000001;ACME AG;Lohn;;;\n"
        "2025-01-15;;2025-01-15;2025-01-15;CHF;-25.00;;;975.00;9930031TI0000002;e-banking-Sammelauftrag;;;;\n"
        "2025-01-15;;;;CHF;;;-10.00;;9930031TI0000003;Stadtwerke;Rechnung 1;;;\n"
        "2025-01-15;;;;CHF;;;-15.00;;9930031TI0000004;Swisscom;Rechnung 2;;;\n"
    )
    assert [(t.line, t.posted, t.amount, t.balance) for t in result.transactions] == [
        (6, date(2025, 1, 31), 234567, 332067), (7, date(2025, 1, 15), -2500, 97500),
    ]
    assert result.errors == [] and result.skipped_pending == 0
    assert result.warnings == ["lines 8, 9: skipped as a collective order's single payments (its total is booked)"]
    assert result.accounts[0].currency == "CHF"


def test_a_foreign_amount_written_with_its_currency_code_is_the_original() -> None:
    """ANZ NZ's `ForeignCurrencyAmount` holds `EUR 135.00`."""
    result = parse_text(
        "Type,Details,Amount,Date,ForeignCurrencyAmount\nVisa Purchase,Countdown,-87.65,03/03/2025,\n"
        "Visa Purchase,Booking.com,-245.12,06/03/2025,EUR 135.00\n"
    )
    assert [(t.original_amount, t.original_currency) for t in result.transactions] == [(None, None), (-13500, "EUR")]


def test_a_lloyds_card_file_of_purchases_alone_is_told_by_its_columns() -> None:
    """Lloyds, Halifax and Bank of Scotland cards write charges positive under `Date entered`;
    a month without a payment has nothing else to show it."""
    result = parse_text(
        "Date,Date entered,Reference,Description,Amount\n22/01/2025,23/01/2025,24492155000000,DELIVEROO LONDON,23.45\n"
        "09/01/2025,10/01/2025,24492155000001,TRAINLINE.COM LONDON,67.90\n"
    )
    assert [t.amount for t in result.transactions] == [-2345, -6790]
    assert (result.accounts[0].type, result.accounts[0].currency, result.accounts[0].currency_stated) == ("credit_card", "GBP", True)


def test_a_quicken_reports_inflow_outflow_and_net_totals_are_skipped_with_a_warning() -> None:
    result = parse_text(
        '"Transaction Report"\n"1/1/2025 through 1/31/2025"\n""\n'
        '"","Date","Account","Num","Description","Memo","Category","Tag","Clr","Amount"\n'
        '"","1/5/2025","Checking","","SAFEWAY","","Groceries","","R","-87.34"\n'
        '"","1/7/2025","Checking","","ACME PAYROLL","","Salary","","R","3,120.50"\n""\n'
        '"","","","","","","","","TOTAL INFLOWS","3,120.50"\n"","","","","","","","","TOTAL OUTFLOWS","-87.34"\n""\n'
        '"","","","","","","","","NET TOTAL","3,033.16"\n'
    )
    assert [t.amount for t in result.transactions] == [-8734, 312050] and not result.errors
    assert sum("a totals line" in w for w in result.warnings) == 3


def test_a_card_month_with_as_many_payments_as_charges_is_still_a_card() -> None:
    """The payments are left out of the share of positive rows that makes a file a card's."""
    result = parse_text(
        "Posted Date,Payee,Address,Amount\n01/03/2025,SHELL OIL,\"HOUSTON, TX\",52.10\n01/05/2025,ONLINE PYMT RECEIVED,,-300.00\n"
        "01/06/2025,WHOLEFDS,\"AUSTIN, TX\",88.43\n01/07/2025,WHOLEFDS REFUND,\"AUSTIN, TX\",-10.00\n01/20/2025,ONLINE PYMT RECEIVED,,-150.00\n"
    )
    assert [t.amount for t in result.transactions] == [-5210, 30000, -8843, 1000, 15000]
    assert result.accounts[0].type == "credit_card"


def test_a_swedish_valuta_column_of_currency_codes_is_the_currency_not_a_date() -> None:
    result = parse_text(
        "Bokföringsdag;Belopp;Avsändare;Mottagare;Namn;Rubrik;Saldo;Valuta\n"  # Nordea SE's layout, a euro account
        "2025/03/12;-234,50;;;;ICA NARA STOCKHOLM;30970,60;EUR\n"
        "2025/03/04;25000,00;;;ACME AB;LÖN;31205,10;EUR\n"
    )
    assert result.accounts[0].currency == "EUR" and result.accounts[0].currency_stated
    assert [(t.posted, t.amount) for t in result.transactions] == [(date(2025, 3, 12), -23450), (date(2025, 3, 4), 2500000)]
    assert not any("states no currency" in w for w in result.warnings)


def test_labels_over_their_values_above_the_header_name_the_account_and_currency() -> None:
    postbank = parse_text(
        "Umsätze\n"
        "Konto;Filter;Zeitraum\n"  # a line of labels over a line of values
        "Girokonto - DE12100100100123456789;Alle Umsätze;01.03.2025 - 15.03.2025\n"
        "Buchungstag;Wert;Umsatzart;Begünstigter / Auftraggeber;Verwendungszweck;Betrag (€)\n"
        "12.3.2025;12.3.2025;Lastschrift;BVG;BVG Abo;-86,00 €\n"
    )
    assert (postbank.accounts[0].name, postbank.accounts[0].number) == ("Girokonto …6789", "DE12100100100123456789")
    mbank = parse_text(
        "#Numer rachunku;\n12 1140 2004 0000 3402 1234 5678;\n;\n#Waluta;\nPLN;\n;\n"  # each label over its value
        "#Data operacji;#Opis operacji;#Kwota;#Saldo po operacji;\n"
        "2025-03-12;BIEDRONKA 1234 WARSZAWA;-234,50;30 970,60;\n"
    )
    assert (mbank.accounts[0].currency, mbank.accounts[0].number) == ("PLN", "12114020040000340212345678")
    assert mbank.transactions[0].amount == -23450
    paired = parse_text(  # a label and its value on one line, over the next: no labels over values
        "Account Name,Joint Checking\nPeriod,January 2025\n\nDate,Description,Amount\n01/12/2025,REWE,-23.45\n"
    )
    assert paired.accounts[0].name == "Joint Checking"
    postbank = parse_text(  # a product alone over a labelled line is no label over its value
        "Umsätze\nGirokonto\nIBAN: DE12 1001 0010 1234 5678 90\n\n"
        '"Buchungstag";"Wertstellung";"Umsatzart";"Buchungsdetails";"Betrag (€)"\n"02.01.2019";"02.01.2019";"Gutschrift";"Gehalt";"1.000,00 €"\n'
    )
    assert postbank.accounts[0].name is None


def test_norwegian_withdrawal_and_deposit_columns_are_kroner() -> None:
    result = parse_text(
        '"Dato";"Forklaring";"Rentedato";"Uttak fra konto";"Innskudd på konto"\n'  # DNB
        '"12.03.2025";"Varekjøp REMA 1000 OSLO";"12.03.2025";"234,50";""\n'
        '"04.03.2025";"Lønn ACME AS";"04.03.2025";"";"25 000,00"\n'
    )
    assert result.accounts[0].currency == "NOK"
    assert [t.amount for t in result.transactions] == [-23450, 2500000]


def test_a_running_balance_per_currency_makes_an_account_per_currency() -> None:
    result = GENERIC.parse(
        '"TransferWise ID",Date,Amount,Currency,Description,"Running Balance"\n'  # Wise's statement of all balances
        'CARD-1001,14-03-2025,-12.00,GBP,"Card transaction of 12.00 GBP issued by Pret LONDON",73.20\n'
        'CARD-1000,12-03-2025,-23.45,EUR,"Card transaction of 23.45 EUR issued by Lidl BERLIN",876.55\n'
        'BALANCE-999,10-03-2025,85.20,GBP,"Converted 100.00 EUR to 85.20 GBP",85.20\n'
        'BALANCE-999,10-03-2025,-100.00,EUR,"Converted 100.00 EUR to 85.20 GBP",900.00\n'
        'TRANSFER-555,04-03-2025,1000.00,EUR,"Received money from ACME GMBH",1000.00\n',
        "wise_all.csv",
    )
    accounts = {a.key: (a.name, a.number, a.currency) for a in result.accounts}
    assert accounts == {"GBP": ("wise all GBP", None, "GBP"), "EUR": ("wise all EUR", None, "EUR")}
    assert [(t.account_key, t.amount) for t in result.transactions] == [
        ("GBP", -1200), ("EUR", -2345), ("GBP", 8520), ("EUR", -10000), ("EUR", 100000),
    ]


def test_a_crypto_exchanges_history_is_refused_not_read_as_money(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from wilson.importers.formats import parse_file

    coinbase = tmp_path / "coinbase.csv"
    coinbase.write_text(
        "Transactions\nUser,Jane Doe,a1b2c3d4\n"
        "ID,Timestamp,Transaction Type,Asset,Quantity Transacted,Price Currency,Price at Transaction,Subtotal,Total,Fees,Notes\n"
        "1,2025-03-01 10:00:00 UTC,Deposit,USD,500,USD,$1.00,$500.00,$500.00,$0.00,Deposit from Chase Bank\n"
        '2,2025-03-02 10:00:00 UTC,Buy,BTC,0.005,USD,"$60,000.00",$300.00,$304.50,$4.50,Bought 0.005 BTC\n'
    )
    with pytest.raises(ImportRefused, match=r"crypto exchange's history \(it trades BTC\)"):
        parse_file(coinbase)
    bitstamp = tmp_path / "bitstamp.csv"  # coins beside amounts
    bitstamp.write_text('Type,Datetime,Account,Amount,Value\nDeposit,"Mar. 01, 2025",Main Account,1000.00 EUR,\n'
                        'Market,"Mar. 02, 2025",Main Account,0.01000000 BTC,850.00 EUR\n')
    with pytest.raises(ImportRefused, match="trades BTC"):
        parse_file(bitstamp)
    broker = tmp_path / "broker.csv"  # tickers, cash and accounts are no coins
    broker.write_text("Date,Description,Asset,Amount,Balance\n2025-03-03,Buy,AAPL,-1750.00,3250.00\n2025-03-10,Interest,CASH,12.40,3262.40\n")
    assert [t.amount for t in parse_file(broker).transactions] == [-175000, 1240]
    kraken = tmp_path / "ledgers.csv"  # Kraken writes its fiat ZEUR, its coins XXBT
    kraken.write_text('"txid","time","type","asset","amount","fee","balance"\n"L1","2025-03-01 10:00:00","deposit","ZEUR",500.0,0.0,500.0\n'
                      '"L2","2025-03-02 10:00:00","trade","XXBT",0.05,0.0,0.05\n')
    with pytest.raises(ImportRefused, match="trades XXBT"):
        parse_file(kraken, "generic_csv")


def test_a_booking_day_without_a_year_takes_its_value_dates() -> None:
    result = parse_text(
        '"Auftragskonto";"Buchungstag";"Valutadatum";"Verwendungszweck";"Beguenstigter/Zahlungspflichtiger";"Betrag";"Waehrung"\n'
        '"5407324931";"02.01.";"31.12.99";"Zinsen";"";"1,20";"EUR"\n'  # Sparkasse's CSV-MT940: a new year between them
        '"5407324931";"30.12.";"30.12.99";"BVG Abo";"BVG";"-86,00";"EUR"\n'
    )
    assert [(t.posted, t.amount) for t in result.transactions] == [(date(2000, 1, 2), 120), (date(1999, 12, 30), -8600)]
    assert (result.transactions[1].description, result.transactions[1].payee) == ("BVG Abo", "BVG")



def test_a_payment_thanked_for_coming_in_makes_the_account_a_card() -> None:
    synchrony = parse_text(  # charges written negative: no sign reading tells it is a card
        "Date,Reference Number,Description,Amount\n03/02/2025,851630150610001,AMAZON MARKETPLACE,-52.30\n"
        "03/05/2025,851630150640002,PAYMENT - THANK YOU,150.00\n03/11/2025,851630150700004,INTEREST CHARGE ON PURCHASES,-4.21\n"
    )
    assert synchrony.accounts[0].type == "credit_card"
    checking = parse_text(
        "Date,Description,Amount\n03/02/2025,CHASE CREDIT CRD AUTOPAY PAYMENT THANK YOU,-150.00\n03/04/2025,PAYROLL,900.00\n"
        "03/05/2025,SHELL OIL,-40.00\n03/06/2025,WHOLE FOODS,-62.10\n"
    )
    assert checking.accounts[0].type == "checking"  # the payment goes out of it


def test_one_running_balance_through_rows_of_several_currencies_is_one_account() -> None:
    result = parse_text(  # a euro card naming each purchase's own currency; its balance runs through every row
        "Date,Description,Payment currency,Original amount,Amount,Balance\n"
        "2025-03-01,HOTEL LONDON,GBP,120.00,-142.50,857.50\n2025-03-03,CAFE,EUR,30.00,-30.00,827.50\n"
        "2025-03-05,AMAZON.COM,USD,50.00,-46.10,781.40\n2025-03-07,SALARY,EUR,500.00,500.00,1281.40\n"
    )
    assert len(result.accounts) == 1
    assert [(t.amount, t.currency, t.original_amount, t.original_currency) for t in result.transactions][:3] == [
        (-14250, None, -12000, "GBP"), (-3000, None, None, None), (-4610, None, -5000, "USD"),
    ]


@pytest.mark.parametrize(
    "text, expected",
    [
        (  # C6 Bank: money in and money out in Portuguese, in reais
            "Data Lançamento,Data Contábil,Título,Descrição,Entrada(R$),Saída(R$),Saldo do Dia(R$)\n"
            "28/03/2025,28/03/2025,Compra débito,PAO DE ACUCAR,0.00,45.67,1954.33\n25/03/2025,25/03/2025,Pix recebido,ACME LTDA,2000.00,0.00,2000.00\n",
            [("PAO DE ACUCAR", -4567), ("ACME LTDA", 200000)],
        ),
        (  # M-Pesa: `Completion Time`, `Paid In` and `Withdrawn`
            "Receipt No.,Completion Time,Details,Transaction Status,Paid In,Withdrawn,Balance\n"
            "SCS1ABC,2025-03-28 18:12:01,Merchant Payment to 123456 - NAIVAS,Completed,,1234.00,8766.00\n"
            "SCR2DEF,2025-03-25 09:00:00,Funds received from JOHN DOE,Completed,10000.00,,10000.00\n",
            [("Merchant Payment to 123456 - NAIVAS", -123400), ("Funds received from JOHN DOE", 1000000)],
        ),
        (  # Metro Bank: the reference is the only text beside a type
            "Date,Reference,Transaction Type,Money In,Money Out,Balance\n"
            '20/03/2025,SAINSBURYS S/MKTS,Card Payment,,£56.44,"£1,234.56"\n15/03/2025,ACME LTD SALARY,Faster Payment,"£1,100.00",,"£1,291.00"\n',
            [("SAINSBURYS S/MKTS", -5644), ("ACME LTD SALARY", 110000)],
        ),
        (  # China Merchants Bank: the remark, not the type
            "交易日期,交易时间,收入,支出,余额,交易类型,交易备注\n"
            '"2025-03-25","09:00:00","20000.00","","20000.00","代发工资","ACME工资"\n"2025-03-28","18:12:01","","45.67","19954.33","快捷支付","美团外卖"\n',
            [("ACME工资", 2000000), ("美团外卖", -4567)],
        ),
    ],
)
def test_more_banks_money_columns_and_texts(text: str, expected: list[tuple[str, int]]) -> None:
    assert [(t.description, t.amount) for t in parse_text(text).transactions] == expected


def test_a_bank_dialect_that_sells_coins_is_read_and_a_french_statements_own_lines_are_balances(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from wilson.importers.formats import parse_file

    cash_app = tmp_path / "cash_app_report.csv"  # Cash App's own layout: a bitcoin buy costs dollars
    cash_app.write_text(
        "Transaction ID,Date,Transaction Type,Currency,Amount,Fee,Net Amount,Asset Type,Asset Price,Asset Amount,Status,Notes,"
        "Name of sender/receiver,Account\n"
        "abc1,2025-03-05 10:00:00 EST,Bitcoin Buy,USD,-$20,-$0.35,-$20.35,BTC,\"$85,000\",0.00023529,COMPLETE,,,Cash\n"
        "abc2,2025-03-07 10:00:00 EST,Deposits,USD,\"$1,200\",$0,\"$1,200\",,,,COMPLETE,,ACME PAYROLL,Cash\n"
    )
    assert [t.amount for t in parse_file(cash_app).transactions] == [-2035, 120000]
    caisse = tmp_path / "caisse.csv"  # Caisse d'Épargne: `Devise : EUR` in a cell, balances above and below
    caisse.write_text(
        "Numéro de compte : 01234567890;Nom du compte : COMPTE CHEQUE;Devise : EUR;;;\nSolde en fin de période;;;;1 234,56;\n"
        "Date;Numéro d'opération;Libellé;Débit;Crédit;Détail;\n28/03/25;1234567;CB CARREFOUR;-56,10;;CB CARREFOUR FACT;\n"
        "20/03/25;1234566;VIR SEPA ACME;;2 100,00;VIR SEPA ACME SALAIRE;\nSolde en début de période;;;;-809,34;\n", encoding="latin-1"
    )
    result = parse_file(caisse)
    assert (result.accounts[0].currency, result.accounts[0].currency_stated, result.accounts[0].balance) == ("EUR", True, 123456)
    assert [t.amount for t in result.transactions] == [-5610, 210000] and not result.errors


def test_german_layouts_of_several_accounts_cards_and_stated_balances(tmp_path) -> None:  # type: ignore[no-untyped-def]
    volksbank = parse_text(  # VR-Banking: each row names its own account, and the Tagesgeld is savings
        "Bezeichnung Auftragskonto;IBAN Auftragskonto;Buchungstag;Name Zahlungsbeteiligter;Verwendungszweck;Betrag;Waehrung;Saldo nach Buchung\n"
        "Girokonto;DE02600901000123456789;15.01.2025;;Umbuchung Tagesgeld;-500,00;EUR;2.476,55\n"
        "Tagesgeld;DE02600901000987659999;15.01.2025;;Umbuchung Girokonto;500,00;EUR;5.500,00\n"
    )
    assert sorted((a.number, a.type) for a in volksbank.accounts) == [
        ("DE02600901000123456789", "checking"), ("DE02600901000987659999", "savings"),
    ]
    card = parse_text(  # Sparkasse's card statement: the card that paid, the booked amount and its text
        "Umsatz getätigt von;Belegdatum;Buchungsdatum;Originalbetrag;Originalwährung;Buchungsbetrag;Buchungswährung;Transaktionsbeschreibung\n"
        '5490 0602 0100 7853;20.01.25;22.01.25;"100,00";USD;"-96,04";EUR;AMAZON.COM SEATTLE\n'
    )
    assert card.accounts[0].type == "credit_card"
    assert [(t.amount, t.original_amount, t.original_currency, t.description) for t in card.transactions] == [
        (-9604, -10000, "USD", "AMAZON.COM SEATTLE"),
    ]
    balanced = parse_text(  # a currency column of one currency still lets the stated balances count
        '"Buchungstag";"Valuta";"Textschlüssel";"Empfänger/Zahlungspflichtiger";"Vorgang/Verwendungszweck";"Währung";"Umsatz";" "\n'
        '"02.01.2019";"02.01.2019";"";"ACME";"Gehalt";"EUR";"1.000,00";"H"\n'
        '"31.01.2019";"";"";"";"Anfangssaldo";"EUR";"1.000,00";"H"\n"31.01.2019";"";"";"";"Endsaldo";"EUR";"9.999,99";"H"\n'
    )
    assert balanced.accounts[0].balance == 999999
    assert "the rows add up to 1000.00, but the statement's balance goes from 1000.00 to 9999.99" in balanced.warnings


def test_an_amount_in_the_accounts_currency_beside_the_paid_one_is_the_amount() -> None:
    """`Amount;Currency;Amount in EUR` (ING NL's `Bedrag in EUR`): the euros left the account, the
    dollars were paid at the shop."""
    for header in ("Date,Description,Currency,Amount,Exchange Rate,Amount in EUR", "Datum,Omschrijving,Valuta,Bedrag,Koers,Bedrag in EUR"):
        result = parse_text(f"{header}\n23/11/2026,ALBERT HEIJN,EUR,-45.50,,-45.50\n02/11/2026,AMAZON.COM SEATTLE,USD,-13.50,1.1612,-11.63\n")
        assert result.accounts[0].currency == "EUR"
        paid = [(t.amount, t.original_amount, t.original_currency) for t in result.transactions]
        assert paid[1] == (-1163, -1350, "USD") and paid[0][0] == -4550


def test_postfinance_value_date_beside_its_credit_and_debit_columns() -> None:
    result = parse_text(
        "Booking date;Notification text;Credit in CHF;Debit in CHF;Value;Balance in CHF\n"
        "13.11.2026;CREDIT ACME AG SALARY;2500.00;;13.11.2026;3765.44\n02.11.2026;E-FINANCE ORDER RENT;;-1265.44;02.11.2026;1265.44\n"
    )
    assert [(t.posted, t.amount) for t in result.transactions] == [(date(2026, 11, 13), 250000), (date(2026, 11, 2), -126544)]
    assert result.accounts[0].currency == "CHF"


def test_westpacs_bank_account_column_keeps_each_account_apart() -> None:
    result = parse_text(
        "Bank Account,Date,Narrative,Debit Amount,Credit Amount,Balance,Categories,Serial\n"
        "732000123456,13/11/2026,DEPOSIT ACME PTY LTD SALARY,,2500.00,3765.44,INT,\n"
        "732000654321,02/11/2026,DEPOSIT ONLINE FROM 732000123456,,5000.00,5000.00,TFR,\n"
    )
    assert sorted(account.key for account in result.accounts) == ["732000123456", "732000654321"]


def test_a_description_column_named_otherwise_is_still_read_and_said() -> None:
    result = parse_text("Date,Merchant Info Thing,Amount\n2026-11-02,AMAZON MKTPLACE,-12.50\n2026-11-03,PAYROLL ACME,2500.00\n")
    assert [t.description for t in result.transactions] == ["AMAZON MKTPLACE", "PAYROLL ACME"]
    assert result.warnings == ["no column is named as the description: 'Merchant Info Thing' is read as it"]


def test_a_quote_never_closed_loses_no_row() -> None:
    """An exporter that does not escape a description's `"`: the rows its quote would swallow are
    rows of their own, each read from its line, and the summary says so."""
    rows = [f"2025-04-{day:02d},SHOP {day},-{day}.{day:02d}" for day in range(1, 21)]
    rows[4], rows[11] = '2025-04-05,"12 INCH PIZZA,-5.05', '2025-04-12,6 INCH SUB",-12.12'
    twice = parse_text("Date,Description,Amount\n" + "\n".join(rows) + "\n")
    assert [t.amount for t in twice.transactions][3:13] == [-404, -505, -606, -707, -808, -909, -1010, -1111, -1212, -1313]
    assert twice.transactions[4].description == '"12 INCH PIZZA' and not twice.errors
    assert twice.warnings[0] == "line 6: a quote opened here is never closed; lines 6–13 are read a row each, the quote kept as text"
    once = parse_text("Date,Description,Amount\n" + "\n".join(rows[:11] + rows[12:]) + "\n")
    assert len(once.transactions) == 19 and not once.errors
    rows[7] = '2025-04-08,"WALMART, 12","-1,234.56"'  # quoted as it should be, inside the stray quote's reach
    quoted = parse_text("Date,Description,Amount\n" + "\n".join(rows) + "\n")
    assert (quoted.transactions[7].description, quoted.transactions[7].amount) == ("WALMART, 12", -123456) and not quoted.errors


def test_a_field_running_over_lines_stays_one_field() -> None:
    """Amex's address cells run over two lines; their lines read as no row of the file's."""
    result = parse_text('Date,Description,Address,Amount\n03/01/2025,UBER TRIP,"1455 MARKET ST\nSAN FRANCISCO CA",-18.20\n03/02/2025,LYFT,"",-9.10\n')
    assert [(t.description, t.amount) for t in result.transactions] == [("UBER TRIP", -1820), ("LYFT", -910)] and not result.warnings


def test_a_balances_own_debit_credit_flag_signs_it() -> None:
    """Kotak writes `Amount,Dr / Cr,Balance,Dr / Cr`: an overdrawn balance is flagged DR beside it."""
    result = parse_text(
        "Sl. No.,Transaction Date,Value Date,Description,Chq / Ref No.,Amount,Dr / Cr,Balance,Dr / Cr\n"
        '1,02-11-2026,02-11-2026,NEFT ACME PVT LTD SALARY NOV,CITIN26111312345,"10,000.00",CR,"10,000.00",CR\n'
        '2,13-11-2026,13-11-2026,UPI/RAMESH KUMAR/RENT,UPI-612345678901,"12,000.00",DR,"2,000.00",DR\n'
        '3,23-11-2026,23-11-2026,PCD/1234/BIGBAZAAR MUMBAI,PCD123456,"4,550.00",DR,"6,550.00",DR\n'
    )
    assert [(t.amount, t.balance) for t in result.transactions] == [(1000000, 1000000), (-1200000, -200000), (-455000, -655000)]
    assert not any("running balance" in w for w in result.warnings)


def test_a_bank_account_column_beside_a_payee_is_the_payees() -> None:
    result = parse_text(
        "Date,Payee Name,Sort Code,Bank Account,Reference,Amount\n"
        "01/03/2025,J SMITH PLUMBING,20-00-00,12345678,INV 1,-250.00\n05/03/2025,ACME SUPPLIES LTD,40-11-22,87653344,PO 7,-99.00\n"
    )
    assert len(result.accounts) == 1 and [t.description for t in result.transactions][0].startswith("J SMITH PLUMBING")


def test_the_unnamed_column_of_most_different_words_is_the_description() -> None:
    result = parse_text("Date,Amount,Shop,City\n2025-03-01,-18.20,UBER,SAN FRANCISCO CA USA\n"
                        "2025-03-01,-9.10,LYFT,SAN FRANCISCO CA USA\n2025-03-02,-5.75,BLUE BOTTLE,SAN FRANCISCO CA USA\n")
    assert [t.description for t in result.transactions] == ["UBER", "LYFT", "BLUE BOTTLE"]


def test_an_amount_named_in_a_currency_is_the_accounts_in_either_order_unless_every_row_says_another() -> None:
    named_first = parse_text("Date,Description,Amount (EUR),Amount,Currency\n03/01/2025,HOTEL LONDON,-117.40,-100.00,GBP\n"
                             "03/02/2025,CAFE PARIS,-4.50,-4.50,EUR\n")
    assert [(t.amount, t.original_amount, t.original_currency) for t in named_first.transactions][0] == (-11740, -10000, "GBP")
    shown = parse_text("Date,Description,Amount,Currency,Amount (USD)\n03/01/2025,REWE BERLIN,-50.00,EUR,-54.10\n"
                       "03/02/2025,GEHALT,3000.00,EUR,3246.00\n")
    assert shown.accounts[0].currency == "EUR" and [t.amount for t in shown.transactions] == [-5000, 300000]


def test_a_virgin_money_month_abroad_is_billed_in_the_pounds_its_payment_names() -> None:
    """Most purchases in euros: the account's currency is the one the card's payment names."""
    holiday = VIRGIN_MONEY_CARD.replace(",GBP,No", ",EUR,No").replace("CRDT,0,BILLED,EUR", "CRDT,0,BILLED,GBP")
    assert parse_text(holiday).accounts[0].currency == "GBP"


def test_card_csv_turns_round_only_a_lone_amount_column_and_balances_that_then_follow(tmp_path) -> None:
    """`--format card_csv`: charges written positive in one amount column. Debit and credit columns
    sign their rows already; a balance owed written positive is turned round with the charges, one
    written negative is not; a file whose payments are positive and charges negative is the
    holder's way already."""
    from wilson.importers.formats import parse_file

    def read(text: str) -> ParseResult:
        path = tmp_path / "card.csv"
        path.write_text(text)
        return parse_file(path, "card_csv")

    pair = read("01/02/2025,TIM HORTONS #12,4.50,\n01/03/2025,PETRO-CANADA,54.97,\n01/05/2025,PAYMENT - THANK YOU,,400.00\n")
    assert [t.amount for t in pair.transactions] == [-450, -5497, 40000]
    owed = read("Date,Description,Debit,Credit,Balance\n01/09/2025,LATE FEE,29.00,,114.83\n01/08/2025,AMAZON REFUND,,9.99,85.83\n"
                "01/06/2025,AMAZON,23.10,,95.82\n")
    assert [(t.amount, t.balance) for t in owed.transactions] == [(-2900, -11483), (999, -8583), (-2310, -9582)]
    for balances in (("354.97", "437.74", "37.74"), ("-354.97", "-437.74", "-37.74")):
        owed = read("Date,Description,Amount,Balance\n01/02/2025,TESCO STORES,54.97,{}\n01/03/2025,SHELL,82.77,{}\n"
                    "01/05/2025,PAYMENT RECEIVED,-400.00,{}\n".format(*balances))
        assert [(t.amount, t.balance) for t in owed.transactions] == [(-5497, -35497), (-8277, -43774), (40000, -3774)]
    single = read("Date,Description,Amount,Balance\n01/15/2025,TESCO STORES,85.83,85.83\n")
    assert [(t.amount, t.balance) for t in single.transactions] == [(-8583, -8583)]  # one balance shows nothing: owed
    holder = read('02/01/2025,"-54.97","WOOLWORTHS 1234","-354.97"\n03/01/2025,"-82.77","SHELL","-437.74"\n'
                  '05/01/2025,"+400.00","PAYMENT RECEIVED, THANK YOU","-37.74"\n')
    assert [t.amount for t in holder.transactions] == [-5497, -8277, 40000]
    assert holder.warnings[0] == "its card payments are positive and its charges negative already: read as written (not turned round)"


@pytest.mark.parametrize(
    ("text", "amounts"),
    [
        # A broker's `Amount ($)` is the cash that moved, after its commission and fees (Fidelity's history)
        ("Run Date,Action,Symbol,Quantity,Price ($),Commission ($),Fees ($),Amount ($),Settlement Date\n"
         "03/15/2024,YOU SOLD APPLE INC (AAPL) (Cash),AAPL,-10,172.50,,0.04,1724.96,03/18/2024\n"
         "03/12/2024,YOU BOUGHT VANGUARD TOTAL STOCK (VTI) (Cash),VTI,5,250.00,,0.01,-1250.01,03/14/2024\n", [172496, -125001]),
        # The running balance moves by the amount alone: the fee is within it
        ("DATE,TYPE,REF #,DESCRIPTION,FEES,AMOUNT,BALANCE\n2014-04-14,BUY,14167001,BOUGHT +CSKO @130.36,7.95,-2615.63,337.95\n"
         "2014-05-08,BUY,12040838,BOUGHT +HOOL @121.30,7.95,-1220.95,-883.00\n2014-05-11,XFER,11966752,CLIENT INITIATED TRANSFER,0,2000.00,1117.00\n",
         [-261563, -122095, 200000]),
        # It moves by the amount less the fee: the fee is a cost beside it (Revolut's)
        ("Type,Started Date,Completed Date,Description,Amount,Fee,Currency,State,Balance\n"
         "TOPUP,2025-01-02 10:00:00,2025-01-02 10:00:01,Top-up,100.00,0.00,EUR,COMPLETED,100.00\n"
         "EXCHANGE,2025-01-03 10:00:00,2025-01-03 10:00:01,Exchanged to USD,-50.00,0.50,EUR,COMPLETED,49.50\n", [10000, -5050]),
    ],
)
def test_a_fee_column_is_taken_off_the_amount_only_when_it_is_not_within_it(text: str, amounts: list[int]) -> None:
    assert [t.amount for t in parse_text(text).transactions] == amounts


def test_a_direction_column_named_in_parentheses_signs_unsigned_amounts() -> None:
    """SEB's `(D/C)` beside an unsigned amount: with the name read as nothing, every debit was money in."""
    result = parse_text(
        'Account;Date;"Beneficiary\'s name";Type;(D/C);Amount;"Description";Currency\n'
        '"EE921010010575985012";"04.07.2022";"SEB";"TT";"D";2,95;"SEB Super+ pakett";"EUR"\n'
        '"EE921010010575985012";"04.07.2022";"RIMI ISETEEN\\TAMMSAARE TEE 104A\\TALLINN";"MK";"D";13,56;"kaart...075740 RIMI";"EUR"\n'
        '"EE921010010575985012";"22.07.2022";"TWILIO ESTONIA OU";"MK";"C";5973,58;"MK";"EUR"\n'
    )
    assert [t.amount for t in result.transactions] == [-295, -1356, 597358]
    assert [t.payee for t in result.transactions] == ["Seb", "Rimi Iseteen", "Twilio Estonia Ou"]  # the party, less its address


def test_a_last_text_column_running_on_is_one_text_and_other_ragged_rows_are_refused() -> None:
    """Livebank writes its `Umsatztext` as several fields: the row is not broken, its text is long."""
    result = parse_text(
        "Kontonummer;Buchungsdatum;Waehrung;Betrag;Buchungstext;Umsatztext\n"
        '12345678;2013-07-03;EUR;150,00;"Datenträger-Umsatz";A name;"A text";"REF: 1234"\n'
        '12345678;2013-06-10;EUR;-100,00;"Internetauftrag";"Miete Juni"\n'
    )
    assert [(t.amount, t.description) for t in result.transactions] == [
        (15000, "A name;A text;REF: 1234"), (-10000, "Miete Juni"),
    ] and not result.errors
    refused = parse_text("Datum;Umsatztext;Betrag\n03.07.2013;A name;A text;150,00\n10.06.2013;Miete;-100,00\n")
    assert [e.message for e in refused.errors] == ["4 fields but the header has 3; is a value holding a semicolon not quoted?"]


def test_every_text_column_an_english_swiss_export_names_is_joined() -> None:
    """ZKB's `Booking text` holds every row's words, its `Details` only some: a row was left with none."""
    result = parse_text(
        '"Date";"Booking text";"Debit CHF";"Credit CHF";"Balance CHF";"Payment purpose";"Details"\n'
        '"01.01.2024";"Credit salary: Test Employer";"";"5000.00";"5000.00";"";""\n'
        '"10.01.2024";"Debit eBill: Test Utility Company";"150.00";"";"4850.00";"Invoice 12";"Test Utility Company"\n'
    )
    assert [t.description for t in result.transactions] == [
        "Credit salary: Test Employer", "Debit eBill: Test Utility Company Invoice 12",  # words said once
    ]


def test_a_ynab_register_in_dinars_reads_its_arabic_sign_and_its_three_decimals() -> None:
    """`د.ا.` and a right-to-left mark before each amount: every row was refused, its `Inflow` blamed on `Outflow`."""
    rlm = "\u200f"
    header = '"Account","Date","Payee","Memo","Outflow","Inflow","Running Balance"\n'
    result = parse_text(header + f'"checking1",2022/11/07,"shop1","Lunch",د.ا.{rlm}4.750,د.ا.{rlm}0.000,د.ا.{rlm}0.000\n'
                        f'"checking1",2022/12/11,"coffeeshop","Coffee",د.ا.{rlm}93.210,د.ا.{rlm}0.000,د.ا.{rlm}56.790\n')
    assert [t.amount for t in result.transactions] == [-4750, -93210] and result.accounts[0].currency == "JOD" and not result.errors
    dollars = parse_text(header + '"c",2022/11/07,"shop1","Lunch",$4.750,$0.000,$0.000\n"c",2022/12/11,"cafe","Coffee",$93.210,$0.000,$56.790\n')
    assert [t.amount for t in dollars.transactions] == [-475, -9321]  # `0.000` beside it: `4.750` is no four thousand
    unread = parse_text(header + '"c",2022/11/07,"shop1","Lunch",,abc,\n"c",2022/12/11,"cafe","Coffee",5.00,,\n')
    assert [(e.line, e.column) for e in unread.errors] == [(2, "Inflow")]


def test_a_party_column_with_a_street_address_names_the_party_alone() -> None:
    """Sparkasse's `Beguenstigter/Zahlungspflichtiger` pads the party's name out before its street."""
    result = parse_text(
        '"Buchungstag";"Verwendungszweck";"Beguenstigter/Zahlungspflichtiger";"Betrag";"Waehrung"\n'
        '"03.04.18";"KD-Nr. 1234";"1u1 Telecom GmbH                              Elgendorfer Str. 57";"-22,59";"EUR"\n'
    )
    assert [t.payee for t in result.transactions] == ["1u1 Telecom GmbH"]


def test_a_guessed_currency_that_the_rows_name_as_foreign_is_said_to_be_wrong() -> None:
    """Neon (Swiss) states no currency; its `;` made it euros, though its rows bought things in euros abroad."""
    result = parse_text('"Date";"Amount";"Original amount";"Original currency";"Description"\n'
                        '"2024-12-27";"-14.04";"-14.70";"EUR";"Shop in Germany"\n"2024-12-28";"-20.00";"";"";"Migros"\n')
    assert result.accounts[0].currency == "EUR" and not result.accounts[0].currency_stated
    assert result.warnings == ["its rows name EUR as a purchase's foreign currency, so the account is not in EUR: give its currency with --currency"]
