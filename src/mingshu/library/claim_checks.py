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
