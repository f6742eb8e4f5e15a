"""Speed of the BaZi engine: pillar sets per second and full charts per second.

Run ``.venv/bin/python bench/bench_bazi.py`` (optionally ``--n 5000 --repeat 5``).  Prints
figures only; there are no timed assertions anywhere in the tests.

* pillar sets: :func:`mingshu.bazi.four_pillars` on naive Beijing-time moments.
* full charts: :func:`mingshu.bazi.chart` from a civil date, time and IANA zone, with every
  derived item, every symbolic star of the catalogue (found or not) and ten luck pillars.

Both over the same random moments 1900-02-05 … 2100-12-30 (fixed seed), single thread.
Targets (issue 3): ≥ 100,000 pillar sets/s and ≥ 20,000 full charts/s on one core.

``--cpu`` times with the process's CPU time instead of the wall clock: on a machine shared
with other work the wall clock counts the time the process waited for a core, the CPU time
does not (the figure for "one core").
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from datetime import date, datetime, timedelta

from mingshu import bazi


def _moments(n: int, seed: int) -> list[datetime]:
    rng = random.Random(seed)
    first = datetime(1900, 2, 5)
    span = int((datetime(2100, 12, 30) - first).total_seconds())
    return [first + timedelta(seconds=rng.randrange(span)) for _ in range(n)]


def _best(fn: Callable[[], object], repeat: int, cpu: bool = False) -> tuple[float, float]:
    clock = time.process_time if cpu else time.perf_counter
    times = []
    for _ in range(repeat):
        t0 = clock()
        fn()
        times.append(clock() - t0)
    return min(times), statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=5000, help="random moments (default 5000)")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs (default 5)")
    parser.add_argument("--seed", type=int, default=20240204)
    parser.add_argument("--cpu", action="store_true", help="time CPU time, not wall clock")
    args = parser.parse_args()

    moments = _moments(args.n, args.seed)
    dates: list[date] = [m.date() for m in moments]
    times = [m.time() for m in moments]
    genders = ["male" if i % 2 else "female" for i in range(args.n)]
    settings = bazi.BaziSettings()
    four_pillars = bazi.four_pillars
    chart = bazi.chart

    # Warm up: builds the 节 index, the interned detail tables and the compiled star tables.
    four_pillars(moments[0], settings)
    chart(dates[0], times[0], "male", tz="Asia/Shanghai", settings=settings)

    def pillars() -> None:
        for m in moments:
            four_pillars(m, settings)

    def charts() -> None:
        for d, t, g in zip(dates, times, genders, strict=True):
            chart(d, t, g, tz="Asia/Shanghai", settings=settings)

    def charts_beijing() -> None:
        for m, g in zip(moments, genders, strict=True):
            bazi.chart_at(m, g, settings)

    n = args.n
    clock = "CPU time" if args.cpu else "wall clock"
    print(
        f"mingshu.bazi benchmark: {n} random moments 1900-2100, best (median) of {args.repeat}"
        f" ({clock})"
    )
    for label, fn in (
        ("pillar sets (four_pillars, Beijing time)", pillars),
        ("full charts (chart, date + time + IANA zone)", charts),
        ("full charts (chart_at, Beijing time)", charts_beijing),
    ):
        best, median = _best(fn, args.repeat, args.cpu)
        print(f"  {label:<46} {n / best:>10,.0f}/s  ({n / median:,.0f}/s median)")
    c = chart(dates[0], times[0], "male", settings=settings)
    stars = len(c.stars)
    hits = sum(len(r.hits) for r in c.stars)
    print(
        f"  a full chart: 4 pillar details, 胎元/胎息/命宫/身宫, {len(c.luck.steps)} luck pillars, "
        f"{stars} symbolic stars looked up (first chart: {hits} hits)"
    )


if __name__ == "__main__":
    main()
