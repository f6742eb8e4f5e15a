"""The one table of setting options (mingshu.options) against the settings types, and the
commands built from it: no front end may drift from the settings (issue 20, "One source for
every option")."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from mingshu import bazi, ziwei
from mingshu.cli import app
from mingshu.errors import InputError
from mingshu.options import BAZI, ZIWEI, Choice, Flag, Pairs, Setting
from mingshu.present import chart_to_dict

runner = CliRunner()

TYPES: list[tuple[tuple[Setting, ...], Any]] = [
    (ZIWEI, ziwei.ZiweiSettings),
    (BAZI, bazi.BaziSettings),
]


def _offered(settings_type: Any, name: str) -> set[str]:
    """The words the settings type itself lists when it refuses a word."""
    with pytest.raises(InputError) as caught:
        settings_type(**{name: "no_such_word"})
    assert caught.value.field == name
    return set(re.findall(r"'([a-z_0-9]+)'", caught.value.message.split(" is not ", 1)[1]))


@pytest.mark.parametrize(("table", "settings_type"), TYPES)
def test_each_choice_has_the_types_words_aliases_and_default(
    table: tuple[Setting, ...], settings_type: Any
) -> None:
    default = settings_type()
    for s in table:
        value = getattr(default, s.name)
        if isinstance(s, Choice):
            assert getattr(value, "value", value) == s.default, s.name
            if s.name == "si_ling":  # a plain string field: its message names the words
                with pytest.raises(InputError, match="sanming or tyme4py"):
                    settings_type(si_ling="x")
                assert s.words == ("sanming", "tyme4py")
                continue
            assert s.words == tuple(m.value for m in type(value)), s.name
            assert _offered(settings_type, s.name) == {*s.words, *dict(s.aliases)}, s.name
            for alias, word in s.aliases:
                assert getattr(settings_type(**{s.name: alias}), s.name).value == word
            for school, word in s.school_defaults:
                assert getattr(settings_type(school=school), s.name).value == word
        elif isinstance(s, Flag):
            assert value is s.default, s.name


def test_every_zi_wei_field_is_in_the_table() -> None:
    assert {s.name for s in ZIWEI} == set(ziwei.ZiweiSettings.__dataclass_fields__)
    assert {s.name for s in ZIWEI if isinstance(s, Pairs)} == {"mutagens", "brightness"}


def test_every_bazi_word_or_flag_field_is_in_the_table() -> None:
    own = {"star_variants", "star_bases", "luck_steps", "profile"}  # the command's own
    derived = {"variant_ids", "bases_chosen"}
    fields = set(bazi.BaziSettings.__dataclass_fields__) - own - derived
    assert {s.name for s in BAZI} == fields


# Births where a setting shows (docs/ziwei-settings.md "Each setting at work", and
# 2023-04-10, 闰二月二十, and 2023-03-25, 闰二月初四, for the leap month).
BIRTHS = [
    ("2024-02-05", 6, "male"),
    ("1990-01-27", 12, "male"),
    ("2023-04-10", 5, "male"),
    ("2023-03-25", 5, "male"),
    ("2000-08-16", 2, "female"),
]


def _natal(settings: ziwei.ZiweiSettings) -> list[dict[str, Any]]:
    out = []
    for birth in BIRTHS:
        data = chart_to_dict(ziwei.chart(*birth, settings=settings))
        del data["settings"]  # the chart names its settings: compare what they do
        out.append(data)
    return out


def test_natal_marks_exactly_the_settings_that_change_a_natal_chart() -> None:
    plain = _natal(ziwei.ZiweiSettings())
    for s in ZIWEI:
        if isinstance(s, Choice):
            for word in s.words:
                if word == s.default or (s.name == "school" and word == "quanshu"):
                    continue
                changed = _natal(ziwei.ZiweiSettings(**{s.name: word})) != plain
                assert changed is s.natal, (s.name, word)
    quanshu = ziwei.ZiweiSettings(school="quanshu")
    assert _natal(quanshu) != plain
    swapped = ziwei.ZiweiSettings(mutagens={"庚": ["太阳", "武曲", "天府", "天同"]})
    assert _natal(swapped) != plain
    dim = ziwei.ZiweiSettings(brightness={"紫微": ["陷"] * 12})
    assert _natal(dim) != plain


# ----------------------------------------------------------------------------- sweep


def _swept_settings(monkeypatch: pytest.MonkeyPatch, *options: str) -> ziwei.ZiweiSettings:
    """The settings `mingshu sweep ziwei` hands to the sweep (which is not run)."""
    from mingshu import space

    seen: list[ziwei.ZiweiSettings] = []

    def fake(out: str, first: int, last: int, settings: Any, **_: Any) -> None:
        seen.append(settings)
        raise InputError("fake", "stopped before sweeping")

    monkeypatch.setattr(space, "sweep_ziwei", fake)
    args = ["sweep", "ziwei", "--from", "2000", "--to", "2000", "--out", "x", *options]
    result = runner.invoke(app, args)
    assert "error: fake:" in result.stderr, result.output
    return seen[0]


def test_sweep_keeps_an_explicit_split_leap_month_under_the_quanshu_school(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    got = _swept_settings(monkeypatch, "--school", "quanshu", "--leap-month", "split")
    assert got == ziwei.ZiweiSettings(school="quanshu", leap_month="split")
    assert got.leap_month is ziwei.LeapMonth.SPLIT


def test_sweep_leaves_the_quanshu_leap_month_to_the_school(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    got = _swept_settings(monkeypatch, "--school", "quanshu")
    assert got.leap_month is ziwei.LeapMonth.NEXT


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        (["--horoscope-boundary", "spring_begins"], {"horoscope_boundary": "spring_begins"}),
        (["--horoscope-boundary", "exact"], {"horoscope_boundary": "spring_begins"}),
        (["--chart-type", "earth"], {"chart_type": "earth"}),
        (["--late-rat-hour", "current"], {"late_rat_hour": "same_day"}),
        (["--algorithm", "default"], {"algorithm": "quanshu"}),
        (
            ["--mutagen", "甲=太阳,武曲,天府,天同"],
            {"mutagens": {"甲": ["太阳", "武曲", "天府", "天同"]}},
        ),
        (["--brightness", "紫微=" + ",".join(["陷"] * 12)], {"brightness": {"紫微": ["陷"] * 12}}),
    ],
)
def test_every_natal_setting_is_a_sweep_option(
    monkeypatch: pytest.MonkeyPatch, options: list[str], expected: dict[str, Any]
) -> None:
    assert _swept_settings(monkeypatch, *options) == ziwei.ZiweiSettings(**expected)


def test_sweep_refuses_a_setting_only_horoscopes_use() -> None:
    args = ["sweep", "ziwei", "--from", "2000", "--to", "2000", "--out", "x"]
    result = runner.invoke(app, [*args, "--age-count", "birthday"])
    assert result.exit_code == 2
    assert "--age-count" in result.stderr


# ----------------------------------------------------------------------------- ziwei


def test_ziwei_takes_iztros_words(tmp_path: Path) -> None:
    birth = ["1990-01-27", "23:30", "-g", "male", "--json"]
    iztro = runner.invoke(app, ["ziwei", *birth, "--late-rat-hour", "current"])
    ours = runner.invoke(app, ["ziwei", *birth, "--late-rat-hour", "same_day"])
    assert iztro.exit_code == ours.exit_code == 0
    assert json.loads(iztro.stdout) == json.loads(ours.stdout)


@pytest.mark.parametrize(
    "option",
    [
        ["--school", "quanshu"],
        ["--fold", "1"],
        ["--no-equation-of-time"],
        ["--names", "hant"],
        ["--svg-layout", "column"],
        ["--algorithm", "zhongzhou"],
        ["--leap-month", "split"],  # the default word, given: still not for --batch
        ["--true-solar-time"],
    ],
)
def test_batch_refuses_every_chart_option_naming_it(tmp_path: Path, option: list[str]) -> None:
    source = tmp_path / "in.jsonl"
    source.write_text('{"date": "2000-8-16", "time": 2, "gender": "女"}\n', encoding="utf-8")
    result = runner.invoke(app, ["ziwei", "--batch", str(source), *option])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith("error: batch: ")
    assert f"{option[0]} does not go with --batch" in result.stderr


KNOWN = ["2000-08-16", "--time-index", "2", "-g", "female"]


@pytest.mark.parametrize(
    ("options", "field"),
    [
        (["--svg-layout", "column"], "svg_layout"),  # no --svg
        (["--names", "hant", "--json"], "names"),  # --json has no names to choose
        (["--no-equation-of-time"], "equation_of_time"),  # no --true-solar-time
        (["--fold", "1"], "fold"),  # no --tz
        (["--svg", ""], "svg"),
    ],
)
def test_an_option_that_changes_nothing_is_refused(options: list[str], field: str) -> None:
    result = runner.invoke(app, ["ziwei", *KNOWN, *options])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"error: {field}: "), result.stderr
    assert "Device or resource busy" not in result.stderr


def test_bazi_leap_without_lunar_names_the_cli_options() -> None:
    result = runner.invoke(app, ["bazi", "2023-3-22", "10:00", "-g", "male", "--leap"])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: leap: ")
    assert "--lunar" in result.stderr
    assert "lunar=True" not in result.stderr


def test_bazi_takes_iztros_late_rat_words() -> None:
    birth = ["1990-01-27", "23:30", "-g", "male", "--json"]
    iztro = runner.invoke(app, ["bazi", *birth, "--late-rat-hour", "current"])
    ours = runner.invoke(app, ["bazi", *birth, "--late-rat-hour", "same_day"])
    assert iztro.exit_code == ours.exit_code == 0
    assert json.loads(iztro.stdout) == json.loads(ours.stdout)


# --------------------------------------------------------------------- repeated options


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["ziwei", *KNOWN, "--tz", "Asia/Shanghai", "--tz", "Europe/Zurich"], "tz"),
        (["ziwei", "2000-08-16", "--time-index", "2", "-g", "female", "-g", "male"], "gender"),
        (["ziwei", *KNOWN, "--gender", "male"], "gender"),
        (["ziwei", *KNOWN, "--longitude", "116", "--longitude", "8"], "longitude"),
        (["ziwei", *KNOWN, "--school", "iztro", "--school", "quanshu"], "school"),
        (["ziwei", *KNOWN, "--lunar", "--lunar"], "lunar"),
        (["bazi", "2000-08-16", "10:00", "-g", "f", "--tz", "UTC", "--tz", "Asia/Tokyo"], "tz"),
        (
            [
                "bazi",
                "2000-08-16",
                "10:00",
                "-g",
                "f",
                "--true-solar-time",
                "--longitude",
                "116",
                "--equation-of-time",
                "--no-equation-of-time",
            ],
            "equation_of_time",
        ),
        (["sweep", "ziwei", "--from", "2000", "--from", "2001", "--to", "2001"], "from"),
    ],
)
def test_an_option_given_twice_is_an_error(args: list[str], field: str) -> None:
    """One rule: as --mutagen naming a stem twice is an error, so is any one-value option
    given twice (Click kept the last one silently)."""
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"error: {field}: "), result.stderr
    assert "more than once" in result.stderr


def test_repeatable_options_still_repeat() -> None:
    mutagens = ["--mutagen", "庚=太阳,武曲,天府,天同", "--mutagen", "甲=廉贞,破军,武曲,太阳"]
    assert runner.invoke(app, ["ziwei", *KNOWN, *mutagens, "--json"]).exit_code == 0
    years = ["--year", "2020", "--year", "2021", "--json"]
    result = runner.invoke(app, ["bazi", "2000-08-16", "10:00", "-g", "f", *years])
    assert result.exit_code == 0
    assert [a["year"] for a in json.loads(result.stdout)["annual"]] == [2020, 2021]
