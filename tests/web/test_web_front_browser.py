"""The reader's first screens in Debian's Chromium (front_session.py): the phone form down
to its button, the board in view after drawing, the keyboard reaching the stars, a palace
click drawing its 三方四正 and 飞化, one A4 page in print.  Screenshots at 360 and 1280 px
go to reports/web/front/."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from mingshu import ziwei

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "reports" / "web" / "front"
SCRIPT = Path(__file__).with_name("front_session.py")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not Path("/usr/lib/chromium/chromium").exists(), reason="Debian's chromium is missing"
    ),
]


def _command_for(run: list[str]) -> list[str]:
    """``run`` inside a loopback-only network namespace when the machine allows one (as
    test_web_browser does)."""
    import shutil
    import subprocess

    if (
        os.geteuid() == 0
        and shutil.which("unshare")
        and shutil.which("ip")
        and subprocess.run(["unshare", "-n", "true"], capture_output=True).returncode == 0
    ):
        inner = "ip link set lo up && exec " + " ".join(f"'{a}'" for a in run)
        return ["unshare", "-n", "--", "sh", "-c", inner]
    return run


@pytest.fixture(scope="module")
def seen() -> dict[str, Any]:
    import subprocess

    OUT.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    run = [sys.executable, str(SCRIPT), str(OUT)]
    subprocess.run(_command_for(run), cwd=ROOT, env=env, capture_output=True, timeout=600)
    data: dict[str, Any] = json.loads((OUT / "front.json").read_text())
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
