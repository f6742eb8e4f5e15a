"""Dev-only: births whose BaZi month (and, at 立春, year) pillar depends on the ephemeris.

For each of the twelve month-opening 节 (立春 惊蛰 清明 立夏 芒种 小暑 立秋 白露 寒露 立冬 大雪
小寒) it compares the moment in mingshu's tables (lunar-python 1.4.8, 寿星 series) with JPL
DE421 through skyfield, the authority of ``tests/calendar/test_solar_terms_de421.py``, and
prints the window of Beijing-time birth moments between the two: a birth inside it gets the new
month's pillar by one authority and the old month's by the other.  It also checks that every
whole-second birth inside a window carries the BaZi chart's ``near_jie`` notice, and prints
ΔT as skyfield and lunar-python use it, which explains the drift after 2050.

Coverage is DE421's: 1900-01 .. 2053-10 (the only JPL ephemeris skyfield-data ships).
Needs the ``test`` extra (skyfield, skyfield-data, lunar-python); nothing is downloaded::

    .venv/bin/python tools/near_jie_births.py            # the tables of docs/solar-terms.md
    .venv/bin/python tools/near_jie_births.py --all      # every window, one line each

The DE421 computation is the test's, repeated here so this script runs on its own.
"""

from __future__ import annotations

import argparse
import math
import statistics
import warnings
from collections import Counter
from datetime import datetime, timedelta
from pathlib import Path
from typing import NamedTuple

from lunar_python.util.ShouXingUtil import ShouXingUtil
from skyfield import almanac_east_asia
from skyfield.api import load, load_file
from skyfield.searchlib import find_discrete

from mingshu import bazi
from mingshu.bazi.pillars import NEAR_JIE_SECONDS
from mingshu.calendar import (
    FIRST_DATE,
    LAST_DATE,
    SolarTerm,
    month_pillar_exact,
    term_moment,
    year_pillar_exact,
)

with warnings.catch_warnings():
    # skyfield-data's finals2000A.all is past its expiry date; it is not used (the timescale is
    # skyfield's built-in one), so the warning is noise.
    warnings.simplefilter("ignore", RuntimeWarning)
    import skyfield_data

    DATA = Path(skyfield_data.get_skyfield_data_path())

BEIJING = timedelta(hours=8)
JD_OF_ORDINAL_1 = 1721425.5  # 0001-01-01 00:00 (proleptic Gregorian) as a Julian date
BY_NAME = {term.names.hans: term for term in SolarTerm}
SKYFIELD_TERMS = [BY_NAME[name] for name in almanac_east_asia.SOLAR_TERMS_ZHS]
SECOND = timedelta(seconds=1)


class Window(NamedTuple):
    year: int
    term: SolarTerm
    ours: datetime  # the table's moment, whole seconds
    de421: datetime
    births: int  # whole-second birth moments inside [earlier, later)
    before: str  # pillars in force just before the 节 (year month at 立春, else month)
    after: str  # pillars in force from the 节 on

    @property
    def diff(self) -> float:
        return (self.ours - self.de421).total_seconds()


def beijing(whole: float, ut1_fraction: float) -> datetime:
    return datetime(1, 1, 1) + timedelta(days=(whole - JD_OF_ORDINAL_1) + ut1_fraction) + BEIJING


def de421_terms() -> list[tuple[int, SolarTerm, datetime]]:
    """Every solar term in DE421's span from 1900 on: (year, term, Beijing moment = UT1 + 8 h)."""
    eph = load_file(str(DATA / "de421.bsp"))
    ts = load.timescale(builtin=True)
    start = ts.ut1(1899, 12, 31, 16)  # 1900-01-01 00:00 Beijing
    end = ts.tdb_jd(min(s.end_jd for s in eph.spk.segments) - 1)
    times, indices = find_discrete(start, end, almanac_east_asia.solar_terms(eph))
    return [
        (m.year, SKYFIELD_TERMS[int(i)], m)
        for m, i in zip(map(beijing, times.whole, times.ut1_fraction), indices, strict=True)
    ]


def pillars(moment: datetime, term: SolarTerm) -> str:
    month = str(month_pillar_exact(moment))
    return f"{year_pillar_exact(moment)} {month}" if term is SolarTerm.LI_CHUN else month


def first_second(moment: datetime) -> datetime:
    """The first whole second at or after ``moment``."""
    whole = moment.replace(microsecond=0)
    return whole + SECOND if moment.microsecond else whole


def windows(found: list[tuple[int, SolarTerm, datetime]]) -> list[Window]:
    out = []
    for year, term, theirs in found:
        ours = term_moment(year, term)
        if not term.is_jie or not FIRST_DATE <= ours.date() <= LAST_DATE:
            continue
        first = first_second(min(ours, theirs))
        births = max(0, math.ceil((max(ours, theirs) - first).total_seconds()))
        out.append(
            Window(
                year, term, ours, theirs, births, pillars(ours - SECOND, term), pillars(ours, term)
            )
        )
    return out


def unflagged(ws: list[Window]) -> list[str]:
    """Whole-second births inside a window whose BaZi chart has no ``near_jie`` notice."""
    missing = []
    for w in ws:
        first = first_second(min(w.ours, w.de421))
        for k in range(w.births):
            chart = bazi.chart_at(first + k * SECOND, "male")
            if not any(n.code == "near_jie" for n in chart.notices):
                missing.append(f"{first + k * SECOND:%Y-%m-%d %H:%M:%S}")
    return missing


def window_text(w: Window) -> str:
    a, b = (w.de421, w.ours) if w.diff > 0 else (w.ours, w.de421)
    if w.diff > 0:
        # DE421 earlier: in the window DE421 says the new month, the tables still the old one.
        tables, de421 = w.before, w.after
    else:
        tables, de421 = w.after, w.before
    return (
        f"| {w.year} {w.term} | {a:%Y-%m-%d %H:%M:%S}.{a.microsecond // 100000} – "
        f"{b:%H:%M:%S}.{b.microsecond // 100000} | {abs(w.diff):.1f} | {w.births} | "
        f"{tables} | {de421} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=12, help="widest windows to list")
    parser.add_argument("--all", action="store_true", help="list every window")
    args = parser.parse_args()

    found = de421_terms()
    ws = windows(found)
    diffs = [w.diff for w in ws]
    print(
        f"节 of {ws[0].year} .. {ws[-1].year} in the supported range, vs DE421: {len(ws)}; "
        f"mean diff (tables − DE421) {statistics.fmean(diffs):+.2f} s, "
        f"max |diff| {max(map(abs, diffs)):.2f} s"
    )
    with_births = [w for w in ws if w.births]
    print(
        f"windows holding at least one whole-second birth: {len(with_births)}, "
        f"{sum(w.births for w in ws)} birth seconds in all"
    )
    counts = Counter(w.births for w in ws)
    print("births per window: " + ", ".join(f"{k}: {counts[k]}" for k in sorted(counts)))
    missing = unflagged(ws)
    print(
        f"births inside a window without the near_jie notice "
        f"(margin {NEAR_JIE_SECONDS} s): {len(missing)} {missing[:5]}"
    )

    print("\n| decade | 节 | windows with births | birth seconds | widest (s) |")
    print("|---|---|---|---|---|")
    for decade in range(ws[0].year // 10 * 10, ws[-1].year + 1, 10):
        d = [w for w in ws if decade <= w.year < decade + 10]
        print(
            f"| {decade}s | {len(d)} | {sum(1 for w in d if w.births)} | "
            f"{sum(w.births for w in d)} | {max(abs(w.diff) for w in d):.1f} |"
        )

    listed = ws if args.all else sorted(ws, key=lambda w: -abs(w.diff))[: args.top]
    print("\n| 节 | window, Beijing time | width (s) | births | tables say | DE421 says |")
    print("|---|---|---|---|---|---|")
    for w in listed:
        print(window_text(w))

    print("\nΔT (s) used for the conversion to civil time:")
    print("| year | skyfield (builtin) | lunar-python 寿星 | difference |")
    print("|---|---|---|---|")
    ts = load.timescale(builtin=True)
    for year in (1900, 1950, 2000, 2025, 2040, 2050, 2053, 2060, 2075, 2100):
        ours = ShouXingUtil.dtT((year - 2000) * 365.2425) * 86400
        theirs = float(ts.J(year).delta_t)
        print(f"| {year} | {theirs:.1f} | {ours:.1f} | {ours - theirs:+.1f} |")


if __name__ == "__main__":
    main()
