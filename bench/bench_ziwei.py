"""Zi Wei Dou Shu speed: natal charts and horoscopes per second on one core.

    .venv/bin/python bench/bench_ziwei.py [--cases 2000] [--repeat 5] [--seed 1]

2,000 random births 1900–2100 (all 13 time indices, both genders, default settings) and, for
the horoscope, a random moment of each life (up to 100 years on, any hour).  "natal" is the
full chart: every star placed with brightness and 四化, the four god cycles, decades, small
limits, palaces built.  "natal + JSON bytes" also writes each chart as JSON bytes
(``mingshu.present.to_json``: the export and its serialisation, as a server would send it).
"patterns" is ``chart.patterns()`` for a chart already drawn (what the JSON adds).
"horoscope" is all six layers with flowing stars and yearly gods, for a chart already drawn.
Prints the best of --repeat runs (CPU time of this process), so other load on the machine
disturbs it little.  iztro 2.6.0 in node does about 40 charts/s here (tools/iztro-oracle).
"""

from __future__ import annotations

import argparse
import datetime as dt
import platform
import random
import time
from collections.abc import Callable, Iterable, Sequence

from mingshu.present import to_json
from mingshu.ziwei import Birth, from_birth
from mingshu.ziwei.horoscope import horoscope

FIRST, LAST = dt.date(1900, 1, 31).toordinal(), dt.date(2100, 12, 31).toordinal()


def births(count: int, rng: random.Random) -> list[Birth]:
    return [
        Birth.solar(
            dt.date.fromordinal(rng.randint(FIRST, LAST)),
            rng.randint(0, 12),
            rng.choice(("male", "female")),
        )
        for _ in range(count)
    ]


def discard(results: Iterable[object]) -> None:
    """Run a generator to its end, keeping nothing (as a server or a sweep would)."""
    for _ in results:
        pass


def best_rate(run: Callable[[], object], count: int, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return count / best


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    people = births(args.cases, rng)
    charts = [from_birth(b) for b in people]
    moments = [
        (
            dt.date.fromordinal(
                rng.randint(c.solar_date.toordinal(), min(LAST, c.solar_date.toordinal() + 36_500))
            ),
            rng.randint(0, 12),
        )
        for c in charts
    ]

    print(
        f"mingshu Zi Wei benchmark: {args.cases} cases, best of {args.repeat}, "
        f"Python {platform.python_version()} on {platform.machine()}"
    )
    natal = best_rate(lambda: discard(from_birth(b) for b in people), args.cases, args.repeat)
    print(f"natal charts:        {natal:>10,.0f} /s  ({1e6 / natal:.1f} µs each)")
    as_json = best_rate(
        lambda: discard(to_json(from_birth(b)) for b in people), args.cases, args.repeat
    )
    print(f"natal + JSON bytes:  {as_json:>10,.0f} /s  ({1e6 / as_json:.1f} µs each)")
    found = best_rate(lambda: discard(c.patterns() for c in charts), args.cases, args.repeat)
    print(f"patterns (格局):      {found:>10,.0f} /s  ({1e6 / found:.1f} µs each)")
    pairs = list(zip(charts, moments, strict=True))
    scope = best_rate(
        lambda: discard(horoscope(c, d, t) for c, (d, t) in pairs), args.cases, args.repeat
    )
    print(f"horoscopes (6 layers): {scope:>8,.0f} /s  ({1e6 / scope:.1f} µs each)")


if __name__ == "__main__":
    main()
