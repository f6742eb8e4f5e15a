"""The built library in Chromium (Debian package, driven by Playwright) at 360 px and
1280 px: a screenshot of each page is saved (in ``MINGSHU_SCREENSHOTS`` when it is set, else
in the test's temporary folder), no page overflows sideways outside the scrollable diagram
boxes, every image has a text alternative, and nothing is clipped: at 1280 px every table
and diagram fits its column, at 360 px one wider than the screen scrolls in its own box, no
other box cuts its content, and no SVG label runs out of its box at either width.

Chromium sees only the DejaVu fonts (a reader without CJK fonts; DejaVu is wider than Noto),
so the diagrams' labels are drawn in the subset the static site ships, the font they were
measured in, and the tables in DejaVu."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import chromium  # tests/chromium.py
from mingshu.library import load
from mingshu.library.build import build_site

ROOT = Path(__file__).resolve().parents[2]
HELPER = Path(__file__).with_name("_browser.py")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not chromium.installed(), reason="chromium is not installed"),
    pytest.mark.skipif(not chromium.DEJAVU.is_dir(), reason="the DejaVu fonts are not installed"),
]


def test_pages_at_360_and_1280(tmp_path: Path) -> None:
    pytest.importorskip("playwright")
    site = tmp_path / "site"
    library = load()
    build_site(library, site)
    shots = Path(os.environ.get("MINGSHU_SCREENSHOTS") or tmp_path / "screenshots")
    catalogues = ["stars-ziwei.html", "stars-bazi.html"]  # before the articles: the last is one
    pages = ["index.html", *catalogues, *(f"{a.id}.html" for a in library.articles)]
    done = subprocess.run(
        chromium.isolated(
            [sys.executable, str(HELPER), str(site), str(shots), "360", "1280", "--", *pages]
        ),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env={**os.environ, **chromium.dejavu_only(tmp_path)},
    )
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout)
    motion = report.pop()
    full = report.pop()
    assert full["views"] >= 3 and full["bad"] == [], full
    assert len(report) == 2 * len(pages)
    # the eighteen seconds: four frames on one 18 s cycle, the last starting at 13.5 s;
    # the Pause control stops it; reduced motion shows the frames still, one under another
    playing = motion["no-preference"]
    assert playing["frames"] == 4 and playing["name"] == "ms-frame"
    assert playing["duration"] == "18s" and playing["delay"] == "13.5s"
    assert playing["state"] == "running" and motion["paused"]["state"] == "paused"
    assert motion["reduce"]["name"] == "none"
    for r in report:
        where = f"{r['page']} at {r['width']} px"
        assert Path(r["shot"]).stat().st_size > 1000, where
        assert r["scrollWidth"] <= r["viewport"], f"{where} overflows sideways: {r['outside']}"
        assert r["outside"] == [], f"{where}: {r['outside']}"
        assert r["imgNoAlt"] == 0, f"{where}: an image has no alt text"
        assert r["svgNoLabel"] == 0 and r["svgUnroled"] == 0, f"{where}: an SVG has no label"
        if r["page"] not in ("index.html", *catalogues):  # the articles draw diagrams
            assert r["svgs"] > 0, where
            assert r["shippedFont"], f"{where}: the diagrams are not drawn in the shipped font"
        assert r["labels"] == [], f"{where}: SVG labels run out of their boxes"
        assert r["cut"] == [], f"{where}: boxes cut their content"
        if r["width"] >= 1280:  # a desktop reads every figure whole, without scrolling
            assert r["figures"] == [], f"{where}: figures wider than the column"
        else:  # a phone scrolls a wide figure in its own box
            assert all(f["scrolls"] for f in r["figures"]), f"{where}: {r['figures']}"
