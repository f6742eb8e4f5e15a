"""Speed of the calendar layer: table load time and per-call cost of the hot functions.

Run:  .venv/bin/python bench/bench_calendar.py
Prints figures only; speed goals (solar_to_lunar ~1-2 µs, day_pillar < 1 µs, load < 20 ms)
are checked by reading them, never by a timed assertion in the tests.
"""

from __future__ import annotations

import random
import subprocess
import sys
import time
import timeit
from collections.abc import Callable, Sequence
from datetime import date, datetime, timedelta
from typing import Any

from mingshu import calendar
from mingshu.calendar import _tables

N = 20_000


def _per_call(label: str, fn: Callable[[Any], object], args: Sequence[Any]) -> None:
    def run() -> None:
        for a in args:
            fn(a)

    best = min(timeit.repeat(run, number=1, repeat=5))
    print(f"  {label:<44} {best / len(args) * 1e6:7.3f} µs")


def _load_times() -> None:
    print("table load (parse of the shipped files, best of 5):")
    for label, loader in (
        ("lunar_years.tsv", _tables.lunar_table),
        ("solar_terms.tsv", _tables.term_table),
        ("names.toml", _tables.name_table),
    ):
        best = float("inf")
        for _ in range(5):
            loader.cache_clear()
            t = time.perf_counter()
            loader()
            best = min(best, time.perf_counter() - t)
        print(f"  {label:<44} {best * 1e3:7.2f} ms")
    code = (
        "import time; t0 = time.perf_counter(); "
        "from datetime import date; from mingshu import calendar as c; "
        "t1 = time.perf_counter(); "
        "c.solar_to_lunar(date(2000, 1, 1)); c.month_pillar_exact(c.term_moment(2000, 2)); "
        "c.sign(date(2000, 1, 1)); t2 = time.perf_counter(); "
        "print((t1 - t0) * 1e3, (t2 - t1) * 1e3)"
    )
    runs = [
        [float(x) for x in subprocess.run([sys.executable, "-c", code], capture_output=True,
                                          text=True, check=True).stdout.split()]
        for _ in range(5)
    ]  # fmt: skip
    print(f"  {'cold process: import mingshu.calendar':<44} {min(r[0] for r in runs):7.2f} ms")
    print(f"  {'cold process: first call on each table':<44} {min(r[1] for r in runs):7.2f} ms")


def main() -> None:
    rng = random.Random(20240204)
    first, last = calendar.FIRST_DATE.toordinal(), calendar.LAST_DATE.toordinal()
    ordinals = [rng.randint(first, last) for _ in range(N)]
    dates = [date.fromordinal(n) for n in ordinals]
    moments = [datetime(d.year, d.month, d.day) + timedelta(seconds=rng.randrange(86400))
               for d in dates]  # fmt: skip
    lunars = [calendar.solar_to_lunar(d) for d in dates]

    _load_times()
    print(f"per call (mean over {N} random dates, best of 5):")
    _per_call("solar_to_lunar(date)", calendar.solar_to_lunar, dates)
    _per_call("lunar_from_ordinal(int)", calendar.lunar_from_ordinal, ordinals)
    _per_call("lunar_to_solar(y, m, d, leap)", lambda x: calendar.lunar_to_solar(*x), lunars)
    _per_call(
        "ordinal_from_lunar(y, m, d, leap)", lambda x: calendar.ordinal_from_lunar(*x), lunars
    )
    _per_call("month_days(y, m, leap)", lambda x: calendar.month_days(x[0], x[1], x[3]), lunars)
    _per_call("LunarDate.chinese()", lambda x: x.chinese(), lunars)
    _per_call("day_pillar(date)", calendar.day_pillar, dates)
    _per_call("day_pillar_from_ordinal(int)", calendar.day_pillar_from_ordinal, ordinals)
    _per_call("year_pillar_by_lichun_day(date)", calendar.year_pillar_by_lichun_day, dates)
    _per_call("year_pillar_exact(datetime)", calendar.year_pillar_exact, moments)
    _per_call("month_pillar_exact(datetime)", calendar.month_pillar_exact, moments)
    _per_call("previous_jie(datetime)", calendar.previous_jie, moments)
    _per_call("next_jie(datetime)", calendar.next_jie, moments)
    _per_call("sign(date)", calendar.sign, dates)
    _per_call("date.toordinal() alone, for scale", date.toordinal, dates)


if __name__ == "__main__":
    main()
