"""Statement balances stated above a CSV's table: the account's balance, and a check of the rows."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from parsed_fixtures import parse_written


def test_dkb_kontostand_above_the_table_is_the_balance_on_its_date(tmp_path: Path) -> None:
    result = parse_written(tmp_path, (
        '"Kontonummer:";"DE12120300001234567890 / Girokonto";\n\n"Von:";"01.03.2025";\n"Bis:";"31.03.2025";\n'
        '"Kontostand vom 31.03.2025:";"1.234,56 EUR";\n\n'
        '"Buchungstag";"Wertstellung";"Buchungstext";"Auftraggeber / Begünstigter";"Verwendungszweck";"Betrag (EUR)";\n'
        '"28.03.2025";"28.03.2025";"Lastschrift";"REWE";"Einkauf";"-45,20";\n'
        '"15.03.2025";"15.03.2025";"Gutschrift";"ACME GmbH";"Gehalt";"2.500,00";\n'
    ), "cp1252")
    [account] = result.accounts
    assert (account.balance, account.balance_date, account.currency) == (123456, date(2025, 3, 31), "EUR")


def test_label_and_amount_in_one_cell_and_available_balance_is_not_the_accounts(tmp_path: Path) -> None:
    french = parse_written(tmp_path, "Solde au 31/03/2025 : 1 234,56 €\n\nDate;Libellé;Débit euros;Crédit euros\n"
                              "28/03/2025;CB CARREFOUR;45,20;\n15/03/2025;VIR SALAIRE;;2 500,00\n")
    assert (french.accounts[0].balance, french.accounts[0].balance_date) == (123456, date(2025, 3, 31))
    singapore = parse_written(tmp_path, 'Account details for:,360 Account 123-456789-001\nAvailable Balance,"1,300.00"\n'
                                 'Ledger Balance,"1,234.56"\n\nTransaction date,Description,Withdrawals (SGD),Deposits (SGD)\n'
                                 "02/01/2025,SHENG SIONG,12.50,\n03/01/2025,SALARY,,100.00\n")
    assert (singapore.accounts[0].balance, singapore.accounts[0].balance_date) == (123456, None)  # as of the last row


def test_opening_and_closing_balances_check_the_rows(tmp_path: Path) -> None:
    rows = "\nDate,Description,Amount\n2025-03-15,Salary,2500.00\n2025-03-28,Groceries,-45.20\n"
    agreeing = parse_written(tmp_path, "Opening balance,100.00\nClosing balance,2554.80\n" + rows)
    assert (agreeing.accounts[0].balance, agreeing.warnings) == (255480, [])
    disagreeing = parse_written(tmp_path, "Opening balance,100.00\nClosing balance,2600.00\n" + rows)
    assert disagreeing.warnings == ["the rows add up to 2454.80, but the statement's balance goes from 100.00 to 2600.00"]


def test_a_running_balance_column_or_a_card_keeps_its_own_reading(tmp_path: Path) -> None:
    running = parse_written(tmp_path, "Closing balance,999.00\n\nDate,Description,Amount,Balance\n"
                               "2025-03-15,Salary,2500.00,2500.00\n2025-03-28,Groceries,-45.20,2454.80\n")
    assert running.accounts[0].balance is None  # the pipeline takes the running balance's last figure
    card = parse_written(tmp_path, "Current balance,58.33\n\nDate,Description,Amount\n"
                            "2025-03-15,PAYMENT THANK YOU,-500.00\n2025-03-28,AMAZON,45.20\n2025-03-29,UBER,12.00\n")
    assert card.accounts[0].type == "credit_card" and card.accounts[0].balance is None  # owed: its sign is the bank's
    named = parse_written(tmp_path, '"Account Name:","Nationwide Credit Card ****1234"\n"Account Balance:","£123.45"\n\n'
                                    '"Date","Transactions","Location","Paid out","Paid in"\n'
                                    '"12 Mar 2025","TESCO STORES 2222","LONDON","£23.45",""\n')
    assert named.accounts[0].balance is None  # the pipeline types it a card by its name


def test_a_purchase_named_with_a_balance_word_is_a_purchase_and_a_dropped_balance_line_is_told(tmp_path: Path) -> None:
    result = parse_written(tmp_path, (
        "Date,Description,Amount\n03/01/2025,PAYROLL,2000.00\n03/02/2025,NEW BALANCE ATHLETICS #0123 BOSTON MA,-129.99\n"
        "03/15/2025,Closing balance adjustment fee,-5.00\n03/31/2025,Closing balance,1865.01\n"
    ))
    assert [t.amount for t in result.transactions] == [200000, -12999, -500]
    assert result.warnings == ["line 5: skipped 'Closing balance' (a balance line)"]


def test_footer_opening_balance_checks_the_rows(tmp_path: Path) -> None:
    """comdirect writes `Neuer Kontostand` above its table and `Alter Kontostand` below it."""
    text = (
        ';\n"Umsätze Girokonto";"Zeitraum: 30 Tage";\n"Neuer Kontostand";"{closing} EUR";\n\n'
        '"Buchungstag";"Wertstellung (Valuta)";"Vorgang";"Buchungstext";"Umsatz in EUR";\n'
        '"14.03.2025";"14.03.2025";"Gutschrift";"Auftraggeber: ACME GmbH Buchungstext: Gehalt";"2.500,00";\n'
        '"10.03.2025";"10.03.2025";"Lastschrift";"Auftraggeber: REWE";"-80,00";\n\n"Alter Kontostand";"1.000,00 EUR";\n'
    )
    agreeing = parse_written(tmp_path, text.format(closing="3.420,00"), "cp1252")
    assert agreeing.accounts[0].balance == 342000
    assert not [w for w in agreeing.warnings if "statement" in w]
    disagreeing = parse_written(tmp_path, text.format(closing="3.440,00"), "cp1252")
    assert "the rows add up to 2420.00, but the statement's balance goes from 1000.00 to 3440.00" in disagreeing.warnings


def test_a_balance_written_as_of_a_day_after_its_amount(tmp_path: Path) -> None:
    """ASB: `Ledger Balance : 2603.33 as of 20250201`, beside an available balance that is not it."""
    result = parse_written(tmp_path, (
        "Created date / time : 01 February 2025 / 09:12:44\nBank 12; Branch 3456; Account 0123456-50 (Streamline)\n"
        "From date 20250101\nTo date 20250131\nAvail Bal : 2503.33 as of 20250201\nLedger Balance : 2603.33 as of 20250201\n"
        "Date,Unique Id,Tran Type,Cheque Number,Payee,Memo,Amount\n\n"
        '2025/01/03,2025010300,EFTPOS,,"COUNTDOWN AUCKLAND","REF 0",-87.34\n2025/01/09,2025010901,D/C,,"ACME LTD SALARY","REF 1",3100.00\n'
    ))
    assert (result.accounts[0].balance, result.accounts[0].balance_date) == (260333, date(2025, 2, 1))
