"""Share cards: a 1200×630 PNG with the title, the short version and the key table, all
drawn from the article and the engine (Pillow)."""

from __future__ import annotations

import io
import re
import textwrap
from pathlib import Path
from typing import Any, Final

from mingshu.errors import InputError
from mingshu.library import engine as E
from mingshu.library.model import Article

__all__ = [
    "CARD_SIZE",
    "DEFAULT_FONT",
    "FONT_CANDIDATES",
    "draw_table",
    "font",
    "plain",
    "share_card_png",
]

CARD_SIZE: Final = (1200, 630)
FONT_CANDIDATES: Final = (
    Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"),
    Path("/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc"),
    Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
)
"""The first present is used (CJK first: titles name stars in characters); otherwise
Pillow's own bundled font.  Callers that ship a font (the web site) pass ``font_path``."""
DEFAULT_FONT: Final = next((p for p in FONT_CANDIDATES if p.is_file()), FONT_CANDIDATES[-1])
INK: Final = (34, 34, 34)
MUTED: Final = (102, 102, 102)
GREEN: Final = (31, 122, 58)
MARK: Final = (217, 239, 223)

_ROLE = re.compile(r"\s*\{claim\}`[^`]*`")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")


def plain(text: str) -> str:
    """Inline Markdown as plain text: links to their words, claims dropped."""
    return _LINK.sub(r"\1", _ROLE.sub("", text)).replace("**", "")


def font(size: int, font_path: Path | str | None = None) -> Any:
    from PIL import ImageFont

    path = Path(font_path) if font_path else DEFAULT_FONT
    if path.is_file():
        return ImageFont.truetype(str(path), size)
    if font_path:
        raise InputError("font_path", f"{font_path} is not a font file")
    return ImageFont.load_default(size=size)


def key_table(article: Article, figure: str) -> E.Table | None:
    from mingshu.library.check import directives

    for d in directives(article):
        if d.name == "table" and str(d.options.get("id", "")) == figure:
            return E.table(d.arg, d.options)
    return None


def draw_table(draw: Any, t: E.Table, x: int, y: int, size: int, fp: Path | str | None) -> int:
    """Draw ``t`` at (x, y); returns the bottom edge."""
    f = font(size, fp)
    pad = size // 2
    widths = [
        max(int(draw.textlength(str(row[c]), font=f)) for row in (t.columns, *t.rows)) + 2 * pad
        for c in range(len(t.columns))
    ]
    h = size + pad
    for r, row in enumerate((t.columns, *t.rows)):
        cx = x
        for c, cell in enumerate(row):
            fill = (238, 238, 238) if r == 0 else (MARK if (r - 1, c) in t.marked else None)
            draw.rectangle([cx, y, cx + widths[c], y + h], fill=fill, outline=(190, 190, 190))
            colour = GREEN if (r - 1, c) in t.marked else INK
            draw.text((cx + pad, y + pad // 2), str(cell), font=f, fill=colour)
            cx += widths[c]
        y += h
    return y


def share_card_png(article: Article, *, font_path: Path | str | None = None) -> bytes:
    """The article's share card: 1200×630 PNG bytes."""
    from PIL import Image, ImageDraw

    img = Image.new("RGB", CARD_SIZE, "white")
    draw = ImageDraw.Draw(img)
    draw.rectangle([0, 0, CARD_SIZE[0], 12], fill=GREEN)
    draw.text(
        (48, 40),
        f"{article.id} · {article.subject} · mingshu knowledge library",
        font=font(24, font_path),
        fill=MUTED,
    )
    y = 80
    for line in textwrap.wrap(article.title, 34)[:2]:
        draw.text((48, y), line, font=font(52, font_path), fill=INK)
        y += 64
    y += 10
    t = key_table(article, article.card_figure)
    text_width = 40 if t is not None else 80
    short = plain(article.short_version)
    for line in textwrap.wrap(short, text_width)[:9]:
        draw.text((48, y), line, font=font(24, font_path), fill=INK)
        y += 34
    rule = plain(article.summary_rule)
    y = max(y, 480) + 16
    for line in textwrap.wrap(rule, 80)[:2]:
        draw.text((48, y), line, font=font(24, font_path), fill=GREEN)
        y += 34
    if t is not None:
        rows = t.rows[:8]
        small = E.Table(t.columns[:5], tuple(r[:5] for r in rows), t.marked, t.mark_rule)
        draw_table(draw, small, 640, 230, 18, font_path)
    out = io.BytesIO()
    img.save(out, format="PNG", optimize=True)
    return out.getvalue()
