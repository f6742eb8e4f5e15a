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
The document is built with ElementTree, which escapes all text.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Final

from mingshu.arguments import check_type
from mingshu.errors import InputError
from mingshu.named import clip
from mingshu.present.labels import BOARD, LABELS
from mingshu.present.names import NAME_STYLES, display, notices_of
from mingshu.ziwei.stars import Mutagen
from mingshu.ziwei.tables import HOURS, PalaceName

if TYPE_CHECKING:
    from mingshu.cycles import Names, Pillar
    from mingshu.ziwei.chart import NatalChart, Palace
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


def _lines(tokens: Sequence[_Token], width: float) -> list[list[_Token]]:
    """Tokens in lines no wider than ``width``; a token wider than a line is cut."""
    lines: list[list[_Token]] = []
    used = 0.0
    for token in tokens:
        if lines and used + _GAP + token.width <= width:
            lines[-1].append(token)
            used += _GAP + token.width
        elif token.width <= width:
            lines.append([token])
            used = token.width
        else:
            pieces = token.pieces(width)
            lines += [[piece] for piece in pieces]
            used = pieces[-1].width
    return lines


_Written = tuple[float, tuple[str, ...], bool]
"""A line of tokens written out but for its baseline: the advance to its baseline (its
largest font + 2), the parts its baseline's figure joins (``figure.join(parts)``: every
token's ``y``), and whether the parts hold star links to fill in (``%(star_key)s``, with
their other ``%`` doubled) from the board's links."""


def _write_line(
    line: Sequence[_Token], x: float, anchor: str = "start", linked: bool = False
) -> _Written:
    """One line of tokens from ``x`` (or ending at ``x`` for ``end``), written out but for
    its baseline.  With ``linked``, each star's name is a link: a keyboard reaches every
    star and opens it, with or without a script."""
    if anchor == "end":
        x -= sum([t.width for t in line]) + _GAP * (len(line) - 1)
    links = linked and any([t.star_key for t in line])
    parts = []
    after = ""  # the end of the token before
    for token in line:
        markup = token._markup or token.markup()
        if links:
            markup = markup.replace("%", "%%")
        if links and token.star_key:
            link = f'<a href="%({token.star_key})s" class="star-link">'
            parts.append(f'{after}{link}<text x="{x:.1f}" y="')
            after = f'"{markup}</a>'
        else:
            parts.append(f'{after}<text x="{x:.1f}" y="')
            after = f'"{markup}'
        x += token.width + _GAP
    parts.append(after)
    return max([t.size for t in line]) + 2, tuple(parts), links


def _write_group(
    group: tuple[_Token, ...], width: float, x: float, linked: bool
) -> tuple[_Written, ...]:
    """A group of tokens in lines no wider than ``width``, written from ``x``."""
    return tuple([_write_line(line, x, "start", linked) for line in _lines(group, width)])


# A new chart's board is mostly groups of tokens some board drew before (a palace's major
# stars, its gods, a centre row) at one of a few places: written once, looked up after.
# Only for groups of tokens that the caches below make (the same on every board).
_written_group: Final = lru_cache(maxsize=16384)(_write_group)
_written_line: Final = lru_cache(maxsize=2048)(_write_line)


_FIGURES: Final[dict[float, str]] = {}
"""The ``y`` of baselines by value (the boards repeat a few hundred figures)."""


def _figure(value: float) -> str:
    figure = _FIGURES.get(value)
    if figure is None:
        figure = f"{value:.1f}"
        if len(_FIGURES) < 8192:
            _FIGURES[value] = figure
    return figure


# -------------------------------------------------------------------------- the board

_RAW: Final = "mingshu-written"
"""The tag of a tree node whose text is elements already written out (a palace's group or
the centre's, with their frame and lines of tokens): :func:`_serialize` copies it as it
is.  Most of drawing a board was making and writing an element per text, tspan, line and
frame, for tokens that are the same on every board."""

_Group = tuple[tuple[_Token, ...], bool]
"""Tokens to break into lines together, and whether the caches made them all (so the lines
they make are the same on every board)."""

_Parts = tuple[list[_Group], list[_Group], _Token]
"""A palace's tokens: the groups of its head lines, of its foot lines, the decadal ages."""


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


_shared_row_token: Final = lru_cache(maxsize=4096)(_row_token)
"""For the rows that many births share (gender, class, masters, zodiac)."""


class _Board:
    def __init__(
        self,
        chart: NatalChart,
        horoscope: Horoscope | None,
        style: str,
        star_href: Callable[[str], str] | None = None,
    ):
        self.chart = chart
        self.horoscope = horoscope
        self.style = style
        self.star_href = star_href
        self.labels = LABELS[style]
        self.layers: Sequence[Layer] = horoscope.layers if horoscope is not None else ()
        # The stars some layer transforms: only their tokens differ from the natal ones.
        self.transformed = {star.key for layer in self.layers for star in layer.mutagens}
        self._parts_cache: dict[str, _Parts] = {}
        self.linked = star_href is not None
        # Each star's link, escaped, for the ``%(star_key)s`` of written lines (both layouts
        # link each star): a plain dict, which ``%`` reads fastest.
        self.links = (
            None
            if star_href is None
            else {
                s.star.key: _escape_href(star_href(s.star.key))
                for palace in chart.palaces
                for stars in (palace.major_stars, palace.minor_stars, palace.adjective_stars)
                for s in stars
            }
        )
        self._centre: tuple[_Token, list[_Group]] | None = None

    def name(self, names: Names) -> str:
        return display(names, self.style)

    # -- a palace's parts

    def palace(
        self, palace: Palace, width: float, x: float
    ) -> tuple[list[_Written], list[_Written]]:
        """The lines of a palace written from ``x``: stars on top, the fixed parts at the
        foot."""
        head_groups, foot_groups, decadal = self._parts(palace)
        linked = self.linked
        head: list[_Written] = []
        for group, shared in head_groups:
            head += (_written_group if shared else _write_group)(group, width, x, linked)
        foot: list[_Written] = []
        for group, shared in foot_groups:
            foot += (_written_group if shared else _write_group)(group, width, x, linked)
        foot.append(_written_line((decadal,), x))
        return head, foot

    def _parts(self, palace: Palace) -> _Parts:
        """A palace's tokens, grouped as its lines will be (made once per board: the layouts
        break the same tokens into lines of their own widths)."""
        cached = self._parts_cache.get(palace.branch.key)
        if cached is not None:
            return cached
        h, layers, style, transformed = self.horoscope, self.layers, self.style, self.transformed
        head: list[_Group] = []
        for stars in (palace.major_stars, palace.minor_stars, palace.adjective_stars):
            # A star no layer transforms is drawn as it is on every board.
            shared = not transformed or not any([s.star.key in transformed for s in stars])
            head.append(
                (
                    tuple(
                        [
                            _natal_star(s.star, s.brightness, s.mutagen, style)
                            if shared or s.star.key not in transformed
                            else _star_token(s.star, s.brightness, s.mutagen, style, layers)
                            for s in stars
                        ]
                    ),
                    shared,
                )
            )
        flowing = [
            _flowing_token(s.star, layer.scope.value, style)
            for layer in layers
            for s in layer.stars
            if s.branch == palace.branch
        ]
        head.append((tuple(flowing), True))
        marks = [
            _layer_mark(self.name(layer.names), layer.scope.value)
            for layer in layers
            if layer.branch == palace.branch
        ]
        gods = (palace.chang_sheng, palace.bo_shi, palace.jiang_qian, palace.sui_qian)
        god_tokens = tuple([_god_token(g, style) for g in gods])
        decadal = palace.decadal
        current = h is not None and decadal.start <= h.nominal_age <= decadal.end
        decadal_token = _decadal_token(decadal.start, decadal.end, current)
        parts = (head, [(tuple(marks), True), (god_tokens, True)], decadal_token)
        self._parts_cache[palace.branch.key] = parts
        return parts

    def name_line(self, palace: Palace, x: float, w: float) -> tuple[str, ...]:
        tokens = _name_tokens(palace.name, palace.is_body, palace.is_original, self.style)
        return _name_line(tokens, _pillar_token(palace.pillar, self.style), x, w)

    # -- the centre

    def centre(self, width: float, x: float) -> list[_Written]:
        """The centre's lines written from ``x``: the title, then each group of tokens
        broken at ``width``."""
        if self._centre is None:
            self._centre = self._centre_groups()
        title, groups = self._centre
        lines = [_written_line((title,), x)]
        for group, shared in groups:
            lines += (_written_group if shared else _write_group)(group, width, x, self.linked)
        return lines

    def _centre_groups(self) -> tuple[_Token, list[_Group]]:
        """The centre's title and its groups of tokens, made once a board (the layouts
        break the same tokens into lines of their own widths)."""
        chart, labels, style = self.chart, self.labels, self.style
        birth = chart.birth
        title = _title_token(labels["title"])
        out: list[_Group] = []

        def row(label: str, value: str, fill: str = _INK, shared: bool = True) -> None:
            """A row; ``shared`` if many births have it (the others are not kept)."""
            make = _shared_row_token if shared else _row_token
            out.append(((make(label, labels[label], value, fill),), shared))

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
            out.append(((_notice_token(str(getattr(notice, "message", notice))),), True))
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
                out.append((tuple(tokens), False))
        return title, out

    # -- drawing

    def svg(self, layout: str = "board") -> str:
        return _serialize(self.tree(layout))

    def tree(self, layout: str = "board") -> ET.Element:
        if layout == "column":
            return self._column()
        inner = _CELL_W - 2 * _PAD
        cells: dict[tuple[int, int], tuple[Palace, list[_Written], list[_Written]]] = {}
        rows = [_MIN_ROW] * 4  # each row as tall as its tallest palace
        for palace in self.chart.palaces:
            r, c = _POSITIONS[palace.branch]
            head, foot = self.palace(palace, inner, c * _CELL_W + _PAD)
            cells[r, c] = (palace, head, foot)
            rows[r] = max(rows[r], _cell_height(head, foot))
        centre = self.centre(2 * _CELL_W - 4 * _PAD, _CELL_W + 2 * _PAD)
        need = _height(centre) + 4 * _PAD
        if need > rows[1] + rows[2]:
            extra = need - rows[1] - rows[2]
            rows[1] += extra / 2
            rows[2] += extra / 2
        tops = [sum(rows[:i]) for i in range(5)]
        root = self._root(4 * _CELL_W, tops[4])
        for (r, c), (palace, head, foot) in sorted(cells.items()):
            self._draw_palace(root, palace, head, foot, c * _CELL_W, tops[r], _CELL_W, rows[r])
        self._draw_centre(root, centre, _CELL_W, tops[1], 2 * _CELL_W, rows[1] + rows[2])
        return root

    def _column(self) -> ET.Element:
        """The narrow layout for a phone: the summary on top, then the twelve palaces one
        under the other from the Life palace on, each the full width (the same fonts as the
        board, so on a 360-pixel screen the text is drawn at its own size)."""
        inner = _COLUMN_W - 2 * _PAD
        centre = self.centre(inner - 2 * _PAD, 0 + 2 * _PAD)
        top = _height(centre) + 4 * _PAD
        cells = []
        for name in PalaceName:
            palace = self.chart.palace_named(name)
            head, foot = self.palace(palace, inner, 0 + _PAD)
            cells.append((palace, head, foot, _cell_height(head, foot)))
        root = self._root(_COLUMN_W, top + sum(c[3] for c in cells))
        self._draw_centre(root, centre, 0, 0, _COLUMN_W, top)
        y = top
        for palace, head, foot, h in cells:
            self._draw_palace(root, palace, head, foot, 0, y, _COLUMN_W, h)
            y += h
        return root

    def _root(self, width: float, total: float) -> ET.Element:
        root = ET.Element(
            "svg",
            {
                "xmlns": SVG_NS,
                "viewBox": f"0 0 {width:g} {total:.0f}",
                "width": f"{width:g}",
                "height": f"{total:.0f}",
                "font-family": FONT_FAMILY,
                "class": "mingshu-ziwei-chart",
                # With star links the board is a group of links, not an image.
                "role": "img" if self.star_href is None else "group",
                "aria-label": self.labels["title"],
            },
        )
        ET.SubElement(root, "title").text = self.labels["title"]
        ET.SubElement(
            root, "rect", {"x": "0", "y": "0", "width": f"{width:g}", "height": f"{total:.0f}"}
        ).set("fill", "#fffdf7")
        return root

    def _write_lines(self, out: list[str], lines: Sequence[_Written], baseline: float) -> None:
        """Written lines one under the other, the first's top at ``baseline``."""
        links, figures = self.links, _FIGURES
        for advance, parts, linked in lines:
            baseline += advance
            text = (figures.get(baseline) or _figure(baseline)).join(parts)
            out.append(text % links if linked else text)
            baseline += 2

    def _draw_palace(
        self,
        root: ET.Element,
        palace: Palace,
        head: list[_Written],
        foot: list[_Written],
        x: float,
        y: float,
        w: float,
        h: float,
    ) -> None:
        out = [_group_tag(palace.branch.key, palace.stem.key, palace.name.key), _frame(x, y, w, h)]
        self._write_lines(out, head, y + _PAD)
        bottom = y + h - _PAD
        out.append(_figure(bottom - 3).join(self.name_line(palace, x, w)))
        self._write_lines(out, foot, bottom - _NAME_H - _height(foot))
        out.append("</g>")
        ET.SubElement(root, _RAW).text = "".join(out)

    def _draw_centre(
        self, root: ET.Element, centre: list[_Written], x: float, y: float, w: float, h: float
    ) -> None:
        out = ['<g class="centre">', _frame(x, y, w, h)]
        self._write_lines(out, centre, y + (h - _height(centre)) / 2)
        out.append("</g>")
        ET.SubElement(root, _RAW).text = "".join(out)


@lru_cache(maxsize=8192)
def _name_line(tokens: tuple[_Token, ...], pillar: _Token, x: float, w: float) -> tuple[str, ...]:
    """A palace's name line, written but for its baseline: the name (and the body and 原局
    marks) from the left, the stem-branch ending at the right, on one baseline."""
    _, names, _ = _write_line(tokens, x + _PAD)
    _, stem_branch, _ = _write_line((pillar,), x + w - _PAD, "end")
    return (*names[:-1], names[-1] + stem_branch[0], *stem_branch[1:])


@lru_cache(maxsize=2048)
def _group_tag(branch: str, stem: str, palace: str) -> str:
    """A palace's ``<g>`` start tag, with the keys a click is hooked on."""
    attrs = {"class": "palace", "data-branch": branch, "data-stem": stem, "data-palace": palace}
    return f"<g{_attributes(attrs)}>"


@lru_cache(maxsize=4096)
def _frame(x: float, y: float, w: float, h: float) -> str:
    """The border of a palace or of the centre (numbers and constants: nothing to escape)."""
    return (
        f'<rect x="{x:g}" y="{y:.1f}" width="{w:g}" height="{h:.1f}" fill="none" '
        f'stroke="{_BORDER}" />'
    )


def _height(lines: Sequence[_Written]) -> float:
    """The height of written lines (each its largest font + 4; the fonts are whole units,
    so the sums are exact in any order)."""
    return sum([line[0] + 2 for line in lines])


def _cell_height(head: Sequence[_Written], foot: Sequence[_Written]) -> float:
    return _PAD + _height(head) + 6 + _height(foot) + _NAME_H + _PAD


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


def _serialize(root: ET.Element) -> str:
    """``ET.tostring(root, encoding="unicode")`` for the plain trees drawn here (no
    namespaced tags, comments or processing instructions), escaping the same way, in a
    third of the time: serializing was a third of drawing a board.  A node tagged
    :data:`_RAW` is copied as written (it has no tail).  A test compares the two on many
    charts, with those nodes read back as elements."""
    out: list[str] = []
    write = out.append

    def element(e: ET.Element) -> None:
        if e.tag == _RAW:
            write(e.text or "")
            return
        write("<" + e.tag)
        write(_attributes(e.attrib))
        if e.text or len(e):
            write(">")
            if e.text:
                write(_escape_text(e.text))
            for child in e:
                element(child)
            write(f"</{e.tag}>")
        else:
            write(" />")
        if e.tail:
            write(_escape_text(e.tail))

    element(root)
    return "".join(out)


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
    _check_charts(chart, horoscope)
    if names not in NAME_STYLES:
        raise InputError("names", f"{clip(names)} is not one of {', '.join(NAME_STYLES)}")
    if layout not in LAYOUTS:
        raise InputError("layout", f"{clip(layout)} is not one of {', '.join(LAYOUTS)}")
    return _Board(chart, horoscope, names).svg(layout)


def chart_svgs(
    chart: NatalChart,
    horoscope: Horoscope | None = None,
    names: str = "hans",
    layouts: Sequence[str] = LAYOUTS,
    *,
    star_href: Callable[[str], str] | None = None,
) -> tuple[str, ...]:
    """:func:`chart_svg` in each of ``layouts``, the same documents, drawn from one set of
    tokens (a page that carries both layouts measures each name once); with ``star_href``,
    each star's name links to ``star_href(star_key)``."""
    _check_charts(chart, horoscope)
    if names not in NAME_STYLES:
        raise InputError("names", f"{clip(names)} is not one of {', '.join(NAME_STYLES)}")
    for layout in layouts:
        if layout not in LAYOUTS:
            raise InputError("layout", f"{clip(layout)} is not one of {', '.join(LAYOUTS)}")
    board = _Board(chart, horoscope, names, star_href)
    return tuple(board.svg(layout) for layout in layouts)
