"""Zi Wei Dou Shu (紫微斗数) charts, star for star as iztro 2.6.0 draws them.

::

    from mingshu import ziwei
    chart = ziwei.by_solar("1987-05-16", "10:30", "female")
    chart.palace("命宫").major_stars
    chart.star("en_guang").branch

Settings are one immutable :class:`ZiweiSettings` value passed into each call.
"""

from mingshu.ziwei.birth import Birth, Gender
from mingshu.ziwei.chart import Decadal, FourPillars, NatalChart, Palace, PlacedStar
from mingshu.ziwei.natal import by_lunar, by_solar, natal_chart, zi_wei_branch
from mingshu.ziwei.settings import (
    AgeCount,
    Algorithm,
    ChartType,
    LateRatHour,
    LeapMonth,
    YearBoundary,
    ZiweiSettings,
)
from mingshu.ziwei.stars import STARS, Brightness, Mutagen, Star, StarGroup, StarKind, star
from mingshu.ziwei.tables import FiveElementsClass, God, PalaceName

__all__ = [
    "STARS",
    "AgeCount",
    "Algorithm",
    "Birth",
    "Brightness",
    "ChartType",
    "Decadal",
    "FiveElementsClass",
    "FourPillars",
    "Gender",
    "God",
    "LateRatHour",
    "LeapMonth",
    "Mutagen",
    "NatalChart",
    "Palace",
    "PalaceName",
    "PlacedStar",
    "Star",
    "StarGroup",
    "StarKind",
    "YearBoundary",
    "ZiweiSettings",
    "by_lunar",
    "by_solar",
    "natal_chart",
    "star",
    "zi_wei_branch",
]
