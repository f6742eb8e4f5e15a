"""The sweep's fast backend: natal Zi Wei rows for many births at once, with NumPy.

Nothing here is a second copy of the star rules.  The placement function is the engine's own
(:func:`mingshu.ziwei.placement.compile_natal` compiles ``data/stars.toml`` into one
straight-line function): its code object is reused with the rule tables turned into NumPy
arrays, so ``T_key[by]`` and ``(a + b) % 12`` run over whole columns instead of one chart.
The few placements the engine computes in code (紫微 by class and day, 天府, 天使/天伤, the
five-element class) are tabulated by calling the engine's functions on every input they
can take; brightness and 四化 come from the engine's per-settings star tables; the calendar
(lunar date, year and month pillars) is the engine's, called once per day.  What is left is
the arithmetic of natal.py's steps 1–2 (which month, hour and day a birth counts; the Life
and Body palaces), stated again over arrays.  ``tests/space/test_numpy_backend.py`` proves
the tables equal to the engine-backed sweep's on every row of whole years and on every
heaven-chart birth of the iztro fixtures.

The 地盘 / 人盘 charts (``chart_type`` earth and human) move stars after placement; this
backend does not draw them (:func:`supports` says so) and the sweep uses the engine there.
"""

from __future__ import annotations

import datetime as dt
import types
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from mingshu.ziwei import ZiweiSettings

__all__ = ["supports", "table", "year_table"]

_Ints = npt.NDArray[np.int64]


def supports(settings: ZiweiSettings) -> bool:
    """Whether this backend draws charts of ``settings``: heaven charts of the iztro school
    (the 全书 school's leap months, 长生 and extra stars are the engine's alone)."""
    from mingshu.ziwei import ChartType
    from mingshu.ziwei.settings import School

    return settings.chart_type is ChartType.HEAVEN and settings.school is School.IZTRO


@dataclass(frozen=True, slots=True)
class _Compiled:
    """Everything per settings value, built once from the engine's rules and tables."""

    stars: tuple[str, ...]
    placer: Any
    """The engine's compiled placement function, over NumPy arrays."""
    brightness: _Ints
    """[star, branch] → grade 0..6, or -1 for none."""
    mutagens: _Ints
    """[year stem, star] → 0..3 (禄 权 科 忌), or -1 for none."""
    klass: _Ints
    """[stem, branch] → five-element class number (nayin_class)."""
    zi_wei: _Ints
    """[class number, day 1..30] → 紫微's branch (zi_wei_branch)."""
    tian_fu: _Ints
    """[紫微's branch] → 天府's branch."""
    tian_shi_shang: _Ints
    """[life, year branch, gender 0/1, 0/1 for 天使/天伤] → branch."""
    yin_stem: _Ints
    """[year stem] → the 寅 palace's stem (五虎遁, calendar.month_stem)."""
    hour_pillar: _Ints
    """[day stem, branch] → the hour pillar's index in the sixty (calendar.hour_pillar)."""


def _numpy_function(function: Any) -> Any:
    """The same compiled code with every tuple constant (a rule table) as a NumPy array."""
    namespace = {
        k: np.asarray(v, dtype=np.int64) if isinstance(v, tuple) else v
        for k, v in function.__globals__.items()
    }
    return types.FunctionType(function.__code__, namespace, function.__name__)


@cache
def _compiled(settings: ZiweiSettings) -> _Compiled:
    from mingshu import calendar
    from mingshu.cycles import Branch, Stem
    from mingshu.gender import Gender
    from mingshu.ziwei import natal
    from mingshu.ziwei.placement import compile_natal
    from mingshu.ziwei.settings import Algorithm
    from mingshu.ziwei.tables import nayin_class

    stars, placer = compile_natal(settings.algorithm.value)
    tables = natal._star_tables(natal._catalogue(settings), settings.mutagens, settings.brightness)
    slots, by_stem = tables.slots, tables.by_stem
    brightness = np.full((len(stars), 12), -1, dtype=np.int64)
    for i in range(len(stars)):
        for b in range(12):
            grade = slots[i][b][0][1].brightness
            if grade is not None:
                brightness[i, b] = int(grade)
    mutagens = np.asarray(by_stem, dtype=np.int64) - 1
    klass = np.array([[nayin_class(s, b) for b in range(12)] for s in range(10)])
    zi_wei = np.full((7, 31), -1, dtype=np.int64)
    for number in range(2, 7):
        for day in range(1, 31):
            zi_wei[number, day] = natal.zi_wei_branch(number, day)
    tian_fu = np.array([natal._tian_fu(b) for b in range(12)], dtype=np.int64)
    zhongzhou = settings.algorithm is Algorithm.ZHONGZHOU
    polarities = (Gender.MALE.polarity, Gender.FEMALE.polarity)  # column value 0 and 1
    tian_shi_shang = np.array(
        [
            [
                [natal._tian_shi_shang(life, Branch(y), p, zhongzhou) for p in polarities]
                for y in range(12)
            ]
            for life in range(12)
        ],
        dtype=np.int64,
    )
    yin_stem = np.array([calendar.month_stem(Stem(s), Branch.YIN) for s in range(10)])
    hour_pillar = np.array(
        [[calendar.hour_pillar(Stem(s), Branch(b)).index for b in range(12)] for s in range(10)]
    )
    return _Compiled(
        tuple(s.key for s in stars),
        _numpy_function(placer),
        brightness,
        mutagens,
        klass.astype(np.int64),
        zi_wei,
        tian_fu,
        tian_shi_shang,
        yin_stem.astype(np.int64),
        hour_pillar.astype(np.int64),
    )


@dataclass(slots=True)
class _Days:
    """What the engine's calendar says of each distinct birth day (one row per day)."""

    lunar_year: _Ints
    lunar_month: _Ints
    lunar_day: _Ints
    lunar_leap: npt.NDArray[np.bool_]
    month_length: _Ints
    year_stem: _Ints
    year_branch: _Ints
    year_pillar: _Ints
    god_stem: _Ints
    god_branch: _Ints
    xun_kong: _Ints
    jie_kong: _Ints
    day_pillar: _Ints  # [day, 0 for the day itself, 1 for the late Rat hour (next day)]
    month_pillar: _Ints  # [day, time index 0..12]


def _days(days: Sequence[dt.date], settings: ZiweiSettings) -> _Days:
    from mingshu import calendar
    from mingshu.cycles import Polarity
    from mingshu.ziwei import natal

    n = len(days)
    out = {
        name: np.zeros(n, dtype=np.int64)
        for name in (
            "lunar_year",
            "lunar_month",
            "lunar_day",
            "month_length",
            "year_stem",
            "year_branch",
            "year_pillar",
            "god_stem",
            "god_branch",
            "xun_kong",
            "jie_kong",
        )
    }
    leap = np.zeros(n, dtype=np.bool_)
    day_pillar = np.zeros((n, 2), dtype=np.int64)
    month_pillar = np.zeros((n, 13), dtype=np.int64)
    for i, day in enumerate(days):
        lunar = calendar.solar_to_lunar(day)
        year = natal._year_pillar(settings.year_boundary, lunar.year, day)
        god = natal._year_pillar(settings.horoscope_boundary, lunar.year, day)
        out["lunar_year"][i] = lunar.year
        out["lunar_month"][i] = lunar.month
        out["lunar_day"][i] = lunar.day
        leap[i] = lunar.is_leap
        out["month_length"][i] = calendar.month_days(lunar.year, lunar.month, lunar.is_leap)
        out["year_stem"][i], out["year_branch"][i] = year.stem, year.branch
        out["year_pillar"][i] = year.index
        out["god_stem"][i], out["god_branch"][i] = god.stem, god.branch
        # As natal.from_birth: 旬空 of the year's decade with the year branch's polarity;
        # 截空 from the 截路 / 空亡 tables.
        out["xun_kong"][i] = god.void_branches[god.branch % 2]
        jie = natal._JIE_LU if god.branch.polarity is Polarity.YANG else natal._KONG_WANG
        out["jie_kong"][i] = jie[god.stem]
        # The birth-data pillars by the engine's own function, at the first and last time
        # index; a month pillar that changes during the day (a 节 under the spring-begins
        # boundary) is asked for at every time index.
        first = natal._four_pillars(day, 0, lunar, year, settings)
        last = natal._four_pillars(day, 12, lunar, year, settings)
        day_pillar[i] = first.day.index, last.day.index
        if first.month == last.month:
            month_pillar[i] = first.month.index
        else:
            for index in range(13):
                month_pillar[i, index] = natal._four_pillars(
                    day, index, lunar, year, settings
                ).month.index
    return _Days(**out, lunar_leap=leap, day_pillar=day_pillar, month_pillar=month_pillar)


def table(
    days: Sequence[dt.date],
    day_of_row: _Ints,
    time_index: _Ints,
    gender: _Ints,
    settings: ZiweiSettings,
) -> Any:
    """The sweep's rows (a pyarrow table with :func:`ziwei_sweep._schema`) of the births
    ``days[day_of_row[r]]``, ``time_index[r]``, ``gender[r]`` (0 male, 1 female)."""
    import pyarrow as pa

    from mingshu.cycles import Branch
    from mingshu.space.ziwei_sweep import _schema
    from mingshu.ziwei.settings import LateRatHour, LeapMonth

    if not supports(settings):
        raise ValueError("the NumPy backend draws heaven charts only")
    c = _compiled(settings)
    d = _days(days, settings)
    k = np.asarray(day_of_row, dtype=np.int64)
    ti = np.asarray(time_index, dtype=np.int64)
    g = np.asarray(gender, dtype=np.int64)

    # Step 1 (natal._days): the time index charted, the month, hour and days counted.
    same_day = settings.late_rat_hour is LateRatHour.SAME_DAY
    ti_chart = np.where(ti == 12, 0, ti) if same_day else ti  # charted as the early Rat
    late = (ti_chart == 12).astype(np.int64)
    lunar_day, leap = d.lunar_day[k], d.lunar_leap[k]
    month = d.lunar_month[k] - 1
    if settings.leap_month is LeapMonth.SPLIT:
        month = month + (leap & (lunar_day > 15) & (late == 0))
    month %= 12
    hour = ti_chart % 12
    day = lunar_day - 1 + late
    zi_wei_day = lunar_day + late
    zi_wei_day = np.where(
        zi_wei_day > d.month_length[k], zi_wei_day - d.month_length[k], zi_wei_day
    )

    # Step 2-4: Life and Body palaces, class, 紫微, then the compiled rules.
    year_stem, year_branch = d.year_stem[k], d.year_branch[k]
    god_stem, god_branch = d.god_stem[k], d.god_branch[k]
    life = (2 + month - hour) % 12
    body = (2 + month + hour) % 12
    life_stem = (c.yin_stem[year_stem] + (life - 2) % 12) % 10
    klass = c.klass[life_stem, life]
    zi_wei = c.zi_wei[klass, zi_wei_day]
    tian_fu = c.tian_fu[zi_wei]
    tian_shi = c.tian_shi_shang[life, god_branch, g, 0]
    tian_shang = c.tian_shi_shang[life, god_branch, g, 1]
    positions = c.placer(
        year_stem,
        year_branch,
        god_stem,
        god_branch,
        month,
        hour,
        day,
        life,
        body,
        zi_wei,
        tian_fu,
        d.xun_kong[k],
        d.jie_kong[k],
        tian_shi,
        tian_shang,
        # xun_kong_first/second, dou_jun, jin_suo: read by the 全书 school's stars only,
        # which this backend does not draw (supports()).
        0,
        0,
        0,
        0,
    )
    rows = len(k)
    int8 = pa.int8()

    def small(values: Any) -> Any:
        return pa.array(np.broadcast_to(values, (rows,)).astype(np.int8), type=int8)

    day_numbers = np.array([(x - dt.date(1970, 1, 1)).days for x in days], dtype=np.int32)
    day_pillar = d.day_pillar[k, late]  # the next day's at the late Rat hour
    hour_pillar = c.hour_pillar[day_pillar % 10, hour]  # 甲子 = 0: the stem is index mod 10
    data: dict[str, Any] = {
        "solar_date": pa.array(day_numbers[k], type=pa.date32()),
        "time_index": small(ti),
        "gender": small(g),
        "lunar_year": pa.array(d.lunar_year[k].astype(np.int16), type=pa.int16()),
        "lunar_month": small(d.lunar_month[k]),
        "lunar_day": small(lunar_day),
        "lunar_leap": pa.array(leap, type=pa.bool_()),
        "clock_branch": small(ti % 12),
        "counted_month": small(month + 1),
        "counted_day": small(day + 1),
        "year_pillar": small(d.year_pillar[k]),
        "month_pillar": small(d.month_pillar[k, ti_chart]),
        "day_pillar": small(day_pillar),
        "hour_pillar": small(hour_pillar),
        "life_branch": small(life),
        "body_branch": small(body),
        "five_elements_class": small(klass),
    }
    for b in Branch:  # the palace name at each branch, counted from the Life palace
        data[f"palace_{b.key}"] = small((int(b) - life) % 12)
    for i, key in enumerate(c.stars):
        branch = np.broadcast_to(positions[i], (rows,))
        data[key] = small(branch)
        grade = c.brightness[i, branch]
        data[f"{key}__brightness"] = pa.array(grade.astype(np.int8), mask=grade < 0, type=int8)
        mutagen = c.mutagens[year_stem, i]
        data[f"{key}__mutagen"] = pa.array(mutagen.astype(np.int8), mask=mutagen < 0, type=int8)
    schema = _schema(settings)
    return pa.Table.from_arrays([data[name] for name in schema.names], schema=schema)


def year_table(year: int, settings: ZiweiSettings) -> Any:
    """Every birth of ``year`` (days × 13 time indices × 2 genders, in the engine-backed
    sweep's row order) as a pyarrow table."""
    from mingshu.space.ziwei_sweep import GENDERS, TIME_INDICES, _days

    days = list(_days(year))
    per_day = len(TIME_INDICES) * len(GENDERS)
    day_of_row = np.repeat(np.arange(len(days), dtype=np.int64), per_day)
    time_index = np.tile(np.repeat(np.arange(len(TIME_INDICES)), len(GENDERS)), len(days))
    gender = np.tile(np.arange(len(GENDERS)), len(days) * len(TIME_INDICES))
    return table(days, day_of_row, time_index, gender, settings)
