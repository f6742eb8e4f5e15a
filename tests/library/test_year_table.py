"""The year-star kinds that take the setting ``algorithm`` (`year_table`,
`year_star_algorithm`, `year_of_algorithm`), against tables read off the sources by hand:
the rhymes 安咸池诀 and 安华盖诀 (by the year's trine), iztro 2.6.0's 劫杀 (巳寅亥申, 中州
only) and 天官 by the year stem (未辰巳寅卯酉亥酉戌午)."""

from __future__ import annotations

import pytest

from animals import ANIMALS
from mingshu.errors import InputError
from mingshu.library import problems as P
from mingshu.library import tables as T

BRANCHES = "子丑寅卯辰巳午未申酉戌亥"
STEMS = ["Yang Wood", "Yin Wood", "Yang Fire", "Yin Fire", "Yang Earth", "Yin Earth"]
STEMS += ["Yang Metal", "Yin Metal", "Yang Water", "Yin Water"]


def animal(char: str) -> str:
    return ANIMALS[BRANCHES.index(char)]


def test_year_table_by_branch_under_zhongzhou() -> None:
    t = T.table(
        "year_table", {"stars": ["xian_chi", "hua_gai", "jie_sha"], "algorithm": "zhongzhou"}
    )
    assert t.columns == ("Year branch", "Xian Chi", "Hua Gai", "Jie Sha")
    assert t.rows == tuple(
        (
            ANIMALS[b],
            animal("酉午卯子"[b % 4]),
            animal("辰丑戌未"[b % 4]),
            animal("巳寅亥申"[b % 4]),
        )
        for b in range(12)
    )


def test_year_table_by_stem() -> None:
    t = T.table("year_table", {"stars": ["tian_guan"], "by": "stem"})
    assert t.columns == ("Year stem", "Tian Guan")
    assert t.rows == tuple((STEMS[s], animal("未辰巳寅卯酉亥酉戌午"[s])) for s in range(10))


def test_algorithm_problems() -> None:
    for b in range(12):
        q = {"star": "jie_sha", "algorithm": "zhongzhou"}
        got = P.problem_answer({**q, "ask": "year_star_algorithm", "year": ANIMALS[b]})
        assert got == animal("巳寅亥申"[b % 4])
        back = P.solve({**q, "ask": "year_of_algorithm", "branch": ANIMALS[b]})
        assert back.solutions == tuple(
            f"{ANIMALS[y]} year" for y in range(12) if animal("巳寅亥申"[y % 4]) == ANIMALS[b]
        )


@pytest.mark.parametrize(
    ("kind", "options", "field"),
    [
        ("year_table", {"stars": ["jie_sha"]}, "star"),
        ("year_table", {"stars": ["xian_chi"], "algorithm": "nanpai"}, "algorithm"),
        ("year_table", {"stars": ["xian_chi"], "by": "month"}, "by"),
    ],
)
def test_bad_table_parameters(kind: str, options: dict[str, object], field: str) -> None:
    with pytest.raises(InputError) as e:
        T.table(kind, options)
    assert e.value.field == field


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"ask": "year_star_algorithm", "star": "jie_sha", "year": "rat"}, "star"),
        ({"ask": "year_of_algorithm", "star": "jie_sha", "branch": "cat"}, "branch"),
        (
            {"ask": "year_star_algorithm", "star": "jie_sha", "year": "rat", "algorithm": 3},
            "algorithm",
        ),
    ],
)
def test_bad_queries(query: dict[str, object], field: str) -> None:
    with pytest.raises(InputError) as e:
        P.problem_answer(query)
    assert e.value.field == field
