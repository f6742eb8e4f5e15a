"""Symbolic stars (神煞) found in a chart, each hit saying which table it used.

For a set of settings the chosen variants are compiled once (cached) into integer-indexed
tables whose cells already hold the finished :class:`Hit` objects for every pillar position;
looking the stars up in a chart is then a handful of tuple indexings per star.  A star with
no hit gives a :class:`StarResult` with no hits: a definite "not in this chart".

Search rules (docs/bazi-rules.md §4.0): each star is entered with the bases of its variant
(``basis`` in shensha.toml) or those ``BaziSettings.star_bases`` chooses; stem-based stars
look in all four branches; branch-based stars (三合 family, 孤辰 …) look in the other three
unless the basis pillar may count (``include_basis_pillar``, or ``+self`` per star);
month-branch stars look in the four stems (天德 also in the branches, and in hidden stems for
the ``with_hidden`` variants); pillar stars test the day pillar (and the hour pillar when
chosen); pillar-target tables (天赦, 金神) compare whole pillars; 三奇 reads the run of the four
stems; 空亡 checks the day and year pillars' void branches against the other three branches.
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import NamedTuple

from mingshu.arguments import check_type
from mingshu.bazi.common import POSITIONS, Position
from mingshu.bazi.settings import DEFAULT, BaziSettings
from mingshu.bazi.stars import BRANCH_TARGET, PILLAR_TARGET, STARS, Role, StarDef, Variant
from mingshu.bazi.tables import HIDDEN, Source
from mingshu.choices import check_bool
from mingshu.cycles import SIXTY, Branch, Element, Pillar, Stem

__all__ = ["Hit", "StarResult", "compiled", "find_stars", "stars_in"]


class Hit(NamedTuple):
    """One place a symbolic star was found."""

    star: str
    """Canonical key of the star (``wen_chang``)."""
    variant: Variant
    """The table used (``variant.id``, ``variant.label``, ``variant.source``)."""
    basis: str
    """What the table was entered with: ``day_stem``, ``year_branch``, ``day_pillar`` …"""
    basis_value: Stem | Branch | Pillar | Element | None
    """The value looked up (庚 for a 庚 Day Master); ``None`` for whole-chart rules."""
    target: Stem | Branch | Pillar
    """What the table gave and the chart holds (亥 for a 庚 Day Master's Literary Star)."""
    position: Position
    """The pillar where it was found."""
    component: str
    """``branch``, ``stem``, ``hidden_stem`` or ``pillar``."""
    role: Role | None
    """A finer name where the star has one (建禄, 勾 / 绞, 天罗 / 地网, 正学堂)."""

    @property
    def source(self) -> Source:
        return self.variant.source


class StarResult(NamedTuple):
    """The outcome for one star: the table used and every hit (none is a definite result)."""

    star: StarDef
    variant: Variant
    hits: tuple[Hit, ...]

    @property
    def found(self) -> bool:
        return bool(self.hits)

    @property
    def positions(self) -> tuple[Position, ...]:
        return tuple(h.position for h in self.hits)

    def describe(self) -> str:
        """One line: ``Literary Star 文昌贵人 (table: …): year 亥, hour 亥``, or
        ``no Literary Star 文昌贵人 in this chart (table: …)``."""
        name = f"{self.star.names.english} {self.star.names.hans}"
        if not self.hits:
            return f"no {name} in this chart (table: {self.variant.label})"
        where = ", ".join(f"{h.position.key} {h.target}" for h in self.hits)
        return f"{name} (table: {self.variant.label}): {where}"


# Per-chart value slots a table can be entered with.
_SLOT = {
    "day_stem": 0,
    "year_stem": 1,
    "year_branch": 2,
    "day_branch": 3,
    "month_branch": 4,
    "day_pillar": 5,
    "year_pillar": 6,
    "year_nayin": 7,
    "chart": 8,
    "hour_pillar": 10,
    "chart_stems": 11,
    "year_month": 12,
}
_GENDERED_SLOT = 9  # year branch + 12 when luck runs backward (阴男 / 阳女)
_BASIS_POSITION = {
    "hour_pillar": Position.HOUR,
    "day_stem": Position.DAY,
    "year_stem": Position.YEAR,
    "year_branch": Position.YEAR,
    "day_branch": Position.DAY,
    "month_branch": Position.MONTH,
    "day_pillar": Position.DAY,
    "year_pillar": Position.YEAR,
    "year_nayin": Position.YEAR,
}

# Where-kinds of a compiled cell: which per-chart position index answers "where is key?".
_IN_BRANCHES, _IN_STEMS, _IN_HIDDEN, _AT_POSITION, _IN_PILLARS = 0, 1, 2, 3, 4
_COMPONENT = ("branch", "stem", "hidden_stem", "pillar", "pillar")

Hits4 = tuple[Hit | None, Hit | None, Hit | None, Hit | None]
Cell = tuple[tuple[int, int, Hits4, Hits4 | None], ...]
"""Compiled cell of one basis value: (where-kind, key, hit per position, 正 hit per position)."""
Item = tuple[int, int, Hits4]
"""(star number, index into the chart's position table, hit per position)."""

# Offsets of the where-kinds in a chart's flat position table (12 + 10 + 10 + 4 entries);
# pillar targets are checked apart (Compiled.pillar_groups).
_OFFSET = (0, 12, 22, 32)


class Compiled(NamedTuple):
    """The chosen variants of every star as integer-indexed tables of finished hits."""

    groups: tuple[tuple[int, tuple[tuple[Item, ...], ...]], ...]
    """(value slot, items by the slot's value): every star entered with that slot, merged."""
    zheng: tuple[tuple[int, int, tuple[Cell, ...], tuple[int, ...]], ...]
    """Entries that depend on the nayin of the pillar found: the hit changes role (正学堂 …)
    or counts only with the given element by basis value (咸池's 按)."""
    empty: tuple[StarResult, ...]
    variants: tuple[Variant, ...]
    needs_hidden: bool
    pillar_groups: tuple[tuple[int, tuple[tuple[tuple[int, int, Hits4], ...], ...]], ...]
    """(value slot, (star number, sixty-cycle index, hit per position) by the slot's value):
    tables whose targets are whole pillars (天赦, 金神 …), checked against the four pillars."""


def _typed_basis(basis: str, value: int) -> Stem | Branch | Pillar | Element | None:
    if basis.endswith("_stem"):
        return Stem(value)
    if basis.endswith("_branch"):
        return Branch(value % 12)
    if basis.endswith("_pillar"):
        return SIXTY[value]
    if basis in ("chart_stems", "year_month"):
        return None
    if basis == "year_nayin":
        return Element(value)
    return None


def _hits4(
    star_def: StarDef,
    variant: Variant,
    basis: str,
    value: int,
    target: Stem | Branch | Pillar,
    where: int,
    role_key: str,
    include_basis: bool,
) -> Hits4:
    basis_pos = _BASIS_POSITION.get(basis)
    position_roles = dict(variant.position_roles)
    out: list[Hit | None] = []
    for pos in POSITIONS:
        if pos not in variant.search or (pos is basis_pos and not include_basis):
            out.append(None)
            continue
        key = role_key or position_roles.get(pos, "")
        out.append(
            Hit(
                star=star_def.key,
                variant=variant,
                basis=basis,
                basis_value=_typed_basis(basis, value),
                target=target,
                position=pos,
                component=_COMPONENT[where],
                role=star_def.roles[key] if key else None,
            )
        )
    return out[0], out[1], out[2], out[3]


def _cells(
    star_def: StarDef,
    variant: Variant,
    basis: str,
    include_basis: bool,
    self_counts: bool | None = None,
) -> tuple[int, tuple[Cell, ...]]:
    """(value slot, cells) of one variant entered with one basis; ``self_counts`` (when not
    ``None``) overrides whether the basis pillar may carry the star."""
    include = {"always": True, "never": False}.get(variant.basis_pillar, include_basis)
    if self_counts is not None:
        include = self_counts
    cells: list[Cell] = []
    if variant.rule == "lookup":
        gendered = variant.gendered
        slot = _GENDERED_SLOT if gendered else _SLOT[basis]
        domain = len(variant.lookup) * (2 if gendered else 1)
        cell_roles = dict(variant.cell_roles)
        for value in range(domain):
            plain = value % len(variant.lookup)
            targets = (
                variant.lookup_backward[plain]
                if gendered and value >= len(variant.lookup)
                else variant.lookup[plain]
            )
            cell: list[tuple[int, int, Hits4, Hits4 | None]] = []
            for i, (kind, t) in enumerate(targets):
                role = (
                    variant.target_roles[i] if variant.target_roles else cell_roles.get(plain, "")
                )
                kinds = (
                    [_IN_BRANCHES]
                    if kind == BRANCH_TARGET
                    else [_IN_PILLARS]
                    if kind == PILLAR_TARGET
                    else [_IN_STEMS]
                )
                if kind != BRANCH_TARGET and kind != PILLAR_TARGET and variant.search_hidden:
                    kinds.append(_IN_HIDDEN)
                typed: Stem | Branch | Pillar = (
                    Branch(t)
                    if kind == BRANCH_TARGET
                    else SIXTY[t]
                    if kind == PILLAR_TARGET
                    else Stem(t)
                )
                for where in kinds:
                    args = (star_def, variant, basis, plain, typed, where)
                    zheng = (
                        _hits4(*args, variant.nayin_role, include) if variant.nayin_role else None
                    )
                    cell.append((where, t, _hits4(*args, role, include), zheng))
            cells.append(tuple(cell))
        return slot, tuple(cells)
    if variant.rule == "pillar_set":
        pos = _BASIS_POSITION[basis]
        for value in range(60):
            if value in variant.pillars:
                h = _hits4(star_def, variant, basis, value, SIXTY[value], _AT_POSITION, "", True)
                cells.append(((_AT_POSITION, pos, h, None),))
            else:
                cells.append(())
        return _SLOT[basis], tuple(cells)
    if variant.rule == "void":
        for value in range(60):
            cells.append(
                tuple(
                    (
                        _IN_BRANCHES,
                        int(b),
                        _hits4(star_def, variant, basis, value, b, _IN_BRANCHES, "", include),
                        None,
                    )
                    for b in SIXTY[value].void_branches
                )
            )
        return _SLOT[basis], tuple(cells)
    if variant.rule == "stem_run":
        return _SLOT["chart_stems"], _stem_run_cells(star_def, variant, basis)
    # pair_present: the slot is the 12-bit mask of branches standing in the chart.
    for mask in range(4096):
        cell_list: list[tuple[int, int, Hits4, Hits4 | None]] = []
        for (a, b), role in variant.pairs:
            if mask >> a & 1 and mask >> b & 1:
                for branch in (a, b):
                    h = _hits4(star_def, variant, basis, 0, branch, _IN_BRANCHES, role, True)
                    cell_list.append((_IN_BRANCHES, int(branch), h, None))
        cells.append(tuple(cell_list))
    return _SLOT["chart"], tuple(cells)


def _stem_run_cells(star_def: StarDef, variant: Variant, basis: str) -> tuple[Cell, ...]:
    """Cells by the four stems (year·1000 + month·100 + day·10 + hour): three stems of a run
    standing in three adjacent pillars, in order (or backward when the variant allows it)."""
    cells: list[Cell] = []
    for value in range(10_000):
        stems = (value // 1000, value // 100 % 10, value // 10 % 10, value % 10)
        cell: list[tuple[int, int, Hits4, Hits4 | None]] = []
        for run, role in variant.runs:
            orders = [run, run[::-1]] if variant.reversible else [run]
            for start in (0, 1):
                if stems[start : start + 3] in orders:
                    for pos in range(start, start + 3):
                        h = _hits4(
                            star_def, variant, basis, 0, Stem(stems[pos]), _AT_POSITION, role, True
                        )
                        only = tuple(x if i == pos else None for i, x in enumerate(h))
                        cell.append((_AT_POSITION, pos, (only[0], only[1], only[2], only[3]), None))
                    break
        cells.append(tuple(cell))
    return tuple(cells)


BasesChoice = tuple[tuple[str, ...] | None, bool | None]
"""Per star: the bases chosen (``None``: the variant's default) and whether the basis pillar
counts (``None``: the variant's rule, then ``BaziSettings.include_basis_pillar``)."""


@lru_cache(maxsize=64)
def _compile(
    variant_ids: tuple[str, ...], include_basis: bool, bases_chosen: tuple[BasesChoice, ...]
) -> Compiled:
    by_slot: dict[int, list[list[Item]]] = {}
    zheng = []
    variants = []
    empty = []
    needs_hidden = False
    by_slot_p: dict[int, list[list[tuple[int, int, Hits4]]]] = {}
    for n, (star_def, variant_id) in enumerate(zip(STARS, variant_ids, strict=True)):
        variant = star_def.variant(variant_id)
        variants.append(variant)
        empty.append(StarResult(star_def, variant, ()))
        needs_hidden = needs_hidden or variant.search_hidden
        chosen, self_counts = bases_chosen[n] if bases_chosen else (None, None)
        bases = chosen if chosen is not None else variant.basis
        for basis in bases:
            slot, cells = _cells(star_def, variant, basis, include_basis, self_counts)
            if variant.nayin_role or variant.nayin_filter:
                zheng.append((n, slot, cells, variant.nayin_filter))
                continue
            merged = by_slot.setdefault(slot, [[] for _ in cells])
            merged_p = by_slot_p.setdefault(slot, [[] for _ in cells])
            for value, cell in enumerate(cells):
                for w, key, h, _ in cell:
                    if w == _IN_PILLARS:
                        merged_p[value].append((n, key, h))
                    else:
                        merged[value].append((n, _OFFSET[w] + key, h))
    groups = tuple(
        (slot, tuple(tuple(items) for items in table)) for slot, table in sorted(by_slot.items())
    )
    pillar_groups = tuple(
        (slot, tuple(tuple(items) for items in table))
        for slot, table in sorted(by_slot_p.items())
        if any(table)
    )
    return Compiled(
        groups, tuple(zheng), tuple(empty), tuple(variants), needs_hidden, pillar_groups
    )


def compiled(settings: BaziSettings = DEFAULT) -> Compiled:
    """The compiled star tables for ``settings`` (cached)."""
    return _compile(settings.variant_ids, settings.include_basis_pillar, settings.bases_chosen)


@cache
def _branch_index(yb: int, mb: int, db: int, hb: int) -> tuple[tuple[tuple[int, ...], ...], int]:
    """(positions holding each branch, 12-bit mask of the branches present)."""
    where: list[tuple[int, ...]] = [()] * 12
    for pos, b in enumerate((yb, mb, db, hb)):
        where[b] = (*where[b], pos)
    return tuple(where), (1 << yb) | (1 << mb) | (1 << db) | (1 << hb)


@cache
def _stem_index(ys: int, ms: int, ds: int, hs: int) -> tuple[tuple[int, ...], ...]:
    where: list[tuple[int, ...]] = [()] * 10
    for pos, s in enumerate((ys, ms, ds, hs)):
        where[s] = (*where[s], pos)
    return tuple(where)


@cache
def _hidden_index(yb: int, mb: int, db: int, hb: int) -> tuple[tuple[int, ...], ...]:
    where: list[tuple[int, ...]] = [()] * 10
    for pos, b in enumerate((yb, mb, db, hb)):
        for s, _role in HIDDEN[b]:
            where[s] = (*where[s], pos)
    return tuple(where)


_AT = ((0,), (1,), (2,), (3,))


def _position_of(hit: Hit) -> int:
    return hit.position


def find_stars(
    table: Compiled,
    year: Pillar,
    month: Pillar,
    day: Pillar,
    hour: Pillar,
    nayin_elements: tuple[int, int, int, int],
    backward: bool,
) -> tuple[StarResult, ...]:
    """Every star of ``table`` in the chart of the four pillars.

    ``nayin_elements``: element of each pillar's nayin (year first); ``backward``: the luck
    runs backward (阴男 / 阳女), which picks the table of gender-dependent stars.
    """
    yb, mb, db, hb = year.branch, month.branch, day.branch, hour.branch
    in_branches, mask = _branch_index(yb, mb, db, hb)
    in_stems = _stem_index(year.stem, month.stem, day.stem, hour.stem)
    in_hidden = _hidden_index(yb, mb, db, hb) if table.needs_hidden else in_stems
    where = in_branches + in_stems + in_hidden + _AT
    values = (
        day.stem,
        year.stem,
        yb,
        db,
        mb,
        day.index,
        year.index,
        nayin_elements[0],
        mask,
        yb + 12 if backward else yb,
        hour.index,
        year.stem * 1000 + month.stem * 100 + day.stem * 10 + hour.stem,
        yb * 12 + mb,
    )
    grouped: dict[int, list[Hit]] = {}
    for slot, items_by_value in table.groups:
        for n, at, hits4 in items_by_value[values[slot]]:
            ps = where[at]
            if ps:
                for pos in ps:
                    hit = hits4[pos]
                    if hit is not None:
                        if n in grouped:
                            grouped[n].append(hit)
                        else:
                            grouped[n] = [hit]
    if table.pillar_groups:
        indices = (year.index, month.index, day.index, hour.index)
        for slot, pillar_items in table.pillar_groups:
            for n, key, hits4 in pillar_items[values[slot]]:
                for pos in range(4):
                    if indices[pos] == key:
                        hit = hits4[pos]
                        if hit is not None:
                            grouped.setdefault(n, []).append(hit)
    for n, slot, cells, nayin_filter in table.zheng:
        value = values[slot]
        for kind, key, hits4, zheng4 in cells[value]:
            for pos in where[_OFFSET[kind] + key]:
                if nayin_filter and nayin_elements[pos] != nayin_filter[value]:
                    continue
                hit = hits4[pos]
                if hit is not None and zheng4 is not None and nayin_elements[pos] == value:
                    hit = zheng4[pos]
                if hit is not None:
                    grouped.setdefault(n, []).append(hit)
    if not grouped:
        return table.empty
    results = list(table.empty)
    variants = table.variants
    for n, hits in grouped.items():
        if len(hits) > 1:
            hits.sort(key=_position_of)  # stable: bases keep their order within a pillar
        results[n] = StarResult(STARS[n], variants[n], tuple(hits))
    return tuple(results)


def stars_in(
    year: Pillar,
    month: Pillar,
    day: Pillar,
    hour: Pillar,
    *,
    backward: bool = False,
    settings: BaziSettings = DEFAULT,
) -> tuple[StarResult, ...]:
    """Symbolic stars of four given pillars (no birth moment needed).

    ``backward`` matters only for gender-dependent stars (勾绞, 元辰): true for a man born in
    a yin year or a woman born in a yang year.  Each pillar is a ``Pillar`` or ``"甲子"``.
    """
    from mingshu.bazi.tables import NAYIN_OF

    year, month = Pillar.parse(year, "year"), Pillar.parse(month, "month")
    day, hour = Pillar.parse(day, "day"), Pillar.parse(hour, "hour")
    backward = check_bool(backward, "backward")
    check_type(settings, BaziSettings, "settings", "BaziSettings")

    elements = (
        int(NAYIN_OF[year.index].element),
        int(NAYIN_OF[month.index].element),
        int(NAYIN_OF[day.index].element),
        int(NAYIN_OF[hour.index].element),
    )
    return find_stars(compiled(settings), year, month, day, hour, elements, backward)
