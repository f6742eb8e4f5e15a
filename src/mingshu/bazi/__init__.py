"""BaZi (四柱八字): pillars at exact solar-term moments, derived items, luck pillars, and
symbolic stars (神煞) that say which table they used.

The front door::

    >>> from mingshu import bazi
    >>> c = bazi.chart("1990-05-15", "10:30", "male", tz="Asia/Shanghai")
    >>> str(c.pillars)
    '庚午 辛巳 庚辰 辛巳'
    >>> c.star("wen_chang").describe()
    'no Literary Star 文昌贵人 in this chart (table: W1 星學大成 卷一 論文昌 rule (辛 → 子))'
    >>> [str(s.pillar) for s in c.luck.steps[:3]]
    ['壬午', '癸未', '甲申']

Every disputed rule is a field of :class:`BaziSettings` (an immutable value passed into each
call); rule tables live in ``bazi/data/*.toml`` with their sources.  See docs/bazi.md.
"""

from mingshu.bazi.arriving import Arrival, arriving
from mingshu.bazi.chart import Chart, chart, chart_at, from_birth
from mingshu.bazi.common import Gender, Notice, Position
from mingshu.bazi.derived import (
    PillarDetail,
    detail,
    ming_gong,
    nayin,
    shen_gong,
    stage,
    tai_xi,
    tai_yuan,
)
from mingshu.bazi.luck import Annual, Luck, LuckStep, StartSpan, is_forward
from mingshu.bazi.month_qi import SiLing
from mingshu.bazi.pillars import four_pillars
from mingshu.bazi.settings import (
    DEFAULT,
    PROFILES,
    BaziSettings,
    EarthRule,
    LateRatHour,
    MingGongMonth,
    StartAge,
    YinRule,
)
from mingshu.bazi.shensha import Hit, StarResult, stars_in
from mingshu.bazi.stars import STARS, StarDef, Variant, star
from mingshu.bazi.tables import HiddenStem, Nayin, Source, Stage, TenGod, ten_god
from mingshu.birth import Birth, Moment, equation_of_time
from mingshu.cycles import FourPillars

__all__ = [
    "DEFAULT",
    "PROFILES",
    "STARS",
    "Annual",
    "Arrival",
    "BaziSettings",
    "Birth",
    "Chart",
    "EarthRule",
    "FourPillars",
    "Gender",
    "HiddenStem",
    "Hit",
    "LateRatHour",
    "Luck",
    "LuckStep",
    "MingGongMonth",
    "Moment",
    "Nayin",
    "Notice",
    "PillarDetail",
    "Position",
    "SiLing",
    "Source",
    "Stage",
    "StarDef",
    "StarResult",
    "StartAge",
    "StartSpan",
    "TenGod",
    "Variant",
    "YinRule",
    "arriving",
    "chart",
    "chart_at",
    "detail",
    "equation_of_time",
    "four_pillars",
    "from_birth",
    "is_forward",
    "ming_gong",
    "nayin",
    "shen_gong",
    "stage",
    "star",
    "stars_in",
    "tai_xi",
    "tai_yuan",
    "ten_god",
]
