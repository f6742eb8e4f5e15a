"""The kinds and engine checks of the flowing-year article (ZW-FRM-05: table flowing_year;
problems flowing_star, flowing_years; checks year_palace_on_year_branch, flowing_on_natal,
year_mutagens_as_natal, flowing_by_stem, flowing_offsets, decade_flowing_as_year) against the
Quan Shu's worked years, read here by hand: juan 2 安流禄流羊流陀诀 (「己丑流年流禄在午、流羊在未、
流陀在巳」), juan 3 论羊陀迭并 (「流年亦庚禄居申，流羊在酉，流陀在未」) and 论流年太岁吉凶星杀
(「如命在子宫太岁到子」); bad parameters are InputErrors; planted errors fail."""

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
from mingshu.library.engine import year_layer
from mingshu.library.model import _ROOT


def _branches(year: int) -> dict[str, str]:
    return {row[0]: row[3] for row in T.table("flowing_year", {"year": year}).rows}


@pytest.mark.parametrize(
    ("year", "lu", "yang", "tuo"),
    [
        (2009, "Horse", "Goat", "Snake"),  # 己丑: 流禄在午、流羊在未、流陀在巳
        (2030, "Monkey", "Rooster", "Goat"),  # 庚戌: 庚禄居申，流羊在酉，流陀在未
    ],
)
def test_the_books_worked_years(year: int, lu: str, yang: str, tuo: str) -> None:
    at = _branches(year)
    assert (at["Liu Lu (流禄)"], at["Liu Yang (流羊)"], at["Liu Tuo (流陀)"]) == (lu, yang, tuo)
    assert P.problem_answer({"ask": "flowing_star", "star": "liu_lu", "year": year}) == lu


def test_the_years_spirit_arrives_at_the_years_branch() -> None:
    """「如命在子宫太岁到子」: in a 子 year (2020 庚子) the year's palace is the Rat."""
    layer = year_layer(2020)
    assert str(layer.pillar) == "庚子" and int(layer.branch) == 0


def test_the_table_names_each_rule() -> None:
    table = T.table("flowing_year", {"year": 2026})
    rules = {row[0]: (row[1], row[2]) for row in table.rows}
    assert rules["Liu Lu (流禄)"] == ("as Lu Cun", "stem")
    assert rules["Liu Ma (流马)"] == ("as Tian Ma", "branch")
    assert rules["Liu Chang (流昌)"] == ("its own table", "stem")
    assert rules["Liu Xi (流喜)"] == ("6 on from Liu Luan", "branch")
    assert len(table.rows) == 11


def test_the_backward_problems_name_every_answer() -> None:
    # Lu Cun's table: 丁 and 己 both on the Horse (寅卯巳午巳午申酉亥子).
    found = P.solve({"ask": "flowing_years", "star": "liu_lu", "branch": "horse", "by": "stem"})
    assert found.solutions == ("Yin Fire", "Yin Earth")
    # 申子辰 years send the Horse to the Tiger.
    horse = {"ask": "flowing_years", "star": "liu_ma", "branch": "tiger", "by": "branch"}
    assert P.solve(horse).solutions == ("Rat", "Dragon", "Monkey")


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("year_palace_on_year_branch", {}),
        ("year_mutagens_as_natal", {}),
        ("flowing_offsets", {"offsets": [["liu_yang", "liu_lu", 1], ["liu_tuo", "liu_lu", -1]]}),
        ("flowing_on_natal", {"pairs": {"liu_lu": "lu_cun", "liu_ma": "tian_ma"}}),
    ],
)
def test_the_checks_hold(name: str, args: dict[str, object]) -> None:
    bad, cases = run_check(name, args)
    assert bad == 0 and cases > 0


@pytest.mark.parametrize(
    ("name", "args"),
    [
        # the natal Wen Chang goes by the hour: not Liu Chang's namesake at age 61
        ("flowing_on_natal", {"pairs": {"liu_chang": "wen_chang"}}),
        ("flowing_offsets", {"offsets": [["liu_yang", "liu_lu", -1]]}),
        # Liu Chang's table with 戊 and 己 read forward (申酉 → 戌亥) instead of repeating 丙丁
        (
            "flowing_by_stem",
            {"star": "liu_chang", "table": "巳午申酉戌亥亥子寅卯", "avoid": ""},
        ),
        ("flowing_by_stem", {"star": "liu_chang", "table": "巳午申酉申酉亥子寅卯", "avoid": "巳"}),
    ],
)
def test_wrong_arguments_find_counterexamples(name: str, args: dict[str, object]) -> None:
    bad, _cases = run_check(name, args)
    assert bad > 0


@pytest.mark.parametrize(
    "query",
    [
        {"ask": "flowing_star", "star": "lu_cun", "year": 2026},
        {"ask": "flowing_star", "star": "liu_lu", "year": 1200},
        {"ask": "flowing_years", "star": "liu_ma", "branch": "tiger", "by": "stem"},
        {"ask": "flowing_years", "star": "liu_lu", "branch": "tiger", "by": "pillar"},
    ],
)
def test_bad_problem_parameters_are_input_errors(query: dict[str, object]) -> None:
    with pytest.raises(InputError):
        P.problem_answer(query)


def test_bad_table_and_check_parameters_are_input_errors() -> None:
    with pytest.raises(InputError):
        T.table("flowing_year", {"year": 3000})
    with pytest.raises(InputError):
        run_check("flowing_by_stem", {"star": "liu_chang", "table": "巳午", "avoid": ""})
    with pytest.raises(InputError):
        run_check("flowing_on_natal", {"pairs": {"liu_nothing": "lu_cun"}})


@pytest.fixture()
def copy(tmp_path: Path) -> Path:
    folder = tmp_path / "articles"
    shutil.copytree(_ROOT, folder)
    return folder


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            '["Liu Lu (流禄)", "as Lu Cun", stem, Snake]',
            '["Liu Lu (流禄)", "as Lu Cun", stem, Horse]',
            "table differs from the engine: row 6 column 4",
        ),
        (
            'answer: "Yin Fire or Yin Earth"',
            'answer: "Yin Earth"',
            "names 1 of the engine's 2 answers",
        ),
    ],
)
def test_planted_errors_in_the_flowing_kinds_fail(
    copy: Path, space: Path, sources: Path, old: str, new: str, message: str
) -> None:
    path = copy / "ZW-FRM-05.md"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    errors = check(load(copy), space=space, sources=sources, only=["ZW-FRM-05"]).errors
    assert any(message in e for e in errors), errors
