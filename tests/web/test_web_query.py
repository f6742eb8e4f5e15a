"""The raw query reader: the same chart query, or the same errors, as the full parser."""

from __future__ import annotations

from urllib.parse import parse_qs, urlencode

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mingshu.web.query import PAGE_FIELDS, ChartQuery, FieldErrors, parse, parse_query


def _full(raw: str, known: frozenset[str]) -> ChartQuery | dict[str, str]:
    """The reference: every query string taken apart by parse_qs and read by parse."""
    try:
        return parse(parse_qs(raw, keep_blank_values=True), known=known)
    except FieldErrors as e:
        return e.errors


def _read(raw: str, known: frozenset[str] = PAGE_FIELDS) -> ChartQuery | dict[str, str]:
    try:
        return parse_query(raw, known=known)
    except FieldErrors as e:
        return e.errors


# Near misses of the plain query: each a piece the plain pattern must not take at its word.
DATES = ["1987-05-16", "1987-5-16", "1987/05/16", "0000-00-00", "2100-12-31", "1987-05-16 ",
         "١٩٨٧-05-16", "87-05-16", "19870-05-16", ""]  # fmt: skip
TIMES = ["10:30", "10%3A30", "10%3a30", "00:00", "23:59", "24:00", "23:60", "9:30", "10:30:15",
         "10%3A30%3A15", "", "10-30"]  # fmt: skip
GENDERS = ["female", "male", "Male", "f", "男", "%E5%A5%B3", "", "femalex"]
TAILS = ["", "&names=english", "&school=quanshu", "&gender=male", "&x=1", "&"]


@settings(max_examples=400, deadline=None)
@given(
    date=st.sampled_from(DATES),
    time=st.sampled_from(TIMES),
    gender=st.sampled_from(GENDERS),
    tail=st.sampled_from(TAILS),
    order=st.permutations(range(3)),
)
def test_the_raw_reader_is_parse_of_parse_qs(
    date: str, time: str, gender: str, tail: str, order: list[int]
) -> None:
    pieces = [f"date={date}", f"time={time}", f"gender={gender}"]
    raw = "&".join(pieces[i] for i in order) + tail
    assert _read(raw) == _full(raw, PAGE_FIELDS)


@pytest.mark.parametrize(
    "known", [PAGE_FIELDS, frozenset({"date", "gender"}), frozenset({"date", "time", "gender"})]
)
def test_the_plain_query_keeps_the_known_fields_check(known: frozenset[str]) -> None:
    raw = urlencode({"date": "1987-05-16", "time": "10:30", "gender": "female"})
    assert _read(raw, known) == _full(raw, known)


def test_the_plain_query_is_read_as_its_three_values() -> None:
    raw = urlencode({"date": "1987-05-16", "time": "10:30", "gender": "female"})
    assert parse_query(raw) == ChartQuery(date="1987-05-16", gender="female", time="10:30")
    assert parse_query(raw).query_string() == raw


# Days that do not exist, by Python's own calendar (the test asserts it), and days that do.
NO_SUCH_DAYS = ["1987-02-29", "1988-02-30", "1987-04-31", "1987-13-01", "1987-00-10", "1900-02-29"]
REAL_DAYS = ["1988-02-29", "2000-02-29", "1987-04-30", "1987-12-31"]


@pytest.mark.parametrize("date", NO_SUCH_DAYS)
def test_a_day_that_does_not_exist_is_said_with_the_other_fields(date: str) -> None:
    """1987-02-30 with a missing time and a bad gender: three fields marked at once (the
    date was marked only once the other two were right)."""
    import datetime as dt

    with pytest.raises(ValueError):
        dt.date.fromisoformat(date)
    errors = _read(f"date={date}&gender=x")
    assert isinstance(errors, dict) and set(errors) == {"date", "time", "gender"}
    assert errors["date"].startswith(f"{date} does not exist")
    # Alone, and through the plain reader of a canonical query: the same message.
    assert _read(f"date={date}&time=10:30&gender=female") == {"date": errors["date"]}


@pytest.mark.parametrize("date", REAL_DAYS)
def test_a_day_that_exists_is_not_marked(date: str) -> None:
    import datetime as dt

    dt.date.fromisoformat(date)  # exists
    errors = _read(f"date={date}&gender=x")
    assert isinstance(errors, dict) and set(errors) == {"time", "gender"}
    assert isinstance(_read(f"date={date}&time=10:30&gender=female"), ChartQuery)


def test_a_lunar_day_the_month_lacks_is_said_with_the_other_fields() -> None:
    """Day 30 of a lunar month of 29 days (lunar-python's month lengths), and a leap flag on a
    month that is not the year's leap month."""
    from lunar_python import LunarMonth, LunarYear

    short = next(m for m in range(1, 13) if LunarMonth.fromYm(1987, m).getDayCount() == 29)
    errors = _read(f"date=1987-{short:02d}-30&calendar=lunar&gender=x")
    assert isinstance(errors, dict) and set(errors) == {"date", "time", "gender"}
    assert "has 29 days" in errors["date"]
    leap = LunarYear.fromYear(1987).getLeapMonth()
    other = 1 if leap != 1 else 2
    errors = _read(f"date=1987-{other:02d}-10&calendar=lunar&leap=1&gender=x")
    assert isinstance(errors, dict) and set(errors) == {"leap", "time", "gender"}
    assert f"its leap month is {leap}" in errors["leap"]
