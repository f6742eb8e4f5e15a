"""八字反查 (``bazi.moments_of``) against lunar-python 1.4.8.

lunar-python is the authority twice over: its ``EightChar`` must give the wanted pillars at the
first and the last second of every stretch we return and other pillars just outside it (so the
stretches are right and whole), and a moment drawn at random must lie in one of the stretches
returned for its own pillars (so none is missing).  Its ``Solar.fromBaZi`` is a third, coarser
check: the same days, over the years it searches.
"""

from __future__ import annotations

import json
import random
from datetime import date, datetime, timedelta

import bazi_oracle
import pytest
from lunar_python import Lunar, Solar
from typer.testing import CliRunner

from mingshu import bazi
from mingshu.calendar import FIRST_DATE, LAST_DATE, SolarTerm
from mingshu.cli import app
from mingshu.errors import InputError, OutOfRangeError

SECT = {1: bazi.LateRatHour.NEXT_DAY, 2: bazi.LateRatHour.SPLIT}
SECOND = timedelta(seconds=1)
FIRST = datetime.combine(FIRST_DATE, datetime.min.time())
LAST = datetime.combine(LAST_DATE, datetime.max.time()).replace(microsecond=0)


def _settings(sect: int) -> bazi.BaziSettings:
    return bazi.BaziSettings(late_rat_hour=SECT[sect])


def _theirs(moment: datetime, sect: int) -> str:
    ec = bazi_oracle.eight_char(moment, sect)
    return f"{ec.getYear()} {ec.getMonth()} {ec.getDay()} {ec.getTime()}"


def _check_stretches(pillars: str, sect: int) -> list[bazi.MomentRange]:
    found = list(bazi.moments_of(pillars, _settings(sect)))
    for r in found:
        assert r.start < r.end <= r.start + timedelta(hours=2)
        assert _theirs(r.start, sect) == pillars, r
        assert _theirs(r.end - SECOND, sect) == pillars, r
        if r.start > FIRST:
            assert _theirs(r.start - SECOND, sect) != pillars, f"{r} starts too late"
        if r.end <= LAST:
            assert _theirs(r.end, sect) != pillars, f"{r} ends too early"
    return found


def test_the_readers_example() -> None:
    # 庚辰 甲申 丙午 庚寅: the 寅 hour of 1940-08-31 and of 2000-08-16.  (2060-08-01, sometimes
    # given with these, is still 癸未 month: 立秋 2060 falls on 08-07, as lunar-python says too.)
    found = _check_stretches("庚辰 甲申 丙午 庚寅", 1)
    assert [(r.start, r.end) for r in found if 1900 <= r.start.year <= 2100] == [
        (datetime(1940, 8, 31, 3), datetime(1940, 8, 31, 5)),
        (datetime(2000, 8, 16, 3), datetime(2000, 8, 16, 5)),
    ]
    # Every sixty years (or a multiple) the set comes back: never on a 60-year step alone.
    assert all(r.start.month in (8, 9) for r in found) and len(found) >= 4
    assert _theirs(datetime(2060, 8, 1, 4), 1) == "庚辰 癸未 丙午 庚寅"


@pytest.mark.parametrize("sect", [1, 2])
def test_random_moments_are_found_and_every_stretch_is_whole(sect: int) -> None:
    rng = random.Random(2026 + sect)
    span = int((LAST - FIRST).total_seconds())
    for _ in range(40):
        moment = FIRST + timedelta(seconds=rng.randrange(span))
        pillars = _theirs(moment, sect)
        found = _check_stretches(pillars, sect)
        assert any(r.start <= moment < r.end for r in found), (moment, pillars, found)


@pytest.mark.parametrize("sect", [1, 2])
def test_the_late_rat_hour(sect: int) -> None:
    # A 子 hour: under sect 1 the day changes at 23:00, so 23:00–01:00 is one stretch; under
    # sect 2 the evening half keeps the old day pillar, so the two halves part.
    moment = datetime(1984, 3, 1, 23, 30)
    pillars = _theirs(moment, sect)
    found = _check_stretches(pillars, sect)
    (hit,) = [r for r in found if r.start <= moment < r.end]
    if sect == 1:
        assert (hit.start, hit.end) == (datetime(1984, 3, 1, 23), datetime(1984, 3, 2, 1))
    else:
        assert (hit.start, hit.end) == (datetime(1984, 3, 1, 23), datetime(1984, 3, 2))


def test_a_stretch_cut_by_a_jie_ends_on_its_second() -> None:
    # 立春 1984 fell in the 子 hour of 1984-02-04 (lunar-python): that hour splits there.
    t = Lunar.fromYmd(1984, 1, 1).getJieQiTable()["立春"]
    jie = datetime(t.getYear(), t.getMonth(), t.getDay(), t.getHour(), t.getMinute(), t.getSecond())
    assert jie.hour == 23
    before, after = _theirs(jie - SECOND, 1), _theirs(jie, 1)
    assert before.split()[:2] != after.split()[:2]
    (first,) = [r for r in _check_stretches(before, 1) if r.start.year == 1984]
    (second,) = [r for r in _check_stretches(after, 1) if r.start.year == 1984]
    assert first.end == second.start == jie
    assert first.end_term is second.start_term is SolarTerm.LI_CHUN
    assert first.start_term is None and second.end_term is None


@pytest.mark.parametrize("sect", [1, 2])
def test_lunar_pythons_own_reverse_lookup_finds_nothing_we_miss(sect: int) -> None:
    rng = random.Random(7 + sect)
    for _ in range(15):
        moment = datetime(1900, 3, 1) + timedelta(seconds=rng.randrange(125 * 365 * 86400))
        y, m, d, t = _theirs(moment, sect).split()
        ours = bazi.moments_of(f"{y}{m}{d}{t}", _settings(sect), end=date(2025, 12, 31))
        # fromBaZi gives one moment inside each stretch it finds; it searches up to this year.
        for s in Solar.fromBaZi(y, m, d, t, sect, 1900):
            if s.getYear() > 2025:
                continue
            theirs = datetime(s.getYear(), s.getMonth(), s.getDay(), s.getHour(), s.getMinute())
            assert any(r.start <= theirs < r.end for r in ours), (y, m, d, t, theirs, ours)


def test_pillars_that_never_meet_have_no_moments() -> None:
    # 甲 years run their months from 丙寅 to 丁丑: no 甲子 month.
    assert bazi.moments_of("甲子 甲子 甲子 甲子") == ()
    # 甲 days run their hours from 甲子; a 丙子 hour on a 甲子 day is the 夜子时 of sect 2 only
    # (the hour stem taken from the next day, 乙丑).
    assert bazi.moments_of("甲子 丙子 甲子 丙子", _settings(1)) == ()
    found = _check_stretches("甲子 丙子 甲子 丙子", 2)
    assert found and all(r.start.hour == 23 for r in found)


@pytest.mark.parametrize(
    ("value", "field"),
    [
        ("庚辰 甲申 丙午", "pillars"),
        ("庚辰 甲申 丙午 庚卯", "pillars.hour"),
        ("庚辰 甲申 丙午 庚丑", "pillars.hour"),
        (["庚辰", "甲申", "丙午"], "pillars"),
        (42, "pillars"),
        (b"\xe5", "pillars"),
    ],
)
def test_bad_pillars_name_their_field(value: object, field: str) -> None:
    with pytest.raises(InputError) as e:
        bazi.moments_of(value)
    assert e.value.field == field


def test_the_range_is_checked() -> None:
    with pytest.raises(OutOfRangeError) as e:
        bazi.moments_of("庚辰 甲申 丙午 庚寅", start=FIRST_DATE - timedelta(days=1))
    assert e.value.field == "start"
    with pytest.raises(InputError) as e2:
        bazi.moments_of("庚辰 甲申 丙午 庚寅", start=date(2000, 1, 1), end=date(1999, 1, 1))
    assert e2.value.field == "end"
    later = bazi.moments_of("庚辰 甲申 丙午 庚寅", start=date(1950, 1, 1), end=date(2100, 12, 31))
    assert [r.start.year for r in later] == [2000]


# The command line: `mingshu bazi --pillars Y M D H [--from --to]`.

runner = CliRunner()


def test_cli_lists_the_stretches_as_json() -> None:
    result = runner.invoke(
        app,
        [
            "bazi",
            "--pillars",
            "庚辰",
            "甲申",
            "丙午",
            "庚寅",
            "--from",
            "1930",
            "--to",
            "2100",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["from"] == "1930-01-01" and data["to"] == "2100-12-31"
    starts = [datetime.fromisoformat(m["start"]) for m in data["moments"]]
    assert starts == [datetime(1940, 8, 31, 3), datetime(2000, 8, 16, 3)]
    for m in data["moments"]:
        last = datetime.fromisoformat(m["end"]) - SECOND
        assert _theirs(last, 1) == "庚辰 甲申 丙午 庚寅"


def test_cli_text_follows_the_late_rat_setting() -> None:
    args = ["bazi", "--pillars", "甲子", "丙子", "甲子", "丙子", "--from", "1900", "--to", "1930"]
    assert "0 stretches" in runner.invoke(app, args).output
    result = runner.invoke(app, [*args, "--late-rat-hour", "split"])
    assert result.exit_code == 0, result.output
    assert "1 stretch " in result.output
    (line,) = [x for x in result.output.splitlines() if x.startswith("  ")]
    start = datetime.fromisoformat(line.strip().split(" – ")[0])
    assert _theirs(start, 2) == "甲子 丙子 甲子 丙子"


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        (["--tz", "UTC"], "tz"),
        (["--gender", "male"], "gender"),
        (["--true-solar-time"], "true_solar_time"),
        (["--from", "1500"], "from"),
        (["--from", "2000", "--to", "1990"], "to"),
        (["1990-05-15"], "pillars"),
    ],
)
def test_cli_refuses_what_the_search_would_ignore(extra: list[str], field: str) -> None:
    result = runner.invoke(app, ["bazi", "--pillars", "庚辰", "甲申", "丙午", "庚寅", *extra])
    assert result.exit_code == 2
    assert result.output.startswith(f"error: {field}: "), result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["bazi"], "date"),
        (["bazi", "1990-05-15"], "time"),
        (["bazi", "1990-05-15", "10:30"], "gender"),
        (["bazi", "1990-05-15", "10:30", "-g", "male", "--to", "2000"], "from"),
    ],
)
def test_a_chart_still_needs_its_birth(args: list[str], field: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert result.output.startswith(f"error: {field}: "), result.output
