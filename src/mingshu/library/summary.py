"""The eighteen-second summary as an animated WebP (Pillow): the same four frames the page
plays (title; the key table; the rule in one line; the questions to ask), 4.5 s each."""

from __future__ import annotations

import io
import textwrap
from pathlib import Path
from typing import Any, Final

from mingshu.library.cards import GREEN, INK, MUTED, draw_table, fit_table, font, key_table, plain
from mingshu.library.model import Article

__all__ = ["FRAME_MS", "SIZE", "summary_frames", "summary_webp"]

SIZE: Final = (800, 450)
FRAME_MS: Final = 4500


def _frame(kicker: str) -> tuple[Any, Any]:
    from PIL import Image, ImageDraw

    img = Image.new("RGB", SIZE, "white")
    draw = ImageDraw.Draw(img)
    draw.rectangle([0, 0, SIZE[0], 8], fill=GREEN)
    draw.text((32, 24), kicker.upper(), font=font(16), fill=MUTED)
    return img, draw


def _lines(draw: Any, text: str, y: int, size: int, width: int, fp: Path | None) -> int:
    for line in textwrap.wrap(text, width):
        draw.text((32, y), line, font=font(size, fp), fill=INK)
        y += int(size * 1.35)
    return y


def summary_frames(article: Article, font_path: Path | None = None) -> list[Any]:
    """The four frames as Pillow images."""
    frames = []
    img, draw = _frame(f"{article.id} · eighteen seconds")
    y = _lines(draw, article.title, 80, 40, 30, font_path)
    _lines(draw, article.subtitle, y + 20, 22, 60, font_path)
    frames.append(img)
    img, draw = _frame("The key table")
    t = key_table(article, article.summary_figure) or key_table(article, article.card_figure)
    if t is not None:
        size = min(20, fit_table(draw, t, (SIZE[0] - 64, SIZE[1] - 88), font_path))
        draw_table(draw, t, 32, 64, size, font_path)
    frames.append(img)
    img, draw = _frame("The rule")
    _lines(draw, plain(article.summary_rule), 90, 30, 42, font_path)
    frames.append(img)
    img, draw = _frame("Ask before reading")
    y = 80
    for n, q in enumerate(article.summary_questions, 1):
        y = _lines(draw, f"{n}. {plain(q)}", y, 24, 56, font_path) + 14
    frames.append(img)
    return frames


def summary_webp(article: Article, *, font_path: Path | None = None) -> bytes:
    """The summary as animated WebP bytes: four frames of 4.5 s, looping."""
    frames = summary_frames(article, font_path)
    out = io.BytesIO()
    frames[0].save(
        out,
        format="WEBP",
        save_all=True,
        append_images=frames[1:],
        duration=[FRAME_MS] * len(frames),
        loop=0,
        quality=80,
    )
    return out.getvalue()
