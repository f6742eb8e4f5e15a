"""The feedback post through a real uvicorn server on 127.0.0.1, as `mingshu serve` sets it
up (mingshu.web.server.uvicorn_config): proxy headers are believed only from
``--forwarded-allow-ips``, and the database write leaves the event loop free (issue 24)."""

from __future__ import annotations

import re
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
import uvicorn

from mingshu import library
from mingshu.web.security import CSRF_COOKIE
from mingshu.web.server import uvicorn_config
from mingshu.web.store import Store, migrate

from .pg import free_port

ARTICLE = library.load().articles[0].id


@contextmanager
def _server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, allow: str = ""
) -> Iterator[tuple[str, str]]:
    """A one-worker server in a thread over a fresh SQLite file: (base URL, database URL)."""
    url = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    migrate(url)
    monkeypatch.setenv("MINGSHU_DATABASE_URL", url)
    monkeypatch.delenv("MINGSHU_SECRET", raising=False)
    port = free_port()
    server = uvicorn.Server(uvicorn_config("127.0.0.1", port, 1, allow))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        for _ in range(600):  # the worker loads the engines first: seconds when busy
            if server.started:
                break
            time.sleep(0.1)
        assert server.started, "the server did not start"
        yield f"http://127.0.0.1:{port}", url
    finally:
        server.should_exit = True
        thread.join(30)


def _post(
    base: str, headers: dict[str, str] | None = None, comment: str = ""
) -> tuple[httpx.Client, dict[str, str]]:
    client = httpx.Client(base_url=base, timeout=60)
    page = client.get(f"/library/{ARTICLE}").text
    m = re.search(r'name="csrf" value="([^"]+)"', page)
    assert m and client.cookies[CSRF_COOKIE] == m.group(1)
    return client, {"csrf": m.group(1), "helpful": "yes", "comment": comment}


@pytest.mark.parametrize(("allow", "seen_as"), [("", "127.0.0.1"), ("127.0.0.1", "203.0.113.9")])
def test_proxy_headers_only_from_the_allowed_addresses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, allow: str, seen_as: str
) -> None:
    """By default a made-up ``X-Forwarded-For`` is ignored (the rate limit counts the
    connection's address); from an allowed proxy it names the client, and
    ``X-Forwarded-Proto: https`` makes the site's origin https."""
    with _server(tmp_path, monkeypatch, allow) as (base, url):
        client, form = _post(base)
        origin = base.replace("http://", "https://")
        headers = {"X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "https"}
        r = client.post(
            f"/library/{ARTICLE}/feedback", data=form, headers={**headers, "Origin": origin}
        )
        trusted = bool(allow)
        assert r.status_code == (303 if trusted else 403)
        if not trusted:  # the origin the browser sends for this plain-http site
            r = client.post(
                f"/library/{ARTICLE}/feedback", data=form, headers={**headers, "Origin": base}
            )
            assert r.status_code == 303
        store = Store(url, salt=(tmp_path / "web.sqlite3.secret").read_text().strip())
        assert [row.client for row in store.feedback()] == [store.client_hash(seen_as)]
        store.dispose()


def test_a_waiting_database_write_does_not_stop_other_readers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While a feedback post waits for the database (another process holds the write lock),
    the same single worker still answers other requests."""
    with _server(tmp_path, monkeypatch) as (base, url):
        client, form = _post(base, comment="written after the lock")
        lock = sqlite3.connect(url.removeprefix("sqlite:///"), isolation_level=None)
        lock.execute("BEGIN EXCLUSIVE")
        outcome: list[int] = []
        post = threading.Thread(
            target=lambda: outcome.append(
                client.post(f"/library/{ARTICLE}/feedback", data=form).status_code
            )
        )
        post.start()
        try:
            time.sleep(1)  # the post reaches the server and waits on the lock
            # Blocked on the event loop, this would wait the busy timeout (30 s) out.
            health = httpx.get(f"{base}/api/health", timeout=20)
            assert health.status_code == 200
            assert post.is_alive()  # the write was still waiting meanwhile
        finally:
            lock.execute("ROLLBACK")
            lock.close()
            post.join(60)
        assert outcome == [303]
        store = Store(url)
        assert [r.comment for r in store.feedback()] == ["written after the lock"]
        store.dispose()


@pytest.mark.parametrize("value", ["nginx", "10.0.0.0/33", "127.0.0.1,,::1", "1.2.3.4 5.6.7.8"])
def test_a_bad_proxy_list_is_one_error_line(
    value: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from mingshu.cli import app

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.delenv("MINGSHU_DATABASE_URL", raising=False)
    r = CliRunner().invoke(app, ["serve", "--forwarded-allow-ips", value, "--port", "1"])
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr.startswith("error: forwarded-allow-ips: ") and r.stderr.count("\n") == 1
    assert not any(tmp_path.iterdir())  # refused before the database is touched
