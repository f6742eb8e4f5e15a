"""The names a chart's JSON uses, in one of iztro's six languages (or pinyin).

``locale_to_dict(chart, lang, horoscope=None)`` maps the keys the ``mingshu.ziwei.chart/1``
export uses to their names in ``lang`` (``mingshu.ziwei.locale.name``)::

    {"lang": "ja-JP", "stars": {"zi_wei": "紫微", …}, "palaces": {"life": "命宮", …},
     "brightness": {…}, "mutagens": {…}, "stems": {…}, "branches": {…},
     "gods": {"chang_sheng:mu_yu": "沐浴", …}, "five_elements_class": "木の三局",
     "zodiac": "龍", "sign": "しし座", "hour": "寅時"}

Stars and gods are those of the chart (and the horoscope's flowing stars); the small tables
are whole.  ``mingshu ziwei --json --lang L`` and ``--batch --lang L`` add it as ``"locale"``.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from mingshu.cycles import Branch, Stem
from mingshu.ziwei.chart import NatalChart
from mingshu.ziwei.horoscope import Horoscope
from mingshu.ziwei.locale import language, name
from mingshu.ziwei.stars import Brightness, Mutagen
from mingshu.ziwei.tables import PalaceName

__all__ = ["locale_to_dict"]


@cache
def _tables(lang: str) -> dict[str, dict[str, str]]:
    return {
        "palaces": {p.key: name(p, lang) for p in PalaceName},
        "brightness": {b.key: name(b, lang) for b in Brightness},
        "mutagens": {m.key: name(m, lang) for m in Mutagen},
        "stems": {s.key: name(s, lang) for s in Stem},
        "branches": {b.key: name(b, lang) for b in Branch},
    }


def locale_to_dict(
    chart: NatalChart, lang: object, horoscope: Horoscope | None = None
) -> dict[str, Any]:
    """The names, in ``lang``, of what the export of ``chart`` (and ``horoscope``) names."""
    code = language(lang)
    stars = {p.star.key: name(p.star, code) for palace in chart.palaces for p in palace.stars}
    for master in (chart.life_master, chart.body_master):
        stars[master.key] = name(master, code)
    if horoscope is not None:
        for layer in horoscope.layers:
            for placed in layer.stars:
                stars[placed.star.key] = name(placed.star, code)
    gods = {
        god.id: name(god, code)
        for palace in chart.palaces
        for god in (palace.chang_sheng, palace.bo_shi, palace.jiang_qian, palace.sui_qian)
    }
    tables = _tables(code)
    return {
        "lang": code,
        "stars": stars,
        **{k: dict(v) for k, v in tables.items()},
        "gods": gods,
        "five_elements_class": name(chart.five_elements_class, code),
        "zodiac": name(chart.zodiac, code),
        "sign": name(chart.sign, code),
        "hour": name(chart.hour, code),
    }
