"""A BaZi chart as Rich tables for a terminal: the clocks, the four pillars with every
derived item, the symbolic stars with the table each used, and the luck pillars."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console

    from mingshu.bazi import Chart
    from mingshu.bazi.luck import Annual

__all__ = ["print_annuals", "print_chart"]


def print_chart(console: Console, c: Chart) -> None:
    """The chart: clocks and notices, the pillar table, symbolic stars, luck pillars."""
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
        f"胎元 {c.tai_yuan}   胎息 {c.tai_xi}   命宫 {c.ming_gong}   身宫 {c.shen_gong}   "
        f"人元司令 {c.si_ling().stem} ({c.si_ling().role}, day {c.si_ling().day})",
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
            # every passage the table is cited to, not only the first (红艳 H1: two books)
            "; ".join(
                f"{src.citation()} ({src.status})" for src in (r.variant.source, *r.variant.also)
            ),
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


def print_annuals(console: Console, annuals: Sequence[Annual], chart: Chart | None = None) -> None:
    """流年 / 小运 rows, one per year asked for; with the ``chart``, then the symbolic stars
    each 流年 and its luck pillar bring (natal basis) or trigger (in a natal pillar)."""
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
    if chart is None:
        return
    s = Table(title="stars arriving (流年 / 大运)", title_justify="left")
    for column in ("year", "pillar", "star", "how", "from", "to", "table"):
        s.add_column(column)
    for a in annuals:
        sources = [("流年", a.pillar)] + ([] if a.luck is None else [("大运", a.luck.pillar)])
        for label, pillar in sources:
            for x in chart.arriving(pillar):
                where = "" if x.position is None else f" ({x.position.key})"
                s.add_row(
                    str(a.year),
                    f"{label} {pillar}",
                    x.star.names.hans + ("" if x.role is None else f" {x.role}"),
                    x.how,
                    f"{x.basis} {x.basis_value}",
                    f"{x.target}{where}",
                    x.variant.label,
                )
    console.print(s)
