"""The Zi Wei text grid (mingshu.present.ziwei_text.ChartGrid) rendered by Rich: every line
as wide as the others and no wider than asked, borders where the layout puts them, the
palaces listed in a narrow terminal, and the styles of a colour terminal."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from rich.cells import cell_len
from rich.console import Console

from mingshu.present.ziwei_text import ChartGrid
from mingshu.ziwei import NatalChart, ZiweiSettings, by_solar


@pytest.fixture(scope="module")
def chart() -> NatalChart:
    return by_solar("2000-08-16", 2, "female")  # docs/iztro-rules.md §10.1


# ------------------------------------------------------------------------------ widths


def render(chart: NatalChart, width: int, horoscope: Any = None, names: str = "hans") -> list[str]:
    console = Console(width=width, record=True, file=io.StringIO(), color_system="truecolor")
    console.print(ChartGrid(chart, horoscope, names))
    return console.export_text().rstrip("\n").split("\n")


def border_columns(line: str) -> list[int]:
    """Display columns of the vertical borders and joints of a line."""
    columns, at = [], 0
    for ch in line:
        if ch in "│├┤┼┬┴┌┐└┘":
            columns.append(at)
        at += cell_len(ch)
    return columns


CHARTS = [
    ("1987-05-16", "10:30", "female", "2026-11-29T10:00"),
    ("2000-08-16", 2, "female", "2001-02-01"),  # childhood limit
    ("1990-01-27", "23:30", "male", "2090-06-01"),
]


@pytest.mark.parametrize("width", [80, 120, 100, 61, 200])
@pytest.mark.parametrize("names", ["hans", "hant", "pinyin", "english"])
@pytest.mark.parametrize("with_at", [False, True])
def test_widths(width: int, names: str, with_at: bool) -> None:
    for date, time, gender, at in CHARTS:
        chart = by_solar(
            date,
            time,
            gender,
            ZiweiSettings(algorithm="zhongzhou", mutagens={"庚": ["太阳", "武曲", "天府", "天同"]}),
        )
        lines = render(chart, width, chart.horoscope(at) if with_at else None, names)
        widths = {cell_len(line) for line in lines}
        assert len(widths) == 1, widths
        total = widths.pop()
        assert total <= width
        cw = (total - 5) // 4
        assert total == 4 * cw + 5
        edges = [0, cw + 1, 2 * cw + 2, 3 * cw + 3, 4 * cw + 4]
        around_centre = [0, cw + 1, 3 * cw + 3, 4 * cw + 4]
        rules = [i for i, line in enumerate(lines) if "┼" in line or "┴" in line or line[0] in "┌└"]
        # The board's four rules; under a board with patterns, their section and its rule.
        assert len(rules) == (5 if chart.patterns() else 4)
        for i, line in enumerate(lines):
            # Between the second and third rules the centre spans the middle columns; the
            # patterns section below the board is one box as wide as the board.
            if i > rules[3]:
                expected = [0, 4 * cw + 4]
            else:
                expected = around_centre if rules[1] < i < rules[2] else edges
            assert border_columns(line) == expected, line


@pytest.mark.parametrize("width", [30, 40, 60])
def test_narrow_terminal_lists_the_palaces(chart: NatalChart, width: int) -> None:
    h = chart.horoscope("2026-03-01T10:00")
    lines = render(chart, width, h)
    assert {cell_len(line) for line in lines} == {width}
    assert all(border_columns(line) == [0, width - 1] for line in lines)
    text = "\n".join(lines)
    # The centre first, then the palaces from the Life palace on: 命宫 兄弟 夫妻 …
    assert text.index("农历") < text.index("命宫") < text.index("兄弟") < text.index("夫妻")
    names = [
        line.strip("│ ").split()[0]
        for line in lines
        if re.search(r"[甲乙丙丁戊己庚辛壬癸][子丑寅卯辰巳午未申酉戌亥] │$", line)
    ]
    assert names == [
        "命宫",
        "兄弟",
        "夫妻",
        "子女",
        "财帛",
        "疾厄",
        "迁移",
        "仆役",
        "官禄",
        "田宅",
        "福德",
        "父母",
    ]
    for palace in chart.palaces:
        for placed in palace.stars:
            assert str(placed) in text


def test_styles_in_a_terminal(chart: NatalChart) -> None:
    console = Console(width=120, record=True, file=io.StringIO(), color_system="truecolor")
    console.print(ChartGrid(chart, chart.horoscope("2026-03-01T10:00")))
    ansi = console.export_text(styles=True)
    assert "\x1b[1;35m紫微\x1b[0m\x1b[33m庙" in ansi  # major star bold magenta, strong grade
    assert "\x1b[1;35m天机\x1b[0m\x1b[2m平" in ansi  # a weak grade recedes
    assert "\x1b[1;37;42m[禄]" in ansi and "\x1b[1;37;41m[忌]" in ansi  # 四化 as badges
    assert "\x1b[2m天喜" in ansi  # adjective stars dim
    assert "\x1b[36m天钺" in ansi and "\x1b[31m陀罗" in ansi  # minor stars by kind
    assert "\x1b[3;36m运喜" in ansi  # flowing stars in their layer's colour
    assert "\x1b[1;30;42m流年" in ansi  # the layer's palace is marked
    assert "\x1b[1;31m命宫" in ansi and "\x1b[1;30;43m身宫" in ansi
    assert "\x1b[1;7m27" in ansi  # the current age


# --------------------------------------------------------------------------- languages


def render_lang(chart: NatalChart, lang: str, horoscope: Any = None, width: int = 200) -> str:
    console = Console(width=width, record=True, file=io.StringIO(), color_system=None)
    console.print(ChartGrid(chart, horoscope, lang=lang))
    return console.export_text()


@pytest.mark.parametrize(
    ("lang", "style"),
    [("zh-CN", "hans"), ("zh-TW", "hant"), ("en", "english"), ("pinyin", "pinyin")],
)
def test_our_own_languages_are_the_name_styles(chart: NatalChart, lang: str, style: str) -> None:
    h = chart.horoscope("2026-03-01T10:00")
    assert render_lang(chart, lang, h) == "\n".join(render(chart, 200, h, style)) + "\n"


@pytest.mark.parametrize("lang", ["ja-JP", "ko-KR", "vi-VN"])
def test_iztro_languages_name_every_star_palace_and_grade_as_iztro(
    chart: NatalChart, lang: str
) -> None:
    """The names are iztro 2.6.0's own (its locale tables, via ``iztro_name``); a name iztro
    lacks falls back to our 繁 form."""
    from mingshu.ziwei.locale import iztro_name

    text = render_lang(chart, lang)
    expected = set()
    for palace in chart.palaces:
        expected.add(iztro_name(palace.name, lang) or palace.name.names.hant)
        for placed in palace.stars:
            expected.add(iztro_name(placed.star, lang) or placed.star.names.hant)
            if placed.brightness is not None:
                expected.add(iztro_name(placed.brightness, lang) or "")
    expected.add(iztro_name(chart.five_elements_class, lang) or "")
    expected.discard("")
    missing = sorted(n for n in expected if n not in text)
    assert not missing
    assert len(expected) > 40
    assert "紫微斗數 命盤" in text if lang == "ja-JP" else "Zi Wei Dou Shu chart" in text


def test_an_unknown_language_is_refused_naming_lang(chart: NatalChart) -> None:
    from mingshu.errors import InputError

    with pytest.raises(InputError) as e:
        ChartGrid(chart, lang="fr")
    assert e.value.field == "lang"
