"""The web's chart parameters against the settings types and the command line (issue 20):
the same words are taken (iztro's, 男/女, 1987/05/16) or refused the same way, an unknown
or foreign parameter is a 422 naming it (never another chart with status 200), and a
parameter given twice is an error, as a repeated option is on the command line."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from mingshu import bazi, ziwei
from mingshu.errors import InputError
from mingshu.present import chart_to_dict

BIRTH = "date=1987-05-16&time=10:30&gender=female"


def named(response: Any) -> list[str]:
    assert response.status_code == 422, response.text
    return [d["loc"][-1] for d in response.json()["detail"]]


@pytest.mark.parametrize(
    "extra",
    [
        ["lunar=true"],
        ["longitude=116.4"],
        ["true_solar_time=1"],
        ["lunar=true", "longitude=116.4", "true_solar_time=1"],
        ["start_age=minutes"],  # a BaZi setting: no Zi Wei chart changes with it
        ["names=hant"],  # the page's display choice, not the API's
    ],
)
def test_api_names_every_unknown_parameter(client: TestClient, extra: list[str]) -> None:
    r = client.get(f"/api/ziwei?{BIRTH}&{'&'.join(extra)}")
    assert sorted(named(r)) == sorted(e.split("=")[0] for e in extra)
    assert "unknown parameter" in r.json()["detail"][0]["msg"]


def test_each_endpoint_refuses_what_it_does_not_use(client: TestClient) -> None:
    assert named(client.get(f"/api/bazi?{BIRTH}&school=quanshu")) == ["school"]
    assert named(client.get(f"/api/bazi?{BIRTH}&at=2026-01-01")) == ["at"]
    assert named(client.get(f"/api/ziwei?{BIRTH}&year=2026")) == ["year"]
    # The thirteen hours of a day: a clock time given was dropped silently.
    assert named(client.get("/api/ziwei/hours?date=1987-05-16&gender=female&time=10:30")) == [
        "time"
    ]


def test_the_form_page_shows_an_unknown_parameter(client: TestClient) -> None:
    r = client.get(f"/chart?{BIRTH}&lunar=true")
    assert r.status_code == 422
    assert "lunar" in r.text and "unknown parameter" in r.text


def test_api_takes_the_words_of_the_cli_and_the_settings(client: TestClient) -> None:
    theirs = client.get(
        "/api/ziwei?date=1987/05/16&time=23:30&gender=女&late_rat_hour=current"
        "&year_boundary=exact&algorithm=default&horoscope_boundary=normal"
    )
    assert theirs.status_code == 200, theirs.text
    settings = ziwei.ZiweiSettings(late_rat_hour="same_day", year_boundary="spring_begins")
    expected = chart_to_dict(ziwei.chart("1987-05-16", "23:30", "female", settings=settings))
    assert theirs.json() == expected
    ours = client.get(
        "/api/ziwei?date=1987-05-16&time=23:30&gender=female&late_rat_hour=same_day"
        "&year_boundary=spring_begins"
    )
    assert ours.json() == expected


def test_a_bad_word_is_refused_as_the_settings_refuse_it(client: TestClient) -> None:
    r = client.get(f"/api/ziwei?{BIRTH}&late_rat_hour=tomorrow")
    with pytest.raises(InputError) as caught:
        ziwei.ZiweiSettings(late_rat_hour="tomorrow")
    assert named(r) == ["late_rat_hour"]
    assert r.json()["detail"][0]["msg"] == caught.value.message


def test_every_bazi_word_setting_reaches_the_chart(client: TestClient) -> None:
    query = "stage_yin=forward&stage_earth=water_earth&ming_gong_month=zhong_qi&si_ling=tyme4py"
    r = client.get(f"/api/bazi?{BIRTH}&tz=Asia/Shanghai&{query}")
    assert r.status_code == 200, r.text
    settings = bazi.BaziSettings(
        stage_yin="forward", stage_earth="water_earth", ming_gong_month="zhong_qi",
        si_ling="tyme4py",
    )  # fmt: skip
    c = bazi.chart("1987-05-16", "10:30", "female", tz="Asia/Shanghai", settings=settings)
    assert r.json() == chart_to_dict(c)


@pytest.mark.parametrize(
    "query",
    [
        f"{BIRTH}&tz=Asia/Shanghai&tz=Europe/Zurich",
        f"{BIRTH}&lon=116&lon=8",
        f"{BIRTH}&gender=male",
    ],
)
def test_a_parameter_given_twice_is_an_error(client: TestClient, query: str) -> None:
    r = client.get(f"/api/ziwei?{query}")
    assert len(named(r)) == 1
    assert "given 2 times" in r.json()["detail"][0]["msg"]
    page = client.get(f"/chart?{query}")
    assert page.status_code == 422 and "given 2 times" in page.text


def test_the_flag_settings_reach_both_charts(client: TestClient) -> None:
    place = "tz=Asia/Urumqi&lon=87.6&true_solar=1"
    r = client.get(f"/api/ziwei?{BIRTH}&{place}&equation_of_time=0")
    assert r.status_code == 200, r.text
    mean = ziwei.ZiweiSettings(true_solar_time=True, equation_of_time=False)
    z = ziwei.chart("1987-05-16", "10:30", "female", tz="Asia/Urumqi", longitude="87.6",
                    settings=mean)  # fmt: skip
    assert r.json() == chart_to_dict(z)
    r = client.get(f"/api/bazi?{BIRTH}&{place}&equation_of_time=0&include_basis_pillar=1")
    assert r.status_code == 200, r.text
    settings = bazi.BaziSettings(
        true_solar_time=True, equation_of_time=False, include_basis_pillar=True
    )
    b = bazi.chart("1987-05-16", "10:30", "female", tz="Asia/Urumqi", longitude="87.6",
                   settings=settings)  # fmt: skip
    assert r.json() == chart_to_dict(b)


def test_mean_solar_time_without_true_solar_time_is_refused(client: TestClient) -> None:
    assert named(client.get(f"/api/ziwei?{BIRTH}&equation_of_time=0")) == ["equation_of_time"]
