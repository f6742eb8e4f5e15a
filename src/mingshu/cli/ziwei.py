"""``mingshu ziwei DATE [TIME] --gender …``: a Zi Wei Dou Shu chart as a grid or as JSON.

Example::

    mingshu ziwei 1987-05-16 10:30 --gender female
    mingshu ziwei 2023-2-20 --lunar --leap --time-index 5 --gender 男 --at 2026-03-01T10:00
    mingshu ziwei 1987-05-16 10:30 -g female --algorithm zhongzhou --json

The grid is the usual 4×4 board: the twelve palaces around the border (巳 午 未 申 on top,
寅 丑 子 亥 at the bottom), the birth data in the middle.  Its width follows the terminal.
Bad input prints ``error: <field>: <message>`` on stderr and exits with code 2.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any, Final

import typer

from mingshu.cli._birth import EquationOfTime, Fold, Leap, Longitude, Lunar, TrueSolarTime

if TYPE_CHECKING:
    from mingshu.ziwei import Horoscope, NatalChart, ZiweiSettings

__all__ = ["register", "ziwei"]


def register(app: typer.Typer) -> None:
    app.command("ziwei")(ziwei)


# How the grid names things (a display choice of the command, not a chart setting).
class _NameStyle(StrEnum):
    HANS = "hans"
    HANT = "hant"
    PINYIN = "pinyin"
    ENGLISH = "english"


_SETTING_OPTIONS: Final = (
    "year_boundary",
    "horoscope_boundary",
    "late_rat_hour",
    "leap_month",
    "age_count",
    "algorithm",
    "chart_type",
    "school",
)
# Yes/no settings: a flag each (their --help shows no choices).
_FLAG_OPTIONS: Final = ("true_solar_time", "equation_of_time")


def ziwei(
    ctx: typer.Context,
    birth_date: Annotated[
        str | None,
        typer.Argument(metavar="DATE", help="Birth date, YYYY-MM-DD (solar; lunar with --lunar)."),
    ] = None,
    birth_time: Annotated[
        str | None,
        typer.Argument(
            metavar="TIME",
            help="Clock time HH:MM (23:00-23:59 is the late Rat hour); or use --time-index.",
        ),
    ] = None,
    gender: Annotated[
        str | None, typer.Option("--gender", "-g", help="female or male (also 女 / 男).")
    ] = None,
    lunar: Lunar = False,
    leap: Leap = False,
    time_index: Annotated[
        int | None,
        typer.Option(
            "--time-index",
            help="Birth hour as a time index instead of TIME: 0 early Rat (00-01), "
            "1 Ox (01-03) … 11 Pig (21-23), 12 late Rat (23-24).",
        ),
    ] = None,
    at: Annotated[
        str | None,
        typer.Option(
            "--at",
            metavar="DATETIME",
            help="Also read the horoscope (运限) for YYYY-MM-DD or YYYY-MM-DDTHH:MM: "
            "mark the layers' palaces and flowing stars.",
        ),
    ] = None,
    # The settings are plain words here, coerced (and checked) by ZiweiSettings inside the
    # command: the engine is not imported to build --help, and a bad word is an InputError.
    tz: Annotated[
        str | None,
        typer.Option(
            "--tz",
            help="IANA time zone of the clock time (e.g. Asia/Shanghai): daylight saving is "
            "removed, skipped times are errors. Without it the clock time is used as given.",
        ),
    ] = None,
    longitude: Longitude = None,
    fold: Fold = 0,
    true_solar_time: TrueSolarTime = False,
    equation_of_time: EquationOfTime = True,
    year_boundary: Annotated[
        str,
        typer.Option(
            metavar="WORD",
            help="Where the birth year begins (palace stems, 四化): lunar_new_year (正月初一; "
            "iztro normal) or spring_begins (立春; iztro exact).",
        ),
    ] = "lunar_new_year",
    horoscope_boundary: Annotated[
        str,
        typer.Option(
            metavar="WORD",
            help="Where the year begins for horoscopes, yearly gods and year stars: "
            "lunar_new_year (iztro normal) or spring_begins (iztro exact).",
        ),
    ] = "lunar_new_year",
    late_rat_hour: Annotated[
        str,
        typer.Option(
            metavar="WORD",
            help="A birth at 23:00-24:00 counts as the next_day (iztro forward) "
            "or the same_day (iztro current).",
        ),
    ] = "next_day",
    leap_month: Annotated[
        str,
        typer.Option(
            metavar="WORD",
            help="Leap-month births: split at day 16 (iztro fixLeap true), "
            "the whole month as the last (fixLeap false), or as the next (全书). "
            "With --school quanshu and no --leap-month: next.",
        ),
    ] = "split",
    age_count: Annotated[
        str,
        typer.Option(
            metavar="WORD",
            help="Horoscope age: lunar_year, +1 at each lunar new year (虚岁; iztro normal), "
            "or birthday.",
        ),
    ] = "lunar_year",
    algorithm: Annotated[
        str,
        typer.Option(
            metavar="WORD",
            help="Star rules: quanshu (紫微斗数全书; iztro default) or zhongzhou (中州派).",
        ),
    ] = "quanshu",
    chart_type: Annotated[
        str,
        typer.Option(
            metavar="WORD",
            help="heaven (天盘), earth (地盘: 身宫 as 命宫) or human (人盘: 福德 as 命宫).",
        ),
    ] = "heaven",
    school: Annotated[
        str,
        typer.Option(
            metavar="WORD",
            help="Whose reading: iztro (iztro 2.6.0, default) or quanshu (紫微斗数全书 卷二 "
            "where iztro departs; docs/book-conformance.md). Not --algorithm.",
        ),
    ] = "iztro",
    mutagen: Annotated[
        list[str] | None,
        typer.Option(
            "--mutagen",
            metavar="STEM=禄,权,科,忌",
            help="Replace the 四化 of a year stem, e.g. 庚=太阳,武曲,天府,天同 (repeatable).",
        ),
    ] = None,
    brightness: Annotated[
        list[str] | None,
        typer.Option(
            "--brightness",
            metavar="STAR=G,…",
            help="Replace a star's brightness: 12 grades (庙 旺 得 利 平 不 陷, or - for "
            "none) for 子 丑 … 亥, e.g. 紫微=平,庙,… (repeatable).",
        ),
    ] = None,
    as_json: Annotated[
        bool,
        typer.Option("--json", help="Print the chart (and horoscope) as JSON, docs/ziwei-json.md."),
    ] = False,
    names: Annotated[
        _NameStyle, typer.Option("--names", help="Names in the grid.")
    ] = _NameStyle.HANS,
    svg: Annotated[
        str | None,
        typer.Option(
            "--svg",
            metavar="FILE",
            help="Write the chart (and horoscope) as an SVG board to FILE (- for standard "
            "output) instead of printing the grid.",
        ),
    ] = None,
    svg_layout: Annotated[
        str,
        typer.Option(
            "--svg-layout",
            metavar="WORD",
            help="With --svg: board (the 4×4 board) or column (one palace a row, for a phone).",
        ),
    ] = "board",
    batch: Annotated[
        str | None,
        typer.Option(
            "--batch",
            metavar="IN.jsonl",
            help="Chart every line of IN.jsonl (- for standard input; the iztro oracle's "
            "fields: date, time, gender, by, leap, fix_leap, horoscope, …) to one JSON line "
            "each, in order; a bad line gives an error line and the run goes on.",
        ),
    ] = None,
    analysis: Annotated[
        bool,
        typer.Option(
            "--analysis",
            help="With --batch: add each palace's 三方四正, 夹宫, 飞化 and 自化 by branch.",
        ),
    ] = False,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            metavar="LANG",
            help="Name the chart's stars, palaces, grades … in zh-CN, zh-TW, en-US, ja-JP, "
            'ko-KR, vi-VN or pinyin: in the grid (instead of --names), or as "locale" '
            "added to --json and --batch output.",
        ),
    ] = None,
    out: Annotated[
        str | None,
        typer.Option(
            "--out", metavar="FILE", help="With --batch: write to FILE (whole or not at all)."
        ),
    ] = None,
) -> None:
    """A Zi Wei Dou Shu chart (紫微斗数命盘): the twelve palaces with their stars, gods,
    decades and small limits, around the birth data."""
    from mingshu.cli._errors import fail
    from mingshu.errors import InputError

    if batch is not None or analysis or out is not None:
        from mingshu.cli.ziwei_batch import batch_command

        # Each line brings its own birth and settings: an option here would be ignored.
        given = {
            "--gender": gender is not None,
            "--lunar": lunar,
            "--leap": leap,
            "--time-index": time_index is not None,
            "--at": at is not None,
            "--tz": tz is not None,
            "--longitude": longitude is not None,
            "--true-solar-time": true_solar_time,
            "--year-boundary": year_boundary != "lunar_new_year",
            "--horoscope-boundary": horoscope_boundary != "lunar_new_year",
            "--late-rat-hour": late_rat_hour != "next_day",
            "--leap-month": leap_month != "split",
            "--age-count": age_count != "lunar_year",
            "--algorithm": algorithm != "quanshu",
            "--chart-type": chart_type != "heaven",
            "--mutagen": bool(mutagen),
            "--brightness": bool(brightness),
            "--json": as_json,
            "--svg": svg is not None,
        }
        for option, used in given.items():
            if used and batch is not None:
                fail(
                    InputError(
                        "batch",
                        f"{option} does not go with --batch: each line gives its birth and "
                        "settings (date, time, gender, by, leap, fix_leap, astro_type, config)",
                    )
                )
        batch_command(batch, birth_date, birth_time, analysis=analysis, out=out, lang=lang)
        return
    if lang is not None and not as_json:
        if svg is not None:
            fail(InputError("lang", "the SVG board names things by --names, not --lang"))
        names_source = ctx.get_parameter_source("names")
        if names_source is not None and names_source.name != "DEFAULT":
            fail(InputError("lang", "the grid takes --names or --lang, not both"))
    if birth_date is None:
        fail(InputError("date", "missing: give a birth date (YYYY-MM-DD) or --batch FILE"))
    mutagen, brightness = mutagen or [], brightness or []
    try:
        chart = _chart(
            birth_date,
            birth_time,
            time_index,
            gender,
            lunar=lunar,
            leap=leap,
            zone={"tz": tz, "longitude": longitude, "fold": fold},
            settings=_settings(
                {
                    "year_boundary": year_boundary,
                    "horoscope_boundary": horoscope_boundary,
                    "late_rat_hour": late_rat_hour,
                    "leap_month": _leap_month(ctx, leap_month),
                    "age_count": age_count,
                    "algorithm": algorithm,
                    "chart_type": chart_type,
                    "school": school,
                    "true_solar_time": true_solar_time,
                    "equation_of_time": equation_of_time,
                },
                mutagen,
                brightness,
            ),
        )
        horoscope = None if at is None else _horoscope(chart, at)
    except InputError as e:
        fail(
            e,
            [
                birth_date,
                birth_time or "",
                gender or "",
                at or "",
                tz or "",
                longitude or "",
                *mutagen,
                *brightness,
            ],
        )

    if svg is not None:
        from mingshu.present.ziwei_svg import chart_svg

        if svg == "-" and as_json:  # one stream cannot hold both
            fail(InputError("svg", "--svg - and --json both print to standard output"), [svg])

        try:
            _write_replacing(svg, chart_svg(chart, horoscope, names.value, svg_layout))
        except InputError as e:
            fail(e, [svg, svg_layout])
        if not as_json:
            return
    if as_json:
        from mingshu.present import chart_to_dict, horoscope_to_dict, to_json

        data = chart_to_dict(chart)
        if horoscope is not None:
            data["horoscope"] = horoscope_to_dict(horoscope)
        if lang is not None:
            from mingshu.present.ziwei_locale import locale_to_dict

            try:
                data["locale"] = locale_to_dict(chart, lang, horoscope)
            except InputError as e:
                fail(e, [lang])
        typer.echo(to_json(data, indent=True).decode())
        return
    from rich.console import Console

    from mingshu.present.ziwei_text import ChartGrid

    console = Console(highlight=False)
    try:
        grid = ChartGrid(chart, horoscope, names.value, lang=lang)
    except InputError as e:
        fail(e, [lang or ""])
    console.print(grid)
    for n in chart.notices:  # which clock was used, DST removed, a repeated clock time …
        console.print(f"[yellow]note ({n.code}):[/yellow] {n.message}")


# ------------------------------------------------------------------------------- input


def _chart(
    date: str,
    time: str | None,
    time_index: int | None,
    gender: str | None,
    *,
    lunar: bool,
    leap: bool,
    zone: dict[str, Any],
    settings: ZiweiSettings,
) -> NatalChart:
    from mingshu.errors import InputError
    from mingshu.ziwei import chart

    if gender is None:
        raise InputError("gender", "missing: give --gender female or --gender male")
    hour: str | int
    if time is not None and time_index is not None:
        raise InputError("time", "give TIME or --time-index, not both")
    if time is not None:
        hour = time
    elif time_index is not None:
        hour = time_index
    else:
        raise InputError("time", "missing: give a clock time (HH:MM) or --time-index 0..12")
    if leap and not lunar:
        raise InputError("leap", "--leap marks a lunar leap month: use it with --lunar")
    return chart(date, hour, gender, lunar=lunar, leap=leap, settings=settings, **zone)


def _horoscope(chart: NatalChart, at: str) -> Horoscope:
    """The horoscope at ``at``; a moment before the birth is the engine's InputError."""
    return chart.horoscope(at)


def _split_values(text: str) -> list[str]:
    return [v.strip() for v in text.replace("，", ",").replace("、", ",").split(",")]


def _pairs(items: Sequence[str], field: str, example: str) -> dict[str, list[str]]:
    """``KEY=V1,V2,…`` options as a dict; a key given twice is an error."""
    from mingshu.cli._errors import clip
    from mingshu.errors import InputError

    out: dict[str, list[str]] = {}
    for item in items:
        key, sep, values = item.partition("=")
        key = key.strip()
        if not sep or not key or not values.strip():
            raise InputError(field, f"{clip(item)!r} is not {example}")
        if key in out:
            raise InputError(field, f"{clip(key)} is given twice")
        out[key] = _split_values(values)
    return out


def _leap_month(ctx: typer.Context, value: str) -> str | None:
    """``None`` when --leap-month was not given, so the settings pick the school's default
    (split for iztro, next for the 全书 school)."""
    source = ctx.get_parameter_source("leap_month")
    return None if source is None or source.name == "DEFAULT" else value


def _settings(
    options: dict[str, Any], mutagens: Sequence[str], brightness: Sequence[str]
) -> ZiweiSettings:
    from mingshu.ziwei import ZiweiSettings

    fields: dict[str, Any] = dict(options)  # the enum fields take their string values
    if fields.get("leap_month") is None:  # not given: the school's own default
        fields.pop("leap_month", None)
    fields["mutagens"] = _pairs(
        mutagens, "mutagens", "STEM=STAR,STAR,STAR,STAR (e.g. 庚=太阳,武曲,天府,天同)"
    )
    fields["brightness"] = _pairs(brightness, "brightness", "STAR=12 grades (e.g. 紫微=平,庙,…)")
    return ZiweiSettings(**fields)


def _write_replacing(path: str, text: str) -> None:
    """Write ``text`` to ``path`` (``-``: standard output) through mingshu.files' one writer."""
    from mingshu.files import replacing

    with replacing(path, "svg") as out:
        out.write(text)
