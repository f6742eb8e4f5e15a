"""What a natal chart holds: twelve palaces with their stars and gods, and the birth data.

Palaces are listed in iztro's order (index 0 is the 寅 palace, then 卯 … 子, 丑) so that
``chart.palaces[i]`` is iztro's ``palaces[i]``; look palaces up by branch or name with
:meth:`NatalChart.palace`.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from mingshu.calendar import LunarDate
from mingshu.cycles import Branch, FourPillars, Names, Pillar, Stem
from mingshu.ziwei.birth import Birth
from mingshu.ziwei.settings import ZiweiSettings
from mingshu.ziwei.stars import Brightness, Mutagen, Star, star_by_name
from mingshu.ziwei.tables import FiveElementsClass, God, HourName, PalaceName

if TYPE_CHECKING:
    from mingshu.ziwei.horoscope import Horoscope

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
        return self.palaces[(self.body_branch - 2) % 12]

    def palace(self, which: str | int | Branch | PalaceName) -> Palace:
        """A palace by name (``"疾厄"``, ``"health"``, ``PalaceName.HEALTH``) or branch
        (``Branch.ZI``, ``"子"``).  A plain ``int`` is iztro's palace index (寅 = 0)."""
        if isinstance(which, PalaceName):
            return self.palaces[(self.life_branch - 2 + which) % 12]
        if isinstance(which, Branch):
            return self.palaces[(which - 2) % 12]
        if isinstance(which, int):
            return self.palaces[which]
        try:
            return self.palace(PalaceName.parse(which))
        except ValueError:
            pass
        try:
            return self.palace(Branch.parse(which))
        except ValueError:
            raise KeyError(f"no palace {which!r}: give a palace name or a branch") from None

    def star(self, key: str) -> PlacedStar:
        """The placed star with canonical key ``key``; ``KeyError`` if not on this chart."""
        for placed in self.palace_of(key).stars:
            if placed.star.key == key:
                return placed
        raise AssertionError(f"{key} is missing from its palace")  # pragma: no cover

    def palace_of(self, key: str) -> Palace:
        """The palace holding the star with key ``key``; ``KeyError`` if not on this chart
        (e.g. 截空 on a 全书 chart)."""
        for star, branch in zip(self._stars, self._positions, strict=True):
            if star.key == key:
                return self.palaces[(branch - 2) % 12]
        if star_by_name(key) is None:
            raise KeyError(f"no star has the key {key!r} (see mingshu.ziwei.STARS)")
        raise KeyError(f"{key!r} is not placed by the {self.settings.algorithm} algorithm")

    def horoscope(self, at: object, time: object = None) -> Horoscope:
        """The horoscope layers (运限) for a moment of this life (see ``ziwei.horoscope``)."""
        from mingshu.ziwei.horoscope import horoscope

        return horoscope(self, at, time)
