"""Money columns: the whole-column fast paths read every cell as the cell-by-cell parser does."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from wilson.importers.csv_money import minor, money_column
from wilson.money import MAX_MINOR, AmountError


def _written(cents: int, sep: str, grouped: bool) -> str:
    whole, frac = divmod(abs(cents), 100)
    group = {".": ",", ",": "."}[sep]
    digits = f"{whole:,}".replace(",", group) if grouped else str(whole)
    return f"{'-' if cents < 0 else ''}{digits}{sep}{frac:02d}"


@given(st.lists(st.integers(-10**13, 10**13), min_size=1, max_size=60), st.sampled_from([".", ","]), st.booleans())
def test_a_column_of_grouped_or_plain_cells_reads_as_each_cell_does(cents: list[int], sep: str, grouped: bool) -> None:
    """Out of range (over 10^11 in major units) is an error either way, never a number one way only."""
    cells = [_written(value, sep, grouped) for value in cents]
    read = money_column(cells, sep, "EUR")
    assert [str(v) for v in read] == [str(v) for v in map(_or_error, cells, [sep] * len(cells))]
    assert [v for v in read if isinstance(v, int)] == [v for v in cents if abs(v) <= MAX_MINOR]


def _or_error(cell: str, sep: str) -> int | AmountError:
    try:
        return minor(cell, sep, 2, "EUR")
    except AmountError as exc:
        return exc


def test_a_german_running_balance_of_distinct_grouped_cells_is_read_whole() -> None:
    """Every Saldo cell of an ING or Sparkasse export is its own (`-11.110.399,97`): each read at once."""
    cells = ["-11.110.399,97", "1.234,56", "0,05", "12,00", "-1.000,00"]
    assert money_column(cells, ",", "EUR") == [-1111039997, 123456, 5, 1200, -100000]
    assert [type(v).__name__ for v in money_column(["1.234,56", "12.34,56"], ",", "EUR")] == ["int", "AmountError"]
