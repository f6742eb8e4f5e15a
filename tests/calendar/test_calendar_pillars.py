"""Pillars and 节 search against lunar-python 1.4.8 at every 节 of the range, ±1 s and ±2 min."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lunar_python import Solar

from mingshu import calendar
from mingshu.calendar import SolarTerm
from mingshu.cycles import SIXTY, Branch, Pillar, Stem

OFFSETS = [timedelta(seconds=s) for s in (-120, -1, 0, 1, 120)]


def _jie_moments() -> list[datetime]:
    """Every 节 whose moment (±2 min) lies in the supported range."""
    moments = []
    for year in range(1582, 2651):
        for term in SolarTerm:
            moment = calendar.term_moment(year, term)
            if term.is_jie and calendar.FIRST_DATE <= moment.date() <= calendar.LAST_DATE:
                moments.append(moment)
    return moments


def _reference(moment: datetime) -> tuple[tuple[int, int], tuple[int, int], str, str]:
    """lunar-python: exact year and month pillars (EightChar), previous and next 节 moments."""
    lunar = Solar.fromYmdHms(
        moment.year, moment.month, moment.day, moment.hour, moment.minute, moment.second
    ).getLunar()
    year = (lunar.getYearGanIndexExact(), lunar.getYearZhiIndexExact())
    month = (lunar.getMonthGanIndexExact(), lunar.getMonthZhiIndexExact())
    eight = lunar.getEightChar()
    assert eight.getYear() == lunar.getYearInGanZhiExact()
    assert eight.getMonth() == lunar.getMonthInGanZhiExact()
    return (
        year,
        month,
        lunar.getPrevJie().getSolar().toYmdHms(),
        lunar.getNextJie().getSolar().toYmdHms(),
    )


def _ours(moment: datetime) -> tuple[tuple[int, int], tuple[int, int], str, str]:
    year = calendar.year_pillar_exact(moment)
    month = calendar.month_pillar_exact(moment)
    return (
        (year.stem, year.branch),
        (month.stem, month.branch),
        str(calendar.previous_jie(moment)[1]),
        str(calendar.next_jie(moment)[1]),
    )


@pytest.mark.slow
def test_exact_pillars_and_jie_around_every_jie_moment() -> None:
    moments = _jie_moments()
    assert len(moments) == 1068 * 12  # 1583 .. 2650: all twelve 节 of each year
    problems: list[tuple[object, ...]] = []
    for jie in moments:
        for offset in OFFSETS:
            moment = jie + offset
            if _ours(moment) != _reference(moment):
                problems.append((moment, _ours(moment), _reference(moment)))
    assert not problems, problems[:5]


def test_exact_pillars_and_jie_around_the_jie_of_the_first_and_last_years() -> None:
    """The loop's share of the sweep above: 1583, 1811 and 2650, both ends of the range."""
    moments = [m for m in _jie_moments() if m.year in (1583, 1811, 2650)]
    assert len(moments) == 36
    problems = [
        (jie + offset, _ours(jie + offset), _reference(jie + offset))
        for jie in moments
        for offset in OFFSETS
        if _ours(jie + offset) != _reference(jie + offset)
    ]
    assert not problems, problems[:5]


@settings(max_examples=300, deadline=None)
@given(
    st.datetimes(
        min_value=datetime.combine(calendar.FIRST_DATE, datetime.min.time()),
        max_value=datetime.combine(calendar.LAST_DATE, datetime.max.time()),
    ).map(lambda m: m.replace(microsecond=0))
)
def test_exact_pillars_and_jie_at_random_moments(moment: datetime) -> None:
    assert _ours(moment) == _reference(moment)


def test_jie_search_semantics() -> None:
    li_chun = calendar.term_moment(2024, SolarTerm.LI_CHUN)
    assert li_chun == datetime(2024, 2, 4, 16, 27, 7)
    assert calendar.previous_jie(li_chun) == (SolarTerm.LI_CHUN, li_chun)  # at or before
    assert calendar.next_jie(li_chun)[0] is SolarTerm.JING_ZHE  # strictly after
    before = li_chun - timedelta(microseconds=1)
    assert calendar.previous_jie(before)[0] is SolarTerm.XIAO_HAN
    assert calendar.next_jie(before) == (SolarTerm.LI_CHUN, li_chun)
    # Edges of the range reach into the extra years of the term table.
    assert calendar.previous_jie(datetime(1583, 1, 1)) == (
        SolarTerm.DA_XUE,
        calendar.term_moment(1582, SolarTerm.DA_XUE),
    )
    assert calendar.next_jie(datetime(2650, 12, 31, 23, 59, 59))[1].year == 2651


def test_spec_examples_of_year_and_month_boundaries() -> None:
    # docs/bazi-rules.md §1.2: 2024-02-04 16:00 is still 癸卯, 16:50 is 甲辰.
    assert calendar.year_pillar_exact(datetime(2024, 2, 4, 16, 0)) == Pillar.parse("癸卯")
    assert calendar.year_pillar_exact(datetime(2024, 2, 4, 16, 50)) == Pillar.parse("甲辰")
    assert calendar.month_pillar_exact(datetime(2024, 2, 4, 16, 0)) == Pillar.parse("乙丑")
    assert calendar.month_pillar_exact(datetime(2024, 2, 4, 16, 50)) == Pillar.parse("丙寅")
    # The whole 立春 day already counts for the by-day variant (iztro yearDivide 'exact').
    assert calendar.year_pillar_by_lichun_day(date(2024, 2, 4)) == Pillar.parse("甲辰")
    assert calendar.year_pillar_by_lichun_day(date(2024, 2, 3)) == Pillar.parse("癸卯")
    assert calendar.year_pillar_of_lunar_year(1984) == SIXTY[0]
    assert calendar.year_pillar_of_lunar_year(2024) == Pillar.parse("甲辰")


def test_aware_moments_are_converted_to_beijing_time() -> None:
    # 立春 2024 = 16:27:07 Beijing time = 08:27:07 UTC.
    one_second_early = datetime(2024, 2, 4, 8, 27, 6, tzinfo=UTC)
    assert calendar.year_pillar_exact(one_second_early) == Pillar.parse("癸卯")
    on_time = one_second_early + timedelta(seconds=1)
    assert calendar.year_pillar_exact(on_time) == Pillar.parse("甲辰")
    assert calendar.month_pillar_exact(on_time) == Pillar.parse("丙寅")
    assert calendar.previous_jie(on_time)[0] is SolarTerm.LI_CHUN
    # A naive datetime is already Beijing time.
    assert calendar.year_pillar_exact(datetime(2024, 2, 4, 8, 27, 7)) == Pillar.parse("癸卯")


def test_day_pillar_check_values() -> None:
    assert calendar.day_pillar(date(2000, 1, 1)) == Pillar.parse("戊午")
    assert calendar.day_pillar(date(1949, 10, 1)) == Pillar.parse("甲子")
    assert calendar.day_pillar_from_ordinal(date(2000, 1, 2).toordinal()) == Pillar.parse("己未")


def test_hour_branch_every_hour() -> None:
    for hour in range(24):
        expected = Solar.fromYmdHms(2000, 1, 1, hour, 30, 0).getLunar().getTimeZhiIndex()
        assert calendar.hour_branch(hour) == expected, hour
    assert calendar.hour_branch(23) is Branch.ZI
    assert calendar.hour_branch(0) is Branch.ZI
    assert calendar.hour_branch(1) is calendar.hour_branch(2) is Branch.CHOU


def test_hour_pillar_for_every_day_stem_and_hour() -> None:
    """五鼠遁 against lunar-python's time pillar (early hours, where its day is the civil day)."""
    start = date(2000, 1, 1)
    for n in range(10):
        d = start + timedelta(days=n)
        stem = calendar.day_pillar(d).stem
        for hour in range(23):  # 23:00 belongs to the next day's 子 hour in lunar-python
            lunar = Solar.fromYmdHms(d.year, d.month, d.day, hour, 0, 0).getLunar()
            pillar = calendar.hour_pillar(stem, calendar.hour_branch(hour))
            assert (pillar.stem, pillar.branch) == (
                lunar.getTimeGanIndex(),
                lunar.getTimeZhiIndex(),
            ), (d, hour)


def test_five_rats_and_five_tigers_tables() -> None:
    """First rows of the spec tables (docs/bazi-rules.md §1.3 and §1.5), every year/day stem."""
    firsts = ["丙寅", "戊寅", "庚寅", "壬寅", "甲寅"]
    rats = ["甲子", "丙子", "戊子", "庚子", "壬子"]
    for stem in Stem:
        assert calendar.month_stem(stem, Branch.YIN) == Pillar.parse(firsts[stem % 5]).stem
        assert calendar.hour_pillar(stem, Branch.ZI) == Pillar.parse(rats[stem % 5])
    # 子 and 丑 months continue the same year's count: 甲 year → 丙子, 丁丑.
    assert calendar.month_stem(Stem.JIA, Branch.ZI) is Stem.BING
    assert calendar.month_stem(Stem.JIA, Branch.CHOU) is Stem.DING
    assert calendar.month_stem(Stem.GUI, Branch.HAI) is Stem.GUI


def test_month_stem_agrees_with_exact_month_pillars() -> None:
    for year in range(1990, 2010):
        for term in SolarTerm:
            if not term.is_jie:
                continue
            moment = calendar.term_moment(year, term)
            pillar = calendar.month_pillar_exact(moment)
            year_stem = calendar.year_pillar_exact(moment).stem
            assert pillar.branch is term.month_branch
            assert calendar.month_stem(year_stem, term.month_branch) is pillar.stem


def test_term_properties() -> None:
    assert SolarTerm.LI_CHUN.is_jie and not SolarTerm.YU_SHUI.is_jie
    assert SolarTerm.LI_CHUN.month_branch is Branch.YIN
    assert SolarTerm.XIAO_HAN.month_branch is Branch.CHOU
    assert SolarTerm.DA_XUE.month_branch is Branch.ZI
    with pytest.raises(ValueError, match="中气"):
        _ = SolarTerm.DONG_ZHI.month_branch
    assert SolarTerm.JING_ZHE.names.hant == "驚蟄"
    assert SolarTerm.LI_CHUN.names.english == "Start of Spring"
    assert str(SolarTerm.QING_MING) == "清明"
