"""Write random chart inputs in the format of tests/fixtures/iztro-2.6.0 (JSON Lines).

    python tools/iztro-oracle/random_inputs.py --count 3000 --seed 7 --kind random --out in.jsonl
    node tools/iztro-oracle/generate.mjs < in.jsonl | gzip > big.jsonl.gz

Kinds (each like the reference file of the same name):

- ``random``: births 1900-01-31 .. 2100-12-31 (about half given as a lunar date, leap flag
  set when the month is leap), default settings, each with a horoscope date on or after the
  birth (and at most 120 years later, at most 2100-12-31) and a horoscope hour.
  ``--from YEAR --to YEAR`` draws births and horoscope dates from other years of mingshu's
  calendar range (1583-01-01 .. 2650-12-31), for the parity runs of docs/iztro-differences.md.
- ``configs``: the same, each under a random setting of the five scalar config keys.
- ``astro-types``: the same, charted as ``heaven`` / ``earth`` / ``human``; half under random
  settings.
- ``edges``: births where engines disagree, half under random settings: ``month_end`` (last
  day of a lunar month) and ``new_year_eve`` (除夕), mostly in the late Rat hour (time 12);
  ``leap_mid`` (leap-month days 14-17 and 29-30, half given as a lunar date with
  ``leap: true``); ``spring_window`` (days between 立春 and 正月初一, both ends included
  where they fall inside the window).

Never emitted, because iztro is known to be wrong there (see the fixtures README): impossible
solar dates, horoscope dates before the birth, and lunar-date input of leap-month day 30 when
the regular month has 29 days (iztro throws).  Lunar facts come from lunar-python 1.4.8, the
same 寿星 tables as the lunar-typescript that iztro uses.
"""

from __future__ import annotations

import argparse
import datetime as dt
import functools
import json
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from lunar_python import Lunar, LunarMonth, LunarYear, Solar

FIRST = dt.date(1900, 1, 31)  # lunar 1900-1-1: lunar-lite's solar2lunar starts here
LAST = dt.date(2100, 12, 31)
RANGE_FIRST = dt.date(1583, 1, 1)  # mingshu.calendar.FIRST_DATE .. LAST_DATE
RANGE_LAST = dt.date(2650, 12, 31)
MAX_HOROSCOPE_YEARS = 120
KINDS = ("random", "configs", "astro-types", "edges")
EDGE_CATEGORIES = ("month_end", "new_year_eve", "leap_mid", "spring_window")
LEAP_DAYS = (14, 15, 16, 17, 29, 30)
SCALAR_CONFIG: dict[str, tuple[str, ...]] = {
    "yearDivide": ("normal", "exact"),
    "horoscopeDivide": ("normal", "exact"),
    "ageDivide": ("normal", "birthday"),
    "dayDivide": ("forward", "current"),
    "algorithm": ("default", "zhongzhou"),
}
ID_PREFIX = {"random": "s", "configs": "s", "astro-types": "ts", "edges": "e"}


def ymd(d: dt.date) -> str:
    """iztro's unpadded "YYYY-M-D"."""
    return f"{d.year}-{d.month}-{d.day}"


def solar_of_lunar(year: int, month: int, day: int) -> dt.date:
    """The solar date of a lunar date; ``month`` is negative for a leap month."""
    s = Lunar.fromYmd(year, month, day).getSolar()
    return dt.date(s.getYear(), s.getMonth(), s.getDay())


def lunar_of_solar(d: dt.date) -> tuple[int, int, int]:
    """(lunar year, month, day) of a solar date; month negative for a leap month."""
    lunar = Solar.fromYmd(d.year, d.month, d.day).getLunar()
    return lunar.getYear(), lunar.getMonth(), lunar.getDay()


def regular_month_days(year: int, month: int) -> int:
    return int(LunarMonth.fromYm(year, month).getDayCount())


def iztro_cannot_build(year: int, month: int, day: int) -> bool:
    """lunar-lite builds the regular month's day first, so leap day 30 throws if it has 29."""
    return month < 0 and day == 30 and regular_month_days(year, -month) < 30


def random_day(rng: random.Random, lo: dt.date = FIRST, hi: dt.date = LAST) -> dt.date:
    return lo + dt.timedelta(days=rng.randint(0, (hi - lo).days))


class Builder:
    """Draws inputs of one kind from one seeded random stream, births in first .. last."""

    def __init__(self, kind: str, seed: int, first: dt.date = FIRST, last: dt.date = LAST) -> None:
        self.kind = kind
        self.seed = seed
        self.rng = random.Random(f"{kind}:{seed}")
        self.first = first
        self.last = last

    def in_range(self, d: dt.date) -> bool:
        return self.first <= d <= self.last

    @functools.cached_property
    def leap_years(self) -> list[int]:
        years = range(self.first.year, self.last.year + 1)
        return [y for y in years if LunarYear.fromYear(y).getLeapMonth()]

    # ---- pieces ----

    def config(self) -> dict[str, str]:
        return {key: self.rng.choice(values) for key, values in SCALAR_CONFIG.items()}

    def horoscope(self, birth: dt.date) -> tuple[str, int]:
        hi = min(self.last, birth + dt.timedelta(days=round(365.2425 * MAX_HOROSCOPE_YEARS)))
        return ymd(random_day(self.rng, birth, hi)), self.rng.randint(0, 12)

    def record(
        self,
        n: int,
        birth: dt.date,
        *,
        time: int,
        lunar_input: bool,
        category: str | None = None,
        astro_type: str | None = None,
        config: dict[str, str] | None = None,
    ) -> dict[str, Any]:
        """One input in the key order of the reference files."""
        suffix = f"-{category}" if category else ""
        inp: dict[str, Any] = {"id": f"{ID_PREFIX[self.kind]}{self.seed}-{n}{suffix}"}
        leap = False
        if lunar_input:
            year, month, day = lunar_of_solar(birth)
            leap = month < 0
            inp["date"] = f"{year}-{abs(month)}-{day}"
        else:
            inp["date"] = ymd(birth)
        inp["time"] = time
        inp["gender"] = self.rng.choice(("男", "女"))
        inp["lang"] = "zh-CN"
        inp["by"] = "lunar" if lunar_input else "solar"
        inp["leap"] = leap
        inp["fix_leap"] = self.rng.random() >= 0.2
        inp["horoscope"], inp["horoscope_time"] = self.horoscope(birth)
        if astro_type is not None:
            inp["astro_type"] = astro_type
        if config is not None:
            inp["config"] = config
        return inp

    def lunar_ok(self, birth: dt.date) -> bool:
        return not iztro_cannot_build(*lunar_of_solar(birth))

    def plain_birth(self) -> tuple[dt.date, bool]:
        while True:
            birth = random_day(self.rng, self.first, self.last)
            lunar_input = self.rng.random() < 0.5
            if not lunar_input or self.lunar_ok(birth):
                return birth, lunar_input

    # ---- edge dates ----

    def month_end(self, *, twelfth: bool) -> dt.date:
        while True:
            year = self.rng.randint(self.first.year, self.last.year)
            months = LunarYear.fromYear(year).getMonthsInYear()
            months = [m for m in months if m.getYear() == year]
            # 除夕 is the last day of the lunar year (of a leap 12th month, where there is one)
            month = months[-1] if twelfth else self.rng.choice(months)
            d = solar_of_lunar(year, month.getMonth(), month.getDayCount())
            if self.in_range(d):
                return d

    def leap_mid(self) -> dt.date:
        while True:
            year = self.rng.choice(self.leap_years)
            leap = LunarYear.fromYear(year).getLeapMonth()
            day = self.rng.choice(LEAP_DAYS)
            if day <= LunarMonth.fromYm(year, -leap).getDayCount():
                d = solar_of_lunar(year, -leap, day)
                if self.in_range(d):
                    return d

    def spring_window(self) -> dt.date:
        while True:
            # The reference files drew 1901 .. 2100; other ranges draw their own years.
            lo = 1901 if self.first == FIRST else self.first.year
            year = self.rng.randint(lo, self.last.year)
            new_year = solar_of_lunar(year, 1, 1)
            li = Lunar.fromYmd(year, 1, 1).getJieQiTable()["立春"]
            spring = dt.date(li.getYear(), li.getMonth(), li.getDay())
            assert spring.year == year, (year, spring)
            lo, hi = min(spring, new_year), max(spring, new_year)
            days = [lo + dt.timedelta(days=i) for i in range((hi - lo).days + 1)]
            if new_year > spring:
                days.remove(new_year)  # 正月初一 after 立春: both calendars agree on that day
            d = self.rng.choice(days)
            if self.in_range(d):
                return d

    # ---- kinds ----

    def build(self, n: int) -> dict[str, Any]:
        time = self.rng.randint(0, 12)
        if self.kind == "edges":
            return self.edge(n)
        birth, lunar_input = self.plain_birth()
        if self.kind == "random":
            return self.record(n, birth, time=time, lunar_input=lunar_input)
        if self.kind == "configs":
            return self.record(n, birth, time=time, lunar_input=lunar_input, config=self.config())
        astro_type = self.rng.choice(("heaven", "earth", "human"))
        config = self.config() if self.rng.random() < 0.5 else None
        return self.record(
            n, birth, time=time, lunar_input=lunar_input, astro_type=astro_type, config=config
        )

    def edge(self, n: int) -> dict[str, Any]:
        category = self.rng.choice(EDGE_CATEGORIES)
        config = self.config() if self.rng.random() < 0.5 else None
        time = self.rng.randint(0, 12)
        lunar_input = False
        if category in ("month_end", "new_year_eve"):
            birth = self.month_end(twelfth=category == "new_year_eve")
            if self.rng.random() < 0.75:
                time = 12
        elif category == "leap_mid":
            birth = self.leap_mid()
            lunar_input = self.rng.random() < 0.5 and self.lunar_ok(birth)
        else:
            birth = self.spring_window()
        return self.record(
            n, birth, time=time, lunar_input=lunar_input, category=category, config=config
        )


def inputs(
    kind: str, count: int, seed: int, first: dt.date = FIRST, last: dt.date = LAST
) -> Iterator[dict[str, Any]]:
    builder = Builder(kind, seed, first, last)
    for n in range(count):
        yield builder.build(n)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Write random iztro oracle inputs (JSON Lines).",
        epilog="Example: python tools/iztro-oracle/random_inputs.py --count 3000 "
        "--out /tmp/in.jsonl && node tools/iztro-oracle/generate.mjs < /tmp/in.jsonl "
        "| gzip > /tmp/big.jsonl.gz",
    )
    parser.add_argument("--count", type=int, default=100, help="inputs to write (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--kind", choices=KINDS, default="random", help="default: random")
    parser.add_argument("--out", type=Path, help="output file (default: standard output)")
    parser.add_argument(
        "--from", dest="first", type=int, help="first year of births (default 1900-01-31 on)"
    )
    parser.add_argument("--to", dest="last", type=int, help="last year (default 2100)")
    args = parser.parse_args(argv)
    if args.count < 0:
        parser.error("--count must be >= 0")
    first = FIRST if args.first is None else max(RANGE_FIRST, dt.date(args.first, 1, 1))
    last = LAST if args.last is None else min(RANGE_LAST, dt.date(args.last, 12, 31))
    if first > last:
        parser.error(f"--from/--to give no day within {RANGE_FIRST} .. {RANGE_LAST}")

    def write(emit: Callable[[str], object]) -> None:
        for inp in inputs(args.kind, args.count, args.seed, first, last):
            emit(json.dumps(inp, ensure_ascii=False, separators=(",", ":")) + "\n")

    if args.out is None:
        write(sys.stdout.write)
    else:
        with args.out.open("w", encoding="utf-8") as f:
            write(f.write)
    return 0


if __name__ == "__main__":
    sys.exit(main())
