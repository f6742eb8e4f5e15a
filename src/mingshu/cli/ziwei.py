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

from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any, Final

import typer

from mingshu.cli._birth import Fold, Leap, Longitude, Lunar
from mingshu.cli._settings import chosen, given, setting_options
from mingshu.options import ZIWEI

if TYPE_CHECKING:
    from mingshu.ziwei import Horoscope, NatalChart, ZiweiSettings

__all__ = ["register", "ziwei"]

# The options --batch takes; each line gives its birth and settings.
_BATCH_OPTIONS: Final = frozenset({"batch", "analysis", "lang", "out", "birth_date", "birth_time"})
_BATCH_WHY: Final = (
    "each line gives its birth and settings (date, time, gender, by, leap, settings, or "
    "iztro's fix_leap, astro_type, config)"
)


def register(app: typer.Typer) -> None:
    app.command("ziwei")(ziwei)


# How the grid names things (a display choice of the command, not a chart setting).
class _NameStyle(StrEnum):
    HANS = "hans"
    HANT = "hant"
    PINYIN = "pinyin"
    ENGLISH = "english"


@setting_options(ZIWEI)
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
            "mark the layers' palaces and flowing stars, and list the patterns of the "
            "limits it forms (风云际会, 禄衰马困).",
        ),
    ] = None,
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
    as_json: Annotated[
        bool,
        typer.Option("--json", help="Print the chart (and horoscope) as JSON, docs/ziwei-json.md."),
    ] = False,
    markdown: Annotated[
        bool,
        typer.Option(
            "--markdown",
            help="Print the chart (and horoscope) as Markdown instead of the grid: birth, "
            "palace table, 三方四正 and 飞化, patterns, layers and their patterns; named by "
            "--names or --lang.",
        ),
    ] = False,
    names: Annotated[
        _NameStyle, typer.Option("--names", help="Names in the grid (or the Markdown).")
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
    **settings: Any,
) -> None:
    """A Zi Wei Dou Shu chart (紫微斗数命盘): the twelve palaces with their stars, gods,
    decades and small limits, around the birth data."""
    from mingshu.cli._errors import fail
    from mingshu.errors import InputError

    if batch is not None or analysis or out is not None:
        from mingshu.cli.ziwei_batch import batch_command

        if batch is not None:  # each line brings its own birth and settings
            _refuse_all_but(ctx, _BATCH_OPTIONS, "--batch", _BATCH_WHY)
        batch_command(batch, birth_date, birth_time, analysis=analysis, out=out, lang=lang)
        return
    if markdown and as_json:
        fail(InputError("markdown", "--markdown and --json both print the chart: give one"))
    if markdown and svg == "-":
        fail(InputError("markdown", "--markdown and --svg - both print to standard output"))
    if lang is not None and not as_json:
        if svg is not None and not markdown:
            fail(InputError("lang", "the SVG board names things by --names, not --lang"))
        if given(ctx, "names"):
            fail(InputError("lang", "the grid takes --names or --lang, not both"))
    _refuse_what_does_not_apply(ctx, as_json=as_json, svg=svg, tz=tz)
    if birth_date is None:
        fail(InputError("date", "missing: give a birth date (YYYY-MM-DD) or --batch FILE"))
    if svg is not None and not svg.strip():
        fail(InputError("svg", "give a file name, not an empty path"))  # as files.py says it
    try:
        chart = _chart(
            birth_date,
            birth_time,
            time_index,
            gender,
            lunar=lunar,
            leap=leap,
            zone={"tz": tz, "longitude": longitude, "fold": fold},
            settings=_settings(ctx, settings),
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
                *(settings["mutagens"] or []),
                *(settings["brightness"] or []),
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
        if not as_json and not markdown:
            return
    if markdown:
        from mingshu.present.ziwei_markdown import to_markdown

        code = lang if lang is not None else _MARKDOWN_LANG[names.value]
        try:
            typer.echo(to_markdown(chart, horoscope, code), nl=False)
        except InputError as e:
            fail(e, [lang or ""])
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


def _settings(ctx: typer.Context, values: dict[str, Any]) -> ZiweiSettings:
    """The settings the options give; one left out takes the settings type's default (the
    school's own leap month included)."""
    from mingshu.ziwei import ZiweiSettings

    return ZiweiSettings(**chosen(ctx, ZIWEI, values))


def _refuse_all_but(ctx: typer.Context, allowed: frozenset[str], mode: str, why: str) -> None:
    """An error naming the first option given that ``mode`` does not take (never ignored)."""
    from mingshu.cli._errors import fail
    from mingshu.errors import InputError

    for param in ctx.command.params:
        name = param.name or ""
        if name not in allowed and param.opts[0].startswith("-") and given(ctx, name):
            # A --x/--no-x flag: name the one the user wrote.
            written = param.opts[0]
            if param.secondary_opts and ctx.params.get(name) is False:
                written = param.secondary_opts[0]
            fail(InputError("batch", f"{written} does not go with {mode}: {why}"))


# --names forms as the Markdown's languages.
_MARKDOWN_LANG: Final = {"hans": "zh-CN", "hant": "zh-TW", "pinyin": "pinyin", "english": "en-US"}


def _refuse_what_does_not_apply(
    ctx: typer.Context, *, as_json: bool, svg: str | None, tz: str | None
) -> None:
    """A chart option given where it changes nothing is an error, never ignored."""
    from mingshu.cli._errors import fail
    from mingshu.errors import InputError

    if given(ctx, "svg_layout") and svg is None:
        fail(InputError("svg_layout", "--svg-layout shapes the SVG board: give --svg FILE"))
    if given(ctx, "names") and as_json and svg is None:
        fail(InputError("names", "--names names the grid or the SVG board, not --json"))
    if given(ctx, "fold") and tz is None:
        fail(InputError("fold", "--fold picks one of two equal clock readings in --tz: give --tz"))
    if given(ctx, "equation_of_time") and not ctx.params.get("true_solar_time"):
        fail(
            InputError(
                "equation_of_time",
                "--equation-of-time and --no-equation-of-time go with --true-solar-time",
            )
        )


def _write_replacing(path: str, text: str) -> None:
    """Write ``text`` to ``path`` (``-``: standard output) through mingshu.files' one writer."""
    from mingshu.files import replacing

    with replacing(path, "svg") as out:
        out.write(text)
