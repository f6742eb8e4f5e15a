"""Plain-data (JSON-ready) form of a chart; the schema is documented in docs/bazi.md.

Stems, branches and pillars are written as their characters (``"甲辰"``); named things (ten
gods, stages, nayin, stars, roles) as ``{"key", "hans", "english"}`` so machines read the
key and people the name.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from mingshu.bazi.derived import PillarDetail
from mingshu.bazi.luck import Annual, Luck
from mingshu.bazi.shensha import Hit, StarResult
from mingshu.bazi.tables import Source
from mingshu.cycles import Names

if TYPE_CHECKING:
    from mingshu.bazi.chart import Chart

__all__ = ["annual_dict", "chart_dict", "star_dict"]


def _named(key: str, names: Names) -> dict[str, str]:
    return {"key": key, "hans": names.hans, "english": names.english}


def _moment(m: datetime | None) -> str | None:
    return None if m is None else m.isoformat(sep=" ")


def _detail(d: PillarDetail) -> dict[str, Any]:
    return {
        "pillar": str(d.pillar),
        "stem": str(d.pillar.stem),
        "branch": str(d.pillar.branch),
        "ten_god": None if d.ten_god is None else _named(d.ten_god.key, d.ten_god.names),
        "hidden": [
            {
                "stem": str(h.stem),
                "role": h.role.key,
                "ten_god": _named(h.ten_god.key, h.ten_god.names),
            }
            for h in d.hidden
        ],
        "nayin": {**_named(d.nayin.key, d.nayin.names), "element": d.nayin.element.key},
        "stage": _named(d.stage.key, d.stage.names),
        "self_stage": _named(d.self_stage.key, d.self_stage.names),
        "void": [str(b) for b in d.void],
    }


def _source(s: Source) -> dict[str, str]:
    return s.as_dict()


def _hit(h: Hit) -> dict[str, Any]:
    return {
        "pillar": h.position.key,
        "component": h.component,
        "basis": h.basis,
        "basis_value": None if h.basis_value is None else str(h.basis_value),
        "target": str(h.target),
        "role": None if h.role is None else _named(h.role.key, h.role.names),
    }


def star_dict(r: StarResult) -> dict[str, Any]:
    """One star's result: the table used, its source, and every hit (or none)."""
    v = r.variant
    return {
        **_named(r.star.key, r.star.names),
        "variant": v.id,
        "table": v.label,
        "basis": list(v.basis),
        "source": _source(v.source),
        "found": r.found,
        "hits": [_hit(h) for h in r.hits],
        "summary": r.describe(),
    }


def _luck(lk: Luck) -> dict[str, Any]:
    return {
        "direction": "forward" if lk.forward else "backward",
        "method": lk.method.value,
        "jie": {"term": lk.jie.key, "hans": lk.jie.names.hans, "moment": _moment(lk.jie_moment)},
        "span_seconds": lk.span_seconds,
        "start": lk.start._asdict(),
        "start_moment": _moment(lk.start_moment),
        "start_by_method": {
            m.value: {"start": span._asdict(), "start_moment": _moment(at)}
            for m, span, at in lk.start_by_method()
        },
        "birth_year": lk.birth_year,
        "start_year": lk.start_year,
        "steps": [
            {
                "number": s.number,
                "pillar": str(s.pillar),
                "start_year": s.start_year,
                "end_year": s.end_year,
                "start_age": s.start_age,
                "end_age": s.end_age,
                "ten_god": _named(s.ten_god.key, s.ten_god.names),
            }
            for s in lk.steps
        ],
    }


def annual_dict(a: Annual) -> dict[str, Any]:
    return {
        "year": a.year,
        "age": a.age,
        "pillar": str(a.pillar),
        "ten_god": _named(a.ten_god.key, a.ten_god.names),
        "xiao_yun": str(a.xiao_yun),
        "luck": None if a.luck is None else str(a.luck.pillar),
    }


def chart_dict(c: Chart) -> dict[str, Any]:
    """The whole chart as plain data."""
    b = c.moment
    p = c.pillars
    return {
        "input": {
            "civil": b.civil.isoformat(sep=" "),
            "tz": b.zone,
            "gender": c.gender.value,
            "longitude": b.longitude,
            "fold": b.civil.fold,
        },
        "clocks": {
            "beijing": _moment(b.beijing),
            "standard": _moment(b.standard),
            "dst_minutes": b.dst_minutes,
            "solar": _moment(b.solar),
            "longitude_minutes": b.longitude_minutes,
            "equation_of_time_minutes": b.eot_minutes,
            "pillar_clock": b.clock_kind,
            "pillar_clock_time": _moment(b.clock),
        },
        "settings": c.settings.as_dict(),
        "pillars": {
            "year": str(p.year),
            "month": str(p.month),
            "day": str(p.day),
            "hour": str(p.hour),
        },
        "day_master": {
            "stem": str(c.day_master),
            "element": c.day_master.element.key,
            "polarity": "yang" if c.day_master % 2 == 0 else "yin",
        },
        "details": {d.position.key: _detail(d) for d in c.details},
        "tai_yuan": str(c.tai_yuan),
        "tai_xi": str(c.tai_xi),
        "ming_gong": str(c.ming_gong),
        "shen_gong": str(c.shen_gong),
        "jie": {
            "previous": {
                "term": c.previous_jie[0].key,
                "hans": c.previous_jie[0].names.hans,
                "moment": _moment(c.previous_jie[1]),
            },
            "next": {
                "term": c.next_jie[0].key,
                "hans": c.next_jie[0].names.hans,
                "moment": _moment(c.next_jie[1]),
            },
        },
        "luck": _luck(c.luck),
        "stars": [star_dict(r) for r in c.stars],
        "notices": [n._asdict() for n in c.notices],
    }
