"""The kinds and engine checks of the brightness article (ZW-FRM-06: table brightness_grid;
problems grade_of, grade_branches; checks grades_as_tables, schools_grade_apart) against the
Quan Shu's juan 2 table read here by hand (F L383–433): its Rooster row (L422–424:
庙 巨昌曲禄, 旺 紫机府月杀, 得 梁火铃, 利 武贪, 平和 日同廉, 落陷 相破羊) under the quanshu school,
and 禄存 in the 庙 column of eight rows; bad parameters are InputErrors; planted errors fail."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from mingshu.errors import InputError
from mingshu.library import load
from mingshu.library import problems as P
from mingshu.library import tables as T
from mingshu.library.check import check
from mingshu.library.claim_checks import run_check
from mingshu.library.model import _ROOT

# The book's Rooster row, column by column (庙 旺 得地 利益 平和 不得地 落陷 → 庙 旺 得 利 平 不 陷).
BOOK_ROOSTER = {
    "ju_men": "庙",
    "wen_chang": "庙",
    "wen_qu": "庙",
    "lu_cun": "庙",
    "zi_wei": "旺",
    "tian_ji": "旺",
    "tian_fu": "旺",
    "tai_yin": "旺",
    "qi_sha": "旺",
    "tian_liang": "得",
    "huo_xing": "得",
    "ling_xing": "得",
    "wu_qu": "利",
    "tan_lang": "利",
    "tai_yang": "平",
    "tian_tong": "平",
    "lian_zhen": "平",
    "tian_xiang": "陷",
    "po_jun": "陷",
    "qing_yang": "陷",
}
# The rows whose 庙 column lists 禄 (子 寅 卯 巳 午 申 酉 亥).
BOOK_LU_CUN = {0, 2, 3, 5, 6, 8, 9, 11}


def test_the_quanshu_school_reads_the_books_rooster_row() -> None:
    stars = list(BOOK_ROOSTER)
    grid = T.table("brightness_grid", {"school": "quanshu", "stars": stars})
    assert [row[10] for row in grid.rows] == list(BOOK_ROOSTER.values())


def test_lu_cun_is_temple_in_the_book_and_ungraded_by_default() -> None:
    book = T.table("brightness_grid", {"school": "quanshu", "stars": ["lu_cun"]}).rows[0][1:]
    assert [b for b, g in enumerate(book) if g == "庙"] == sorted(BOOK_LU_CUN)
    assert set(book) == {"庙", "–"}
    default = T.table("brightness_grid", {"stars": ["lu_cun"]}).rows[0][1:]
    assert set(default) == {"–"}


def test_compare_marks_the_cells_that_differ() -> None:
    grid = T.table("brightness_grid", {"stars": ["tai_yang", "zi_wei"], "compare": "quanshu"})
    assert grid.marked == {(0, 10)}  # Tai Yang on the Rooster: 陷 here, 平 in the book


def test_the_problems() -> None:
    cell = {"ask": "grade_of", "star": "tai_yin", "branch": "rooster"}
    assert P.problem_answer({**cell, "school": "quanshu"}) == "Prosperous (旺)"
    assert P.problem_answer({**cell, "star": "lu_cun"}) == "no grade"
    found = P.solve({"ask": "grade_branches", "star": "lu_cun", "grade": "庙", "school": "quanshu"})
    assert len(found.solutions) == len(BOOK_LU_CUN)
    assert P.problem_answer({"ask": "grade_branches", "star": "tian_fu", "grade": "xian"}) == "none"


def test_the_checks_hold_and_fail_on_a_missing_cell() -> None:
    cells = [["lu_cun", b] for b in "子寅卯巳午申酉亥"]
    cells += [["tai_yang", "酉"], ["tai_yin", "酉"], ["qi_sha", "酉"]]
    assert run_check("schools_grade_apart", {"cells": cells})[0] == 0
    assert run_check("schools_grade_apart", {"cells": cells[:-1]})[0] == 1
    assert run_check("schools_grade_apart", {"cells": [*cells, ["zi_wei", "子"]]})[0] == 1
    bad, cases = run_check("grades_as_tables", {})
    assert bad == 0 and cases > 0


@pytest.mark.parametrize(
    ("kind", "options"),
    [
        ("brightness_grid", {"stars": ["zuo_fu"]}),
        ("brightness_grid", {"school": "zhongzhou"}),
        ("brightness_grid", {"compare": "book"}),
    ],
)
def test_bad_table_parameters_are_input_errors(kind: str, options: dict[str, object]) -> None:
    with pytest.raises(InputError):
        T.table(kind, options)


@pytest.mark.parametrize(
    "query",
    [
        {"ask": "grade_of", "star": "tian_ma", "branch": "rat"},
        {"ask": "grade_of", "star": "zi_wei", "branch": "lion"},
        {"ask": "grade_branches", "star": "zi_wei", "grade": "bright"},
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
    ("old", "new", "message"),
    [
        (
            "[Tai Yang, 陷, 不, 旺, 庙, 旺, 旺, 旺, 得, 得, 陷, 不, 陷]",
            "[Tai Yang, 陷, 不, 旺, 庙, 旺, 旺, 旺, 得, 得, 平, 不, 陷]",
            "table differs from the engine: row 3 column 11",
        ),
        (
            'answer: "Rat or Rooster or Pig"',
            'answer: "Rat or Pig"',
            "names 2 of the engine's 3 answers",
        ),
    ],
)
def test_planted_errors_in_the_brightness_kinds_fail(
    copy: Path, space: Path, sources: Path, old: str, new: str, message: str
) -> None:
    path = copy / "ZW-FRM-06.md"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    errors = check(load(copy), space=space, sources=sources, only=["ZW-FRM-06"]).errors
    assert any(message in e for e in errors), errors
