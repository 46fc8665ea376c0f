"""QIF importer: Quicken and German exports, several accounts, splits, skipped lists, bad lines."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from wilson.importers import qif
from wilson.importers.formats import parse_file
from wilson.importers.model import ImportRefused, ParseResult

from parsed_fixtures import read_text

FIXTURES = Path(__file__).parent.parent / "fixtures"
QIF = qif.FORMATS[0]


def parse(name: str) -> ParseResult:
    result = parse_file(FIXTURES / name)
    assert result.format == "qif"
    return result


def test_quicken_example_skips_lists_and_investments() -> None:
    result = parse("quiffen/test.qif")
    # 6 bank records; the Class, Cat, Invst and Security sections give none.
    assert len(result.transactions) == 6
    assert [t.amount for t in result.transactions] == [0, 6750, 3200, -1000, -2500, -10000]
    assert [t.posted for t in result.transactions] == [
        date(2020, 2, 10), date(2020, 2, 14), date(2020, 2, 14), date(2020, 2, 12), date(2020, 2, 11), date(2020, 2, 10),
    ]
    assert [t.line for t in result.transactions] == [29, 35, 46, 52, 64, 72]
    assert not result.errors
    assert any("!Type:Invst" in w and "line 92" in w for w in result.warnings)
    assert all(t.bank_id is None for t in result.transactions)
    [account] = result.accounts
    # The opening balance names the account itself (`L[TestExport]`): not a transfer.
    assert (account.key, account.name, account.type) == ("default", "TestExport", "checking")
    assert result.transactions[0].transfer_account is None


def test_quicken_example_categories_payees_and_check_numbers() -> None:
    opening, tmobile, post, target, walmart, amazon = parse("quiffen/test.qif").transactions
    assert (tmobile.payee, tmobile.description, tmobile.category) == ("T-Mobile", "T-Mobile", "Bills:Cell Phone")  # `/Test class` dropped
    assert post.description == "US Post Office - money back for damaged parcel"
    assert post.payee == "US Post Office"
    assert (walmart.notes, walmart.category) == ("check 123", "Food:Groceries")
    assert amazon.payee == "Amazon"


def test_quicken_example_splits_sum_to_the_transaction() -> None:
    _, tmobile, post, target, _, amazon = parse("quiffen/test.qif").transactions
    assert [(s.amount, s.memo) for s in tmobile.splits] == [(-1500, "sign up credit"), (8250, "new account")]
    # The 50%/50% split: the `E` lines are memos, the `$` lines the amounts.
    assert [(s.amount, s.category, s.memo) for s in target.splits] == [
        (-500, "Food:Groceries", "50%"), (-500, "Food:Groceries", "50% 2"),
    ]
    assert [s.amount for s in amazon.splits] == [-5000, -2500, -1000, -1500]
    assert [s.category for s in amazon.splits] == [
        "Food:Groceries", "Transportation:Automobile", "Personal Care:Haircare", "Healthcare:Prescriptions",
    ]
    assert amazon.posted == date(2020, 2, 10)  # the split's own `D1/10'2020` is not the transaction's date
    assert post.splits == []
    for row in (tmobile, target, amazon):
        assert sum(s.amount for s in row.splits) == row.amount


def test_two_digit_apostrophe_year_and_split_transfer() -> None:
    [row] = parse("quiffen/test_split.qif").transactions
    assert (row.posted, row.amount, row.category) == (date(2000, 1, 1), -1000, None)  # `L--Split--`
    assert [(s.amount, s.category, s.transfer_account) for s in row.splits] == [
        (-900, "Transfer", "An Account"), (-100, "A Category", None),
    ]


def test_german_export_mdy_dots_latin1_and_memorized_skipped() -> None:
    result = parse("quiffen/test_FMQifTest2023-10-18.qif")
    opening, donation = result.transactions  # the Memorized record is not a transaction
    [account] = result.accounts
    assert (account.key, account.name, account.type) == ("KD-Bank Berlin", "KD-Bank Berlin", "checking")
    assert (opening.posted, opening.amount, opening.description, opening.transfer_account) == (
        date(2023, 10, 18), 0, "Eröffnungssaldo", None,
    )
    assert (donation.amount, donation.category, donation.account_key) == (20000, "Donation", "KD-Bank Berlin")
    assert donation.description == "Donor - Donation for Welthungerhilfe"
    assert [(s.amount, s.category, s.memo) for s in donation.splits] == [
        (20000, "Donation", "Donation for Welthungerhilfe"), (0, "Donation", "50% for Africa"),
    ]
    assert not result.errors and not result.warnings


def test_several_account_blocks_make_several_accounts() -> None:
    result = parse("written/multi_account.qif")
    assert [(a.key, a.type) for a in result.accounts] == [
        ("Everyday Checking", "checking"), ("Visa Card", "credit_card"), ("Wallet", "cash"),
    ]
    rent, pay, to_card, coffee, payment, market = result.transactions
    assert [t.account_key for t in result.transactions] == ["Everyday Checking"] * 3 + ["Visa Card"] * 2 + ["Wallet"]
    assert (rent.amount, rent.posted, rent.notes, rent.category) == (-123456, date(2025, 3, 1), "check 1001", "Housing:Rent")
    assert rent.description == "LANDLORD LLC - March rent"
    assert (pay.amount, pay.posted) == (250000, date(2025, 3, 2))  # ISO date, thousands comma
    assert (to_card.transfer_account, to_card.category, to_card.posted) == ("Visa Card", "Transfer", date(2025, 3, 5))
    assert (coffee.amount, coffee.payee, coffee.posted) == (-4567, "Blue Bottle Coffee", date(2025, 3, 4))
    assert (payment.amount, payment.transfer_account) == (25000, "Everyday Checking")
    assert (market.amount, market.posted) == (-2000, date(2025, 3, 6))


def test_bad_date_and_bad_amount_lines_are_row_errors() -> None:
    result = parse("written/bad_lines.qif")
    assert [(e.line, e.column) for e in result.errors] == [(6, "D"), (11, "T")]
    assert "13/45/2025" in result.errors[0].message and "abc" in result.errors[1].message
    good, mismatch, percent = result.transactions
    assert good.amount == -1000
    # Splits that miss the total keep every cent: the remainder is an uncategorised split.
    assert [s.amount for s in mismatch.splits] == [-6000, -3000, -1000]
    assert mismatch.splits[-1].category is None
    assert any("line 14" in w and "-90.00" in w for w in result.warnings)
    assert [(s.amount, s.category) for s in percent.splits] == [(-4000, "Groceries"), (-4000, "Household")]


def test_dmy_option_trailing_space_type_and_other_sections() -> None:
    text = (
        "!Option:DMY\n!Type:Bank \nD03/01/2025\nT-1.00\nPA\n^\nD18.10.23\nT1.00\n^\n"
        "!Type:Oth L\nD04/01/2025\nT-500.00\nPLoan payment\n^\n!Type:Oth A\nD05/01/2025\nT10.00\n^\n"
        "!Type:Prices\n\"AAPL\",150.00,\"1/ 1'24\"\n^\n"
    )
    result = QIF.parse(text, "dmy.qif")
    assert [t.posted for t in result.transactions] == [date(2025, 1, 3), date(2023, 10, 18), date(2025, 1, 4), date(2025, 1, 5)]
    assert not result.errors and "Prices" in result.warnings[0]
    assert [(a.key, a.type) for a in result.accounts] == [("default", "checking"), ("default-oth-l", "loan"), ("default-oth-a", "investment")]


def test_dates_without_an_option_are_read_by_what_they_prove() -> None:
    result = QIF.parse("!Type:Bank\nD25/12/2024\nT-1.00\n^\nD03/01/2025\nT-2.00\n^\n", "x.qif")
    assert [t.posted for t in result.transactions] == [date(2024, 12, 25), date(2025, 1, 3)]
    result = QIF.parse("!Type:Bank\nD12/31/99\nT-1.00\n^\nD1/5/69\nT1.00\n^\n", "x.qif")
    assert [t.posted for t in result.transactions] == [date(1999, 12, 31), date(2069, 1, 5)]


def test_any_prefix_of_a_fixture_never_raises_anything_but_import_refused() -> None:
    for name in ("quiffen/test.qif", "written/multi_account.qif", "written/bad_lines.qif"):
        text = read_text(FIXTURES / name)
        for end in range(0, len(text), 5):
            try:
                QIF.parse(text[:end], name)
            except ImportRefused:
                pass


def test_detection_from_content() -> None:
    assert QIF.detect(read_text(FIXTURES / "quiffen/test.qif")) == 95  # after `###` comments
    assert QIF.detect("\n\n!Account\nNChecking\n^\n") == 95
    assert QIF.detect("!Option:MDY\n!Type:Bank\n") == 95
    assert QIF.detect("Date,Description,Amount\n2024-01-01,Coffee,-3.50\n") == 0
    assert QIF.detect("OFXHEADER:100\n") == 0


def test_a_lone_caret_after_the_header_ends_no_record() -> None:
    result = parse("quiffen/parser-amends.03.qif")
    assert result.errors == []
    assert [(t.posted, t.amount) for t in result.transactions] == [(date(2022, 9, 23), -18480), (date(2022, 9, 8), -1316)]


def test_comment_lines_and_an_investments_only_file_say_why_nothing_is_imported() -> None:
    path = FIXTURES / "quiffen/test_unknown_account_type.qif"
    assert QIF.detect(read_text(path)) > 0
    with pytest.raises(ImportRefused, match=r"holds no transactions \(line 22: skipped the !Type:Invst section"):
        parse_file(path)


def test_forcing_a_format_the_file_is_not_says_so() -> None:
    with pytest.raises(ImportRefused, match=r"no transactions read as qif \(--format\); is it another format\?"):
        parse_file(FIXTURES / "written/chase_checking.csv", forced_format="qif")
    assert len(parse_file(FIXTURES / "quiffen/test.qif", forced_format="qif").transactions) == 6
    assert parse_file(FIXTURES / "quiffen/test.qif", forced_format=" QIF ").format == "qif"  # as people type it


def test_month_name_dates_some_writers_use() -> None:
    for raw in ("Jan 5, 2024", "5 Jan 2024", "05-Jan-24"):
        result = QIF.parse(f"!Type:Bank\nD{raw}\nT-12.34\nPCOFFEE\n^\n", "inline.qif")
        assert [(t.posted, t.amount) for t in result.transactions] == [(date(2024, 1, 5), -1234)], raw
    bad = QIF.parse("!Type:Bank\nDFoo 5, 2024\nT-12.34\n^\n", "inline.qif")
    assert [str(e) for e in bad.errors] == ["line 2, column D: invalid date 'Foo 5, 2024'"]


def test_all_ambiguous_dates_are_read_in_the_order_that_keeps_them_close() -> None:
    result = QIF.parse((FIXTURES / "written/uk_early_month.qif").read_text(), "uk.qif")  # 02/01/2024 ... 11/01/2024
    assert [t.posted.isoformat() for t in result.transactions] == [
        "2024-01-02", "2024-01-03", "2024-01-05", "2024-01-08", "2024-01-10", "2024-01-11",
    ]


def test_an_apostrophe_year_that_would_be_years_ahead_is_the_1900s() -> None:
    result = QIF.parse("!Type:Bank\nD12/31'99\nT-1.00\n^\nD1/ 5' 4\nT-2.00\n^\n", "q.qif")
    assert [t.posted for t in result.transactions] == [date(1999, 12, 31), date(2004, 1, 5)]


def test_a_file_cut_inside_its_last_record_is_a_row_error() -> None:
    head = "!Type:Bank\nD01/05/2025\nT-5.00\nPSHOP\n^\n"
    for cut in ("D01/09/2025", "D01/09/2025\nPCOSTCO\nT-12", "T-120.00\nD01/09/20", "D01/09/2025\nSFood\n$-12"):
        result = QIF.parse(head + cut, "cut.qif")
        assert [t.amount for t in result.transactions] == [-500], cut
        assert [(e.line, e.message) for e in result.errors] == [(6, "the file ends inside this record (truncated file?)")], cut


def test_a_complete_last_record_without_caret_or_line_break_is_read() -> None:
    text = "!Type:Bank\nD03/01/2025\nT-12.00\nPFirst\n^\nD03/02/2025\nT-5.00\nPSecond\nLDining"
    for ending in ("", "\n"):
        result = QIF.parse(text + ending, "no_caret.qif")
        assert [(t.posted, t.amount, t.payee, t.category) for t in result.transactions] == [
            (date(2025, 3, 1), -1200, "First", None), (date(2025, 3, 2), -500, "Second", "Dining"),
        ]
        assert result.errors == []


def test_european_qif_is_in_euros_and_compact_dates_are_read() -> None:
    european = QIF.parse("!Type:Bank\nD03.11.25\nT-5,00\nPBÄCKEREI\n^\n", "giro.qif")
    assert european.accounts[0].currency == "EUR" and european.transactions[0].posted == date(2025, 11, 3)
    compact = QIF.parse("!Type:Bank\nD20240102\nT10.00\nPTEST\n^\n", "gnucash.qif")
    assert compact.accounts[0].currency == "USD" and compact.transactions[0].posted == date(2024, 1, 2)


def test_amounts_written_with_a_currency_sign_say_the_currency() -> None:
    pounds = QIF.parse("!Type:Bank\nD01/02/2024\nT-£12.50\nPTesco\n^\nD03/02/2024\nT£1,200.00\nPSalary\n^\n", "uk.qif")
    assert (pounds.accounts[0].currency, pounds.accounts[0].currency_stated) == ("GBP", True)
    assert [t.amount for t in pounds.transactions] == [-1250, 120000] and pounds.warnings == []
    mixed = QIF.parse("!Type:Bank\nD01/02/2024\nT-£12.50\nPTesco\n^\nD03/02/2024\nT-€3.00\nPCafé\n^\n", "mixed.qif")
    assert (mixed.accounts[0].currency, mixed.accounts[0].currency_stated) == ("USD", False)  # no one sign: as before


def test_a_year_no_writer_emits_is_a_row_error() -> None:
    text = "!Type:Bank\nD03/01/2025\nT-1.00\n^\nD03/02/202\nT-2.00\n^\nD03/02/0025\nT-3.00\n^\nD0025-03-02\nT-4.00\n^\n"
    result = QIF.parse(text, "years.qif")
    assert [t.amount for t in result.transactions] == [-100]
    assert [str(e) for e in result.errors] == [
        "line 5, column D: invalid date '03/02/202': the year 202 has 3 digits",
        "line 8, column D: invalid date '03/02/0025': the year 0025 is before 1900",
        "line 11, column D: invalid date '0025-03-02': the year 0025 is before 1900",
    ]


def test_the_years_quicken_and_other_writers_emit_are_read() -> None:
    for raw, expected in (
        ("3/ 1'25", date(2025, 3, 1)), ("03/01/2025", date(2025, 3, 1)), ("2025-03-01", date(2025, 3, 1)),
        ("1/15'05", date(2005, 1, 15)), ("3/1/25", date(2025, 3, 1)), ("3/ 1/ 5", date(2005, 3, 1)),
        ("3/1'2025", date(2025, 3, 1)), ("12/31/1999", date(1999, 12, 31)),
    ):
        result = QIF.parse(f"!Type:Bank\nD{raw}\nT-1.00\n^\n", "q.qif")
        assert [t.posted for t in result.transactions] == [expected], raw
        assert result.errors == [], raw


def test_a_split_percentage_must_be_a_plain_number_within_the_whole() -> None:
    errors = {}
    for percent in ("NaN", "1e15", "Infinity", "150", "-100.01", "abc"):
        result = QIF.parse(f"!Type:Bank\nD03/01/2025\nT-10.00\nPx\nSFood\n%{percent}\n^\n", "pct.qif")
        assert result.transactions == [], percent
        [error] = result.errors
        assert (error.line, error.column) == (6, "%"), percent
        errors[percent] = error.message
    assert errors["NaN"] == "invalid split percentage 'NaN'"
    assert errors["1e15"] == "invalid split percentage '1e15'"
    assert errors["150"] == "split percentage '150' is not between -100 and 100"
    # A percentage is exact: 12.5% of -10.01 is -1.25125, to the cent -1.25; the rest is unallocated.
    result = QIF.parse("!Type:Bank\nD03/01/2025\nT-10.01\nSFood\n%12.5%\nSHome\n%87.5\n^\n", "pct.qif")
    assert [s.amount for s in result.transactions[0].splits] == [-125, -876]


def _split(total: str, *parts: str) -> ParseResult:
    """One record of `total` whose parts are `$` amounts, or `%` shares when they end in `%`."""
    lines = "".join(f"SPart{i}\n{'%' + part[:-1] if part.endswith('%') else '$' + part}\n" for i, part in enumerate(parts))
    return QIF.parse(f"!Type:Bank\nD03/15/2025\nT{total}\nPShop\n{lines}^\n", "split.qif")


def test_parts_that_outweigh_the_transaction_are_a_row_error() -> None:
    """Keeping them took a made-up rest the other way (+989.00 for a -10.00 coffee split as -999.00
    of Food), which reports counted as money spent and earned (audit 5, item 4)."""
    text = (
        "!Type:Bank\nD01/02/2025\nT-100.00\nPGrocer\nSFood\n$-30.00\nSHome\n$-20.00\n^\n"
        "D01/03/2025\nT-10.00\nPCafe\nSFood\n$-999.00\n^\n"
    )
    result = QIF.parse(text, "mismatch.qif")
    assert [str(e) for e in result.errors] == ["line 11, column T: the splits add up to -999.00, more than the transaction's -10.00"]
    [grocer] = result.transactions  # the other row is read, with the rest its parts leave
    assert [(s.amount, s.category) for s in grocer.splits] == [(-3000, "Food"), (-2000, "Home"), (-5000, None)]
    assert result.warnings == ["line 2: the splits add up to -50.00, not -100.00; the difference -50.00 is left uncategorised"]
    for total, parts, message in [
        ("-10.00", ("5.00",), "the splits add up to 5.00, the other way from the transaction's -10.00"),
        ("-10.00", ("-15.00", "4.00"), "the splits add up to -11.00, more than the transaction's -10.00"),
        ("0.00", ("-1.00",), "the splits add up to -1.00, more than the transaction's 0.00"),
        ("25.00", ("60%", "60%"), "the splits add up to 30.00, more than the transaction's 25.00"),
    ]:
        result = _split(total, *parts)
        assert (result.transactions, [str(e) for e in result.errors]) == ([], [f"line 3, column T: {message}"]), parts


def test_parts_within_the_transaction_keep_the_rest_uncategorised() -> None:
    """A rest in the transaction's direction adds no money: the parts' own refund stays theirs."""
    [row] = _split("-100.00", "-150.00", "80.00").transactions
    assert [(s.amount, s.category) for s in row.splits] == [(-15000, "Part0"), (8000, "Part1"), (-3000, None)]
    [row] = _split("-100.00", "-50.00", "50.00").transactions  # parts that cancel out leave the whole
    assert [s.amount for s in row.splits] == [-5000, 5000, -10000]
    exact = _split("0.00", "-5.00", "5.00")
    assert [s.amount for s in exact.transactions[0].splits] == [-500, 500] and not exact.warnings


def test_percentage_shares_are_rounded_without_gaining_a_cent() -> None:
    """Each share rounded on its own made 50% of -10.03 twice -5.02: parts a cent over the whole."""
    for total, parts, amounts in [
        ("-10.03", ("50%", "50%"), [-502, -501]),
        ("-0.03", ("50%", "50%"), [-2, -1]),
        ("-10.00", ("33.33%", "33.33%", "33.34%"), [-333, -334, -333]),  # -3.333, -6.666, -10.00 rounded
        ("-0.10", ("33.33%", "33.33%", "33.34%"), [-3, -4, -3]),
        ("-10.00", ("-3.00", "50%", "20%"), [-300, -500, -200]),
    ]:
        result = _split(total, *parts)
        assert [s.amount for s in result.transactions[0].splits] == amounts, parts
        assert not result.errors and not result.warnings, parts
    # Shares that add up to less than the whole leave a rest, in its direction.
    result = _split("-1000.00", "33.33%", "33.33%", "33.33%")
    assert [s.amount for s in result.transactions[0].splits] == [-33330, -33330, -33330, -10]
    assert result.warnings == ["line 2: the splits add up to -999.90, not -1000.00; the difference -0.10 is left uncategorised"]


def test_a_damaged_split_row_is_refused_or_skipped_with_skip_bad(tmp_path: Path) -> None:
    """End to end: the import names the line, `--skip-bad` imports the other row, and the report
    aggregate holds the file's 100.00 of outflow, not 1,099.00."""
    from wilson.importers.pipeline import import_file
    from wilson.ledger import Ledger

    path = tmp_path / "mismatch.qif"
    path.write_text("!Type:Bank\nD01/02/2025\nT-100.00\nPGrocer\nSFood\n$-30.00\nSHome\n$-20.00\n^\n"
                    "D01/03/2025\nT-10.00\nPCafe\nSFood\n$-999.00\n^\n")
    with Ledger() as ledger:
        with pytest.raises(ImportRefused, match="line 11, column T: the splits add up to -999.00") as refused:
            import_file(ledger, path)
        assert refused.value.skippable and str(refused.value).startswith(str(path))
        dry = import_file(ledger, path, dry_run=True, skip_bad=True)
        summary = import_file(ledger, path, skip_bad=True)
        for outcome in (dry, summary):
            assert outcome.skipped_bad == ["line 11, column T: the splits add up to -999.00, more than the transaction's -10.00"]
            assert outcome.rows_read == 2
        assert summary.added == 1
        assert ledger.scalar("SELECT SUM(amount) FROM monthly_flows WHERE amount < 0") == -10000
        assert ledger.scalar("SELECT COUNT(*) FROM monthly_flows WHERE amount > 0") == 0


def test_a_split_without_an_amount_is_reported_at_its_own_line() -> None:
    head = "!Type:Bank\nD03/01/2025\nT-10.00\nPx\nSFood\n$-10.00\nSHome\n"
    missing = QIF.parse(head + "Eno amount line\n^\n", "split.qif")
    assert [str(e) for e in missing.errors] == ["line 7, column $: the split has no amount ($ line)"]
    empty = QIF.parse(head + "$\n^\n", "split.qif")
    assert [str(e) for e in empty.errors] == ["line 8, column $: the split's amount is empty"]
    no_total = QIF.parse("!Type:Bank\nD03/01/2025\nSFood\n%50\n^\n", "split.qif")
    assert [str(e) for e in no_total.errors] == ["line 4, column %: a percentage split needs the record's amount (T line)"]
    assert missing.transactions == empty.transactions == no_total.transactions == []


def test_other_assets_are_not_cash_and_investment_sections_are_skipped() -> None:
    text = (
        "!Account\nNBrokerage\nTInvst\n^\n!Type:Invst\nD1/ 2'25\nNBuy\nYApple Inc\nT1,502.50\n^\n"
        "!Account\nNHouse\nTOth A\n^\n!Type:Oth A\nD1/ 6'25\nT5,000.00\nPRevaluation\n^\n"
        "!Account\nNMortgage\nTOth L\n^\n!Type:Oth L\nD1/ 7'25\nT-900.00\n^\n"
    )
    result = QIF.parse(text, "nonbank.qif")
    assert [(a.name, a.type) for a in result.accounts] == [("House", "investment"), ("Mortgage", "loan")]
    assert [t.account_key for t in result.transactions] == ["House", "Mortgage"]
    assert result.warnings == ["line 5: skipped the !Type:Invst section (investments are not imported)"]


def test_sections_of_different_kinds_without_account_blocks_are_separate_accounts() -> None:
    text = (
        "!Type:Bank\nD03/01/2025\nT-10.00\nPBank row\n^\n!Type:CCard\nD03/02/2025\nT-20.00\nPCard row\n^\n"
        "!Type:Cash\nD03/03/2025\nT-3.00\nPCash row\n^\n!Type:Oth A\nD03/04/2025\nT1.00\n^\n"
        "!Type:Oth L\nD03/05/2025\nT-1.00\n^\n"
    )
    result = QIF.parse(text, "/home/me/Quicken_2025-03.qif")
    assert [(a.key, a.name, a.type) for a in result.accounts] == [
        ("default", None, "checking"),  # the pipeline names it after the file, as a one-section file
        ("default-ccard", "Quicken Credit Card", "credit_card"),
        ("default-cash", "Quicken Cash", "cash"),
        ("default-oth-a", "Quicken Other Asset", "investment"),
        ("default-oth-l", "Quicken Other Liability", "loan"),
    ]
    assert [t.account_key for t in result.transactions] == [a.key for a in result.accounts]
    # Next month's export of the same file lands in the same accounts, whichever sections it has.
    card_only = QIF.parse("!Type:CCard\nD04/02/2025\nT-20.00\n^\n", "Quicken_2025-04.qif")
    assert [(a.name, a.type) for a in card_only.accounts] == [("Quicken Credit Card", "credit_card")]
    # A file already named for its kind, or an opening balance naming the account, is not relabelled.
    assert QIF.parse("!Type:Cash\nD04/02/2025\nT-2.00\n^\n", "cash.qif").accounts[0].name == "cash"
    both = QIF.parse("!Type:Bank\nD04/02/2025\nT-2.00\n^\n!Type:Cash\nD04/02/2025\nT-1.00\n^\n", "cashbook.qif")
    assert [a.name for a in both.accounts] == [None, "cashbook Cash"]  # the bank's is the file's name
    opening = QIF.parse("!Type:CCard\nD04/01/2025\nT0.00\nPOpening Balance\nL[My Visa]\n^\n", "q.qif")
    assert opening.accounts[0].name == "My Visa"


def test_a_quicken_account_list_names_no_section() -> None:
    """The `!Option:AutoSwitch` … `!Clear:AutoSwitch` list catalogues every account; a section with
    no `!Account` block of its own after it is not the last account listed (a card, here)."""
    listing = "!Option:AutoSwitch\n!Account\nNChecking\nTBank\n^\nNCredit\nTCCard\n^\n!Clear:AutoSwitch\n"
    result = QIF.parse(listing + "!Type:Bank\nD03/01/2025\nT-9.00\nPBank row\n^\n", "trimmed.qif")
    assert [(a.key, a.name, a.type) for a in result.accounts] == [("default", None, "checking")]
    named = QIF.parse(listing + "!Account\nNCredit\nTCCard\n^\n!Type:CCard\nD03/01/2025\nT-9.00\n^\n", "full.qif")
    assert [(a.key, a.name, a.type) for a in named.accounts] == [("Credit", "Credit", "credit_card")]


def test_a_card_section_after_a_bank_accounts_block_is_an_account_of_its_own() -> None:
    text = "!Account\nNSavings\nTBank\n^\n!Type:Bank\nD04/02/2025\nT500.00\n^\n!Type:CCard\nD04/05/2025\nT-19.99\nPNetflix\n^\n"
    result = QIF.parse(text, "multi.qif")
    assert [(a.key, a.name, a.type) for a in result.accounts] == [
        ("Savings", "Savings", "checking"), ("default-ccard", "multi Credit Card", "credit_card"),
    ]


def test_the_category_list_says_which_categories_are_income() -> None:
    assert parse("quiffen/test.qif").category_kinds == {"Investments:Stocks": "income", "Investments:Bonds": "income"}
    text = "!Type:Cat\nNSalary\nI\n^\nNAuto:Fuel\nE\n^\nNNo Flag\nTTrue\n^\n!Type:Bank\nD3/1/2025\nT-1.00\nLAuto:Fuel\n^\n"
    result = QIF.parse(text, "flags.qif")
    assert result.category_kinds == {"Salary": "income", "Auto:Fuel": "expense"}  # no flag: the file says nothing
    assert [(t.amount, t.category) for t in result.transactions] == [(-100, "Auto:Fuel")]


@pytest.mark.parametrize(("currency", "amounts", "minor"), [
    ("JPY", ("-1,500", "250,000"), [-1500, 250000]),
    ("BHD", ("-1.25", "500.500"), [-1250, 500500]),
])
def test_amounts_are_in_the_given_currencys_minor_units(tmp_path: Path, currency: str, amounts: tuple[str, str], minor: list[int]) -> None:
    path = tmp_path / "x.qif"
    path.write_text(f"!Type:Bank\nD3/1/25\nT{amounts[0]}\nPShop\n^\nD3/2/25\nT{amounts[1]}\nPSalary\n^\n")
    result = parse_file(path, currency=currency)
    assert [t.amount for t in result.transactions] == minor and result.accounts[0].currency == currency


def test_a_week_of_ambiguous_dates_is_read_as_days_in_a_row_unless_payees_recur() -> None:
    """`01/03` … `07/03/2025` at different shops is a week in March (day first), not the 3rd of
    seven months; the same shop charging on the 3rd of each month is a subscription, month first."""
    shops = ("TESCO", "SHELL", "COSTA", "BOOTS", "PRET", "ARGOS", "LIDL")
    week = "".join(f"D0{day}/03/2025\nT-{day}.00\nP{shop}\n^\n" for day, shop in zip(range(1, 8), shops))
    result = QIF.parse("!Type:Bank\n" + week, "uk.qif")
    assert [t.posted for t in result.transactions] == [date(2025, 3, day) for day in range(1, 8)]
    # as likely the 3rd of seven months as the first week of March: said to be a guess
    assert result.warnings == ["every date fits both day/month orders and no day over 12 decides: read as day/month"]
    monthly = "".join(f"D0{month}/03/2025\nT-9.99\nPNETFLIX\n^\n" for month in range(1, 8))
    assert [t.posted for t in QIF.parse("!Type:Bank\n" + monthly, "us.qif").transactions] == [date(2025, m, 3) for m in range(1, 8)]


def test_the_last_record_counts_towards_the_date_order_closed_or_not() -> None:
    """A mortgage paid on the 1st of each month: read month first whether the file's last record
    ends with `^` or not (without it, the last payment was left out of the payees that recur)."""
    months = "".join(f"D0{month}/01/2024\nT-1500.00\nPMortgage payment\n^\n" for month in (2, 3))
    for text in (months, months.removesuffix("^\n")):
        result = QIF.parse("!Type:Bank\n" + text, "mortgage.qif")
        assert [t.posted for t in result.transactions] == [date(2024, 2, 1), date(2024, 3, 1)]


def test_a_monthly_transfer_with_its_own_confirmation_numbers_still_recurs() -> None:
    rows = "".join(f"D0{month}/05/2025\nT500.00\nPOnline Transfer from CHK ...1234 transaction#: 2345678{month}012\n^\n" for month in range(1, 7))
    assert [t.posted for t in QIF.parse("!Type:Bank\n" + rows, "savings.qif").transactions] == [date(2025, m, 5) for m in range(1, 7)]


def test_a_last_record_without_its_caret_is_read_and_said() -> None:
    result = QIF.parse("!Type:Bank\nD03/01/2025\nT-1.00\nPCOFFEE\n^\nD03/02/2025\nT-2.00\nPTEA\n", "cut.qif")
    assert [t.amount for t in result.transactions] == [-100, -200]
    assert result.warnings == ["line 6: the file's last record has no closing ^ (truncated file?); it was read"]


def test_a_card_file_signed_from_the_issuers_side_is_read_the_other_way_round() -> None:
    """Charges positive and the payment negative: the issuer's side. Quicken's own register (charges
    negative, payment positive) and a month of only refunds stay as written."""
    issuer = ("D03/04/2025\nT23.45\nPUBER TRIP\n^\nD03/10/2025\nT-500.00\nPPAYMENT RECEIVED - THANK YOU\n^\n"
              "D03/12/2025\nT99.00\nSDining\n$60.00\nSTravel\n$39.00\n^\nD03/13/2025\nT-5.00\nPREFUND NETFLIX\n^\n")
    result = QIF.parse("!Type:CCard\n" + issuer, "visa.qif")
    assert [t.amount for t in result.transactions] == [-2345, 50000, -9900, 500]
    assert [s.amount for s in result.transactions[2].splits] == [-6000, -3900]
    assert result.warnings == [
        "visa Credit Card: its payments are negative and its charges positive (the issuer's side): every amount is read the other way round"
    ]
    quicken = issuer.replace("T23.45", "T-23.45").replace("T-500.00", "T500.00").replace("T99.00", "T-99.00")
    quicken = quicken.replace("$60.00", "$-60.00").replace("$39.00", "$-39.00").replace("T-5.00", "T5.00")
    assert [t.amount for t in QIF.parse("!Type:CCard\n" + quicken, "visa.qif").transactions] == [-2345, 50000, -9900, 500]
    refunds = "D03/04/2025\nT-23.45\nPREFUND\n^\nD03/10/2025\nT-500.00\nPAUTOPAY PAYMENT\n^\n"
    assert [t.amount for t in QIF.parse("!Type:CCard\n" + refunds, "visa.qif").transactions] == [-2345, -50000]
    bank = issuer.replace("SDining\n$60.00\nSTravel\n$39.00\n", "PDELTA\n")
    assert [t.amount for t in QIF.parse("!Type:Bank\n" + bank, "chk.qif").transactions] == [2345, -50000, 9900, -500]


def test_a_cards_next_download_without_a_payment_is_read_from_the_issuers_side_as_the_last(tmp_path: Path) -> None:
    """April holds no payment to show its signs: read as March was, its charges out, not money in.
    A first month of only positive amounts is read as written, and said to be money in."""
    from wilson.importers.pipeline import import_file
    from wilson.ledger import Ledger

    march = "!Type:CCard\nD03/02/2025\nT45.67\nPSHELL OIL 12345\n^\nD03/15/2025\nT-200.00\nPPAYMENT RECEIVED - THANK YOU\n^\n"
    april = "!Type:CCard\nD04/02/2025\nT45.67\nPSHELL OIL 12345\n^\nD04/09/2025\nT15.49\nPNETFLIX.COM\n^\n"
    (tmp_path / "Visa_2025-03.qif").write_text(march)
    (tmp_path / "Visa_2025-04.qif").write_text(april)
    with Ledger() as ledger:
        assert import_file(ledger, tmp_path / "Visa_2025-03.qif").format == "qif_issuer"
        # A batch noted before its cards were: its format says it all.
        ledger.conn.execute("UPDATE import_batches SET account_changes = json_remove(account_changes, '$.issuer_side')")
        second = import_file(ledger, tmp_path / "Visa_2025-04.qif")
        assert second.format == "qif_issuer" and second.accounts == ["Visa Credit Card"]
        assert second.warnings[0] == "Visa Credit Card: read from the issuer's side (charges positive), as its earlier downloads or --format qif_issuer say"
        assert [row["amount"] for row in ledger.query("SELECT amount FROM transactions ORDER BY posted")] == [-4567, 20000, -4567, -1549]
        assert import_file(ledger, tmp_path / "Visa_2025-04.qif").added == 0
    first = QIF.parse(april, "Amex.qif")
    assert [t.amount for t in first.transactions] == [4567, 1549] and first.format == "qif"
    assert first.warnings == ["Amex Credit Card: every amount is positive, read as money in (payments, refunds); if they are charges,"
                              " undo and import with --format qif_issuer"]
    assert [t.amount for t in qif.FORMATS[1].parse(april, "Amex.qif").transactions] == [-4567, -1549]
    quicken = "!Type:CCard\nD05/02/2025\nT-45.67\nPSHELL OIL 12345\n^\nD05/15/2025\nT200.00\nPPAYMENT RECEIVED - THANK YOU\n^\n"
    assert [t.amount for t in qif.FORMATS[1].parse(quicken, "Amex.qif").transactions] == [-4567, 20000]  # its own way shows


def test_a_cards_issuer_side_month_in_a_file_of_all_accounts_is_remembered_and_yields_to_a_month_that_shows_its_way(
    tmp_path: Path,
) -> None:
    from wilson.importers.pipeline import import_file
    from wilson.ledger import Ledger

    march = ("!Account\nNEveryday Checking\nTBank\n^\n!Type:Bank\nD03/01/2025\nT2500.00\nPPAYROLL\n^\n"
             "!Account\nNChase Visa\nTCCard\n^\n!Type:CCard\nD03/02/2025\nT45.67\nPSHELL OIL 12345\n^\n"
             "D03/15/2025\nT-200.00\nPPAYMENT RECEIVED - THANK YOU\n^\n")
    # April of all accounts again, its card's month a charge and a refund; June a refund alone.
    april = march.replace("D03/", "D04/").replace("D04/15/2025\nT-200.00\nPPAYMENT RECEIVED - THANK YOU", "D04/20/2025\nT-12.00\nPREFUND")
    june = "!Account\nNChase Visa\nTCCard\n^\n!Type:CCard\nD06/05/2025\nT-35.00\nPAMAZON.COM\n^\n"
    july = "!Account\nNChase Visa\nTCCard\n^\n!Type:CCard\nD07/02/2025\nT-9.99\nPNETFLIX\n^\nD07/15/2025\nT100.00\nPPAYMENT - THANK YOU\n^\n"
    with Ledger() as ledger:
        for name, text in (("march.qif", march), ("april.qif", april), ("june.qif", june), ("july.qif", july)):
            (tmp_path / name).write_text(text)
            import_file(ledger, tmp_path / name)
        card = ledger.query("SELECT t.amount FROM transactions t JOIN accounts a ON a.id = t.account_id WHERE a.name = 'Chase Visa' ORDER BY posted")
        assert [row["amount"] for row in card] == [-4567, 20000, -4567, 1200, 3500, -999, 10000]
    # Quicken's own card beside the issuer's in one file: each is remembered as it was read, and a
    # month of refunds is no sign of Quicken's way.
    beside = march.replace("Chase Visa", "Sapphire") + "!Account\nNAmex Gold\nTCCard\n^\n!Type:CCard\nD03/04/2025\nT-88.00\nPCOSTCO\n^\nD03/20/2025\nT150.00\nPPAYMENT - THANK YOU\n^\n"
    amex_april = "!Account\nNAmex Gold\nTCCard\n^\n!Type:CCard\nD04/04/2025\nT-64.00\nPCOSTCO\n^\nD04/09/2025\nT-9.00\nPSPOTIFY\n^\n"
    returns = ("!Account\nNSapphire\nTCCard\n^\n!Type:CCard\nD04/02/2025\nT19.99\nPAMAZON.COM\n^\nD04/05/2025\nT-35.00\nPAMAZON.COM REFUND\n^\n"
               "D04/06/2025\nT-18.00\nPTARGET RETURN\n^\nD04/07/2025\nT-42.10\nPMACYS RETURN\n^\n")
    with Ledger() as ledger:
        for name, text in (("beside.qif", beside), ("amex.qif", amex_april), ("returns.qif", returns)):
            (tmp_path / name).write_text(text)
            import_file(ledger, tmp_path / name)
        assert import_file(ledger, tmp_path / "beside.qif").added == 0
        amounts = "SELECT group_concat(t.amount) FROM transactions t JOIN accounts a ON a.id = t.account_id WHERE a.name = ?"
        assert ledger.scalar(amounts, ("Amex Gold",)) == "-8800,15000,-6400,-900"
        assert ledger.scalar(amounts, ("Sapphire",)) == "-4567,20000,-1999,3500,1800,4210"
