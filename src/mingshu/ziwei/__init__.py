"""Zi Wei Dou Shu (紫微斗数) charts, star for star as iztro 2.6.0 draws them.

::

    from mingshu import ziwei
    chart = ziwei.chart("1987-05-16", "10:30", "female")          # or by_solar(...)
    ziwei.chart("1987-05-16", "11:30", "female", tz="Asia/Shanghai")  # DST removed
    chart.palace("命宫").major_stars, chart.palace_at("子"), chart.palace_by_index(0)
    chart.star("en_guang").branch
    chart.horoscope("2026-11-29T10:00").yearly.mutagens
    chart.surrounded("命宫").have(["禄存"]), chart.flies("财帛").ji, chart.flanking("官禄")
    ziwei.decades(chart), ziwei.years(chart, 0), ziwei.months(chart, 2026)

Settings are one immutable :class:`ZiweiSettings` value passed into each call.
"""

from mingshu.birth import Birth, Moment, Notice
from mingshu.cycles import FourPillars
from mingshu.gender import Gender
from mingshu.ziwei.analysis import Flanking, Flights, Surrounded, flowing_star
from mingshu.ziwei.chart import Decadal, NatalChart, Palace, PlacedStar
from mingshu.ziwei.horoscope import (
    FlowingStar,
    Horoscope,
    Layer,
    Period,
    PlacedFlowingStar,
    Scope,
    YearlyGods,
    decades,
    horoscope,
    months,
    years,
)
from mingshu.ziwei.natal import DEFAULT, by_lunar, by_solar, chart, from_birth, zi_wei_branch
from mingshu.ziwei.settings import (
    AgeCount,
    Algorithm,
    ChartType,
    LateRatHour,
    LeapMonth,
    School,
    YearBoundary,
    ZiweiSettings,
)
from mingshu.ziwei.stars import STARS, Brightness, Mutagen, Star, StarGroup, StarKind, star
from mingshu.ziwei.tables import HOURS, FiveElementsClass, God, HourName, PalaceName

__all__ = [
    "DEFAULT",
    "HOURS",
    "STARS",
    "AgeCount",
    "Algorithm",
    "Birth",
    "Brightness",
    "ChartType",
    "Decadal",
    "FiveElementsClass",
    "Flanking",
    "Flights",
    "FlowingStar",
    "FourPillars",
    "Gender",
    "God",
    "Horoscope",
    "HourName",
    "LateRatHour",
    "Layer",
    "LeapMonth",
    "Moment",
    "Mutagen",
    "NatalChart",
    "Notice",
    "Palace",
    "PalaceName",
    "Period",
    "PlacedFlowingStar",
    "PlacedStar",
    "School",
    "Scope",
    "Star",
    "StarGroup",
    "StarKind",
    "Surrounded",
    "YearBoundary",
    "YearlyGods",
    "ZiweiSettings",
    "by_lunar",
    "by_solar",
    "chart",
    "decades",
    "flowing_star",
    "from_birth",
    "horoscope",
    "months",
    "star",
    "years",
    "zi_wei_branch",
]
