"""Bad input on the command line, for both chart commands: always one line
``error: <field>: <message>`` on stderr and exit code 2, never a traceback or Click's box,
and never a huge argument echoed back whole."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from typer.testing import CliRunner

from mingshu.cli import app
from mingshu.cli._errors import ECHO_LIMIT, clip, error_line
from mingshu.ziwei import ZiweiSettings

runner = CliRunner()

ZIWEI = ["ziwei", "1987-05-16", "10:30", "-g", "female"]
BAZI = ["bazi", "1990-05-15", "10:30", "-g", "male"]
# The field both engines' settings name for --late-rat-hour.
LATE_RAT = "late_rat_hour"


def invoke(args: list[str]) -> Any:
    return runner.invoke(app, args, env={"COLUMNS": "120"})


def assert_error(result: Any, field: str) -> str:
    """The run failed cleanly on ``field`` (a regular expression); returns the error line."""
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert re.match(rf"error: {field}: ", result.stderr), result.stderr[:300]
    assert result.stderr.count("\n") == 1, result.stderr
    assert "Traceback" not in result.output and "╭" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    line: str = result.stderr
    return line


# ------------------------------------------------------------------ choices as plain words

CHOICES = [
    (ZIWEI, "--year-boundary", "year_boundary"),
    (ZIWEI, "--horoscope-boundary", "horoscope_boundary"),
    (ZIWEI, "--late-rat-hour", "late_rat_hour"),
    (ZIWEI, "--leap-month", "leap_month"),
    (ZIWEI, "--age-count", "age_count"),
    (ZIWEI, "--algorithm", "algorithm"),
    (ZIWEI, "--chart-type", "chart_type"),
    (ZIWEI, "--names", "names"),
    (BAZI, "--late-rat-hour", LATE_RAT),
    (BAZI, "--start-age", "start_age"),
    (BAZI, "--stage-earth", "stage_earth"),
    (BAZI, "--stage-yin", "stage_yin"),
]


@pytest.mark.parametrize(("base", "option", "field"), CHOICES, ids=[c[1] for c in CHOICES])
def test_a_bad_choice_is_the_project_error_line(base: list[str], option: str, field: str) -> None:
    line = assert_error(invoke([*base, option, "bogus"]), field)
    assert "'bogus' is not one of" in line
    assert "\n" not in line.rstrip("\n")


def ziwei_json(*options: str) -> dict[str, Any]:
    result = invoke([*ZIWEI, "--at", "2026-11-29T10:00", "--json", *options])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


IZTRO_WORDS = [
    ("--year-boundary", "normal", "lunar_new_year"),
    ("--year-boundary", "exact", "spring_begins"),
    ("--horoscope-boundary", "normal", "lunar_new_year"),
    ("--horoscope-boundary", "exact", "spring_begins"),
    ("--late-rat-hour", "forward", "next_day"),
    ("--late-rat-hour", "current", "same_day"),
    ("--age-count", "normal", "lunar_year"),
    ("--algorithm", "default", "quanshu"),
]


@pytest.mark.parametrize(("option", "iztro", "ours"), IZTRO_WORDS)
def test_iztro_words_are_accepted(option: str, iztro: str, ours: str) -> None:
    field = option.removeprefix("--").replace("-", "_")
    assert ZiweiSettings(**{field: iztro}) == ZiweiSettings(**{field: ours})  # as documented
    assert ziwei_json(option, iztro) == ziwei_json(option, ours)
    # Help lists every accepted word, ours and iztro's.
    help_text = " ".join(invoke(["ziwei", "--help"]).stdout.split())
    assert iztro in help_text and ours in help_text


def test_bazi_help_lists_every_choice() -> None:
    from mingshu.bazi import EarthRule, LateRatHour, StartAge, YinRule

    help_text = " ".join(
        runner.invoke(app, ["bazi", "--help"], env={"COLUMNS": "200"}).stdout.split()
    )
    for enum in (LateRatHour, StartAge, EarthRule, YinRule):
        for member in enum:
            assert member.value in help_text, member


# ------------------------------------------------------------------------- --mutagen rows


@pytest.mark.parametrize(
    "row",
    [
        "丁=太阳,太阳,太阳,太阳",
        "丁=太阴,天同,天机,太阴",  # the 忌 repeats the 禄
        "丁=太阴,tai_yin,天机,巨门",  # one star by its name and by its key
    ],
)
def test_a_mutagen_row_names_four_different_stars(row: str) -> None:
    for extra in ([], ["--json"]):
        line = assert_error(invoke([*ZIWEI, "--mutagen", row, *extra]), "mutagens")
        assert "丁: 太阴" in line or "丁: 太阳" in line


def test_a_mutagen_row_of_four_stars_is_fine() -> None:
    result = invoke([*ZIWEI, "--mutagen", "丁=太阴,天同,天机,巨门", "--json"])
    assert result.exit_code == 0, result.output


def test_ziwei_settings_rejects_a_repeated_star_in_a_row() -> None:
    from mingshu.errors import InputError

    with pytest.raises(InputError):
        ZiweiSettings(mutagens={"丁": ["太阳", "太阳", "太阳", "太阳"]})


# -------------------------------------------------------------------------- bazi --star


def test_a_star_given_twice_is_an_error() -> None:
    args = [*BAZI, "--star", "wen_chang=w1", "--star", "wen_chang=w2"]
    line = assert_error(invoke(args), "star")
    assert "wen_chang is given twice" in line
    # Two different stars are fine.
    ok = invoke([*BAZI, "--star", "wen_chang=w2", "--star", "tian_yi=v1", "--json"])
    assert ok.exit_code == 0, ok.output


# ------------------------------------------------------------------------------- --at


@pytest.mark.parametrize(
    "args",
    [
        [*ZIWEI, "--at", "1987-05-15"],  # the day before
        [*ZIWEI, "--at", "1987-05-16T08:00"],  # the birth day, an earlier hour (辰 < 巳)
        [*ZIWEI, "--at", "1987-05-16 00:10"],
        ["ziwei", "1987-4-19", "10:30", "--lunar", "-g", "female", "--at", "1987-05-10"],
        ["ziwei", "1987-05-16", "--time-index", "5", "-g", "female", "--at", "1987-05-16T07:00"],
    ],
)
def test_at_before_the_birth_is_an_error(args: list[str]) -> None:
    for extra in ([], ["--json"]):
        line = assert_error(invoke([*args, *extra]), "at")
        assert "before the birth" in line


@pytest.mark.parametrize("at", ["1987-05-16", "1987-05-16T09:00", "1987-05-16T10:30", "1987-05-17"])
def test_at_from_the_birth_on_is_fine(at: str) -> None:
    # 09:00 is in the birth's own 巳 hour; a date alone on the birth day is that day.
    result = invoke([*ZIWEI, "--at", at, "--json"])
    assert result.exit_code == 0, result.output


# ---------------------------------------------------------------------- huge arguments

HUGE = 100_000
HUGE_CASES = [
    (["ziwei", "Ж" * HUGE, "10:30", "-g", "f"], "date"),
    (["ziwei", "1" * HUGE, "10:30", "-g", "f"], "date"),
    (["ziwei", "1987-05-16", "Ж" * HUGE, "-g", "f"], "time"),
    (["ziwei", "1987-05-16", "1" * HUGE, "-g", "f"], "time"),
    (["ziwei", "1987-05-16", "10:30", "-g", "Ж" * HUGE], "gender"),
    (["ziwei", "1987-05-16", "10:30", "-g", "Ж " * (HUGE // 2)], "gender"),
    (["ziwei", "1987-05-16", "-g", "f", "--time-index", "1" * HUGE], "time"),
    ([*ZIWEI, "--at", "Ж" * HUGE], "at"),
    ([*ZIWEI, "--mutagen", "Ж" * HUGE], "mutagens"),
    ([*ZIWEI, "--mutagen", "庚=" + "Ж" * HUGE], "mutagens"),
    ([*ZIWEI, "--mutagen", "Ж" * HUGE + "=太阳,武曲,天府,天同"], "mutagens"),
    ([*ZIWEI, "--mutagen", "庚=太阳,武曲,天府," + "Ж" * HUGE], "mutagens"),
    ([*ZIWEI, "--brightness", "紫微=" + "庙," * 11 + "Ж" * HUGE], "brightness"),
    ([*ZIWEI, "--late-rat-hour", "Ж" * HUGE], "late_rat_hour"),
    ([*ZIWEI, "--names", "Ж" * HUGE], "names"),
    (["bazi", "Ж" * HUGE, "10:30", "-g", "m"], "date"),
    (["bazi", "1990-05-15", "Ж" * HUGE, "-g", "m"], "time"),
    (["bazi", "1990-05-15", "10:30", "-g", "Ж" * HUGE], "gender"),
    ([*BAZI, "--tz", "Ж" * HUGE], "tz"),
    ([*BAZI, "--tz", "Asia/" + "Ж" * HUGE], "tz"),
    ([*BAZI, "--star", "Ж" * HUGE], "star"),
    ([*BAZI, "--star", "Ж" * HUGE + "=w1"], "star_variants"),
    ([*BAZI, "--star", "wen_chang=" + "Ж" * HUGE], "star_variants"),
    ([*BAZI, "--star", "wen_chang=w1", "--star", "Ж" * HUGE + "=w1"], "star_variants"),
    ([*BAZI, "--late-rat-hour", "Ж" * HUGE], LATE_RAT),
    ([*BAZI, "--longitude", "Ж" * HUGE], "longitude"),
    ([*BAZI, "--fold", "1" * HUGE], "fold"),
    ([*BAZI, "--year", "Ж" * HUGE], "year"),
]


@pytest.mark.parametrize(("args", "field"), HUGE_CASES, ids=lambda v: str(v)[:48])
def test_a_huge_argument_is_echoed_at_most_80_characters_long(args: list[str], field: str) -> None:
    line = assert_error(invoke(args), field)
    longest = max((len(m) for m in re.findall(r"[Ж1]+|(?:Ж )+", line)), default=0)
    assert longest <= ECHO_LIMIT, line[:300]
    assert len(line) < 4 * ECHO_LIMIT + 200, len(line)


def test_clip_and_error_line() -> None:
    assert clip("a" * 80) == "a" * 80
    assert clip("a" * 81) == "a" * 79 + "…"
    value = "x\x00" * 1000
    line = error_line("date", f"{value!r} is not a date", [value])
    assert "\\x00x\\x00" in line and len(line) < 120  # the repr form is clipped too
    assert (
        error_line("date", "short 'value' stays", ["value"]) == "error: date: short 'value' stays"
    )


# ------------------------------------------------------------------------ fuzz: no crash

ODD = [
    "",
    " ",
    "Ж",
    "\x00",
    "1987-05-16\x00",
    "😀",
    "\u200b",
    "-1",
    "0",
    "12",
    "13",
    "99999999999999999999999",
    "-99999999999999999999999",
    "1e308",
    "-1e308",
    "nan",
    "inf",
    "0x10",
    "=",
    "==,,",
    "庚=",
    "紫微=,,,,,,,,,,,",
    "wen_chang=",
    "2024-02-30",
    "0000-00-00",
    "9999-12-31",
    "23:60",
    "24:00",
    "-0:30",
    "x" * 5000,
]

ZIWEI_OPTIONS = [
    "--gender",
    "--time-index",
    "--at",
    "--tz",
    "--longitude",
    "--fold",
    "--year-boundary",
    "--horoscope-boundary",
    "--late-rat-hour",
    "--leap-month",
    "--age-count",
    "--algorithm",
    "--chart-type",
    "--mutagen",
    "--brightness",
    "--names",
]
BAZI_OPTIONS = [
    "--gender",
    "--tz",
    "--longitude",
    "--fold",
    "--late-rat-hour",
    "--start-age",
    "--stage-earth",
    "--stage-yin",
    "--star",
    "--luck-steps",
    "--year",
]


def fuzz_cases() -> list[list[str]]:
    cases = []
    for value in ODD:
        cases.append(["ziwei", value, "10:30", "-g", "f"])
        cases.append(["ziwei", "1987-05-16", value, "-g", "f"])
        cases.append(["ziwei", value, "10:30", "-g", "f", "--lunar"])
        cases.append(["bazi", value, "10:30", "-g", "m"])
        cases.append(["bazi", "1990-05-15", value, "-g", "m"])
        cases.extend(["ziwei", "1987-05-16", "-g", "f", o, value] for o in ZIWEI_OPTIONS)
        cases.extend([*BAZI, o, value] for o in BAZI_OPTIONS)
    return cases


def check_clean(result: Any) -> None:
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    if result.exit_code != 0:
        assert result.exit_code == 2, result.output[-500:]
        assert result.stdout == ""
        assert re.fullmatch(r"error: [a-z_]+: [^\n]+\n", result.stderr), result.stderr[:500]


@pytest.mark.parametrize("value", ODD, ids=range(len(ODD)))
def test_odd_values_give_a_chart_or_an_error_line(value: str) -> None:
    for args in fuzz_cases():
        if value not in args:
            continue
        result = invoke(args)
        try:
            check_clean(result)
        except AssertionError as e:
            raise AssertionError(f"{[clip(a, 40) for a in args]}: {e}") from None


def test_click_usage_errors_are_error_lines() -> None:
    assert_error(invoke(["nope"]), "command")
    assert_error(invoke(["ziwei"]), "date")
    assert_error(invoke(["bazi", "1990-05-15", "10:30"]), "gender")
    assert_error(invoke([*ZIWEI, "--no-such"]), "option")
    assert_error(invoke([*ZIWEI, "--at"]), "at")
    assert_error(invoke([*ZIWEI, "surplus"]), "arguments")
    assert_error(invoke(["ziwei", "1987-05-16", "-g", "f", "--time-index", "five"]), "time")
    assert_error(invoke([*BAZI, "--year", "2025", "--year", "next"]), "year")
    assert_error(invoke([*BAZI, "--luck-steps", "1.5"]), "luck_steps")


def test_readme_error_examples_are_what_the_cli_prints() -> None:
    from pathlib import Path

    readme = (Path(__file__).parent.parent.parent / "README.md").read_text(encoding="utf-8")
    readme = " ".join(readme.split())
    examples = [
        (["ziwei", "2030-02-30", "10:30", "-g", "f"], "date"),
        ([*ZIWEI, "--mutagen", "丁=太阳,太阳,天机,巨门"], "mutagens"),
        ([*ZIWEI, "--at", "1987-05-16T08:00"], "at"),
    ]
    for args, field in examples:
        line = assert_error(invoke(args), field).strip()
        assert f"`{line}`" in readme, line
