"""Import benchmark: a generated 100,000-row bank CSV, timed as whole `wilson import` processes.

Prints a fresh import's time and peak memory, a full re-import's time (all duplicates), a re-import
of the same file plus one new row, and the ledger's size. Targets on a 2-core machine: fresh under
1.5 s, either re-import under 1 s, peak memory under 150 MB.

    python bench/import_bench.py [--rows 100000] [--references]

`--references` gives every row its own reference number and date, as most real exports do, so
nearly every description is distinct (payee cleaning and categorising cannot share work by text).
"""

from __future__ import annotations

import argparse
import compileall
import os
import random
import subprocess
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

MERCHANTS = [
    "STARBUCKS STORE #{n} SEATTLE WA", "SQ *BLUE BOTTLE COFFEE", "AMAZON MKTPLACE PMTS AMZN.COM/BILL WA",
    "WHOLEFDS MKT #{n} AUSTIN TX", "SHELL OIL {n}", "UBER *TRIP HELP.UBER.COM", "NETFLIX.COM", "SPOTIFY USA",
    "TARGET T-{n} DENVER CO", "CHIPOTLE {n}", "COMCAST CABLE COMM", "PG&E WEBRECURRING", "CVS/PHARMACY #{n}",
    "TRADER JOE S #{n}", "LYFT *RIDE", "APPLE.COM/BILL", "DELTA AIR LINES", "HOME DEPOT #{n}",
]


def write_csv(path: Path, rows: int, extra: int = 0, seed: int = 7, references: bool = False) -> None:
    """A Chase-checking-style export, oldest first, with a running balance."""
    rng = random.Random(seed)
    day, balance = date(2016, 1, 1), 500_000
    lines = ["Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #,"]
    for i in range(rows + extra):
        if i % 40 == 0:
            day += timedelta(days=1)
        if i % 300 == 0:
            amount, desc, kind = 425_000, "ACME CORP PAYROLL PPD ID: 9876543210", "CREDIT"
        else:
            amount = -rng.randint(150, 25_000)
            desc, kind = rng.choice(MERCHANTS).format(n=rng.randint(100, 999)), "DEBIT_CARD"
            if references:
                desc = f"DEBIT CARD PURCHASE {day:%m/%d} {desc} REF {rng.randint(10**9, 10**10 - 1)}"
        balance += amount
        lines.append(f"{kind.split('_')[0]},{day:%m/%d/%Y},{desc},{_decimal(amount)},{kind},{_decimal(balance)},,")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _decimal(minor: int) -> str:
    return f"{'-' if minor < 0 else ''}{abs(minor) // 100}.{abs(minor) % 100:02d}"


def timed_import(path: Path, home: Path) -> tuple[float, float, str]:
    """Seconds and peak RSS (MB) of one whole `wilson import` process."""
    env = dict(os.environ, WILSON_HOME=str(home))
    code = "import resource, sys; from wilson.cli import main; sys.argv=['wilson','import','--json',sys.argv[1]]\n" \
           "try:\n main()\nfinally:\n print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)"
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", code, str(path)], env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"import failed: {proc.stderr.strip()}")
    peak_kb = int(proc.stderr.strip().splitlines()[-1])
    return elapsed, peak_kb / 1024, proc.stdout


def byte_compile_wilson() -> None:
    """Time Wilson as installed: pip byte-compiles a package it installs, but a source checkout run
    with PYTHONDONTWRITEBYTECODE set (as on these machines) recompiles every module in every process."""
    import wilson

    compileall.compile_dir(Path(wilson.__file__).parent, quiet=1)


def interpreter_start() -> float:
    """For scale: the fastest of three bare `python -c pass` processes on this machine."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--references", action="store_true", help="a distinct reference number on every row")
    args = parser.parse_args()
    rows = args.rows
    byte_compile_wilson()
    with tempfile.TemporaryDirectory() as tmp:
        tmpdir = Path(tmp)
        base, plus_one = tmpdir / "export.csv", tmpdir / "export-plus-one.csv"
        write_csv(base, rows, references=args.references)
        write_csv(plus_one, rows, extra=1, references=args.references)
        home = tmpdir / "home"
        fresh, fresh_mb, _ = timed_import(base, home)
        again, again_mb, _ = timed_import(base, home)
        plus, plus_mb, out = timed_import(plus_one, home)
        size_mb = sum(f.stat().st_size for f in home.glob("wilson.db*")) / 1_048_576
        kind = "every row with its own reference" if args.references else "repeated descriptions"
        print(f"rows: {rows:,}, {kind}  (file {base.stat().st_size / 1_048_576:.1f} MB)")
        print(f"fresh import:            {fresh:6.2f} s   peak {fresh_mb:5.0f} MB   (target < 1.5 s, < 150 MB)")
        print(f"re-import (all dups):    {again:6.2f} s   peak {again_mb:5.0f} MB   (target < 1 s)")
        print(f"re-import + 1 new row:   {plus:6.2f} s   peak {plus_mb:5.0f} MB   (target < 1 s)")
        print(f"ledger size:             {size_mb:6.1f} MB")
        print(f"(python start-up alone:  {interpreter_start():6.2f} s, included in each figure above)")
        assert '"added": 1,' in out, "the re-import of the file plus one row should add exactly one row"
        assert '"warnings": []' in out, "the generated running balances should agree with the amounts"


if __name__ == "__main__":
    main()
