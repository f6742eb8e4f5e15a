"""`mingshu ziwei --batch`: many charts, one JSON line each, bad lines reported and skipped."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from mingshu.cli import app

runner = CliRunner()

GOOD = {"id": "a", "date": "2000-8-16", "time": 2, "gender": "女"}


def batch(tmp_path: Path, lines: list[str], *options: str) -> tuple[int, list[Any], str]:
    source = tmp_path / "in.jsonl"
    source.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    result = runner.invoke(app, ["ziwei", "--batch", str(source), *options])
    out = [json.loads(line) for line in result.stdout.splitlines()]
    return result.exit_code, out, result.stderr


def test_a_chart_is_the_single_chart_export(tmp_path: Path) -> None:
    """The chart and horoscope of a batch line are what `mingshu ziwei … --json` prints."""
    line = {**GOOD, "horoscope": "2023-8-19", "horoscope_time": 2}
    code, out, _ = batch(tmp_path, [json.dumps(line, ensure_ascii=False)])
    assert code == 0
    args = ["2000-08-16", "--time-index", "2", "-g", "female", "--at", "2023-08-19T03:00"]
    as_json = runner.invoke(app, ["ziwei", *args, "--json"])
    assert as_json.exit_code == 0
    expected = json.loads(as_json.stdout)
    horoscope = expected.pop("horoscope")
    assert out[0]["line"] == 1 and out[0]["id"] == "a"
    assert out[0]["chart"] == expected
    assert out[0]["horoscope"] == horoscope
    assert "analysis" not in out[0]


def test_bad_lines_are_reported_and_the_run_goes_on(tmp_path: Path) -> None:
    lines = [
        json.dumps(GOOD),
        "",
        "not json",
        json.dumps({**GOOD, "id": "b", "date": "2000-2-30"}),
        json.dumps({**GOOD, "id": "c", "time": 13}),
        json.dumps({**GOOD, "id": "d", "gender": "x"}),
        json.dumps({**GOOD, "id": "e", "colour": "red"}),
        json.dumps({**GOOD, "id": "f", "leap": True}),
        json.dumps({**GOOD, "id": "g", "horoscope_time": 3}),
        json.dumps({**GOOD, "id": "h", "config": {"yearDivide": "sometimes"}}),
        json.dumps({"id": "i", "time": 2, "gender": "女"}),
        "[1, 2]",
        json.dumps({**GOOD, "id": "z"}),
    ]
    code, out, err = batch(tmp_path, lines, "--analysis")
    assert code == 2
    got = [(o["line"], o["id"], o["error"]["field"] if "error" in o else None) for o in out]
    assert got == [
        (1, "a", None),
        (3, None, "json"),
        (4, "b", "date"),
        (5, "c", "time"),
        (6, "d", "gender"),
        (7, "e", "colour"),
        (8, "f", "leap"),
        (9, "g", "horoscope_time"),
        (10, "h", "year_boundary"),
        (11, "i", "date"),
        (12, None, "input"),
        (13, "z", None),
    ]
    assert all("analysis" in o for o in out if "error" not in o)
    assert err.count("\n") == 1 and err.startswith("error: batch: 10 of 12 lines were bad")
    assert "line 3: json" in err and "Traceback" not in err


def test_out_is_written_whole(tmp_path: Path) -> None:
    target = tmp_path / "out.jsonl"
    code, out, _ = batch(tmp_path, [json.dumps(GOOD)] * 3, "--out", str(target))
    assert code == 0 and out == []
    assert len(target.read_text().splitlines()) == 3
    # A batch file that cannot be read leaves the old output as it was.
    result = runner.invoke(
        app, ["ziwei", "--batch", str(tmp_path / "missing.jsonl"), "--out", str(target)]
    )
    assert result.exit_code == 2 and result.stderr.startswith("error: batch: cannot read")
    assert len(target.read_text().splitlines()) == 3


def test_standard_input(tmp_path: Path) -> None:
    text = json.dumps(GOOD) + "\n" + json.dumps({**GOOD, "id": "b", "by": "lunar"}) + "\n"
    result = runner.invoke(app, ["ziwei", "--batch", "-"], input=text)
    assert result.exit_code == 0
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert [o["id"] for o in out] == ["a", "b"]
    # 2000-8-16 as a lunar date is another birth: another chart.
    assert out[0]["chart"]["lunar_date"] != out[1]["chart"]["lunar_date"]


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["--analysis"], "batch"),
        (["--out", "x.jsonl"], "batch"),
        (["--batch", "in.jsonl", "2000-01-01"], "batch"),
        (["--batch", "in.jsonl", "--lang", "fr"], "lang"),
        (["--batch", "in.jsonl", "--algorithm", "zhongzhou"], "batch"),
        (["--batch", "in.jsonl", "--json"], "batch"),
        (["--batch", "in.jsonl", "-g", "male"], "batch"),
        (["2000-01-01", "--time-index", "2", "-g", "male", "--lang", "fr"], "lang"),
        (
            ["2000-01-01", "--time-index", "2", "-g", "male", "--lang", "ja", "--names", "hant"],
            "lang",
        ),
        (
            ["2000-01-01", "--time-index", "2", "-g", "male", "--lang", "ja", "--svg", "x.svg"],
            "lang",
        ),
    ],
)
def test_misused_options(args: list[str], field: str) -> None:
    result = runner.invoke(app, ["ziwei", *args])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {field}:")


def test_lang_adds_names(tmp_path: Path) -> None:
    code, out, _ = batch(tmp_path, [json.dumps(GOOD)], "--lang", "ja")
    assert code == 0
    assert out[0]["locale"]["lang"] == "ja-JP"
    assert out[0]["locale"]["palaces"]["life"] == "命宮"


def random_lines(count: int, seed: int) -> list[dict[str, Any]]:
    """Random births as the bench makes them (1900–2100, every time index, both genders),
    with a share of lunar and leap births, horoscopes and non-default settings."""
    import datetime as dt
    import random

    rng = random.Random(seed)
    first, last = dt.date(1900, 2, 1).toordinal(), dt.date(2100, 11, 30).toordinal()
    settings: list[dict[str, Any]] = [
        {},
        {},
        {"config": {"algorithm": "zhongzhou"}},
        {"astro_type": "earth"},
        {"astro_type": "human", "fix_leap": False},
    ]
    lines = []
    for n in range(count):
        born = dt.date.fromordinal(rng.randint(first, last))
        line: dict[str, Any] = {
            "id": n,
            "date": f"{born.year}-{born.month}-{born.day}",
            "time": rng.randint(0, 12),
            "gender": rng.choice(("男", "女", "male", "female")),
            **rng.choice(settings),
        }
        if rng.random() < 0.1:
            line["by"] = "lunar"
            line["date"] = f"{born.year}-{rng.randint(1, 12)}-{rng.randint(1, 29)}"
        if rng.random() < 0.2 and born.year < 2100:
            line["horoscope"] = f"{min(born.year + rng.randint(1, 80), 2100)}-6-1"
        lines.append(line)
    return lines


def test_lines_are_the_plain_exports_byte_for_byte(tmp_path: Path) -> None:
    """Each output line of a run is, byte for byte, orjson's encoding of the plain dicts
    (chart_to_dict, analysis_to_dict, horoscope_to_dict: no cached pieces), over 1,500 random
    births: the batch's pre-encoded pieces change no byte of the output."""
    import orjson

    from mingshu.crosscheck.iztro import chart_for_input
    from mingshu.errors import InputError
    from mingshu.present import chart_to_dict, horoscope_to_dict
    from mingshu.present.ziwei_analysis import analysis_to_dict
    from mingshu.ziwei import horoscope

    rows = random_lines(1500, seed=13)
    source, target = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    source.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    result = runner.invoke(
        app, ["ziwei", "--batch", str(source), "--analysis", "--out", str(target)]
    )
    out = target.read_bytes().split(b"\n")
    assert out.pop() == b"" and len(out) == len(rows)
    charted = 0
    for number, (row, line) in enumerate(zip(rows, out, strict=True), 1):
        try:
            chart = chart_for_input(row)
        except InputError:  # a lunar day the month does not have: an error line
            assert b'"error"' in line and result.exit_code == 2
            continue
        record: dict[str, Any] = {"line": number, "id": row["id"], "chart": chart_to_dict(chart)}
        if "horoscope" in row:
            record["horoscope"] = horoscope_to_dict(horoscope(chart, row["horoscope"]))
        record["analysis"] = analysis_to_dict(chart)
        assert line == orjson.dumps(record), f"line {number}: {row}"
        charted += 1
    assert charted > 1400


_MAIN = "import sys; from mingshu.cli import main; sys.argv = ['mingshu', *sys.argv[1:]]; main()"


def test_a_reader_that_goes_away_ends_the_run_quietly(tmp_path: Path) -> None:
    """`mingshu ziwei --batch IN | head -c 100`: no traceback, no misleading error."""
    source = tmp_path / "in.jsonl"
    source.write_text((json.dumps(GOOD) + "\n") * 400, encoding="utf-8")
    args = [sys.executable, "-c", _MAIN, "ziwei", "--batch", str(source)]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.read(100)
    proc.stdout.close()  # the reader goes away after 100 bytes of 400 lines (8 MB)
    err = proc.stderr.read()
    assert proc.wait() == 0
    assert first.startswith(b'{"line":1,') and err == b""


def test_a_failed_write_is_an_error_naming_the_output(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps(GOOD) + "\n", encoding="utf-8")
    args = [sys.executable, "-c", _MAIN, "ziwei", "--batch", str(source)]
    with open("/dev/full", "wb") as full:
        done = subprocess.run(args, stdout=full, stderr=subprocess.PIPE, check=False, text=True)
    assert done.returncode == 2
    assert done.stderr.startswith("error: out: cannot write standard output:")
    assert "Traceback" not in done.stderr


def test_a_short_writev_is_completed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A pipe may take part of a chunk: the rest is written, in order, byte for byte."""
    from mingshu.cli import ziwei_batch

    real = os.writev

    def half(fd: int, pieces: list[bytes]) -> int:
        data = b"".join(pieces)
        return real(fd, [data[: len(data) // 2]])

    monkeypatch.setattr(os, "writev", half)
    target = tmp_path / "out.bin"
    chunks = [[b"abc", b"\n", b"defgh", b"\n"], [b"x" * 1001, b"\n"]]
    with open(target, "wb") as raw:
        handle = io.TextIOWrapper(raw, encoding="utf-8")
        ziwei_batch._write_all(iter(chunks), handle, "out.bin")
        handle.flush()
    assert target.read_bytes() == b"abc\ndefgh\n" + b"x" * 1001 + b"\n"


def test_without_writev_the_chunks_go_to_the_buffer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where os.writev does not exist (Windows), the same bytes are written joined."""
    from mingshu.cli import ziwei_batch

    monkeypatch.delattr(os, "writev")
    target = tmp_path / "out.bin"
    chunks = [[b"abc", b"\n", b"defgh", b"\n"], [b"x" * 1001, b"\n"]]
    with open(target, "wb") as raw:
        handle = io.TextIOWrapper(raw, encoding="utf-8")
        ziwei_batch._write_all(iter(chunks), handle, "out.bin")
    assert target.read_bytes() == b"abc\ndefgh\n" + b"x" * 1001 + b"\n"


def test_a_failed_read_is_not_taken_for_a_failed_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An input that fails part way (an I/O error) names the batch file, not the output."""
    from mingshu.cli import ziwei_batch
    from mingshu.errors import InputError

    class Failing(io.BytesIO):
        def __iter__(self) -> Any:
            yield (json.dumps(GOOD) + "\n").encode()
            raise OSError(5, "Input/output error")

    monkeypatch.setattr(ziwei_batch, "_open", lambda path: Failing())
    with pytest.raises(InputError) as caught:
        ziwei_batch.run_batch("in.jsonl", out=str(tmp_path / "out.jsonl"))
    assert caught.value.field == "batch"
    assert caught.value.message == "cannot read in.jsonl: Input/output error"
    assert not (tmp_path / "out.jsonl").exists()  # nothing half-written is left


# ------------------------------------------------------ issue 20: settings, ids, messages


def test_a_line_takes_every_setting_by_name_the_school_included(tmp_path: Path) -> None:
    """2023-03-25 is 闰二月初四: the 全书 school counts it as 三月, an explicit split as 二月."""
    birth = {"date": "2023-03-25", "time": 5, "gender": "男"}
    lines = [
        {**birth, "settings": {"school": "quanshu"}},
        {**birth, "settings": {"school": "quanshu", "leap_month": "split"}},
        {**birth, "settings": {"late_rat_hour": "current", "chart_type": "earth"}},
    ]
    code, out, _ = batch(tmp_path, [json.dumps(x) for x in lines])
    assert code == 0, out
    from mingshu import ziwei
    from mingshu.present import chart_to_dict

    for got, settings in zip(
        out,
        [
            ziwei.ZiweiSettings(school="quanshu"),
            ziwei.ZiweiSettings(school="quanshu", leap_month="split"),
            ziwei.ZiweiSettings(late_rat_hour="same_day", chart_type="earth"),
        ],
        strict=True,
    ):
        assert got["chart"] == json.loads(
            json.dumps(chart_to_dict(ziwei.chart("2023-03-25", 5, "男", settings=settings)))
        )
    assert out[0]["chart"] != out[1]["chart"]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"settings": {"shcool": "quanshu"}}, "no setting 'shcool'"),
        ({"settings": {"school": "quanshu"}, "config": {}}, "not both"),
        ({"settings": "quanshu"}, "JSON object"),
    ],
)
def test_a_bad_settings_object_is_a_bad_line(
    tmp_path: Path, extra: dict[str, Any], message: str
) -> None:
    code, out, _ = batch(tmp_path, [json.dumps({**GOOD, **extra})])
    assert code == 2
    assert out[0]["error"]["field"] == "settings"
    assert message in out[0]["error"]["message"]


def test_a_long_numeric_id_comes_back_exactly(tmp_path: Path) -> None:
    ident = "123456789012345678901234567890"
    rest = '"time": 2, "gender": "女"}'
    good = f'{{"id": {ident}, "date": "2000-8-16", {rest}'
    bad = f'{{"id": -{ident}, "date": "2000-8-99", {rest}'
    source = tmp_path / "in.jsonl"
    source.write_text(good + "\n" + bad + "\n", encoding="utf-8")
    result = runner.invoke(app, ["ziwei", "--batch", str(source)])
    first, second = result.stdout.splitlines()
    assert first.startswith(f'{{"line":1,"id":{ident},')
    assert second.startswith(f'{{"line":2,"id":-{ident},')
    assert json.loads(first)["id"] == int(ident)  # the stdlib reads big integers exactly


def test_a_bad_horoscope_is_named_horoscope(tmp_path: Path) -> None:
    lines = [
        json.dumps({**GOOD, "horoscope": "1990-1-1"}),  # before the birth
        json.dumps({**GOOD, "horoscope": "someday"}),
    ]
    code, out, err = batch(tmp_path, lines)
    assert code == 2
    assert [o["error"]["field"] for o in out] == ["horoscope", "horoscope"]
    assert "line 1: horoscope: " in err


def test_a_line_that_is_not_utf8_says_so(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    source.write_bytes(b'{"date": "2000-8-16\xff", "time": 2, "gender": "x"}\n')
    result = runner.invoke(app, ["ziwei", "--batch", str(source)])
    error = json.loads(result.stdout)["error"]
    assert error["field"] == "json"
    assert "surrogates" not in error["message"]
    assert "0xff" in error["message"] and "UTF-8" in error["message"]


@pytest.mark.parametrize("key", ["", " ", "\n", "k" * 41])
def test_an_unknown_key_that_cannot_name_a_field_is_an_input_error(
    tmp_path: Path, key: str
) -> None:
    """The hostile-input battery found `{"": 1}` reported under an empty field."""
    code, out, err = batch(tmp_path, [json.dumps({**GOOD, key: 1})])
    assert code == 2
    assert out[0]["error"]["field"] == "input"
    assert "unknown input key" in out[0]["error"]["message"]
    assert err.strip().splitlines()[-1].startswith("error: batch: ")


def test_an_unknown_key_names_itself(tmp_path: Path) -> None:
    code, out, _ = batch(tmp_path, [json.dumps({**GOOD, "horoscopeTime": 2})])
    assert code == 2
    assert out[0]["error"] == {"field": "horoscopeTime", "message": "unknown input key"}


@pytest.mark.parametrize(
    "line",
    [
        '{"id": "a", "date": "2000-8-16", "date": "2000-8-17", "time": 2, "gender": "女"}',
        '{"id": "a", "date": "2000-8-16", "time": 2, "gender": "女", "gender": "男"}',
        '{"id": "a", "date": "2000-8-16", "time": 2, "gender": "女",'
        ' "config": {"algorithm": "default", "algorithm": "zhongzhou"}}',
    ],
)
def test_a_key_given_twice_is_a_bad_line(tmp_path: Path, line: str) -> None:
    # A JSON reader keeps the last of two equal keys: the line would be charted for one
    # of the two values without a word (issue 20).
    code, out, _ = batch(tmp_path, [line])
    assert code == 2
    assert out[0]["error"]["field"] == "json"
    assert "given twice" in out[0]["error"]["message"]


def test_colons_and_nested_objects_without_a_key_twice_are_charted(tmp_path: Path) -> None:
    lines = [
        json.dumps({**GOOD, "id": "a:b:c"}),
        json.dumps({**GOOD, "config": {"algorithm": "zhongzhou"}, "fix_leap": True}),
    ]
    code, out, _ = batch(tmp_path, lines)
    assert code == 0
    assert [o["id"] for o in out] == ["a:b:c", "a"]


def test_an_empty_astro_type_is_refused(tmp_path: Path) -> None:
    # "" was read as "not given" and charted as heaven.
    code, out, _ = batch(tmp_path, [json.dumps({**GOOD, "astro_type": ""})])
    assert code == 2
    assert out[0]["error"]["field"] in ("astro_type", "chart_type")
