"""``mingshu bazi DATE TIME --gender …``: a BaZi chart as Rich tables or JSON.

Example::

    mingshu bazi 1990-05-15 10:30 --tz Asia/Shanghai --gender male
    mingshu bazi 1990-05-15 10:30 --gender female --late-rat split --star wen_chang=w2 --json

Bad input prints ``error: <field>: <message>`` on stderr and exits with code 2.
"""

from __future__ import annotations

from typing import Annotated

import typer

from mingshu.bazi.settings import EarthRule, LateRat, StartAge, YinRule

__all__ = ["bazi", "register"]


def register(app: typer.Typer) -> None:
    app.command("bazi")(bazi)


def bazi(
    birth_date: Annotated[str, typer.Argument(metavar="DATE", help="Civil date, YYYY-MM-DD.")],
    birth_time: Annotated[
        str, typer.Argument(metavar="TIME", help="Clock time, HH:MM or HH:MM:SS.")
    ],
    gender: Annotated[str, typer.Option("--gender", "-g", help="male or female.")],
    tz: Annotated[
        str, typer.Option("--tz", help="IANA time zone of the clock time (DST honoured).")
    ] = "Asia/Shanghai",
    longitude: Annotated[
        float | None,
        typer.Option(help="Birth longitude, degrees east (west negative); shows solar time."),
    ] = None,
    fold: Annotated[
        int, typer.Option(help="At a repeated clock hour (DST end): 0 = first, 1 = second.")
    ] = 0,
    true_solar: Annotated[
        bool,
        typer.Option(
            "--true-solar/--civil",
            help="Day and hour pillars from true solar time (needs --longitude).",
        ),
    ] = False,
    eot: Annotated[
        bool, typer.Option("--eot/--no-eot", help="Include the equation of time in solar time.")
    ] = True,
    late_rat: Annotated[
        LateRat, typer.Option(help="23:00-24:00 convention (spec §1.6).")
    ] = LateRat.NEXT_DAY,
    start_age: Annotated[
        StartAge, typer.Option(help="Luck start-age method (spec §3.3).")
    ] = StartAge.SECONDS,
    stage_earth: Annotated[
        EarthRule,
        typer.Option(help="Growth stages of 戊/己: fire_earth (火土同宫) or water_earth."),
    ] = EarthRule.FIRE_EARTH,
    stage_yin: Annotated[
        YinRule, typer.Option(help="Yin stems run backward (阳顺阴逆) or forward (阴阳同生).")
    ] = YinRule.BACKWARD,
    star: Annotated[
        list[str] | None,
        typer.Option(
            "--star", help="Variant of a symbolic star, STAR=VARIANT (repeatable): wen_chang=w2."
        ),
    ] = None,
    include_basis_pillar: Annotated[
        bool,
        typer.Option(help="Let branch-based stars be found in the pillar that gives their basis."),
    ] = False,
    extra_bases: Annotated[
        bool, typer.Option(help="Also look stars up from their second basis (year stem …).")
    ] = False,
    luck_steps: Annotated[int, typer.Option(help="How many luck pillars to list.")] = 10,
    year: Annotated[
        list[int] | None,
        typer.Option("--year", help="Also show 流年 and 小运 of this Gregorian year (repeatable)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False,
) -> None:
    """A BaZi chart: four pillars, ten gods, hidden stems, nayin, stages, void, symbolic stars
    with the table each used, and luck pillars."""
    from mingshu import bazi as engine
    from mingshu.errors import InputError

    try:
        variants = _parse_stars(star or [])
        settings = engine.Settings(
            late_rat=engine.LateRat(late_rat.value),
            start_age=engine.StartAge(start_age.value),
            stage_earth=engine.EarthRule(stage_earth.value),
            stage_yin=engine.YinRule(stage_yin.value),
            star_variants=tuple(variants.items()),
            include_basis_pillar=include_basis_pillar,
            extra_bases=extra_bases,
            true_solar_time=true_solar,
            equation_of_time=eot,
            luck_steps=luck_steps,
        )
        c = engine.chart(
            birth_date,
            birth_time,
            gender,
            tz=tz,
            longitude=longitude,
            fold=fold,
            settings=settings,
        )
        annuals = [c.annual(y) for y in (year or [])]
    except InputError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(2) from None

    if as_json:
        from mingshu.present import annual_to_dict, chart_to_dict, to_json

        data = chart_to_dict(c)
        if annuals:
            data["annual"] = [annual_to_dict(a) for a in annuals]
        typer.echo(to_json(data, indent=True).decode())
        return
    from rich.console import Console

    from mingshu.present.bazi_text import print_annuals, print_chart

    console = Console()
    print_chart(console, c)
    if annuals:
        print_annuals(console, annuals)


def _parse_stars(items: list[str]) -> dict[str, str]:
    from mingshu.errors import InputError

    out: dict[str, str] = {}
    for item in items:
        key, sep, variant = item.partition("=")
        if not sep or not key.strip() or not variant.strip():
            raise InputError("star", f"{item!r} is not STAR=VARIANT (e.g. wen_chang=w2)")
        out[key.strip()] = variant.strip()
    return out
