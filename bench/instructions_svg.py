"""The SVG board's cost for a never-seen chart as CPU instructions (valgrind's callgrind),
steady on a busy machine, and as CPU time in process.

    .venv/bin/python bench/instructions_svg.py [--cases 200] [--no-valgrind]

What the chart page asks of :mod:`mingshu.present.ziwei_svg` for a new birth: both
layouts (the 4×4 board and the phone column) of one chart, with star links, through
``chart_svgs(..., as_bytes=True)`` (the UTF-8 the page sends; ``--str`` measures the
documents as str, as ``chart_svgs`` returns them by default), for the same births as
bench/instructions_web.py.  As there, each
instruction figure is the difference between two runs under ``valgrind --tool=callgrind``
that do the same set-up (imports; the charts of 2 × --cases births; both SVGs of the first
--cases, so the caches of what a setting decides are warm, as in a running server) and
differ only in drawing the other --cases births' SVGs, divided by --cases.  The charts are
computed in the set-up of both runs, so the figure is the drawing alone.
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import callgrind

sys.path.insert(0, str(Path(__file__).parent))
from instructions_web import best_cpu_ms, births


def charts_of(raws: Sequence[str]) -> list[Any]:
    """The Zi Wei chart, horoscope, name style and query string the page draws each from."""
    from urllib.parse import parse_qs

    from mingshu.web.charts import draw
    from mingshu.web.query import parse

    out = []
    for raw in raws:
        q = parse(parse_qs(raw, keep_blank_values=True))
        c = draw(q)
        out.append((c.ziwei, c.horoscope, q.names, q.query_string()))
    return out


def drawer(as_str: bool = False) -> Callable[[Any], tuple[str, ...] | tuple[bytes, ...]]:
    from mingshu.present.ziwei_svg import chart_svgs

    def svgs(case: Any) -> tuple[str, ...] | tuple[bytes, ...]:
        chart, horoscope, style, qs = case
        link = ("/chart/star/", f"?{qs}")
        if as_str:
            return chart_svgs(chart, horoscope, style, ("board", "column"), star_link=link)
        return chart_svgs(
            chart, horoscope, style, ("board", "column"), star_link=link, as_bytes=True
        )

    return svgs


def run(measure: bool, cases: int, as_str: bool) -> None:
    """The run under valgrind: set-up, then (if ``measure``) the measured births."""
    rng = random.Random(1)
    warm, measured = charts_of(births(cases, rng)), charts_of(births(cases, rng))
    draw = drawer(as_str)
    for case in warm:
        draw(case)
    gc.freeze()
    if measure:
        for case in measured:
            draw(case)


def instructions(measure: bool, cases: int, as_str: bool) -> int:
    step = "measure" if measure else "setup"
    return callgrind.instructions(
        __file__, "--run", step, "--cases", str(cases), *(["--str"] if as_str else [])
    )


def cpu_ms(cases: int, as_str: bool) -> float:
    """CPU milliseconds per new birth, best of three rounds of ``cases`` births each."""
    rng = random.Random(2)
    return best_cpu_ms(drawer(as_str), lambda: charts_of(births(cases, rng)))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--no-valgrind", action="store_true", help="CPU time only")
    parser.add_argument("--str", action="store_true", help="the documents as str")
    parser.add_argument("--run", help=argparse.SUPPRESS)  # the child under valgrind
    args = parser.parse_args(argv)
    if args.run is not None:
        run(args.run == "measure", args.cases, args.str)
        return
    print(f"mingshu SVG board and column, a never-seen chart ({args.cases} births, warm caches)")
    kind = "str" if args.str else "UTF-8"
    line = f"both SVGs ({kind}): {cpu_ms(args.cases, args.str):6.3f} ms CPU"
    if not args.no_valgrind:
        counts = [instructions(measure, args.cases, args.str) for measure in (True, False)]
        count = (counts[0] - counts[1]) / args.cases
        line += f"  {count:>12,.0f} instructions"
    print(line)


if __name__ == "__main__":
    main()
