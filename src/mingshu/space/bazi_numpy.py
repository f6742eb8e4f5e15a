"""The BaZi sweep's fast backend: every row of a year at once, with NumPy.

Nothing here is a second copy of a star rule.  The engine compiles the chosen variants of
``bazi/data/shensha.toml`` into integer-indexed tables of finished hits
(:func:`mingshu.bazi.shensha.compiled`: for each value of a basis slot, the stars it gives,
the key that must stand in the chart and the pillars where it may count); this backend turns
those very tables into NumPy arrays ``[slot value, key, star] → 4-bit mask of pillars`` and
looks every row up at once, where :func:`~mingshu.bazi.shensha.find_stars` looks one chart
up.  What is left is the arithmetic around the tables, stated again over arrays: the slot
values of a chart (``find_stars``'s ``values``), where each branch, stem and hidden stem
stands, and the pillars of a moment (:func:`mingshu.bazi.pillars.pillars_at`: the 节 table,
the day count, 五鼠遁 for the hour, all read from the engine's tables).

``tests/space/test_bazi_numpy.py`` proves the tables equal to the engine path's
(:func:`mingshu.space.bazi_sweep.engine_table`) on every row of whole years under several
settings values.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from mingshu.bazi import BaziSettings
    from mingshu.bazi.shensha import Hits4

__all__ = ["pillars", "stars", "stretches", "table", "year_table"]

_Ints = npt.NDArray[np.int64]
_Masks = npt.NDArray[np.int8]

_EPOCH_SECONDS = dt.date(1970, 1, 1).toordinal() * 86400
"""``calendar.seconds_of`` (seconds since 0001-01-01) of the Unix epoch of datetime64."""
_KEYS = 36
"""Keys of a chart's position table in the engine: 12 branches, 10 stems, 10 hidden stems,
the 4 pillars themselves (``shensha._OFFSET``)."""


@dataclass(frozen=True, slots=True)
class _Lookup:
    """One basis slot's table for some output columns, as arrays."""

    slot: int
    """Which slot value enters the table (``find_stars``'s ``values``; 13: the gendered
    slot for 阴男 / 阳女)."""
    pillars: bool
    """The keys are the sixty pillars (天赦, 金神 …), not branches, stems and pillars."""
    keys: _Ints
    """The keys the table reads (the others are empty for every value and star)."""
    table: _Masks
    """[slot value, key, star] → the pillars where the star counts if the key stands there."""
    columns: _Ints
    """The output column of each star of the table."""
    nayin_filter: _Ints | None
    """[slot value] → the nayin element the pillar found must have (咸池's 按), or none."""


_BACKWARD_SLOT = 13


def _allowed(hits4: Hits4) -> int:
    """The 4-bit mask (1 year … 8 hour, as the sweep writes it) of the pillars where a
    compiled cell gives a hit."""
    return sum(1 << int(hit.position) for hit in hits4 if hit is not None)


@cache
def _lookups(settings: BaziSettings) -> tuple[_Lookup, ...]:
    """Every star column of the sweep as lookups in the engine's compiled tables: the k-th
    variant of each star from the compiled tables of ``_variant_settings(settings)[k]``."""
    from mingshu.bazi.shensha import _GENDERED_SLOT, _OFFSET, compiled
    from mingshu.space.bazi_sweep import _variant_settings, _wanted

    # (slot, keys are pillars, nayin filter) → output column → [value, key] masks
    tables: dict[tuple[int, bool, tuple[int, ...]], dict[int, _Masks]] = {}

    def add(slot: int, pillars: bool, nayin: tuple[int, ...], column: int, size: int) -> _Masks:
        by_column = tables.setdefault((slot, pillars, nayin), {})
        if column not in by_column:
            by_column[column] = np.zeros((size, 60 if pillars else _KEYS), dtype=np.int8)
        return by_column[column]

    for chosen, wanted in zip(_variant_settings(settings), _wanted(settings), strict=True):
        table = compiled(chosen)
        outputs: dict[int, list[tuple[int, bool]]] = {}
        for n, column, backward in wanted:
            outputs.setdefault(n, []).append((column, backward))

        def slot_of(slot: int, backward: bool) -> int:
            return _BACKWARD_SLOT if backward and slot == _GENDERED_SLOT else slot

        # Keys that are branches, stems and pillars, then keys that are the sixty pillars.
        for groups, pillars in ((table.groups, False), (table.pillar_groups, True)):
            for slot, items_by_value in groups:
                for value, items in enumerate(items_by_value):
                    for n, key, hits4 in items:
                        for column, backward in outputs.get(n, ()):
                            size = len(items_by_value)
                            t = add(slot_of(slot, backward), pillars, (), column, size)
                            t[value, key] |= _allowed(hits4)
        # The nayin-dependent entries: a role (正学堂) does not move a hit, a filter does.
        for n, slot, cells, nayin_filter in table.zheng:
            for column, backward in outputs.get(n, ()):
                t = add(slot_of(slot, backward), False, nayin_filter, column, len(cells))
                for value, cell in enumerate(cells):
                    for kind, key, hits4, _zheng in cell:
                        t[value, _OFFSET[kind] + key] |= _allowed(hits4)

    out: list[_Lookup] = []
    for (slot, pillars, nayin), by_column in sorted(tables.items()):
        columns = sorted(by_column)
        stacked = np.stack([by_column[c] for c in columns], axis=-1)  # [value, key, star]
        keys = np.flatnonzero(stacked.any(axis=(0, 2)))
        out.append(
            _Lookup(
                slot,
                pillars,
                keys.astype(np.int64),
                np.ascontiguousarray(stacked[:, keys, :]),
                np.asarray(columns, dtype=np.int64),
                np.asarray(nayin, dtype=np.int64) if nayin else None,
            )
        )
    return tuple(out)


@dataclass(frozen=True, slots=True)
class _Tables:
    """The engine's tables of :func:`~mingshu.bazi.pillars.pillars_at` and of a chart's
    nayin and hidden stems, as arrays."""

    jie_seconds: _Ints
    """The 节 moments (``calendar.seconds_of``), with the pillars in force from each:"""
    year_pillars: _Ints
    month_pillars: _Ints
    branch_of_hour: _Ints
    """[clock hour] → the 时辰's branch."""
    hour_pillars: _Ints
    """[day stem × 12 + branch] → the hour pillar (五鼠遁)."""
    day_offset: int
    """``(ordinal + day_offset) % 60`` is the day pillar."""
    nayin: _Ints
    """[pillar] → the element of its nayin."""
    hidden: _Masks
    """[branch, stem] → 1 if the stem is hidden in the branch."""


@cache
def _tables() -> _Tables:
    from mingshu.bazi.pillars import _day_offset, _hour_tables, jie_index
    from mingshu.bazi.tables import HIDDEN, NAYIN_OF

    index = jie_index()
    branch_of_hour, hour_pillars = _hour_tables()
    hidden = np.zeros((12, 10), dtype=np.int8)
    for branch, stems in enumerate(HIDDEN):
        for stem, _role in stems:
            hidden[branch, int(stem)] = 1
    return _Tables(
        np.asarray(index.seconds, dtype=np.int64),
        np.asarray([p.index for p in index.year_pillars], dtype=np.int64),
        np.asarray([p.index for p in index.month_pillars], dtype=np.int64),
        np.asarray(branch_of_hour, dtype=np.int64),
        np.asarray([p.index for p in hour_pillars], dtype=np.int64),
        _day_offset(),
        np.asarray([int(NAYIN_OF[i].element) for i in range(60)], dtype=np.int64),
        hidden,
    )


def pillars(starts: npt.NDArray[np.datetime64], settings: BaziSettings) -> _Ints:
    """[row, year/month/day/hour] → sixty-cycle index of the pillars at each Beijing-time
    moment of ``starts`` (``pillars_at`` over arrays)."""
    from mingshu.bazi.settings import LateRatHour

    t = _tables()
    seconds = starts.astype("datetime64[s]").astype(np.int64) + _EPOCH_SECONDS
    k = np.searchsorted(t.jie_seconds, seconds, side="right") - 1
    ordinal = seconds // 86400
    hour = seconds % 86400 // 3600
    day = (ordinal + t.day_offset) % 60
    if settings.late_rat_hour is LateRatHour.SAME_DAY:
        hour_stem = day % 10
    else:
        # The 子 hour at 23:00 begins the next day's hour cycle (and, NEXT_DAY, its day).
        late = hour == 23
        next_day = (ordinal + 1 + t.day_offset) % 60
        hour_stem = np.where(late, next_day, day) % 10
        if settings.late_rat_hour is LateRatHour.NEXT_DAY:
            day = np.where(late, next_day, day)
    hour_pillar = t.hour_pillars[hour_stem * 12 + t.branch_of_hour[hour]]
    return np.stack([t.year_pillars[k], t.month_pillars[k], day, hour_pillar], axis=1)


def stars(four: _Ints, settings: BaziSettings, columns: int) -> _Masks:
    """[row, column] → the sweep's star masks of the rows' pillars ``four``."""
    from mingshu.bazi.common import POSITIONS

    t = _tables()
    rows = len(four)
    bit = np.asarray([1 << int(p) for p in POSITIONS], dtype=np.int8)  # per pillar, in order
    stem, branch = four % 10, four % 12  # 甲子 = 0: stem and branch are the index mod 10, 12
    # Where each key stands (shensha.find_stars' `where`): a mask of the pillars holding it.
    where = np.zeros((rows, _KEYS), dtype=np.int8)
    where_pillar = np.zeros((rows, 60), dtype=np.int8)
    every = np.arange(rows)
    for pos in range(4):
        b, one = branch[:, pos], bit[pos]
        where[every, b] |= one
        where[every, 12 + stem[:, pos]] |= one
        where[:, 22:32] |= t.hidden[b] * one
        where[:, 32 + pos] = one
        where_pillar[every, four[:, pos]] |= one
    elements = t.nayin[four]
    yi, _, di, hi = four.T
    ys, ms, ds, hs = stem.T
    yb, mb, db, hb = branch.T
    # find_stars' `values`, slot by slot, and the gendered slot for 阴男 / 阳女 (13).
    values = (
        ds,
        ys,
        yb,
        db,
        mb,
        di,
        yi,
        elements[:, 0],
        (1 << yb) | (1 << mb) | (1 << db) | (1 << hb),
        yb,
        hi,
        ys * 1000 + ms * 100 + ds * 10 + hs,
        yb * 12 + mb,
        yb + 12,
    )
    out = np.zeros((rows, columns), dtype=np.int8)
    for lookup in _lookups(settings):
        value = values[lookup.slot]
        present = (where_pillar if lookup.pillars else where)[:, lookup.keys]
        found = lookup.table[value] & present[:, :, None]  # [row, key, star]
        if lookup.nayin_filter is not None:
            wanted = lookup.nayin_filter[value]
            matching = ((elements == wanted[:, None]) * bit).sum(axis=1).astype(np.int8)
            found &= matching[:, None, None]
        out[:, lookup.columns] |= np.bitwise_or.reduce(found, axis=1)
    return out


def table(
    starts: npt.NDArray[np.datetime64], ends: npt.NDArray[np.datetime64], settings: BaziSettings
) -> Any:
    """The sweep's rows (a pyarrow table with the sweep's schema) of the stretches
    ``starts[r]`` .. ``ends[r]`` (Beijing clock time)."""
    import pyarrow as pa

    from mingshu.space.bazi_sweep import _schema, star_columns

    four = pillars(starts, settings)
    names = [c for c, _, _, _ in star_columns()]
    masks = stars(four, settings, len(names))
    stamp, int8 = pa.timestamp("s"), pa.int8()
    arrays = [pa.array(starts, type=stamp), pa.array(ends, type=stamp)]
    arrays += [pa.array(four[:, p].astype(np.int8), type=int8) for p in range(4)]
    arrays += [pa.array(masks[:, i], type=int8) for i in range(len(names))]
    return pa.Table.from_arrays(arrays, schema=_schema())


def stretches(year: int) -> tuple[npt.NDArray[np.datetime64], npt.NDArray[np.datetime64]]:
    """(starts, ends) of every row of ``year``: ``bazi_sweep._boundaries`` over arrays
    (every 时辰 start and midnight of the year's days in range, and every 节 moment)."""
    from mingshu.space.bazi_sweep import BLOCK_STARTS
    from mingshu.space.runner import FIRST_DAY, LAST_DAY

    first = max(dt.date(year, 1, 1), FIRST_DAY)
    last = min(dt.date(year, 12, 31), LAST_DAY)
    days = np.arange(np.datetime64(first), np.datetime64(last) + 1).astype("datetime64[s]")
    hours = np.asarray(BLOCK_STARTS, dtype=np.int64) * 3600
    blocks = (days[:, None] + hours.astype("timedelta64[s]")).ravel()
    end = days[-1] + np.timedelta64(86400, "s")
    jie = (_tables().jie_seconds - _EPOCH_SECONDS).astype("datetime64[s]")
    inside = jie[(jie >= days[0]) & (jie < end)]
    starts = np.unique(np.concatenate([blocks, inside]))  # sorted, a 节 on the hour once
    return starts, np.append(starts[1:], end)


def year_table(year: int, settings: BaziSettings) -> Any:
    """Every row of ``year`` (the engine path's rows, in its order) as a pyarrow table."""
    return table(*stretches(year), settings)
