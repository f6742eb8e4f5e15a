"""The four twelve-god cycles of a Zi Wei chart (长生, 博士, 岁前, 将前) as the library's
kinds need them: which god stands where on a chart, the way a cycle runs, and a walk over
every birth a cycle depends on, under either school.

A cycle depends on the year pillar (its stem's polarity, the year branch, 禄存 by the stem),
the Life palace (whose pillar gives the five-element class), the gender and the school; the
walk charts every year of the sixty (1984 甲子 on, lunar new year's day, far from the year
boundaries) in each of the twelve months (so the Life palace visits every branch) for both
genders.  The table, problem and claim kinds built here read the charts at call time;
nothing about a cycle is typed in.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from functools import cache
from typing import Any, Final

from mingshu.errors import InputError
from mingshu.library.engine import (
    SCHOOLS,
    Options,
    Table,
    branch_name,
    branch_number,
    hour_number,
    school_of,
    school_settings,
)

__all__ = [
    "DIRECTIONS",
    "bazi_stars_table",
    "class_name",
    "class_starts_table",
    "companions_table",
    "cycle_classes",
    "cycle_directions_table",
    "cycle_god_answer",
    "cycle_gods_table",
    "cycle_years",
    "god_branch",
    "god_index",
    "runs",
    "walk",
]

DIRECTIONS: Final = ("polarity", "gender", "forward")
"""The ways a claim may say a cycle runs: forward for a yang-year man or a yin-year woman
(阳男阴女) and back otherwise; forward for a man and back for a woman; always forward."""


def _cycle(key: object) -> Any:
    from mingshu.ziwei.tables import CYCLES

    if str(key) not in CYCLES:
        raise InputError("cycle", f"{key!r} is not a cycle ({', '.join(CYCLES)})")
    return CYCLES[str(key)]


def god_index(cycle: object, god: object) -> int:
    """The place (0 … 11) of ``god`` (key, pinyin or 简体 name) in ``cycle``."""
    text = str(god).strip().lower()
    c = _cycle(cycle)
    for g in (*c.gods, *c.zhongzhou_gods):
        if text in (g.key, g.names.pinyin.lower(), g.names.hans, g.names.hant):
            return int(g.position)
    raise InputError("god", f"{god!r} is not a god of the {cycle} cycle")


def god_label(cycle: object, position: int) -> str:
    g = _cycle(cycle).gods[position]
    return f"{g.names.pinyin} ({g.names.hans}, {g.names.english})"


def gods_at(chart: Any, cycle: str) -> dict[int, int]:
    """God position → the branch holding it on ``chart``."""
    return {int(getattr(p, cycle).position): int(p.branch) for p in chart.palaces}


def _named_gods(chart: Any, cycle: str) -> dict[int, tuple[int, str]]:
    """God position → (branch, the name the chart gives that god)."""
    return {
        int(getattr(p, cycle).position): (int(p.branch), getattr(p, cycle).names.hans)
        for p in chart.palaces
    }


def _cell(cycle: str, position: int, branch: int, hans: str) -> str:
    """A branch, with the god's name where the chart names it otherwise (中州's 岁破)."""
    usual = _cycle(cycle).gods[position].names.hans
    return branch_name(branch) if hans == usual else f"{branch_name(branch)} ({hans})"


def god_branch(chart: Any, cycle: str, god: int) -> int:
    return gods_at(chart, cycle)[god]


def runs(chart: Any, cycle: str) -> int:
    """1 when the cycle runs forward (子 → 丑 …) on the chart, -1 when it runs back."""
    at = gods_at(chart, cycle)
    return 1 if (at[1] - at[0]) % 12 == 1 else -1


def class_name(chart: Any) -> str:
    """The chart's five-element class as the articles write it: "Water 2"."""
    return str(chart.five_elements_class.names.english)


def _settings(school: str, algorithm: str = "") -> Any:
    """The chart settings of ``school``; ``algorithm: zhongzhou`` for the 中州 rules (the
    default algorithm otherwise)."""
    from mingshu import ziwei

    if not algorithm:
        return school_settings(school)
    if algorithm not in tuple(ziwei.Algorithm):
        raise InputError("algorithm", f"{algorithm!r}: write {' or '.join(ziwei.Algorithm)}")
    return ziwei.ZiweiSettings(school=ziwei.School(school), algorithm=ziwei.Algorithm(algorithm))


@cache
def _walk_chart(offset: int, month: int, gender: str, school: str, algorithm: str) -> Any:
    from mingshu import ziwei

    settings = _settings(school, algorithm)
    return ziwei.by_lunar(f"{1984 + offset}-{month:02d}-01", 0, gender, settings=settings)


def walk(school: str = "iztro", algorithm: str = "") -> Iterator[Any]:
    """Every chart of the walk under ``school`` (and ``algorithm``): the sixty years ×
    twelve months × both genders (1,440 charts)."""
    if school not in SCHOOLS:
        raise InputError("school", f"{school!r} is not a school ({', '.join(SCHOOLS)})")
    for offset in range(60):
        for month in range(1, 13):
            for gender in ("male", "female"):
                yield _walk_chart(offset, month, gender, school, algorithm)


def birth_chart(b: Options) -> Any:
    """The chart of a birth ``{lunar, hour, gender, leap, school, algorithm}``."""
    from mingshu import ziwei

    return ziwei.by_lunar(
        str(b["lunar"]),
        hour_number(b.get("hour", 0)),
        str(b.get("gender", "male")),
        leap=bool(b.get("leap", False)),
        settings=_settings(school_of(b), str(b.get("algorithm", ""))),
    )


def is_man(chart: Any) -> bool:
    from mingshu.gender import Gender

    return bool(chart.birth.gender is Gender.MALE)


def yang_year(chart: Any) -> bool:
    return int(chart.pillars.year.stem) % 2 == 0


def expected_runs(chart: Any, direction: str) -> int:
    """The way ``direction`` (one of :data:`DIRECTIONS`) says the cycle runs on ``chart``."""
    if direction == "forward":
        return 1
    if direction == "gender":
        return 1 if is_man(chart) else -1
    if direction == "polarity":
        return 1 if is_man(chart) == yang_year(chart) else -1
    raise InputError("direction", f"{direction!r}: write one of {', '.join(DIRECTIONS)}")


# -------------------------------------------------------------------------------- tables


def _way(ways: set[int]) -> str:
    return " or ".join(w for v, w in ((1, "forward"), (-1, "back")) if v in ways)


def class_starts_table(options: Options) -> Table:
    """Each five-element class and the branch(es) holding ``god`` of ``cycle`` on every chart
    of that class in the walk (default school)."""
    cycle = str(options.get("cycle", "chang_sheng"))
    god = god_index(cycle, options.get("god", _cycle(cycle).gods[0].key))
    found: dict[int, tuple[str, set[int]]] = {}
    for chart in walk():
        klass = chart.five_elements_class
        name = f"{klass.names.english} ({klass.names.hans})"
        found.setdefault(int(klass), (name, set()))[1].add(god_branch(chart, cycle, god))
    rows = tuple(
        (name, ", ".join(branch_name(b) for b in sorted(branches)))
        for _n, (name, branches) in sorted(found.items())
    )
    return Table(("Five-element class", god_label(cycle, god)), rows)


def cycle_directions_table(options: Options) -> Table:
    """The way ``cycle`` runs for each gender and year polarity, under each school, over
    every chart of the walk."""
    cycle = str(options.get("cycle", "chang_sheng"))
    _cycle(cycle)
    ways: dict[tuple[bool, bool, str], set[int]] = {}
    for school in SCHOOLS:
        for chart in walk(school):
            ways.setdefault((yang_year(chart), is_man(chart), school), set()).add(
                runs(chart, cycle)
            )
    rows = tuple(
        (
            f"{'yang' if yang else 'yin'}-year {'man' if man else 'woman'}",
            *(_way(ways[(yang, man, s)]) for s in SCHOOLS),
        )
        for yang in (True, False)
        for man in (True, False)
    )
    return Table(("Birth", *SCHOOLS), rows)


def cycle_gods_table(options: Options) -> Table:
    """The twelve gods of ``cycle`` and the branch each stands on, one column per birth
    (``births``: each ``{label, lunar, hour, gender, leap, school, algorithm}``)."""
    cycle = str(options.get("cycle", "chang_sheng"))
    births = options.get("births")
    if not isinstance(births, list) or not births:
        raise InputError("births", "give births as a list of {label, lunar, hour, gender, leap}")
    columns = []
    for b in births:
        if not isinstance(b, Mapping) or "lunar" not in b or "label" not in b:
            raise InputError("births", "each birth needs a label and a lunar date")
        columns.append(_named_gods(birth_chart(b), cycle))
    rows = tuple(
        (god_label(cycle, g), *(_cell(cycle, g, *at[g]) for at in columns)) for g in range(12)
    )
    return Table(("God", *(str(b["label"]) for b in births)), rows)


def companions_table(options: Options) -> Table:
    """Each god of ``cycle`` and the stars that share its palace on every chart of the walk
    under ``school`` (and ``algorithm``); "–" where none does."""
    cycle = str(options.get("cycle", "chang_sheng"))
    school, algorithm = school_of(options), str(options.get("algorithm", ""))
    always: dict[int, set[str]] = {}
    names: dict[str, str] = {}
    for chart in walk(school, algorithm):
        for p in chart.palaces:
            keys = set()
            for placed in p.stars:
                keys.add(placed.star.key)
                names[placed.star.key] = f"{placed.star.names.pinyin} ({placed.star.names.hans})"
            g = int(getattr(p, cycle).position)
            always[g] = always[g] & keys if g in always else keys
    rows = tuple(
        (god_label(cycle, g), ", ".join(sorted(names[k] for k in always[g])) or "–")
        for g in range(12)
    )
    return Table(("God", "Always in its palace"), rows)


def _bazi_year_stars() -> dict[str, Any]:
    """BaZi stars whose first table is read by the year branch alone (not by the gender as
    well): key → the star."""
    from mingshu.bazi import stars

    return {
        s.key: s
        for s in stars.STARS
        if "year_branch" in s.variants[0].basis
        and len(s.variants[0].lookup) == 12
        and not s.variants[0].gendered
    }


def _bazi_targets(star: Any, year_branch: int) -> set[int]:
    return {int(target) for _kind, target in star.variants[0].lookup[year_branch]}


def bazi_stars_table(options: Options) -> Table:
    """Each god of ``cycle`` and the BaZi stars, looked up by the year branch in their first
    table, that land on the god's branch on every chart of the walk; "–" where none does."""
    cycle = str(options.get("cycle", "jiang_qian"))
    found: dict[int, set[str]] = {}
    bazi = _bazi_year_stars()
    for chart in walk():
        yb = int(chart.god_year.branch)
        for g, branch in gods_at(chart, cycle).items():
            keys = {k for k, s in bazi.items() if branch in _bazi_targets(s, yb)}
            found[g] = found[g] & keys if g in found else keys
    rows = tuple(
        (
            god_label(cycle, g),
            ", ".join(f"{bazi[k].names.english} ({bazi[k].names.hans})" for k in sorted(found[g]))
            or "–",
        )
        for g in range(12)
    )
    return Table(("God", "BaZi star from the year branch"), rows)


# ------------------------------------------------------------------------------ problems


def cycle_god_answer(q: Options) -> str:
    """The branch of one god of ``cycle`` on a lunar birth under ``school``."""
    cycle = str(q["cycle"])
    chart = birth_chart(q)
    return branch_name(god_branch(chart, cycle, god_index(cycle, q["god"])))


def _matching(q: Options) -> Iterator[Any]:
    """The walk's charts (under ``school``) of the ``gender`` and year polarity ``year``
    (yang or yin) the query names, whose god of ``cycle`` stands on ``branch``."""
    cycle = str(q["cycle"])
    god, target = god_index(cycle, q["god"]), branch_number(q["branch"])
    gender = str(q.get("gender", "")).lower()
    if gender not in ("", "male", "female"):
        raise InputError("gender", f"{gender!r}: write male or female")
    year = str(q.get("year", "")).lower()
    if year not in ("", "yang", "yin"):
        raise InputError("year", f"{year!r}: write yang or yin")
    for chart in walk(school_of(q)):
        if gender and is_man(chart) != (gender == "male"):
            continue
        if year and yang_year(chart) != (year == "yang"):
            continue
        if god_branch(chart, cycle, god) == target:
            yield chart


def cycle_classes(q: Options) -> tuple[str, ...]:
    """Every five-element class whose charts put a god of ``cycle`` on ``branch`` (for the
    ``gender`` and year polarity ``year`` given, if given), in class order."""
    found = {int(c.five_elements_class): class_name(c) for c in _matching(q)}
    return tuple(found[k] for k in sorted(found))


def cycle_years(q: Options) -> tuple[str, ...]:
    """Every year stem (``by: stem``) or branch (``by: branch``) whose charts put a god of
    ``cycle`` on ``branch``, in cycle order."""
    by = str(q.get("by", "stem"))
    if by not in ("stem", "branch"):
        raise InputError("by", f"{by!r}: write stem or branch")
    found: dict[int, str] = {}
    for chart in _matching(q):
        year = chart.pillars.year
        part = year.stem if by == "stem" else year.branch
        found[int(part)] = str(part.names.english)
    return tuple(found[k] for k in sorted(found))


# -------------------------------------------------------------------------- claim checks


def _starts(chart: Any, spec: Mapping[str, Any]) -> int:
    """The branch a claim says the cycle starts from on ``chart``: ``class_starts`` (class
    number → branch), ``star`` (a star's branch on the chart) or ``year_starts`` (twelve
    branches by the year branch 子 … 亥)."""
    from mingshu.cycles import Branch

    if spec.get("class_starts"):
        return int(Branch.parse(spec["class_starts"][str(int(chart.five_elements_class))]))
    if spec.get("star"):
        return int(chart.star(str(spec["star"])).branch)
    if spec.get("year_starts"):
        return int(Branch.parse(str(spec["year_starts"])[int(chart.god_year.branch)]))
    raise InputError("args", "name the start: class_starts, star or year_starts")


def cycle_from(
    cycle: str,
    school: str,
    direction: str,
    class_starts: Mapping[str, str] | None = None,
    star: str = "",
    year_starts: str = "",
) -> tuple[int, int]:
    """Over every chart of the walk under ``school``: the first god of ``cycle`` stands on
    the start the arguments name, and god n stands n branches on in ``direction``."""
    spec = {"class_starts": class_starts, "star": star, "year_starts": year_starts}
    bad = n = 0
    for chart in walk(school):
        n += 1
        start, way = _starts(chart, spec), expected_runs(chart, direction)
        at = gods_at(chart, cycle)
        bad += any(at[g] != (start + way * g) % 12 for g in range(12))
    return bad, n


class _Ways(dict[str, frozenset[int]]):
    def __missing__(self, way: str) -> frozenset[int]:
        raise InputError("way", f"{way!r}: write forward, back or either")


_WAYS: Final = _Ways(forward=frozenset({1}), back=frozenset({-1}), either=frozenset({1, -1}))
"""A claim's ``way``: the charts whose cycle runs forward, back, or either way."""


def god_only_on(
    cycle: str, god: str, branches: Sequence[str], school: str = "iztro", way: str = "either"
) -> tuple[int, int]:
    """Over every chart of the walk under ``school`` on which ``cycle`` runs ``way``
    (forward, back or either), ``god`` stands on one of ``branches``, and on each of them
    on some chart."""
    from mingshu.cycles import Branch

    wanted = {int(Branch.parse(b)) for b in branches}
    g = god_index(cycle, god)
    seen: set[int] = set()
    bad = n = 0
    for chart in walk(school):
        if runs(chart, cycle) not in _WAYS[way]:
            continue
        n += 1
        branch = god_branch(chart, cycle, g)
        seen.add(branch)
        bad += branch not in wanted
    return bad + len(wanted - seen), n


def god_with_star(
    cycle: str,
    god: str,
    star: str,
    school: str = "iztro",
    way: str = "either",
    algorithm: str = "",
) -> tuple[int, int]:
    """Over every chart of the walk under ``school`` (and ``algorithm``) on which ``cycle``
    runs ``way`` (forward, back or either), ``god`` stands in the palace of ``star``."""
    g = god_index(cycle, god)
    bad = n = 0
    for chart in walk(school, algorithm):
        if runs(chart, cycle) not in _WAYS[way]:
            continue
        n += 1
        bad += god_branch(chart, cycle, g) != int(chart.star(star).branch)
    return bad, n


def gods_as_bazi_stars(cycle: str, pairs: Mapping[str, str]) -> tuple[int, int]:
    """Over every chart of the walk, each god of ``pairs`` (god → BaZi star) stands on a
    branch the BaZi star's first table gives for the year branch."""
    bazi = _bazi_year_stars()
    unknown = [k for k in pairs.values() if k not in bazi]
    if unknown:
        raise InputError("pairs", f"no BaZi star read by the year branch: {unknown!r}")
    bad = n = 0
    for chart in walk():
        yb = int(chart.god_year.branch)
        for god, star in pairs.items():
            n += 1
            bad += god_branch(chart, cycle, god_index(cycle, god)) not in _bazi_targets(
                bazi[star], yb
            )
    return bad, n


def schools_same_cycle(cycle: str, same_when: str) -> tuple[int, int]:
    """Over the walk's births, both schools put every god of ``cycle`` on the same branch
    exactly when ``same_when`` says: ``always``, ``yang_year`` or ``never``."""
    when = {"always": lambda c: True, "never": lambda c: False, "yang_year": yang_year}
    if same_when not in when:
        raise InputError("same_when", f"{same_when!r}: write always, yang_year or never")
    bad = n = 0
    for a, b in zip(walk("iztro"), walk("quanshu"), strict=True):
        n += 1
        bad += (gods_at(a, cycle) == gods_at(b, cycle)) != when[same_when](a)
    return bad, n
