"""The Zi Wei chart as a 4×4 grid of text for a terminal (Rich), at any width.

The twelve palaces around the border (巳 午 未 申 on top, 寅 丑 子 亥 at the bottom), the
birth data in the middle; below 61 columns the palaces are listed one under another.
``Console().print(ChartGrid(chart, horoscope, names="hans"))`` prints it;
``lang="ja-JP"`` (any language of :mod:`mingshu.ziwei.locale`) names the stars, palaces,
grades, 四化, stems, branches and gods in that language instead, with the labels of the
closest name style: 繁體 for Japanese, English for Korean and Vietnamese.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, Final

from mingshu.cycles import Names
from mingshu.present.labels import BOARD
from mingshu.present.labels import LABELS as _LABELS
from mingshu.present.names import display as _name
from mingshu.ziwei.horoscope import Layer
from mingshu.ziwei.locale import language
from mingshu.ziwei.locale import name as _locale_name

if TYPE_CHECKING:
    from rich.console import Console, ConsoleOptions, RenderResult
    from rich.text import Text

    from mingshu.cycles import Pillar
    from mingshu.ziwei import NatalChart, Palace, PlacedStar
    from mingshu.ziwei.horoscope import Horoscope

__all__ = ["ChartGrid"]

# The settings fields shown (when not the default) as the options that set them.

# ------------------------------------------------------------------------------- labels

# Styles: major stars stand out, minor stars by kind, adjective stars and gods recede.
_MAJOR: Final = "bold magenta"
_KIND_STYLES: Final = {
    "soft": "cyan",
    "helper": "cyan",
    "tough": "red",
    "lucun": "green",
    "tianma": "yellow",
}
_ADJECTIVE: Final = "dim"
_STRONG_GRADE: Final = "yellow"
_WEAK_GRADE: Final = "dim"
_MUTAGEN_STYLES: Final = (
    "bold white on green",
    "bold white on magenta",
    "bold white on blue",
    "bold white on red",
)
_LAYER_COLORS: Final = {
    "decadal": "cyan",
    "age": "white",
    "yearly": "green",
    "monthly": "blue",
    "daily": "yellow",
    "hourly": "magenta",
}
_BORDER: Final = "bright_black"
_LIFE: Final = "bold red"
_MARKER: Final = "bold black on yellow"
_DECADE: Final = "yellow"
_CURRENT: Final = "bold reverse"

_CELL_MIN: Final = 14
_CELL_MAX: Final = 40
_SHOW_AGES: Final = 5

_POSITIONS: Final = BOARD


# The name style whose labels and layout (CJK or Latin) a language's grid takes; the four
# languages that are our own name forms are those styles exactly.
_LANG_STYLES: Final = {
    "zh-CN": "hans",
    "zh-TW": "hant",
    "en-US": "english",
    "pinyin": "pinyin",
    "ja-JP": "hant",
    "ko-KR": "english",
    "vi-VN": "english",
}
_OWN_FORMS: Final = ("zh-CN", "zh-TW", "en-US", "pinyin")


def _latin(mode: str) -> bool:
    return mode in ("pinyin", "english")


# ----------------------------------------------------------------------------- the grid


class ChartGrid:
    """The 4×4 board of a chart (and a horoscope), as a Rich renderable that fits the width
    it is given: every line of it has the same display width."""

    def __init__(
        self,
        chart: NatalChart,
        horoscope: Horoscope | None = None,
        names: str = "hans",
        lang: str | None = None,
    ):
        if names not in _LABELS:
            raise ValueError(f"names must be one of {', '.join(_LABELS)}")
        self.lang: str | None = None
        if lang is not None:
            code = language(lang)  # InputError("lang", …) on an unknown language
            names = _LANG_STYLES[code]
            # Our own four forms are the name styles themselves; only iztro's other three
            # languages need the locale tables.
            self.lang = None if code in _OWN_FORMS else code
        self.chart = chart
        self.horoscope = horoscope
        self.mode = names
        self.labels = _LABELS[names]

    def _n(self, thing: Any) -> str:
        """The name of a star, palace name, grade, 四化, stem, branch, god, hour or sign."""
        if self.lang is not None and not isinstance(thing, Layer):
            return _locale_name(thing, self.lang)
        return _name(thing if isinstance(thing, Names) else thing.names, self.mode)

    def _pillar(self, pillar: Pillar) -> str:
        if self.lang is not None:
            stem, branch = self._n(pillar.stem), self._n(pillar.branch)
            # Vietnamese stems and branches are words (Giáp Tý); Japanese, Korean one glyph.
            return f"{stem} {branch}" if len(stem) > 1 else stem + branch
        if _latin(self.mode):
            return pillar.stem.names.pinyin + pillar.branch.names.pinyin
        return self._n(pillar.stem) + self._n(pillar.branch)

    def _badge(self, mutagen: Any) -> Text:
        return _span(f"[{self._n(mutagen)}]", _MUTAGEN_STYLES[int(mutagen)])

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        from rich.segment import Segment

        for line in self.lines(options.max_width):
            yield from line.render(console, end="")
            yield Segment.line()

    # -- layout

    def lines(self, width: int) -> list[Text]:
        """The board as lines of equal display width, at most ``width``.  Below 61
        columns (less than 14 per palace) the palaces are listed one under another."""
        from rich.text import Text

        if width < 4 * _CELL_MIN + 5:
            return self._column(max(width, _CELL_MIN))
        cw = min(_CELL_MAX, (width - 5) // 4)  # 4 cells and 5 borders
        inner, centre_inner = cw - 2, 2 * cw - 1  # one space of padding on each side
        cells = {_POSITIONS[p.branch]: self._palace(p, inner) for p in self.chart.palaces}

        # Cells of a row are equally tall; the centre spans rows 1 and 2 and the rule
        # between them, and gets a blank line above and below.
        heights = [
            max(len(head) + len(foot) for (r, _), (head, foot) in cells.items() if r == row)
            for row in range(4)
        ]
        centre = self._centre(centre_inner)
        missing = len(centre) + 2 - (heights[1] + heights[2] + 1)
        if missing > 0:
            heights[1] += missing // 2
            heights[2] += missing - missing // 2
        span = heights[1] + heights[2] + 1
        above = (span - len(centre)) // 2
        centre = [Text()] * above + centre + [Text()] * (span - above - len(centre))

        def column(row: int, col: int) -> list[Text]:
            head, foot = cells[row, col]
            return [*head, *[Text()] * (heights[row] - len(head) - len(foot)), *foot]

        def padded(text: Text, size: int) -> Text:
            line = Text(" ")
            line.append_text(_fit(text, size))
            line.append(" " * (size - line.cell_len + 2))
            return line

        def joined(parts: Sequence[tuple[Text, int]]) -> Text:
            line = _span("│", _BORDER)
            for text, size in parts:
                line.append_text(padded(text, size))
                line.append("│", style=_BORDER)
            return line

        bar = "─" * cw

        def rule(left: str, joints: str, right: str) -> Text:
            return _span(left + bar + bar.join(joints) + bar + right, _BORDER)

        out = [rule("┌", "┬┬┬", "┐")]
        for row in range(4):
            if row in (0, 3):
                cols = [column(row, c) for c in range(4)]
                out += [joined([(col[i], inner) for col in cols]) for i in range(heights[row])]
            else:
                left, right = column(row, 0), column(row, 3)
                offset = 0 if row == 1 else heights[1] + 1
                out += [
                    joined(
                        [(left[i], inner), (centre[offset + i], centre_inner), (right[i], inner)]
                    )
                    for i in range(heights[row])
                ]
            if row == 0:
                out.append(rule("├", "┼┴┼", "┤"))
            elif row == 1:
                middle = _span(f"├{bar}┤", _BORDER)
                middle.append_text(padded(centre[heights[1]], centre_inner))
                middle.append(f"├{bar}┤", style=_BORDER)
                out.append(middle)
            elif row == 2:
                out.append(rule("├", "┼┬┼", "┤"))
        patterns = self._patterns(4 * cw + 1)
        if patterns:
            out.append(rule("├", "┴┴┴", "┤"))
            out += [joined([(text, 4 * cw + 1)]) for text in patterns]
            out.append(_span(f"└{'─' * (4 * cw + 3)}┘", _BORDER))
        else:
            out.append(rule("└", "┴┴┴", "┘"))
        return out

    def _column(self, width: int) -> list[Text]:
        """The centre, then the palaces from the Life palace on (命宫 兄弟 夫妻 …), each
        in a box as wide as ``width``."""
        inner = width - 4
        sections = [self._centre(inner)]
        life = self.chart.life_branch
        by_branch = {p.branch: p for p in self.chart.palaces}
        for step in range(12):
            head, foot = self._palace(by_branch[life.next(-step)], inner)
            sections.append(head + foot)
        patterns = self._patterns(inner)
        if patterns:
            sections.append(patterns)
        bar = "─" * (width - 2)
        out = [_span(f"┌{bar}┐", _BORDER)]
        for i, section in enumerate(sections):
            if i:
                out.append(_span(f"├{bar}┤", _BORDER))
            for text in section:
                line = _span("│ ", _BORDER)
                line.append_text(_fit(text, inner))
                line.append(" " * (inner - line.cell_len + 2))
                line.append(" │", style=_BORDER)
                out.append(line)
        out.append(_span(f"└{bar}┘", _BORDER))
        return out

    # -- patterns

    def _patterns(self, width: int) -> list[Text]:
        """The section of patterns (格局) under the board: each pattern formed, its group,
        the palaces forming it, its verse with its line, and the rules that break it."""
        from rich.text import Text

        from mingshu.ziwei.patterns import GROUPS

        hits = self.chart.patterns()
        h = self.horoscope
        limits = () if h is None else h.patterns()
        if not hits and not limits:
            return []
        out = [_span(self.labels["patterns"], "bold")] if hits else []
        for hit in hits:
            head = [
                _span(self._n(hit.pattern.names), "bold cyan"),
                Text(f"[{self._n(GROUPS[hit.pattern.group])}]"),
                Text(" ".join(self._n(b) for b in hit.palaces)),
            ]
            if hit.broken:
                broken = ", ".join(self._n(r.names) for r in hit.broken)
                head.append(_span(f"{self.labels['broken']}: {broken}", "red"))
            out += _wrap(head, width, " ", indent=2)
            verse = Text(f"  「{hit.pattern.verse}」 {hit.pattern.verse_at}", style="dim")
            out += _wrap([verse], width, " ", indent=4)
        if h is not None and limits:
            # The limits patterns of the horoscope (定杂局): which limits form each one.
            layer_names = {layer.scope: layer.names for layer in h.layers}
            out.append(_span(self.labels["limit_patterns"], "bold"))
            for limit_hit in limits:
                scopes = " ".join(self._n(layer_names[s]) for s in limit_hit.scopes)
                head = [
                    _span(self._n(limit_hit.pattern.names), "bold cyan"),
                    Text(f"[{scopes}]"),
                    Text(" ".join(self._n(b) for b in limit_hit.palaces)),
                ]
                out += _wrap(head, width, " ", indent=2)
                pattern = limit_hit.pattern
                verse = Text(f"  「{pattern.verse}」 {pattern.verse_at}", style="dim")
                out += _wrap([verse], width, " ", indent=4)
        return out

    # -- palaces

    def _palace(self, palace: Palace, width: int) -> tuple[list[Text], list[Text]]:
        """A palace cell: the star lines on top, the fixed lines at the bottom."""
        mode, labels, h = self.mode, self.labels, self.horoscope
        sep = "  " if _latin(mode) else " "
        head: list[Text] = []
        for group in (palace.major_stars, palace.minor_stars, palace.adjective_stars):
            head += _wrap([self._star(s) for s in group], width, sep)
        if h is not None:
            flowing = [
                _span(self._n(s.star), f"italic {_LAYER_COLORS[layer.scope.value]}")
                for layer in h.layers
                for s in layer.stars
                if s.branch == palace.branch
            ]
            head += _wrap(flowing, width, sep)

        foot: list[Text] = []
        if h is not None:
            marks = [
                _span(self._n(layer), f"bold black on {_LAYER_COLORS[layer.scope.value]}")
                for layer in h.layers
                if layer.branch == palace.branch
            ]
            foot += _wrap(marks, width, " ")
        gods = (palace.chang_sheng, palace.bo_shi, palace.jiang_qian, palace.sui_qian)
        foot += _wrap([_span(self._n(g), "dim") for g in gods], width, sep)
        foot += self._ages(palace, width)

        name = _span(self._n(palace.name), _LIFE if palace.name.key == "life" else "bold")
        marks = [name]
        if palace.is_body:
            marks.append(_span(labels["body"], _MARKER))
        if palace.is_original:
            marks.append(_span(labels["original"], _MARKER))
        pillar = _span(self._pillar(palace.pillar), "bold")
        bottom = _wrap(marks, width, " ")
        last = bottom[-1]
        if last.cell_len + 1 + pillar.cell_len <= width:
            last.append(" " * (width - last.cell_len - pillar.cell_len))
            last.append_text(pillar)
        else:
            pillar.align("right", width)
            bottom.append(pillar)
        foot += bottom
        return head, foot

    def _star(self, placed: PlacedStar) -> Text:
        from mingshu.ziwei.stars import Brightness

        mode = self.mode
        star = placed.star
        group = star.group.value
        if group == "major":
            style = _MAJOR
        elif group == "minor":
            style = _KIND_STYLES.get(star.kind.value, "")
        else:
            style = _ADJECTIVE
        text = _span(self._n(star), style)
        if placed.brightness is not None:
            grade = self._n(placed.brightness)
            text.append(
                f"({grade})" if _latin(mode) else grade,
                style=_STRONG_GRADE if placed.brightness <= Brightness.LI else _WEAK_GRADE,
            )
        if placed.mutagen is not None:
            text.append_text(self._badge(placed.mutagen))
        return text

    def _ages(self, palace: Palace, width: int) -> list[Text]:
        """The decade's age range, then a few small-limit ages: the first ones, or with a
        horoscope the ones around its age."""
        h = self.horoscope
        current = h.nominal_age if h is not None else None
        line = _span(f"{palace.decadal.start}-{palace.decadal.end}", _DECADE)
        if current is not None and palace.decadal.start <= current <= palace.decadal.end:
            line.stylize(_CURRENT)
        ages = palace.ages
        first = 0
        if current is not None:
            later = [i for i, age in enumerate(ages) if age >= current]
            first = max(0, (later[0] if later else len(ages)) - 1)
        line.append("  ")
        if first:
            line.append("…", style="dim")
        for i in range(first, min(len(ages), first + _SHOW_AGES)):
            word = str(ages[i])
            room = width - line.cell_len - (i > first) - len(word)
            if room < (1 if i + 1 < len(ages) else 0):
                break
            if i > first:
                line.append(" ")
            line.append(word, style=_CURRENT if ages[i] == current else "dim")
        else:
            i = min(len(ages), first + _SHOW_AGES)
        if i < len(ages):
            line.append("…", style="dim")
        return [_fit(line, width)]

    # -- the centre

    def _centre(self, width: int) -> list[Text]:
        from rich.text import Text

        chart, mode, labels = self.chart, self.mode, self.labels
        birth = chart.birth
        lines: list[Text] = []
        title = _span(labels["title"], "bold")
        title.align("center", width)
        lines += [title, Text()]

        def value(text: str, style: str = "bold") -> Text:
            return _span(text, style)

        hour = self._n(chart.hour)
        solar = birth.solar_date.isoformat()
        if birth.clock_time is not None:
            clock = birth.clock_time
            solar += " " + clock.strftime("%H:%M:%S" if clock.second else "%H:%M")
        lunar_date = chart.lunar_date
        if _latin(mode):
            lunar = f"{lunar_date.year}-{lunar_date.month}-{lunar_date.day}"
            if lunar_date.is_leap:
                lunar += f" ({labels['leap']})"
        else:
            lunar = lunar_date.chinese()
        polarity = labels[chart.year.stem.polarity.name.lower()]  # "yang" or "yin"
        gender = labels[birth.gender.value]
        rows: list[list[tuple[str, Text]]] = [
            [("solar", value(f"{solar} {hour}"))],
            [("lunar", value(f"{lunar} {hour}"))],
            [("pillars", value(" ".join(self._pillar(p) for p in chart.pillars)))],
            [
                ("gender", value(f"{polarity} {gender}" if _latin(mode) else polarity + gender)),
                ("class", value(self._n(chart.five_elements_class))),
            ],
            [
                ("life_master", value(self._n(chart.life_master), _MAJOR)),
                ("body_master", value(self._n(chart.body_master), _MAJOR)),
            ],
            [
                ("zodiac", value(self._n(chart.zodiac))),
                ("sign", value(self._n(chart.sign))),
            ],
        ]
        lines += _table(rows, labels, width)
        changed = self._changed_settings()
        if changed:
            lines += _wrap(
                [
                    _span(labels["settings"], "dim"),
                    *(_span(s, "yellow") for s in changed),
                ],
                width,
                " ",
                indent=2,
            )
        if self.horoscope is not None:
            lines.append(Text())
            lines += self._layers(self.horoscope, width)
        return lines

    def _changed_settings(self) -> list[str]:
        """The settings that differ from the defaults, as the options that set them."""
        from dataclasses import fields

        from mingshu.ziwei import ZiweiSettings
        from mingshu.ziwei.stars import star

        settings, default, mode = self.chart.settings, ZiweiSettings(), self.mode
        out = []
        for f in fields(settings):  # every setting is an option of the same name
            value = getattr(settings, f.name)
            if f.name in ("mutagens", "brightness") or value == getattr(default, f.name):
                continue
            option = f"--{f.name.replace('_', '-')}"
            if isinstance(value, bool):  # a flag: --true-solar-time, --no-equation-of-time
                out.append(option if value else f"--no-{option[2:]}")
            else:
                out.append(f"{option} {value.value}")
        # As the options would be typed: characters, or keys for the Latin name styles.
        latin = _latin(mode)
        for stem, keys in settings.mutagens:
            stars = ",".join(k if latin else _name(star(k).names, mode) for k in keys)
            out.append(f"--mutagen {stem.key if latin else _name(stem.names, mode)}={stars}")
        for key, row in settings.brightness:
            grades = ",".join(_grade(g, mode) for g in row)
            out.append(f"--brightness {key if latin else _name(star(key).names, mode)}={grades}")
        return out

    def _layers(self, h: Horoscope, width: int) -> list[Text]:
        """The horoscope's moment, then each layer: its pillar and the stars its stem
        transforms."""
        from rich.text import Text

        from mingshu.ziwei.tables import HOURS

        mode, labels = self.mode, self.labels
        hour = self._n(HOURS[h.time_index])
        lunar = h.lunar_date
        lunar_text = f"{lunar.year}-{lunar.month}-{lunar.day}" if _latin(mode) else lunar.chinese()
        head = [
            _span(labels["horoscope"], "bold"),
            _span(f"{h.date.isoformat()} {hour}", "bold"),
            Text(lunar_text),
            Text(f"{labels['age']} {h.nominal_age}"),
        ]
        lines = _wrap(head, width, "  ", indent=2)
        for layer in h.layers:
            lines += _wrap(self._layer_tokens(layer), width, " ", indent=2)
        return lines

    def _layer_tokens(self, layer: Layer) -> list[Text]:
        from mingshu.ziwei.stars import Mutagen

        color = _LAYER_COLORS[layer.scope.value]
        tokens = [
            _span(self._n(layer), f"bold black on {color}"),
            _span(self._pillar(layer.pillar), f"bold {color}"),
        ]
        for mutagen, star in zip(Mutagen, layer.mutagens, strict=True):
            text = self._badge(mutagen)
            text.append(self._n(star))
            tokens.append(text)
        return tokens


def _table(
    rows: Sequence[Sequence[tuple[str, Text]]], labels: dict[str, str], width: int
) -> list[Text]:
    """Rows of one or two (label, value) items, laid out in aligned columns; when the
    widest row does not fit, every item gets a row of its own."""
    from rich.cells import cell_len

    def widest(items: Sequence[tuple[str, Text]]) -> tuple[int, int]:
        return (
            max((cell_len(labels[key]) for key, _ in items), default=0),
            max((value.cell_len for _, value in items), default=0),
        )

    label, _ = widest([row[0] for row in rows])
    pairs = [row for row in rows if len(row) == 2]
    first = widest([row[0] for row in pairs])[1]
    second_label, second = widest([row[1] for row in pairs])
    if label + first + second_label + second + 5 > width:
        rows = [[item] for row in rows for item in row]
        label, _ = widest([row[0] for row in rows])
    out: list[Text] = []
    for row in rows:
        tokens = []
        for i, (key, value) in enumerate(row):
            token = _span(labels[key], "dim")
            token.append(" " * ((label if i == 0 else second_label) - cell_len(labels[key]) + 1))
            token.append_text(value)
            if i == 0 and len(row) == 2:
                token.append(" " * (label + 1 + first - token.cell_len))
            tokens.append(token)
        out += _wrap(tokens, width, "   ", indent=label + 1)
    return out


def _span(text: str, style: str) -> Text:
    """``text`` in ``style``, as a span: text appended later does not take the style."""
    from rich.text import Text

    out = Text()
    out.append(text, style=style)
    return out


def _grade(key: str, mode: str) -> str:
    from mingshu.ziwei.stars import Brightness

    grade = Brightness.parse(key) if key else None
    if grade is None:
        return "-"
    return grade.key if _latin(mode) else _name(grade.names, mode)


def _fit(text: Text, width: int) -> Text:
    text = text.copy()
    text.truncate(width, overflow="ellipsis")
    return text


def _pieces(token: Text, width: int) -> Iterator[Text]:
    """A token cut into lines of at most ``width`` columns: at a space or before a "(" or
    "[" if it can, else anywhere (CJK text has no spaces)."""
    from rich.cells import cell_len

    if token.cell_len <= width:
        yield token
        return
    plain = token.plain
    start = 0
    while start < len(plain):
        end, used, cut = start, 0, -1
        while end < len(plain) and used + cell_len(plain[end]) <= width:
            if end > start and plain[end] in " ([":
                cut = end
            used += cell_len(plain[end])
            end += 1
        if end < len(plain) and plain[end] in " ([":
            cut = end
        if end < len(plain) and cut > start:
            end = cut
        piece = token[start:end]
        piece.rstrip()
        yield piece
        start = end
        while start < len(plain) and plain[start] == " ":
            start += 1


def _wrap(tokens: Sequence[Text], width: int, sep: str, indent: int = 0) -> list[Text]:
    """Lay tokens out in lines of at most ``width`` columns, ``sep`` between tokens on a
    line.  A token that does not fit on the current line starts the next; only a token
    wider than a whole line is cut.  Lines after the first start with ``indent`` spaces."""
    from rich.cells import cell_len
    from rich.text import Text

    lines: list[Text] = []
    line: Text | None = None
    for token in tokens:
        if line is not None and line.cell_len + cell_len(sep) + token.cell_len <= width:
            line.append(sep)
            line.append_text(token)
            continue
        if line is not None:
            lines.append(line)
            line = None
        # Only the very first line has no indent.
        for piece in _pieces(token, max(width - (indent if lines else 0), 1)):
            if line is not None:
                lines.append(line)
            line = Text(" " * indent if lines else "")
            line.append_text(piece)
    if line is not None:
        lines.append(line)
    return lines
