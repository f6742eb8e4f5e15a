"""Share cards: a 1200×630 PNG with the title, the short version and the key table, all
drawn from the article and the engine (Pillow)."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any, Final

from mingshu.errors import InputError
from mingshu.library import engine as E
from mingshu.library import tables as T
from mingshu.library.model import Article

__all__ = [
    "CARD_SIZE",
    "DEFAULT_FONT",
    "FONT_CANDIDATES",
    "draw_table",
    "fit_table",
    "font",
    "plain",
    "sentences_that_fit",
    "share_card_png",
    "table_size",
    "wrap",
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
            return T.table(d.arg, d.options)
    return None


def table_size(draw: Any, t: E.Table, size: int, fp: Path | str | None) -> tuple[int, int]:
    f = font(size, fp)
    pad = size // 2
    widths = [
        max(int(draw.textlength(str(row[c]), font=f)) for row in (t.columns, *t.rows)) + 2 * pad
        for c in range(len(t.columns))
    ]
    return sum(widths), int(size * 1.7) * (len(t.rows) + 1)


def fit_table(draw: Any, t: E.Table, box: tuple[int, int], fp: Path | str | None) -> int:
    """The largest font size (24 down to 10) at which ``t`` fits in ``box``."""
    for size in range(24, 9, -1):
        w, h = table_size(draw, t, size, fp)
        if w <= box[0] and h <= box[1]:
            return size
    return 10


def draw_table(draw: Any, t: E.Table, x: int, y: int, size: int, fp: Path | str | None) -> int:
    """Draw ``t`` at (x, y); returns the bottom edge."""
    f = font(size, fp)
    pad = size // 2
    widths = [
        max(int(draw.textlength(str(row[c]), font=f)) for row in (t.columns, *t.rows)) + 2 * pad
        for c in range(len(t.columns))
    ]
    h = int(size * 1.7)  # CJK-capable fonts have tall line boxes
    for r, row in enumerate((t.columns, *t.rows)):
        cx = x
        for c, cell in enumerate(row):
            fill = (238, 238, 238) if r == 0 else (MARK if (r - 1, c) in t.marked else None)
            draw.rectangle([cx, y, cx + widths[c], y + h], fill=fill, outline=(190, 190, 190))
            colour = GREEN if (r - 1, c) in t.marked else INK
            draw.text((cx + pad, y + int(size * 0.2)), str(cell), font=f, fill=colour)
            cx += widths[c]
        y += h
    return y


def wrap(draw: Any, text: str, f: Any, width: int) -> list[str]:
    """Lines of ``text`` no wider than ``width`` pixels in font ``f``."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if line and draw.textlength(trial, font=f) > width:
            lines.append(line)
            line = word
        else:
            line = trial
    if line:
        lines.append(line)
    return lines


def sentences_that_fit(draw: Any, text: str, f: Any, width: int, max_lines: int) -> list[str]:
    """Whole sentences of ``text``, as many as fit in ``max_lines`` lines."""
    chosen: list[str] = []
    for sentence in re.split(r"(?<=[.!?])\s+", text):
        trial = wrap(draw, " ".join([*chosen, sentence]), f, width)
        if len(trial) > max_lines:
            break
        chosen.append(sentence)
    return wrap(draw, " ".join(chosen), f, width)


def share_card_png(article: Article, *, font_path: Path | str | None = None) -> bytes:
    """The article's share card: 1200×630 PNG bytes (title, the short version, the key
    table and the rule in one line)."""
    from PIL import Image, ImageDraw

    width, height = CARD_SIZE
    img = Image.new("RGB", CARD_SIZE, "white")
    draw = ImageDraw.Draw(img)
    draw.rectangle([0, 0, width, 12], fill=GREEN)
    draw.text(
        (48, 36),
        f"{article.id} · {article.subject} · mingshu knowledge library",
        font=font(22, font_path),
        fill=MUTED,
    )
    t = key_table(article, article.card_figure)
    left = 560 if t is not None else width - 96
    title_font = font(46, font_path)
    y = 76
    for line in wrap(draw, article.title, title_font, left)[:3]:
        draw.text((48, y), line, font=title_font, fill=INK)
        y += 56
    y += 12
    body = font(22, font_path)
    lines_left = max(1, (500 - y) // 31)
    for line in sentences_that_fit(draw, plain(article.short_version), body, left, lines_left):
        draw.text((48, y), line, font=body, fill=INK)
        y += 31
    rule_font = font(22, font_path)
    rule = wrap(draw, plain(article.summary_rule), rule_font, width - 96)[:2]
    ry = height - 24 - 30 * len(rule)
    for line in rule:
        draw.text((48, ry), line, font=rule_font, fill=GREEN)
        ry += 30
    if t is not None:
        box = (width - 48 - 640, height - 24 - 30 * len(rule) - 20 - 84)
        size = fit_table(draw, t, box, font_path)
        draw_table(draw, t, 640, 84, size, font_path)
    out = io.BytesIO()
    img.save(out, format="PNG", optimize=True)
    return out.getvalue()
