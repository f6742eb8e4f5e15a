"""The month-star kinds (`month_stars`, `hour_palace`, `months_of`) against the placement
verses worked out by hand here, not by the engine: Quan Shu juan 2 安天刑天姚星诀 (天刑 from
酉, 天姚 from 丑, month 1 there, forward) and the rhyme 安天巫诀 (正五九 巳, 二六十 申,
三七十一 寅, 四八十二 亥); the Life palace from 安身命例 (month 1 on 寅 forward, then back
by the hour) with the palaces named in their fixed order from it."""

from __future__ import annotations

import pytest

from animals import ANIMALS
from mingshu.errors import InputError
from mingshu.library import problems as P
from mingshu.library import tables as T

# From the Life palace the palaces follow against the count: Life, Siblings, Spouse, …
PALACES = [
    "Life",
    "Siblings",
    "Spouse",
    "Children",
    "Wealth",
    "Health",
    "Travel",
    "Friends",
    "Career",
    "Property",
    "Spirit",
    "Parents",
]


def tian_xing(month: int) -> int:
    return (9 + month - 1) % 12  # 酉 is 9


def tian_yao(month: int) -> int:
    return (1 + month - 1) % 12  # 丑 is 1


def tian_wu(month: int) -> int:
    return [5, 8, 2, 11][(month - 1) % 4]  # 巳 申 寅 亥


def palace(branch: int, month: int, hour: int) -> str:
    life = (2 + month - 1 - hour) % 12  # 寅 is 2
    return PALACES[(life - branch) % 12]


def test_month_stars_follows_the_verses() -> None:
    t = T.table("month_stars", {"stars": ["tian_xing", "tian_yao", "tian_wu"]})
    assert t.columns == ("Month", "Tian Xing", "Tian Yao", "Tian Wu")
    assert t.rows == tuple(
        (f"Month {m}", ANIMALS[tian_xing(m)], ANIMALS[tian_yao(m)], ANIMALS[tian_wu(m)])
        for m in range(1, 13)
    )
    part = T.table("month_stars", {"stars": ["tian_yao"], "months": [11, 12]})
    assert part.rows == (("Month 11", "Pig"), ("Month 12", "Rat"))


@pytest.mark.parametrize("month", [1, 7, 12])
def test_hour_palace_names_the_palace_from_the_life_palace(month: int) -> None:
    t = T.table("hour_palace", {"stars": ["tian_xing", "tian_yao"], "month": month})
    assert t.columns == ("Hour", "Tian Xing", "Tian Yao")
    assert t.rows == tuple(
        (
            ANIMALS[h],
            palace(tian_xing(month), month, h),
            palace(tian_yao(month), month, h),
        )
        for h in range(12)
    )


def test_months_of_names_every_month() -> None:
    for b in range(12):
        for star, rule in (("tian_xing", tian_xing), ("tian_wu", tian_wu)):
            got = P.solve({"ask": "months_of", "star": star, "branch": ANIMALS[b]})
            assert got.solutions == tuple(f"month {m}" for m in range(1, 13) if rule(m) == b)
    assert (
        P.problem_answer({"ask": "months_of", "star": "tian_wu", "branch": "snake"})
        == "month 1 or month 5 or month 9"
    )
    assert P.problem_answer({"ask": "months_of", "star": "tian_wu", "branch": "rat"}) == "none"


@pytest.mark.parametrize(
    ("kind", "options", "field"),
    [
        ("month_stars", {"stars": ["no_such_star"]}, "star"),
        ("month_stars", {"stars": ["tian_xing"], "months": [1, 13]}, "month"),
        ("month_stars", {"stars": ["tian_xing"], "months": 3}, "months"),
        ("hour_palace", {"stars": ["tian_xing"], "hours": ["cat"]}, "hour"),
        ("hour_palace", {"stars": ["tian_xing"], "month": 0}, "month"),
    ],
)
def test_bad_table_parameters_name_the_field(
    kind: str, options: dict[str, object], field: str
) -> None:
    with pytest.raises(InputError) as e:
        T.table(kind, options)
    assert e.value.field == field


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"ask": "months_of", "star": "tian_xing"}, "engine"),
        ({"ask": "months_of", "star": "tian_xing", "branch": "cat"}, "branch"),
        ({"ask": "months_of", "star": "no_such_star", "branch": "rat"}, "star"),
    ],
)
def test_bad_queries_name_the_field(query: dict[str, object], field: str) -> None:
    with pytest.raises(InputError) as e:
        P.problem_answer(query)
    assert e.value.field == field
