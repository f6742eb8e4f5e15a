"""Dev-only cross-check: mingshu.calendar against lunar-typescript 1.8.6 (iztro's calendar).

Not part of the test suite (pytest does not collect this file).  Needs node and an npm tree
holding lunar-typescript 1.8.6, e.g. the iztro reference install::

    .venv/bin/python tools/crosscheck_lunar_typescript.py --node-root tools/iztro-oracle

It asks lunar-typescript for every lunar month (lunar 1582 .. 2650), every solar term of
1581 .. 2651, every day of the supported range 1583-01-01 .. 2650-12-31 (lunar date, Chinese
string, day pillar, year pillar by 立春 day, sign) and
the exact year/month pillars and previous/next 节 at every 节 moment ±1 s and ±2 min, and prints
how many differ from ours (and by how much, for term moments).  Dates before 1582-10-15 are
compared through their Julian day: lunar-typescript's Solar is a Julian-calendar date there,
ours proleptic Gregorian.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter
from datetime import date, datetime, timedelta
from pathlib import Path

from mingshu import calendar
from mingshu.calendar import SolarTerm
from mingshu.cycles import Pillar

JS = r"""
const L = require('lunar-typescript');
const fs = require('fs');
// Speed only: lunar-typescript keeps a one-entry LunarYear cache (like lunar-python).
const cache = new Map();
const original = L.LunarYear.fromYear;
L.LunarYear.fromYear = (y) => {
  if (!cache.has(y)) cache.set(y, original.call(L.LunarYear, y));
  return cache.get(y);
};
const input = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const out = {months: {}, terms: {}, days: [], moments: []};
for (let y = input.lunar_first; y <= input.lunar_last; y++) {
  const ly = L.LunarYear.fromYear(y);
  out.months[y] = [ly.getLeapMonth(), ly.getMonthsInYear().map(m => [
    m.getMonth(), m.getDayCount(), m.getFirstJulianDay()])];
}
for (let y = input.term_first; y <= input.term_last; y++) {
  const jds = L.LunarYear.fromYear(y).getJieQiJulianDays().slice(2, 26);
  out.terms[y] = jds.map(jd => [L.Solar.fromJulianDay(jd).toYmdHms(), jd]);
}
for (const [y, m, d] of input.days) {
  const s = L.Solar.fromYmd(y, m, d);
  const l = s.getLunar();
  out.days.push([l.getYear(), l.getMonth(), l.getDay(), l.toString(), l.getDayGanIndex(),
    l.getDayZhiIndex(), l.getYearGanIndexByLiChun(), l.getYearZhiIndexByLiChun(), s.getXingZuo()]);
}
for (const [y, mo, d, h, mi, se] of input.moments) {
  const l = L.Solar.fromYmdHms(y, mo, d, h, mi, se).getLunar();
  out.moments.push([l.getYearGanIndexExact(), l.getYearZhiIndexExact(),
    l.getMonthGanIndexExact(), l.getMonthZhiIndexExact(),
    l.getPrevJie().getSolar().toYmdHms(), l.getNextJie().getSolar().toYmdHms()]);
}
fs.writeFileSync(process.argv[3], JSON.stringify(out));
"""


JDN_OF_ORDINAL_1 = 1721426  # Julian day number of proleptic Gregorian 0001-01-01


def _gregorian(julian_day: float) -> date:
    return date.fromordinal(int(julian_day + 0.5) - JDN_OF_ORDINAL_1 + 1)


def _pair(pillar: Pillar) -> tuple[int, int]:
    return int(pillar.stem), int(pillar.branch)


LUNAR_FIRST = calendar.FIRST_DATE.year - 1  # 1583-01-01 lies in lunar 1582
LUNAR_LAST = calendar.LAST_DATE.year
TERM_FIRST, TERM_LAST = LUNAR_FIRST - 1, LUNAR_LAST + 1


def _moments() -> list[datetime]:
    moments = []
    for year in range(LUNAR_FIRST, LUNAR_LAST + 1):
        for term in SolarTerm:
            jie = calendar.term_moment(year, term)
            if term.is_jie and calendar.FIRST_DATE <= jie.date() <= calendar.LAST_DATE:
                moments += [jie + timedelta(seconds=s) for s in (-120, -1, 0, 1, 120)]
    return moments


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--node-root", type=Path, default=Path("/tmp/iztro-ref"))
    args = parser.parse_args()
    first, last = calendar.FIRST_DATE.toordinal(), calendar.LAST_DATE.toordinal()
    days = [date.fromordinal(n) for n in range(first, last + 1)]
    moments = _moments()
    request = {
        "lunar_first": LUNAR_FIRST,
        "lunar_last": LUNAR_LAST,
        "term_first": TERM_FIRST,
        "term_last": TERM_LAST,
        "days": [[d.year, d.month, d.day] for d in days],
        "moments": [[m.year, m.month, m.day, m.hour, m.minute, m.second] for m in moments],
    }
    with tempfile.TemporaryDirectory() as tmp:
        script, request_path, answer_path = (Path(tmp) / n for n in ("c.js", "in.json", "out.json"))
        script.write_text(JS, encoding="utf-8")
        request_path.write_text(json.dumps(request), encoding="utf-8")
        version = json.loads(
            (args.node_root / "node_modules/lunar-typescript/package.json").read_text()
        )["version"]
        subprocess.run(
            ["node", str(script), str(request_path), str(answer_path)],
            env={**os.environ, "NODE_PATH": str(args.node_root.resolve() / "node_modules")},
            check=True,
        )
        answer = json.loads(answer_path.read_text(encoding="utf-8"))
    print(f"lunar-typescript {version} from {args.node_root}")

    # Lunar months.
    month_diffs = []
    for year in range(LUNAR_FIRST, LUNAR_LAST + 1):
        leap, months = answer["months"][str(year)]
        theirs = [(abs(m), m < 0, n, _gregorian(jd).isoformat()) for m, n, jd in months]
        ours = [
            (m.month, m.is_leap, m.days, m.first_day.isoformat())
            for m in calendar.lunar_year_months(year)
        ]
        if ours != theirs or leap != calendar.leap_month(year):
            month_diffs.append(year)
    count = sum(len(calendar.lunar_year_months(y)) for y in range(LUNAR_FIRST, LUNAR_LAST + 1))
    print(
        f"lunar months {LUNAR_FIRST}..{LUNAR_LAST}: {count} compared, "
        f"years differing: {month_diffs or 'none'}"
    )

    # Solar terms.
    shifts: Counter[int] = Counter()
    examples: list[str] = []
    for year in range(TERM_FIRST, TERM_LAST + 1):
        for term, (moment, jd) in zip(SolarTerm, answer["terms"][str(year)], strict=True):
            moment_ours = calendar.term_moment(year, term)
            # The clock as lunar-typescript prints it, on the Gregorian date of its Julian day.
            clock = datetime.fromisoformat(moment).time()
            theirs = datetime.combine(_gregorian(jd), clock)
            delta = int((theirs - moment_ours).total_seconds())
            shifts[delta] += 1
            if delta and len(examples) < 10:
                examples.append(f"{year} {term}: ours {moment_ours}, lunar-typescript {moment}")
    total = sum(shifts.values())
    print(
        f"solar terms {TERM_FIRST}..{TERM_LAST}: {total} compared, "
        f"differences (seconds: count) {dict(shifts)}"
    )
    for line in examples:
        print("   ", line)

    # Every day.
    day_diffs: Counter[str] = Counter()
    for d, row in zip(days, answer["days"], strict=True):
        y, m, dd, text, dg, dz, yg, yz, sign = row
        lunar = calendar.solar_to_lunar(d)
        if (lunar.year, -lunar.month if lunar.is_leap else lunar.month, lunar.day) != (y, m, dd):
            day_diffs["lunar date"] += 1
        if lunar.chinese() != text:
            day_diffs["chinese"] += 1
        if _pair(calendar.day_pillar(d)) != (dg, dz):
            day_diffs["day pillar"] += 1
        if _pair(calendar.year_pillar_by_lichun_day(d)) != (yg, yz):
            day_diffs["year pillar by 立春 day"] += 1
        if calendar.sign(d).hans != sign + "座":
            day_diffs["sign"] += 1
    print(f"days {days[0]}..{days[-1]}: {len(days)} compared, differences {dict(day_diffs)}")

    # Around every 节.
    moment_diffs: Counter[str] = Counter()
    for moment, row in zip(moments, answer["moments"], strict=True):
        yg, yz, mg, mz, prev, nxt = row
        if _pair(calendar.year_pillar_exact(moment)) != (yg, yz):
            moment_diffs["year exact"] += 1
        if _pair(calendar.month_pillar_exact(moment)) != (mg, mz):
            moment_diffs["month exact"] += 1
        if str(calendar.previous_jie(moment)[1]) != prev:
            moment_diffs["previous 节"] += 1
        if str(calendar.next_jie(moment)[1]) != nxt:
            moment_diffs["next 节"] += 1
    print(
        f"moments (every 节 ±1 s, ±2 min): {len(moments)} compared, "
        f"differences {dict(moment_diffs)}"
    )
    return 1 if month_diffs or len(shifts) > 1 or day_diffs or moment_diffs else 0


if __name__ == "__main__":
    sys.exit(main())
