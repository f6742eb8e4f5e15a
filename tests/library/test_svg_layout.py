"""The library's diagrams keep every label inside its box.

The reference widths are read from the shipped font by fontTools (its advance widths, the
``hmtx`` table), not by the Pillow measurement the drawing code uses; bold is Chromium's
synthetic bold, measured in the browser at 5.1 % wider (194.5 px against 185.0 px for
"En Guang: 1 before Wen Chang" at 13 px).  tests/library/test_browser.py checks the same
in Chromium at 360 and 1280 px."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path

import pytest

from mingshu.library import load
from mingshu.library.check import directives
from mingshu.library.svg import WIDEST, diagram

ttLib = pytest.importorskip("fontTools.ttLib")

FONT = Path(__file__).resolve().parents[2] / "src/mingshu/web/fonts/NotoSansCJKsc-Subset.otf"
SVG = "{http://www.w3.org/2000/svg}"
BOLD = 194.5 / 185.0


@cache
def _advances() -> tuple[dict[int, int], float]:
    font = ttLib.TTFont(str(FONT))
    hmtx = font["hmtx"]
    widths = {code: hmtx[glyph][0] for code, glyph in font.getBestCmap().items()}
    return widths, float(font["head"].unitsPerEm)


def width(text: str, size: float, bold: bool) -> float:
    widths, em = _advances()
    missing = [ch for ch in text if ord(ch) not in widths]
    assert not missing, f"the shipped font lacks {missing} (drawn in another font)"
    advance = sum(widths[ord(ch)] for ch in text) * size / em
    return advance * BOLD if bold else advance


def _lines(text: ET.Element) -> list[str]:
    return [text.text or "", *((t.text or "") for t in text.iter(f"{SVG}tspan"))]


def overflows(svg: str) -> list[str]:
    """Each label whose extent runs out of the smallest rect holding its anchor point, or
    out of the view box."""
    root = ET.fromstring(svg)
    _x, _y, vw, vh = (float(v) for v in root.attrib["viewBox"].split())
    rects = sorted(
        (
            tuple(float(r.attrib[k]) for k in ("x", "y", "width", "height"))
            for r in root.iter(f"{SVG}rect")
        ),
        key=lambda r: r[2] * r[3],
    )
    out = []
    for text in root.iter(f"{SVG}text"):
        x, y = float(text.attrib["x"]), float(text.attrib["y"])
        size = float(text.attrib["font-size"])
        bold = text.attrib.get("font-weight") == "bold"
        w = max(width(line, size, bold) for line in _lines(text))
        anchor = text.attrib.get("text-anchor", "start")
        left = {"start": x, "middle": x - w / 2, "end": x - w}[anchor]
        holder = next(
            (r for r in rects if r[0] <= x <= r[0] + r[2] and r[1] <= y <= r[1] + r[3]),
            (0.0, 0.0, vw, vh),
        )
        for fx, _fy, fw, _fh in (holder, (0.0, 0.0, vw, vh)):
            if left < fx - 0.5 or left + w > fx + fw + 0.5:
                out.append(f"{' / '.join(_lines(text))!r}: {w:.0f} px in {fw:.0f} px")
                break
    return out


def _shipped_diagrams() -> list[tuple[str, str, dict[str, object]]]:
    return [
        (f"{a.id} {d.options.get('id', d.line)}", d.arg, dict(d.options))
        for a in load().articles
        for d in directives(a)
        if d.name == "diagram"
    ]


DIAGRAMS = _shipped_diagrams()


@pytest.mark.parametrize(("where", "kind", "options"), DIAGRAMS, ids=[w for w, _k, _o in DIAGRAMS])
def test_every_label_of_the_shipped_diagrams_stays_in_its_box(
    where: str, kind: str, options: dict[str, object]
) -> None:
    svg, _alt = diagram(kind, options)
    assert overflows(svg) == [], where
    # no wider than the article column at 1280 px leaves (less the summary frame's padding)
    assert float(ET.fromstring(svg).attrib["width"]) <= WIDEST <= 670, where


def test_a_long_label_wraps_and_its_box_grows() -> None:
    long = "Count ends on a day whose name is far too long for any one box of the strip"
    svg, _alt = diagram("first_days", {"days": [1, 2]})
    plain = ET.fromstring(svg)
    svg_long, _alt = diagram(
        "layers", {"items": [{"layer": "engine", "title": long, "text": long + " " + long}]}
    )
    root = ET.fromstring(svg_long)
    assert overflows(svg_long) == []
    texts = list(root.iter(f"{SVG}text"))
    assert len(_lines(texts[1])) >= 3 and len(_lines(texts[2])) >= 2  # title and text wrapped
    assert float(root.attrib["height"]) > 58 + 8  # the row grew to hold them
    assert overflows(svg) == [] and float(plain.attrib["width"]) <= WIDEST


def test_the_reference_reads_the_font() -> None:
    # CJK ideographs are one em in Noto Sans CJK; Latin letters narrower
    assert width("紫微斗数", 13, bold=False) == 4 * 13
    assert 0 < width("Rat", 13, bold=False) < 3 * 13


def test_the_static_pages_bring_the_font_the_labels_are_measured_in() -> None:
    from mingshu.library.build import FONT_CSS, page
    from mingshu.library.svg import FONT as FAMILIES
    from mingshu.library.svg import FONT_FILE

    html = page("t", "<p>x</p>")
    assert html.index("href='library-font.css'") < html.index("href='library.css'")
    first = FAMILIES.split("'")[1].split(",")[0].strip()  # the family the SVGs name first
    assert first == '"Noto Sans CJK SC"' and f"font-family: {first};" in FONT_CSS
    assert f'url("fonts/{FONT_FILE}")' in FONT_CSS and FONT.name == FONT_FILE


def test_the_layers_figure_fits_a_phone() -> None:
    # 312 px: a 360 px screen less the article's padding (render.PHONE_WIDTH)
    from mingshu.library.render import PHONE_WIDTH

    for where, kind, options in DIAGRAMS:
        if kind == "layers":
            svg, _alt = diagram(kind, options)
            assert float(ET.fromstring(svg).attrib["width"]) <= PHONE_WIDTH, where
