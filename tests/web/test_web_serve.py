"""`mingshu serve` as a reader runs it: a fresh process that migrates its database, prints
the URL and serves the site there (SQLite by default, PostgreSQL when
MINGSHU_DATABASE_URL names one)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import sqlalchemy as sa

from .pg import free_port

MINGSHU = str(Path(sys.executable).with_name("mingshu"))


def _serve(env: dict[str, str], port: int) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [MINGSHU, "serve", "--port", str(port)],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert proc.stdout is not None
    line = proc.stdout.readline()
    return proc, line


def _get(url: str) -> tuple[int, str]:
    for _ in range(600):  # start-up warms the engines and articles: seconds on a busy machine
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                return r.status, r.read().decode()
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"nothing answered at {url}")


@pytest.mark.service  # a server process started and waited for (PostgreSQL in the second)
@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_serve_prints_the_url_and_serves(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    port = free_port()
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    env.pop("MINGSHU_DATABASE_URL", None)
    if kind == "postgresql":
        env["MINGSHU_DATABASE_URL"] = request.getfixturevalue("pg_server")
    proc, line = _serve(env, port)
    try:
        assert f"http://127.0.0.1:{port}/" in line
        status, page = _get(
            f"http://127.0.0.1:{port}/chart?date=1987-05-16&time=10:30&gender=female"
        )
        assert status == 200 and "ziwei-board" in page
    finally:
        proc.terminate()
        proc.wait(20)
    if kind == "sqlite":
        db = tmp_path / "mingshu" / "web.sqlite3"
        assert db.exists()
        url = f"sqlite:///{db}"
    else:
        url = env["MINGSHU_DATABASE_URL"]
        assert "***" in line  # the password, if any, is never printed
    tables = set(sa.inspect(sa.create_engine(url)).get_table_names())
    assert {"feedback", "share_card", "alembic_version"} <= tables


def test_serve_refuses_a_bad_port() -> None:
    r = subprocess.run([MINGSHU, "serve", "--port", "70000"], capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.startswith("error: port:")
