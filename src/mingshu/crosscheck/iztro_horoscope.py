"""Our horoscopes in the shape of iztro 2.6.0's ``horoscope()`` records (fixtures format)."""

from __future__ import annotations

from typing import Any

from mingshu import ziwei

__all__ = ["horoscope_record"]


def _layer(layer: ziwei.Layer) -> dict[str, Any]:
    return {
        "index": layer.iztro_index,
        "name": layer.names.hans,
        "heavenlyStem": layer.pillar.stem.names.hans,
        "earthlyBranch": layer.pillar.branch.names.hans,
        "palaceNames": [name.names.hans for name in layer.palace_names],
        "mutagen": [star.names.hans for star in layer.mutagens],
    }


def _stars(layer: ziwei.Layer) -> list[list[list[str]]]:
    by_palace: list[list[list[str]]] = [[] for _ in range(12)]
    for placed in layer.stars:
        by_palace[(placed.branch - 2) % 12].append([placed.star.names.hans, placed.star.kind.value])
    return by_palace


def horoscope_record(chart: ziwei.NatalChart, date: object, time: int | None) -> dict[str, Any]:
    """``astrolabe.horoscope(date, time)`` as iztro 2.6.0 records it.

    iztro reads ``time || hourOf(date)``: an explicit 0 and no time are the same.
    """
    result = ziwei.horoscope(chart, date, time or None)
    day = result.date
    record: dict[str, Any] = {
        "solarDate": f"{day.year}-{day.month}-{day.day}",
        "lunarDate": result.lunar_date.chinese(),
    }
    for name in ("decadal", "age", "yearly", "monthly", "daily", "hourly"):
        layer = getattr(result, name)
        entry = _layer(layer)
        if name == "age":
            entry["nominalAge"] = result.nominal_age
        else:
            entry["stars"] = _stars(layer)
        if name == "yearly":
            entry["yearlyDecStar"] = {
                "jiangqian12": [god.names.hans for god in result.yearly_gods.jiang_qian],
                "suiqian12": [god.names.hans for god in result.yearly_gods.sui_qian],
            }
        record[name] = entry
    return record
