"""``mingshu bazi DATE TIME --gender …``: a BaZi chart as Rich tables or JSON.

Example::

    mingshu bazi 1990-05-15 10:30 --tz Asia/Shanghai --gender male
    mingshu bazi 1990-05-15 10:30 --gender female --late-rat-hour split --star wen_chang=w2 --json

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
        str,
        typer.Argument(metavar="DATE", help="Birth date, YYYY-MM-DD (solar; lunar with --lunar)."),
    ],
    birth_time: Annotated[
        str, typer.Argument(metavar="TIME", help="Clock time, HH:MM or HH:MM:SS.")
    ],
    gender: Annotated[str, typer.Option("--gender", "-g", help="male or female.")],
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

    try:
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
                birth_date,
                birth_time,
                gender,
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
