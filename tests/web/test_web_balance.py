"""The connection counts that keep the workers' shares even (mingshu.web.balance): the rule,
the shared counts file, and a served 2-worker site evening out the kernel's split."""

from __future__ import annotations

import socket
import sys
from pathlib import Path

import pytest

from mingshu.web.balance import Counts, over_share, prepare

from .test_web_serve import _connections_held, _health_answer, _two_workers, _workers


@pytest.mark.parametrize(
    ("mine", "counts", "over"),
    [
        (25, [25, 25], False),
        (26, [26, 24], True),
        (21, [21, 20], False),  # 41 over 2: a share is 21, rounded up
        (22, [22, 19], True),
        (0, [0, 0], False),
        (1, [1, 0], False),
        (2, [2, 0], True),
        (14, [14, 13, 13], False),
        (15, [15, 13, 12], True),
    ],
)
def test_a_worker_is_over_its_share_above_the_rounded_up_mean(
    mine: int, counts: list[int], over: bool
) -> None:
    assert over_share(mine, counts) is over


def test_each_worker_writes_its_slot_and_reads_the_others(tmp_path: Path) -> None:
    path = str(tmp_path / "connections")
    prepare(path, 2)
    first, second = Counts(path, 0), Counts(path, 1)
    for _ in range(3):
        first.add(1)
    second.add(1)
    assert first.over_share() and not second.over_share()  # 3 of 4: the share is 2
    first.leaving = 1  # told to close, still open: still in the total, not in its own
    assert not first.over_share() and not second.over_share()
    first.add(-1)
    first.leaving = 0
    assert not first.over_share() and not second.over_share()
    Counts(path, 0)  # a replacement worker in slot 0: its predecessor's connections are gone
    assert not second.over_share()  # 1 of 1: the share rounds up
    second.add(1)
    assert second.over_share()  # 2 against 0


def _answer(conn: socket.socket) -> bool:
    """Read one /api/health answer; whether the server asked to close the connection."""
    head = _health_answer(conn).split(b"\r\n\r\n", 1)[0].lower()
    return b"\r\nconnection: close" in head


@pytest.mark.skipif(sys.platform != "linux", reason="per-worker sockets on Linux only")
def test_the_workers_even_out_the_connections_the_kernel_split(tmp_path: Path) -> None:
    """60 keep-alive connections, each asking /api/health round after round and connecting
    again whenever the server closes one: the kernel hashes every (re)connection to a
    worker at random, and the worker over its share closes the excess, so the split ends
    30/30.  Three times over, with new connections: left to the kernel alone, a split is
    30/30 with probability 0.10, three in a row 0.001."""
    n = 60
    with _two_workers(tmp_path) as (proc, port, conns):
        workers = _workers(proc.pid)
        for _ in range(3):
            for c in conns:
                c.close()
            conns[:] = [socket.create_connection(("127.0.0.1", port), timeout=30) for _ in range(n)]
            closed = 0
            for _ in range(40):
                for c in conns:
                    c.sendall(b"GET /api/health HTTP/1.1\r\nHost: t\r\n\r\n")
                for i, c in enumerate(conns):
                    if _answer(c):
                        closed += 1
                        c.close()
                        conns[i] = socket.create_connection(("127.0.0.1", port), timeout=30)
                held = _connections_held(workers, port)
                if held == [n // 2, n // 2]:
                    break
            assert held == [n // 2, n // 2], (held, closed)
