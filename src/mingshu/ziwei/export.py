"""Charts and horoscopes as plain JSON-ready dicts: mingshu's own documented schema.

``chart_to_dict(chart)`` and ``horoscope_to_dict(horoscope)`` return dicts of str, int,
bool, None, lists and dicts only, so ``json.dumps`` takes them as they are.  The schema is
described field by field in ``docs/ziwei-json.md``; each object names its version in
``"schema"`` (``mingshu.ziwei.chart/1``, ``mingshu.ziwei.horoscope/1``).  A new field may
be added within a version; renaming or removing one bumps it.

Conventions: things are named by their canonical key (``"zi_wei"``, ``"life"``, ``"wu"``),
and where a reader wants to show them, a *named* object carries the key with the four
display names ``hans``, ``hant``, ``pinyin`` and ``english``.  Stems and branches are
plain keys (``"geng"``, ``"wu"``); pillars are two-character strings (``"庚午"``).  Lists of
twelve palaces or names are in branch order 子 丑 寅 … 亥 (index = branch number).
"""

from __future__ import annotations

from typing import Any

from mingshu.calendar import LunarDate
from mingshu.cycles import Branch, Names
from mingshu.ziwei.chart import NatalChart, Palace, PlacedStar
from mingshu.ziwei.horoscope import Horoscope, Layer, PlacedFlowingStar
from mingshu.ziwei.settings import ZiweiSettings
from mingshu.ziwei.stars import Brightness, Mutagen, Star
from mingshu.ziwei.tables import God

__all__ = [
    "CHART_SCHEMA",
    "HOROSCOPE_SCHEMA",
    "chart_to_dict",
    "horoscope_to_dict",
    "settings_to_dict",
]

CHART_SCHEMA = "mingshu.ziwei.chart/1"
HOROSCOPE_SCHEMA = "mingshu.ziwei.horoscope/1"

_GOD_CYCLES = ("chang_sheng", "bo_shi", "jiang_qian", "sui_qian")


def _named(key: str, names: Names) -> dict[str, Any]:
    return {
        "key": key,
        "hans": names.hans,
        "hant": names.hant,
        "pinyin": names.pinyin,
        "english": names.english,
    }


def _star(star: Star) -> dict[str, Any]:
    return _named(star.key, star.names)


def _god(god: God) -> dict[str, Any]:
    return _named(god.key, god.names)


def _key(value: Brightness | Mutagen | None) -> str | None:
    return None if value is None else value.key


def _placed(placed: PlacedStar) -> dict[str, Any]:
    return {
        **_star(placed.star),
        "kind": placed.star.kind.value,
        "brightness": _key(placed.brightness),
        "mutagen": _key(placed.mutagen),
    }


def _lunar(date: LunarDate) -> dict[str, Any]:
    return {
        "year": date.year,
        "month": date.month,
        "day": date.day,
        "is_leap": date.is_leap,
        "chinese": date.chinese(),
    }


def settings_to_dict(settings: ZiweiSettings) -> dict[str, Any]:
    """Every settings field by its value; ``ZiweiSettings(**settings_to_dict(s)) == s``.

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
    }


def _palace(palace: Palace) -> dict[str, Any]:
    return {
        "branch": palace.branch.key,
        "stem": palace.stem.key,
        "pillar": str(palace.pillar),
        "name": _named(palace.name.key, palace.name.names),
        "is_body": palace.is_body,
        "is_original": palace.is_original,
        "major_stars": [_placed(s) for s in palace.major_stars],
        "minor_stars": [_placed(s) for s in palace.minor_stars],
        "adjective_stars": [_placed(s) for s in palace.adjective_stars],
        "gods": {cycle: _god(getattr(palace, cycle)) for cycle in _GOD_CYCLES},
        "decadal": {
            "start": palace.decadal.start,
            "end": palace.decadal.end,
            "pillar": str(palace.decadal.pillar),
        },
        "ages": list(palace.ages),
    }


def chart_to_dict(chart: NatalChart) -> dict[str, Any]:
    """A natal chart in the ``mingshu.ziwei.chart/1`` schema (docs/ziwei-json.md)."""
    birth = chart.birth
    clock = birth.clock_time
    by_branch = sorted(chart.palaces, key=lambda p: p.branch)
    return {
        "schema": CHART_SCHEMA,
        "birth": {
            "solar_date": birth.solar_date.isoformat(),
            "clock_time": None
            if clock is None
            else clock.isoformat("seconds" if clock.second else "minutes"),
            "time_index": birth.time_index,
            "gender": birth.gender.value,
            "lunar_input": None if birth.lunar_input is None else _lunar(birth.lunar_input),
        },
        "settings": settings_to_dict(chart.settings),
        "lunar_date": _lunar(chart.lunar_date),
        "hour": {
            "index": chart.hour.index,
            "hans": chart.hour.names.hans,
            "hant": chart.hour.names.hant,
            "pinyin": chart.hour.names.pinyin,
            "english": chart.hour.names.english,
            "range": chart.hour.range,
        },
        "pillars": {
            "year": str(chart.pillars.year),
            "month": str(chart.pillars.month),
            "day": str(chart.pillars.day),
            "hour": str(chart.pillars.hour),
        },
        "god_year": str(chart.god_year),
        "five_elements_class": {
            **_named(chart.five_elements_class.key, chart.five_elements_class.names),
            "number": int(chart.five_elements_class),
        },
        "life_master": _star(chart.life_master),
        "body_master": _star(chart.body_master),
        "life_branch": chart.life_branch.key,
        "body_branch": chart.body_branch.key,
        "zodiac": _named(chart.zodiac.english.lower(), chart.zodiac),
        "sign": _named(chart.sign.english.lower(), chart.sign),
        "palaces": [_palace(p) for p in by_branch],
    }


def _flowing(placed: PlacedFlowingStar) -> dict[str, Any]:
    return {
        **_named(placed.star.key, placed.star.names),
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


def horoscope_to_dict(horoscope: Horoscope) -> dict[str, Any]:
    """A horoscope in the ``mingshu.ziwei.horoscope/1`` schema (docs/ziwei-json.md)."""
    gods = horoscope.yearly_gods
    return {
        "schema": HOROSCOPE_SCHEMA,
        "date": horoscope.date.isoformat(),
        "time_index": horoscope.time_index,
        "lunar_date": _lunar(horoscope.lunar_date),
        "nominal_age": horoscope.nominal_age,
        "is_childhood": horoscope.is_childhood,
        "layers": [_layer(layer) for layer in horoscope.layers],
        "yearly_gods": {
            # YearlyGods lists the palaces 寅 first; rotate to branch order.
            "sui_qian": [_god(gods.sui_qian[(b - 2) % 12]) for b in Branch],
            "jiang_qian": [_god(gods.jiang_qian[(b - 2) % 12]) for b in Branch],
        },
    }
