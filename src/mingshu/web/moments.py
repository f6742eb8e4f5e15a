"""八字反查 on the web: ``/pillars`` (a form and the stretches of time it finds) and
``/api/bazi/moments`` (the same as JSON), both over :func:`mingshu.bazi.moments_of`."""

from __future__ import annotations

from typing import Any, Final

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse

from mingshu.web.api import (
    _CHART_ROUTE,
    RULES_HEAD,
    YEARS,
    _enum,
    _json,
    _only_once,
    _param,
    cached,
    field_errors_response,
)
from mingshu.web.query import BAZI_SETTINGS, MAX_VALUE

__all__ = ["MOMENTS_PARAMETERS", "api_router", "router"]

router = APIRouter(include_in_schema=False)
api_router = APIRouter(prefix="/api", tags=["api"])

_LATE_RAT: Final = "bz_late_rat_hour"
_YEAR: Final = {"pattern": rf"^\s*{YEARS}?\s*$"}
"""A year of the calendar's range (mingshu.bazi.moments.year_bound)."""
_PILLAR: Final = r"([甲丙戊庚壬]\s*[子寅辰午申戌]|[乙丁己辛癸]\s*[丑卯巳未酉亥])"
"""One of the sixty: a yang stem with a yang branch, a yin stem with a yin branch."""
MOMENTS_PARAMETERS: Final = [
    _param("pillars", "Four pillars, year month day hour (spaces optional)",
           "庚辰 甲申 丙午 庚寅", required=True,
           schema={"pattern": rf"^\s*({_PILLAR}\s*){{4}}$", "maxLength": 40}),
    _param(_LATE_RAT, "BaZi setting: how 23:00–23:59 takes its day and hour pillars",
           "next_day", schema=_enum(BAZI_SETTINGS[_LATE_RAT].words)),
    _param("from", "First year searched (default: the first of the calendar)", "1900",
           schema=_YEAR),
    _param("to", "Last year searched (default: the last of the calendar)", "2100",
           schema=_YEAR),
]  # fmt: skip
MOMENTS_RULE: Final = {
    "description": "from is not after to",
    "if": {"allOf": [{"param": "from", "given": True}, {"param": "to", "given": True}]},
    "then": {"fact": "not-after", "first": "from", "last": "to"},
}
_KNOWN: Final = tuple(p["name"] for p in MOMENTS_PARAMETERS)
_LONGEST: Final = {p["name"]: p["schema"]["maxLength"] for p in MOMENTS_PARAMETERS}
"""Each value's longest, as sent (refused beyond it, not cut: a cut value means another)."""
_PAGE_KNOWN: Final = (*_KNOWN, "lang")


def _search(params: dict[str, str]) -> tuple[dict[str, Any] | None, dict[str, str]]:
    """(the answer as JSON-ready data, no errors) or (None, the errors by field)."""
    from datetime import date

    from mingshu import bazi
    from mingshu.bazi.moments import year_bound
    from mingshu.errors import InputError
    from mingshu.present.bazi_json import moments_to_dict

    errors = {
        field: f"is too long ({len(value)} characters; at most {_LONGEST.get(field, MAX_VALUE)})"
        for field, value in params.items()
        if len(value) > _LONGEST.get(field, MAX_VALUE)
    }
    if errors:
        return None, errors
    text = params.get("pillars", "").strip()
    if not text:
        return None, {"pillars": "give four pillars, e.g. 庚辰 甲申 丙午 庚寅"}
    years: dict[str, date] = {}
    for field, first in (("from", True), ("to", False)):
        raw = params.get(field, "").strip()
        if raw and not (raw.isascii() and raw.isdigit() and len(raw) == 4):
            errors[field] = "give a year, four digits"
            continue
        try:
            years[field] = year_bound(int(raw) if raw else None, field, first=first)
        except InputError as e:
            errors[field] = e.message
    late_rat = params.get(_LATE_RAT, "").strip() or BAZI_SETTINGS[_LATE_RAT].default
    if late_rat not in BAZI_SETTINGS[_LATE_RAT].words:
        errors[_LATE_RAT] = f"one of {', '.join(BAZI_SETTINGS[_LATE_RAT].words)}"
    if not errors and years["from"] > years["to"]:
        errors["to"] = "the last year is before the first"
    if errors:
        return None, errors
    try:
        pillars = bazi.parse_pillars(text)
        settings = bazi.BaziSettings(late_rat_hour=bazi.LateRatHour(late_rat))
        found = bazi.moments_of(pillars, settings, start=years["from"], end=years["to"])
    except InputError as e:
        return None, {"pillars": e.message}
    data = moments_to_dict(
        pillars, found, start=years["from"], end=years["to"], late_rat_hour=late_rat
    )
    return data, {}


def _params(request: Request) -> dict[str, str]:
    return {k: request.query_params[k] for k in request.query_params}


@api_router.get(
    "/bazi/moments",
    summary="八字反查: every stretch of Beijing time whose four pillars are the given ones",
    openapi_extra={
        "parameters": MOMENTS_PARAMETERS,
        "x-mingshu-rules": [MOMENTS_RULE],
        "description": f"{RULES_HEAD}\n* {MOMENTS_RULE['description']}",
    },
    **_CHART_ROUTE,
)
async def moments_api(request: Request) -> Response:
    _only_once(request, _KNOWN)
    data, errors = _search(_params(request))
    if data is None:
        return field_errors_response(errors)
    return cached(request, _json(data), "application/json")


@router.get("/pillars", response_class=HTMLResponse)
def moments_page(request: Request) -> Response:
    from datetime import datetime, timedelta
    from urllib.parse import urlencode

    from mingshu.web.lang import LANGS
    from mingshu.web.pages import _lang_context, lang_of, render
    from mingshu.web.settings_help import WORDS

    _only_once(request, _PAGE_KNOWN)
    params = _params(request)
    lang = lang_of(params)
    if "lang" in params and params["lang"] not in LANGS:
        errors_lang = {"lang": f"one of {', '.join(LANGS)}"}
        return field_errors_response(errors_lang)
    search = {k: v for k, v in params.items() if k != "lang"}
    data, errors = _search(search) if search else (None, {})
    rows = []
    for m in data["moments"] if data else ():
        start = datetime.fromisoformat(m["start"])
        last = datetime.fromisoformat(m["end"]) - timedelta(seconds=1)
        # A chart at the stretch's first minute (a 节 to the second: the next whole minute).
        at = start if start.second == 0 else start + timedelta(seconds=60 - start.second)
        chart = f"/chart?date={at:%Y-%m-%d}&time={at:%H:%M}&tz=Asia/Shanghai"
        if lang != "en":
            chart += f"&lang={lang}"
        chart += "&gender="
        rows.append({**m, "start": start, "last": last, "chart": chart})
    words = BAZI_SETTINGS[_LATE_RAT].words
    here = urlencode({k: v for k, v in search.items() if v})
    links = {
        other: "/pillars?" + urlencode({**search, **({"lang": other} if other != "en" else {})})
        for other in LANGS
    }
    return render(
        "pillars.html",
        status=422 if errors else 200,
        lang=lang,
        **_lang_context(lang, links),
        lang_field=lang if lang != "en" else "",
        form={k: search.get(k, "") for k in _KNOWN},
        late_rat=[(w, WORDS.get(f"{_LATE_RAT}:{w}") or WORDS.get(w, w)) for w in words],
        errors=errors,
        data=data,
        rows=rows,
        query=here,
    )
