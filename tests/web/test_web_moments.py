"""八字反查 on the web: /pillars and /api/bazi/moments answer what `bazi.moments_of` and
lunar-python say, refuse bad fields by name, and keep the form filled."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from fastapi.testclient import TestClient
from lunar_python import Solar


def _theirs(moment: datetime, sect: int) -> str:
    ec = (
        Solar.fromYmdHms(
            moment.year, moment.month, moment.day, moment.hour, moment.minute, moment.second
        )
        .getLunar()
        .getEightChar()
    )
    ec.setSect(sect)
    return f"{ec.getYear()} {ec.getMonth()} {ec.getDay()} {ec.getTime()}"


def test_api_lists_the_stretches(client: TestClient) -> None:
    r = client.get("/api/bazi/moments", params={"pillars": "庚辰甲申丙午庚寅", "to": "2100"})
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["pillars"] == "庚辰 甲申 丙午 庚寅"
    starts = [m["start"] for m in data["moments"]]
    assert starts[-2:] == ["1940-08-31T03:00:00", "2000-08-16T03:00:00"]
    for m in data["moments"]:
        last = datetime.fromisoformat(m["end"]) - timedelta(seconds=1)
        assert _theirs(last, 1) == "庚辰 甲申 丙午 庚寅"
    assert r.headers["etag"]


def test_api_follows_the_late_rat_setting(client: TestClient) -> None:
    query = {"pillars": "甲子 丙子 甲子 丙子", "from": "1900", "to": "1930"}
    assert client.get("/api/bazi/moments", params=query).json()["moments"] == []
    split = client.get("/api/bazi/moments", params={**query, "bz_late_rat_hour": "split"})
    (m,) = split.json()["moments"]
    assert _theirs(datetime.fromisoformat(m["start"]), 2) == "甲子 丙子 甲子 丙子"


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"pillars": "庚辰 甲申 丙午"}, "pillars"),
        ({"pillars": "庚辰 甲申 丙午 庚卯"}, "pillars"),
        ({}, "pillars"),
        ({"pillars": "庚辰甲申丙午庚寅", "from": "1500"}, "from"),
        ({"pillars": "庚辰甲申丙午庚寅", "from": "19x0"}, "from"),
        ({"pillars": "庚辰甲申丙午庚寅", "from": "2000", "to": "1990"}, "to"),
        ({"pillars": "庚辰甲申丙午庚寅", "bz_late_rat_hour": "later"}, "bz_late_rat_hour"),
        ({"pillars": "庚辰甲申丙午庚寅", "gender": "male"}, "gender"),
    ],
)
def test_bad_fields_are_named(client: TestClient, params: dict[str, str], field: str) -> None:
    r = client.get("/api/bazi/moments", params=params)
    assert r.status_code == 422
    assert [d["loc"][-1] for d in r.json()["detail"]] == [field]
    if not params:
        return  # the page without a query is the empty form
    page = client.get("/pillars", params=params)
    assert page.status_code == 422
    if "pillars" in params and field != "gender":
        assert f'value="{params["pillars"]}"' in page.text  # the form keeps what was typed


def test_the_page_lists_the_stretches_with_chart_links(client: TestClient) -> None:
    empty = client.get("/pillars")
    assert empty.status_code == 200 and 'name="pillars"' in empty.text
    page = client.get(
        "/pillars", params={"pillars": "庚辰 甲申 丙午 庚寅", "from": "1930", "to": "2100"}
    )
    assert page.status_code == 200
    assert "1940-08-31 03:00:00" in page.text and "2000-08-16 04:59:59" in page.text
    link = "/chart?date=1940-08-31&amp;time=03:00&amp;tz=Asia/Shanghai&amp;gender=male"
    assert link in page.text
    chart = client.get(link.replace("&amp;", "&"))
    assert chart.status_code == 200 and "庚辰" in chart.text and "丙午" in chart.text
