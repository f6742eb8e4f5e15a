"""Whatever a user types, the engine answers with a chart or an InputError naming a field:
never another exception, never a silently different date."""

from __future__ import annotations

import datetime as dt

from hypothesis import given, settings
from hypothesis import strategies as st

from mingshu.errors import InputError
from mingshu.ziwei import by_lunar, by_solar

FIELDS = {"date", "time", "gender", "leap", "at"}

dates = st.one_of(
    st.text(max_size=12),
    st.builds(
        lambda y, m, d, sep: f"{y}{sep}{m}{sep}{d}",
        st.integers(-5, 2200),
        st.integers(-1, 14),
        st.integers(-1, 33),
        st.sampled_from("-/."),
    ),
    st.dates(dt.date(1890, 1, 1), dt.date(2110, 12, 31)),
)
times = st.one_of(
    st.integers(-3, 15),
    st.text(max_size=6),
    st.builds(lambda h, m: f"{h}:{m:02d}", st.integers(0, 30), st.integers(0, 70)),
    st.times(),
)
genders = st.one_of(
    st.sampled_from(["male", "female", "男", "女", "M", "x", ""]), st.text(max_size=3)
)


@settings(max_examples=400, deadline=None)
@given(date=dates, time=times, gender=genders)
def test_solar_input_charts_or_names_the_field(date: object, time: object, gender: str) -> None:
    try:
        chart = by_solar(date, time, gender)
    except InputError as error:
        assert error.field in FIELDS
        return
    if isinstance(date, dt.date):
        assert chart.solar_date == date  # never rolled over to another day


@settings(max_examples=300, deadline=None)
@given(date=dates, time=times, leap=st.booleans())
def test_lunar_input_charts_or_names_the_field(date: object, time: object, leap: bool) -> None:
    try:
        chart = by_lunar(date, time, "female", leap=leap)
    except InputError as error:
        assert error.field in FIELDS
        return
    assert chart.lunar_date.is_leap == leap


@settings(max_examples=200, deadline=None)
@given(
    at=st.one_of(dates, st.datetimes(dt.datetime(1890, 1, 1), dt.datetime(2110, 1, 1))),
    time=st.one_of(st.none(), times),
)
def test_horoscope_moment_or_names_the_field(at: object, time: object) -> None:
    chart = by_solar("1950-06-15", "08:00", "male")
    try:
        chart.horoscope(at, time)
    except InputError as error:
        assert error.field in FIELDS
