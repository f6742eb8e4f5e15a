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


def scroll_edges(page: Any) -> list[dict[str, float]]:
    """For each box on the page whose table is wider than it, the darkness (0 white, 255
    black) of its left and right edge, as first shown and once scrolled to the end.  The
    tables are hidden while measuring, so only the box's own background is seen."""
    from io import BytesIO

    from PIL import Image

    found = []
    boxes = page.query_selector_all(".scroll, .ms-scroll")
    for box in boxes:
        # (An article's share card keeps its frames' tables invisible until their turn.)
        cut = "b => b.scrollWidth > b.clientWidth + 20 && b.clientHeight > 40"
        shown = "b => b.checkVisibility({opacityProperty: true, visibilityProperty: true})"
        if not (box.evaluate(cut) and box.evaluate(shown)):
            continue
        box.scroll_into_view_if_needed()
        box.evaluate("b => { for (const t of b.children) t.style.visibility = 'hidden'; }")
        edges = {}
        for state, left in (("start", "0"), ("end", "b.scrollWidth")):
            box.evaluate(f"b => {{ b.scrollLeft = {left}; }}")
            shot = Image.open(BytesIO(box.screenshot())).convert("L")
            w, h = shot.size
            rows = range(h // 4, 3 * h // 4)
            for side, xs in (("left", range(0, 4)), ("right", range(w - 4, w))):
                values = [255 - shot.getpixel((x, y)) for x in xs for y in rows]
                edges[f"{state}_{side}"] = sum(values) / len(values)
        box.evaluate("b => { for (const t of b.children) t.style.visibility = ''; }")
        found.append(edges)
    return found


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
        # Each radio button starts the line its label's words start on (a button alone at
        # a line's end, its words on the next, reads as belonging to the option before it).
        apart: list[str] = []
        radios: dict[str, int] = {}
        for path in ("/", "/pillars", "/settings", PAGES["article"]):
            page.goto(base + path)
            apart += page.eval_on_selector_all(
                "label input[type=radio]",
                """rs => rs.flatMap(r => {
                    // The label's first letter after the button.
                    const walk = document.createTreeWalker(r.parentElement, NodeFilter.SHOW_TEXT);
                    let node = walk.nextNode();
                    while (node && !(r.compareDocumentPosition(node)
                            & Node.DOCUMENT_POSITION_FOLLOWING && /\\S/.test(node.data))) {
                        node = walk.nextNode();
                    }
                    if (!node) return [];
                    const at = node.data.search(/\\S/);
                    const letter = document.createRange();
                    letter.setStart(node, at);
                    letter.setEnd(node, at + 1);
                    const first = letter.getBoundingClientRect();
                    const box = r.getBoundingClientRect();
                    const mid = (box.top + box.bottom) / 2;
                    return box.width > 0 && (mid < first.top || mid > first.bottom)
                        ? [location.pathname + ' ' + r.name + '=' + r.value] : [];
                })""",
            )
            radios[path] = page.eval_on_selector_all("label input[type=radio]", "rs => rs.length")
        seen["radios_apart_360"] = apart
        seen["radios_360"] = radios
        # A table cut at the phone's edge: the shadow marks the side where more of it lies.
        page.goto(base + PAGES["chart"] + "&names=english")
        seen["scroll_edges_360"] = scroll_edges(page)
        page.goto(base + PAGES["article"])
        seen["article_scroll_edges_360"] = scroll_edges(page)
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
