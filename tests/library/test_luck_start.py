"""The start-of-luck kinds and checks of the library: the start ages agree with lunar-python's
Yun (getYun, sect 1 and 2, an outside authority), Sanming Tonghui juan 2's worked example
comes out, and each claim check finds counterexamples when given a wrong rule."""

from __future__ import annotations

import pytest
from lunar_python import Solar

from mingshu.errors import InputError
from mingshu.library.claim_checks import run_check
from mingshu.library.problems import problem_answer
from mingshu.library.tables import table

METHODS = {1: "days_shichen", 2: "minutes"}


@pytest.mark.parametrize("sect", [1, 2])
def test_the_start_methods_table_agrees_with_lunar_python(sect: int) -> None:
    for date, clock, gender in [
        # years without daylight saving in China (1986–1991 had it, which the engine removes)
        ("2000-05-15", "10:30", "male"),
        ("1984-01-28", "23:30", "female"),
        ("2001-11-07", "06:05", "male"),
        ("1975-08-30", "15:10", "female"),
    ]:
        y, m, d = (int(x) for x in date.split("-"))
        hh, mm = (int(x) for x in clock.split(":"))
        eight = Solar.fromYmdHms(y, m, d, hh, mm, 0).getLunar().getEightChar()
        yun = eight.getYun(1 if gender == "male" else 0, sect)
        rows = table(
            "luck_start_methods", {"birth": {"date": date, "time": clock, "gender": gender}}
        )
        row = next(r for r in rows.rows if r[0] == METHODS[sect])
        want = f"{yun.getStartYear()} y {yun.getStartMonth()} m {yun.getStartDay()} d"
        assert row[1].startswith(want)
        assert ("forward" in rows.columns[0]) == yun.isForward()


def test_the_books_example_and_the_directions() -> None:
    # Sanming Tonghui juan 2, 論大運: five days and three periods → one year and nine months
    query = {"ask": "start_age", "birth": "2000-01-01 10:00", "term": "2000-01-06 16:00"}
    for method in ("seconds", "minutes", "days_shichen", "china95"):
        assert problem_answer({**query, "method": method}) == "1 y 9 m 0 d"
    assert problem_answer({"ask": "luck_runs", "direction": "forward"}) == (
        "Yang-year men or Yin-year women"
    )
    grid = table("luck_directions", {})
    assert [r[1] for r in grid.rows] == ["forward", "backward"] * 5
    with pytest.raises(InputError):
        problem_answer({**query, "birth": "the 24th"})
    with pytest.raises(InputError):
        problem_answer({**query, "method": "weeks"})
    with pytest.raises(InputError):
        problem_answer({"ask": "luck_runs", "direction": "sideways"})
    with pytest.raises(InputError):
        table("luck_start_methods", {"birth": {"date": "1990-05-15"}})


def test_the_checks_pass_the_true_rule_and_fail_a_wrong_one() -> None:
    truth = [["yang", "male"], ["yin", "female"]]
    assert run_check("luck_forward_when", {"forward": truth}) == (0, 20)
    assert run_check("luck_forward_when", {"forward": [["yang", "male"]]}) == (5, 20)
    rate = {"methods": ["seconds"], "per_day": 120, "per_shichen": 10}
    assert run_check("start_age_rate", rate) == (0, 8928)
    assert run_check("start_age_rate", {**rate, "per_shichen": 5})[0] > 0
    shichen = {**rate, "methods": ["days_shichen"]}
    assert run_check("start_age_rate", shichen) == (682, 8928)
    assert run_check("start_age_rate", {**shichen, "skip_hours": [23]}) == (0, 8215)
    assert run_check("luck_counts_from_nearest_jie", {"year": 2000}) == (0, 732)
    assert run_check("luck_steps_from_month", {"year": 2000, "steps": 3}) == (0, 2196)
