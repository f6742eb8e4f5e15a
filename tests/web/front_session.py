"""The reader's first screens in Chromium, run by tests/web/test_web_front_browser.py.

Serves the site on 127.0.0.1 (browser_session.start_server), takes screenshots at 360 and
1280 px of home, chart, horoscope, unknown hour, star, settings, library, an article and
the print view into OUT/, tries the board with the keyboard and a palace click, prints the
chart to PDF, and writes what it saw to OUT/front.json.  It asserts nothing itself.

    python tests/web/front_session.py OUT
"""

from __future__ import annotations

import json
import sys
import tempfile
import traceback
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from browser_session import free_port, start_server

from chromium import launch

BIRTH = "date=1987-05-16&time=10:30&gender=female"
PAGES = {
    "home": "/",
    "chart": f"/chart?{BIRTH}",
    "horoscope": f"/chart?{BIRTH}&at=2026-07-02",
    "unknown-hour": "/chart?date=1987-05-16&unknown_hour=1&gender=female",
    "star": f"/chart/star/wen_chang?{BIRTH}",
    "settings": "/settings",
    "library": "/library",
    "article": "/library/ZW-AUX-17",
}


def session(base: str, out: Path, seen: dict[str, Any]) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = launch(p)
        errors: list[str] = []
        for width in (360, 1280):
            page = browser.new_page(viewport={"width": width, "height": 800})
            page.on("pageerror", lambda e: errors.append(str(e)))
            for name, path in PAGES.items():
                page.goto(base + path)
                page.screenshot(path=str(out / f"{name}-{width}.png"), full_page=True)
            page.goto(base + PAGES["chart"])
            page.emulate_media(media="print")
            page.screenshot(path=str(out / f"print-{width}.png"), full_page=True)
            page.emulate_media(media="screen")
            page.close()

        # The phone's first screen: every birth field and the button above the fold.
        page = browser.new_page(viewport={"width": 360, "height": 800})
        page.goto(base + "/")
        seen["submit_top_360"] = page.eval_on_selector(
            "form.birth button[type=submit]", "b => b.getBoundingClientRect().bottom"
        )
        seen["settings_open_360"] = page.eval_on_selector("#settings-fold", "d => d.open")
        page.fill("#date", "1987-05-16")
        page.fill("#time", "10:30")
        page.check("input[name=gender][value=female]")
        page.click("form.birth button[type=submit]")
        page.wait_for_selector("#ziwei-column svg")
        seen["board_top_360"] = page.eval_on_selector(
            "#ziwei-column svg", "s => s.getBoundingClientRect().top + window.scrollY"
        )
        # 火六局 and the branch names stay on one line in the unknown-hour table.
        page.goto(base + PAGES["unknown-hour"])
        seen["unknown_cell_heights"] = page.eval_on_selector_all(
            "#unknown-hour tbody td:nth-child(5)",
            "ts => ts.map(t => t.getBoundingClientRect().height)",
        )
        seen["unknown_row_text"] = page.eval_on_selector_all(
            "#unknown-hour tbody td:nth-child(5)", "ts => ts.map(t => t.innerText)"
        )
        page.close()

        # The keyboard: Tab reaches the stars of the board; Enter opens the rule in the panel.
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(base + PAGES["chart"])
        page.focus("#permalink")
        reached = []
        for _ in range(60):
            page.keyboard.press("Tab")
            key = page.evaluate(
                "() => { const a = document.activeElement;"
                " const t = a && a.querySelector && a.querySelector('text[data-star]');"
                " return a && a.classList.contains('star-link') && t ? t.getAttribute('data-star') : null; }"
            )
            if key:
                reached.append(key)
            if len(reached) >= 3:
                break
        seen["tab_stars"] = reached
        page.keyboard.press("Enter")
        page.wait_for_selector("#star-panel #star-title")
        seen["panel_title"] = page.inner_text("#star-panel #star-title")
        seen["panel_url"] = page.url
        # A palace click: 三方四正 shaded, 飞化 arrows, 自化 marks.
        page.click(
            '#ziwei-board svg g.palace[data-palace="life"] > rect', position={"x": 90, "y": 140}
        )
        seen["selected"] = page.eval_on_selector_all(
            "#ziwei-board svg g.palace.sel", "gs => gs.map(g => g.getAttribute('data-branch'))"
        )
        seen["surrounded"] = page.eval_on_selector_all(
            "#ziwei-board svg g.palace.sfsz", "gs => gs.map(g => g.getAttribute('data-branch'))"
        )
        seen["arrows"] = page.eval_on_selector_all(
            "#ziwei-board svg .ms-overlay line", "ls => ls.length"
        )
        seen["arrow_labels"] = page.eval_on_selector_all(
            "#ziwei-board svg .ms-overlay text", "ts => ts.map(t => t.textContent)"
        )
        page.screenshot(path=str(out / "palace-click-1280.png"))
        # The same by the keyboard: focus a palace, press Enter.
        page.focus('#ziwei-board svg g.palace[data-palace="career"]')
        page.keyboard.press("Enter")
        seen["selected_by_key"] = page.eval_on_selector_all(
            "#ziwei-board svg g.palace.sel", "gs => gs.map(g => g.getAttribute('data-palace'))"
        )
        # Print: the chart page on A4.
        pdf = page.pdf(format="A4")
        seen["pdf_pages"] = pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages")
        (out / "chart-print.pdf").write_bytes(pdf)
        seen["errors"] = errors
        browser.close()


def main() -> None:
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    seen: dict[str, Any] = {}
    try:
        with tempfile.TemporaryDirectory() as tmp:
            port = free_port()
            server = start_server(f"sqlite:///{tmp}/web.sqlite3", port)
            try:
                session(f"http://127.0.0.1:{port}", out, seen)
            finally:
                server.should_exit = True
    except Exception:
        seen["error"] = traceback.format_exc()
    (out / "front.json").write_text(json.dumps(seen, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
