"""The birth options both chart commands share, spelt once so they cannot drift apart
(the engines take the same arguments: ``chart(date, time, gender, *, tz, longitude, fold,
lunar, leap, settings)``).  The settings options come from the one table of settings,
through ``mingshu.cli._settings``."""

from __future__ import annotations

from typing import Annotated

import typer

__all__ = ["Fold", "Leap", "Longitude", "Lunar"]

Lunar = Annotated[bool, typer.Option("--lunar", help="DATE is a lunar date.")]
Leap = Annotated[bool, typer.Option("--leap", help="With --lunar: the day is in the leap month.")]
Longitude = Annotated[
    str | None,
    typer.Option(
        "--longitude",
        help="Birth longitude, degrees east (west negative): solar time, --true-solar-time.",
    ),
]
Fold = Annotated[
    int,
    typer.Option("--fold", help="0 or 1: which of two identical clock readings when DST ended."),
]
