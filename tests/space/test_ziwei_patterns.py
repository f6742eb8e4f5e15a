"""The sweep's pattern columns (space/ziwei_patterns.py) and ``find "pattern(KEY)"``: the
columns equal ``chart.patterns()`` on every row of the one-year space and the per-chart
detector on sampled rows of other years and settings, and 金灿光辉 counts exactly the rows
its verse allows, restated in SQL over the star columns."""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

import pytest

from mingshu import space, ziwei
from mingshu.errors import InputError
from mingshu.space.ziwei_patterns import pattern_keys, with_patterns
from mingshu.space.ziwei_sweep import GENDERS, _year_table
from mingshu.ziwei.patterns import detect

MAJORS = [s.key for s in ziwei.STARS if s.group is ziwei.StarGroup.MAJOR]


def test_columns_equal_the_detector_on_every_row(dataset: Path) -> None:
    _, rows_ = space.query(
        dataset,
        "SELECT solar_date, time_index, gender, patterns, patterns_broken FROM charts "
        "WHERE time_index < 12 ORDER BY solar_date, time_index, gender",
        limit=None,
    )
    keys = pattern_keys()
    rows = 0
    for day, index, gender, formed, broken in rows_:
        if gender:  # gender moves no position a pattern reads: one chart a birth
            continue
        chart = ziwei.from_birth(
            ziwei.Birth.solar(dt.date.fromisoformat(str(day)), index, "male"), ziwei.DEFAULT
        )
        hits = chart.patterns()
        assert [keys[i] for i in formed] == [h.key for h in hits], (day, index)
        assert [keys[i] for i in broken] == [h.key for h in hits if h.broken], (day, index)
        rows += 1
    assert rows == 365 * 12


@pytest.mark.parametrize(
    "settings",
    [ziwei.DEFAULT, ziwei.ZiweiSettings(late_rat_hour="same_day", leap_month="whole")],
    ids=["next_day-split", "same_day-whole"],
)
def test_columns_equal_the_detector_on_sampled_rows(settings: ziwei.ZiweiSettings) -> None:
    """The columns are computed once per distinct combination of what the conditions read
    and gathered back to the rows: sampled rows of years with and without a leap month, both
    genders and the late Rat hour, against ``detect`` on each row's own chart."""
    keys = pattern_keys()
    rng = random.Random(23)
    formed_rows = broken_rows = 0
    for year in (1987, 2006, 2033):  # leap months 6, 7 and 11 (闰六月, 闰七月, 闰十一月)
        table = with_patterns(_year_table(year, settings, "numpy"), settings)
        births = table.select(["solar_date", "time_index", "gender"]).to_pylist()
        formed, broken = table["patterns"].to_pylist(), table["patterns_broken"].to_pylist()
        sample = rng.sample(range(table.num_rows), 150)
        sample += [r for r in range(table.num_rows) if births[r]["time_index"] == 12][:20]
        for r in sample:
            b = births[r]
            birth = ziwei.Birth.solar(b["solar_date"], b["time_index"], GENDERS[b["gender"]])
            hits = detect(ziwei.from_birth(birth, settings))
            assert [keys[i] for i in formed[r]] == [h.key for h in hits], b
            assert [keys[i] for i in broken[r]] == [h.key for h in hits if h.broken], b
            formed_rows += bool(hits)
            broken_rows += any(h.broken for h in hits)
    assert formed_rows > 100 and broken_rows > 10  # the sample reaches patterns and breaks


def test_find_jin_can_guang_hui_counts_what_the_verse_allows(dataset: Path) -> None:
    """「金灿光辉 太阳单守，命在午宫是也」: 命 in 午, 太阳 there, no other major star; the
    broken ones are those with a 煞 in the Life palace (the rule sha_in_life)."""
    others = " AND ".join(f"{k} <> life_branch" for k in MAJORS if k != "tai_yang")
    verse = f"life_branch = 6 AND tai_yang = life_branch AND {others}"
    sha = " OR ".join(
        f"{k} = life_branch"
        for k in ("qing_yang", "tuo_luo", "huo_xing", "ling_xing", "di_kong", "di_jie")
    )

    def count(where: str) -> int:
        _, rows = space.query(dataset, f"SELECT count(*) FROM charts WHERE {where}")
        return int(rows[0][0])

    allowed, broken = count(verse), count(f"{verse} AND ({sha})")
    assert allowed > 0 and 0 < broken < allowed
    assert space.find(dataset, "pattern(jin_can_guang_hui)").count == allowed
    assert space.find(dataset, "pattern(金灿光辉)").count == allowed
    assert space.find(dataset, "broken(jin_can_guang_hui)").count == broken


@pytest.mark.parametrize("expr", ["pattern(jin_can_guang_hui)", "broken(jin_can_guang_hui)"])
def test_without_a_dataset_patterns_count_as_in_the_swept_one(dataset: Path, expr: str) -> None:
    """``find`` with the condition alone draws the year in memory with the same pattern
    columns as the sweep (whose count the test above checks against the verse)."""
    from .conftest import YEAR

    drawn = space.find_years(expr, YEAR, YEAR)
    swept = space.find(dataset, expr)
    assert drawn.count == swept.count > 0
    assert [(g.value, g.count) for g in drawn.groups] == [(g.value, g.count) for g in swept.groups]


@pytest.mark.parametrize(
    "expr", ["pattern(nope)", "pattern()", "pattern(jin_can_guang_hui", "pattern(zi_wei)"]
)
def test_bad_pattern_names_are_input_errors(dataset: Path, expr: str) -> None:
    with pytest.raises(InputError) as e:
        space.find(dataset, expr)
    assert e.value.field == "expr"
