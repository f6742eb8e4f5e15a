"""Read-only SQL over the swept year: the counts are the engine's, anything but one SELECT is
refused, unknown columns are named, and the command line never prints a traceback."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mingshu import space, ziwei
from mingshu.cli import app
from mingshu.errors import InputError

from .conftest import YEAR

runner = CliRunner()


def engine_count_en_guang_with_tian_gui() -> int:
    """The births of YEAR whose 恩光 and 天贵 share a palace, counted over the engine."""
    settings, count = ziwei.ZiweiSettings(), 0
    day = dt.date(YEAR, 1, 1)
    while day.year == YEAR:
        for index in range(13):
            for gender in ("male", "female"):
                chart = ziwei.from_birth(ziwei.Birth.solar(day, index, gender), settings)
                count += chart.star("en_guang").branch == chart.star("tian_gui").branch
        day += dt.timedelta(days=1)
    return count


def test_a_count_in_sql_equals_the_engines(dataset: Path) -> None:
    columns, rows = space.query(dataset, "SELECT count(*) FROM charts WHERE en_guang = tian_gui")
    assert len(columns) == 1
    assert rows == [(engine_count_en_guang_with_tian_gui(),)]


def test_open_gives_a_relation_with_the_year_column(dataset: Path) -> None:
    charts = space.open(dataset)
    assert charts.count("*").fetchall() == [(9490,)]
    assert charts.filter("year <> 1990").count("*").fetchall() == [(0,)]
    assert {"solar_date", "en_guang", "tian_ji__brightness", "palace_zi"}
    assert (
        "tian_gui__brightness" not in charts.columns
    )  # adjective stars have no grade <= set(charts.columns)


def test_with_queries_are_allowed(dataset: Path) -> None:
    sql = "WITH t AS (SELECT time_index FROM charts WHERE gender = 1) SELECT count(*) FROM t"
    assert space.query(dataset, sql)[1] == [(9490 // 2,)]


@pytest.mark.parametrize(
    "sql",
    [
        "DROP VIEW charts",
        "COPY (SELECT * FROM charts) TO 'out.csv'",
        "ATTACH 'other.db'",
        "SELECT 1; SELECT 2",
        "INSERT INTO charts VALUES (1)",
        "CREATE TABLE t AS SELECT * FROM charts",
        "SET enable_external_access = true",
        "PRAGMA version",
        "",
    ],
)
def test_anything_but_one_select_is_refused(dataset: Path, sql: str) -> None:
    with pytest.raises(InputError) as e:
        space.query(dataset, sql)
    assert e.value.field == "sql"


def test_sql_cannot_read_files_outside_the_dataset(dataset: Path, tmp_path: Path) -> None:
    secret = tmp_path / "secret.csv"
    secret.write_text("x\n1\n")
    with pytest.raises(InputError) as e:
        space.query(dataset, f"SELECT * FROM read_csv('{secret}')")
    assert e.value.field == "sql" and "disabled" in e.value.message


def test_an_unknown_column_is_named(dataset: Path) -> None:
    with pytest.raises(InputError) as e:
        space.query(dataset, "SELECT count(*) FROM charts WHERE en_gaung = tian_gui")
    assert e.value.field == "sql" and "en_gaung" in e.value.message


def test_a_long_query_is_clipped_in_the_message(dataset: Path) -> None:
    sql = "SELECT nope FROM charts WHERE " + " AND ".join(["time_index = 1"] * 40)
    with pytest.raises(InputError) as e:
        space.query(dataset, sql)
    assert "nope" in e.value.message and len(e.value.message) < 400


def test_a_missing_dataset_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(InputError) as e:
        space.open(tmp_path / "nowhere")
    assert e.value.field == "dataset" and "not a directory" in e.value.message
    with pytest.raises(InputError) as e:
        space.query(tmp_path, "SELECT 1")
    assert e.value.field == "dataset" and "_mingshu.json" in e.value.message


# ---------------------------------------------------------------------- command line


def test_query_command_prints_a_table_json_and_csv(dataset: Path) -> None:
    sql = "SELECT time_index, count(*) AS n FROM charts WHERE en_guang = tian_gui GROUP BY 1 ORDER BY 1"
    _, rows = space.query(dataset, sql)
    table = runner.invoke(app, ["query", str(dataset), sql], env={"COLUMNS": "100"})
    assert table.exit_code == 0, table.output
    assert "time_index" in table.stdout and f"{len(rows)} row(s)" in table.stdout
    as_json = runner.invoke(app, ["query", str(dataset), sql, "--json"])
    assert as_json.exit_code == 0
    assert json.loads(as_json.stdout) == [{"time_index": t, "n": n} for t, n in rows]
    as_csv = runner.invoke(app, ["query", str(dataset), sql, "--csv"])
    assert as_csv.exit_code == 0
    assert as_csv.stdout.splitlines() == ["time_index,n", *(f"{t},{n}" for t, n in rows)]


@pytest.mark.parametrize(
    ("args", "start"),
    [
        (["query", "{dataset}", "DROP VIEW charts"], "error: sql: only a SELECT query"),
        (["query", "{dataset}", "SELECT nope FROM charts"], "error: sql: Binder Error"),
        (["query", "/nonexistent/charts", "SELECT 1"], "error: dataset: "),
        (["query", "{dataset}", "SELECT 1", "--json", "--csv"], "error: json: "),
        (
            ["sweep", "ziwei", "--from", "1500", "--to", "1900", "--out", "{dataset}/x"],
            "error: from: ",
        ),
        (
            [
                "sweep",
                "ziwei",
                "--from",
                "1990",
                "--to",
                "1990",
                "--out",
                "{dataset}",
                "--algorithm",
                "zhongzhou",
            ],
            "error: out: ",
        ),
        (
            [
                "sweep",
                "ziwei",
                "--from",
                "1990",
                "--to",
                "1990",
                "--out",
                "x",
                "--leap-month",
                "half",
            ],
            "error: leap_month: ",
        ),
    ],
)
def test_bad_input_exits_2_with_one_line(dataset: Path, args: list[str], start: str) -> None:
    result = runner.invoke(app, [a.format(dataset=dataset) for a in args])
    assert result.exit_code == 2
    assert result.stderr.startswith(start), result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.output


def test_sweep_command_resumes_and_reports(dataset: Path, tmp_path: Path) -> None:
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(dataset, copy)
    result = runner.invoke(
        app, ["sweep", "ziwei", "--from", "1990", "--to", "1990", "--out", str(copy)]
    )
    assert result.exit_code == 0, result.output
    assert "skipped 1 year(s) already written" in result.stderr
    assert result.stdout.startswith("0 rows in ")
