"""The Zi Wei chart as an SVG board: the classic 4×4 grid, every star, the centre summary.

``chart_svg(chart, horoscope=None, names="hans")`` returns one ``<svg>`` document: 巳 午 未 申
along the top, 辰 卯 down the left, 酉 戌 down the right, 寅 丑 子 亥 along the bottom, the
birth data in the 2×2 centre.  Each palace lists its stars with brightness and natal 四化,
then (with a horoscope) the flowing stars and each layer's 四化; at its foot the layers whose
Life palace it is, the four gods, the decade's ages, the palace name with the body-palace
mark, and the stem-branch.

For the web: all text is in ``<text>`` elements (searchable, selectable, no glyph paths),
the ``viewBox`` lets the board scale to any screen, no font is smaller than 10 units on a
board 720 units wide, and the parts carry data attributes to hook clicks on:
``<g data-branch="wu" data-palace="life">`` per palace, ``data-star="zi_wei"`` (with
``data-brightness``, ``data-mutagen``) per star, ``data-layer`` on horoscope marks.
All text is escaped as ElementTree escapes it (a test reads each document back with
ElementTree and writes it again: the same bytes).

Each group of lines (a palace's major stars, its gods, a centre row) is written once as
UTF-8 and kept: every ``<text>`` in it has the group's top as its ``y`` and its line's
baseline below that as its ``dy``, so the group is the same bytes on every board that
draws it at the same ``x``, and a board fills in only the tops and the query string of
its star links.  (``y`` + ``dy`` is drawn where the single ``y`` was, pixel for pixel in
resvg: the coordinates are multiples of 0.5, exact in floats; a ``transform`` is not.)
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from operator import attrgetter, itemgetter
from typing import TYPE_CHECKING, Final, Literal, overload

from mingshu.arguments import check_type
from mingshu.cycles import Pillar
from mingshu.errors import InputError
from mingshu.named import clip
from mingshu.present.labels import BOARD, LABELS
from mingshu.present.names import NAME_STYLES, display, notices_of
from mingshu.ziwei.stars import Mutagen
from mingshu.ziwei.tables import HOURS, PalaceName

if TYPE_CHECKING:
    from mingshu.cycles import Branch, Names, Stem
    from mingshu.ziwei.chart import NatalChart, Palace, PlacedStar
    from mingshu.ziwei.horoscope import Horoscope, Layer
    from mingshu.ziwei.stars import Brightness, Star
    from mingshu.ziwei.tables import God

__all__ = ["FONT_FAMILY", "chart_svg", "chart_svgs"]

SVG_NS: Final = "http://www.w3.org/2000/svg"
FONT_FAMILY: Final = (
    "'Noto Sans CJK SC', 'Noto Sans SC', 'Source Han Sans SC', 'PingFang SC', "
    "'Microsoft YaHei', 'Hiragino Sans GB', sans-serif"
)

# Geometry, in viewBox units.  The board is 720 wide: four columns of 180.
_CELL_W: Final = 180.0
_PAD: Final = 6.0
_GAP: Final = 5.0  # between two stars on a line
_MIN_ROW: Final = 150.0
_COLUMN_W: Final = 360.0  # the narrow layout: one palace a row

# Font sizes: never below 10, so the board stays legible on a phone.
_SIZES: Final = {"major": 16.0, "minor": 14.0, "adjective": 12.0, "flowing": 12.0}
_SMALL: Final = 11.0
_NAME_SIZE: Final = 14.0
_CENTRE_SIZE: Final = 13.0
_TITLE_SIZE: Final = 18.0
_NAME_H: Final = _NAME_SIZE + 6  # the name line at the foot of a palace

_INK: Final = "#222"
_BORDER: Final = "#888"
_STAR_FILL: Final = {
    "major": "#6a1b9a",
    "soft": "#00727c",
    "helper": "#00727c",
    "tough": "#c62828",
    "lucun": "#2e7d32",
    "tianma": "#9a5b00",
}
_ADJECTIVE: Final = "#555"
# Text colours keep a contrast of at least 4.5:1 on the board's #fffdf7 (WCAG AA; the
# brightness #b26a00 was 4.2:1, #8a8a8a 3.4:1, #00838f 4.4:1).
_STRONG_GRADE: Final = "#9a5b00"
_WEAK_GRADE: Final = "#707070"
_MUTAGEN_FILL: Final = ("#2e7d32", "#6a1b9a", "#1565c0", "#c62828")  # 禄 权 科 忌
_LAYER_FILL: Final = {
    "decadal": "#00727c",
    "age": "#6d4c41",
    "yearly": "#2e7d32",
    "monthly": "#1565c0",
    "daily": "#8d5300",
    "hourly": "#ad1457",
}
# One-letter layer marks for flowing 四化 in the Latin name styles.
_LAYER_LETTER: Final = {
    "decadal": "D",
    "age": "A",
    "yearly": "Y",
    "monthly": "M",
    "daily": "d",
    "hourly": "h",
}
_LIFE: Final = "#c62828"

_POSITIONS: Final = BOARD
_PALACE_NAMES: Final = tuple(PalaceName)  # the column's order, from the Life palace on


@lru_cache(maxsize=4096)
def _width(text: str, size: float) -> float:
    """Estimated advance of ``text``: CJK characters are one em, Latin about 0.6 em.
    (Cached: a board measures the same few hundred names again and again.)"""
    return sum(size if ord(ch) >= 0x2E80 else 0.6 * size for ch in text)


def _latin(style: str) -> bool:
    return style in ("pinyin", "english")


def _pillar(pillar: Pillar, style: str) -> str:
    if _latin(style):
        return f"{pillar.stem.names.pinyin}{pillar.branch.names.pinyin}"
    return display(pillar.stem.names, style) + display(pillar.branch.names, style)


# ---------------------------------------------------------------------------- tokens


@dataclass
class _Span:
    text: str
    fill: str
    size: float
    bold: bool = False
    attrs: dict[str, str] = field(default_factory=dict)
    gap: float = 0.0
    """Space before the span (SVG collapses leading blanks, so it is an offset, ``dx``)."""
    width: float = field(init=False)

    def __post_init__(self) -> None:  # spans are never changed once made
        self.width = self.gap + _width(self.text, self.size)


@dataclass(eq=False)
class _Token:
    """One ``<text>`` element: spans laid out as one word where the line has room.  Equal
    only to itself (so hashable): tokens made by the caches below are the keys of the
    caches of written lines."""

    spans: list[_Span]
    attrs: dict[str, str] = field(default_factory=dict)
    width: float = field(init=False)
    size: float = field(init=False)
    star_key: str = field(init=False)
    """The star this token names (the token a link wraps), else ``""``."""
    _markup: str = field(init=False, default="", repr=False, compare=False)

    def __post_init__(self) -> None:  # tokens are never changed once made
        self.width = sum(s.width for s in self.spans) - self.spans[0].gap
        self.size = max(s.size for s in self.spans)
        key = self.attrs.get("data-star", "")
        self.star_key = key if key and "star" in self.attrs.get("class", "").split() else ""

    def markup(self) -> str:
        """The token's ``<text>`` element after its ``x`` and ``y``, the same wherever it is
        drawn: written once per token (tokens are shared by both layouts and, through the
        caches below, by every board)."""
        if not self._markup:
            first = self.spans[0]
            attrs = {**self.attrs, "font-size": f"{first.size:g}", "fill": first.fill}
            if first.bold:
                attrs["font-weight"] = "bold"
            rest = self.spans
            text = ""
            if not first.attrs:  # a span with data of its own stays a tspan
                text = first.text
                rest = self.spans[1:]
            inner = _escape_text(text) + "".join([_tspan(span) for span in rest])
            head = _attributes(attrs)
            self._markup = f"{head}>{inner}</text>" if inner else f"{head} />"
        return self._markup

    def pieces(self, width: float) -> list[_Token]:
        """The token cut at span boundaries and spaces into pieces no wider than ``width``
        (a single word wider than that stays whole).  The first piece keeps the data
        attributes; the others are marked as its continuation."""
        words: list[_Span] = []
        for span in self.spans:
            if span.width <= width:
                words.append(span)
                continue
            parts = span.text.split(" ")
            for i, part in enumerate(parts):
                if part:
                    gap = span.gap if i == 0 else 0.3 * span.size
                    words.append(_Span(part, span.fill, span.size, span.bold, span.attrs, gap))
        groups: list[list[_Span]] = []
        used = 0.0
        for word in words:
            if groups and used + word.width <= width:
                groups[-1].append(word)
                used += word.width
            else:
                word = _Span(word.text, word.fill, word.size, word.bold, word.attrs)
                groups.append([word])
                used = word.width
        out: list[_Token] = []
        for group in groups:
            attrs = dict(self.attrs) if not out else {"class": "continued"}
            if out and "data-star" in self.attrs:
                attrs["data-part-of"] = self.attrs["data-star"]
            out.append(_Token(group, attrs))
        return out


def _tspan(span: _Span) -> str:
    attrs = {"font-size": f"{span.size:g}"}
    if span.gap:
        attrs["dx"] = f"{span.gap:g}"
    attrs["fill"] = span.fill
    if span.bold:
        attrs["font-weight"] = "bold"
    attrs.update(span.attrs)
    head = "<tspan" + _attributes(attrs)
    return f"{head}>{_escape_text(span.text)}</tspan>" if span.text else f"{head} />"


# ------------------------------------------------------------------- written lines

_Block = tuple[float, tuple[bytes, ...], tuple[tuple[bytes, ...], ...]]
"""A group of tokens written out in lines, UTF-8: its height (each line its largest font
+ 4), then its markup cut where its top goes (``figure.join(pieces)``), or if it has
links, its chunks: ``query.join(map(figure.join, chunks))`` (the board's query string
ends each star's link).  Every ``<text>`` of the block has the block's top as its ``y``
and its line's baseline below that as its ``dy``: a block is the same bytes wherever it
is drawn."""


@lru_cache(maxsize=32768)
def _placed(
    token: _Token, x: float, baseline: float, link: str | None
) -> tuple[bytes, bytes, bytes]:
    """A token written at ``x``, ``baseline`` below its block's top, in UTF-8: its link up
    to the query (if it is a star and ``link`` is given, else ``b""``), its start up to its
    ``y``, and the rest.  (Cached: a new block is mostly tokens that other blocks put at
    the same place.)"""
    head = f'<text x="{x:.1f}" y="'
    tail = f'" dy="{baseline:.1f}"{token._markup or token.markup()}'
    if link is not None and token.star_key:
        link_start = f'<a href="{link}{_escape_attribute(token.star_key)}'
        head = f'" class="star-link">{head}'
        return link_start.encode(), head.encode(), f"{tail}</a>".encode()
    return b"", head.encode(), tail.encode()


def _write_block(
    tokens: Sequence[_Token], width: float, x: float, link: str | None = None
) -> _Block:
    """Tokens in lines no wider than ``width`` (a token wider than a line is cut, each
    piece starting a line), written from ``x`` (see :data:`_Block`).  With ``link`` (an
    escaped href start), each star's name is a link to ``link`` + its key + the board's
    query string: a keyboard reaches every star and opens it, with or without a script."""
    pieces: list[bytes] = []  # the pieces of the chunk being written
    chunks: list[tuple[bytes, ...]] = []  # the chunks before it, if it has links
    tail = b""  # the end of the token before
    top = 0.0
    line: list[tuple[_Token, float]] = []  # the line being broken: tokens and their x
    size = used = at = 0.0
    if tokens and max(map(_WIDTH, tokens)) > width:
        tokens = _cut(tokens, width)
    for token in (*tokens, _BREAK):  # the break ends the last line
        if line and used + _GAP + token.width <= width:
            used += _GAP + token.width
        else:
            if line:
                # A line's baseline is its largest font + 2 below its top; the next
                # line's top 2 below that.
                baseline = top + size + 2
                for placed, where in line:
                    link_start, head, after = _placed(placed, where, baseline, link)
                    if link_start:  # the query ends the link: a new chunk
                        pieces.append(tail + link_start)
                        chunks.append(tuple(pieces))
                        pieces = [head]
                    else:
                        pieces.append(tail + head)
                    tail = after
                top = baseline + 2
                line = []
            if token is _BREAK:
                continue
            size, at, used = 0.0, x, token.width
        line.append((token, at))
        at += token.width + _GAP
        if token.size > size:
            size = token.size
    pieces.append(tail)
    if chunks:
        chunks.append(tuple(pieces))
        return top, (), tuple(chunks)
    return top, tuple(pieces), ()


_WIDTH: Final = attrgetter("width")
_BREAK: Final = _Token([_Span("", _INK, 0.0)])
"""Not a token: it ends the line before (its width is NaN: it fits on no line, however
wide)."""
_BREAK.width = math.nan


def _cut(tokens: Sequence[_Token], width: float) -> list[_Token]:
    """The tokens with each one wider than ``width`` cut into pieces, each piece on a line
    of its own (after a :data:`_BREAK`); a token after the last piece may join its line."""
    out: list[_Token] = []
    for token in tokens:
        if token.width <= width:
            out.append(token)
        else:
            for piece in token.pieces(width):
                out += (_BREAK, piece)
    return out


def _one_line(tokens: Sequence[_Token], x: float, link: str | None = None) -> _Block:
    """Tokens on one line however wide, written from ``x``."""
    return _write_block(tokens, math.inf, x, link)


class _Place:
    """Where a palace's (or the centre's) lines go: their width, their ``x``, the start of
    their star links (escaped) or ``None``.  One object per place (:func:`_place`), a key
    that hashes by identity."""

    __slots__ = ("link", "width", "x")

    def __init__(self, width: float, x: float, link: str | None):
        self.width, self.x, self.link = width, x, link


@lru_cache(maxsize=256)
def _place(width: float, x: float, link: str | None) -> _Place:
    return _Place(width, x, link)


class _Group:
    """Tokens broken into lines together (a palace's major stars, its gods, a centre row),
    with their written blocks by place.  A new chart's board is mostly groups that some
    board drew before at one of a few places (the caches below hand out the same group for
    the same tokens): written once, looked up after."""

    __slots__ = ("kept", "tokens", "whole", "written")

    def __init__(self, tokens: tuple[_Token, ...], whole: bool = False, kept: bool = False):
        self.tokens = tokens
        self.whole = whole
        """One line however wide (a title, the decade's ages)."""
        self.kept = kept
        """Shared by boards and many (the groups of :func:`_group`): its blocks count
        towards :data:`_KEPT_BLOCKS`."""
        self.written: dict[_Place, _Block] = {}

    def block(self, place: _Place) -> _Block:
        block = self.written.get(place)
        if block is None:
            if self.whole:
                block = _one_line(self.tokens, place.x, place.link)
            else:
                block = _write_block(self.tokens, place.width, place.x, place.link)
            self.written[place] = block
            if self.kept:
                _kept.append((self, place))
                if len(_kept) > _KEPT_BLOCKS:  # the oldest block goes
                    group, old = _kept.popleft()
                    group.written.pop(old, None)
        return block


_KEPT_BLOCKS: Final = 49152
"""The most blocks kept by the shared groups: a worker's memory stays bounded, and a board
drawn after 3,000 others finds ~95% of its groups written (both layouts with star links,
the last 500 of 3,000 new pages: 5.7 of 120 groups written a page; this module's caches
then hold 47 MB by tracemalloc).  At half this bound the caches held 37 MB and a page wrote
11.8 groups: the oldest blocks went before their groups came again."""
_kept: Final[deque[tuple[_Group, _Place]]] = deque()


@lru_cache(maxsize=32768)
def _group(tokens: tuple[_Token, ...]) -> _Group:
    """The one group of these tokens (tokens made by the caches below are the same on every
    board), so its lines are written once per place."""
    return _Group(tokens, kept=True)


_FIGURES: Final[dict[float, bytes]] = {}
"""Coordinates written out by value, to one decimal (the boards repeat a few thousand
figures): read as ``_FIGURES.get(value) or _figure(value)`` (a plain dict: a dict
subclass's ``[]`` with ``__missing__`` is a call through Python's slots, ~700
instructions a figure under callgrind)."""


def _figure(value: float) -> bytes:
    figure = format(value, ".1f").encode()
    if len(_FIGURES) < 16384:
        _FIGURES[value] = figure
    return figure


@lru_cache(maxsize=64)
def _whole(value: float) -> bytes:
    """The x or width of a frame (a few values)."""
    return format(value, "g").encode()


# -------------------------------------------------------------------------- the board


def _star_token(
    star: Star,
    brightness: Brightness | None,
    natal_mutagen: Mutagen | None,
    style: str,
    layers: Sequence[Layer] = (),
) -> _Token:
    """A star's name with its brightness, natal 四化 and the layers' 四化 on it."""
    group = star.group.value
    size = _SIZES[group]
    if group == "major":
        fill = _STAR_FILL["major"]
    elif group == "minor":
        fill = _STAR_FILL.get(star.kind.value, _INK)
    else:
        fill = _ADJECTIVE
    spans = [_Span(display(star.names, style), fill, size, bold=group == "major")]
    attrs = {"data-star": star.key, "class": f"star {group}"}
    small = max(10.0, size - 3)
    if brightness is not None:
        grade = display(brightness.names, style)
        strong = brightness.key in ("miao", "wang", "de", "li")
        spans.append(
            _Span(
                f"({grade})" if _latin(style) else grade,
                _STRONG_GRADE if strong else _WEAK_GRADE,
                small,
                attrs={"class": "brightness"},
            )
        )
        attrs["data-brightness"] = brightness.key
    if natal_mutagen is not None:
        mutagen = natal_mutagen
        spans.append(
            _Span(
                f"[{display(mutagen.names, style)}]",
                _MUTAGEN_FILL[int(mutagen)],
                small,
                bold=True,
                attrs={"class": "mutagen", "data-mutagen": mutagen.key},
            )
        )
        attrs["data-mutagen"] = mutagen.key
    # The horoscope layers' 四化 on this star, each in its layer's colour.
    for layer in layers:
        for mutagen_index, transformed in enumerate(layer.mutagens):
            if transformed.key != star.key:
                continue
            mutagen = Mutagen(mutagen_index)
            scope = layer.scope.value
            mark = (
                _LAYER_LETTER[scope] + ":"
                if _latin(style)
                else _layer_char(display(layer.names, style))
            )
            spans.append(
                _Span(
                    f"{mark}{display(mutagen.names, style)}",
                    _LAYER_FILL[scope],
                    small,
                    bold=True,
                    attrs={
                        "class": "flowing-mutagen",
                        "data-layer": scope,
                        "data-mutagen": mutagen.key,
                    },
                    gap=3,
                )
            )
    return _Token(spans, attrs)


@lru_cache(maxsize=4096)
def _natal_star(
    star: Star, brightness: Brightness | None, natal_mutagen: Mutagen | None, style: str
) -> _Token:
    """:func:`_star_token` without a horoscope: a pure function of a few values, made once."""
    return _star_token(star, brightness, natal_mutagen, style)


# The tokens at a palace's foot, pure functions of a few values: made once, not per board.


@lru_cache(maxsize=1024)
def _god_token(god: God, style: str) -> _Token:
    return _Token(
        [_Span(display(god.names, style), _ADJECTIVE, _SMALL)],
        {"data-god": god.key, "data-cycle": god.cycle, "class": "god"},
    )


@lru_cache(maxsize=512)
def _decadal_token(start: int, end: int, current: bool) -> _Token:
    return _Token(
        [_Span(f"{start}–{end}", _STRONG_GRADE, _SMALL, current)],
        {"class": "decadal"},
    )


@lru_cache(maxsize=512)
def _name_tokens(
    name: PalaceName, is_body: bool, is_original: bool, style: str
) -> tuple[_Token, ...]:
    labels = LABELS[style]
    fill = _LIFE if name.key == "life" else _INK
    tokens = [
        _Token(
            [_Span(display(name.names, style), fill, _NAME_SIZE, True)],
            {"class": "palace-name"},
        )
    ]
    if is_body:
        tokens.append(_Token([_Span(labels["body"], _LIFE, _SMALL, True)], {"class": "body-mark"}))
    if is_original:
        tokens.append(
            _Token([_Span(labels["original"], _ADJECTIVE, _SMALL)], {"class": "original"})
        )
    return tuple(tokens)


@lru_cache(maxsize=1024)
def _pillar_token(pillar: Pillar, style: str) -> _Token:
    return _Token(
        [_Span(_pillar(pillar, style), _INK, _NAME_SIZE, True)],
        {"class": "stem-branch"},
    )


@lru_cache(maxsize=2048)
def _flowing_token(star: Star, scope: str, style: str) -> _Token:
    """A layer's flowing star (流昌, 流羊 …) in that layer's colour."""
    return _Token(
        [_Span(display(star.names, style), _LAYER_FILL[scope], _SIZES["flowing"])],
        {"data-star": star.key, "data-layer": scope, "class": "flowing"},
    )


@lru_cache(maxsize=256)
def _layer_mark(name: str, scope: str) -> _Token:
    """The mark of a layer whose Life palace a palace is."""
    return _Token(
        [_Span(name, _LAYER_FILL[scope], _SMALL, True)], {"data-layer": scope, "class": "layer"}
    )


@lru_cache(maxsize=8)
def _title_token(title: str) -> _Token:
    return _Token([_Span(title, _INK, _TITLE_SIZE, True)], {"class": "title"})


@lru_cache(maxsize=4096)
def _notice_token(message: str) -> _Token:
    """A notice (most births without a place share one of a few dozen: no time zone given,
    the clock time used as it is)."""
    return _Token([_Span(message, _STRONG_GRADE, _SMALL)], {"class": "notice"})


def _row_token(label: str, text: str, value: str, fill: str) -> _Token:
    """A row of the centre: its label, then its value."""
    return _Token(
        [_Span(text, _WEAK_GRADE, _CENTRE_SIZE), _Span(value, fill, _CENTRE_SIZE, True, gap=5)],
        {"data-field": label},
    )


@lru_cache(maxsize=8192)
def _star_group(stars: tuple[PlacedStar, ...], style: str) -> _Group:
    """A palace's major (or minor, or adjective) stars as drawn without a horoscope: the
    same on every board, made once (keyed by the chart's own tuples: nothing to build on
    a hit)."""
    return _group(tuple([_natal_star(s.star, s.brightness, s.mutagen, style) for s in stars]))


@lru_cache(maxsize=2048)
def _gods_group(gods: tuple[God, God, God, God], style: str) -> _Group:
    return _group(tuple([_god_token(g, style) for g in gods]))


@lru_cache(maxsize=512)
def _decadal_group(start: int, end: int, current: bool) -> _Group:
    return _Group((_decadal_token(start, end, current),), whole=True)


@lru_cache(maxsize=8)
def _title_group(title: str) -> _Group:
    return _Group((_title_token(title),), whole=True)


@lru_cache(maxsize=4096)
def _notice_group(message: str) -> _Group:
    return _group((_notice_token(message),))


class _Row(_Group):
    """A centre row that only this birth has (its dates, its pillars): written from a start
    and an end kept by label, around the escaped value, without making a token (unless it
    is too wide for one line)."""

    __slots__ = ("fill", "label", "text", "value")

    def __init__(self, label: str, text: str, value: str, fill: str):
        super().__init__(())
        self.label, self.text, self.value, self.fill = label, text, value, fill

    def block(self, place: _Place) -> _Block:
        block = self.written.get(place)
        if block is None:
            label, text, value, fill = self.label, self.text, self.value, self.fill
            # A token's width, summed as _Token sums it (the value is new: not cached), but
            # first bounded: no character is wider than one em, so a value that fits at one
            # em a character fits as measured (measured per character only if it is long).
            label_w = _width(text, _CENTRE_SIZE)
            if value and (
                label_w + (5.0 + len(value) * _CENTRE_SIZE) <= place.width
                or label_w + (5.0 + _width.__wrapped__(value, _CENTRE_SIZE)) <= place.width
            ):
                value_bytes = _escape_text.__wrapped__(value).encode()
                tail = b"%b%b</tspan></text>" % (_row_start(label, text, fill), value_bytes)
                head = b'<text x="%b" y="' % _figure(place.x)
                block = (_CENTRE_SIZE + 4, (head, tail), ())
            else:
                self.tokens = (_row_token(label, text, value, fill),)
                block = _write_block(self.tokens, place.width, place.x, place.link)
            self.written[place] = block
        return block


@lru_cache(maxsize=256)
def _row_start(label: str, text: str, fill: str) -> bytes:
    """A row's markup up to its value, after its ``y``: :func:`_row_token`'s token written
    as :func:`_placed` writes it on a block's first line."""
    size = f"{_CENTRE_SIZE:g}"
    head = _attributes({"data-field": label, "font-size": size, "fill": _WEAK_GRADE})
    value = _attributes({"font-size": size, "dx": "5", "fill": fill, "font-weight": "bold"})
    dy = f"{_CENTRE_SIZE + 2:.1f}"
    return f'" dy="{dy}"{head}>{_escape_text(text)}<tspan{value}>'.encode()


@lru_cache(maxsize=4096)
def _shared_row_group(label: str, text: str, value: str, fill: str) -> _Group:
    """A row that many births share (gender, class, masters, zodiac)."""
    return _group((_row_token(label, text, value, fill),))


class _Label:
    """A line of tokens at the foot of a palace, written as a block (:data:`_Block`) by
    place: from the place's start (the palace's name, with the body and 原局 marks) or
    ending at its end (the stem-branch).  The two share a baseline, ``baseline`` below the
    block's top."""

    __slots__ = ("baseline", "end", "tokens", "written")

    def __init__(self, tokens: tuple[_Token, ...], end: bool = False):
        self.tokens, self.end = tokens, end
        self.baseline = max([t.size for t in tokens]) + 2
        self.written: dict[_Place, tuple[bytes, ...]] = {}

    def pieces(self, place: _Place) -> tuple[bytes, ...]:
        pieces = self.written.get(place)
        if pieces is None:
            x, line = place.x, self.tokens
            if self.end:
                x = place.x + place.width - (sum([t.width for t in line]) + _GAP * (len(line) - 1))
            pieces = _one_line(line, x)[1]  # no links
            self.written[place] = pieces
        return pieces


@lru_cache(maxsize=512)
def _palace_name(name: PalaceName, is_body: bool, is_original: bool, style: str) -> _Label:
    return _Label(_name_tokens(name, is_body, is_original, style))


@lru_cache(maxsize=1024)
def _stem_branch(stem: Stem, branch: Branch, style: str) -> _Label:
    return _Label((_pillar_token(Pillar(stem, branch), style),), end=True)


@lru_cache(maxsize=2048)
def _group_tag(branch: Branch, stem: Stem, palace: PalaceName) -> bytes:
    """A palace's ``<g>`` start tag, with the keys a click is hooked on."""
    attrs = {
        "class": "palace",
        "data-branch": branch.key,
        "data-stem": stem.key,
        "data-palace": palace.key,
    }
    return f"<g{_attributes(attrs)}>".encode()


class _PalaceView:
    """A palace's groups of tokens, as its lines will be (made once a board: the layouts
    break the same tokens into lines of their own widths)."""

    __slots__ = ("foot", "head", "name", "stem_branch", "tag")

    def __init__(
        self, tag: bytes, head: list[_Group], foot: list[_Group], name: _Label, stem_branch: _Label
    ):
        self.tag, self.head, self.foot = tag, head, foot
        self.name, self.stem_branch = name, stem_branch


_Cell = tuple[_PalaceView, list[_Block], list[_Block], float, float]
"""A palace placed: its view, its head and foot blocks, its foot's height and its own."""


def _blocks(groups: Sequence[_Group], place: _Place) -> tuple[list[_Block], float]:
    """The groups' written blocks at ``place`` (written now where missing) and their height."""
    blocks: list[_Block] = []
    height = 0.0
    for group in groups:
        block = group.written.get(place) or group.block(place)
        blocks.append(block)
        height += block[0]
    return blocks, height


class _Board:
    def __init__(
        self,
        chart: NatalChart,
        horoscope: Horoscope | None,
        style: str,
        star_link: tuple[str, str] | None = None,
        notice_words: Callable[[str], str] | None = None,
    ):
        self.chart = chart
        self.notice_words = notice_words
        self.horoscope = horoscope
        self.style = style
        self.labels = LABELS[style]
        self.layers: Sequence[Layer] = horoscope.layers if horoscope is not None else ()
        # The stars some layer transforms: only their tokens differ from the natal ones.
        self.transformed = {star.key for layer in self.layers for star in layer.mutagens}
        # Each star links to link + its key + query: the start is the same on every board
        # (written into the cached blocks), the query is joined in by each linked block.
        self.link: str | None = None
        self.query = b""
        if star_link is not None:
            self.link = _escape_href(star_link[0])
            self.query = _escape_href(star_link[1]).encode()
        self._views: list[_PalaceView] | None = None
        self._centre: list[_Group] | None = None

    def name(self, names: Names) -> str:
        return display(names, self.style)

    # -- a palace's groups

    def views(self) -> list[_PalaceView]:
        """Each palace's groups, in the chart's order (made once a board)."""
        if self._views is None:
            self._views = [self._view(palace) for palace in self.chart.palaces]
        return self._views

    def _view(self, palace: Palace) -> _PalaceView:
        h, layers, style, transformed = self.horoscope, self.layers, self.style, self.transformed
        head: list[_Group] = []
        for stars in (palace.major_stars, palace.minor_stars, palace.adjective_stars):
            # A star no layer transforms is drawn as it is on every board.
            if not transformed or not any([s.star.key in transformed for s in stars]):
                head.append(_star_group(stars, style))
            else:
                tokens = [
                    _natal_star(s.star, s.brightness, s.mutagen, style)
                    if s.star.key not in transformed
                    else _star_token(s.star, s.brightness, s.mutagen, style, layers)
                    for s in stars
                ]
                head.append(_Group(tuple(tokens)))
        foot: list[_Group] = []
        if layers:
            flowing = [
                _flowing_token(s.star, layer.scope.value, style)
                for layer in layers
                for s in layer.stars
                if s.branch == palace.branch
            ]
            head.append(_group(tuple(flowing)))
            marks = [
                _layer_mark(self.name(layer.names), layer.scope.value)
                for layer in layers
                if layer.branch == palace.branch
            ]
            foot.append(_group(tuple(marks)))
        gods = (palace.chang_sheng, palace.bo_shi, palace.jiang_qian, palace.sui_qian)
        foot.append(_gods_group(gods, style))
        decadal = palace.decadal
        current = h is not None and decadal.start <= h.nominal_age <= decadal.end
        foot.append(_decadal_group(decadal.start, decadal.end, current))
        tag = _group_tag(palace.branch, palace.stem, palace.name)
        name = _palace_name(palace.name, palace.is_body, palace.is_original, style)
        stem_branch = _stem_branch(palace.stem, palace.branch, style)
        return _PalaceView(tag, head, foot, name, stem_branch)

    def _cell(self, view: _PalaceView, place: _Place) -> _Cell:
        """A palace's blocks at ``place``, the height of its foot and its own height.  (Loops,
        not comprehensions: this runs 24 times a page, and a comprehension is a call.)"""
        head, head_h = _blocks(view.head, place)
        foot, foot_h = _blocks(view.foot, place)
        return view, head, foot, foot_h, _PAD + head_h + 6 + foot_h + _NAME_H + _PAD

    # -- the centre

    def centre(self) -> list[_Group]:
        """The centre's title and groups of tokens, made once a board (the layouts break
        the same tokens into lines of their own widths)."""
        if self._centre is None:
            self._centre = self._centre_groups()
        return self._centre

    def _centre_groups(self) -> list[_Group]:
        chart, labels, style = self.chart, self.labels, self.style
        birth = chart.birth
        out = [_title_group(labels["title"])]

        def row(label: str, value: str, fill: str = _INK, shared: bool = True) -> None:
            """A row; ``shared`` if many births have it (the others are not kept)."""
            if shared:
                out.append(_shared_row_group(label, labels[label], value, fill))
            else:
                out.append(_Row(label, labels[label], value, fill))

        hour = self.name(chart.hour.names)
        solar = birth.solar_date.isoformat()
        if birth.clock_time is not None:
            clock = birth.clock_time
            solar += " " + clock.strftime("%H:%M:%S" if clock.second else "%H:%M")
        lunar_date = chart.lunar_date
        if _latin(style):
            lunar = f"{lunar_date.year}-{lunar_date.month}-{lunar_date.day}"
            if lunar_date.is_leap:
                lunar += f" ({labels['leap']})"
        else:
            lunar = lunar_date.chinese()
        polarity = labels[chart.year.stem.polarity.name.lower()]
        gender = labels[birth.gender.value]
        row("solar", f"{solar} {hour}", shared=False)
        row("lunar", f"{lunar} {hour}", shared=False)
        row("pillars", " ".join(_pillar(p, style) for p in chart.pillars), shared=False)
        row("gender", f"{polarity} {gender}" if _latin(style) else polarity + gender)
        row("class", self.name(chart.five_elements_class.names))
        row("life_master", self.name(chart.life_master.names), _STAR_FILL["major"])
        row("body_master", self.name(chart.body_master.names), _STAR_FILL["major"])
        row("zodiac", f"{self.name(chart.zodiac)} · {self.name(chart.sign)}")
        for notice in notices_of(chart):
            message = str(getattr(notice, "message", notice))
            out.append(_notice_group(self.notice_words(message) if self.notice_words else message))
        h = self.horoscope
        if h is not None:
            when = f"{h.date.isoformat()} {self.name(HOURS[h.time_index].names)}"
            row("horoscope", f"{when} · {labels['age']} {h.nominal_age}", shared=False)
            for layer in h.layers:
                scope = layer.scope.value
                tokens = [
                    _Token(
                        [
                            _Span(self.name(layer.names), _LAYER_FILL[scope], _SMALL, True),
                            _Span(_pillar(layer.pillar, style), _LAYER_FILL[scope], _SMALL, gap=4),
                        ],
                        {"data-layer": scope, "class": "layer"},
                    )
                ]
                for mutagen, star in zip(Mutagen, layer.mutagens, strict=True):
                    tokens.append(
                        _Token(
                            [
                                _Span(self.name(star.names), _INK, _SMALL),
                                _Span(
                                    self.name(mutagen.names),
                                    _MUTAGEN_FILL[int(mutagen)],
                                    _SMALL,
                                    True,
                                    gap=1,
                                ),
                            ],
                            {"data-star": star.key, "data-mutagen": mutagen.key},
                        )
                    )
                out.append(_Group(tuple(tokens)))
        return out

    # -- drawing

    def svg(self, layout: str = "board") -> bytes:
        """The document in UTF-8."""
        out = self._column() if layout == "column" else self._board()
        out.append(b"</svg>")
        return b"".join(out)

    def _board(self) -> list[bytes]:
        """The classic 4×4 board: each row as tall as its tallest palace, the centre 2×2."""
        link = self.link
        places = [_place(_CELL_W - 2 * _PAD, c * _CELL_W + _PAD, link) for c in range(4)]
        cells: list[tuple[int, int, _Cell]] = []
        rows = [_MIN_ROW] * 4
        for palace, view in zip(self.chart.palaces, self.views(), strict=True):
            r, c = _POSITIONS[palace.branch]
            cell = self._cell(view, places[c])
            cells.append((r, c, cell))
            if cell[4] > rows[r]:
                rows[r] = cell[4]
        middle = _place(2 * _CELL_W - 4 * _PAD, _CELL_W + 2 * _PAD, link)
        centre = [g.block(middle) for g in self.centre()]
        need = sum([b[0] for b in centre]) + 4 * _PAD
        if need > rows[1] + rows[2]:
            extra = need - rows[1] - rows[2]
            rows[1] += extra / 2
            rows[2] += extra / 2
        tops = [sum(rows[:i]) for i in range(5)]
        out = self._root(4 * _CELL_W, tops[4])
        cells.sort(key=_ROW_COLUMN)
        for r, c, cell in cells:
            self._write_palace(out, cell, places[c], c * _CELL_W, tops[r], _CELL_W, rows[r])
        self._write_centre(out, centre, _CELL_W, tops[1], 2 * _CELL_W, rows[1] + rows[2])
        return out

    def _column(self) -> list[bytes]:
        """The narrow layout for a phone: the summary on top, then the twelve palaces one
        under the other from the Life palace on, each the full width (the same fonts as the
        board, so on a 360-pixel screen the text is drawn at its own size)."""
        link = self.link
        place = _place(_COLUMN_W - 2 * _PAD, _PAD, link)
        summary = _place(_COLUMN_W - 4 * _PAD, 2 * _PAD, link)
        centre = [g.block(summary) for g in self.centre()]
        top = sum([b[0] for b in centre]) + 4 * _PAD
        by_name = {p.name: v for p, v in zip(self.chart.palaces, self.views(), strict=True)}
        cells = [self._cell(by_name[name], place) for name in _PALACE_NAMES]
        out = self._root(_COLUMN_W, top + sum([cell[4] for cell in cells]))
        self._write_centre(out, centre, 0, 0, _COLUMN_W, top)
        y = top
        for cell in cells:
            self._write_palace(out, cell, place, 0, y, _COLUMN_W, cell[4])
            y += cell[4]
        return out

    def _root(self, width: float, total: float) -> list[bytes]:
        """The document's start: the ``<svg>`` tag, its title and its background."""
        title = self.labels["title"]
        # With star links the board is a group of links, not an image.
        role = "img" if self.link is None else "group"
        size = f'width="{width:g}" height="{total:.0f}"'
        root = (
            f'<svg xmlns="{SVG_NS}" viewBox="0 0 {width:g} {total:.0f}" {size}'
            f' font-family="{_escape_attribute(FONT_FAMILY)}" class="mingshu-ziwei-chart"'
            f' role="{role}" aria-label="{_escape_attribute(title)}">'
            f'<title>{_escape_text(title)}</title><rect x="0" y="0" {size} fill="#fffdf7" />'
        )
        return [root.encode()]

    def _write_palace(
        self, out: list[bytes], cell: _Cell, place: _Place, x: float, y: float, w: float, h: float
    ) -> None:
        view, head, foot, foot_h, _ = cell
        out += (view.tag, _frame(x, y, w, h))
        _write_blocks(out, head, y + _PAD, self.query)
        bottom = y + h - _PAD
        name, stem_branch = view.name, view.stem_branch
        # The name and the stem-branch: their baselines 3 above the palace's inner bottom.
        top = bottom - 3 - name.baseline
        name_figure = _FIGURES.get(top) or _figure(top)
        top = bottom - 3 - stem_branch.baseline
        stem_branch_figure = _FIGURES.get(top) or _figure(top)
        out += (
            name_figure.join(name.pieces(place)),
            stem_branch_figure.join(stem_branch.pieces(place)),
        )
        _write_blocks(out, foot, bottom - _NAME_H - foot_h, self.query)
        out.append(b"</g>")

    def _write_centre(
        self, out: list[bytes], centre: list[_Block], x: float, y: float, w: float, h: float
    ) -> None:
        out += (b'<g class="centre">', _frame(x, y, w, h))
        _write_blocks(out, centre, y + (h - sum([b[0] for b in centre])) / 2, self.query)
        out.append(b"</g>")


_ROW_COLUMN: Final = itemgetter(0, 1)


def _write_blocks(out: list[bytes], blocks: list[_Block], top: float, query: bytes) -> None:
    """Written blocks one under the other, the first's top at ``top``."""
    figures = _FIGURES
    for height, pieces, chunks in blocks:
        figure = figures.get(top) or _figure(top)
        if chunks:
            out.append(query.join(map(figure.join, chunks)))
        else:
            out.append(figure.join(pieces))
        top += height


def _frame(x: float, y: float, w: float, h: float) -> bytes:
    """The border of a palace or of the centre (numbers and constants: nothing to escape;
    the figures from dicts: a new chart's rows have new heights)."""
    y_figure = _FIGURES.get(y) or _figure(y)
    return _FRAME % (_whole(x), y_figure, _whole(w), _FIGURES.get(h) or _figure(h))


_FRAME: Final = (
    b'<rect x="%b" y="%b" width="%b" height="%b" fill="none" stroke="' + _BORDER.encode() + b'" />'
)


# Cached: a board repeats the same few hundred values (colours, sizes, keys, names).
@lru_cache(maxsize=8192)
def _escape_text(text: str) -> str:
    if "&" in text:
        text = text.replace("&", "&amp;")
    if "<" in text:
        text = text.replace("<", "&lt;")
    if ">" in text:
        text = text.replace(">", "&gt;")
    return text


@lru_cache(maxsize=8192)
def _escape_attribute(text: str) -> str:
    text = _escape_text(text)
    if '"' in text:
        text = text.replace('"', "&quot;")
    if "\r" in text:
        text = text.replace("\r", "&#13;")
    if "\n" in text:
        text = text.replace("\n", "&#10;")
    if "\t" in text:
        text = text.replace("\t", "&#09;")
    return text


def _attributes(attrs: dict[str, str]) -> str:
    return "".join([f' {k}="{_escape_attribute(v)}"' for k, v in attrs.items()])


def _escape_href(href: str) -> str:
    """An attribute escaped without the caches: every chart's links are new strings."""
    for char, entity in _ATTRIBUTE_ENTITIES:
        if char in href:
            href = href.replace(char, entity)
    return href


_ATTRIBUTE_ENTITIES: Final = (
    ("&", "&amp;"),
    ("<", "&lt;"),
    (">", "&gt;"),
    ('"', "&quot;"),
    ("\r", "&#13;"),
    ("\n", "&#10;"),
    ("\t", "&#09;"),
)


def _layer_char(name: str) -> str:
    """The one character that tells the layers apart: 大(限) 小(限) 童(限), (流)年 (流)月 …"""
    return name[-1] if name.startswith("流") else name[0]


LAYOUTS: Final = ("board", "column")
"""``board``: the classic 4×4 board, 720 units wide; ``column``: the palaces one under the
other, 360 units wide, for a phone."""


def _check_charts(chart: object, horoscope: object) -> None:
    """A natal chart, and ``None`` or a horoscope of that chart."""
    from mingshu.ziwei.chart import NatalChart
    from mingshu.ziwei.horoscope import Horoscope

    check_type(chart, NatalChart, "chart", "a Zi Wei chart")
    if horoscope is not None:
        h = check_type(horoscope, Horoscope, "horoscope", "a horoscope of the chart or None")
        if h.chart is not chart and h.chart != chart:
            raise InputError("horoscope", "that horoscope belongs to another chart")


def chart_svg(
    chart: NatalChart,
    horoscope: Horoscope | None = None,
    names: str = "hans",
    layout: str = "board",
) -> str:
    """The chart (and the horoscope's layers) as an SVG document; ``names`` is one of
    ``hans``, ``hant``, ``pinyin``, ``english``; ``layout`` one of :data:`LAYOUTS`."""
    return chart_svgs(chart, horoscope, names, (layout,))[0]


@overload
def chart_svgs(
    chart: NatalChart,
    horoscope: Horoscope | None = ...,
    names: str = ...,
    layouts: Sequence[str] = ...,
    *,
    star_link: tuple[str, str] | None = ...,
    notice_words: Callable[[str], str] | None = ...,
    as_bytes: Literal[False] = ...,
) -> tuple[str, ...]: ...


@overload
def chart_svgs(
    chart: NatalChart,
    horoscope: Horoscope | None = ...,
    names: str = ...,
    layouts: Sequence[str] = ...,
    *,
    star_link: tuple[str, str] | None = ...,
    notice_words: Callable[[str], str] | None = ...,
    as_bytes: Literal[True],
) -> tuple[bytes, ...]: ...


def chart_svgs(
    chart: NatalChart,
    horoscope: Horoscope | None = None,
    names: str = "hans",
    layouts: Sequence[str] = LAYOUTS,
    *,
    star_link: tuple[str, str] | None = None,
    notice_words: Callable[[str], str] | None = None,
    as_bytes: bool = False,
) -> tuple[str, ...] | tuple[bytes, ...]:
    """:func:`chart_svg` in each of ``layouts``, the same documents, drawn from one set of
    tokens (a page that carries both layouts measures each name once); with
    ``star_link=(start, end)``, each star's name links to ``start + star_key + end``
    (``("/chart/star/", "?" + query)``); ``notice_words`` gives each notice (an engine's
    English message) in the reader's language.  With ``as_bytes=True`` the documents are UTF-8
    bytes, as they are made (a page that sends them saves decoding and encoding them)."""
    _check_charts(chart, horoscope)
    if names not in NAME_STYLES:
        raise InputError("names", f"{clip(names)} is not one of {', '.join(NAME_STYLES)}")
    for layout in layouts:
        if layout not in LAYOUTS:
            raise InputError("layout", f"{clip(layout)} is not one of {', '.join(LAYOUTS)}")
    if star_link is not None:
        check_type(
            star_link,
            tuple,
            "star_link",
            "a pair of strings: the href before and after the star's key",
        )
        if len(star_link) != 2 or not all(isinstance(part, str) for part in star_link):
            raise InputError(
                "star_link", "give the href before and after the star's key: two strings"
            )
    board = _Board(chart, horoscope, names, star_link, notice_words)
    if as_bytes:
        return tuple([board.svg(layout) for layout in layouts])
    return tuple([board.svg(layout).decode() for layout in layouts])
