"""Both engines' commands over the whole calendar range, 1583-01-01 .. 2650-12-31 (issue 27).

Expected pillars and lunar dates come from lunar-python 1.4.8, asked in the test.
"""

from __future__ import annotations

import json

import pytest
from lunar_python import Solar
from typer.testing import CliRunner

from mingshu.cli import app

runner = CliRunner()
RANGE = "1583-01-01 .. 2650-12-31"
# Etc/GMT-8 is UTC+8 at every date: Asia/Shanghai has local mean time (UTC+08:05:43) before 1901.
ZONE = ["--tz", "Etc/GMT-8"]


@pytest.mark.parametrize(
    ("day", "clock"),
    [("1583-01-01", "00:00"), ("1811-11-26", "12:00"), ("2650-12-31", "22:59")],
)
def test_births_across_the_range_chart_in_both_engines(day: str, clock: str) -> None:
    y, m, d = map(int, day.split("-"))
    hour, minute = map(int, clock.split(":"))
    lunar = Solar.fromYmdHms(y, m, d, hour, minute, 0).getLunar()
    eight = lunar.getEightChar()
    pillars = f"{eight.getYear()} {eight.getMonth()} {eight.getDay()} {eight.getTime()}"

    result = runner.invoke(app, ["bazi", day, clock, "--gender", "male", *ZONE])
    assert result.exit_code == 0, result.output
    assert f"八字 {pillars} " in result.stdout

    result = runner.invoke(app, ["ziwei", day, clock, "--gender", "male", *ZONE, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["lunar_date"]["chinese"].startswith(lunar.toString())


def test_issue_example_1811_without_a_zone() -> None:
    for engine in ("ziwei", "bazi"):
        result = runner.invoke(app, [engine, "1811-11-26", "12:00", "--gender", "male"])
        assert result.exit_code == 0, result.output


@pytest.mark.parametrize("day", ["1582-12-31", "2651-01-01", "1000-06-01", "9999-12-31"])
@pytest.mark.parametrize("engine", ["ziwei", "bazi"])
def test_dates_outside_the_range_are_refused_naming_it(engine: str, day: str) -> None:
    result = runner.invoke(app, [engine, day, "12:00", "--gender", "male"])
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr == f"error: date: {day} is outside the supported range {RANGE}\n"
