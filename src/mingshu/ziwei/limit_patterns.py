"""Patterns of the limits (限): the 定杂局 patterns a horoscope forms.

卷一's 定杂局 defines its patterns by the limits (「风云际会 身命虽弱二限逢禄马是也」,
「禄衰马困 限逢七杀禄马空亡是也」), not by the natal chart.  Those whose words name positions
carry ``[[pattern.limit]]`` readings in ``ziwei/data/patterns.toml`` (the file's head gives
the vocabulary): the limits they read (大限, 小限, 流年), whether every limit must form the
pattern (二限) or each forms it alone (限), and conditions on the palace acting as the
limit's Life palace, read over the natal stars, the natal 四化, the four transformations of
the limit's stem and the limit's flowing stars.  :func:`detect` (``Horoscope.patterns()``)
runs them; a natal chart never computes them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from mingshu.arguments import check_type
from mingshu.cycles import Branch
from mingshu.errors import InputError
from mingshu.named import clip
from mingshu.ziwei.horoscope import Horoscope, Layer, Scope
from mingshu.ziwei.patterns import PATTERNS, Pattern, all_of
from mingshu.ziwei.stars import Mutagen, StarKind, load_data, star

__all__ = ["LIMIT_READINGS", "LIMIT_VARIANTS", "LimitPatternHit", "LimitReading", "detect"]

_HUA = tuple(f"hua_{m.key}" for m in Mutagen)  # 禄 权 科 忌, the order of Layer.mutagens
# The limit's own transformations and flowing 禄 马, and the decade's (read on any limit).
_LIMIT_HUA = tuple(f"limit_{h}" for h in _HUA)
_LIMIT_FLOWING = {"limit_lu": StarKind("lucun"), "limit_ma": StarKind("tianma")}
_DECADAL_HUA = tuple(f"decadal_{h}" for h in _HUA)
_DECADAL_FLOWING = {"decadal_lu": StarKind("lucun"), "decadal_ma": StarKind("tianma")}
_SCOPES = {Scope.DECADAL, Scope.AGE, Scope.YEARLY}

# The stars a limit reads: star (or token) key -> branch, and the key reported for it.
_Evidence = list[tuple[str, int]]


class _LimitView:
    """One limit's positions: the natal stars and 四化 with the limit's own tokens."""

    __slots__ = ("at", "by_branch", "limit", "shown")

    def __init__(self, natal: _Natal, layer: Layer, decadal: Layer) -> None:
        at = dict(natal.at)
        shown = dict(natal.shown)
        for source, hua, flowing in (
            (layer, _LIMIT_HUA, _LIMIT_FLOWING),
            (decadal, _DECADAL_HUA, _DECADAL_FLOWING),
        ):
            for token, mutated in zip(hua, source.mutagens, strict=True):
                b = natal.at.get(mutated.key)
                if b is not None:  # a transformed star the chart does not place (none today)
                    at[token] = b
                    shown[token] = mutated.key
            for placed in source.stars:
                for token, kind in flowing.items():
                    if placed.star.kind is kind:
                        at[token] = int(placed.branch)
                        shown[token] = placed.star.key
        by_branch: list[set[str]] = [set() for _ in range(12)]
        for key, b in at.items():
            by_branch[b].add(key)
        self.at = at
        self.shown = shown
        self.by_branch = by_branch
        self.limit = int(layer.branch)


class _Natal:
    """The natal chart's positions, read once for every limit of a horoscope."""

    __slots__ = ("at", "shown")

    def __init__(self, h: Horoscope) -> None:
        at: dict[str, int] = {}
        shown: dict[str, str] = {}
        for palace in h.chart.palaces:
            # Every major and minor star (a limit's stem may transform any of them), and
            # of the adjective stars only those some condition reads.
            for placed in (*palace.major_stars, *palace.minor_stars):
                at[placed.star.key] = int(placed.branch)
                if placed.mutagen is not None:
                    hua = f"hua_{placed.mutagen.key}"
                    at[hua] = int(placed.branch)
                    shown[hua] = placed.star.key
            for placed in palace.adjective_stars:
                if placed.star.key in _NAMED:
                    at[placed.star.key] = int(placed.branch)
        self.at = at
        self.shown = shown


_Test = Callable[[_LimitView], "_Evidence | None"]


def _token(key: str, where: str) -> str:
    if key in _HUA or key in _LIMIT_HUA or key in _LIMIT_FLOWING:
        return key
    if key in _DECADAL_HUA or key in _DECADAL_FLOWING:
        return key
    if star(key).key != key:
        raise ValueError(f"{where}: {key!r} is not a star key")
    return key


def _square(b: int) -> tuple[int, ...]:
    """三方四正 of branch ``b``: itself, its two trines and its opposite."""
    return b, (b + 4) % 12, (b + 8) % 12, (b + 6) % 12


def _compile(cond: Mapping[str, Any], where: str) -> _Test:
    """One limit condition (patterns.toml's head) as a test over one limit."""
    keys = set(cond)
    place = "in" if "in" in keys else "meets" if "meets" in keys else None
    if place is None or cond[place] != "limit":
        raise ValueError(f"{where}: {dict(cond)!r} is not in the limits vocabulary")
    what = keys - {place}
    with_ = tuple(_token(s, where) for s in cond.get("with", ()))
    if what - {"with"} not in ({"stars"}, {"any"}, {"none"}) or (with_ and "any" not in what):
        raise ValueError(f"{where}: {dict(cond)!r} is not in the limits vocabulary")
    kind = next(iter(what - {"with"}))
    named = tuple(_token(s, where) for s in cond[kind])
    around = place == "meets"

    def test(v: _LimitView) -> _Evidence | None:
        area = _square(v.limit) if around else (v.limit,)
        here = [(s, v.at[s]) for s in named if v.at.get(s) in area]
        if with_:
            here = [(s, b) for s, b in here if any(w in v.by_branch[b] for w in with_)]
            # the 空亡 star that voids it forms the pattern too
            here += [(w, b) for _s, b in list(here) for w in with_ if w in v.by_branch[b]]
        if kind == "stars":
            return here if len({s for s, _b in here}) == len(named) else None
        if kind == "any":
            return here or None
        return None if here else []

    return test


def _compile_all(conds: Iterable[Mapping[str, Any]], where: str) -> _Test:
    return all_of(tuple(_compile(c, where) for c in conds))


@dataclass(frozen=True, slots=True)
class LimitReading:
    """One reading of a limits pattern: the limits it reads and its conditions."""

    key: str
    scopes: tuple[Scope, ...]
    together: bool
    """Every limit of ``scopes`` must form it (二限); else each forms it alone (限)."""
    why: str
    test: _Test
    when: tuple[Mapping[str, Any], ...]


@dataclass(frozen=True, slots=True)
class LimitPatternHit:
    """A limits pattern formed on a horoscope."""

    pattern: Pattern
    variant: str
    scopes: tuple[Scope, ...]
    """The limits that form it (both for 二限, one for 限)."""
    palaces: tuple[Branch, ...]
    """The limits' palaces and the palaces of the stars that form it."""
    stars: tuple[str, ...]
    """The keys of the stars that form it (a transformation as the star it rides, a flowing
    star by its own key: ``yun_ma``, ``liu_lu``)."""

    @property
    def key(self) -> str:
        return self.pattern.key


def _load() -> dict[str, dict[str, LimitReading]]:
    readings: dict[str, dict[str, LimitReading]] = {}
    for row in load_data("patterns.toml")["pattern"]:
        if "limit" not in row:
            continue
        if row["layer"] != "limits":
            raise ValueError(f"pattern {row['key']}: limit readings on a natal pattern")
        mine = readings[row["key"]] = {}
        for r in row["limit"]:
            scopes = tuple(Scope(s) for s in r["scopes"])
            if not set(scopes) <= _SCOPES:
                raise ValueError(f"pattern {row['key']}.{r['key']}: scopes {r['scopes']}")
            where = f"{row['key']}.{r['key']}"
            mine[r["key"]] = LimitReading(
                r["key"],
                scopes,
                bool(r["together"]),
                r.get("why", ""),
                _compile_all(r["when"], where),
                tuple(r["when"]),
            )
        if next(iter(mine)) != "book":
            raise ValueError(f"pattern {row['key']}: the book's limit reading comes first")
    return readings


# The natal star keys the limit readings name (a horoscope records only these).
_NAMED = frozenset(
    key
    for row in load_data("patterns.toml")["pattern"]
    for r in row.get("limit", ())
    for cond in r["when"]
    for field in ("stars", "any", "none", "with")
    for key in cond.get(field, ())
)

LIMIT_READINGS = _load()
"""The readings of each limits pattern that positions define, by pattern and reading key
(``book`` first)."""

LIMIT_VARIANTS: frozenset[str] = frozenset(v for r in LIMIT_READINGS.values() for v in r)
"""Every reading a limits pattern may be asked for under."""


def detect(h: Horoscope, variant: str = "book") -> tuple[LimitPatternHit, ...]:
    """The limits patterns formed on a horoscope, in the data file's order (a 限 pattern
    once for each limit that forms it).  ``variant`` picks the reading of each pattern that
    has one by that key; the others keep the book's."""
    check_type(h, Horoscope, "horoscope", "a Zi Wei horoscope (chart.horoscope(...))")
    check_type(variant, str, "variant", "a reading key (book, yearly, either_void)")
    if variant not in LIMIT_VARIANTS:
        raise InputError(
            "variant",
            f"no limits reading {clip(variant)}: one of {', '.join(sorted(LIMIT_VARIANTS))}",
        )
    natal = _Natal(h)
    views = {
        layer.scope: _LimitView(natal, layer, h.decadal)
        for layer in h.layers
        if layer.scope in _SCOPES
    }
    hits: list[LimitPatternHit] = []
    for key, readings in LIMIT_READINGS.items():
        used = variant if variant in readings else "book"
        reading = readings[used]
        formed = [(s, reading.test(views[s])) for s in reading.scopes]
        groups = [formed] if reading.together else [[f] for f in formed]
        for group in groups:
            if any(found is None for _s, found in group):
                continue
            stars: dict[str, None] = {}
            branches = set()
            for scope, found in group:
                view = views[scope]
                branches.add(view.limit)
                for token, b in found or ():
                    stars[view.shown.get(token, token)] = None
                    branches.add(b)
            hits.append(
                LimitPatternHit(
                    PATTERNS[key],
                    used,
                    tuple(s for s, _f in group),
                    tuple(Branch(b) for b in sorted(branches)),
                    tuple(stars),
                )
            )
    return tuple(hits)
