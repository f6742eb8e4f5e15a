"""Our four pillars against lunar-python 1.4.8 ``EightChar`` under both of its late-Rat sects.

sect 1 (the day changes at 23:00) is our ``LateRatHour.NEXT_DAY``; sect 2 (夜子时: the day stays,
the hour stem follows the next day) is ``LateRatHour.SPLIT``.  lunar-python offers no third
convention, so ``SAME_DAY`` is checked by its definition instead.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

import bazi_oracle
import pytest

from mingshu import bazi, calendar
from mingshu.bazi.pillars import jie_index
from mingshu.calendar import FIRST_DATE, LAST_DATE

NEXT_DAY = bazi.BaziSettings(late_rat_hour=bazi.LateRatHour.NEXT_DAY)
SPLIT = bazi.BaziSettings(late_rat_hour=bazi.LateRatHour.SPLIT)
SAME_DAY = bazi.BaziSettings(late_rat_hour=bazi.LateRatHour.SAME_DAY)

FIRST = datetime.combine(FIRST_DATE, datetime.min.time())
LAST = datetime.combine(LAST_DATE, datetime.max.time()).replace(microsecond=0)


def _ours(moment: datetime, settings: bazi.BaziSettings) -> tuple[str, ...]:
    return tuple(str(p) for p in bazi.four_pillars(moment, settings))


def _compare(moments: list[datetime]) -> list[str]:
    """Every disagreement, as text; lunar-python is asked in time order (its cache likes it)."""
    differences = []
    for m in sorted(moments):
        sect1, sect2 = bazi_oracle.pillars_both_sects(m)
        for settings, expected in ((NEXT_DAY, sect1), (SPLIT, sect2)):
            got = _ours(m, settings)
            if got != expected:
                differences.append(
                    f"{m} {settings.late_rat_hour}: ours {got}, lunar-python {expected}"
                )
    return differences


def _random_moments(n: int, seed: int) -> list[datetime]:
    rng = random.Random(seed)
    span = int((LAST - FIRST).total_seconds())
    return [FIRST + timedelta(seconds=rng.randrange(span + 1)) for _ in range(n)]


def test_random_moments_match_lunar_python_under_both_sects() -> None:
    moments = _random_moments(5000, seed=3)
    # Make sure the late Rat hour is well represented, not left to chance (1 in 24).
    moments += [m.replace(hour=23) for m in _random_moments(500, seed=4)]
    differences = _compare(moments)
    assert len(moments) >= 5000
    assert differences == [], f"{len(differences)} differences, first: {differences[:5]}"


def _jie_moments() -> list[datetime]:
    """Every 节 moment in range, 2 minutes before, 1 second before, exactly, 2 minutes after."""
    out = []
    for moment in jie_index().moments:
        for delta in (-120, -1, 0, 120):
            m = moment + timedelta(seconds=delta)
            if FIRST <= m <= LAST:
                out.append(m)
    return out


@pytest.mark.slow  # every 节 of 1583 … 2650 (seconds of CPU); the loop takes every 25th year
def test_every_jie_moment_plus_minus_two_minutes_matches_lunar_python() -> None:
    moments = _jie_moments()
    assert len(moments) > 4 * 12 * 1000  # every 节 of the range
    differences = _compare(moments)
    assert differences == [], f"{len(differences)} differences, first: {differences[:5]}"


def test_the_jie_of_every_25th_year_and_the_ends_match_lunar_python() -> None:
    last = LAST.year
    years = {*range(FIRST.year, last + 1, 25), FIRST.year, 1900, 2100, last}
    moments = [m for m in _jie_moments() if m.year in years]
    assert len(moments) > 4 * 12 * 40
    differences = _compare(moments)
    assert differences == [], f"{len(differences)} differences, first: {differences[:5]}"


def test_jie_index_agrees_with_the_calendar_layer() -> None:
    index = jie_index()
    for seconds, moment, year, month in zip(
        index.seconds, index.moments, index.year_pillars, index.month_pillars, strict=True
    ):
        if not FIRST_DATE <= moment.date() <= LAST_DATE:
            continue
        assert calendar.year_pillar_exact(moment) == year
        assert calendar.month_pillar_exact(moment) == month
        assert calendar.previous_jie(moment)[1] == moment
        before = moment - timedelta(seconds=1)
        if before.date() >= FIRST_DATE:
            assert calendar.next_jie(before)[1] == moment
        assert (
            seconds
            == moment.toordinal() * 86400 + moment.hour * 3600 + moment.minute * 60 + moment.second
        )


@pytest.mark.parametrize("seed", [11, 12])
def test_same_day_convention_by_definition(seed: int) -> None:
    """SAME_DAY: day pillar of the civil date, and 五鼠遁 from that same day's stem."""
    for m in _random_moments(300, seed):
        late = m.replace(hour=23)
        if late > LAST:
            continue
        year, month, day, hour = bazi.four_pillars(late, SAME_DAY)
        assert day == calendar.day_pillar(late.date())
        assert hour == calendar.hour_pillar(day.stem, hour.branch)
        assert str(hour.branch) == "子"
        # Year and month never move with the 23:00 rule.
        split = bazi.four_pillars(late, SPLIT)
        assert (year, month, day) == (split.year, split.month, split.day)


def test_late_rat_conventions_differ_exactly_where_they_should() -> None:
    m = datetime(2000, 1, 1, 23, 30)
    assert _ours(m, NEXT_DAY) == ("己卯", "丙子", "己未", "甲子")
    assert _ours(m, SPLIT) == ("己卯", "丙子", "戊午", "甲子")
    assert _ours(m, SAME_DAY) == ("己卯", "丙子", "戊午", "壬子")  # 戊 day → 壬子 (戊癸何方发)
    early = datetime(2000, 1, 2, 0, 30)
    for settings in (NEXT_DAY, SPLIT, SAME_DAY):
        assert _ours(early, settings) == ("己卯", "丙子", "己未", "甲子")
