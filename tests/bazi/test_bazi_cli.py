"""`mingshu bazi DATE TIME --gender …`: tables, --json, settings options, and bad input
(exit code 2, the field named, no traceback)."""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from mingshu.cli import app

runner = CliRunner()
BASE = ["bazi", "1990-05-15", "10:30", "--tz", "Asia/Shanghai", "--gender", "male"]


def test_tables_show_every_part_of_the_chart() -> None:
    result = runner.invoke(app, BASE, env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    out = result.output
    assert "庚午 辛巳 庚辰 辛巳" in out
    for word in ("十神", "藏干", "纳音", "星运", "空亡", "胎元 壬申", "命宫 癸未", "大运", "壬午"):
        assert word in out, word
    # Symbolic stars with their table, found or not.
    assert "文昌贵人" in out and "W1 星學大成 卷一 論文昌 rule (辛 → 子)" in out
    assert "天乙贵人" in out and "V1" in out
    assert "daylight saving" in out  # 1990 was a DST year in China


def test_json_pillars_are_two_character_strings() -> None:
    result = runner.invoke(app, [*BASE, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["pillars"] == {"year": "庚午", "month": "辛巳", "day": "庚辰", "hour": "辛巳"}
    assert all(len(v) == 2 for v in data["pillars"].values())
    stars = {s["key"]: s for s in data["stars"]}
    assert len(stars) >= 30
    assert stars["wen_chang"]["variant"] == "w1" and stars["wen_chang"]["found"] is False
    # V1 (default): 庚 → 丑未, neither in the chart, by day stem nor by year stem.
    assert stars["tian_yi"]["variant"] == "v1" and stars["tian_yi"]["hits"] == []
    assert stars["tian_yi"]["source"]["status"] == "primary"
    assert stars["kui_gang"]["hits"] == [
        {
            "pillar": "day",
            "component": "pillar",
            "basis": "day_pillar",
            "basis_value": "庚辰",
            "target": "庚辰",
            "role": None,
        }
    ]
    assert len(data["luck"]["steps"]) == 10
    assert data["details"]["day"]["ten_god"] is None
    assert data["settings"]["late_rat_hour"] == "next_day"


def test_options_reach_the_settings() -> None:
    args = [
        *BASE,
        "--json",
        "--late-rat-hour", "split",
        "--start-age", "days_shichen",
        "--star", "wen_chang=w2",
        "--star", "tian_yi=v1",
        "--include-basis-pillar",
        "--luck-steps", "12",
        "--longitude", "121.47",
        "--true-solar-time",
        "--year", "2025",
    ]  # fmt: skip
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    s = data["settings"]
    assert (s["late_rat_hour"], s["start_age"], s["include_basis_pillar"]) == (
        "split",
        "days_shichen",
        True,
    )
    assert s["star_variants"]["wen_chang"] == "w2" and s["star_variants"]["tian_yi"] == "v1"
    assert len(data["luck"]["steps"]) == 12
    assert data["birth"]["moment"]["clock_kind"] == "apparent_solar"
    assert data["annual"][0]["year"] == 2025 and data["annual"][0]["pillar"] == "乙巳"


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["bazi", "2030-02-30", "10:30", "--gender", "male"], "date"),
        (["bazi", "1582-05-15", "10:30", "--gender", "male"], "date"),
        (["bazi", "1990-05-15", "24:10", "--gender", "male"], "time"),
        (["bazi", "1990-05-15", "10:30", "--gender", "male", "--tz", "Nowhere/City"], "tz"),
        (["bazi", "1990-05-15", "10:30", "--gender", "male", "--longitude", "190"], "longitude"),
        (["bazi", "1990-05-15", "10:30", "--gender", "robot"], "gender"),
        (
            ["bazi", "1990-05-15", "10:30", "--gender", "male", "--star", "wen_chang=w9"],
            "star_variants",
        ),
        (["bazi", "1990-05-15", "10:30", "--gender", "male", "--star", "wen_chang"], "star"),
        (["bazi", "1990-05-15", "10:30", "--gender", "male", "--true-solar-time"], "longitude"),
        (["bazi", "1990-05-15", "10:30", "--gender", "male", "--year", "1900"], "year"),
        (["bazi", "1988-04-17", "02:30", "--gender", "male"], "time"),
    ],
)
def test_bad_input_exits_2_naming_the_field(args: list[str], field: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert f"error: {field}: " in result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_bad_option_choice_exits_2() -> None:
    result = runner.invoke(app, [*BASE, "--late-rat-hour", "midnight"])
    assert result.exit_code == 2
    # The field is the settings field: late_rat (late_rat_hour in the shared dialect).
    assert re.fullmatch(
        r"error: late_rat(_hour)?: 'midnight' is not one of [^\n]*next_day[^\n]*\n", result.stderr
    )


def test_a_star_given_twice_exits_2() -> None:
    result = runner.invoke(app, [*BASE, "--star", "wen_chang=w2", "--star", "wen_chang=w2"])
    assert result.exit_code == 2
    assert result.stderr == "error: star: wen_chang is given twice\n"


def test_bazi_speaks_the_same_birth_options_as_ziwei() -> None:
    lunar = runner.invoke(
        app, ["bazi", "2023-2-20", "10:00", "-g", "male", "--lunar", "--leap", "--json"]
    )
    assert lunar.exit_code == 0, lunar.output
    assert json.loads(lunar.stdout)["birth"]["lunar_input"]["is_leap"] is True
    solar = runner.invoke(
        app,
        [
            "bazi",
            "2000-06-15",
            "10:00",
            "-g",
            "male",
            "--longitude",
            "87.6",
            "--true-solar-time",
            "--no-equation-of-time",
            "--json",
        ],
    )
    assert solar.exit_code == 0, solar.output
    assert json.loads(solar.stdout)["birth"]["moment"]["clock_kind"] == "mean_solar"
    east = runner.invoke(app, ["bazi", "2000-06-15", "10:00", "-g", "male", "--longitude", "east"])
    assert east.exit_code == 2 and east.stderr.startswith(
        "error: longitude: 'east' is not a number"
    )


def test_star_basis_and_profile_options() -> None:
    out = runner.invoke(app, [*BASE, "--json", "--star-basis", "tai_ji=year_stem"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["settings"]["star_bases"] == {"tai_ji": "year_stem"}
    tai_ji = next(s for s in data["stars"] if s["key"] == "tai_ji")
    assert tai_ji["basis"] == ["year_stem"]
    out = runner.invoke(app, [*BASE, "--json", "--profile", "bazi-chart-1.2.0"])
    assert json.loads(out.output)["settings"]["profile"] == "bazi-chart-1.2.0"
    for bad, field in (
        (["--star-basis", "tai_ji=hour_stem"], "star_bases"),
        (["--star-basis", "tai_ji"], "star_bases"),
        (["--star-basis", "no_such_star=day_stem"], "star_bases"),
        (["--profile", "bazi-9"], "profile"),
    ):
        result = runner.invoke(app, [*BASE, *bad])
        assert result.exit_code == 2, bad
        assert result.output.startswith(f"error: {field}:"), result.output
        assert "Traceback" not in result.output and result.output.count("\n") == 1, bad


def test_ming_gong_month_and_si_ling_options() -> None:
    args = ["bazi", "2024-02-10", "10:30", "-g", "male", "--json"]
    plain = json.loads(runner.invoke(app, args).output)
    zq = json.loads(runner.invoke(app, [*args, "--ming-gong-month", "zhong_qi"]).output)
    # 甲辰 year, 巳 hour; before 雨水 the 中气 month is 丑: palace 亥 (乙亥) instead of 戌 (甲戌).
    assert (plain["ming_gong"], zq["ming_gong"]) == ("甲戌", "乙亥")
    sl = json.loads(runner.invoke(app, [*args, "--si-ling", "tyme4py"]).output)["si_ling"]
    assert (sl["table"], sl["stem"], sl["day"]) == ("tyme4py", "wu", 6)
    bad = runner.invoke(app, [*args, "--si-ling", "x"])
    assert bad.exit_code == 2 and bad.output.startswith("error: si_ling:")
