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
