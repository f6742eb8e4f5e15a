"""The interface in English and 简体中文 (``lang=zh-Hans``): no English chrome left on a
Chinese page, every catalogue entry used, Chinese runs marked with their language, and the
language kept in the chart's URL."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from importlib.resources import files
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
import tomli
from fastapi.testclient import TestClient

from mingshu import library
from mingshu.bazi import STARS
from mingshu.web import cities
from mingshu.web.settings_help import HELP, LABELS, WORDS

BIRTH = "date=1987-05-16&time=10:30&gender=female"
PAGES = (
    "/",
    "/settings",
    f"/chart?{BIRTH}&at=2026-03-01&year=2026&city=1816670&true_solar=1",
    f"/chart?{BIRTH}&names=hant",
    "/chart?date=1987-05-16&unknown_hour=1&gender=female",
    f"/chart/star/wen_chang?{BIRTH}",
    f"/chart/star/zi_wei?{BIRTH}",
    f"/chart/star/tian_ji?{BIRTH}",
    "/chart?date=1987-02-30&time=25:00&gender=x",  # errors next to their fields
    "/chart?date=1990-05-15&time=23:30&gender=male&tz=Asia/Shanghai",  # late Rat, DST
    "/pillars?pillars=庚辰+甲申+丙午+庚寅&from=1930&to=2100",
    "/pillars?pillars=甲子+甲子+甲子+甲子",  # none found
    "/pillars?pillars=庚辰+甲申&from=1500&to=1400",  # errors next to their fields
    "/pillars?pillars=庚辰+甲申",
    "/pillars?pillars=庚辰+甲申+丙午+庚卯",
    "/library/stars/ziwei",
    "/library/stars/bazi?names=english",
)
# Words a Chinese page keeps in Latin letters: names of formats, programs, sources and
# keys a reader types (the URL's words), and the names switch's own "English"/"pinyin".
ALLOWED = {
    "API", "JSON", "SVG", "PNG", "mingshu", "GeoNames", "CC", "BY", "iztro", "UTC", "Enter",
    "YYYY", "MM", "DD", "THH", "HH", "lunar-python", "tyme4py", "tyme", "py", "China",
    "English", "pinyin", "male", "female", "KEY", "VARIANT", "BZ-SS", "split", "whole",
    "next", "true_solar", "late_rat_hour", "fold", "E", "x",
}  # fmt: skip
CATALOGUE = tomli.loads(
    (files("mingshu.web") / "data" / "messages-zh-Hans.toml").read_text("utf-8")
)


class _Text(HTMLParser):
    """Visible text, leaving out the board (names, not chrome), scripts, ``<code>``
    (setting keys a reader types), the star-table menu and each star's source line (book
    and file names as written), a city's name as the city table gives it and a star's
    pinyin and English names, with the lang of the element each run is in."""

    SKIP = frozenset({"svg", "script", "style", "code", "title"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, str | None, bool]] = []
        self.runs: list[tuple[str, str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("br", "input", "meta", "link", "img", "wbr"):
            return
        a = dict(attrs)
        skip = (
            tag in self.SKIP
            or a.get("id") in ("star", "names-switch", "lang-switch")
            or a.get("class") in ("source", "place", "names")
            or (bool(self.stack) and self.stack[-1][2])
        )
        lang = a.get("lang") or (self.stack[-1][1] if self.stack else None)
        self.stack.append((tag, lang, skip))

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        if data.strip() and not (self.stack and self.stack[-1][2]):
            top = self.stack[-1] if self.stack else ("", None, False)
            self.runs.append((data, top[1] or "", top[0]))


def _runs(page: str) -> list[tuple[str, str]]:
    return [(t, lang) for t, lang, _ in _tagged_runs(page)]


def _tagged_runs(page: str) -> list[tuple[str, str, str]]:
    p = _Text()
    p.feed(page)
    return p.runs


def _table_labels() -> list[str]:
    # The BaZi tables' labels name their book and rule as the data file writes them.
    return sorted({v.label for s in STARS for v in s.variants}, key=len, reverse=True)


@pytest.mark.parametrize("path", PAGES)
def test_no_english_chrome_on_a_chinese_page(client: TestClient, path: str) -> None:
    url = f"{path}{'&' if '?' in path else '?'}lang=zh-Hans"
    page = client.get(url).text
    assert '<html lang="zh-Hans">' in page
    text = " ".join(t for t, _ in _runs(page))
    articles = library.load().articles  # articles stay English: their ids and titles
    titles = [text for a in articles for text in (a.title, a.id)]
    for label in [*_table_labels(), *(c.label for c in cities.resolve("北京")), *titles]:
        text = text.replace(label, " ")  # data as written: a table's book, a city's names
    words = set(re.findall(r"[A-Za-z][A-Za-z_-]*[A-Za-z]|[A-Za-z]", text)) - ALLOWED
    assert not words, sorted(words)


def test_every_catalogue_entry_is_used() -> None:
    web = files("mingshu.web")
    # The web's own files, and the modules whose words the web shows: the rule lines
    # (present.star_rules) and the star catalogue (library.catalogue, library.render).
    package = Path(str(web)).parent
    shown = [
        package / "present" / "star_rules.py",
        package / "library" / "catalogue.py",
        package / "library" / "render.py",
    ]
    source = "\n".join(
        p.read_text("utf-8")
        for p in [
            *Path(str(web)).rglob("*.py"),
            *Path(str(web / "templates")).glob("*.html"),
            *shown,
        ]
    )
    engine = "\n".join(p.read_text("utf-8") for p in Path(str(web)).parent.rglob("*.py"))
    # The settings' words are split over several source lines: their values count.
    source += "\n".join([*HELP.values(), *LABELS.values(), *WORDS.values()])
    unused = []
    for key in CATALOGUE["messages"]:
        if key in source:
            continue
        # Words the code composes: notice codes ("daylight_saving" shown "daylight saving"),
        # the horoscope steps ("← year"), hit positions ("year pillar"), a capital.
        bare = key.strip("←→ ").removesuffix(" pillar")
        if f'"{key.replace(" ", "_")}"' in engine or f'"{bare}"' in source:
            continue
        if key[:1].lower() + key[1:] in source:  # capitalized at the start of a sentence
            continue
        unused.append(key)
    assert not unused
    for pattern in CATALOGUE["pattern"]:
        groups = re.compile(pattern["en"]).groups
        used = {int(n) for n in re.findall(r"\{(\d+)\}", pattern["text"])}
        assert used == set(range(groups)), pattern


@pytest.mark.parametrize("path", PAGES)
def test_chinese_runs_carry_their_language(client: TestClient, path: str) -> None:
    page = client.get(path).text  # the English interface
    assert '<html lang="en">' in page
    cjk = re.compile(r"[\u3400-\u9fff]")
    # Every run of Chinese alone (names, table cells, headings, a menu's Chinese choice)
    # is marked; Chinese terms inside an English sentence ("the lunar new year (正月初一)")
    # are read with the sentence.
    unmarked = [
        t for t, lang, _ in _tagged_runs(page)
        if cjk.search(t) and not re.search("[A-Za-z]", t) and not lang.startswith("zh")
    ]  # fmt: skip
    assert not unmarked, unmarked[:10]


def test_the_language_stays_in_the_chart_url(client: TestClient) -> None:
    page = client.get(f"/chart?{BIRTH}&lang=zh-Hans&at=2026-03-01").text
    hrefs = [h.replace("&amp;", "&") for h in re.findall(r'href="([^"]+)"', page)]
    charts = [h for h in hrefs if h.startswith(("/chart", "/chart.svg", "/chart.png"))]
    switch = page.split('id="lang-switch"')[1].split("</span>")[0]
    kept = [h for h in charts if h.replace("&", "&amp;") not in switch]
    assert len(kept) > 20
    for h in kept:
        assert parse_qs(urlsplit(h).query).get("lang") == ["zh-Hans"], h
    # The JSON links go to the API, which has no interface language.
    for h in hrefs:
        if h.startswith("/api/"):
            assert "lang=" not in h and client.get(h).status_code == 200, h
    assert '<input type="hidden" name="lang" value="zh-Hans">' in page
    english = re.search(r'href="([^"]+)"[^>]*id="to-lang-en"', page)
    assert english
    back = client.get(english.group(1).replace("&amp;", "&")).text
    assert '<html lang="en">' in back and "Draw the chart" in back


def test_an_unknown_language_is_refused_on_its_field(client: TestClient) -> None:
    r = client.get(f"/chart?{BIRTH}&lang=fr")
    assert r.status_code == 422
    assert 'id="err-lang"' in r.text


@pytest.mark.parametrize("path", ["/chart", "/chart/column.svg", "/chart.svg"])
def test_the_boards_notices_are_in_the_pages_language(client: TestClient, path: str) -> None:
    """A notice drawn in the board's centre (here: summer time in Beijing, 1987) is a
    notice like those under the form: Chinese on a Chinese page, in every drawing of the
    board (the page, the phone layout, the download)."""
    birth = f"{BIRTH}&city=1816670"
    notices = {}
    for lang in ("en", "zh-Hans"):
        svg = client.get(f"{path}?{birth}&lang={lang}").text
        found = re.findall(r'<text[^>]*class="notice"[^>]*>(.*?)</text>', svg, re.S)
        assert len(found) == 1, (lang, found)
        notices[lang] = re.sub(r"<[^>]+>", " ", found[0])
    assert "daylight saving time" in " ".join(notices["en"].split())
    assert "夏令时" in notices["zh-Hans"]
    assert not re.search("[A-Za-z]{2,}", notices["zh-Hans"].replace("UTC", "")), notices
