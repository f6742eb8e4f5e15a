"""The names switch (简体, 繁體, pinyin, English) on every chart section: each name on the
page is the one the shipped name data gives in that form, and the switch stays in the URL
(links, the form, the horoscope strip, the downloads)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from importlib.resources import files
from urllib.parse import parse_qs, urlsplit

import pytest
import tomli
from fastapi.testclient import TestClient

from mingshu import bazi, ziwei

BIRTH = "date=1987-05-16&time=10:30&gender=female"
STYLES = ("hans", "hant", "pinyin", "english")
SVG = "{http://www.w3.org/2000/svg}"


def _table(package: str, file: str) -> dict[str, list[dict[str, str]]]:
    # The data files themselves (not the engine's reading of them) are the authority here.
    return tomli.loads((files(package) / "data" / file).read_text("utf-8"))


def _cycles() -> dict[str, list[dict[str, str]]]:
    return tomli.loads((files("mingshu.cycles") / "cycles.toml").read_text("utf-8"))


STAR_NAMES = {s["key"]: s for s in _table("mingshu.ziwei", "stars.toml")["star"]}
PALACE_NAMES = {p["key"]: p for p in _table("mingshu.ziwei", "chart.toml")["palace"]}
STEMS = {s["key"]: s for s in _cycles()["stem"]}
BRANCHES = {b["key"]: b for b in _cycles()["branch"]}


def _pillar(stem: str, branch: str, style: str) -> str:
    # Pillars are pinyin in the Latin forms (as the board writes them), else the characters.
    form = "pinyin" if style in ("pinyin", "english") else style
    return STEMS[stem][form] + BRANCHES[branch][form]


def _board(page: str) -> ET.Element:
    m = re.search(r'id="ziwei-board"[^>]*>(<svg.*?</svg>)</div>', page, re.S)
    assert m, "no board"
    return ET.fromstring(m.group(1))


@pytest.mark.parametrize("style", STYLES)
def test_board_names_are_the_name_data_in_each_form(client: TestClient, style: str) -> None:
    page = client.get(f"/chart?{BIRTH}&names={style}").text
    svg = _board(page)
    stars = palaces = pillars = 0
    for g in svg.iter(f"{SVG}g"):
        if not g.get("data-branch"):
            continue
        # A name's words after the first are unclassed tspans (a brightness or a mutagen
        # has a class), and a long name wraps onto lines marked data-part-of its star.
        parts: dict[str, list[str]] = {}
        for t in g.iter(f"{SVG}text"):
            key = t.get("data-star") or t.get("data-part-of")
            if key:
                words = [t.text or ""] + [s.text or "" for s in t if not s.get("class")]
                parts.setdefault(key, []).extend(w.strip() for w in words if w.strip())
            elif t.get("class") == "palace-name":
                assert t.text == PALACE_NAMES[g.get("data-palace", "")][style]
                palaces += 1
            elif t.get("class") == "stem-branch":
                want = _pillar(g.get("data-stem", ""), g.get("data-branch", ""), style)
                assert t.text == want, (style, t.text, want)
                pillars += 1
        for key, texts in parts.items():
            assert " ".join(texts) == STAR_NAMES[key][style], (style, key, texts)
            stars += 1
    chart = ziwei.chart("1987-05-16", "10:30", "female")
    assert stars == sum(len(p.stars) for p in chart.palaces)
    assert palaces == 12 and pillars == 12


class _Cells(HTMLParser):
    """The text of each table cell of one table, row by row."""

    def __init__(self, table_id: str) -> None:
        super().__init__()
        self.table_id, self.inside, self.rows = table_id, False, []  # type: ignore[var-annotated]
        self.cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table" and dict(attrs).get("id") == self.table_id:
            self.inside = True
        elif self.inside and tag == "tr":
            self.rows.append([])
        elif self.inside and tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self.inside = False
        elif self.inside and tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append("".join(self.cell).strip())
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def _cells(page: str, table_id: str) -> list[list[str]]:
    p = _Cells(table_id)
    p.feed(page)
    return p.rows


@pytest.mark.parametrize("style", STYLES)
def test_bazi_tables_in_each_form(client: TestClient, style: str) -> None:
    page = client.get(f"/chart?{BIRTH}&names={style}").text
    chart = bazi.chart("1987-05-16", "10:30", "female")
    rows = {r[0]: r[1:] for r in _cells(page, "bazi-pillars")}
    pillars = [chart.pillars.year, chart.pillars.month, chart.pillars.day, chart.pillars.hour]
    want = [_pillar(p.stem.key, p.branch.key, style) for p in pillars]
    assert rows["pillar"] == want
    # Each pillar's void (旬空): its two branches, as one word like a pillar, but English
    # names as words of their own ("Dog, Pig", not "DogPig").
    # The void of a pillar in the decade (旬) that starts at 甲: the two branches after the
    # decade's tenth, i.e. branch − stem + 10 and + 11 (mod 12), counted here from the data
    # file's order of the stems and branches.
    stems, branches = list(STEMS), list(BRANCHES)
    joiner = ", " if style == "english" else ""
    want_void = []
    for p in pillars:
        first = branches.index(p.branch.key) - stems.index(p.stem.key) + 10
        keys = (branches[first % 12], branches[(first + 1) % 12])
        want_void.append(joiner.join(BRANCHES[k][style] for k in keys))
    assert rows["void"] == want_void
    luck = _cells(page, "bazi-luck")[1:]
    assert [r[1] for r in luck] == [
        _pillar(s.pillar.stem.key, s.pillar.branch.key, style) for s in chart.luck.steps
    ][: len(luck)]
    # 命宫/身宫 after 胎元 in the page's form, their pillars too.
    line = re.sub(r"<[^>]+>", "", page.split("胎元", 1)[1].split("</p>", 1)[0])
    life = PALACE_NAMES["life"][style]
    assert life in line, (style, line)
    if style == "english":
        assert "命宫" not in line and "Heavenly" not in line.split(life)[0]


@pytest.mark.parametrize("style", STYLES)
def test_unknown_hour_table_in_each_form(client: TestClient, style: str) -> None:
    page = client.get(f"/chart?date=1987-05-16&unknown_hour=1&gender=female&names={style}").text
    rows = _cells(page, "unknown-hour")
    assert rows[0][2] == PALACE_NAMES["life"][style]
    charts = [ziwei.chart("1987-05-16", t, "female") for t in ("00:30", "12:00")]
    for row, c in zip((rows[1], rows[7]), charts, strict=True):
        assert row[2] == BRANCHES[c.life_palace.branch.key][style]
        majors = " ".join(STAR_NAMES[s.star.key][style] for s in c.life_palace.major_stars)
        assert row[5] == (majors or "—")


@pytest.mark.parametrize("style", STYLES)
def test_star_page_in_each_form(client: TestClient, style: str) -> None:
    page = client.get(f"/chart/star/wen_chang?{BIRTH}&names={style}").text
    c = ziwei.chart("1987-05-16", "10:30", "female")
    title = re.sub(r"<[^>]+>", "", page.split('id="star-title">')[1].split("</h1>")[0])
    assert title.startswith(STAR_NAMES["wen_chang"][style])
    palace = c.palace_at(c.star("wen_chang").branch).name.key
    assert f">{PALACE_NAMES[palace][style]}</strong> palace" in page
    assert 'id="names-switch"' in page


def _hrefs(page: str) -> list[str]:
    return [h.replace("&amp;", "&") for h in re.findall(r'href="([^"]+)"', page)]


@pytest.mark.parametrize("style", ["hant", "pinyin", "english"])
def test_the_names_form_stays_in_the_chart_url(client: TestClient, style: str) -> None:
    url = f"/chart?{BIRTH}&names={style}&at=2026-03-01"
    page = client.get(url).text
    links = [h for h in _hrefs(page) if h.startswith(("/chart", "/chart.svg", "/chart.png"))]
    # Every chart link (permalink, the horoscope strip and steps, the star links, the board
    # downloads) keeps the form, but the switch's own links to the other forms.
    switch = {h for h in _hrefs(page.split('id="names-switch"')[1].split("</nav>")[0])}
    kept = [h for h in links if h not in switch and "date=" in h]
    assert len(kept) > 20
    for h in kept:
        assert parse_qs(urlsplit(h).query).get("names") == [style], h
    # The switch leads to each other form, and back: the URL round-trips.
    targets = {parse_qs(urlsplit(h).query).get("names", ["hans"])[0]: h for h in switch}
    assert set(targets) == set(STYLES) - {style}
    back = client.get(targets["hans"]).text
    again = [h for h in _hrefs(back) if f"names={style}" in h and "names-switch" not in h]
    assert any(urlsplit(h).path == "/chart" and parse_qs(urlsplit(h).query)
               == parse_qs(urlsplit(url).query) for h in again)  # fmt: skip
    # The redraw form carries it as a hidden field.
    assert f'<input type="hidden" name="names" value="{style}">' in page


def test_an_unknown_names_form_is_refused(client: TestClient) -> None:
    r = client.get(f"/chart?{BIRTH}&names=klingon")
    assert r.status_code == 422
    assert 'id="err-names"' in r.text
