"""``find``: the reverse look-up's counts equal the engine's (and a plain Python count over
the Parquet rows), bad expressions are refused by the grammar naming ``expr``, the name
views are the engine's names, and the command line exits 0/2."""

from __future__ import annotations

import datetime as dt
import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from mingshu import space, ziwei
from mingshu.cycles import Branch
from mingshu.errors import InputError

from .conftest import YEAR

runner = CliRunner()
ZI, WU = Branch.parse("子"), Branch.parse("午")
LIFE = ziwei.PalaceName.parse("life")

# Each expression with the same predicate over an engine chart.
ENGINE: dict[str, Callable[[ziwei.NatalChart], bool]] = {
    "en_guang = tian_gui": lambda c: c.star("en_guang").branch == c.star("tian_gui").branch,
    "tai_fu = 午": lambda c: c.star("tai_fu").branch == WU,
    "tai_fu = wu": lambda c: c.star("tai_fu").branch == WU,
    "life_branch in (zi, wu) and not zi_wei = life_branch": lambda c: (
        c.life_branch in (ZI, WU) and c.star("zi_wei").branch != c.life_branch
    ),
    "palace_zi = life": lambda c: next(p for p in c.palaces if p.branch == ZI).name == LIFE,
    "palace_zi = 命宫 or (NOT body_branch != 3)": lambda c: (
        next(p for p in c.palaces if p.branch == ZI).name == LIFE or c.body_branch == 3
    ),
}


@pytest.fixture(scope="module")
def engine_counts() -> dict[str, Counter[int]]:
    """Per expression, the matching births of YEAR by time index, counted over the engine."""
    settings = ziwei.ZiweiSettings()
    counts: dict[str, Counter[int]] = {e: Counter() for e in ENGINE}
    day = dt.date(YEAR, 1, 1)
    while day.year == YEAR:
        for index in range(13):
            for gender in ("male", "female"):
                chart = ziwei.from_birth(ziwei.Birth.solar(day, index, gender), settings)
                for expr, holds in ENGINE.items():
                    if holds(chart):
                        counts[expr][index] += 1
        day += dt.timedelta(days=1)
    return counts


@pytest.mark.parametrize("expr", list(ENGINE))
def test_counts_by_hour_equal_the_engines(
    dataset: Path, engine_counts: dict[str, Counter[int]], expr: str
) -> None:
    result = space.find(dataset, expr)
    assert {g.value: g.count for g in result.groups} == dict(engine_counts[expr])
    assert result.count == sum(engine_counts[expr].values()) > 0
    assert result.rows == 9490 and result.share == result.count / 9490
    assert [g.name for g in result.groups] == [str(ziwei.HOURS[g.value]) for g in result.groups]
    assert all(g.rows == 730 for g in result.groups)  # every hour: 365 days × 2 genders


@pytest.fixture(scope="module")
def rows(dataset: Path) -> list[dict[str, Any]]:
    return pq.read_table(dataset / f"year={YEAR}" / "part.parquet").to_pylist()


# Plain Python over the Parquet rows (branches as integers: 子 0 … 亥 11).
ROWS: list[tuple[str, str, Callable[[dict[str, Any]], bool], str]] = [
    ("tian_gui = en_guang", "month", lambda r: r["tian_gui"] == r["en_guang"], "lunar_month"),
    ("wen_chang != 3 and gender = female", "day", lambda r: r["wen_chang"] != 3 and r["gender"] == 1, "lunar_day"),
    ("di_kong not in (亥, 0, chou) or time_index = 12", "gender", lambda r: r["di_kong"] not in (11, 0, 1) or r["time_index"] == 12, "gender"),
    ("lunar_month = 5 and lunar_day in (14, 26)", "year", lambda r: r["lunar_month"] == 5 and r["lunar_day"] in (14, 26), "year"),
    ("not (palace_wu = 父母 or palace_wu = wealth)", "hour", lambda r: r["palace_wu"] not in (1, 8), "time_index"),
]  # fmt: skip


@pytest.mark.parametrize(("expr", "by", "holds", "column"), ROWS)
def test_counts_by_any_grouping_equal_a_plain_count(
    dataset: Path,
    rows: list[dict[str, Any]],
    expr: str,
    by: str,
    holds: Callable[[dict[str, Any]], bool],
    column: str,
) -> None:
    want = Counter(YEAR if column == "year" else r[column] for r in rows if holds(r))
    result = space.find(dataset, expr, by=by)
    assert {g.value: g.count for g in result.groups} == dict(want)
    assert result.count == sum(want.values()) > 0 and result.by == by


@pytest.mark.parametrize(
    ("expr", "names"),
    [
        ("en_gaung = tian_gui", "'en_gaung'"),  # an unknown star key is named
        ("en_guang = ", "at the end"),  # a dangling operator
        ("en_guang = tian_gui and", "at the end"),
        ("1; DROP TABLE charts", "';'"),
        ("en_guang = 'zi'", '"\'"'),
        ('en_guang = "zi"', "'\"'"),
        ("en_guang = tian_gui) or (1", "')'"),
        ("x" * 100_000, "too long"),
        ("palace_zi = zi", "different kinds"),
        ("1 = 1", "compare a column"),
        ("en_guang == tian_gui", "'='"),
        ("solar_date = 1", "'solar_date'"),  # a column outside the whitelist
        ("(" * 50 + "en_guang = 1" + ")" * 50, "nested"),
        ("en_guang = 123456", "too large"),
        # Values no row can hold matched nothing and printed counts of 0 (issue 20).
        ("tai_fu = 99", "tai_fu holds 0..11"),
        ("life_branch = 13", "life_branch holds 0..11"),
        ("12 = palace_zi", "palace_zi holds 0..11"),
        ("time_index = 13", "time_index holds 0..12"),
        ("lunar_day in (1, 0)", "lunar_day holds 1..30"),
        ("lunar_month = 13", "lunar_month holds 1..12"),
        ("gender = 2", "gender holds 0..1"),
        ("", "give an expression"),
    ],
)
def test_bad_expressions_are_refused_naming_expr(dataset: Path, expr: str, names: str) -> None:
    with pytest.raises(InputError) as caught:
        space.find(dataset, expr)
    assert caught.value.field == "expr" and names in caught.value.message
    assert len(caught.value.message) < 300


def test_the_ends_of_each_range_are_read(dataset: Path) -> None:
    for expr in ("tai_fu = 11", "life_branch = 0", "time_index = 12", "lunar_day = 30",
                 "lunar_month = 1", "gender = 1", "palace_hai = 11"):  # fmt: skip
        assert space.find(dataset, expr).expr == expr


def test_an_unknown_grouping_names_by(dataset: Path) -> None:
    with pytest.raises(InputError, match="week") as caught:
        space.find(dataset, "en_guang = 1", by="week")
    assert caught.value.field == "by"


def test_the_name_views_are_the_engines_names(dataset: Path) -> None:
    assert space.query(dataset, "SELECT * FROM branch_name ORDER BY branch")[1] == [
        (int(b), b.key, b.names.hans, b.names.english) for b in Branch
    ]
    assert space.query(dataset, "SELECT * FROM hour_name ORDER BY time_index")[1] == [
        (h.index, h.names.hans, h.names.english) for h in ziwei.HOURS
    ]
    stars = dict(space.query(dataset, "SELECT key, english FROM star_name")[1])
    columns = set(space.open(dataset).columns)
    by_key = {s.key: s for s in ziwei.STARS}
    assert set(stars) == {c for c in columns if c in by_key} and len(stars) == 66
    assert all(stars[k] == by_key[k].names.english for k in stars)
    palaces = space.query(dataset, "SELECT palace, key FROM palace_name ORDER BY 1")[1]
    assert palaces == [(int(p), p.key) for p in ziwei.PalaceName]


@pytest.mark.parametrize("expr", list(ENGINE))
def test_without_a_dataset_the_counts_are_the_engines_too(
    expr: str, engine_counts: dict[str, Counter[int]]
) -> None:
    seen: list[tuple[int, int]] = []
    result = space.find_years(expr, YEAR, YEAR, on_year=lambda y, n: seen.append((y, n)))
    assert {g.value: g.count for g in result.groups} == dict(engine_counts[expr])
    assert result.rows == 365 * 13 * 2 and seen == [(YEAR, result.rows)]


def test_cli_without_a_dataset_draws_the_years(engine_counts: dict[str, Counter[int]]) -> None:
    from mingshu.cli import app

    args = ["find", "en_guang = tian_gui", "--from", str(YEAR), "--to", str(YEAR), "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["count"] == sum(engine_counts["en_guang = tian_gui"].values())
    assert data["rows"] == 365 * 13 * 2


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["DATASET", "en_guang = tian_gui", "--from", "2000"], "first_year"),
        (["DATASET", "en_guang = tian_gui", "--school", "quanshu"], "school"),
        (["en_guang", "=", "tian_gui"], "expr"),
        (["en_guang = tian_gui", "--from", "1500", "--to", "1501"], "first_year"),
        (["en_guang = tian_gui", "--from", "2001", "--to", "2000"], "last_year"),
        ([], "expr"),
    ],
)
def test_cli_refuses_options_that_would_be_ignored(
    dataset: Path, args: list[str], field: str
) -> None:
    from mingshu.cli import app

    args = [str(dataset) if a == "DATASET" else a for a in args]
    bad = runner.invoke(app, ["find", *args])
    assert bad.exit_code == 2, bad.output
    assert bad.stderr.startswith(f"error: {field}: "), bad.stderr


def test_cli_prints_counts_and_json_and_exits_2_on_bad_input(dataset: Path) -> None:
    from mingshu.cli import app

    table = runner.invoke(app, ["find", str(dataset), "en_guang = tian_gui"])
    assert table.exit_code == 0, table.output
    assert "卯时" in table.stdout and "total: 1,460 of 9,490 rows" in table.stdout
    as_json = runner.invoke(app, ["find", str(dataset), "tai_fu = 午", "--by", "day", "--json"])
    assert as_json.exit_code == 0, as_json.output
    data = json.loads(as_json.stdout)
    assert (data["expr"], data["by"], data["rows"]) == ("tai_fu = 午", "day", 9490)
    assert data["count"] == sum(g["count"] for g in data["groups"]) == 1460
    for args, field in [
        (["1; DROP TABLE charts"], "expr"),
        (["x" * 100_000], "expr"),
        (["en_guang = 1", "--by", "week"], "by"),
    ]:
        bad = runner.invoke(app, ["find", str(dataset), *args])
        assert bad.exit_code == 2 and bad.stderr.startswith(f"error: {field}: ")
        assert "Traceback" not in bad.output and len(bad.stderr) < 300
    missing = runner.invoke(app, ["find", str(dataset.parent / "nowhere"), "en_guang = 1"])
    assert missing.exit_code == 2 and missing.stderr.startswith("error: dataset: ")


def test_a_dataset_with_the_older_hour_names_still_opens(dataset: Path, tmp_path: Path) -> None:
    # Datasets swept before the hour names carried English held the 简体 name alone.
    import shutil

    copy = tmp_path / "charts"
    shutil.copytree(dataset, copy)
    meta = json.loads((copy / "_mingshu.json").read_text("utf-8"))
    meta["time_index"] = {i: v["hans"] for i, v in meta["time_index"].items()}
    (copy / "_mingshu.json").write_text(json.dumps(meta, ensure_ascii=False), "utf-8")
    assert space.query(copy, "SELECT * FROM hour_name WHERE time_index = 3")[1] == [
        (3, "卯时", None)
    ]
    assert [g.name for g in space.find(copy, "en_guang = tian_gui").groups] == ["卯时", "酉时"]


def test_groups_are_named(dataset: Path, rows: list[dict[str, Any]]) -> None:
    """Months and days as the calendar prints a lunar date (``LunarDate.chinese()``, the
    lunar-python format: 二〇〇〇年七月十七), branches as cycles.toml names them."""
    from mingshu import calendar
    from mingshu.cycles import Branch

    plain = {}  # (month, day) -> the chinese() text of a non-leap day
    for r in rows:
        if not r["lunar_leap"]:
            plain.setdefault((r["lunar_month"], r["lunar_day"]), r["solar_date"])
    months = space.find(dataset, "tai_fu = 午", by="month").groups
    assert len(months) == 12
    for g in months:
        day = next(d for (m, _), d in plain.items() if m == g.value)
        text = calendar.solar_to_lunar(day).chinese()
        assert g.name and text.split("年", 1)[1].startswith(g.name), (g.value, g.name, text)
    assert months[0].name == "正月" and months[-1].name == "腊月"
    days = space.find(dataset, "tai_fu = 午", by="day").groups
    assert len(days) == 30
    for g in days:
        day = next(d for (_, n), d in plain.items() if n == g.value)
        assert g.name and calendar.solar_to_lunar(day).chinese().endswith(g.name)
    life = space.find(dataset, "zi_wei = life_branch", by="life").groups
    assert [g.name for g in life] == [b.names.hans for b in Branch if b in {g.value for g in life}]
    assert {g.value for g in life} == set(range(12))
    hours = space.find(dataset, "en_guang = tian_gui").groups
    assert [g.name for g in hours] == ["卯时", "酉时"]
