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


def _ten_gods() -> Iterator[tuple[Stem, Stem, str]]:
    """Every Day Master with every stem, and the god the engine's table gives."""
    from mingshu import bazi

    for day in Stem:
        for other in Stem:
            yield day, other, str(bazi.ten_god(day, other).key)


def ten_gods_by_phase(rule: Mapping[str, Sequence[str]]) -> tuple[int, int]:
    """Each cell of the engine's ten-god table is the god ``rule`` names for the other stem's
    phase relation to the Day Master (``same``, ``produces``, ``controls``,
    ``controlled_by``, ``produced_by``: from the phases' own cycles), the first of its pair
    for the same polarity, the second for the other."""
    from mingshu.library.ten_gods import RELATIONS, relation

    if set(rule) != {key for key, _ in RELATIONS} or any(len(v) != 2 for v in rule.values()):
        raise InputError("args", f"rule: a pair of gods for each of {[k for k, _ in RELATIONS]}")
    bad = sum(
        key != rule[relation(day, other)][0 if day.polarity == other.polarity else 1]
        for day, other, key in _ten_gods()
    )
    return bad, 100


def ten_gods_each_once() -> tuple[int, int]:
    """Every Day Master sees the ten gods once each among the ten stems, and every stem is
    each god to exactly one Day Master: rows and columns of the table (20 lines)."""
    rows: dict[int, set[str]] = {}
    columns: dict[int, set[str]] = {}
    for day, other, key in _ten_gods():
        rows.setdefault(int(day), set()).add(key)
        columns.setdefault(int(other), set()).add(key)
    bad = sum(len(keys) != 10 for keys in (*rows.values(), *columns.values()))
    return bad, 20


def ten_gods_mirror(pairs: Sequence[Sequence[str]]) -> tuple[int, int]:
    """For every two stems, what the second is to the first and what the first is to the
    second form one of ``pairs`` (in either order)."""
    from mingshu import bazi

    allowed = {frozenset(p) for p in pairs}
    bad = sum(
        frozenset({key, str(bazi.ten_god(other, day).key)}) not in allowed
        for day, other, key in _ten_gods()
    )
    return bad, 100


# ------------------------------------------------------- the patterns' frequency record


def _pattern_counts(group: str) -> dict[str, int]:
    """Charts forming each natal pattern of ``group`` ("" for every group) in the shipped
    frequency record (ziwei/data/pattern_counts.json, counted again over a fresh sweep by
    tests/space/test_pattern_counts.py)."""
    from mingshu.ziwei.patterns import GROUPS, PATTERNS, frequency

    if group and group not in GROUPS:
        raise InputError("args", f"{group!r} is not a pattern group ({', '.join(GROUPS)})")
    counts = {}
    for key, p in PATTERNS.items():
        f = frequency(key)
        if f is not None and (not group or p.group == group):
            counts[key] = f.formed
    return counts


def pattern_rank(key: str, rank: str, group: str = "") -> tuple[int, int]:
    """In the frequency record, pattern ``key`` forms on more charts than every other pattern
    of ``group`` (``rank = "commonest"``), or on fewer than every other that forms at all
    (``"rarest"``); the counterexamples are the patterns that tie or beat it."""
    counts = _pattern_counts(group)
    if key not in counts or rank not in ("commonest", "rarest"):
        raise InputError(
            "args", f"give a natal pattern of the group and a rank, not {key!r} {rank!r}"
        )
    n = counts.pop(key)
    if rank == "commonest":
        return sum(1 for c in counts.values() if c >= n), len(counts)
    formed = [c for c in counts.values() if c > 0]
    return sum(1 for c in formed if c <= n), len(formed)


def pattern_broken_share(key: str, above: float) -> tuple[int, int]:
    """In the frequency record, more than the fraction ``above`` of the charts forming pattern
    ``key`` are 破格 (one case: the pattern)."""
    from mingshu.ziwei.patterns import frequency

    f = frequency(key)
    if f is None or not f.formed:
        raise InputError("args", f"{key!r} is not a natal pattern any chart forms")
    if isinstance(above, bool) or not isinstance(above, int | float) or not 0 <= above < 1:
        raise InputError("args", f"give 'above' as a fraction 0 <= above < 1, not {above!r}")
    return (0 if f.broken > above * f.formed else 1), 1


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
        ten_gods_by_phase,
        ten_gods_each_once,
        ten_gods_mirror,
        hits_name_table_and_basis,
        basis_pillar_runs,
        basis_pillar_changes,
        variants_agree,
        eating_god_emolument_agrees,
        kitchen_vs_literary_star,
        nobleman_table_is_walk,
        cells_avoid,
        pattern_rank,
        pattern_broken_share,
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
