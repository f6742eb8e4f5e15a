"""A full BaZi chart: pillars, derived items, luck pillars and symbolic stars."""

from __future__ import annotations

from datetime import date, datetime, time
from typing import NamedTuple

from mingshu.bazi.common import Gender, Notice, Position
from mingshu.bazi.derived import PillarDetail, details_table, ming_gong, shen_gong, tai_xi, tai_yuan
from mingshu.bazi.luck import Annual, Luck, luck
from mingshu.bazi.moment import Birth, birth, birth_from_beijing
from mingshu.bazi.pillars import jie_index, near_jie, pillars_at, seconds_of
from mingshu.bazi.settings import DEFAULT, Settings
from mingshu.bazi.shensha import StarResult, compiled, find_stars
from mingshu.calendar import SolarTerm
from mingshu.cycles import FourPillars, Pillar, Stem

__all__ = ["Chart", "chart", "chart_at", "chart_from_birth"]


class Chart(NamedTuple):
    """Everything of one BaZi chart.  Build it with :func:`chart`."""

    birth: Birth
    gender: Gender
    settings: Settings
    pillars: FourPillars
    details: tuple[PillarDetail, PillarDetail, PillarDetail, PillarDetail]
    """Year, month, day, hour: ten gods, hidden stems, nayin, stages, void."""
    tai_yuan: Pillar
    tai_xi: Pillar
    ming_gong: Pillar
    shen_gong: Pillar
    previous_jie: tuple[SolarTerm, datetime]
    """The 节 in force at birth (Beijing time)."""
    next_jie: tuple[SolarTerm, datetime]
    luck: Luck
    stars: tuple[StarResult, ...]
    """One result per symbolic star of the catalogue, found or not."""
    notices: tuple[Notice, ...]

    @property
    def day_master(self) -> Stem:
        """日主: the stem of the day pillar."""
        return self.pillars.day.stem

    def detail(self, position: Position | str) -> PillarDetail:
        if isinstance(position, str):
            position = Position[position.upper()]
        return self.details[position]

    def star(self, key: str) -> StarResult:
        """The result for the star with canonical key ``key`` (``"wen_chang"``)."""
        for result in self.stars:
            if result.star.key == key:
                return result
        raise KeyError(f"no symbolic star {key!r}")

    def annual(self, year: int) -> Annual:
        """流年, 小运 and the luck pillar of Gregorian ``year``."""
        return self.luck.annual(year)


def chart_from_birth(b: Birth, gender: Gender | str, settings: Settings = DEFAULT) -> Chart:
    """The chart of a checked :class:`~mingshu.bazi.moment.Birth`."""
    g = Gender.parse(gender)
    beijing_seconds = seconds_of(b.beijing)
    pillars, k = pillars_at(beijing_seconds, b.clock, settings.late_rat)
    year, month, day, hour = pillars
    master = day.stem
    table = details_table(settings.stage_earth.value, settings.stage_yin.value)
    m60 = master * 60
    details = (
        table[m60 + year.index],
        table[600 + m60 + month.index],
        table[1200 + m60 + day.index],
        table[1800 + m60 + hour.index],
    )
    lk = luck(
        b.beijing, k, year.stem, month, hour, master, g, settings.start_age, settings.luck_steps
    )
    elements = (
        details[0].nayin.element,
        details[1].nayin.element,
        details[2].nayin.element,
        details[3].nayin.element,
    )
    stars = find_stars(compiled(settings), year, month, day, hour, elements, not lk.forward)
    index = jie_index()
    notice = near_jie(beijing_seconds, k)
    notices = b.notices if notice is None else (*b.notices, notice)
    return Chart(
        birth=b,
        gender=g,
        settings=settings,
        pillars=pillars,
        details=details,
        tai_yuan=tai_yuan(month),
        tai_xi=tai_xi(day),
        ming_gong=ming_gong(year.stem, month.branch, hour.branch),
        shen_gong=shen_gong(year.stem, month.branch, hour.branch),
        previous_jie=(index.terms[k], index.moments[k]),
        next_jie=(index.terms[k + 1], index.moments[k + 1]),
        luck=lk,
        stars=stars,
        notices=notices,
    )


def chart(
    birth_date: str | date,
    birth_time: str | time,
    gender: Gender | str,
    *,
    tz: str = "Asia/Shanghai",
    longitude: float | str | None = None,
    fold: int = 0,
    settings: Settings = DEFAULT,
) -> Chart:
    """The BaZi chart of a civil birth time.

    ``birth_date``: ``"1990-05-15"`` or a ``date``; ``birth_time``: ``"10:30"`` (or with
    seconds) or a ``time``; ``gender``: ``"male"`` / ``"female"``; ``tz``: IANA zone of the
    clock time (daylight saving honoured); ``longitude``: degrees east, for true solar time
    (used when ``settings.true_solar_time``; shown alongside civil time whenever given);
    ``fold``: which of two identical clock readings at the end of daylight saving (0 = first).

    Bad input raises :class:`mingshu.errors.InputError` naming the field.
    """
    g = Gender.parse(gender)
    b = birth(birth_date, birth_time, tz, longitude, settings, fold)
    return chart_from_birth(b, g, settings)


def chart_at(moment: datetime, gender: Gender | str, settings: Settings = DEFAULT) -> Chart:
    """The chart of a naive Beijing-time moment (the clock lunar-python works in)."""
    return chart_from_birth(birth_from_beijing(moment), gender, settings)
