"""The twelve-god cycle kinds (mingshu.library.god_cycles): the claim checks find the
charts a wrong statement is false for, the class starts equal the Quan Shu's verse, and bad
parameters are one InputError.

Expected values come from outside the code under test: the five starts from the verse of
juan 2 line 69 (the full transcription, else the repository's cited excerpt), the count of contradicting charts from the
walk's own make-up (half its births are yin-year births)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from animals import ANIMAL_OF
from mingshu.errors import InputError
from mingshu.library import god_cycles
from mingshu.library.problems import solve

ROOT = Path(__file__).resolve().parents[2]
VERSE = "火局命寅起长生。木局命亥起长生。水局命申起长生。金局命巳起长生。土局命申起长生。"
CLASS_NUMBER = {"水": "2", "木": "3", "金": "4", "土": "5", "火": "6"}


def _verse_starts() -> dict[str, str]:
    name = "ziwei-quanshu.juan2.newdu-full.txt"
    full = ROOT.parent / "shared" / "sources" / name
    path = full if full.exists() else ROOT / "sources" / f"{name}.excerpt"
    text = path.read_text(encoding="utf-8")
    assert VERSE in text.replace(" ", "")
    return {CLASS_NUMBER[e]: b for e, b in re.findall(r"(.)局命(.)起长生", VERSE)}


def test_the_class_starts_are_the_verse() -> None:
    starts = _verse_starts()
    rows = dict(god_cycles.class_starts_table({"cycle": "chang_sheng"}).rows)
    by_number = {name.split()[1]: branch for name, branch in rows.items()}
    assert by_number == {n: ANIMAL_OF[b] for n, b in starts.items()}


def test_a_right_rule_has_no_counterexample_and_a_wrong_one_half_the_walk() -> None:
    starts = _verse_starts()
    assert god_cycles.cycle_from("chang_sheng", "iztro", "polarity", starts) == (0, 1440)
    # Gender alone is the book's direction: the default parts from it on every yin-year
    # birth, and the walk is half yin years.
    assert god_cycles.cycle_from("chang_sheng", "iztro", "gender", starts) == (720, 1440)
    moved = {**starts, "6": "申"}  # Fire's corner moved: every Fire 6 chart is wrong
    bad, n = god_cycles.cycle_from("chang_sheng", "quanshu", "gender", moved)
    assert 0 < bad < n


def test_god_only_on_counts_a_branch_never_reached() -> None:
    assert god_cycles.god_only_on("chang_sheng", "chang_sheng", ["寅", "巳", "申", "亥"])[0] == 0
    # Rat is never a start: one counterexample for the branch never reached.
    assert god_cycles.god_only_on("chang_sheng", "长生", ["寅", "巳", "申", "亥", "子"])[0] == 1


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"ask": "cycle_classes", "cycle": "no_cycle", "god": "x", "branch": "rat"}, "cycle"),
        ({"ask": "cycle_classes", "cycle": "chang_sheng", "god": "x", "branch": "rat"}, "god"),
        (
            {
                "ask": "cycle_classes",
                "cycle": "chang_sheng",
                "god": "mu_yu",
                "branch": "rat",
                "year": "odd",
            },
            "year",
        ),
        (
            {
                "ask": "cycle_years",
                "cycle": "bo_shi",
                "god": "bo_shi",
                "branch": "rat",
                "by": "moon",
            },
            "by",
        ),
    ],
)
def test_bad_parameters_are_one_input_error(query: dict[str, str], field: str) -> None:
    with pytest.raises(InputError) as e:
        solve(query)
    assert e.value.field == field


def test_god_with_star_counts_the_charts_apart() -> None:
    # Run either way, Li Shi meets Qing Yang on the forward half of the walk only.
    assert god_cycles.god_with_star("bo_shi", "li_shi", "qing_yang", way="forward") == (0, 720)
    assert god_cycles.god_with_star("bo_shi", "li_shi", "qing_yang") == (720, 1440)
    with pytest.raises(InputError):
        god_cycles.god_with_star("bo_shi", "li_shi", "qing_yang", way="sideways")


def test_school_star_count_fails_a_shifted_count() -> None:
    from mingshu.library.claim_checks import school_star_count

    # The book's Dou Jun (安斗君诀): year as month 1, back by the month, on by the hour.
    assert school_star_count("dou_jun", "quanshu", "子", year=1, month=-1, hour=1)[0] == 0
    bad, n = school_star_count("dou_jun", "quanshu", "丑", year=1, month=-1, hour=1)
    assert bad == n > 0
    with pytest.raises(InputError):
        school_star_count("dou_jun", "quanshu", "子丑")


@pytest.mark.parametrize(
    ("query", "field"),
    [
        (
            {"ask": "school_star", "school": "iztro", "star": "dou_jun", "lunar": "1984-03-10"},
            "star",
        ),
        (
            {
                "ask": "school_star_hours",
                "school": "quanshu",
                "star": "dou_jun",
                "lunar": "1984-03-10",
            },
            "branches",
        ),
    ],
)
def test_school_star_problems_refuse_what_they_cannot_answer(
    query: dict[str, str], field: str
) -> None:
    with pytest.raises(InputError) as e:
        solve(query)
    assert e.value.field == field
