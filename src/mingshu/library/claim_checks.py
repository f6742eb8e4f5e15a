"""The checks behind the ``engine`` and ``data_tables`` claim kinds: each walks every case a
BaZi (or Zi Wei engine) fact depends on and returns (counterexamples, cases).

A claim names its check and the check's arguments in the article's ``*.claims.toml``
(:mod:`mingshu.library.claims`); the checks hold no article's facts beyond what the
arguments give them.  Stems and branches in arguments are written in Chinese (甲 … 癸,
子 … 亥), as the BaZi data files write them.
"""

from __future__ import annotations

import inspect
import itertools
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Final

from mingshu.cycles import Branch, Stem
from mingshu.errors import InputError

__all__ = ["CHECKS", "run_check"]

Check = Callable[..., tuple[int, int]]


def _stems(names: Sequence[str]) -> set[int]:
    """Stem numbers of Chinese stem names; an :class:`InputError` on an unknown one."""
    by_name = {s.names.hans: int(s) for s in Stem}
    unknown = [n for n in names if n not in by_name]
    if unknown:
        raise InputError("args", f"unknown stem(s) {unknown!r}: write 甲 … 癸")
    return {by_name[n] for n in names}


def _branches(names: Sequence[str]) -> set[int]:
    by_name = {b.names.hans: int(b) for b in Branch}
    unknown = [n for n in names if n not in by_name]
    if unknown:
        raise InputError("args", f"unknown branch(es) {unknown!r}: write 子 … 亥")
    return {by_name[n] for n in names}


def _pillar_layouts() -> Iterator[Any]:
    """Every arrangement of four branches with a real pillar on each: the day pillar of every
    day stem of the day branch's polarity, and one stem of its branch's polarity elsewhere."""
    from mingshu.cycles import Pillar

    for branches in itertools.product(range(12), repeat=4):
        y, m, d, h = branches
        for day_stem in range(d % 2, 10, 2):
            pillars = (
                Pillar.of(y % 2, y),
                Pillar.of(m % 2, m),
                Pillar.of(day_stem, d),
                Pillar.of(h % 2, h),
            )
            yield branches, pillars


def _year_and_day_pillars() -> Iterator[Any]:
    """Every day pillar with every year pillar and every month branch; the hour pillar is
    the month's, so that two pillars share a branch in every case."""
    from mingshu.cycles import SIXTY, Pillar

    for year in SIXTY:
        for day in SIXTY:
            for m in range(12):
                month = Pillar.of(m % 2, m)
                pillars = (year, month, day, month)
                yield tuple(int(p.branch) for p in pillars), pillars


def _hits_by_basis(star: str, pillars: Any, settings: Any = None) -> dict[str, list[int]]:
    from mingshu.bazi import shensha
    from mingshu.bazi.settings import DEFAULT

    found = next(
        r for r in shensha.stars_in(*pillars, settings=settings or DEFAULT) if r.star.key == star
    )
    by: dict[str, list[int]] = {}
    for hit in found.hits:
        by.setdefault(hit.basis, []).append(int(hit.position))
    return {k: sorted(v) for k, v in by.items()}


# ------------------------------------------------------------------ engine: every case


def no_grade_by_day_and_hour(stars: Sequence[str]) -> tuple[int, int]:
    """Each star carries no brightness on a chart, on every branch it can land on (days 1 …
    12 and every hour reach all twelve; a grade depends on the star and its branch only)."""
    from mingshu.library.engine import _chart

    bad = n = 0
    for star in stars:
        seen: set[int] = set()
        for day in range(1, 13):
            for hour in range(12):
                placed = _chart(day, hour).star(star)
                if int(placed.branch) in seen:
                    continue
                seen.add(int(placed.branch))
                n += 1
                bad += placed.brightness is not None
        bad += len(seen) != 12
    return bad, n


def no_grade_by_hour(star: str) -> tuple[int, int]:
    """An hour-only star carries no brightness on the chart of any of the twelve hours (which
    put it on twelve different branches)."""
    from mingshu.library.engine import _chart

    placed = [_chart(1, hour).star(star) for hour in range(12)]
    bad = sum(p.brightness is not None for p in placed)
    return bad + (len({int(p.branch) for p in placed}) != 12), len(placed)


def literary_star_in_four_pillars() -> tuple[int, int]:
    """For every day stem and every arrangement of four branches, the engine's Literary
    Star hits are exactly the pillars whose branch is the table's branch."""
    from mingshu.bazi import shensha
    from mingshu.library.engine import literary_star

    targets = [literary_star(int(stem)) for stem in Stem]
    bad = n = 0
    for branches, pillars in _pillar_layouts():
        n += 1
        target = targets[int(pillars[2].stem)]
        found = next(r for r in shensha.stars_in(*pillars) if r.star.key == "wen_chang")
        got = sorted(int(h.position) for h in found.hits)
        want = [i for i, b in enumerate(branches) if b == target]
        bad += got != want
    return bad, n


def _nobleman_hits(settings: Any, bases: tuple[str, ...], cases: Any) -> tuple[int, int]:
    """The engine's Nobleman on each case: from each basis stem, every pillar whose branch is
    one of the pair the stem's V1 cell gives, the basis pillar included."""
    from mingshu.library.engine import bazi_cell

    pairs = [bazi_cell("tian_yi", "v1", s) for s in range(10)]
    stem_of = {"day_stem": 2, "year_stem": 0}
    bad = n = 0
    for branches, pillars in cases:
        n += 1
        want: dict[str, list[int]] = {}
        for basis in bases:
            pair = pairs[pillars[stem_of[basis]].stem]
            at = [i for i, b in enumerate(branches) if b in pair]
            if at:
                want[basis] = at
        bad += _hits_by_basis("tian_yi", pillars, settings) != want
    return bad, n


def nobleman_in_four_pillars() -> tuple[int, int]:
    from mingshu.bazi import BaziSettings

    by_day = BaziSettings(star_bases={"tian_yi": "day_stem"})
    return _nobleman_hits(by_day, ("day_stem",), _pillar_layouts())


def nobleman_from_day_and_year_stem() -> tuple[int, int]:
    from mingshu.bazi.settings import DEFAULT

    return _nobleman_hits(DEFAULT, ("day_stem", "year_stem"), _year_and_day_pillars())


def horse_from_group_head() -> tuple[int, int]:
    """The engine's Traveling Horse: from the year branch and from the day branch, each of
    the other three pillars whose branch is the clash of the basis's group head."""
    from mingshu.library.engine import group_head

    bad = n = 0
    for branches, pillars in _pillar_layouts():
        if pillars[2].stem > 1:  # one day stem per day branch: the Horse reads branches only
            continue
        n += 1
        want: dict[str, list[int]] = {}
        for basis, own in (("year_branch", 0), ("day_branch", 2)):
            horse = (group_head(branches[own]) + 6) % 12
            at = [i for i, b in enumerate(branches) if b == horse and i != own]
            if at:
                want[basis] = at
        bad += _hits_by_basis("yi_ma", pillars) != want
    return bad, n


def horse_basis_pillar_moot() -> tuple[int, int]:
    """Letting the basis pillar carry the Horse (include_basis_pillar) changes no result: a
    branch's Horse is never in its own group, so never the basis branch itself."""
    from mingshu.bazi import BaziSettings

    with_self = BaziSettings(include_basis_pillar=True)
    bad = n = 0
    for _branches, pillars in _pillar_layouts():
        if pillars[2].stem > 1:  # as above: one day stem per day branch
            continue
        n += 1
        bad += _hits_by_basis("yi_ma", pillars) != _hits_by_basis("yi_ma", pillars, with_self)
    return bad, n


def flowing_horse() -> tuple[int, int]:
    """Each horoscope layer's flowing Horse (运马 流马 月马 日马 时马) stands at the clash of
    the group head of the layer's own branch, over sixty flowing years of one chart."""
    import datetime as dt

    from mingshu import ziwei
    from mingshu.library.engine import group_head

    chart = ziwei.by_lunar("1984-1-1", 0, "female")
    bad = n = 0
    for year in range(1984, 2044):
        for layer in chart.horoscope(dt.date(year, 7, 1)).layers:
            horses = [s for s in layer.stars if s.star.key.endswith("_ma")]
            if not layer.stars:
                continue  # the small limit has no flowing stars
            n += 1
            want = (group_head(int(layer.pillar.branch)) + 6) % 12
            bad += [int(s.branch) for s in horses] != [want]
    return bad, n


def kitchen_in_four_pillars() -> tuple[int, int]:
    from mingshu.library.engine import eating_god, emolument

    kitchens = [emolument(eating_god(s)) for s in range(10)]
    bad = n = 0
    for branches, pillars in _pillar_layouts():
        n += 1
        kitchen = kitchens[pillars[2].stem]
        at = [i for i, b in enumerate(branches) if b == kitchen]
        bad += _hits_by_basis("tian_chu", pillars) != ({"day_stem": at} if at else {})
    return bad, n


def hits_name_table_and_basis() -> tuple[int, int]:
    from mingshu.bazi import shensha
    from mingshu.bazi.settings import DEFAULT
    from mingshu.bazi.stars import STARS

    variant = {s.key: DEFAULT.variant_of(s.key) for s in STARS}
    bases = {s.key: DEFAULT.bases_of(s.key) for s in STARS}
    bad = n = 0
    for _branches, (year, month, day, hour) in _pillar_layouts():
        values: dict[str, object] = {
            "day_stem": day.stem,
            "year_stem": year.stem,
            "day_branch": day.branch,
            "year_branch": year.branch,
            "month_branch": month.branch,
            "day_pillar": day,
            "year_pillar": year,
            "hour_pillar": hour,
        }
        n += 1
        bad += any(
            h.variant.id != variant[h.star]
            or h.basis not in bases[h.star]
            or (h.basis in values and h.basis_value != values[h.basis])
            for r in shensha.stars_in(year, month, day, hour)
            for h in r.hits
        )
    return bad, n


_SETTING: Final = {"off": 0, "on": 1}


def basis_pillar_runs(setting: str) -> tuple[int, int]:
    """Over every star layout of the branch-keyed stars whose basis pillar counts by setting,
    the layouts where the engine's hits differ from the table's branches with
    ``include_basis_pillar`` ``setting`` (off: the other pillars; on: every pillar)."""
    from mingshu.library.bazi_stars import basis_pillar_runs as runs_of

    if setting not in _SETTING:
        raise InputError("args", f"setting is 'off' or 'on', not {setting!r}")
    runs = runs_of()
    return sum(r[_SETTING[setting]] for r in runs.values()), len(runs) * 12**4


def basis_pillar_changes(stars: Sequence[str]) -> tuple[int, int]:
    """Of those stars, ``include_basis_pillar`` changes the hits of exactly ``stars``."""
    from mingshu.library.bazi_stars import basis_pillar_runs as runs_of

    runs = runs_of()
    bad = 0
    for key, (_off, _on, changed) in runs.items():
        bad += (changed > 0) != (key in stars)
    return bad, len(runs) * 12**4


# ------------------------------------------------------- data_tables: the data files' cells


def variants_agree(star: str, a: str, b: str, same_at: Sequence[str]) -> tuple[int, int]:
    """Tables ``a`` and ``b`` of a BaZi star give the same branches exactly for the day
    stems ``same_at``: a stem counts against the claim where that is not so."""
    from mingshu.library.engine import bazi_cell

    same_stems = _stems(same_at)
    bad = 0
    for s in range(10):
        same = sorted(bazi_cell(star, a, s)) == sorted(bazi_cell(star, b, s))
        bad += same != (s in same_stems)
    return bad, 10


def eating_god_emolument_agrees(star: str, variant: str, same_at: Sequence[str]) -> tuple[int, int]:
    """A star's table gives the Emolument of the day stem's Eating God exactly for the stems
    ``same_at``."""
    from mingshu.library.engine import bazi_cell, eating_god, emolument

    same_stems = _stems(same_at)
    bad = 0
    for s in range(10):
        same = bazi_cell(star, variant, s) == (emolument(eating_god(s)),)
        bad += same != (s in same_stems)
    return bad, 10


def kitchen_vs_literary_star(literary_differs_at: Sequence[str]) -> tuple[int, int]:
    """The Heavenly Kitchen is the Eating God's Emolument for every stem, and differs from the
    Literary Star exactly at the stems ``literary_differs_at``."""
    from mingshu.library.engine import eating_god, emolument, kitchen_star, literary_star

    differ = _stems(literary_differs_at)
    bad = 0
    for s in range(10):
        bad += kitchen_star(s) != emolument(eating_god(s))
        bad += (kitchen_star(s) != literary_star(s)) != (s in differ)
    return bad, 10


def nobleman_table_is_walk(variant: str) -> tuple[int, int]:
    """Each cell of the Nobleman table ``variant`` is the two branches the two walks give the
    stem (forward from Rat, backward from Monkey: :func:`mingshu.library.engine.nobleman_walk`)."""
    from mingshu.library.engine import bazi_cell, nobleman_walk

    day, night = nobleman_walk(0, 1), nobleman_walk(8, -1)
    bad = sum(
        sorted(bazi_cell("tian_yi", variant, s)) != sorted({day[s], night[s]}) for s in range(10)
    )
    return bad, 10


def cells_avoid(
    star: str, variants: Sequence[str], branches: Sequence[str], size: int
) -> tuple[int, int]:
    """No cell of the star's tables ``variants`` holds one of ``branches``, and every cell
    holds ``size`` branches."""
    from mingshu.library.engine import bazi_cell

    avoid = _branches(branches)
    cells = [bazi_cell(star, v, s) for v in variants for s in range(10)]
    return sum(bool(avoid & set(c)) or len(c) != size for c in cells), len(cells)


# ------------------------------------- tables of the day-stem and branch-keyed stars


def _keys(star: str, variant: str, names: Sequence[str]) -> set[int]:
    """The basis values ``names`` of a star's table: stems when it is entered with a stem,
    branches when with a branch (Chinese characters, as the data file writes them)."""
    from mingshu.bazi import stars

    basis = stars.star(star).variant(variant).basis[0]
    if basis == "year_nayin":
        return _elements(names)
    return _stems(names) if basis.endswith("_stem") else _branches(names)


def _elements(names: Sequence[str]) -> set[int]:
    from mingshu.cycles import Element

    by_name = {e.names.hans: int(e) for e in Element}
    unknown = [n for n in names if n not in by_name]
    if unknown:
        raise InputError("args", f"unknown element(s) {unknown!r}: write 木 火 土 金 水")
    return {by_name[n] for n in names}


def _key_count(star: str, variant: str) -> int:
    from mingshu.bazi import stars

    return len(stars.star(star).variant(variant).lookup)


def table_offset(
    star: str, variant: str, base: str, base_variant: str, steps: int, at: Sequence[str]
) -> tuple[int, int]:
    """The table ``variant`` of ``star`` gives, for the keys ``at``, the branch ``steps``
    branches on from the one ``base``'s table gives, and something else for every other key."""
    from mingshu.library.engine import bazi_cell

    keys = _keys(star, variant, at)
    n = _key_count(star, variant)
    bad = 0
    for k in range(n):
        moved = sorted((b + steps) % 12 for b in bazi_cell(base, base_variant, k))
        bad += (sorted(bazi_cell(star, variant, k)) == moved) != (k in keys)
    return bad, n


def table_is_stage(star: str, variant: str, stage: str, at: Sequence[str]) -> tuple[int, int]:
    """A day-stem table gives, for the stems ``at``, the branch where the stem reaches the
    growth stage ``stage`` (the engine's default stage rules), and another branch elsewhere."""
    from mingshu.bazi.settings import DEFAULT
    from mingshu.bazi.tables import stage_table
    from mingshu.library.engine import bazi_cell

    table = stage_table(DEFAULT.stage_earth.value, DEFAULT.stage_yin.value)
    if stage not in {t.key for t in table}:
        raise InputError("args", f"no growth stage {stage!r}")
    keys = _keys(star, variant, at)
    bad = 0
    for s in range(10):
        there = tuple(b for b in range(12) if table[s * 12 + b].key == stage)
        bad += (bazi_cell(star, variant, s) == there) != (s in keys)
    return bad, 10


def cells_empty(star: str, variant: str, at: Sequence[str]) -> tuple[int, int]:
    """The table ``variant`` of ``star`` gives nothing exactly for the keys ``at``."""
    from mingshu.library.engine import bazi_cell

    keys = _keys(star, variant, at)
    n = _key_count(star, variant)
    return sum((not bazi_cell(star, variant, k)) != (k in keys) for k in range(n)), n


def cells_within(
    star: str, variant: str, at: Sequence[str], branches: Sequence[str]
) -> tuple[int, int]:
    """For the keys ``at`` the table gives branches, all of them among ``branches``; for
    every other key it gives none of ``branches``."""
    from mingshu.library.engine import bazi_cell

    keys = _keys(star, variant, at)
    within = _branches(branches)
    n = _key_count(star, variant)
    bad = 0
    for k in range(n):
        cell = set(bazi_cell(star, variant, k))
        inside = bool(cell) and cell <= within
        bad += (not inside) if k in keys else bool(cell & within)
    return bad, n


def stem_stars_in_four_pillars(stars: Sequence[str]) -> tuple[int, int]:
    """Each day-stem star (its default table) is found in exactly the pillars, the day
    pillar included, whose branch its table gives the day stem, on every layout."""
    from mingshu.bazi import shensha
    from mingshu.bazi import stars as star_data
    from mingshu.library.engine import bazi_cell

    tables = {}
    for key in stars:
        s = star_data.star(key)
        if s.variant(s.default).basis != ("day_stem",):
            raise InputError("args", f"{key} is not entered with the day stem alone")
        tables[key] = [set(bazi_cell(key, s.default, stem)) for stem in range(10)]
    bad = n = 0
    for branches, pillars in _pillar_layouts():
        n += 1
        stem = int(pillars[2].stem)
        found = {r.star.key: r for r in shensha.stars_in(*pillars) if r.star.key in tables}
        for key, table in tables.items():
            got = sorted(int(h.position) for h in found[key].hits)
            bad += got != [i for i, b in enumerate(branches) if b in table[stem]]
    return bad, n


def day_pillars_holding(star: str, variant: str, pillars: Sequence[str]) -> tuple[int, int]:
    """Of the sixty day pillars, the engine finds the star (its table ``variant``) in the day
    pillar itself exactly for ``pillars`` (written 甲子 … 癸亥); the other three pillars are
    the day's neighbours in the cycle."""
    from mingshu.bazi import BaziSettings, shensha
    from mingshu.cycles import SIXTY, Pillar

    wanted = {Pillar.parse(p, "args").index for p in pillars}
    settings = BaziSettings(star_variants={star: variant})
    bad = 0
    for day in SIXTY:
        year, month, hour = day.next(-1), day.next(1), day.next(2)
        (found,) = (
            r
            for r in shensha.stars_in(year, month, day, hour, settings=settings)
            if r.star.key == star
        )
        in_day = any(int(h.position) == 2 for h in found.hits)
        bad += in_day != (day.index in wanted)
    return bad, 60


def group_step(star: str, variant: str, steps: int) -> tuple[int, int]:
    """For every basis branch, the table gives the one branch ``steps`` on from the head of
    the branch's three-harmony group (the branch where the group's element is born)."""
    from mingshu.library.engine import bazi_cell, group_head

    return sum(
        bazi_cell(star, variant, b) != ((group_head(b) + steps) % 12,) for b in range(12)
    ), 12


def group_stage(star: str, variant: str, stage: str) -> tuple[int, int]:
    """For every basis branch, the table gives the branch where the element of the branch's
    three-harmony group reaches the growth stage ``stage``: counted for each yang stem whose
    Birth stage (长生) is the group's head, in the engine's default stage table."""
    from mingshu.bazi.settings import DEFAULT
    from mingshu.bazi.tables import stage_table
    from mingshu.library.engine import bazi_cell, group_head

    table = stage_table(DEFAULT.stage_earth.value, DEFAULT.stage_yin.value)
    if stage not in {t.key for t in table}:
        raise InputError("args", f"no growth stage {stage!r}")
    bad = 0
    for b in range(12):
        stems = [s for s in range(0, 10, 2) if table[s * 12 + group_head(b)].key == "chang_sheng"]
        there = {tuple(x for x in range(12) if table[s * 12 + x].key == stage) for s in stems}
        bad += not stems or there != {bazi_cell(star, variant, b)}
    return bad, 12


def month_pillars_found(star: str, variant: str, pillars: Sequence[str]) -> tuple[int, int]:
    """Entered from the year branch alone, the star (table ``variant``) is found in the month
    pillar exactly when the month's branch is one the table gives the year branch and, when
    ``pillars`` names some (甲子 … 癸亥), the month pillar is one of them: every year branch
    with each of the sixty month pillars."""
    from mingshu.bazi import BaziSettings, shensha
    from mingshu.cycles import SIXTY, Pillar
    from mingshu.library.engine import bazi_cell

    allowed = {Pillar.parse(p, "args").index for p in pillars}
    settings = BaziSettings(star_variants={star: variant}, star_bases={star: "year_branch"})
    bad = n = 0
    for y in range(12):
        year = Pillar.of(y % 2, y)
        for month in SIXTY:
            n += 1
            (found,) = (
                r
                for r in shensha.stars_in(year, month, year, year, settings=settings)
                if r.star.key == star
            )
            got = any(int(h.position) == 1 for h in found.hits)
            want = int(month.branch) in bazi_cell(star, variant, y) and (
                not allowed or month.index in allowed
            )
            bad += got != want
    return bad, n


def season_step(star: str, variant: str, steps: int) -> tuple[int, int]:
    """For every basis branch, the table gives the one branch ``steps`` on from the first
    branch of the branch's season (方: 寅卯辰, 巳午未, 申酉戌, 亥子丑, each begun by Tiger,
    Snake, Monkey or Pig)."""
    from mingshu.library.engine import bazi_cell

    bad = 0
    for b in range(12):
        first = b - (b - 2) % 3  # the season's first branch, 2 (寅) 5 8 11 modulo 12
        bad += bazi_cell(star, variant, b) != ((first + steps) % 12,)
    return bad, 12


def _branch_layouts() -> Iterator[tuple[int, ...]]:
    """Every arrangement of four branches, year to hour."""
    return itertools.product(range(12), repeat=4)


def key_steps(star: str, variant: str, steps: Sequence[int], backward: bool) -> tuple[int, int]:
    """For every basis branch, the table (its backward table, for a man of a yin year or a
    woman of a yang year, when ``backward``) gives, in order, the branches ``steps`` on from
    the basis branch."""
    from mingshu.bazi import stars

    v = stars.star(star).variant(variant)
    if backward and not v.gendered:
        raise InputError("args", f"{star} {variant} has no backward table")
    table = v.lookup_backward if backward else v.lookup
    bad = 0
    for b in range(12):
        bad += tuple(int(t) for _kind, t in table[b]) != tuple((b + s) % 12 for s in steps)
    return bad, 12


def gendered_in_pillars(star: str) -> tuple[int, int]:
    """The engine finds a gender-dependent star from the year branch in exactly the other
    pillars holding a branch its table gives (the backward table when the luck runs backward),
    each with the role of that branch's place in the cell (勾 then 绞): every arrangement of
    four branches, both directions."""
    from mingshu.bazi import shensha, stars
    from mingshu.library.bazi_stars import _layout_pillars

    s = stars.star(star)
    v = s.variant(s.default)
    if not v.gendered or v.basis != ("year_branch",):
        raise InputError("args", f"{star} is not a gender-dependent star of the year branch")
    bad = n = 0
    for branches in _branch_layouts():
        pillars = _layout_pillars(branches)
        for backward in (False, True):
            n += 1
            cell = [
                int(t) for _kind, t in (v.lookup_backward if backward else v.lookup)[branches[0]]
            ]
            roles = list(v.target_roles) or [""] * len(cell)
            want = sorted(
                (pos, roles[cell.index(branches[pos])])
                for pos in range(1, 4)
                if branches[pos] in cell
            )
            (found,) = (
                r for r in shensha.stars_in(*pillars, backward=backward) if r.star.key == star
            )
            got = sorted((int(h.position), h.role.key if h.role else "") for h in found.hits)
            bad += got != want
    return bad, n


def mirror_sum(star: str, variant: str, total: int) -> tuple[int, int]:
    """For every basis branch, the table gives the branch that adds up with it to ``total``
    (modulo 12): the table counts backward as the basis counts forward."""
    from mingshu.library.engine import bazi_cell

    return sum(bazi_cell(star, variant, b) != ((total - b) % 12,) for b in range(12)), 12


def void_is_decade_leftover() -> tuple[int, int]:
    """Each of the sixty pillars' Void is the two branches its decade (the ten pillars from
    the 甲 before it) does not reach, a yang branch and the yin branch after it."""
    from mingshu.cycles import SIXTY

    bad = 0
    for p in SIXTY:
        head = p.index - int(p.stem)
        reached = {int(SIXTY[head + i].branch) for i in range(10)}
        void = [int(b) for b in p.void_branches]
        bad += set(void) != set(range(12)) - reached or void[0] % 2 or void[1] != void[0] + 1
    return bad, 60


def void_of_day_and_year() -> tuple[int, int]:
    """The engine's Void: from the day pillar, every other pillar whose branch is in the day
    pillar's Void; from the year pillar, likewise; every day pillar with every year pillar and
    every month branch (the hour pillar the month's)."""
    bad = n = 0
    for branches, pillars in _year_and_day_pillars():
        n += 1
        want: dict[str, list[int]] = {}
        for basis, own in (("day_pillar", 2), ("year_pillar", 0)):
            void = {int(b) for b in pillars[own].void_branches}
            at = [i for i, b in enumerate(branches) if b in void and i != own]
            if at:
                want[basis] = at
        bad += _hits_by_basis("kong_wang", pillars) != want
    return bad, n


def _year_pillar_layouts() -> Iterator[tuple[Any, tuple[int, ...]]]:
    """Every year pillar with every arrangement of the other three branches."""
    from mingshu.cycles import SIXTY

    for year in SIXTY:
        for rest in itertools.product(range(12), repeat=3):
            yield year, rest


def nayin_star_in_pillars(star: str) -> tuple[int, int]:
    """The engine finds a star read from the year pillar's nayin element (its default table)
    in exactly the month, day and hour pillars holding a branch the element's cell gives, each
    with the cell's role: every year pillar with every arrangement of the other three branches."""
    from mingshu.bazi import shensha, stars
    from mingshu.bazi.tables import NAYIN_OF
    from mingshu.cycles import Pillar

    s = stars.star(star)
    v = s.variant(s.default)
    if v.basis != ("year_nayin",):
        raise InputError("args", f"{star} is not read from the year's nayin")
    roles = dict(v.cell_roles)
    bad = n = 0
    for year, rest in _year_pillar_layouts():
        element = int(NAYIN_OF[year.index].element)
        cell = {int(t) for _kind, t in v.lookup[element]}
        n += 1
        others = [Pillar.of(b % 2, b) for b in rest]
        want = sorted((pos, roles[element]) for pos, b in enumerate(rest, 1) if b in cell)
        (found,) = (r for r in shensha.stars_in(year, *others) if r.star.key == star)
        got = sorted((int(h.position), h.role.key if h.role else "") for h in found.hits)
        bad += got != want
    return bad, n


def pairs_in_pillars(star: str, variant: str) -> tuple[int, int]:
    """Under a pair table, the engine finds the star in every pillar holding a branch of a
    pair whose two branches both stand in the chart, with the pair's role, and nowhere else:
    every arrangement of four branches."""
    from mingshu.bazi import BaziSettings, shensha, stars
    from mingshu.library.bazi_stars import _layout_pillars

    v = stars.star(star).variant(variant)
    if v.rule != "pair_present":
        raise InputError("args", f"{star} {variant} is not a pair table")
    settings = BaziSettings(star_variants={star: variant})
    bad = n = 0
    for branches in _branch_layouts():
        n += 1
        want = sorted(
            (pos, role)
            for (a, b), role in v.pairs
            if int(a) in branches and int(b) in branches
            for pos, x in enumerate(branches)
            if x in (int(a), int(b))
        )
        pillars = _layout_pillars(branches)
        (found,) = (r for r in shensha.stars_in(*pillars, settings=settings) if r.star.key == star)
        got = sorted((int(h.position), h.role.key if h.role else "") for h in found.hits)
        bad += got != want
    return bad, n


def year_pillars_giving_own_branch(
    star: str, variant: str, pillars: Sequence[str]
) -> tuple[int, int]:
    """Of the sixty year pillars, those whose own branch is one the star's table (read from
    the year's nayin) gives are exactly ``pillars``."""
    from mingshu.bazi import stars
    from mingshu.bazi.tables import NAYIN_OF
    from mingshu.cycles import SIXTY, Pillar

    v = stars.star(star).variant(variant)
    if v.basis != ("year_nayin",):
        raise InputError("args", f"{star} {variant} is not read from the year's nayin")
    wanted = {Pillar.parse(p, "args").index for p in pillars}
    bad = 0
    for year in SIXTY:
        cell = {int(t) for _kind, t in v.lookup[int(NAYIN_OF[year.index].element)]}
        bad += (int(year.branch) in cell) != (year.index in wanted)
    return bad, 60


CHECKS: Final[dict[str, Check]] = {
    f.__name__: f
    for f in (
        no_grade_by_day_and_hour,
        no_grade_by_hour,
        literary_star_in_four_pillars,
        nobleman_in_four_pillars,
        nobleman_from_day_and_year_stem,
        horse_from_group_head,
        horse_basis_pillar_moot,
        flowing_horse,
        kitchen_in_four_pillars,
        hits_name_table_and_basis,
        basis_pillar_runs,
        basis_pillar_changes,
        variants_agree,
        eating_god_emolument_agrees,
        kitchen_vs_literary_star,
        nobleman_table_is_walk,
        cells_avoid,
        # tables of the day-stem and branch-keyed stars
        table_offset,
        table_is_stage,
        cells_empty,
        cells_within,
        stem_stars_in_four_pillars,
        day_pillars_holding,
        group_step,
        group_stage,
        month_pillars_found,
        season_step,
        key_steps,
        gendered_in_pillars,
        mirror_sum,
        void_is_decade_leftover,
        void_of_day_and_year,
        nayin_star_in_pillars,
        pairs_in_pillars,
        year_pillars_giving_own_branch,
    )
}
"""Every check a claim may name, by name."""


def run_check(name: str, args: Mapping[str, Any]) -> tuple[int, int]:
    """(counterexamples, cases) of the check ``name`` with ``args``; an :class:`InputError`
    for an unknown check or arguments it does not take."""
    check = CHECKS.get(name)
    if check is None:
        raise InputError("check", f"no claim check {name!r}; known: {', '.join(sorted(CHECKS))}")
    try:
        inspect.signature(check).bind(**args)
    except TypeError as e:
        raise InputError("args", f"check {name}: {e}") from None
    return check(**args)
