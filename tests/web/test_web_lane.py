"""The chart lane (mingshu.web.lane) answers as the FastAPI routes do: the reference is the
same app built without the lane, every request through its route."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from mingshu.web import create_app
from mingshu.web.lane import LANES, ChartLane

Answer = tuple[int, list[tuple[bytes, bytes]], bytes]

BIRTH = "date=1987-05-16&time=10%3A30&gender=female"
QUERIES = [
    BIRTH,
    "date=1987-05-16&time=10:30&gender=female",
    "gender=male&date=1990-01-02&time=23:59",
    "gender=male&date=1990-01-02&time=23:59&at=2031-06-01T08:30&algorithm=quanshu",
    "date=1987-5-16&time=9:05&gender=M&school=quanshu&algorithm=quanshu",
    "date=1987-05-16&time=10%3A30&gender=%E5%A5%B3&names=hant&lang=zh-Hans",
    "date=1987-05-16&time=10%3A30&gender=female&at=2026-11-29T10:00",
    "date=1987-05-16&time=10%3A30&gender=female&at=2026-11-29&year=2030",
    "date=1987-05-16&time=10%3A30&gender=female&year=2030&star=wen_chang:w2",
    "date=1987-05-16&unknown_hour=1&gender=female",
    "date=2023-02-30&calendar=lunar&time=08:00&gender=male",
    "date=2023-02-09&calendar=lunar&leap=1&time=08:00&gender=male",
    "date=1987-05-16&time=10%3A30&gender=female&tz=Europe%2FLondon&lon=-0.1&true_solar=1",
    "date=1987-05-16&time=10%3A30&gender=female&city=1816670",
    "d%61te=1987-05-16&time=10+%3A30&gender=female",
    # Errors, duplicates, unknown fields, no query: the routes answer.
    "date=1987-13-40&time=10:30&gender=female",
    "date=1987-05-16&date=1987-05-17&time=10:30&gender=female",
    "date=1987-05-16&time=10:30&gender=female&foo=1",
    "date=1987-05-16&time=10:30",
    "",
    "&",
    # A typed place: the page's redirect or question; a blank one is no place.
    "date=1987-05-16&time=10:30&gender=female&place=Paris",
    "date=1987-05-16&time=10:30&gender=female&pl%61ce=Springfield",
    "date=1987-05-16&time=10:30&gender=female&place=+",
    "date=1987-05-16&time=10:30&gender=female&place=Paris&place=London",
    "date=1987-05-16&time=10:30&gender=female&lang=place",
    # Query strings the lane leaves alone (not plain ASCII, or cut at a #).
    "date=1987-05-16&time=10:30&gender=女",
    "date=1987-05-16&time=10:30&gender=female#x",
    "date=1987-05-16&time=10:30&gender=female&x=%FF",
]


async def _call(app: Any, method: str, path: str, query: bytes, headers: list[Any]) -> Answer:
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
        "scheme": "http", "path": path, "raw_path": path.encode(), "root_path": "",
        "query_string": query, "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 8000),
        "headers": [(b"host", b"127.0.0.1:8000"), *headers],
    }  # fmt: skip

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    out: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        out.append(message)

    await app(scope, receive, send)
    return out[0]["status"], out[0]["headers"], b"".join(m.get("body", b"") for m in out[1:])


@pytest.mark.parametrize("path", sorted(LANES))
def test_the_lane_answers_as_the_route(sqlite_url: str, path: str) -> None:
    lane, route = create_app(sqlite_url), create_app(sqlite_url, chart_lane=False)

    async def compare() -> int:
        answered = 0
        for query in QUERIES:
            raw = query.encode()
            first = await _call(route, "GET", path, raw, [])
            answered += first[0] == 200
            tag = dict(first[1]).get(b"etag", b'"none"')
            for method, headers in [
                ("GET", []),
                ("GET", [(b"if-none-match", tag)]),
                ("GET", [(b"if-none-match", b'"other", ' + tag)]),
                ("GET", [(b"if-none-match", b'"other"')]),
                ("HEAD", []),
                ("POST", []),
            ]:
                want = await _call(route, method, path, raw, headers)
                assert await _call(lane, method, path, raw, headers) == want, (method, query)
        return answered

    assert asyncio.run(compare()) >= 2  # charts, not only the routes' errors


def test_the_lane_leaves_to_the_route_what_it_does_not_answer() -> None:
    passed: list[tuple[str, bytes]] = []

    async def route(scope: Any, receive: Any, send: Any) -> None:
        passed.append((scope["method"], scope["query_string"]))

    lane = ChartLane(route)

    async def ask(method: str, query: str, path: str = "/chart") -> bool:
        """Did the lane answer (and the route not see the request)?"""
        before = len(passed)
        sent: list[Any] = []

        async def send(message: Any) -> None:
            sent.append(message)

        scope = {"type": "http", "method": method, "path": path, "root_path": "",
                 "query_string": query.encode(), "headers": []}  # fmt: skip
        await lane(scope, None, send)
        answered = len(passed) == before
        assert not answered or sent[0]["status"] == 200
        return answered

    async def check() -> None:
        assert await ask("GET", BIRTH)
        assert await ask("GET", BIRTH, "/api/ziwei")
        assert await ask("GET", BIRTH + "&place=")
        assert not await ask("GET", BIRTH, "/api/ziwei/hours")
        assert not await ask("HEAD", BIRTH)
        assert not await ask("GET", BIRTH + "&place=Paris")
        assert not await ask("GET", "date=1987-13-40&time=10:30&gender=female")
        assert not await ask("GET", "")
        assert not await ask("GET", BIRTH.replace("female", "女"))

    asyncio.run(check())
