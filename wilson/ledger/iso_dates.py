"""Day arithmetic on the ISO dates the ledger stores: rows match across files a few days apart."""

from __future__ import annotations

from datetime import date, timedelta


def days(a: str, b: str) -> int:
    return (date.fromisoformat(a) - date.fromisoformat(b)).days


def shift(day: str, days: int) -> str:
    return (date.fromisoformat(day) + timedelta(days=days)).isoformat()
