"""The chart inputs of the web site, read from a query string: one parser for the chart page
and the JSON API, so a chart URL means the same thing in both.

Every value arrives as a string (or is missing).  :func:`parse` checks each field on its own
and collects one message per bad field (a form shows each next to its input; the API answers
422 naming them), then draws the charts with the engines, whose own :class:`InputError`
names the field it is about.  The parsed :class:`ChartQuery` turns back into a canonical
query string (:meth:`ChartQuery.query_string`): the chart's stable URL.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from operator import attrgetter
from typing import Any, Final
from urllib.parse import parse_qs, quote_plus, urlencode

from mingshu.calendar import check_solar_date, lunar_to_solar
from mingshu.errors import InputError
from mingshu.gender import Gender
from mingshu.inputs import parse_clock, parse_date_parts
from mingshu.named import clip, clip_text
from mingshu.options import BAZI, ZIWEI, Choice, Flag
from mingshu.present.names import NAME_STYLES
from mingshu.web.lang import LANGS

__all__ = [
    "BAZI_CHOICES",
    "BAZI_SETTINGS",
    "BIRTH_FIELDS",
    "CHOICES",
    "FLAG_CHOICES",
    "FLAG_SETTINGS",
    "PAGE_FIELDS",
    "SCHOOL_DEFAULTS",
    "ZIWEI_SETTINGS",
    "ChartQuery",
    "FieldErrors",
    "default_of",
    "parse",
    "parse_query",
]

MAX_VALUE: Final = 100
"""No query value is longer than this (a date, a zone name, a setting word)."""

# The settings as form fields, from the one table of options (mingshu.options) that the
# command line is built from too: the same names, words (iztro's included) and defaults.
ZIWEI_SETTINGS: Final[dict[str, Choice]] = {s.name: s for s in ZIWEI if isinstance(s, Choice)}
# BaZi settings, prefixed bz_ where the Zi Wei name is taken.
BAZI_SETTINGS: Final[dict[str, Choice]] = {
    ("bz_" + s.name if s.name in ZIWEI_SETTINGS else s.name): s
    for s in BAZI
    if isinstance(s, Choice)
}
# The yes/no settings of either engine (true_solar_time is the birth's true_solar).
FLAG_SETTINGS: Final[dict[str, Flag]] = {
    s.name: s for s in (*ZIWEI, *BAZI) if isinstance(s, Flag) and s.name != "true_solar_time"
}
# name -> (allowed words, default), for the form's menus and the API's documentation.
CHOICES: Final = {name: (s.words, s.default) for name, s in ZIWEI_SETTINGS.items()}
BAZI_CHOICES: Final = {name: (s.words, s.default) for name, s in BAZI_SETTINGS.items()}
FLAG_CHOICES: Final = {name: (("1", "0"), "01"[s.default]) for name, s in FLAG_SETTINGS.items()}
# Settings whose default depends on the school, as ZiweiSettings has it: the 全书 school
# counts a whole leap month as the next month.  An empty value means the school's own.
SCHOOL_DEFAULTS: Final = {
    name: dict(s.school_defaults) for name, s in ZIWEI_SETTINGS.items() if s.school_defaults
}
BIRTH_FIELDS: Final = (
    "date", "time", "gender", "calendar", "leap", "unknown_hour", "tz", "city", "lon",
    "true_solar", "fold",
)  # fmt: skip
"""The birth's query parameters, shared by every chart page and endpoint."""
PAGE_FIELDS: Final = frozenset(
    {*BIRTH_FIELDS, *CHOICES, *BAZI_CHOICES, *FLAG_CHOICES, "star", "names", "lang", "at", "year",
     "place"}
)  # fmt: skip
"""Every parameter of the chart pages (``place`` is the form's typed city)."""
NAMES: Final = NAME_STYLES
"""The names switch: 简体, 繁體, pinyin, English (the engine's four name forms)."""
CALENDARS: Final = ("solar", "lunar")
_TRUE: Final = frozenset({"1", "true", "on", "yes"})
_FALSE: Final = frozenset({"", "0", "false", "off", "no"})
_STAR_VARIANT: Final = re.compile(r"^([a-z_]{2,30})[:=]([A-Za-z0-9_]{1,20})$")


class FieldErrors(Exception):
    """One message per bad field: ``errors[field] = message``."""

    def __init__(self, errors: dict[str, str]) -> None:
        super().__init__("; ".join(f"{k}: {v}" for k, v in errors.items()))
        self.errors = errors


@dataclass(frozen=True, slots=True)
class ChartQuery:
    """The checked inputs of one chart page or chart API call (strings, as in the URL)."""

    date: str
    gender: str
    time: str = ""
    unknown_hour: bool = False
    calendar: str = "solar"
    leap: bool = False
    tz: str = ""
    city: str = ""
    lon: str = ""
    true_solar: bool = False
    fold: int = 0
    settings: tuple[tuple[str, str], ...] = ()
    """Zi Wei and BaZi setting words that differ from the defaults (the school's), sorted."""
    stars: tuple[tuple[str, str], ...] = ()
    """BaZi symbolic-star table choices (star key, variant id), sorted."""
    names: str = "hans"
    lang: str = "en"
    """The interface language (mingshu.web.lang.LANGS)."""
    at: str = ""
    year: str = ""

    def setting(self, name: str) -> str:
        chosen = dict(self.settings)
        return chosen.get(name) or default_of(name, chosen.get("school", "iztro"))

    def query_string(self, **changes: Any) -> str:
        """The canonical query string (defaults left out), with ``changes`` applied (each
        field read from them or the query: a page's dozen links, each a changed copy of
        the query, cost more than their encoding)."""
        if not changes.keys() <= _QUERY_FIELDS:
            raise TypeError(f"ChartQuery has no field {sorted(changes.keys() - _QUERY_FIELDS)}")
        birth = _BIRTH_OF(self)  # the fields read at once
        if not changes.keys().isdisjoint(_BIRTH_ARGUMENTS):
            birth = tuple(changes.get(f, v) for f, v in zip(_BIRTH_ARGUMENTS, birth, strict=True))
        tail = [changes.get(f, v) for f, v in zip(_TAIL, _TAIL_OF(self), strict=True)]
        return _birth_query(*birth) + _tail_query(*tail)

    def query_strings(self) -> Callable[..., str]:
        """:meth:`query_string` with only the names, language, moment or year changed, as
        a function of those (keywords): the birth part encoded once for the dozen links of
        a page (each query_string reads the query's seventeen fields again)."""
        birth = _birth_query(*_BIRTH_OF(self))
        own = _TAIL_OF(self)

        def query(
            names: str = own[0], lang: str = own[1], at: str = own[2], year: str = own[3]
        ) -> str:
            return birth + _tail_query(names, lang, at, year)

        return query


_QUERY_FIELDS: Final = frozenset(ChartQuery.__dataclass_fields__)
_BIRTH_ARGUMENTS: Final = (
    "date", "calendar", "leap", "unknown_hour", "time", "gender", "city", "tz", "lon",
    "true_solar", "fold", "settings", "stars",
)  # fmt: skip
"""The fields :func:`_birth_query` takes, in its order."""
_BIRTH_OF: Final = attrgetter(*_BIRTH_ARGUMENTS)
_TAIL: Final = ("names", "lang", "at", "year")
"""The fields that end a query string (:func:`_tail_query`)."""
_TAIL_OF: Final = attrgetter(*_TAIL)


@lru_cache(maxsize=256)
def _tail_query(names: str, lang: str, at: str, year: str) -> str:
    """The end of :meth:`ChartQuery.query_string`: the names, language, moment and year,
    each left out when it is the default (a page's links share a few)."""
    tail = ""
    for key, value, default in (("names", names, "hans"), ("lang", lang, "en"), ("at", at, ""),
                                ("year", year, "")):  # fmt: skip
        if value != default:
            tail += f"&{key}={quote_plus(value)}"
    return tail


@lru_cache(maxsize=64)
def _birth_query(
    date: str, calendar: str, leap: bool, unknown_hour: bool, time: str, gender: str,
    city: str, tz: str, lon: str, true_solar: bool, fold: int,
    settings: tuple[tuple[str, str], ...], stars: tuple[tuple[str, str], ...],
) -> str:  # fmt: skip
    """The birth and settings part of :meth:`ChartQuery.query_string`, encoded once for
    the dozen links of a page that differ only in the names, language or moment."""
    pairs: list[tuple[str, str]] = [("date", date)]
    if calendar != "solar":
        pairs.append(("calendar", calendar))
    if leap:
        pairs.append(("leap", "1"))
    if unknown_hour:
        pairs.append(("unknown_hour", "1"))
    elif time:
        pairs.append(("time", time))
    pairs.append(("gender", gender))
    for name, value in (("city", city), ("tz", tz), ("lon", lon)):
        if value:
            pairs.append((name, value))
    if true_solar:
        pairs.append(("true_solar", "1"))
    if fold:
        pairs.append(("fold", str(fold)))
    pairs.extend(settings)
    pairs.extend(("star", f"{k}:{v}") for k, v in stars)
    return urlencode(pairs)


def default_of(name: str, school: str) -> str:
    """The value a setting takes when the query leaves it out, under ``school``."""
    if name in SCHOOL_DEFAULTS:
        return SCHOOL_DEFAULTS[name][school]
    return (CHOICES.get(name) or BAZI_CHOICES.get(name) or FLAG_CHOICES[name])[1]


def _one(params: Mapping[str, Any], name: str) -> str:
    """The single value of ``name`` ('' when missing), stripped; too long is an error."""
    value = params.get(name)
    if value is None:
        return ""
    if isinstance(value, list | tuple):
        if len(value) > 1:  # which one was meant is no choice to make silently
            raise InputError(name, f"given {len(value)} times: give it once")
        value = value[0] if value else ""
    text = str(value)
    if len(text) > MAX_VALUE:  # as sent: the API's document states the length of the value
        raise InputError(name, f"is too long ({len(text)} characters; at most {MAX_VALUE})")
    text = text.strip()
    if "\x00" in text:
        raise InputError(name, "contains a NUL character")
    return text


def _flag(params: Mapping[str, Any], name: str) -> bool:
    text = _one(params, name).lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise InputError(name, f"{clip(text)} is not yes or no (use 1 or 0)")


def _setting(params: Mapping[str, Any], name: str, setting: Choice, default: str) -> str:
    """A setting's word: ours or another library's for it (iztro's ``exact``), any case, as
    the settings types and the command line take it; refused in their words."""
    text = _one(params, name)
    if not text:
        return default
    word = setting.word(text)
    if word is None:
        words = [*setting.words, *dict(setting.aliases)]
        raise InputError(name, f"{clip(text)} is not one of {', '.join(map(repr, words))}")
    return word


def _gender(params: Mapping[str, Any], name: str) -> str:
    """female or male, in any of the words the engines take (男 / 女, m / f …)."""
    text = _one(params, name)
    return Gender.parse(text, name).value if text else ""


def _choice(params: Mapping[str, Any], name: str, allowed: Sequence[str], default: str) -> str:
    text = _one(params, name)
    if not text:
        return default
    if text not in allowed:
        raise InputError(name, f"{clip(text)} is not one of {', '.join(allowed)}")
    return text


def _date(params: Mapping[str, Any], name: str) -> str:
    """A date as the engines read it (``1987-5-16``, ``1987/05/16``, ``1987.5.16``), written
    YYYY-MM-DD so that one chart has one URL."""
    text = _one(params, name)
    if not text:
        return ""
    year, month, day = parse_date_parts(text, name)
    return f"{year:04d}-{month:02d}-{day:02d}"


def _time(params: Mapping[str, Any], name: str) -> str:
    """A clock time as the engines read it, written HH:MM (HH:MM:SS with seconds)."""
    text = _one(params, name)
    if not text:
        return ""
    clock = parse_clock(text, name)
    seconds = f":{clock.second:02d}" if clock.second else ""
    return f"{clock.hour:02d}:{clock.minute:02d}{seconds}"


def _many(params: Mapping[str, Any], name: str) -> list[str]:
    value = params.get(name)
    if value is None:
        return []
    values = [str(v) for v in (value if isinstance(value, list | tuple) else [value])]
    for v in values:
        if len(v) > MAX_VALUE:
            raise InputError(name, f"is too long ({len(v)} characters; at most {MAX_VALUE})")
    return [v.strip() for v in values if v.strip()]


_ABSENT: Final[dict[Any, Any]] = {
    _one: "", _flag: False, _gender: "", _date: "", _time: "", _many: ()
}  # fmt: skip
"""What a reader of :func:`parse` gives for a parameter not sent (``_choice`` and
``_setting`` give their default, their last argument)."""


def parse(
    params: Mapping[str, Any], *, need_birth: bool = True, known: Collection[str] = PAGE_FIELDS
) -> ChartQuery:
    """Check the chart inputs in ``params`` (a mapping of name to a string or a list of
    strings, as a query string gives); :class:`FieldErrors` lists every bad field, and
    every parameter not in ``known`` (a misspelt or foreign one would silently give another
    chart than the one asked for)."""
    errors: dict[str, str] = {}
    for name in params:
        if name not in known:
            errors[clip_text(name, 40)] = (
                f"unknown parameter (known here: {', '.join(sorted(known))})"
            )

    def take(name: str, read: Any, *args: Any) -> Any:
        if name not in params:  # what each reader gives for an empty value, unread
            return args[-1] if args else _ABSENT[read]
        try:
            return read(params, name, *args)
        except InputError as e:
            errors.setdefault(e.field, e.message)
            return None

    date = take("date", _date) or ""
    if need_birth and not date and "date" not in errors:
        errors["date"] = "missing: give the birth date as YYYY-MM-DD"
    gender = take("gender", _gender)
    if need_birth and not gender and "gender" not in errors:
        errors["gender"] = "missing: choose female or male"
    unknown = bool(take("unknown_hour", _flag))
    time = "" if unknown else take("time", _time) or ""
    if need_birth and not time and not unknown and "time" not in errors:
        errors["time"] = "missing: give the clock time HH:MM, or tick “unknown hour”"
    calendar = take("calendar", _choice, CALENDARS, "solar") or "solar"
    leap = bool(take("leap", _flag))
    if leap and calendar != "lunar":
        errors.setdefault("leap", "the leap-month flag needs a lunar date")
    if date and not errors.keys() & {"date", "calendar", "leap"}:
        # Whether the day exists is the date's own field: said with the others, not only
        # once the time and the gender are right (1987-02-30 passed the first round).
        year_, month_, day_ = map(int, date.split("-"))
        try:
            if calendar == "lunar":
                lunar_to_solar(year_, month_, day_, leap)
            else:
                check_solar_date(year_, month_, day_)
        except InputError as e:
            errors.setdefault(e.field, e.message)
    tz = take("tz", _one) or ""
    city = take("city", _one) or ""
    if city and not city.isdigit():
        errors.setdefault("city", f"{clip(city)} is not a city id (pick one from the search)")
    lon = take("lon", _one) or ""
    true_solar = bool(take("true_solar", _flag))
    fold_text = take("fold", _choice, ("0", "1"), "0") or "0"
    settings: list[tuple[str, str]] = []
    school_setting = ZIWEI_SETTINGS["school"]
    school = take("school", _setting, school_setting, "") or school_setting.default
    # A setting left out takes its default: only those given are read and checked (a
    # query names few of the thirty).
    for table in (ZIWEI_SETTINGS, BAZI_SETTINGS):
        for name, setting in table.items():
            if name not in params:
                continue
            default = default_of(name, school)
            value = take(name, _setting, setting, default)
            if value is not None and value != default:
                settings.append((name, value))
    for name, (_, default) in FLAG_CHOICES.items():
        if name not in params:
            continue
        flag = take(name, _flag) if take(name, _one) else None  # empty: the default
        value = default if flag is None else "01"[flag]
        if value != default:
            settings.append((name, value))
    if dict(settings).get("equation_of_time") == "0" and not true_solar:
        errors.setdefault("equation_of_time", "goes with true solar time (true_solar=1)")
    stars: dict[str, str] = {}
    for item in (take("star", _many) or [])[:40]:
        m = _STAR_VARIANT.match(item)
        if not m:
            errors.setdefault("star", f"{clip(item)} is not STAR:VARIANT (e.g. wen_chang:w2)")
        else:
            stars[m.group(1)] = m.group(2)
    names = take("names", _choice, NAMES, "hans") or "hans"
    lang = take("lang", _choice, LANGS, "en") or "en"
    at = take("at", _one) or ""
    if at:
        try:
            dt.datetime.fromisoformat(at)
        except ValueError:
            errors.setdefault("at", f"{clip(at)} is not a date YYYY-MM-DD or YYYY-MM-DDTHH:MM")
    year = take("year", _one) or ""
    if year and not (year.isdigit() and len(year) == 4):
        errors.setdefault("year", f"{clip(year)} is not a year (four digits)")
    if errors:
        raise FieldErrors(errors)
    return ChartQuery(
        date=date,
        gender=gender or "",
        time="" if unknown else time,
        unknown_hour=unknown,
        calendar=calendar,
        leap=leap,
        tz=tz,
        city=city,
        lon=lon,
        true_solar=true_solar,
        fold=int(fold_text),
        settings=tuple(sorted(settings)),
        stars=tuple(sorted(stars.items())),
        names=names,
        lang=lang,
        at=at,
        year=year,
    )


# The query every chart link of the site writes (ChartQuery.query_string of a birth with
# default settings) and most API clients send: a date, a clock time and a gender, in that
# order, each already in its canonical spelling.  Such a query means exactly its three
# values, so it needs none of parse's checks beyond the pattern itself (hours 00-23 and
# minutes 00-59: anything else is left to parse and its messages) and that the day exists.
_PLAIN = re.compile(
    r"date=(\d{4}-\d{2}-\d{2})&time=((?:[01]\d|2[0-3])(?::|%3A)[0-5]\d)&gender=(female|male)",
    re.ASCII,  # int() reads other digits too, and parse writes them back in ASCII
)
_PLAIN_FIELDS: Final = frozenset({"date", "time", "gender"})


def parse_query(raw: str, *, known: Collection[str] = PAGE_FIELDS) -> ChartQuery:
    """:func:`parse` of a raw query string (as ``parse_qs(raw, keep_blank_values=True)``
    reads it), the same value or the same errors; a plain birth (date, time and gender
    alone, in canonical form) is read without taking the string apart."""
    plain = _PLAIN.fullmatch(raw)
    if plain is not None and _PLAIN_FIELDS.issubset(known):
        date, time, gender = plain.groups()
        try:  # the one check parse makes of such a query: that the day exists
            check_solar_date(int(date[:4]), int(date[5:7]), int(date[8:]))
        except InputError:
            pass  # parse says why, with the other fields
        else:
            return ChartQuery(date=date, gender=gender, time=time.replace("%3A", ":"))
    return parse(parse_qs(raw, keep_blank_values=True), known=known)
