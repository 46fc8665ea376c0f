"""Header names in the languages bank exports are written in."""

from __future__ import annotations

from datetime import date

import pytest

from wilson.importers.csv_headers import classify, header_currency, language_currency
from wilson.importers.formats import parse_file


@pytest.mark.parametrize(
    ("header", "role", "currency"),
    [
        ("取引日", "date", None), ("入出金(円)", "amount", "JPY"), ("残高（円）", "balance", "JPY"),  # full-width parentheses
        ("入出金先内容", "text", None), ("ご利用日", "date", None), ("お引出し", "debit", None), ("お預入れ", "credit", None),
    ],
)
def test_japanese_headers_and_yen_in_parentheses(header: str, role: str, currency: str | None) -> None:
    assert (classify(header) or ("",))[0] == role
    assert header_currency(header) == currency


def test_a_japanese_header_is_read_by_name_in_yen(tmp_path) -> None:
    """Rakuten Bank: whole yen, `(円)` after the money columns' names, half-width katakana."""
    path = tmp_path / "RB-torihikimeisai.csv"
    path.write_text(
        "取引日,入出金(円),残高(円),入出金先内容\n20250303,-5780,124220,ﾄｳｷﾖｳﾃﾞﾝﾘﾖｸ\n20250305,250000,374220,ｷﾕｳﾖ ｱｸﾒ(ｶ\n",
        encoding="utf-8",
    )
    result = parse_file(path)
    assert (result.format, result.accounts[0].currency) == ("generic_csv", "JPY")
    assert [(t.posted, t.amount, t.balance, t.description) for t in result.transactions] == [
        (date(2025, 3, 3), -5780, 124220, "ﾄｳｷﾖｳﾃﾞﾝﾘﾖｸ"), (date(2025, 3, 5), 250000, 374220, "ｷﾕｳﾖ ｱｸﾒ(ｶ"),
    ]
    path.write_text("日付,金額,残高,摘要\n2025/03/03,-5780,124220,TOKYO\n2025/03/05,250000,374220,ACME\n", encoding="utf-8")
    assert parse_file(path).accounts[0].currency == "JPY"  # `残高` is a Japanese word: yen


def _rows(path) -> list[tuple]:
    result = parse_file(path)
    return [result.accounts[0].currency] + [(t.posted, t.amount, t.description, t.pending) for t in result.transactions]


def test_alipay_gbk_export_signs_by_its_direction_column(tmp_path) -> None:
    """Alipay writes GBK, amounts without a sign beside `收/支` (in/out), a preamble and a summary
    footer; a closed order (`交易关闭`) was never paid."""
    header = "交易号,交易创建时间,类型,交易对方,商品名称,金额（元）,收/支,交易状态,备注\n"
    rows = (
        "2025031422001412345678901234\t,2025-03-14 18:22:05 ,即时到账交易,瑞幸咖啡,拿铁,23.45 ,支出,交易成功,\n"
        "2025030522001412345678901235\t,2025-03-05 09:00:00 ,即时到账交易,阿克米有限公司,工资,2150.00 ,收入,交易成功,\n"
        "2025030422001412345678901236\t,2025-03-04 10:00:00 ,即时到账交易,淘宝,耳机,99.00 ,支出,交易关闭,\n"
    )
    path = tmp_path / "alipay_record.csv"
    path.write_bytes(("支付宝交易记录明细查询\n账号:[xxx@example.com]\n" + header + rows + "共3笔记录\n").encode("gbk"))
    assert _rows(path) == [
        "CNY", (date(2025, 3, 14), -2345, "瑞幸咖啡 拿铁", False), (date(2025, 3, 5), 215000, "阿克米有限公司 工资", False),
    ]


def test_korean_cp949_export_in_won(tmp_path) -> None:
    path = tmp_path / "kb.csv"
    text = "거래일시,적요,출금액,입금액,잔액\n2024.01.05 10:22,체크카드 스타벅스,4500,0,120000\n2024.01.06 09:00,급여,0,2500000,2620000\n"
    path.write_bytes(text.encode("cp949"))
    assert _rows(path) == ["KRW", (date(2024, 1, 5), -4500, "체크카드 스타벅스", False), (date(2024, 1, 6), 2500000, "급여", False)]


@pytest.mark.parametrize(
    ("header", "role", "currency"),
    [
        ("Pénznem", "currency", None), ("Опис операції", "text", None),  # Hungarian, Ukrainian (PrivatBank)
        ("Ut fra konto", "debit", "NOK"), ("Inn på konto", "credit", "NOK"),  # DNB
        ("Částka v měně účtu", "amount", None), ("Název protistrany", "payee", None),  # Air Bank
        ("Původní částka úhrady", "original_amount", None), ("Původní měna úhrady", "original_currency", None),
        ("Сумма пересчитанная в валюту счета", "amount", None), ("Основание", "text", None),  # VTB
        ("(D/C)", "direction", None), ("Beneficiary's name", "payee", None),  # SEB
        ("Booking text", "text", None), ("Payment purpose", "text", None),  # Zürcher Kantonalbank
        ("Auftraggebername", "payee", None), ("Empfängername", "payee", None), ("Umsatztext", "text", None),  # Oberbank, Livebank
    ],
)
def test_more_languages_headers(header: str, role: str, currency: str | None) -> None:
    assert (classify(header) or ("",))[0] == role
    assert language_currency(header) == currency  # Norwegian is written where the krone is


MERCURY = (  # Mercury's export of every account: `Source Account` names each row's
    "Date (UTC),Description,Amount,Status,Source Account,Bank Description,Reference,Note,Last Four Digits,Name On Card,Category,"
    "GL Code,Timestamp,Original Currency,Check Number,Tags\n"
    "01-31-2025,Stripe,4210.55,Sent,Mercury Checking ••1234,STRIPE TRANSFER ST-A1B2C3,,,,,Income,,01-31-2025 14:02:11,,,\n"
    "01-30-2025,Amazon Web Services,-312.40,Pending,Mercury Checking ••1234,,,,9876,Jane Founder,Software,,01-30-2025 03:00:00,,,\n"
    "01-29-2025,Transfer to Mercury Savings ••5678,-2000.00,Sent,Mercury Checking ••1234,,,,,,Transfer,,01-29-2025 10:00:00,,,\n"
    "01-29-2025,Transfer from Mercury Checking ••1234,2000.00,Sent,Mercury Savings ••5678,,,,,,Transfer,,01-29-2025 10:00:00,,,\n"
    "01-20-2025,Gusto,-8450.00,Failed,Mercury Checking ••1234,GUSTO PAYROLL,,,,,Payroll,,01-20-2025 09:00:00,,,\n"
    "01-21-2025,Gusto,-8450.00,Sent,Mercury Checking ••1234,GUSTO PAYROLL,,,,,Payroll,,01-21-2025 09:00:00,,,\n"
    "01-15-2025,Figma,-45.00,Sent,Mercury Checking ••1234,,,,9876,Jane Founder,Software,,01-15-2025 12:00:00,,,\n"
    "01-10-2025,OVH SAS,-102.33,Sent,Mercury Checking ••1234,,,,9876,Jane Founder,Software,,01-10-2025 12:00:00,EUR,,\n"
    "01-05-2025,Wire to Acme Ltd,-500.00,Cancelled,Mercury Checking ••1234,,,,,,Vendors,,01-05-2025 12:00:00,,,\n"
    "01-31-2025,Interest,12.04,Sent,Mercury Savings ••5678,,,,,,Interest,,01-31-2025 00:00:00,,,\n"
)


def test_mercurys_source_account_column_keeps_checking_and_savings_apart(tmp_path) -> None:
    """Each row lands in the account its `Source Account` names, in dollars (a purchase abroad's
    `Original Currency` is no account's); failed and cancelled rows are not booked."""
    path = tmp_path / "transactions-2025-02-01.csv"
    path.write_text(MERCURY, encoding="utf-8")
    result = parse_file(path)
    assert [(a.key, a.name, a.number, a.currency) for a in result.accounts] == [
        ("Mercury Checking ••1234", "Mercury Checking ••1234", None, "USD"), ("Mercury Savings ••5678", "Mercury Savings ••5678", None, "USD"),
    ]
    assert [(t.account_key, t.posted, t.amount, t.pending) for t in result.transactions] == [
        ("Mercury Checking ••1234", date(2025, 1, 31), 421055, False), ("Mercury Checking ••1234", date(2025, 1, 30), -31240, True),
        ("Mercury Checking ••1234", date(2025, 1, 29), -200000, False), ("Mercury Savings ••5678", date(2025, 1, 29), 200000, False),
        ("Mercury Checking ••1234", date(2025, 1, 21), -845000, False), ("Mercury Checking ••1234", date(2025, 1, 15), -4500, False),
        ("Mercury Checking ••1234", date(2025, 1, 10), -10233, False), ("Mercury Savings ••5678", date(2025, 1, 31), 1204, False),
    ]
    assert result.skipped_reverted == 2


def test_an_account_column_outranks_a_source_account(tmp_path) -> None:
    """`Source Account` is the rows' account only where no column is named `Account`."""
    assert (classify("Source Account") or ("",))[0] == "account"
    path = tmp_path / "export.csv"
    path.write_text("Date,Account,Description,Amount,Source Account\n2025-03-03,Joint Checking,PAYROLL,100.00,ACME Payroll Acct\n"
                    "2025-03-04,Joint Checking,KROGER,-20.00,\n", encoding="utf-8")
    assert [a.name for a in parse_file(path).accounts] == ["Joint Checking"]


def test_a_transfer_lists_source_account_beside_its_destination_names_no_rows_account(tmp_path) -> None:
    """`Source Account,Destination Account`: either side may be the user's (a tenant's rent comes
    from the tenant's account), so the file's account is named as for any other file."""
    path = tmp_path / "transfers.csv"
    path.write_text("Date,Description,Amount,Source Account,Destination Account\n"
                    "2025-01-05,Transfer out,-200.00,My Checking 1234,Ally Savings 9911\n"
                    "2025-01-09,Rent from tenant,1200.00,J Smith 5544,My Checking 1234\n", encoding="utf-8")
    result = parse_file(path)
    assert [a.key for a in result.accounts] == ["default"] and [t.amount for t in result.transactions] == [-20000, 120000]
