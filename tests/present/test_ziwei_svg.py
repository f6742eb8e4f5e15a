"""The SVG board (mingshu.present.ziwei_svg.chart_svg), parsed back: each palace group holds
exactly the chart's stars of that palace with their brightness and 四化, its name and
stem-branch; the horoscope's marks, flowing stars and 四化 land in the right palaces."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mingshu.cli import app
from mingshu.errors import InputError
from mingshu.present.ziwei_svg import LAYOUTS, SVG_NS, chart_svg, chart_svgs
from mingshu.ziwei import NatalChart, by_solar
from mingshu.ziwei.horoscope import Horoscope

NS = {"svg": "http://www.w3.org/2000/svg"}
SVG = "{http://www.w3.org/2000/svg}"


def text_of(element: ET.Element) -> str:
    return "".join(element.itertext())


def check_board(
    chart: NatalChart, horoscope: Horoscope | None, names: str = "hans", layout: str = "board"
) -> None:
    root = ET.fromstring(chart_svg(chart, horoscope, names, layout))
    assert root.tag == f"{SVG}svg"
    x0, y0, width, height = (float(v) for v in root.attrib["viewBox"].split())
    assert (x0, y0, width) == (0, 0, 720 if layout == "board" else 360) and height >= 600
    assert root.attrib["font-family"].startswith("'Noto Sans CJK SC'")
    assert root.attrib["font-family"].endswith("sans-serif")
    sizes = [float(e.attrib["font-size"]) for e in root.iter() if "font-size" in e.attrib]
    assert sizes and min(sizes) >= 10

    groups = root.findall("svg:g[@class='palace']", NS)
    assert len(groups) == 12
    by_branch = {g.attrib["data-branch"]: g for g in groups}
    layers = horoscope.layers if horoscope is not None else ()
    for palace in chart.palaces:
        g = by_branch[palace.branch.key]
        assert g.attrib["data-palace"] == palace.name.key
        assert g.attrib["data-stem"] == palace.stem.key
        (name,) = g.findall("svg:text[@class='palace-name']", NS)
        assert text_of(name) == getattr(palace.name.names, names)
        (pillar,) = g.findall("svg:text[@class='stem-branch']", NS)
        if names in ("hans", "hant"):
            assert text_of(pillar) == getattr(palace.stem.names, names) + getattr(
                palace.branch.names, names
            )
        assert bool(g.findall("svg:text[@class='body-mark']", NS)) == palace.is_body

        texts = list(g.iter(f"{SVG}text"))
        stars = [e for e in texts if e.attrib.get("class", "").startswith("star")]
        assert [e.attrib["data-star"] for e in stars] == [s.star.key for s in palace.stars]
        for element, placed in zip(stars, palace.stars, strict=True):
            # A star too long for one line goes on in elements marked as its continuation.
            parts = [element]
            for later in texts[texts.index(element) + 1 :]:
                if later.attrib.get("data-part-of") != placed.star.key:
                    break
                parts.append(later)
            name = getattr(placed.star.names, names)
            if " " in name:  # a long Latin name may be cut into words
                assert name.startswith(element.text or "?")
            else:
                assert element.text == name
            spans = {t.attrib.get("class"): t for e in parts for t in e.iter(f"{SVG}tspan")}
            if placed.brightness is None:
                assert "data-brightness" not in element.attrib and "brightness" not in spans
            else:
                assert element.attrib["data-brightness"] == placed.brightness.key
                assert getattr(placed.brightness.names, names) in (spans["brightness"].text or "")
            if placed.mutagen is None:
                assert "data-mutagen" not in element.attrib and "mutagen" not in spans
            else:
                assert element.attrib["data-mutagen"] == placed.mutagen.key
                assert spans["mutagen"].text == f"[{getattr(placed.mutagen.names, names)}]"
            # Each layer's 四化 on this star, and no other.
            flowing_marks = [
                (t.attrib["data-layer"], t.attrib["data-mutagen"])
                for e in parts
                for t in e.iter(f"{SVG}tspan")
                if t.attrib.get("class") == "flowing-mutagen"
            ]
            if parts[1:]:  # a continuation's first span is the element's own text
                assert all(e.attrib["class"] == "continued" for e in parts[1:])
            expected = [
                (layer.scope.value, mutagen)
                for layer in layers
                for mutagen, star in zip(("lu", "quan", "ke", "ji"), layer.mutagens, strict=True)
                if star.key == placed.star.key
            ]
            assert flowing_marks == expected

        flowing = [
            (e.attrib["data-layer"], e.attrib["data-star"])
            for e in g.iter(f"{SVG}text")
            if e.attrib.get("class") == "flowing"
        ]
        assert flowing == [
            (layer.scope.value, s.star.key)
            for layer in layers
            for s in layer.stars
            if s.branch == palace.branch
        ]
        marks = [e.attrib["data-layer"] for e in g.findall("svg:text[@class='layer']", NS)]
        assert marks == [layer.scope.value for layer in layers if layer.branch == palace.branch]
        gods = [e.attrib["data-god"] for e in g.findall("svg:text[@class='god']", NS)]
        assert gods == [
            palace.chang_sheng.key,
            palace.bo_shi.key,
            palace.jiang_qian.key,
            palace.sui_qian.key,
        ]
        (decade,) = g.findall("svg:text[@class='decadal']", NS)
        assert text_of(decade) == f"{palace.decadal.start}–{palace.decadal.end}"

    centre = root.find("svg:g[@class='centre']", NS)
    assert centre is not None
    fields = {e.attrib.get("data-field"): text_of(e) for e in centre.iter(f"{SVG}text")}
    if names == "hans":
        assert chart.lunar_date.chinese() in fields["lunar"]
        assert fields["pillars"].endswith(" ".join(str(p) for p in chart.pillars))
        assert fields["class"].endswith(chart.five_elements_class.names.hans)
        assert fields["life_master"].endswith(chart.life_master.names.hans)
        assert fields["body_master"].endswith(chart.body_master.names.hans)


@pytest.mark.slow  # several seconds of CPU: the slow tier (CONTRIBUTING.md)
def test_every_fixture_chart(fixture_charts: list[tuple[NatalChart, Horoscope | None]]) -> None:
    for chart, horoscope in fixture_charts:
        check_board(chart, None)
        check_board(chart, horoscope)


@pytest.mark.parametrize("names", ["hans", "hant", "pinyin", "english"])
def test_every_name_style(
    fixture_charts: list[tuple[NatalChart, Horoscope | None]], names: str
) -> None:
    for chart, horoscope in fixture_charts[::20]:
        check_board(chart, horoscope, names)


def test_the_phone_layout_holds_the_same_chart(
    fixture_charts: list[tuple[NatalChart, Horoscope | None]],
) -> None:
    """The narrow layout: 360 units wide, so a 360-pixel phone draws every font at its own
    size (≥ 10 px); the palaces one under the other from the Life palace on."""
    for chart, horoscope in fixture_charts[::10]:
        check_board(chart, horoscope, layout="column")
    chart = fixture_charts[0][0]
    root = ET.fromstring(chart_svg(chart, layout="column"))
    order = [g.attrib["data-palace"] for g in root.findall("svg:g[@class='palace']", NS)]
    assert order[0] == "life" and len(order) == 12


# One script in the local loop; the other three in the slow tier (about 3 s of CPU each).
@pytest.mark.parametrize(
    "names",
    ["hans", *(pytest.param(n, marks=pytest.mark.slow) for n in ("hant", "pinyin", "english"))],
)
def test_the_fast_writer_writes_what_elementtree_writes(
    fixture_charts: list[tuple[NatalChart, Horoscope | None]], names: str
) -> None:
    """chart_svg writes each token's ``<text>`` once as markup and the document around it
    with its own small writer (ElementTree's element per text and tspan were half the
    drawing time).  ElementTree is the reference, byte for byte: each document read back by
    ElementTree's parser and written by ElementTree is the same text, on both layouts, with
    and without a horoscope and star links (with an href that needs escaping)."""

    def by_elementtree(svg: str) -> str:
        """The document read back and written again (without the namespace declaration,
        which ElementTree writes only with prefixes or with qualified attribute names)."""
        declaration = f' xmlns="{SVG_NS}"'
        assert svg.startswith(f"<svg{declaration} ")
        plain = svg.replace(declaration, "", 1)
        again = ET.tostring(ET.fromstring(plain), encoding="unicode")
        return again.replace("<svg", f"<svg{declaration}", 1)

    link = ("/chart/star/", '?a=1&b=<2>"%25')
    for chart, horoscope in fixture_charts[::7]:
        stars = sum(len(p.stars) for p in chart.palaces)
        for h in (None, horoscope):
            for layout in ("board", "column"):
                written = chart_svg(chart, h, names, layout)
                assert written == by_elementtree(written)
            for linked in chart_svgs(chart, h, names, star_link=link):
                assert linked == by_elementtree(linked)
                root = ET.fromstring(linked)
                hrefs = [a.get("href") for a in root.iter(f"{SVG}a")]
                assert len(hrefs) == linked.count('class="star-link"') == stars
                keys = [a[0].get("data-star") for a in root.iter(f"{SVG}a")]
                assert hrefs == [f'/chart/star/{key}?a=1&b=<2>"%25' for key in keys]
            # Both layouts from one board's tokens: the same documents as drawn alone.
            both = chart_svgs(chart, h, names)
            assert both == tuple(chart_svg(chart, h, names, x) for x in LAYOUTS)
            # As bytes: the same documents in UTF-8.
            utf8 = chart_svgs(chart, h, names, star_link=("/s/", "?a"), as_bytes=True)
            linked = chart_svgs(chart, h, names, star_link=("/s/", "?a"))
            assert utf8 == tuple(svg.encode() for svg in linked)


def test_a_token_is_written_as_elementtree_writes_it() -> None:
    """A token's markup, with text and attributes that need escaping, an empty text and
    spans with data of their own, read back by ElementTree: the same text and attributes."""
    from mingshu.present.ziwei_svg import _one_line, _Span, _Token

    spans = [
        _Span('a<b & "c">', "#123", 14.0, bold=True),
        _Span("", "#456", 11.0, attrs={"class": "brightness"}, gap=3),
        _Span("d\te", "#789", 12.0, attrs={"data-x": "<&\n\r>"}),
    ]
    for token in (_Token(spans, {"data-star": "zi_wei", "class": "star major"}),
                  _Token(spans[1:], {"data-y": 'q"'}), _Token([_Span("", "#000", 10.0)])):  # fmt: skip
        _, pieces, _ = _one_line([token], 1.25)
        text = ET.fromstring(b"<g>" + b"2.5".join(pieces) + b"</g>")[0]
        baseline = f"{token.size + 2:.1f}"  # below the block's top, the y
        assert (text.tag, text.get("x"), text.get("y"), text.get("dy")) == (
            "text", "1.2", "2.5", baseline,
        )  # fmt: skip
        assert {k: v for k, v in text.attrib.items() if k not in ("x", "y", "dy")} == {
            **token.attrs, "font-size": f"{token.spans[0].size:g}", "fill": token.spans[0].fill,
            **({"font-weight": "bold"} if token.spans[0].bold else {}),
        }  # fmt: skip
        plain = not token.spans[0].attrs
        assert (text.text or "") == (token.spans[0].text if plain else "")
        tspans = list(text)
        assert [(t.text or "") for t in tspans] == [s.text for s in token.spans[plain:]]
        for t, s in zip(tspans, token.spans[plain:], strict=True):
            assert {k: t.get(k) for k in s.attrs} == s.attrs
            assert t.get("fill") == s.fill


def test_text_is_escaped_and_the_style_checked() -> None:
    chart = by_solar("1987-05-16", "10:30", "female")
    with pytest.raises(InputError, match="names"):
        chart_svg(chart, names="klingon")
    with pytest.raises(InputError, match="layout"):
        chart_svg(chart, layout="spiral")
    with pytest.raises(InputError, match="layout"):
        chart_svgs(chart, layouts=("board", "spiral"))
    assert chart_svg(chart).startswith("<svg")


def test_cli_writes_the_svg(tmp_path: Path) -> None:
    out = tmp_path / "chart.svg"
    args = ["ziwei", "1987-05-16", "10:30", "-g", "female", "--at", "2026-11-29T10:00"]
    result = CliRunner().invoke(app, [*args, "--svg", str(out)])
    assert result.exit_code == 0, result.output
    chart = by_solar("1987-05-16", "10:30", "female")
    assert out.read_text(encoding="utf-8") == chart_svg(chart, chart.horoscope("2026-11-29T10:00"))
    assert [p.name for p in tmp_path.iterdir()] == ["chart.svg"]  # no temporary file left


def test_cli_svg_bad_path_is_an_input_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app,
        ["ziwei", "1987-05-16", "10:30", "-g", "f", "--svg", str(tmp_path / "no" / "c.svg")],
    )
    assert result.exit_code == 2
    assert result.stderr.startswith("error: svg: ")
    assert "Traceback" not in result.output


def test_a_linked_line_is_filled_with_its_baseline_and_query() -> None:
    """A linked block's chunks are joined by its top, then by the query that ends each
    star's link: filled in, each text's ``y`` is the top and its ``dy`` the line's baseline
    below it (the largest font + 2), the star's name is a link to the link's start + its
    key + the query, and text with ``%`` and ``&`` is kept; other tokens on the line are
    plain."""
    from mingshu.present.ziwei_svg import _one_line, _Span, _Token

    star = _Token([_Span("100% 紫微", "#123", 16.0)], {"data-star": "zi_wei", "class": "star"})
    other = _Token([_Span("5% & c", "#456", 12.0)], {"class": "god"})
    height, pieces, chunks = _one_line([star, other], 6.0, link="/s/")
    assert chunks and not pieces and height == 16 + 4
    g = ET.fromstring(b"<g>" + b"?a=1&amp;b=%25".join(b"2.0".join(c) for c in chunks) + b"</g>")
    a, text = list(g)
    assert (a.tag, a.get("href"), a[0].text, text.text) == (
        "a",
        "/s/zi_wei?a=1&b=%25",
        "100% 紫微",
        "5% & c",
    )
    assert [(t.get("y"), t.get("dy")) for t in (a[0], text)] == [("2.0", "18.0")] * 2
    # No links: pieces joined by the top.
    _, pieces, chunks = _one_line([star, other], 6.0)
    assert not chunks and ET.fromstring(b"<g>" + b"2.0".join(pieces) + b"</g>")[0].tag == "text"
