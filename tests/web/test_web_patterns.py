"""The chart page's patterns (格局): exactly the chart's, each with its verse and the shipped
frequency, in the reader's names and interface language."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from mingshu import ziwei
from mingshu.ziwei.patterns import frequency

BIRTHS = [
    ("1987-05-16", "10:30", "female"),
    ("1990-07-01", "04:00", "male"),
    ("2001-02-03", "23:30", "female"),
    ("1955-11-20", "13:10", "male"),
]


@pytest.mark.parametrize(("date", "time", "gender"), BIRTHS)
def test_the_page_lists_the_charts_patterns(
    client: TestClient, date: str, time: str, gender: str
) -> None:
    page = client.get("/chart", params={"date": date, "time": time, "gender": gender}).text
    section = page[
        page.index('id="patterns"') : page.index("</section>", page.index('id="patterns"'))
    ]
    chart = ziwei.chart(date, time, gender)
    hits = chart.patterns()
    assert re.findall(r'id="pattern-([a-z_]+)"', section) == [h.pattern.key for h in hits]
    for h in hits:
        assert f'<q lang="zh-Hans">{h.pattern.verse}</q>' in section
        f = frequency(h.pattern.key)
        if f is not None and f.one_in:
            assert f"1 chart in {f.one_in:,} ({f.first_year}–{f.last_year})" in section
        for rule in h.broken:
            assert rule.verse in section


def test_the_names_and_language_follow_the_reader(client: TestClient) -> None:
    base = {"date": "1987-05-16", "time": "10:30", "gender": "female"}
    english = client.get("/chart", params={**base, "names": "english"}).text
    assert "Seven Killings Face the Dipper" in english
    chinese = client.get("/chart", params={**base, "lang": "zh-Hans"}).text
    f = frequency("qi_sha_chao_dou")  # this chart forms 七杀朝斗 (七杀 in 子, the Life palace)
    assert f is not None and f"每 {f.one_in:,} 盘有一" in chinese
    assert "<h2>格局" in chinese
