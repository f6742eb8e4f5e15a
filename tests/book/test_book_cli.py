"""`mingshu ziwei --school quanshu`: the 全书 school on the command line."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from mingshu.cli import app

RUN = CliRunner()
LEAP = ["ziwei", "1900-08-01", "00:30", "-g", "male", "--lunar", "--leap", "--json"]


def _json(args: list[str]) -> dict[str, object]:
    result = RUN.invoke(app, args)
    assert result.exit_code == 0, result.output
    data: dict[str, object] = json.loads(result.output)
    return data


def test_school_quanshu_follows_the_book_and_says_so() -> None:
    book = _json([*LEAP, "--school", "quanshu"])
    plain = _json(LEAP)
    settings = book["settings"]
    assert isinstance(settings, dict)
    assert settings["school"] == "quanshu" and settings["leap_month"] == "next"
    assert "school" not in plain["settings"]  # type: ignore[operator]  # default output unchanged
    assert "quanshu_school" in json.dumps(book["notices"])
    assert "quanshu_school" not in json.dumps(plain["notices"])
    assert json.dumps(book) != json.dumps(plain)


def test_bad_school_is_one_line_exit_2() -> None:
    for extra in (["--school", "zhongzhou"], ["--school", "quanshu", "--algorithm", "zhongzhou"]):
        result = RUN.invoke(app, [*LEAP, *extra])
        assert result.exit_code == 2
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: school:"), result.output
        assert "Traceback" not in result.output


def test_the_space_sweep_produces_the_quanshu_space(tmp_path: object) -> None:
    """One year of the 全书 space: the school's stars are columns, and a row holds what the
    engine draws for that birth."""
    import datetime as dt
    from pathlib import Path

    import pyarrow.parquet as pq

    from mingshu import space, ziwei

    settings = ziwei.ZiweiSettings(school="quanshu")
    out = Path(str(tmp_path)) / "q"
    space.sweep_ziwei(out, 1900, 1900, settings, workers=1, progress=False)
    (table_file,) = sorted(out.glob("year=*/*.parquet"))
    table = pq.read_table(table_file).to_pydict()
    for key in ("dou_jun", "fei_tian_zou_shu", "jin_suo_tie_she", "jie_lu_kong_wang_second"):
        assert key in table
    assert "jie_lu" not in table and "kong_wang" not in table
    row = table["solar_date"].index(dt.date(1900, 9, 24))  # first row of that day: 早子 male
    c = ziwei.by_solar("1900-09-24", table["time_index"][row], "male", settings=settings)
    assert table["life_branch"][row] == int(c.life_branch) == 10  # 戌, the book's palace
    assert table["yue_de"][row] == int(c.palace_of("yue_de").branch)
