"""`query` and `find` on hostile input (issue 20): cell text is text, never Rich markup; JSON
keeps every column and every integer; a damaged dataset is one error line; the query has a
time limit and the table a row limit; no file outside the dataset, .tmp included, is readable;
`find` takes the command line's gender words."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mingshu import space
from mingshu.cli import app
from mingshu.errors import InputError

from .conftest import YEAR

runner = CliRunner()
ROWS = 9490  # the births of 1990: 365 days × 13 time indices × 2 genders


def invoke(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), env={"COLUMNS": "200"})
    assert "Traceback" not in result.stdout + result.stderr
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("text", ["[/x]", "a[b]c", "[bold]x[/bold]", "[link=http://e]y"])
def test_a_cell_and_a_column_name_are_printed_as_written(dataset: Path, text: str) -> None:
    sql = "SELECT '" + text + "' AS \"" + text + '"'
    code, out, err = invoke("query", str(dataset), sql)
    assert (code, err) == (0, "")
    assert out.count(text) == 2  # header and cell


def test_json_writes_integers_beyond_64_bits_exactly(dataset: Path) -> None:
    big = 2**127 - 1  # the largest HUGEINT
    sql = f"SELECT {big}::HUGEINT AS a, [-{big}::HUGEINT] AS l, 7::HUGEINT AS small"
    code, out, err = invoke("query", str(dataset), sql, "--json")
    assert (code, err) == (0, "")
    assert json.loads(out) == [{"a": big, "l": [-big], "small": 7}]


def test_json_refuses_two_columns_of_one_name(dataset: Path) -> None:
    code, out, err = invoke("query", str(dataset), "SELECT 1 AS a, 2 AS a, 3 AS b", "--json")
    assert (code, out) == (2, "")
    assert err.startswith("error: sql: two columns are named 'a'") and err.count("\n") == 1
    # The table and CSV show both columns.
    code, out, _ = invoke("query", str(dataset), "SELECT 1 AS a, 2 AS a", "--csv")
    assert (code, out) == (0, "a,a\n1,2\n")


@pytest.fixture
def damaged(dataset: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "charts"
    shutil.copytree(dataset, copy)
    return copy


@pytest.mark.parametrize(
    "content", [b"garbage", b"PAR1", b"", b"PAR1" + bytes(range(256)) * 4 + b"PAR1"]
)
def test_a_corrupt_partition_is_one_error_line(damaged: Path, content: bytes) -> None:
    (damaged / f"year={YEAR}" / "part.parquet").write_bytes(content)
    for args in (
        ["query", str(damaged), "SELECT count(*) FROM charts"],
        ["find", str(damaged), "tai_fu = 午"],
    ):
        code, out, err = invoke(*args)
        assert code == 2 and out == "", args
        assert err.startswith("error: dataset: ") and err.count("\n") == 1, err


@pytest.mark.parametrize(
    ("table", "value"),
    [
        ("stars", [1]),
        ("stars", {"zi_wei": 3}),
        ("branches", {"0": "x"}),
        ("branches", 5),
        ("palace_names", {"0": {"key": "life"}}),
        ("gender", [1]),
        ("gender", {"0": None}),
        ("time_index", {"x": "早子时"}),
        ("time_index", {"0": 3}),
    ],
)
def test_a_damaged_metadata_table_is_one_error_line(
    damaged: Path, table: str, value: object
) -> None:
    meta_file = damaged / "_mingshu.json"
    meta = json.loads(meta_file.read_text("utf-8"))
    meta[table] = value
    meta_file.write_text(json.dumps(meta), "utf-8")
    for args in (["query", str(damaged), "SELECT 1"], ["find", str(damaged), "tai_fu = 午"]):
        code, out, err = invoke(*args)
        assert code == 2 and out == "", args
        assert err.startswith("error: dataset: ") and f" {table} " in err, err


def test_a_damaged_metadata_file_is_an_input_error_in_the_library(damaged: Path) -> None:
    meta_file = damaged / "_mingshu.json"
    meta_file.write_text(json.dumps({**json.loads(meta_file.read_text("utf-8")), "stars": []}))
    with pytest.raises(InputError) as e:
        space.query(damaged, "SELECT 1")
    assert e.value.field == "dataset"


def test_the_working_directorys_tmp_folder_is_not_readable(
    dataset: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """DuckDB's default temporary directory is <cwd>/.tmp, and it allows reading it."""
    (tmp_path / ".tmp").mkdir()
    (tmp_path / ".tmp" / "secret").write_text("topsecret")
    monkeypatch.chdir(tmp_path)
    for path in (".tmp/secret", str(tmp_path / ".tmp" / "secret")):
        with pytest.raises(InputError) as e:
            space.query(dataset, f"SELECT * FROM read_text('{path}')")
        assert e.value.field == "sql" and "topsecret" not in e.value.message


def test_a_query_past_its_timeout_is_stopped(dataset: Path) -> None:
    endless = "SELECT sum(hash(range)) FROM range(1000000000000)"  # hours of one core
    with pytest.raises(InputError) as e:
        space.query(dataset, endless, timeout=0.2)
    assert e.value.field == "timeout" and "0.2 s" in e.value.message
    code, out, err = invoke("query", str(dataset), endless, "--timeout", "0.2")
    assert (code, out) == (2, "")
    assert err.startswith("error: timeout: the query ran longer than 0.2 s")


def test_a_query_within_its_timeout_gives_every_row(dataset: Path) -> None:
    assert space.query(dataset, "SELECT count(*) FROM charts", timeout=60) == (
        ["count_star()"],
        [(ROWS,)],
    )


@pytest.mark.parametrize(
    "args",
    [
        ["--timeout", "-1"],
        ["--timeout", "nan"],
        ["--timeout", "inf"],  # a timer thread's OverflowError, and exit 0
        ["--timeout", "1e308"],
        ["--max-rows", "0"],
        ["--max-rows", "99999999999999999999"],  # DuckDB's TypeError
    ],
)
def test_bad_limits_are_refused(dataset: Path, args: list[str]) -> None:
    code, out, err = invoke("query", str(dataset), "SELECT 1", *args)
    assert (code, out) == (2, "")
    assert err.startswith(f"error: {args[0][2:].replace('-', '_')}: ")


def test_the_table_says_when_rows_were_cut(dataset: Path) -> None:
    sql = "SELECT solar_date, time_index, gender FROM charts"
    code, out, _ = invoke("query", str(dataset), sql, "--max-rows", "5")
    assert code == 0
    assert out.count("│ 1990-") == 5
    assert "the first 5 rows; the query gives more" in out
    code, out, _ = invoke("query", str(dataset), sql + " LIMIT 5", "--max-rows", "5")
    assert out.count("│ 1990-") == 5 and "5 row(s)" in out and "gives more" not in out
    # The default shows 100 rows; CSV prints every row.
    code, out, _ = invoke("query", str(dataset), sql)
    assert out.count("│ 1990-") == 100 and "the first 100 rows" in out
    code, out, _ = invoke("query", str(dataset), sql, "--csv")
    assert out.count("\n") == ROWS + 1


def test_limit_fetches_at_most_that_many_rows(dataset: Path) -> None:
    names, rows = space.query(dataset, "SELECT time_index FROM charts", limit=3)
    assert names == ["time_index"] and len(rows) == 3
    assert len(space.query(dataset, "SELECT 1 FROM charts", limit=2**70)[1]) == ROWS


@pytest.mark.parametrize("timeout", [0, -1.0, float("nan"), float("inf"), 1e308, True, "5"])
def test_the_librarys_timeout_is_checked(dataset: Path, timeout: object) -> None:
    with pytest.raises(InputError) as e:
        space.query(dataset, "SELECT 1", timeout=timeout)  # type: ignore[arg-type]
    assert e.value.field == "timeout"


@pytest.mark.parametrize(
    ("word", "value"), [("男", 0), ("male", 0), ("M", 0), ("女", 1), ("Female", 1), ("f", 1)]
)
def test_find_takes_the_command_lines_gender_words(dataset: Path, word: str, value: int) -> None:
    result = space.find(dataset, f"gender = {word}", by="gender")
    assert [(g.value, g.count) for g in result.groups] == [(value, ROWS // 2)]


def test_find_names_the_gender_words_when_a_name_is_unknown(dataset: Path) -> None:
    with pytest.raises(InputError) as e:
        space.find(dataset, "gender = 人")
    assert "male or female, 男 or 女" in e.value.message


def test_find_prints_a_metadata_name_as_written(damaged: Path) -> None:
    meta_file = damaged / "_mingshu.json"
    meta = json.loads(meta_file.read_text("utf-8"))
    meta["gender"]["0"] = "[/x]"
    meta_file.write_text(json.dumps(meta), "utf-8")
    code, out, err = invoke("find", str(damaged), "tai_fu = 午", "--by", "gender")
    assert (code, err) == (0, "")
    assert "[/x]" in out


@pytest.mark.parametrize("year", ["x", None, 1990.5, True])
def test_a_damaged_year_range_is_one_error_line(damaged: Path, year: object) -> None:
    meta_file = damaged / "_mingshu.json"
    meta = json.loads(meta_file.read_text("utf-8"))
    meta["first_year"] = year
    meta_file.write_text(json.dumps(meta), "utf-8")
    sweep = ["sweep", "ziwei", "--from", "1991", "--to", "1991", "--out", str(damaged)]
    for args in (["query", str(damaged), "SELECT 1"], [*sweep, "--workers", "1"]):
        code, out, err = invoke(*args)
        assert (code, out) == (2, ""), args
        assert err.startswith("error: dataset: ") and "first_year is " in err, err
    assert not (damaged / "year=1991").exists()


def test_sql_and_a_dataset_path_that_are_not_utf8_are_refused(
    dataset: Path, tmp_path: Path
) -> None:
    """An argument's bytes that are not UTF-8 (held as surrogates) are refused by name;
    DuckDB cannot take them (it raised a TypeError)."""
    byte = os.fsdecode(b"\xff")
    code, out, err = invoke("query", str(dataset), f"SELECT '{byte}' AS a")
    assert (code, out) == (2, "")
    assert err.startswith("error: sql: character 9 is a byte that is not UTF-8 text")
    odd = tmp_path / f"charts{byte}"
    shutil.copytree(dataset, odd)
    for args in (["query", str(odd), "SELECT 1"], ["find", str(odd), "tai_fu = 午"]):
        code, out, err = invoke(*args)
        assert (code, out) == (2, ""), args
        assert err.startswith("error: dataset: ") and "is a byte that is not UTF-8" in err
