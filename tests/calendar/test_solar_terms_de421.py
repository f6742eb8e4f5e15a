"""The calendar's solar-term moments against JPL's DE421 ephemeris (skyfield), an authority
independent of lunar-python, from which the tables are built.

What is compared: every 节 and 中气 whose moment lies in 1900-01-01 .. 2053-10-08 (Beijing
time).  **Coverage is DE421's, not the calendar's**: the only JPL ephemeris that skyfield-data
ships is ``de421.bsp``, which covers 1899-07-29 .. 2053-10-09 (TDB).  The calendar's terms of
2053-10-23 (霜降) .. 2100 are *not* checked here: there is no bundled ephemeris for them, and
nothing is downloaded at test time.

The authority: the apparent geocentric ecliptic longitude of the Sun, referred to the true
equinox and ecliptic of date (light time, aberration and IAU 2000B nutation applied), reaching
k × 15°, found by skyfield's ``almanac_east_asia.solar_terms`` with ``find_discrete`` (to 1 ms).
The moment, in TT, is turned into civil time as UT1 + 8 h; ΔT = TT − UT1 comes from skyfield's
built-in timescale (``load.timescale(builtin=True)``, no file read or fetched): the IERS daily
values it bundles (1973 .. early 2027, the last year a prediction), before 1973 the
Morrison–Stephenson–Hohenkerk–Zawilski 2020 table, after the daily values a spline joining
the Stephenson–Morrison–Hohenkerk 2016 long-term parabola.  UTC, the civil time since 1972, keeps
within 0.9 s of UT1.

Each pair is keyed by (Gregorian year in Beijing time, term); the two lists must pair one to one,
and no difference may exceed 60 s (the margin of the BaZi chart's ``near_jie`` notice); every
birth between the two moments of a 节 must carry that notice.  The distribution of the
differences is printed in the terminal summary (``tests/conftest.py``); docs/solar-terms.md
explains it.  Runtime: about 6 s of CPU on one core (skyfield's search is most of it).
"""

from __future__ import annotations

import itertools
import statistics
import warnings
from datetime import datetime, timedelta
from pathlib import Path
from typing import NamedTuple

import pytest
from skyfield import almanac_east_asia
from skyfield.api import load, load_file
from skyfield.searchlib import find_discrete

from mingshu import bazi
from mingshu.calendar import FIRST_DATE, LAST_DATE, SolarTerm, term_moment

with warnings.catch_warnings():
    # skyfield-data warns at import that its finals2000A.all is past its expiry date; that
    # file is not used here (the timescale is skyfield's built-in one), so the warning is noise.
    warnings.simplefilter("ignore", RuntimeWarning)
    import skyfield_data

    DATA = Path(skyfield_data.get_skyfield_data_path())

LIMIT_SECONDS = 60.0
BEIJING = timedelta(hours=8)
# Proleptic Gregorian ordinal 1 (0001-01-01 00:00) as a Julian date.
JD_OF_ORDINAL_1 = 1721425.5
BUCKETS = (1.0, 5.0, 15.0, 30.0, 60.0)

# skyfield numbers the terms from 春分 (0°); map them to ours by their Chinese names.
BY_NAME = {term.names.hans: term for term in SolarTerm}
SKYFIELD_TERMS = [BY_NAME[name] for name in almanac_east_asia.SOLAR_TERMS_ZHS]


class Pair(NamedTuple):
    year: int
    term: SolarTerm
    ours: datetime
    de421: datetime
    diff: float  # ours − DE421, seconds


def beijing(whole: float, ut1_fraction: float) -> datetime:
    """Beijing civil time (UT1 + 8 h) of a Julian date in UT1 given as whole days + fraction."""
    return datetime(1, 1, 1) + timedelta(days=(whole - JD_OF_ORDINAL_1) + ut1_fraction) + BEIJING


@pytest.fixture(scope="module")
def de421_terms() -> tuple[list[tuple[int, SolarTerm, datetime]], datetime, datetime]:
    """Every term moment in DE421's span from 1900 on, with the window's two ends (Beijing)."""
    path = DATA / "de421.bsp"
    assert path.is_file(), f"skyfield-data ships no {path}"
    eph = load_file(str(path))
    assert "de421" in eph.spk.comments().lower(), "the bundled file is not DE421"
    ts = load.timescale(builtin=True)
    first = max(s.start_jd for s in eph.spk.segments)
    last = min(s.end_jd for s in eph.spk.segments)
    start = ts.ut1(1899, 12, 31, 16)  # 1900-01-01 00:00 Beijing
    assert start.tdb > first
    # One day inside the ephemeris's end, so light time and the root finder stay within it.
    end = ts.tdb_jd(last - 1)
    times, indices = find_discrete(start, end, almanac_east_asia.solar_terms(eph))
    found = [
        (moment.year, SKYFIELD_TERMS[int(i)], moment)
        for moment, i in zip(map(beijing, times.whole, times.ut1_fraction), indices, strict=True)
    ]
    return found, beijing(start.whole, start.ut1_fraction), beijing(end.whole, end.ut1_fraction)


@pytest.fixture(scope="module")
def pairs(
    de421_terms: tuple[list[tuple[int, SolarTerm, datetime]], datetime, datetime],
) -> list[Pair]:
    found, start, end = de421_terms
    ours = {
        (year, term): term_moment(year, term)
        for year in range(start.year, end.year + 1)
        for term in SolarTerm
        if start <= term_moment(year, term) < end
    }
    theirs = {(year, term): moment for year, term, moment in found}
    assert len(theirs) == len(found), "DE421 gives some term twice in one year"
    missing = sorted((y, str(t)) for y, t in ours.keys() - theirs.keys())
    extra = sorted((y, str(t)) for y, t in theirs.keys() - ours.keys())
    assert not missing and not extra, f"not in DE421: {missing[:10]}; only in DE421: {extra[:10]}"
    return [
        Pair(y, t, ours[y, t], theirs[y, t], (ours[y, t] - theirs[y, t]).total_seconds())
        for y, t in sorted(theirs, key=lambda k: theirs[k])
    ]


def summary(pairs: list[Pair]) -> str:
    diffs = [p.diff for p in pairs]
    worst = max(pairs, key=lambda p: abs(p.diff))
    lines = [
        f"solar terms vs JPL DE421 (skyfield), {pairs[0].de421:%Y-%m-%d} .. "
        f"{pairs[-1].de421:%Y-%m-%d}, diff = mingshu − DE421 in seconds",
        f"  count {len(diffs)}, mean {statistics.fmean(diffs):+.2f}, "
        f"median {statistics.median(diffs):+.2f}, max |diff| {abs(worst.diff):.2f} "
        f"({worst.year} {worst.term})",
    ]
    counts = [f"<{BUCKETS[0]:g} s: {sum(abs(d) < BUCKETS[0] for d in diffs)}"]
    for lower, upper in itertools.pairwise(BUCKETS):
        counts.append(f"{lower:g}–{upper:g} s: {sum(lower <= abs(d) < upper for d in diffs)}")
    counts.append(f"≥{BUCKETS[-1]:g} s: {sum(abs(d) >= BUCKETS[-1] for d in diffs)}")
    lines.append("  |diff| " + ", ".join(counts))
    lines.append("  by decade: max |diff| (mean diff)")
    for decade in range(pairs[0].year // 10 * 10, pairs[-1].year + 1, 10):
        ds = [p.diff for p in pairs if decade <= p.year < decade + 10]
        lines.append(
            f"    {decade}s  {max(abs(d) for d in ds):5.2f}  ({statistics.fmean(ds):+.2f}, {len(ds)} terms)"
        )
    return "\n".join(lines)


def test_de421_covers_the_years_it_claims(
    de421_terms: tuple[list[tuple[int, SolarTerm, datetime]], datetime, datetime],
) -> None:
    found, start, end = de421_terms
    assert abs(start - datetime(1900, 1, 1)) < timedelta(milliseconds=1)
    assert datetime(2053, 10, 7) < end < datetime(2053, 10, 9)
    # 154 whole years of 24 terms, and 2053 up to 寒露.
    assert len(found) == 153 * 24 + 19
    assert found[0][:2] == (1900, SolarTerm.XIAO_HAN)
    assert found[-1][:2] == (2053, SolarTerm.HAN_LU)


def test_every_term_within_a_minute_of_de421(
    pairs: list[Pair], record_property: pytest.RecordProperty
) -> None:
    # Recorded first, so the distribution is shown even when the check below fails.
    record_property("terminal_summary:solar terms vs JPL DE421", summary(pairs))
    beyond = [p for p in pairs if abs(p.diff) > LIMIT_SECONDS]
    assert not beyond, "\n".join(
        f"{p.year} {p.term}: ours {p.ours}, DE421 {p.de421:%Y-%m-%d %H:%M:%S.%f}, {p.diff:+.1f} s"
        for p in beyond[:20]
    )


def test_births_between_the_two_authorities_carry_the_near_jie_notice(pairs: list[Pair]) -> None:
    """A birth between the tables' 节 and DE421's gets its month (at 立春 also its year) pillar
    from whichever authority is used; the BaZi chart must say so with its ``near_jie`` notice.
    Every whole-second birth in every such window is charted (about 1,400 births)."""
    second = timedelta(seconds=1)
    charted, silent = 0, []
    for p in pairs:
        if not p.term.is_jie or not FIRST_DATE <= p.ours.date() <= LAST_DATE:
            continue
        earlier, later = min(p.ours, p.de421), max(p.ours, p.de421)
        moment = earlier.replace(microsecond=0) + (second if earlier.microsecond else timedelta())
        while moment < later:
            charted += 1
            if not any(n.code == "near_jie" for n in bazi.chart_at(moment, "male").notices):
                silent.append(f"{moment} ({p.year} {p.term})")
            moment += second
    assert charted > 1000  # the windows are not empty: the check above did run
    assert not silent, f"{len(silent)} births with no near_jie notice: {silent[:10]}"
