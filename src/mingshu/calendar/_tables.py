"""The shipped calendar tables, parsed lazily on first use into flat integer arrays.

``data/lunar_years.tsv`` and ``data/solar_terms.tsv`` are built by
``tools/build_calendar_tables.py`` from lunar-python 1.4.8; ``data/names.toml`` holds display
names.  Each loader is cached (a pure function of no arguments), so a table is read once per
process and never changes afterwards.
"""

from __future__ import annotations

from datetime import date, datetime
from functools import cache
from importlib import resources
from typing import Any, NamedTuple

from mingshu.cycles import Names
from mingshu.named import load_toml

__all__ = [
    "LunarTable",
    "NameTable",
    "TermTable",
    "lunar_table",
    "name_table",
    "seconds_of",
    "term_table",
]

# Gregorian year with 甲子 year and 丙寅 first solar month: anchors the month count below.
_JIA_ZI_YEAR = 1984


def _rows(name: str) -> list[list[str]]:
    """Data rows of a TSV table: comment lines (``#``) and the column header skipped."""
    text = resources.files(__package__).joinpath("data", name).read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    return [line.split("\t") for line in lines[1:]]


def seconds_of(moment: datetime) -> int:
    """Whole seconds since 0001-01-01 00:00 of a naive datetime (sub-seconds dropped).

    Term moments are whole seconds, so comparing truncated seconds gives the same order as
    comparing the datetimes themselves.
    """
    return moment.toordinal() * 86400 + moment.hour * 3600 + moment.minute * 60 + moment.second


class LunarTable(NamedTuple):
    """Every lunar month of the table, in order, as parallel arrays."""

    first_year: int
    last_year: int
    starts: tuple[int, ...]
    """Ordinal (``date.toordinal()``) of day 1 of each month, then one past the last day."""
    months: tuple[tuple[int, int, bool], ...]
    """(lunar year, month 1..12, is leap) of each month."""
    lengths: tuple[int, ...]
    """Day count (29 or 30) of each month."""
    position: dict[tuple[int, int, bool], int]
    """Month key → index into the arrays above."""
    leap: dict[int, int]
    """Lunar year → its leap month, 0 when it has none."""


@cache
def lunar_table() -> LunarTable:
    """Parse ``lunar_years.tsv`` (lunar-python 1.4.8 LunarYear months)."""
    starts: list[int] = []
    months: list[tuple[int, int, bool]] = []
    lengths: list[int] = []
    leap: dict[int, int] = {}
    end = 0
    for year_text, first_text, leap_text, lengths_text in _rows("lunar_years.tsv"):
        year, leap_month = int(year_text), int(leap_text)
        ordinal = date.fromisoformat(first_text).toordinal()
        if end and ordinal != end:
            raise RuntimeError(f"lunar_years.tsv: lunar year {year} does not follow on")
        leap[year] = leap_month
        # Months in order; a leap month follows the regular month of the same number.
        keys = [(year, number, False) for number in range(1, 13)]
        if leap_month:
            keys.insert(leap_month, (year, leap_month, True))
        day_counts = [int(n) for n in lengths_text.split()]
        if len(day_counts) != len(keys):
            raise RuntimeError(f"lunar_years.tsv: lunar year {year} has the wrong month count")
        for key, length in zip(keys, day_counts, strict=True):
            starts.append(ordinal)
            months.append(key)
            lengths.append(length)
            ordinal += length
        end = ordinal
    starts.append(end)
    years = sorted(leap)
    return LunarTable(
        first_year=years[0],
        last_year=years[-1],
        starts=tuple(starts),
        months=tuple(months),
        lengths=tuple(lengths),
        position={key: i for i, key in enumerate(months)},
        leap=leap,
    )


class TermTable(NamedTuple):
    """All 24 terms of each tabulated Gregorian year, plus the 节 alone for fast search."""

    first_year: int
    last_year: int
    moments: tuple[datetime, ...]
    """Index ``(year - first_year) * 24 + term``."""
    jie_seconds: tuple[int, ...]
    """:func:`seconds_of` each 节, in time order."""
    jie_positions: tuple[int, ...]
    """Index into :attr:`moments` of each 节."""
    jie_month_pillars: tuple[int, ...]
    """Sixty-cycle index of the solar month each 节 opens."""
    lichun_seconds: tuple[int, ...]
    """:func:`seconds_of` 立春 by ``year - first_year``."""
    lichun_ordinals: tuple[int, ...]
    """Ordinal of the calendar day of 立春 by ``year - first_year``."""


@cache
def term_table() -> TermTable:
    """Parse ``solar_terms.tsv`` (lunar-python 1.4.8 solar-term moments)."""
    rows = _rows("solar_terms.tsv")
    first_year = int(rows[0][0])
    moments: list[datetime] = []
    for n, (year_text, *terms) in enumerate(rows):
        if int(year_text) != first_year + n or len(terms) != 24:
            raise RuntimeError(f"solar_terms.tsv: row {n} is out of order or incomplete")
        # Each moment is MM-DD hh:mm:ss within the row's year (one row per year keeps the
        # shipped file small).
        moments.extend(datetime.fromisoformat(f"{year_text}-{term}") for term in terms)
    jie_positions = tuple(range(0, len(moments), 2))
    # The solar month opened by 节 j (0 = 小寒 … 11 = 大雪) of year Y: 寅 month of 1984 = 丙寅 (2),
    # one step of the sixty cycle per month (五虎遁 repeats every five years = 60 months).
    jie_month_pillars = tuple(
        (1 + 12 * (first_year + p // 24 - _JIA_ZI_YEAR) + (p % 24) // 2) % 60 for p in jie_positions
    )
    lichun = moments[2::24]
    return TermTable(
        first_year=first_year,
        last_year=first_year + len(moments) // 24 - 1,
        moments=tuple(moments),
        jie_seconds=tuple(seconds_of(moments[p]) for p in jie_positions),
        jie_positions=jie_positions,
        jie_month_pillars=jie_month_pillars,
        lichun_seconds=tuple(seconds_of(m) for m in lichun),
        lichun_ordinals=tuple(m.toordinal() for m in lichun),
    )


class NameTable(NamedTuple):
    """Display names from ``names.toml``."""

    terms: tuple[Names, ...]
    term_keys: tuple[str, ...]
    signs: tuple[Names, ...]
    sign_keys: tuple[str, ...]
    sign_starts: tuple[tuple[int, int], ...]
    """(month * 100 + day of the sign's first day, sign index), sorted by the first."""
    digits: tuple[str, ...]
    leap: str
    months: tuple[str, ...]
    days: tuple[str, ...]


def _names(row: dict[str, Any]) -> Names:
    return Names(row["hans"], row["hant"], row["pinyin"], row["english"])


@cache
def name_table() -> NameTable:
    """Parse ``names.toml``."""
    data = load_toml(__package__, "data", "names.toml")
    numerals = data["lunar_numerals"]
    return NameTable(
        terms=tuple(_names(row) for row in data["term"]),
        term_keys=tuple(row["key"] for row in data["term"]),
        signs=tuple(_names(row) for row in data["sign"]),
        sign_keys=tuple(row["key"] for row in data["sign"]),
        sign_starts=tuple(
            sorted(
                (row["first"][0] * 100 + row["first"][1], i) for i, row in enumerate(data["sign"])
            )
        ),
        digits=tuple(numerals["digits"]),
        leap=numerals["leap"],
        months=tuple(numerals["months"]),
        days=tuple(numerals["days"]),
    )
