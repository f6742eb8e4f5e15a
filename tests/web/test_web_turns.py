"""The chart answers' turns (mingshu.web.turns): after a slow answer the event loop polls
its sockets before the next answer starts, waiting answers start in the order they came,
and a fast answer or an error passes the turn on."""

from __future__ import annotations

import asyncio
import socket
import time

import pytest

from mingshu.web.turns import SLOW, Turns


def _slow() -> None:
    time.sleep(SLOW * 4)


@pytest.fixture
def fast(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every answer measures as taking no time.  A fast answer's few microseconds are
    real work on a quiet machine, but a busy one can pause the process mid-answer past
    SLOW (the full suite beside other jobs did), so the tests of fast answers stop the
    clock instead of hoping."""
    monkeypatch.setattr("mingshu.web.turns.perf_counter", lambda: 0.0)


def test_the_loop_polls_between_two_slow_answers() -> None:
    """A connection that becomes readable while a slow answer runs is read before the
    next answer starts (without the turns both answers ran before the next poll)."""

    async def main() -> list[str]:
        events: list[str] = []
        turns = Turns()
        loop = asyncio.get_running_loop()
        r, w = socket.socketpair()
        r.setblocking(False)
        loop.add_reader(r, lambda: (events.append("read"), loop.remove_reader(r)))

        async def answer(name: str, arrives: bool) -> None:
            async with turns:
                events.append(f"{name} starts")
                if arrives:
                    w.send(b"GET")  # a request arrives meanwhile
                _slow()

        try:
            await asyncio.gather(answer("A", True), answer("B", False))
        finally:
            loop.remove_reader(r)
            r.close()
            w.close()
        return events

    assert asyncio.run(main()) == ["A starts", "read", "B starts"]


def test_waiting_answers_start_first_come_first_served() -> None:
    async def main() -> list[str]:
        started: list[str] = []
        turns = Turns()

        async def answer(name: str) -> None:
            async with turns:
                started.append(name)
                _slow()

        async def late(name: str) -> None:
            await asyncio.sleep(0)  # comes one turn of the loop later
            await answer(name)

        await asyncio.gather(answer("A"), answer("B"), late("D"), answer("C"))
        return started

    assert asyncio.run(main()) == ["A", "B", "C", "D"]


def test_fast_answers_and_errors_pass_the_turn_at_once(fast: None) -> None:
    """Cached answers run back to back in one turn of the loop; an answer that fails
    (bad input) frees the turn too."""

    async def main() -> tuple[list[str], list[str]]:
        turns = Turns()
        loop = asyncio.get_running_loop()
        events: list[str] = []

        async def answer(name: str, fails: bool = False) -> None:
            async with turns:
                events.append(name)
                if name == "A":
                    loop.call_soon(events.append, "next turn")
                if fails:
                    raise ValueError(name)

        results = await asyncio.gather(
            answer("A"), answer("B", fails=True), answer("C"), return_exceptions=True
        )
        return events, [type(x).__name__ for x in results]

    events, results = asyncio.run(main())
    assert events == ["A", "B", "C", "next turn"]
    assert results == ["NoneType", "ValueError", "NoneType"]


def test_a_new_event_loop_owes_nothing() -> None:
    """A loop that ended while a poll was owed (a test client's) does not hold up the
    next loop's answers."""
    turns = Turns()

    async def answer() -> None:
        async with turns:
            _slow()

    asyncio.run(answer())  # ends with the pass of the turn still scheduled
    started = time.perf_counter()
    asyncio.run(asyncio.wait_for(answer(), timeout=5))
    assert time.perf_counter() - started < 5


@pytest.mark.parametrize("slow", [False, True])
def test_a_cancelled_waiter_does_not_keep_the_turn(
    slow: bool, request: pytest.FixtureRequest
) -> None:
    if not slow:
        request.getfixturevalue("fast")

    async def main() -> list[str]:
        turns = Turns()
        started: list[str] = []

        async def answer(name: str) -> None:
            async with turns:
                started.append(name)
                if slow:
                    _slow()

        first = asyncio.ensure_future(answer("A"))
        second = asyncio.ensure_future(answer("B"))
        third = asyncio.ensure_future(answer("C"))
        await asyncio.sleep(0)  # A ran; B and C wait (when A was slow)
        second.cancel()
        await asyncio.wait_for(asyncio.gather(first, third), timeout=5)
        return started

    assert asyncio.run(main()) == (["A", "C"] if slow else ["A", "B", "C"])
