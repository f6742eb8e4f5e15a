"""`mingshu ziwei`: the grid, its options, --json and bad input.

The grid is parsed back into its twelve palace cells and its centre (``read_grid``), and
the cells are compared with the chart the engine draws for the same input.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len
from typer.testing import CliRunner

from mingshu.cli import app
from mingshu.cycles import Branch
from mingshu.present import chart_to_dict, horoscope_to_dict
from mingshu.ziwei import NatalChart, ZiweiSettings, by_lunar, by_solar

runner = CliRunner()

# The chart of docs/iztro-rules.md §10.1: 2000-08-16, Tiger hour, female.
KNOWN = ["2000-08-16", "--time-index", "2", "--gender", "female"]


def run(*args: str, width: int = 120) -> str:
    result = runner.invoke(app, ["ziwei", *args], env={"COLUMNS": str(width)})
    assert result.exit_code == 0, result.output
    return result.stdout


# Where each branch sits: top row 巳 午 未 申, right 酉 戌, bottom 寅 丑 子 亥, left 辰 卯.
TOP = [Branch.SI, Branch.WU, Branch.WEI, Branch.SHEN]
BOTTOM = [Branch.YIN, Branch.CHOU, Branch.ZI, Branch.HAI]


def read_grid(text: str) -> tuple[dict[Branch, list[str]], list[str]]:
    """The text of each palace cell (by branch) and of the centre, line by line."""
    lines = text.rstrip("\n").split("\n")
    rules = [
        i for i, line in enumerate(lines) if line[0] in "┌└" or (line[0] == "├" and "┼" in line)
    ]
    board_end = next(
        (
            i
            for i, line in enumerate(lines)
            if line.startswith("├") and "┴┴┴" in line.replace("─", "")
        ),
        None,
    )
    if board_end is not None:  # the patterns section under the board: not palace cells
        rules = [*rules[:3], board_end]
    assert len(rules) == 4, text
    cells: dict[Branch, list[str]] = {b: [] for b in Branch}
    centre: list[str] = []
    for i in range(rules[0] + 1, rules[1]):
        for branch, part in zip(TOP, lines[i].split("│")[1:5], strict=True):
            cells[branch].append(part.strip())
    lower = False
    for i in range(rules[1] + 1, rules[2]):
        line = lines[i]
        if line[0] == "├":  # the rule between 辰/卯 and 酉/戌, through the centre
            centre.append(line.split("┤")[1].rsplit("├", 1)[0].strip())
            lower = True
            continue
        left, middle, right = line.split("│")[1:4]
        cells[Branch.MAO if lower else Branch.CHEN].append(left.strip())
        cells[Branch.XU if lower else Branch.YOU].append(right.strip())
        centre.append(middle.strip())
    for i in range(rules[2] + 1, rules[3]):
        for branch, part in zip(BOTTOM, lines[i].split("│")[1:5], strict=True):
            cells[branch].append(part.strip())
    return cells, centre


def words(lines: list[str]) -> list[str]:
    return " ".join(lines).split()


def squash(lines: list[str]) -> str:
    """Centre lines with runs of spaces made one, for matching label-value pairs."""
    return "\n".join(re.sub(r"\s+", " ", line) for line in lines)


@pytest.fixture(scope="module")
def chart() -> NatalChart:
    return by_solar("2000-08-16", 2, "female")


# ----------------------------------------------------------------------------- the grid


def test_known_chart_palaces(chart: NatalChart) -> None:
    cells, _ = read_grid(run(*KNOWN))
    life = cells[Branch.WU]
    assert "紫微庙" in words(life)
    assert "文曲陷" in words(life)
    assert life[-1].split() == ["命宫", "壬午"]
    for palace in chart.palaces:
        cell = words(cells[palace.branch])
        for placed in palace.stars:
            assert str(placed) in cell, (palace.branch, str(placed))  # e.g. 武曲得[权]
        gods = (palace.chang_sheng, palace.bo_shi, palace.jiang_qian, palace.sui_qian)
        for god in gods:
            assert god.names.hans in cell
        assert f"{palace.decadal.start}-{palace.decadal.end}" in cell
        assert [str(a) for a in palace.ages[:3]] == cell[
            cell.index(f"{palace.decadal.start}-{palace.decadal.end}") + 1 :
        ][:3]
        bottom = cells[palace.branch][-1].split()
        assert bottom[0] == palace.name.names.hans
        assert bottom[-1] == str(palace.pillar)
        assert ("身宫" in bottom) is palace.is_body
        assert ("来因" in bottom) is palace.is_original


def test_known_chart_centre() -> None:
    _, centre = read_grid(run(*KNOWN))
    text = squash(centre)
    assert "紫微斗数 命盘" in text
    assert "阳历 2000-08-16 寅时" in text
    assert "农历 二〇〇〇年七月十七 寅时" in text
    assert "四柱 庚辰 甲申 丙午 庚寅" in text
    assert "阴阳 阳女 五行局 木三局" in text
    assert "命主 破军 身主 文昌" in text
    assert "生肖 龙 星座 狮子座" in text
    assert "设置" not in text  # all settings are the defaults


def test_clock_time_in_centre_and_same_chart_as_time_index() -> None:
    by_clock = run("1987-05-16", "10:30", "--gender", "女")
    by_index = run("1987-05-16", "--time-index", "5", "-g", "female")
    assert "阳历 1987-05-16 10:30 巳时" in squash(read_grid(by_clock)[1])
    assert "阳历 1987-05-16 巳时" in squash(read_grid(by_index)[1])
    assert read_grid(by_clock)[0] == read_grid(by_index)[0]


def test_every_star_placed_once_for_other_charts() -> None:
    for args, chart in [
        (["1987-05-16", "10:30", "-g", "male"], by_solar("1987-05-16", "10:30", "male")),
        (["1990-01-27", "23:30", "-g", "female"], by_solar("1990-01-27", "23:30", "female")),
    ]:
        cells, _ = read_grid(run(*args, width=80))
        for palace in chart.palaces:
            # The stars come first, in the engine's order (a god such as 华盖 may share a
            # star's name further down).
            labels = [str(s) for s in palace.stars]
            found = [w for w in words(cells[palace.branch]) if w in set(labels)]
            assert found[: len(labels)] == labels


def test_lunar_and_leap() -> None:
    leap = by_lunar("2023-2-20", 5, "male", leap=True)
    plain = by_lunar("2023-2-20", 5, "male")
    assert leap.solar_date != plain.solar_date
    for chart, extra in ((leap, ["--leap"]), (plain, [])):
        cells, centre = read_grid(
            run("2023-2-20", "--lunar", *extra, "--time-index", "5", "-g", "男")
        )
        assert f"阳历 {chart.solar_date.isoformat()} 巳时" in squash(centre)
        assert f"农历 {chart.lunar_date.chinese()} 巳时" in squash(centre)
        assert cells[chart.life_branch][-1].split()[0] == "命宫"
        for palace in chart.palaces:
            assert {str(s) for s in palace.major_stars} <= set(words(cells[palace.branch]))
    assert "闰二月" in squash(
        read_grid(run("2023-2-20", "--lunar", "--leap", "--time-index", "5", "-g", "男"))[1]
    )


@pytest.mark.parametrize("names", ["hans", "hant", "pinyin", "english"])
def test_name_styles(chart: NatalChart, names: str) -> None:
    cells, centre = read_grid(run(*KNOWN, "--names", names))
    life = " ".join(cells[Branch.WU])
    assert getattr(chart.star("zi_wei").star.names, names) in life
    assert getattr(chart.life_palace.name.names, names) in life
    assert getattr(chart.five_elements_class.names, names) in " ".join(centre)


# ---------------------------------------------------------------------------- settings


def json_of(*args: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(run(*args, "--json"))
    return data


SETTING_CASES = [
    (
        ["2024-02-05", "10:00", "-g", "f"],
        ["--year-boundary", "spring_begins"],
        {"year_boundary": "spring_begins"},
    ),
    (
        ["2024-02-05", "10:00", "-g", "f"],
        ["--horoscope-boundary", "spring_begins"],
        {"horoscope_boundary": "spring_begins"},
    ),
    (
        ["2000-08-16", "23:30", "-g", "f"],
        ["--late-rat-hour", "same_day"],
        {"late_rat_hour": "same_day"},
    ),
    (
        ["2023-2-20", "--lunar", "--leap", "10:00", "-g", "m"],
        ["--leap-month", "whole"],
        {"leap_month": "whole"},
    ),
    (
        ["2000-08-16", "10:00", "-g", "f", "--at", "2026-03-01"],
        ["--age-count", "birthday"],
        {"age_count": "birthday"},
    ),
    (["2000-08-16", "10:00", "-g", "f"], ["--algorithm", "zhongzhou"], {"algorithm": "zhongzhou"}),
    (["2000-08-16", "10:00", "-g", "f"], ["--chart-type", "earth"], {"chart_type": "earth"}),
    (["2000-08-16", "10:00", "-g", "f"], ["--chart-type", "human"], {"chart_type": "human"}),
    (
        ["2000-08-16", "10:00", "-g", "f"],
        ["--mutagen", "庚=太阳,武曲,天府,天同"],
        {"mutagens": {"庚": ["太阳", "武曲", "天府", "天同"]}},
    ),
    (
        ["2000-08-16", "10:00", "-g", "f"],
        [
            "--brightness",
            "紫微=平,平,平,平,平,平,平,平,平,平,平,-",
            "--brightness",
            "天马=庙,庙,庙,庙,庙,庙,庙,庙,庙,庙,庙,庙",
        ],
        {"brightness": {"紫微": ["平"] * 11 + [""], "天马": ["庙"] * 12}},
    ),
]


def engine_json(args: list[str], settings: ZiweiSettings) -> dict[str, Any]:
    """What the engine gives for the CLI arguments ``args`` (as used in SETTING_CASES)."""
    date = args[0]
    rest = args[1:]
    lunar, leap = "--lunar" in rest, "--leap" in rest
    time = next(a for a in rest if ":" in a)
    gender = rest[rest.index("-g") + 1]
    chart = (
        by_lunar(date, time, gender, leap=leap, settings=settings)
        if lunar
        else by_solar(date, time, gender, settings)
    )
    data = chart_to_dict(chart)
    if "--at" in rest:
        data["horoscope"] = horoscope_to_dict(chart.horoscope(rest[rest.index("--at") + 1]))
    return data


@pytest.mark.parametrize(("args", "options", "fields"), SETTING_CASES, ids=lambda v: str(v)[:40])
def test_setting_options_change_the_chart_as_the_engine_does(
    args: list[str], options: list[str], fields: dict[str, Any]
) -> None:
    got = json_of(*args, *options)
    assert got == engine_json(args, ZiweiSettings(**fields))
    default = json_of(*args)
    assert default == engine_json(args, ZiweiSettings())
    del got["settings"], default["settings"]
    assert got != default  # the input was chosen so that the setting matters

    _, centre = read_grid(run(*args, *options))
    shown = squash(centre)
    assert "设置" in shown
    assert options[0] in shown


def test_settings_in_grid_match_the_grid_of_the_engine() -> None:
    settings = ZiweiSettings(algorithm="zhongzhou", chart_type="earth")
    chart = by_solar("2000-08-16", 2, "female", settings)
    cells, centre = read_grid(run(*KNOWN, "--algorithm", "zhongzhou", "--chart-type", "earth"))
    assert "设置 --algorithm zhongzhou --chart-type earth" in squash(centre)
    for palace in chart.palaces:
        assert cells[palace.branch][-1].split()[0] == palace.name.names.hans
        assert {str(s) for s in palace.stars} <= set(words(cells[palace.branch]))


def test_every_setting_has_its_option() -> None:
    from mingshu.options import ZIWEI

    assert {s.name for s in ZIWEI} == set(ZiweiSettings.__dataclass_fields__)
    fields = {f for f in ZiweiSettings.__dataclass_fields__} - {"mutagens", "brightness"}
    help_text = runner.invoke(app, ["ziwei", "--help"], env={"COLUMNS": "200"}).stdout
    for field in fields:
        assert f"--{field.replace('_', '-')}" in help_text
        default = getattr(ZiweiSettings(), field)
        if isinstance(default, bool):
            continue  # a flag: its name is the option
        assert f"[default: {default.value}]" in help_text
        for member in type(default):
            assert member.value in help_text  # every choice is offered


# --------------------------------------------------------------------------- horoscope


def test_at_marks_the_layers(chart: NatalChart) -> None:
    h = chart.horoscope("2026-03-01T10:00")
    cells, centre = read_grid(run(*KNOWN, "--at", "2026-03-01T10:00"))
    for layer in h.layers:
        marked = [b for b in Branch if layer.names.hans in words(cells[b])]
        assert marked == [layer.branch], layer.scope
        for star in layer.stars:
            assert star.star.names.hans in words(cells[star.branch])
    shown = squash(centre)
    assert "运限 2026-03-01 巳时 二〇二六年正月十三 虚岁 27" in shown
    for layer in h.layers:
        line = f"{layer.names.hans} {layer.pillar}"
        assert line in shown
        for mutagen, star in zip("禄权科忌", layer.mutagens, strict=True):
            assert f"[{mutagen}]{star.names.hans}" in shown
    # The current age is shown in the small-limit palace.
    assert "27" in words(cells[h.age.branch])


def test_no_marks_without_at(chart: NatalChart) -> None:
    cells, centre = read_grid(run(*KNOWN))
    assert not any("流年" in w or "运魁" in w for b in Branch for w in words(cells[b]))
    assert "运限" not in squash(centre)


# -------------------------------------------------------------------------------- json


def test_json(chart: NatalChart) -> None:
    data = json_of(*KNOWN)
    assert data == chart_to_dict(chart)
    assert "horoscope" not in data
    assert data["schema"] == "mingshu.ziwei.chart/1"
    assert data["life_branch"] == "wu"
    life = data["palaces"][Branch.WU]
    assert [s["key"] for s in life["major_stars"]] == ["zi_wei"]
    assert life["minor_stars"][0]["brightness"] == "xian"  # 文曲陷

    with_at = json_of(*KNOWN, "--at", "2026-03-01T10:00")
    assert with_at["horoscope"] == horoscope_to_dict(chart.horoscope("2026-03-01T10:00"))
    assert with_at["horoscope"]["schema"] == "mingshu.ziwei.horoscope/1"
    assert with_at["horoscope"]["nominal_age"] == 27


# ---------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["2030-02-30", "10:00", "-g", "f"], "date"),
        (["1987-13-01", "10:00", "-g", "f"], "date"),
        (["1582-12-31", "10:00", "-g", "f"], "date"),
        (["1987-05-16", "--time-index", "13", "-g", "f"], "time"),
        (["1987-05-16", "--time-index", "-1", "-g", "f"], "time"),
        (["1987-05-16", "25:00", "-g", "f"], "time"),
        (["1987-05-16", "noon", "-g", "f"], "time"),
        (["1987-05-16", "-g", "f"], "time"),
        (["1987-05-16", "10:00", "--time-index", "5", "-g", "f"], "time"),
        (["1987-05-16", "10:00", "-g", "x"], "gender"),
        (["1987-05-16", "10:00"], "gender"),
        (["2024-3-1", "10:00", "-g", "f", "--lunar", "--leap"], "leap"),
        (["2024-3-1", "10:00", "-g", "f", "--leap"], "leap"),
        (["2023-3-30", "10:00", "-g", "f", "--lunar"], "date"),
        (["1987-05-16", "10:00", "-g", "f", "--at", "1980-01-01"], "at"),
        (["1987-05-16", "10:00", "-g", "f", "--at", "2026-02-30"], "at"),
        (["1987-05-16", "10:00", "-g", "f", "--at", "soon"], "at"),
        (["1987-05-16", "10:00", "-g", "f", "--mutagen", "庚"], "mutagens"),
        (["1987-05-16", "10:00", "-g", "f", "--mutagen", "庚=太阳"], "mutagens"),
        (["1987-05-16", "10:00", "-g", "f", "--mutagen", "X=太阳,武曲,天府,天同"], "mutagens"),
        (
            [
                "1987-05-16",
                "10:00",
                "-g",
                "f",
                "--mutagen",
                "庚=太阳,武曲,天府,天同",
                "--mutagen",
                "庚=太阳,武曲,天府,天同",
            ],
            "mutagens",
        ),
        (["1987-05-16", "10:00", "-g", "f", "--brightness", "紫微=庙"], "brightness"),
        (
            ["1987-05-16", "10:00", "-g", "f", "--brightness", "紫微=" + ",".join(["好"] * 12)],
            "brightness",
        ),
    ],
)
def test_bad_input(args: list[str], field: str) -> None:
    for extra in ([], ["--json"]):
        result = runner.invoke(app, ["ziwei", *args, *extra])
        assert result.exit_code == 2, result.output
        assert result.stdout == ""
        assert result.stderr.startswith(f"error: {field}: "), result.stderr
        assert result.stderr.count("\n") == 1
        assert "Traceback" not in result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)


def test_bad_choice_is_an_error_line_naming_the_setting() -> None:
    result = runner.invoke(app, ["ziwei", "1987-05-16", "10:00", "-g", "f", "--algorithm", "x"])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: algorithm: 'x' is not one of 'quanshu', 'zhongzhou'")
    assert result.stderr.count("\n") == 1


def test_cli_width_follows_the_terminal() -> None:
    for width in (80, 120):
        for extra in ([], ["--at", "2026-03-01T10:00"], ["--names", "english"]):
            text = run(*KNOWN, *extra, width=width)
            lines = text.rstrip("\n").split("\n")
            assert {cell_len(line) for line in lines} == {4 * ((width - 5) // 4) + 5}
            read_grid(text)  # parses: twelve cells and the centre


def test_cli_import_leaves_rendering_for_later() -> None:
    # The commands take their choices from the engines' settings; Rich's console (and
    # the JSON export) load only when a command runs.
    code = "import sys, mingshu.cli; print('rich.console' in sys.modules, 'mingshu.present' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_the_grid_is_followed_by_the_notices() -> None:
    zoned = runner.invoke(
        app, ["ziwei", "1990-05-15", "11:30", "-g", "male", "--tz", "Asia/Shanghai"]
    )
    assert zoned.exit_code == 0
    assert "note (daylight_saving): 11:30 was daylight saving time" in zoned.stdout
    assert "巳时" in zoned.stdout  # 10:30 standard time
    plain = runner.invoke(app, ["ziwei", "1990-05-15", "11:30", "-g", "male"])
    assert "note (clock_as_given)" in plain.stdout and "午时" in plain.stdout
    skipped = runner.invoke(
        app, ["ziwei", "1988-04-17", "02:30", "-g", "male", "--tz", "Asia/Shanghai"]
    )
    assert skipped.exit_code == 2
    assert skipped.stderr.startswith("error: time: 1988-04-17 02:30 does not exist")


def test_svg_is_written_private(tmp_path: Path) -> None:
    import os
    import stat

    target = tmp_path / "chart.svg"
    old = os.umask(0o022)
    try:
        result = runner.invoke(
            app, ["ziwei", "1987-05-16", "10:30", "-g", "female", "--svg", str(target)]
        )
    finally:
        os.umask(old)
    assert result.exit_code == 0, result.output
    # A birth chart is personal data: a new file is 0600 whatever the umask allows (issue 20).
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert target.read_text(encoding="utf-8").startswith("<svg")
    assert [p.name for p in tmp_path.iterdir()] == ["chart.svg"]  # no temporary file left
