"""Any Python value, in any argument of the public API, gives a result or an InputError
naming a field: never another exception (Hypothesis)."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from mingshu import bazi, ziwei
from mingshu.errors import InputError

anything = st.deferred(
    lambda: st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.floats(allow_nan=True),
        st.text(max_size=30),
        st.binary(max_size=10),
        st.dates(),
        st.datetimes(timezones=st.none() | st.timezones()),
        st.times(),
        st.timedeltas(),
        st.lists(anything, max_size=4),
        st.tuples(anything, anything),
        st.dictionaries(st.text(max_size=5), anything, max_size=3),
        st.sampled_from(["1990-05-15", "10:30", "male", "Asia/Shanghai", "子", "命宫", "紫微"]),
    )
)

CHART = ziwei.chart("1987-05-16", "10:30", "female")
GOOD = {
    "birth_date": "1990-05-15",
    "birth_time": "10:30",
    "gender": "male",
    "tz": "Asia/Shanghai",
    "longitude": None,
    "fold": 0,
    "lunar": False,
    "leap": False,
}


def _answers_or_names_a_field(call: Callable[[], object]) -> None:
    try:
        call()
    except InputError as error:
        assert error.field and isinstance(error.field, str)
        assert len(error.message) < 1000


@settings(max_examples=300, deadline=None)
@given(name=st.sampled_from(sorted(GOOD)), value=anything)
def test_chart_arguments(name: str, value: object) -> None:
    kwargs = {**GOOD, name: value}
    _answers_or_names_a_field(lambda: ziwei.chart(**kwargs))  # type: ignore[arg-type]
    _answers_or_names_a_field(lambda: bazi.chart(**kwargs))  # type: ignore[arg-type]


@settings(max_examples=300, deadline=None)
@given(
    name=st.sampled_from([f.name for f in dataclasses.fields(ziwei.ZiweiSettings)]),
    value=anything,
)
def test_ziwei_settings(name: str, value: object) -> None:
    _answers_or_names_a_field(lambda: ziwei.ZiweiSettings(**{name: value}))


@settings(max_examples=300, deadline=None)
@given(
    name=st.sampled_from([f.name for f in dataclasses.fields(bazi.BaziSettings) if f.init]),
    value=anything,
)
def test_bazi_settings(name: str, value: object) -> None:
    _answers_or_names_a_field(lambda: bazi.BaziSettings(**{name: value}))


@settings(max_examples=300, deadline=None)
@given(value=anything, other=anything)
def test_chart_lookups_and_lists(value: object, other: object) -> None:
    for call in (
        lambda: CHART.palace(value),  # type: ignore[arg-type]
        lambda: CHART.palace_at(value),  # type: ignore[arg-type]
        lambda: CHART.palace_named(value),  # type: ignore[arg-type]
        lambda: CHART.palace_by_index(value),  # type: ignore[arg-type]
        lambda: CHART.star(value),  # type: ignore[arg-type]
        lambda: CHART.horoscope(value),
        lambda: CHART.horoscope("2026-11-29", value),
        lambda: ziwei.years(CHART, value),  # type: ignore[arg-type]
        lambda: ziwei.months(CHART, value),  # type: ignore[arg-type]
        lambda: ziwei.months(CHART, 2023, other),  # type: ignore[arg-type]
        lambda: ziwei.ZiweiSettings.from_iztro(value),  # type: ignore[arg-type]
        lambda: ziwei.ZiweiSettings.from_iztro({"brightness": value, "mutagens": other}),
        lambda: bazi.chart_at(value, "male"),  # type: ignore[arg-type]
        lambda: bazi.star(value),  # type: ignore[arg-type]
        lambda: ziwei.Birth(value, other, "male"),  # type: ignore[arg-type]
    ):
        _answers_or_names_a_field(call)


@settings(max_examples=100, deadline=None)
@given(day=st.dates(dt.date(1900, 2, 1), dt.date(2100, 12, 1)), hour=st.integers(0, 23))
def test_a_zone_never_silently_changes_a_non_dst_birth(day: dt.date, hour: int) -> None:
    """Asia/Kolkata has kept one offset since 1945: there the zone changes no hour."""
    if day.year < 1946:
        return
    clock = f"{hour:02d}:15"
    plain = ziwei.chart(day, clock, "female")
    zoned = ziwei.chart(day, clock, "female", tz="Asia/Kolkata")
    assert zoned.birth.time_index == plain.birth.time_index
    assert zoned.palaces == plain.palaces
