"""Diagrams drawn from engine results, as SVG text with a text alternative carrying the
same facts.  Each function returns ``(svg, alt)``; the caption is the article's.

Ring diagrams put Rat at the bottom and count forward clockwise (Rat, Ox, Tiger to the
left, Horse at the top), as the branches stand on a Zi Wei chart.

Labels are measured with the advance widths of the font the SVG names first, the Noto Sans
CJK SC subset shipped in ``mingshu/web/fonts`` (read through Pillow's FreeType): a label
wider than its box wraps onto more lines, and a box grows to its longest word, so no label
runs out of its box or past the diagram's edge.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from functools import lru_cache
from html import escape
from importlib import resources
from typing import Any, Final

from mingshu.errors import InputError
from mingshu.library import engine as E
from mingshu.library import patterns as P

__all__ = ["DIAGRAMS", "LAYER_NAMES", "diagram"]

Options = Mapping[str, Any]
INK: Final = "#222"
MUTED: Final = "#888"
START: Final = "#8a5a2b"  # brown: where a count starts
END: Final = "#6b3fa0"  # purple: where a count ends
HIT: Final = "#1f7a3a"  # green: the star's landing
# The family the labels are measured in comes first (the reader's own Noto Sans CJK SC, or
# the shipped subset: site.css and the static build's library-font.css name it).
FONT: Final = 'font-family=\'"Noto Sans CJK SC", "Noto Sans SC", sans-serif\''
FONT_FILE: Final = "NotoSansCJKsc-Subset.otf"
WIDEST: Final = 660
"""The widest a diagram is drawn: at 1280 px the article column is 736 px (46rem less its
padding at 17 px) and the summary's frame holds 670 px of it, so a diagram of this width is
never cut or scrolled on a desktop (a phone scrolls it sideways in its own box)."""
LINE: Final = 1.3
"""Line height of a wrapped label, in ems."""
LAYER_NAMES: Final = {
    "engine": "Engine rule",
    "book": "The book's words",
    "modern": "Modern summary",
    "none": "No source yet",
}
LAYER_COLOURS: Final = {"engine": HIT, "book": START, "modern": "#2b5d8a", "none": MUTED}


def _svg(width: float, height: float, body: str, title: str) -> str:
    width, height = math.ceil(width), math.ceil(height)  # whole pixels, none cut off
    return (
        f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {width} {height}' "
        f"width='{width}' height='{height}' role='img' {FONT}>"
        f"<title>{escape(title)}</title>{body}</svg>"
    )


@lru_cache(maxsize=16)
def _face(size: float) -> Any:
    from PIL import ImageFont  # the library extra's Pillow; its FreeType reads the OTF

    # The font is package data of mingshu.web (the share cards and the board use it too);
    # it is read as a file, not imported, so the library stays below the web layer.
    path = resources.files("mingshu") / "web" / "fonts" / FONT_FILE
    with resources.as_file(path) as file:
        return ImageFont.truetype(str(file), size)


@lru_cache(maxsize=8192)
def _text_width(s: str, size: float, bold: bool = False) -> float:
    """The advance width of ``s`` at ``size`` px in the shipped font.  Bold is synthesised
    from the regular face by the browser (the subset has no bold): Chromium draws it about
    5 % wider (194.5 px against 185.0 for a 13 px label); 6 % keeps it inside its box."""
    width = float(_face(size).getlength(s))
    return width * 1.06 if bold else width


def _wrap(s: str, size: float, room: float, bold: bool = False) -> list[str]:
    """``s`` broken at spaces into lines no wider than ``room`` px (a word wider than the
    room gets a line of its own: the caller's box grows to it)."""
    lines: list[str] = []
    for word in s.split(" "):
        trial = f"{lines[-1]} {word}" if lines else word
        if lines and _text_width(trial, size, bold) <= room:
            lines[-1] = trial
        else:
            lines.append(word)
    return lines or [""]


def _baseline(size: float) -> float:
    """From the top of a line box to its baseline: a line is ``LINE`` ems tall, the em box
    centred in it and the baseline 0.85 em down the em box (Noto Sans CJK's ascent 0.88 em,
    less a little so Latin text without descenders looks centred)."""
    return size * ((LINE - 1) / 2 + 0.85)


def _widest(lines: Sequence[str], size: float, bold: bool = False) -> float:
    return max(_text_width(line, size, bold) for line in lines)


def _text(
    x: float,
    y: float,
    s: str | Sequence[str],
    size: int = 13,
    fill: str = INK,
    anchor: str = "middle",
    weight: str = "normal",
) -> str:
    """A label at (x, y), the baseline of its first line; a list of lines is one ``<text>``
    whose later lines are tspans one line height down."""
    lines = [s] if isinstance(s, str) else list(s)
    body = escape(lines[0]) + "".join(
        f"<tspan x='{x:.1f}' dy='{size * LINE:.1f}'>{escape(line)}</tspan>" for line in lines[1:]
    )
    return (
        f"<text x='{x:.1f}' y='{y:.1f}' font-size='{size}' fill='{fill}' "
        f"text-anchor='{anchor}' font-weight='{weight}'>{body}</text>"
    )


# --------------------------------------------------------------------------- the ring

_R: Final = 118
_C: Final = 156


def _pos(branch: float, r: float = _R) -> tuple[float, float]:
    a = math.radians(90 + 30 * branch)
    return _C + r * math.cos(a), _C + r * math.sin(a)


def _legend(labels: Mapping[int, str] | None) -> list[tuple[int, list[str]]]:
    """The legend's entries, each wrapped to the ring's width (13 px, after the swatch)."""
    return [
        (b, _wrap(f"{label}: {E.branch_name(b)}", 13, 2 * _C - _LEGEND_X - 8))
        for b, label in (labels or {}).items()
    ]


_LEGEND_X: Final = 38


def _ring(marks: Mapping[int, str], labels: Mapping[int, str] | None = None) -> str:
    """The twelve branches; marked ones filled.  Labels go in a legend under the ring (one
    entry per labelled branch, wrapped to the ring's width) so that nothing sticks out past
    a phone's width."""
    parts = [f"<circle cx='{_C}' cy='{_C}' r='{_R}' fill='none' stroke='#ddd'/>"]
    for b in range(12):
        x, y = _pos(b)
        colour = marks.get(b)
        fill = colour or "#fff"
        ink = "#fff" if colour else INK
        parts.append(
            f"<circle cx='{x:.1f}' cy='{y:.1f}' r='22' fill='{fill}' stroke='{colour or MUTED}'/>"
        )
        parts.append(_text(x, y + 4, E.branch_name(b)[:3], 12, ink))
    y = 2 * _C + 14
    for b, lines in _legend(labels):
        colour = marks.get(b, INK)
        parts.append(f"<circle cx='24' cy='{y - 4}' r='7' fill='{colour}'/>")
        parts.append(_text(_LEGEND_X, y, lines, 13, INK, "start"))
        y += 22 + 13 * LINE * (len(lines) - 1)
    return "".join(parts)


def _ring_height(labels: Mapping[int, str]) -> float:
    return 2 * _C + 14 + sum(22 + 13 * LINE * (len(lines) - 1) for _b, lines in _legend(labels))


def _arc(start: int, steps: int, colour: str, r: float = _R - 34) -> str:
    """An arrow from ``start`` going ``steps`` branches (negative: backward)."""
    if steps == 0:
        return ""
    sweep = 1 if steps > 0 else 0
    a0 = math.radians(90 + 30 * start + (6 if steps > 0 else -6))
    a1 = math.radians(90 + 30 * (start + steps) - (6 if steps > 0 else -6))
    x0, y0 = _C + r * math.cos(a0), _C + r * math.sin(a0)
    x1, y1 = _C + r * math.cos(a1), _C + r * math.sin(a1)
    large = 1 if abs(steps) % 12 > 6 else 0
    return (
        f"<path d='M{x0:.1f},{y0:.1f} A{r},{r} 0 {large} {sweep} {x1:.1f},{y1:.1f}' "
        f"fill='none' stroke='{colour}' stroke-width='2' marker-end='url(#arrow-{colour[1:]})'/>"
    )


def _markers(*colours: str) -> str:
    return (
        "<defs>"
        + "".join(
            f"<marker id='arrow-{c[1:]}' viewBox='0 0 10 10' refX='8' refY='5' markerWidth='6' "
            f"markerHeight='6' orient='auto-start-reverse'><path d='M0,0 L10,5 L0,10 z' "
            f"fill='{c}'/></marker>"
            for c in colours
        )
        + "</defs>"
    )


_DAY_STAR_ORIGIN: Final = {"en_guang": "wen_chang", "tian_gui": "wen_qu"}
"""The day stars and the star each counts its days from (the engine places them so)."""


def _count_ring(o: Options) -> tuple[str, str]:
    """A day star counted from its start star: day 1 on the start, count to the day, back
    one (En Guang from Wen Chang, Tian Gui from Wen Qu)."""
    star = str(o.get("star", "en_guang"))
    origin = _DAY_STAR_ORIGIN.get(star)
    if origin is None:
        raise InputError("star", f"count_ring draws en_guang or tian_gui, not {star!r}")
    day, hour = int(o.get("day", 1)), E.hour_number(o.get("hour", 0))
    s = E.star_branch(origin, day=day, hour=hour)
    land = E.star_branch(star, day=day, hour=hour)
    end = (s + day - 1) % 12
    marks = {s: START, end: END, land: HIT}
    labels = {s: E.star_name(origin), end: f"Count ends on day {day}", land: E.star_name(star)}
    if end == s:
        labels[s] = f"{E.star_name(origin)}, day {day}"
    body = (
        _markers(END[:], HIT)
        + _ring(marks, labels)
        + _arc(s, (day - 1) % 12 or (12 if day > 1 else 0), END)
        + _arc(end, -1, HIT, _R - 54)
        + _text(_C, _C + 4, f"day {day}, {E.branch_name(hour)} hour", 12, MUTED)
    )
    alt = (
        f"Ring of the twelve branches for lunar day {day} in the {E.branch_name(hour)} hour: "
        f"{E.star_name(origin)} is on {E.branch_name(s)}; day 1 is put there and the count to "
        f"day {day} stops on {E.branch_name(end)}; one step back puts {E.star_name(star)} on "
        f"{E.branch_name(land)}."
    )
    return _svg(2 * _C, _ring_height(labels), body, alt), alt


def _hour_ring(o: Options) -> tuple[str, str]:
    """An hour star's first hours: arrows from its Rat-hour palace, one per hour."""
    star = str(o.get("star", "di_kong"))
    hours = [E.hour_number(h) for h in o.get("hours", [0, 1, 2, 3])]
    at = {h: E.star_branch(star, hour=h) for h in hours}
    start = E.star_branch(star, hour=0)
    labels: dict[int, str] = {}
    for h, b in at.items():
        labels[b] = (labels[b] + ", " if b in labels else "") + E.branch_name(h) + " hour"
    marks = {b: HIT for b in at.values()}
    marks[start] = START
    step = (E.star_branch(star, hour=1) - start) % 12
    direction = 1 if step == 1 else -1
    body = _markers(HIT) + _ring(marks, labels)
    for h in hours:
        if h > 0:
            body += _arc(at[h] - direction, direction, HIT)
    way = "forward (clockwise)" if direction > 0 else "back (counter-clockwise)"
    alt = (
        f"Ring of the twelve branches: {E.star_name(star)} starts the Rat hour on "
        f"{E.branch_name(start)} and moves one palace {way} per hour: "
        + "; ".join(f"{E.branch_name(h)} hour on {E.branch_name(b)}" for h, b in at.items())
        + "."
    )
    return _svg(2 * _C, _ring_height(labels), body, alt), alt


def _run_ring(o: Options) -> tuple[str, str]:
    stars = [str(s) for s in o.get("stars", ["feng_gao", "wen_qu", "tai_fu"])]
    hour = E.hour_number(o.get("hour", 0))
    colours = (END, START, HIT, "#2b5d8a")
    at = [E.star_branch(s, hour=hour) for s in stars]
    marks = {b: colours[i % 4] for i, b in enumerate(at)}
    labels = {b: E.star_name(s) for s, b in zip(stars, at, strict=True)}
    body = _markers(MUTED) + _ring(marks, labels)
    gaps = []
    for a, b in itertools.pairwise(at):
        gap = (b - a) % 12
        gaps.append(gap)
        body += _arc(a, gap, MUTED)
    body += _text(_C, _C + 4, f"{E.branch_name(hour)} hour", 12, MUTED)
    alt = (
        f"Ring of the twelve branches at the {E.branch_name(hour)} hour: "
        + ", ".join(
            f"{E.star_name(s)} on {E.branch_name(b)}" for s, b in zip(stars, at, strict=True)
        )
        + "; neighbours are "
        + " and ".join(str(g) for g in gaps)
        + " places apart, counted forward."
    )
    return _svg(2 * _C, _ring_height(labels), body, alt), alt


# ------------------------------------------------------------------------- step strips


_STRIP_SIZE: Final = 13
_STRIP_PAD: Final = 10.0  # inside a box, each side
_STRIP_GAP: Final = 22.0  # between boxes: the arrow


def _strip_columns(rows: Sequence[Sequence[str]], highlight_last: bool) -> list[float]:
    """Each column's box width: its widest label on one line, or, when the strip would be
    wider than :data:`WIDEST`, the widest columns narrowed (their labels wrapped) until it
    fits; no box narrower than its longest word."""
    cols = max(len(r) for r in rows)

    def bold(row: Sequence[str], c: int) -> bool:
        return highlight_last and c == len(row) - 1

    def need(c: int, room: float) -> float:  # box width with labels wrapped to ``room``
        return 2 * _STRIP_PAD + max(
            _widest(_wrap(row[c], _STRIP_SIZE, room, bold(row, c)), _STRIP_SIZE, bold(row, c))
            for row in rows
            if c < len(row)
        )

    natural = [need(c, math.inf) for c in range(cols)]
    fixed = 16 + (cols - 1) * _STRIP_GAP
    if sum(natural) + fixed <= WIDEST:
        return natural
    # The largest cap on a box's width that keeps the strip within WIDEST (whole pixels).
    lo, hi = 40.0, max(natural)
    while hi - lo > 1:
        cap = (lo + hi) / 2
        widths = [min(w, need(c, cap - 2 * _STRIP_PAD)) for c, w in enumerate(natural)]
        lo, hi = (cap, hi) if sum(widths) + fixed <= WIDEST else (lo, cap)
    return [min(w, need(c, lo - 2 * _STRIP_PAD)) for c, w in enumerate(natural)]


def _strip(rows: Sequence[Sequence[str]], highlight_last: bool = True) -> tuple[str, float, float]:
    """Rows of boxes joined by arrows, each box as wide as its column needs (measured), the
    last of a row highlighted; a row is as tall as its most wrapped label."""
    widths = _strip_columns(rows, highlight_last)
    row_gap, line = 14.0, _STRIP_SIZE * LINE
    parts = [_markers(MUTED)]
    y = 8.0
    for row in rows:
        cells = []
        for c, cell in enumerate(row):
            last = highlight_last and c == len(row) - 1
            cells.append(_wrap(cell, _STRIP_SIZE, widths[c] - 2 * _STRIP_PAD, last))
        box_h = 44.0 + line * (max(len(lines) for lines in cells) - 1)
        x = 8.0
        for c, lines in enumerate(cells):
            last = highlight_last and c == len(row) - 1
            box_w = widths[c]
            parts.append(
                f"<rect x='{x:.1f}' y='{y:.1f}' width='{box_w:.1f}' height='{box_h:.1f}' rx='6' "
                f"fill='{'#e8f4ec' if last else '#fafafa'}' stroke='{HIT if last else MUTED}'/>"
            )
            first = y + box_h / 2 + 5 - line * (len(lines) - 1) / 2
            parts.append(
                _text(
                    x + box_w / 2,
                    first,
                    lines,
                    _STRIP_SIZE,
                    HIT if last else INK,
                    weight="bold" if last else "normal",
                )
            )
            if c:
                parts.append(
                    f"<line x1='{x - _STRIP_GAP + 2:.1f}' y1='{y + box_h / 2:.1f}' "
                    f"x2='{x - 3:.1f}' y2='{y + box_h / 2:.1f}' stroke='{MUTED}' "
                    "marker-end='url(#arrow-888)'/>"
                )
            x += box_w + _STRIP_GAP
        y += box_h + row_gap
    width = 16 + sum(widths) + (len(widths) - 1) * _STRIP_GAP
    return "".join(parts), width, y - row_gap + 8


def _diagonal_steps(o: Options) -> tuple[str, str]:
    """Cells of En Guang's table worked as strips: difference, Wen Chang, count, step back."""
    cells = [(int(d), E.hour_number(h)) for d, h in o.get("cells", [[5, 0], [6, 1], [7, 2]])]
    rows = []
    sentences = []
    for d, h in cells:
        wc = E.star_branch("wen_chang", day=d, hour=h)
        eg = E.star_branch("en_guang", day=d, hour=h)
        rows.append(
            (
                f"Day {d}, {E.branch_name(h)} hour",
                f"{d} − {h} = {d - h}",
                f"Wen Chang on {E.branch_name(wc)}",
                f"Count to day {d}",
                f"Step back: {E.branch_name(eg)}",
            )
        )
        sentences.append(
            f"day {d} in the {E.branch_name(h)} hour: {d} − {h} = {d - h}, Wen Chang on "
            f"{E.branch_name(wc)}, En Guang on {E.branch_name(eg)}"
        )
    body, w, h_ = _strip(rows)
    alt = "Worked cells of En Guang's table: " + "; ".join(sentences) + "."
    return _svg(w, h_, body, alt), alt


def _first_days(o: Options) -> tuple[str, str]:
    """Where a day star sits against its start star on the first days."""
    star = str(o.get("star", "en_guang"))
    origin = _DAY_STAR_ORIGIN.get(star)
    if origin is None:
        raise InputError("star", f"first_days draws en_guang or tian_gui, not {star!r}")
    days = [int(d) for d in o.get("days", [1, 2, 3])]
    hour = E.hour_number(o.get("hour", 0))
    oname = E.star_name(origin)

    def rel(n: int) -> str:
        n = (n + 6) % 12 - 6
        if n == 0:
            return f"on {oname}"
        return f"{abs(n)} {'after' if n > 0 else 'before'} {oname}"

    rows, sentences = [], []
    for d in days:
        s = E.star_branch(origin, day=d, hour=hour)
        land = E.star_branch(star, day=d, hour=hour)
        end = (s + d - 1) % 12
        rows.append(
            (
                f"Day {d}",
                f"Count to: {rel(end - s)}",
                "Step back one",
                f"{E.star_name(star)}: {rel(land - s)}",
            )
        )
        sentences.append(
            f"day {d}: the count ends {rel(end - s)} and {E.star_name(star)} lands {rel(land - s)}"
        )
    body, w, h_ = _strip(rows)
    alt = f"{E.star_name(star)} against {oname} on the first days: " + "; ".join(sentences) + "."
    return _svg(w, h_, body, alt), alt


def _literary_lookup(o: Options) -> tuple[str, str]:
    """BaZi Literary Star look-ups as strips: day stem → branch → the four branches → hits
    (the engine's table and search)."""
    rows, sentences = [], []
    for chart in o.get("charts") or []:
        stem = E.parse_stem(chart["day_stem"])
        branches = [E.branch_number(b) for b in chart["branches"]]
        target = E.literary_star(stem)
        hits = [E.PILLARS[i] for i, b in enumerate(branches) if b == target]
        found = " and ".join(hits) or "not in the chart"
        rows.append(
            (
                f"Day Master {E.stem_name(stem)}",
                f"looks up {E.branch_name(target)}",
                " ".join(E.branch_name(b)[:3] for b in branches),
                found,
            )
        )
        sentences.append(
            f"a {E.stem_name(stem)} Day Master looks up {E.branch_name(target)} among "
            + ", ".join(E.branch_name(b) for b in branches)
            + f" (year to hour): {found}"
        )
    if not rows:
        raise InputError("charts", "a literary_lookup diagram lists its charts")
    body, w, h_ = _strip(rows)
    alt = "Literary Star look-ups: " + "; ".join(sentences) + "."
    return _svg(w, h_, body, alt), alt


def _layers(o: Options) -> tuple[str, str]:
    """The four layers of evidence: one row per item, coloured by its layer, as wide as the
    rings (a phone's column), each row as tall as its wrapped words."""
    items = o.get("items") or []
    if not items:
        raise InputError("items", "a layers figure lists its items")
    width, tag_w = 2.0 * _C, 118.0
    text_x = 8 + tag_w + 10
    parts = []
    sentences = []
    y = 8.0
    for item in items:
        layer = str(item.get("layer", ""))
        if layer not in LAYER_NAMES:
            raise InputError("layer", f"{layer!r} is not a layer ({', '.join(LAYER_NAMES)})")
        colour = LAYER_COLOURS[layer]
        name = _wrap(LAYER_NAMES[layer], 12, tag_w - 12, bold=True)
        title = _wrap(str(item.get("title", "")), 11, tag_w - 12)
        text = _wrap(str(item.get("text", "")), 12, width - 8 - text_x - 8)
        tag_h = 12 * LINE * len(name) + 11 * LINE * len(title)
        text_h = 12 * LINE * len(text)
        row_h = max(50.0, max(tag_h, text_h) + 14)
        parts.append(
            f"<rect x='8' y='{y:.1f}' width='{width - 16}' height='{row_h:.1f}' rx='6' "
            f"fill='#fff' stroke='{colour}' stroke-width='2'/>"
            f"<rect x='8' y='{y:.1f}' width='{tag_w}' height='{row_h:.1f}' rx='6' "
            f"fill='{colour}'/>"
        )
        top = y + (row_h - tag_h) / 2
        middle = 8 + tag_w / 2
        parts.append(_text(middle, top + _baseline(12), name, 12, "#fff", weight="bold"))
        top += 12 * LINE * len(name)
        parts.append(_text(middle, top + _baseline(11), title, 11, "#fff"))
        first = y + (row_h - text_h) / 2 + _baseline(12)
        parts.append(_text(text_x, first, text, 12, INK, "start"))
        sentences.append(f"{LAYER_NAMES[layer]} — {item.get('title', '')}: {item.get('text', '')}")
        y += row_h + 8
    alt = "The layers of evidence: " + "; ".join(sentences) + "."
    return _svg(width, y, "".join(parts), alt), alt


# ------------------------------------------------------------------ the three-harmony Horse


def _horse_ring(o: Options) -> tuple[str, str]:
    """One three-harmony group on the ring: its members, its head, and the branch opposite
    the head, where both engines put the Horse (BaZi's table, Zi Wei's chart)."""
    branch = E.branch_number(o.get("branch", "horse"))
    head = E.group_head(branch)
    members = sorted({branch, (branch + 4) % 12, (branch + 8) % 12}, key=lambda m: (m - head) % 12)
    (horse,) = E.bazi_cell("yi_ma", "standard", branch)
    tian_ma = E.year_star_branch("tian_ma", branch=branch)
    if tian_ma != horse:
        raise InputError("branch", "the two engines put the Horse apart")  # the claims forbid it
    marks = {m: START for m in members}
    marks[head] = END
    marks[horse] = HIT
    labels = {
        head: "head of the group",
        **{m: "in the group" for m in members if m != head},
        horse: "the Horse (opposite the head)",
    }
    x0, y0 = _pos(head, _R - 24)
    x1, y1 = _pos(horse, _R - 24)
    body = (
        _markers(HIT)
        + _ring(marks, labels)
        + f"<line x1='{x0:.1f}' y1='{y0:.1f}' x2='{x1:.1f}' y2='{y1:.1f}' stroke='{HIT}' "
        f"stroke-width='2' marker-end='url(#arrow-{HIT[1:]})'/>"
    )
    names = ", ".join(E.branch_name(m) for m in members)
    alt = (
        f"Ring of the twelve branches: the group {names} with its head "
        f"{E.branch_name(head)}; the line crosses the ring to {E.branch_name(horse)}, the "
        f"branch opposite the head, where the Traveling Horse (BaZi) and Tian Ma (Zi Wei) "
        f"both stand for a {E.branch_name(branch)} year."
    )
    return _svg(2 * _C, _ring_height(labels), body, alt), alt


# ------------------------------------------------------ the three-harmony family on the ring


def _trine_ring(o: Options) -> tuple[str, str]:
    """One basis branch's three-harmony group on the ring (the head marked) and where the
    default tables of some branch-keyed ``stars`` put their star for that branch, each with
    an arrow counted forward from the head."""
    from mingshu.bazi import stars as star_data

    branch = E.branch_number(o.get("branch", "rat"))
    keys = o.get("stars")
    if not (isinstance(keys, list) and keys):
        raise InputError("stars", "give the stars as a list of keys")
    head = E.group_head(branch)
    members = sorted({branch, (branch + 4) % 12, (branch + 8) % 12}, key=lambda m: (m - head) % 12)
    marks = {m: START for m in members}
    marks[head] = END
    labels: dict[int, str] = {m: "in the group" for m in members}
    labels[head] = "head of the group"
    arcs = []
    said = []
    for i, key in enumerate(keys):
        s = star_data.star(str(key))
        v = s.variant(s.default)
        if not all(b.endswith("_branch") for b in v.basis):
            raise InputError("stars", f"{s.key} is not read from a branch")
        found = E.bazi_cell(s.key, s.default, branch)
        if len(found) != 1:
            raise InputError("stars", f"{s.key} gives {len(found)} branches, not one")
        (at,) = found
        name = str(s.names.english)
        marks[at] = HIT
        labels[at] = f"{labels[at]}; {name}" if at in members else name
        steps = (at - head) % 12
        arcs.append(_arc(head, steps, HIT, _R - 34 - 10 * i))
        said.append(f"{name} on {E.branch_name(at)}, {steps} on from the head")
    body = _markers(HIT) + _ring(marks, labels) + "".join(arcs)
    names = ", ".join(E.branch_name(m) for m in members)
    alt = (
        f"Ring of the twelve branches: for a {E.branch_name(branch)} basis, the group {names} "
        f"with its head {E.branch_name(head)}; " + "; ".join(said) + "."
    )
    return _svg(2 * _C, _ring_height(labels), body, alt), alt


# ------------------------------------------------------------------------ mirror pairs

_PAIR_COLOURS: Final = ((HIT, END), (START, "#2b5d8a"))


def _mirror_ring(o: Options) -> tuple[str, str]:
    """Pairs of stars that reflect each other in one line across the ring (their branch
    numbers add up to the same sum), drawn with that line, for one month, day and hour."""
    pairs = [[str(s) for s in pair] for pair in o.get("pairs", [["san_tai", "ba_zuo"]])]
    if not pairs or any(len(p) != 2 for p in pairs) or len(pairs) > len(_PAIR_COLOURS):
        raise InputError("pairs", "give one or two pairs of stars, as [[a, b], …]")
    month, day = int(o.get("month", 1)), int(o.get("day", 1))
    hour = E.hour_number(o.get("hour", 0))
    at = {s: E.star_branch(s, day=day, hour=hour, month=month) for p in pairs for s in p}
    sums = {(at[a] + at[b]) % 12 for a, b in pairs}
    if len(sums) != 1:
        raise InputError("pairs", f"the pairs do not share one mirror line: {pairs}")
    (total,) = sums
    axis = total / 2  # a branch number, or halfway between two when the sum is odd
    marks: dict[int, str] = {}
    labels: dict[int, str] = {}
    for (a, b), colours in zip(pairs, _PAIR_COLOURS, strict=False):
        for star, colour in ((a, colours[0]), (b, colours[1])):
            marks.setdefault(at[star], colour)
            name = E.star_name(star)
            labels[at[star]] = f"{labels[at[star]]}, {name}" if at[star] in labels else name
    x0, y0 = _pos(axis, _R + 30)
    x1, y1 = _pos(axis + 6, _R + 30)
    line = (
        f"<line x1='{x0:.1f}' y1='{y0:.1f}' x2='{x1:.1f}' y2='{y1:.1f}' stroke='{MUTED}' "
        "stroke-width='1.5' stroke-dasharray='6 5'/>"
    )
    given = (("month", f"month {month}"), ("day", f"day {day}"), ("hour", "hour"))
    when = ", ".join(
        f"the {E.branch_name(hour)} hour" if key == "hour" else text
        for key, text in given
        if key in o
    )
    ends = [E.branch_name(int(axis)), E.branch_name(int(axis) + 6)]
    where = (
        f"through {ends[0]} and {ends[1]}"
        if axis == int(axis)
        else f"between {E.branch_name(int(axis))} and {E.branch_name(int(axis) + 1)}"
    )
    body = line + _ring(marks, labels) + _text(_C, _C + 4, when, 11, MUTED)
    alt = (
        f"Ring of the twelve branches{' for ' + when if when else ''}: "
        + "; ".join(
            f"{E.star_name(a)} on {E.branch_name(at[a])} and {E.star_name(b)} on "
            f"{E.branch_name(at[b])}"
            for a, b in pairs
        )
        + f". Each pair's branch numbers add up to {total} (mod 12), so the two stars of a "
        f"pair are reflections of each other in the dashed line {where}."
    )
    return _svg(2 * _C, _ring_height(labels), body, alt), alt


# ------------------------------------------------ one birth under each school
_SCHOOL_LABELS: Final = {"iztro": "iztro (default)", "quanshu": "quanshu (the book)"}


def _school_ring(o: Options) -> tuple[str, str]:
    """One birth's Life palace (or the named stars) under both schools on one ring: green
    the engine's default, brown the book's, purple a branch both share."""
    birth = o.get("birth")
    if not isinstance(birth, Mapping) or "lunar" not in birth:
        raise InputError("birth", "give the birth as {lunar: YYYY-MM-DD, hour, gender, leap}")
    stars = [str(s) for s in o.get("stars", [])]
    what = str(o.get("label", "the Life palace" if not stars else ", ".join(stars)))
    at = E.school_branches(birth, stars)
    iztro, book = set(at["iztro"]), set(at["quanshu"])
    marks: dict[int, str] = {}
    labels: dict[int, str] = {}
    for b in sorted(iztro | book):
        both = b in iztro and b in book
        marks[b] = END if both else (HIT if b in iztro else START)
        labels[b] = "both schools" if both else _SCHOOL_LABELS["iztro" if b in iztro else "quanshu"]
    body = _markers(MUTED) + _ring(marks, labels)
    if len(at["iztro"]) == 1 and len(at["quanshu"]) == 1 and iztro != book:
        a, b = at["quanshu"][0], at["iztro"][0]
        gap = (b - a) % 12
        body += _arc(a, gap if gap <= 6 else gap - 12, MUTED)
    body += _text(_C, _C + 4, what, 12, MUTED)

    def said(school: str) -> str:
        branches = at[school]
        names = " and ".join(E.branch_name(b) for b in branches) or "no branch"
        return f"{_SCHOOL_LABELS[school]} puts it on {names}"

    alt = f"Ring of the twelve branches for {what}: " + "; ".join(map(said, E.SCHOOLS)) + "."
    return _svg(2 * _C, _ring_height(labels), body, alt), alt


# ----------------------------------------------------------- the Life and Body palaces


def _life_ring(o: Options) -> tuple[str, str]:
    """The Life palace found on the ring: month 1 on Tiger, forward to the birth month,
    back by the hour number; the Body palace forward by the hour from the same month."""
    month, hour = int(o.get("month", 1)), E.hour_number(o.get("hour", 0))
    month_at = (2 + month - 1) % 12
    life, body = E.life_branch(month, hour), E.body_branch(month, hour)
    # Later marks win the colour; every role a branch plays stays in its label.
    roles = (
        (2, START, "Month 1"),
        (month_at, END, f"Month {month}"),
        (life, HIT, "Life palace"),
        (body, "#2b5d8a", "Body palace"),
    )
    marks: dict[int, str] = {}
    labels: dict[int, str] = {}
    for branch, colour, label in roles:
        marks[branch] = colour
        if branch not in labels:
            labels[branch] = label
        elif label not in labels[branch]:
            labels[branch] += f", {label}"
    body_svg = (
        _markers(END, HIT, "#2b5d8a")
        + _ring(marks, labels)
        + _arc(2, month - 1, END)
        + _arc(month_at, -hour, HIT, _R - 54)
        + _arc(month_at, hour, "#2b5d8a", _R - 74)
        + _text(_C, _C + 4, f"month {month}, {E.branch_name(hour)} hour", 12, MUTED)
    )
    alt = (
        f"Ring of the twelve branches for lunar month {month} in the {E.branch_name(hour)} "
        f"hour: month 1 is on Tiger; counting forward, month {month} is on "
        f"{E.branch_name(month_at)}; {hour} steps back (the hour number) is the Life palace on "
        f"{E.branch_name(life)}, and {hour} steps forward is the Body palace on "
        f"{E.branch_name(body)}."
    )
    return _svg(2 * _C, _ring_height(labels), body_svg, alt), alt


# ----------------------------------------------------------------------- the patterns


def _pattern_ring(o: Options) -> tuple[str, str]:
    """One pattern on one birth's chart: the palaces that form it in green, each labelled
    with its palace name and the pattern's stars there; the Life palace in brown when the
    pattern does not stand in it."""
    birth = o.get("birth")
    if not isinstance(birth, Mapping):
        raise InputError("birth", "give a birth as {date, time, gender}")
    lay = P.pattern_layout(birth, o.get("pattern"))
    if not lay.formed:
        raise InputError("pattern", f"the birth does not form {lay.name}")
    marks: dict[int, str] = {}
    labels: dict[int, str] = {}
    if lay.life not in {b for b, _, _ in lay.palaces}:
        marks[lay.life], labels[lay.life] = START, "Life palace"
    for b, palace, stars in lay.palaces:
        marks[b] = HIT
        labels[b] = f"{palace} palace" + (" with " + ", ".join(stars) if stars else "")
    state = "broken: " + "; ".join(lay.broken) if lay.broken else "whole"
    hans = lay.name.split(" ", 1)[0]  # the full name is in the legend's caption and the alt
    body = _markers(MUTED) + _ring(marks, labels) + _text(_C, _C + 4, hans, 12, MUTED)
    where = "; ".join(
        f"{E.branch_name(b)}, the {palace} palace"
        + (f", holds {', '.join(stars)}" if stars else "")
        for b, palace, stars in lay.palaces
    )
    alt = f"Ring of the twelve branches: {lay.name} on this chart. {where}. The pattern is {state}."
    return _svg(2 * _C, _ring_height(labels), body, alt), alt


DIAGRAMS: Final[dict[str, E.Kind[tuple[str, str]]]] = {
    "count_ring": E.Kind(
        _count_ring,
        ("star", "day", "hour"),
        "a day star (en_guang or tian_gui) counted from its start star on the ring",
    ),
    "hour_ring": E.Kind(
        _hour_ring, ("star", "hours"), "an hour star's landings for some hours on the ring"
    ),
    "run_ring": E.Kind(
        _run_ring, ("stars", "hour"), "some stars at one hour, with the way each runs"
    ),
    "diagonal_steps": E.Kind(
        _diagonal_steps, ("cells",), "cells ([day, hour]) of En Guang's table worked as strips"
    ),
    "first_days": E.Kind(
        _first_days,
        ("star", "days", "hour"),
        "where a day star sits against its start star on the first days",
    ),
    "literary_lookup": E.Kind(
        _literary_lookup,
        ("charts",),
        "Literary Star look-ups ({day_stem, branches}) as strips: stem, branch, pillars, hits",
    ),
    "horse_ring": E.Kind(
        _horse_ring,
        ("branch",),
        "a branch's three-harmony group, its head and the Horse opposite, on the ring",
    ),
    "mirror_ring": E.Kind(
        _mirror_ring,
        ("pairs", "month", "day", "hour"),
        "one or two pairs of stars reflected in one line across the ring",
    ),
    "school_ring": E.Kind(
        _school_ring,
        ("birth", "stars", "label"),
        "one birth's Life palace (or some stars) under both schools on one ring",
    ),
    "life_ring": E.Kind(
        _life_ring,
        ("month", "hour"),
        "the Life and Body palaces found on the ring for a month and hour",
    ),
    # the three-harmony family of BaZi stars
    "trine_ring": E.Kind(
        _trine_ring,
        ("branch", "stars"),
        "a basis branch's three-harmony group and where some branch-keyed stars stand, counted "
        "from the head",
    ),
    "pattern_ring": E.Kind(
        _pattern_ring,
        ("birth", "pattern"),
        "one pattern on one birth's chart: the palaces that form it, their stars, the Life palace",
    ),
    "layers": E.Kind(
        _layers,
        ("items",),
        "the four layers of evidence ({layer, title, text} per item); every article has one",
    ),
}
"""Every diagram kind by name."""


def diagram(kind: str, options: Options) -> tuple[str, str]:
    """``(svg, alt)`` for a diagram kind and its options."""
    if kind not in DIAGRAMS:
        raise InputError("diagram", f"unknown diagram {kind!r} (known: {', '.join(DIAGRAMS)})")
    return DIAGRAMS[kind](options)
