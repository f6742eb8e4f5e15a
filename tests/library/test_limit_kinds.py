"""The kinds and engine checks of the limits article (ZW-FRM-04: tables limits,
small_limit_start, conformance_named; problems decade_of, small_limit_years; checks
decades_from_life_palace, small_limit_from_group, limits_same_way, childhood_limit,
small_limit_to_year) against the Quan Shu's juan 2 read here by hand: 安小限诀 (lines 93–94),
安童限诀 (line 96), and the decades counted from the Life palace as the Daozang's 起大限例
(line 289) says; bad parameters are InputErrors; planted errors fail."""

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
from mingshu.library.claim_checks import run_check
from mingshu.library.model import _ROOT

# 安小限诀: 「寅午戌人起辰宫，申子辰人自戌宫，巳酉丑人起未宫，亥卯未人起丑宫」
BOOK_STARTS = {"寅午戌": "辰", "申子辰": "戌", "巳酉丑": "未", "亥卯未": "丑"}
HANS = "子丑寅卯辰巳午未申酉戌亥"
BIRTH = {"lunar": "1984-01-01", "hour": "rat", "gender": "male"}


def _start(year_branch: int) -> int:
    group = next(g for g in BOOK_STARTS if HANS[year_branch] in g)
    return HANS.index(BOOK_STARTS[group])


def test_small_limit_starts_are_the_verses() -> None:
    """Age 1 on the group's palace; 「男俱顺数」 and 「女俱逆数」 for age 2."""
    table = T.table("small_limit_start", {})
    for year, row in enumerate(table.rows):
        start = _start(year)
        assert row == (
            ANIMALS[year],
            ANIMALS[start],
            ANIMALS[(start + 1) % 12],
            ANIMALS[(start - 1) % 12],
        )


def test_decades_of_a_yang_man_counted_by_hand() -> None:
    """A 甲子 man (yang year: forward) with the Life palace on 寅: 丙寅 by 五虎遁, whose nayin
    炉中火 makes the Fire class, 6; ten years a palace forward from the Life palace."""
    table = T.table("limits", {"birth": BIRTH})
    assert [row[1] for row in table.rows] == [ANIMALS[(2 + k) % 12] for k in range(12)]
    assert [row[2] for row in table.rows] == [f"{6 + 10 * k}–{15 + 10 * k}" for k in range(12)]
    # The small limit: a 子 year starts on 戌, a man counts forward, so age 1 is on 戌.
    dog = next(row for row in table.rows if row[1] == "Dog")
    assert dog[3] == "1, 13, 25 …"


def test_the_problems_name_every_answer() -> None:
    assert P.problem_answer({"ask": "decade_of", "birth": BIRTH, "age": 30}) == (
        "Spirit palace on Dragon, ages 26–35"
    )
    assert P.problem_answer({"ask": "decade_of", "birth": BIRTH, "age": 5}) == (
        "no decade yet: the childhood limit"
    )
    # Every year of a group shares its start, so age 1 on the 辰 names three years.
    found = P.solve({"ask": "small_limit_years", "branch": "dragon", "gender": "female", "age": 1})
    assert found.solutions == ("Tiger", "Horse", "Dog")
    # A woman's age 3 is two back from a corner (戌未辰丑): 申巳寅亥, never the Rat.
    woman = {"ask": "small_limit_years", "gender": "female", "age": 3}
    assert P.problem_answer({**woman, "branch": "rat"}) == "none"
    assert P.problem_answer({**woman, "branch": "monkey"}) == "Rat or Dragon or Monkey"


def test_conformance_named_reads_the_record() -> None:
    table = T.table("conformance_named", {"rules": ["small_limit"]})
    assert table.columns == ("Rule", "Points", "Agree (iztro)", "Agree (quanshu)")
    assert table.rows[0][0] == "安小限诀"


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("decades_from_life_palace", {}),
        ("small_limit_from_group", {"starts": BOOK_STARTS}),
        ("limits_same_way", {}),
        # 安童限诀 「一命二财三疾厄，四妻五福」, the ages before any first decade
        ("childhood_limit", {"palaces": ["Life", "Wealth", "Health", "Spouse", "Spirit"]}),
    ],
)
def test_the_checks_hold_the_books_rules(name: str, args: dict[str, object]) -> None:
    bad, cases = run_check(name, args)
    assert bad == 0 and cases > 0


@pytest.mark.parametrize(
    ("name", "args"),
    [
        # two groups' starts swapped
        ("small_limit_from_group", {"starts": {**BOOK_STARTS, "寅午戌": "戌", "申子辰": "辰"}}),
        ("childhood_limit", {"palaces": ["Life", "Wealth", "Health", "Spouse", "Career"]}),
        ("small_limit_to_year", {"men": {"子卯午酉": 2, "辰戌丑未": 6, "寅巳申亥": 2}}),
    ],
)
def test_wrong_arguments_find_counterexamples(name: str, args: dict[str, object]) -> None:
    bad, _cases = run_check(name, args)
    assert bad > 0


@pytest.mark.parametrize(
    ("kind", "options"),
    [
        ("limits", {"birth": "1984-01-01"}),
        ("conformance_named", {"rules": ["no_such_rule"]}),
    ],
)
def test_bad_table_parameters_are_input_errors(kind: str, options: dict[str, object]) -> None:
    with pytest.raises(InputError):
        T.table(kind, options)


@pytest.mark.parametrize(
    "query",
    [
        {"ask": "decade_of", "age": 30},
        {"ask": "small_limit_years", "branch": "rat", "gender": "other", "age": 1},
        {"ask": "small_limit_years", "branch": "rat", "gender": "male", "age": 0},
        {"ask": "small_limit_years", "branch": "lion", "gender": "male", "age": 1},
    ],
)
def test_bad_problem_parameters_are_input_errors(query: dict[str, object]) -> None:
    with pytest.raises(InputError):
        P.problem_answer(query)


def test_bad_check_arguments_are_input_errors() -> None:
    with pytest.raises(InputError):
        run_check("small_limit_from_group", {"starts": {"寅午戌": "辰"}})


@pytest.fixture()
def copy(tmp_path: Path) -> Path:
    folder = tmp_path / "articles"
    shutil.copytree(_ROOT, folder)
    return folder


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            '[Spirit, Dragon, "26–35"',
            '[Spirit, Dragon, "25–34"',
            "table differs from the engine: row 3 column 3",
        ),
        (
            'answer: "Rat or Dragon or Monkey"',
            'answer: "Rat or Dragon"',
            "names 2 of the engine's 3 answers",
        ),
    ],
)
def test_planted_errors_in_the_limit_kinds_fail(
    copy: Path, space: Path, sources: Path, old: str, new: str, message: str
) -> None:
    path = copy / "ZW-FRM-04.md"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    errors = check(load(copy), space=space, sources=sources, only=["ZW-FRM-04"]).errors
    assert any(message in e for e in errors), errors
