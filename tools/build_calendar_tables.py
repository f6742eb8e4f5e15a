"""Build the calendar tables shipped in ``src/mingshu/calendar/data/`` from lunar-python.

lunar-python 1.4.8 (6tail) implements the 寿星 (ShouXing) new-moon and solar-term series, the
same algorithms as lunar-typescript 1.8.6, which iztro 2.6.0 uses.  This script reads

* ``LunarYear.fromYear(y).getMonthsInYear()`` / ``getLeapMonth()`` for every lunar year, and
* ``LunarYear.fromYear(y).getJieQiJulianDays()`` (小寒 … 冬至 of Gregorian year ``y``), rounded
  to the second with ``Solar.fromJulianDay`` exactly as ``Lunar.getJieQiTable()`` does,

and writes two TSV files.  Run it from the repository root::

    .venv/bin/python tools/build_calendar_tables.py --start 1582 --end 2650 \\
        --out src/mingshu/calendar/data

Dates are proleptic Gregorian throughout (Python's ``date``): lunar-python's ``Solar`` turns to
the Julian calendar before 1582-10-15, so the builder converts Julian days to dates itself.

The output is deterministic; ``tests/calendar/test_builder.py`` checks that a fresh build equals
the shipped files byte for byte.  Dev-only: needs the ``[calendar]`` extra.
"""

from __future__ import annotations

import argparse
import sys
from datetime import date, timedelta
from pathlib import Path

from lunar_python import Lunar, LunarYear

LIBRARY = "lunar-python 1.4.8"

# Canonical keys of the 24 terms in Gregorian-year order (小寒 first), as in names.toml.
TERM_KEYS = (
    "xiao_han", "da_han", "li_chun", "yu_shui", "jing_zhe", "chun_fen",
    "qing_ming", "gu_yu", "li_xia", "xiao_man", "mang_zhong", "xia_zhi",
    "xiao_shu", "da_shu", "li_qiu", "chu_shu", "bai_lu", "qiu_fen",
    "han_lu", "shuang_jiang", "li_dong", "xiao_xue", "da_xue", "dong_zhi",
)  # fmt: skip
# lunar-python's names of the same terms, to check that we read the right slots.
TERM_HANS = (
    "小寒", "大寒", "立春", "雨水", "惊蛰", "春分", "清明", "谷雨", "立夏", "小满", "芒种", "夏至",
    "小暑", "大暑", "立秋", "处暑", "白露", "秋分", "寒露", "霜降", "立冬", "小雪", "大雪", "冬至",
)  # fmt: skip


def _command(start: int, end: int) -> str:
    return (
        ".venv/bin/python tools/build_calendar_tables.py "
        f"--start {start} --end {end} --out src/mingshu/calendar/data"
    )


# Julian day number of the noon of proleptic Gregorian 0001-01-01 (date.toordinal() == 1).
_JDN_OF_ORDINAL_1 = 1721426


def _solar_date(julian_day: float) -> date:
    """The proleptic Gregorian date of ``julian_day`` (Solar.fromJulianDay's day, in Gregorian)."""
    return date.fromordinal(int(julian_day + 0.5) - _JDN_OF_ORDINAL_1 + 1)


def _moment(julian_day: float) -> str:
    """``julian_day`` to the second, with the float steps and carries of Solar.fromJulianDay().

    The date comes from :func:`_solar_date`, so it stays Gregorian before 1582-10-15, and a carry
    past 23:59:59 moves to the next date (Solar.fromJulianDay only adds one to the day number).
    """
    whole = int(julian_day + 0.5)
    f = (julian_day + 0.5 - whole) * 24
    hour = int(f)
    f = (f - hour) * 60
    minute = int(f)
    second = round((f - minute) * 60)
    if second > 59:
        second -= 60
        minute += 1
    if minute > 59:
        minute -= 60
        hour += 1
    day = _solar_date(julian_day)
    if hour > 23:
        hour -= 24
        day += timedelta(days=1)
    return f"{day.isoformat()} {hour:02d}:{minute:02d}:{second:02d}"


def lunar_year_rows(start: int, end: int) -> list[str]:
    """One row per lunar year: year, date of 正月初一, leap month, month lengths in order."""
    rows = []
    expected_first: date | None = None
    for year in range(start, end + 1):
        ly = LunarYear.fromYear(year)
        months = ly.getMonthsInYear()
        leap = ly.getLeapMonth()
        labels = [m.getMonth() for m in months]
        regular = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
        if leap:
            regular.insert(regular.index(leap) + 1, -leap)
        if labels != regular:
            raise SystemExit(f"lunar year {year}: unexpected month sequence {labels}")
        first = _solar_date(months[0].getFirstJulianDay())
        if expected_first is not None and first != expected_first:
            raise SystemExit(f"lunar year {year} starts {first}, not where {year - 1} ends")
        lengths = [m.getDayCount() for m in months]
        day = first
        for m, length in zip(months, lengths, strict=True):
            if _solar_date(m.getFirstJulianDay()) != day or length not in (29, 30):
                raise SystemExit(f"lunar year {year}: month {m.getMonth()} does not fit")
            day += timedelta(days=length)
        expected_first = day
        rows.append(f"{year}\t{first.isoformat()}\t{leap}\t{' '.join(map(str, lengths))}")
    return rows


def solar_term_rows(start: int, end: int) -> list[str]:
    """One row per Gregorian year ``start`` .. ``end``: the year, then its 24 moments in term
    order (小寒 first), each as ``MM-DD hh:mm:ss`` of that year."""
    if Lunar.JIE_QI[1:] + Lunar.JIE_QI[:1] != TERM_HANS or Lunar.JIE_QI_IN_USE[2:26] != (
        *TERM_HANS[:23],
        "DONG_ZHI",
    ):
        raise SystemExit("lunar-python's term order is not the one this builder expects")
    rows = []
    previous = ""
    for year in range(start, end + 1):
        ly = LunarYear.fromYear(year)
        julian_days = ly.getJieQiJulianDays()
        # getJieQiJulianDays() follows Lunar.JIE_QI_IN_USE: 大雪 and 冬至 of the year before,
        # then 小寒 … 冬至 of this year (slots 2 .. 25), then five terms of the next year.
        fields = [str(year)]
        for index in range(len(TERM_KEYS)):
            moment = _moment(julian_days[index + 2])
            if int(moment[:4]) != year or moment <= previous:
                raise SystemExit(f"{year} {TERM_HANS[index]}: unexpected moment {moment}")
            previous = moment
            fields.append(moment[5:])
        rows.append("\t".join(fields))
    return rows


def write_tables(start: int, end: int, out: Path) -> list[Path]:
    """Write ``lunar_years.tsv`` and ``solar_terms.tsv`` into ``out``; return their paths."""
    out.mkdir(parents=True, exist_ok=True)
    command = _command(start, end)
    lunar_header = [
        f"# mingshu.calendar: lunar years (农历年) {start} .. {end}.",
        f"# Source: {LIBRARY} (6tail), LunarYear.fromYear(year).getMonthsInYear() and",
        "#   getLeapMonth(); 寿星 (ShouXing) new moons in Beijing time (UTC+8), the same",
        "#   algorithm as lunar-typescript 1.8.6, which iztro 2.6.0 uses.",
        f"# Rebuild: {command}",
        "# Columns: lunar year; solar date of 正月初一; leap month (0 = none); the day count of",
        "#   each month in order, the leap month right after the regular month of the same number.",
        "year\tfirst_day\tleap\tmonth_days",
    ]
    term_header = [
        f"# mingshu.calendar: the 24 solar terms (节气), Gregorian years {start - 1} .. {end + 1}.",
        f"# Source: {LIBRARY} (6tail), LunarYear.fromYear(year).getJieQiJulianDays() rounded",
        "#   by Solar.fromJulianDay(), i.e. the moments Lunar.getJieQiTable() returns;",
        "#   寿星 (ShouXing) series, Beijing civil time (UTC+8), to the second.",
        f"# Rebuild: {command}",
        "# Columns: Gregorian year; then one per term, 小寒 … 冬至 (the 节 are every other term",
        "#   from 小寒), each its moment in that year as MM-DD hh:mm:ss.",
        "\t".join(("year", *TERM_KEYS)),
    ]
    files = {
        "lunar_years.tsv": lunar_header + lunar_year_rows(start, end),
        "solar_terms.tsv": term_header + solar_term_rows(start - 1, end + 1),
    }
    paths = []
    for name, lines in files.items():
        path = out / name
        path.write_text("\n".join(lines) + "\n", encoding="utf-8", newline="\n")
        paths.append(path)
    return paths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--start",
        type=int,
        default=1582,
        help="first lunar year (default 1582); terms from start-1",
    )
    parser.add_argument(
        "--end", type=int, default=2650, help="last lunar year (default 2650); terms to end+1"
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=Path("src/mingshu/calendar/data"),
        help="output directory (default src/mingshu/calendar/data)",
    )
    args = parser.parse_args(argv)
    if args.start > args.end:
        parser.error("--start must not be after --end")
    for path in write_tables(args.start, args.end, args.out):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
