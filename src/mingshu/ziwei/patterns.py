"""Patterns (格局) of a natal chart, read from ``ziwei/data/patterns.toml``.

The data file holds every pattern (its names, group, verse and the line it is quoted
from, whose words define its positions) and its conditions in a small vocabulary that the
file's head explains.  Each condition is compiled once into a test over a chart's star
positions; :func:`detect` (``NatalChart.patterns()``) runs them and reports each pattern
formed, with the palaces and stars that form it and the rules (破格) that break it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from itertools import count
from operator import attrgetter, indexOf, itemgetter
from typing import Any, NamedTuple, TypeVar

from mingshu.arguments import check_type
from mingshu.cycles import Branch
from mingshu.errors import InputError
from mingshu.named import Names, clip
from mingshu.ziwei.chart import NatalChart, Palace
from mingshu.ziwei.natal import natal_brightness, natal_mutagens
from mingshu.ziwei.pattern_plan import Key, Plan, plan
from mingshu.ziwei.stars import Brightness, Mutagen, Star, StarGroup, load_data, star
from mingshu.ziwei.tables import PalaceName

__all__ = [
    "GROUPS",
    "PATTERNS",
    "RULES",
    "VARIANTS",
    "BreakRule",
    "Evidence",
    "Frequency",
    "Pattern",
    "PatternHit",
    "all_of",
    "detect",
    "frequency",
]

_DATA = load_data("patterns.toml")


def _names_of(row: Mapping[str, str]) -> Names:
    return Names(row["hans"], row["hant"], row["pinyin"], row["en"])


GROUPS: dict[str, Names] = {k: _names_of(v) for k, v in _DATA["groups"].items()}
"""The groups a pattern belongs to (卷一's four lists and the 破格 of 卷三's notes)."""

_MUTAGEN_KEYS = {f"hua_{m.key}": m for m in Mutagen}
_HUA_KEYS = tuple(f"hua_{m.key}" for m in Mutagen)  # 禄 权 科 忌, as natal_mutagens counts
# A palace name's branch is the Life palace's plus its step (natal.palace_named).
_ROLE_STEPS = tuple((p.key, int(p)) for p in PalaceName)


_Grades = tuple[tuple[Brightness | None, ...], ...]
_Stem = tuple[
    Callable[[Sequence[int]], tuple[int, ...]],
    dict[str, str],
    _Grades,
    tuple[tuple[int | None, ...], ...],
    int,
]


class _Reader(NamedTuple):
    """How to read the stars the conditions name from the charts of one star list, 四化
    table and brightness table: for each year stem, a getter of their branches (in _INDEX
    order, the ``hua_*`` keys by the star carrying each) from ``chart._positions +
    _NOWHERE`` (-1 for a star the list lacks), the star carrying each ``hua_*`` key, and
    each one's brightness on each branch (as a major or minor star of a palace shows it:
    None for the others; also as ints for the plan)."""

    stars: tuple[Star, ...]
    settings: tuple[object, object]
    by_stem: tuple[_Stem, ...]
    serial: int
    """Counts the readers made: with a stem, a number no other reader's tables share."""


_READERS: dict[tuple[int, object, object], _Reader] = {}
_NOWHERE = (-1,)


def _reader(chart: NatalChart) -> _Reader:
    """The reader of the chart's star list and 四化 table.  Kept by the identity of the
    star list, which the charts of one algorithm and school share (hashing its stars would
    cost more than this saves); the list is kept with it, so an id reused after it is freed
    cannot match."""
    settings = chart.settings
    stars, key = chart._stars, (settings.mutagens, settings.brightness)
    found = _READERS.get((id(stars), *key))
    if found is None or found.stars is not stars:
        index = {s.key: i for i, s in enumerate(stars)}  # a key placed twice: its last place
        nowhere = len(stars)
        grades = [
            row if s.group is not StarGroup.ADJECTIVE else _UNGRADED
            for s, row in zip(stars, natal_brightness(settings), strict=True)
        ]
        grades.append(_UNGRADED)  # nowhere
        by_stem = []
        for row in natal_mutagens(settings):
            # The engine gives each of 禄 权 科 忌 to one star at most (a major or minor).
            carriers = {_HUA_KEYS[m - 1]: i for i, m in enumerate(row) if m}
            places = [
                carriers.get(key, nowhere) if key in _MUTAGEN_KEYS else index.get(key, nowhere)
                for key in _INDEX
            ]
            carrier = {hua: stars[i].key for hua, i in carriers.items()}
            rows = tuple(grades[i] for i in places)
            numbers = tuple(tuple(None if g is None else int(g) for g in row) for row in rows)
            by_stem.append((itemgetter(*places), carrier, rows, numbers))
        serial = next(_SERIALS)
        stems = tuple((*row, 10 * serial + stem) for stem, row in enumerate(by_stem))
        if len(_READERS) >= 16:
            _READERS.clear()
        found = _READERS[id(stars), *key] = _Reader(stars, key, stems, serial)
    return found


_SERIALS = count()


_UNGRADED = (None,) * 12


@lru_cache(maxsize=144)
def _roles(life: int, body: int) -> dict[str, int]:
    """The branch of each palace role (shared by the charts with these two branches: read
    only)."""
    roles = {key: (life + step) % 12 for key, step in _ROLE_STEPS}
    roles["body"] = body
    roles["life_hidden"] = (1 - life) % 12  # 暗合: the 六合 partner
    return roles


# A chart's positions as the conditions read them: where each star (and each natal
# transformation, as ``hua_lu`` …) stands, its brightness, the major stars of each branch
# and the branch of each palace role.
Evidence = list[tuple[str, int]]
"""What forms a condition: (star key, or "" for a palace alone; branch) pairs."""
_Evidence = Evidence
V = TypeVar("V")
_Test = Callable[["_View"], "_Evidence | None"]


class _View:
    __slots__ = ("carrier", "grades", "life", "palaces", "pos", "roles", "source")

    def __init__(self, chart: NatalChart, seen: _Seen | None = None) -> None:
        # Where each star the conditions name stands (and each natal transformation, by
        # the star the engine gives it), read from the chart's own position list: ``pos[n]``
        # for the key ``n`` of _INDEX, -1 where the chart has no such star.
        # Their brightness by the same tables; the major stars of a palace are read from the
        # palace on demand (few patterns ask).
        if seen is None:
            seen = _seen(chart)
        self.pos, self.life, body, self.source, self.carrier, self.grades = seen
        self.palaces = chart.palaces
        self.roles = _roles(self.life, body)

    def grade(self, key: str) -> Brightness | None:
        """The brightness of a star (or of the star carrying a ``hua_*``) where it stands."""
        n = _INDEX[key]
        b = self.pos[n]
        return None if b < 0 else self.grades[n][b]

    def majors(self, b: int) -> tuple[str, ...]:
        return tuple(p.star.key for p in self.palace(b).major_stars)

    def palace(self, b: int) -> Palace:
        # The engine lists the palaces from 寅; a chart built by hand may list them in
        # another order, so the branch is checked.
        palace = self.palaces[(b - 2) % 12]
        if palace.branch == b:
            return palace
        return next(p for p in self.palaces if p.branch == b)

    def real(self, key: str) -> str:
        """The star a ``hua_*`` key stands for on this chart (the key itself otherwise)."""
        return self.carrier.get(key, key)


_Seen = tuple[tuple[int, ...], int, int, int, dict[str, str], _Grades]
"""A chart as the view reads it: its stars' branches, the Life and Body palaces' branches,
its tables' number, the star carrying each ``hua_*`` and the stars' grades."""


def _seen(chart: NatalChart) -> _Seen:
    get, carrier, grades, _numbers, source = _reader(chart).by_stem[chart.year.stem]
    pos = get(chart._positions + _NOWHERE)
    return pos, int(chart.life_branch), _body(chart), source, carrier, grades


def _body(chart: NatalChart) -> int:
    """The branch of the palace flagged ``is_body`` (on an earth or human chart the redrawn
    chart's, not ``body_branch``): looked for at ``body_branch`` first."""
    palaces = chart.palaces
    body = chart.body_branch
    palace = palaces[(body - 2) % 12]
    if palace.is_body and palace.branch == body:
        return int(body)
    return int(palaces[indexOf(map(_IS_BODY, palaces), True)].branch)


_SQUARE = tuple(frozenset({b, (b + 4) % 12, (b + 6) % 12, (b + 8) % 12}) for b in range(12))
"""The branches of each branch's 三方四正."""


_IS_BODY = attrgetter("is_body")


def _star_key(key: str, where: str) -> str:
    if key in _MUTAGEN_KEYS:
        return key
    found = star(key)
    if found.key != key:
        raise ValueError(f"{where}: {key!r} is not a star key")
    return key


def _role(name: str, where: str) -> str:
    if name in ("body", "life_hidden") or name in {p.key for p in PalaceName}:
        return name
    raise ValueError(f"{where}: no palace role {name!r}")


def _branches(names: Iterable[str]) -> frozenset[int]:
    return frozenset(int(Branch.parse(n)) for n in names)


def _grades(names: Iterable[str]) -> frozenset[Brightness]:
    return frozenset(Brightness.parse(n) for n in names)


def _compile(cond: Mapping[str, Any], where: str) -> _Test:
    """One condition of the vocabulary (patterns.toml's head) as a test over a ``_View``."""
    keys = set(cond)
    if keys == {"either"}:
        options = [_compile_all(c, where) for c in cond["either"]]

        def either(v: _View) -> _Evidence | None:
            for option in options:
                found = option(v)
                if found is not None:
                    return found
            return None

        return either
    if "in" in keys:
        role = _role(cond["in"], where)
        grades = _grades(cond["grades"]) if "grades" in cond else None
        if "stars" in keys:
            wanted = tuple(_star_key(s, where) for s in cond["stars"])
            places = tuple(_INDEX[s] for s in wanted)

            def in_all(v: _View) -> _Evidence | None:
                b, pos = v.roles[role], v.pos
                for n in places:
                    if pos[n] != b:
                        return None
                real = v.carrier.get
                return [(real(s, s), b) for s in wanted]

            return in_all
        if "any" in keys:
            some = tuple(_star_key(s, where) for s in cond["any"])
            some_at = tuple((s, _INDEX[s]) for s in some)

            def in_any(v: _View) -> _Evidence | None:
                b = v.roles[role]
                pos, real = v.pos, v.carrier.get
                found = [
                    (real(s, s), b)
                    for s, n in some_at
                    if pos[n] == b and (grades is None or v.grade(s) in grades)
                ]
                return found or None

            return in_any
        if "none" in keys:
            absent = tuple(_INDEX[_star_key(s, where)] for s in cond["none"])

            def in_none(v: _View) -> _Evidence | None:
                b, pos = v.roles[role], v.pos
                for n in absent:
                    if pos[n] == b:
                        return None
                return []

            return in_none
        if "majors" in keys:
            exact = frozenset(_star_key(s, where) for s in cond["majors"])

            def in_majors(v: _View) -> _Evidence | None:
                b = v.roles[role]
                here = v.majors(b)
                return [(s, b) for s in here] if set(here) == exact else None

            return in_majors
    if "palace" in keys:
        role = _role(cond["palace"], where)
        if "branch" in keys:
            allowed = _branches(cond["branch"])

            def on_branch(v: _View) -> _Evidence | None:
                b = v.roles[role]
                return [("", b)] if b in allowed else None

            return on_branch
        if "role" in keys:
            other = _role(cond["role"], where)

            def same_palace(v: _View) -> _Evidence | None:
                b = v.roles[role]
                return [("", b)] if v.roles[other] == b else None

            return same_palace
    if keys == {"at", "stars"}:
        allowed = _branches(cond["at"])
        wanted_at = tuple((_star_key(s, where), _INDEX[s]) for s in cond["stars"])

        def stars_at(v: _View) -> _Evidence | None:
            pos, real = v.pos, v.carrier.get
            found = [(real(s, s), pos[n]) for s, n in wanted_at if pos[n] in allowed]
            return found if len(found) == len(wanted_at) else None

        return stars_at
    if "flank" in keys:
        role = _role(cond["flank"], where)
        if "pair" in keys:
            a, b_ = (_star_key(s, where) for s in cond["pair"])
            na, nb = _INDEX[a], _INDEX[b_]

            def flank_pair(v: _View) -> _Evidence | None:
                b = v.roles[role]
                sides = {(b - 1) % 12, (b + 1) % 12}
                pa, pb = v.pos[na], v.pos[nb]
                if pa in sides and pb in sides and pa != pb:
                    return [(v.real(a), pa), (v.real(b_), pb)]
                return None

            return flank_pair
        if "each" in keys:
            each = tuple((_star_key(s, where), _INDEX[s]) for s in cond["each"])

            def flank_each(v: _View) -> _Evidence | None:
                b = v.roles[role]
                pos, real = v.pos, v.carrier.get
                found: _Evidence = []
                for side in ((b - 1) % 12, (b + 1) % 12):
                    here = [(real(s, s), side) for s, n in each if pos[n] == side]
                    if not here:
                        return None
                    found += here
                return found

            return flank_each
    if "meets" in keys:
        role = _role(cond["meets"], where)

        if "stars" in keys:
            wanted_at = tuple((_star_key(s, where), _INDEX[s]) for s in cond["stars"])

            def meets_all(v: _View) -> _Evidence | None:
                four, pos = _SQUARE[v.roles[role]], v.pos
                for _s, n in wanted_at:
                    if pos[n] not in four:
                        return None
                real = v.carrier.get
                return [(real(s, s), pos[n]) for s, n in wanted_at]

            return meets_all
        if "any" in keys:
            some_at = tuple((_star_key(s, where), _INDEX[s]) for s in cond["any"])

            def meets_any(v: _View) -> _Evidence | None:
                four = _SQUARE[v.roles[role]]
                pos, real = v.pos, v.carrier.get
                found = [(real(s, s), pos[n]) for s, n in some_at if pos[n] in four]
                return found or None

            return meets_any
        if "none" in keys:
            absent = tuple(_INDEX[_star_key(s, where)] for s in cond["none"])

            def meets_none(v: _View) -> _Evidence | None:
                four, pos = _SQUARE[v.roles[role]], v.pos
                for n in absent:
                    if pos[n] in four:
                        return None
                return []

            return meets_none
    if keys == {"bright", "grades"}:
        stars_ = tuple(_star_key(s, where) for s in cond["bright"])
        grades_ = _grades(cond["grades"])

        def bright(v: _View) -> _Evidence | None:
            # (grade is None for a star the chart lacks, and None is no grade)
            ok = all(v.grade(s) in grades_ for s in stars_)
            return [] if ok else None

        return bright
    raise ValueError(f"{where}: condition {cond!r} is not in the vocabulary")


_Gate = tuple[frozenset[str], frozenset[str], frozenset[str]]


def _gate(conds: Iterable[Mapping[str, Any]]) -> _Gate:
    """The stars a reading needs in the Life palace, beside it and in its 三方四正: a
    cheap set test that skips most readings before their conditions run (an ``either``
    needs what all its options need)."""
    life: set[str] = set()
    flank: set[str] = set()
    four: set[str] = set()
    for cond in conds:
        if cond.get("in") == "life" and "stars" in cond:
            life.update(cond["stars"])
        elif cond.get("flank") == "life" and "pair" in cond:
            flank.update(cond["pair"])
        elif cond.get("meets") == "life" and "stars" in cond:
            four.update(cond["stars"])
        elif "either" in cond:
            options = [_gate(option) for option in cond["either"]]
            for mine, theirs in zip((life, flank, four), zip(*options, strict=True), strict=True):
                mine.update(frozenset.intersection(*theirs))
    return frozenset(life), frozenset(flank), frozenset(four)


def _named(conds: Iterable[Mapping[str, Any]]) -> Iterable[str]:
    """Every star key (and ``hua_*``) a list of conditions names."""
    for cond in conds:
        for field in ("stars", "any", "none", "pair", "each", "bright"):
            yield from cond.get(field, ())
        for option in cond.get("either", ()):
            yield from _named(option)


def all_of(tests: Sequence[Callable[[V], Evidence | None]]) -> Callable[[V], Evidence | None]:
    """The conditions of one reading together: their evidence joined, or None as soon as one
    fails (a natal chart's view here, a limit's in :mod:`mingshu.ziwei.limit_patterns`)."""
    if len(tests) == 1:
        return tests[0]

    def every(v: V) -> Evidence | None:
        found: Evidence = []
        for test in tests:
            part = test(v)
            if part is None:
                return None
            found += part
        return found

    return every


def _compile_all(conds: Iterable[Mapping[str, Any]], where: str) -> _Test:
    return all_of(tuple(_compile(c, where) for c in conds))


@dataclass(frozen=True, slots=True)
class BreakRule:
    """A rule that breaks (破) a pattern formed, with the line it comes from."""

    key: str
    names: Names
    verse: str
    verse_at: str
    test: _Test
    when: tuple[Mapping[str, Any], ...]
    """The conditions as the data file states them (for evaluators over whole columns)."""


@dataclass(frozen=True, slots=True)
class Pattern:
    """One pattern of the data file, with its readings compiled."""

    key: str
    names: Names
    group: str
    layer: str
    """Whose words give the positions: book, gloss, verse (a 赋 line; the common reading),
    limits (defined by the 限: not detected on a natal chart)."""
    verse: str
    verse_at: str
    """``FILE:LINE`` of ../shared/sources holding the verse."""
    xiztro: str | None
    """x-iztro 0.6.1's key for this pattern, where it detects it."""
    note: str
    readings: Mapping[str, tuple[_Gate, _Test, tuple[BreakRule, ...], str]]
    """Each reading (``book`` first, then the named variants): the stars it needs near the
    Life palace, its test, its break rules and why it differs."""
    when: tuple[Mapping[str, Any], ...]
    """The book reading's conditions as the data file states them (empty for the limits)."""


@dataclass(frozen=True, slots=True)
class PatternHit:
    """A pattern formed on a chart."""

    pattern: Pattern
    variant: str
    """The reading it was found under: ``book`` or a variant's key."""
    palaces: tuple[Branch, ...]
    """The palaces holding the stars that form it (and the palace a position names)."""
    stars: tuple[str, ...]
    """The keys of the stars that form it."""
    broken: tuple[BreakRule, ...]
    """The rules that break it (破格): empty when it is whole."""

    @property
    def key(self) -> str:
        return self.pattern.key


# A place for each star key (and hua_*) a condition names, in the data file's order: a
# chart's view holds their branches as one tuple (``pos``).
_INDEX: dict[str, int] = {
    key: n
    for n, key in enumerate(
        dict.fromkeys(
            key
            for conds in (
                *(row["when"] for row in _DATA["rule"].values()),
                *(row.get("when", ()) for row in _DATA["pattern"]),
                *(v["when"] for row in _DATA["pattern"] for v in row.get("variant", ())),
            )
            for key in _named(conds)
        )
    )
}


def _load() -> tuple[dict[str, BreakRule], dict[str, Pattern]]:
    rules = {
        key: BreakRule(
            key,
            _names_of(row["names"]),
            row["verse"],
            row["verse_at"],
            _compile_all(row["when"], f"rule.{key}"),
            tuple(row["when"]),
        )
        for key, row in _DATA["rule"].items()
    }
    patterns: dict[str, Pattern] = {}
    for row in _DATA["pattern"]:
        key = row["key"]
        if key in patterns:
            raise ValueError(f"pattern {key!r} twice")
        if row["group"] not in GROUPS:
            raise ValueError(f"pattern {key}: no group {row['group']!r}")
        readings: dict[str, tuple[_Gate, _Test, tuple[BreakRule, ...], str]] = {}
        if row["layer"] != "limits":
            readings["book"] = (
                _gate(row["when"]),
                _compile_all(row["when"], key),
                tuple(rules[r] for r in row.get("breaks", ())),
                "",
            )
            for variant in row.get("variant", ()):
                readings[variant["key"]] = (
                    _gate(variant["when"]),
                    _compile_all(variant["when"], f"{key}.{variant['key']}"),
                    tuple(rules[r] for r in variant.get("breaks", row.get("breaks", ()))),
                    variant["why"],
                )
        patterns[key] = Pattern(
            key,
            _names_of(row["names"]),
            row["group"],
            row["layer"],
            row["verse"],
            row["verse_at"],
            row.get("xiztro"),
            row.get("note", ""),
            readings,
            tuple(row.get("when", ())),
        )
    return rules, patterns


RULES, PATTERNS = _load()
"""The break rules and the patterns of patterns.toml, by key."""

VARIANTS: frozenset[str] = frozenset(v for p in PATTERNS.values() for v in p.readings)
"""Every reading a pattern may be asked for under (``book``, ``x_iztro``, ``gloss``)."""


def detect(chart: NatalChart, variant: str = "book") -> tuple[PatternHit, ...]:
    """The patterns formed on a natal chart, in the data file's order.

    ``variant`` picks the reading of each pattern that has one by that key (``x_iztro``,
    ``gloss``); the others keep the book's.  Patterns of the limits (定杂局's 限 patterns)
    are not natal and are never reported here."""
    check_type(chart, NatalChart, "chart", "a Zi Wei chart (ziwei.chart(...))")
    check_type(variant, str, "variant", "a reading key (book, x_iztro, gloss)")
    run = _PLANS.get(variant)
    if run is None:
        if variant not in VARIANTS:
            raise InputError(
                "variant",
                f"no pattern reading {clip(variant)}: one of {', '.join(sorted(VARIANTS))}",
            )
        run = _planned(variant)[0]
    get, carrier, grades, numbers, source = _reader(chart).by_stem[chart.year.stem]
    pos = get(chart._positions + _NOWHERE)
    life = int(chart.life_branch)
    body = _body(chart)
    # The readings whose conditions on the stars' branches (and brightness) hold
    # (pattern_plan), each as the hit kept for what it reads or as a reading to test.
    found = run.for_life(life)(pos, body, source, numbers)
    for hit in found:
        if hit.__class__ is not PatternHit:
            seen = (pos, life, body, source, carrier, grades)
            return _tested(chart, seen, found, variant, run)
    return tuple(found)


def _tested(
    chart: NatalChart, seen: _Seen, found: list[Any], variant: str, run: Plan
) -> tuple[PatternHit, ...]:
    """The hits of ``found`` with the readings to test tested: their full tests, once for
    each form of what a reading reads (kept under its key), or always (a reading of a
    palace's exact majors, given by its index)."""
    view = _View(chart, seen)
    entries = _planned(variant)[1]
    memo = run.memos[view.life]
    hits = []
    for item in found:
        if item.__class__ is PatternHit:
            hits.append(item)
            continue
        if item.__class__ is int:
            hit = _formed(view, item, variant, entries[item])
        else:
            if sum(map(len, run.memos)) >= _MEMO_LIMIT:
                run.forget()
            hit = memo[item] = _formed(view, item[0], variant, entries[item[0]])
        if hit is not None:
            hits.append(hit)
    return tuple(hits)


def _formed(view: _View, k: int, variant: str, entry: _Entry) -> PatternHit | None:
    """The hit of reading ``k`` on the chart seen by ``view``, or None: its full test (the
    palaces and stars that form it) and its break rules."""
    pattern, used, test, breaks = entry
    found = test(view)
    if found is None:
        return None
    broken = tuple(rule for rule in breaks if rule.test(view) is not None) if breaks else ()
    key = (k, variant, *found, *(r.key for r in broken)) if broken else (k, variant, *found)
    hit = _HITS.get(key)
    if hit is None:
        hit = _hit(key, pattern, used, found, broken)
    return hit


_MEMO_LIMIT = 100_000


# A hit is a pure value of its reading, the stars and palaces its test found and the rules
# that break it, and takes few forms a reading: each is built once (kept by that key).
_HITS: dict[tuple[object, ...], PatternHit] = {}


def _hit(
    key: tuple[object, ...],
    pattern: Pattern,
    used: str,
    found: _Evidence,
    broken: tuple[BreakRule, ...],
) -> PatternHit:
    if len(_HITS) >= 8192:
        _HITS.clear()
    palaces = tuple(_BRANCH[b] for b in sorted({b for _k, b in found}))
    stars = tuple(dict.fromkeys(star for star, _b in found if star))
    hit = _HITS[key] = PatternHit(pattern, used, palaces, stars, broken)
    return hit


_BRANCH = tuple(Branch(b) for b in range(12))

_Entry = tuple[Pattern, str, _Test, tuple[BreakRule, ...]]
# The conditions of each reading as the data file states them, by (pattern, reading).
_WHEN: dict[tuple[str, str], tuple[Mapping[str, Any], ...]] = {
    **{(row["key"], "book"): tuple(row.get("when", ())) for row in _DATA["pattern"]},
    **{
        (row["key"], v["key"]): tuple(v["when"])
        for row in _DATA["pattern"]
        for v in row.get("variant", ())
    },
}


def _reads(conds: Iterable[Mapping[str, Any]]) -> tuple[set[str], bool, bool, bool]:
    """The keys a list of conditions names, and whether it reads the Body palace, tables
    beside the positions, or a palace's major stars."""
    keys: set[str] = set()
    body = tables = majors = False
    for cond in conds:
        for option in cond.get("either", ()):
            more, b, t, m = _reads(option)
            keys |= more
            body, tables, majors = body or b, tables or t, majors or m
        keys.update(_named([cond]))
        body = body or "body" in (cond.get(f) for f in ("in", "palace", "role", "flank", "meets"))
        tables = tables or "grades" in cond
        majors = majors or "majors" in cond
    tables = tables or any(key in _MUTAGEN_KEYS for key in keys)
    return keys, body, tables, majors


def _reads_of(conds: Sequence[Mapping[str, Any]], breaks: tuple[BreakRule, ...]) -> Key:
    """What a reading and its break rules read of a view, which (with the Life branch)
    decides its hit: the places in ``view.pos`` of the stars they name, whether they read
    the Body palace, and whether they read tables beside the positions (the stars carrying
    四化, brightness).  None for a reading of a palace's exact major stars (the palace's
    list, whose order the positions do not give), which is always tested."""
    keys, body, tables, majors = _reads([*conds, *(c for rule in breaks for c in rule.when)])
    if majors:
        return None
    return tuple(sorted(_INDEX[key] for key in keys)), body, tables


_PLANS: dict[str, Plan] = {}


@cache
def _planned(variant: str) -> tuple[Plan, tuple[_Entry, ...]]:
    """Each natal pattern in the data file's order with the reading it is read under for
    ``variant`` (its own by that key, else the book's), and the first test of all of them
    at once (pattern_plan), which keeps their hits by what they read."""
    entries = tuple(
        (p, used, test, breaks)
        for p, used in (
            (p, variant if variant in p.readings else "book")
            for p in PATTERNS.values()
            if p.readings
        )
        for _gate, test, breaks, _why in [p.readings[used]]
    )
    readings = [_WHEN[p.key, used] for p, used, _t, _b in entries]
    keys = [_reads_of(conds, e[3]) for conds, e in zip(readings, entries, strict=True)]
    run = _PLANS[variant] = plan(readings, _INDEX, dict(_ROLE_STEPS), keys)
    return run, entries


class Frequency(NamedTuple):
    """How often a pattern forms over the swept space (the book's reading): ``formed`` of
    ``rows`` charts, ``broken`` of them 破格; the record names its years and settings."""

    formed: int
    broken: int
    rows: int
    first_year: int
    last_year: int

    @property
    def one_in(self) -> int | None:
        """``rows / formed`` rounded: "1 chart in N" (None for a pattern no chart forms)."""
        return round(self.rows / self.formed) if self.formed else None


@cache
def _frequencies() -> dict[str, Frequency]:
    # Written by tools/pattern_counts.py from a sweep of the default settings; counted again
    # over a fresh sweep by tests/space/test_pattern_counts.py.
    text = resources.files("mingshu.ziwei").joinpath("data", "pattern_counts.json")
    record = json.loads(text.read_text(encoding="utf-8"))
    rows, first, last = int(record["rows"]), int(record["first_year"]), int(record["last_year"])
    return {
        key: Frequency(int(c["formed"]), int(c["broken"]), rows, first, last)
        for key, c in record["patterns"].items()
    }


def frequency(key: str) -> Frequency | None:
    """The pattern's frequency over the space under the default settings (None if the
    record does not count it: a pattern of the limits, which no natal chart forms)."""
    return _frequencies().get(key)
