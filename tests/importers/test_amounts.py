"""Amounts formatted the way banks in several locales write them parse back exactly."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wilson.money import MAX_MINOR, AmountError, guess_decimal_separator, parse_amount, to_minor

amounts = st.decimals(min_value=Decimal("-99999999.99"), max_value=Decimal("99999999.99"), places=2, allow_nan=False, allow_infinity=False)

# (thousands separator, decimal separator, prefix, suffix, negative style)
LOCALES = [
    (",", ".", "$", "", "-{}"),  # US
    (",", ".", "", "", "({})"),  # US accounting
    (".", ",", "", " €", "-{}"),  # German
    ("", ",", "", " EUR", "{}-"),  # German, trailing minus
    ("'", ".", "CHF ", "", "-{}"),  # Swiss
    ("\u00a0", ",", "", " €", "-{}"),  # French, no-break space
    (",", ".", "£", "", "-{}"),  # UK
    ("", ".", "", "", "-{}"),  # plain
]


def render(value: Decimal, thousands: str, decimal: str, prefix: str, suffix: str, negative: str) -> str:
    whole, frac = f"{abs(value):.2f}".split(".")
    groups = []
    while whole:
        groups.insert(0, whole[-3:])
        whole = whole[:-3]
    body = prefix + thousands.join(groups) + decimal + frac + suffix
    return negative.format(body) if value < 0 else body


@given(amounts, st.sampled_from(LOCALES))
def test_locale_round_trip(value: Decimal, locale: tuple[str, str, str, str, str]) -> None:
    thousands, decimal, prefix, suffix, negative = locale
    text = render(value, thousands, decimal, prefix, suffix, negative)
    assert parse_amount(text, decimal) == value
    assert to_minor(parse_amount(text, decimal)) == int(value * 100)


@given(st.lists(amounts, min_size=1, max_size=20), st.sampled_from(LOCALES))
def test_column_separator_guess_round_trip(values: list[Decimal], locale: tuple[str, str, str, str, str]) -> None:
    """A whole column in one locale: the guessed separator reads every value back."""
    thousands, decimal, prefix, suffix, negative = locale
    texts = [render(v, thousands, decimal, prefix, suffix, negative) for v in values]
    sep = guess_decimal_separator(texts)
    assert [parse_amount(t, sep) for t in texts] == values


@given(amounts)
def test_csv_engine_fast_path_matches_money(value: Decimal) -> None:
    from wilson.importers.csv_money import minor

    for text in (f"{value:.2f}", f"{value:.2f}".replace(".", ","), f" {value:.2f} "):
        sep = "," if "," in text else "."
        assert minor(text, sep, 2, None) == to_minor(parse_amount(text, sep))


def test_swiss_whole_francs_and_trailing_minus_apart() -> None:
    assert [parse_amount(text) for text in ("12.-", "12.–", "CHF 1'250.-", "-12.-")] == [
        Decimal("12.00"), Decimal("12.00"), Decimal("1250.00"), Decimal("-12.00"),
    ]
    assert [parse_amount(text, ",") for text in ("12,34-", "1.234,56-")] == [Decimal("-12.34"), Decimal("-1234.56")]


def test_one_sign_at_most() -> None:
    for text in ("--5", "-5-", "5--", "(-5)", "+-5", "-5.00 DR"):
        with pytest.raises(AmountError, match="more than one sign"):
            parse_amount(text)
    assert [parse_amount(text) for text in ("-$5", "$-5", "5 €-", "(5.00)", "5.00 DR", "5.00 CR")] == [
        Decimal("-5"), Decimal("-5"), Decimal("-5"), Decimal("-5.00"), Decimal("-5.00"), Decimal("5.00"),
    ]


@pytest.mark.parametrize(("text", "value"), [
    ("45.20 D", "-45.20"), ("2100.00 C", "2100.00"), ("45.20 Debit", "-45.20"), ("2,100.00 Credit", "2100.00"),
    ("45.20 Dr.", "-45.20"), ("45.20Cr", "45.20"), ("$ (45.20)", "-45.20"), ("45.20 USD", "45.20"), ("12 CAD", "12"),
])
def test_debit_and_credit_marks_and_parentheses_after_a_symbol(text: str, value: str) -> None:
    assert parse_amount(text, ".") == Decimal(value)


def test_grouping_must_fit_the_column_decimal_mark() -> None:
    """A value that only reads with the other decimal mark is an error, never 100 times the amount."""
    for text, sep in (("-4,50", "."), ("12.34", ","), ("1,2345.00", "."), ("1.234.567,89.0", ",")):
        with pytest.raises(AmountError):
            parse_amount(text, sep)
    assert [parse_amount(text, sep) for text, sep in (("1,234", "."), ("1.234", ","), ("1,23,456.78", "."))] == [
        Decimal("1234"), Decimal("1234"), Decimal("123456.78"),
    ]


def test_separator_guess_ignores_values_no_one_writes() -> None:
    assert guess_decimal_separator(["-4,50", "1.234.567,89.0", "-20,00"]) == ","


@pytest.mark.parametrize("malformed", ["1.2.5", "12..5", "-4.50.1", "1,2,5", "12,,5", "-4,50,1", "1.2.3,45", "12,34.56"])
def test_repeated_marks_that_group_nothing_have_no_say(malformed: str) -> None:
    """One typo among a few good rows must not turn the column's decimal point into a comma."""
    assert guess_decimal_separator(["-1.00", "-2.00", malformed, "-4.00"]) == "."
    assert guess_decimal_separator(["-1,00", "-2,00", malformed, "-4,00"]) == ","


@pytest.mark.parametrize("grouped, sep", [
    ("1.234.567,89", ","), ("1.234.567", ","), ("-1.234.567 €", ","), ("1,234,567.89", "."), ("1,234,567", "."),
    ("1,23,456.78", "."), ("$-1,234.50", "."), ("kr. 1.234,50", ","), ("kr. 1.234.567", ","), ("Fr. 12,50", ","),
])
def test_well_grouped_values_still_decide_against_small_ones(grouped: str, sep: str) -> None:
    other = "," if sep == "." else "."
    assert guess_decimal_separator([f"-1{other}5", f"-2{other}5", grouped]) == sep


def test_swiss_apostrophes_keep_their_decimal_point_beside_a_typo() -> None:
    assert guess_decimal_separator(["1'234.50", "CHF -12.30", "1.2.5"]) == "."
    assert guess_decimal_separator(["1'234.50", "CHF 1'234'567.50"]) == "."


def test_a_dot_of_a_currency_prefix_groups_no_digits() -> None:
    assert guess_decimal_separator(["kr. 12.50", "kr. 1.00"]) == "."


def test_an_amount_past_eleven_digits_is_out_of_range_so_totals_stay_exact_integers() -> None:
    """At 15 digits a few thousand rows summed past SQLite's 64-bit integers, into inexact floats."""
    assert to_minor(Decimal("99999999999.99"), "USD") == 9_999_999_999_999
    with pytest.raises(AmountError, match="out of range"):
        to_minor(Decimal("100000000000.00"), "USD")
    assert 900_000 * MAX_MINOR < 2**63
