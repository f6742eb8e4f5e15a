"""Open built library pages in the Debian chromium (Playwright) at given widths, save a
full-page screenshot of each, and report what the test asserts, as JSON on stdout.

Run by test_browser.py, inside a loopback-only network namespace when the machine allows
it (``unshare -n``); Chromium's resolver rules (tests/chromium.py) keep it off the
network either way.

    python _browser.py SITE_DIR SHOTS_DIR WIDTH [WIDTH ...] -- PAGE [PAGE ...]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from chromium import launch

# What the test asserts, measured in the page: the page's own horizontal overflow, the
# elements sticking out past the viewport that are not inside a sideways-scrolling box or a
# hidden full-size view, images without alt text and SVG images without a label.
MEASURE = """() => {
  const vw = document.documentElement.clientWidth;
  const out = [];
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('.ms-scroll, .ms-full')) continue;
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.right > vw + 1) out.push(el.tagName + '.' + el.className);
  }
  return {
    scrollWidth: document.documentElement.scrollWidth,
    viewport: vw,
    outside: out.slice(0, 10),
    imgNoAlt: [...document.querySelectorAll('img')].filter(i => !i.alt).length,
    svgNoLabel: [...document.querySelectorAll('svg[role=img]')]
        .filter(s => !(s.getAttribute('aria-label') || '').trim()).length,
    svgs: document.querySelectorAll('svg').length,
    svgUnroled: [...document.querySelectorAll('svg')]
        .filter(s => s.getAttribute('role') !== 'img').length,
  };
}"""


ANIMATION = """() => {
  const s = getComputedStyle(document.querySelector('.ms-frame-4'));
  return {name: s.animationName, duration: s.animationDuration, delay: s.animationDelay,
          state: s.animationPlayState, frames: document.querySelectorAll('.ms-frame').length};
}"""


def _full_size(browser: object, site: str, name: str) -> dict[str, object]:
    """Every diagram's full-size view: hidden until its link is followed, then covering the
    screen (a phone's width), and closed again by its Close link."""
    context = browser.new_context(viewport={"width": 360, "height": 740})  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto((Path(site) / name).resolve().as_uri())
    views = page.eval_on_selector_all(".ms-enlarge", "els => els.map(e => e.hash)")
    out: dict[str, object] = {"page": name, "full": True, "views": len(views), "bad": []}
    for fragment in views:
        hidden = page.eval_on_selector(fragment, "e => getComputedStyle(e).display")
        page.click(f"a.ms-enlarge[href='{fragment}']")
        box = page.eval_on_selector(
            fragment,
            "e => {const r = e.getBoundingClientRect(); return [getComputedStyle(e).display, "
            "r.width, r.height, !!e.querySelector('svg[aria-label]')]}",
        )
        page.click(f"{fragment} .ms-close")
        closed = page.eval_on_selector(fragment, "e => getComputedStyle(e).display")
        if not (
            hidden == "none" and box[0] == "block" and box[1] >= 359 and box[3] and closed == "none"
        ):
            out["bad"].append([fragment, hidden, box, closed])  # type: ignore[union-attr]
    context.close()
    return out


def _summary_motion(browser: object, site: str, name: str) -> dict[str, object]:
    """The eighteen seconds: playing, paused by the Pause control, still under reduced
    motion."""
    out: dict[str, object] = {"page": name, "summary": True}
    for motion in ("no-preference", "reduce"):
        context = browser.new_context(reduced_motion=motion)  # type: ignore[attr-defined]
        page = context.new_page()
        page.goto((Path(site) / name).resolve().as_uri())
        out[motion] = page.evaluate(ANIMATION)
        if motion == "no-preference":
            page.click(".ms-pause-label")
            out["paused"] = page.evaluate(ANIMATION)
        context.close()
    return out


def main(argv: list[str]) -> int:
    split = argv.index("--")
    site, shots, *widths = argv[:split]
    pages = argv[split + 1 :]
    Path(shots).mkdir(parents=True, exist_ok=True)
    report = []
    with sync_playwright() as p:
        browser = launch(p)
        for width in map(int, widths):
            context = browser.new_context(
                viewport={"width": width, "height": 900}, reduced_motion="reduce"
            )
            page = context.new_page()
            for name in pages:
                page.goto((Path(site) / name).resolve().as_uri())
                facts = page.evaluate(MEASURE)
                shot = Path(shots) / f"{Path(name).stem}-{width}.png"
                page.screenshot(path=str(shot), full_page=True)
                report.append({"page": name, "width": width, "shot": str(shot), **facts})
            context.close()
        report.append(_full_size(browser, site, pages[-1]))
        report.append(_summary_motion(browser, site, pages[-1]))
        browser.close()
    json.dump(report, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
