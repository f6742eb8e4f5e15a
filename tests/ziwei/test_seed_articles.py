"""The engine facts the seed articles state, checked over every day and hour.

ZW-AUX-17 (En Guang), ZW-AUX-18 (Tian Gui), ZW-AUX-19 (Tai Fu) and the Di Kong article
make claims about where stars land; each test below turns one claim into a check over
every lunar day of two lunar years (a leap month included) and every birth hour.
"""

from __future__ import annotations

import datetime as dt

import pytest

from mingshu.cycles import Branch
from mingshu.ziwei import NatalChart, PalaceName, by_solar

HOURS = range(13)  # iztro time indices: 0 early Rat … 11 Pig, 12 late Rat


@pytest.fixture(scope="module")
def charts(two_lunar_years: list) -> list[tuple[int, int, NatalChart]]:
    """(lunar day, time index, chart) for every day of two lunar years and every hour."""
    out = []
    for _month, day, solar in two_lunar_years:
        for t in HOURS:
            out.append((day, t, by_solar(solar, t, "female" if (day + t) % 2 else "male")))
    return out


def counted_day(day: int, time_index: int) -> int:
    """The site default counts a late Rat hour birth as the next day."""
    return day + (time_index == 12)


def test_there_are_enough_charts(charts: list) -> None:
    days = {day for day, _, _ in charts}
    assert days == set(range(1, 31))
    assert len(charts) == 13 * (355 + 384)  # lunar 2022: 2022-02-01 .. 2023-01-21; 2023: 384


# ------------------------------------------------------------------ En Guang (ZW-AUX-17)

# The article's lookup: remainder of (day − hour number) mod 12 → branch.
EN_GUANG_TABLE = {
    0: "Monkey", 1: "Rooster", 2: "Dog", 3: "Pig", 4: "Rat", 5: "Ox",
    6: "Tiger", 7: "Rabbit", 8: "Dragon", 9: "Snake", 10: "Horse", 11: "Goat",
}  # fmt: skip


def test_en_guang_follows_day_minus_hour(charts: list) -> None:
    for day, t, chart in charts:
        remainder = (counted_day(day, t) - t % 12) % 12
        assert chart.star("en_guang").branch is Branch.parse(EN_GUANG_TABLE[remainder])


def test_en_guang_is_counted_from_wen_chang(charts: list) -> None:
    # Day 1 on Wen Chang's palace, count to the birth day, step back one.
    for day, t, chart in charts:
        wen_chang = chart.star("wen_chang").branch
        assert chart.star("en_guang").branch == (wen_chang + counted_day(day, t) - 2) % 12


def test_en_guang_shares_wen_chang_palace_on_days_2_14_26(charts: list) -> None:
    for day, t, chart in charts:
        together = chart.star("en_guang").branch == chart.star("wen_chang").branch
        assert together == (counted_day(day, t) in (2, 14, 26))


def test_en_guang_worked_examples() -> None:
    # Day 5 Rat, day 6 Ox, day 7 Tiger all land on Ox; day 18 Dragon hour → Dog;
    # day 3 Horse hour → Snake.  Lunar 2024-1-x is solar 2024-02-10 + x − 1.
    first = dt.date(2024, 2, 10)
    for day, time_index, branch in [(5, 0, "Ox"), (6, 1, "Ox"), (7, 2, "Ox"), (18, 4, "Dog"),
                                    (3, 6, "Snake")]:  # fmt: skip
        chart = by_solar(first + dt.timedelta(days=day - 1), time_index, "male")
        assert chart.lunar_date.day == day
        assert chart.star("en_guang").branch is Branch.parse(branch)


# ------------------------------------------------------------------ Tian Gui (ZW-AUX-18)

# Palaces counted forward from En Guang to Tian Gui, by hour (the article's table).
TIAN_GUI_APART = {
    "Rat": 6, "Ox": 8, "Tiger": 10, "Rabbit": 0, "Dragon": 2, "Snake": 4,
    "Horse": 6, "Goat": 8, "Monkey": 10, "Rooster": 0, "Dog": 2, "Pig": 4,
}  # fmt: skip


def test_tian_gui_follows_day_plus_hour(charts: list) -> None:
    # Dragon palace plus (hour number + day − 2).
    for day, t, chart in charts:
        expected = (Branch.CHEN + t % 12 + counted_day(day, t) - 2) % 12
        assert chart.star("tian_gui").branch == expected
        assert (
            chart.star("tian_gui").branch
            == (chart.star("wen_qu").branch + counted_day(day, t) - 2) % 12
        )


def test_tian_gui_distance_from_en_guang_depends_on_the_hour_alone(charts: list) -> None:
    for _day, t, chart in charts:
        apart = (chart.star("tian_gui").branch - chart.star("en_guang").branch) % 12
        assert apart == TIAN_GUI_APART[Branch(t % 12).names.english]


def test_tian_gui_worked_example() -> None:
    # Lunar day 21, Ox hour: Wen Qu on Snake, count to day 21 stops on Ox, Tian Gui on Rat.
    # Day 20, Goat hour: 20 + 7 = 27, remainder 3 → Snake.
    first = dt.date(2024, 2, 10)  # lunar 2024-1-1
    chart = by_solar(first + dt.timedelta(days=20), 1, "female")
    assert chart.star("wen_qu").branch is Branch.SI
    assert chart.star("tian_gui").branch is Branch.ZI
    chart = by_solar(first + dt.timedelta(days=19), 7, "female")
    assert chart.star("tian_gui").branch is Branch.SI


# ------------------------------------------------------------------- Tai Fu (ZW-AUX-19)

TAI_FU = {
    "Rat": "Horse", "Ox": "Goat", "Tiger": "Monkey", "Rabbit": "Rooster",
    "Dragon": "Dog", "Snake": "Pig", "Horse": "Rat", "Goat": "Ox",
    "Monkey": "Tiger", "Rooster": "Rabbit", "Dog": "Dragon", "Pig": "Snake",
}  # fmt: skip


def test_tai_fu_counts_forward_from_the_horse_palace(charts: list) -> None:
    for _day, t, chart in charts:
        hour = Branch(t % 12).names.english
        assert chart.star("tai_fu").branch is Branch.parse(TAI_FU[hour])


def test_feng_gao_wen_qu_tai_fu_are_two_palaces_apart(charts: list) -> None:
    for _day, _t, chart in charts:
        feng_gao = chart.star("feng_gao").branch
        assert chart.star("wen_qu").branch == (feng_gao + 2) % 12
        assert chart.star("tai_fu").branch == (feng_gao + 4) % 12


def test_six_hour_stars_four_forward_two_back() -> None:
    # Rat and Horse hours of one day: the article's table of six hour stars.
    rat, horse = by_solar("2024-03-01", 0, "male"), by_solar("2024-03-01", 6, "male")
    table = {
        "wen_chang": ("Dog", "Dragon"), "wen_qu": ("Dragon", "Dog"),
        "di_kong": ("Pig", "Snake"), "di_jie": ("Pig", "Snake"),
        "tai_fu": ("Horse", "Rat"), "feng_gao": ("Tiger", "Monkey"),
    }  # fmt: skip
    for key, (at_rat, at_horse) in table.items():
        assert rat.star(key).branch is Branch.parse(at_rat), key
        assert horse.star(key).branch is Branch.parse(at_horse), key


# --------------------------------------------------------------------------- Di Kong


def test_di_kong_counts_back_from_the_pig_palace(charts: list) -> None:
    for _day, t, chart in charts:
        assert chart.star("di_kong").branch == (Branch.HAI - t % 12) % 12


def test_di_kong_is_one_branch_after_wen_chang(charts: list) -> None:
    for _day, _t, chart in charts:
        assert chart.star("di_kong").branch == (chart.star("wen_chang").branch + 1) % 12


def test_di_kong_palace_name_depends_on_the_month_alone(charts: list) -> None:
    names: dict[int, set[PalaceName]] = {}
    for _day, _t, chart in charts:
        month = (chart.life_branch - Branch.YIN + chart.hour.index % 12) % 12  # month index
        names.setdefault(month, set()).add(chart.palace_of("di_kong").name)
    assert len(names) == 12
    for month, seen in names.items():
        assert len(seen) == 1, (month, seen)
    # "Born in the third lunar month, Di Kong is in the Health palace in every hour."
    assert names[2] == {PalaceName.HEALTH}


def test_di_kong_book_examples() -> None:
    # 全书 卷二: Rat hour → Jie and Kong both on Pig; Ox hour → Jie Rat, Kong Dog;
    # Horse hour → both on Snake.
    for t, jie, kong in [(0, "亥", "亥"), (1, "子", "戌"), (6, "巳", "巳")]:
        chart = by_solar("1999-09-09", t, "female")
        assert chart.star("di_jie").branch is Branch.parse(jie)
        assert chart.star("di_kong").branch is Branch.parse(kong)
