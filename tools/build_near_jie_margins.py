"""Build ``src/mingshu/bazi/data/near_jie.toml``: the margin of the BaZi ``near_jie`` notice.

A birth close to a 节 gets a different month pillar (at 立春 a different year pillar too) by
another authority.  Two things part the authorities (docs/solar-terms.md):

* the astronomy: the tables' 寿星 series against JPL DE440 stays within 3.5 s over 1581 .. 2650;
* ΔT (TT − UT1, the Earth's rotation), which turns an ephemeris moment into a clock time.
  Before 2050 both ΔT models in play are reconstructions from observations and agree within
  16 s; after 2050 both are predictions, and they part by up to about 270 s.

The margin is :data:`mingshu.bazi.pillars.NEAR_JIE_SECONDS` (60 s), which covers the first item
and the ΔT agreement before 2050 several times over, and from 2050 on 60 s plus the largest
ΔT split of the decade, rounded up to 10 s.  The split is taken at every 节 of the tables:
lunar-python 1.4.8's ``ShouXingUtil.dtT`` (the ΔT the tables were built with) minus skyfield's
built-in ΔT (``load.timescale(builtin=True)``: IERS values to 2027, then a spline into the
Stephenson-Morrison-Hohenkerk 2016 parabola).  Dev-only (the ``test`` extra); run::

    .venv/bin/python tools/build_near_jie_margins.py

``tests/calendar/test_solar_terms_de440_range.py`` checks the result against DE440.
"""

from __future__ import annotations

import math
import sys
from datetime import datetime, timedelta
from pathlib import Path

from lunar_python.util import ShouXingUtil
from skyfield.api import load

from mingshu.bazi.pillars import NEAR_JIE_SECONDS
from mingshu.calendar import LAST_DATE, SolarTerm, term_moment

OUT = Path(__file__).resolve().parents[1] / "src" / "mingshu" / "bazi" / "data" / "near_jie.toml"
FIRST_PREDICTED = 2050  # lunar-python's ΔT table ends here; skyfield's is a prediction from 2027
BEIJING = timedelta(hours=8)
J2000 = datetime(2000, 1, 1, 12)


def split_seconds(moment: datetime) -> float:
    """ΔT lunar-python − ΔT skyfield at a Beijing-time moment, in seconds."""
    utc = moment - BEIJING
    lunar_python = ShouXingUtil.dtT((utc - J2000) / timedelta(days=1)) * 86400
    ts = load.timescale(builtin=True)
    t = ts.ut1(utc.year, utc.month, utc.day, utc.hour, utc.minute, utc.second)
    return float(lunar_python - t.delta_t)


def margins() -> list[tuple[int, int]]:
    """(first year of a decade, margin in seconds) from 2050 to the end of the range."""
    rows = []
    for decade in range(FIRST_PREDICTED, LAST_DATE.year + 2, 10):
        years = range(decade, min(decade + 10, LAST_DATE.year + 2))
        worst = max(
            abs(split_seconds(term_moment(year, term)))
            for year in years
            for term in SolarTerm
            if term.is_jie
        )
        rows.append((decade, NEAR_JIE_SECONDS + 10 * math.ceil(worst / 10)))
    return rows


def main() -> int:
    lines = [
        "# The margin of the BaZi chart's near_jie notice, by decade of the 节 (seconds).",
        "# Built by tools/build_near_jie_margins.py (see its docstring and docs/solar-terms.md):",
        f"# {NEAR_JIE_SECONDS} s plus, from {FIRST_PREDICTED} on, the largest split of the decade",
        "# between lunar-python 1.4.8's ΔT (ShouXingUtil.dtT) and skyfield's built-in ΔT",
        "# (Stephenson-Morrison-Hohenkerk 2016 parabola after 2027), rounded up to 10 s.",
        "# Before the first decade listed the margin is NEAR_JIE_SECONDS.",
        "decades = [",
        *(f"    [{decade}, {seconds}]," for decade, seconds in margins()),
        "]",
    ]
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8", newline="\n")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
