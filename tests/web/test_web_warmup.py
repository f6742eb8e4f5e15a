"""The idle warm-up of a served worker (mingshu.web.warmup): it draws its charts only while
the worker answers nothing, keeps them out of the recent pages' caches, survives a chart that
fails, says when it is done, and a bad MINGSHU_WARM_PAGES is refused by name (mingshu serve
refusing it: tests/web/test_web_environment.py)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from mingshu.errors import InputError
from mingshu.web import warmup
from mingshu.web.app import create_app
from mingshu.web.pages import chart_page_bytes
from mingshu.web.query import parse_query
from mingshu.web.warmup import Activity, Tracking, births, pages_from_env, warm_while_idle


def test_the_warm_up_births_are_fixed_and_valid() -> None:
    first = births(50)
    assert first == births(50) and len(set(first)) == 50
    for query in first:
        q = parse_query(query)  # a bad birth would be its FieldErrors
        assert 1900 <= int(q.date[:4]) <= 2099


class _Drawn:
    """Stands for chart_page_bytes and _ziwei_bytes: records the queries drawn (uncached)."""

    def __init__(self, fail_on: str = "") -> None:
        self.queries: list[str] = []
        self.fail_on = fail_on
        self.__wrapped__ = self.draw

    def draw(self, q: Any) -> bytes:
        if self.fail_on and q.date == self.fail_on:
            raise RuntimeError("a chart that fails")
        self.queries.append(q.date)
        return b""


def _patched(monkeypatch: pytest.MonkeyPatch, fail_on: str = "") -> _Drawn:
    from mingshu.web import api, pages

    drawn = _Drawn(fail_on)
    monkeypatch.setattr(pages, "chart_page_bytes", drawn)
    monkeypatch.setattr(api, "_ziwei_bytes", _Drawn())
    return drawn


def test_nothing_is_drawn_while_a_request_is_answered(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = _patched(monkeypatch)
    queries = births(3)

    async def run() -> tuple[int, int, bool]:
        activity = Activity()
        activity.active = 1  # a request being answered
        task = asyncio.create_task(warm_while_idle(activity, queries, quiet=0.01))
        await asyncio.sleep(0.1)
        during, done_during = len(drawn.queries), warmup.warmed()
        activity.active = 0
        activity.last = time.monotonic()
        await asyncio.wait_for(task, 5)
        return during, len(drawn.queries), done_during

    during, after, done_during = asyncio.run(run())
    assert (during, after) == (0, 3)
    assert not done_during and warmup.warmed()


def test_a_chart_that_fails_is_told_and_the_rest_drawn(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    queries = births(3)
    second = parse_query(queries[1]).date
    drawn = _patched(monkeypatch, fail_on=second)
    asyncio.run(warm_while_idle(Activity(), queries, quiet=0.0))
    assert len(drawn.queries) == 2 and second not in drawn.queries
    assert "warm-up chart" in caplog.text and "a chart that fails" in caplog.text


def test_the_tracking_middleware_counts_a_request_while_it_is_answered() -> None:
    activity = Activity()
    seen: list[int] = []

    async def inner(scope: Any, receive: Any, send: Any) -> None:
        seen.append(activity.active)

    app = Tracking(inner, activity)
    before = time.monotonic()
    asyncio.run(app({"type": "http"}, None, None))
    assert seen == [1] and activity.active == 0 and activity.last >= before
    assert not activity.idle(60.0) and activity.idle(0.0)


def test_a_served_app_warms_itself_when_idle_and_keeps_no_warm_page(tmp_path: Path) -> None:
    chart_page_bytes.cache_clear()
    app = create_app(f"sqlite:///{tmp_path / 'w.sqlite3'}", warm_pages=4)
    with TestClient(app) as client:
        deadline = time.monotonic() + 60
        while not client.get("/api/health").json()["warm"]:
            assert time.monotonic() < deadline, "the warm-up did not end"
            time.sleep(0.2)
        assert client.get("/api/health").json() == {
            "ok": True, "version": client.app.version, "warm": True,  # type: ignore[attr-defined]
        }  # fmt: skip
    # The warm-up drew its charts without keeping their pages among the recent ones.
    assert chart_page_bytes.cache_info().currsize == 0


@pytest.mark.parametrize("value", ["-1", "abc", "1e3", "100001", "６"])
def test_a_bad_warm_pages_value_is_refused_by_name(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("MINGSHU_WARM_PAGES", value)
    with pytest.raises(InputError, match="MINGSHU_WARM_PAGES"):
        pages_from_env()


@pytest.mark.parametrize(("value", "pages"), [("", warmup.PAGES), ("0", 0), (" 25 ", 25)])
def test_warm_pages_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, value: str, pages: int
) -> None:
    monkeypatch.setenv("MINGSHU_WARM_PAGES", value)
    assert pages_from_env() == pages
