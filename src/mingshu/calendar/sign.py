"""Western sign (星座) of a solar date, with lunar-python's date ranges."""

from __future__ import annotations

from bisect import bisect_right
from datetime import date

from mingshu.calendar._tables import name_table
from mingshu.calendar.solar import FIRST_ORDINAL, LAST_ORDINAL, check_ordinal
from mingshu.cycles import Names

__all__ = ["sign"]


def sign(d: date, field: str = "date") -> Names:
    """Western sign of ``d`` as lunar-python ``Solar.getXingZuo()`` gives it.

    ``hans`` carries the "座" suffix iztro adds (``"狮子座"``); ``english`` reads ``"Leo"``.
    The month-day ranges come from ``data/names.toml``.
    """
    ordinal = d.toordinal()
    if not FIRST_ORDINAL <= ordinal <= LAST_ORDINAL:
        check_ordinal(ordinal, field)
    table = name_table()
    starts = table.sign_starts
    # Before the first start of the year (1-20) the date still belongs to the sign that began in
    # December; index -1 of the sorted starts is that sign.
    i = bisect_right(starts, (d.month * 100 + d.day, len(starts))) - 1
    return table.signs[starts[i][1]]
