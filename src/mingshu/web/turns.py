"""Turns of the event loop for the chart answers: after a slow answer, the next one waits
until the loop has polled its sockets.

A chart route is ``async`` and draws a new chart without awaiting anything (a few ms of
CPU; the thread pool would only add switching).  The loop runs every request that is ready
in one turn before it polls again, so under load a worker drew some twenty-five new pages
back to back (~150 ms) between two polls, and took *one* new connection from the listening
socket per poll: a reader's first request waited in the accept queue for one such turn per
connection ahead of it (the 50 connections a load test opens at once waited up to 2-5 s,
the whole p99).  With :data:`TURNS` a chart answer that took longer than :data:`SLOW` lets
the loop poll before the next chart answer starts, so new connections are accepted and
requests read between charts; the answers waiting meanwhile are served first come, first
served.  A fast answer (a repeat, from the caches) passes the turn on at once.
"""

from __future__ import annotations

import asyncio
from collections import deque
from time import perf_counter
from types import TracebackType
from typing import Final

__all__ = ["SLOW", "TURNS", "Turns"]

SLOW: Final = 0.00025
"""Seconds of work after which the loop polls before the next chart answer (a cached
answer takes some 20 µs, a new chart 0.5-10 ms)."""


class Turns:
    """``async with turns:`` around the synchronous work of a chart answer (no ``await``
    inside).  Waiting answers start in the order they came, one a turn of the loop."""

    def __init__(self) -> None:
        self._waiters: deque[asyncio.Future[None]] = deque()
        self._taken = False  # an answer runs, or the loop owes a poll, or a waiter was woken
        self._start = 0.0
        self._loop: asyncio.AbstractEventLoop | None = None

    async def __aenter__(self) -> None:
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # a new loop (tests run one per client): nothing owed
            self._loop, self._taken = loop, False
            self._waiters.clear()
        if self._taken or self._waiters:
            waiter = loop.create_future()
            self._waiters.append(waiter)
            try:
                await waiter
            except asyncio.CancelledError:
                if waiter.done() and not waiter.cancelled():
                    self._pass()  # woken, then cancelled before its turn: the next one's
                raise
        self._taken = True
        self._start = perf_counter()

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if perf_counter() - self._start >= SLOW:
            asyncio.get_running_loop().call_soon(self._pass)  # runs after the next poll
        else:
            self._pass()

    def _pass(self) -> None:
        """The turn to the first answer still waiting (its task runs in a later turn of the
        loop), or free."""
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(None)
                return
        self._taken = False


TURNS: Final = Turns()
"""The worker's turns (one event loop a worker process)."""
