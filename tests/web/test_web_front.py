"""The chart page as a reader meets it (issue 24): the first screen, the folded settings and
absent symbolic stars, the feedback form once, the reader's words on the star page, and the
smaller faults the issue lists.  Expected values come from the engines and data files, or
from the issue's own text."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from fastapi.testclient import TestClient

from mingshu import bazi, ziwei
from mingshu.web.library import library as site_library

from .test_web_pages import column_links

BIRTH = "date=1987-05-16&time=10:30&gender=female"


class Elements(HTMLParser):
    """Every start tag with its attributes, and the fieldset legends' text."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.stack: list[str] = []
        self.radio_parents: list[list[str]] = []
        self.legends: list[str] = []
        self._in_legend = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.tags.append((tag, a))
        if tag == "input" and a.get("type") == "radio":
            self.radio_parents.append(list(self.stack))
        if tag not in ("input", "br", "meta", "link", "img", "option"):
            self.stack.append(tag)
        self._in_legend = tag == "legend"

    def handle_endtag(self, tag: str) -> None:
        if tag in self.stack:
            while self.stack.pop() != tag:
                pass
        self._in_legend = False

    def handle_data(self, data: str) -> None:
        if self._in_legend and data.strip():
            self.legends.append(data.strip())


def parse(html: str) -> Elements:
    p = Elements()
    p.feed(html)
    return p


def test_home_settings_are_folded_under_a_line_naming_the_choices(client: TestClient) -> None:
    page = client.get("/").text
    fold = re.search(r'<details id="settings-fold"\s*(open)?\s*><summary>(.*?)</summary>', page)
    assert fold, "the settings fold"
    assert fold.group(1) is None  # closed on the first screen
    line = fold.group(2)
    assert "iztro 2.6.0" in line and "全书 Quan Shu" in line and "天盘" in line
    # A changed setting is named on the line; a settings error opens the fold.
    changed = client.get(f"/chart?{BIRTH}&age_count=birthday").text
    assert "lunar birthday" in re.search(r'id="settings-fold".*?</summary>', changed, re.S).group(0)
    bad = client.get(f"/chart?{BIRTH}&age_count=never").text
    assert re.search(r'<details id="settings-fold"\s*open', bad)


def test_first_screen_fields_come_before_every_fold(client: TestClient) -> None:
    page = client.get("/").text
    first = page.split("<details")[0]
    for field in ('id="date"', 'name="calendar"', 'id="time"', 'name="unknown_hour"',
                  'name="gender"', 'id="place"', 'type="submit"'):  # fmt: skip
        assert field in page
        if field != 'type="submit"':
            assert field in first, f"{field} is folded away"
    for folded in ('id="tz"', 'id="lon"', 'id="at"', 'id="year"', 'id="school"'):
        assert folded not in first


def test_radio_groups_are_fieldsets_with_a_legend(client: TestClient) -> None:
    p = parse(client.get("/").text)
    assert p.radio_parents, "the form has radio buttons"
    for parents in p.radio_parents:
        assert "fieldset" in parents
    assert "Calendar" in p.legends and "Gender" in p.legends


def test_after_drawing_the_board_comes_before_the_form(client: TestClient) -> None:
    page = client.get(f"/chart?{BIRTH}").text
    assert page.index('id="ziwei-board"') < page.index('<form class="birth"')
    assert page.count('<form class="birth"') == 1


def test_symbolic_stars_present_listed_absent_folded(client: TestClient) -> None:
    page = client.get(f"/chart?{BIRTH}").text
    chart = bazi.chart("1987-05-16", "10:30", "female", tz="Asia/Shanghai")
    found = [s for s in chart.stars if s.found]
    absent = [s for s in chart.stars if not s.found]
    assert found and absent
    shown = page.split('id="bazi-stars"')[1].split("</ul>")[0]
    folded = page.split('id="bazi-stars-absent"')[1].split("</details>")[0]
    assert shown.count("<li") == len(found) and folded.count("<li") == len(absent)
    for s in found:
        assert s.star.names.hans in shown and s.star.names.hans not in folded
    assert "no " not in re.sub(r"<[^>]+>", "", shown).split("(")[0]


def test_feedback_question_once_on_the_site_and_not_in_the_static_build(
    client: TestClient,
) -> None:
    lib = site_library()
    a = lib.articles[0]
    page = client.get(f"/library/{a.id}").text
    assert page.count("Was this article helpful?") == 1
    # ... where ARTICLES.md puts it: before the sources
    assert page.index('id="feedback"') < page.index("class='ms-sources'")
    from mingshu.library.render import article_html

    assert "helpful" not in article_html(a, lib)  # a static page has nowhere to send it
    assert "ms-feedback" not in client.get(f"/api/articles/{a.id}").json()["html"]


def test_bazi_late_rat_split_is_not_called_a_day_16_split(client: TestClient) -> None:
    for page in (client.get("/").text, client.get("/settings").text):
        block = page.split('id="bz_late_rat_hour"')[1][:1500]
        assert "day 16" not in block
        assert "hour stem of the next" in block


def test_unknown_hour_page_links_no_empty_json(client: TestClient) -> None:
    page = client.get("/chart?date=1987-05-16&unknown_hour=1&gender=female").text
    assert 'href=""' not in page
    assert 'href="/api/ziwei/hours?' in page


def test_hant_page_names_the_bazi_life_and_body_palaces_in_hant(client: TestClient) -> None:
    hant = client.get(f"/chart?{BIRTH}&names=hant").text
    line = hant.split("胎元")[1].split("</p>")[0]
    assert "命宮" in line and "身宮" in line and "命宫" not in line and "身宫" not in line
    hans = client.get(f"/chart?{BIRTH}").text.split("胎元")[1].split("</p>")[0]
    assert "命宫" in hans and "身宫" in hans


def test_star_page_speaks_to_the_reader(client: TestClient) -> None:
    c = ziwei.chart("1987-05-16", "10:30", "female")
    for key in ("wen_chang", "tian_ji", "huo_xing", "san_tai", "tian_kui", "lu_cun"):
        page = client.get(f"/chart/star/{key}?{BIRTH}").text
        text = re.sub(r"<[^>]+>", "", page)
        for developer in ("count_from", "step -1", "step 1", "; by hour", "F = ", " L21",
                          ".txt", "from_star", "offset"):  # fmt: skip
            assert developer not in text, (key, developer)
        assert "Source:" in text and "全书" in text
    # The words say the engine's rule: 文昌 counts backward from 戌 by the hour.
    wen_chang = client.get(f"/chart/star/wen_chang?{BIRTH}").text
    assert "backward" in wen_chang and "from 戌 by the birth hour" in wen_chang
    # 天机 stands one palace behind 紫微 in the engine's chart, and the page says so.
    zi_wei, tian_ji = c.star("zi_wei").branch, c.star("tian_ji").branch
    assert (int(zi_wei) - int(tian_ji)) % 12 == 1
    assert "One palace back from 紫微" in client.get(f"/chart/star/tian_ji?{BIRTH}").text


def test_five_elements_class_cells_do_not_wrap() -> None:
    from importlib.resources import files

    css = (files("mingshu.web") / "static" / "site.css").read_text("utf-8")
    assert re.search(r"table\.unknown td[^{]*\{[^}]*white-space:\s*nowrap", css)


def _svg_of(page: str) -> str:
    m = re.search(r'id="ziwei-board"[^>]*>(<svg.*?</svg>)</div>', page, re.S)
    assert m, "no board on the page"
    return m.group(1)


def test_every_star_on_the_board_is_a_link_to_its_rule(client: TestClient) -> None:
    page = client.get(f"/chart?{BIRTH}").text
    c = ziwei.chart("1987-05-16", "10:30", "female")
    placed = sorted(s.star.key for p in c.palaces for s in p.stars)
    column = client.get(column_links(page)[0]).text
    for svg in (_svg_of(page), column):
        assert re.match(r'<svg[^>]* role="group" aria-label="紫微斗数 命盘"', svg)
        keys = re.findall(r'<a href="/chart/star/(\w+)\?[^"]*" class="star-link"><text', svg)
        assert sorted(keys) == placed
    href = re.search(r'<a href="(/chart/star/tian_ji\?[^"]*)"', page)
    assert href and client.get(href.group(1).replace("&amp;", "&")).status_code == 200
    # The SVG file is an image with its label.
    assert re.match(r'<svg[^>]* role="img" aria-label="', client.get(f"/chart.svg?{BIRTH}").text)


def _luminance(colour: str) -> float:
    """WCAG 2.x relative luminance of #rrggbb or #rgb."""
    h = colour.lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    channels = [int(h[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def test_board_text_contrast_is_at_least_4_5(client: TestClient) -> None:
    background = _luminance("#fffdf7")
    for query in (BIRTH, BIRTH + "&at=2026-07-02T10:00", BIRTH + "&names=hant"):
        svg = client.get(f"/chart.svg?{query}").text
        fills = set(re.findall(r'<t(?:ext|span)[^>]* fill="(#[0-9a-fA-F]{3,6})"', svg))
        assert "#222" in fills and len(fills) > 5, (query, svg[:300])
        for fill in fills:
            ratio = (background + 0.05) / (_luminance(fill) + 0.05)
            assert ratio >= 4.5, (query, fill, round(ratio, 2))


def test_decade_strip_steps_the_horoscope_by_decade_and_year(client: TestClient) -> None:
    c = ziwei.chart("1987-05-16", "10:30", "female")
    page = client.get(f"/chart?{BIRTH}").text
    strip = page.split('id="timeline"')[1].split("</nav>")[0]
    decades = re.findall(r'<a href="([^"]+)"[^>]*>(\d+)–(\d+)</a>', strip)
    assert len(decades) >= 8
    for href, start, _end in decades[:3]:
        at = re.search(r"at=([0-9-]+)", href)
        assert at
        h = c.horoscope(at.group(1))
        # The link lands in the decade it names: the engine's decadal palace at that moment.
        palace = next(p for p in c.palaces if p.decadal.start == int(start))
        assert h.decadal.branch == palace.branch, (start, at.group(1))
    # With a horoscope moment, the years of its decade follow, the current one marked.
    page = client.get(f"/chart?{BIRTH}&at=2026-07-02").text
    strip = page.split('id="timeline"')[1].split("</nav>")[0]
    years = re.findall(r'<a href="([^"]+)"( aria-current="true")?[^>]*>(\d{4})</a>', strip)
    assert len(years) == 10 and [y for _, cur, y in years if cur] == ["2026"]
    assert all(f"at={y}-07-02" in href for href, _, y in years)


def test_board_png_download(client: TestClient) -> None:
    import io

    from PIL import Image

    r = client.get(f"/chart.png?{BIRTH}")
    assert r.status_code == 200 and r.headers["content-type"] == "image/png"
    image = Image.open(io.BytesIO(r.content)).convert("RGB")
    svg = client.get(f"/chart.svg?{BIRTH}").text
    width, height = (float(v) for v in re.search(r'viewBox="0 0 (\S+) (\S+)"', svg).groups())
    assert image.size == (round(width * 2), round(height * 2))
    # Drawn, not blank: dark text pixels in the Life palace's name corner and the centre.
    colours = image.getcolors(maxcolors=1_000_000) or []
    dark = sum(n for n, (r_, g, b) in colours if r_ + g + b < 200)
    assert dark > 5_000
    assert 'href="/chart.png?' in client.get(f"/chart?{BIRTH}").text
    assert client.get("/chart.png?date=1987-05-16&unknown_hour=1&gender=female").status_code == 422


def test_print_stylesheet_keeps_the_board_on_one_a4_page() -> None:
    from importlib.resources import files

    css = (files("mingshu.web") / "static" / "site.css").read_text("utf-8")
    assert re.search(r"@page\s*\{[^}]*size:\s*A4", css)
    block = css.split("@media print")[1]
    assert ".redraw" in block and "form.birth" in block and "max-height: 255mm" in block
