"""Account names taken from file names: the same for every download of one account."""

from __future__ import annotations

import pytest

from wilson.importers.model import name_from_file, type_named


@pytest.mark.parametrize(
    "first, second, name",
    [
        ("Export20250201091244.csv", "Export20250206101500.csv", "Imported"),  # ASB: a timestamp glued to the word
        ("Data_export_23112026.csv", "Data_export_23122026.csv", "Data"),  # Westpac: the day first
        ("OpTransactionHistory23-11-2026.csv", "OpTransactionHistory23-12-2026.csv", "OpTransactionHistory"),  # ICICI
        ("Acct_Statement_XX1234_23112026.csv", "Acct_Statement_XX1234_23122026.csv", "Acct XX1234"),  # HDFC
        ("acct20250201.csv", "acct20250301.csv", "acct"),
        ("Checking_Activity_2025-01-31.csv", "Checking_Activity_2025-02-28 (1).csv", "Checking"),
        # month names in other languages, alone or with a year
        ("Kontoauszug_Januar_2024.csv", "Kontoauszug_März_2024.csv", "Kontoauszug"),
        ("Kontoauszug_Maerz.csv", "Kontoauszug_Dezember.csv", "Kontoauszug"),
        ("Girokonto_Okt.csv", "Girokonto_Mär_2024.csv", "Girokonto"),
        ("Releve_janvier.csv", "Releve_février.csv", "Releve"),
        ("Releve_fevrier_2024.csv", "Releve_août.csv", "Releve"),
        ("Extracto_enero.csv", "Extracto_diciembre.csv", "Extracto"),
        ("Extrato_janeiro.csv", "Extrato_março.csv", "Extrato"),
        ("afschrift_januari.csv", "afschrift_mrt_2024.csv", "afschrift"),
        ("estratto_gennaio.csv", "estratto_ottobre.csv", "estratto"),
        # Nubank: day, Portuguese month and year glued; months that are also words need the date beside them
        ("NU_93657270_01FEV2024_29FEV2024.csv", "NU_93657270_01OUT2024_31OUT2024.csv", "NU 93657270"),
        ("NU_93657270_01SET2024_30SET2024.csv", "NU_93657270_01DEZ2024_31DEZ2024.csv", "NU 93657270"),
        ("NU_93657270_01AGO2024_31AGO2024.csv", "NU_93657270_01JAN2024_31JAN2024.csv", "NU 93657270"),
        ("Extrato_marco_2024.csv", "Extrato_julio_2024.csv", "Extrato"),
        ("Extracto_01ENE2024_al_31ENE2024.csv", "Extracto_01FEB2024_al_29FEB2024.csv", "Extracto"),
        # quarters and month-year
        ("Checking_2024_Q1.csv", "Checking_2024_Q2.csv", "Checking"),
        ("Checking_Q3_2024.csv", "Checking_1Q25.csv", "Checking"),
        ("Checking_jan24.csv", "Checking_feb24.csv", "Checking"),
        # yymmdd, and ABN AMRO's yymmddhhmmss stamp glued to the word
        ("Checking_240131.csv", "Checking_240229.csv", "Checking"),
        ("TXT240131003548.TAB", "TXT240229013548.TAB", "TXT"),
        # day ranges written with month names
        ("Checking Jan 1 - Feb 15.csv", "Checking Feb 16 - Mar 31.csv", "Checking"),
        ("Checking 1 Jan - 15 Feb.csv", "Checking Jan 1 to Feb 15.csv", "Checking"),
        # Nationwide: a date with a month name and a time after it
        ("Statement Download 2024-Feb-01 10-35-48.csv", "Statement Download 2024-Mar-01 09-05-07.csv", "Imported"),
        ("Nationwide 2024-Feb-01 10-35-48.csv", "Nationwide 2024-Mar-01 09-05-07.csv", "Nationwide"),
    ],
)
def test_every_download_of_an_account_gets_one_name(first: str, second: str, name: str) -> None:
    assert name_from_file(first) == name_from_file(second) == name


def test_numbers_that_are_no_date_stay_in_the_name() -> None:
    assert name_from_file("Visa1234.csv") == "Visa1234"
    assert name_from_file("Card20001234.csv") == "Card20001234"  # 2000-12-34 is no date: a card number
    assert name_from_file("Santander_30061988.csv") == "Santander 30061988"  # a UK account number, no download's date
    assert name_from_file("DE12345678901234567890.csv") == "DE12345678901234567890"
    assert name_from_file("Chase1234_Activity_20240131.csv") == "Chase1234"
    assert name_from_file("NU_93657270.csv") == "NU 93657270"  # eight digits, no date
    assert name_from_file("Card_123456.csv") == "Card 123456"  # 12-34-56 is no yymmdd
    assert name_from_file("Card_482112.csv") == "Card 482112"  # 2048 is too far ahead for a download
    assert name_from_file("Konto100512.csv") == "Konto100512"  # six digits glued to a word: an account's
    assert name_from_file("Visa Jan 2024 1234.csv") == "Visa 1234"  # neither a day nor a time


def test_a_pipe_names_no_account() -> None:
    """`wilson import <(…)` reads /dev/fd/63: its number is no account's name."""
    assert name_from_file("/dev/fd/63") == name_from_file("/dev/stdin") == "Imported"


def test_months_that_are_everyday_words_or_names_stay_without_a_date() -> None:
    assert [name_from_file(f"{word}.csv") for word in ("out", "set", "julio", "marco")] == ["out", "set", "julio", "marco"]


@pytest.mark.parametrize(
    "name, kind",
    [("Visa", "credit_card"), ("Amex Gold", "credit_card"), ("Chase Card", "credit_card"), ("Visa Debit", None),
     ("Debit Card", None), ("EC-Karte", None), ("US Dollar Savings", "savings")],
)
def test_a_debit_card_is_no_credit_card(name: str, kind: str | None) -> None:
    assert type_named(name) == kind
