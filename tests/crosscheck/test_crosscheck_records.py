"""read_cases(): plain and gzip JSON Lines, and clear errors for malformed lines."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mingshu.crosscheck.records import Case, RecordFormatError, count_cases, read_cases

from ._support import FIXTURES, fifo_of, write_jsonl


@pytest.mark.parametrize("gz", [False, True])
def test_plain_and_gzip_read_the_same(
    tmp_path: Path, records: list[dict[str, Any]], gz: bool
) -> None:
    path = write_jsonl(tmp_path / "records.jsonl", records, gz=gz)
    cases = list(read_cases(path))
    assert [c.id for c in cases] == [r["input"]["id"] for r in records]
    assert [c.input for c in cases] == [r["input"] for r in records]
    assert [c.output for c in cases] == [r["output"] for r in records]
    assert [c.line for c in cases] == list(range(1, len(records) + 1))
    assert all(c.source == "records.jsonl" and c.expected_ok for c in cases)
    assert count_cases(path) == len(records)


def test_gzip_is_recognised_by_content_not_name(
    tmp_path: Path, records: list[dict[str, Any]]
) -> None:
    path = write_jsonl(tmp_path / "records.jsonl", records[:2], gz=True)
    assert [c.id for c in read_cases(path)] == [r["input"]["id"] for r in records[:2]]


def test_fixture_files_read_completely() -> None:
    counts = {p.name: len(list(read_cases(p))) for p in sorted(FIXTURES.glob("*.jsonl.gz"))}
    assert counts == {
        "astro-types.jsonl.gz": 150,
        "configs.jsonl.gz": 200,
        "edges.jsonl.gz": 200,
        "random.jsonl.gz": 300,
    }


def test_blank_lines_are_skipped_and_line_numbers_kept(
    tmp_path: Path, records: list[dict[str, Any]]
) -> None:
    path = write_jsonl(tmp_path / "r.jsonl", records[:2])
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n" + lines[0] + "\n   \n" + lines[1] + "\n\n", encoding="utf-8")
    assert [c.line for c in read_cases(path)] == [2, 4]
    assert count_cases(path) == 2


@pytest.mark.parametrize(
    ("bad_line", "message"),
    [
        ('{"input": {"id": 1}, "output": ', "not valid JSON"),
        ("[1, 2]", "expected a JSON object, got list"),
        ('{"input": {"id": "x"}}', "missing key(s) 'output'"),
        ('{"input": {"id": "x"}, "output": 3}', "'output' must be a JSON object"),
        ('{"input": "raw", "output": {"ok": true}}', "'input' must be a JSON object"),
    ],
)
def test_malformed_line_names_file_and_line(
    tmp_path: Path, records: list[dict[str, Any]], bad_line: str, message: str
) -> None:
    path = write_jsonl(tmp_path / "bad.jsonl", records[:2])
    with path.open("a", encoding="utf-8") as f:
        f.write(bad_line + "\n")
    cases = read_cases(path)
    assert next(cases).line == 1 and next(cases).line == 2
    with pytest.raises(RecordFormatError, match=r"bad\.jsonl:3: ") as err:
        next(cases)
    assert message in str(err.value)


def test_truncated_gzip_is_a_record_format_error(
    tmp_path: Path, records: list[dict[str, Any]]
) -> None:
    path = write_jsonl(tmp_path / "r.jsonl.gz", records, gz=True)
    path.write_bytes(path.read_bytes()[:-200])
    with pytest.raises(RecordFormatError, match=r"r\.jsonl\.gz"):
        list(read_cases(path))


def test_iztro_error_records(tmp_path: Path) -> None:
    path = write_jsonl(
        tmp_path / "errors.jsonl",
        [
            {
                "input": {"id": "a", "date": "2017-6-30"},
                "output": {"id": "a", "ok": False, "error": "x"},
            },
            {"input": "not json", "output": {"id": None, "ok": False, "error": "bad JSON"}},
            {
                "input": {"date": "2000-1-1"},
                "output": {"id": "from-output", "ok": False, "error": "y"},
            },
        ],
    )
    cases = list(read_cases(path))
    assert [c.id for c in cases] == ["a", None, "from-output"]
    assert [c.expected_ok for c in cases] == [False, False, False]
    assert [c.label for c in cases] == ["a", "errors.jsonl:2", "from-output"]


def test_case_label_prefers_id() -> None:
    case = Case(id=7, input={}, output={}, source="f.jsonl", line=3)
    assert case.label == "7"
    assert case.expected_ok


@pytest.mark.parametrize("gz", [False, True])
def test_a_fifo_is_read_once(tmp_path: Path, records: list[dict[str, Any]], gz: bool) -> None:
    """`crosscheck <(zcat records.jsonl.gz)`: a FIFO gives its bytes to the first open only.
    The file was opened twice (once to look for gzip's magic bytes), and the second open
    waited for ever; here the writer answers a second open with nothing, so reading twice
    shows as no cases instead of a hang."""
    data = write_jsonl(tmp_path / "records.jsonl", records, gz=gz).read_bytes()
    with fifo_of(tmp_path / "fifo", data) as fifo:
        assert [c.id for c in read_cases(fifo)] == [r["input"]["id"] for r in records]
