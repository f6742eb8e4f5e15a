"""A full BaZi chart: pillars, derived items, luck pillars and symbolic stars."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from mingshu.bazi.arriving import Arrival, arriving
from mingshu.bazi.common import Gender, Notice, Position
from mingshu.bazi.derived import PillarDetail, details_table, ming_gong, shen_gong, tai_xi, tai_yuan
from mingshu.bazi.luck import Annual, Luck, luck
from mingshu.bazi.month_qi import SiLing, si_ling, zhong_qi_branch
from mingshu.bazi.pillars import jie_index, near_jie, pillars_at
from mingshu.bazi.settings import DEFAULT, BaziSettings, MingGongMonth, check_settings
from mingshu.bazi.shensha import StarResult, compiled, find_stars
from mingshu.bazi.stars import star_by_name
from mingshu.birth import Birth, Moment, moment_of
from mingshu.calendar import SolarTerm, seconds_of
from mingshu.cycles import FourPillars, Pillar, Stem
from mingshu.errors import InputError
from mingshu.named import clip

__all__ = ["Chart", "chart", "chart_at", "from_birth"]


@dataclass(frozen=True, slots=True)
class Chart:
    """Everything of one BaZi chart.  Build it with :func:`chart`."""

    birth: Birth
    settings: BaziSettings
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
    def gender(self) -> Gender:
        return self.birth.gender

    @property
    def moment(self) -> Moment:
        """The birth moment and its clocks (Beijing time, standard time, solar time)."""
        assert self.birth.moment is not None  # from_birth refuses a birth without a zone
        return self.birth.moment

    @property
    def day_master(self) -> Stem:
        """日主: the stem of the day pillar."""
        return self.pillars.day.stem

    def detail(self, position: Position | str) -> PillarDetail:
        """The details of one pillar: ``"day"``, ``"日柱"`` or ``Position.DAY``."""
        return self.details[Position.parse(position, "position")]

    def star(self, name: str) -> StarResult:
        """The result for a symbolic star by its key (``"wen_chang"``) or any of its names
        (``"文昌贵人"``, ``"Literary Star"``); :class:`InputError` if there is none."""
        found = star_by_name(name)
        if found is None:
            raise InputError("star", f"no symbolic star {clip(name)} (see mingshu.bazi.STARS)")
        for result in self.stars:
            if result.star is found:
                return result
        raise AssertionError(f"{found.key} has no result")  # pragma: no cover

    def annual(self, year: int) -> Annual:
        """流年, 小运 and the luck pillar of Gregorian ``year``."""
        return self.luck.annual(year)

    def si_ling(self) -> SiLing:
        """人元司令: the hidden stem in command at the birth, by whole days since the 节 date
        (table ``settings.si_ling``: 三命通會 卷二「論人元司事」 or tyme4py's)."""
        _jie, moment = self.previous_jie
        birth = self.moment.beijing.replace(tzinfo=None)
        return si_ling(self.pillars.month.branch, moment, birth, self.settings.si_ling)

    def arriving(self, pillar: Pillar | str) -> tuple[Arrival, ...]:
        """The stars a luck or year pillar (``"甲子"``) brings to this chart and the natal stars
        it triggers (:mod:`mingshu.bazi.arriving`), with this chart's settings."""
        if isinstance(pillar, str):
            try:
                pillar = Pillar.parse(pillar)
            except ValueError:
                raise InputError("pillar", f"not a sixty-cycle pillar: {clip(pillar)}") from None
        if not isinstance(pillar, Pillar):
            raise InputError("pillar", f"give a Pillar or two characters, not {clip(pillar)}")
        p = self.pillars
        natal = (p.year, p.month, p.day, p.hour)
        return arriving(natal, pillar, backward=not self.luck.forward, settings=self.settings)


def from_birth(birth: Birth, settings: BaziSettings = DEFAULT) -> Chart:
    """The chart of a checked :class:`~mingshu.birth.Birth` (one with a time zone)."""
    settings = check_settings(settings)
    if not isinstance(birth, Birth):
        raise InputError("birth", f"give a mingshu.birth.Birth, not {clip(birth)}")
    m = birth.moment
    if m is None:
        raise InputError("tz", "a BaZi chart needs the time zone of the clock time")
    beijing_seconds = seconds_of(m.beijing)
    pillars, k = pillars_at(beijing_seconds, m.clock, settings.late_rat_hour)
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
        m.beijing,
        k,
        year.stem,
        month,
        hour,
        master,
        birth.gender,
        settings.start_age,
        settings.luck_steps,
    )
    elements = (
        details[0].nayin.element,
        details[1].nayin.element,
        details[2].nayin.element,
        details[3].nayin.element,
    )
    stars = find_stars(compiled(settings), year, month, day, hour, elements, not lk.forward)
    index = jie_index()
    palace_month = month.branch
    if settings.ming_gong_month is MingGongMonth.ZHONG_QI:
        palace_month = zhong_qi_branch(
            month.branch, index.terms[k], index.moments[k], m.beijing.replace(tzinfo=None)
        )
    notice = near_jie(beijing_seconds, k)
    notices = birth.notices if notice is None else (*birth.notices, notice)
    return Chart(
        birth=birth,
        settings=settings,
        pillars=pillars,
        details=details,
        tai_yuan=tai_yuan(month),
        tai_xi=tai_xi(day),
        ming_gong=ming_gong(year.stem, palace_month, hour.branch),
        shen_gong=shen_gong(year.stem, month.branch, hour.branch),
        previous_jie=(index.terms[k], index.moments[k]),
        next_jie=(index.terms[k + 1], index.moments[k + 1]),
        luck=lk,
        stars=stars,
        notices=notices,
    )


def chart(
    birth_date: object,
    birth_time: object,
    gender: object,
    *,
    tz: object = "Asia/Shanghai",
    longitude: object = None,
    fold: object = 0,
    lunar: object = False,
    leap: object = False,
    settings: BaziSettings = DEFAULT,
) -> Chart:
    """The BaZi chart of a civil birth time.

    ``birth_date``: ``"1990-05-15"`` or a ``date`` (a lunar date with ``lunar=True``, and
    ``leap=True`` for a day of the leap month); ``birth_time``: ``"10:30"`` (or with seconds)
    or a ``time``; ``gender``: ``"male"`` / ``"female"``; ``tz``: IANA zone of the clock
    time (daylight saving removed, with a notice); ``longitude``: degrees east, for true
    solar time (used when ``settings.true_solar_time``; shown alongside civil time whenever
    given); ``fold``: which of two identical clock readings at the end of daylight saving
    (0 = the first).  The same arguments as :func:`mingshu.ziwei.chart`.

    Bad input raises :class:`mingshu.errors.InputError` naming the field.
    """
    settings = check_settings(settings)
    if tz is None:
        raise InputError("tz", "a BaZi chart needs the time zone of the clock time")
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


def chart_at(moment: datetime, gender: object, settings: BaziSettings = DEFAULT) -> Chart:
    """The chart of a ``datetime``: naive means Beijing civil time (the clock lunar-python
    works in); one in an IANA zone is read exactly as ``chart(date, time, tz=zone)`` reads
    it (daylight saving removed); one with a fixed UTC offset is that offset's standard time
    (with a notice).  Never stripped of its zone."""
    settings = check_settings(settings)
    m = moment_of(
        moment,
        true_solar_time=settings.true_solar_time,
        equation_of_time_on=settings.equation_of_time,
    )
    return from_birth(Birth.from_moment(m, gender), settings)
