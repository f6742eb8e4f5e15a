"""`mingshu crosscheck` under misuse (issue 7): the report never overwrites the input, bad
records fail with their reason instead of a traceback, the exit codes tell outcomes apart,
and long values are clipped in every message."""

from __future__ import annotations

import copy
import gzip
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from mingshu.cli import app
from mingshu.crosscheck.iztro import classify, record_for_input
from mingshu.crosscheck.runner import EXCEPTION_PATH, INPUT_PATH, run
from mingshu.errors import InputError

from ._support import engine_from, write_jsonl

runner = CliRunner()
LONG = 100_000


def crosscheck(*args: str) -> Result:
    result = runner.invoke(app, ["crosscheck", *args, "--no-progress"])
    # every outcome is an exit code; never an exception escaping the command
    assert isinstance(result.exception, SystemExit | None), result.exception
    assert "Traceback" not in result.output
    return result


def longest_run(text: str, char: str) -> int:
    return max((len(m) for m in re.findall(f"{re.escape(char)}+", text)), default=0)


# ------------------------------------------------------------------ 1. the report file


@pytest.mark.parametrize("spelling", ["same", "dotted", "symlink", "hardlink"])
def test_report_onto_the_input_is_refused_and_the_input_untouched(
    tmp_path: Path, records: list[dict[str, Any]], spelling: str
) -> None:
    source = write_jsonl(tmp_path / "s.jsonl", records[:3])
    before = source.read_bytes()
    (tmp_path / "sub").mkdir()
    report = {
        "same": source,
        "dotted": tmp_path / "sub" / ".." / "." / "s.jsonl",
        "symlink": tmp_path / "link.jsonl",
        "hardlink": tmp_path / "hard.jsonl",
    }[spelling]
    if spelling == "symlink":
        report.symlink_to(source)
    elif spelling == "hardlink":
        os.link(source, report)

    result = crosscheck(str(source), "--report", str(report))
    assert result.exit_code == 2
    assert result.stderr.startswith("error: report: ")
    assert "would be overwritten" in result.stderr
    assert source.read_bytes() == before

    with pytest.raises(InputError) as err:
        run(source, record_for_input, report=report, progress=False)
    assert err.value.field == "report"
    assert source.read_bytes() == before


def test_a_killed_run_leaves_the_old_report_whole(
    tmp_path: Path, records: list[dict[str, Any]]
) -> None:
    source = write_jsonl(tmp_path / "s.jsonl", records[:5])
    report = tmp_path / "report.jsonl"
    report.write_text("the old report\n", encoding="utf-8")
    agree = engine_from(records)
    calls = 0

    def killed_on_the_third(inp: dict[str, Any]) -> dict[str, Any]:
        nonlocal calls
        calls += 1
        if calls == 3:
            raise KeyboardInterrupt  # what Ctrl-C does; not caught as a per-case failure
        return agree(inp)

    with pytest.raises(KeyboardInterrupt):
        run(source, killed_on_the_third, report=report, progress=False)
    assert report.read_text(encoding="utf-8") == "the old report\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.jsonl", "s.jsonl"]

    # a complete run replaces it, and leaves no temporary file behind
    run(source, agree, report=report, progress=False)
    ids = [json.loads(x)["id"] for x in report.read_text(encoding="utf-8").splitlines()]
    assert ids == [r["input"]["id"] for r in records[:5]]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.jsonl", "s.jsonl"]


@pytest.mark.parametrize("where", ["missing-dir", "a-dir"])
def test_an_unwritable_report_is_refused_before_any_work(
    tmp_path: Path, records: list[dict[str, Any]], where: str
) -> None:
    source = write_jsonl(tmp_path / "s.jsonl", records[:1])
    report = tmp_path / "nowhere" / "r.jsonl" if where == "missing-dir" else tmp_path
    result = crosscheck(str(source), "--report", str(report))
    assert result.exit_code == 2
    assert result.stderr.startswith("error: report: ")


# ------------------------------------------------------------------ 2. bad records

# (change to the record's input, the field the failure must name)
BAD_INPUTS: list[tuple[dict[str, Any], str]] = [
    ({"date": "2023-2-30"}, "date"),
    ({"time": 99}, "time"),
    ({"time": "9"}, "time"),
    ({"gender": "x"}, "gender"),
    ({"horoscope": "bogus"}, "at"),
    ({"by": "lunar", "leap": True, "date": "2023-3-1"}, "leap"),
    ({"by": "lunar", "leap": "False", "date": "2023-3-1"}, "leap"),  # not read as true
    ({"by": "moon"}, "by"),
    ({"config": "x"}, "config"),
    ({"config": ["yearDivide"]}, "config"),
    ({"fix_leap": "yes"}, "fix_leap"),
]


@pytest.mark.parametrize(("change", "field"), BAD_INPUTS)
def test_a_bad_record_is_a_failure_with_its_reason(
    tmp_path: Path, records: list[dict[str, Any]], change: dict[str, Any], field: str
) -> None:
    bad = copy.deepcopy(records[0])
    bad["input"].update(change)
    source = write_jsonl(tmp_path / "s.jsonl", [bad, records[1]])
    summary = run(source, record_for_input, classify=classify, progress=False)
    assert (summary.passed, summary.failed, summary.bad_records) == (1, 1, 0)
    [(label, mismatch)] = summary.failures
    assert label == bad["input"]["id"]
    assert mismatch["path"] == INPUT_PATH
    assert str(mismatch["got"]).startswith(f"{field}: ")

    result = crosscheck(str(source))
    assert result.exit_code == 1
    assert result.stdout.rstrip().splitlines()[-1] == "1 passed, 1 failed"


def test_a_record_missing_its_date_names_the_field(
    tmp_path: Path, records: list[dict[str, Any]]
) -> None:
    bad = copy.deepcopy(records[0])
    del bad["input"]["date"]
    source = write_jsonl(tmp_path / "s.jsonl", [bad])
    summary = run(source, record_for_input, classify=classify, progress=False)
    assert summary.failures[0][1]["got"] == "date: missing from the record's input"


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("{oops", "not valid JSON"),
        ("[1, 2]", "expected a JSON object, got list"),
        ('"a string"', "expected a JSON object, got str"),
        ("[" * 100_000, "JSON nested too deeply"),
        ('{"input": ' * 5000 + "1" + "}" * 5000, "JSON nested too deeply"),
        ("1" * 5000, "not valid JSON"),  # more digits than Python turns into an int
        ('{"input": {"id": "x"}}', "missing key(s) 'output'"),
    ],
    ids=["not-json", "list", "string", "deep-list", "deep-object", "huge-int", "no-output"],
)
def test_a_line_that_is_not_a_record_is_listed_and_exits_2(
    tmp_path: Path, records: list[dict[str, Any]], line: str, reason: str
) -> None:
    source = write_jsonl(tmp_path / "s.jsonl", records[:2])
    with source.open("a", encoding="utf-8") as f:
        f.write(line + "\n")
        f.write(json.dumps(records[2], ensure_ascii=False) + "\n")
    result = crosscheck(str(source))
    assert result.exit_code == 2
    assert "error: s.jsonl:3: " in result.stderr and reason in result.stderr
    # the records around it were still compared, and the summary counts the bad line
    assert result.stdout.rstrip().splitlines()[-1] == "3 passed, 0 failed, 1 bad records"


@pytest.mark.parametrize("gz", [False, True])
def test_a_line_that_is_not_utf8_is_a_bad_record_with_its_own_number(
    tmp_path: Path, records: list[dict[str, Any]], gz: bool
) -> None:
    lines = [json.dumps(r, ensure_ascii=False).encode() for r in records[:2]]
    data = lines[0] + b"\n\xff\xfe not text\n" + lines[1] + b"\n"
    source = tmp_path / "s.jsonl"
    source.write_bytes(gzip.compress(data) if gz else data)
    result = crosscheck(str(source))
    assert result.exit_code == 2
    assert "error: s.jsonl:2: not UTF-8 text" in result.stderr
    assert result.stdout.rstrip().splitlines()[-1] == "2 passed, 0 failed, 1 bad records"


def test_output_too_deep_to_compare_is_a_failure_not_a_crash(
    tmp_path: Path, records: list[dict[str, Any]]
) -> None:
    deep: Any = "x"
    for _ in range(600):  # parses (below json's limit) but is deeper than compare can walk
        deep = {"k": deep}
    bad = copy.deepcopy(records[0])
    bad["output"]["chart"] = deep
    source = write_jsonl(tmp_path / "s.jsonl", [bad, records[1]])
    report = tmp_path / "report.jsonl"
    summary = run(source, engine_from([bad, records[1]]), report=report, progress=False)
    assert (summary.passed, summary.failed) == (1, 1)
    assert summary.failures[0][1]["path"] == EXCEPTION_PATH
    assert "RecursionError" in summary.failures[0][1]["got"]
    assert report.read_text(encoding="utf-8").count("\n") == 2


def test_a_crashing_classifier_fails_the_case_and_says_so(
    tmp_path: Path, records: list[dict[str, Any]]
) -> None:
    def broken(case: object, mismatches: object) -> str | None:
        raise ZeroDivisionError("oops")

    def tweak(case_id: str, ours: dict[str, Any]) -> None:
        ours["chart"]["soul"] = "?"

    source = write_jsonl(tmp_path / "s.jsonl", records[:2])
    summary = run(source, engine_from(records, tweak), classify=broken, progress=False)
    assert summary.failed == 2
    assert summary.field_mismatches[EXCEPTION_PATH] == 2
    assert summary.field_mismatches["chart.soul"] == 2


# ------------------------------------------------------------------ 3. exit codes


def iztro_error(case_id: str) -> dict[str, Any]:
    return {
        "input": {"id": case_id, "date": "2017-6-29", "time": 0, "gender": "女"},
        "output": {"id": case_id, "ok": False, "error": "something iztro could not do"},
    }


def test_exit_0_when_every_compared_case_matched(
    tmp_path: Path, records: list[dict[str, Any]]
) -> None:
    source = write_jsonl(tmp_path / "s.jsonl", [*records[:2], iztro_error("e")])
    result = crosscheck(str(source))
    assert result.exit_code == 0, result.output
    assert result.stdout.rstrip().splitlines()[-1] == "2 passed, 0 failed"


def test_exit_1_on_a_mismatch(tmp_path: Path, records: list[dict[str, Any]]) -> None:
    wrong = copy.deepcopy(records[0])
    wrong["output"]["chart"]["soul"] = (
        "破军" if wrong["output"]["chart"]["soul"] != "破军" else "贪狼"
    )
    source = write_jsonl(tmp_path / "s.jsonl", [wrong, records[1]])
    result = crosscheck(str(source))
    assert result.exit_code == 1
    assert "chart.soul" in result.stdout


@pytest.mark.parametrize("content", ["", "\n  \n"])
def test_exit_3_on_an_empty_file(tmp_path: Path, content: str) -> None:
    source = tmp_path / "s.jsonl"
    source.write_text(content, encoding="utf-8")
    result = crosscheck(str(source))
    assert result.exit_code == 3
    assert "nothing compared" in result.stderr and "no records" in result.stderr


def test_exit_3_when_every_record_is_skipped(tmp_path: Path) -> None:
    source = write_jsonl(tmp_path / "s.jsonl", [iztro_error("a"), iztro_error("b")])
    result = crosscheck(str(source))
    assert result.exit_code == 3
    assert "nothing compared" in result.stderr and "2 skipped" in result.stdout


@pytest.mark.parametrize("what", ["missing", "directory"])
def test_exit_2_on_an_unreadable_file(tmp_path: Path, what: str) -> None:
    source = tmp_path / "nope.jsonl" if what == "missing" else tmp_path
    result = crosscheck(str(source))
    assert result.exit_code == 2
    assert result.stderr.startswith("error: file: ")


def test_exit_2_on_a_bad_option(tmp_path: Path, records: list[dict[str, Any]]) -> None:
    source = write_jsonl(tmp_path / "s.jsonl", records[:1])
    assert crosscheck(str(source), "--no-such-option").exit_code == 2


def test_help_documents_the_exit_codes() -> None:
    result = runner.invoke(app, ["crosscheck", "--help"], terminal_width=200)
    assert result.exit_code == 0
    text = " ".join(result.stdout.split())
    for code in ("0 every compared case matched", "1 mismatches", "2 bad input", "3 nothing"):
        assert code in text, code


def test_readme_documents_the_exit_codes() -> None:
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    [line] = [x for x in readme.splitlines() if x.startswith("mingshu crosscheck ")]
    assert all(f"{code} " in line for code in "0123"), line


# ------------------------------------------------------------------ 6. long values


def test_a_long_argument_is_clipped(tmp_path: Path, records: list[dict[str, Any]]) -> None:
    result = crosscheck("q" * LONG)
    assert result.exit_code == 2 and result.stderr.startswith("error: file: ")
    assert longest_run(result.output, "q") <= 80

    source = write_jsonl(tmp_path / "s.jsonl", records[:1])
    result = crosscheck(str(source), "--report", str(tmp_path / ("q" * LONG)))
    assert result.exit_code == 2 and result.stderr.startswith("error: report: ")
    assert longest_run(result.output, "q") <= 80


@pytest.mark.parametrize("key", ["date", "gender", "horoscope", "config"])
def test_a_long_record_field_is_clipped(
    tmp_path: Path, records: list[dict[str, Any]], key: str
) -> None:
    bad = copy.deepcopy(records[0])
    bad["input"][key] = "q" * LONG if key != "config" else {"yearDivide": "q" * LONG}
    source = write_jsonl(tmp_path / "s.jsonl", [bad])
    report = tmp_path / "report.jsonl"
    result = crosscheck(str(source), "--report", str(report))
    assert result.exit_code == 1
    assert longest_run(result.output, "q") <= 80
    assert longest_run(report.read_text(encoding="utf-8"), "q") <= 80


def test_a_long_id_and_iztro_message_are_clipped(tmp_path: Path) -> None:
    record = iztro_error("q" * LONG)
    record["output"]["error"] = "q" * LONG
    wrong = iztro_error("q" * LONG)
    wrong["output"] = {"ok": True, "chart": {"soul": "q" * LONG}}
    source = write_jsonl(tmp_path / "s.jsonl", [record, wrong])
    result = crosscheck(str(source))
    assert result.exit_code == 1
    assert longest_run(result.output, "q") <= 80


def test_report_dash_is_standard_output_and_the_summary_goes_to_stderr(
    tmp_path: Path, records: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # a file named "-" would appear here
    source = write_jsonl(tmp_path / "s.jsonl", records[:3])
    result = crosscheck(str(source), "--report", "-")
    assert result.exit_code == 0, result.output
    lines = [json.loads(x) for x in result.stdout.splitlines()]  # nothing but the report
    assert [x["id"] for x in lines] == [r["input"]["id"] for r in records[:3]]
    assert "3 cases" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.jsonl"]
