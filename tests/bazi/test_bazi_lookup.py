"""八字反查: bazi.moments_of and ``mingshu bazi --pillars`` against lunar-python 1.4.8's EightChar.

lunar-python is the authority: every range found must have the pillars at its first and last
second and other pillars a second outside; every random moment must lie in a range found for its
own pillars (lunar-python's EightChar sect 1 is NEXT_DAY, sect 2 SPLIT).
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

import pytest
from lunar_python import Solar
from typer.testing import CliRunner

from mingshu import bazi
from mingshu.bazi import BaziSettings, MomentRange
from mingshu.calendar import SolarTerm, term_moment
from mingshu.cli import app
from mingshu.errors import InputError

SECT = {"next_day": 1, "split": 2}
SECOND = timedelta(seconds=1)


def eight_char(moment: datetime, late_rat: str) -> str:
    lunar = Solar.fromYmdHms(
        moment.year, moment.month, moment.day, moment.hour, moment.minute, moment.second
    ).getLunar()
    e = lunar.getEightChar()
    e.setSect(SECT[late_rat])
    return f"{e.getYear()} {e.getMonth()} {e.getDay()} {e.getTime()}"


def test_the_issue_example() -> None:
    found = bazi.moments_of("庚辰 甲申 丙午 庚寅")
    assert MomentRange(datetime(1940, 8, 31, 3), datetime(1940, 8, 31, 4, 59, 59)) in found
    assert MomentRange(datetime(2000, 8, 16, 3), datetime(2000, 8, 16, 4, 59, 59)) in found
    for r in found:
        assert (
            eight_char(r.first, "next_day")
            == eight_char(r.last, "next_day")
            == "庚辰 甲申 丙午 庚寅"
        )
        assert eight_char(r.first - SECOND, "next_day") != "庚辰 甲申 丙午 庚寅"
        assert eight_char(r.last + SECOND, "next_day") != "庚辰 甲申 丙午 庚寅"
    # The issue also names 2060-08-01 寅时; by lunar-python its month is still 癸未 (立秋 2060
    # falls on 08-07), so it is not an answer.
    assert eight_char(datetime(2060, 8, 1, 4), "next_day") == "庚辰 癸未 丙午 庚寅"
    assert not any(r.first.year == 2060 for r in found)
    assert bazi.moments_of("庚辰 癸未 丙午 庚寅", first_year=2060, last_year=2060) == (
        MomentRange(datetime(2060, 8, 1, 3), datetime(2060, 8, 1, 4, 59, 59)),
    )


@pytest.mark.parametrize("late_rat", ["next_day", "split"])
def test_random_moments_lie_in_a_range_of_their_own_pillars(late_rat: str) -> None:
    rng = random.Random(27)
    settings = BaziSettings(late_rat_hour=late_rat)
    first, last = datetime(1583, 1, 1), datetime(2650, 12, 31, 23, 59, 59)
    moments = [first + (last - first) * rng.random() for _ in range(12)]
    # Late Rat hours and the seconds around a 节, where the pieces are cut.
    moments += [datetime(1811, 11, 26, 23, 30), datetime(2650, 12, 31, 23, 59, 59)]
    jie = term_moment(1940, SolarTerm.LI_QIU)
    moments += [jie - SECOND, jie, datetime(1583, 1, 1, 0, 0, 5)]
    for moment in (m.replace(microsecond=0) for m in moments):
        pillars = eight_char(moment, late_rat)
        found = bazi.moments_of(
            pillars, first_year=moment.year, last_year=moment.year, settings=settings
        )
        assert any(r.first <= moment <= r.last for r in found), (moment, pillars, found)
        for r in found:
            assert eight_char(r.first, late_rat) == eight_char(r.last, late_rat) == pillars


def test_a_jie_cuts_a_range_to_the_second() -> None:
    jie = term_moment(1940, SolarTerm.LI_QIU)  # the 申 month opens here
    pillars = eight_char(jie, "next_day")
    starts = [r.first for r in bazi.moments_of(pillars, first_year=1940, last_year=1940)]
    assert jie in starts
    assert eight_char(jie - SECOND, "next_day") != pillars


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"pillars": "庚辰 甲申 丙午"}, "pillars"),
        ({"pillars": "庚辰 甲申 丙午 庚X"}, "pillars"),
        ({"pillars": 42}, "pillars"),
        ({"pillars": "庚辰 甲申 丙午 庚寅", "first_year": 1582}, "first_year"),
        ({"pillars": "庚辰 甲申 丙午 庚寅", "last_year": 2651}, "last_year"),
        ({"pillars": "庚辰 甲申 丙午 庚寅", "first_year": 2001, "last_year": 2000}, "last_year"),
    ],
)
def test_bad_input_names_its_field(kwargs: dict[str, object], field: str) -> None:
    with pytest.raises(InputError) as error:
        bazi.moments_of(**kwargs)  # type: ignore[arg-type]
    assert error.value.field == field


def test_cli() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["bazi", "--pillars", "庚辰", "甲申", "丙午", "庚寅"])
    assert result.exit_code == 0, result.output
    assert "  1940-08-31 03:00:00 .. 04:59:59\n" in result.stdout
    assert "  2000-08-16 03:00:00 .. 04:59:59\n" in result.stdout
    result = runner.invoke(
        app, ["bazi", "--pillars", "庚辰", "甲申", "丙午", "庚寅", "--from", "1990", "--to", "2010"]
    )
    assert result.stdout.count("\n  ") == 1 and "2000-08-16" in result.stdout
    for args, field in (
        (["--pillars", "庚辰", "甲申", "丙午", "庚寅", "--tz", "UTC"], "pillars"),
        (["--pillars", "庚辰", "甲申", "丙午", "庚寅", "--from", "1500"], "first_year"),
        (["1990-05-15", "10:00", "-g", "m", "--from", "1900"], "first_year"),
        (["1990-05-15", "10:00"], "gender"),
    ):
        result = runner.invoke(app, ["bazi", *args])
        assert result.exit_code == 2, result.output
        assert result.stderr.startswith(f"error: {field}: ") and result.stderr.count("\n") == 1
