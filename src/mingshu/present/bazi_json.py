"""BaZi charts as JSON-ready dicts, in the dialect of the Zi Wei export.

Schema ``mingshu.bazi.chart/1`` (a year's ``mingshu.bazi.annual/1``), described in
docs/bazi.md.  As in docs/ziwei-json.md: stems and branches are ASCII keys (``"geng"``,
``"wu"``), pillars two-character strings (``"庚午"``), named things (ten gods, stages,
nayin, roles, stars, solar terms) ``{"key", "hans", "hant", "pinyin", "english"}``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from typing import Any, Final

from mingshu.bazi.arriving import Arrival
from mingshu.bazi.chart import Chart
from mingshu.bazi.derived import PillarDetail
from mingshu.bazi.luck import Annual, Luck, LuckStep
from mingshu.bazi.moments import MomentRange
from mingshu.bazi.settings import BaziSettings
from mingshu.bazi.shensha import Hit, StarResult
from mingshu.calendar import SolarTerm
from mingshu.cycles import Branch, Element, FourPillars, Pillar, Stem
from mingshu.present.birth_json import birth_to_dict
from mingshu.present.names import named, notice_dict, notices_of

__all__ = [
    "ANNUAL_SCHEMA",
    "CHART_SCHEMA",
    "annual_to_dict",
    "chart_to_dict",
    "moments_to_dict",
    "page_dict",
    "settings_to_dict",
    "star_to_dict",
    "value_text",
]

CHART_SCHEMA: Final = "mingshu.bazi.chart/1"
ANNUAL_SCHEMA: Final = "mingshu.bazi.annual/1"


def _moment(m: datetime | None) -> str | None:
    return None if m is None else m.isoformat(sep=" ")


def value_text(v: Stem | Branch | Pillar | Element | None) -> str | None:
    """A looked-up value: stems, branches and elements by key, pillars as text."""
    if v is None:
        return None
    if isinstance(v, Pillar):
        return str(v)
    return v.key


def _term(term: SolarTerm, moment: datetime | None) -> dict[str, Any]:
    return {**named(term.key, term.names), "moment": _moment(moment)}


def settings_to_dict(settings: BaziSettings) -> dict[str, Any]:
    """Every settings field; ``star_variants`` maps every star key to its variant id."""
    return settings.as_dict()


def _detail(d: PillarDetail) -> dict[str, Any]:
    return {
        "pillar": str(d.pillar),
        "stem": d.pillar.stem.key,
        "branch": d.pillar.branch.key,
        "ten_god": None if d.ten_god is None else named(d.ten_god.key, d.ten_god.names),
        "hidden": [
            {
                "stem": h.stem.key,
                "role": named(h.role.key, h.role.names),
                "ten_god": named(h.ten_god.key, h.ten_god.names),
            }
            for h in d.hidden
        ],
        "nayin": {**named(d.nayin.key, d.nayin.names), "element": d.nayin.element.key},
        "stage": named(d.stage.key, d.stage.names),
        "self_stage": named(d.self_stage.key, d.self_stage.names),
        "void": [b.key for b in d.void],
    }


def _hit(h: Hit) -> dict[str, Any]:
    return {
        "pillar": h.position.key,
        "component": h.component,
        "basis": h.basis,
        "basis_value": value_text(h.basis_value),
        "target": value_text(h.target),
        "role": None if h.role is None else named(h.role.key, h.role.names),
    }


def star_to_dict(r: StarResult, bases: tuple[str, ...] | None = None) -> dict[str, Any]:
    """One symbolic star's result: the table used, its source, and every hit (or none);
    ``bases``: the bases it was entered with (default: the variant's own)."""
    v = r.variant
    return {
        **named(r.star.key, r.star.names),
        "variant": v.id,
        "table": v.label,
        "basis": list(v.basis if bases is None else bases),
        "source": v.source.as_dict(),
        **({"also": [a.as_dict() for a in v.also]} if v.also else {}),
        "found": r.found,
        "hits": [_hit(h) for h in r.hits],
        "summary": r.describe(),
    }


def _luck_step(s: LuckStep) -> dict[str, Any]:
    return {
        "number": s.number,
        "pillar": str(s.pillar),
        "start_year": s.start_year,
        "end_year": s.end_year,
        "start_age": s.start_age,
        "end_age": s.end_age,
        "ten_god": named(s.ten_god.key, s.ten_god.names),
    }


def _luck(lk: Luck) -> dict[str, Any]:
    return {
        "direction": "forward" if lk.forward else "backward",
        "method": lk.method.value,
        "jie": _term(lk.jie, lk.jie_moment),
        "span_seconds": lk.span_seconds,
        "start": lk.start._asdict(),
        "start_moment": _moment(lk.start_moment),
        "start_by_method": {
            m.value: {"start": span._asdict(), "start_moment": _moment(at)}
            for m, span, at in lk.start_by_method()
        },
        "birth_year": lk.birth_year,
        "start_year": lk.start_year,
        "steps": [_luck_step(s) for s in lk.steps],
    }


def _si_ling(c: Chart) -> dict[str, Any]:
    sl = c.si_ling()
    return {
        "stem": sl.stem.key,
        "role": named(sl.role.key, sl.role.names),
        "day": sl.day,
        "day_in_stage": sl.day_in_stage,
        "table": sl.table.key,
    }


def arrival_to_dict(x: Arrival) -> dict[str, Any]:
    """A star a luck or year pillar brings (or triggers in a natal pillar)."""
    return {
        **named(x.star.key, x.star.names),
        "how": x.how,
        "variant": x.variant.id,
        "basis": x.basis,
        "basis_value": value_text(x.basis_value),
        "target": value_text(x.target),
        "component": x.component,
        "pillar": None if x.position is None else x.position.key,
        "role": None if x.role is None else named(x.role.key, x.role.names),
    }


def annual_to_dict(a: Annual, chart: Chart | None = None) -> dict[str, Any]:
    """One Gregorian year of a chart: 流年, its ten god, 小运 and the luck pillar; with the
    ``chart``, also the symbolic stars the 流年 and the luck pillar bring or trigger."""
    out: dict[str, Any] = {
        "schema": ANNUAL_SCHEMA,
        "year": a.year,
        "age": a.age,
        "pillar": str(a.pillar),
        "ten_god": named(a.ten_god.key, a.ten_god.names),
        "xiao_yun": str(a.xiao_yun),
        "luck": None if a.luck is None else str(a.luck.pillar),
    }
    if chart is not None:
        out["stars"] = {
            "year": [arrival_to_dict(x) for x in chart.arriving(a.pillar)],
            "luck": []
            if a.luck is None
            else [arrival_to_dict(x) for x in chart.arriving(a.luck.pillar)],
        }
    return out


def chart_to_dict(c: Chart) -> dict[str, Any]:
    """The whole chart in the ``mingshu.bazi.chart/1`` schema (docs/bazi.md)."""
    p = c.pillars
    master = c.pillars.day.stem
    return {
        "schema": CHART_SCHEMA,
        "birth": birth_to_dict(c.birth),
        "settings": settings_to_dict(c.settings),
        "pillars": {
            "year": str(p.year),
            "month": str(p.month),
            "day": str(p.day),
            "hour": str(p.hour),
        },
        "day_master": {
            "stem": master.key,
            "element": master.element.key,
            "polarity": "yang" if master % 2 == 0 else "yin",
        },
        "details": {d.position.key: _detail(d) for d in c.details},
        "tai_yuan": str(c.tai_yuan),
        "tai_xi": str(c.tai_xi),
        "ming_gong": str(c.ming_gong),
        "shen_gong": str(c.shen_gong),
        "si_ling": _si_ling(c),
        "jie": {
            "previous": _term(*c.previous_jie),
            "next": _term(*c.next_jie),
        },
        "luck": _luck(c.luck),
        "stars": [star_to_dict(r, c.settings.bases_of(r.star.key)) for r in c.stars],
        "notices": [notice_dict(n) for n in notices_of(c)],
    }


def page_dict(c: Chart) -> dict[str, Any]:
    """The parts of :func:`chart_to_dict` a web chart page shows, the same values built
    without the rest (the luck start by every method, the tables' sources, the summaries):
    a never-seen page pays only for what it shows."""
    lk = c.luck
    return {
        "details": {d.position.key: _detail(d) for d in c.details},
        "tai_yuan": str(c.tai_yuan),
        "tai_xi": str(c.tai_xi),
        "ming_gong": str(c.ming_gong),
        "shen_gong": str(c.shen_gong),
        "luck": {
            "start": lk.start._asdict(),
            "start_moment": _moment(lk.start_moment),
            "steps": [_luck_step(s) for s in lk.steps],
        },
        "stars": [
            {
                **named(r.star.key, r.star.names),
                "table": r.variant.label,
                "found": r.found,
                "hits": [
                    {"pillar": h.position.key, "target": value_text(h.target)} for h in r.hits
                ],
            }
            for r in c.stars
        ],
    }


def moments_to_dict(
    pillars: FourPillars,
    found: Sequence[MomentRange],
    *,
    start: date,
    end: date,
    late_rat_hour: str,
) -> dict[str, Any]:
    """八字反查's answer (``bazi.moments_of``) as the CLI's ``--json`` and the web API give it:
    each stretch's ``start`` (inclusive) and ``end`` (exclusive) and the 节 bounding it."""
    return {
        "pillars": str(pillars),
        "late_rat_hour": late_rat_hour,
        "clock": "Beijing civil time (UTC+8), the clock of the pillars",
        "from": start.isoformat(),
        "to": end.isoformat(),
        "moments": [
            {
                "start": r.start.isoformat(),
                "end": r.end.isoformat(),
                "start_term": r.start_term.key if r.start_term else None,
                "end_term": r.end_term.key if r.end_term else None,
            }
            for r in found
        ],
    }
