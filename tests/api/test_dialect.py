"""Both engines speak one dialect: the same entry points, argument names, chart kind,
settings naming, birth type and error type."""

from __future__ import annotations

import dataclasses
import inspect
import subprocess
import sys
from pathlib import Path

import pytest

from mingshu import bazi, ziwei
from mingshu.errors import InputError
from mingshu.ziwei import tables

HERE = Path(__file__).parent


def test_the_entry_points_take_the_same_arguments_in_the_same_order() -> None:
    z = list(inspect.signature(ziwei.chart).parameters)
    b = list(inspect.signature(bazi.chart).parameters)
    assert (
        z
        == b
        == [
            "birth_date",
            "birth_time",
            "gender",
            "tz",
            "longitude",
            "fold",
            "lunar",
            "leap",
            "settings",
        ]
    )
    assert list(inspect.signature(ziwei.from_birth).parameters) == ["birth", "settings"]
    assert list(inspect.signature(bazi.from_birth).parameters) == ["birth", "settings"]


def test_both_charts_and_settings_are_frozen_dataclasses() -> None:
    for kind in (ziwei.NatalChart, bazi.Chart, ziwei.ZiweiSettings, bazi.BaziSettings):
        assert dataclasses.is_dataclass(kind)
        assert kind.__dataclass_params__.frozen  # type: ignore[attr-defined]
    c = ziwei.chart("1987-05-16", "10:30", "female")
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.life_branch = c.body_branch  # type: ignore[misc]


def test_shared_settings_have_the_same_names() -> None:
    z = {f.name for f in dataclasses.fields(ziwei.ZiweiSettings)}
    b = {f.name for f in dataclasses.fields(bazi.BaziSettings)}
    assert {"late_rat_hour", "true_solar_time", "equation_of_time"} <= z & b
    assert ziwei.ZiweiSettings(late_rat_hour="same_day").late_rat_hour.value == "same_day"
    assert bazi.BaziSettings(late_rat_hour="same_day").late_rat_hour.value == "same_day"
    # iztro's own words, where the docs say they are accepted.
    assert ziwei.ZiweiSettings(late_rat_hour="forward") == ziwei.ZiweiSettings()
    assert ziwei.ZiweiSettings(year_boundary="exact").year_boundary.value == "spring_begins"
    assert ziwei.ZiweiSettings(algorithm="default") == ziwei.ZiweiSettings()
    assert ziwei.ZiweiSettings(age_count="normal") == ziwei.ZiweiSettings()
    assert ziwei.ZiweiSettings(leap_month=False).leap_month.value == "whole"
    assert bazi.BaziSettings(late_rat_hour="forward") == bazi.BaziSettings()


def test_by_solar_and_by_lunar_are_aliases_of_chart() -> None:
    assert ziwei.by_solar("1987-05-16", "10:30", "female") == ziwei.chart(
        "1987-05-16", "10:30", "female"
    )
    assert ziwei.by_lunar("2023-2-20", "10:00", "male", leap=True) == ziwei.chart(
        "2023-2-20", "10:00", "male", lunar=True, leap=True
    )


def _mypy(path: Path) -> tuple[str, int]:
    # In a child process: mypy raises the recursion limit of the process it runs in.
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--no-incremental",
            "--cache-dir=/dev/null",
            str(path),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    return done.stdout + done.stderr, done.returncode


def test_documented_user_code_type_checks_under_mypy_strict() -> None:
    out, status = _mypy(HERE / "typed" / "user_code.py")
    assert status == 0, out


def test_a_typo_in_user_code_is_caught_by_mypy(tmp_path: Path) -> None:
    """The check above can fail: a setting value that does not exist is a type error."""
    code = tmp_path / "typo.py"
    code.write_text('from mingshu import ziwei\nziwei.ZiweiSettings(late_rat_hour="tomorrow")\n')
    out, status = _mypy(code)
    assert status == 1 and "late_rat_hour" in out, out


def test_the_star_catalogue_is_read_only() -> None:
    en = ziwei.star("en_guang")
    with pytest.raises(TypeError):
        en.place["by"] = "month"  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        en.key = "x"  # type: ignore[misc]
    # A chart drawn after the attempt is unchanged: the rule still counts by day.
    assert en.place["by"] == "day"


def test_star_lookup_takes_any_name_form() -> None:
    for name in ("zi_wei", "紫微", "Zi Wei", "zi wei", "Emperor", "ziweiMaj"):
        assert ziwei.star(name).key == "zi_wei"
    assert bazi.star("文昌贵人").key == "wen_chang"
    with pytest.raises(InputError):
        ziwei.star("Tian Fu")  # pinyin shared by 天府 and 天福: never guessed


@pytest.mark.parametrize("key", ["chang_sheng", "bo_shi", "jiang_qian", "sui_qian"])
def test_the_god_cycles_run_as_chart_toml_says(key: str) -> None:
    """Each cycle's first god sits where its ``start`` says, and the next god one palace on
    in its ``direction`` (forward, or by the year's polarity and the gender)."""
    cycle = tables.CYCLES[key]
    field = {"chang_sheng": "chang_sheng", "bo_shi": "bo_shi"}.get(key, key)
    for date, gender in [("1987-05-16", "female"), ("1990-01-27", "male"), ("2001-03-03", "male")]:
        c = ziwei.chart(date, "10:30", gender)
        start = {
            "five_elements_class": c.five_elements_class.chang_sheng,
            "lu_cun": c.star("lu_cun").branch,
            "jiang_xing": cycle.jiang_xing[c.god_year.branch] if cycle.jiang_xing else None,
            "year_branch": c.god_year.branch,
        }[cycle.start]
        assert start is not None
        forward = c.year.branch.polarity is c.birth.gender.polarity
        step = 1 if cycle.direction == "forward" or forward else -1
        assert getattr(c.palace_at(start), field).key == cycle.gods[0].key
        assert getattr(c.palace_at(start.next(step)), field).key == cycle.gods[1].key
