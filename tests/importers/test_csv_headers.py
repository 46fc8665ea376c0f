"""Header names in the languages bank exports are written in."""

from __future__ import annotations

from datetime import date

import pytest

from wilson.importers.csv_headers import classify, header_currency
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
