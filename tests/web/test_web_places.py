"""Birth places: cities that share a name can each be chosen, and the site never picks the
largest for the reader.  The cities, their GeoNames ids and coordinates are GeoNames' own
(伊春 in Heilongjiang and 宜春 in Jiangxi are both "Yichun", 14.5° of longitude apart:
58 minutes of true solar time)."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from fastapi.testclient import TestClient

import chromium  # tests/chromium.py
from mingshu.web import cities

from .live import serving

BIRTH = {"date": "1984-05-16", "time": "12:30", "gender": "female", "true_solar": "1"}
YICHUN_HEILONGJIANG = 2033413  # 伊春 47.72°N 128.88°E
YICHUN_JIANGXI = 1786746  # 宜春 27.83°N 114.40°E
BEIJING = 1816670


class _Form(HTMLParser):
    """The fields the birth form submits, as a browser without JavaScript sends them."""

    def __init__(self) -> None:
        super().__init__()
        self.inputs: list[dict[str, str | None]] = []
        self.in_form = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "form" and "birth" in (a.get("class") or ""):
            self.in_form = True
        elif tag == "input" and self.in_form:
            self.inputs.append(a)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.in_form = False


def _submit(page: str, choose: dict[str, str]) -> dict[str, str]:
    form = _Form()
    form.feed(page)
    fields: dict[str, str] = {}
    for a in form.inputs:
        name, value, kind = a.get("name"), a.get("value") or "", a.get("type") or "text"
        if not name:
            continue
        if kind in ("radio", "checkbox"):
            chosen = choose[name] == value if name in choose else "checked" in a
            if chosen:
                fields[name] = value
            continue
        fields[name] = choose.get(name, value)
    return fields


@pytest.mark.parametrize(
    ("typed", "ids"),
    [
        ("Yichun", {YICHUN_HEILONGJIANG, YICHUN_JIANGXI}),
        ("yichun", {YICHUN_HEILONGJIANG, YICHUN_JIANGXI}),
        ("伊春", {YICHUN_HEILONGJIANG}),
        ("宜春", {YICHUN_JIANGXI}),
        ("Suzhou", {1886760, 1793743}),  # 苏州, 宿州
        ("苏州", {1886760}),
        ("Taizhou", {1793505, 8400694}),  # 泰州, 台州
        ("Fuzhou", {1810821, 1810820}),  # 福州, 抚州
        ("Springfield", {4409896, 4951788, 4250542}),  # Missouri, Massachusetts, Illinois
        ("Kingston", {3489854, 5992500}),  # Jamaica, Ontario
        ("Beijing", {BEIJING}),
    ],
)
def test_a_typed_name_means_every_city_of_that_name(typed: str, ids: set[int]) -> None:
    found = cities.resolve(typed)
    assert {c.id for c in found} == ids
    labels = [c.label for c in found]
    assert len(set(labels)) == len(labels)  # each one told apart on the page


def test_labels_tell_same_name_cities_apart_by_coordinates() -> None:
    north, south = cities.by_id(YICHUN_HEILONGJIANG), cities.by_id(YICHUN_JIANGXI)
    assert north is not None and south is not None
    assert north.label == "Yichun 伊春, CN (Asia/Shanghai), 47.72°N 128.88°E"
    assert south.label == "Yichun 宜春, CN (Asia/Shanghai), 27.83°N 114.40°E"
    # A suggestion taken whole (its label, without the id) names exactly its city.
    assert cities.resolve(north.label) == [north]
    assert cities.resolve(south.label.upper()) == [south]


def test_every_label_names_one_city() -> None:
    table = cities._table()[0]
    assert len({cities._fold(c.label) for c in table}) == len(table)


def test_a_name_of_several_cities_asks_which_one(client: TestClient) -> None:
    r = client.get(f"/chart?{urlencode({**BIRTH, 'place': 'Yichun'})}", follow_redirects=False)
    assert r.status_code == 422  # before: 303 to 宜春, the larger city, without a word
    assert 'id="ziwei-board"' not in r.text
    assert "2 cities match" in r.text
    for city in (YICHUN_HEILONGJIANG, YICHUN_JIANGXI):
        assert f'<input type="radio" name="city" value="{city}">' in r.text
    assert "Yichun 伊春, CN (Asia/Shanghai), 47.72°N 128.88°E" in r.text
    assert "Yichun 宜春, CN (Asia/Shanghai), 27.83°N 114.40°E" in r.text
    # Without JavaScript: the reader ticks 伊春 and submits the same form.
    answer = _submit(r.text, {"city": str(YICHUN_HEILONGJIANG)})
    assert answer["place"] == "Yichun"
    moved = client.get(f"/chart?{urlencode(answer)}", follow_redirects=False)
    assert moved.status_code == 303
    assert parse_qs(urlsplit(moved.headers["location"]).query)["city"] == [str(YICHUN_HEILONGJIANG)]
    page = client.get(moved.headers["location"])
    assert "Using Yichun 伊春, CN (Asia/Shanghai), 47.72°N 128.88°E" in page.text
    # Submitted again without a choice: asked again, never a pick.
    again = client.get(f"/chart?{urlencode(_submit(r.text, {}))}", follow_redirects=False)
    assert again.status_code == 422 and "which one?" in again.text


def test_a_city_id_left_from_the_last_chart_does_not_answer_for_the_place(
    client: TestClient,
) -> None:
    stale = {**BIRTH, "place": "Yichun", "city": str(BEIJING)}
    r = client.get(f"/chart?{urlencode(stale)}", follow_redirects=False)
    assert r.status_code == 422 and "which one?" in r.text
    # and the stale id is not carried as a hidden field beside the question
    assert f'name="city" value="{BEIJING}"' not in r.text


def test_a_suggestion_taken_without_its_id_is_that_city(client: TestClient) -> None:
    label = "Yichun 伊春, CN (Asia/Shanghai), 47.72°N 128.88°E"
    r = client.get(f"/chart?{urlencode({**BIRTH, 'place': label})}", follow_redirects=False)
    assert r.status_code == 303
    assert parse_qs(urlsplit(r.headers["location"]).query)["city"] == [str(YICHUN_HEILONGJIANG)]


def test_the_two_yichuns_give_different_true_solar_hours(client: TestClient) -> None:
    # 12:30 Beijing time on 1984-05-16 (no daylight saving; equation of time about +3.8 min): in 伊春 (128.88°E)
    # the true solar time is about 13:09 (未), in 宜春 (114.40°E) about 12:11 (午).
    def hour(city: int) -> int:
        r = client.get(f"/api/ziwei?{urlencode({**BIRTH, 'city': str(city)})}")
        assert r.status_code == 200, r.text
        return int(r.json()["birth"]["time_index"])

    assert (hour(YICHUN_HEILONGJIANG), hour(YICHUN_JIANGXI)) == (7, 6)


def test_city_suggestions_carry_the_id_and_coordinates(client: TestClient) -> None:
    found = client.get("/api/cities?q=Yichun").json()
    by_id = {c["id"]: c["label"] for c in found}
    assert by_id[YICHUN_HEILONGJIANG].endswith("47.72°N 128.88°E")
    assert by_id[YICHUN_JIANGXI].endswith("27.83°N 114.40°E")


def test_the_api_takes_a_city_id_not_a_name(client: TestClient) -> None:
    r = client.get(f"/api/ziwei?{urlencode({**BIRTH, 'place': 'Yichun'})}")
    assert r.status_code == 422 and "place" in r.text


@pytest.mark.browser
@pytest.mark.skipif(not chromium.installed(), reason="Debian's chromium is not installed")
def test_a_suggestion_taken_in_the_browser_sends_its_city_id(tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    north = "Yichun 伊春, CN (Asia/Shanghai), 47.72°N 128.88°E"
    with serving(tmp_path) as site, sync_playwright() as p:
        browser = chromium.launch(p)
        try:
            page = browser.new_page()
            page.goto(f"{site}/chart?{urlencode(BIRTH)}")
            page.fill("#place", "Yichun")
            # Both Yichuns are offered, told apart by their coordinates.
            page.wait_for_selector("#place-options option:nth-child(2)", state="attached")
            offered = page.eval_on_selector_all(
                "#place-options option", "os => os.map(o => o.value)"
            )
            assert north in offered
            assert "Yichun 宜春, CN (Asia/Shanghai), 27.83°N 114.40°E" in offered
            page.fill("#place", north)  # what taking the suggestion does to the field
            hidden = page.eval_on_selector_all(
                "form.birth input[type=hidden][name=city]", "xs => xs.map(x => x.value)"
            )
            assert hidden == [str(YICHUN_HEILONGJIANG)]
            with page.expect_navigation():
                page.click("form.birth button[type=submit]")
            query = parse_qs(urlsplit(page.url).query)
            assert query["city"] == [str(YICHUN_HEILONGJIANG)] and "place" not in query
            assert "47.72°N 128.88°E" in page.text_content("main")
        finally:
            browser.close()
