"""Chinese on a machine without CJK fonts: every character the pages print is in a font the
site ships (tools/build_card_font.py), every stylesheet falls back to it, and a Chromium
that sees only DejaVu draws the Chinese (header, BaZi tables, <select> labels, article text,
city names) from the shipped Noto Sans CJK SC, never as empty boxes."""

from __future__ import annotations

import html
import re
import unicodedata
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from fontTools.ttLib import TTFont

import chromium  # tests/chromium.py

from .live import serving

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "src" / "mingshu" / "web"
MAIN_FONT = WEB / "fonts" / "NotoSansCJKsc-Subset.otf"
CITY_FONT = WEB / "fonts" / "NotoSansCJKsc-Cities.otf"
STYLESHEETS = [WEB / "static" / "site.css", ROOT / "src/mingshu/library/static/library.css"]
BIRTH = "date=1987-05-16&time=10:30&gender=female"
CHINESE_PAGES = [  # pages that print Chinese outside the board
    "/",
    f"/chart?{BIRTH}",
    f"/chart?{BIRTH}&names=hant&at=2026-11-29T10:00",
    "/chart?date=1987-05-16&gender=female&unknown_hour=1",
    f"/chart/star/wen_chang?{BIRTH}",
    "/settings",
    "/library",
    f"/chart?{BIRTH}&place=Yichun",  # the "which city?" choice
    f"/chart?{BIRTH}&place=Springfield",
]


def _wide(text: str) -> set[str]:
    """The characters a Latin font such as DejaVu has no glyph for: East Asian wide and
    full-width ones (Han characters, CJK punctuation, the ideographic space)."""
    return {c for c in text if unicodedata.east_asian_width(c) in ("W", "F")}


def _city_range() -> set[int]:
    css = (WEB / "static" / "font-cities.css").read_text(encoding="utf-8")
    m = re.search(r"unicode-range:\s*([^;]+);", css)
    assert m, "font-cities.css names no unicode-range"
    return {int(u.strip()[2:], 16) for u in m.group(1).split(",")}


def _page_text(body: str) -> str:
    # Everything the page prints, attribute values too (placeholders, option labels, titles).
    return html.unescape(re.sub(r"<(script|style)\b[^>]*>.*?</\1>", "", body, flags=re.S))


@pytest.mark.slow  # several seconds of CPU: the slow tier (CONTRIBUTING.md)
def test_every_wide_character_the_pages_print_is_in_a_shipped_font(client: TestClient) -> None:
    main = set(TTFont(MAIN_FONT).getBestCmap())
    cities = set(TTFont(CITY_FONT).getBestCmap()) & _city_range()
    articles = [f"/library/{a['id']}" for a in client.get("/api/articles").json()]
    assert articles, "no articles to look at"
    missing: dict[str, list[str]] = {}
    for url in CHINESE_PAGES + articles:
        r = client.get(url, follow_redirects=True)
        assert r.status_code in (200, 422), url
        for c in _wide(_page_text(r.text)):
            if ord(c) not in main and ord(c) not in cities:
                missing.setdefault(c, []).append(url)
    assert not missing, missing  # before: the 全角 space of two articles, city names


def test_every_city_name_shown_is_in_a_shipped_font() -> None:
    from mingshu.web.cities import _table

    shown = set(TTFont(MAIN_FONT).getBestCmap()) | (
        set(TTFont(CITY_FONT).getBestCmap()) & _city_range()
    )
    missing = {c for city in _table()[0] for c in _wide(city.label) if ord(c) not in shown}
    assert not missing, "".join(sorted(missing))


def test_the_city_face_holds_only_what_the_main_face_lacks() -> None:
    # The browser fetches the second file only for the characters of its unicode-range.
    main = set(TTFont(MAIN_FONT).getBestCmap())
    assert _city_range() and not (_city_range() & main)
    assert _city_range() <= set(TTFont(CITY_FONT).getBestCmap())


def _families(css: str) -> list[str]:
    """Each font list a stylesheet declares (font-family, or the family part of font)."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    css = re.sub(r"@font-face\s*\{[^}]*\}", "", css)
    out = re.findall(r"font-family:\s*([^;}]+)", css)
    out += [m.split("/", 1)[-1] for m in re.findall(r"\bfont:\s*([^;}]+)", css)]
    return [f.strip() for f in out]


@pytest.mark.parametrize("sheet", STYLESHEETS, ids=lambda p: p.name)
def test_every_font_list_falls_back_to_the_shipped_family(sheet: Path) -> None:
    lists = _families(sheet.read_text(encoding="utf-8"))
    assert lists
    for families in lists:
        if families == "inherit":
            continue
        assert '"Noto Sans CJK SC"' in families, f"{sheet.name}: {families}"
        # Chromium on Linux does not fall back from system-ui: its missing glyphs are boxes.
        assert "system-ui" not in families, f"{sheet.name}: {families}"


def test_form_controls_take_the_page_font() -> None:
    css = (WEB / "static" / "site.css").read_text(encoding="utf-8")
    rule = re.search(r"(^|\})\s*([^{}]*\bselect\b[^{}]*)\{([^}]*)\}", css)
    assert rule and "font-family: inherit" in rule.group(3)
    base = (WEB / "templates" / "base.html").read_text(encoding="utf-8")
    assert base.index("/static/site.css") < base.index("/static/font-cities.css")


# --- in a browser that has only DejaVu ----------------------------------------------------


@pytest.fixture
def site(tmp_path: Path) -> Iterator[str]:
    with serving(tmp_path) as base:
        yield base


# Marks every element whose own text (its text-node children, which is what the renderer
# reports per element) holds wide characters; returns how many each holds, in document order.
PROBE = """async () => {
  document.querySelectorAll('details').forEach(d => { d.open = true; });  // folded text too
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  await document.fonts.ready;
  const wide = /[\\u2e80-\\u303f\\u3400-\\u9fff\\uf900-\\ufaff\\uff00-\\uff60]/g;
  const out = [];
  document.querySelectorAll('body *').forEach(el => {
    let own = '';
    for (const n of el.childNodes) if (n.nodeType === 3) own += n.textContent;
    const n = (own.match(wide) || []).length;
    if (!n || el.closest('select') || !el.checkVisibility()) return;
    el.setAttribute('data-cjk-probe', String(out.length));
    out.push({tag: el.tagName.toLowerCase(), wide: n, text: own.trim().slice(0, 30),
              glyphs: Array.from(own).length});
  });
  return out;
}"""


def _fonts_drawn(page: Any) -> list[dict[str, int]]:
    """For each probed element: the glyphs the renderer drew from the shipped web font and
    from any other font (CSS.getPlatformFontsForNode: what was actually used)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
    nodes = cdp.send("DOM.querySelectorAll", {"nodeId": root, "selector": "[data-cjk-probe]"})
    out = []
    for node in nodes["nodeIds"]:
        fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
        shipped = sum(
            f["glyphCount"]
            for f in fonts
            if f["isCustomFont"] and f["familyName"] == "Noto Sans CJK SC"
        )
        other = sum(f["glyphCount"] for f in fonts) - shipped
        out.append({"shipped": shipped, "other": other})
    cdp.detach()
    return out


def _select_families(page: Any) -> list[str]:
    families: list[str] = page.evaluate(
        "() => Array.from(document.querySelectorAll('select'), s => getComputedStyle(s).fontFamily)"
    )
    return families


@pytest.mark.browser
@pytest.mark.skipif(not chromium.installed(), reason="Debian's chromium is not installed")
@pytest.mark.skipif(not chromium.DEJAVU.is_dir(), reason="the DejaVu fonts are not installed")
def test_chinese_is_drawn_from_the_shipped_font_with_only_dejavu(site: str, tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    article = _article_with_chinese(site)
    pages = [
        "/",
        f"/chart?{BIRTH}",
        "/chart?date=1987-05-16&gender=female&unknown_hour=1",
        f"/chart?{BIRTH}&place=Yichun",
        article,
    ]
    with sync_playwright() as p:
        browser = chromium.launch(p, env=chromium.dejavu_only(tmp_path))
        try:
            page = browser.new_page()
            tags: set[str] = set()
            for url in pages:
                page.goto(site + url)
                probed = page.evaluate(PROBE)
                assert probed, f"{url}: no Chinese found"
                for seen, drawn in zip(probed, _fonts_drawn(page), strict=True):
                    tags.add(seen["tag"])
                    # Every wide character came from the shipped font (only the Latin ones
                    # may come from DejaVu); an empty box is drawn from the first font.
                    assert drawn["other"] <= seen["glyphs"] - seen["wide"], (url, seen, drawn)
                    assert drawn["shipped"] >= seen["wide"], (url, seen, drawn)
                # <select> labels are drawn by the browser's own widget: they take the
                # page's font list (a closed select's options are not laid out to probe).
                for families in _select_families(page):
                    assert '"Noto Sans CJK SC"' in families, (url, families)
            # The header's 命书, the BaZi tables, the city choice, article text were there.
            assert {"a", "td", "label", "p"} <= tags, tags
        finally:
            browser.close()


def _article_with_chinese(site: str) -> str:
    import json

    with urllib.request.urlopen(f"{site}/api/articles") as r:
        ids = [a["id"] for a in json.load(r)]
    for article in ids:
        with urllib.request.urlopen(f"{site}/library/{article}") as r:
            body = r.read().decode("utf-8")
        main = body.split("<main>", 1)[-1]  # past the header's 命书
        if _wide(_page_text(main)):
            return f"/library/{article}"
    raise AssertionError("no article prints Chinese")
