"""The JSON API: charts (Zi Wei, horoscope, BaZi), cities and articles.

Chart responses are deterministic functions of the URL: each carries an ``ETag`` (a hash of
the body) and a long ``Cache-Control``, and a request whose ``If-None-Match`` matches gets
``304``.  Bad input answers 422 in FastAPI's own error shape, with the field named in
``loc`` (``["query", "date"]``) and a plain message in ``msg``.
"""

from __future__ import annotations

import hashlib
from typing import Annotated, Any, Final

from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.responses import JSONResponse

from mingshu import __version__
from mingshu.web import cities
from mingshu.web.charts import annual_of, bazi_of, horoscope_of, ziwei_of
from mingshu.web.query import ChartQuery, FieldErrors, parse

__all__ = ["CACHE_CONTROL", "cached", "field_errors_response", "router"]

CACHE_CONTROL: Final = "public, max-age=31536000, immutable"
"""A chart at a URL never changes within one release (the ETag carries the version)."""

router = APIRouter(prefix="/api", tags=["api"])

_Q = Annotated[str | None, Query(max_length=200)]


def _q(*examples: str) -> Any:
    """A query parameter with examples (OpenAPI clients and schemathesis use them)."""
    return Query(max_length=200, examples=list(examples))


def field_errors_response(errors: dict[str, str]) -> JSONResponse:
    """422 in FastAPI's validation-error shape, one entry per bad field."""
    detail = [
        {"loc": ["query", field], "msg": message, "type": "value_error"}
        for field, message in errors.items()
    ]
    return JSONResponse({"detail": detail}, status_code=422)


def etag_of(body: bytes) -> str:
    return '"' + hashlib.blake2b(__version__.encode() + body, digest_size=12).hexdigest() + '"'


def cached(request: Request, body: bytes, media_type: str) -> Response:
    """``body`` with an ETag and a long Cache-Control; 304 when the client has it."""
    tag = etag_of(body)
    headers = {"ETag": tag, "Cache-Control": CACHE_CONTROL, "Vary": "Accept-Encoding"}
    match = request.headers.get("if-none-match", "")
    if tag in (t.strip() for t in match.split(",")):
        return Response(status_code=304, headers=headers)
    return Response(body, media_type=media_type, headers=headers)


def chart_params(
    date: Annotated[str | None, _q("1987-05-16", "2023-2-20")] = None,
    time: Annotated[str | None, _q("10:30", "23:30")] = None,
    gender: Annotated[str | None, _q("female", "male")] = None,
    calendar: Annotated[str | None, _q("solar", "lunar")] = None,
    leap: _Q = None,
    tz: Annotated[str | None, _q("Asia/Shanghai", "Europe/Zurich")] = None,
    city: Annotated[str | None, _q("1816670")] = None,
    lon: Annotated[str | None, _q("116.4")] = None,
    true_solar: _Q = None,
    fold: _Q = None,
    year_boundary: _Q = None,
    horoscope_boundary: _Q = None,
    late_rat_hour: _Q = None,
    leap_month: _Q = None,
    age_count: _Q = None,
    algorithm: _Q = None,
    chart_type: _Q = None,
    bz_late_rat_hour: _Q = None,
    start_age: _Q = None,
    star: Annotated[list[str] | None, Query(max_length=40)] = None,
) -> dict[str, Any]:
    """The birth and settings fields every chart endpoint takes (see docs/web.md)."""
    params: dict[str, Any] = {k: v for k, v in locals().items() if v is not None and k != "star"}
    if star:
        params["star"] = star
    return params


_Params = Annotated[dict[str, Any], Depends(chart_params)]


def _query(params: dict[str, Any]) -> ChartQuery:
    return parse(params)


def _json(data: Any) -> bytes:
    from mingshu.present import to_json

    return to_json(data)


@router.get("/health", summary="A trivial answer (the load benchmark's ceiling)")
def health() -> dict[str, Any]:
    return {"ok": True, "version": __version__}


@router.get(
    "/ziwei",
    summary="A Zi Wei Dou Shu natal chart (schema mingshu.ziwei.chart/1)",
    response_model=None,
    responses={200: {"content": {"application/json": {}}}},
)
def ziwei_chart(request: Request, params: _Params) -> Response:
    try:
        q = _query(params)
        if q.unknown_hour:
            raise FieldErrors({"time": "the API needs a clock time"})
        chart = ziwei_of(q)
    except FieldErrors as e:
        return field_errors_response(e.errors)
    from mingshu.present.ziwei_json import chart_json

    return cached(request, chart_json(chart), "application/json")


@router.get(
    "/ziwei/horoscope",
    summary="The horoscope layers at a moment (schema mingshu.ziwei.horoscope/1)",
    response_model=None,
    responses={200: {"content": {"application/json": {}}}},
)
def ziwei_horoscope(
    request: Request, params: _Params, at: Annotated[str | None, _q("2026-11-29T10:00")] = None
) -> Response:
    try:
        q = _query({**params, "at": at or ""})
        if not q.at:
            raise FieldErrors({"at": "missing: give a date YYYY-MM-DD or YYYY-MM-DDTHH:MM"})
        h = horoscope_of(ziwei_of(q), q.at)
    except FieldErrors as e:
        return field_errors_response(e.errors)
    from mingshu.present import horoscope_to_dict

    return cached(request, _json(horoscope_to_dict(h)), "application/json")


@router.get(
    "/bazi",
    summary="A BaZi chart (schema mingshu.bazi.chart/1), with 流年 when year is given",
    response_model=None,
    responses={200: {"content": {"application/json": {}}}},
)
def bazi_chart(
    request: Request, params: _Params, year: Annotated[str | None, _q("2026")] = None
) -> Response:
    try:
        q = _query({**params, "year": year or ""})
        if q.unknown_hour:
            raise FieldErrors({"time": "the API needs a clock time"})
        chart = bazi_of(q)
        annual = annual_of(chart, q.year) if q.year else None
    except FieldErrors as e:
        return field_errors_response(e.errors)
    from mingshu.present import annual_to_dict, chart_to_dict

    data = chart_to_dict(chart)
    if annual is not None:
        data["annual"] = annual_to_dict(annual)
    return cached(request, _json(data), "application/json")


@router.get("/cities", summary="Cities by English or Chinese name, largest first")
def city_search(
    q: Annotated[str, Query(min_length=1, max_length=60)],
    limit: Annotated[int, Query(ge=1, le=50)] = 10,
) -> list[dict[str, Any]]:
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
