"""The chart page and its parts filled into pieces made once per shape (the whole page, the
birth form, the names switch) against the templates they stand for, rendered in full for
each query: the same markup for every combination of given fields, choices, languages and
values that need escaping."""

from __future__ import annotations

import dataclasses
import itertools
import random
from typing import Any

import pytest
from markupsafe import Markup, escape

from mingshu.web.charts import Charts, draw
from mingshu.web.lang import translator
from mingshu.web.pages import (
    _CHART_FIXED,
    _CHART_RAW,
    Row,
    _chart_context,
    _escaped,
    _escaped_utf8,
    _filled,
    _form,
    _form_html,
    _names_html,
    _settings_html,
    environment,
    name_links,
)
from mingshu.web.query import ChartQuery, FieldErrors, parse

# Values a reader can send that escaping changes ("&", "<", quotes), beside plain ones.
TZS = ("", "Asia/Shanghai", 'Europe/"Odd"&<zone>')
LONS = ("", "116.4", "1<2&3")
ATS = ("", "2031-05-06", "2031-05-06T10:30")


def _queries() -> list[ChartQuery]:
    rng = random.Random(5)
    out = []
    shapes = itertools.product(
        ("solar", "lunar"), (False, True), ("female", "male"), ("en", "zh-Hans"),
        ("hans", "hant", "pinyin", "english"),
    )  # fmt: skip
    for calendar, unknown, gender, lang, names in shapes:
        out.append(
            ChartQuery(
                date=f"{rng.randint(1900, 2049)}-{rng.randint(1, 12):02d}-01",
                gender=gender,
                time="" if unknown else f"{rng.randint(0, 23):02d}:30",
                unknown_hour=unknown,
                calendar=calendar,
                leap=calendar == "lunar" and rng.random() < 0.5,
                tz=rng.choice(TZS),
                city=rng.choice(("", "1816670")),
                lon=rng.choice(LONS),
                true_solar=rng.random() < 0.3,
                names=names,
                lang=lang,
                at=rng.choice(ATS),
                year=rng.choice(("", "2030")),
            )
        )
    return out


QUERIES = _queries()


@pytest.mark.parametrize("place_label", ["", "Zürich, Switzerland <苏黎世> & co"])
def test_the_filled_form_is_the_template_rendered(place_label: str) -> None:
    for q in QUERIES:
        settings = _settings_html(q.settings, q.stars, q.lang)
        context = {
            "t": translator(q.lang),
            "form": _form(q, {}),
            "errors": {},
            "settings_html": Markup(settings.decode()),
            "place_label": place_label,
        }
        expected = environment(q.lang).get_template("_form.html").render(context)
        assert _form_html(q, place_label, settings) == expected.encode(), q


def test_the_filled_form_keeps_a_parsed_querys_settings() -> None:
    q = parse({"date": "1987-05-16", "time": "12:30", "gender": "female", "school": "quanshu",
               "star": "wen_chang:w2", "lang": "zh-Hans", "tz": "Asia/Shanghai"})  # fmt: skip
    settings = _settings_html(q.settings, q.stars, q.lang)
    html = _form_html(q, "", settings)
    assert settings in html
    assert b'value="Asia/Shanghai"' in html and b"\x00" not in html


@pytest.mark.parametrize(("path", "fragment"), [("/chart", "#chart"), ("/chart/star/zi_wei", "")])
def test_the_filled_names_switch_is_the_template_rendered(path: str, fragment: str) -> None:
    for q in QUERIES:
        context = {"t": translator(q.lang), "name_links": name_links(q, path, fragment)}
        expected = environment(q.lang).get_template("_names.html").render(context)
        assert _names_html(q, path, fragment) == expected.encode(), q


def _drawn(q: ChartQuery) -> Charts:
    """The charts of ``q`` drawn at a place the engines take (its own zone and longitude may
    be ones only escaping tells apart), in a month that is no leap month; without the
    horoscope where its moment is outside the chart's years."""
    place = {"tz": "Asia/Shanghai", "lon": "116.4" if q.lon or q.true_solar else ""}
    try:
        return draw(dataclasses.replace(q, leap=False, **place))
    except FieldErrors:
        return draw(dataclasses.replace(q, leap=False, at="", **place))


# A late Rat hour birth (a notice from both engines) and a whole page of Chinese words.
PAGES = [
    *QUERIES,
    ChartQuery(date="1990-02-03", gender="male", time="23:30", at="2031-05-06", year="2030"),
    ChartQuery(date="1990-02-03", gender="female", time="06:10", lang="zh-Hans", year="1991"),
]


def _as_text(value: Any) -> Any:
    """A chart page's context as the template takes it: the HTML the code writes in UTF-8
    (bytes) as Markup, everything else as it is."""
    if isinstance(value, bytes):
        return Markup(value.decode())
    if isinstance(value, Row):
        return Row(**_as_text(vars(value)))
    if isinstance(value, dict):
        return {k: _as_text(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_as_text(v) for v in value]
    return value


@pytest.mark.parametrize("place_label", ["", "Zürich, Switzerland <苏黎世> & co", "北京"])
def test_the_filled_chart_page_is_the_template_rendered(place_label: str) -> None:
    for q in PAGES:
        charts = _drawn(q)
        charts = dataclasses.replace(
            charts, place=dataclasses.replace(charts.place, label=place_label)
        )
        context = _chart_context(q, charts)
        expected = environment(q.lang).get_template("chart.html").render(_as_text(context))
        filled = _filled("chart.html", context, _CHART_FIXED, _CHART_RAW)
        assert filled == expected.encode(), q


@pytest.mark.parametrize(
    "text", ["", "plain", "a&b", "<tag attr='x'>", 'say "hi" & <go>', "紫微 <斗数> & 'x'", "&amp;"]
)
def test_a_slot_is_escaped_as_markupsafe_escapes(text: str) -> None:
    assert _escaped(text) == str(escape(text))
    assert _escaped_utf8(text.encode()) == str(escape(text)).encode()
