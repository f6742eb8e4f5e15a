"""The reader's first screens in Debian's Chromium (front_session.py): the phone form down
to its button, the board in view after drawing, the keyboard reaching the stars, a palace
click drawing its 三方四正 and 飞化, one A4 page in print.  Screenshots at 360 and 1280 px
go to $MINGSHU_SCREENSHOTS/front (e.g. reports/web/front) when it is set, else to a temporary
folder of the run."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

import chromium  # tests/chromium.py
from mingshu import ziwei

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(__file__).with_name("front_session.py")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not chromium.installed(), reason="Debian's chromium is not installed"),
]


@pytest.fixture(scope="module")
def seen(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    import subprocess

    chosen = os.environ.get("MINGSHU_SCREENSHOTS")
    out = Path(chosen) / "front" if chosen else tmp_path_factory.mktemp("front")
    out.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    run = [sys.executable, str(SCRIPT), str(out)]
    done = subprocess.run(
        chromium.isolated(run), cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )
    report = out / "front.json"
    assert report.exists(), f"the browser session wrote nothing: {done.stderr[-3000:]}"
    data: dict[str, Any] = json.loads(report.read_text())
    assert "error" not in data, data["error"]
    return data


def test_phone_form_reaches_its_button_in_one_screen(seen: dict[str, Any]) -> None:
    assert seen["settings_open_360"] is False
    assert seen["submit_top_360"] <= 800  # the 360×800 viewport: no scrolling to draw


def test_after_drawing_the_board_is_in_view(seen: dict[str, Any]) -> None:
    assert seen["board_top_360"] < 800


def test_five_elements_class_on_one_line(seen: dict[str, Any]) -> None:
    heights = seen["unknown_cell_heights"]
    assert "火六局" in seen["unknown_row_text"]
    assert max(heights) < 2 * min(heights)  # one character a line made 火六局 three lines


def test_radio_buttons_stay_with_their_words_on_a_phone(seen: dict[str, Any]) -> None:
    # /pillars has the three late-Rat choices, the article the two feedback answers.
    assert seen["radios_360"]["/pillars"] == 3 and seen["radios_360"]["/library/ZW-AUX-17"] == 2
    assert seen["radios_apart_360"] == []


def test_a_cut_table_shows_a_shadow_where_more_of_it_lies(seen: dict[str, Any]) -> None:
    # At 360 px the English chart's BaZi tables and the article's tables are wider than the
    # screen.
    cut = seen["scroll_edges_360"] + seen["article_scroll_edges_360"]
    assert seen["scroll_edges_360"] and seen["article_scroll_edges_360"]
    for e in cut:
        # First shown: more lies to the right only; scrolled to the end: to the left only.
        assert e["start_right"] > 15 and e["start_left"] < 3, e
        assert e["end_left"] > 15 and e["end_right"] < 3, e


def test_keyboard_reaches_stars_and_opens_the_panel(seen: dict[str, Any]) -> None:
    c = ziwei.chart("1987-05-16", "10:30", "female")
    assert len(seen["tab_stars"]) == 3
    last = c.star(seen["tab_stars"][-1]).star
    assert seen["panel_title"].startswith(last.names.hans)
    assert "/chart/star/" not in seen["panel_url"]  # opened in place


def test_palace_click_shows_surrounded_and_flights(seen: dict[str, Any]) -> None:
    c = ziwei.chart("1987-05-16", "10:30", "female")
    life = c.life_palace
    assert seen["selected"] == [life.branch.key]
    s = c.surrounded("life")
    assert sorted(seen["surrounded"]) == sorted(
        p.branch.key for p in (s.opposite, s.wealth, s.career)
    )
    landing = [p for p in c.flies("life").palaces if p.branch != life.branch]
    assert seen["arrows"] == len(landing)
    assert seen["selected_by_key"] == ["career"]
    assert seen["errors"] == []


def test_print_is_one_a4_page(seen: dict[str, Any]) -> None:
    assert seen["pdf_pages"] == 1
