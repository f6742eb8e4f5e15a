"""Subset Noto Sans CJK SC to the characters the share cards use, for
src/mingshu/web/fonts/NotoSansCJKsc-Subset.otf (dev time only; fontTools).

    .venv/bin/python tools/build_card_font.py [/path/to/NotoSansCJK-Regular.ttc]

Source font: Noto Sans CJK SC 2.004 (Debian fonts-noto-cjk, face 2 of
NotoSansCJK-Regular.ttc), SIL Open Font License 1.1 (src/mingshu/web/fonts/OFL.txt).
Characters kept: printable ASCII and Latin-1, common punctuation, every character of the
library's articles (mingshu.library, when installed), of the name tables
(src/mingshu/**/*.toml), and of the presenters' and the web site's own labels, so cards,
the SVG chart and the pages render on a machine without CJK fonts.  Rerun it when
articles add characters.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "src" / "mingshu" / "web" / "fonts" / "NotoSansCJKsc-Subset.otf"
DEFAULT_TTC = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
SC_FACE = 2


def characters() -> set[str]:
    chars = {chr(c) for c in range(0x20, 0x7F)} | {chr(c) for c in range(0xA0, 0x180)}
    chars |= set("·—–‘’“”…•→←↑↓×÷°′″、。，；：？！「」『』《》〈〉（）【】〔〕～·　")
    src = ROOT / "src" / "mingshu"
    texts = [*src.rglob("*.toml"), *(src / "present").rglob("*.py"), *(src / "web").rglob("*.py")]
    texts += [*(src / "web" / "templates").glob("*.html"), *(src / "library").rglob("*.md")]
    for path in sorted(texts):
        chars |= set(path.read_text(encoding="utf-8"))
    try:
        library = importlib.import_module("mingshu.library").load()
    except ImportError:
        library = None
    if library is not None:
        for article in library.articles:
            for value in vars(article).values() if hasattr(article, "__dict__") else ():
                chars |= set(str(value))
            for name in ("id", "title", "subtitle", "short_version", "subject"):
                chars |= set(str(getattr(article, name, "")))
            for extra in ("source", "text", "markdown"):
                chars |= set(str(getattr(article, extra, "") or ""))
    return {c for c in chars if c.isprintable() or c == " "}


def main() -> None:
    ttc = sys.argv[1] if len(sys.argv) > 1 else DEFAULT_TTC
    font = TTCollection(ttc).fonts[SC_FACE]
    options = subset.Options()
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.name_legacy = True
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.drop_tables += ["DSIG"]
    sub = subset.Subsetter(options)
    sub.populate(text="".join(sorted(characters())))
    sub.subset(font)
    font.recalcTimestamp = False  # the same characters give the same bytes: no churn in git
    tmp = OUT.with_suffix(".tmp")
    font.save(str(tmp))
    tmp.replace(OUT)
    print(f"{OUT}: {len(font.getGlyphOrder())} glyphs, {OUT.stat().st_size // 1024} KiB")


if __name__ == "__main__":
    main()
