"""``mingshu bazi DATE TIME --gender …``: a BaZi chart as Rich tables or JSON.

Example::

    mingshu bazi 1990-05-15 10:30 --tz Asia/Shanghai --gender male
    mingshu bazi 1990-05-15 10:30 --gender female --late-rat-hour split --star wen_chang=w2 --json
    mingshu bazi --pillars 庚辰 甲申 丙午 庚寅 --from 1900 --to 2100

Bad input prints ``error: <field>: <message>`` on stderr and exits with code 2.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from mingshu.cli._birth import Fold, Leap, Longitude, Lunar
from mingshu.cli._settings import chosen, given, setting_options
from mingshu.options import BAZI

__all__ = ["bazi", "register"]


def register(app: typer.Typer) -> None:
    app.command("bazi")(bazi)


@setting_options(BAZI)
def bazi(
    ctx: typer.Context,
    birth_date: Annotated[
        str | None,
        typer.Argument(metavar="DATE", help="Birth date, YYYY-MM-DD (solar; lunar with --lunar)."),
    ] = None,
    birth_time: Annotated[
        str | None, typer.Argument(metavar="TIME", help="Clock time, HH:MM or HH:MM:SS.")
    ] = None,
    gender: Annotated[
        str | None, typer.Option("--gender", "-g", help="male or female (a chart needs it).")
    ] = None,
    pillars: Annotated[
        tuple[str, str, str, str] | None,
        typer.Option(
            "--pillars",
            metavar="Y M D H",
            help="Instead of a chart: every stretch of Beijing time whose four pillars are "
            "these (八字反查), e.g. --pillars 庚辰 甲申 丙午 庚寅; --late-rat-hour applies.",
        ),
    ] = None,
    from_year: Annotated[
        int | None, typer.Option("--from", help="With --pillars: the first year searched.")
    ] = None,
    to_year: Annotated[
        int | None, typer.Option("--to", help="With --pillars: the last year searched.")
    ] = None,
    lunar: Lunar = False,
    leap: Leap = False,
    tz: Annotated[
        str, typer.Option("--tz", help="IANA time zone of the clock time (DST honoured).")
    ] = "Asia/Shanghai",
    longitude: Longitude = None,
    fold: Fold = 0,
    star: Annotated[
        list[str] | None,
        typer.Option(
            "--star", help="Variant of a symbolic star, STAR=VARIANT (repeatable): wen_chang=w2."
        ),
    ] = None,
    star_basis: Annotated[
        list[str] | None,
        typer.Option(
            "--star-basis",
            help="Basis of a symbolic star, STAR=BASES (repeatable): tai_ji=year_stem, "
            "tian_yi=day_stem+year_stem, jiang_xing=year_branch+self.",
        ),
    ] = None,
    profile: Annotated[
        str,
        typer.Option(
            metavar="NAME",
            help="Start the star variants and bases from a peer's profile: bazi-2.3.0 or "
            "bazi-chart-1.2.0 (--star and --star-basis still apply over it).",
        ),
    ] = "",
    luck_steps: Annotated[int, typer.Option(help="How many luck pillars to list.")] = 10,
    year: Annotated[
        list[int] | None,
        typer.Option("--year", help="Also show 流年 and 小运 of this Gregorian year (repeatable)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False,
    **settings: Any,
) -> None:
    """A BaZi chart: four pillars, ten gods, hidden stems, nayin, stages, void, symbolic stars
    with the table each used, and luck pillars."""
    from mingshu import bazi as engine
    from mingshu.cli._errors import fail
    from mingshu.errors import InputError

    if pillars is not None:
        _print_moments(ctx, pillars, from_year, to_year, as_json, settings)
        return
    try:
        for name, value, what in (
            ("date", birth_date, "a birth date (DATE), or --pillars for a reverse look-up"),
            ("time", birth_time, "a clock time (TIME) after the date"),
            ("gender", gender, "--gender male or --gender female"),
        ):
            if value is None:
                raise InputError(name, f"missing: give {what}")
        if from_year is not None or to_year is not None:
            raise InputError("from", "--from and --to go with --pillars")
        assert birth_date is not None and birth_time is not None and gender is not None
        variants = _parse_stars(star or [])
        bases = _parse_stars(star_basis or [], field="star_bases")
        if leap and not lunar:
            raise InputError("leap", "--leap marks a lunar leap month: use it with --lunar")
        if given(ctx, "equation_of_time") and not settings["true_solar_time"]:
            raise InputError(
                "equation_of_time",
                "--equation-of-time and --no-equation-of-time go with --true-solar-time",
            )
        # The words are plain strings: the settings type coerces and checks them; one left
        # out takes its default there.
        chart_settings = engine.BaziSettings(
            **chosen(ctx, BAZI, settings),
            star_variants=tuple(variants.items()),
            star_bases=tuple(bases.items()),
            luck_steps=luck_steps,
            profile=profile,
        )
        c = engine.chart(
            birth_date,
            birth_time,
            gender,
            tz=tz,
            longitude=longitude,
            fold=fold,
            lunar=lunar,
            leap=leap,
            settings=chart_settings,
        )
        annuals = [c.annual(y) for y in (year or [])]
    except InputError as e:
        fail(
            e,
            [
                birth_date or "",
                birth_time or "",
                gender or "",
                tz,
                longitude or "",
                *(star or []),
                *(star_basis or []),
            ],
        )

    if as_json:
        from mingshu.present import annual_to_dict, chart_to_dict, to_json

        data = chart_to_dict(c)
        if annuals:
            data["annual"] = [annual_to_dict(a, c) for a in annuals]
        typer.echo(to_json(data, indent=True).decode())
        return
    from rich.console import Console

    from mingshu.present.bazi_text import print_annuals, print_chart

    console = Console()
    print_chart(console, c)
    if annuals:
        print_annuals(console, annuals, c)


def _print_moments(
    ctx: typer.Context,
    pillars: tuple[str, str, str, str],
    from_year: int | None,
    to_year: int | None,
    as_json: bool,
    settings: dict[str, Any],
) -> None:
    """``--pillars``: the stretches of time with these four pillars, one per line or as JSON."""
    from mingshu import bazi as engine
    from mingshu.bazi.moments import year_bound
    from mingshu.cli._errors import fail
    from mingshu.errors import InputError

    try:
        if ctx.params.get("birth_date") is not None:
            raise InputError("pillars", "--pillars searches for dates: give no DATE or TIME")
        # A chart option would be ignored by the search: refuse it rather than drop it.
        for name in _CHART_ONLY:
            if given(ctx, name):
                raise InputError(
                    name, f"--{name.replace('_', '-')} is for a chart, not for --pillars"
                )
        chosen_settings = chosen(ctx, BAZI, settings)
        moved = sorted(set(chosen_settings) - {"late_rat_hour"})
        if moved:
            raise InputError(
                moved[0],
                "only --late-rat-hour moves a pillar; it is the one setting --pillars takes",
            )
        start = year_bound(from_year, "from", first=True)
        end = year_bound(to_year, "to", first=False)
        if start > end:
            raise InputError("to", f"--to {to_year} is before --from {from_year}")
        four = engine.parse_pillars(pillars)
        search = engine.BaziSettings(**chosen_settings)
        found = engine.moments_of(four, search, start=start, end=end)
    except InputError as e:
        fail(e, list(pillars))
    if as_json:
        from mingshu.present import to_json
        from mingshu.present.bazi_json import moments_to_dict

        data = moments_to_dict(
            four, found, start=start, end=end, late_rat_hour=search.late_rat_hour.value
        )
        typer.echo(to_json(data, indent=True).decode())
        return
    typer.echo(
        f"{' '.join(pillars)}: {len(found)} stretch{'es' if len(found) != 1 else ''} of Beijing "
        f"time (UTC+8) from {start} to {end}"
    )
    for r in found:
        notes = [
            f"{which} at {term.names.hans} {moment:%H:%M:%S}"
            for which, term, moment in (
                ("starts", r.start_term, r.start),
                ("ends", r.end_term, r.end),
            )
            if term is not None
        ]
        typer.echo(f"  {r}" + (f"  ({'; '.join(notes)})" if notes else ""))


_CHART_ONLY = (
    "gender",
    "lunar",
    "leap",
    "tz",
    "longitude",
    "fold",
    "star",
    "star_basis",
    "profile",
    "luck_steps",
    "year",
)


def _parse_stars(items: list[str], field: str = "star") -> dict[str, str]:
    """``STAR=VALUE`` options as a dict; a star given twice is an error (as --mutagen)."""
    from mingshu.cli._errors import clip
    from mingshu.errors import InputError

    example = "wen_chang=w2" if field == "star" else "tai_ji=year_stem"
    out: dict[str, str] = {}
    for item in items:
        key, sep, variant = item.partition("=")
        key, variant = key.strip(), variant.strip()
        if not sep or not key or not variant:
            raise InputError(field, f"{clip(item)!r} is not STAR=VALUE (e.g. {example})")
        if key in out:
            raise InputError(field, f"{clip(key)} is given twice")
        out[key] = variant
    return out
