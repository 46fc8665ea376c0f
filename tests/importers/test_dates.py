"""One date format per column, decided from all its values."""

from __future__ import annotations

from datetime import date

import pytest

from wilson.importers import dates
from wilson.importers.dates import infer_date_format


@pytest.mark.parametrize(
    ("values", "day_first", "expected"),
    [
        (["01/02/2025", "13/02/2025"], False, [date(2025, 2, 1), date(2025, 2, 13)]),  # 13 decides
        (["01/02/2025", "02/13/2025"], True, [date(2025, 1, 2), date(2025, 2, 13)]),  # ...either way
        (["01/02/2025", "03/04/2025"], False, [date(2025, 1, 2), date(2025, 3, 4)]),  # hint: month first
        (["01/02/2025", "03/04/2025"], True, [date(2025, 2, 1), date(2025, 4, 3)]),  # hint: day first
        (["04.11.20", "05.11.20"], False, [date(2020, 11, 4), date(2020, 11, 5)]),  # dotted is day first
        (["6/12/15"], False, [date(2015, 6, 12)]),
        (["2019.04.19.", "2019.04.17."], False, [date(2019, 4, 19), date(2019, 4, 17)]),
        (["2022-01-03 10:12:33", "2022-01-04"], False, [date(2022, 1, 3), date(2022, 1, 4)]),
        (["2024-01-05T23:30:00-05:00"], False, [date(2024, 1, 5)]),  # no timezone conversion
        (["12-Dec-2019", "02-Dec-2019"], False, [date(2019, 12, 12), date(2019, 12, 2)]),
        (["06 May 2020"], False, [date(2020, 5, 6)]),
        (["20240131"], False, [date(2024, 1, 31)]),
        (["Jan 5, 2024"], False, [date(2024, 1, 5)]),
        (["05. Mär 2024", "1 Okt 2024"], True, [date(2024, 3, 5), date(2024, 10, 1)]),
        (["02-03-2024 / 00:00", "15-03-2024 / 13:45"], False, [date(2024, 3, 2), date(2024, 3, 15)]),  # NETELLER
    ],
)
def test_column_formats(values: list[str], day_first: bool, expected: list[date]) -> None:
    column = infer_date_format(values, day_first)
    assert [column.parse(v) for v in values] == expected


def test_odd_values_do_not_change_the_column_format() -> None:
    column = infer_date_format(["Pending", "12-Dec-2019", "", "31-Dec-2019"])
    assert column.parse("Pending") is None
    assert column.parse("31-Dec-2019") == date(2019, 12, 31)


def test_invalid_calendar_dates_are_none() -> None:
    column = infer_date_format(["2024-02-30", "2024-02-29"])
    assert column.parse("2024-02-30") is None
    assert column.parse("2024-02-29") == date(2024, 2, 29)
    assert infer_date_format(["not a date"]).parse("not a date") is None


def test_parse_is_cached_per_string() -> None:
    column = infer_date_format(["01/02/2025"])
    column.parse("01/02/2025")
    assert column.cache == {"01/02/2025": date(2025, 1, 2)}


@pytest.mark.parametrize(
    ("values", "day_first", "expected"),
    [
        # Days in a row beat months apart, in either hint.
        (["04/03/2024", "02/03/2024", "01/03/2024"], False, [date(2024, 3, 4), date(2024, 3, 2), date(2024, 3, 1)]),
        (["03/04/2024", "03/05/2024", "03/07/2024"], True, [date(2024, 3, 4), date(2024, 3, 5), date(2024, 3, 7)]),
        # Only one reading keeps the file in date order.
        (["01/05/2024", "01/08/2024", "02/05/2024", "02/08/2024"], True,
         [date(2024, 1, 5), date(2024, 1, 8), date(2024, 2, 5), date(2024, 2, 8)]),
        # A charge on the 5th of each month stays monthly, though the other reading is days in a row.
        (["01/05/2024", "02/05/2024", "03/05/2024"], False, [date(2024, 1, 5), date(2024, 2, 5), date(2024, 3, 5)]),
        # Nothing decides: the hint.
        (["03/02/2024"], False, [date(2024, 3, 2)]),
    ],
)
def test_all_ambiguous_columns_are_read_by_order_and_span(values: list[str], day_first: bool, expected: list[date]) -> None:
    column = infer_date_format(values, day_first)
    assert [column.parse(v) for v in values] == expected


def test_times_with_a_zone_abbreviation() -> None:
    column = infer_date_format(["2024-03-04 12:34:56 EST", "2024-03-05 09:00:00 GMT+1"])
    assert [column.parse(v) for v in ("2024-03-04 12:34:56 EST", "2024-03-05 09:00:00 GMT+1")] == [date(2024, 3, 4), date(2024, 3, 5)]


def test_the_monthly_reading_stands_only_for_recurring_rows() -> None:
    values = ["01/03/2025", "02/03/2025", "03/03/2025"]
    assert infer_date_format(values, recurring=True).parse(values[1]) == date(2025, 2, 3)  # the 3rd of each month
    assert infer_date_format(values, recurring=False).parse(values[1]) == date(2025, 3, 2)  # three days in a row


def test_a_column_only_the_hint_decides_is_marked_guessed() -> None:
    assert infer_date_format(["06/12/2021"]).guessed  # 12 June or 6 December: nothing tells
    assert not infer_date_format(["05/05/2021"]).guessed  # both orders agree
    assert not infer_date_format(["04/03/2024", "01/03/2024"]).guessed  # the short stretch decides
    assert not infer_date_format(["13/03/2024"]).guessed  # a day over 12 decides
    assert infer_date_format(["01/03/2025", "02/03/2025", "03/03/2025"], recurring=True).guessed  # likelier monthly, not sure


def test_the_monthly_reading_needs_each_recurring_payee_paid_monthly() -> None:
    """Two shops taking turns on `01/11` … `04/11` are four days of November, not each shop paid
    every other month; one subscription on the same dates is paid monthly."""
    values = ["01/11/2025", "02/11/2025", "03/11/2025", "04/11/2025"]
    turns = list(zip(values, ["TFL", "PRET", "TFL", "PRET"]))
    assert infer_date_format(values, recurring=True, charges=lambda: turns).parse(values[1]) == date(2025, 11, 2)
    monthly = [(value, "NETFLIX") for value in values]
    assert infer_date_format(values, recurring=True, charges=lambda: monthly).parse(values[1]) == date(2025, 2, 11)
    skipped = [(value, "NETFLIX") for value in values[::2]] + [(value, "SPOTIFY") for value in values]  # a month paused
    assert infer_date_format(values, recurring=True, charges=lambda: skipped).parse(values[1]) == date(2025, 2, 11)
    week = ["01/11/2025", "02/11/2025", "03/11/2025", "04/11/2025", "05/11/2025", "06/11/2025"]
    fares = list(zip(week, ["TFL", "TFL", "PRET", "PRET", "TFL", "TFL"]))
    assert infer_date_format(week, recurring=True, charges=lambda: fares).parse(week[4]) == date(2025, 11, 5)  # fares on and off
    # A quarterly bill beside a monthly one, in a file that states its currency (pounds: day first)
    firsts = [f"01/0{month}/2025" for month in range(1, 7)]
    bills = [(day, "COUNCIL TAX") for day in firsts] + [(firsts[0], "WATER"), (firsts[3], "WATER")]
    column = infer_date_format(firsts, day_first=True, recurring=True, charges=lambda: bills, stated=True)
    assert column.parse(firsts[1]) == date(2025, 2, 1) and column.guessed
    assert infer_date_format(firsts, day_first=True, recurring=True, charges=lambda: bills).parse(firsts[1]) == date(2025, 1, 2)


def test_a_reading_that_dates_rows_after_today_loses(monkeypatch: pytest.MonkeyPatch) -> None:
    class Today(date):
        @classmethod
        def today(cls) -> date:
            return date(2026, 11, 23)

    monkeypatch.setattr(dates, "date", Today)
    values = ["01/12/2026", "02/12/2026", "03/12/2026"]  # December's first days, or the 12th of January to March
    column = infer_date_format(values, day_first=True)
    assert column.parse(values[1]) == date(2026, 2, 12) and not column.guessed
    scheduled = ["02/11/2026", "05/11/2026", "10/11/2026", "05/12/2026"]  # a standing order dated ahead: November all the same
    assert infer_date_format(scheduled, day_first=True).parse(scheduled[-1]) == date(2026, 12, 5)


def test_spreadsheet_day_numbers_are_read_only_in_a_column_named_a_date() -> None:
    """`45658` is 2025-01-01 in a spreadsheet saved as CSV with its date cells formatted General; a
    column found by its content alone (a cheque number) must not turn into dates."""
    named = infer_date_format(["45658", "45659.5", "45690"], named=True)
    assert [named.parse(v) for v in ["45658", "45659.5", "45690"]] == [date(2025, 1, 1), date(2025, 1, 2), date(2025, 2, 2)]
    assert infer_date_format(["45658", "45659"]).format is None
    assert infer_date_format(["45658", "TBD"], named=True).format is None  # not all of them: the rows are refused as before
