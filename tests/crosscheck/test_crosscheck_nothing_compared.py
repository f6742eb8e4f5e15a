"""A record with nothing to compare is never a pass (issue 20): an ``ok`` that is not JSON
true or false, a charted record without its chart, or without the horoscope its input asked
for, is a bad record (exit 2), not a case that passed having compared nothing."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from mingshu.cli import app
from mingshu.crosscheck.records import BadRecord, read_records
from mingshu.crosscheck.runner import run

from ._support import engine_from, write_jsonl


def hollow(record: dict[str, Any], case: str) -> dict[str, Any]:
    """``record`` with its expected output emptied as ``case`` says."""
    r = copy.deepcopy(record)
    out = r["output"]
    if case == "only ok":
        r["output"] = {"id": out["id"], "ok": True}
    elif case == "empty chart":
        out["chart"] = {}
    elif case == "chart not an object":
        out["chart"] = [out["chart"]]
    elif case == "no horoscope":
        del out["horoscope"]
    elif case == "empty horoscope":
        out["horoscope"] = {}
    elif case == "ok missing":
        del out["ok"]
    else:  # an ok that is not a JSON boolean
        out["ok"] = {"ok null": None, "ok 'false'": "false", "ok 1": 1}[case]
    return r


CASES = [
    "only ok",
    "empty chart",
    "chart not an object",
    "no horoscope",
    "empty horoscope",
    "ok missing",
    "ok null",
    "ok 'false'",
    "ok 1",
]


@pytest.mark.parametrize("case", CASES)
def test_a_record_with_nothing_to_compare_is_a_bad_record(
    tmp_path: Path, record: dict[str, Any], case: str
) -> None:
    assert record["input"]["horoscope"]  # the fixture asks for a horoscope
    path = write_jsonl(tmp_path / "r.jsonl", [hollow(record, case)])
    [item] = list(read_records(path))
    assert isinstance(item, BadRecord), case
    summary = run(path, engine_from([record]), progress=False)
    assert (summary.passed, summary.bad_records, summary.ok) == (0, 1, False)


@pytest.mark.parametrize("case", CASES)
def test_the_command_exits_2_for_a_record_with_nothing_to_compare(
    tmp_path: Path, records: list[dict[str, Any]], case: str
) -> None:
    # With a good record beside it, which passes: the hollow one still makes the run fail.
    path = write_jsonl(tmp_path / "r.jsonl", [records[1], hollow(records[0], case)])
    result = CliRunner().invoke(app, ["crosscheck", str(path), "--no-progress"])
    assert result.exit_code == 2, result.output
    assert "1 passed, 0 failed, 1 bad records" in result.stdout
    assert "r.jsonl:2: " in result.stderr and "Traceback" not in result.output


def test_a_record_without_a_horoscope_it_did_not_ask_for_is_still_compared(
    tmp_path: Path, record: dict[str, Any]
) -> None:
    del record["input"]["horoscope"]
    record["input"].pop("horoscope_time", None)
    del record["output"]["horoscope"]
    path = write_jsonl(tmp_path / "r.jsonl", [record])
    summary = run(path, engine_from([record]), progress=False)
    assert (summary.passed, summary.bad_records, summary.ok) == (1, 0, True)


def test_an_iztro_error_record_needs_no_chart(tmp_path: Path, record: dict[str, Any]) -> None:
    record["output"] = {"id": record["input"]["id"], "ok": False, "error": "iztro threw"}
    path = write_jsonl(tmp_path / "r.jsonl", [record])
    summary = run(path, engine_from([record]), progress=False)
    assert (summary.skipped, summary.bad_records) == (1, 0)
