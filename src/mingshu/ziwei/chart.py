"""What a natal chart holds: twelve palaces with their stars and gods, and the birth data.

Palaces are listed in iztro's order (index 0 is the 寅 palace, then 卯 … 子, 丑) so that
``chart.palaces[i]`` is iztro's ``palaces[i]``; look palaces up by branch or name with
:meth:`NatalChart.palace`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, NamedTuple

from mingshu.birth import Birth, Moment, Notice
from mingshu.calendar import LunarDate
from mingshu.cycles import Branch, FourPillars, Names, Pillar, Stem
from mingshu.errors import InputError
from mingshu.named import clip
from mingshu.ziwei import analysis
from mingshu.ziwei.analysis import role_palace
from mingshu.ziwei.horoscope import Horoscope, horoscope
from mingshu.ziwei.quanshu import school_notices
from mingshu.ziwei.settings import ZiweiSettings
from mingshu.ziwei.stars import Brightness, Mutagen, Star, star_by_name
from mingshu.ziwei.stars import star as _star
from mingshu.ziwei.tables import FiveElementsClass, God, HourName, PalaceName

if TYPE_CHECKING:
    from mingshu.ziwei.patterns import PatternHit

__all__ = ["Decadal", "NatalChart", "Palace", "PlacedStar"]


class PlacedStar(NamedTuple):
    """A star in a palace, with its brightness grade and natal transformation (or None)."""

    star: Star
    branch: Branch
    brightness: Brightness | None
    mutagen: Mutagen | None

    @property
    def key(self) -> str:
        return self.star.key

    def with_mutagen(self, mutagens: analysis.MutagensArg) -> bool:
        """The star carries the natal transformation, or one of them (iztro
        ``withMutagen``): ``with_mutagen("忌")``, ``with_mutagen(["忌", "权"])``."""
        return self.mutagen is not None and self.mutagen in analysis.mutagen_list(mutagens)

    def with_brightness(self, grades: analysis.BrightnessArg) -> bool:
        """The star has the brightness grade, or one of them (iztro ``withBrightness``)."""
        return self.brightness is not None and self.brightness in analysis.brightness_list(grades)

    def __str__(self) -> str:
        text = self.star.names.hans
        if self.brightness is not None:
            text += self.brightness.names.hans
        if self.mutagen is not None:
            text += f"[{self.mutagen.names.hans}]"
        return text


class Decadal(NamedTuple):
    """A ten-year period (大限): nominal ages ``start``..``end`` and the palace's pillar."""

    start: int
    end: int
    pillar: Pillar


class Palace(NamedTuple):
    """One of the twelve palaces of a natal chart."""

    branch: Branch
    stem: Stem
    name: PalaceName
    is_body: bool
    """The Body palace (身宫) shares this palace."""
    is_original: bool
    """来因宫: the palace whose stem is the birth-year stem (子 and 丑 excluded)."""
    major_stars: tuple[PlacedStar, ...]
    minor_stars: tuple[PlacedStar, ...]
    adjective_stars: tuple[PlacedStar, ...]
    chang_sheng: God
    bo_shi: God
    jiang_qian: God
    sui_qian: God
    decadal: Decadal
    ages: tuple[int, ...]
    """The nominal ages whose small limit (小限) falls in this palace."""

    @property
    def stars(self) -> tuple[PlacedStar, ...]:
        return self.major_stars + self.minor_stars + self.adjective_stars

    @property
    def iztro_index(self) -> int:
        """iztro's palace index: 0 is the 寅 palace, 10 the 子 palace, 11 the 丑 palace."""
        return (self.branch - 2) % 12

    @property
    def pillar(self) -> Pillar:
        return Pillar(self.stem, self.branch)

    def has(self, stars: analysis.StarsArg) -> bool:
        """Every one of ``stars`` (keys or names; one or a list) is in this palace."""
        present = {p.star for p in self.stars}
        return all(s in present for s in analysis.star_list(stars))

    def not_have(self, stars: analysis.StarsArg) -> bool:
        """None of ``stars`` is in this palace."""
        present = {p.star for p in self.stars}
        return not any(s in present for s in analysis.star_list(stars))

    def has_one_of(self, stars: analysis.StarsArg) -> bool:
        """At least one of ``stars`` is in this palace."""
        present = {p.star for p in self.stars}
        return any(s in present for s in analysis.star_list(stars))

    def has_mutagen(self, mutagen: str | Mutagen) -> bool:
        """A star of this palace carries the natal transformation ``mutagen`` (禄 权 科 忌)."""
        m = Mutagen.parse(mutagen, "mutagen")
        return any(p.mutagen is m for p in self.stars)

    def not_have_mutagen(self, mutagen: str | Mutagen) -> bool:
        return not self.has_mutagen(mutagen)

    def is_empty(self, exclude: analysis.StarsArg = ()) -> bool:
        """No major star here (空宫) — and, with ``exclude``, none of those stars either
        (iztro ``isEmpty``)."""
        if self.major_stars:
            return False
        if isinstance(exclude, tuple | list) and not exclude:
            return True
        return not self.has_one_of(exclude)


@dataclass(frozen=True, slots=True)
class NatalChart:
    """A Zi Wei Dou Shu natal chart (本命盘)."""

    birth: Birth
    settings: ZiweiSettings
    lunar_date: LunarDate
    """The lunar date of the birth day (the day itself: a late Rat hour does not move it)."""
    pillars: FourPillars
    year: Pillar
    """The birth year by the year-boundary setting: palace stems, 四化, year-stem stars."""
    god_year: Pillar
    """The birth year by the horoscope-boundary setting: yearly gods and adjective stars."""
    hour: HourName
    five_elements_class: FiveElementsClass
    life_branch: Branch
    body_branch: Branch
    life_master: Star
    """命主."""
    body_master: Star
    """身主."""
    zodiac: Names
    sign: Names
    palaces: tuple[Palace, ...]
    _stars: tuple[Star, ...] = field(repr=False, compare=False)
    _positions: tuple[int, ...] = field(repr=False, compare=False)
    """The branch of each star of ``_stars`` (the stars the algorithm places)."""

    @property
    def solar_date(self) -> dt.date:
        return self.birth.solar_date

    @property
    def life_palace(self) -> Palace:
        return self.palaces[(self.life_branch - 2) % 12]

    @property
    def body_palace(self) -> Palace:
        """The palace flagged ``is_body``: on an earth or human chart the redrawn chart's,
        not ``body_branch`` (the heaven chart's), as iztro's ``palace('身宫')`` finds it."""
        return next(p for p in self.palaces if p.is_body)

    @property
    def moment(self) -> Moment | None:
        """The zone's clocks when the birth was given with ``tz`` (as ``bazi.Chart.moment``);
        ``None`` when the clock time was taken as given."""
        return self.birth.moment

    @property
    def notices(self) -> tuple[Notice, ...]:
        """What the reader should know about the birth: which clock was used (as given, or
        daylight saving removed, or true solar time), an ambiguous clock reading …, and under
        the 全书 school which rules follow the book instead of iztro (``quanshu_school``)."""
        return self.birth.notices + school_notices(self.settings.school)

    def palace(self, which: str | Branch | PalaceName) -> Palace:
        """A palace by name (``"疾厄"``, ``"health"``, ``PalaceName.HEALTH``), by branch
        (``Branch.ZI``, ``"子"``, ``"zi"``) or by role (``"身宫"``/``"body"``, ``"来因"``/
        ``"original"``).  A plain ``int`` is refused, because it could mean
        a branch or iztro's palace index: use :meth:`palace_at` or :meth:`palace_by_index`."""
        if isinstance(which, PalaceName):
            return self.palace_named(which)
        if isinstance(which, Branch):
            return self.palace_at(which)
        if isinstance(which, str):
            role = role_palace(self, which)  # 身宫 / body, 来因 / original
            if role is not None:
                return role
            try:
                return self.palace_named(PalaceName.parse(which))
            except InputError:
                pass
            try:
                return self.palace_at(Branch.parse(which))
            except InputError:
                pass
        raise InputError(
            "palace",
            f"no palace {clip(which)}: give a palace name (命宫, life) or a branch (子, zi); "
            "for a number use palace_at(Branch(n)) or palace_by_index(n)",
        )

    def palace_at(self, branch: Branch | str) -> Palace:
        """The palace on a branch (``Branch.ZI``, ``"子"``, ``"zi"``)."""
        b = Branch.parse(branch, "palace")
        return self.palaces[(b - 2) % 12]

    def palace_named(self, name: PalaceName | str) -> Palace:
        """The palace with a name (``PalaceName.HEALTH``, ``"疾厄"``, ``"health"``)."""
        n = PalaceName.parse(name, "palace")
        return self.palaces[(self.life_branch - 2 + n) % 12]

    def palace_by_index(self, index: int) -> Palace:
        """The palace at iztro's palace index: 0 is the 寅 palace … 10 子, 11 丑.  A
        ``Branch`` or ``PalaceName`` is refused, not read as its number (``Branch.ZI`` is 0,
        the 寅 palace's index): use :meth:`palace_at` or :meth:`palace_named`."""
        if isinstance(index, Branch | PalaceName):
            method = "palace_at" if isinstance(index, Branch) else "palace_named"
            raise InputError(
                "palace",
                f"{type(index).__name__}.{index.name} is not an iztro palace index: "
                f"use {method}({type(index).__name__}.{index.name})",
            )
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < 12:
            raise InputError("palace", f"iztro's palace index runs 0..11, not {clip(index)}")
        return self.palaces[index]

    def star(self, name: str) -> PlacedStar:
        """The placed star by key (``"zi_wei"``) or any of its names (``"紫微"``, ``"Zi Wei"``);
        :class:`InputError` if there is no such star or this chart's algorithm does not
        place it."""
        key = self._key_of(name)
        for placed in self.palace_of(key).stars:
            if placed.star.key == key:
                return placed
        raise AssertionError(f"{key} is missing from its palace")  # pragma: no cover

    def palace_of(self, name: str) -> Palace:
        """The palace holding a star (by key or any name); :class:`InputError` if the star
        does not exist or is not placed on this chart (e.g. 截空 on a 全书 chart)."""
        key = self._key_of(name)
        for star, branch in zip(self._stars, self._positions, strict=True):
            if star.key == key:  # by key: the 全书 school re-places some catalogue stars
                return self.palaces[(branch - 2) % 12]
        raise InputError(
            "star", f"{key!r} is not placed by the {self.settings.algorithm} algorithm"
        )

    def _key_of(self, name: str) -> str:
        """The key of a catalogue star, or of a star only this chart's school places
        (斗君 …, by key or display name); :class:`InputError` if neither."""
        found = star_by_name(name)
        if found is not None:
            return found.key
        if isinstance(name, str):
            text = name.strip().lower()
            for star in self._stars:
                names = (star.key, star.names.hans, star.names.hant, star.names.english.lower())
                if text in names:
                    return star.key
        return _star(name).key

    def horoscope(self, at: object, time: object = None) -> Horoscope:
        """The horoscope layers (运限) for a moment of this life (see ``ziwei.horoscope``)."""
        return horoscope(self, at, time)

    def patterns(self, variant: str = "book") -> tuple[PatternHit, ...]:
        """The patterns (格局) formed on this chart, by ``ziwei/data/patterns.toml``
        (``variant="x_iztro"`` or ``"gloss"`` reads the patterns that have such a variant
        that way)."""
        return _detector()(self, variant)

    def surrounded(self, which: object) -> analysis.Surrounded:
        """三方四正 of a palace (a name, branch, role or ``Palace``): the palace, its
        opposite and its wealth and career trines (iztro ``surroundedPalaces``)."""
        return analysis.surrounded(self, which)

    def flanking(self, which: object) -> analysis.Flanking:
        """夹宫: the palaces before and after a palace (iztro ``flankingPalaces``)."""
        return analysis.flanking(self, which)

    def flies(self, which: object) -> analysis.Flights:
        """飞化: the palaces a palace's stem sends its 禄 权 科 忌 to, by this chart's 四化
        table (iztro ``mutagedPlaces``, ``fliesTo``, ``selfMutaged`` …)."""
        return analysis.flies(self, which)

    def self_mutagens(self, which: object) -> tuple[Mutagen, ...]:
        """自化: the transformations of a palace's stem that land in the palace itself."""
        return analysis.flies(self, which).self_mutagens


@cache
def _detector() -> Callable[[NatalChart, str], tuple[PatternHit, ...]]:
    """``patterns.detect``, imported on first use (patterns reads charts) and kept: an
    import statement in ``patterns()`` costs microseconds a call."""
    from mingshu.ziwei.patterns import detect

    return detect
