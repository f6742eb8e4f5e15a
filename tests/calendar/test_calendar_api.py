"""Public surface of mingshu.calendar: exports, value types, display strings, no runtime deps."""

from __future__ import annotations

import subprocess
import sys
from datetime import date

from lunar_python import Lunar, Solar

from mingshu import calendar
from mingshu.calendar import LunarDate, LunarMonth


def test_exports() -> None:
    assert sorted(calendar.__all__) == sorted(set(calendar.__all__))
    for name in calendar.__all__:
        assert hasattr(calendar, name), name
    assert calendar.FIRST_DATE.isoformat() == "1583-01-01"
    assert calendar.LAST_DATE.isoformat() == "2650-12-31"


def test_runtime_does_not_import_lunar_python_and_loads_lazily() -> None:
    code = (
        "import sys, datetime\n"
        "from mingshu import calendar as c\n"
        "from mingshu.calendar import _tables as t\n"
        "loaders = (t.lunar_table, t.term_table, t.name_table)\n"
        "assert all(f.cache_info().currsize == 0 for f in loaders)\n"
        "d = datetime.date(2000, 8, 16)\n"
        "c.solar_to_lunar(d).chinese(); c.day_pillar(d); c.sign(d)\n"
        "c.month_pillar_exact(datetime.datetime(2000, 8, 16, 12)); c.lunar_year_months(2000)\n"
        "assert 'lunar_python' not in sys.modules and 'tyme4py' not in sys.modules\n"
        "assert all(f.cache_info().currsize == 1 for f in loaders)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_chinese_strings() -> None:
    examples = {
        LunarDate(2000, 7, 17): "二〇〇〇年七月十七",
        LunarDate(2023, 2, 20, True): "二〇二三年闰二月二十",
        LunarDate(2097, 12, 12): "二〇九七年腊月十二",
        LunarDate(2077, 9, 30): "二〇七七年九月三十",
        LunarDate(1900, 1, 1): "一九〇〇年正月初一",
        LunarDate(2033, 11, 21, True): "二〇三三年闰冬月廿一",
        LunarDate(1990, 10, 10): "一九九〇年十月初十",
    }
    for lunar, text in examples.items():
        assert lunar.chinese() == text
        month = -lunar.month if lunar.is_leap else lunar.month
        assert Lunar.fromYmd(lunar.year, month, lunar.day).toString() == text
    assert calendar.solar_to_lunar(date(2000, 8, 16)).chinese() == "二〇〇〇年七月十七"
    assert str(LunarDate(2023, 2, 20, True)) == "2023-闰2-20"


def test_value_types() -> None:
    lunar = calendar.solar_to_lunar(date(2023, 4, 10))
    assert isinstance(lunar, LunarDate) and isinstance(lunar, tuple)
    assert lunar == LunarDate(year=2023, month=2, day=20, is_leap=True)
    assert (lunar.year, lunar.month, lunar.day, lunar.is_leap) == (2023, 2, 20, True)
    assert calendar.lunar_from_ordinal(date(2023, 4, 10).toordinal()) == lunar
    assert calendar.ordinal_from_lunar(*lunar) == date(2023, 4, 10).toordinal()
    months = calendar.lunar_year_months(2023)
    assert len(months) == 13 and all(isinstance(m, LunarMonth) for m in months)
    assert [(m.month, m.is_leap) for m in months[:4]] == [
        (1, False),
        (2, False),
        (2, True),
        (3, False),
    ]
    assert months[2] == LunarMonth(2023, 2, True, 29, date(2023, 3, 22))
    assert calendar.leap_month(2023) == 2 and calendar.leap_month(2024) == 0
    assert len(calendar.lunar_year_months(2024)) == 12


def test_sign_every_day_of_a_leap_year() -> None:
    for n in range(366):
        d = date.fromordinal(date(2024, 1, 1).toordinal() + n)
        expected = Solar.fromYmd(d.year, d.month, d.day).getXingZuo()
        assert calendar.sign(d).hans == expected + "座", d
    leo = calendar.sign(date(2000, 8, 16))
    assert (leo.hans, leo.hant, leo.english) == ("狮子座", "獅子座", "Leo")
    assert calendar.sign(date(2000, 12, 22)).english == "Capricorn"
    assert calendar.sign(date(2001, 1, 19)).english == "Capricorn"
    assert calendar.sign(date(2001, 1, 20)).english == "Aquarius"


def test_docstring_examples_run() -> None:
    import doctest

    result = doctest.testmod(calendar)
    assert result.attempted >= 3 and result.failed == 0
