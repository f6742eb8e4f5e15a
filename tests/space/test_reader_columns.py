"""The Zi Wei space's reader-facing columns: the lunar date as a calendar prints it and the
double-hour on the clock (checked against lunar-python), beside the month and day the engine
counts (``counted_month``, ``counted_day``), which part from the printed date on late-Rat and
split-leap births only (counted over one year and compared with a slow reference)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from lunar_python import Solar

from mingshu import space, ziwei
from mingshu.cycles import Branch

YEAR = 1990  # 闰五月: a leap month whose days 16 on the split setting moves


def _clock_time(time_index: int) -> tuple[int, int]:
    """A clock time inside the double-hour of ``time_index`` (12: 23:30, the late Rat)."""
    if time_index == 0:
        return 0, 30
    if time_index == 12:
        return 23, 30
    return 2 * time_index - 1, 30


def _printed(day: dt.date) -> tuple[int, int, int, bool]:
    """lunar-python's lunar date of ``day`` (a leap month is a negative month there)."""
    lunar = Solar.fromYmd(day.year, day.month, day.day).getLunar()
    return lunar.getYear(), abs(lunar.getMonth()), lunar.getDay(), lunar.getMonth() < 0


def test_printed_date_and_clock_branch_are_lunar_pythons(dataset: Path) -> None:
    _, rows = space.query(
        dataset,
        "SELECT DISTINCT solar_date, time_index, lunar_year, lunar_month, lunar_day, "
        "lunar_leap, clock_branch FROM charts ORDER BY 1, 2",
    )
    assert len(rows) == 365 * 13
    branches = {b.names.hans: int(b) for b in Branch}
    for day, index, year, month, lunar_day, leap, clock in rows:
        assert (year, month, lunar_day, leap) == _printed(day), day
        hour, minute = _clock_time(index)
        zhi = Solar.fromYmdHms(day.year, day.month, day.day, hour, minute, 0).getLunar()
        assert clock == branches[zhi.getTimeZhi()], (day, index)


def _reference_counts(settings: ziwei.ZiweiSettings) -> tuple[int, int]:
    """Slowly, from lunar-python's calendar and the settings' documented rules: the rows of
    YEAR whose counted day and whose counted month differ from the printed ones.  A late Rat
    birth (time index 12) under ``next_day`` counts the next day; under ``split`` a birth on
    day 16 or later of a leap month counts the next month, unless it is a late Rat birth."""
    next_day = settings.late_rat_hour is ziwei.LateRatHour.NEXT_DAY
    split = settings.leap_month is ziwei.LeapMonth.SPLIT
    days = months = 0
    day = dt.date(YEAR, 1, 1)
    while day.year == YEAR:
        _, _, lunar_day, leap = _printed(day)
        for index in range(13):
            late = index == 12 and next_day
            for _gender in range(2):
                days += late
                months += split and leap and lunar_day >= 16 and not late
        day += dt.timedelta(days=1)
    return days, months


SETTINGS = [
    ziwei.ZiweiSettings(),  # late Rat next day, leap month split (iztro's defaults)
    ziwei.ZiweiSettings(late_rat_hour="same_day", leap_month="whole"),
]


@pytest.mark.parametrize("settings", SETTINGS, ids=["defaults", "same-day-whole"])
def test_counted_values_part_from_the_printed_date_exactly_where_the_settings_say(
    settings: ziwei.ZiweiSettings, dataset: Path, tmp_path: Path
) -> None:
    out = dataset  # the package's 1990 sweep under the defaults
    if settings != SETTINGS[0]:
        out = tmp_path / "charts"
        space.sweep_ziwei(out, YEAR, YEAR, settings, workers=1, progress=False)
    (counts,) = space.query(
        out,
        "SELECT count(*) FILTER (counted_day <> lunar_day), "
        "count(*) FILTER (counted_month <> lunar_month), "
        "count(*) FILTER (counted_day NOT IN (lunar_day, lunar_day + 1)), "
        "count(*) FILTER (counted_month NOT IN (lunar_month, lunar_month % 12 + 1)) "
        "FROM charts",
    )[1]
    days, months = _reference_counts(settings)
    assert counts == (days, months, 0, 0)
    if settings == SETTINGS[0]:
        assert days == 365 * 2 and months > 0  # the test sees both kinds of births


def test_a_dataset_of_the_old_schema_is_read_but_never_resumed(tmp_path: Path) -> None:
    """A /1 dataset (no reader-facing columns) still opens; a sweep into it is refused
    rather than mixing partitions of two layouts."""
    import json

    from mingshu.errors import InputError
    from mingshu.space import ziwei_sweep

    out = tmp_path / "old"
    out.mkdir()
    meta = ziwei_sweep.metadata(ziwei.ZiweiSettings(), YEAR, YEAR)
    meta["schema"] = "mingshu.space.ziwei/1"
    (out / ziwei_sweep.METADATA).write_text(json.dumps(meta), "utf-8")
    assert ziwei_sweep.read_metadata(out) == meta
    with pytest.raises(InputError, match=r"holds a mingshu\.space\.ziwei/1 dataset"):
        space.sweep_ziwei(out, YEAR, YEAR, ziwei.ZiweiSettings(), workers=1, progress=False)


def test_the_library_check_names_an_old_space_rather_than_mixing_layouts(tmp_path: Path) -> None:
    import json

    from mingshu.errors import InputError
    from mingshu.library.check import SPACES, ensure_space
    from mingshu.space import ziwei_sweep

    folder = tmp_path / next(iter(SPACES))
    folder.mkdir()
    meta = ziwei_sweep.metadata(ziwei.ZiweiSettings(), YEAR, YEAR)
    meta["schema"] = "mingshu.space.ziwei/1"
    (folder / ziwei_sweep.METADATA).write_text(json.dumps(meta), "utf-8")
    with pytest.raises(InputError, match="older mingshu") as caught:
        ensure_space(tmp_path, (YEAR, YEAR), progress=False)
    assert caught.value.field == "space"


def test_find_reads_the_reader_facing_columns(dataset: Path) -> None:
    """``find`` takes the new columns: the late Rat hour is on the clock's Rat, and only a
    late-Rat birth on a 30th counts day 31 (its count is the SQL's)."""
    rat = space.find(dataset, "clock_branch = 子").count
    assert (
        rat
        == space.query(dataset, "SELECT count(*) FROM charts WHERE time_index IN (0, 12)")[1][0][0]
    )
    day_31 = space.query(
        dataset, "SELECT count(*) FROM charts WHERE lunar_day = 30 AND time_index = 12"
    )[1][0][0]
    assert day_31 > 0
    assert space.find(dataset, "counted_day = 31").count == day_31
    from mingshu.errors import InputError

    with pytest.raises(InputError, match=r"1\.\.31"):
        space.find(dataset, "counted_day = 32")
