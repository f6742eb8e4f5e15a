"""The claim check ``year_boundary_moves``: which Zi Wei stars each year-boundary setting
moves, on the days between the lunar new year and 立春."""

from __future__ import annotations

import pytest

from mingshu.errors import InputError
from mingshu.library.claim_checks import run_check

# The almanac: 2021's lunar new year is 12 February and 立春 3 February (days 3–11 February
# differ: 9); 2022's are 1 and 4 February (1–3 February: 3); 2023's are 22 January and
# 4 February (22 January – 3 February: 13).
GAP_DAYS = {2021: 9, 2022: 3, 2023: 13}


@pytest.mark.parametrize("year", sorted(GAP_DAYS))
def test_the_cases_are_the_days_between_the_two_boundaries(year: int) -> None:
    args = {"setting": "year_boundary", "moves": [], "stays": [], "years": [year, year]}
    assert run_check("year_boundary_moves", args) == (0, GAP_DAYS[year])


def test_each_setting_moves_its_own_stars() -> None:
    years = [2021, 2023]  # every day of 2021, 2022 and 2023
    cases = sum(GAP_DAYS.values())
    # Lu Cun reads the year stem by the birth year; Long Chi the year branch by the
    # horoscope boundary (stars.toml: year_stem, god_year_branch).
    assert run_check(
        "year_boundary_moves",
        {"setting": "year_boundary", "moves": ["lu_cun"], "stays": ["long_chi"], "years": years},
    ) == (0, cases)
    assert run_check(
        "year_boundary_moves",
        {
            "setting": "horoscope_boundary",
            "moves": ["long_chi"],
            "stays": ["lu_cun"],
            "years": years,
        },
    ) == (0, cases)


def test_a_false_claim_counts_every_case() -> None:
    args = {"setting": "year_boundary", "moves": ["long_chi"], "stays": [], "years": [2021, 2021]}
    assert run_check("year_boundary_moves", args) == (GAP_DAYS[2021], GAP_DAYS[2021])


def test_an_unknown_setting_is_an_input_error() -> None:
    with pytest.raises(InputError, match="setting"):
        run_check("year_boundary_moves", {"setting": "leap_month", "moves": [], "stays": []})
