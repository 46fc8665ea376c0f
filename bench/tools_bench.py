"""Time the report tools on a big synthetic ledger: best of 5 warm runs each.

Usage: python bench/tools_bench.py [--ledger PATH] [-n 1000000] [-y 10] [-k 12]
Without --ledger (or when PATH does not exist) a ledger is generated with bench/ledger_gen.py.
Targets: each under 100 ms, detect_anomalies and list_recurring (2 years) under 1 s.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ledger_gen import generate  # noqa: E402

from wilson.ledger import Ledger  # noqa: E402
from wilson.tools import ToolContext, load_tools, run_tool  # noqa: E402

END = date(2025, 6, 30)


def cases(today: date) -> list[tuple[str, str, dict, float]]:
    two_years = {"start_date": date(today.year - 2, today.month, 1).isoformat(), "end_date": today.isoformat()}
    return [
        ("spending_summary: one month by category", "spending_summary",
         {"start_date": "2025-05-01", "end_date": "2025-05-31", "group_by": "category"}, 0.1),
        ("spending_summary: a year by month", "spending_summary",
         {"start_date": "2024-07-01", "end_date": "2025-06-30", "group_by": "month"}, 0.1),
        ("search_transactions: full text", "search_transactions", {"query": "whole foods", "limit": 50}, 0.1),
        ("check_budgets", "check_budgets", {}, 0.1),
        ("detect_anomalies: 2 years", "detect_anomalies", two_years, 1.0),
        ("list_recurring: 2 years", "list_recurring", two_years, 1.0),
    ]


def best_of(runs: int, call) -> tuple[float, dict]:
    result, best = call(), float("inf")  # the first call warms caches and is not counted
    for _ in range(runs):
        started = time.perf_counter()
        result = call()
        best = min(best, time.perf_counter() - started)
    return best, result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ledger", type=Path)
    parser.add_argument("-n", "--transactions", type=int, default=1_000_000)
    parser.add_argument("-y", "--years", type=int, default=10)
    parser.add_argument("-k", "--accounts", type=int, default=12)
    args = parser.parse_args(argv)
    path = args.ledger or Path(tempfile.mkdtemp(prefix="wilson-bench-")) / "bench.db"
    if not path.exists():
        summary = generate(path, args.transactions, args.years, args.accounts, end=END)
        print(f"generated {summary['transactions']} transactions in {summary['seconds']} s: {path}")
    tools = load_tools()
    ledger = Ledger(path)
    ctx = ToolContext(ledger=ledger, today=END)
    ledger.conn.execute("INSERT INTO budgets (category_id, amount) SELECT id, 50000 FROM categories"
                        " WHERE name IN ('Food', 'Groceries', 'Transportation', 'Shopping') ON CONFLICT DO NOTHING")
    failed = False
    for label, name, tool_args, target in cases(END):
        if name not in tools:
            print(f"{label:45s}  skipped (tool not registered)")
            continue
        seconds, result = best_of(5, lambda: run_tool(name, tool_args, ctx))
        ok = seconds < target and "error" not in result
        failed |= not ok
        note = f"  ERROR {result['error']['message']}" if "error" in result else ""
        print(f"{label:45s} {seconds * 1000:8.1f} ms  (target {target * 1000:.0f} ms) {'ok' if ok else 'SLOW'}{note}")
    ledger.close()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
