"""Questions a chart answers, as iztro 2.6.0's analysis methods answer them.

三方四正 (:func:`surrounded`), 夹宫 (:func:`flanking`), 飞化 and 自化 (:func:`flies`),
stars in palaces (``Palace.has`` …, in ``chart.py``) and horoscope questions
(:func:`horoscope_palace`, :func:`has_horoscope_stars`, :func:`has_horoscope_mutagen` …).
``NatalChart`` and ``Horoscope`` expose them as methods; each takes canonical keys or any
name form (简, 繁, pinyin, English, iztro's names) and raises
:class:`~mingshu.errors.InputError` naming the field on a name that does not exist.

Where iztro answers a question vacuously or ignores part of it, mingshu does not copy it;
docs/iztro-differences.md lists those places (empty mutagen lists, ``selfMutaged()`` with
no argument, horoscope stars of the month, day and hour layers).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, NamedTuple

from mingshu.cycles import Branch
from mingshu.errors import InputError
from mingshu.named import clip
from mingshu.ziwei.horoscope import _FLOWING, _LAYER_NAMES, FlowingStar, Scope
from mingshu.ziwei.stars import Brightness, Mutagen, Star, load_data, mutagen_table, star
from mingshu.ziwei.tables import PalaceName

if TYPE_CHECKING:
    from mingshu.ziwei.chart import NatalChart, Palace
    from mingshu.ziwei.horoscope import Horoscope

__all__ = [
    "ORIGIN",
    "Flanking",
    "Flights",
    "Surrounded",
    "age_palace",
    "brightness_list",
    "flanking",
    "flanking_steps",
    "flies",
    "flowing_star",
    "has_horoscope_mutagen",
    "has_horoscope_stars",
    "has_one_of_horoscope_stars",
    "horoscope_palace",
    "horoscope_stars_at",
    "horoscope_surrounded",
    "mutagen_list",
    "not_have_horoscope_stars",
    "resolve_palace",
    "role_palace",
    "star_list",
    "surrounded",
    "surrounded_steps",
]

_DATA = load_data("analysis.toml")
_ROLES = {
    text.strip().lower(): role for role, row in _DATA["roles"].items() for text in row["names"]
}
_SURROUND = _DATA["surrounded"]
_OPPOSITE, _CAREER, _WEALTH = _SURROUND["opposite"], _SURROUND["career"], _SURROUND["wealth"]
_PREVIOUS, _NEXT = _DATA["flanking"]["previous"], _DATA["flanking"]["next"]
_ORIGIN_NAMES = frozenset(t.strip().lower() for t in _DATA["origin"]["names"])


def surrounded_steps() -> tuple[int, int, int]:
    """How many palaces forward the opposite palace, the wealth trine and the career trine
    of 三方四正 lie (6, 8, 4; from data/analysis.toml)."""
    return _OPPOSITE, _WEALTH, _CAREER


def flanking_steps() -> tuple[int, int]:
    """How many palaces the two palaces of 夹宫 lie from the palace (-1, +1)."""
    return _PREVIOUS, _NEXT


ORIGIN: Final = "origin"
"""The natal chart as the scope of a horoscope question (iztro's ``'origin'``)."""

StarsArg = str | Star | Iterable[str | Star]
MutagensArg = str | Mutagen | Iterable[str | Mutagen]
BrightnessArg = str | Brightness | Iterable[str | Brightness]


# ------------------------------------------------------------------------------ arguments


def _listed(value: object, field: str) -> list[object]:
    """One item or an iterable of items, as a list (a string is one item)."""
    if isinstance(value, str | Star | Mutagen | Brightness | FlowingStar):
        return [value]
    if isinstance(value, bytes) or not isinstance(value, Iterable):
        raise InputError(field, f"give a name or a list of names, not {clip(value)}")
    items = list(value)
    if not items:  # iztro answers vacuously here; a question about nothing is a mistake
        raise InputError(field, "give at least one name")
    return items


def star_list(stars: object, field: str = "stars") -> tuple[Star, ...]:
    """Natal stars by key or any name (one, or a list); :class:`InputError` on a name that
    is no star."""
    out = []
    for item in _listed(stars, field):
        if isinstance(item, Star):
            out.append(item)
            continue
        try:
            out.append(star(item))  # type: ignore[arg-type]
        except InputError:
            raise InputError(field, f"no star is called {clip(item)}") from None
    return tuple(out)


def mutagen_list(mutagens: object, field: str = "mutagen") -> tuple[Mutagen, ...]:
    """Transformations (``"忌"``, ``"ji"``, ``Mutagen.JI`` …; one or a list)."""
    return tuple(Mutagen.parse(m, field) for m in _listed(mutagens, field))


def brightness_list(grades: object, field: str = "brightness") -> tuple[Brightness, ...]:
    """Brightness grades (``"庙"``, ``"miao"`` …; one or a list)."""
    return tuple(Brightness.parse(g, field) for g in _listed(grades, field))


def role_palace(chart: NatalChart, which: str) -> Palace | None:
    """The palace of a role name (``"身宫"``/``"body"``, ``"来因"``/``"original"``), or
    ``None`` when ``which`` names no role."""
    role = _ROLES.get(which.strip().lower())
    if role == "body":
        return chart.body_palace
    if role == "original":
        for palace in chart.palaces:
            if palace.is_original:
                return palace
        raise InputError("palace", "this chart has no 来因宫 (its stem falls on 子 or 丑)")
    return None


def resolve_palace(chart: NatalChart, which: object) -> Palace:
    """A palace of ``chart``: a ``Palace`` of it, a palace name, a branch, or a role
    (``"身宫"``/``"body"``, ``"来因"``/``"original"``)."""
    from mingshu.ziwei.chart import Palace

    if isinstance(which, Palace):
        own = chart.palaces[which.iztro_index]
        if own is not which and own != which:
            raise InputError("palace", "that palace belongs to another chart")
        return own
    return chart.palace(which)  # type: ignore[arg-type]  # it checks and names the field


# ---------------------------------------------------------------------- palace groups


def _found(palaces: Iterable[Palace], stars: StarsArg) -> tuple[int, int]:
    """How many of ``stars`` sit in one of ``palaces``, and how many were asked: the
    have / not_have / have_one_of of both palace groups read it."""
    present = {p.star for palace in palaces for p in palace.stars}
    asked = star_list(stars)
    return sum(s in present for s in asked), len(asked)


class Surrounded(NamedTuple):
    """三方四正 of a palace: the palace, its opposite palace and its two trines."""

    target: Palace
    opposite: Palace
    wealth: Palace
    career: Palace

    def have(self, stars: StarsArg) -> bool:
        """Every one of ``stars`` is in one of the four palaces."""
        found, asked = _found(self, stars)
        return found == asked

    def not_have(self, stars: StarsArg) -> bool:
        """None of ``stars`` is in any of the four palaces."""
        return _found(self, stars)[0] == 0

    def have_one_of(self, stars: StarsArg) -> bool:
        """At least one of ``stars`` is in one of the four palaces."""
        return _found(self, stars)[0] > 0

    def has_mutagen(self, mutagen: str | Mutagen) -> bool:
        """A star of the four palaces carries the natal transformation ``mutagen``."""
        return any(p.has_mutagen(mutagen) for p in self)

    def not_have_mutagen(self, mutagen: str | Mutagen) -> bool:
        return not self.has_mutagen(mutagen)


class Flanking(NamedTuple):
    """夹宫: the palaces on either side of a palace."""

    previous: Palace
    next: Palace

    def have(self, stars: StarsArg) -> bool:
        found, asked = _found(self, stars)
        return found == asked

    def not_have(self, stars: StarsArg) -> bool:
        return _found(self, stars)[0] == 0

    def have_one_of(self, stars: StarsArg) -> bool:
        return _found(self, stars)[0] > 0

    def has_mutagen(self, mutagen: str | Mutagen) -> bool:
        return any(p.has_mutagen(mutagen) for p in self)

    def not_have_mutagen(self, mutagen: str | Mutagen) -> bool:
        return not self.has_mutagen(mutagen)


def surrounded(chart: NatalChart, which: object) -> Surrounded:
    """三方四正 of a palace (iztro ``surroundedPalaces``)."""
    palace = resolve_palace(chart, which)
    i = palace.iztro_index
    p = chart.palaces
    return Surrounded(palace, p[(i + _OPPOSITE) % 12], p[(i + _WEALTH) % 12], p[(i + _CAREER) % 12])


def flanking(chart: NatalChart, which: object) -> Flanking:
    """夹宫 of a palace (iztro ``flankingPalaces``)."""
    i = resolve_palace(chart, which).iztro_index
    return Flanking(chart.palaces[(i + _PREVIOUS) % 12], chart.palaces[(i + _NEXT) % 12])


# ------------------------------------------------------------------------- 飞化 / 自化


@dataclass(frozen=True, slots=True)
class Flights:
    """Where the four transformations of a palace's stem land (宫干飞化): for each of
    禄 权 科 忌, the palace of the star the stem transforms, by the chart's 四化 table."""

    chart: NatalChart
    source: Palace
    palaces: tuple[Palace, Palace, Palace, Palace]
    """The palaces reached by 禄, 权, 科, 忌 (iztro ``mutagedPlaces``)."""

    @property
    def lu(self) -> Palace:
        return self.palaces[Mutagen.LU]

    @property
    def quan(self) -> Palace:
        return self.palaces[Mutagen.QUAN]

    @property
    def ke(self) -> Palace:
        return self.palaces[Mutagen.KE]

    @property
    def ji(self) -> Palace:
        return self.palaces[Mutagen.JI]

    def __getitem__(self, mutagen: str | Mutagen) -> Palace:
        return self.palaces[Mutagen.parse(mutagen)]

    def to(self, palace: object, mutagens: MutagensArg) -> bool:
        """Every one of ``mutagens`` flies to ``palace`` (iztro ``fliesTo``)."""
        branch = resolve_palace(self.chart, palace).branch
        return all(self.palaces[m].branch == branch for m in mutagen_list(mutagens))

    def one_of_to(self, palace: object, mutagens: MutagensArg) -> bool:
        """At least one of ``mutagens`` flies to ``palace`` (iztro ``fliesOneOfTo``)."""
        branch = resolve_palace(self.chart, palace).branch
        return any(self.palaces[m].branch == branch for m in mutagen_list(mutagens))

    def not_to(self, palace: object, mutagens: MutagensArg) -> bool:
        """None of ``mutagens`` flies to ``palace`` (iztro ``notFlyTo``)."""
        return not self.one_of_to(palace, mutagens)

    @property
    def self_mutagens(self) -> tuple[Mutagen, ...]:
        """自化: the transformations that land in the palace itself (iztro ``selfMutaged``)."""
        return tuple(m for m in Mutagen if self.palaces[m].branch == self.source.branch)

    def self_mutaged(self, mutagens: MutagensArg) -> bool:
        """Every one of ``mutagens`` is a self-transformation (iztro ``selfMutaged``)."""
        own = self.self_mutagens
        return all(m in own for m in mutagen_list(mutagens))

    def self_mutaged_one_of(self, mutagens: MutagensArg = tuple(Mutagen)) -> bool:
        """At least one of ``mutagens`` (default: any) is a self-transformation."""
        own = self.self_mutagens
        return any(m in own for m in mutagen_list(mutagens))

    def not_self_mutaged(self, mutagens: MutagensArg = tuple(Mutagen)) -> bool:
        """None of ``mutagens`` (default: none at all) is a self-transformation."""
        return not self.self_mutaged_one_of(mutagens)


def flies(chart: NatalChart, which: object) -> Flights:
    """The palaces a palace's four transformations fly to (飞化), by the 四化 table of the
    chart's settings (iztro ``mutagedPlaces``, ``fliesTo`` …)."""
    palace = resolve_palace(chart, which)
    row = mutagen_table(chart.settings.mutagens)[palace.stem]
    lu, quan, ke, ji = (chart.palace_of(s.key) for s in row)
    return Flights(chart, palace, (lu, quan, ke, ji))


# -------------------------------------------------------------------------- horoscopes


def _scope(value: object) -> Scope | None:
    """A horoscope scope, or ``None`` for the natal chart (``"origin"``)."""
    if isinstance(value, Scope):
        return value
    if isinstance(value, str):
        text = value.strip().lower()
        if text in _ORIGIN_NAMES:
            return None
        for scope in Scope:
            names = _LAYER_NAMES[scope]
            if text in (scope.value, names.hans, names.hant, names.pinyin.lower()):
                return scope
            if text == names.english.lower():
                return scope
    choices = ", ".join([ORIGIN, *(s.value for s in Scope)])
    raise InputError("scope", f"{clip(value)} is not a scope (one of {choices})")


def horoscope_palace(h: Horoscope, name: object, scope: object) -> Palace:
    """The natal palace that the layer ``scope`` calls ``name`` (iztro
    ``horoscope.palace(name, scope)``): ``horoscope_palace(h, "命宫", "yearly")`` is the
    palace of the flow year's Life palace.  Scope ``"origin"`` reads ``name`` on the natal
    chart (roles such as 身宫 included)."""
    chosen = _scope(scope)
    if chosen is None:
        return resolve_palace(h.chart, name)
    layer = h.layers[list(Scope).index(chosen)]
    palace_name = PalaceName.parse(name, "palace")
    return h.chart.palace_at(Branch((layer.branch + palace_name) % 12))


def age_palace(h: Horoscope) -> Palace:
    """The natal palace of the small limit (小限) (iztro ``agePalace``)."""
    return h.chart.palace_at(h.age.branch)


def horoscope_surrounded(h: Horoscope, name: object, scope: object) -> Surrounded:
    """三方四正 of the palace that ``scope`` calls ``name`` (iztro ``surroundPalaces``)."""
    return surrounded(h.chart, horoscope_palace(h, name, scope))


def _flowing_index() -> dict[str, FlowingStar]:
    seen: dict[str, set[FlowingStar]] = {}
    for stars in _FLOWING.values():
        for _, s in stars:
            for text in (s.key, s.iztro_key, s.iztro_en, *s.names):
                if text:
                    seen.setdefault(text.strip().lower(), set()).add(s)
    return {text: next(iter(found)) for text, found in seen.items() if len(found) == 1}


_FLOWING_BY_NAME = _flowing_index()


def flowing_star(name: object) -> FlowingStar:
    """A flowing star (流耀) by key (``"liu_chang"``) or any name (``"流昌"``,
    ``"Year Literary Star"``, iztro's ``"liuchang"``)."""
    if isinstance(name, FlowingStar):
        return name
    found = _FLOWING_BY_NAME.get(name.strip().lower()) if isinstance(name, str) else None
    if found is None:
        raise InputError("stars", f"no flowing star is called {clip(name)} (流昌, liu_chang …)")
    return found


def horoscope_stars_at(h: Horoscope, branch: object) -> tuple[FlowingStar, ...]:
    """The flowing stars of every layer in the palace on ``branch``, decade first."""
    b = Branch.parse(branch, "palace")
    return tuple(p.star for layer in h.layers for p in layer.stars if p.branch == b)


def has_horoscope_stars(h: Horoscope, name: object, scope: object, stars: object) -> bool:
    """Every one of the flowing ``stars`` is in the palace ``scope`` calls ``name``
    (iztro ``hasHoroscopeStars``; the stars of every layer count)."""
    palace = horoscope_palace(h, name, scope)
    present = set(horoscope_stars_at(h, palace.branch))
    return all(flowing_star(s) in present for s in _listed(stars, "stars"))


def not_have_horoscope_stars(h: Horoscope, name: object, scope: object, stars: object) -> bool:
    """None of the flowing ``stars`` is there (iztro ``notHaveHoroscopeStars``)."""
    palace = horoscope_palace(h, name, scope)
    present = set(horoscope_stars_at(h, palace.branch))
    return not any(flowing_star(s) in present for s in _listed(stars, "stars"))


def has_one_of_horoscope_stars(h: Horoscope, name: object, scope: object, stars: object) -> bool:
    """At least one of the flowing ``stars`` is there (iztro ``hasOneOfHoroscopeStars``)."""
    palace = horoscope_palace(h, name, scope)
    present = set(horoscope_stars_at(h, palace.branch))
    return any(flowing_star(s) in present for s in _listed(stars, "stars"))


def has_horoscope_mutagen(h: Horoscope, name: object, scope: object, mutagen: object) -> bool:
    """The star that the layer ``scope`` transforms with ``mutagen`` is one of the natal
    stars of the palace that layer calls ``name`` (iztro ``hasHoroscopeMutagen``)."""
    chosen = _scope(scope)
    if chosen is None:
        raise InputError("scope", "the natal chart has no horoscope transformation: ask Palace")
    palace = horoscope_palace(h, name, chosen)
    layer = h.layers[list(Scope).index(chosen)]
    target = layer.mutagens[Mutagen.parse(mutagen, "mutagen")]
    return any(p.star is target for p in palace.stars)
