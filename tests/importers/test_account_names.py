"""Account names taken from file names: the same for every download of one account."""

from __future__ import annotations

import pytest

from wilson.importers.model import name_from_file


@pytest.mark.parametrize(
    "first, second, name",
    [
        ("Export20250201091244.csv", "Export20250206101500.csv", "Imported"),  # ASB: a timestamp glued to the word
        ("acct20250201.csv", "acct20250301.csv", "acct"),
        ("Checking_Activity_2025-01-31.csv", "Checking_Activity_2025-02-28 (1).csv", "Checking"),
    ],
)
def test_every_download_of_an_account_gets_one_name(first: str, second: str, name: str) -> None:
    assert name_from_file(first) == name_from_file(second) == name


def test_numbers_that_are_no_date_stay_in_the_name() -> None:
    assert name_from_file("Visa1234.csv") == "Visa1234"
    assert name_from_file("Card20001234.csv") == "Card20001234"  # 2000-12-34 is no date: a card number
    assert name_from_file("DE12345678901234567890.csv") == "DE12345678901234567890"
