"""The JSON API: charts (Zi Wei, horoscope, BaZi), cities and articles.

Chart responses are deterministic functions of the URL: each carries an ``ETag`` (a hash of
the body) and a long ``Cache-Control``, and a request whose ``If-None-Match`` matches gets
``304``.  Bad input answers 422 in FastAPI's own error shape, with the field named in
``loc`` (``["query", "date"]``) and a plain message in ``msg``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Awaitable, Callable
from dataclasses import replace
from functools import lru_cache
from typing import Annotated, Any, Final

from fastapi import APIRouter, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from mingshu import __version__
from mingshu.calendar.solar import FIRST_DATE, LAST_DATE, RANGE_TEXT
from mingshu.named import clip_text
from mingshu.web import cities
from mingshu.web.assets import content_etag
from mingshu.web.charts import annual_of, bazi_of, horoscope_of, ziwei_of
from mingshu.web.identity import ByIdentity
from mingshu.web.query import (
    BAZI_SETTINGS,
    CALENDARS,
    MAX_VALUE,
    SCHOOL_DEFAULTS,
    ZIWEI_SETTINGS,
    ChartQuery,
    FieldErrors,
    parse,
    parse_query,
)
from mingshu.web.turns import TURNS
from mingshu.web.warmup import warmed

__all__ = [
    "CACHE_CONTROL",
    "JSON",
    "bazi_body",
    "cached",
    "cached_answer",
    "field_errors_response",
    "horoscope_body",
    "router",
    "ziwei_body",
]

CACHE_CONTROL: Final = "public, max-age=31536000, immutable"
"""A chart at a URL never changes within one release (the ETag carries the version)."""

JSON: Final = "application/json"
CACHE_SIZE: Final = 256
"""Responses each process keeps per kind (a chart is a pure function of its URL)."""

router = APIRouter(prefix="/api", tags=["api"])


def field_errors_response(errors: dict[str, str]) -> JSONResponse:
    """422 in FastAPI's validation-error shape, one entry per bad field."""
    detail = [
        {"loc": ["query", field], "msg": message, "type": "value_error"}
        for field, message in errors.items()
    ]
    return JSONResponse({"detail": detail}, status_code=422)


def etag_of(body: bytes) -> str:
    """The body's ETag, with the release in it.  A repeat is the same bytes object from the
    LRUs above, found by identity (an int), where an ``lru_cache`` keyed by the body would
    first hash a new body's 100 KB with SipHash just to learn it is new."""
    tag = _ETAGS.get(body)
    return _ETAGS.keep(body, content_etag(_RELEASE, body)) if tag is None else tag


_RELEASE: Final = __version__.encode()
_ETAGS: ByIdentity[bytes, str] = ByIdentity(2 * CACHE_SIZE)


def cached_answer(
    body: bytes, media_type: str, if_none_match: str
) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
    """Status, headers and body of ``body`` with an ETag and a long Cache-Control; 304 (no
    body) when the client's ``If-None-Match`` names it.  The headers as Starlette's
    ``Response`` writes them, for :func:`cached` and for the chart lane (web/lane.py)."""
    tag = etag_of(body)
    headers = [(b"etag", tag.encode()), (b"cache-control", _CACHE_CONTROL)]
    if tag in (t.strip() for t in if_none_match.split(",")):
        return 304, headers, b""
    headers += [(b"content-length", b"%d" % len(body)), (b"content-type", media_type.encode())]
    return 200, headers, body


_CACHE_CONTROL: Final = CACHE_CONTROL.encode()


def cached(request: Request, body: bytes, media_type: str) -> Response:
    """``body`` with an ETag and a long Cache-Control; 304 when the client has it."""
    status, headers, content = cached_answer(
        body, media_type, request.headers.get("if-none-match", "")
    )
    response = Response(content, status_code=status)
    response.raw_headers = headers
    return response


def _param(
    name: str,
    description: str,
    *examples: str,
    many: bool = False,
    schema: dict[str, Any] | None = None,
    required: bool = False,
) -> dict[str, Any]:
    """One query parameter as :func:`mingshu.web.query.parse` checks it: at most MAX_VALUE
    characters, and the words, syntax or range of ``schema`` (the syntax only: whether a
    date exists, or a lunar leap month, is the engines' to say, answered 422)."""
    schema = {"type": "string", "maxLength": MAX_VALUE, **(schema or {})}
    if many:
        schema = {"type": "array", "items": schema, "maxItems": 40}
    out: dict[str, Any] = {
        "name": name, "in": "query", "required": required, "description": description,
        "schema": schema,
    }  # fmt: skip
    if examples:
        out["examples"] = {e.replace(":", "_"): {"value": e} for e in examples}
    return out


def _school_default(name: str) -> str:
    if name == "school":
        return " (quanshu: the book 紫微斗数全书 where it and iztro part; needs algorithm=quanshu)"
    if name not in SCHOOL_DEFAULTS:
        return ""
    own = ", ".join(f"{v} for school={k}" for k, v in SCHOOL_DEFAULTS[name].items())
    return f"; left out: the school's own ({own})"


def _setting_enum(setting: Any) -> dict[str, Any]:
    return _enum((*setting.words, *(a for a, _ in setting.aliases)), any_case=True)


def _words(setting: Any) -> str:
    own = ", ".join(setting.words)
    other = ", ".join(f"{a} ({w})" for a, w in setting.aliases)
    return f"{own}; also iztro's {other}" if other else own


def _enum(words: Any, *, any_case: bool = False, blank: bool = True) -> dict[str, Any]:
    """The words a parameter takes, as an ``enum`` (``blank``: empty too, meaning its
    default) and, since the server reads every value without its surrounding whitespace
    (and ``any_case``: the words in any case, ``x-any-case``), as the pattern of exactly
    what it takes: ``" 1 "`` and ``"TRUE"`` are taken, so the document must not call
    them invalid."""
    spelled = "|".join(_spelled(w, any_case) for w in words if w)
    taken = rf"^\s*({spelled}){'?' if blank else ''}\s*$"
    listed = {"enum": [""] * blank + [*words]}
    return {"anyOf": [listed, {"pattern": taken}]} | ({"x-any-case": True} if any_case else {})


def _spelled(word: str, any_case: bool) -> str:
    """``word`` as a regular expression (ECMA 262 and Python alike), in any case."""
    out = []
    for c in word:
        if any_case and c.lower() != c.upper():
            out.append(f"[{c.upper()}{c.lower()}]")
        else:
            out.append("\\" + c if c in ".^$*+?()[]{}|\\" else c)
    return "".join(out)


GENDER_WORDS: Final = ("female", "male", "f", "m", "woman", "man", "女", "男")
"""The words Gender.parse takes (mingshu.gender; a test checks they agree)."""
_TRUE_WORDS: Final = ("1", "true", "on", "yes")
_FLAG: Final = _enum(("1", "0", "true", "false", "on", "off", "yes", "no"), any_case=True)
YEARS: Final = r"(158[3-9]|159[0-9]|1[6-9][0-9]{2}|2[0-5][0-9]{2}|26[0-4][0-9]|2650)"
"""The years of the calendar's range, 1583 .. 2650, as a regular expression."""
# The syntax as the server reads it, with the ranges a pattern can state: months 1-12, days
# 1-31, hours 0-23, minutes and seconds 0-59; a birth date's year from 1582 (a lunar date of
# 1582-12 is a solar 1583 one: the rule "real-date" below gives the exact span).  No
# `format: date`: the server also takes 1987/5/16 and 1987.5.16, and lunar dates such as
# 2023-02-30.
_MONTH_DAY: Final = r"(0?[1-9]|1[0-2])[-/.](0?[1-9]|[12][0-9]|3[01])"
_DATE: Final = {"pattern": rf"^\s*(1582|{YEARS})[-/.]{_MONTH_DAY}\s*$"}
_CLOCK: Final = {"pattern": r"^\s*([01]?[0-9]|2[0-3]):[0-5]?[0-9](:[0-5]?[0-9])?\s*$"}
_MOMENT: Final = {  # as datetime.fromisoformat reads it: two digits each
    "pattern": rf"^\s*{YEARS}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])"
    r"([T ]([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9])?)?\s*$"
}
_LONGITUDE: Final = {
    "pattern": r"^\s*([-+]?(([0-9]{1,2}|0[0-9]{2}|1[0-7][0-9])(\.[0-9]+)?|180(\.0+)?))?\s*$"
}


def _zones() -> list[str]:
    """Every IANA zone of a place: the zone list of tzdata (a dependency; it is where
    ZoneInfo finds a zone the system lacks), less what mingshu.birth.zone refuses (Factory).
    Read from the one file, not zoneinfo.available_timezones (0.15 s of start-up)."""
    from importlib.resources import files

    from mingshu.birth import is_place_zone

    names = files("tzdata").joinpath("zones").read_text(encoding="utf-8").split()
    return sorted(n for n in names if is_place_zone(n))


def _star_choices() -> list[str]:
    """STAR:VARIANT (or STAR=VARIANT) for every variant of every BaZi symbolic star."""
    from mingshu.bazi import STARS

    return [f"{s.key}{sep}{v}" for s in STARS for v in s.variant_ids for sep in ":="]


BIRTH_PARAMETERS: Final = [
    _param("date", "Birth date YYYY-MM-DD (also YYYY/MM/DD, YYYY.M.D; lunar with "
           f"calendar=lunar); solar {RANGE_TEXT}", "1987-05-16", schema=_DATE,
           required=True),
    _param("time", "Clock time HH:MM (or HH:MM:SS)", "10:30", "23:30", schema=_CLOCK,
           required=True),
    _param("gender", "female or male (also 女 / 男, f / m, woman / man; any case)", "female",
           "male", schema=_enum(GENDER_WORDS, any_case=True, blank=False), required=True),
    _param("calendar", "solar (default) or lunar", "solar", "lunar",
           schema=_enum(CALENDARS)),
    _param("leap", "1: the lunar date is in the leap month (needs calendar=lunar)", "0",
           schema=_FLAG),
    _param("tz", "IANA time zone of the clock time", "Asia/Shanghai", "Europe/Zurich",
           schema=_enum(_zones())),
    _param("city", "GeoNames id of the birth city (gives tz and longitude): /api/cities",
           "1816670", schema={"pattern": r"^\s*[0-9]*\s*$"}),
    _param("lon", "Birth longitude, degrees east, -180 .. 180", "116.4",
           schema=_LONGITUDE),
    _param("true_solar", "1: day and hour from true solar time (needs a place)", "0",
           schema=_FLAG),
    _param("fold", "0 or 1: which of two identical clock readings", "0",
           schema=_enum(("0", "1"))),
]  # fmt: skip
ZIWEI_PARAMETERS: Final = [
    *(
        _param(name, f"Zi Wei setting: {_words(s)}{_school_default(name)}", s.default,
               schema=_setting_enum(s))
        for name, s in ZIWEI_SETTINGS.items()
    ),
    _param("equation_of_time", "1 (default) or 0: with true_solar=1, apparent or mean solar "
           "time", "1", schema=_FLAG),
]  # fmt: skip
BAZI_PARAMETERS: Final = [
    *(
        _param(name, f"BaZi setting: {_words(s)}", s.default, schema=_setting_enum(s))
        for name, s in BAZI_SETTINGS.items()
    ),
    _param("star", "BaZi symbolic-star table, STAR:VARIANT (repeatable)", "wen_chang:w2",
           many=True, schema=_enum(_star_choices())),
    _param("equation_of_time", "1 (default) or 0: with true_solar=1, apparent or mean solar "
           "time", "1", schema=_FLAG),
    _param("include_basis_pillar", "1 or 0 (default): may a branch-based star sit in the "
           "pillar that gives its basis", "0", schema=_FLAG),
]  # fmt: skip
CHART_PARAMETERS: Final = [*BIRTH_PARAMETERS, *ZIWEI_PARAMETERS]
"""The Zi Wei chart endpoints' query parameters, documented from the one table of settings
(mingshu.options): the endpoints read the raw query string (FastAPI's per-parameter
validation cost more than drawing a chart) and check it with
:func:`mingshu.web.query.parse`, which names each bad field and each parameter not
documented here (answered 422, never ignored)."""
HOROSCOPE_PARAMETERS: Final = [
    *CHART_PARAMETERS,
    _param(
        "at",
        "The moment: YYYY-MM-DD or YYYY-MM-DDTHH:MM",
        "2026-11-29T10:00",
        schema=_MOMENT,
        required=True,
    ),
]
BAZI_CHART_PARAMETERS: Final = [
    *BIRTH_PARAMETERS,
    *BAZI_PARAMETERS,
    _param("year", "A Gregorian year for 流年", "2026", schema={"pattern": r"^\s*([0-9]{4})?\s*$"}),
]
# No clock time, so no fold either (fold tells two equal clock readings apart; the birth
# layer refuses it without a time).
HOURS_PARAMETERS: Final = [p for p in CHART_PARAMETERS if p["name"] not in ("time", "fold")]


# Rules between parameters, and facts a parameter's schema cannot state, in each chart
# operation's `x-mingshu-rules`: the server answers 422 naming the field when one is broken.
# Each rule: `if` (a condition; left out: always) then `then`.  A condition is
# {"param": name, "given": true} (there and not blank), {"param": name, "in": [words]}
# (any case where the parameter's schema says x-any-case), {"anyOf": [...]},
# {"allOf": [...]}, or {"fact": name, ...} for what needs a calendar (each named in its
# description).  tests/web/schemathesis_hooks.py generates requests within them.
RULES_HEAD: Final = (
    "Rules beyond each parameter's schema (`x-mingshu-rules`): a request that keeps them is "
    "accepted, one that breaks them refused 422 naming the field (where a rule says taken as "
    "safe, it states a part of what the server takes)."
)


def _given(name: str) -> dict[str, Any]:
    return {"param": name, "given": True}


def _is(name: str, *words: str) -> dict[str, Any]:
    return {"param": name, "in": list(words)}


def _place(*parts: str) -> dict[str, Any]:
    return {"anyOf": [_given(p) for p in (*parts, "city")]}


def _rule(
    description: str, then: dict[str, Any], when: dict[str, Any] | None = None
) -> dict[str, Any]:
    return {"description": description, **({"if": when} if when else {}), "then": then}


# A zone's offset (up to 14 hours from Beijing's, and local mean time before 1901) moves the
# Beijing moment up to a day from the date given, and true solar time at a far longitude
# moves the chart clock up to two: the range is the moment's, so near its ends only the days
# two inside are safe whatever the place.
_SAFE_FROM: Final = FIRST_DATE + dt.timedelta(days=2)
_SAFE_TO: Final = LAST_DATE - dt.timedelta(days=2)
_REAL_DATE: Final = _rule(
    f"date is a real day of its calendar (lunar: the month has that day; with leap=1 the "
    f"year's leap month is that month) and the birth moment, in Beijing time and on the "
    f"chart's clock, lies within {RANGE_TEXT} (taken as safe: a solar day from {_SAFE_FROM} "
    f"to {_SAFE_TO}, which no zone or longitude moves out of the range)",
    {"fact": "real-date", "date": "date", "calendar": "calendar", "leap": "leap",
     "solar_range": [_SAFE_FROM.isoformat(), _SAFE_TO.isoformat()]},
)  # fmt: skip
_EOT_RULE: Final = _rule(
    "equation_of_time=0 goes with true solar time (true_solar=1)",
    _is("true_solar", *_TRUE_WORDS), _is("equation_of_time", "0", "false", "off", "no")
)  # fmt: skip
BIRTH_RULES: Final = [
    _REAL_DATE,
    _rule("leap=1 needs calendar=lunar", _is("calendar", "lunar"), _is("leap", *_TRUE_WORDS)),
    _rule("lon needs the time zone: tz, or a city", _place("tz"), _given("lon")),
    _rule("true_solar=1 needs the longitude and the time zone: lon and tz, or a city",
          {"allOf": [_place("lon"), _place("tz")]}, _is("true_solar", *_TRUE_WORDS)),
    _rule("fold=1 needs the time zone: tz, or a city", _place("tz"), _is("fold", "1")),
    _rule("city is an id that GET /api/cities answers",
          {"fact": "city-id", "param": "city", "listed_by": "/api/cities"}, _given("city")),
]  # fmt: skip
ZIWEI_RULES: Final = [
    *BIRTH_RULES,
    _rule("school=quanshu needs algorithm=quanshu", _is("algorithm", "quanshu"),
          _is("school", "quanshu")),
    _EOT_RULE,
]  # fmt: skip
HOROSCOPE_RULES: Final = [
    *ZIWEI_RULES,
    _rule("at is from the birth on (taken as safe: two days after the birth date, whose "
          "own day depends on the clock time and true solar time) and within the chart's "
          "120 nominal years (taken as safe: up to the birth date's year + 118)",
          {"fact": "moment-from-birth", "moment": "at", "date": "date",
           "calendar": "calendar", "leap": "leap", "days_after": 2, "years_after": 118}),
]  # fmt: skip
BAZI_RULES: Final = [
    *BIRTH_RULES,
    _EOT_RULE,
    _rule("year is from the birth's year in Beijing time to 150 years on (taken as safe: "
          "the birth date's year + 1 to + 149)",
          {"fact": "year-from-birth", "year": "year", "date": "date", "calendar": "calendar",
           "leap": "leap", "years_after": [1, 149]}, _given("year")),
]  # fmt: skip


def _rules(rules: list[dict[str, Any]], parameters: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rules whose parameters the operation has (no fold rule without a clock time)."""
    names = {p["name"] for p in parameters}

    def mentioned(node: Any) -> set[str]:
        if isinstance(node, dict):
            own = {node["param"]} if "param" in node and "fact" not in node else set()
            return own.union(*(mentioned(v) for v in node.values()))
        if isinstance(node, list):
            return set().union(*(mentioned(v) for v in node))
        return set()

    return [r for r in rules if mentioned(r) <= names]


def _with_rules(parameters: list[dict[str, Any]], rules: list[dict[str, Any]]) -> dict[str, Any]:
    """An operation's parameters and its rules, stated twice: for machines and in words."""
    mine = _rules(rules, parameters)
    words = "\n".join(f"* {r['description']}" for r in mine)
    return {
        "parameters": parameters,
        "x-mingshu-rules": mine,
        "description": f"{RULES_HEAD}\n{words}",
    }


def _known(parameters: list[dict[str, Any]]) -> frozenset[str]:
    return frozenset(p["name"] for p in parameters)


_ZIWEI_KNOWN: Final = _known(CHART_PARAMETERS)
_HOROSCOPE_KNOWN: Final = _known(HOROSCOPE_PARAMETERS)
_BAZI_KNOWN: Final = _known(BAZI_CHART_PARAMETERS)
_HOURS_KNOWN: Final = _known(HOURS_PARAMETERS) | {"unknown_hour"}


class ErrorItem(BaseModel):
    loc: list[str | int]
    msg: str
    type: str


class Errors(BaseModel):
    detail: list[ErrorItem]


_CHART_ROUTE: Final[dict[str, Any]] = {
    "response_model": None,
    "responses": {
        200: {"content": {"application/json": {"schema": {"type": "object"}}}},
        304: {"description": "not modified (If-None-Match matched the ETag)"},
        422: {"model": Errors, "description": "bad input; loc names the field"},
    },
}


def _params(request: Request) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in request.query_params:
        values = request.query_params.getlist(key)
        out[key] = values if len(values) > 1 or key == "star" else values[0]
    return out


def _json(data: Any) -> bytes:
    from mingshu.present import to_json

    return to_json(data)


@router.get("/health", summary="A trivial answer (the load benchmark's ceiling)")
async def health() -> dict[str, Any]:
    # "warm": the answering worker has drawn its idle warm-up charts (mingshu.web.warmup).
    return {"ok": True, "version": __version__, "warm": warmed()}


@router.get(
    "/ziwei",
    summary="A Zi Wei Dou Shu natal chart (schema mingshu.ziwei.chart/1)",
    openapi_extra=_with_rules(CHART_PARAMETERS, ZIWEI_RULES),
    **_CHART_ROUTE,
)
async def ziwei_chart(request: Request) -> Response:
    return await _answer(request, ziwei_body, request.url.query)


async def _answer(
    request: Request, body_of: Callable[[str], Awaitable[bytes]], query: str
) -> Response:
    # async: a chart takes well under a millisecond, less than a hop to the thread pool.
    try:
        body = await body_of(query)
    except FieldErrors as e:
        return field_errors_response(e.errors)
    return cached(request, body, JSON)


def _query_string(request: Request) -> str:
    """The raw query string as Starlette's ``query_params`` reads it (Latin-1)."""
    return str(request.scope["query_string"].decode("latin-1"))


async def ziwei_body(query: str) -> bytes:
    """The Zi Wei chart of a query string (:class:`FieldErrors` when it is bad)."""
    async with TURNS:  # the parsing too: a repeat is one look-up in _ziwei_raw
        return _ziwei_raw(query)


@lru_cache(maxsize=CACHE_SIZE)
def _ziwei_raw(raw_query: str) -> bytes:
    """The chart of a query string as sent (a repeat skips even the parsing); the body is
    shared with every spelling of the same chart through the canonical form."""
    q = parse_query(raw_query, known=_ZIWEI_KNOWN)
    if q.unknown_hour:
        raise FieldErrors({"time": "the API needs a clock time"})
    # Keyed by the parsed query (page-only fields reset), so a new chart is parsed once.
    if (q.names, q.at, q.year) != ("hans", "", ""):  # a copy only when one is set
        q = replace(q, names="hans", at="", year="")
    return _ziwei_bytes(q)


@lru_cache(maxsize=CACHE_SIZE)
def _ziwei_bytes(q: ChartQuery) -> bytes:
    from mingshu.present.ziwei_json import chart_json

    return chart_json(ziwei_of(q))


@lru_cache(maxsize=CACHE_SIZE)
def _horoscope_bytes(query_string: str) -> bytes:
    from mingshu.present import horoscope_to_dict

    q = parse_query(query_string)
    return _json(horoscope_to_dict(horoscope_of(ziwei_of(q), q.at)))


@lru_cache(maxsize=CACHE_SIZE)
def _bazi_bytes(query_string: str) -> bytes:
    from mingshu.present import annual_to_dict, chart_to_dict

    q = parse_query(query_string)
    chart = bazi_of(q)
    data = chart_to_dict(chart)
    if q.year:
        data["annual"] = annual_to_dict(annual_of(chart, q.year))
    return _json(data)


@router.get(
    "/ziwei/horoscope",
    summary="The horoscope layers at a moment (schema mingshu.ziwei.horoscope/1)",
    openapi_extra=_with_rules(HOROSCOPE_PARAMETERS, HOROSCOPE_RULES),
    **_CHART_ROUTE,
)
async def ziwei_horoscope(request: Request) -> Response:
    return await _answer(request, horoscope_body, _query_string(request))


async def horoscope_body(query: str) -> bytes:
    """The horoscope of a query string (:class:`FieldErrors` when it is bad)."""
    q = parse_query(query, known=_HOROSCOPE_KNOWN)
    if not q.at:
        raise FieldErrors({"at": "missing: give a date YYYY-MM-DD or YYYY-MM-DDTHH:MM"})
    async with TURNS:
        return _horoscope_bytes(q.query_string(names="hans", year=""))


@router.get(
    "/bazi",
    summary="A BaZi chart (schema mingshu.bazi.chart/1), with 流年 when year is given",
    openapi_extra=_with_rules(BAZI_CHART_PARAMETERS, BAZI_RULES),
    **_CHART_ROUTE,
)
async def bazi_chart(request: Request) -> Response:
    return await _answer(request, bazi_body, _query_string(request))


async def bazi_body(query: str) -> bytes:
    """The BaZi chart of a query string (:class:`FieldErrors` when it is bad)."""
    q = parse_query(query, known=_BAZI_KNOWN)
    if q.unknown_hour:
        raise FieldErrors({"time": "the API needs a clock time"})
    async with TURNS:
        return _bazi_bytes(q.query_string(names="hans", at=""))


@router.get(
    "/ziwei/hours",
    summary="Unknown hour: what moves and what stays across the thirteen charts of a day",
    openapi_extra=_with_rules(HOURS_PARAMETERS, ZIWEI_RULES),
    **_CHART_ROUTE,
)
async def ziwei_hours(request: Request) -> Response:
    try:
        # Every hour of the day: a time given is refused as unknown here, not dropped.
        q = parse({**_params(request), "unknown_hour": "1"}, known=_HOURS_KNOWN)
        async with TURNS:
            body = _hours_bytes(q.query_string(names="hans", at="", year=""))
    except FieldErrors as e:
        return field_errors_response(e.errors)
    return cached(request, body, JSON)


@lru_cache(maxsize=CACHE_SIZE)
def _hours_bytes(query_string: str) -> bytes:
    from mingshu.web.views import HOUR_STARS, unknown_hour_table

    q = parse_query(query_string)
    charts = [ziwei_of(q, i) for i in range(13)]
    table = unknown_hour_table(charts, "hans")
    return _json(
        {
            "schema": "mingshu.web.ziwei_hours/1",
            "date": q.date,
            "hour_stars": list(HOUR_STARS),
            "hours": [
                {
                    "time_index": r.time_index,
                    "hour": r.hour,
                    "life": r.life,
                    "body": r.body,
                    "five_elements_class": r.element_class,
                    "life_major_stars": r.life_stars,
                    "hour_stars": dict(zip(HOUR_STARS, r.hour_stars, strict=True)),
                }
                for r in table.rows
            ],
            "same_in_every_hour": list(table.same),
            "moving": list(table.moving),
        }
    )


def _only_once(request: Request, known: tuple[str, ...]) -> None:
    """A 422 naming each parameter not in ``known`` or given twice: FastAPI ignores an
    unknown one and keeps one of two values (``limit=5&limit=6``) without a word."""
    errors = []
    for key in request.query_params:
        if key not in known:
            message = f"unknown parameter (known here: {', '.join(known)})"
        elif len(request.query_params.getlist(key)) > 1:
            message = "given more than once: give it once"
        else:
            continue
        errors.append({"loc": ("query", clip_text(key, 40)), "msg": message, "type": "value_error"})
    if errors:
        raise RequestValidationError(errors)


@router.get("/cities", summary="Cities by English or Chinese name, largest first")
def city_search(
    request: Request,
    q: Annotated[str, Query(min_length=1, max_length=60)],
    limit: Annotated[int, Query(ge=1, le=50)] = 10,
) -> list[dict[str, Any]]:
    _only_once(request, ("q", "limit"))
    return [
        {
            "id": c.id,
            "name": c.name,
            "chinese": list(c.chinese),
            "country": c.country,
            "latitude": c.latitude,
            "longitude": c.longitude,
            "timezone": c.timezone,
            "label": c.label,
        }
        for c in cities.search(q, limit)
    ]
