"""The kinds of the major-star articles (class_day, major_layout, class_day_branch,
class_days_of, zi_wei_for) against the Quan Shu's juan 2, read here by hand: the first days
of the five day tables and the worked example of 安身命例 (line 5), the 安天府图 mirror
(lines 317–319) and the 安南北斗诸星诀 offsets (lines 18–19); bad parameters are
InputErrors; and a planted wrong cell or answer in each kind fails the check."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from animals import ANIMALS
from mingshu.errors import InputError
from mingshu.library import load
from mingshu.library import problems as P
from mingshu.library import tables as T
from mingshu.library.check import check
from mingshu.library.model import _ROOT

# The verses over the five tables (F L165–307): day → branch, per class.
BOOK_FIRST_DAYS = {
    2: {1: "Ox", 2: "Tiger"},  # 初一起丑初二寅
    3: {1: "Dragon", 2: "Ox"},  # 初一起龙初二牛
    4: {1: "Pig", 2: "Dragon"},  # 初一寻猪初二龙
    5: {1: "Horse", 2: "Pig"},  # 初一午上二亥宫
    6: {1: "Rooster", 2: "Horse", 4: "Dragon"},  # L5 酉宫起初一日; 初二骑马初四龙
}


def test_class_day_gives_the_books_first_days() -> None:
    table = T.table("class_day", {"star": "zi_wei", "days": [1, 4]})
    assert table.columns == ("Day", "Water 2", "Wood 3", "Metal 4", "Earth 5", "Fire 6")
    for column, klass in enumerate(range(2, 7), start=1):
        for day, animal in BOOK_FIRST_DAYS[klass].items():
            assert table.rows[day - 1][column] == animal, (klass, day)


def test_class_day_marks_a_branch_and_named_cells() -> None:
    by_branch = T.table("class_day", {"days": [1, 2], "branch": "ox"})
    # Ox: Water 2 day 1 and Wood 3 day 2 (the verses above).
    assert by_branch.marked == {(0, 1), (1, 2)}
    by_cells = T.table("class_day", {"days": [1, 2], "cells": [[6, 2]]})
    assert by_cells.marked == {(1, 5)}


def test_tian_fu_mirrors_zi_wei_as_the_book_draws_it() -> None:
    """安天府图: 紫 and 府 share 寅 and 申; 「如紫居丑则府居卯」."""
    layout = T.table("major_layout", {"stars": ["zi_wei", "tian_fu"]})
    rows = {row[0]: row[1:] for row in layout.rows}
    assert rows["Tiger"] == ("Tiger", "Tiger")
    assert rows["Monkey"] == ("Monkey", "Monkey")
    assert rows["Ox"] == ("Ox", "Rabbit")


def test_the_zi_wei_series_keeps_the_verses_offsets() -> None:
    """「紫微天机逆行旁，隔一阳武天同当，又隔二位廉贞地」: 天机 one back, 太阳 three,
    武曲 four, 天同 five, 廉贞 eight."""
    stars = ["tian_ji", "tai_yang", "wu_qu", "tian_tong", "lian_zhen"]
    layout = T.table("major_layout", {"stars": stars})
    for z, row in enumerate(layout.rows):
        assert row == (ANIMALS[z], *(ANIMALS[(z - k) % 12] for k in (1, 3, 4, 5, 8)))


def test_the_problems_name_every_answer() -> None:
    answer = P.problem_answer({"ask": "class_day_branch", "star": "zi_wei", "class": 6, "day": 1})
    assert answer == "Rooster"
    # Wood 3 puts day 2 on the Ox; day 1 is the Dragon, so a late Rat birth on day 1 counts 2.
    days = P.solve({"ask": "class_days_of", "star": "zi_wei", "class": 3, "branch": "ox"})
    assert "2" in days.solutions and "the late Rat hour of 1" in days.solutions
    # Tian Fu on the Tiger only with Zi Wei on the Tiger (the table's shared palace).
    shared = P.problem_answer({"ask": "zi_wei_for", "star": "tian_fu", "branch": "tiger"})
    assert shared == "Tiger"


@pytest.mark.parametrize(
    ("kind", "options"),
    [
        ("class_day", {"star": "wen_chang"}),
        ("class_day", {"classes": [1, 3]}),
        ("major_layout", {"stars": ["en_guang"]}),
    ],
)
def test_bad_table_parameters_are_input_errors(kind: str, options: dict[str, object]) -> None:
    with pytest.raises(InputError):
        T.table(kind, options)


@pytest.mark.parametrize(
    "query",
    [
        {"ask": "class_day_branch", "star": "zi_wei", "class": 7, "day": 1},
        {"ask": "class_day_branch", "star": "zi_wei", "class": 2, "day": 31},
        {"ask": "class_days_of", "star": "lu_cun", "class": 2, "branch": "rat"},
        {"ask": "zi_wei_for", "star": "lu_cun", "branch": "rat"},
    ],
)
def test_bad_problem_parameters_are_input_errors(query: dict[str, object]) -> None:
    with pytest.raises(InputError):
        P.problem_answer(query)


@pytest.fixture()
def copy(tmp_path: Path) -> Path:
    folder = tmp_path / "articles"
    shutil.copytree(_ROOT, folder)
    return folder


@pytest.mark.parametrize(
    ("article", "old", "new", "message"),
    [
        (
            "ZW-MAJ-01",
            '["5", "Rabbit", "Tiger", "Rat", "Tiger", "Ox"]',
            '["5", "Rabbit", "Tiger", "Rat", "Tiger", "Pig"]',
            "table differs from the engine: row 5 column 6",
        ),
        (
            "ZW-MAJ-03",
            '["Ox", "Rabbit"]',
            '["Ox", "Ox"]',
            "table differs from the engine: row 2 column 2",
        ),
        (
            "ZW-MAJ-01",
            'answer: "5, or the late Rat hour of 4"',
            'answer: "5"',
            "prints '5', the engine says '5, or the late Rat hour of 4' (it names 1 of the"
            " engine's 2 answers)",
        ),
        (
            "ZW-MAJ-02",
            'answer: "Dog"\n    engine: {ask: zi_wei_for',
            'answer: "Rat"\n    engine: {ask: zi_wei_for',
            "prints 'Rat', the engine says 'Dog'",
        ),
    ],
)
def test_planted_errors_in_the_major_kinds_fail(
    copy: Path, space: Path, sources: Path, article: str, old: str, new: str, message: str
) -> None:
    path = copy / f"{article}.md"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    errors = check(load(copy), space=space, sources=sources, only=[article]).errors
    assert any(message in e for e in errors), errors
