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

# What the test asserts, measured in the page (once its fonts are loaded): the page's own
# horizontal overflow, the elements sticking out past the viewport that are not inside a
# sideways-scrolling box or a hidden full-size view, images without alt text and SVG images
# without a label; and what is clipped:
# - figures: each figure whose content is wider than its box (a table or diagram that must
#   be scrolled sideways to be read whole), and whether that box scrolls;
# - cut: any other box with overflow hidden or clip whose content is wider than it;
# - labels: each SVG <text> whose box (getBBox) runs out of the rect it is drawn on (the
#   smallest rect holding its anchor point) or out of its SVG's view box.
MEASURE = """async () => {
  await document.fonts.ready;
  const vw = document.documentElement.clientWidth;
  const out = [];
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('.ms-scroll, .ms-full')) continue;
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.right > vw + 1) out.push(el.tagName + '.' + el.className);
  }
  const figures = [];
  for (const box of document.querySelectorAll('.ms-figure .ms-scroll')) {
    if (box.closest('.ms-full') || box.scrollWidth <= box.clientWidth + 1) continue;
    figures.push({figure: box.closest('.ms-figure').id, content: box.scrollWidth,
                  box: box.clientWidth, scrolls: getComputedStyle(box).overflowX === 'auto'});
  }
  const cut = [];
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('.ms-full, svg, .ms-scroll')) continue;
    if (!['hidden', 'clip'].includes(getComputedStyle(el).overflowX)) continue;
    if (el.scrollWidth > el.clientWidth + 1) cut.push(el.tagName + '.' + el.className);
  }
  const labels = [];
  const holds = (r, x, y) => x >= r.x && x <= r.x + r.width && y >= r.y && y <= r.y + r.height;
  for (const svg of document.querySelectorAll('svg')) {
    if (svg.closest('.ms-full')) continue;
    const vb = svg.viewBox.baseVal;
    const rects = [...svg.querySelectorAll('rect')].map(r => r.getBBox())
        .sort((a, b) => a.width * a.height - b.width * b.height);
    for (const t of svg.querySelectorAll('text')) {
      const b = t.getBBox();
      const x = t.x.baseVal[0].value, y = t.y.baseVal[0].value;
      const frame = rects.find(r => holds(r, x, y)) || vb;
      const out = (f) => b.x < f.x - 0.5 || b.x + b.width > f.x + f.width + 0.5;
      if (out(frame) || out(vb)) {
        labels.push({figure: (svg.closest('.ms-figure') || {}).id || '', text: t.textContent,
                     width: Math.round(b.width), room: Math.round(frame.width)});
      }
    }
  }
  return {
    figures,
    shippedFont: [...document.fonts].some(
        f => f.family.replace(/"/g, '') === 'Noto Sans CJK SC' && f.status === 'loaded'),
    cut: cut.slice(0, 10),
    labels,
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
