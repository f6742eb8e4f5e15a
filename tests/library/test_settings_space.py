"""The library space's third dataset and claims that compare two datasets (ZW-SET-01), the
count table those claims fill, and the Life palace tables and problems (ZW-BAS-02).

Expected values come from outside the code under test: lunar-python's calendar for how
many births fall where a setting acts, the Quan Shu's worked example for the Life and Body
palaces, and the rule counted out by hand for every month and hour."""

from __future__ import annotations

import datetime as dt
import re
import shutil
from pathlib import Path

import pytest

from mingshu.library import claims as C
from mingshu.library import load
from mingshu.library.check import SPACES, check, claim_keys, ensure_space
from mingshu.library.model import _ROOT
from mingshu.library.problems import problem_answer
from mingshu.library.svg import diagram
from mingshu.library.tables import table
from mingshu.space.claims import Claim
from mingshu.space.claims import check as run_claims
from mingshu.space.ziwei_sweep import read_metadata

ARTICLE = "ZW-SET-01"
_JOIN = "charts a JOIN other b USING (solar_date, time_index, gender)"


@pytest.fixture()
def copy(tmp_path: Path) -> Path:
    folder = tmp_path / "articles"
    shutil.copytree(_ROOT, folder)
    return folder


def _late_rat_births(first: dt.date, last: dt.date) -> int:
    """Births in the late Rat hour between two dates: one per day and sex."""
    return ((last - first).days + 1) * 2


def test_the_space_has_each_dataset_with_its_settings(space: Path) -> None:
    for name, wanted in SPACES.items():
        meta = read_metadata(space / name)
        assert meta is not None, name
        assert all(meta["settings"][k] == v for k, v in wanted), (name, meta["settings"])
    before = {n: (space / n / "year=2000").stat().st_mtime_ns for n in SPACES}
    ensure_space(space, (2000, 2000), progress=False)  # complete: nothing is swept again
    assert before == {n: (space / n / "year=2000").stat().st_mtime_ns for n in SPACES}


def test_a_comparison_claim_reads_the_other_dataset(space: Path) -> None:
    """En Guang under next_day against same_day: a false 'never differs' has one
    counterexample per late-Rat birth of 2000; the true claim has none."""
    false = Claim(
        key="planted_en_guang_same",
        statement="En Guang is the same under both late-Rat settings",
        source="planted",
        sql=f"SELECT count(*) FROM {_JOIN} WHERE a.en_guang <> b.en_guang",
        settings=(("late_rat_hour", "next_day"),),
        other_settings=(("late_rat_hour", "same_day"),),
    )
    [r] = run_claims(space / "leap-split", [false], other=space / "late-rat-same-day")
    assert r.counterexamples == _late_rat_births(dt.date(2000, 1, 1), dt.date(2000, 12, 31))
    # Against a dataset with the wrong settings, it is not run.
    [r] = run_claims(space / "leap-split", [false], other=space / "leap-whole")
    assert not r.applies and r.reason == "other"
    [r] = run_claims(space / "leap-split", [false])
    assert not r.applies and r.reason == "other"


def test_a_count_cell_with_a_wrong_explanation_fails(
    copy: Path, space: Path, sources: Path
) -> None:
    """A count table's cell is a claim: say Zi Wei moves only for Rat-hour births on an odd
    lunar day, and the check names the counterexamples (even days move it too)."""
    wrong = Claim(key="planted_zi_wei_odd_days", statement="", source="", sql="")
    with (copy / f"{ARTICLE}.claims.toml").open("a", encoding="utf-8") as out:
        out.write(
            '\n[[claim]]\nkey = "planted_zi_wei_odd_days"\nkind = "compare_settings"\n'
            'statement = "Zi Wei differs only on odd lunar days"\n'
            'settings = { late_rat_hour = "next_day" }\n'
            'other_settings = { late_rat_hour = "same_day" }\n'
            'where = "a.zi_wei <> b.zi_wei AND a.lunar_day % 2 = 0"\n'
            'total_where = "a.zi_wei <> b.zi_wei"\n'
        )
    path = copy / f"{ARTICLE}.md"
    text = path.read_text(encoding="utf-8")
    old = "[Zi Wei, set_leap_moves_zi_wei, set_late_rat_moves_zi_wei]"
    assert old in text
    path.write_text(text.replace(old, old.replace("set_late_rat_moves_zi_wei", wrong.key)))
    article = load(copy).get(ARTICLE)
    assert wrong.key in claim_keys(article)
    errors = check(load(copy), space=space, sources=sources, only=[ARTICLE]).errors
    assert any(
        re.search(r"claim planted_zi_wei_odd_days is false: [\d,]+ counterexamples", e)
        for e in errors
    ), errors


def test_count_table_cells_are_the_record() -> None:
    record = C.read_record(_ROOT)
    t = table(
        "setting_counts",
        {"columns": ["late"], "rows": [["En Guang", "set_late_rat_moves_en_guang"]]},
    )
    assert t.rows == (("En Guang", f"{record['set_late_rat_moves_en_guang']['rows']:,}"),)
    t = table("setting_counts", {"columns": ["x"], "rows": [["?", "no_such_claim"]]})
    assert t.rows == (("?", "not yet checked"),)


@pytest.mark.slow  # lunar-python over every day of 1900-2100
def test_recorded_counts_match_the_calendar() -> None:
    """The whole-space counts ZW-SET-01 prints, against lunar-python: every late-Rat birth
    moves En Guang; split and whole differ in the Life palace for the births of leap days 16
    on (twelve hour slots, the late Rat hour excepted, two sexes), and the late-Rat setting
    for those births' late Rat hour (two sexes)."""
    from lunar_python import Solar

    record = C.read_record(_ROOT)
    first, last = dt.date(1900, 1, 1), dt.date(2100, 12, 31)  # the swept years, whole
    assert record["set_late_rat_moves_en_guang"]["rows"] == _late_rat_births(first, last)
    leap_late_days = 0
    day = first
    while day <= last:
        lunar = Solar.fromYmd(day.year, day.month, day.day).getLunar()
        leap_late_days += lunar.getMonth() < 0 and lunar.getDay() > 15
        day += dt.timedelta(days=1)
    assert record["set_leap_moves_life_branch"]["rows"] == leap_late_days * 12 * 2
    assert record["set_late_rat_moves_life_branch"]["rows"] == leap_late_days * 2
    assert record["set_leap_moves_di_kong"]["rows"] == 0


def _life_by_hand(month: int, hour: int) -> int:
    """The Quan Shu's count: month 1 on Tiger (2), forward to the month, back by the hour."""
    branch = 2
    for _ in range(month - 1):
        branch = (branch + 1) % 12
    for _ in range(hour):
        branch = (branch - 1) % 12
    return branch


def test_life_palace_problems_follow_the_book() -> None:
    animals = ["Rat", "Ox", "Tiger", "Rabbit", "Dragon", "Snake", "Horse", "Goat", "Monkey",
               "Rooster", "Dog", "Pig"]  # fmt: skip
    # 假如正月生子时就在寅宫安身命，丑时逆转丑安命，顺去卯安身
    assert problem_answer({"ask": "life_palace", "month": 1, "hour": "rat"}) == "Tiger"
    assert problem_answer({"ask": "life_palace", "month": 1, "hour": "ox"}) == "Ox"
    assert table("life_palace", {"months": [1, 1], "hours": [1, 1], "palace": "body"}).rows == (
        ("Month 1", "Rabbit"),
    )
    for month in range(1, 13):
        for hour in range(12):
            want = animals[_life_by_hand(month, hour)]
            got = problem_answer({"ask": "life_palace", "month": month, "hour": hour})
            assert got == want, (month, hour)
        back = problem_answer({"ask": "life_hours", "month": month, "branch": "tiger"})
        # Tiger at hour number month - 1; a late-Rat birth counts the Rat hour's number 0
        want = animals[month - 1] + (" or the late Rat hour" if month == 1 else "")
        assert back == want, month


def test_palace_order_and_ring() -> None:
    t = table("palace_order", {"month": 1, "hour": "ox"})
    assert [r[1] for r in t.rows][:3] == ["Life", "Siblings", "Spouse"]
    assert t.rows[0][2] == "Ox" and t.rows[1][2] == "Rat"
    _svg, alt = diagram("life_ring", {"month": 1, "hour": "ox"})
    assert "Life palace on Ox" in alt and "Body palace on Rabbit" in alt


def test_ensure_space_mends_a_broken_year_and_a_gap_in_the_range(
    space: Path, tmp_path: Path
) -> None:
    """A truncated part.parquet is swept again, and so is a year of the dataset's recorded
    range that is missing (the claims would refuse the dataset otherwise)."""
    import json

    import pyarrow.parquet as pq

    from mingshu.space.sql import missing_years

    copy = tmp_path / "space"
    shutil.copytree(space, copy)
    part = copy / "leap-split" / "year=2000" / "part.parquet"
    part.write_bytes(part.read_bytes()[:1000])
    meta_file = copy / "leap-whole" / "_mingshu.json"
    meta = json.loads(meta_file.read_text("utf-8"))
    meta["first_year"] = 1999  # as a killed sweep of 1999..2000 leaves it
    meta_file.write_text(json.dumps(meta, ensure_ascii=False), "utf-8")
    assert missing_years(copy / "leap-whole") == (1999,)
    ensure_space(copy, (2000, 2000), progress=False)
    assert pq.read_metadata(part).num_rows == 366 * 13 * 2
    assert missing_years(copy / "leap-whole") == ()
