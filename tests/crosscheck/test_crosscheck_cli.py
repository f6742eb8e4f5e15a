"""`mingshu crosscheck FILE`: exit codes, the closing line, the report, a missing engine."""

from __future__ import annotations

import json
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from mingshu import __version__
from mingshu.cli import app
from mingshu.cli.crosscheck import ENGINE_MODULE
from mingshu.crosscheck.compare import Mismatch
from mingshu.crosscheck.records import Case

from ._support import engine_from, fifo_of, write_jsonl

runner = CliRunner()


def install_engine(
    monkeypatch: pytest.MonkeyPatch,
    make_record: Callable[[dict[str, Any]], dict[str, Any]],
    classify: Callable[[Case, list[Mismatch]], str | None] | None = None,
) -> None:
    """Stand in for the lead's mingshu.crosscheck.iztro module."""
    module = types.ModuleType(ENGINE_MODULE)
    module.record_for_input = make_record  # type: ignore[attr-defined]
    if classify is not None:
        module.classify = classify  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, ENGINE_MODULE, module)


def last_line(text: str) -> str:
    return text.rstrip("\n").splitlines()[-1]


def test_all_pass_exits_0(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, records: list[dict[str, Any]]
) -> None:
    install_engine(monkeypatch, engine_from(records))
    path = write_jsonl(tmp_path / "r.jsonl.gz", records, gz=True)
    result = runner.invoke(app, ["crosscheck", str(path)])
    assert result.exit_code == 0, result.output
    assert last_line(result.stdout) == f"{len(records)} passed, 0 failed"
    assert f"{len(records)} cases" in result.stdout


def test_a_failure_exits_1_and_shows_the_field(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, records: list[dict[str, Any]]
) -> None:
    target = records[2]["input"]["id"]

    def tweak(case_id: str, ours: dict[str, Any]) -> None:
        if case_id == target:
            ours["chart"]["soul"] = "破军" if ours["chart"]["soul"] != "破军" else "贪狼"

    install_engine(monkeypatch, engine_from(records, tweak))
    path = write_jsonl(tmp_path / "r.jsonl", records)
    report = tmp_path / "out" / "report.jsonl"
    report.parent.mkdir()
    result = runner.invoke(app, ["crosscheck", str(path), "--report", str(report)])
    assert result.exit_code == 1, result.output
    assert last_line(result.stdout) == f"{len(records) - 1} passed, 1 failed"
    assert "chart.soul" in result.stdout and target in result.stdout
    lines = [json.loads(x) for x in report.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == len(records)
    assert [x["id"] for x in lines if not x["ok"]] == [target]
    assert [m["path"] for x in lines for m in x["mismatches"]] == ["chart.soul"]


def test_skipped_and_known_differences_are_listed_before_the_closing_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, records: list[dict[str, Any]]
) -> None:
    known = records[0]["input"]["id"]

    def tweak(case_id: str, ours: dict[str, Any]) -> None:
        if case_id == known:
            ours["horoscope"]["age"]["nominalAge"] += 1

    install_engine(
        monkeypatch,
        engine_from(records, tweak),
        # a real classifier names only mismatches it recognises; an iztro error it does not
        # know (called with no mismatches) stays skipped
        classify=lambda case, mismatches: (
            "ageDivide birthday (iztro miscounts)" if mismatches else None
        ),
    )
    error = {
        "input": {"id": "bad", "date": "2017-6-30", "time": 0, "gender": "女"},
        "output": {"id": "bad", "ok": False, "error": "only 29 days in lunar year 2017 month 6"},
    }
    path = write_jsonl(tmp_path / "r.jsonl", [*records[:3], error])
    result = runner.invoke(app, ["crosscheck", str(path), "--no-progress"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.rstrip("\n").splitlines()
    assert lines[-1] == "2 passed, 0 failed"
    text = "\n".join(lines[:-1])
    assert "1 skipped" in text and "only 29 days in lunar year 2017 month 6" in text
    assert "1 known differences" in text and "ageDivide birthday (iztro miscounts)" in text


def test_input_error_is_a_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, records: list[dict[str, Any]]
) -> None:
    from mingshu.errors import InputError

    def engine(inp: dict[str, Any]) -> dict[str, Any]:
        raise InputError("date", "out of range")

    install_engine(monkeypatch, engine)
    path = write_jsonl(tmp_path / "r.jsonl", records[:2])
    result = runner.invoke(app, ["crosscheck", str(path)])
    assert result.exit_code == 1
    assert last_line(result.stdout) == "0 passed, 2 failed"
    assert "<input>" in result.stdout


def test_missing_engine_exits_2_with_a_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, records: list[dict[str, Any]]
) -> None:
    monkeypatch.setitem(sys.modules, ENGINE_MODULE, None)  # makes the import fail
    path = write_jsonl(tmp_path / "r.jsonl", records[:1])
    result = runner.invoke(app, ["crosscheck", str(path)])
    assert result.exit_code == 2
    assert ENGINE_MODULE in result.stderr and "not available" in result.stderr


def test_engine_without_record_for_input_exits_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, records: list[dict[str, Any]]
) -> None:
    monkeypatch.setitem(sys.modules, ENGINE_MODULE, types.ModuleType(ENGINE_MODULE))
    path = write_jsonl(tmp_path / "r.jsonl", records[:1])
    result = runner.invoke(app, ["crosscheck", str(path)])
    assert result.exit_code == 2
    assert "record_for_input" in result.stderr


def test_malformed_file_exits_2_naming_the_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, records: list[dict[str, Any]]
) -> None:
    install_engine(monkeypatch, engine_from(records))
    path = write_jsonl(tmp_path / "r.jsonl", records[:2])
    with path.open("a", encoding="utf-8") as f:
        f.write("nonsense\n")
    result = runner.invoke(app, ["crosscheck", str(path)])
    assert result.exit_code == 2
    assert "r.jsonl:3" in result.stderr


def test_missing_file_is_a_usage_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    install_engine(monkeypatch, lambda inp: {})
    result = runner.invoke(app, ["crosscheck", str(tmp_path / "nope.jsonl")])
    assert result.exit_code == 2


def test_version_and_help() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.stdout.strip() == f"mingshu {__version__}"
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0 and "crosscheck" in result.stdout


def test_a_fifo_is_read_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, records: list[dict[str, Any]]
) -> None:
    """`crosscheck <(zcat F.gz)`: the file was opened once to try it and again to read it; a
    FIFO gives its bytes to the first open only, so the records were lost (or, with nothing
    answering the second open, the run waited for ever).  Here a second open gets nothing."""
    install_engine(monkeypatch, engine_from(records))
    data = write_jsonl(tmp_path / "r.jsonl.gz", records, gz=True).read_bytes()
    with fifo_of(tmp_path / "fifo", data) as fifo:
        result = runner.invoke(app, ["crosscheck", str(fifo), "--no-progress"])
    assert result.exit_code == 0, result.output
    assert last_line(result.stdout) == f"{len(records)} passed, 0 failed"
