"""Symbolic stars that arrive with a luck pillar (大运) or a flowing year (流年).

Two questions, each answered with the star tables and bases in force (docs/bazi-rules.md
§4.0: "the same lookups are applied to luck pillars and 流年"):

* ``brings``: the incoming pillar carries a star of the natal chart — the table is entered
  with the natal basis (day stem, year branch …) and the target stands in the incoming pillar
  (a 流年 branch that is the 驿马 of the year branch brings 驿马; a 流年 pillar that is a
  魁罡 day brings 魁罡; its branch in the natal void brings 空亡).
* ``triggers``: the incoming pillar as the basis (its stem for stem-based stars, its branch
  for branch-based ones, its nayin for nayin-based ones) finds the star in the natal pillars
  (a 甲 year finds its 天乙 丑 in a natal 丑 branch).

Month-keyed stars (天德, 月德 …) are read from the natal month only (they bring, never
trigger); stars searched in some pillars only (童子, 金神) are not brought; whole-chart runs
(三奇) are not reported for one pillar.  This is a slow path (a few
hundred lookups), meant for a handful of years, not for sweeps.
"""

from __future__ import annotations

from typing import NamedTuple

from mingshu.arguments import check_type
from mingshu.bazi.common import POSITIONS, Position
from mingshu.bazi.settings import DEFAULT, BaziSettings
from mingshu.bazi.stars import BRANCH_TARGET, PILLAR_TARGET, STARS, Role, StarDef, Variant
from mingshu.bazi.tables import HIDDEN, NAYIN_OF
from mingshu.choices import check_bool
from mingshu.cycles import SIXTY, Branch, Element, Pillar, Stem
from mingshu.errors import InputError
from mingshu.named import clip

__all__ = ["Arrival", "arriving"]


class Arrival(NamedTuple):
    """A star a luck or year pillar brings or triggers."""

    star: StarDef
    variant: Variant
    how: str
    """``brings`` (natal basis, found in the incoming pillar) or ``triggers`` (the incoming
    pillar as basis, found in a natal pillar)."""
    basis: str
    """The basis the table was entered with (``day_stem``, ``year_branch`` …); for a
    triggered star, the first basis of its kind (the incoming stem stands for day and year
    stem alike)."""
    basis_value: Stem | Branch | Pillar | Element | None
    target: Stem | Branch | Pillar
    component: str
    """``branch``, ``stem``, ``hidden_stem`` or ``pillar``."""
    position: Position | None
    """The natal pillar where a triggered star is found; ``None`` for ``brings``."""
    role: Role | None

    def describe(self) -> str:
        where = "" if self.position is None else f" in the {self.position.key} pillar"
        return (
            f"{self.star.names.hans} {self.how} ({self.basis} {self.basis_value} → "
            f"{self.target}{where}; table: {self.variant.label})"
        )


def _natal_value(basis: str, natal: tuple[Pillar, Pillar, Pillar, Pillar]) -> int | None:
    y, m, d, h = natal
    return {
        "day_stem": int(d.stem),
        "year_stem": int(y.stem),
        "day_branch": int(d.branch),
        "year_branch": int(y.branch),
        "month_branch": int(m.branch),
        "day_pillar": d.index,
        "year_pillar": y.index,
        "hour_pillar": h.index,
        "year_nayin": int(NAYIN_OF[y.index].element),
        "year_month": int(y.branch) * 12 + int(m.branch),
    }.get(basis)


def _typed(basis: str, value: int) -> Stem | Branch | Pillar | Element | None:
    if basis.endswith("_stem"):
        return Stem(value)
    if basis.endswith("_branch"):
        return Branch(value)
    if basis.endswith("_pillar"):
        return SIXTY[value]
    if basis == "year_nayin":
        return Element(value)
    return None


def _target(kind: int, t: int) -> Stem | Branch | Pillar:
    if kind == BRANCH_TARGET:
        return Branch(t)
    if kind == PILLAR_TARGET:
        return SIXTY[t]
    return Stem(t)


def _matches(v: Variant, kind: int, t: int, p: Pillar) -> list[tuple[str, Stem | Branch | Pillar]]:
    """The components of pillar ``p`` that hold target (kind, t)."""
    if kind == BRANCH_TARGET:
        return [("branch", p.branch)] if p.branch == t else []
    if kind == PILLAR_TARGET:
        return [("pillar", p)] if p.index == t else []
    out: list[tuple[str, Stem | Branch | Pillar]] = []
    if p.stem == t:
        out.append(("stem", p.stem))
    if v.search_hidden and any(s == t for s, _ in HIDDEN[p.branch]):
        out.append(("hidden_stem", Stem(t)))
    return out


def _role(star: StarDef, v: Variant, i: int, value: int, p: Pillar) -> Role | None:
    key = v.target_roles[i] if v.target_roles else dict(v.cell_roles).get(value, "")
    if v.nayin_role and int(NAYIN_OF[p.index].element) == value:
        key = v.nayin_role
    return star.roles[key] if key else None


def _lookup(v: Variant, value: int, backward: bool) -> tuple[tuple[int, int], ...]:
    table = v.lookup_backward if v.gendered and backward else v.lookup
    return table[value] if 0 <= value < len(table) else ()


def _incoming_value(basis: str, incoming: Pillar) -> int | None:
    if basis.endswith("_stem"):
        return int(incoming.stem)
    if basis.endswith("_branch") and basis != "month_branch":
        return int(incoming.branch)
    if basis == "year_nayin":
        return int(NAYIN_OF[incoming.index].element)
    return None


def _four(natal: object) -> tuple[Pillar, Pillar, Pillar, Pillar]:
    """The four natal pillars of ``natal``, each a ``Pillar`` or its two characters."""
    if isinstance(natal, str | bytes) or not isinstance(natal, tuple | list) or len(natal) != 4:
        raise InputError("natal", f"give the four natal pillars (chart.pillars), not {clip(natal)}")
    year, month, day, hour = (Pillar.parse(p, "natal") for p in natal)
    return year, month, day, hour


def arriving(
    natal: tuple[Pillar, Pillar, Pillar, Pillar],
    incoming: Pillar,
    *,
    backward: bool = False,
    settings: BaziSettings = DEFAULT,
) -> tuple[Arrival, ...]:
    """Every star ``incoming`` (a luck or 流年 pillar) brings to or triggers in the chart of
    the four ``natal`` pillars, with the variants and bases of ``settings``.

    ``natal`` is the chart's four pillars (``chart.pillars``, or four ``Pillar``s or
    ``"甲子"``s in year, month, day, hour order); ``backward`` is ``True`` when the chart's
    luck runs backward (``"False"`` is not false)."""
    natal = _four(natal)
    incoming = Pillar.parse(incoming)
    backward = check_bool(backward, "backward")
    check_type(settings, BaziSettings, "settings", "BaziSettings")
    out: list[Arrival] = []
    natal_branches = {p.branch for p in natal}
    for n, star in enumerate(STARS):
        v = star.variant(settings.variant_ids[n])
        bases = settings.bases_of(star.key)
        # A star searched in some pillars only (童子 in day and hour, 金神 in the hour) is not
        # brought by a pillar outside the chart.
        everywhere = len(v.search) == 4
        used_kinds: set[str] = set()
        for basis in bases:
            value = _natal_value(basis, natal)
            if v.rule == "lookup" and value is not None and everywhere:
                for i, (kind, t) in enumerate(_lookup(v, value, backward)):
                    if (
                        v.nayin_filter
                        and int(NAYIN_OF[incoming.index].element) != (v.nayin_filter[value])
                    ):
                        continue
                    for component, target in _matches(v, kind, t, incoming):
                        out.append(
                            Arrival(
                                star,
                                v,
                                "brings",
                                basis,
                                _typed(basis, value),
                                target,
                                component,
                                None,
                                _role(star, v, i, value, incoming),
                            )
                        )
            elif v.rule == "pillar_set" and basis in ("day_pillar", "hour_pillar"):
                if incoming.index in v.pillars and basis == bases[0]:
                    out.append(
                        Arrival(
                            star, v, "brings", "pillar", incoming, incoming, "pillar", None, None
                        )
                    )
            elif v.rule == "void" and value is not None:
                if incoming.branch in SIXTY[value].void_branches:
                    out.append(
                        Arrival(
                            star,
                            v,
                            "brings",
                            basis,
                            SIXTY[value],
                            incoming.branch,
                            "branch",
                            None,
                            None,
                        )
                    )
            elif v.rule == "pair_present" and basis == bases[0]:
                for (a, b), role in v.pairs:
                    pair = {a, b}
                    if incoming.branch in pair and pair <= natal_branches | {incoming.branch}:
                        out.append(
                            Arrival(
                                star,
                                v,
                                "brings",
                                basis,
                                None,
                                incoming.branch,
                                "branch",
                                None,
                                star.roles[role] if role else None,
                            )
                        )
            # triggers: the incoming pillar as the basis, found in the natal pillars; its stem
            # (or branch) is one basis however many natal bases of that kind the star has.
            mine = _incoming_value(basis, incoming)
            kind_of_basis = basis.rsplit("_", 1)[-1]
            if v.rule != "lookup" or mine is None or kind_of_basis in used_kinds:
                continue
            used_kinds.add(kind_of_basis)
            for i, (kind, t) in enumerate(_lookup(v, mine, backward)):
                for pos in POSITIONS:
                    if pos not in v.search:
                        continue
                    p = natal[pos]
                    if v.nayin_filter and int(NAYIN_OF[p.index].element) != v.nayin_filter[mine]:
                        continue
                    for component, target in _matches(v, kind, t, p):
                        out.append(
                            Arrival(
                                star,
                                v,
                                "triggers",
                                basis,
                                _typed(basis, mine),
                                target,
                                component,
                                pos,
                                _role(star, v, i, mine, p),
                            )
                        )
    return tuple(out)
