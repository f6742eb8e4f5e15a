"""``mingshu bazi DATE TIME --gender …``: a BaZi chart as Rich tables or JSON.

Example::

    mingshu bazi 1990-05-15 10:30 --tz Asia/Shanghai --gender male
    mingshu bazi 1990-05-15 10:30 --gender female --late-rat-hour split --star wen_chang=w2 --json

Bad input prints ``error: <field>: <message>`` on stderr and exits with code 2.
"""

from __future__ import annotations

from typing import Annotated

import typer

from mingshu.cli._birth import EquationOfTime, Fold, Leap, Longitude, Lunar, TrueSolarTime

__all__ = ["bazi", "register"]


def register(app: typer.Typer) -> None:
    app.command("bazi")(bazi)


def bazi(
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
    true_solar_time: TrueSolarTime = False,
    equation_of_time: EquationOfTime = True,
    # The settings are plain words here, coerced (and checked) by bazi.BaziSettings inside the
    # command: the engine is not imported to build --help, and a bad word is an InputError.
    late_rat_hour: Annotated[
        str,
        typer.Option(
            metavar="WORD",
            help="23:00-24:00 convention (docs/bazi-rules.md §1.6): next_day, split (夜子时) "
            "or same_day.",
        ),
    ] = "next_day",
    start_age: Annotated[
        str,
        typer.Option(
            metavar="WORD",
            help="Luck start-age method (docs/bazi-rules.md §3.3): seconds, minutes, "
            "days_shichen or china95.",
        ),
    ] = "seconds",
    stage_earth: Annotated[
        str,
        typer.Option(
            metavar="WORD",
            help="Growth stages of 戊/己: fire_earth (火土同宫) or water_earth (水土同宫).",
        ),
    ] = "fire_earth",
    stage_yin: Annotated[
        str,
        typer.Option(
            metavar="WORD",
            help="Yin stems run backward (阳顺阴逆) or forward (阴阳同生).",
        ),
    ] = "backward",
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
    ming_gong_month: Annotated[
        str,
        typer.Option(metavar="WORD", help="命宫 from the jie month (jie) or the zhong_qi month."),
    ] = "jie",
    si_ling: Annotated[
        str,
        typer.Option(metavar="WORD", help="人元司令 table: sanming (三命通會 卷二) or tyme4py."),
    ] = "sanming",
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
    from mingshu.cli._errors import fail
    from mingshu.errors import InputError

    try:
        variants = _parse_stars(star or [])
        bases = _parse_stars(star_basis or [], field="star_bases")
        settings = engine.BaziSettings(
            late_rat_hour=late_rat_hour,  # type: ignore[arg-type]  # the settings check the words
            start_age=start_age,  # type: ignore[arg-type]
            stage_earth=stage_earth,  # type: ignore[arg-type]
            stage_yin=stage_yin,  # type: ignore[arg-type]
            star_variants=tuple(variants.items()),
            include_basis_pillar=include_basis_pillar,
            star_bases=tuple(bases.items()),
            true_solar_time=true_solar_time,
            equation_of_time=equation_of_time,
            luck_steps=luck_steps,
            profile=profile,
            ming_gong_month=ming_gong_month,  # type: ignore[arg-type]
            si_ling=si_ling,
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
            settings=settings,
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
