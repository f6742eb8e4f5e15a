"""``mingshu bazi DATE TIME --gender …``: a BaZi chart as Rich tables or JSON.

Example::

    mingshu bazi 1990-05-15 10:30 --tz Asia/Shanghai --gender male
    mingshu bazi 1990-05-15 10:30 --gender female --late-rat-hour split --star wen_chang=w2 --json

Bad input prints ``error: <field>: <message>`` on stderr and exits with code 2.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from rich.console import Console

    from mingshu.bazi import Chart

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
    # The settings are plain words here, coerced (and checked) by bazi.Settings inside the
    # command: the engine is not imported to build --help, and a bad word is an InputError.
    late_rat_hour: Annotated[
        str,
        typer.Option(
            metavar="WORD",
            help="23:00-24:00 convention (spec §1.6): next_day, split (夜子时) or same_day.",
        ),
    ] = "next_day",
    start_age: Annotated[
        str,
        typer.Option(
            metavar="WORD",
            help="Luck start-age method (spec §3.3): seconds, minutes, days_shichen or china95.",
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
    from mingshu.cli._errors import fail
    from mingshu.errors import InputError

    try:
        variants = _parse_stars(star or [])
        settings = engine.BaziSettings(
            late_rat_hour=late_rat_hour,  # type: ignore[arg-type]  # the settings check the words
            start_age=start_age,  # type: ignore[arg-type]
            stage_earth=stage_earth,  # type: ignore[arg-type]
            stage_yin=stage_yin,  # type: ignore[arg-type]
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
        fail(e, [birth_date, birth_time, gender, tz, *(star or [])])

    if as_json:
        import json

        from mingshu.bazi.output import annual_dict

        data = c.to_dict()
        if annuals:
            data["annual"] = [annual_dict(a) for a in annuals]
        typer.echo(json.dumps(data, ensure_ascii=False, indent=2))
        return
    from rich.console import Console

    console = Console()
    _print_chart(console, c)
    if annuals:
        _print_annuals(console, annuals)


def _parse_stars(items: list[str]) -> dict[str, str]:
    """``STAR=VARIANT`` options as a dict; a star given twice is an error (as --mutagen)."""
    from mingshu.cli._errors import clip
    from mingshu.errors import InputError

    out: dict[str, str] = {}
    for item in items:
        key, sep, variant = item.partition("=")
        key, variant = key.strip(), variant.strip()
        if not sep or not key or not variant:
            raise InputError("star", f"{clip(item)!r} is not STAR=VARIANT (e.g. wen_chang=w2)")
        if key in out:
            raise InputError("star", f"{clip(key)} is given twice")
        out[key] = variant
    return out


def _print_chart(console: Console, c: Chart) -> None:
    from rich.table import Table

    b = c.moment
    lines = [
        f"civil time  {b.civil:%Y-%m-%d %H:%M:%S} {b.zone} ({b.civil:%z})",
        f"Beijing     {b.beijing:%Y-%m-%d %H:%M:%S} (compared with the 节 moments)",
    ]
    if b.dst_minutes:
        lines.append(f"standard    {b.standard:%Y-%m-%d %H:%M:%S} (daylight saving removed)")
    if b.solar is not None:
        eot = "" if b.eot_minutes is None else f", equation of time {b.eot_minutes:+.1f} min"
        kind = "true solar" if b.eot_minutes is not None else "mean solar"
        lines.append(
            f"{kind:<11} {b.solar:%Y-%m-%d %H:%M:%S} (longitude {b.longitude:.4f}°, "
            f"{b.longitude_minutes:+.1f} min from standard time{eot})"
        )
    lines.append(f"day/hour pillars use the {b.clock_kind.replace('_', ' ')} clock")
    prev_term, prev_at = c.previous_jie
    next_term, next_at = c.next_jie
    lines.append(
        f"节           {prev_term} {prev_at:%Y-%m-%d %H:%M:%S} → "
        f"{next_term} {next_at:%Y-%m-%d %H:%M:%S}"
    )
    console.print("\n".join(lines), highlight=False)
    for n in c.notices:
        console.print(f"[yellow]note ({n.code}):[/yellow] {n.message}", highlight=False)

    t = Table(title=f"八字 {c.pillars}  ({c.gender}, 日主 {c.day_master})", title_justify="left")
    t.add_column("")
    for d in c.details:
        t.add_column(f"{d.position.names.hans} {d.position.key}", justify="center")

    def row(label: str, cells: list[str]) -> None:
        t.add_row(label, *cells)

    row("十神 ten god", ["日主" if d.ten_god is None else str(d.ten_god) for d in c.details])
    row("天干 stem", [str(d.pillar.stem) for d in c.details])
    row("地支 branch", [str(d.pillar.branch) for d in c.details])
    row(
        "藏干 hidden",
        ["\n".join(f"{h.stem} {h.role} {h.ten_god}" for h in d.hidden) for d in c.details],
    )
    row("纳音 nayin", [str(d.nayin) for d in c.details])
    row("星运 stage", [str(d.stage) for d in c.details])
    row("自坐 self", [str(d.self_stage) for d in c.details])
    row("空亡 void", ["".join(str(v) for v in d.void) for d in c.details])
    console.print(t)
    console.print(
        f"胎元 {c.tai_yuan}   胎息 {c.tai_xi}   命宫 {c.ming_gong}   身宫 {c.shen_gong}",
        highlight=False,
    )

    s = Table(title="神煞 symbolic stars (each with the table it used)", title_justify="left")
    for column in ("star", "table (variant)", "found", "source"):
        s.add_column(column, overflow="fold")
    for r in c.stars:
        found = (
            ", ".join(
                f"{h.position.names.hans} {h.target}" + (f" ({h.role})" if h.role else "")
                for h in r.hits
            )
            if r.hits
            else "—"
        )
        s.add_row(
            f"{r.star.names.hans} {r.star.names.english}",
            f"{r.variant.label} [{r.variant.id}]",
            found,
            f"{r.variant.source.citation()} ({r.variant.source.status})",
        )
    console.print(s)

    lk = c.luck
    direction = "forward 顺" if lk.forward else "backward 逆"
    console.print(
        f"大运 luck: {direction}; start {lk.start} after birth ({lk.method.value} method, "
        f"span to {lk.jie} {lk.jie_moment:%Y-%m-%d %H:%M:%S}) → {lk.start_moment:%Y-%m-%d %H:%M}",
        highlight=False,
    )
    others = "; ".join(
        f"{m.value} {span} → {at:%Y-%m-%d}"
        for m, span, at in lk.start_by_method()
        if m != lk.method
    )
    console.print(f"  other start-age methods: {others}", highlight=False)
    u = Table(title="大运 luck pillars", title_justify="left")
    for column in ("#", "pillar", "ten god", "years", "ages (虚岁)"):
        u.add_column(column)
    for step in lk.steps:
        u.add_row(
            str(step.number),
            str(step.pillar),
            str(step.ten_god),
            f"{step.start_year}–{step.end_year}",
            f"{step.start_age}–{step.end_age}",
        )
    console.print(u)


def _print_annuals(console: Console, annuals: list[Any]) -> None:
    from rich.table import Table

    t = Table(title="流年 / 小运", title_justify="left")
    for column in ("year", "age", "流年", "ten god", "小运", "大运"):
        t.add_column(column)
    for a in annuals:
        t.add_row(
            str(a.year),
            str(a.age),
            str(a.pillar),
            str(a.ten_god),
            str(a.xiao_yun),
            "—" if a.luck is None else str(a.luck.pillar),
        )
    console.print(t)
