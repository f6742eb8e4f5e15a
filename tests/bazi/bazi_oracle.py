"""lunar-python 1.4.8 as the outside authority of the BaZi tests (test-only helpers)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from lunar_python import Solar


def eight_char(moment: datetime, sect: int) -> Any:
    """lunar-python ``EightChar`` of a naive Beijing-time moment under ``sect`` (1 or 2)."""
    solar = Solar.fromYmdHms(
        moment.year, moment.month, moment.day, moment.hour, moment.minute, moment.second
    )
    ec = solar.getLunar().getEightChar()
    ec.setSect(sect)
    return ec


def pillars_both_sects(moment: datetime) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(sect 1 pillars, sect 2 pillars) as two-character strings, from one ``Lunar``."""
    solar = Solar.fromYmdHms(
        moment.year, moment.month, moment.day, moment.hour, moment.minute, moment.second
    )
    ec = solar.getLunar().getEightChar()
    ec.setSect(1)
    one = (ec.getYear(), ec.getMonth(), ec.getDay(), ec.getTime())
    ec.setSect(2)
    two = (ec.getYear(), ec.getMonth(), ec.getDay(), ec.getTime())
    return one, two
