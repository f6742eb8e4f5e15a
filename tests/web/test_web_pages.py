"""The chart page and the JSON API against the engines: what the page shows is what the
engine computes, bad input is a message next to its field (HTML) or a 422 naming it (API),
chart URLs are stable and cacheable, and every response carries the security headers."""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from urllib.parse import parse_qs, urlsplit

import pytest
from fastapi.testclient import TestClient

from mingshu import bazi, ziwei
from mingshu.web.security import CSP

NS = {"svg": "http://www.w3.org/2000/svg"}
BIRTH = "date=1987-05-16&time=10:30&gender=female"


def board(html: str, which: str = "ziwei-board") -> ET.Element:  # the inline board
    m = re.search(rf'<div class="\w+" id="{which}"[^>]*>(<svg.*?</svg>)</div>', html, re.S)
    assert m, f"no {which} on the page"
    return ET.fromstring(m.group(1))


def column_links(page: str) -> tuple[str, str]:
    """The phone layout's URLs a chart page names: the script's (with the star links) and
    the image's (without a script), unescaped."""
    m = re.search(
        r'<div class="column" id="ziwei-column"[^>]* data-src="([^"]+)"[^>]*>'
        r'<noscript><picture><source media="\(max-width: 600px\)" srcset="([^"]+)">'
        r'<img src="data:[^"]+" alt="[^"]+"></picture></noscript></div>',
        page,
    )
    assert m, "no phone layout named on the page"
    return html.unescape(m.group(1)), html.unescape(m.group(2))


def stars_by_branch(svg: ET.Element) -> dict[str, set[str]]:
    shown: dict[str, set[str]] = {}
    for g in svg.iter(f"{{{NS['svg']}}}g"):
        if g.get("data-branch"):
            keys = {t.get("data-star") for t in g.iter() if t.get("data-star")}
            shown.setdefault(g.get("data-branch", ""), set()).update(k for k in keys if k)
    return shown


def engine_stars(chart: ziwei.NatalChart) -> dict[str, set[str]]:
    return {p.branch.key: {s.star.key for s in p.stars} for p in chart.palaces}


@pytest.mark.parametrize(
    ("query", "kwargs"),
    [
        (BIRTH, {}),
        ("date=1990-05-15&time=11:30&gender=male&tz=Asia/Shanghai", {"tz": "Asia/Shanghai"}),
        (BIRTH + "&algorithm=zhongzhou", {"settings": ziwei.ZiweiSettings(algorithm="zhongzhou")}),
        ("date=2023-2-20&time=10:00&gender=male&calendar=lunar&leap=1&leap_month=whole",
         {"lunar": True, "leap": True, "settings": ziwei.ZiweiSettings(leap_month="whole")}),
        (BIRTH + "&school=quanshu", {"settings": ziwei.ZiweiSettings(school="quanshu")}),
        ("date=1900-8-1&time=00:30&gender=male&calendar=lunar&leap=1&school=quanshu",
         {"lunar": True, "leap": True, "settings": ziwei.ZiweiSettings(school="quanshu")}),
        ("date=1900-8-1&time=00:30&gender=male&calendar=lunar&leap=1&school=quanshu"
         "&leap_month=split", {"lunar": True, "leap": True,
                               "settings": ziwei.ZiweiSettings(school="quanshu",
                                                               leap_month="split")}),
    ],
)  # fmt: skip
def test_board_shows_the_engines_stars(client: TestClient, query: str, kwargs: dict) -> None:
    params = {k: v[0] for k, v in parse_qs(query).items()}
    r = client.get(f"/chart?{query}")
    assert r.status_code == 200
    expected = ziwei.chart(params["date"], params["time"], params["gender"], **kwargs)
    assert stars_by_branch(board(r.text)) == engine_stars(expected)
    # The phone layout is drawn for a narrow screen only: the page names it (for the
    # script) and its image (without a script).  The same chart, and the same drawing as
    # the board's SVG file in that layout.
    src, image = column_links(r.text)
    fetched = client.get(src)
    assert fetched.status_code == 200
    assert fetched.headers["content-type"] == "image/svg+xml"
    assert fetched.headers["etag"] and "max-age" in fetched.headers["cache-control"]
    svg = ET.fromstring(fetched.text)
    assert svg.get("viewBox", "").split()[2] == "360"
    assert stars_by_branch(svg) == engine_stars(expected)
    column = client.get(f"/chart.svg?{query}&layout=column")
    assert column.headers["content-type"] == "image/svg+xml"
    assert client.get(image).text == column.text
    # The page's layouts link each star's name to its rule (a group of links, not an
    # image); without the links it is the file's drawing.
    drawing = re.sub(r'<a href="[^"]*" class="star-link">(.*?)</a>', r"\1", fetched.text)
    assert column.text == drawing.replace('role="group"', 'role="img"', 1)


def test_a_setting_changes_the_chart(client: TestClient) -> None:
    quanshu = stars_by_branch(board(client.get(f"/chart?{BIRTH}").text))
    zhongzhou = stars_by_branch(board(client.get(f"/chart?{BIRTH}&algorithm=zhongzhou").text))
    assert quanshu != zhongzhou
    assert sum(map(len, zhongzhou.values())) - sum(map(len, quanshu.values())) == 2  # 68 vs 66


def test_the_book_school_changes_the_chart_and_says_how(client: TestClient) -> None:
    from mingshu.ziwei.quanshu import CHANGES

    iztro = client.get(f"/chart?{BIRTH}").text
    book = client.get(f"/chart?{BIRTH}&school=quanshu").text
    assert stars_by_branch(board(iztro)) != stars_by_branch(board(book))
    assert 'data-code="quanshu_school"' in book
    assert 'data-code="quanshu_school"' not in iztro
    notice = re.search(r'<li data-code="quanshu_school">(.*?)</li>', book, re.S)
    assert notice
    for _, text in CHANGES:  # every rule the school changes is named on the chart
        assert text in html.unescape(notice.group(1))
    # The leap-month field follows the school unless set: an empty choice is the school's own.
    assert re.search(r'<option value="" selected>the reading', book)
    # Its article, "The book beside the engine", is linked next to the field.
    school = re.search(r'<select id="school".*?</p>', book, re.S)
    assert school and '<a href="/library/ZW-BK-01">Read more</a>' in school.group(0)
    assert "article planned" not in school.group(0)


def test_the_book_school_in_the_url_and_the_api(client: TestClient) -> None:
    from mingshu.present.ziwei_json import chart_json

    r = client.get(f"/chart?{BIRTH}&leap_month=&school=quanshu&algorithm=quanshu")
    link = re.search(r'<a href="([^"]+)" id="permalink"', r.text)
    assert link and html.unescape(link.group(1)).endswith("gender=female&school=quanshu")
    split = client.get(f"/chart?{BIRTH}&school=quanshu&leap_month=split").text
    link = re.search(r'<a href="([^"]+)" id="permalink"', split)
    assert link and "leap_month=split&school=quanshu" in html.unescape(link.group(1))
    api = client.get(f"/api/ziwei?{BIRTH}&school=quanshu")
    expected = ziwei.chart("1987-05-16", "10:30", "female", settings=ziwei.ZiweiSettings(
        school="quanshu"))  # fmt: skip
    assert api.status_code == 200 and api.content == chart_json(expected)
    assert api.json()["settings"]["school"] == "quanshu"
    params = client.get("/openapi.json").json()["paths"]["/api/ziwei"]["get"]["parameters"]
    school = next(p for p in params if p["name"] == "school")
    assert "quanshu" in school["description"] and "iztro" in school["description"]


def test_hant_switch_shows_traditional_names(client: TestClient) -> None:
    hans = client.get(f"/chart?{BIRTH}").text
    assert 'id="to-hant"' in hans
    hant = client.get(f"/chart?{BIRTH}&names=hant").text
    c = ziwei.chart("1987-05-16", "10:30", "female")
    simplified = {s.star.names.hans for p in c.palaces for s in p.stars}
    traditional = {s.star.names.hant for p in c.palaces for s in p.stars}
    changed = sorted(traditional - simplified)
    assert changed, "the chart has stars whose names differ in 繁體"
    texts_hant = {t.text for t in board(hant).iter() if t.text}
    texts_hans = {t.text for t in board(hans).iter() if t.text}
    assert any(name in "".join(texts_hant) for name in changed)
    assert not any(name in "".join(texts_hans) for name in changed)


def test_notices_are_shown(client: TestClient) -> None:
    r = client.get("/chart?date=1990-05-15&time=11:30&gender=male&tz=Asia/Shanghai")
    c = ziwei.chart("1990-05-15", "11:30", "male", tz="Asia/Shanghai")
    assert c.notices[0].code == "daylight_saving"
    assert 'data-code="daylight_saving"' in r.text
    assert c.notices[0].message.replace("'", "&#39;") in r.text
    late = client.get("/chart?date=1987-05-16&time=23:30&gender=female")
    assert 'data-code="late_rat_hour"' in late.text
    assert 'data-code="late_rat_hour"' not in client.get(f"/chart?{BIRTH}").text
    jie = bazi.chart("2000-01-01", "10:00", "male", tz="Asia/Shanghai").next_jie[1]
    when = f"date={jie:%Y-%m-%d}&time={jie:%H:%M}&gender=male&tz=Asia/Shanghai"
    near_jie = client.get(f"/chart?{when}")
    c = bazi.chart(f"{jie:%Y-%m-%d}", f"{jie:%H:%M}", "male", tz="Asia/Shanghai")
    assert "near_jie" in [n.code for n in c.notices]
    for n in c.notices:
        assert f'data-code="{n.code}"' in near_jie.text


@pytest.mark.parametrize("day", ["1583-01-01", "1811-11-26", "2650-12-31"])
def test_births_across_the_calendar_range(client: TestClient, day: str) -> None:
    # The chart page and both APIs serve the whole range 1583-01-01 .. 2650-12-31 (issue 27).
    query = f"date={day}&time=12:00&gender=male&tz=Etc/GMT-8"
    lunar = ziwei.chart(day, "12:00", "male", tz="Etc/GMT-8").lunar_date.chinese()
    page = client.get(f"/chart?{query}")
    assert page.status_code == 200
    assert lunar in page.text
    for engine in ("ziwei", "bazi"):
        assert client.get(f"/api/{engine}?{query}").status_code == 200, engine


def test_bazi_tables_match_the_engine(client: TestClient) -> None:
    r = client.get(f"/chart?{BIRTH}&city=1816670&year=2026")
    c = bazi.chart("1987-05-16", "10:30", "female", tz="Asia/Shanghai", longitude="116.3972")
    for key, pillar in zip(("year", "month", "day", "hour"), str(c.pillars).split(), strict=True):
        assert f'data-pillar="{key}">{pillar}<' in r.text
    a = c.annual(2026)
    assert f"流年 {a.pillar}" in r.text
    for s in c.stars:
        assert s.variant.label in html.unescape(r.text)  # every star names its table
    assert f">{c.luck.steps[0].pillar}<" in r.text
    table = r.text.split('id="bazi-pillars"')[1].split("</table>")[0]
    rows = {
        m[0]: re.findall(r"<td[^>]*>(.*?)</td>", m[1], re.S)
        for m in re.findall(r"<tr><th[^>]*>([^<]+)</th>(.*?)</tr>", table, re.S)
    }
    details = [c.detail(p) for p in ("year", "month", "day", "hour")]
    assert rows["nayin"] == [d.nayin.names.hans for d in details]
    assert rows["stage (day master)"] == [d.stage.names.hans for d in details]
    hidden = [[f"{h.stem.names.hans} {h.ten_god.names.hans}" for h in d.hidden] for d in details]
    assert [[x for x in cell.split("<br>") if x.strip()] for cell in rows["hidden stems"]] == hidden


@pytest.mark.parametrize(("names", "branch"), [("hans", "午"), ("english", "Horse")])
def test_a_star_found_on_a_branch_is_named_by_that_branch(
    client: TestClient, names: str, branch: str
) -> None:
    # 1958-06-20 10:30 has the pillars 戊戌 戊午 戊辰 丁巳 (lunar-python). 三命通會 卷三 論羊刃:
    # the Goat Blade "常居祿前一辰", one branch past the day master's 祿: 戊's 祿 is 巳, so the
    # blade is 午, found on the month pillar.  午 and the stem 戊 share the key "wu": the page
    # once named this branch 戊.
    page = client.get(f"/chart?date=1958-06-20&time=10:30&gender=male&names={names}")
    lines = [x for x in re.findall(r"<li[^>]*>(.*?)</li>", page.text) if "Goat Blade" in x]
    assert len(lines) == 1
    assert f"month pillar {branch} " in html.unescape(lines[0]) + " "


def test_horoscope_overlay(client: TestClient) -> None:
    plain = client.get(f"/chart?{BIRTH}").text
    r = client.get(f"/chart?{BIRTH}&at=2026-11-29T10:00")
    assert r.status_code == 200
    h = ziwei.chart("1987-05-16", "10:30", "female").horoscope("2026-11-29T10:00")
    layers = {t.get("data-layer") for t in board(r.text).iter() if t.get("data-layer")}
    assert {"decadal", "yearly", "monthly", "daily", "hourly"} <= layers
    assert not {t.get("data-layer") for t in board(plain).iter() if t.get("data-layer")}
    assert str(h.yearly.pillar) in r.text
    # The moment reads as a reader writes it (the form keeps the ISO value it was given).
    line = html.unescape(
        re.sub(r"<[^>]+>", "", r.text.split('id="birth-line">')[1].split("</p>")[0])
    )
    assert line.endswith(" · horoscope at 2026-11-29 10:00"), line
    assert "with the horoscope of 2026-11-29 10:00</small>" in r.text
    assert "T10:00</" not in r.text and 'value="2026-11-29T10:00"' in r.text
    steps = dict(re.findall(r'<a href="([^"]+)">(year →|← month|hour →)</a>', r.text))
    ats = {
        label: parse_qs(urlsplit(href.replace("&amp;", "&")).query)["at"][0]
        for href, label in steps.items()
    }
    assert ats == {
        "year →": "2027-11-29T10:00",
        "← month": "2026-10-29T10:00",
        "hour →": "2026-11-29T12:00",
    }
    nxt = client.get(next(h for h, lb in steps.items() if lb == "year →").replace("&amp;", "&"))
    assert (
        str(
            ziwei.chart("1987-05-16", "10:30", "female").horoscope("2027-11-29T10:00").yearly.pillar
        )
        in nxt.text
    )


def test_unknown_hour_table(client: TestClient) -> None:
    r = client.get("/chart?date=1987-05-16&unknown_hour=1&gender=female")
    assert r.status_code == 200
    rows = re.findall(r"<tr><td>(\d+)</td><td>([^<]+)</td><td>([^<]+)</td>", r.text)
    assert [int(i) for i, _, _ in rows] == list(range(13))
    for i, _hour, life in rows:
        c = ziwei.chart("1987-05-16", int(i), "female")
        assert life == c.life_palace.branch.names.hans
    data = client.get("/api/ziwei/hours?date=1987-05-16&gender=female").json()
    assert [h["life"] for h in data["hours"]] == [
        ziwei.chart("1987-05-16", i, "female").life_palace.branch.names.hans for i in range(13)
    ]
    charts = [ziwei.chart("1987-05-16", i, "female") for i in range(13)]
    assert (
        data["hours"][5]["hour_stars"]["wen_chang"] == charts[5].star("wen_chang").branch.names.hans
    )
    stays = {
        s.star.key
        for p in charts[0].palaces
        for s in p.stars
        if all(c.star(s.star.key).branch == s.branch for c in charts)
    }
    assert len(data["same_in_every_hour"]) == len(stays)
    assert client.get("/api/ziwei/hours?date=1987-02-30&gender=female").status_code == 422
    # With a birth place the thirteen hours are the same (a whole double hour has no clock).
    placed = client.get("/api/ziwei/hours?date=1987-05-16&gender=female&city=1816670&true_solar=1")
    assert placed.status_code == 200 and placed.json()["hours"] == data["hours"]
    assert (
        client.get("/chart?date=1987-05-16&unknown_hour=1&gender=female&city=1816670").status_code
        == 200
    )


def test_star_page_names_rule_and_inputs(client: TestClient) -> None:
    r = client.get(f"/chart/star/wen_chang?{BIRTH}")
    c = ziwei.chart("1987-05-16", "10:30", "female")
    assert r.status_code == 200
    assert c.star("wen_chang").star.verse in r.text
    assert f'birth hour: <strong lang="zh-Hans">{c.hour.names.hans}</strong>' in r.text
    assert client.get(f"/chart/star/nope?{BIRTH}").status_code == 404


def test_stable_url_reloads_the_same_chart(client: TestClient) -> None:
    r = client.get(f"/chart?{BIRTH}&late_rat_hour=same_day&at=2026-01-02")
    link = re.search(r'href="([^"]+)" id="permalink"', r.text)
    assert link
    again = client.get(link.group(1).replace("&amp;", "&"))
    assert again.status_code == 200
    assert again.headers["etag"] == r.headers["etag"]
    assert again.text == r.text


def test_city_search_redirects_to_a_city_url(client: TestClient) -> None:
    r = client.get(f"/chart?{BIRTH}&place=北京", follow_redirects=False)
    assert r.status_code == 303
    assert parse_qs(urlsplit(r.headers["location"]).query)["city"] == ["1816670"]
    page = client.get(r.headers["location"])
    assert "Beijing 北京, CN (Asia/Shanghai), 39.91°N 116.40°E" in page.text
    assert client.get(f"/chart?{BIRTH}&place=Xqzzyy").status_code == 422
    moved = client.get(f"/chart?{BIRTH}&city=1816670&place=Zürich", follow_redirects=False)
    assert parse_qs(urlsplit(moved.headers["location"]).query)["city"] == ["2657896"]
    cities = client.get("/api/cities?q=Zür").json()
    assert cities[0]["timezone"] == "Europe/Zurich"
    assert client.get("/api/cities?q=上海").json()[0]["name"] == "Shanghai"


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("date=1987-02-30&time=10:30&gender=female", "date"),
        ("date=1987-5-16&time=25:00&gender=female", "time"),
        ("date=1987-5-16&time=10:30&gender=x", "gender"),
        ("date=1987-5-16&time=10:30", "gender"),
        ("time=10:30&gender=female", "date"),
        ("date=1987-5-16&time=10:30&gender=female&tz=Mars/Olympus", "tz"),
        ("date=1987-5-16&time=10:30&gender=female&lon=999&tz=Asia/Shanghai", "lon"),
        ("date=1987-5-16&time=10:30&gender=female&leap=1", "leap"),
        ("date=1987-5-16&time=10:30&gender=female&algorithm=nope", "algorithm"),
        ("date=1987-5-16&time=10:30&gender=female&school=nope", "school"),
        ("date=1987-5-16&time=10:30&gender=female&school=quanshu&algorithm=zhongzhou", "school"),
        ("date=1987-5-16&time=10:30&gender=female&at=yesterday", "at"),
        ("date=1987-5-16&time=10:30&gender=female&at=1980-01-01", "at"),
        ("date=1987-5-16&time=10:30&gender=female&year=1900", "year"),
        ("date=1987-5-16&time=10:30&gender=female&city=abc", "city"),
        ("date=1987-5-16&time=10:30&gender=female&star=wen_chang:w9", "star_variants"),
        ("date=2651-01-01&time=10:30&gender=female", "date"),
        ("date=1990-04-15&time=02:30&gender=female&tz=Asia/Shanghai", "time"),
    ],
)
def test_bad_input_message_next_to_the_field(client: TestClient, query: str, field: str) -> None:
    html = client.get(f"/chart?{query}")
    assert html.status_code == 422
    assert "Traceback" not in html.text
    api = client.get(f"/api/ziwei?{query}") if field not in ("year", "star_variants") else None
    if field in ("at",):
        api = client.get(f"/api/ziwei/horoscope?{query}")
    if field in ("year", "star_variants"):
        api = client.get(f"/api/bazi?{query}")
    assert api is not None and api.status_code == 422
    fields = [d["loc"][-1] for d in api.json()["detail"]]
    assert field in fields or (field == "star_variants" and "star" in fields)
    shown = "star" if field == "star_variants" else field
    assert f'id="err-{shown}"' in html.text


def test_api_matches_the_engine_and_caches(client: TestClient) -> None:
    from mingshu.present import chart_to_dict

    r = client.get(f"/api/ziwei?{BIRTH}")
    assert r.status_code == 200
    assert r.json() == chart_to_dict(ziwei.chart("1987-05-16", "10:30", "female"))
    assert "max-age=31536000" in r.headers["cache-control"]
    again = client.get(f"/api/ziwei?{BIRTH}", headers={"If-None-Match": r.headers["etag"]})
    assert again.status_code == 304 and not again.content
    b = client.get(f"/api/bazi?{BIRTH}&tz=Asia/Shanghai&year=2030").json()
    c = bazi.chart("1987-05-16", "10:30", "female", tz="Asia/Shanghai")
    assert b["pillars"]["day"] == str(c.pillars.day) and b["annual"]["year"] == 2030
    h = client.get(f"/api/ziwei/horoscope?{BIRTH}&at=2026-11-29T10:00").json()
    assert h["schema"] == "mingshu.ziwei.horoscope/1"


class _Scripts(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.inline: list[str] = []
        self.styles: list[str] = []
        self.handlers: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "script" and not a.get("src"):
            self.inline.append(tag)
        if "style" in a:
            self.styles.append(tag)
        self.handlers += [k for k in a if k.startswith("on")]


@pytest.mark.parametrize(
    "path",
    [
        "/",
        f"/chart?{BIRTH}&at=2026-01-01",
        "/chart?date=1987-05-16&unknown_hour=1&gender=female",
        f"/chart/star/en_guang?{BIRTH}",
        "/settings",
        "/library",
        "/library/ZW-AUX-17",
        "/library/BZ-SS-02",
        "/api/health",
        "/nope",
    ],
)
def test_security_headers_and_no_inline_script(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.headers["content-security-policy"] == CSP
    assert "'unsafe-inline'" not in CSP and "script-src 'self'" in CSP
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["x-frame-options"] == "DENY"
    assert r.headers["referrer-policy"] == "same-origin"
    if r.headers["content-type"].startswith("text/html"):
        p = _Scripts()
        p.feed(r.text)
        assert p.inline == [] and p.styles == [] and p.handlers == []


def test_user_text_is_escaped(client: TestClient) -> None:
    evil = "<script>alert(1)</script>"
    r = client.get(f"/chart?date={evil}&time=10:30&gender=female")
    assert r.status_code == 422
    assert "<script>alert" not in r.text and "&lt;script&gt;" in r.text
    r = client.get(f"/chart?{BIRTH}&place=%22%3E%3Cimg%20src=x%3E")
    assert "<img src=x>" not in r.text


def test_chart_names_are_covered_by_the_shipped_font(client: TestClient) -> None:
    from fontTools.ttLib import TTFont

    r = client.get("/fonts/NotoSansCJKsc-Subset.otf")
    assert r.status_code == 200 and len(r.content) > 100_000
    assert "@font-face" in client.get("/static/site.css").text
    cmap = TTFont("src/mingshu/web/fonts/NotoSansCJKsc-Subset.otf").getBestCmap()
    for query in (BIRTH, BIRTH + "&names=hant&at=2026-11-29T10:00"):
        texts = "".join(t.text or "" for t in board(client.get(f"/chart?{query}").text).iter())
        missing = sorted({c for c in texts if ord(c) > 0x7F and ord(c) not in cmap})
        assert not missing, missing


def test_a_server_error_shows_no_traceback(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mingshu.web import api, create_app, pages

    def boom(*_: object) -> bytes:
        raise RuntimeError("secret internals")

    monkeypatch.setattr(pages, "chart_page_bytes", boom)
    monkeypatch.setattr(api, "_ziwei_raw", boom)
    with TestClient(create_app(sqlite_url), raise_server_exceptions=False) as c:
        page = c.get(f"/chart?{BIRTH}")
        assert page.status_code == 500
        assert "secret internals" not in page.text and "Traceback" not in page.text
        assert page.headers["content-security-policy"] == CSP
        api_r = c.get(f"/api/ziwei?{BIRTH}")
        assert api_r.status_code == 500 and api_r.json() == {"detail": "internal error"}


def test_svg_file_of_a_chart(client: TestClient) -> None:
    assert client.get(f"/chart.svg?{BIRTH}&at=2026-11-29T10:00").status_code == 200
    r = client.get(f"/chart.svg?{BIRTH}")
    assert r.status_code == 200 and r.headers["content-type"] == "image/svg+xml"
    assert r.headers["content-security-policy"] == CSP and "etag" in r.headers
    c = ziwei.chart("1987-05-16", "10:30", "female")
    assert stars_by_branch(ET.fromstring(r.text)) == engine_stars(c)
    bad = client.get(f"/chart.svg?{BIRTH}&layout=nope")
    assert bad.status_code == 422 and 'id="err-layout"' in bad.text
    assert client.get("/chart.svg?date=1987-02-30&time=10:30&gender=female").status_code == 422


@pytest.mark.parametrize(
    ("extra", "field"),
    [("year=1800", "year"), ("star=wen_chang=nope", "star"), ("star=nope:w2", "star")],
)
def test_the_board_files_check_the_bazi_fields_their_link_carries(
    client: TestClient, extra: str, field: str
) -> None:
    # The SVG and PNG draw the Zi Wei board only; a bad BaZi field was ignored (200).
    assert client.get(f"/chart?{BIRTH}&{extra}").status_code == 422
    for path in ("/chart.svg", "/chart.png"):
        r = client.get(f"{path}?{BIRTH}&{extra}")
        assert r.status_code == 422 and f'id="err-{field}"' in r.text, (path, r.status_code)
    assert client.get(f"/chart.svg?{BIRTH}&year=2026&star=wen_chang:w2").status_code == 200


@pytest.mark.parametrize(
    ("query", "field"),
    [("q=Beijing&nope=1", "nope"), ("q=Beijing&limit=5&limit=6", "limit"), ("q=a&q=b", "q")],
)
def test_city_search_refuses_unknown_and_repeated_parameters(
    client: TestClient, query: str, field: str
) -> None:
    r = client.get(f"/api/cities?{query}")
    assert r.status_code == 422
    assert [e["loc"] for e in r.json()["detail"]] == [["query", field]]
    assert client.get("/api/cities?q=Beijing&limit=5").status_code == 200


def settings_fieldset(page: str) -> str:
    m = re.search(r'<fieldset class="settings">.*?</fieldset>', page, re.S)
    assert m, "no settings fieldset on the page"
    return m.group(0)


def test_a_chart_pages_settings_form_is_the_forms_own(client: TestClient) -> None:
    # A chart page splices in a settings fieldset rendered once per (settings, stars,
    # language); the form page with a wrong date renders it afresh.  Both must agree for
    # each settings and language, asked in turn (a cache keyed on too little would repeat
    # the first answer).
    for extra in ("", "&lang=zh-Hans", "&school=quanshu", "&school=quanshu&lang=zh-Hans",
                  "&school=quanshu&leap_month=split", "&algorithm=zhongzhou&lang=zh-Hans",
                  "&algorithm=zhongzhou&year_boundary=spring_begins", "&algorithm=zhongzhou",
                  ""):  # fmt: skip
        chart = client.get(f"/chart?{BIRTH}{extra}")
        form = client.get(f"/chart?date=1987-02-30&time=10:30&gender=female{extra}")
        assert chart.status_code == 200 and form.status_code == 422
        assert settings_fieldset(chart.text) == settings_fieldset(form.text), extra
    zh = settings_fieldset(client.get(f"/chart?{BIRTH}&lang=zh-Hans").text)
    assert zh != settings_fieldset(client.get(f"/chart?{BIRTH}").text)


@pytest.mark.parametrize("extra", ["&at=2020-03-04", "&at=2020-03-04T10:15&year=2031"])
def test_the_horoscope_links_keep_the_rest_of_the_query(client: TestClient, extra: str) -> None:
    # The timeline and the steps change only ``at``: every other field stays, and each
    # link is the canonical query string the site itself redirects to.
    from mingshu.web.query import parse

    page = client.get(f"/chart?{BIRTH}&school=quanshu&names=hant{extra}").text
    found = re.findall(r'href="(/chart\?[^"#]*at=[^"#]*)#chart"', page)
    # (the names switch's links change the names too; they are not these)
    hrefs = [html.unescape(h) for h in found if "names=hant" in h]
    assert len(hrefs) > 15
    own = parse_qs(f"{BIRTH}&school=quanshu&names=hant{extra}")
    for href in hrefs:
        query = urlsplit(href).query
        fields = parse_qs(query)
        assert parse(fields).query_string() == query
        assert {k: v for k, v in fields.items() if k != "at"} == {
            k: v for k, v in own.items() if k != "at"
        }


def test_a_wrong_date_keeps_the_books_own_leap_month(client: TestClient) -> None:
    # The form sent again from the error page must mean what it meant: a 全书 reading that
    # left leap_month out keeps "the reading's own" chosen, not iztro's split.
    page = client.get("/chart?date=1987-02-30&time=10:30&gender=female&school=quanshu").text
    select = re.search(r'<select id="leap_month".*?</select>', page, re.S)
    assert select
    chosen = re.findall(r'<option value="([^"]*)" selected', select.group(0))
    assert chosen == [""]
