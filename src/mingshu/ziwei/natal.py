"""Draw a natal chart, rule by rule as iztro 2.6.0 does (docs/iztro-rules.md restates them).

The steps, each with the setting that changes it:

1. Calendar: lunar date of the birth day; the birth year twice, by the year boundary
   (palace stems, 四化, year-stem stars) and by the horoscope boundary (yearly gods and
   year-based adjective stars); the late Rat hour counts as the next day unless the
   day-change setting says otherwise; a leap month is split at day 16 unless the
   leap-month setting says otherwise.
2. Life palace = month − hour, Body palace = month + hour, counted from 寅.
3. Palace stems by 五虎遁 from the year stem; the Life palace's nayin gives the class.
4. 紫微 from the class and the day; every other star by the compiled rules of stars.toml.
5. Brightness and natal 四化; the four twelve-god cycles; decades; small-limit ages.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from functools import cache, lru_cache, partial
from typing import NamedTuple

from mingshu import calendar
from mingshu.arguments import check_int
from mingshu.birth import Birth
from mingshu.cycles import Branch, FourPillars, Pillar, Polarity, Stem
from mingshu.errors import InputError
from mingshu.named import clip
from mingshu.ziwei import quanshu
from mingshu.ziwei.chart import Decadal, NatalChart, Palace, PlacedStar
from mingshu.ziwei.placement import NATAL_RULES, NATAL_VARIABLES, compile_natal, compile_rules
from mingshu.ziwei.settings import (
    Algorithm,
    BrightnessOverrides,
    ChartType,
    LateRatHour,
    LeapMonth,
    MutagenOverrides,
    School,
    YearBoundary,
    ZiweiSettings,
)
from mingshu.ziwei.stars import (
    Brightness,
    Mutagen,
    Star,
    StarGroup,
    default_brightness,
    mutagen_table,
    star,
)
from mingshu.ziwei.tables import (
    CYCLES,
    HOURS,
    FiveElementsClass,
    God,
    PalaceName,
    body_master,
    life_master,
    nayin_class,
    small_limit_start,
)

__all__ = [
    "by_lunar",
    "by_solar",
    "chart",
    "check_settings",
    "from_birth",
    "natal_brightness",
    "natal_mutagens",
    "zi_wei_branch",
]

DEFAULT = ZiweiSettings()
"""The default settings (iztro 2.6.0's defaults), as ``bazi.DEFAULT``."""

_PLACERS: dict[str, tuple[tuple[Star, ...], Callable[..., tuple[int, ...]]]] = {
    algorithm.value: compile_natal(algorithm.value) for algorithm in Algorithm
}
# The 全书 school's catalogue (quanshu.toml on top of the 全书 algorithm's stars).
_SCHOOL = "school:quanshu"
_PLACERS[_SCHOOL] = (
    quanshu.catalogue(),
    compile_rules(
        _SCHOOL,
        [(s.key, s.place) for s in quanshu.catalogue()],
        NATAL_VARIABLES,
        NATAL_RULES,
    ),
)
_MAJORS = tuple(s for s in _PLACERS[Algorithm.QUANSHU.value][0] if s.group is StarGroup.MAJOR)
if any(stars[: len(_MAJORS)] != _MAJORS for stars, _ in _PLACERS.values()):
    raise RuntimeError("stars.toml must list the major stars first")
# The major and minor stars come first in every algorithm's list, then the adjectives: their
# groups are a function of the first stars' branches and the year stem (_Tables.fixed).
_FIXED = {
    algorithm: sum(s.group is not StarGroup.ADJECTIVE for s in stars)
    for algorithm, (stars, _) in _PLACERS.items()
}
if any(
    s.group is StarGroup.ADJECTIVE for a, (stars, _) in _PLACERS.items() for s in stars[: _FIXED[a]]
):
    raise RuntimeError("stars.toml must list the adjective stars last")
_GROUP_LIMIT = 20_000  # entries of each settings' caches of major and of minor groups
# Redraws the majors alone, for 地盘/人盘.
_place_majors = compile_rules(
    "majors", [(s.key, s.place) for s in _MAJORS], (), ("zi_wei", "tian_fu")
)
_STAR_INDEX = {
    catalogue: {s.key: i for i, s in enumerate(stars)} for catalogue, (stars, _) in _PLACERS.items()
}


# The algorithms' catalogue names, read from a dict: an enum's .value is a Python-level
# property, and every chart asks.
_ALGORITHM_CATALOGUES: dict[Algorithm, str] = {a: a.value for a in Algorithm}


def _catalogue(settings: ZiweiSettings) -> str:
    """Which star catalogue a chart uses: the algorithm's, or the 全书 school's."""
    if settings.school is School.QUANSHU:
        return _SCHOOL
    return _ALGORITHM_CATALOGUES[settings.algorithm]


_GROUP_INDEX = {StarGroup.MAJOR: 0, StarGroup.MINOR: 1, StarGroup.ADJECTIVE: 2}
_PALACE_INDEX = tuple((b - 2) % 12 for b in range(12))  # iztro's index: 寅 = 0
_AGES = tuple(tuple(range(step + 1, 121, 12)) for step in range(12))  # 小限 ages per step
_BRANCHES = tuple(Branch)
_INDEX_BRANCH = tuple((index + 2) % 12 for index in range(12))  # iztro index → branch
# The twelve palace pillars (iztro order) for each stem the 寅 palace can have (五虎遁).
_PALACE_PILLARS = {
    yin: tuple(Pillar.of((yin + index) % 10, (index + 2) % 12) for index in range(12))
    for yin in range(0, 10, 2)
}
_PALACE_NAMES = tuple(PalaceName)
_JIE_LU = tuple(Branch.parse(c) for c in star("jie_lu").place["table"])
_KONG_WANG = tuple(Branch.parse(c) for c in star("kong_wang").place["table"])
_JIANG_QIAN = CYCLES["jiang_qian"]
# The order of the god fields of Palace.
_CYCLE_ORDER = tuple(CYCLES[k] for k in ("chang_sheng", "bo_shi", "jiang_qian", "sui_qian"))
_CHANG_SHENG = 0  # its index in _CYCLE_ORDER


def _tian_shi_shang(
    life: int, year_branch: Branch, gender: Polarity, zhongzhou: bool
) -> tuple[int, int]:
    """天使 in the Health palace, 天伤 in the Friends palace; 中州 swaps them for 阴男阳女."""
    tian_shi, tian_shang = (life + PalaceName.HEALTH) % 12, (life + PalaceName.FRIENDS) % 12
    if zhongzhou and year_branch.polarity is not gender:
        return tian_shang, tian_shi
    return tian_shi, tian_shang


def _tian_fu(zi_wei: int) -> int:
    """天府 mirrors 紫微 across the 寅–申 axis (寅 ↔ 寅, 卯 ↔ 丑, 辰 ↔ 子 …)."""
    return (4 - zi_wei) % 12


def zi_wei_branch(five_elements_class: int, day: int) -> Branch:
    """Where 紫微 sits for a class number (2..6, or a ``FiveElementsClass``) and a lunar day
    (1..30) (起紫微星诀); :class:`InputError` on anything else."""
    klass = check_int(five_elements_class, "five_elements_class", 2, 6)
    return _zi_wei_branch(klass, check_int(day, "day", 1, 30))


def _zi_wei_branch(five_elements_class: int, day: int) -> Branch:
    """:func:`zi_wei_branch` without the checks (the per-chart path).

    Find the smallest k ≥ 0 that makes day + k divisible by the class number; count the
    quotient from 寅 (寅 = 1), then move k palaces forward when k is even, back when odd.
    """
    k = -day % five_elements_class
    quotient = (day + k) // five_elements_class
    palace = quotient - 1 + k if k % 2 == 0 else quotient - 1 - k
    return _BRANCHES[(palace + 2) % 12]


_Slots = tuple[tuple[tuple[tuple[int, PlacedStar], ...], ...], ...]
_Groups = tuple[tuple[PlacedStar, ...], ...]


class _Tables(NamedTuple):
    """Every placed star one set of settings can produce, and the natal 四化 by year stem.

    Placed stars are immutable, so charts share them instead of building 66 new objects
    each time."""

    slots: _Slots
    """``slots[i][branch][m]`` is ``(slot, placed)`` for star ``i`` of the algorithm's list
    on ``branch`` with transformation ``m`` (0 = none, 1..4 = 禄 权 科 忌); ``slot`` is
    3 × iztro's palace index + the star's group."""
    by_stem: tuple[tuple[int, ...], ...]
    """``by_stem[stem][i]`` is star ``i``'s transformation ``m`` for a year stem."""
    adjectives: tuple[tuple[tuple[int, PlacedStar], ...], ...]
    """``adjectives[j][branch]`` is ``(iztro palace index, placed)`` for the adjective star
    ``fixed + j`` (adjectives take no natal 四化)."""
    fixed: int
    """How many stars come before the adjectives (the majors and minors)."""
    majors: dict[tuple[int, ...], _Groups]
    """The twelve major groups (iztro's palace order) by (year stem, branch of each major
    star): 120 combinations (紫微's branch × the stem's 四化), shared by charts."""
    minors: dict[tuple[int, ...], _Groups]
    """The same for the minor stars (those after the majors, up to ``fixed``): a few
    thousand combinations (year stem and branch, month, hour)."""
    pool: dict[tuple[PlacedStar, ...], tuple[PlacedStar, ...]]
    """One shared copy of each group in ``majors`` and ``minors``."""


@lru_cache(maxsize=32)
def _star_tables(
    catalogue: str, mutagens: MutagenOverrides, brightness: BrightnessOverrides
) -> _Tables:
    stars = _PLACERS[catalogue][0]
    grades = quanshu.brightness() if catalogue == _SCHOOL else default_brightness()
    for key, row in brightness:
        grades[key] = tuple(Brightness.parse(g) if g else None for g in row)
    rows = [tuple(s.key for s in row) for row in mutagen_table(mutagens)]
    options: tuple[Mutagen | None, ...] = (None, *Mutagen)
    slots = tuple(
        tuple(
            tuple(
                (
                    3 * _PALACE_INDEX[b] + _GROUP_INDEX[s.group],
                    PlacedStar(s, _BRANCHES[b], grades[s.key][b] if s.key in grades else None, m),
                )
                for m in options
            )
            for b in range(12)
        )
        for s in stars
    )
    by_stem = tuple(
        tuple(
            1 + row.index(s.key) if s.key in row and s.group is not StarGroup.ADJECTIVE else 0
            for s in stars
        )
        for row in rows
    )
    fixed = _FIXED[catalogue]
    adjectives = tuple(
        tuple((slot // 3, placed) for slot, placed in (row[b][0] for b in range(12)))
        for row in slots[fixed:]
    )
    return _Tables(slots, by_stem, adjectives, fixed, {}, {}, {})


def natal_mutagens(settings: ZiweiSettings) -> tuple[tuple[int, ...], ...]:
    """``[year stem][i]``: the natal transformation of star ``i`` of the charts' star list
    (``NatalChart._stars``) under ``settings``: 0 for none, 1..4 for 禄 权 科 忌, as the
    palaces' placed stars carry them (adjective stars take none)."""
    return _star_tables(_catalogue(settings), settings.mutagens, settings.brightness).by_stem


def natal_brightness(settings: ZiweiSettings) -> tuple[tuple[Brightness | None, ...], ...]:
    """``[i][branch]``: the brightness grade of star ``i`` of the charts' star list
    (``NatalChart._stars``) on each branch under ``settings``, as the palaces' placed stars
    carry it (None where the star has no grades)."""
    slots = _star_tables(_catalogue(settings), settings.mutagens, settings.brightness).slots
    return tuple(tuple(row[b][0][1].brightness for b in range(12)) for row in slots)


def chart(
    birth_date: object,
    birth_time: object,
    gender: object,
    *,
    tz: object = None,
    longitude: object = None,
    fold: object = 0,
    lunar: object = False,
    leap: object = False,
    settings: ZiweiSettings = DEFAULT,
) -> NatalChart:
    """The natal chart of a birth: the same arguments as :func:`mingshu.bazi.chart`.

    ``birth_date``: ``"1987-05-16"`` or a ``date`` (a lunar date with ``lunar=True``, and
    ``leap=True`` for a day of the leap month); ``birth_time``: a clock time (``"10:30"``, a
    ``time``; 23:00–23:59 is the late Rat hour) or iztro's time index 0..12 as an ``int``;
    ``gender``: ``"male"`` / ``"female"``.  ``tz`` (an IANA zone) makes the clock time a
    civil time: daylight saving is removed and, with ``settings.true_solar_time`` and a
    ``longitude``, solar time is used, each with a notice.  Without ``tz`` the clock time
    is taken as given, as iztro does (a notice says so).  ``fold`` picks one of two
    identical clock readings at the end of daylight saving (0 = the first).

    Bad input raises :class:`mingshu.errors.InputError` naming the field.
    """
    settings = check_settings(settings)
    birth = Birth.of(
        birth_date,
        birth_time,
        gender,
        lunar=lunar,
        leap=leap,
        tz=tz,
        longitude=longitude,
        fold=fold,
        true_solar_time=settings.true_solar_time,
        equation_of_time=settings.equation_of_time,
    )
    return from_birth(birth, settings)


def by_solar(
    date: object,
    time: object,
    gender: object,
    settings: ZiweiSettings = DEFAULT,
    *,
    tz: object = None,
    longitude: object = None,
    fold: object = 0,
) -> NatalChart:
    """iztro's ``bySolar``: :func:`chart` of a solar date."""
    return chart(date, time, gender, tz=tz, longitude=longitude, fold=fold, settings=settings)


def by_lunar(
    date: object,
    time: object,
    gender: object,
    *,
    leap: object = False,
    settings: ZiweiSettings = DEFAULT,
    tz: object = None,
    longitude: object = None,
    fold: object = 0,
) -> NatalChart:
    """iztro's ``byLunar``: :func:`chart` of a lunar date (``leap`` for the leap month)."""
    return chart(
        date,
        time,
        gender,
        lunar=True,
        leap=leap,
        tz=tz,
        longitude=longitude,
        fold=fold,
        settings=settings,
    )


def check_settings(settings: object) -> ZiweiSettings:
    """``settings`` if it is a :class:`ZiweiSettings`; :class:`InputError` otherwise."""
    if not isinstance(settings, ZiweiSettings):
        raise InputError("settings", f"give a ZiweiSettings value, not {clip(settings)}")
    return settings


class _Days(NamedTuple):
    """Step 1: what the calendar says of the birth, under the settings."""

    time_index: int
    late_rat: bool
    lunar: calendar.LunarDate
    year: Pillar
    god_year: Pillar
    month: int
    hour: int
    day: int
    """The day the day stars count (0-based; one more for a late Rat hour)."""
    zi_wei_day: int
    """The day 紫微 counts (1-based; a late Rat hour wraps at the month's end)."""


def _days(birth: Birth, settings: ZiweiSettings) -> _Days:
    solar = birth.solar_date
    time_index = birth.time_index
    if time_index == 12 and settings.late_rat_hour is LateRatHour.SAME_DAY:
        time_index = 0  # charted exactly as the early Rat hour of the same day
    late_rat = time_index == 12
    lunar = calendar.solar_to_lunar(solar)
    year = _year_pillar(settings.year_boundary, lunar.year, solar)
    god_year = _year_pillar(settings.horoscope_boundary, lunar.year, solar)

    # The month a leap-month birth counts as; iztro never moves a late Rat hour on.
    month = lunar.month - 1
    if lunar.is_leap and lunar.day > 15 and settings.leap_month is LeapMonth.SPLIT and not late_rat:
        month += 1
    elif lunar.is_leap and settings.leap_month is LeapMonth.NEXT:
        month += 1  # 全书: the whole leap month counts as the next month
    # 紫微 counts the day (the next day for a late Rat hour, wrapping at the month's end);
    # the day stars (三台 八座 恩光 天贵) count day + 1 there too, without the wrap.
    zi_wei_day = lunar.day + late_rat
    if late_rat:
        length = calendar.month_days(lunar.year, lunar.month, lunar.is_leap)
        if zi_wei_day > length:
            zi_wei_day -= length
    return _Days(
        time_index,
        late_rat,
        lunar,
        year,
        god_year,
        month % 12,
        time_index % 12,
        lunar.day - 1 + late_rat,
        zi_wei_day,
    )


def _redraw(
    settings: ZiweiSettings,
    positions: list[int],
    d: _Days,
    life: int,
    body: int,
    stem_of: Callable[[int], int],
    gender: Polarity,
) -> tuple[int, int, FiveElementsClass, tuple[int, ...]]:
    """地盘 / 人盘 (iztro rearrangeAstrolable): the Body or Spirit palace becomes the Life
    palace; the class, palace names, Body palace, majors, 长生, decades, and 天才 天使
    天伤 are recomputed from it, everything else stays as drawn.  iztro takes the year for
    天才 and for the 天使/天伤 swap from the birth-data pillar, i.e. by the year boundary.
    Returns the new Life and Body branches, class, and the stars that moved."""
    zhongzhou = settings.algorithm is Algorithm.ZHONGZHOU
    life = body if settings.chart_type is ChartType.EARTH else (life + 2) % 12
    body = (life + 2 * d.hour) % 12
    klass = nayin_class(stem_of(life), life)
    zi_wei = _zi_wei_branch(klass, d.zi_wei_day)
    for i, branch in enumerate(_place_majors(zi_wei, _tian_fu(zi_wei))):
        positions[i] = branch  # the majors come first in the catalogue
    tian_shi, tian_shang = _tian_shi_shang(life, d.year.branch, gender, zhongzhou)
    star_index = _STAR_INDEX[_catalogue(settings)]
    redrawn = (
        (star_index["tian_shang"], tian_shang),
        (star_index["tian_shi"], tian_shi),
        (star_index["tian_cai"], (life + d.year.branch) % 12),
    )
    moved = tuple(i for i, branch in redrawn if positions[i] != branch)
    for i, branch in redrawn:
        positions[i] = branch
    return life, body, klass, moved


def _groups(
    settings: ZiweiSettings, positions: list[int], moved: tuple[int, ...], year_stem: int
) -> tuple[_Groups, _Groups, list[list[PlacedStar]]]:
    """The placed stars of each palace (iztro's order), major, minor and adjective, each
    group in iztro's order."""
    tables = _star_tables(_catalogue(settings), settings.mutagens, settings.brightness)
    n, fixed = len(_MAJORS), tables.fixed
    majors = tables.majors.get(key := (year_stem, *positions[:n]))
    if majors is None:
        majors = _cached_groups(tables, tables.majors, key, 0)
    minors = tables.minors.get(key := (year_stem, *positions[n:fixed]))
    if minors is None:
        minors = _cached_groups(tables, tables.minors, key, n)
    adjectives: list[list[PlacedStar]] = [[] for _ in range(12)]
    if moved:
        # iztro appends stars that a rearranged chart moves after the palace's other stars
        # (only adjectives move: see _redraw).
        rest = [i for i in range(fixed, len(positions)) if i not in moved]
        for i in rest + list(moved):
            index, placed = tables.adjectives[i - fixed][positions[i]]
            adjectives[index].append(placed)
    else:
        for row, branch in zip(tables.adjectives, positions[fixed:], strict=True):
            index, placed = row[branch]
            adjectives[index].append(placed)
    return majors, minors, adjectives


def _cached_groups(
    tables: _Tables, cache: dict[tuple[int, ...], _Groups], key: tuple[int, ...], first: int
) -> _Groups:
    """The twelve groups of the stars ``first``, ``first + 1`` … for ``key`` = (year stem,
    their branches), cached in ``cache`` (``tables.majors`` or ``tables.minors``)."""
    if len(cache) >= _GROUP_LIMIT:
        tables.majors.clear()
        tables.minors.clear()
        tables.pool.clear()
    year_stem, branches = key[0], key[1:]
    last = first + len(branches)
    palaces: list[list[PlacedStar]] = [[] for _ in range(12)]
    stems = tables.by_stem[year_stem][first:last]
    for row, branch, mutagen in zip(tables.slots[first:last], branches, stems, strict=True):
        slot, placed = row[branch][mutagen]
        palaces[slot // 3].append(placed)
    pool = tables.pool
    found = cache[key] = tuple(pool.setdefault(g, g) for g in map(tuple, palaces))
    return found


def from_birth(birth: Birth, settings: ZiweiSettings = DEFAULT) -> NatalChart:
    """Draw the natal chart of a checked :class:`~mingshu.birth.Birth` under ``settings``."""
    settings = check_settings(settings)
    if not isinstance(birth, Birth):
        raise InputError("birth", f"give a mingshu.birth.Birth, not {clip(birth)}")
    d = _days(birth, settings)
    year, god_year = d.year, d.god_year

    # 安命身宫: from 寅 as the first month count to the birth month, then back by the hour
    # for the Life palace and forward for the Body palace.
    life = (2 + d.month - d.hour) % 12
    body = (2 + d.month + d.hour) % 12
    yin_stem = calendar.month_stem(year.stem, Branch.YIN)  # 五虎遁: the 寅 palace's stem

    def stem_of(branch: int) -> int:
        return (yin_stem + (branch - 2) % 12) % 10  # 子, 丑 repeat the stems of 寅, 卯

    klass = nayin_class(stem_of(life), life)
    zi_wei = _zi_wei_branch(klass, d.zi_wei_day)

    gender_polarity = birth.gender.polarity
    zhongzhou = settings.algorithm is Algorithm.ZHONGZHOU
    tian_shi, tian_shang = _tian_shi_shang(life, god_year.branch, gender_polarity, zhongzhou)
    # 旬空: the void branch of the year's decade (旬) that has the year branch's polarity;
    # 截空 (中州): 截路 for a yang year branch, 空亡 for a yin one.
    xun_kong = god_year.void_branches[god_year.branch % 2]
    jie_kong = (_JIE_LU if god_year.branch.polarity is Polarity.YANG else _KONG_WANG)[god_year.stem]

    catalogue = _catalogue(settings)
    stars, placer = _PLACERS[catalogue]
    voids = god_year.void_branches
    # 斗君 of the birth year (全书 安斗君诀); 金锁铁蛇关 (戌 + year − month + day − hour).
    dou_jun = (god_year.branch - d.month + d.hour) % 12
    jin_suo = (10 + god_year.branch - d.month + d.lunar.day - 1 - d.hour) % 12
    positions = list(
        placer(
            year.stem,
            year.branch,
            god_year.stem,
            god_year.branch,
            d.month,
            d.hour,
            d.day,
            life,
            body,
            zi_wei,
            _tian_fu(zi_wei),
            xun_kong,
            jie_kong,
            tian_shi,
            tian_shang,
            voids[0],
            voids[1],
            dou_jun,
            jin_suo,
        )
    )
    heaven_life, heaven_body = life, body
    moved: tuple[int, ...] = ()
    if settings.chart_type is not ChartType.HEAVEN:
        life, body, klass, moved = _redraw(
            settings, positions, d, life, body, stem_of, gender_polarity
        )
    groups = _groups(settings, positions, moved, year.stem)
    lu_cun = positions[_STAR_INDEX[catalogue]["lu_cun"]]
    palaces = _palaces(
        settings, birth, d, life, body, klass, yin_stem, lu_cun, groups, gender_polarity
    )
    return NatalChart(
        birth=birth,
        settings=settings,
        lunar_date=d.lunar,
        pillars=_four_pillars(birth.solar_date, d.time_index, d.lunar, year, settings),
        year=year,
        god_year=god_year,
        hour=HOURS[birth.time_index],
        five_elements_class=klass,
        life_branch=_BRANCHES[life],
        body_branch=_BRANCHES[heaven_body],  # iztro keeps the heaven chart's here
        life_master=life_master(year.branch if zhongzhou else heaven_life),
        body_master=body_master(year.branch),
        zodiac=year.branch.animal,
        sign=calendar.sign(birth.solar_date),
        palaces=palaces,
        _stars=stars,
        _positions=tuple(positions),
    )


def _palaces(
    settings: ZiweiSettings,
    birth: Birth,
    d: _Days,
    life: int,
    body: int,
    klass: FiveElementsClass,
    yin_stem: int,
    lu_cun: int,
    groups: tuple[_Groups, _Groups, list[list[PlacedStar]]],
    gender: Polarity,
) -> tuple[Palace, ...]:
    """The twelve palaces in iztro's order: names, stems, stars, the four god cycles
    (each from its ``start`` and ``direction`` in chart.toml), decades and small limits.

    Every field is read as a column of twelve from a cache keyed by the few numbers it
    depends on (the Life branch, the class, the year …), and the palaces are zipped from
    the columns: a loop over the palaces in Python cost more than the rest of the chart."""
    year, god_year = d.year, d.god_year
    # 阳男阴女 run forward, 阴男阳女 backward: decades, and the cycles marked "polarity".
    direction = 1 if year.branch.polarity is gender else -1
    anchors = {
        "five_elements_class": klass.chang_sheng,
        "lu_cun": lu_cun,
        "jiang_xing": _JIANG_QIAN.jiang_xing[god_year.branch],
        "year_branch": god_year.branch,
    }
    # 全书: 「男命顺数、女命逆数」 for 长生, whatever the year (quanshu.toml).
    chang_sheng = direction
    if settings.school is School.QUANSHU and quanshu.CHANG_SHENG_BY_GENDER:
        chang_sheng = 1 if gender is Polarity.YANG else -1
    zhongzhou = settings.algorithm is Algorithm.ZHONGZHOU
    gods = [
        _god_column(
            cycle,
            zhongzhou,
            int(anchors[start]),
            1 if forward else chang_sheng if cycle == _CHANG_SHENG else direction,
        )
        for cycle, start, forward in _CYCLE_STARTS
    ]
    majors, minors, adjectives = groups
    branches, stems, original = _stem_columns(yin_stem, year.stem)
    return tuple(
        map(
            _new_palace,
            zip(
                branches,
                stems,
                _name_column(life),
                _body_column(body),
                original,
                majors,
                minors,
                map(tuple, adjectives),
                *gods,
                _decadal_column(yin_stem, int(klass), direction, life),
                _ages_column(small_limit_start(year.branch), 1 if gender is Polarity.YANG else -1),
                strict=True,
            ),
        )
    )


# A Palace straight from a tuple of its fields, without a Python-level __new__ per palace.
_new_palace: Callable[[tuple[object, ...]], Palace] = partial(tuple.__new__, Palace)
# Each cycle as (position in Palace's god fields, anchor name, runs forward whatever the
# polarity); "polarity" cycles run the decades' way.
_CYCLE_STARTS = tuple((i, c.start, c.direction == "forward") for i, c in enumerate(_CYCLE_ORDER))

# The palace columns below (twelve values in iztro's order) are pure functions of a few
# small ints, so each is built once per combination and shared by every chart.


@cache
def _god_column(cycle: int, zhongzhou: bool, start: int, direction: int) -> tuple[God, ...]:
    c = _CYCLE_ORDER[cycle]
    gods = c.zhongzhou_gods if zhongzhou else c.gods
    return tuple(gods[((branch - start) * direction) % 12] for branch in _INDEX_BRANCH)


@cache
def _stem_columns(
    yin_stem: int, year_stem: int
) -> tuple[tuple[Branch, ...], tuple[Stem, ...], tuple[bool, ...]]:
    """Branches, stems (五虎遁: from the 寅 palace's stem) and 来因宫 flags (the palace whose
    stem is the year stem, 子 and 丑 excluded)."""
    pillars = _PALACE_PILLARS[yin_stem]
    return (
        tuple(p.branch for p in pillars),
        tuple(p.stem for p in pillars),
        tuple(p.stem == year_stem and p.branch >= 2 for p in pillars),
    )


@cache
def _name_column(life: int) -> tuple[PalaceName, ...]:
    return tuple(_PALACE_NAMES[(branch - life) % 12] for branch in _INDEX_BRANCH)


@cache
def _body_column(body: int) -> tuple[bool, ...]:
    return tuple(branch == body for branch in _INDEX_BRANCH)


@cache
def _decadal_column(yin_stem: int, number: int, direction: int, life: int) -> tuple[Decadal, ...]:
    """大限: from the Life palace, ten years a palace, starting at the class number."""
    out = []
    for pillar in _PALACE_PILLARS[yin_stem]:
        start = number + 10 * (((pillar.branch - life) % 12 * direction) % 12)
        out.append(Decadal(start, start + 9, pillar))
    return tuple(out)


@cache
def _ages_column(small_start: int, step: int) -> tuple[tuple[int, ...], ...]:
    return tuple(_AGES[((branch - small_start) * step) % 12] for branch in _INDEX_BRANCH)


def _year_pillar(boundary: YearBoundary, lunar_year: int, solar: dt.date) -> Pillar:
    if boundary is YearBoundary.LUNAR_NEW_YEAR:
        return calendar.year_pillar_of_lunar_year(lunar_year)
    return calendar.year_pillar_by_lichun_day(solar)


def _four_pillars(
    solar: dt.date,
    time_index: int,
    lunar: calendar.LunarDate,
    year: Pillar,
    settings: ZiweiSettings,
) -> FourPillars:
    """iztro's ``chineseDate``: its calendar library is asked for hh:30 of the birth day,
    hh = max(2·index − 1, 0), so the late Rat hour (23:30) takes the next day's pillars."""
    if settings.horoscope_boundary is YearBoundary.LUNAR_NEW_YEAR:
        # The lunar month, moved on for leap days after the 15th whatever the leap setting.
        month_branch = _BRANCHES[(lunar.month + 1 + (lunar.is_leap and lunar.day > 15)) % 12]
        month = Pillar.of(calendar.month_stem(year.stem, month_branch), month_branch)
    else:
        moment = dt.datetime.combine(solar, dt.time(max(2 * time_index - 1, 0), 30))
        month = calendar.month_pillar_exact(moment)
    day = calendar.day_pillar(solar + dt.timedelta(days=time_index == 12))
    hour = calendar.hour_pillar(day.stem, _BRANCHES[time_index % 12])
    return FourPillars(year, month, day, hour)
