"""The Python API never silently changes the meaning of an input (issue 20): an input that
could be read two ways is refused or read as what it is."""

from __future__ import annotations

import datetime as dt

import pytest

from mingshu import bazi, ziwei
from mingshu.cycles import Branch
from mingshu.errors import InputError

CHART = ziwei.chart("2000-8-16", 2, "female")


def field_of(call: object) -> str:
    with pytest.raises(InputError) as error:
        call()  # type: ignore[operator]
    return error.value.field


def test_palace_by_index_refuses_a_branch_or_a_palace_name() -> None:
    """Branch.ZI is the int 0 and PalaceName.HEALTH the int 7; as iztro indices they would
    be the 寅 palace and the 酉 palace."""
    with pytest.raises(InputError, match=r"palace_at\(Branch.ZI\)") as error:
        CHART.palace_by_index(Branch.ZI)
    assert error.value.field == "palace"
    with pytest.raises(InputError, match=r"palace_named\(PalaceName.HEALTH\)"):
        CHART.palace_by_index(ziwei.PalaceName.HEALTH)
    assert CHART.palace_by_index(0).branch is Branch.YIN  # a plain int is iztro's index
    assert CHART.palace_by_index(10).branch is Branch.ZI


def test_arriving_reads_backward_only_as_a_bool() -> None:
    natal = tuple(bazi.chart("1990-05-15", "10:30", "male").pillars)
    for text in ("False", "false", "0", ""):
        assert field_of(lambda t=text: bazi.arriving(natal, "甲子", backward=t)) == "backward"
    for flag in (0, 1, None):
        assert field_of(lambda f=flag: bazi.arriving(natal, "甲子", backward=f)) == "backward"


class NewYorkSummer(dt.tzinfo):
    """A tzinfo of another library (as pytz or dateutil give): US Eastern daylight time,
    UTC−4 with one hour of DST, as America/New_York was on 1990-07-01."""

    def utcoffset(self, when: dt.datetime | None) -> dt.timedelta:
        return dt.timedelta(hours=-4)

    def dst(self, when: dt.datetime | None) -> dt.timedelta:
        return dt.timedelta(hours=1)

    def tzname(self, when: dt.datetime | None) -> str:
        return "EDT"


class NoDst(NewYorkSummer):
    """The same zone in winter: UTC−5, no DST."""

    def utcoffset(self, when: dt.datetime | None) -> dt.timedelta:
        return dt.timedelta(hours=-5)

    def dst(self, when: dt.datetime | None) -> dt.timedelta:
        return dt.timedelta(0)

    def tzname(self, when: dt.datetime | None) -> str:
        return "EST"


def test_a_foreign_zone_that_reports_dst_has_its_dst_removed() -> None:
    """13:30 EDT is 12:30 standard time, 午 hour (not 未); IANA America/New_York (zoneinfo,
    from tzdata) is the authority."""
    foreign = bazi.chart_at(dt.datetime(1990, 7, 1, 13, 30, tzinfo=NewYorkSummer()), "male")
    iana = bazi.chart("1990-07-01", "13:30", "male", tz="America/New_York")
    assert foreign.pillars == iana.pillars
    assert foreign.moment is not None and iana.moment is not None
    assert foreign.moment.standard == iana.moment.standard == dt.datetime(1990, 7, 1, 12, 30)
    assert foreign.moment.dst_minutes == 60
    assert foreign.birth.time_index == iana.birth.time_index == 6  # 午, not 未
    codes = [n.code for n in foreign.notices]
    assert "daylight_saving" in codes and "fixed_offset" not in codes


def test_a_foreign_zone_without_dst_then_is_standard_time() -> None:
    foreign = bazi.chart_at(dt.datetime(1990, 1, 15, 12, 30, tzinfo=NoDst()), "male")
    iana = bazi.chart("1990-01-15", "12:30", "male", tz="America/New_York")
    assert foreign.pillars == iana.pillars
    assert [n.code for n in foreign.notices if n.code != "near_jie"] == ["foreign_zone"]


def test_a_fixed_offset_is_still_standard_time_with_its_notice() -> None:
    fixed = dt.timezone(dt.timedelta(hours=-4))
    chart = bazi.chart_at(dt.datetime(1990, 7, 1, 13, 30, tzinfo=fixed), "male")
    assert chart.birth.time_index == 7  # 13:30 as given: 未
    assert [n.code for n in chart.notices] == ["fixed_offset"]


def test_months_refuses_a_year_before_the_birth() -> None:
    """horoscope() refuses a date before the birth; months() no longer lists negative ages."""
    with pytest.raises(InputError, match="before the birth") as error:
        ziwei.months(CHART, 1900)
    assert error.value.field == "year"
    assert field_of(lambda: ziwei.months(CHART, 1999)) == "year"  # lunar 2000 began 2000-2-5
    first = ziwei.months(CHART, 2000)
    assert {p.ages for p in first} == {(1, 1)}


def test_fold_without_a_zone_is_refused() -> None:
    """fold picks one of two identical clock readings of a zone; without tz it meant
    nothing and was dropped."""
    assert field_of(lambda: ziwei.chart("1990-05-15", "10:30", "male", fold=1)) == "fold"
    assert field_of(lambda: ziwei.Birth.solar("1990-05-15", "10:30", "male", fold=1)) == "fold"
    assert ziwei.chart("1990-05-15", "10:30", "male", fold=0).birth.time_index == 5


@pytest.mark.parametrize(
    "name", ["localtime", "Factory", "posixrules", "posix/Asia/Shanghai", "right/Asia/Shanghai"]
)
def test_a_zone_file_that_names_no_place_is_refused(name: str) -> None:
    assert field_of(lambda: ziwei.chart("1990-05-15", "10:30", "male", tz=name)) == "tz"
    assert field_of(lambda: bazi.chart("1990-05-15", "10:30", "male", tz=name)) == "tz"


@pytest.mark.parametrize("text", ["1_16", "116_0", "_116", "1_1_6.5"])
def test_a_longitude_with_underscores_is_refused(text: str) -> None:
    """float() reads "1_16" as 116 (Python's digit grouping); a longitude is refused."""
    call = lambda: ziwei.chart(  # noqa: E731
        "1990-05-15", "10:30", "male", tz="Asia/Shanghai", longitude=text
    )
    assert field_of(call) == "longitude"


def test_years_says_the_positions_it_takes() -> None:
    """decades() lists twelve decades (one per palace), and years() takes all twelve."""
    early = ziwei.chart("1950-3-3", 5, "male")  # its last decade ends before 2100
    assert len(ziwei.decades(early)) == 12
    assert ziwei.years(early, 11)
    with pytest.raises(InputError, match=r"0\.\.11") as error:
        ziwei.years(CHART, 2.5)  # type: ignore[arg-type]
    assert "0..9" not in error.value.message
    with pytest.raises(InputError, match=r"0\.\.11"):
        ziwei.years(CHART, 12)
