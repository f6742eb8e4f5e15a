"""Problem kinds name every answer: a backward problem enumerates every birth it speaks of
(the late Rat hour among them), and the check fails an article whose printed answer names
fewer; table, problem and diagram directives take only their kind's parameters.

The expected answers are read off real births the way a reader meets them (a solar date
and a clock time through ``ziwei.chart``), not off the kinds' own lunar-index search."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from mingshu import calendar, ziwei
from mingshu.library import check as check_module
from mingshu.library import load
from mingshu.library.check import check
from mingshu.library.model import _ROOT
from mingshu.library.problems import solve

# Clock times half way through each two-hour branch, then 23:30: the late Rat hour, which
# the default day change charts as the next day's Rat hour.
CLOCK: tuple[tuple[str, str], ...] = (
    ("00:30", "Rat"),
    *((f"{2 * h - 1:02d}:30", a) for h, a in enumerate(("Ox", "Tiger", "Rabbit"), start=1)),
    *(
        (f"{2 * h - 1:02d}:30", a)
        for h, a in enumerate(
            ("Dragon", "Snake", "Horse", "Goat", "Monkey", "Rooster", "Dog", "Pig"), start=4
        )
    ),
    ("23:30", "the late Rat hour"),
)


def _births_with(star: str, branch: str, lunar_day: int) -> set[str]:
    """The hours of a real birth on ``lunar_day`` (of a 2024 lunar month) that put ``star``
    on ``branch``, by the clock."""
    date = calendar.lunar_to_solar(2024, 5, lunar_day, False)
    found = set()
    for time, hour in CLOCK:
        chart = ziwei.chart(date.isoformat(), time, "female")
        if chart.star(star).branch.names.english == branch:
            found.add(hour)
    return found


def test_the_backward_en_guang_problem_has_two_answers() -> None:
    """Day 9, En Guang on Horse: the Pig hour, and the late Rat hour (charted as day 10's
    Rat hour); before the late Rat hour was searched the engine said only Pig."""
    want = _births_with("en_guang", "Horse", 9)
    assert want == {"Pig", "the late Rat hour"}
    got = solve({"ask": "hour_of", "star": "en_guang", "branch": "horse", "day": 9})
    assert set(got.solutions) == want
    assert got.text == "Pig or the late Rat hour"


@pytest.mark.parametrize(("day", "branch"), [(2, "Dog"), (14, "Rat"), (30, "Horse")])
def test_hour_of_matches_real_births_by_the_clock(day: int, branch: str) -> None:
    got = solve({"ask": "hour_of", "star": "en_guang", "branch": branch.lower(), "day": day})
    assert set(got.solutions) == _births_with("en_guang", branch, day)


def _one_article(tmp_path: Path, article: str, old: str, new: str) -> list[str]:
    """The check's errors for ``article`` alone, with ``old`` replaced by ``new``."""
    folder = tmp_path / "articles"
    folder.mkdir()
    shutil.copy(_ROOT / "_planned.yaml", folder)
    text = (_ROOT / f"{article}.md").read_text(encoding="utf-8")
    assert old in text
    (folder / f"{article}.md").write_text(text.replace(old, new, 1), encoding="utf-8")
    return check(load(folder), sources=None).errors


def test_an_answer_naming_fewer_than_the_engine_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(check_module, "_run_claims", lambda *a: {})  # problems only
    errors = _one_article(
        tmp_path, "ZW-AUX-17", 'answer: "Pig or the late Rat hour"', 'answer: "Pig"'
    )
    assert any(
        "prints 'Pig', the engine says 'Pig or the late Rat hour' "
        "(it names 1 of the engine's 2 answers)" in e
        for e in errors
    ), errors


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        ("```{table} day_hour\n", "```{table} day_hour\nstars: [tian_gui]\n", "stars"),
        ("```{diagram} first_days\n", "```{diagram} first_days\nmonth: 3\n", "month"),
        (
            "{ask: hour_of, star: en_guang,",
            "{ask: hour_of, stars: en_guang, star: en_guang,",
            "stars",
        ),
    ],
)
def test_a_parameter_the_kind_does_not_read_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, old: str, new: str, field: str
) -> None:
    """A misspelt parameter would otherwise be ignored and the kind's default printed."""
    monkeypatch.setattr(check_module, "_run_claims", lambda *a: {})
    errors = _one_article(tmp_path, "ZW-AUX-17", old, new)
    assert any(f"{field}: not a parameter of this kind" in e for e in errors), errors


def test_a_recorded_birth_is_dated_by_lunar_python() -> None:
    """ZW-BAS-02's recorded birth (day 11 of the tenth month of 1811's lunar year, the Pig
    hour): the date comes from lunar-python, the Life palace from a real chart of that
    solar date at 22:00 on the clock."""
    from lunar_python import Lunar

    from mingshu.cycles import Branch

    solar = Lunar.fromYmd(1811, 10, 11).getSolar()
    date = f"{solar.getYear():04d}-{solar.getMonth():02d}-{solar.getDay():02d}"
    life = Branch(int(ziwei.chart(date, "22:00", "male").life_branch)).names.english
    got = solve({"ask": "recorded_birth", "lunar": "1811-10-11", "leap": False, "hour": "pig"})
    assert got.text == f"{date}, Life palace on {life}"
