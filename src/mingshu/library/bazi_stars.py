"""Symbolic stars on BaZi charts, as tables and answers: how a star's tables differ and
what stands behind each, and where a star sits on a chart.

Which table a star uses, what it is entered with, which pillars it searches and whether the
pillar that gives the basis may carry the star: read from ``bazi/data/shensha.toml`` through
:mod:`mingshu.bazi.stars`, and hits on charts from :func:`mingshu.bazi.stars_in` (or a real
birth through :func:`mingshu.bazi.chart`).  Nothing here is typed in.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Final

from mingshu.bazi.common import POSITIONS, Position
from mingshu.bazi.settings import BaziSettings, LateRatHour
from mingshu.bazi.shensha import Hit, StarResult
from mingshu.bazi.stars import BRANCH_TARGET, PILLAR_TARGET, STARS, StarDef, Variant, star
from mingshu.choices import check_choice
from mingshu.cycles import SIXTY, Branch, Element, Pillar, Stem
from mingshu.errors import InputError
from mingshu.library.engine import (
    BASIS_WORDS,
    Options,
    Table,
    branch_name,
    branch_number,
    stem_name,
)

_TARGET_WORDS: Final = {
    "branch": "branch",
    "stem": "stem",
    "stem_or_branch": "stem or branch",
    "pillar": "pillar",
    "stems": "stem run",
}
_PILLAR_WORDS: Final = {"always": "yes", "never": "no", "setting": "by setting (off)"}


def _star(key: object) -> StarDef:
    return star(str(key))


def _words(bases: Sequence[str]) -> str:
    return ", ".join(BASIS_WORDS[b] for b in bases)


def target_name(target: Stem | Branch | Pillar) -> str:
    if isinstance(target, Branch):
        return branch_name(int(target))
    if isinstance(target, Stem):
        return stem_name(int(target))
    return str(target)


def settings_of(options: Options) -> BaziSettings:
    """Settings from an article's options: ``variants``, ``bases`` (star → choice),
    ``include_basis_pillar`` and ``late_rat_hour`` (which day a 23:00–24:00 birth takes)."""
    return BaziSettings(
        star_variants=dict(options.get("variants") or {}),
        star_bases=dict(options.get("bases") or {}),
        include_basis_pillar=bool(options.get("include_basis_pillar", False)),
        late_rat_hour=check_choice(
            LateRatHour, options.get("late_rat_hour", LateRatHour.NEXT_DAY), "late_rat_hour"
        ),
    )


def results_of(options: Options) -> tuple[StarResult, ...]:
    """Every star's result on the chart the options name: ``birth`` (date, time, gender, as
    :func:`mingshu.bazi.chart` takes them) or ``pillars`` ("庚午 辛巳 庚辰 辛巳")."""
    from mingshu import bazi

    settings = settings_of(options)
    if "birth" in options:
        b = options["birth"]
        missing = [
            k for k in ("date", "time", "gender") if not isinstance(b, Mapping) or k not in b
        ]
        if missing:
            raise InputError("birth", f"give date, time and gender ({', '.join(missing)} missing)")
        chart = bazi.chart(str(b["date"]), str(b["time"]), str(b["gender"]), settings=settings)
        return chart.stars
    text = str(options.get("pillars", ""))
    words = text.split()
    if len(words) != 4:
        raise InputError("pillars", f"give four pillars (year month day hour), not {text!r}")
    year, month, day, hour = (Pillar.parse(w) for w in words)
    return bazi.stars_in(year, month, day, hour, settings=settings)


def result_of(options: Options, key: object) -> StarResult:
    wanted = _star(key)
    return next(r for r in results_of(options) if r.star is wanted)


# --------------------------------------------------------------- the tables of a star


def _disagreeing(a: Variant, b: Variant) -> list[int]:
    """Basis values (stem or branch numbers) where two lookup tables give other targets."""
    return [i for i, (x, y) in enumerate(zip(a.lookup, b.lookup, strict=True)) if x != y]


def _key_name(basis: str, value: int) -> str:
    return stem_name(value) if basis.endswith("_stem") else branch_name(value)


def variant_disagreement(options: Options) -> Table:
    """Per star and per other table: on how many keys (stems or branches) it gives other
    targets than the default table, and which keys.  Marked: tables that differ nowhere."""
    rows: list[tuple[str, ...]] = []
    marked: set[tuple[int, int]] = set()
    for key in options.get("stars", []):
        s = _star(key)
        default = s.variant(s.default)
        for other in s.variants:
            if other is default or other.rule != "lookup" or other.basis != default.basis:
                continue
            keys = _disagreeing(default, other)
            where = ", ".join(_key_name(default.basis[0], k) for k in keys) or "none"
            if len(keys) > 3:
                kind = "stems" if default.basis[0].endswith("_stem") else "branches"
                where = f"{len(keys)} {kind}"
            if not keys:
                marked.add((len(rows), 3))
            rows.append(
                (
                    str(s.names.english),
                    default.id,
                    other.id,
                    f"{len(keys)} of {len(other.lookup)}",
                    where,
                )
            )
    return Table(
        ("Star", "Default table", "Other table", "Keys that differ", "Which"),
        tuple(rows),
        frozenset(marked),
        "the two tables never differ",
    )


def variant_sources(options: Options) -> Table:
    """Each table of the stars named: its id, whether it is the default, what it is entered
    with, and the standing of its source (primary, secondary, convention)."""
    rows: list[tuple[str, ...]] = []
    marked: set[tuple[int, int]] = set()
    for key in options.get("stars", []):
        s = _star(key)
        for v in s.variants:
            if v.source.status == "convention":
                marked.add((len(rows), 4))
            rows.append(
                (
                    str(s.names.english),
                    v.id,
                    "default" if v.id == s.default else "—",
                    _words(v.basis),
                    str(v.source.status),
                )
            )
    return Table(
        ("Star", "Table", "Default", "Entered with", "Source"),
        tuple(rows),
        frozenset(marked),
        "no text found: the table is a convention",
    )


def _places(result: StarResult) -> str:
    by_pos: dict[Position, list[Hit]] = {}
    for h in result.hits:
        by_pos.setdefault(h.position, []).append(h)
    return ", ".join(f"{pos.key} {target_name(hits[0].target)}" for pos, hits in by_pos.items())


def p_star_hits(q: Options) -> str:
    """Where a star stands on a chart: ``year Horse, hour Horse`` or ``not in the chart``."""
    return _places(result_of(q, q["star"])) or "not in the chart"


def p_tables_finding(q: Options) -> str:
    """Which of a star's tables find it anywhere on the chart (ids), or ``none``."""
    s = _star(q["star"])
    found = []
    for v in s.variants:
        chosen = {**dict(q.get("variants") or {}), s.key: v.id}
        if result_of({**q, "variants": chosen}, s.key).hits:
            found.append(v.id)
    return " and ".join(found) or "none"


def _target_text(kind: int, value: int) -> str:
    if kind == PILLAR_TARGET:
        return str(SIXTY[value])
    return branch_name(value) if kind == BRANCH_TARGET else stem_name(value)


def star_cells(options: Options) -> Table:
    """Several star tables keyed alike (``tables``: ``[star, variant, head]``), one row per
    key (stems, nayin elements, or branches from ``start``), each cell the targets its table
    gives ("—" for none).  Marked: cells equal to the first table's, ``marked`` naming the
    rule."""
    tables = options.get("tables")
    if not (isinstance(tables, list) and tables and all(isinstance(t, list) for t in tables)):
        raise InputError("tables", "give the tables as [[star, variant, head], …]")
    if any(len(t) != 3 for t in tables):
        raise InputError("tables", "each table is [star, variant, column head]")
    variants = [_star(key).variant(str(v)) for key, v, _ in tables]
    size = len(variants[0].lookup)
    if any(len(v.lookup) != size or v.rule != "lookup" for v in variants):
        raise InputError("tables", "the tables must be look-up tables keyed alike")
    # Keys by the table's size: ten stems, twelve branches (from ``start``), five elements.
    keyed = {
        10: ("Stem", stem_name),
        12: ("Branch", branch_name),
        5: ("Element", lambda e: str(Element(e).names.english)),
    }
    if size not in keyed:
        raise InputError("tables", "the tables must be keyed by a stem, a branch or an element")
    head, name = keyed[size]
    first = branch_number(options.get("start", 0), "start") if size == 12 else 0
    rows: list[tuple[str, ...]] = []
    marked: set[tuple[int, int]] = set()
    for r, key in enumerate((first + i) % size for i in range(size)):
        cells = [sorted(v.lookup[key]) for v in variants]
        marked |= {(r, c) for c, cell in enumerate(cells[1:], start=2) if cell == cells[0]}
        texts = (", ".join(_target_text(k, t) for k, t in cell) or "—" for cell in cells)
        rows.append((name(key), *texts))
    return Table(
        (str(options.get("key_head", head)), *(str(h) for _, _, h in tables)),
        tuple(rows),
        frozenset(marked),
        str(options.get("marked", f"the same as {tables[0][2]}")),
    )


def _pillar_list(v: Variant, field: str) -> list[Pillar]:
    if v.rule != "pillar_set":
        raise InputError(field, f"{v.star} {v.id} is not a list of pillars")
    return [SIXTY[i] for i in sorted(v.pillars)]


def pillar_sets(options: Options) -> Table:
    """Lists of day pillars (``tables``: ``[star, variant]``): each one's days in sixty-cycle
    order and how many of the sixty they are.  Marked: the star's default table."""
    tables = options.get("tables")
    if not (isinstance(tables, list) and tables and all(isinstance(t, list) for t in tables)):
        raise InputError("tables", "give the tables as [[star, variant], …]")
    if any(len(t) != 2 for t in tables):
        raise InputError("tables", "each table is [star, variant]")
    rows: list[tuple[str, ...]] = []
    marked: set[tuple[int, int]] = set()
    for key, variant in tables:
        s = _star(key)
        v = s.variant(str(variant))
        days = _pillar_list(v, "tables")
        if v.id == s.default:
            marked.add((len(rows), 1))
        rows.append((str(s.names.english), v.id, str(len(days)), " ".join(map(str, days))))
    return Table(
        ("Star", "Table", "Days of 60", "Day pillars"),
        tuple(rows),
        frozenset(marked),
        "the engine's default table",
    )


def shared_pillars(options: Options) -> Table:
    """Every pillar of the sixty that the default lists of two or more of the ``stars`` hold,
    with those stars."""
    by_pillar: dict[int, list[str]] = {}
    for key in options.get("stars", []):
        s = _star(key)
        for p in _pillar_list(s.variant(s.default), "stars"):
            by_pillar.setdefault(p.index, []).append(str(s.names.english))
    rows = tuple(
        (str(SIXTY[i]), "; ".join(names))
        for i, names in sorted(by_pillar.items())
        if len(names) > 1
    )
    return Table(("Day pillar", "Stars"), rows)


# -------------------------------------------------------------- where a star sits


def _searched(v: Variant) -> str:
    if v.rule == "pillar_set":  # the basis pillar itself is tested, nothing else
        return ", ".join(b.removesuffix("_pillar") for b in v.basis)
    return ", ".join(p.key for p in v.search) if len(v.search) < 4 else "all four"


def star_sites(options: Options) -> Table:
    """Per star under the default settings: what its table is entered with, which other bases
    a setting may choose, the pillars searched, and whether the basis pillar may carry it."""
    rows: list[tuple[str, ...]] = []
    marked: set[tuple[int, int]] = set()
    for key in options.get("stars", []):
        s = _star(key)
        v = s.variant(s.default)
        extra = [b for b in v.bases if b not in v.basis]
        if v.basis_pillar == "setting":
            marked.add((len(rows), 5))
        rows.append(
            (
                str(s.names.english),
                _words(v.basis),
                _words(extra) or "—",
                _TARGET_WORDS[v.target],
                _searched(v),
                _PILLAR_WORDS[v.basis_pillar],
            )
        )
    return Table(
        ("Star", "Entered with", "May also use", "Looks for", "Searched", "Basis pillar counts"),
        tuple(rows),
        frozenset(marked),
        "include_basis_pillar or +self decides",
    )


def chart_hits(options: Options) -> Table:
    """A real chart: per star, what stands in each pillar and which basis found it."""
    results = {r.star.key: r for r in results_of(options)}
    rows: list[tuple[str, ...]] = []
    marked: set[tuple[int, int]] = set()
    for key in options.get("stars", []):
        r = results[_star(key).key]
        cells = []
        for c, pos in enumerate(POSITIONS, start=1):
            hits = [h for h in r.hits if h.position is pos]
            if not hits:
                cells.append("—")
                continue
            marked.add((len(rows), c))
            by = _words(tuple(dict.fromkeys(h.basis for h in hits)))
            cells.append(f"{target_name(hits[0].target)} (by {by})")
        rows.append((str(r.star.names.english), *cells))
    return Table(
        ("Star", "Year", "Month", "Day", "Hour"),
        tuple(rows),
        frozenset(marked),
        "the star stands in this pillar",
    )


def p_hit_basis(q: Options) -> str:
    """Which basis found a star in one pillar of a chart (``year branch``), or ``none``."""
    pos = Position[str(q["pillar"]).upper()]
    hits = [h for h in result_of(q, q["star"]).hits if h.position is pos]
    return " and ".join(BASIS_WORDS[b] for b in dict.fromkeys(h.basis for h in hits)) or "none"


# Branch-keyed stars whose basis pillar counts only by setting (the 三合 family and others):
# every arrangement of four branches, searched with include_basis_pillar off and on.
_LAYOUTS: Final = 12**4
_BASIS_AT: Final = {
    "year_branch": Position.YEAR,
    "month_branch": Position.MONTH,
    "day_branch": Position.DAY,
}


def self_counting_stars() -> tuple[StarDef, ...]:
    """Stars whose default table is keyed by a branch and whose basis pillar counts only
    when a setting says so."""
    return tuple(
        s
        for s in STARS
        if (v := s.variant(s.default)).rule == "lookup"
        and v.basis_pillar == "setting"
        and all(b.endswith("_branch") for b in v.basis)
    )


def _layout_pillars(branches: Sequence[int]) -> tuple[Pillar, Pillar, Pillar, Pillar]:
    # A stem of the branch's polarity makes each a real pillar; these stars read no stem.
    y, m, d, h = (Pillar.of(b % 2, b) for b in branches)
    return y, m, d, h


_OFF: Final = BaziSettings()
_ON: Final = BaziSettings(include_basis_pillar=True)


@cache
def basis_pillar_runs(
    off: BaziSettings = _OFF, on: BaziSettings = _ON
) -> dict[str, tuple[int, int, int]]:
    """Per self-counting star over every arrangement of four branches: (layouts whose hits
    under ``off`` differ from the table read with the basis pillar left out; layouts whose
    hits under ``on`` differ from it read with the basis pillar in; layouts where the two
    settings give other hits)."""
    from mingshu import bazi

    stars_ = self_counting_stars()
    keys = {s.key for s in stars_}
    wrong_off = dict.fromkeys(keys, 0)
    wrong_on = dict.fromkeys(keys, 0)
    changed = dict.fromkeys(keys, 0)
    slot = {"year_branch": 0, "month_branch": 1, "day_branch": 2}
    # The data file's characters, parsed here on their own: basis branch → target branches.
    table = {
        s.key: {
            int(Branch.parse(k)): {int(Branch.parse(c)) for c in text}
            for k, text in s.variant(s.default).cells
        }
        for s in stars_
    }
    bases = {s.key: [slot[b] for b in s.variant(s.default).basis] for s in stars_}
    for branches in itertools.product(range(12), repeat=4):
        pillars = _layout_pillars(branches)
        got = [
            {
                r.star.key: sorted((int(_BASIS_AT[h.basis]), int(h.position)) for h in r.hits)
                for r in bazi.stars_in(*pillars, settings=s)
                if r.star.key in keys
            }
            for s in (off, on)
        ]
        for key in keys:
            for flag, wrong in ((False, wrong_off), (True, wrong_on)):
                want = sorted(
                    (at, pos)
                    for at in bases[key]
                    for pos in range(4)
                    if (flag or pos != at) and branches[pos] in table[key][branches[at]]
                )
                wrong[key] += got[flag][key] != want
            changed[key] += got[0][key] != got[1][key]
    return {k: (wrong_off[k], wrong_on[k], changed[k]) for k in keys}


def basis_pillar_effect(options: Options) -> Table:
    """Per star: of every arrangement of the four branches, how many turning
    include_basis_pillar on changes.  Marked: stars it never changes."""
    runs = basis_pillar_runs()
    rows: list[tuple[str, ...]] = []
    marked: set[tuple[int, int]] = set()
    for key in options.get("stars", []):
        s = _star(key)
        if s.key not in runs:
            raise InputError("stars", f"{s.key}: its basis pillar does not count by setting")
        n = runs[s.key][2]
        if n == 0:
            marked.add((len(rows), 1))
        rows.append((str(s.names.english), f"{n:,}", f"{_LAYOUTS:,}"))
    return Table(
        ("Star", "Layouts the setting changes", "Of"),
        tuple(rows),
        frozenset(marked),
        "the setting never changes this star",
    )


def own_branch_keys(options: Options) -> Table:
    """Per self-counting star: the basis branches whose table gives that same branch, the
    only cases where the basis pillar could carry the star."""
    rows: list[tuple[str, ...]] = []
    for key in options.get("stars", []):
        s = _star(key)
        v = s.variant(s.default)
        own = [b for b in range(12) if (BRANCH_TARGET, b) in v.lookup[b]]
        rows.append((str(s.names.english), ", ".join(branch_name(b) for b in own) or "none"))
    return Table(("Star", "Basis branches that give themselves"), tuple(rows))


# ------------------------------------------------ several tables side by side, key by key


def _triples(options: Options) -> list[tuple[str, str, str]]:
    """The ``tables`` parameter: ``[star, variant, column head]`` per column."""
    value = options.get("tables")
    if not (isinstance(value, list) and value and all(isinstance(t, list) for t in value)):
        raise InputError("tables", "give the tables as [[star, variant, column head], …]")
    if any(len(t) != 3 for t in value):
        raise InputError("tables", "each table is [star, variant, column head]")
    return [(str(s), str(v), str(h)) for s, v, h in value]


def _key_kind(basis: str) -> str:
    """What a lookup table is keyed by: ``stem``, ``branch`` or ``element`` (the nayin's)."""
    if basis == "year_nayin":
        return "element"
    return "stem" if basis.endswith("_stem") else "branch"


_KEY_HEADS: Final = {"stem": "Day stem", "branch": "Branch", "element": "Year nayin"}


def _key_label(kind: str, key: int) -> str:
    from mingshu.cycles import Element

    if kind == "element":
        return str(Element(key).names.english)
    return stem_name(key) if kind == "stem" else branch_name(key)


def star_tables(options: Options) -> Table:
    """One row per basis value (the ten stems, the twelve branches, or the five elements of a
    nayin-keyed table) and one column per table (``[star, variant, head]``): the branches each
    table gives.  With ``against`` (a column head), the cells of the other columns equal to
    that column's are marked."""
    tables = _triples(options)
    variants = [_star(s).variant(v) for s, v, _ in tables]
    kinds = {_key_kind(v.basis[0]) for v in variants}
    if len(kinds) != 1 or any(v.rule != "lookup" for v in variants):
        raise InputError("tables", "give lookup tables all entered with the same kind of key")
    heads = [h for _, _, h in tables]
    against = options.get("against")
    if against is not None and against not in heads:
        raise InputError("against", f"{against!r} is not one of the column heads {heads}")
    kind = kinds.pop()
    rows: list[tuple[str, ...]] = []
    marked: set[tuple[int, int]] = set()
    for key in range(len(variants[0].lookup)):
        cells = [sorted(int(t) for _kind, t in v.lookup[key]) for v in variants]
        if against is not None:
            mine = cells[heads.index(str(against))]
            marked |= {
                (key, c)
                for c, cell in enumerate(cells, start=1)
                if heads[c - 1] != against and cell == mine
            }
        rows.append(
            (
                _key_label(kind, key),
                *(", ".join(branch_name(b) for b in cell) or "—" for cell in cells),
            )
        )
    return Table(
        (_KEY_HEADS[kind], *heads),
        tuple(rows),
        frozenset(marked),
        f"the same branch as {against}" if against is not None else "",
    )


def p_star_roles(q: Options) -> str:
    """Where a star stands on a chart with the role of each hit (``month Rabbit (Hook)``), or
    ``not in the chart``; a hit without a role is named alone."""
    hits = result_of(q, q["star"]).hits
    return (
        ", ".join(
            f"{h.position.key} {target_name(h.target)}"
            + (f" ({h.role.names.english})" if h.role else "")
            for h in hits
        )
        or "not in the chart"
    )


# ---------------------------------------------------------------- the decade void (旬空)


def void_decades(options: Options) -> Table:
    """The six decades (旬) of the sixty cycle: first and last pillar, and the two branches
    each leaves out (the Void of every pillar in it), the yang one first."""
    from mingshu.cycles import SIXTY

    rows: list[tuple[str, ...]] = []
    for head in range(0, 60, 10):
        a, b = SIXTY[head].void_branches
        rows.append(
            (f"{SIXTY[head]} … {SIXTY[head + 9]}", branch_name(int(a)), branch_name(int(b)))
        )
    return Table(("Decade", "Void (yang)", "Void (yin)"), tuple(rows))


def p_void_pillars(q: Options) -> str:
    """Every pillar of the sixty whose Void includes ``branch`` (甲子 or 乙丑 or …)."""
    from mingshu.cycles import SIXTY
    from mingshu.library.engine import branch_number

    target = branch_number(q["branch"])
    found = [str(p) for p in SIXTY if target in {int(b) for b in p.void_branches}]
    return " or ".join(found) or "none"


def p_year_pillars_for(q: Options) -> str:
    """Every year pillar of the sixty whose table (``variant``) of a star read from the year's
    nayin gives ``branch`` (丙寅 or 丁卯 or …), or ``none``."""
    from mingshu.bazi.tables import NAYIN_OF
    from mingshu.cycles import SIXTY
    from mingshu.library.engine import branch_number

    s = _star(q["star"])
    v = s.variant(str(q.get("variant", s.default)))
    if v.basis != ("year_nayin",):
        raise InputError("star", f"{s.key} is not read from the year's nayin")
    target = branch_number(q["branch"])
    found = [
        str(p)
        for p in SIXTY
        if target in {int(t) for _kind, t in v.lookup[int(NAYIN_OF[p.index].element)]}
    ]
    return " or ".join(found) or "none"
