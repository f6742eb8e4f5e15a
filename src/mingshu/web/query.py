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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final
from urllib.parse import urlencode

from mingshu.errors import InputError
from mingshu.named import clip

__all__ = [
    "BAZI_CHOICES",
    "CHOICES",
    "SCHOOL_DEFAULTS",
    "ChartQuery",
    "FieldErrors",
    "default_of",
    "parse",
]

MAX_VALUE: Final = 100
"""No query value is longer than this (a date, a zone name, a setting word)."""

# Zi Wei settings as form fields: name -> (allowed words, default).
CHOICES: Final[dict[str, tuple[tuple[str, ...], str]]] = {
    "year_boundary": (("lunar_new_year", "spring_begins"), "lunar_new_year"),
    "horoscope_boundary": (("lunar_new_year", "spring_begins"), "lunar_new_year"),
    "late_rat_hour": (("next_day", "same_day"), "next_day"),
    "leap_month": (("split", "whole", "next"), "split"),
    "age_count": (("lunar_year", "birthday"), "lunar_year"),
    "algorithm": (("quanshu", "zhongzhou"), "quanshu"),
    "school": (("iztro", "quanshu"), "iztro"),
    "chart_type": (("heaven", "earth", "human"), "heaven"),
}
# Settings whose default depends on the school, as ZiweiSettings has it: the 全书 school
# counts a whole leap month as the next month.  An empty value means the school's own.
SCHOOL_DEFAULTS: Final[dict[str, dict[str, str]]] = {
    "leap_month": {"iztro": "split", "quanshu": "next"},
}
# BaZi settings as form fields (prefixed bz_ where the Zi Wei name is taken).
BAZI_CHOICES: Final[dict[str, tuple[tuple[str, ...], str]]] = {
    "bz_late_rat_hour": (("next_day", "split", "same_day"), "next_day"),
    "start_age": (("seconds", "minutes", "days_shichen", "china95"), "seconds"),
}
NAMES: Final = ("hans", "hant")
CALENDARS: Final = ("solar", "lunar")
GENDERS: Final = ("female", "male")
_TRUE: Final = frozenset({"1", "true", "on", "yes"})
_FALSE: Final = frozenset({"", "0", "false", "off", "no"})
_DATE: Final = re.compile(r"^\d{4}-\d{1,2}-\d{1,2}$")
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
    at: str = ""
    year: str = ""

    def setting(self, name: str) -> str:
        chosen = dict(self.settings)
        return chosen.get(name) or default_of(name, chosen.get("school", "iztro"))

    def query_string(self, **changes: Any) -> str:
        """The canonical query string (defaults left out), with ``changes`` applied."""
        q = replace(self, **changes) if changes else self
        pairs: list[tuple[str, str]] = [("date", q.date)]
        if q.calendar != "solar":
            pairs.append(("calendar", q.calendar))
        if q.leap:
            pairs.append(("leap", "1"))
        if q.unknown_hour:
            pairs.append(("unknown_hour", "1"))
        elif q.time:
            pairs.append(("time", q.time))
        pairs.append(("gender", q.gender))
        for name in ("city", "tz", "lon"):
            if getattr(q, name):
                pairs.append((name, getattr(q, name)))
        if q.true_solar:
            pairs.append(("true_solar", "1"))
        if q.fold:
            pairs.append(("fold", str(q.fold)))
        pairs.extend(q.settings)
        pairs.extend(("star", f"{k}:{v}") for k, v in q.stars)
        if q.names != "hans":
            pairs.append(("names", q.names))
        if q.at:
            pairs.append(("at", q.at))
        if q.year:
            pairs.append(("year", q.year))
        return urlencode(pairs)


def default_of(name: str, school: str) -> str:
    """The value a setting takes when the query leaves it out, under ``school``."""
    if name in SCHOOL_DEFAULTS:
        return SCHOOL_DEFAULTS[name][school]
    return (CHOICES.get(name) or BAZI_CHOICES[name])[1]


def _one(params: Mapping[str, Any], name: str) -> str:
    """The single value of ``name`` ('' when missing), stripped; too long is an error."""
    value = params.get(name)
    if value is None:
        return ""
    if isinstance(value, list | tuple):
        value = value[-1] if value else ""
    text = str(value).strip()
    if len(text) > MAX_VALUE:
        raise InputError(name, f"is too long ({len(text)} characters; at most {MAX_VALUE})")
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


def _choice(params: Mapping[str, Any], name: str, allowed: Sequence[str], default: str) -> str:
    text = _one(params, name)
    if not text:
        return default
    if text not in allowed:
        raise InputError(name, f"{clip(text)} is not one of {', '.join(allowed)}")
    return text


def _many(params: Mapping[str, Any], name: str) -> list[str]:
    value = params.get(name)
    if value is None:
        return []
    values = list(value) if isinstance(value, list | tuple) else [value]
    return [str(v).strip() for v in values if str(v).strip()]


def parse(params: Mapping[str, Any], *, need_birth: bool = True) -> ChartQuery:
    """Check the chart inputs in ``params`` (a mapping of name to a string or a list of
    strings, as a query string gives); :class:`FieldErrors` lists every bad field."""
    errors: dict[str, str] = {}

    def take(name: str, read: Any, *args: Any) -> Any:
        try:
            return read(params, name, *args)
        except InputError as e:
            errors.setdefault(e.field, e.message)
            return None

    date = take("date", _one) or ""
    if need_birth and not date:
        errors.setdefault("date", "missing: give the birth date as YYYY-MM-DD")
    elif date and not _DATE.match(date):
        errors.setdefault("date", f"{clip(date)} is not a date of the form YYYY-MM-DD")
    gender = take("gender", _choice, GENDERS, "")
    if need_birth and not gender and "gender" not in errors:
        errors["gender"] = "missing: choose female or male"
    time = take("time", _one) or ""
    unknown = bool(take("unknown_hour", _flag))
    if time and not unknown and not re.fullmatch(r"\d{1,2}:\d{2}(:\d{2})?", time):
        errors.setdefault("time", f"{clip(time)} is not a clock time HH:MM")
    if need_birth and not time and not unknown and "time" not in errors:
        errors["time"] = "missing: give the clock time HH:MM, or tick “unknown hour”"
    calendar = take("calendar", _choice, CALENDARS, "solar") or "solar"
    leap = bool(take("leap", _flag))
    if leap and calendar != "lunar":
        errors.setdefault("leap", "the leap-month flag needs a lunar date")
    tz = take("tz", _one) or ""
    city = take("city", _one) or ""
    if city and not city.isdigit():
        errors.setdefault("city", f"{clip(city)} is not a city id (pick one from the search)")
    lon = take("lon", _one) or ""
    true_solar = bool(take("true_solar", _flag))
    fold_text = take("fold", _choice, ("0", "1"), "0") or "0"
    settings: list[tuple[str, str]] = []
    school = take("school", _choice, *CHOICES["school"]) or CHOICES["school"][1]
    for table in (CHOICES, BAZI_CHOICES):
        for name, (allowed, _) in table.items():
            default = default_of(name, school)
            value = take(name, _choice, allowed, default)
            if value is not None and value != default:
                settings.append((name, value))
    stars: dict[str, str] = {}
    for item in _many(params, "star")[:40]:
        m = _STAR_VARIANT.match(item)
        if not m:
            errors.setdefault("star", f"{clip(item)} is not STAR:VARIANT (e.g. wen_chang:w2)")
        else:
            stars[m.group(1)] = m.group(2)
    names = take("names", _choice, NAMES, "hans") or "hans"
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
        at=at,
        year=year,
    )
