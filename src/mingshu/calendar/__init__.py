"""Calendar layer: solar ↔ lunar dates, solar-term moments, sexagenary pillars, western sign.

Everything is served from compact tables shipped in ``calendar/data/`` and built by
``tools/build_calendar_tables.py`` from lunar-python 1.4.8 (the 寿星 algorithms that
lunar-typescript 1.8.6, and so iztro 2.6.0, also use); lunar-python itself is not imported at
run time.  Supported range: solar :data:`FIRST_DATE` .. :data:`LAST_DATE` (1583-01-01 ..
2650-12-31, lunar 1582-12-8 .. 2650-11-17); anything outside raises
:class:`mingshu.errors.OutOfRangeError`.  Moments are naive datetimes in Beijing civil time
(UTC+8)::

    >>> from datetime import date, datetime
    >>> from mingshu import calendar
    >>> calendar.solar_to_lunar(date(2000, 8, 16)).chinese()
    '二〇〇〇年七月十七'
    >>> str(calendar.day_pillar(date(2000, 1, 1)))
    '戊午'
    >>> calendar.term_moment(2024, calendar.SolarTerm.LI_CHUN)
    datetime.datetime(2024, 2, 4, 16, 27, 7)
"""

from mingshu.calendar._tables import seconds_of
from mingshu.calendar.lunar import (
    LunarDate,
    LunarMonth,
    leap_month,
    lunar_from_ordinal,
    lunar_to_solar,
    lunar_year_months,
    month_days,
    ordinal_from_lunar,
    solar_to_lunar,
)
from mingshu.calendar.pillars import (
    day_pillar,
    day_pillar_from_ordinal,
    hour_branch,
    hour_pillar,
    month_pillar_exact,
    month_stem,
    year_pillar_by_lichun_day,
    year_pillar_exact,
    year_pillar_of_lunar_year,
)
from mingshu.calendar.sign import sign
from mingshu.calendar.solar import BEIJING, FIRST_DATE, LAST_DATE, check_solar_date
from mingshu.calendar.terms import SolarTerm, next_jie, previous_jie, term_moment

__all__ = [
    "BEIJING",
    "FIRST_DATE",
    "LAST_DATE",
    "LunarDate",
    "LunarMonth",
    "SolarTerm",
    "check_solar_date",
    "day_pillar",
    "day_pillar_from_ordinal",
    "hour_branch",
    "hour_pillar",
    "leap_month",
    "lunar_from_ordinal",
    "lunar_to_solar",
    "lunar_year_months",
    "month_days",
    "month_pillar_exact",
    "month_stem",
    "next_jie",
    "ordinal_from_lunar",
    "previous_jie",
    "seconds_of",
    "sign",
    "solar_to_lunar",
    "term_moment",
    "year_pillar_by_lichun_day",
    "year_pillar_exact",
    "year_pillar_of_lunar_year",
]
