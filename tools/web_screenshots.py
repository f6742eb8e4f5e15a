"""Screenshots of the web site at a phone's and a desktop's width, to look at by eye.

    python tools/web_screenshots.py [--out reports/web] [--only NAME ...]

Serves the site on 127.0.0.1 over a fresh SQLite database (as the browser tests do,
tests/web/live.py), opens Debian's Chromium with the browser tests' launch settings
(tests/chromium.py: every host but 127.0.0.1 resolves to nothing) and writes
``OUT/NAME-360.png`` and ``OUT/NAME-1280.png`` for each page: home, the chart in each names
form and each interface language, the horoscope, the unknown hour, a star, the settings,
the library, an article, the print view and a share card.  Each is the whole page.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "web"))

from live import serving  # noqa: E402

from chromium import installed, launch  # noqa: E402

BIRTH = "date=1987-05-16&time=10:30&gender=female&city=1816670"
WIDTHS = (360, 1280)
PAGES: dict[str, str] = {
    "home": "/",
    "home-zh-Hans": "/?lang=zh-Hans",
    "chart-hans": f"/chart?{BIRTH}",
    "chart-hant": f"/chart?{BIRTH}&names=hant",
    "chart-pinyin": f"/chart?{BIRTH}&names=pinyin",
    "chart-english": f"/chart?{BIRTH}&names=english",
    "chart-zh-Hans": f"/chart?{BIRTH}&lang=zh-Hans",
    "chart-zh-Hans-english": f"/chart?{BIRTH}&names=english&lang=zh-Hans",
    "horoscope": f"/chart?{BIRTH}&at=2026-03-01T10:00&year=2026",
    "unknown-hour": "/chart?date=1987-05-16&unknown_hour=1&gender=female",
    "unknown-hour-english": "/chart?date=1987-05-16&unknown_hour=1&gender=female&names=english",
    "star": f"/chart/star/wen_chang?{BIRTH}",
    "star-zh-Hans": f"/chart/star/wen_chang?{BIRTH}&lang=zh-Hans",
    "pillars": "/pillars",  # 八字反查: the empty form
    "pillars-found": "/pillars?pillars=庚辰+甲申+丙午+庚寅&from=1930&to=2100",
    "pillars-zh-Hans": "/pillars?pillars=庚辰+甲申+丙午+庚寅&from=1930&to=2100&lang=zh-Hans",
    "settings": "/settings",
    "settings-zh-Hans": "/settings?lang=zh-Hans",
    "library": "/library",
    "article": "",  # the library's first article, found on /library
    "print": f"/chart?{BIRTH}",  # the chart page as printed (print media)
    "card": "",  # the first article's share card
    "error-zh-Hans": "/chart?date=1987-02-30&gender=x&lang=zh-Hans",
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "reports" / "web")
    parser.add_argument("--only", nargs="*", default=None, help="page names to take")
    args = parser.parse_args(argv)
    if not installed():
        print("error: chromium: Debian's chromium is not installed", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    args.out.mkdir(parents=True, exist_ok=True)
    wanted = [n for n in PAGES if args.only is None or n in args.only]
    with (
        tempfile.TemporaryDirectory() as folder,
        serving(Path(folder)) as base,
        sync_playwright() as pw,
    ):
        browser = launch(pw)
        first = _first_article(browser, base)
        for width in WIDTHS:
            page = browser.new_page(viewport={"width": width, "height": 900})
            for name in wanted:
                path = PAGES[name]
                if name == "article":
                    path = f"/library/{first}"
                elif name == "card":
                    path = f"/library/{first}/card.png"
                page.emulate_media(media="print" if name == "print" else "screen")
                if name == "card":
                    # The card is served as a file to download: show it as an image.
                    page.set_content(f'<body style="margin:0"><img src="{base}{path}" '
                                     'style="max-width:100%"></body>')  # fmt: skip
                    page.wait_for_load_state("networkidle")
                else:
                    page.goto(base + path, wait_until="networkidle")
                target = args.out / f"{name}-{width}.png"
                page.screenshot(path=str(target), full_page=True)
                print(target.relative_to(ROOT) if target.is_relative_to(ROOT) else target)
            page.close()
        browser.close()
    return 0


def _first_article(browser: object, base: str) -> str:
    page = browser.new_page()  # type: ignore[attr-defined]
    page.goto(base + "/library")
    found = re.search(r'href="/library/([A-Z]{2}-[A-Z]+-\d+)"', page.content())
    page.close()
    return found.group(1) if found else "ZW-SET-01"


if __name__ == "__main__":
    raise SystemExit(main())
