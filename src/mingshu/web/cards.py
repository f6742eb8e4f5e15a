"""Share cards: a 1200×630 PNG per article (title, short version), drawn with the Noto Sans
CJK SC subset shipped in ``mingshu/web/fonts`` so Chinese renders on a machine with no CJK
fonts.  The library's own card renderer (``mingshu.library.cards.share_card_png``) is used
when it is there, given the same font."""

from __future__ import annotations

import importlib
import io
import textwrap
from pathlib import Path
from typing import Any, Final

__all__ = ["FONT", "HEIGHT", "WIDTH", "render_card"]

FONT: Final = Path(__file__).parent / "fonts" / "NotoSansCJKsc-Subset.otf"
"""Noto Sans CJK SC, subset by tools/build_card_font.py (SIL OFL 1.1, fonts/OFL.txt)."""
WIDTH: Final = 1200
HEIGHT: Final = 630


def render_card(article: Any) -> bytes:
    """The article's share card as PNG bytes."""
    try:
        cards = importlib.import_module("mingshu.library.cards")
    except ImportError:
        cards = None
    if cards is not None and hasattr(cards, "share_card_png"):
        return bytes(cards.share_card_png(article, font_path=str(FONT)))
    return _own_card(article)


def _wrap(text: str, width: int) -> list[str]:
    # CJK text has no spaces: wrap by characters when a line has none.
    out: list[str] = []
    for para in text.splitlines() or [""]:
        out.extend(textwrap.wrap(para, width) or [""])
    return out


def _own_card(article: Any) -> bytes:
    from PIL import Image, ImageDraw, ImageFont

    image = Image.new("RGB", (WIDTH, HEIGHT), "#fbf8f3")
    draw = ImageDraw.Draw(image)
    title_font = ImageFont.truetype(str(FONT), 56)
    body_font = ImageFont.truetype(str(FONT), 30)
    small = ImageFont.truetype(str(FONT), 24)
    draw.rectangle((0, 0, WIDTH, 14), fill="#6a1b9a")
    draw.text((60, 50), f"命书 mingshu · {article.id}", font=small, fill="#6a1b9a")
    y = 100
    for line in _wrap(str(article.title), 34)[:2]:
        draw.text((60, y), line, font=title_font, fill="#222222")
        y += 72
    y += 16
    for line in _wrap(str(article.short_version or article.subtitle or ""), 62)[:8]:
        draw.text((60, y), line, font=body_font, fill="#333333")
        y += 44
    draw.text((60, HEIGHT - 60), f"v{article.version} · {article.date}", font=small, fill="#666666")
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()
