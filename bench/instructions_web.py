"""The web site's cost of a never-seen chart as CPU instructions (valgrind's callgrind),
steady on a busy machine, and as CPU time in process.

    .venv/bin/python bench/instructions_web.py [--cases 200] [--no-valgrind]

A chart page or API answer for a birth no reader asked for before is drawn in full (the
per-URL caches only help repeats), so its cost sets the site's rate for new births
(bench_web.py's "a new birth each request" rows).  Each instruction figure is the
difference between two runs of this script under ``valgrind --tool=callgrind`` that do
the same set-up (imports, one page and one API answer for each of --cases births, so the
caches of what is a pure function of the settings are warm, as in a running server) and
differ only in the step measured, divided by --cases:

* chart page: ``/chart`` for --cases other births (the body the route sends);
* chart API: ``/api/ziwei`` for --cases other births.

CPU time (``time.process_time``, best of 3) is printed too; it swings with other load on a
shared machine (two hyperthreads share a core's caches), instructions do not.  Needs
valgrind on the PATH for the instruction counts; takes about a minute.
"""

from __future__ import annotations

import argparse
import gc
import random
import time
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import urlencode

import callgrind

STEPS = ("chart page", "chart API")


def births(n: int, rng: random.Random) -> list[str]:
    """``n`` query strings as bench_web.py's wrk script sends them (1950–2019, any hour)."""
    out = []
    for _ in range(n):
        date = f"{rng.randint(1950, 2019)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
        time_ = f"{rng.randint(0, 23):02d}:30"
        gender = rng.choice(("female", "male"))
        out.append(urlencode({"date": date, "time": time_, "gender": gender}))
    return out


def drawers() -> dict[str, Callable[[str], bytes]]:
    """Each step's body for a raw query string, as the routes draw it (no HTTP)."""
    from urllib.parse import parse_qs

    from mingshu.web.api import _ziwei_raw
    from mingshu.web.pages import chart_page_bytes
    from mingshu.web.query import parse

    def page(raw: str) -> bytes:
        return chart_page_bytes(parse(parse_qs(raw, keep_blank_values=True)))

    return {"chart page": page, "chart API": _ziwei_raw}


def run_step(step: str, cases: int) -> None:
    """The measured run (under valgrind): set-up, then ``step`` ("" for the set-up alone)."""
    rng = random.Random(1)
    warm, measured = births(cases, rng), births(cases, rng)
    draw = drawers()
    for raw in warm:
        for f in draw.values():
            f(raw)
    gc.freeze()  # as a server's worker does once warm (mingshu.web.app.warm)
    if step:
        for raw in measured:
            draw[step](raw)


def instructions(step: str, cases: int) -> int:
    return callgrind.instructions(__file__, "--run", step or "setup", "--cases", str(cases))


def best_cpu_ms(draw: Callable[[Any], object], batch: Callable[[], Sequence[Any]]) -> float:
    """CPU milliseconds per case of ``draw``: one ``batch()`` to warm the caches of what the
    settings decide, then the best of three more (each made before its clock starts)."""
    for case in batch():
        draw(case)
    gc.freeze()
    best = float("inf")
    for _ in range(3):
        cases = batch()
        start = time.process_time()
        for case in cases:
            draw(case)
        best = min(best, (time.process_time() - start) / len(cases) * 1000)
    return best


def cpu_ms(step: str, cases: int) -> float:
    """CPU milliseconds per new birth, best of three rounds of ``cases`` births each."""
    rng = random.Random(2)
    return best_cpu_ms(drawers()[step], lambda: births(cases, rng))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--no-valgrind", action="store_true", help="CPU time only")
    parser.add_argument("--run", help=argparse.SUPPRESS)  # the child under valgrind
    args = parser.parse_args(argv)
    if args.run is not None:
        run_step("" if args.run == "setup" else args.run, args.cases)
        return
    print(f"mingshu web, a never-seen chart ({args.cases} births, warm caches)")
    base = 0 if args.no_valgrind else instructions("", args.cases)
    for step in STEPS:
        line = f"{step + ':':12s} {cpu_ms(step, args.cases):6.2f} ms CPU"
        if not args.no_valgrind:
            count = (instructions(step, args.cases) - base) / args.cases
            line += f"  {count:>12,.0f} instructions"
        print(line)


if __name__ == "__main__":
    main()
