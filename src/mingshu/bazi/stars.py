"""The catalogue of symbolic stars (神煞) read from ``bazi/data/shensha.toml``.

One :class:`StarDef` per star, one :class:`Variant` per table (books disagree; each table is
named and sourced).  The engine that looks stars up in a chart is :mod:`mingshu.bazi.shensha`.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, NamedTuple

from mingshu.bazi.common import Position
from mingshu.bazi.tables import Source, load, names_of
from mingshu.cycles import Branch, Element, Names, Pillar, Stem
from mingshu.errors import InputError
from mingshu.named import clip

__all__ = [
    "BASES",
    "RULES",
    "STARS",
    "STAR_BY_KEY",
    "TARGETS",
    "Role",
    "StarDef",
    "Variant",
    "star",
    "star_by_name",
]

BASES = (
    "day_stem",
    "year_stem",
    "day_branch",
    "year_branch",
    "month_branch",
    "day_pillar",
    "year_pillar",
    "hour_pillar",
    "year_nayin",
    "chart",
    "chart_stems",
    "year_month",
)
"""Every basis a variant may name (see the header of shensha.toml)."""
RULES = ("lookup", "pillar_set", "void", "pair_present", "stem_run")
TARGETS = ("branch", "stem", "stem_or_branch", "pillar", "stems")
_BASIS_PILLAR = ("always", "never", "setting")

# Target kinds in the compiled tables.
BRANCH_TARGET = 0
STEM_TARGET = 1
PILLAR_TARGET = 2

_ELEMENT_BY_HANS = {e.names.hans: e for e in Element}


class Role(NamedTuple):
    """A named role a hit can carry (勾 / 绞, 岁禄 / 建禄 …, 正学堂, 天罗 / 地网)."""

    key: str
    names: Names

    def __str__(self) -> str:
        return self.names.hans


class Variant(NamedTuple):
    """One table of one star, with how it is searched and where it comes from."""

    star: str
    id: str
    label: str
    rule: str
    basis: tuple[str, ...]
    """The default bases (what the table is entered with unless settings choose others)."""
    bases: tuple[str, ...]
    """Every basis the table may be entered with (``BaziSettings.star_bases`` picks a subset)."""
    basis_note: str
    """Why the default basis is the default (the source's own example, or a convention)."""
    target: str
    search: tuple[Position, ...]
    search_hidden: bool
    basis_pillar: str
    cells: tuple[tuple[str, str], ...]
    """The table as written in the data file: (basis value, target characters)."""
    cells_backward: tuple[tuple[str, str], ...]
    """For gender-dependent stars, the table for 阴男 / 阳女 (``cells`` is for 阳男 / 阴女)."""
    lookup: tuple[tuple[tuple[int, int], ...], ...]
    """``lookup[basis value]`` → ((target kind, target value), …); kind 0 = branch, 1 = stem."""
    lookup_backward: tuple[tuple[tuple[int, int], ...], ...]
    pillars: frozenset[int]
    """``pillar_set`` rule: sixty-cycle indices of the listed pillars."""
    pairs: tuple[tuple[tuple[Branch, Branch], str], ...]
    """``pair_present`` rule: (the two branches, role key)."""
    target_roles: tuple[str, ...]
    cell_roles: tuple[tuple[int, str], ...]
    position_roles: tuple[tuple[Position, str], ...]
    nayin_role: str
    nayin_filter: tuple[int, ...]
    """By basis value: the nayin element (int) the pillar found must have; empty: no filter."""
    runs: tuple[tuple[tuple[int, int, int], str], ...]
    """``stem_run`` rule: (three stems in order, role key); ``reversible``: also backward."""
    reversible: bool
    source: Source
    also: tuple[Source, ...] = ()
    """Further passages, each for the cells it states (``Source.cells``), where ``source``
    does not state every cell."""

    @property
    def gendered(self) -> bool:
        return bool(self.lookup_backward)

    def __str__(self) -> str:
        return self.label


class StarDef(NamedTuple):
    """A symbolic star: key, names, its variants (tables) and the default one."""

    key: str
    names: Names
    spec: str
    default: str
    variants: tuple[Variant, ...]
    roles: MappingProxyType[str, Role]

    def variant(self, variant_id: str) -> Variant:
        for v in self.variants:
            if v.id == variant_id:
                return v
        known = ", ".join(v.id for v in self.variants)
        raise InputError(
            "variant", f"{self.key} has no variant {clip(variant_id)} (it has {known})"
        )

    @property
    def variant_ids(self) -> tuple[str, ...]:
        return tuple(v.id for v in self.variants)

    def __str__(self) -> str:
        return self.names.hans


def _basis_value(basis: str, text: str) -> int:
    """Parse a table key for ``basis``: a stem, a branch, a nayin element character, a pillar,
    or (``year_month``) the year branch and the month branch."""
    if basis == "year_month":
        return int(Branch.parse(text[0])) * 12 + int(Branch.parse(text[1]))
    if basis.endswith("_stem"):
        return int(Stem.parse(text))
    if basis.endswith("_branch"):
        return int(Branch.parse(text))
    if basis == "year_nayin":
        return int(_ELEMENT_BY_HANS[text])
    if basis.endswith("_pillar"):
        return Pillar.parse(text).index
    raise ValueError(f"a table cannot be keyed by {basis}")


def _domain(basis: str) -> int:
    if basis == "year_month":
        return 144
    if basis.endswith("_stem"):
        return 10
    if basis.endswith("_branch"):
        return 12
    if basis == "year_nayin":
        return 5
    if basis.endswith("_pillar"):
        return 60
    raise ValueError(f"a table cannot be keyed by {basis}")


def _targets(target: str, text: str) -> tuple[tuple[int, int], ...]:
    if target == "pillar":
        words = text.split()
        return tuple((PILLAR_TARGET, Pillar.parse(w).index) for w in words)
    out = []
    for char in text:
        if target in ("stem", "stem_or_branch"):
            try:
                out.append((STEM_TARGET, int(Stem.parse(char))))
                continue
            except ValueError:
                if target == "stem":
                    raise
        out.append((BRANCH_TARGET, int(Branch.parse(char))))
    return tuple(out)


def _table(
    basis: str, target: str, cells: dict[str, str]
) -> tuple[tuple[tuple[int, int], ...], ...]:
    table: list[tuple[tuple[int, int], ...] | None] = [None] * _domain(basis)
    for key, text in cells.items():
        table[_basis_value(basis, key)] = _targets(target, text)
    if basis.endswith("_pillar") or basis == "year_month":  # sparse: unlisted give nothing
        return tuple(cell or () for cell in table)
    if any(cell is None for cell in table):
        raise ValueError(f"the table misses a value of {basis}")
    return tuple(cell if cell is not None else () for cell in table)


def _nayin_filter(basis: str, cells: dict[str, str]) -> tuple[int, ...]:
    if not cells:
        return ()
    out = [-1] * _domain(basis)
    for key, element in cells.items():
        out[_basis_value(basis, key)] = int(_ELEMENT_BY_HANS[element])
    if -1 in out:
        raise ValueError("nayin_filter misses a value of the basis")
    return tuple(out)


def _variant(star_key: str, row: dict[str, Any]) -> Variant:
    where = f"shensha.toml: {star_key}.{row.get('id')}"
    try:
        rule = row["rule"]
        basis = tuple(row["basis"])
        bases = tuple(row.get("bases", basis))
        extra = tuple(b for b in bases if b not in basis)
        target = row["target"]
        if rule not in RULES or target not in TARGETS:
            raise ValueError(f"unknown rule {rule!r} or target {target!r}")
        if row["basis_pillar"] not in _BASIS_PILLAR:
            raise ValueError(f"basis_pillar must be one of {_BASIS_PILLAR}")
        for b in bases:
            if b not in BASES:
                raise ValueError(f"unknown basis {b!r}")
        if not set(basis) <= set(bases):
            raise ValueError("the default bases must be among the allowed bases")
        cells = {str(k): str(v) for k, v in row.get("table", {}).items()}
        cells_back = {str(k): str(v) for k, v in row.get("table_backward", {}).items()}
        lookup: tuple[tuple[tuple[int, int], ...], ...] = ()
        lookup_back: tuple[tuple[tuple[int, int], ...], ...] = ()
        if rule == "lookup":
            kinds = {_domain(b) for b in basis + extra}
            if len(kinds) != 1:
                raise ValueError("all bases of a lookup table must share one kind of key")
            lookup = _table(basis[0], target, cells)
            if cells_back:
                lookup_back = _table(basis[0], target, cells_back)
        cell_roles = tuple(
            (_basis_value(basis[0], k), v) for k, v in row.get("cell_roles", {}).items()
        )
        return Variant(
            star=star_key,
            id=row["id"],
            label=row["label"],
            rule=rule,
            basis=basis,
            bases=basis + extra,
            basis_note=row.get("basis_note", ""),
            target=target,
            search=tuple(Position[p.upper()] for p in row["search"]),
            search_hidden=bool(row.get("search_hidden", False)),
            basis_pillar=row["basis_pillar"],
            cells=tuple(cells.items()),
            cells_backward=tuple(cells_back.items()),
            lookup=lookup,
            lookup_backward=lookup_back,
            pillars=frozenset(Pillar.parse(p).index for p in row.get("pillars", "").split()),
            pairs=tuple(
                ((Branch.parse(p["branches"][0]), Branch.parse(p["branches"][1])), p["role"])
                for p in row.get("pairs", ())
            ),
            target_roles=tuple(row.get("target_roles", ())),
            cell_roles=cell_roles,
            position_roles=tuple(
                (Position[k.upper()], v) for k, v in row.get("position_roles", {}).items()
            ),
            nayin_role=row.get("nayin_role", ""),
            nayin_filter=_nayin_filter(basis[0], row.get("nayin_filter", {})),
            runs=tuple(
                (
                    (
                        int(Stem.parse(r["stems"][0])),
                        int(Stem.parse(r["stems"][1])),
                        int(Stem.parse(r["stems"][2])),
                    ),
                    r.get("role", ""),
                )
                for r in row.get("runs", ())
            ),
            reversible=bool(row.get("reversible", False)),
            source=Source.from_row(row["source"]),
            also=tuple(Source.from_row(a) for a in row.get("also", ())),
        )
    except (KeyError, ValueError) as e:
        raise RuntimeError(f"{where}: {e}") from e


def _load() -> tuple[StarDef, ...]:
    stars = []
    for row in load("shensha.toml")["star"]:
        key = row["key"]
        variants = tuple(_variant(key, v) for v in row["variant"])
        roles = {k: Role(k, names_of(r)) for k, r in row.get("roles", {}).items()}
        star_def = StarDef(
            key=key,
            names=names_of(row),
            spec=row["spec"],
            default=row["default"],
            variants=variants,
            roles=MappingProxyType(roles),
        )
        star_def.variant(star_def.default)  # the default must exist
        for v in variants:
            used = (
                set(v.target_roles)
                | {r for _, r in v.cell_roles}
                | {r for _, r in v.position_roles}
                | {r for _, r in v.pairs}
                | ({v.nayin_role} if v.nayin_role else set())
                | {r for _, r in v.runs if r}
            )
            if not used <= roles.keys():
                raise RuntimeError(f"shensha.toml: {key}.{v.id} uses undefined roles")
        stars.append(star_def)
    if len({s.key for s in stars}) != len(stars):
        raise RuntimeError("shensha.toml: duplicate star key")
    return tuple(stars)


STARS: tuple[StarDef, ...] = _load()
"""Every star, in the order of the data file."""
STAR_BY_KEY: MappingProxyType[str, StarDef] = MappingProxyType({s.key: s for s in STARS})


def _name_index() -> dict[str, StarDef]:
    """Every spelling of every star in lower case; a name two stars share is left out."""
    seen: dict[str, set[str]] = {}
    for s in STARS:
        for text in (s.names.hans, s.names.hant, s.names.pinyin, s.names.english):
            if text:
                seen.setdefault(text.strip().lower(), set()).add(s.key)
    index = {text: STAR_BY_KEY[next(iter(k))] for text, k in seen.items() if len(k) == 1}
    index.update((s.key, s) for s in STARS)
    return index


_BY_NAME = _name_index()


def star_by_name(name: object) -> StarDef | None:
    """A star by its key or any of its names; ``None`` if there is none."""
    return _BY_NAME.get(name.strip().lower()) if isinstance(name, str) else None


def star(name: str) -> StarDef:
    """The star with key ``name`` (``"wen_chang"``) or any of its names (``"文昌贵人"``);
    :class:`InputError` if there is none."""
    found = star_by_name(name)
    if found is None:
        raise InputError("star", f"no symbolic star {clip(name)} (see mingshu.bazi.STARS)")
    return found
