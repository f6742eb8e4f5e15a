"""The HTML fragments, the share card, the WebP summary and the terminal view."""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mingshu.cli import app
from mingshu.errors import InputError
from mingshu.library import load
from mingshu.library.cards import CARD_SIZE, share_card_png
from mingshu.library.check import links
from mingshu.library.model import _ROOT
from mingshu.library.render import article_html, css_path, index_html
from mingshu.library.summary import FRAME_MS, summary_webp


def test_load_orders_articles_and_refuses_unknown_ids() -> None:
    lib = load()
    ids = [a.id for a in lib.articles]
    assert ids == sorted(ids)
    assert {"ZW-AUX-11", "ZW-AUX-17", "ZW-AUX-18", "ZW-AUX-19", "BZ-SS-02"} <= set(ids)
    with pytest.raises(InputError) as e:
        lib.get("ZW-AUX-99")
    assert e.value.field == "article"


def _with_a_planned_link(tmp_path: Path) -> Path:
    """The shipped articles, with ZW-AUX-17 linking to an article that is only planned (the
    library itself has none left)."""
    folder = tmp_path / "articles"
    shutil.copytree(_ROOT, folder)
    with (folder / "_planned.yaml").open("a", encoding="utf-8") as f:
        f.write('ZW-AUX-98: "A star still to be written"\n')
    path = folder / "ZW-AUX-17.md"
    text = path.read_text(encoding="utf-8")
    old = "Wen Chang's own rule has its own article"
    assert old in text
    path.write_text(text.replace(old, "See [a planned star](ZW-AUX-98). " + old, 1), "utf-8")
    return folder


def test_article_fragment_links_planned_and_escapes(tmp_path: Path) -> None:
    lib = load(_with_a_planned_link(tmp_path))
    html = article_html(
        lib.get("ZW-AUX-17"), lib, link=lambda i: f"/lib/{i}",
        helpful="<section class='form'>Was this article helpful?</section>",
    )  # fmt: skip
    assert "<html" not in html and "<head>" not in html and "<body" not in html
    assert "href='/lib/ZW-AUX-18'" in html  # a written article is a link through `link`
    assert "href='/lib/ZW-AUX-05'" in html  # Wen Chang, written since the seeds
    assert "ZW-AUX-98" in links(lib.get("ZW-AUX-17")) and "ZW-AUX-98" in lib.planned
    assert "/lib/ZW-AUX-98" not in html  # planned: plain text, not a link
    assert "<span class='ms-planned' title='planned article'>" in html
    assert html.count("<svg") >= 3 and "aria-label='" in html
    # the table cells are the engine's, and the marked diagonal is shown
    assert re.search(r"<th scope='row'>Day 5</th><td class='ms-mark'>Ox</td>", html)
    # the parts in order
    order = [
        "The short version",
        "Eighteen seconds",
        "Read first",
        "The day-by-hour table",
        "Check it yourself",
        "Problems",
        "Questions readers ask next",
        "Was this article helpful?",
        "Sources &amp; references</h2>",
        "Continue reading",
    ]
    positions = [html.index(p) for p in order]
    assert positions == sorted(positions)


def test_planted_markup_is_escaped(tmp_path: Path) -> None:
    folder = tmp_path / "articles"
    shutil.copytree(_ROOT, folder)
    path = folder / "ZW-AUX-17.md"
    text = path.read_text(encoding="utf-8")
    text = text.replace("A day forward and an hour back cancel.", "<script>x()</script>", 1)
    text = text.replace('caption: "Three cells', 'caption: "<b>Three</b> cells', 1)
    path.write_text(text, encoding="utf-8")
    lib = load(folder)
    html = article_html(lib.get("ZW-AUX-17"), lib)
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "<b>Three</b>" not in html


def test_index_by_subject_and_series(tmp_path: Path) -> None:
    html = index_html(load(), link=lambda i: f"{i}.html")
    heads = ("<h2>Zi Wei Dou Shu", "<h2>BaZi", "<h2>About this library")
    assert html.index(heads[0]) < html.index(heads[1]) < html.index(heads[2])
    assert "href='ZW-AUX-17.html'" in html and "href='MS-LIB-01.html'" in html
    assert "(planned)" not in html  # every linked article is written
    planned = index_html(load(_with_a_planned_link(tmp_path)), link=lambda i: f"{i}.html")
    assert "A star still to be written" in planned and "(planned)" in planned
    assert css_path().is_file()


def test_share_card_is_1200_by_630_png() -> None:
    from PIL import Image

    lib = load()
    data = share_card_png(lib.get("ZW-AUX-19"))
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG" and image.size == CARD_SIZE


def test_summary_is_an_eighteen_second_animated_webp() -> None:
    from PIL import Image

    data = summary_webp(load().get("ZW-AUX-11"))
    image = Image.open(io.BytesIO(data))
    assert image.format == "WEBP" and image.n_frames == 4
    total = 0
    for n in range(image.n_frames):
        image.seek(n)
        image.load()
        total += image.info["duration"]
    assert total == 4 * FRAME_MS == 18_000


def test_cli_show_prints_tables_and_refuses_unknown_id() -> None:
    runner = CliRunner()
    shown = runner.invoke(app, ["library", "show", "ZW-AUX-19"])
    assert shown.exit_code == 0, shown.output
    assert "Tai Fu" in shown.output and "Rooster" in shown.output and "┃" in shown.output
    bad = runner.invoke(app, ["library", "show", "ZW-AUX-99"])
    assert bad.exit_code == 2
    assert bad.output.strip().splitlines() == [
        "error: article: no article 'ZW-AUX-99' in the library"
    ]


@pytest.mark.slow  # several seconds of CPU: the slow tier (CONTRIBUTING.md)
def test_cli_build_writes_a_site(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["library", "build", "--out", str(tmp_path / "site")])
    assert result.exit_code == 0, result.output
    for name in (
        "index.html",
        "library.css",
        "library-font.css",
        "fonts/NotoSansCJKsc-Subset.otf",
        "fonts/OFL.txt",
        "ZW-AUX-17.html",
        "cards/BZ-SS-02.png",
        "summaries/ZW-AUX-18.webp",
        "stars-ziwei.html",
        "stars-bazi.html",
    ):
        assert (tmp_path / "site" / name).is_file(), name
    page = (tmp_path / "site" / "ZW-AUX-17.html").read_text(encoding="utf-8")
    assert "href='library.css'" in page and "href='ZW-AUX-18.html'" in page
