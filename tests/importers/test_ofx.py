"""OFX/QFX importer: every public fixture, the written ones, error paths and speed."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest

from wilson.importers import ofx
from wilson.importers.formats import parse_file
from wilson.importers.model import ImportRefused, ParseResult
from wilson.importers.pipeline import import_file
from wilson.ledger import Ledger

from parsed_fixtures import read_text

FIXTURES = Path(__file__).parent.parent / "fixtures"
OFX = ofx.FORMATS[0]


def parse(name: str) -> ParseResult:
    result = parse_file(FIXTURES / name)
    assert result.format == "ofx"
    return result


def test_bank_medium_sgml_with_unclosed_leaves_and_zones() -> None:
    result = parse("ofxparse/bank_medium.ofx")
    [account] = result.accounts
    assert (account.key, account.number, account.type, account.currency) == (
        "12300 000012345678", "12300 000012345678", "checking", "CAD",
    )
    assert (account.balance, account.balance_date) == (38234, date(2009, 5, 23))  # ledger, not available
    assert [t.amount for t in result.transactions] == [-660, -31667, -2200]
    first, second, _ = result.transactions
    assert first.posted == date(2009, 4, 1)  # 12:20:17 EST stays 1 April
    assert first.bank_id == "0000123456782009040100001"
    assert first.description == "MCDONALD'S #112"
    assert first.payee == "Mcdonald's"
    assert second.description == "Joe's Bald Hairstyles"
    assert [t.line for t in result.transactions] == [15, 16, 17]
    assert {t.account_key for t in result.transactions} == {"12300 000012345678"}
    assert not result.errors


def test_suncorp_xml_with_cdata() -> None:
    result = parse("ofxparse/suncorp.ofx")
    [account] = result.accounts
    assert (account.key, account.currency, account.institution, account.balance) == ("123456789", "AUD", "SUNCORP", 123412)
    [row] = result.transactions
    assert (row.posted, row.amount, row.bank_id, row.line) == (date(2013, 12, 15), -1685, "1", 35)
    # MEMO is NAME at full length, so it is the description; the CDATA padding is gone.
    assert row.description == "EFTPOS WDL HANDYWAY ALDI STORE   GEELONG WEST VICAU"
    assert row.payee == "Handyway Aldi Store"


def test_anz_hybrid_credit_card_keeps_the_banks_negative_balance() -> None:
    result = parse("ofxparse/anzcc.ofx")
    [account] = result.accounts
    assert (account.key, account.type, account.currency) == ("1234123412341234", "credit_card", "AUD")
    assert (account.balance, account.balance_date) == (-12345, date(2017, 5, 10))
    [row] = result.transactions
    assert (row.posted, row.amount, row.bank_id, row.description) == (date(2017, 5, 8), -550, "201705080001", "SOME MEMO")


def test_chase_qfx_blank_line_before_header_and_utf8_despite_charset() -> None:
    assert OFX.detect(read_text(FIXTURES / "ofxparse/chase_cc.qfx")) == 100
    result = parse("ofxparse/chase_cc.qfx")
    [account] = result.accounts
    assert (account.type, account.institution, account.balance) == ("credit_card", "Chase", -1000)  # its FID, not `<ORG>B1`
    [row] = result.transactions
    assert row.bank_id == "2020010112341234123412341234123"
    assert row.description == "SQ *ECCO UN POCO ¦ NATURA"
    assert row.payee == "Ecco Un Poco Natura"
    assert (row.posted, row.amount, row.line) == (date(2020, 1, 1), -1000, 43)


def test_empty_tags_nonstandard_tags_and_missing_fitid() -> None:
    result = parse("ofxparse/ofx-v102-empty-tags.ofx")
    [account] = result.accounts
    # CURDEF is empty: the rows' own CURRENCY says AUD. Empty BALAMT means no balance.
    assert (account.key, account.type, account.currency, account.balance, account.balance_date) == (
        "12345678", "checking", "AUD", None, None,
    )
    [row] = result.transactions
    assert (row.posted, row.amount, row.bank_id, row.description, row.line) == (
        date(2018, 5, 7), 1234, None, "CBA:Transfer", 23,
    )
    assert row.original_currency is None  # CURSYM is the account currency


def test_html_entities_and_payee_in_memo() -> None:
    result = parse("actual/html-vals.qfx")
    hydro, tpay = result.transactions
    assert hydro.description == "PREAUTHORIZED DEBIT;B.C. HYDRO & POWER AUTHORITY;Electronic Funds Transfer"
    assert hydro.payee == "B.C. Hydro & Power Authority"
    assert tpay.description.startswith("TPAY <DEFTPYMT> ")  # `&amp;lt;` unescaped twice
    assert tpay.payee == "Luxmore Realty Ppty Mgmt"
    assert (hydro.posted, hydro.amount) == (date(2023, 5, 9), -100)
    assert result.accounts[0].balance == 111111


def test_multi_decimal_amounts_are_exact() -> None:
    result = parse("actual/data-multi-decimal.ofx")
    assert [t.amount for t in result.transactions] == [-3000, -377]
    assert [t.bank_id for t in result.transactions] == ["00092990122-30.00019012312798.01", "00092990121-3.77019012312828.01"]
    assert result.transactions[1].payee == "Starbucks"
    [account] = result.accounts
    assert (account.institution, account.name, account.balance) == ("Bank of America", "Bank of America Checking 9123", None)


def test_latin1_qfx_without_blank_line_after_header() -> None:
    result = parse("actual/8859-1.qfx")
    [row] = result.transactions
    assert row.description == "Paiement facture/Carte prépayée PWW"
    assert (row.amount, row.bank_id) == (-2000, "wSoKuCS77")
    assert result.accounts[0].key == "999-12345-0055666-EOP"


def test_decimal_error_gives_row_errors_not_a_traceback() -> None:
    result = parse("ofxparse/decimal_error.ofx")
    assert result.transactions == []
    assert [(e.line, e.column) for e in result.errors] == [(36, "DTPOSTED"), (37, "TRNAMT")]  # each bad field's own line
    assert "201120000000" in result.errors[0].message and "$120" in result.errors[1].message
    assert result.accounts[0].currency == "CAD"


def test_two_statements_make_two_accounts() -> None:
    result = parse("written/two_statements.ofx")
    savings, card = result.accounts
    assert (savings.key, savings.type, savings.currency, savings.balance) == ("DE89370400440532013000", "savings", "EUR", 1045450)
    assert (card.key, card.type, card.balance, card.institution) == ("4111XXXXXXXX1111", "credit_card", -51734, "Example Credit Union")
    keys = [t.account_key for t in result.transactions]
    assert keys == [savings.key] * 2 + [card.key] * 3
    salary, amazon, netflix, hotel, payment = result.transactions
    assert salary.posted == date(2025, 3, 1)  # 23:30 EST is still 1 March
    assert salary.description == "ACME GMBH GEHALT SALARY MARCH" and salary.payee == "Acme Gmbh Gehalt"
    # ORIGCURRENCY: TRNAMT is in EUR already; the USD original is TRNAMT / CURRATE.
    assert (amazon.amount, amazon.original_amount, amazon.original_currency) == (-4550, -5000, "USD")
    # CURRENCY: TRNAMT is in CHF; times CURRATE gives EUR.
    assert (hotel.amount, hotel.original_amount, hotel.original_currency) == (-10500, -10000, "CHF")
    assert netflix.payee == "Netflix"
    assert (payment.amount, payment.bank_id) == (20000, None)  # empty FITID
    assert [t.line for t in result.transactions] == [43, 51, 86, 93, 104]


def test_truncated_inside_a_transaction_keeps_the_complete_ones() -> None:
    result = parse("written/truncated.ofx")
    [row] = result.transactions
    assert row.amount == -3000
    [error] = result.errors
    assert error.line == 53 and "ends inside this transaction" in error.message


def test_truncated_between_transactions_says_so() -> None:
    text = read_text(FIXTURES / "actual/data-multi-decimal.ofx")
    cut = "\n".join(text.split("\n")[:52])  # up to the first </STMTTRN>
    result = OFX.parse(cut, "cut.ofx")
    assert [t.amount for t in result.transactions] == [-3000]
    [error] = result.errors
    assert "truncated" in error.message


def test_any_prefix_of_a_fixture_never_raises_anything_but_import_refused() -> None:
    for name in ("ofxparse/bank_medium.ofx", "ofxparse/suncorp.ofx", "written/two_statements.ofx", "ofxparse/ofx-v102-empty-tags.ofx"):
        text = read_text(FIXTURES / name)
        for end in range(0, len(text), 7):
            try:
                OFX.parse(text[:end], name)
            except ImportRefused:
                pass


def test_refuses_ofx_without_statements() -> None:
    with pytest.raises(ImportRefused, match="no bank or credit-card statement"):
        OFX.parse("OFXHEADER:100\n\n<OFX><SIGNONMSGSRSV1></SIGNONMSGSRSV1></OFX>", "x.ofx")
    with pytest.raises(ImportRefused, match="investment"):
        OFX.parse("<OFX><INVSTMTMSGSRSV1><INVSTMTTRNRS><INVSTMTRS></INVSTMTRS></INVSTMTTRNRS></INVSTMTMSGSRSV1></OFX>", "x.ofx")


def test_detection_from_content() -> None:
    assert OFX.detect("\n\nOFXHEADER:100\nDATA:OFXSGML\n") == 100
    assert OFX.detect('<?xml version="1.0"?>\n<?OFX OFXHEADER="200"?>\n<OFX>') == 100
    assert OFX.detect("\r\n\r\n<OFX>\r\n<SIGNONMSGSRSV1>") == 90
    assert OFX.detect("Date,Description,Amount\n2024-01-01,Coffee,-3.50\n") == 0
    assert OFX.detect("!Type:Bank\nD1/1/2024\nT-1.00\n^\n") == 0


def test_ten_thousand_transactions_parse() -> None:
    text = read_text(FIXTURES / "written/two_statements.ofx")
    start, end = text.index("<STMTTRN>"), text.index("</STMTTRN>") + len("</STMTTRN>\n")
    rows = "".join(text[start:end].replace("SAV-0001", f"SAV-{i}") for i in range(10_000))
    big = text[:start] + rows + text[end:]
    result = OFX.parse(big, "big.ofx")
    assert len(result.transactions) == 10_004 and not result.errors


def test_amounts_with_a_thousands_separator_as_some_european_banks_write_them() -> None:
    text = read_text(FIXTURES / "written/two_statements.ofx")
    first = text[text.index("<TRNAMT>") + len("<TRNAMT>"):].split("<", 1)[0].strip()
    result = OFX.parse(text.replace(f"<TRNAMT>{first}", "<TRNAMT>-1.234,56", 1), "euro.ofx")
    assert result.errors == [] and result.transactions[0].amount == -123456
    bad = OFX.parse(text.replace(f"<TRNAMT>{first}", "<TRNAMT>12 EUR", 1), "bad.ofx")
    assert [e.column for e in bad.errors] == ["TRNAMT"]


def test_the_declared_charset_decodes_the_file() -> None:
    sgml = parse("written/charset_1252.ofx")  # `CHARSET:1252`: cp1250 would read È and Ì as Č and Ě
    assert sgml.transactions[0].description.startswith("BAR CAFFÈ CENTRALE FORLÌ")
    xml = parse("written/xml_windows1252.ofx")  # `<?xml ... encoding="windows-1252"?>`
    assert "MARTEDÌ" in xml.transactions[0].description


def test_the_banks_error_is_passed_on() -> None:
    with pytest.raises(ImportRefused, match=r"the bank answered with an error instead of a statement \(2000: Account information not available\)"):
        parse_file(FIXTURES / "written/server_error.ofx")
    partial = parse("written/one_statement_failed.qfx")  # the checking request failed, the card one did not
    assert len(partial.transactions) == 2
    assert partial.warnings == ["the bank could not send one statement (2003: Account not found); it is not in the file"]
    mixed = parse("written/bank_and_investment.qfx")
    assert len(mixed.transactions) == 1
    assert mixed.warnings == ["skipped the investment statement: Wilson imports bank and credit-card statements"]


def test_one_account_id_in_two_currencies_is_two_accounts() -> None:
    result = parse("written/one_id_two_currencies.ofx")
    assert [(a.key, a.number, a.currency) for a in result.accounts] == [
        ("P12345678", "P12345678", "EUR"), ("P12345678 USD", "P12345678", "USD"),
    ]
    assert [(t.account_key, t.amount) for t in result.transactions] == [("P12345678", -1000), ("P12345678 USD", -50000)]



def test_overlapping_statements_of_one_account_give_each_row_once() -> None:
    result = parse("written/two_statements_overlap.ofx")  # two date ranges of one account, three rows in both
    assert len(result.accounts) == 1 and len(result.transactions) == 5
    assert len({t.bank_id for t in result.transactions}) == 5
    assert result.warnings == ["3 row(s) repeated by overlapping statements of one account were read once"]


OVERLAP = "written/ofx_overlap_no_fitid.ofx"  # statements of 1-31 March and 6 March-10 April of one account
_COFFEE = "<STMTTRN><TRNTYPE>POS</TRNTYPE><DTPOSTED>20250312</DTPOSTED><TRNAMT>-5.75</TRNAMT><FITID></FITID><NAME>BLUE BOTTLE COFFEE</NAME></STMTTRN>\n"
_ATM = "<STMTTRN><TRNTYPE>ATM</TRNTYPE><DTPOSTED>20250303</DTPOSTED><TRNAMT>-40.00</TRNAMT><FITID></FITID><NAME>ATM WITHDRAWAL</NAME></STMTTRN>\n"


def rows_of(result: ParseResult) -> list[tuple[date, int, str | None, str]]:
    return [(t.posted, t.amount, t.bank_id, t.description) for t in result.transactions]


def test_a_row_without_fitid_that_overlapping_statements_both_list_is_read_once() -> None:
    result = parse(OVERLAP)  # the DEPOSIT of 10 March, `<FITID></FITID>` in both; NETFLIX with FITID 2 in both
    assert rows_of(result).count((date(2025, 3, 10), 100000, None, "DEPOSIT")) == 1
    assert rows_of(result).count((date(2025, 3, 6), -1999, "2", "NETFLIX.COM")) == 1
    assert len(result.transactions) == 7
    assert result.warnings == ["3 row(s) repeated by overlapping statements of one account were read once"]
    with Ledger() as ledger:
        assert import_file(ledger, FIXTURES / OVERLAP).added == 7
        assert ledger.scalar("SELECT COUNT(*) FROM transactions WHERE amount = 100000") == 1


def test_identical_rows_without_fitid_are_kept_as_often_as_the_statement_listing_them_more_often() -> None:
    """Two $5.75 coffees of 12 March in one statement, one in the other: two coffees, not one or three."""
    coffee = (date(2025, 3, 12), -575, None, "BLUE BOTTLE COFFEE")
    assert rows_of(parse(OVERLAP)).count(coffee) == 2
    text = read_text(FIXTURES / OVERLAP)
    second = text.index("<DTSTART>20250306")
    relisted = text[:second].replace(_COFFEE, "", 1) + text[second:].replace(_COFFEE.replace("<FITID></FITID>", ""), _COFFEE * 2)
    assert relisted.count(_COFFEE) == 3
    result = OFX.parse(relisted, "later_twice.ofx")  # now the first lists it once and the second twice
    assert rows_of(result).count(coffee) == 2
    assert result.warnings == ["3 row(s) repeated by overlapping statements of one account were read once"]


def test_a_row_without_fitid_is_a_repeat_only_on_a_day_an_earlier_statement_covers() -> None:
    assert (date(2025, 4, 5), -7700, None, "COSTCO") in rows_of(parse(OVERLAP))  # after the first statement's end
    text = read_text(FIXTURES / OVERLAP)
    second = text.index("<DTSTART>20250306")
    earlier = text[:second] + text[second:].replace("</BANKTRANLIST>", _ATM + "</BANKTRANLIST>", 1)
    result = OFX.parse(earlier, "before_its_start.ofx")  # the second lists 3 March, before its own DTSTART of 6 March
    assert rows_of(result).count((date(2025, 3, 3), -4000, None, "ATM WITHDRAWAL")) == 1  # a day the first covers
    assert result.warnings == ["4 row(s) repeated by overlapping statements of one account were read once"]


def test_statements_without_a_range_cover_their_rows_first_to_last_day() -> None:
    text = re.sub(r"<DTSTART>\d+</DTSTART><DTEND>\d+</DTEND>", "", read_text(FIXTURES / OVERLAP))
    result = OFX.parse(text, "no_range.ofx")  # 3-12 March and 6 March-5 April
    assert rows_of(result) == rows_of(parse(OVERLAP))
    assert result.warnings == ["3 row(s) repeated by overlapping statements of one account were read once"]


def test_only_whole_entities_are_decoded() -> None:
    text = read_text(FIXTURES / "written/two_statements.ofx")
    name = text[text.index("<NAME>") + len("<NAME>"):].split("<", 1)[0].strip()
    for written, read in (("PRINT&COPY", "PRINT&COPY"), ("SMITH&REGAN", "SMITH&REGAN"), ("PRINT&amp;COPY", "PRINT&COPY"),
                          ("AT&amp;amp;T", "AT&T"), ("CAF&#201;", "CAFÉ")):
        result = OFX.parse(text.replace(f"<NAME>{name}", f"<NAME>{written}", 1), "entities.ofx")
        assert result.transactions[0].description.startswith(read + " ")


def test_xml_namespace_prefixes_and_attributes_are_passed_over() -> None:
    prefixed = parse("written/xml_namespace_prefix.ofx")  # `<ofx:OFX xmlns:ofx="...">` ... `</ofx:OFX>`
    assert [t.amount for t in prefixed.transactions] == [-1250, -3000, -700, -800]
    text = read_text(FIXTURES / "written/xml_namespace_prefix.ofx").replace("ofx:", "")
    text = text.replace("<OFX xmlns:ofx=", '<OFX xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:ofx=', 1)
    assert 'xmlns:xsi="' in text and "</OFX>" in text
    assert [t.amount for t in OFX.parse(text, "attributes.ofx").transactions] == [-1250, -3000, -700, -800]


def test_a_statement_with_no_negative_amount_takes_signs_from_the_types() -> None:
    result = parse("written/unsigned_amounts.ofx")  # DEBIT rows with positive TRNAMT; LEDGERBAL agrees with outflows
    assert [t.amount for t in result.transactions] == [-1250, 10000, -3000]
    assert result.warnings == ["statement at line 33 writes no amount negative: its 2 debit row(s) are read as outflows"]


def test_a_name_cut_at_32_characters_takes_its_payee_from_the_memo_too() -> None:
    result = parse("written/wells_name_cut.qfx")  # NAME `PURCHASE AUTHORIZED ON 01/02 SQ ` and the rest in MEMO
    assert result.transactions[0].payee == "Blue Bottle Cof"


def test_rows_in_the_pending_list_are_kept_as_pending() -> None:
    result = parse("written/pending_list.ofx")  # OFX 2.1 BANKTRANLISTP/STMTTRNP: a hold with DTTRAN, no FITID
    assert [(t.posted, t.amount, t.pending) for t in result.transactions] == [
        (date(2025, 2, 20), -1000, False), (date(2025, 2, 21), -5500, True),
    ]


def test_a_cash_management_account_holding_only_cash_rows_is_read() -> None:
    result = parse("written/fidelity_cash_management.qfx")  # INVSTMTRS with INVBANKTRAN rows and no trades
    assert [(t.amount, t.description) for t in result.transactions][0] == (-4200, "DEBIT CARD PURCHASE TRADER JOE S")
    assert result.accounts[0].type == "investment" and result.accounts[0].number


def statement(rows: str, balance: str = "<LEDGERBAL><BALAMT>1225.00<DTASOF>20250331</LEDGERBAL>") -> str:
    return ("OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD"
            "<BANKACCTFROM><BANKID>1<ACCTID>888<ACCTTYPE>CHECKING</BANKACCTFROM><BANKTRANLIST>"
            f"{rows}</BANKTRANLIST>{balance}</STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n")


def row(kind: str, day: str, amount: str, name: str) -> str:
    return f"<STMTTRN><TRNTYPE>{kind}<DTPOSTED>{day}<TRNAMT>{amount}<FITID>{day}{name}<NAME>{name}</STMTTRN>"


def test_a_window_of_only_money_in_keeps_its_atm_deposit_and_pos_refund(tmp_path: Path) -> None:
    """ATM and POS rows are "debit or credit" by their sign; only rows typed as outflows alone
    show a statement that writes no sign."""
    path = tmp_path / "in.ofx"
    path.write_text(statement(row("DIRECTDEP", "20250305", "1000.00", "PAYROLL") + row("ATM", "20250306", "200.00", "ATM DEPOSIT")
                              + row("POS", "20250307", "25.00", "REFUND TARGET")))
    result = parse_file(path)
    assert [t.amount for t in result.transactions] == [100000, 20000, 2500] and not result.warnings
    path.write_text(statement(row("CREDIT", "20250305", "1000.00", "PAYROLL") + row("DEBIT", "20250306", "40.00", "GROCER")
                              + row("POS", "20250307", "12.00", "CAFE") + row("POS", "20250308", "5.00", "RETURN CAFE")))
    assert [t.amount for t in parse_file(path).transactions] == [100000, -4000, -1200, 500]


def test_a_comma_then_three_digits_is_grouping_in_a_two_decimal_currency(tmp_path: Path) -> None:
    path = tmp_path / "k.ofx"
    path.write_text(statement(row("DEBIT", "20250305", "-1,000", "RENT") + row("CREDIT", "20250306", "2,500", "PAY")
                              + row("DEBIT", "20250307", "-12,34", "CAFE")))
    assert [t.amount for t in parse_file(path).transactions] == [-100000, 250000, -1234]


def test_a_balance_cut_short_by_the_files_end_is_not_taken(tmp_path: Path) -> None:
    path = tmp_path / "cut.ofx"
    path.write_text(statement(row("DEBIT", "20250305", "-10.00", "SHOP"), "<LEDGERBAL><BALAMT>20").split("</STMTRS>")[0])
    result = parse_file(path)
    assert result.accounts[0].balance is None and [t.amount for t in result.transactions] == [-1000]


def test_a_card_statement_signed_from_the_banks_side_is_read_the_other_way_round(tmp_path: Path) -> None:
    body = (row("DEBIT", "20250305", "30.00", "RESTAURANT") + row("DEBIT", "20250306", "12.00", "CAFE")
            + row("CREDIT", "20250320", "-100.00", "PAYMENT THANK YOU"))
    path = tmp_path / "card.ofx"
    path.write_text(statement(body, "<LEDGERBAL><BALAMT>242.00<DTASOF>20250331</LEDGERBAL>"))
    result = parse_file(path)
    assert [t.amount for t in result.transactions] == [-3000, -1200, 10000] and result.accounts[0].balance == -24200
    assert any("every amount is read the other way round" in w for w in result.warnings)
    path.write_text(statement(body.replace("<TRNAMT>12.00", "<TRNAMT>-12.00")))  # one row agrees with its type: signs stand
    assert [t.amount for t in parse_file(path).transactions] == [3000, -1200, -10000]
    charges = body.replace("<TRNTYPE>CREDIT", "<TRNTYPE>PAYMENT") + row("DEBIT", "20250307", "8.00", "BAKERY")
    path.write_text(statement(charges))  # charges all DEBIT, the payment typed otherwise
    assert [t.amount for t in parse_file(path).transactions] == [-3000, -1200, 10000, -800]


def test_rows_typed_all_alike_keep_their_signs(tmp_path: Path) -> None:
    """Purchases typed CREDIT and written negative: with no DEBIT to contradict, the types say
    nothing of the signs."""
    path = tmp_path / "credit.ofx"
    path.write_text(statement("".join(row("CREDIT", f"2025030{day}", f"-{day}0.00", shop) for day, shop in ((4, "GROCERY"), (5, "GAS"), (6, "PHARMACY")))))
    result = parse_file(path)
    assert [t.amount for t in result.transactions] == [-4000, -5000, -6000] and not result.warnings


def test_a_check_deposited_is_money_in_in_a_statement_without_negatives(tmp_path: Path) -> None:
    """Banks type a deposited check `CHECK` too (a public OFX parser's fixture: `REMOTE ONLINE
    DEPOSIT #`); in a window of deposits alone nothing says the amounts are unsigned."""
    path = tmp_path / "deposit.ofx"
    path.write_text(statement(row("CHECK", "20151221", "370.99", "REMOTE ONLINE DEPOSIT # 1")))
    result = parse_file(path)
    assert [t.amount for t in result.transactions] == [37099] and not result.warnings
    path.write_text(statement(row("CHECK", "20250305", "100.00", "CHECK 1042") + row("DEP", "20250306", "500.00", "MOBILE DEPOSIT")
                              + row("CHECK", "20250307", "1500.00", "CHECK 1045 SECURITY DEPOSIT")))
    assert [t.amount for t in parse_file(path).transactions] == [-10000, 50000, -150000]  # checks written, unsigned
    path.write_text(statement(row("CHECK", "20250310", "500.00", "DEPOSIT") + row("FEE", "20250331", "2.00", "SERVICE CHARGE")))
    assert [t.amount for t in parse_file(path).transactions] == [50000, -200]  # a check typed `DEPOSIT` alone was paid in


def test_without_curdef_the_rows_at_rate_one_name_the_currency(tmp_path: Path) -> None:
    """CBA leaves CURDEF empty and names its own currency on every row at rate 1; a row bought
    abroad names another currency at its rate, which is not the account's."""
    abroad = row("DEBIT", "20250307", "-50.00", "HOTEL PARIS").replace("</STMTTRN>", "<CURRENCY><CURRATE>1.0824<CURSYM>EUR</CURRENCY></STMTTRN>")
    home = row("DEBIT", "20250308", "-20.00", "SAFEWAY")
    path = tmp_path / "nocurdef.ofx"
    path.write_text(statement(abroad + home).replace("<CURDEF>USD", "<CURDEF>"))
    result = parse_file(path)
    assert result.accounts[0].currency == "USD" and not result.accounts[0].currency_stated
    assert [(t.amount, t.original_amount, t.original_currency) for t in result.transactions] == [(-5412, -5000, "EUR"), (-2000, None, None)]
    path.write_text(statement((abroad + home.replace("</STMTTRN>", "<CURRENCY><CURRATE>1.0000<CURSYM>AUD</CURRENCY></STMTTRN>"))
                              ).replace("<CURDEF>USD", "<CURDEF>"))
    assert parse_file(path).accounts[0].currency == "AUD"


def test_a_row_abroad_with_no_rate_stays_in_its_currency_and_is_said(tmp_path: Path) -> None:
    path = tmp_path / "yen.ofx"
    path.write_text(statement(row("DEBIT", "20250305", "-1500", "TOKYO RAMEN").replace("</STMTTRN>", "<CURRENCY><CURSYM>JPY</CURRENCY></STMTTRN>")))
    result = parse_file(path)
    assert [(t.amount, t.currency) for t in result.transactions] == [(-1500, "JPY")]
    assert result.warnings == ["line 5: in another currency with no exchange rate: booked in that currency, not in the account's"]


def test_an_amount_finer_than_a_cent_is_rounded_to_it_and_said(tmp_path: Path) -> None:
    """Fidelity's cash management writes `+00000000000115.8331`: the account holds cents."""
    path = tmp_path / "fidelity.ofx"
    path.write_text(statement(row("CREDIT", "20250305", "+00000000000115.8331", "TRANSFER") + row("DEBIT", "20250306", "-1500.0000", "CHECK")
                              + row("DEBIT", "20250307", "-197.1250", "BILL PAYMENT"), balance=""))
    result = parse_file(path)
    assert [t.amount for t in result.transactions] == [11583, -150000, -19712]
    assert len(result.warnings) == 1 and "rounded" in result.warnings[0] and result.warnings[0].startswith("line 5: ")


def test_one_account_id_for_two_kinds_of_account_is_two_accounts(tmp_path: Path) -> None:
    """A credit union's checking and savings under one member number, in one file; a card of
    another bank with the number a checking account already has, in the next."""
    savings = statement(row("DEP", "20250305", "50.00", "DEPOSIT")).replace("<ACCTTYPE>CHECKING", "<ACCTTYPE>SAVINGS")
    checking = statement(row("DEBIT", "20250304", "-20.00", "GROCER"))
    both = checking.replace("</STMTTRNRS></BANKMSGSRSV1></OFX>", "</STMTTRNRS>" + savings[savings.index("<STMTTRNRS>"):savings.index("</BANKMSGSRSV1>")] + "</BANKMSGSRSV1></OFX>")
    path = tmp_path / "cu.ofx"
    path.write_text(both)
    with Ledger() as ledger:
        summary = import_file(ledger, path)
        assert sorted(a["type"] for a in ledger.query("SELECT type FROM accounts")) == ["checking", "savings"]
        assert summary.added == 2
        again = import_file(ledger, path)
        assert again.added == 0 and ledger.scalar("SELECT COUNT(*) FROM accounts") == 2
        card = tmp_path / "card.ofx"
        card.write_text(checking.replace("BANKMSGSRSV1", "CREDITCARDMSGSRSV1").replace("<STMTTRNRS>", "<CCSTMTTRNRS>")
                        .replace("</STMTTRNRS>", "</CCSTMTTRNRS>").replace("<STMTRS>", "<CCSTMTRS>").replace("</STMTRS>", "</CCSTMTRS>")
                        .replace("<BANKACCTFROM><BANKID>1<ACCTID>888<ACCTTYPE>CHECKING</BANKACCTFROM>", "<CCACCTFROM><ACCTID>888</CCACCTFROM>")
                        .replace("GROCER", "CARD SHOP"))
        import_file(ledger, card)
        assert sorted(a["type"] for a in ledger.query("SELECT type FROM accounts")) == ["checking", "credit_card", "savings"]


def test_the_last_row_left_open_keeps_its_fields(tmp_path: Path) -> None:
    """Capital One's QFX closes no `<STMTTRN>`: the last one is still open when the list closes."""
    rows = "".join(row(kind, day, amount, name).replace("</STMTTRN>", "") for kind, day, amount, name in (
        ("DEBIT", "20250305", "-40.00", "SHELL"), ("DEBIT", "20250311", "-9.99", "HULU")))
    path = tmp_path / "capitalone.qfx"
    path.write_text(statement(rows))
    result = parse_file(path)
    assert [(t.posted, t.amount, t.description) for t in result.transactions] == [
        (date(2025, 3, 5), -4000, "SHELL"), (date(2025, 3, 11), -999, "HULU")]
    assert not result.errors


def test_rows_left_open_after_an_empty_leaf_are_siblings_not_nested(tmp_path: Path) -> None:
    """No `</STMTTRN>`, and an empty `<MEMO>` last on each row: the next row nested inside the
    would-be MEMO aggregate, and two of three rows were lost without a word."""
    rows = "".join(row("DEBIT", day, amount, name).replace("</STMTTRN>", "<MEMO>\n") for day, amount, name in (
        ("20250301", "-1.00", "ONE"), ("20250302", "-2.00", "TWO"), ("20250303", "-3.00", "THREE")))
    path = tmp_path / "unclosed.ofx"
    path.write_text(statement(rows))
    result = parse_file(path)
    assert [(t.posted, t.amount, t.description) for t in result.transactions] == [
        (date(2025, 3, 1), -100, "ONE"), (date(2025, 3, 2), -200, "TWO"), (date(2025, 3, 3), -300, "THREE")]
    assert not result.errors
    # A currency block left open on each row keeps its fields: the rows were bought in euros.
    path.write_text(statement(rows.replace("<MEMO>\n", "<CURRENCY><CURRATE>1.10<CURSYM>EUR\n")))
    assert [(t.amount, t.original_amount, t.original_currency) for t in parse_file(path).transactions] == [
        (-110, -100, "EUR"), (-220, -200, "EUR"), (-330, -300, "EUR")]
    # A payee block left open inside a closed row: the fields after it are still the row's.
    payee = ("<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20250305<TRNAMT>-12.00<FITID>1<PAYEE><NAME>ACME HARDWARE<ADDR1>1 MAIN ST"
             "<CITY>BOSTON<STATE>MA<POSTALCODE>02110<PHONE>555<MEMO>POS PURCHASE CARD 1234</STMTTRN>")
    path.write_text(statement(payee + row("DEBIT", "20250306", "-5.00", "CAFE")))
    assert [(t.amount, t.description) for t in parse_file(path).transactions] == [
        (-1200, "ACME HARDWARE POS PURCHASE CARD 1234"), (-500, "CAFE")]


def test_a_reversed_fee_on_a_statement_of_money_in_stays_money_in(tmp_path: Path) -> None:
    path = tmp_path / "card.ofx"
    path.write_text(statement(row("CREDIT", "20250305", "100.00", "PAYMENT THANK YOU") + row("FEE", "20250306", "25.00", "LATE FEE REVERSAL")
                              + row("CREDIT", "20250307", "10.00", "REFUND AMAZON")))
    result = parse_file(path)
    assert [t.amount for t in result.transactions] == [10000, 2500, 1000] and not result.warnings


def card_statement(rows: str, balance: str = "") -> str:
    return ("OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n<OFX><CREDITCARDMSGSRSV1><CCSTMTTRNRS><CCSTMTRS><CURDEF>USD"
            f"<CCACCTFROM><ACCTID>4111222233334444</CCACCTFROM><BANKTRANLIST>{rows}</BANKTRANLIST>{balance}"
            "</CCSTMTRS></CCSTMTTRNRS></CREDITCARDMSGSRSV1></OFX>\n")


def test_a_cards_short_month_signed_from_the_banks_side_is_read_the_other_way_round_when_it_was_paid(tmp_path: Path) -> None:
    path = tmp_path / "card.ofx"
    path.write_text(card_statement(row("DEBIT", "20250302", "25.00", "SHOP A") + row("CREDIT", "20250310", "-90.00", "PAYMENT THANK YOU")))
    assert [t.amount for t in parse_file(path).transactions] == [-2500, 9000]
    path.write_text(card_statement(row("DEBIT", "20250302", "25.00", "SHOP A") + row("CREDIT", "20250310", "-90.00", "REFUND SHOP B")))
    assert [t.amount for t in parse_file(path).transactions] == [2500, -9000]  # nothing shows which side signed it


def test_thousands_grouped_by_a_space(tmp_path: Path) -> None:
    path = tmp_path / "cm.ofx"
    path.write_text(statement(row("DEBIT", "20250305", "-1 234,56", "LOYER") + row("CREDIT", "20250306", "2\u00a0150,00", "SALAIRE"), balance=""))
    assert [t.amount for t in parse_file(path).transactions] == [-123456, 215000]


def test_a_name_that_says_only_the_kind_of_row_leaves_the_payee_to_the_memo(tmp_path: Path) -> None:
    """`POS PURCHASE` / `SHELL OIL 57444 HOUSTON TX`: the payee was Pos Purchase, for every shop."""
    rows = "".join(
        row("DEBIT", day, "-10.00", name).replace("</STMTTRN>", f"<MEMO>{memo}</STMTTRN>")
        for day, name, memo in (
            ("20250301", "POS PURCHASE", "SHELL OIL 57444 HOUSTON TX"), ("20250302", "ACH DEBIT", "NETFLIX.COM 866-579-7172"),
            ("20250303", "PREAUTHORIZED DEBIT", "PREAUTHORIZED DEBIT;ROGERS WIRELESS;Electronic Funds Transfer"),
            ("20250304", "WHOLE FOODS", "STORE 10233"), ("20250305", "ONLINE PAYMENT", "THANK YOU"),
            ("20250306", "CHECK CARD", "0104 SHELL OIL 12345"), ("20250307", "POS PURCHASE", "BP 12345"),
            ("20250308", "DEBIT CARD PURCHASE", "7 ELEVEN 12345"),
            ("20250309", "080325 CB****3419", "DR WEILL       33PESSAC"),  # Banque Populaire: the card's day and number
            ("20250310", "MIETE 04/18 WOHNUNG 3; ASDF Immobilien GmbH", "FOLGELASTSCHRIFT; IBAN: DE12341234123412341234; BIC: ABCDABCDABC"),
        )
    )
    path = tmp_path / "memo.ofx"
    path.write_text(statement(rows))
    with Ledger() as ledger:
        import_file(ledger, path)
        assert [(r["description"], r["payee"]) for r in ledger.query("SELECT description, payee FROM transactions ORDER BY posted")] == [
            ("POS PURCHASE SHELL OIL 57444 HOUSTON TX", "Shell Oil"), ("ACH DEBIT NETFLIX.COM 866-579-7172", "Netflix"),
            ("PREAUTHORIZED DEBIT;ROGERS WIRELESS;Electronic Funds Transfer", "Rogers Wireless"),
            ("WHOLE FOODS STORE 10233", "Whole Foods"), ("ONLINE PAYMENT THANK YOU", "Online Payment"),  # a MEMO naming no one
            ("CHECK CARD 0104 SHELL OIL 12345", "Shell Oil"), ("POS PURCHASE BP 12345", "BP"),
            ("DEBIT CARD PURCHASE 7 ELEVEN 12345", "7 Eleven"), ("080325 CB****3419 DR WEILL 33PESSAC", "DR Weill"),
            # a MEMO of the kind and the bank's fields names no one (the payee was `Iban`)
            ("MIETE 04/18 WOHNUNG 3; ASDF Immobilien GmbH FOLGELASTSCHRIFT; IBAN: DE12341234123412341234; BIC: ABCDABCDABC", "MIETE WOHNUNG 3; ASDF Immobilien GmbH"),
        ]


def test_a_quiet_accounts_statement_beside_another_opens_it_with_its_balance(tmp_path: Path) -> None:
    """Checking with a row and savings with none but its balance: savings was left out without a word."""
    from wilson.ledger.undo import undo_batch

    def one(number: str, kind: str, rows: str, balance: str) -> str:
        return (f"<STMTTRNRS><STMTRS><CURDEF>USD<BANKACCTFROM><BANKID>1<ACCTID>{number}<ACCTTYPE>{kind}</BANKACCTFROM>"
                f"<BANKTRANLIST>{rows}</BANKTRANLIST><LEDGERBAL><BALAMT>{balance}<DTASOF>20250430</LEDGERBAL></STMTRS></STMTTRNRS>")

    path = tmp_path / "both.ofx"
    path.write_text("OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n<OFX><BANKMSGSRSV1>"
                    + one("5550001111", "CHECKING", row("DEBIT", "20250402", "-10.00", "GROCER"), "1490.00")
                    + one("5550002222", "SAVINGS", "", "8000.00") + "</BANKMSGSRSV1></OFX>\n")
    with Ledger() as ledger:
        summary = import_file(ledger, path)
        assert summary.accounts == ["Checking 1111", "Savings 2222"]
        assert [(a["type"], a["balance"]) for a in ledger.query("SELECT type, balance FROM accounts ORDER BY id")] == [
            ("checking", 149000), ("savings", 800000)]
        undo_batch(ledger, summary.batch_id)
        assert ledger.query("SELECT * FROM accounts") == []
