"""Code a user writes against mingshu, exactly as the docs show it.  Not a test module:
tests/api/test_dialect.py runs mypy --strict over it, so the documented spellings must
type-check (string values of settings, iztro's words, both engines' entry points)."""

from __future__ import annotations

import datetime as dt

from mingshu import bazi, ziwei

settings = ziwei.ZiweiSettings(late_rat_hour="same_day", leap_month="whole")
iztro_words = ziwei.ZiweiSettings(
    late_rat_hour="forward", year_boundary="exact", algorithm="default"
)
fix_leap = ziwei.ZiweiSettings(leap_month=False, mutagens={"庚": ["太阳", "武曲", "天府", "天同"]})
chart: ziwei.NatalChart = ziwei.chart("1987-05-16", "10:30", "female", settings=settings)
same: ziwei.NatalChart = ziwei.by_solar("1987-05-16", "10:30", "female", settings)
lunar: ziwei.NatalChart = ziwei.by_lunar("2023-2-20", "10:00", "male", leap=True)
zoned = ziwei.chart("1990-05-15", "11:30", "male", tz="Asia/Shanghai", fold=0)
life: ziwei.Palace = chart.palace("命宫")
zi: ziwei.Palace = chart.palace_at("子")
first: ziwei.Palace = chart.palace_by_index(0)
wealth: ziwei.Palace = chart.palace_named(ziwei.PalaceName.WEALTH)
where: str = str(chart.star("紫微").branch)
h: ziwei.Horoscope = chart.horoscope(dt.datetime(2026, 11, 29, 10, 0))
notices: tuple[ziwei.Notice, ...] = zoned.notices

bs = bazi.BaziSettings(late_rat_hour="split", start_age="minutes", stage_earth="water_earth")
b: bazi.Chart = bazi.chart("1990-05-15", "10:30", "male", tz="Asia/Shanghai", settings=bs)
at: bazi.Chart = bazi.chart_at(dt.datetime(1990, 5, 15, 10, 30, tzinfo=dt.UTC), "male")
late: bazi.LateRatHour = bs.late_rat_hour
