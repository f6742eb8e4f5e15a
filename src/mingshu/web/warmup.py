"""A worker's caches filled while it is idle.

A chart page draws from caches of pieces that recur between births (star and palace groups
and their written SVG lines, BaZi cells, words).  A worker's first few hundred new pages find
many of them missing and cost more than later ones: in process, after
:func:`mingshu.web.app.warm`, the first 200 new pages took p50 4.3 ms and p99 20 ms, pages
800-1,000 2.7 and 4.2 ms (measured when a page drew both layouts of the board).  A page's
board looks up 60 groups of lines: over the first 200 new pages it wrote 23 of them a
page, over pages 600-1,100 6 to 10.
Under load those first pages queue behind each other: 50 readers at once on a new server
waited 300-700 ms for their first pages.  :func:`~mingshu.web.app.warm` draws only thirteen
charts (the site answers within a second or two of launch), so the rest is drawn here, after
start-up: one chart at a time, and only while the worker has answered nothing for
:data:`QUIET` seconds, so a reader who comes meanwhile waits for at most the one chart being
drawn (a few ms).  A busy worker warms itself by its readers' charts instead.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import random
from collections.abc import Sequence
from time import monotonic
from typing import Final

from starlette.types import ASGIApp, Receive, Scope, Send

from mingshu.web.environment import whole_number

__all__ = [
    "PAGES",
    "QUIET",
    "Activity",
    "Tracking",
    "births",
    "pages_from_env",
    "warm_while_idle",
    "warmed",
]

PAGES: Final = 600
"""New charts a served worker draws while idle (``MINGSHU_WARM_PAGES``): about 3 s of CPU.  In
process a board then writes some 14 of its 120 groups' lines a page (88% found), after 1,000
charts about 10, after 3,000 about 6: the caches are bounded, so more buys little."""
QUIET: Final = 0.05
"""Seconds without a request after which the worker draws its next warm-up chart."""


def pages_from_env() -> int:
    """``MINGSHU_WARM_PAGES`` (0 turns the warm-up off), else :data:`PAGES`; an
    :class:`~mingshu.errors.InputError` naming it when it is not a whole number 0..100000."""
    return whole_number("MINGSHU_WARM_PAGES", PAGES, 0, 100_000)


class Activity:
    """The worker's HTTP requests: how many are being answered, and when the last ended."""

    __slots__ = ("active", "last")

    def __init__(self) -> None:
        self.active = 0
        self.last = 0.0

    def idle(self, quiet: float) -> bool:
        """No request answered now or in the last ``quiet`` seconds."""
        return not self.active and monotonic() - self.last >= quiet


class Tracking:
    """ASGI middleware that keeps :class:`Activity` up to date (HTTP only)."""

    def __init__(self, app: ASGIApp, activity: Activity) -> None:
        self.app, self.activity = app, activity

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        activity = self.activity
        activity.active += 1
        try:
            await self.app(scope, receive, send)
        finally:
            activity.active -= 1
            activity.last = monotonic()


def births(count: int, seed: int = 2026) -> list[str]:
    """``count`` chart queries spread over the years 1900-2099, every month, day and double
    hour, both genders (a fixed seed: every worker and run draws the same)."""
    rng = random.Random(seed)
    return [
        f"date={rng.randint(1900, 2099):04d}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
        f"&time={rng.randint(0, 23):02d}%3A{rng.choice(('00', '30'))}"
        f"&gender={rng.choice(('female', 'male'))}"
        for _ in range(count)
    ]


_done = True
"""Whether this process has no warm-up left to do (none was started, or it has ended)."""


def warmed() -> bool:
    """This worker's idle warm-up has ended, or none was started (``/api/health`` says it)."""
    return _done


async def warm_while_idle(activity: Activity, queries: Sequence[str], quiet: float = QUIET) -> None:
    """Draw the chart page and the Zi Wei answer of each query, each when the worker has been
    idle for ``quiet`` seconds; then move what is kept out of the collector's way, as
    :func:`~mingshu.web.app.warm` does."""
    from mingshu.web.api import _ziwei_bytes
    from mingshu.web.pages import chart_page_bytes
    from mingshu.web.query import parse_query

    global _done
    _done = False
    try:
        for query in queries:
            while not activity.idle(quiet):
                await asyncio.sleep(quiet)
            try:
                # Uncached: the warm-up fills the pieces' caches, not the recent pages'.
                q = parse_query(query)
                _ziwei_bytes.__wrapped__(q)
                chart_page_bytes.__wrapped__(q)
            except Exception as e:  # a warm-up chart must never stop a worker
                logging.getLogger("uvicorn.error").warning("warm-up chart %s: %r", query, e)
            await asyncio.sleep(0)  # the loop polls before the next
        gc.freeze()
    finally:
        _done = True
