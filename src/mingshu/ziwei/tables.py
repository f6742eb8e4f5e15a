"""Chart-level tables read from ``data/chart.toml``: palace names, five-element classes,
the four twelve-god cycles, life and body masters, the small-limit start, hour names."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from mingshu.cycles import Branch, Names
from mingshu.named import NamedEnum, attach_names
from mingshu.ziwei.stars import Star, load_data, star

__all__ = [
    "CYCLES",
    "HOURS",
    "Cycle",
    "FiveElementsClass",
    "God",
    "HourName",
    "PalaceName",
    "body_master",
    "life_master",
    "nayin_class",
    "small_limit_start",
]

_DATA = load_data("chart.toml")


def _names(row: dict[str, str], pinyin: str | None = None) -> Names:
    return Names(row["hans"], row["hant"], pinyin or row.get("pinyin", ""), row["english"])


class PalaceName(NamedEnum):
    """The twelve palace names, numbered forward from the Life palace (命宫 = 0)."""

    LIFE = 0
    PARENTS = 1
    SPIRIT = 2
    PROPERTY = 3
    CAREER = 4
    FRIENDS = 5
    TRAVEL = 6
    HEALTH = 7
    WEALTH = 8
    CHILDREN = 9
    SPOUSE = 10
    SIBLINGS = 11


_PALACE_NAMES = tuple(_names(r) for r in _DATA["palace"])


def _palace_aliases() -> list[tuple[str, PalaceName]]:
    """Every name of every palace with and without 宫 (宮): 疾厄 and 疾厄宫, 命 and 命宫, and
    the other names chart.toml lists (交友宫, 奴仆 …)."""
    out = []
    for row, names, palace in zip(_DATA["palace"], _PALACE_NAMES, PalaceName, strict=True):
        for text in (names.hans, names.hant, *row.get("aliases", ())):
            bare = text.removesuffix("宫").removesuffix("宮")
            out += [(bare, palace), (bare + "宫", palace), (bare + "宮", palace)]
    return out


attach_names(PalaceName, _PALACE_NAMES, _palace_aliases())


class FiveElementsClass(NamedEnum):
    """The five-element class (五行局); the value is the class number 局数."""

    WATER_2 = 2
    WOOD_3 = 3
    METAL_4 = 4
    EARTH_5 = 5
    FIRE_6 = 6

    @property
    def chang_sheng(self) -> Branch:
        """Where the 长生 cycle starts for this class."""
        return _CLASS_CHANG_SHENG[self]


_CLASS_ROWS = {row["number"]: row for row in _DATA["five_elements_class"]}
attach_names(FiveElementsClass, {FiveElementsClass(n): _names(r) for n, r in _CLASS_ROWS.items()})
_CLASS_CHANG_SHENG = {
    FiveElementsClass(n): Branch.parse(r["chang_sheng"]) for n, r in _CLASS_ROWS.items()
}
_CLASS_BY_SUM = {r["sum"]: FiveElementsClass(n) for n, r in _CLASS_ROWS.items()}
_STEM_NUMBERS: list[int] = _DATA["nayin_numbers"]["stems"]
_BRANCH_NUMBERS: list[int] = _DATA["nayin_numbers"]["branches"]

# The class for every stem (0..9) and branch (0..11), stem-major.
_CLASS_TABLE: tuple[FiveElementsClass, ...] = tuple(
    _CLASS_BY_SUM[(_STEM_NUMBERS[s] + _BRANCH_NUMBERS[b] - 1) % 5 + 1]
    for s in range(10)
    for b in range(12)
)


def nayin_class(stem: int, branch: int) -> FiveElementsClass:
    """The five-element class of the Life palace's stem and branch (定五行局)."""
    return _CLASS_TABLE[stem * 12 + branch]


@dataclass(frozen=True, eq=False, slots=True)
class God:
    """One god of a twelve-god cycle (长生 / 博士 / 将前 / 岁前)."""

    cycle: str
    key: str
    position: int
    names: Names

    @property
    def id(self) -> str:
        """Unique across cycles: ``"bo_shi:xi_shen"`` (喜神) vs ``"jiang_qian:xi_shen"`` (息神)."""
        return f"{self.cycle}:{self.key}"

    def __str__(self) -> str:
        return self.names.hans


@dataclass(frozen=True, eq=False, slots=True)
class Cycle:
    """A twelve-god cycle: its gods in order, where it starts and which way it runs."""

    key: str
    names: Names
    start: str
    direction: str
    gods: tuple[God, ...]
    zhongzhou_gods: tuple[God, ...]
    jiang_xing: tuple[Branch, ...]
    source: str


CYCLE_STARTS = ("five_elements_class", "lu_cun", "jiang_xing", "year_branch")
"""Where a god cycle may start (the ``start`` of a cycle in chart.toml)."""


def _load_cycles() -> dict[str, Cycle]:
    cycles = {}
    for row in _DATA["cycle"]:
        key = row["key"]
        gods = tuple(God(key, g["key"], i, _names(g)) for i, g in enumerate(row["gods"]))
        renamed = row.get("zhongzhou_names", {})
        zhongzhou = tuple(
            God(key, renamed[g.key]["key"], g.position, _names(renamed[g.key]))
            if g.key in renamed
            else g
            for g in gods
        )
        # The engine knows these anchors and directions (natal._palaces); anything else in the
        # data file would be silently ignored, so it is refused here.
        if row["start"] not in CYCLE_STARTS or row["direction"] not in ("polarity", "forward"):
            raise ValueError(f"chart.toml: cycle {key}: unknown start or direction")
        cycles[key] = Cycle(
            key=key,
            names=Names(row["hans"], row["hant"], "", row["english"]),
            start=row["start"],
            direction=row["direction"],
            gods=gods,
            zhongzhou_gods=zhongzhou,
            jiang_xing=tuple(Branch.parse(c) for c in row.get("jiang_xing", "")),
            source=row["source"],
        )
    return cycles


CYCLES: Mapping[str, Cycle] = MappingProxyType(_load_cycles())
"""The four cycles by key: ``chang_sheng``, ``bo_shi``, ``jiang_qian``, ``sui_qian``."""

_LIFE_MASTERS = tuple(star(k) for k in _DATA["masters"]["life"])
_BODY_MASTERS = tuple(star(k) for k in _DATA["masters"]["body"])


def life_master(branch: int) -> Star:
    """命主 for a branch: the Life palace branch (全书) or the year branch (中州)."""
    return _LIFE_MASTERS[branch]


def body_master(year_branch: int) -> Star:
    """身主 for the year branch."""
    return _BODY_MASTERS[year_branch]


_SMALL_LIMIT_START = tuple(Branch.parse(c) for c in _DATA["small_limit"]["start"])


def small_limit_start(year_branch: int) -> Branch:
    """Where age 1 of the small limit (小限) sits, by the year branch."""
    return _SMALL_LIMIT_START[year_branch]


@dataclass(frozen=True, slots=True)
class HourName:
    """The name of one of iztro's thirteen time indices (早子时 … 晚子时) and its clock range."""

    index: int
    names: Names
    range: str

    def __str__(self) -> str:
        return self.names.hans


HOURS: tuple[HourName, ...] = tuple(
    HourName(i, _names(r), r["range"]) for i, r in enumerate(_DATA["hour"])
)
"""The thirteen time indices: 0 early Rat (00–01), 1 Ox (01–03) … 11 Pig, 12 late Rat (23–24)."""
