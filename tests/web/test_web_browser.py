"""The site in a real browser: Debian's Chromium driven by Playwright (browser_session.py),
inside a loopback-only network namespace when the machine allows one.  Screenshots of the
chart page (1280 and 360 px wide) and of an article are kept in MINGSHU_SCREENSHOTS (say
reports/web/) when it is set, else in the run's temporary folder."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

import chromium  # tests/chromium.py
from mingshu import ziwei

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(__file__).with_name("browser_session.py")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not chromium.installed(), reason="Debian's chromium is not installed"),
]


@pytest.fixture(scope="module")
def seen(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    # Under pytest-xdist several workers may ask for this fixture: one browser session per
    # test run, the others wait on the lock and read what it saw.  The screenshots go to
    # MINGSHU_SCREENSHOTS (e.g. reports/web, to look at them) or else to the run's temporary
    # folder, which the workers share (the parent of each worker's own).
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID") or f"pid-{os.getpid()}"
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent
    chosen = os.environ.get("MINGSHU_SCREENSHOTS")
    out = Path(chosen) if chosen else shared / "web-screenshots"
    path = out / "observations.json"
    with (shared / "web.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        data: dict[str, Any] = json.loads(path.read_text()) if path.exists() else {}
        if data.get("run") != run:
            if not chosen:  # never empty a folder the user named: only our own
                shutil.rmtree(out, ignore_errors=True)
            path.unlink(missing_ok=True)
            out.mkdir(parents=True, exist_ok=True)
            env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "MINGSHU_TEST_RUN": run}
            proc = subprocess.run(
                chromium.isolated([sys.executable, str(SCRIPT), str(out)]),
                cwd=ROOT,
                env=env,
                capture_output=True,
                text=True,
                timeout=300,
            )
            assert path.exists(), f"the browser session wrote nothing: {proc.stderr[-3000:]}"
            data = json.loads(path.read_text())
    assert "error" not in data, data["error"]
    print(f"\nscreenshots: {', '.join(str(p) for p in sorted(out.glob('*.png')))}")
    return {**data, "screenshots": str(out)}


def _engine_board(url: str) -> dict[str, list[str]]:
    q = {k: v[0] for k, v in parse_qs(urlsplit(url).query).items()}
    settings = ziwei.ZiweiSettings(
        algorithm=q.get("algorithm", "quanshu"), school=q.get("school", "iztro")
    )
    c = ziwei.chart(q["date"], q["time"], q["gender"], settings=settings)
    return {p.branch.key: sorted(s.star.key for s in p.stars) for p in c.palaces}


def _sorted(board: dict[str, list[str]]) -> dict[str, list[str]]:
    return {k: sorted(v) for k, v in board.items()}


def test_chart_from_the_form_shows_the_engines_stars(seen: dict[str, Any]) -> None:
    q = parse_qs(urlsplit(seen["chart_url"]).query)
    assert q["date"] == ["1987-05-16"] and q["time"] == ["10:30"] and q["gender"] == ["female"]
    assert _sorted(seen["board"]) == _engine_board(seen["chart_url"])


def test_phone_width_shows_the_column_layout(seen: dict[str, Any]) -> None:
    assert not seen["column_visible_1280"]
    # A wide screen never asks for the phone layout; a narrow one, once, from the script.
    assert seen["column_fetches_1280"] == []
    assert len(seen["column_fetches_360"]) == 1
    assert "/chart/column.svg?" in seen["column_fetches_360"][0]
    # Before the drawing came its box already held most of its height (no 1,500 px jump of
    # what follows), and never more than the drawing (no gap after it); a horoscope in
    # English (a taller drawing) keeps more room.
    for waiting, drawn in (seen["column_box"], seen["column_box_horoscope_en"]):
        assert 0.8 * drawn <= waiting <= drawn
    assert seen["column_box_horoscope_en"][0] > 1.4 * seen["column_box"][0]
    assert seen["column_visible"] and not seen["board_visible_360"]
    assert sorted(seen["column_stars"]) == sorted(k for ks in seen["board"].values() for k in ks)
    assert seen["column_star_title"].startswith("文昌")
    for name in ("chart-1280.png", "chart-360.png"):
        assert (Path(seen["screenshots"]) / name).stat().st_size > 10_000


def test_phone_layout_needs_no_javascript(seen: dict[str, Any]) -> None:
    # chart-360.png is this page: JavaScript off, 360 px wide.
    assert seen["nojs_column_visible"] and not seen["nojs_board_visible_360"]
    assert 300 <= seen["nojs_column_width"] <= 360
    assert seen["nojs_column_natural_width"] == 360  # the drawing's own width: it loaded
    # The wide screen without a script did not load the hidden image either.
    assert seen["nojs_fetches_1280"] == []
    assert seen["nojs_page_width"] <= 360  # nothing scrolls sideways


def test_changing_a_setting_changes_the_chart(seen: dict[str, Any]) -> None:
    assert "algorithm=zhongzhou" in seen["zhongzhou_url"]
    assert _sorted(seen["zhongzhou_board"]) == _engine_board(seen["zhongzhou_url"])
    assert _sorted(seen["zhongzhou_board"]) != _sorted(seen["board"])


def test_changing_the_school_changes_the_chart(seen: dict[str, Any]) -> None:
    q = parse_qs(urlsplit(seen["school_url"]).query)
    assert q["school"] == ["quanshu"] and q.get("leap_month", [""]) == [""]  # the book's own
    assert _sorted(seen["school_board"]) == _engine_board(seen["school_url"])
    assert _sorted(seen["school_board"]) != _sorted(seen["board"])
    assert "quanshu_school" in seen["school_notices"]


def test_horoscope_overlay(seen: dict[str, Any]) -> None:
    assert "at=2026-11-29T10" in seen["horoscope_url"]
    assert {"decadal", "yearly", "monthly", "daily", "hourly"} <= set(seen["layers"])


def test_clicking_a_star_opens_its_rule(seen: dict[str, Any]) -> None:
    assert seen["star_url"] == seen["chart_url"]  # the rule opens in a panel
    assert seen["star_title"].startswith("文昌")
    c = ziwei.chart("1987-05-16", "10:30", "female")
    assert f"birth hour: {c.hour.names.hans}" in seen["star_inputs"]
    assert seen["star_page_url"].split("?")[0].endswith("/chart/star/wen_chang")


def test_city_search(seen: dict[str, Any]) -> None:
    # a suggestion is the city's whole label: same-name cities differ in it
    assert "Zürich 苏黎世, CH (Europe/Zurich), 47.37°N 8.55°E" in seen["suggestions"]
    assert parse_qs(urlsplit(seen["city_url"]).query)["city"] == ["1816670"]
    assert "Beijing 北京" in seen["city_hint"]
    assert "daylight_saving" in seen["city_notices"]  # 1990-05-15 11:30 in Asia/Shanghai


def test_reloading_a_chart_url(seen: dict[str, Any]) -> None:
    assert seen["reloaded_board"] == seen["board"]


def test_no_script_errors_or_csp_violations(seen: dict[str, Any]) -> None:
    assert seen["console_errors"] == []


def test_article_table_share_card_and_feedback(seen: dict[str, Any]) -> None:
    import io
    import re
    from html import unescape

    from PIL import Image

    from mingshu import library
    from mingshu.library import cards
    from mingshu.library.render import article_html
    from mingshu.web.cards import FONT
    from mingshu.web.store import Store

    assert seen["library_status"] == 200
    assert seen["article_url"].endswith("/library/ZW-AUX-17")
    lib = library.load()
    article = lib.get("ZW-AUX-17")
    assert article.title in seen["article_title"]
    # The table the reader sees is the renderer's first table (the engine's numbers).
    html = article_html(article, lib, link=lambda i: f"/library/{i}")
    first_table = html.split("<table", 1)[1].split("</table>", 1)[0]
    rows = [
        [
            unescape(re.sub(r"<[^>]+>", "", c)).strip()
            for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", r)
        ]
        for r in re.findall(r"<tr[^>]*>(.*?)</tr>", first_table, re.S)
    ]
    assert seen["article_table"] and seen["article_table"] == rows[: len(seen["article_table"])]
    card = Path(seen["card"]).read_bytes()
    image = Image.open(io.BytesIO(card))
    assert image.format == "PNG" and image.size == (1200, 630)
    assert card == cards.share_card_png(article, font_path=str(FONT))  # title, short version
    assert "Thank you" in seen["feedback_thanks"]
    store = Store(seen["database"])
    rows_stored = [(r.helpful, r.comment) for r in store.feedback("ZW-AUX-17")]
    store.dispose()
    assert rows_stored == [(True, "The table made it clear — 谢谢")]
    assert (Path(seen["screenshots"]) / "article-1280.png").stat().st_size > 10_000


def test_the_site_works_without_javascript(seen: dict[str, Any]) -> None:
    q = parse_qs(urlsplit(seen["nojs_url"]).query)
    assert q["city"] == ["1796236"]  # 上海 resolved on the server
    c = ziwei.chart("1987-05-16", "10:30", "female", tz="Asia/Shanghai", longitude="121.4581")
    assert seen["nojs_star_count"] == sum(len(p.stars) for p in c.palaces)
    assert seen["nojs_bazi"]
