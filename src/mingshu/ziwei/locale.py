"""Names in iztro's six languages: zh-CN, zh-TW, en-US, ja-JP, ko-KR, vi-VN (and pinyin).

``name(thing, lang)`` names a star, flowing star, palace name, brightness grade, 四化,
stem, branch, five-elements class, god, hour, zodiac animal or sign.  The Japanese, Korean
and Vietnamese names are iztro 2.6.0's (``data/locales.toml``, copied from its locale
tables by ``tools/build_locales.mjs``); zh-CN, zh-TW and en-US are our own names (our 简 and
繁 forms, and our English, which says what a star is where iztro's English gives a
personality: 紫微 is "Purple Star"… not "emperor"); iztro's own for every language are
``iztro_name(thing, lang)``.  ``"pinyin"`` is our fifth form.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any, Final

from mingshu.cycles import Branch, Names, Stem
from mingshu.errors import InputError
from mingshu.named import NamedEnum, clip
from mingshu.ziwei.horoscope import FlowingStar
from mingshu.ziwei.stars import Brightness, Mutagen, Star, load_data
from mingshu.ziwei.tables import FiveElementsClass, God, HourName, PalaceName

__all__ = ["LANGUAGES", "iztro_name", "language", "name"]

LANGUAGES: Final = ("zh-CN", "zh-TW", "en-US", "ja-JP", "ko-KR", "vi-VN", "pinyin")
"""The languages of ``name``: iztro's six and pinyin."""

_ALIASES: Final = {
    "zh-cn": "zh-CN",
    "zh-hans": "zh-CN",
    "zh": "zh-CN",
    "hans": "zh-CN",
    "zh-tw": "zh-TW",
    "zh-hant": "zh-TW",
    "hant": "zh-TW",
    "en-us": "en-US",
    "en": "en-US",
    "english": "en-US",
    "ja-jp": "ja-JP",
    "ja": "ja-JP",
    "ko-kr": "ko-KR",
    "ko": "ko-KR",
    "vi-vn": "vi-VN",
    "vi": "vi-VN",
    "pinyin": "pinyin",
}
_OURS: Final = {"zh-CN": "hans", "zh-TW": "hant", "en-US": "english", "pinyin": "pinyin"}


def language(value: object) -> str:
    """A language tag: ``"ja-JP"`` (also ``"ja"``, ``"JA-jp"``, ``"hans"`` …)."""
    found = _ALIASES.get(value.strip().lower()) if isinstance(value, str) else None
    if found is None:
        raise InputError("lang", f"{clip(value)} is not one of {', '.join(LANGUAGES)}")
    return found


@cache
def _tables() -> Mapping[str, Mapping[str, Mapping[str, str]]]:
    data: dict[str, Any] = load_data("locales.toml")
    data.pop("source")
    return data


@cache
def _by_chinese(category: str) -> Mapping[str, str]:
    """iztro key of each zh-CN name of a category (a name two keys share is left out)."""
    seen: dict[str, set[str]] = {}
    for key, names in _tables()[category].items():
        seen.setdefault(names["zh-CN"], set()).add(key)
    return {text: next(iter(keys)) for text, keys in seen.items() if len(keys) == 1}


_ENUM_CATEGORY: Final[dict[type, str]] = {
    PalaceName: "palace",
    Brightness: "brightness",
    Mutagen: "mutagen",
    Stem: "heavenlyStem",
    Branch: "earthlyBranch",
    FiveElementsClass: "fiveElementsClass",
}


def _iztro_entry(thing: object) -> Mapping[str, str] | None:
    """iztro's names of ``thing`` in every language, or ``None`` if iztro has none."""
    tables = _tables()
    if isinstance(thing, Star | FlowingStar):
        return tables["star"].get(thing.iztro_key)
    if isinstance(thing, NamedEnum) and type(thing) in _ENUM_CATEGORY:
        category = _ENUM_CATEGORY[type(thing)]
        text = thing.names.hans
        if isinstance(thing, PalaceName) and thing is not PalaceName.LIFE:
            text = text.removesuffix("宫")
        key = _by_chinese(category).get(text)
        return None if key is None else tables[category][key]
    chinese = None
    if isinstance(thing, God | HourName):
        chinese, category = thing.names.hans, "star" if isinstance(thing, God) else "common"
    elif isinstance(thing, Names):  # zodiac animal or sign, as charts hold them
        chinese, category = thing.hans, "common"
    if chinese is None:
        return None
    key = _by_chinese(category).get(chinese)
    return None if key is None else tables[category][key]


def _names(thing: object) -> Names:
    if isinstance(thing, Names):
        return thing
    names = getattr(thing, "names", None)
    if not isinstance(names, Names):
        raise InputError("name", f"{clip(thing)} has no names")
    return names


def iztro_name(thing: object, lang: object) -> str | None:
    """iztro 2.6.0's name of ``thing`` in ``lang`` (one of its six), or ``None`` where
    iztro has none (a star iztro does not know, a god whose name two cycles share)."""
    code = language(lang)
    if code == "pinyin":
        raise InputError("lang", "iztro has no pinyin names")
    _names(thing)  # a thing without names is refused, as name() refuses it, never None
    entry = _iztro_entry(thing)
    return None if entry is None else entry.get(code)


def name(thing: object, lang: object) -> str:
    """The name of ``thing`` in ``lang``: our own 简/繁/English/pinyin for zh-CN, zh-TW,
    en-US and pinyin, iztro's for ja-JP, ko-KR and vi-VN (our 繁 form where iztro has
    none)."""
    code = language(lang)
    names = _names(thing)
    if code in _OURS:
        return str(getattr(names, _OURS[code]))
    found = _iztro_entry(thing)
    text = None if found is None else found.get(code)
    return text if text else names.hant
