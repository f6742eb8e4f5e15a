"""The frame kinds (mingshu.library.frame): the 四化 look-ups agree with the Quan Shu's own
worked row, and bad parameters are one InputError.

The expected row is the book's line 44 of juan 2 (如甲生人廉贞化禄、破军化权、武曲化科、太阳化忌),
read from the transcription, not from the data file the engine uses."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mingshu import ziwei
from mingshu.errors import InputError
from mingshu.library import frame
from mingshu.library.problems import solve

ROOT = Path(__file__).resolve().parents[2]
NAME = "ziwei-quanshu.juan2.newdu-full.txt"


def _book_jia_row() -> tuple[str, ...]:
    full = ROOT.parent / "shared" / "sources" / NAME
    path = full if full.exists() else ROOT / "sources" / f"{NAME}.excerpt"
    text = path.read_text(encoding="utf-8")
    line = next(x for x in text.splitlines() if "如甲生人廉贞化禄" in x)
    names = re.findall(r"([\u4e00-\u9fff]{2})化[禄权科忌]", line.split("如甲生人", 1)[1])
    return tuple(ziwei.star(n).key for n in names)


def test_the_jia_row_is_the_books_worked_example() -> None:
    assert frame.stem_mutagens(0) == _book_jia_row()


def test_no_mutagen_counts_a_transformed_star() -> None:
    assert frame.no_mutagen(["tian_fu", "tian_xiang", "qi_sha"]) == (0, 10)
    assert frame.no_mutagen(["tai_yin"])[0] == 5  # five stems transform Tai Yin


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"ask": "mutagen_star", "year_stem": "甲", "mutagen": "fortune"}, "mutagen"),
        ({"ask": "mutagen_star", "year_stem": "X", "mutagen": "lu"}, "stem"),
        ({"ask": "mutagen_stems", "star": "no_star", "mutagen": "lu"}, "star"),
    ],
)
def test_bad_parameters_are_one_input_error(query: dict[str, str], field: str) -> None:
    with pytest.raises(InputError) as e:
        solve(query)
    assert e.value.field == field


STEMS = "甲乙丙丁戊己庚辛壬癸"
BRANCHES = "子丑寅卯辰巳午未申酉戌亥"
CLASS = {"水": 2, "木": 3, "金": 4, "土": 5, "火": 6}


def _book_classes() -> dict[tuple[int, int], int]:
    """(year stem, Life branch) → class, from the Tiger stems (起五行寅例) and the nayin song
    of juan 2 as transcribed."""
    full = ROOT.parent / "shared" / "sources" / NAME
    path = full if full.exists() else ROOT / "sources" / f"{NAME}.excerpt"
    text = path.read_text(encoding="utf-8").replace(" ", "")
    # Two misprints of the transcription's song: 甲戊 for 甲戌 and 已亥 for 己亥.
    text = text.replace("甲戊乙亥", "甲戌乙亥").replace("戊戌已亥", "戊戌己亥")
    tiger = dict(re.findall(r"(.).之岁起(.)寅", text))  # 甲 → 丙 (甲己之岁起丙寅)
    nayin = {}
    for a, b, element in re.findall(r"(..)(..)..(.)[，。]", text[text.index("甲子乙丑") :]):
        if element in CLASS:
            nayin[a] = nayin[b] = CLASS[element]
        if len(nayin) == 60:
            break
    out = {}
    for y, stem in enumerate(STEMS):
        first = next(
            STEMS.index(t)
            for s, t in tiger.items()
            if stem in (s, STEMS[(STEMS.index(s) + 5) % 10])
        )
        for life in range(12):
            palace_stem = STEMS[(first + (life - 2) % 12) % 10]
            out[(y, life)] = nayin[palace_stem + BRANCHES[life]]
    return out


def test_the_class_is_the_nayin_of_the_life_palace_pillar() -> None:
    book = _book_classes()
    assert len(book) == 120
    for (stem, life), number in book.items():
        assert int(frame.class_of(stem, life)) == number, (STEMS[stem], BRANCHES[life])


def test_the_life_master_table_is_the_books_line() -> None:
    full = ROOT.parent / "shared" / "sources" / NAME
    path = full if full.exists() else ROOT / "sources" / f"{NAME}.excerpt"
    text = path.read_text(encoding="utf-8")
    line = next(x for x in text.splitlines() if x.strip().startswith("贪狼子宫"))
    table = [""] * 12
    for name, branches in re.findall(r"(..)([子丑寅卯辰巳午未申酉戌亥]+)宫", line):
        key = ziwei.star(name.replace("廉真", "廉贞")).key  # the transcription's 真 for 贞
        for b in branches:
            table[BRANCHES.index(b)] = key
    assert all(table)
    assert frame.master_by("life", "life", table) == (0, 1440)
    shifted = table[1:] + table[:1]
    assert frame.master_by("life", "life", shifted)[0] > 0
