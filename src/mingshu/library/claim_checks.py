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
from functools import cache
from typing import Any, Final

from mingshu.cycles import Branch, Element, Stem
from mingshu.errors import InputError
from mingshu.library import frame, god_cycles

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


# ------------------------------------------------------- Zi Wei charts under a setting
# The space is swept under the default settings only; a fact about the 中州 rules (or the
# 全书 school) walks charts drawn under that setting here instead.

_POLARITY_CASES: Final = (
    "any",
    "yang_year",
    "yin_year",
    "yang_male_yin_female",
    "yin_male_yang_female",
)


@cache
def _ziwei_walk(algorithm: str, school: str) -> tuple[Mapping[str, int], ...]:
    """Charts in every year of a sixty-year cycle (lunar 1984 甲子 … 2043 癸亥), every month
    1–12 on its first day, the Rat and Goat hours (so the Life palace takes every branch)
    and both sexes, under the settings ``algorithm`` and ``school``: for each, ``year``
    (the year's branch), ``stem``, ``female`` (0 or 1), ``life`` (the Life palace's branch),
    every star's branch by its key and every twelve-god's as ``CYCLE.KEY``
    (``sui_qian.long_de``)."""
    from mingshu import ziwei

    try:
        settings = ziwei.ZiweiSettings(
            algorithm=ziwei.Algorithm(algorithm), school=ziwei.School(school)
        )
    except ValueError as e:
        raise InputError("args", f"{e}") from None
    cases = []
    for offset in range(60):
        for month in range(1, 13):
            for hour, gender in itertools.product((0, 7), ("male", "female")):
                chart = ziwei.by_lunar(
                    f"{1984 + offset}-{month}-1", hour, gender, settings=settings
                )
                case = {
                    "year": offset % 12,
                    "stem": offset % 10,
                    "female": int(gender == "female"),
                    "life": int(chart.life_branch),
                }
                for palace in chart.palaces:
                    at = int(palace.branch)
                    case.update({placed.star.key: at for placed in palace.stars})
                    for cycle in ("bo_shi", "sui_qian", "jiang_qian"):
                        case[f"{cycle}.{getattr(palace, cycle).key}"] = at
                cases.append(case)
    return tuple(cases)


def _walk(algorithm: str, school: str, polarity: str = "any") -> tuple[Mapping[str, int], ...]:
    """The walked charts whose year (and sex) ``polarity`` names: yang or yin years, or
    yang men with yin women (阳男阴女) and the other way round (阴男阳女)."""
    if polarity not in _POLARITY_CASES:
        raise InputError("args", f"polarity {polarity!r}: one of {', '.join(_POLARITY_CASES)}")
    cases = _ziwei_walk(algorithm, school)
    keep: dict[str, Callable[[Mapping[str, int]], bool]] = {
        "any": lambda c: True,
        "yang_year": lambda c: c["year"] % 2 == 0,
        "yin_year": lambda c: c["year"] % 2 == 1,
        "yang_male_yin_female": lambda c: c["year"] % 2 == c["female"],
        "yin_male_yang_female": lambda c: c["year"] % 2 != c["female"],
    }
    return tuple(c for c in cases if keep[polarity](c))


def ziwei_year_table(
    star: str, table: str, by: str = "year", algorithm: str = "quanshu", school: str = "iztro"
) -> tuple[int, int]:
    """On every walked chart under ``algorithm`` and ``school``, ``star`` stands on the
    branch ``table`` gives for the year's branch (``by: year``, twelve branches 子 … 亥) or
    stem (``by: stem``, ten, 甲 … 癸); a chart without the star counts against it."""
    size = {"year": 12, "stem": 10}.get(by)
    if size is None or len(table) != size:
        raise InputError("args", f"table: {size or '10 or 12'} branches by {by!r}")
    _branches(list(table))
    want = [Branch.parse(c) for c in table]
    cases = _walk(algorithm, school)
    return sum(c.get(star) != int(want[c[by]]) for c in cases), len(cases)


def ziwei_offset(
    star: str,
    other: str,
    offset: int,
    algorithm: str = "quanshu",
    school: str = "iztro",
    polarity: str = "any",
) -> tuple[int, int]:
    """On every walked chart of ``polarity`` under ``algorithm`` and ``school``, ``star``
    stands ``offset`` palaces forward of ``other`` (a star, a twelve-god ``CYCLE.KEY``,
    ``life`` or ``year``, the year's branch); a chart without either counts against it."""
    cases = _walk(algorithm, school, polarity)
    bad = sum(star not in c or other not in c or c[star] != (c[other] + offset) % 12 for c in cases)
    return bad, len(cases)


def ziwei_not_placed(
    stars: Sequence[str], algorithm: str = "quanshu", school: str = "iztro"
) -> tuple[int, int]:
    """No walked chart under ``algorithm`` and ``school`` places any of ``stars``."""
    cases = _walk(algorithm, school)
    return sum(any(s in c for s in stars) for c in cases), len(cases)


def year_boundary_moves(
    setting: str, moves: Sequence[str], stays: Sequence[str], years: Sequence[int] = (1900, 2100)
) -> tuple[int, int]:
    """Zi Wei stars and the two year boundaries: on every day of ``years`` (first, last)
    whose year differs between the lunar new year and 立春 (the whole day of 立春 in the new
    year), a noon birth charted under the defaults and again with ``setting``
    (``year_boundary`` or ``horoscope_boundary``) at ``spring_begins``: every star of
    ``moves`` stands elsewhere and every star of ``stays`` where it stood."""
    import datetime as dt

    from mingshu import ziwei
    from mingshu.calendar import (
        solar_to_lunar,
        year_pillar_by_lichun_day,
        year_pillar_of_lunar_year,
    )

    if setting not in ("year_boundary", "horoscope_boundary"):
        raise InputError("setting", f"give year_boundary or horoscope_boundary, not {setting!r}")
    other = (
        ziwei.ZiweiSettings(year_boundary="spring_begins")
        if setting == "year_boundary"
        else ziwei.ZiweiSettings(horoscope_boundary="spring_begins")
    )
    first, last = (int(y) for y in years)
    bad = n = 0
    for year in range(first, last + 1):
        # both boundaries fall between 20 January and 20 February
        for day in range(31):
            d = dt.date(year, 1, 20) + dt.timedelta(days=day)
            lunar_year = year_pillar_of_lunar_year(solar_to_lunar(d).year)
            if lunar_year == year_pillar_by_lichun_day(d):
                continue
            n += 1
            a = ziwei.chart(d.isoformat(), "12:00", "female")
            b = ziwei.chart(d.isoformat(), "12:00", "female", settings=other)
            moved = {s for s in (*moves, *stays) if a.star(s).branch != b.star(s).branch}
            bad += not moved.issuperset(moves) or not moved.isdisjoint(stays)
    return bad, n


# ----------------------------------------- Zi Wei: a school's star as a count over the ring


def _thirty_day_year(branch: int, month: int) -> int:
    """A lunar year of ``branch`` (1900 is 庚子) whose month ``month`` has 30 days."""
    from mingshu import calendar

    for year in range(1900 + branch, 2101, 12):
        try:
            calendar.lunar_to_solar(year, month, 30, False)
        except InputError:
            continue
        return year
    raise RuntimeError(f"no 30-day month {month} in a year of branch {branch}")


def school_star_count(
    star: str,
    school: str,
    base: str,
    year: int = 0,
    month: int = 0,
    day: int = 0,
    hour: int = 0,
    life: int = 0,
) -> tuple[int, int]:
    """A Zi Wei star stands at ``base`` (a branch, or twelve branches by the year branch
    子 … 亥) + ``year`` × the year branch + ``month`` × (lunar month − 1) + ``day`` × (lunar
    day − 1) + ``hour`` × the clock's hour + ``life`` × the Life palace's branch, counted
    round the ring, on every birth: each year branch, each month outside leap months, each
    day 1 … 30 when ``day`` counts (else day 1), and every time index (the late Rat hour
    read as the Rat hour of the same calendar day), for both genders when the day does not
    count (else men)."""
    from mingshu import ziwei
    from mingshu.cycles import Branch

    if len(base) not in (1, 12):
        raise InputError("base", "give one branch, or twelve by the year branch")
    starts = [int(Branch.parse(c)) for c in (base * 12 if len(base) == 1 else base)]
    settings = ziwei.ZiweiSettings(school=ziwei.School(school))
    days = range(1, 31) if day else range(1, 2)
    genders = ("male",) if day else ("male", "female")
    bad = n = 0
    for yb, m in itertools.product(range(12), range(1, 13)):
        lunar_year = _thirty_day_year(yb, m)
        for d, ti, gender in itertools.product(days, range(13), genders):
            chart = ziwei.by_lunar(f"{lunar_year}-{m:02d}-{d:02d}", ti, gender, settings=settings)
            want = starts[yb] + year * yb + month * (m - 1) + day * (d - 1) + hour * (ti % 12)
            want += life * int(chart.life_branch)
            n += 1
            bad += int(chart.star(star).branch) != want % 12
    return bad, n


# ------------------------------------------- stars keyed by the month (天德 月德 and their 合)


def _cells_of(
    ref: str, sizes: tuple[int, ...] = (5, 10, 12)
) -> tuple[tuple[tuple[int, int], ...], ...]:
    """The cells of a table named ``STAR.VARIANT``: per basis value, its (kind, target)s; an
    :class:`InputError` unless it is keyed by one of ``sizes`` values (5 elements, 10 stems,
    12 branches)."""
    from mingshu.bazi import stars

    key, _, variant = ref.partition(".")
    cells = stars.star(key).variant(variant).lookup
    if len(cells) not in sizes:
        raise InputError("args", f"{ref} is not keyed by {' or '.join(map(str, sizes))} values")
    return cells


def _keys(names: Sequence[str], size: int) -> set[int]:
    """Basis values named in Chinese: stems for a table of ten keys, branches of twelve."""
    return _stems(names) if size == 10 else _branches(names)


def month_star_in_pillars(star: str, pillars: Sequence[str]) -> tuple[int, int]:
    """For every month pillar with every pillar standing in the other three places, the
    engine's hits of ``star`` (default table) are exactly those of the ``pillars`` (year,
    month, day, hour) whose stem, or whose branch where the cell is a branch, the data file's
    cell for the month branch names."""
    from mingshu.bazi import stars
    from mingshu.cycles import SIXTY

    places = ("year", "month", "day", "hour")
    if any(p not in places for p in pillars):
        raise InputError("args", f"pillars are {', '.join(places)}")
    searched = {places.index(p) for p in pillars}
    # The data file's characters, read here on their own: a stem, else a branch.
    by_char = {s.names.hans: ("stem", int(s)) for s in Stem}
    by_char |= {b.names.hans: ("branch", int(b)) for b in Branch}
    v = stars.star(star).variant(stars.star(star).default)
    if v.basis != ("month_branch",) or v.target not in ("stem", "branch", "stem_or_branch"):
        raise InputError("args", f"{star} is not a stem or branch read from the month branch")
    cells = {_branches([k]).pop(): [by_char[c] for c in text] for k, text in v.cells}
    bad = n = 0
    for month in SIXTY:
        want_cell = cells[int(month.branch)]
        for other in SIXTY:
            layout = (other, month, other, other)
            n += 1
            at = [
                i
                for i, p in enumerate(layout)
                if i in searched
                and (("stem", int(p.stem)) in want_cell or ("branch", int(p.branch)) in want_cell)
            ]
            bad += _hits_by_basis(star, layout) != ({"month_branch": at} if at else {})
    return bad, n


def month_star_in_four_pillars(star: str) -> tuple[int, int]:
    """:func:`month_star_in_pillars` over all four pillars."""
    return month_star_in_pillars(star, ("year", "month", "day", "hour"))


def tables_agree(a: str, b: str, same_at: Sequence[str]) -> tuple[int, int]:
    """Two tables (``STAR.VARIANT``) keyed alike give the same targets exactly at the keys
    ``same_at`` (stems or branches): a key counts against the claim where that is not so."""
    cells_a, cells_b = _cells_of(a), _cells_of(b)
    if len(cells_a) != len(cells_b):
        raise InputError("args", f"{a} and {b} are not keyed alike")
    same = _keys(same_at, len(cells_a))
    bad = sum(
        (sorted(x) == sorted(y)) != (k in same)
        for k, (x, y) in enumerate(zip(cells_a, cells_b, strict=True))
    )
    return bad, len(cells_a)


def combination_partners(table: str, of: str, empty_at: Sequence[str] = ()) -> tuple[int, int]:
    """Each cell of ``table`` holds the combination partners of the cell of ``of`` (a stem's
    五合 partner, a branch's 六合 partner, from bazi/data/relations.toml), except at the keys
    ``empty_at``, where it is empty."""
    from mingshu.bazi.stars import BRANCH_TARGET
    from mingshu.bazi.tables import BRANCH_COMBINE, STEM_COMBINE

    cells, others = _cells_of(table, (12,)), _cells_of(of, (12,))
    empty = _keys(empty_at, len(cells))
    bad = 0
    for k, (cell, other) in enumerate(zip(cells, others, strict=True)):
        partners = [
            (kind, int(BRANCH_COMBINE[t]) if kind == BRANCH_TARGET else int(STEM_COMBINE[t]))
            for kind, t in other
        ]
        bad += sorted(cell) != ([] if k in empty else sorted(partners))
    return bad, len(cells)


def _group_element(branch: int) -> Any:
    """The element of a branch's three-harmony group: that of its middle branch (子 卯 午 酉)."""
    from mingshu.library.engine import group_head

    return Branch((group_head(branch) + 4) % 12).element


def _stem_of(element: Any, polarity: int) -> int:
    return next(int(s) for s in Stem if s.element is element and int(s.polarity) == polarity)


def month_virtue_from_group(table: str) -> tuple[int, int]:
    """Each cell of ``table`` (keyed by the month branch) is the one Yang stem of the
    element of the month's three-harmony group."""
    from mingshu.bazi.stars import STEM_TARGET
    from mingshu.cycles import Polarity

    cells = _cells_of(table, (12,))
    bad = sum(
        list(cell) != [(STEM_TARGET, _stem_of(_group_element(m), int(Polarity.YANG)))]
        for m, cell in enumerate(cells)
    )
    return bad, len(cells)


def heavenly_virtue_from_group(table: str) -> tuple[int, int]:
    """Each cell of ``table`` (keyed by the month branch) follows the month's place in its
    three-harmony group: the first month (寅 申 巳 亥) gives the Yin stem of the group's
    element, the last (辰 戌 丑 未) the Yang stem, the middle one (子 午 卯 酉) the branch
    just after the group's last (the corner trigram's branch)."""
    from mingshu.bazi.stars import BRANCH_TARGET, STEM_TARGET
    from mingshu.cycles import Polarity
    from mingshu.library.engine import group_head

    cells = _cells_of(table, (12,))
    bad = 0
    for m, cell in enumerate(cells):
        head = group_head(m)
        element = _group_element(m)
        if m == head:
            want = (STEM_TARGET, _stem_of(element, int(Polarity.YIN)))
        elif m == (head + 8) % 12:
            want = (STEM_TARGET, _stem_of(element, int(Polarity.YANG)))
        else:
            want = (BRANCH_TARGET, (head + 9) % 12)
        bad += list(cell) != [want]
    return bad, len(cells)


# ------------------------------------------------ stars keyed by a stem (太极 国印 金舆 福星)


def stem_star_in_pillars(star: str, pillars: Sequence[str]) -> tuple[int, int]:
    """For every case, the engine's hits of ``star`` (default table and bases) are exactly,
    per basis, those of the ``pillars`` (year, month, day, hour) whose branch the data file's
    cell for the basis stem names.  A star read from the day stem walks every day stem with
    every arrangement of four branches; one read from the year stem too, every year pillar
    with every day pillar."""
    from mingshu.bazi import stars

    places = ("year", "month", "day", "hour")
    unknown = [p for p in pillars if p not in places]
    if unknown:
        raise InputError("args", f"pillars are {', '.join(places)}, not {unknown}")
    searched = {places.index(p) for p in pillars}
    s = stars.star(star)
    v = s.variant(s.default)
    cells = {_stems([k]).pop(): _branches(list(text)) for k, text in v.cells}
    at_stem = {"day_stem": 2, "year_stem": 0}
    if any(b not in at_stem for b in v.basis):
        raise InputError("args", f"{star} is not read from the day or year stem")
    cases = _year_and_day_pillars() if "year_stem" in v.basis else _pillar_layouts()
    bad = n = 0
    for branches, layout in cases:
        n += 1
        want: dict[str, list[int]] = {}
        for basis in v.basis:
            cell = cells[int(layout[at_stem[basis]].stem)]
            at = [i for i, b in enumerate(branches) if b in cell and i in searched]
            if at:
                want[basis] = at
        bad += _hits_by_basis(star, layout) != want
    return bad, n


def stem_star_in_four_pillars(star: str) -> tuple[int, int]:
    """:func:`stem_star_in_pillars` over all four pillars."""
    return stem_star_in_pillars(star, ("year", "month", "day", "hour"))


def emolument_steps(table: str, steps: int) -> tuple[int, int]:
    """Each cell of ``table`` (keyed by a stem) is the one branch ``steps`` after the stem's
    Emolument (禄, its Office stage under the default stage rules)."""
    from mingshu.bazi.stars import BRANCH_TARGET
    from mingshu.library.engine import emolument

    cells = _cells_of(table, (10,))
    bad = sum(
        list(cell) != [(BRANCH_TARGET, (emolument(s) + steps) % 12)] for s, cell in enumerate(cells)
    )
    return bad, len(cells)


def tables_apart(a: str, b: str, steps: int) -> tuple[int, int]:
    """Each cell of ``a`` is the one branch ``steps`` after the one branch of ``b``'s cell
    for the same key."""
    cells_a, cells_b = _cells_of(a), _cells_of(b)
    if len(cells_a) != len(cells_b):
        raise InputError("args", f"{a} and {b} are not keyed alike")
    bad = 0
    for x, y in zip(cells_a, cells_b, strict=True):
        bad += len(x) != 1 or len(y) != 1 or x[0][1] != (y[0][1] + steps) % 12
    return bad, len(cells_a)


def element_pairs_share(table: str) -> tuple[int, int]:
    """The Yang and the Yin stem of each element have the same cell in ``table``."""
    cells = _cells_of(table, (10,))
    bad = sum(sorted(cells[2 * e]) != sorted(cells[2 * e + 1]) for e in range(5))
    return bad, 5


def own_branch_pillars(table: str, pillars: Sequence[str]) -> tuple[int, int]:
    """The pillars of the sixty whose own branch is in their stem's cell of ``table`` are
    exactly ``pillars`` (written 甲子 …): a pillar counts against the claim where not so."""
    from mingshu.bazi.stars import BRANCH_TARGET
    from mingshu.cycles import SIXTY, Pillar

    named = {Pillar.parse(p, "args").index for p in pillars}
    cells = _cells_of(table, (10,))
    bad = sum(
        ((BRANCH_TARGET, int(p.branch)) in cells[int(p.stem)]) != (p.index in named) for p in SIXTY
    )
    return bad, len(SIXTY)


def stage_cells(
    table: str, stage: str, same_at: Sequence[str] | None = None, earth: str = "fire_earth"
) -> tuple[int, int]:
    """Each cell of ``table`` is the one branch where its key stands at the twelve-stage
    ``stage`` (``chang_sheng``, ``lin_guan`` …; yin stems counted backward, Earth with Fire
    or, ``earth = "water_earth"``, with Water), exactly at the keys ``same_at`` (every key
    when not given).  A table keyed by a nayin element is read with the element's Yang stem."""
    from mingshu.bazi.stars import BRANCH_TARGET
    from mingshu.bazi.tables import stage_table

    if earth not in ("fire_earth", "water_earth"):
        raise InputError("args", f"earth is fire_earth or water_earth, not {earth!r}")
    stages = stage_table(earth, "backward")
    if stage not in {stages[b].key for b in range(12)}:
        raise InputError("args", f"no stage {stage!r}")
    cells = _cells_of(table, (5, 10))
    if len(cells) == 5:
        elements = {e.names.hans: int(e) for e in Element}
        stems = [2 * e for e in range(5)]  # 甲 丙 戊 庚 壬: each element's Yang stem
        same = {elements[n] for n in same_at} if same_at is not None else set(range(5))
    else:
        stems = list(range(10))
        same = _stems(same_at) if same_at is not None else set(range(10))
    bad = 0
    for k, cell in enumerate(cells):
        at = next(b for b in range(12) if stages[stems[k] * 12 + b].key == stage)
        bad += (list(cell) == [(BRANCH_TARGET, at)]) != (k in same)
    return bad, len(cells)


# ---------------------------------------------- stars of the day pillar (魁罡 十恶大败 …)


def _pillar_set(ref: str) -> frozenset[int]:
    """The sixty-cycle indices a ``pillar_set`` table (``STAR.VARIANT``) lists."""
    from mingshu.bazi import stars

    key, _, variant = ref.partition(".")
    v = stars.star(key).variant(variant)
    if v.rule != "pillar_set":
        raise InputError("args", f"{ref} is not a list of pillars")
    return v.pillars


def day_pillar_star(star: str, pillars: Sequence[str]) -> tuple[int, int]:
    """For every day pillar with every hour pillar, the engine (default settings) finds
    ``star`` in the day pillar exactly when the day is one of ``pillars`` (written 甲子 …),
    and never in the hour pillar."""
    from mingshu.cycles import SIXTY, Pillar

    days = {Pillar.parse(p, "args").index for p in pillars}
    other = SIXTY[0]
    bad = n = 0
    for day in SIXTY:
        for hour in SIXTY:
            n += 1
            want = {"day_pillar": [2]} if day.index in days else {}
            bad += _hits_by_basis(star, (other, other, day, hour)) != want
    return bad, n


def emolument_void_days(table: str) -> tuple[int, int]:
    """The pillars a list holds are exactly those of the sixty whose stem's Emolument (禄)
    is one of the two void branches (空亡) of the pillar's own decade (旬)."""
    from mingshu.cycles import SIXTY
    from mingshu.library.engine import emolument

    listed = _pillar_set(table)
    bad = sum(
        (emolument(int(p.stem)) in {int(b) for b in p.void_branches}) != (p.index in listed)
        for p in SIXTY
    )
    return bad, len(SIXTY)


def clash_pairs(table: str) -> tuple[int, int]:
    """Each pillar a list holds comes with the pillar of the same stem on the opposite
    branch (丙子 with 丙午): a listed pillar whose partner is missing counts against it."""
    from mingshu.cycles import SIXTY, Pillar

    listed = _pillar_set(table)
    bad = sum(
        Pillar.of(int(SIXTY[i].stem), (int(SIXTY[i].branch) + 6) % 12).index not in listed
        for i in listed
    )
    return bad, len(listed)


# ------------------------------------------------- 金神 三奇 六秀日 德秀: hours, runs, groups


def hour_star_on_real_hours(
    star: str, day_stems: Sequence[str], hours: Sequence[str], variant: str = ""
) -> tuple[int, int]:
    """For every day pillar and each of its twelve real hour pillars (the hour stem follows
    the day stem, 五鼠遁), the engine finds ``star`` (default table, or ``variant``) exactly
    when the day stem is one of ``day_stems`` and the hour one of ``hours``, and then in the
    hour pillar only."""
    from mingshu.bazi import BaziSettings
    from mingshu.calendar.pillars import hour_pillar
    from mingshu.cycles import SIXTY

    settings = BaziSettings(star_variants={star: variant}) if variant else None
    stems, branches = _stems(day_stems), _branches(hours)
    other = SIXTY[0]
    bad = n = 0
    for day in SIXTY:
        for b in Branch:
            n += 1
            hour = hour_pillar(day.stem, b)
            found = _hits_by_basis(star, (other, other, day, hour), settings)
            at = sorted({p for ps in found.values() for p in ps})
            want = [3] if int(day.stem) in stems and int(b) in branches else []
            bad += at != want
    return bad, n


def stem_run_hits(star: str, runs: Sequence[str], reversible: bool) -> tuple[int, int]:
    """For every arrangement of the four stems (year to hour), the engine (default table)
    finds ``star`` in exactly the three pillars of a run of ``runs`` (written 乙丙丁) standing
    in adjacent pillars in order, or also backward when ``reversible``."""
    from mingshu.cycles import Pillar

    orders = [tuple(sorted(_stems([c])).pop() for c in run) for run in runs]
    if reversible:
        orders += [o[::-1] for o in orders]
    bad = n = 0
    for stems in itertools.product(range(10), repeat=4):
        n += 1
        pillars = tuple(Pillar.of(s, s % 2) for s in stems)
        want = sorted(
            {
                p
                for start in (0, 1)
                if stems[start : start + 3] in orders
                for p in (start, start + 1, start + 2)
            }
        )
        found = _hits_by_basis(star, pillars)
        bad += sorted({p for ps in found.values() for p in ps}) != want
    return bad, n


def virtue_and_grace_from_group(table: str) -> tuple[int, int]:
    """Each month's cell of ``table`` is its three-harmony element's two stems (the 德) and
    the two stems whose combination transforms into that element (the 秀); a Water month
    takes Earth's as well (水土同宫: 戊己 and 甲己)."""
    from mingshu.bazi.stars import STEM_TARGET

    def elements_of(m: int) -> set[int]:
        element = int(_group_element(m))
        return {element, 2} if element == 4 else {element}  # Water carries Earth (2)

    cells = _cells_of(table, (12,))
    bad = 0
    for m, cell in enumerate(cells):
        want: set[int] = set()
        for e in elements_of(m):
            want |= {2 * e, 2 * e + 1}
            # 甲己 化土, 乙庚 化金, 丙辛 化水, 丁壬 化木, 戊癸 化火: pair s, s + 5 gives (s + 2) % 5
            pair = next(s for s in range(5) if (s + 2) % 5 == e)
            want |= {pair, pair + 5}
        bad += sorted(cell) != sorted((STEM_TARGET, s) for s in want)
    return bad, len(cells)


def run_fixes_branch(run: str, start: int, at: str, branches: Sequence[str]) -> tuple[int, int]:
    """On real charts (the month stem follows the year stem, 五虎遁; the hour stem the day
    stem, 五鼠遁), the stems ``run`` (乙丙丁) standing in order from pillar ``start`` (0 year,
    1 month) occur only when the pillar ``at`` (month or hour) stands on one of ``branches``,
    and on each of them: every other case, and every branch never met, counts against it."""
    from mingshu.calendar.pillars import hour_pillar, month_stem
    from mingshu.cycles import SIXTY

    where = {"month": 1, "hour": 3}
    if at not in where or start not in (0, 1):
        raise InputError("args", "start is 0 or 1, at is month or hour")
    want = tuple(sorted(_stems([c])).pop() for c in run)
    allowed, met = _branches(branches), set()
    bad = n = 0
    for year in Stem:
        for m in Branch:
            month = int(month_stem(year, m))
            for day in SIXTY:
                for h in Branch:
                    stems = (int(year), month, int(day.stem), int(hour_pillar(day.stem, h).stem))
                    if stems[start : start + 3] != want:
                        continue
                    n += 1
                    branch = int(m) if at == "month" else int(h)
                    met.add(branch)
                    bad += branch not in allowed
    return bad + len(allowed - met), n


# ------------------------------------------------- 天赦 天医 童子煞 六厄: month, season, year


def month_day_pillar_star(star: str) -> tuple[int, int]:
    """For every month pillar with every day pillar, the engine finds ``star`` (default
    table, whose cells are day pillars) in the day pillar exactly when the day pillar is the
    one the data file's cell for the month branch names, and nowhere else."""
    from mingshu.bazi import stars
    from mingshu.cycles import SIXTY, Pillar

    v = stars.star(star).variant(stars.star(star).default)
    cells = {_branches([k]).pop(): {Pillar.parse(w).index for w in t.split()} for k, t in v.cells}
    other = SIXTY[0]
    bad = n = 0
    for month in SIXTY:
        for day in SIXTY:
            n += 1
            want = {"month_branch": [2]} if day.index in cells[int(month.branch)] else {}
            bad += _hits_by_basis(star, (other, month, day, other)) != want
    return bad, n


def branch_steps(table: str, steps: int) -> tuple[int, int]:
    """Each cell of ``table`` (keyed by a branch) is the one branch ``steps`` after its key."""
    from mingshu.bazi.stars import BRANCH_TARGET

    cells = _cells_of(table, (12,))
    bad = sum(list(c) != [(BRANCH_TARGET, (k + steps) % 12)] for k, c in enumerate(cells))
    return bad, len(cells)


def pardon_by_season(table: str, stems: Sequence[str]) -> tuple[int, int]:
    """Each month's cell of ``table`` is one day pillar, the same for the three months of a
    season (寅卯辰 spring …), on the Yang branch of the season's element (the element of its
    middle month: 卯 Wood, 午 Fire, 酉 Metal, 子 Water), with one of the ``stems``."""
    from mingshu.cycles import SIXTY, Polarity

    allowed = _stems(stems)
    v_cells = _cells_of(table, (12,))
    bad = 0
    for m, cell in enumerate(v_cells):
        season = (m - 2) % 12 // 3
        element = Branch((3 * season + 3) % 12).element
        yang = next(b for b in Branch if b.element is element and b.polarity is Polarity.YANG)
        ok = len(cell) == 1 and (
            int(SIXTY[cell[0][1]].branch) == int(yang) and int(SIXTY[cell[0][1]].stem) in allowed
        )
        same = all(v_cells[(3 * season + 2 + i) % 12] == cell for i in range(3))
        bad += not (ok and same)
    return bad, len(v_cells)


def branch_star_in_other_pillars(star: str) -> tuple[int, int]:
    """For every arrangement of the four branches, the engine (default settings) finds
    ``star``, keyed by the year or day branch, in exactly the other pillars whose branch the
    data file's cell for the basis branch names (the basis pillar left out)."""
    from mingshu.bazi import stars
    from mingshu.cycles import Pillar

    v = stars.star(star).variant(stars.star(star).default)
    at_basis = {"year_branch": 0, "day_branch": 2}
    if any(b not in at_basis for b in v.basis):
        raise InputError("args", f"{star} is not keyed by the year or day branch")
    cells = {_branches([k]).pop(): _branches(list(t)) for k, t in v.cells}
    bad = n = 0
    for branches in itertools.product(range(12), repeat=4):
        n += 1
        layout = tuple(Pillar.of(b % 2, b) for b in branches)
        want: dict[str, list[int]] = {}
        for basis in v.basis:
            own = at_basis[basis]
            cell = cells[branches[own]]
            at = [i for i, b in enumerate(branches) if b in cell and i != own]
            if at:
                want[basis] = at
        bad += _hits_by_basis(star, layout) != want
    return bad, n


# ------------------------------------- tables of the day-stem and branch-keyed stars


def _table_keys(star: str, variant: str, names: Sequence[str]) -> set[int]:
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

    keys = _table_keys(star, variant, at)
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
    keys = _table_keys(star, variant, at)
    bad = 0
    for s in range(10):
        there = tuple(b for b in range(12) if table[s * 12 + b].key == stage)
        bad += (bazi_cell(star, variant, s) == there) != (s in keys)
    return bad, 10


def cells_empty(star: str, variant: str, at: Sequence[str]) -> tuple[int, int]:
    """The table ``variant`` of ``star`` gives nothing exactly for the keys ``at``."""
    from mingshu.library.engine import bazi_cell

    keys = _table_keys(star, variant, at)
    n = _key_count(star, variant)
    return sum((not bazi_cell(star, variant, k)) != (k in keys) for k in range(n)), n


def cells_within(
    star: str, variant: str, at: Sequence[str], branches: Sequence[str]
) -> tuple[int, int]:
    """For the keys ``at`` the table gives branches, all of them among ``branches``; for
    every other key it gives none of ``branches``."""
    from mingshu.library.engine import bazi_cell

    keys = _table_keys(star, variant, at)
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


# ------------------------------------------------- Zi Wei: the decades and the small limit


def _limit_charts() -> Iterator[tuple[int, str, Any]]:
    """One chart for every year stem, every Life palace branch and both genders: lunar years
    1984 (甲) … 1993 (癸), months 1 … 12 at the Rat hour (month m puts the Life palace on
    the branch m + 1); the decades depend on nothing else but the class those give."""
    from mingshu import ziwei

    for stem in range(10):
        for month in range(1, 13):
            for gender in ("male", "female"):
                birth = ziwei.Birth.lunar(f"{1984 + stem}-{month}-1", 0, gender)
                yield stem, gender, ziwei.from_birth(birth)


def _decade_way(stem: int, gender: str) -> int:
    """+1 (forward) for yang men and yin women, -1 otherwise: 甲丙戊庚壬 are yang."""
    return 1 if (stem % 2 == 0) == (gender == "male") else -1


def decades_from_life_palace() -> tuple[int, int]:
    """On every chart of :func:`_limit_charts`: the first decade stands on the Life palace
    from the age of the five-element class's number (水二局 2 … 火六局 6), and each palace
    counted one step on (forward for yang men and yin women, back otherwise) holds the next
    ten years."""
    bad = n = 0
    for stem, gender, chart in _limit_charts():
        n += 1
        klass, life = int(chart.five_elements_class), int(chart.life_branch)
        way = _decade_way(stem, gender)
        for p in chart.palaces:
            steps = ((int(p.branch) - life) * way) % 12
            start = klass + 10 * steps
            if (p.decadal.start, p.decadal.end) != (start, start + 9):
                bad += 1
                break
    return bad, n


def small_limit_from_group(starts: Mapping[str, str]) -> tuple[int, int]:
    """For every year branch and both genders, age 1 of the small limit stands on the branch
    ``starts`` gives the year branch's group (``{"寅午戌": "辰", …}``), and each later age one
    branch on: forward for every man, back for every woman, whatever the year's polarity."""
    from mingshu import ziwei

    start_of: dict[int, int] = {}
    for group, start in starts.items():
        (target,) = _branches([start])
        for b in _branches(list(group)):
            start_of[b] = target
    if sorted(start_of) != list(range(12)):
        raise InputError("starts", "the groups must name each of the twelve branches once")
    bad = n = 0
    for yb in range(12):
        for gender, way in (("male", 1), ("female", -1)):
            n += 1
            chart = ziwei.from_birth(ziwei.Birth.lunar(f"{1984 + yb}-6-1", 0, gender))
            for p in chart.palaces:
                if any(int(p.branch) != (start_of[yb] + (a - 1) * way) % 12 for a in p.ages):
                    bad += 1
                    break
    return bad, n


def limits_same_way() -> tuple[int, int]:
    """On every chart of :func:`_limit_charts`, the decades and the small limit run the same
    way round the ring exactly when the year stem is yang."""
    bad = n = 0
    for stem, _gender, chart in _limit_charts():
        n += 1
        life = int(chart.life_branch)
        first = next(p for p in chart.palaces if int(p.branch) == life)
        after = next(p for p in chart.palaces if p.decadal.start == first.decadal.end + 1)
        decade_way = 1 if (int(after.branch) - life) % 12 == 1 else -1
        age1 = next(int(p.branch) for p in chart.palaces if 1 in p.ages)
        age2 = next(int(p.branch) for p in chart.palaces if 2 in p.ages)
        small_way = 1 if (age2 - age1) % 12 == 1 else -1
        bad += (decade_way == small_way) != (stem % 2 == 0)
    return bad, n


def childhood_limit(palaces: Sequence[str]) -> tuple[int, int]:
    """Before the first decade, the decade layer is the childhood limit (童限): at nominal
    age a it stands on the palace ``palaces[a - 1]`` (English names); at the age of the
    class's number it gives way to the first decade, on the Life palace.  For a chart of every
    five-element class and both genders."""
    import datetime as dt

    from mingshu import calendar, ziwei

    by_class: dict[tuple[int, str], Any] = {}
    for _stem, gender, chart in _limit_charts():
        by_class.setdefault((int(chart.five_elements_class), gender), chart)
    bad = n = 0
    for (klass, _gender), chart in sorted(by_class.items()):
        born = chart.lunar_date.year
        for age in range(1, klass + 1):
            n += 1
            # the last day of the lunar year of that nominal age: never before the birth
            day: dt.date = calendar.lunar_to_solar(born + age, 1, 1) - dt.timedelta(days=1)
            found = ziwei.horoscope(chart, day)
            name = next(
                str(p.name.names.english) for p in chart.palaces if p.branch == found.decadal.branch
            )
            want = (palaces[age - 1], True) if age < klass else ("Life", False)
            bad += (name, found.is_childhood) != want
    return bad + (len(by_class) != 10), n


def small_limit_to_year(men: Mapping[str, int]) -> tuple[int, int]:
    """Over nominal ages 1 … 60 of a birth in every year branch: for a man, the year's palace
    (流年, the horoscope's year layer) stands the same number of branches forward of the
    small limit at every age, the number ``men`` gives his year branch's group
    (``{"子卯午酉": 2, …}``); for a woman that distance changes from each year to the next."""
    import datetime as dt

    from mingshu import calendar, ziwei

    distance_of: dict[int, int] = {}
    for group, distance in men.items():
        for b in _branches(list(group)):
            distance_of[b] = int(distance)
    if sorted(distance_of) != list(range(12)):
        raise InputError("men", "the groups must name each of the twelve branches once")
    bad = n = 0
    for yb in range(12):
        for gender in ("male", "female"):
            chart = ziwei.from_birth(ziwei.Birth.lunar(f"{1984 + yb}-6-1", 0, gender))
            seen = []
            for age in range(1, 61):
                n += 1
                year = chart.lunar_date.year + age - 1
                day: dt.date = calendar.lunar_to_solar(year + 1, 1, 1) - dt.timedelta(days=1)
                found = ziwei.horoscope(chart, day)
                seen.append((int(found.yearly.branch) - int(found.age.branch)) % 12)
            if gender == "male":
                bad += sum(d != distance_of[yb] for d in seen)
            else:
                bad += sum(a == b for a, b in itertools.pairwise(seen))
    return bad, n


# ------------------------------------------------- Zi Wei: the year layer and its flowing stars

# The sixty lunar years 1984 (甲子) … 2043 (癸亥): every year pillar once.
_CYCLE_YEARS: Final = range(1984, 2044)


def _natal_of_year(year: int, hour: int = 0, gender: str = "female") -> Any:
    from mingshu import ziwei

    return ziwei.from_birth(ziwei.Birth.lunar(f"{year}-6-1", hour, gender))


def _year_horoscope(chart: Any, year: int) -> Any:
    """``chart``'s horoscope on 六月初一 of lunar ``year`` (as iztro reads a year)."""
    from mingshu import calendar, ziwei

    return ziwei.horoscope(chart, calendar.lunar_to_solar(year, 6, 1))


def year_palace_on_year_branch() -> tuple[int, int]:
    """The year layer's palace (流年命宫) is the year's own branch, on the charts of four
    different births (both sexes, two hours), in each of the sixty years of a cycle."""
    births = [_natal_of_year(1950, h, g) for h in (0, 7) for g in ("male", "female")]
    bad = n = 0
    for year in _CYCLE_YEARS:
        for chart in births:
            n += 1
            layer = _year_horoscope(chart, year).yearly
            bad += layer.branch != layer.pillar.branch
    return bad, n


def flowing_on_natal(pairs: Mapping[str, str]) -> tuple[int, int]:
    """For a birth in each of the sixty years of a cycle: in the year the birth's pillar
    returns (nominal age 61), each flowing year star of ``pairs`` stands on the branch of the
    natal star it names (``{"liu_lu": "lu_cun", …}``)."""
    bad = n = 0
    for year in _CYCLE_YEARS:
        chart = _natal_of_year(year)
        layer = _year_horoscope(chart, year + 60).yearly
        bad += layer.pillar != chart.pillars.year
        flowing = {s.star.key: int(s.branch) for s in layer.stars}
        for liu, natal in pairs.items():
            n += 1
            if liu not in flowing:
                raise InputError("pairs", f"no flowing year star {liu!r}")
            bad += flowing[liu] != int(chart.star(natal).branch)
    return bad, n


def year_mutagens_as_natal() -> tuple[int, int]:
    """The year's four transformations (禄 权 科 忌 of the year stem) are the stars a birth in
    a year of that stem has transformed, in that order, in each of the sixty years."""
    bad = n = 0
    for year in _CYCLE_YEARS:
        n += 1
        chart = _natal_of_year(year)
        natal = sorted(
            (int(s.mutagen), s.star.key)
            for p in chart.palaces
            for s in p.stars
            if s.mutagen is not None
        )
        layer = _year_horoscope(_natal_of_year(1950), year).yearly
        bad += [k for _m, k in natal] != [s.key for s in layer.mutagens]
    return bad, n


def flowing_by_stem(star: str, table: str, avoid: str) -> tuple[int, int]:
    """The flowing year star ``star`` stands on ``table``'s branch for the year stem (甲 … 癸,
    ten branches in Chinese), on two births of different hours, and never on a branch of
    ``avoid``, in each of the sixty years."""
    branches = [min(_branches([c])) for c in table]
    if len(branches) != 10:
        raise InputError("table", "give ten branches, one per stem 甲 … 癸")
    avoided = _branches(list(avoid))
    births = [_natal_of_year(1950, h) for h in (0, 5)]
    bad = n = 0
    for year in _CYCLE_YEARS:
        for chart in births:
            n += 1
            layer = _year_horoscope(chart, year).yearly
            at = next((int(s.branch) for s in layer.stars if s.star.key == star), None)
            if at is None:
                raise InputError("star", f"no flowing year star {star!r}")
            bad += at != branches[int(layer.pillar.stem)] or at in avoided
    return bad, n


def flowing_offsets(offsets: Sequence[Sequence[Any]]) -> tuple[int, int]:
    """Each ``[star, from, steps]``: the flowing year star stands ``steps`` branches on from
    the flowing star ``from`` (back when negative), in each of the sixty years."""
    chart = _natal_of_year(1950)
    bad = n = 0
    for year in _CYCLE_YEARS:
        at = {s.star.key: int(s.branch) for s in _year_horoscope(chart, year).yearly.stars}
        for star, start, steps in offsets:
            n += 1
            if star not in at or start not in at:
                raise InputError("offsets", f"no flowing year star {star!r} or {start!r}")
            bad += at[star] != (at[start] + int(steps)) % 12
    return bad, n


def decade_flowing_as_year() -> tuple[int, int]:
    """Each decade's flowing stars (运禄, 运马 …) stand where the year layer's namesakes
    (流禄, 流马 …) stand in a year of the decade palace's pillar: one rule, read with the
    layer's own stem and branch.  Over every decade of charts of every year stem and Life
    palace branch, both sexes."""
    year_of: dict[Any, dict[str, int]] = {}
    chart = _natal_of_year(1950)
    for year in _CYCLE_YEARS:
        layer = _year_horoscope(chart, year).yearly
        year_of[layer.pillar] = {
            s.star.key.removeprefix("liu_"): int(s.branch) for s in layer.stars
        }
    from mingshu import ziwei

    bad = n = 0
    for _stem, _gender, natal in _limit_charts():
        for period in ziwei.decades(natal):
            n += 1
            layer = period.layer
            found = {s.star.key.removeprefix("yun_"): int(s.branch) for s in layer.stars}
            want = {k: v for k, v in year_of[layer.pillar].items() if k in found}
            bad += found != want or len(found) != len(year_of[layer.pillar]) - 1
    return bad, n


# ------------------------------------------------------------- Zi Wei: brightness by school


def grades_as_tables() -> tuple[int, int]:
    """Under each school, every star a chart places carries the grade its school's table
    gives its branch (no grade where the table has none, or no row), on the charts of every
    year stem, Life palace branch and sex."""
    from mingshu import ziwei
    from mingshu.library.engine import SCHOOLS, grade_rows, school_settings

    bad = n = 0
    for school in SCHOOLS:
        rows, settings = grade_rows(school), school_settings(school)
        for _stem, _gender, chart in _limit_charts():
            if school != "iztro":
                chart = ziwei.from_birth(chart.birth, settings)
            for palace in chart.palaces:
                for placed in palace.stars:
                    n += 1
                    want = rows.get(placed.star.key, (None,) * 12)[int(palace.branch)]
                    got = None if placed.brightness is None else int(placed.brightness)
                    bad += got != want
    return bad, n


def schools_grade_apart(cells: Sequence[Sequence[str]]) -> tuple[int, int]:
    """The default and the book's (quanshu) brightness tables differ exactly on ``cells``
    ([star key, branch in Chinese]), over every cell of every star either school grades."""
    from mingshu.library.engine import grade_rows

    a, b = grade_rows("iztro"), grade_rows("quanshu")
    named = {(str(star), min(_branches([str(branch)]))) for star, branch in cells}
    bad = n = 0
    for star in a:
        for branch in range(12):
            n += 1
            bad += (a[star][branch] != b[star][branch]) != ((star, branch) in named)
    return bad + len(named - {(s, br) for s in a for br in range(12)}), n


def _stage_settings(settings: Mapping[str, str]) -> Any:
    from mingshu.bazi import BaziSettings

    if set(settings) - {"stage_earth", "stage_yin"}:
        raise InputError("args", "settings: only stage_earth and stage_yin")
    return BaziSettings().replace(**settings)


def _stage_index(stem: Stem, branch: Branch, settings: Any) -> int:
    from mingshu import bazi

    return int(bazi.stage(stem, branch, settings).number)


def stages_counted_from_birth(
    settings: Mapping[str, str], births: str, yin_runs: str
) -> tuple[int, int]:
    """Under ``settings``, every stem's stage on every branch is the number of steps from
    the stem's Birth branch (``births``: ten branches, 甲 … 癸) in the stage order, counted
    forward (子 → 丑 …) for the yang stems and ``yin_runs`` (``forward`` or ``backward``) for
    the yin stems (120 cells)."""
    starts = [Branch.parse(c, "births") for c in births]
    if len(starts) != 10 or yin_runs not in ("forward", "backward"):
        raise InputError("args", "births: ten branches; yin_runs: forward or backward")
    s = _stage_settings(settings)
    bad = 0
    for stem in Stem:
        back = stem % 2 == 1 and yin_runs == "backward"  # 乙 丁 己 辛 癸 are the yin stems
        for branch in Branch:
            steps = (starts[stem] - branch) if back else (branch - starts[stem])
            bad += _stage_index(stem, branch, s) != steps % 12
    return bad, 120


def stages_of_partners(
    settings: Mapping[str, str], pairs: Sequence[Sequence[str]]
) -> tuple[int, int]:
    """Under ``settings``, on every branch, the stages of each yang stem and of the yin stem of
    its phase (甲 and 乙, …) form one of ``pairs`` (stage keys, yang's first): 60 cases."""
    from mingshu import bazi

    allowed = {(str(a), str(b)) for a, b in pairs}
    s = _stage_settings(settings)
    bad = 0
    for yang in range(0, 10, 2):
        for branch in Branch:
            a = bazi.stage(Stem(yang), branch, s).key
            b = bazi.stage(Stem(yang + 1), branch, s).key
            bad += (str(a), str(b)) not in allowed
    return bad, 60


def stages_same_cycle(
    settings: Mapping[str, str], same: Sequence[Sequence[str]]
) -> tuple[int, int]:
    """Under ``settings``, each pair of stems in ``same`` has the same stage on every branch
    (12 cases a pair)."""
    s = _stage_settings(settings)
    pairs = [(Stem.parse(a, "same"), Stem.parse(b, "same")) for a, b in same]
    bad = sum(
        _stage_index(a, branch, s) != _stage_index(b, branch, s)
        for a, b in pairs
        for branch in Branch
    )
    return bad, 12 * len(pairs)


def stage_cells_differ(
    settings: Mapping[str, str], other_settings: Mapping[str, str], differ: str
) -> tuple[int, int]:
    """Between ``settings`` and ``other_settings``, every cell of the stems in ``differ``
    changes its stage and no cell of another stem does (120 cells)."""
    a, b = _stage_settings(settings), _stage_settings(other_settings)
    moved = _stems(list(differ))
    bad = sum(
        (_stage_index(stem, branch, a) != _stage_index(stem, branch, b)) != (stem in moved)
        for stem in Stem
        for branch in Branch
    )
    return bad, 120


def stage_is_star(stage: str, star: str, variant: str, stems: str) -> tuple[int, int]:
    """For each of ``stems``, the branch where the engine's default stages put it at
    ``stage`` is the one branch the BaZi star table ``star`` / ``variant`` gives it."""
    from mingshu import bazi
    from mingshu.library.engine import bazi_cell

    s = bazi.BaziSettings()
    chosen = _stems(list(stems))
    bad = 0
    for stem in sorted(chosen):
        at = {int(b) for b in Branch if bazi.stage(Stem(stem), b, s).key == stage}
        bad += set(bazi_cell(star, variant, stem)) != at
    return bad, len(chosen)


def _phase(name: str, field: str) -> Any:
    from mingshu.cycles import Element

    for e in Element:
        if name in (e.names.hans, e.key):
            return e
    raise InputError("args", f"{field}: {name!r} is not a phase (木 火 土 金 水)")


def _nayin_phase(index: int) -> Any:
    from mingshu import bazi
    from mingshu.cycles import SIXTY

    return bazi.nayin(SIXTY[index]).element


def nayin_book_phases(phases: str) -> tuple[int, int]:
    """The engine's nayin phase of each of the sixty pillars (甲子 first) is the phase
    ``phases`` (sixty characters 木 火 土 金 水, as a book lists them) gives it."""
    if len(phases) != 60:
        raise InputError("args", "phases: sixty characters, one per pillar from 甲子")
    return sum(_nayin_phase(i) != _phase(c, "phases") for i, c in enumerate(phases)), 60


def nayin_by_stem_count(targets: Mapping[str, str], phases: Mapping[str, str]) -> tuple[int, int]:
    """Each pillar's nayin phase is the one ``phases`` names for the count of stems from the
    pillar's stem forward to the stem ``targets`` gives its branch (both ends counted; keys
    of ``targets`` are branches, two opposite branches sharing a stem)."""
    from mingshu.cycles import SIXTY

    to = {b: Stem.parse(t, "targets") for key, t in targets.items() for b in _branches(list(key))}
    if len(to) != 12:
        raise InputError("args", "targets: a stem for each of the twelve branches")
    bad = 0
    for i, pillar in enumerate(SIXTY):
        count = (to[int(pillar.branch)] - pillar.stem) % 10 + 1
        bad += _nayin_phase(i) != _phase(str(phases.get(str(count), "")), "phases")
    return bad, 60


def nayin_by_numbers(
    numbers: Mapping[str, int], total: int, phases: Mapping[str, str]
) -> tuple[int, int]:
    """For each of the thirty pairs of pillars, take ``total`` less the sum of the numbers of
    its two stems and two branches; the last digit names a phase in ``phases`` and the
    pair's nayin phase is the phase that one produces (30 pairs)."""
    from mingshu.cycles import SIXTY

    value = {name: int(n) for key, n in numbers.items() for name in key}
    bad = 0
    for pair in range(30):
        first, second = SIXTY[2 * pair], SIXTY[2 * pair + 1]
        parts = (first.stem, first.branch, second.stem, second.branch)
        names = [p.names.hans for p in parts]
        if any(n not in value for n in names):
            raise InputError("args", f"numbers: no number for one of {names}")
        digit = (total - sum(value[n] for n in names)) % 10
        produced = _phase(str(phases.get(str(digit), "")), "phases").generates()
        bad += _nayin_phase(2 * pair) != produced
    return bad, 30


def nayin_by_sum(numbers: Mapping[str, int], phases: Mapping[str, str]) -> tuple[int, int]:
    """Each pillar's nayin phase is the one ``phases`` names for the sum of its stem's and
    its branch's numbers (``numbers``: keys are groups of stems or branches), five taken
    away while it is above five (60 pillars)."""
    from mingshu.cycles import SIXTY

    value = {name: int(n) for key, n in numbers.items() for name in key}
    bad = 0
    for i, pillar in enumerate(SIXTY):
        names = (pillar.stem.names.hans, pillar.branch.names.hans)
        if any(n not in value for n in names):
            raise InputError("args", f"numbers: no number for one of {names}")
        total = (value[names[0]] + value[names[1]] - 1) % 5 + 1
        bad += _nayin_phase(i) != _phase(str(phases.get(str(total), "")), "phases")
    return bad, 60


def nayin_opposite_branch_same_phase() -> tuple[int, int]:
    """Each pillar and the pillar thirty places on (same stem, opposite branch) have nayin of
    the same phase (30 pairs)."""
    return sum(_nayin_phase(i) != _nayin_phase(i + 30) for i in range(30)), 30


def ziwei_class_is_nayin() -> tuple[int, int]:
    """For each of the sixty pillars, the Zi Wei engine's five-element class (its own number
    rule) is of the phase of the BaZi engine's nayin (60 pillars)."""
    from mingshu.cycles import SIXTY
    from mingshu.ziwei.tables import nayin_class

    bad = 0
    for i, pillar in enumerate(SIXTY):
        klass = nayin_class(int(pillar.stem), int(pillar.branch))
        bad += klass.key.split("_")[0] != _nayin_phase(i).key
    return bad, 60


def ming_gong_walk(month_one: str, target: str, tiger_stems: str) -> tuple[int, int]:
    """Every year stem, month and hour: the engine's Life palace (命宫) is found by putting the
    first month (the Tiger month) on ``month_one`` and the later months backward, then the
    birth hour on the birth month's place and the later hours forward, until ``target`` is
    reached; its stem is the Tiger rule's (``tiger_stems``: the Tiger month's stem for the
    year stems 甲己, 乙庚, 丙辛, 丁壬, 戊癸) counted on to that branch (1440 cases)."""
    from mingshu import bazi

    (start,), (goal,) = _branches([month_one]), _branches([target])
    tigers = [Stem.parse(c, "tiger_stems") for c in tiger_stems]
    if len(tigers) != 5:
        raise InputError("args", "tiger_stems: five stems, for 甲己 乙庚 丙辛 丁壬 戊癸")
    bad = 0
    for year in Stem:
        for month in Branch:
            for hour in Branch:
                place = (start - (month - Branch.YIN)) % 12  # the month's place
                branch = (place + goal - hour) % 12  # count on from the hour to the target
                stem = (tigers[year % 5] + (branch - Branch.YIN) % 12) % 10
                found = bazi.ming_gong(year, month, hour)
                bad += (int(found.stem), int(found.branch)) != (stem, branch)
    return bad, 1440


def ming_gong_never_ziwei_life() -> tuple[int, int]:
    """For each month number (1 = the Tiger month in BaZi, the first lunar month in Zi Wei)
    and hour, the BaZi Life palace and the Zi Wei Life palace stand on different branches
    (144 cases)."""
    from mingshu import bazi
    from mingshu.library.engine import life_branch

    same = 0
    for m in range(1, 13):
        for hour in Branch:
            found = bazi.ming_gong(Stem.JIA, Branch((m + 1) % 12), hour)
            same += int(found.branch) == life_branch(m, int(hour))
    return same, 144


def tai_yuan_steps(stem_step: int, branch_step: int, months_back: int) -> tuple[int, int]:
    """For each of the sixty month pillars, the conception pillar (胎元) is the stem
    ``stem_step`` on with the branch ``branch_step`` on, which is also the month pillar
    ``months_back`` months earlier in the sixty cycle (60 cases)."""
    from mingshu import bazi
    from mingshu.cycles import SIXTY

    bad = 0
    for p in SIXTY:
        found = bazi.tai_yuan(p)
        stepped = ((p.stem + stem_step) % 10, (p.branch + branch_step) % 12)
        earlier = SIXTY[(p.index - months_back) % 60]
        bad += (int(found.stem), int(found.branch)) != stepped or found != earlier
    return bad, 60


def tai_xi_partners(stems: Sequence[str], branches: Sequence[str]) -> tuple[int, int]:
    """For each of the sixty day pillars, the conception breath (胎息) is the day stem's
    partner in ``stems`` (pairs) with the day branch's partner in ``branches``, and the
    breath of the breath is the day pillar again (60 cases)."""
    from mingshu import bazi
    from mingshu.cycles import SIXTY

    def partners(pairs: Sequence[str], parse: Callable[[str, str], Any]) -> dict[int, int]:
        out: dict[int, int] = {}
        for a, b in (tuple(pair) for pair in pairs):
            x, y = int(parse(a, "args")), int(parse(b, "args"))
            out[x], out[y] = y, x
        return out

    stem_of, branch_of = partners(stems, Stem.parse), partners(branches, Branch.parse)
    if len(stem_of) != 10 or len(branch_of) != 12:
        raise InputError("args", "stems: five pairs; branches: six pairs")
    bad = 0
    for p in SIXTY:
        found = bazi.tai_xi(p)
        want = (stem_of[int(p.stem)], branch_of[int(p.branch)])
        bad += (int(found.stem), int(found.branch)) != want or bazi.tai_xi(found) != p
    return bad, 60


def luck_forward_when(forward: Sequence[Sequence[str]]) -> tuple[int, int]:
    """For every year stem and gender, the luck pillars run forward exactly for the
    (polarity, gender) pairs in ``forward`` (``yang``/``yin``, ``male``/``female``): 20 cases."""
    from mingshu.bazi.luck import is_forward
    from mingshu.gender import Gender

    wanted = {(str(p), str(g)) for p, g in forward}
    bad = 0
    for stem in Stem:
        polarity = "yang" if stem % 2 == 0 else "yin"
        for gender in Gender:
            bad += is_forward(stem, gender) != ((polarity, gender.value) in wanted)
    return bad, 20


def start_age_rate(
    methods: Sequence[str], per_day: int, per_shichen: int, skip_hours: Sequence[int] = ()
) -> tuple[int, int]:
    """Under each start-age method, from a birth at the half hour of every clock hour, a span
    of d whole days and h whole two-hour periods (d 0–30, h 0–11) gives a start age of
    d × ``per_day`` + h × ``per_shichen`` days of life (a year 360 days, a month 30):
    24 × 372 spans a method, less those starting or ending in a clock hour of
    ``skip_hours``."""
    from datetime import datetime, timedelta

    from mingshu.bazi import BaziSettings
    from mingshu.bazi.luck import start_span

    bad = cases = 0
    for name in methods:
        method = BaziSettings().replace(start_age=str(name)).start_age
        for clock in range(24):
            birth = datetime(2000, 1, 1, clock, 30)
            for d in range(31):
                for h in range(12):
                    end = birth + timedelta(days=d, hours=2 * h)
                    if birth.hour in skip_hours or end.hour in skip_hours:
                        continue
                    span = start_span(method, birth, end)
                    life = span.years * 360 + span.months * 30 + span.days
                    exact = span.hours == 0 and span.minutes == 0
                    bad += life != d * per_day + h * per_shichen or not exact
                    cases += 1
    return bad, cases


def luck_counts_from_nearest_jie(year: int) -> tuple[int, int]:
    """For a birth at noon (Beijing time) on every day of ``year``, man and woman: the luck
    span runs to the first month-opening solar term (节) after the birth when the luck runs
    forward, and from the last one before it when backward; the span is the time between."""
    from datetime import datetime, timedelta

    from mingshu import bazi, calendar
    from mingshu.calendar import SolarTerm, seconds_of

    moments = sorted(
        calendar.term_moment(y, t) for y in range(year - 1, year + 2) for t in SolarTerm if t.is_jie
    )
    bad = cases = 0
    day = datetime(year, 1, 1, 12, 0)
    while day.year == year:
        after = next(m for m in moments if m > day)
        before = max(m for m in moments if m <= day)
        for gender in ("male", "female"):
            lk = bazi.chart_at(day, gender).luck
            want = after if lk.forward else before
            span = abs(seconds_of(want) - seconds_of(day))
            bad += lk.jie_moment != want or lk.span_seconds != span
            cases += 1
        day += timedelta(days=1)
    return bad, cases


def luck_steps_from_month(year: int, steps: int) -> tuple[int, int]:
    """For a birth at noon (Beijing time) on every day of ``year``, man and woman: luck pillar
    k (1 … ``steps``) is the month pillar moved k places through the sixty, forward or
    backward as the luck runs."""
    from datetime import datetime, timedelta

    from mingshu import bazi
    from mingshu.cycles import SIXTY

    bad = cases = 0
    day = datetime(year, 1, 1, 12, 0)
    while day.year == year:
        for gender in ("male", "female"):
            chart = bazi.chart_at(day, gender)
            lk, month = chart.luck, chart.pillars.month
            sign = 1 if lk.forward else -1
            for k in range(1, steps + 1):
                bad += lk.steps[k - 1].pillar != SIXTY[(month.index + sign * k) % 60]
                cases += 1
        day += timedelta(days=1)
    return bad, cases


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
        stages_counted_from_birth,
        stages_of_partners,
        stages_same_cycle,
        stage_cells_differ,
        stage_is_star,
        nayin_book_phases,
        nayin_by_stem_count,
        nayin_by_numbers,
        nayin_by_sum,
        nayin_opposite_branch_same_phase,
        ziwei_class_is_nayin,
        ming_gong_walk,
        ming_gong_never_ziwei_life,
        tai_yuan_steps,
        tai_xi_partners,
        luck_forward_when,
        start_age_rate,
        luck_counts_from_nearest_jie,
        luck_steps_from_month,
        hits_name_table_and_basis,
        basis_pillar_runs,
        basis_pillar_changes,
        variants_agree,
        eating_god_emolument_agrees,
        kitchen_vs_literary_star,
        nobleman_table_is_walk,
        cells_avoid,
        ziwei_year_table,
        ziwei_offset,
        ziwei_not_placed,
        year_boundary_moves,
        # the twelve-god cycles, over the walk of god_cycles
        god_cycles.cycle_from,
        god_cycles.god_only_on,
        god_cycles.god_with_star,
        god_cycles.gods_as_bazi_stars,
        god_cycles.schools_same_cycle,
        school_star_count,
        frame.no_mutagen,
        frame.master_by,
        month_star_in_four_pillars,
        tables_agree,
        combination_partners,
        month_virtue_from_group,
        heavenly_virtue_from_group,
        stem_star_in_four_pillars,
        emolument_steps,
        tables_apart,
        element_pairs_share,
        own_branch_pillars,
        stem_star_in_pillars,
        stage_cells,
        day_pillar_star,
        emolument_void_days,
        clash_pairs,
        hour_star_on_real_hours,
        stem_run_hits,
        virtue_and_grace_from_group,
        run_fixes_branch,
        month_star_in_pillars,
        month_day_pillar_star,
        branch_steps,
        pardon_by_season,
        branch_star_in_other_pillars,
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
        decades_from_life_palace,
        small_limit_from_group,
        limits_same_way,
        childhood_limit,
        small_limit_to_year,
        year_palace_on_year_branch,
        flowing_on_natal,
        year_mutagens_as_natal,
        flowing_by_stem,
        flowing_offsets,
        decade_flowing_as_year,
        grades_as_tables,
        schools_grade_apart,
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
