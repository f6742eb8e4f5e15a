"""Zi Wei charts and horoscopes as JSON-ready dicts, and a fast path straight to bytes.

``chart_to_dict(chart)`` and ``horoscope_to_dict(horoscope)`` return fresh dicts of str,
int, bool, None, lists and dicts only; the caller may change them freely.  The schema is
described field by field in ``docs/ziwei-json.md``; each object names its version in
``"schema"`` (``mingshu.ziwei.chart/1``, ``mingshu.ziwei.horoscope/1``).  A new field may
be added within a version; renaming or removing one bumps it.

Speed: most of a chart's JSON is the same from chart to chart (a star's names, a god's,
a palace name's).  Those pieces are built once per catalogue object and kept in bounded
module caches (pure functions of immutable catalogue values).  ``chart_to_dict`` copies
them, so no caller can change another's export; :func:`chart_json` never hands them out:
it serialises them as pre-encoded ``orjson.Fragment`` bytes.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from functools import partial
from itertools import chain, repeat
from operator import attrgetter, itemgetter
from typing import Any, Final, TypeVar

import orjson

from mingshu.cycles import Branch, Names, Stem
from mingshu.present.birth_json import birth_to_dict, lunar_to_dict
from mingshu.present.names import named, notice_dict, notices_of
from mingshu.ziwei.chart import Decadal, NatalChart, Palace, PlacedStar
from mingshu.ziwei.horoscope import Horoscope, Layer, PlacedFlowingStar
from mingshu.ziwei.limit_patterns import LimitPatternHit
from mingshu.ziwei.patterns import BreakRule, Pattern, PatternHit
from mingshu.ziwei.settings import ZiweiSettings
from mingshu.ziwei.stars import Star
from mingshu.ziwei.tables import HOURS, FiveElementsClass, God, PalaceName

__all__ = [
    "CHART_SCHEMA",
    "HOROSCOPE_SCHEMA",
    "chart_document",
    "chart_json",
    "chart_to_dict",
    "horoscope_to_dict",
    "settings_to_dict",
]

CHART_SCHEMA: Final = "mingshu.ziwei.chart/1"
HOROSCOPE_SCHEMA: Final = "mingshu.ziwei.horoscope/1"

_GOD_CYCLES: Final = ("chang_sheng", "bo_shi", "jiang_qian", "sui_qian")

# ----------------------------------------------------------------------- shared pieces

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

# Caches are keyed by catalogue objects (stars and gods hash by identity, brightness and
# 四化 are int enums), so a chart's look-ups cost a hash of a few pointers.  They are bounded
# in case a caller builds catalogue objects of their own.
_LIMIT: Final = 50_000


def _cached(cache: dict[K, V], key: K, build: Callable[[K], V]) -> V:
    value = cache.get(key)
    if value is None:
        if len(cache) >= _LIMIT:
            cache.clear()
        value = cache[key] = build(key)
    return value


def encoded(value: Any) -> bytes:
    """``orjson.dumps(value)`` in a bytes object of its own size, for keeping: orjson hands
    back its whole working buffer (4 kB for the smallest value), so a cache of its results
    would hold 4 kB a piece and scatter the pieces of one chart over as many pages."""
    return bytes(memoryview(orjson.dumps(value)))


def _placed(placed: PlacedStar) -> dict[str, Any]:
    star = placed.star
    return {
        **named(star.key, star.names),
        "kind": star.kind.value,
        "brightness": None if placed.brightness is None else placed.brightness.key,
        "mutagen": None if placed.mutagen is None else placed.mutagen.key,
    }


def _gods(gods: tuple[God, God, God, God]) -> dict[str, dict[str, str]]:
    return {cycle: named(god.key, god.names) for cycle, god in zip(_GOD_CYCLES, gods, strict=True)}


_STARS: dict[PlacedStar, dict[str, Any]] = {}
_GODS: dict[tuple[God, God, God, God], dict[str, dict[str, str]]] = {}
_PALACE_NAMES: Final = {p: named(p.key, p.names) for p in PalaceName}
_CLASSES: Final = {c: {**named(c.key, c.names), "number": int(c)} for c in FiveElementsClass}


# Keys and pillar texts by number, so that a palace's costs a tuple index, not a property.
_STEM_KEYS: Final = tuple(s.key for s in Stem)
_BRANCH_KEYS: Final = tuple(b.key for b in Branch)
_PILLAR_TEXTS: Final = tuple(tuple(str(s) + str(b) for b in Branch) for s in Stem)


# ------------------------------------------------------------------------------ pieces


def settings_to_dict(settings: ZiweiSettings) -> dict[str, Any]:
    """Every settings field by its value; ``ZiweiSettings(**settings_to_dict(s)) == s``.
    ``school`` is written only when it is not the default, so iztro-school output is
    unchanged.

    ``mutagens`` maps a stem key to four star keys (禄 权 科 忌); ``brightness`` maps a star
    key to twelve grade keys in branch order 子 … 亥 (``""`` for no grade).
    """
    return {
        "year_boundary": settings.year_boundary.value,
        "horoscope_boundary": settings.horoscope_boundary.value,
        "late_rat_hour": settings.late_rat_hour.value,
        "leap_month": settings.leap_month.value,
        "age_count": settings.age_count.value,
        "algorithm": settings.algorithm.value,
        "chart_type": settings.chart_type.value,
        "mutagens": {stem.key: list(keys) for stem, keys in settings.mutagens},
        "brightness": {key: list(row) for key, row in settings.brightness},
        "true_solar_time": settings.true_solar_time,
        "equation_of_time": settings.equation_of_time,
    } | ({"school": settings.school.value} if settings.school.value != "iztro" else {})


def _fresh_stars(group: tuple[PlacedStar, ...]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for placed in group:
        shared: dict[str, Any] = _cached(_STARS, placed, _placed)
        out.append(dict(shared))  # a copy: the shared dict is never handed out
    return out


def _palace(palace: Palace) -> dict[str, Any]:
    """A palace as fresh dicts (copies of the shared pieces)."""
    gods = (palace.chang_sheng, palace.bo_shi, palace.jiang_qian, palace.sui_qian)
    decadal = palace.decadal
    return {
        "branch": palace.branch.key,
        "stem": palace.stem.key,
        "pillar": str(palace.pillar),
        "name": dict(_PALACE_NAMES[palace.name]),
        "is_body": palace.is_body,
        "is_original": palace.is_original,
        "major_stars": _fresh_stars(palace.major_stars),
        "minor_stars": _fresh_stars(palace.minor_stars),
        "adjective_stars": _fresh_stars(palace.adjective_stars),
        "gods": {cycle: dict(god) for cycle, god in _cached(_GODS, gods, _gods).items()},
        "decadal": {"start": decadal.start, "end": decadal.end, "pillar": str(decadal.pillar)},
        "ages": list(palace.ages),
    }


def _pattern_head(pattern: Pattern) -> dict[str, Any]:
    return {
        **named(pattern.key, pattern.names),
        "group": pattern.group,
        "layer": pattern.layer,
        "verse": pattern.verse,
        "verse_at": pattern.verse_at,
    }


def _rule(rule: BreakRule) -> dict[str, Any]:
    return {**named(rule.key, rule.names), "verse": rule.verse, "verse_at": rule.verse_at}


def _pattern(hit: PatternHit) -> dict[str, Any]:
    return {
        **_pattern_head(hit.pattern),
        "variant": hit.variant,
        "palaces": [b.key for b in hit.palaces],
        "stars": list(hit.stars),
        "broken": [_rule(r) for r in hit.broken],
    }


def _patterns(chart: NatalChart) -> list[dict[str, Any]]:
    return [_pattern(hit) for hit in chart.patterns()]


# A pattern formed is the same text on every chart where the same stars form it in the same
# palaces, and the detector hands out one hit object for each such form (patterns._HITS):
# its bytes are built once, kept by the hit's identity (the hit is kept with them, so an id
# reused after it is freed cannot match).
_PATTERN_BYTES: dict[int, tuple[PatternHit, bytes]] = {}


def _patterns_fast(chart: NatalChart) -> orjson.Fragment:
    hits = chart.patterns()
    if not hits:
        return _NO_PATTERNS
    parts = []
    for hit in hits:
        found = _PATTERN_BYTES.get(id(hit))
        if found is None or found[0] is not hit:
            if len(_PATTERN_BYTES) >= _LIMIT:
                _PATTERN_BYTES.clear()
            found = _PATTERN_BYTES[id(hit)] = (hit, encoded(_pattern(hit)))
        parts.append(found[1])
    return orjson.Fragment(b"[" + b",".join(parts) + b"]")


_NO_PATTERNS = orjson.Fragment(b"[]")


def _chart(chart: NatalChart) -> dict[str, Any]:
    birth = chart.birth
    hour = chart.hour
    by_branch = sorted(chart.palaces, key=lambda p: p.branch)
    return {
        "schema": CHART_SCHEMA,
        "birth": birth_to_dict(birth),
        "settings": settings_to_dict(chart.settings),
        "lunar_date": lunar_to_dict(chart.lunar_date),
        "hour": {
            "index": hour.index,
            "hans": hour.names.hans,
            "hant": hour.names.hant,
            "pinyin": hour.names.pinyin,
            "english": hour.names.english,
            "range": hour.range,
        },
        "pillars": {
            "year": str(chart.pillars.year),
            "month": str(chart.pillars.month),
            "day": str(chart.pillars.day),
            "hour": str(chart.pillars.hour),
        },
        "god_year": str(chart.god_year),
        "five_elements_class": dict(_CLASSES[chart.five_elements_class]),
        "life_master": named(chart.life_master.key, chart.life_master.names),
        "body_master": named(chart.body_master.key, chart.body_master.names),
        "life_branch": chart.life_branch.key,
        "body_branch": chart.body_branch.key,
        "zodiac": named(chart.zodiac.english.lower(), chart.zodiac),
        "sign": named(chart.sign.english.lower(), chart.sign),
        "palaces": [_palace(p) for p in by_branch],
        "patterns": _patterns(chart),
        "notices": [notice_dict(n) for n in notices_of(chart)],
    }


# --------------------------------------------------------------------------- fast path
#
# The same document as _chart, for orjson only: shared pieces as fragments, tuples for
# lists, keys and pillar texts by table look-up.  tests/present check that both agree on
# every chart of the iztro fixtures.

_HOUR_BYTES: Final = {
    h.index: orjson.Fragment(
        encoded(
            {
                "index": h.index,
                "hans": h.names.hans,
                "hant": h.names.hant,
                "pinyin": h.names.pinyin,
                "english": h.names.english,
                "range": h.range,
            }
        )
    )
    for h in HOURS
}
_CLASS_BYTES: Final = {c: orjson.Fragment(encoded(d)) for c, d in _CLASSES.items()}
_MASTER_BYTES: dict[Star, orjson.Fragment] = {}
_SIGN_BYTES: dict[Names, orjson.Fragment] = {}


_SETTINGS_BYTES: dict[ZiweiSettings, orjson.Fragment] = {}


def _settings_bytes(settings: ZiweiSettings) -> orjson.Fragment:
    return orjson.Fragment(encoded(settings_to_dict(settings)))


def _master_bytes(star: Star) -> orjson.Fragment:
    return orjson.Fragment(encoded(named(star.key, star.names)))


def _sign_bytes(names: Names) -> orjson.Fragment:
    return orjson.Fragment(encoded(named(names.english.lower(), names)))


# A palace's fields in the order the loop below unpacks them.  Palace and Decadal are named
# tuples, and unpacking a tuple costs a fraction of twenty attribute look-ups; should either
# stop being a tuple of exactly these fields, the same loop reads them by name instead.
_PALACE_FIELDS: Final = (
    "branch",
    "stem",
    "name",
    "is_body",
    "is_original",
    "major_stars",
    "minor_stars",
    "adjective_stars",
    "chang_sheng",
    "bo_shi",
    "jiang_qian",
    "sui_qian",
    "decadal",
    "ages",
)
_UNPACK: Final = getattr(Palace, "_fields", None) == _PALACE_FIELDS and getattr(
    Decadal, "_fields", None
) == ("start", "end", "pillar")
_palace_fields: Final = attrgetter(*_PALACE_FIELDS)

# A palace is written as bytes joined from encoded pieces, each made once by orjson from the
# same dicts as _palace (so the bytes are orjson's): its head (branch … is_original) up to
# "major_stars", its star groups, gods, decadal and ages.  Keys and pieces are few and
# small (every one a few thousand values at most), except the adjective groups: random
# births make more of those than a bounded cache would keep, so each is joined from its
# stars' encodings (a catalogue places a few thousand stars).
_HEADS: dict[tuple[int, int, PalaceName, bool, bool], bytes] = {}
_STAR_BYTES: dict[PlacedStar, bytes] = {}
_POOLED: dict[tuple[PlacedStar, ...], bytes] = {}  # the engine's shared major/minor groups
_GOD_BYTES: dict[tuple[God, God, God, God], bytes] = {}
_DECADAL_BYTES: dict[tuple[int, int, int, int], bytes] = {}  # start, end, stem, branch
_AGES_BYTES: dict[tuple[int, ...], bytes] = {}
_FIELD_NAMES: Final = tuple(
    b',"%s":' % key.encode()
    for key in ("minor_stars", "adjective_stars", "gods", "decadal", "ages")
)


def _head(key: tuple[int, int, PalaceName, bool, bool]) -> bytes:
    branch, stem, name, is_body, is_original = key
    head = orjson.dumps(
        {
            "branch": _BRANCH_KEYS[branch],
            "stem": _STEM_KEYS[stem],
            "pillar": _PILLAR_TEXTS[stem][branch],
            "name": _PALACE_NAMES[name],
            "is_body": is_body,
            "is_original": is_original,
        }
    )
    # Open for the rest; 子, first in branch order, opens the list, the others follow a comma.
    return (b"[" if branch == 0 else b",") + head[:-1] + b',"major_stars":'


def _star_bytes(placed: PlacedStar) -> bytes:
    return encoded(_cached(_STARS, placed, _placed))


def _group(group: tuple[PlacedStar, ...]) -> bytes:
    return b"[%b]" % b",".join([_cached(_STAR_BYTES, s, _star_bytes) for s in group])


def _god_bytes(gods: tuple[God, God, God, God]) -> bytes:
    return encoded(_cached(_GODS, gods, _gods))


def _decadal_bytes(key: tuple[int, int, int, int]) -> bytes:
    start, end, stem, branch = key
    return encoded({"start": start, "end": end, "pillar": _PILLAR_TEXTS[stem][branch]})


def _palaces_by_palace(chart: NatalChart) -> orjson.Fragment:
    """The chart's "palaces" list (branch order) as one fragment, a palace at a time (for
    palaces that are not the engine's named tuples in iztro's order)."""
    heads, pooled, gods, star_bytes = _HEADS, _POOLED, _GOD_BYTES, _STAR_BYTES.__getitem__
    decadals, ages_bytes = _DECADAL_BYTES, _AGES_BYTES
    minor_name, adjective_name, gods_name, decadal_name, ages_name = _FIELD_NAMES
    by_branch: list[tuple[bytes, ...]] = [()] * 12
    palaces: Any = chart.palaces if _UNPACK else map(_palace_fields, chart.palaces)
    for (
        branch,
        stem,
        name,
        is_body,
        is_original,
        major_stars,
        minor_stars,
        adjective_stars,
        chang_sheng,
        bo_shi,
        jiang_qian,
        sui_qian,
        decadal,
        ages,
    ) in palaces:
        head_key = (branch, stem, name, is_body, is_original)
        god_key = (chang_sheng, bo_shi, jiang_qian, sui_qian)
        start, end, pillar = decadal if _UNPACK else (decadal.start, decadal.end, decadal.pillar)
        decadal_key = (start, end, pillar.stem, pillar.branch)  # a Pillar hashes in Python
        try:
            parts = (
                heads[head_key],
                pooled[major_stars],
                minor_name,
                pooled[minor_stars],
                adjective_name,
                b"[%b]" % b",".join(map(star_bytes, adjective_stars)),
                gods_name,
                gods[god_key],
                decadal_name,
                decadals[decadal_key],
                ages_name,
                ages_bytes[ages],
                b"}",
            )
        except KeyError:  # first sight of one of them: build (a bounded cache may clear)
            parts = (
                _cached(heads, head_key, _head),
                _cached(pooled, major_stars, _group),
                minor_name,
                _cached(pooled, minor_stars, _group),
                adjective_name,
                _group(adjective_stars),
                gods_name,
                _cached(gods, god_key, _god_bytes),
                decadal_name,
                _cached(decadals, decadal_key, _decadal_bytes),
                ages_name,
                _cached(ages_bytes, ages, encoded),
                b"}",
            )
        by_branch[branch] = parts
    # One join of every piece: the 20 kB of a chart's palaces are copied once.
    return orjson.Fragment(b"".join(chain(*by_branch, (b"]",))))


# Column path: the engine builds the twelve palaces from columns that each depend on one or
# two small numbers (the names on the Life branch, each god cycle on its anchor …), so a
# chart's palaces, transposed back into columns, repeat from chart to chart far more than
# any palace does.  Each column's bytes (one piece a palace, in branch order, with the field
# names around it baked in) are cached by the column itself.  A column is one field, not a
# group of fields: each cache then holds a few dozen columns at most (the four god cycles
# together took thousands), so a never-seen birth finds them all built after a few charts.
# The star groups are looked up a group at a time, and the adjective groups joined from
# their stars' bytes.  Twelve palaces thus cost a few dozen C-level calls.
_IZTRO_BRANCHES: Final = tuple(Branch((index + 2) % 12) for index in range(12))
_STEM_COLUMNS: dict[tuple[Stem, ...], tuple[bytes, ...]] = {}
_NAME_COLUMNS: dict[tuple[PalaceName, ...], tuple[bytes, ...]] = {}
_BODY_COLUMNS: dict[tuple[bool, ...], tuple[bytes, ...]] = {}
_ORIGINAL_COLUMNS: dict[tuple[bool, ...], tuple[bytes, ...]] = {}
_GOD_COLUMNS: tuple[dict[tuple[God, ...], tuple[bytes, ...]], ...] = tuple({} for _ in _GOD_CYCLES)
_SPAN_COLUMNS: dict[tuple[tuple[int, int], ...], tuple[bytes, ...]] = {}
_PILLAR_COLUMNS: dict[tuple[tuple[int, int], ...], tuple[bytes, ...]] = {}
_AGES_COLUMNS: dict[tuple[tuple[int, ...], ...], tuple[bytes, ...]] = {}
# The engine's major groups come as shared columns of twelve (120 of them); its minor
# groups, in columns of thousands, are looked up a group at a time (_minor_groups).
_GROUP_COLUMNS: dict[tuple[tuple[PlacedStar, ...], ...], tuple[bytes, ...]] = {}
_span_of: Final = itemgetter(0, 1)  # a Decadal's start and end
_pillar_of: Final = itemgetter(2)
_stem_and_branch: Final = attrgetter("stem", "branch")  # a Pillar hashes in Python


def _branch_order(column: tuple[V, ...]) -> tuple[V, ...]:
    """A column in iztro's palace order (寅 first) in branch order (子 first)."""
    return column[10:] + column[:10]


def _column(
    piece: Callable[[Branch, Any], bytes],
) -> Callable[[tuple[Any, ...]], tuple[bytes, ...]]:
    """The builder of a column's pieces, ``piece(branch, value)`` for each palace."""

    def build(column: tuple[Any, ...]) -> tuple[bytes, ...]:
        return _branch_order(tuple(map(piece, _IZTRO_BRANCHES, column)))

    return build


def _stem_piece(branch: Branch, stem: Stem) -> bytes:
    head = orjson.dumps(
        {"branch": branch.key, "stem": stem.key, "pillar": _PILLAR_TEXTS[stem][branch]}
    )
    # Open for the rest; 子, first in branch order, opens the list, the others follow a comma.
    return (b"[" if branch == 0 else b",") + head[:-1] + b',"name":'


def _ages_piece(branch: Branch, ages: tuple[int, ...]) -> bytes:
    # The last palace in branch order (亥) closes the list too.
    return _cached(_AGES_BYTES, ages, encoded) + (b"}]" if branch == 11 else b"}")


_stem_column = _column(_stem_piece)
_name_column = _column(lambda _, name: encoded(_PALACE_NAMES[name]))
_body_column = _column(lambda _, body: b',"is_body":' + orjson.dumps(body))
_original_column = _column(
    lambda _, original: b',"is_original":' + orjson.dumps(original) + b',"major_stars":'
)


def _god_piece(opening: bytes, closing: bytes, _: Branch, god: God) -> bytes:
    return opening + encoded(named(god.key, god.names)) + closing


_god_columns = tuple(
    _column(partial(_god_piece, opening, closing))
    for opening, closing in zip(
        (b'],"gods":{"chang_sheng":', b',"bo_shi":', b',"jiang_qian":', b',"sui_qian":'),
        (b"", b"", b"", b"}"),
        strict=True,
    )
)
_span_column = _column(
    lambda _, span: b',"decadal":{"start":%b,"end":%b,"pillar":' % tuple(map(orjson.dumps, span))
)
_pillar_column = _column(
    lambda _, pillar: orjson.dumps(_PILLAR_TEXTS[pillar[0]][pillar[1]]) + b'},"ages":'
)
_ages_column = _column(_ages_piece)
_group_column = _column(lambda _, group: _cached(_POOLED, group, _group))


def _minor_groups(column: tuple[tuple[PlacedStar, ...], ...]) -> tuple[bytes, ...]:
    try:
        return _branch_order(tuple(map(_POOLED.__getitem__, column)))
    except KeyError:
        return _branch_order(tuple(_cached(_POOLED, group, _group) for group in column))


def _adjectives(column: tuple[tuple[PlacedStar, ...], ...]) -> tuple[bytes, ...]:
    try:
        return _branch_order(
            tuple(map(b",".join, map(map, repeat(_STAR_BYTES.__getitem__), column)))
        )
    except KeyError:
        return _branch_order(tuple(_group(group)[1:-1] for group in column))


# Sixteen pieces a palace: its stem (with the branch and pillar), name, body flag, original
# flag (up to "major_stars":), majors, the minor field name, minors, the adjective field
# name, adjectives, the four gods (the first with "gods":), the decade's span and pillar,
# and the ages (closing the palace).
_PIECES: Final = 16
_TEMPLATE: Final = [b""] * (12 * _PIECES)
_TEMPLATE[5::_PIECES] = [b',"minor_stars":'] * 12
_TEMPLATE[7::_PIECES] = [b',"adjective_stars":['] * 12


def _palaces_fast(chart: NatalChart) -> orjson.Fragment:
    """The chart's "palaces" list (branch order) as one fragment."""
    if not _UNPACK:
        return _palaces_by_palace(chart)
    (
        branches,
        stems,
        names,
        bodies,
        originals,
        majors,
        minors,
        adjectives,
        chang_sheng,
        bo_shi,
        jiang_qian,
        sui_qian,
        decadals,
        ages,
    ) = zip(*chart.palaces, strict=True)
    if branches != _IZTRO_BRANCHES:
        return _palaces_by_palace(chart)
    spans = tuple(map(_span_of, decadals))
    pillar_key = tuple(map(_stem_and_branch, map(_pillar_of, decadals)))
    gods = _GOD_COLUMNS
    columns: tuple[tuple[bytes, ...], ...]
    try:
        columns = (
            _STEM_COLUMNS[stems],
            _NAME_COLUMNS[names],
            _BODY_COLUMNS[bodies],
            _ORIGINAL_COLUMNS[originals],
            _GROUP_COLUMNS[majors],
            gods[0][chang_sheng],
            gods[1][bo_shi],
            gods[2][jiang_qian],
            gods[3][sui_qian],
            _SPAN_COLUMNS[spans],
            _PILLAR_COLUMNS[pillar_key],
            _AGES_COLUMNS[ages],
        )
    except KeyError:  # first sight of one of them: build (a bounded cache may clear)
        columns = (
            _cached(_STEM_COLUMNS, stems, _stem_column),
            _cached(_NAME_COLUMNS, names, _name_column),
            _cached(_BODY_COLUMNS, bodies, _body_column),
            _cached(_ORIGINAL_COLUMNS, originals, _original_column),
            _cached(_GROUP_COLUMNS, majors, _group_column),
            *(
                _cached(cache, column, build)
                for cache, column, build in zip(
                    gods, (chang_sheng, bo_shi, jiang_qian, sui_qian), _god_columns, strict=True
                )
            ),
            _cached(_SPAN_COLUMNS, spans, _span_column),
            _cached(_PILLAR_COLUMNS, pillar_key, _pillar_column),
            _cached(_AGES_COLUMNS, ages, _ages_column),
        )
    parts = _TEMPLATE.copy()
    (
        parts[0::_PIECES],
        parts[1::_PIECES],
        parts[2::_PIECES],
        parts[3::_PIECES],
        parts[4::_PIECES],
        parts[9::_PIECES],
        parts[10::_PIECES],
        parts[11::_PIECES],
        parts[12::_PIECES],
        parts[13::_PIECES],
        parts[14::_PIECES],
        parts[15::_PIECES],
    ) = columns
    parts[6::_PIECES] = _minor_groups(minors)
    parts[8::_PIECES] = _adjectives(adjectives)
    return orjson.Fragment(b"".join(parts))


def _chart_fast(chart: NatalChart) -> dict[str, Any]:
    texts, branch_keys = _PILLAR_TEXTS, _BRANCH_KEYS
    birth = chart.birth
    year, month, day, hour = chart.pillars
    god_year, settings, lunar_date = chart.god_year, chart.settings, chart.lunar_date
    life_master, body_master, zodiac, sign = (
        chart.life_master,
        chart.body_master,
        chart.zodiac,
        chart.sign,
    )
    try:
        named_parts = (
            _SETTINGS_BYTES[settings],
            _MASTER_BYTES[life_master],
            _MASTER_BYTES[body_master],
            _SIGN_BYTES[zodiac],
            _SIGN_BYTES[sign],
        )
    except KeyError:
        named_parts = (
            _cached(_SETTINGS_BYTES, settings, _settings_bytes),
            _cached(_MASTER_BYTES, life_master, _master_bytes),
            _cached(_MASTER_BYTES, body_master, _master_bytes),
            _cached(_SIGN_BYTES, zodiac, _sign_bytes),
            _cached(_SIGN_BYTES, sign, _sign_bytes),
        )
    notices = notices_of(chart)
    return {
        "schema": CHART_SCHEMA,
        "birth": birth_to_dict(birth),
        "settings": named_parts[0],
        "lunar_date": lunar_to_dict(lunar_date),  # random births rarely repeat a day
        "hour": _HOUR_BYTES[chart.hour.index],
        "pillars": {
            "year": texts[year.stem][year.branch],
            "month": texts[month.stem][month.branch],
            "day": texts[day.stem][day.branch],
            "hour": texts[hour.stem][hour.branch],
        },
        "god_year": texts[god_year.stem][god_year.branch],
        "five_elements_class": _CLASS_BYTES[chart.five_elements_class],
        "life_master": named_parts[1],
        "body_master": named_parts[2],
        "life_branch": branch_keys[chart.life_branch],
        "body_branch": branch_keys[chart.body_branch],
        "zodiac": named_parts[3],
        "sign": named_parts[4],
        "palaces": _palaces_fast(chart),
        "patterns": _patterns_fast(chart),
        "notices": [notice_dict(n) for n in notices] if notices else [],
    }


def chart_to_dict(chart: NatalChart) -> dict[str, Any]:
    """A natal chart in the ``mingshu.ziwei.chart/1`` schema (docs/ziwei-json.md), as
    fresh dicts and lists: changing them changes nothing else."""
    return _chart(chart)


def chart_document(chart: NatalChart) -> dict[str, Any]:
    """The chart for ``orjson.dumps`` alone (without indenting), as part of a larger
    document: ``orjson.dumps(chart_document(c)) == chart_json(c)``.  Its shared pieces are
    ``orjson.Fragment`` bytes, written as they are, never to be read or changed."""
    return _chart_fast(chart)


def chart_json(chart: NatalChart, option: int = 0) -> bytes:
    """``chart_to_dict(chart)`` serialised by orjson (``option``: orjson's options), without
    building the shared pieces again: they go in as pre-encoded fragments."""
    if option & orjson.OPT_INDENT_2:
        # Fragments are copied as they are, so an indented document takes the plain dicts.
        return orjson.dumps(_chart(chart), option=option)
    return orjson.dumps(_chart_fast(chart), option=option)


# --------------------------------------------------------------------------- horoscope


def _flowing(placed: PlacedFlowingStar) -> dict[str, Any]:
    return {
        **named(placed.star.key, placed.star.names),
        "kind": placed.star.kind.value,
        "branch": placed.branch.key,
    }


def _layer(layer: Layer) -> dict[str, Any]:
    lu, quan, ke, ji = (s.key for s in layer.mutagens)
    return {
        "scope": layer.scope.value,
        "name": {
            "hans": layer.names.hans,
            "hant": layer.names.hant,
            "pinyin": layer.names.pinyin,
            "english": layer.names.english,
        },
        "branch": layer.branch.key,
        "pillar": str(layer.pillar),
        "palace_names": [layer.palace_name(b).key for b in Branch],
        "mutagens": {"lu": lu, "quan": quan, "ke": ke, "ji": ji},
        "stars": [_flowing(s) for s in layer.stars],
    }


def _limit_pattern(hit: LimitPatternHit) -> dict[str, Any]:
    return {
        **_pattern_head(hit.pattern),
        "variant": hit.variant,
        "scopes": [s.value for s in hit.scopes],
        "palaces": [b.key for b in hit.palaces],
        "stars": list(hit.stars),
    }


def horoscope_to_dict(horoscope: Horoscope) -> dict[str, Any]:
    """A horoscope in the ``mingshu.ziwei.horoscope/1`` schema (docs/ziwei-json.md)."""
    gods = horoscope.yearly_gods
    return {
        "schema": HOROSCOPE_SCHEMA,
        "date": horoscope.date.isoformat(),
        "time_index": horoscope.time_index,
        "lunar_date": lunar_to_dict(horoscope.lunar_date),
        "nominal_age": horoscope.nominal_age,
        "is_childhood": horoscope.is_childhood,
        "layers": [_layer(layer) for layer in horoscope.layers],
        "yearly_gods": {
            # YearlyGods lists the palaces 寅 first; rotate to branch order.
            "sui_qian": [named(g.key, g.names) for g in (*gods.sui_qian[10:], *gods.sui_qian[:10])],
            "jiang_qian": [
                named(g.key, g.names) for g in (*gods.jiang_qian[10:], *gods.jiang_qian[:10])
            ],
        },
        "patterns": [_limit_pattern(hit) for hit in horoscope.patterns()],
    }
