"""The charts a page draws are the engines' own: each engine's public ``chart(...)`` with
the arguments the query gives (a birth shared by the two engines changes nothing)."""

from __future__ import annotations

import pytest

from mingshu import bazi, ziwei
from mingshu.web.charts import _bazi_settings, draw, ziwei_settings
from mingshu.web.query import parse

QUERIES = [
    {"date": "1987-05-16", "time": "10:30", "gender": "female"},
    {"date": "1988-06-01", "time": "00:30", "gender": "male", "tz": "Asia/Shanghai"},
    {"date": "1990-07-15", "time": "23:10", "gender": "female", "tz": "Asia/Shanghai",
     "lon": "87.6", "true_solar": "1"},
    {"date": "2001-11-04", "time": "01:30", "gender": "male", "tz": "America/New_York",
     "fold": "1"},
    {"date": "1970-03-02", "time": "12:00", "gender": "female", "city": "1816670",
     "true_solar": "1", "equation_of_time": "0"},
    {"date": "1984-04-05", "time": "08:00", "gender": "male", "calendar": "lunar",
     "tz": "Europe/London", "lon": "-0.1"},
]  # fmt: skip


@pytest.mark.parametrize("params", QUERIES)
def test_both_engines_draw_their_own_chart(params: dict[str, str]) -> None:
    q = parse(params)
    charts = draw(q)
    place = charts.place
    common = {
        "tz": place.tz, "longitude": place.longitude, "fold": q.fold,
        "lunar": q.calendar == "lunar", "leap": q.leap,
    }  # fmt: skip
    settings = ziwei_settings(q)
    assert charts.ziwei == ziwei.chart(q.date, q.time, q.gender, **common, settings=settings)
    common["tz"] = place.tz or "Asia/Shanghai"  # BaZi reads a clock without a zone as Beijing's
    settings = _bazi_settings(q.settings, q.stars, q.true_solar)
    assert charts.bazi == bazi.chart(q.date, q.time, q.gender, **common, settings=settings)
