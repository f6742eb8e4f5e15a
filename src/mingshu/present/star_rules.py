"""A star's rule in one line of a reader's English, written from the star data: the Zi Wei
``place`` of ``ziwei/data/stars.toml`` (and ``quanshu.toml``), the BaZi tables of
``bazi/data/shensha.toml``.  The chart page's star page and the library's star catalogue
both print these lines, and the web's 简体中文 catalogue translates them by their patterns,
so the wording is kept in this one place.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Final

from mingshu.calendar._tables import name_table
from mingshu.cycles import Branch, Names, Pillar, Stem

if TYPE_CHECKING:
    from mingshu.bazi import Variant

__all__ = ["BY_WORDS", "bazi_rule", "branch_name_of", "ziwei_rule"]

BY_WORDS: Final = {
    "year_stem": "year stem",
    "year_branch": "year branch",
    "god_year_stem": "year stem (for the gods)",
    "god_year_branch": "year branch (for the gods)",
    "month": "lunar month",
    "day": "lunar day",
    "hour": "birth hour",
}
"""What each ``by`` of a Zi Wei placement counts."""

_RULES: Final = {
    "zi_wei": "by the lunar day and the five-elements class (安紫微诀)",
    "tian_fu": "opposite 紫微 across the 寅–申 line (天府 mirrors 紫微)",
    "xun_kong": "in the void (旬空) of the year's decade of the sixty cycle",
    "jie_kong": "by the year stem (截路空亡)",
    "tian_shang": "in the Friends (交友) palace (中州派: the Health palace for 阴男阳女)",
    "tian_shi": "in the Health (疾厄) palace (中州派: the Friends palace for 阴男阳女)",
    # the 全书 school's own (ziwei.natal): 旬空 on both void palaces, 斗君, 金锁铁蛇关
    "xun_kong_first": "in the first void (旬空) of the year's decade of the sixty cycle",
    "xun_kong_second": "in the second void (旬空) of the year's decade of the sixty cycle",
    "dou_jun": "at the year branch − the month + the hour (斗君)",
    "jin_suo": "at 戌 + the year branch − the month + the day − the hour (金锁铁蛇关)",
}


def _name(names: Names, style: str) -> str:
    return str(getattr(names, style, names.hans))


def branch_name_of(char: str, style: str) -> str:
    """A branch written as one character (``"辰"``) in the name form ``style``."""
    return _name(Branch.parse(char).names, style)


def _steps(n: int) -> str:
    return "one palace" if abs(n) == 1 else f"{abs(n)} palaces"


def _direction(step: int) -> str:
    return "forward (子→丑→寅)" if step > 0 else "backward (子→亥→戌)"


def _keys_for(by: str, size: int, style: str) -> list[str]:
    if size == 10:
        return [_name(s.names, style) for s in Stem]
    if by == "month":  # 正月 … 腊月, as the books and lunar-python name them
        return [f"{m}月" for m in name_table().months]
    return [_name(b.names, style) for b in Branch]


def _pairs(by: str, table: str, style: str) -> str:
    return ", ".join(
        f"{k} → {branch_name_of(c, style)}"
        for k, c in zip(_keys_for(by, len(table), style), table, strict=True)
    )


def ziwei_rule(place: Mapping[str, Any], style: str, star_name: Callable[[str], str]) -> str:
    """The placement ``place`` (a star's ``place`` table) as one sentence; ``star_name``
    names the star a ``from_star`` rule counts from, ``style`` the branches' name form."""
    by = str(place.get("by", ""))
    counted = BY_WORDS.get(by, by)
    step = int(place.get("step", 1))
    offset = int(place.get("offset", 0))
    then = f", then {_steps(offset)} {'forward' if offset > 0 else 'back'}" if offset else ""
    if "rule" in place:
        return f"Placed {_RULES.get(str(place['rule']), str(place['rule']))}."
    if "table" in place:
        return f"Looked up by the {counted}: {_pairs(by, str(place['table']), style)}."
    if "count_from" in place:
        start = branch_name_of(str(place["count_from"]), style)
        return f"Counted {_direction(step)} from {start} by the {counted}{then}."
    if "count_from_table" in place:
        from_by = str(place["from_by"])
        pairs = _pairs(from_by, str(place["count_from_table"]), style)
        return (
            f"The starting palace by the {BY_WORDS.get(from_by, from_by)} ({pairs}); from "
            f"there, counted {_direction(step)} by the {counted}{then}."
        )
    if "from_star" in place:
        other = star_name(str(place["from_star"]))
        if by:
            return f"Counted {_direction(step)} from {other}'s palace by the {counted}{then}."
        where = "forward" if offset > 0 else "back"
        return f"{_steps(offset).capitalize()} {where} from {other}."
    palace = "Body (身宫)" if place.get("from_palace") == "body" else "Spirit (来因/身主)"
    return f"Counted {_direction(step)} from the {palace} palace by the {counted}{then}."


_BASIS_WORDS: Final = {
    "day_stem": "day stem",
    "year_stem": "year stem",
    "day_branch": "day branch",
    "year_branch": "year branch",
    "month_branch": "month branch",
    "day_pillar": "day pillar",
    "year_pillar": "year pillar",
    "hour_pillar": "hour pillar",
    "year_nayin": "year's nayin element",
    "chart": "chart",
    "chart_stems": "chart's stems",
    "year_month": "year and month branches",
}


def _cells(cells: tuple[tuple[str, str], ...]) -> str:
    """A table's cells, ``甲 → 丑未, …``; the keys that give nothing named once at the end."""
    filled = ", ".join(f"{k} → {v}" for k, v in cells if v)
    empty = " ".join(k for k, v in cells if not v)
    return f"{filled}; none for {empty}" if empty else filled


def bazi_rule(variant: Variant) -> str:
    """A BaZi star's table (one ``Variant``) as one sentence, its every cell written out."""
    basis = " or the ".join(_BASIS_WORDS.get(b, b) for b in variant.basis)
    if variant.rule == "lookup":
        line = f"Looked up by the {basis}: {_cells(variant.cells)}"
        if variant.cells_backward:
            line += f" (阳男 阴女); {_cells(variant.cells_backward)} (阴男 阳女)"
        return line + "."
    if variant.rule == "pillar_set":
        listed = " ".join(
            f"{p.stem.names.hans}{p.branch.names.hans}"
            for p in map(Pillar.from_index, sorted(variant.pillars))
        )
        return f"The {basis} is one of {listed}."
    if variant.rule == "void":
        return f"The two void branches (空亡) of the decade of the sixty cycle of the {basis}."
    if variant.rule == "stem_run":
        runs = ", ".join("".join(Stem(s).names.hans for s in run) for run, _role in variant.runs)
        both = ", either way round" if variant.reversible else ""
        return f"Three stems in a row among the {basis}: {runs}{both}."
    pairs = ", ".join(f"{a.names.hans}{b.names.hans}" for (a, b), _role in variant.pairs)
    return f"Both branches of a pair in the {basis}: {pairs}."
