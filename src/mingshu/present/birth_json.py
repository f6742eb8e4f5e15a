"""The birth as JSON, one object for both engines' charts (``"birth"`` in each schema).

``{"solar_date", "clock_time", "time_index", "gender", "lunar_input", "moment"}``: the day
and hour the chart is drawn for (with a time zone, those of the chart clock), the lunar date
as entered, and ``moment``, the zone's clocks (``null`` when no zone was given: the clock
time was taken as given).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from mingshu.birth import Birth, Moment
from mingshu.calendar import LunarDate

__all__ = ["birth_to_dict", "lunar_to_dict", "moment_to_dict"]


def lunar_to_dict(date: LunarDate) -> dict[str, Any]:
    """``{"year", "month", "day", "is_leap", "chinese"}``."""
    return {
        "year": date.year,
        "month": date.month,
        "day": date.day,
        "is_leap": date.is_leap,
        "chinese": date.chinese(),
    }


def _time(value: dt.time | None) -> str | None:
    return None if value is None else value.isoformat("seconds" if value.second else "minutes")


def _moment(value: dt.datetime | None) -> str | None:
    return None if value is None else value.isoformat(sep=" ")


def moment_to_dict(m: Moment) -> dict[str, Any]:
    """The clocks of a birth given in a zone: the civil time as entered (with its offset),
    Beijing time (compared with the 节), standard time (daylight saving removed), solar time
    at the longitude, and which of them the chart clock is."""
    return {
        "civil": m.civil.isoformat(sep=" "),
        "tz": m.zone,
        "fold": m.civil.fold,
        "longitude": m.longitude,
        "beijing": _moment(m.beijing),
        "standard": _moment(m.standard),
        "dst_minutes": m.dst_minutes,
        "solar": _moment(m.solar),
        "longitude_minutes": m.longitude_minutes,
        "equation_of_time_minutes": m.eot_minutes,
        "clock_kind": m.clock_kind,
        "clock": _moment(m.clock),
    }


def birth_to_dict(birth: Birth) -> dict[str, Any]:
    """The birth of either engine's chart (see the module docstring)."""
    return {
        "solar_date": birth.solar_date.isoformat(),
        "clock_time": _time(birth.clock_time),
        "time_index": birth.time_index,
        "gender": birth.gender.value,
        "lunar_input": None if birth.lunar_input is None else lunar_to_dict(birth.lunar_input),
        "moment": None if birth.moment is None else moment_to_dict(birth.moment),
    }
