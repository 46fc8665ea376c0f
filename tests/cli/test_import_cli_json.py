"""`wilson import --json`: what a script can read from stdout alone, file by file."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from wilson.cli import main
from wilson.ledger import Ledger

HEADER = "Date,Description,Amount\n"


def write(tmp_path: Path, name: str, body: str) -> Path:
    path = tmp_path / name
    path.write_text(HEADER + body, encoding="utf-8")
    return path


def run(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(main, ["import", "--json", *args])


def interrupt_the_second_file(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Ctrl-C while the second file of a command is imported."""
    from wilson.importers import pipeline

    real, calls = pipeline.import_file, []

    def second_interrupted(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(args[1])
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(pipeline, "import_file", second_interrupted)


def test_several_files_give_an_entry_each_in_order_a_refused_one_with_its_error(tmp_path: Path) -> None:
    good1 = write(tmp_path, "good1.csv", "2025-01-02,COFFEE,-1.00\n")
    broken = write(tmp_path, "broken.csv", "2025-01-03,GROCER,abc\n")
    good2 = write(tmp_path, "good2.csv", "2025-01-04,BAKERY,-3.00\n")
    out = run(str(good1), str(broken), str(good2))
    assert out.exit_code == 1
    entries = json.loads(out.stdout)
    assert [entry["path"] for entry in entries] == [str(good1), str(broken), str(good2)]
    assert [entry.get("added") for entry in entries] == [1, None, 1]
    assert entries[1] == {"path": str(broken), "errors": [f"{broken}: 1 row(s) could not be read: line 2, column Amount: not an amount: 'abc'"]}
    assert f"wilson: {entries[1]['errors'][0]}" in out.stderr  # the same one line


def test_a_dry_run_of_several_files_lists_the_refused_one_too(tmp_path: Path) -> None:
    broken = write(tmp_path, "broken.csv", "2025-01-03,GROCER,-1.00\n2025-01-04,OOPS,abc\n")
    good = write(tmp_path, "good.csv", "2025-01-04,BAKERY,-3.00\n")
    out = run("--dry-run", str(broken), str(good))
    assert out.exit_code == 1
    refused, summary = json.loads(out.stdout)
    assert refused["path"] == str(broken) and refused["errors"][0].endswith("; fix them or use --skip-bad")
    assert (summary["path"], summary["added"], summary["dry_run"]) == (str(good), 1, True)


def test_one_file_keeps_its_shapes(tmp_path: Path) -> None:
    good = run(str(write(tmp_path, "good.csv", "2025-01-02,COFFEE,-1.00\n")))
    assert good.exit_code == 0 and json.loads(good.stdout)["added"] == 1
    broken = write(tmp_path, "broken.csv", "2025-01-03,GROCER,abc\n")
    refused = run(str(broken))
    assert refused.exit_code == 1
    assert json.loads(refused.stdout) == {"errors": [f"{broken}: 1 row(s) could not be read: line 2, column Amount: not an amount: 'abc'"]}


def test_a_dry_run_before_the_first_import_leaves_no_ledger_behind(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    home = tmp_path / "fresh-home"
    monkeypatch.setenv("WILSON_HOME", str(home))
    out = run("--dry-run", str(write(tmp_path, "good.csv", "2025-01-04,BAKERY,-3.00\n")))
    assert out.exit_code == 0 and json.loads(out.stdout)["added"] == 1
    assert not home.exists()


def test_a_fault_of_wilsons_in_one_file_is_said_for_that_file_and_the_others_go_on(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """An error nobody foresaw names its file and the log; the files after it are still imported."""
    from wilson.importers import pipeline

    good1 = write(tmp_path, "good1.csv", "2025-01-02,COFFEE,-1.00\n")
    faulty = write(tmp_path, "faulty.csv", "2025-01-03,GROCER,-2.00\n")
    good2 = write(tmp_path, "good2.csv", "2025-01-04,BAKERY,-3.00\n")
    real = pipeline._resolve_accounts

    def fault_for_one(ledger, result, rows, named, source, *rest):  # type: ignore[no-untyped-def]
        if source == str(faulty):
            raise OverflowError("date value out of range")
        return real(ledger, result, rows, named, source, *rest)

    monkeypatch.setattr(pipeline, "_resolve_accounts", fault_for_one)
    out = run(str(good1), str(faulty), str(good2))
    assert out.exit_code == 1
    entries = json.loads(out.stdout)
    assert [entry.get("added") for entry in entries] == [1, None, 1]
    [message] = entries[1]["errors"]
    assert message.startswith(f"{faulty}: unexpected error: OverflowError: date value out of range (details in ")
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr


def test_an_interrupt_after_the_commit_says_the_file_was_written(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Ctrl-C just after the import's commit (while the journal is switched back) comes too late to
    undo it: the message must not tell the user that nothing was written."""
    from wilson.importers import pipeline

    real = pipeline.import_file

    def interrupted(*args, **kwargs):  # type: ignore[no-untyped-def]
        real(*args, **kwargs)
        raise KeyboardInterrupt

    monkeypatch.setattr(pipeline, "import_file", interrupted)
    path = write(tmp_path, "late.csv", "2025-01-02,COFFEE,-1.00\n")
    out = CliRunner().invoke(main, ["import", str(path)])
    assert out.exit_code == 130
    assert f"{path}: interrupted; the file was written all the same, as batch 1 (undo: wilson import --undo 1)" in out.stderr
    out = CliRunner().invoke(main, ["import", "--dry-run", str(write(tmp_path, "dry.csv", "2025-01-03,TEA,-2.00\n"))])
    assert out.exit_code == 130 and "interrupted; nothing from this file was written" in out.stderr


def test_an_interrupted_json_import_of_several_files_still_lists_the_ones_written(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    interrupt_the_second_file(monkeypatch)
    first, second = write(tmp_path, "a.csv", "2025-01-02,COFFEE,-1.00\n"), write(tmp_path, "b.csv", "2025-01-03,TEA,-2.00\n")
    out = CliRunner().invoke(main, ["import", "--json", str(first), str(second)])
    assert out.exit_code == 130
    entries = json.loads(out.stdout)
    assert entries[0]["batch_id"] == 1 and entries[0]["added"] == 1
    assert entries[1] == {"path": str(second), "errors": [f"{second}: interrupted; nothing from this file was written"]}


def test_a_refused_first_import_leaves_no_ledger_behind_and_a_later_refusal_keeps_the_ledger(
    tmp_path: Path, wilson_home: Path
) -> None:
    ledger = wilson_home / "wilson.db"
    broken = write(tmp_path, "broken.csv", "2025-01-03,GROCER,abc\n")
    assert run(str(broken)).exit_code == 1
    assert list(wilson_home.glob("wilson.db*")) == []
    good = write(tmp_path, "good.csv", "2025-01-04,BAKERY,-3.00\n")
    assert run(str(good)).exit_code == 0
    assert run(str(broken)).exit_code == 1
    assert ledger.exists()
    assert json.loads(run(str(good)).stdout)["duplicates"] == 1  # the first import's row is still there


def test_a_dash_imports_the_export_piped_in_and_records_no_path(tmp_path: Path) -> None:
    export = HEADER + "2025-01-02,COFFEE,-1.00\n2025-01-03,PAYROLL,1500.00\n"
    out = CliRunner().invoke(main, ["import", "--json", "-"], input=export.encode())
    assert out.exit_code == 0, out.output
    assert (json.loads(out.stdout)["added"], json.loads(out.stdout)["path"]) == (2, "-")
    again = CliRunner().invoke(main, ["import", "--json", "-"], input=export.encode())
    assert (json.loads(again.stdout)["added"], json.loads(again.stdout)["duplicates"]) == (0, 2)
    ledger = Ledger()
    assert [(row["file_name"], row["file_path"]) for row in ledger.query("SELECT * FROM import_batches")] == [("-", None)] * 2
    ledger.close()
    twice = CliRunner().invoke(main, ["import", "-", "-"], input=export.encode())
    assert (twice.exit_code, twice.stderr) == (1, "wilson: - (standard input) can be given once: what is piped in is read once\n")
    empty = CliRunner().invoke(main, ["import", "-"], input=b"")
    assert (empty.exit_code, empty.stderr) == (1, "wilson: -: the file is empty\n")


def test_several_files_with_a_refused_one_end_by_saying_which_went_in(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Each file is its own import: a script reading the exit status alone would think none went in."""
    good = write(tmp_path, "good.csv", "2025-01-02,COFFEE,-1.00\n")
    broken = write(tmp_path, "broken.csv", "2025-01-03,GROCER,abc\n")
    out = CliRunner().invoke(main, ["import", str(good), str(broken)])
    assert out.exit_code == 1 and out.stderr.splitlines()[-1] == f"wilson: 1 of 2 files imported; not: {broken}"
    interrupt_the_second_file(monkeypatch)
    third = write(tmp_path, "third.csv", "2025-01-05,TEA,-2.00\n")
    out = CliRunner().invoke(main, ["import", str(good), str(broken), str(third)])
    assert out.exit_code == 130 and f"{broken}: interrupted; nothing from this file was written; not read: {third}" in out.stderr
