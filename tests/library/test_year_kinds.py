"""The table and problem kinds of stars read from the birth year: ``year_stem`` (a row per
year stem), ``year_palaces`` and ``year_palace`` (the palace names a star takes in a year)."""

from __future__ import annotations

import pytest

from mingshu.errors import InputError
from mingshu.library.problems import problem_answer
from mingshu.library.tables import table

# 安天官天福贵人诀 (../shared/sources/ziwei-quanshu.anxing-jue.iztro-compilation.md): two
# animals per stem, Tian Guan first: 甲喜羊鸡乙龙猴，丙年蛇鼠一窝谋。丁虎擒猪戊玉兔，
# 己鸡居然与虎俦。庚猪马辛鸡蛇走，壬犬马癸马蛇游。
RHYME = [
    ("Goat", "Rooster"),
    ("Dragon", "Monkey"),
    ("Snake", "Rat"),
    ("Tiger", "Pig"),
    ("Rabbit", "Rabbit"),
    ("Rooster", "Tiger"),
    ("Pig", "Horse"),
    ("Rooster", "Snake"),
    ("Dog", "Horse"),
    ("Horse", "Snake"),
]


def test_year_stem_rows_follow_the_rhyme() -> None:
    t = table("year_stem", {"stars": ["tian_guan", "tian_fu_blessing"]})
    assert t.columns == ("Year stem", "Tian Guan", "Tian Fu")
    assert [r[0] for r in t.rows][:2] == ["Yang Wood (甲)", "Yin Wood (乙)"]
    assert [tuple(r[1:]) for r in t.rows] == RHYME


# 天才由命宫起子，顺行至本生年支安之 (the same compilation): the Rat year on the Life palace;
# the names forward from Life (ziwei/data/chart.toml, in order).
FORWARD_FROM_LIFE = ["Life", "Parents", "Spirit", "Property", "Career", "Friends", "Travel"]


@pytest.mark.parametrize(("year", "palace"), list(enumerate(FORWARD_FROM_LIFE)))
def test_year_palace_of_tian_cai_is_the_year_count_from_life(year: int, palace: str) -> None:
    assert problem_answer({"ask": "year_palace", "star": "tian_cai", "year": year}) == palace


def test_year_palaces_lists_every_palace_a_star_takes() -> None:
    # Zuo Fu reads the month alone: in any year it visits every palace as the month and
    # hour change, so all twelve names appear, in order from Life.
    (row,) = table("year_palaces", {"stars": ["zuo_fu"]}).rows[:1]
    assert row[1].split(" / ")[:3] == ["Life", "Parents", "Spirit"]
    assert len(row[1].split(" / ")) == 12


def test_an_unknown_star_is_an_input_error() -> None:
    with pytest.raises(InputError, match="star"):
        problem_answer({"ask": "year_palace", "star": "no_such_star", "year": "rat"})
