"""One JSON dialect for both engines: ``chart_to_dict`` for a Zi Wei or a BaZi chart, and
``to_json`` to bytes.

Both engines write things the same way (docs/ziwei-json.md, docs/bazi.md): a ``"schema"``
with a version on every top-level object; stems and branches as ASCII keys (``"geng"``,
``"wu"``); pillars as two-character strings (``"庚午"``); named things as
``{"key", "hans", "hant", "pinyin", "english"}``; absent values as ``null``.
"""

from __future__ import annotations

import math
import sys
from typing import TYPE_CHECKING, Any, overload

import orjson

from mingshu.choices import check_bool
from mingshu.errors import InputError

if TYPE_CHECKING:
    from mingshu.bazi.chart import Chart
    from mingshu.bazi.luck import Annual
    from mingshu.bazi.settings import BaziSettings
    from mingshu.ziwei.chart import NatalChart
    from mingshu.ziwei.horoscope import Horoscope
    from mingshu.ziwei.settings import ZiweiSettings

__all__ = ["annual_to_dict", "chart_to_dict", "horoscope_to_dict", "settings_to_dict", "to_json"]


# What each kind of object is, by (module, class) name.
_KINDS = (
    ("ziwei_chart", "mingshu.ziwei.chart", "NatalChart"),
    ("ziwei_settings", "mingshu.ziwei.settings", "ZiweiSettings"),
    ("horoscope", "mingshu.ziwei.horoscope", "Horoscope"),
    ("bazi_chart", "mingshu.bazi.chart", "Chart"),
    ("bazi_settings", "mingshu.bazi.settings", "BaziSettings"),
    ("annual", "mingshu.bazi.luck", "Annual"),
)


def _kind(obj: object) -> str | None:
    # Each engine's exporter loads only when that engine is in use: an object of an
    # engine's class can only exist once its module is loaded, so look in sys.modules and
    # import nothing.
    for kind, module_name, class_name in _KINDS:
        module = sys.modules.get(module_name)
        if module is not None and isinstance(obj, getattr(module, class_name)):
            return kind
    return None


@overload
def chart_to_dict(chart: NatalChart) -> dict[str, Any]: ...
@overload
def chart_to_dict(chart: Chart) -> dict[str, Any]: ...
def chart_to_dict(chart: NatalChart | Chart) -> dict[str, Any]:
    """A Zi Wei natal chart (``mingshu.ziwei.chart/1``) or a BaZi chart
    (``mingshu.bazi.chart/1``) as fresh JSON-ready dicts."""
    kind = _kind(chart)
    if kind == "ziwei_chart":
        from mingshu.present import ziwei_json

        return ziwei_json.chart_to_dict(chart)  # type: ignore[arg-type]
    if kind == "bazi_chart":
        from mingshu.present import bazi_json

        return bazi_json.chart_to_dict(chart)  # type: ignore[arg-type]
    raise InputError("chart", f"give a Zi Wei or BaZi chart, not {type(chart).__name__}")


def horoscope_to_dict(horoscope: Horoscope) -> dict[str, Any]:
    """A Zi Wei horoscope (``mingshu.ziwei.horoscope/1``)."""
    from mingshu.present import ziwei_json

    if _kind(horoscope) != "horoscope":
        raise InputError("horoscope", f"give a Zi Wei horoscope, not {type(horoscope).__name__}")

    return ziwei_json.horoscope_to_dict(horoscope)


def annual_to_dict(annual: Annual, chart: Chart | None = None) -> dict[str, Any]:
    """A BaZi year: 流年, 小运 and luck pillar (``mingshu.bazi.annual/1``); with the chart,
    also the symbolic stars the 流年 and the luck pillar bring or trigger (``"stars"``)."""
    from mingshu.present import bazi_json

    if _kind(annual) != "annual":
        raise InputError("annual", f"give a BaZi year (chart.annual), not {type(annual).__name__}")
    if chart is not None and _kind(chart) != "bazi_chart":
        raise InputError("chart", f"give the BaZi chart or None, not {type(chart).__name__}")
    return bazi_json.annual_to_dict(annual, chart)


@overload
def settings_to_dict(settings: ZiweiSettings) -> dict[str, Any]: ...
@overload
def settings_to_dict(settings: BaziSettings) -> dict[str, Any]: ...
def settings_to_dict(settings: ZiweiSettings | BaziSettings) -> dict[str, Any]:
    """Every field of a Zi Wei or BaZi settings value, as the chart's ``"settings"``."""
    kind = _kind(settings)
    if kind == "ziwei_settings":
        from mingshu.present import ziwei_json

        return ziwei_json.settings_to_dict(settings)  # type: ignore[arg-type]
    if kind == "bazi_settings":
        from mingshu.present import bazi_json

        return bazi_json.settings_to_dict(settings)  # type: ignore[arg-type]
    raise InputError(
        "settings", f"give ZiweiSettings or BaziSettings, not {type(settings).__name__}"
    )


def to_json(obj: object, *, indent: bool = False) -> bytes:
    """UTF-8 JSON of a chart (either engine), a horoscope, a BaZi year, or what the
    ``*_to_dict`` functions return.  ``indent``: two spaces per level, as ``--json`` prints.

    A Zi Wei natal chart takes a fast path that serialises the shared pieces of every
    chart once (see :mod:`mingshu.present.ziwei_json`).
    """
    option = orjson.OPT_INDENT_2 if check_bool(indent, "indent") else 0
    kind = _kind(obj)
    if kind is None:
        _check_finite(obj)
    if kind == "ziwei_chart":
        from mingshu.present import ziwei_json

        return ziwei_json.chart_json(obj, option)  # type: ignore[arg-type]
    data: Any = obj
    if kind == "bazi_chart":
        data = chart_to_dict(obj)  # type: ignore[call-overload]
    elif kind in ("ziwei_settings", "bazi_settings"):
        data = settings_to_dict(obj)  # type: ignore[call-overload]
    elif kind == "horoscope":
        data = horoscope_to_dict(obj)  # type: ignore[arg-type]
    elif kind == "annual":
        data = annual_to_dict(obj)  # type: ignore[arg-type]
    try:
        return orjson.dumps(data, option=option)
    except TypeError as e:
        raise InputError("obj", f"cannot write {type(obj).__name__} as JSON: {e}") from None


def _check_finite(data: object, depth: int = 0) -> None:
    """An :class:`InputError` on ``obj`` for a NaN or infinity anywhere in plain data: JSON
    has neither, and orjson would write ``null`` in its place.  (The engines' objects hold
    no such number, so their fast paths skip this walk.)"""
    if isinstance(data, float) and not math.isfinite(data):
        raise InputError("obj", f"JSON has no {data}: give a finite number")
    if depth > 255:  # deeper than orjson writes: it refuses the data itself
        return
    if isinstance(data, dict):
        for value in data.values():
            _check_finite(value, depth + 1)
    elif isinstance(data, list | tuple):
        for value in data:
            _check_finite(value, depth + 1)
