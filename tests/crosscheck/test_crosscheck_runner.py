"""run() and check_case(): passed, failed, skipped, known differences, the report file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mingshu.crosscheck.compare import Mismatch
from mingshu.crosscheck.records import Case, RecordFormatError, read_cases
from mingshu.crosscheck.runner import EXCEPTION_PATH, INPUT_PATH, check_case, run
from mingshu.errors import InputError

from ._support import engine_from, load_records, write_jsonl

FIRST_STAR_PALACE = 3  # palace of records[0] (s1-0) with several adjective stars


def iztro_error(case_id: str, message: str) -> dict[str, Any]:
    return {
        "input": {
            "id": case_id,
            "date": "2017-6-30",
            "time": 0,
            "gender": "女",
            "by": "lunar",
            "leap": True,
        },
        "output": {"id": case_id, "ok": False, "error": message},
    }


@pytest.mark.parametrize("gz", [False, True])
def test_engine_that_agrees_passes_everything(
    tmp_path: Path, records: list[dict[str, Any]], gz: bool
) -> None:
    path = write_jsonl(tmp_path / "r.jsonl", records, gz=gz)
    summary = run(path, engine_from(records), progress=False)
    assert (summary.passed, summary.failed, summary.skipped, summary.known_differences) == (
        len(records),
        0,
        0,
        0,
    )
    assert summary.ok and summary.total == len(records)
    assert not summary.field_mismatches
    assert summary.closing_line() == f"{len(records)} passed, 0 failed"


def test_all_fixture_files_pass_against_themselves() -> None:
    from ._support import FIXTURES

    for path in sorted(FIXTURES.glob("*.jsonl.gz")):
        summary = run(path, engine_from(load_records(path.name)), progress=False)
        assert summary.failed == 0 and summary.passed == summary.total > 0, path.name


def test_one_perturbed_star_fails_exactly_that_path(
    tmp_path: Path, records: list[dict[str, Any]]
) -> None:
    target = records[0]["input"]["id"]

    def tweak(case_id: str, ours: dict[str, Any]) -> None:
        if case_id == target:
            ours["chart"]["palaces"][FIRST_STAR_PALACE]["adjectiveStars"][0][0] = "天哭"

    path = write_jsonl(tmp_path / "r.jsonl", records)
    report = tmp_path / "report.jsonl"
    summary = run(path, engine_from(records, tweak), report=report, progress=False)
    assert (summary.passed, summary.failed) == (len(records) - 1, 1)
    assert summary.field_mismatches == {"chart.palaces[].adjectiveStars": 1}
    assert summary.field_cases == {"chart.palaces[].adjectiveStars": 1}
    assert summary.failures[0][0] == target
    assert summary.failures[0][1]["path"] == f"chart.palaces[{FIRST_STAR_PALACE}].adjectiveStars"
    assert summary.closing_line() == f"{len(records) - 1} passed, 1 failed"

    lines = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
    assert [line["id"] for line in lines] == [r["input"]["id"] for r in records]
    failed = [line for line in lines if not line["ok"]]
    assert len(failed) == 1 and failed[0]["id"] == target
    [mismatch] = failed[0]["mismatches"]
    assert mismatch["path"] == f"chart.palaces[{FIRST_STAR_PALACE}].adjectiveStars"
    assert mismatch["expected"][0][0] != "天哭" and mismatch["got"][0][0] == "天哭"
    assert all(
        line == {"id": line["id"], "ok": True, "mismatches": []} for line in lines if line["ok"]
    )


def test_field_counts_collapse_indices(tmp_path: Path, records: list[dict[str, Any]]) -> None:
    def tweak(case_id: str, ours: dict[str, Any]) -> None:
        for palace in ours["chart"]["palaces"][:3]:
            palace["changsheng12"] = "?"
        ours["horoscope"]["yearly"]["stars"][0] = [["x", "soft"]]

    path = write_jsonl(tmp_path / "r.jsonl", records[:4])
    summary = run(path, engine_from(records, tweak), progress=False)
    assert summary.failed == 4
    assert summary.field_mismatches == {
        "chart.palaces[].changsheng12": 12,
        "horoscope.yearly.stars[]": 4,
    }
    assert summary.field_cases == {"chart.palaces[].changsheng12": 4, "horoscope.yearly.stars[]": 4}


def test_iztro_errors_are_skipped_with_its_message(
    tmp_path: Path, records: list[dict[str, Any]]
) -> None:
    calls: list[str] = []
    agree = engine_from(records)

    def engine(inp: dict[str, Any]) -> dict[str, Any]:
        calls.append(inp["id"])
        return agree(inp)

    msg = "only 29 days in lunar year 2017 month 6"
    path = write_jsonl(
        tmp_path / "r.jsonl",
        [records[0], iztro_error("e1", msg), iztro_error("e2", msg), records[1]],
    )
    report = tmp_path / "report.jsonl"
    summary = run(path, engine, report=report, progress=False)
    assert (summary.passed, summary.failed, summary.skipped) == (2, 0, 2)
    assert summary.skip_reasons == {msg: 2}
    assert calls == [records[0]["input"]["id"], records[1]["input"]["id"]]
    lines = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
    assert lines[1] == {"id": "e1", "ok": True, "mismatches": [], "skipped": msg}


def test_classify_turns_failures_into_known_differences(
    tmp_path: Path, records: list[dict[str, Any]]
) -> None:
    wrong = {records[0]["input"]["id"], records[2]["input"]["id"]}
    also_wrong = records[3]["input"]["id"]
    seen: list[tuple[Any, list[str]]] = []

    def tweak(case_id: str, ours: dict[str, Any]) -> None:
        if case_id in wrong or case_id == also_wrong:
            ours["horoscope"]["age"]["nominalAge"] += 1

    def classify(case: Case, mismatches: list[Mismatch]) -> str | None:
        seen.append((case.id, [m["path"] for m in mismatches]))
        return "ageDivide birthday: iztro miscounts" if case.id in wrong else None

    path = write_jsonl(tmp_path / "r.jsonl", records[:5])
    report = tmp_path / "report.jsonl"
    summary = run(
        path, engine_from(records, tweak), report=report, classify=classify, progress=False
    )
    assert (summary.passed, summary.failed, summary.known_differences) == (2, 1, 2)
    assert summary.known_reasons == {"ageDivide birthday: iztro miscounts": 2}
    # known differences do not count as failed fields
    assert summary.field_mismatches == {"horoscope.age.nominalAge": 1}
    # classify is asked only about cases that differ
    assert sorted(case_id for case_id, _ in seen) == sorted([*wrong, also_wrong])
    assert all(p == ["horoscope.age.nominalAge"] for _, p in seen)
    lines = {json.loads(x)["id"]: json.loads(x) for x in report.read_text("utf-8").splitlines()}
    known = lines[records[0]["input"]["id"]]
    assert (
        known["ok"] is True and known["known_difference"] == "ageDivide birthday: iztro miscounts"
    )
    assert known["mismatches"][0]["path"] == "horoscope.age.nominalAge"
    assert lines[also_wrong]["ok"] is False and "known_difference" not in lines[also_wrong]


def test_input_error_on_a_charted_case_is_a_failure(records: list[dict[str, Any]]) -> None:
    def engine(inp: dict[str, Any]) -> dict[str, Any]:
        raise InputError("date", "2030-02-30 does not exist")

    case = Case(id="x", input=records[0]["input"], output=records[0]["output"], source="f", line=1)
    result = check_case(case, engine)
    assert result.failed and not result.ok
    assert result.mismatches == [
        {"path": INPUT_PATH, "expected": None, "got": "date: 2030-02-30 does not exist"}
    ]
    # ...unless the engine's classifier knows it (iztro rolls impossible dates over)
    known = check_case(case, engine, lambda c, m: "iztro rolls over impossible dates")
    assert known.ok and known.known_difference == "iztro rolls over impossible dates"


def test_other_exceptions_are_failures_not_crashes(
    tmp_path: Path, records: list[dict[str, Any]]
) -> None:
    agree = engine_from(records)
    bad = records[1]["input"]["id"]

    def engine(inp: dict[str, Any]) -> dict[str, Any]:
        if inp["id"] == bad:
            raise KeyError("tian_gui")
        return agree(inp)

    path = write_jsonl(tmp_path / "r.jsonl", records[:3])
    summary = run(path, engine, progress=False)
    assert (summary.passed, summary.failed) == (2, 1)
    assert summary.field_mismatches == {EXCEPTION_PATH: 1}
    assert summary.failures[0][1]["got"] == "KeyError: 'tian_gui'"


def test_malformed_line_is_a_bad_record_and_the_rest_is_read(
    tmp_path: Path, records: list[dict[str, Any]]
) -> None:
    path = write_jsonl(tmp_path / "r.jsonl", records[:1])
    with path.open("a", encoding="utf-8") as f:
        f.write("{oops\n")
        f.write(json.dumps(records[1], ensure_ascii=False) + "\n")
    report = tmp_path / "report.jsonl"
    summary = run(path, engine_from(records), report=report, progress=False)
    assert (summary.passed, summary.failed, summary.bad_records, summary.total) == (2, 0, 1, 3)
    assert not summary.ok  # a bad record is never a pass
    assert summary.bad_lines == [
        "r.jsonl:2: not valid JSON (Expecting property name enclosed in double quotes, column 2)"
    ]
    assert summary.closing_line() == "2 passed, 0 failed, 1 bad records"
    lines = [json.loads(x) for x in report.read_text(encoding="utf-8").splitlines()]
    assert lines[1]["line"] == 2 and lines[1]["ok"] is False
    assert lines[1]["bad_record"].startswith("not valid JSON")
    # read_cases, for library use, still stops at the first malformed line
    with pytest.raises(RecordFormatError, match=r"r\.jsonl:2: not valid JSON"):
        list(read_cases(path))


def test_progress_bar_off_a_terminal_changes_nothing(
    tmp_path: Path, records: list[dict[str, Any]]
) -> None:
    path = write_jsonl(tmp_path / "r.jsonl", records[:3])
    summary = run(path, engine_from(records), progress=True)
    assert (summary.passed, summary.failed) == (3, 0)
    assert len(list(read_cases(path))) == 3


def test_an_iztro_error_named_by_classify_is_a_known_difference() -> None:
    from mingshu.crosscheck.iztro import KNOWN_LEAP_DAY_30, classify, record_for_input
    from mingshu.crosscheck.records import Case
    from mingshu.crosscheck.runner import IZTRO_ERROR_PATH, check_case

    def case(date: str, error: str) -> Case:
        inp = {"id": date, "date": date, "time": 3, "gender": "女", "by": "lunar", "leap": True}
        return Case(inp["id"], inp, {"id": date, "ok": False, "error": error}, "t.jsonl", 1)

    # 2017 闰六月 has 30 days while 六月 has 29: iztro throws, we chart it.
    leap_30 = check_case(
        case("2017-6-30", "only 29 days in lunar year 2017 month 6"), record_for_input, classify
    )
    assert leap_30.known_difference == KNOWN_LEAP_DAY_30
    assert leap_30.mismatches[0]["path"] == IZTRO_ERROR_PATH and leap_30.ok
    # Any other iztro error is skipped with its message.
    other = check_case(case("2017-6-29", "something else"), record_for_input, classify)
    assert other.skipped == "something else" and other.known_difference is None


def test_horoscopes_before_birth_and_past_120_are_known_differences() -> None:
    from mingshu.crosscheck.iztro import (
        KNOWN_BEFORE_BIRTH,
        KNOWN_PAST_120,
        classify,
        record_for_input,
    )

    def case(target: str, small_limit: dict[str, Any]) -> Case:
        inp = {"id": target, "date": "1950-3-5", "time": 4, "gender": "男", "horoscope": target}
        # iztro charted these (with garbage): its record has a chart and a horoscope
        output = {"id": target, "ok": True, "chart": {}, "horoscope": {"age": small_limit}}
        return Case(target, inp, output, "t.jsonl", 1)

    before = check_case(case("1949-12-31", {"index": 3}), record_for_input, classify)
    assert before.known_difference == KNOWN_BEFORE_BIRTH
    assert [m["path"] for m in before.mismatches] == [INPUT_PATH]
    # 1950 + 130: nominal age 131, where iztro's small limit has no palace (index -1)
    past = check_case(
        case("2080-6-1", {"index": -1, "nominalAge": 131}), record_for_input, classify
    )
    assert past.known_difference == KNOWN_PAST_120
    # ...but a refused date that is neither is a plain failure
    other = check_case(
        case("2080-6-1", {"index": 4, "nominalAge": 131}), record_for_input, classify
    )
    assert other.failed and other.known_difference is None
