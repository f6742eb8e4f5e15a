"""``mingshu library build``: the library as a static site that works from the file system
(relative links, the stylesheet beside the pages, SVG inline, share cards as PNG files, and
the CJK subset the diagrams' labels are measured in, so they draw at the measured width)."""

from __future__ import annotations

from html import escape
from importlib import resources
from pathlib import Path

from mingshu.arguments import check_path, check_type
from mingshu.files import make_folder, replacing, replacing_bytes
from mingshu.library.coverage import ENGINES
from mingshu.library.model import Article, Library
from mingshu.library.render import (
    CATALOGUE_TITLES,
    article_html,
    catalogue_html,
    css_path,
    index_html,
)
from mingshu.library.svg import FONT_FILE

__all__ = ["build_site", "page"]

# The family the diagrams name first (svg.FONT): the reader's own, else the shipped subset
# copied beside the pages (the web site's site.css says the same with its own URL).
FONT_CSS = f"""@font-face {{
  font-family: "Noto Sans CJK SC";
  src: local("Noto Sans CJK SC"), local("NotoSansCJKsc-Regular"),
       url("fonts/{FONT_FILE}") format("opentype");
  font-display: swap;
}}
"""


def page(title: str, fragment: str, *, description: str = "", home: bool = False) -> str:
    """A whole HTML page around a fragment."""
    nav = "" if home else "<nav class='ms-top'><a href='index.html'>Knowledge library</a></nav>"
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{escape(title)}</title>"
        f"<meta name='description' content='{escape(description)}'>"
        "<link rel='stylesheet' href='library-font.css'>"
        "<link rel='stylesheet' href='library.css'></head>"
        f"<body>{nav}{fragment}</body></html>"
    )


def _write(path: Path, data: str | bytes) -> None:
    if isinstance(data, bytes):
        with replacing_bytes(path, "out") as binary:
            binary.write(data)
        return
    with replacing(path, "out") as out:
        out.write(data)


def _link(article_id: str) -> str:
    return f"{article_id}.html"


def _stars(engine: str) -> str:
    return f"stars-{engine}.html"


def build_site(library: Library, out: Path | str) -> list[Path]:
    """Write ``index.html``, one page per article, the star catalogues
    ``stars-ziwei.html`` and ``stars-bazi.html``, ``library.css``, ``library-font.css``
    with ``fonts/`` (the diagrams' font), ``cards/ID.png`` and ``summaries/ID.webp`` into
    ``out``; returns the files written."""
    check_type(library, Library, "library", "a library (library.load())")
    out = check_path(out, "out")
    make_folder(out, "out")  # the last component only: a missing parent is refused
    written: list[Path] = []
    css = out / "library.css"
    _write(css, css_path().read_bytes())
    written.append(css)
    make_folder(out / "fonts", "out")
    fonts = resources.files("mingshu") / "web" / "fonts"  # package data, not an import
    for name in (FONT_FILE, "OFL.txt"):  # the font travels with its licence
        _write(out / "fonts" / name, (fonts / name).read_bytes())
        written.append(out / "fonts" / name)
    _write(out / "library-font.css", FONT_CSS)
    written.append(out / "library-font.css")
    index = out / "index.html"
    _write(index, page("Knowledge library", index_html(library, link=_link), home=True))
    written.append(index)
    for engine in ENGINES:  # the star catalogues, each linking the other
        other = "bazi" if engine == "ziwei" else "ziwei"
        path = out / _stars(engine)
        fragment = catalogue_html(library, engine, link=_link, other=_stars(other))
        _write(path, page(CATALOGUE_TITLES[engine], fragment))
        written.append(path)
    for article in library.articles:
        written.extend(_article_files(article, library, out))
    return written


def _article_files(article: Article, library: Library, out: Path) -> list[Path]:
    files: list[Path] = []
    card_url = summary_url = None
    try:
        from mingshu.library.cards import share_card_png

        make_folder(out / "cards", "out")
        card = out / "cards" / f"{article.id}.png"
        _write(card, share_card_png(article))
        files.append(card)
        card_url = f"cards/{article.id}.png"
    except ImportError:
        pass
    try:
        from mingshu.library.summary import summary_webp

        make_folder(out / "summaries", "out")
        webp = out / "summaries" / f"{article.id}.webp"
        _write(webp, summary_webp(article))
        files.append(webp)
        summary_url = f"summaries/{article.id}.webp"
    except ImportError:
        pass
    html = article_html(article, library, link=_link, card_url=card_url, summary_url=summary_url)
    path = out / f"{article.id}.html"
    _write(path, page(f"{article.title} — {article.id}", html, description=article.subtitle))
    files.append(path)
    return files
