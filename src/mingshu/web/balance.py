"""Connections kept even over the workers of ``mingshu serve --workers N`` (Linux).

The kernel hashes each new connection to one worker's socket (:mod:`mingshu.web.server`),
so a client that keeps its connections open (a proxy, wrk's 50) gets a random split: 30/20
as often as 25/25.  A worker answers its own connections one chart at a time, and its
latency grows with its share: five rows of new-birth chart pages at 50 connections gave
p99 77-101 ms at 25/25 and 133-136 ms at 29/21 and 30/20.  So each worker counts its open
connections in a small file every worker maps (its own slot only), and a worker that holds
more than its share (the total over the workers, rounded up) answers the next request on
one of them with ``Connection: close``: the client connects again and the kernel hashes
the new connection afresh, until the counts are even.  The share is reckoned with every
open connection, those told to close included (until they are closed, where the client's
new one is not yet counted anywhere), and a worker's own with those left out: so one busy
turn of the loop sends away no more than the excess, and a worker alone with connections
(the other still accepting, or dead and not yet replaced) sends away half, not all.
A connection is weighed from its second request on: a burst of new connections is counted
before it is judged (the other worker may not have accepted its own yet), and a client
that asks once and goes is never sent away.
"""

from __future__ import annotations

import mmap
import os
from collections.abc import Sequence
from functools import cache
from typing import Any, Final

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

__all__ = ["COUNTS_FILE", "SLOT", "BalancedHttpTools", "Counts", "over_share", "prepare"]

COUNTS_FILE: Final = "MINGSHU_CONNECTION_COUNTS"
"""Environment variable: the file of every worker's count (8 bytes a worker)."""
SLOT: Final = "MINGSHU_WORKER_SLOT"
"""Environment variable: this worker's slot in it (its socket's index)."""


def over_share(mine: int, counts: Sequence[int]) -> bool:
    """Whether a worker keeping ``mine`` connections holds more than its share, rounded up,
    of the open connections counted in ``counts`` (every worker's, its own included)."""
    total = sum(counts)
    return mine > -(-total // len(counts))


def prepare(path: str, workers: int) -> None:
    """The counts file for ``workers`` workers, every count zero."""
    with open(path, "wb") as f:
        f.write(bytes(8 * workers))


class Counts:
    """Every worker's count of open connections, in the file at ``path``; this worker's is
    slot ``slot`` (only it writes there; it reads the others)."""

    def __init__(self, path: str, slot: int) -> None:
        with open(path, "r+b") as f:
            self._map = mmap.mmap(f.fileno(), 0)
        self._counts = memoryview(self._map).cast("q")
        self._slot = slot
        self._counts[slot] = 0  # a replacement worker: its predecessor's connections are gone
        self.leaving = 0
        """This worker's connections told to close and still open."""

    def add(self, n: int) -> None:
        """``n`` connections more (or fewer) open in this worker."""
        self._counts[self._slot] += n

    def over_share(self) -> bool:
        """Whether this worker keeps more than its share, those leaving left out."""
        counts = self._counts.tolist()
        return over_share(counts[self._slot] - self.leaving, counts)


@cache
def _counts() -> Counts | None:
    """This worker's counts, from its environment, read once (None: no balance)."""
    path, slot = os.environ.get(COUNTS_FILE), os.environ.get(SLOT)
    if not path or slot is None:
        return None
    try:
        return Counts(path, int(slot))
    except (OSError, ValueError, IndexError):
        return None  # no balance, as with one socket: never the worker's death


class BalancedHttpTools(HttpToolsProtocol):
    """uvicorn's httptools protocol, counting its connection in :class:`Counts` and closing
    it after an answer when this worker holds more than its share."""

    _leaving = False
    _requests = 0

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        counts = _counts()
        if counts is not None:
            counts.add(1)

    def connection_lost(self, exc: Exception | None) -> None:
        counts = _counts()
        if counts is not None:
            counts.add(-1)
            if self._leaving:
                counts.leaving -= 1
        super().connection_lost(exc)

    def on_headers_complete(self) -> None:
        super().on_headers_complete()
        self._requests += 1
        counts = _counts()
        cycle = self.cycle
        if counts is None or self._leaving or cycle is None or cycle.response_complete:
            return  # (an upgrade keeps the last, answered cycle)
        if self._requests < 2:
            return  # a connection is kept for its first answer (see the module docstring)
        if not cycle.keep_alive:
            return
        if counts.over_share():
            cycle.keep_alive = False  # answered with "Connection: close", then closed
            self._leaving = True
            counts.leaving += 1
