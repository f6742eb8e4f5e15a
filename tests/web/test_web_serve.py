"""`mingshu serve` as a reader runs it: a fresh process that migrates its database, prints
the URL and serves the site there (SQLite by default, PostgreSQL when
MINGSHU_DATABASE_URL names one)."""

from __future__ import annotations

import os
import queue
import signal
import socket
import subprocess
import sys
import threading
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
    for _ in range(600):  # start-up loads the engines and draws a chart: seconds when busy
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


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _launch(env: dict[str, str], port: int, workers: int) -> tuple[subprocess.Popen[str], str]:
    """`mingshu serve` in a new process, and its first line of output (read in a thread,
    so a server that never prints cannot hang the test)."""
    proc = subprocess.Popen(
        [MINGSHU, "serve", "--port", str(port), "--workers", str(workers)],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,  # its own process group: a hung server is killed whole
        # Ctrl-C as a terminal delivers it: a test run started in the background (`cmd &`
        # in a script) has SIGINT ignored, which the server would inherit and keep until
        # uvicorn installs its handler, so an early SIGINT was lost and serve ran on.
        preexec_fn=_default_sigint,
    )  # fmt: skip
    lines: queue.Queue[str] = queue.Queue()
    out = proc.stdout
    assert out is not None
    threading.Thread(target=lambda: lines.put(out.readline()), daemon=True).start()
    try:
        return proc, lines.get(timeout=120)
    except queue.Empty:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)
        raise AssertionError("serve printed nothing in 120 s") from None


def _ended(proc: subprocess.Popen[str], within: float) -> str:
    """Wait (bounded) for the process to end; return its stderr."""
    try:
        _, err = proc.communicate(timeout=within)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # the server and its workers
        proc.communicate(timeout=10)
        raise AssertionError(f"serve was still running {within:.0f} s after the signal") from None
    return err


@pytest.mark.parametrize("workers", [1, 2])
def test_serve_listens_once_it_prints_the_url(workers: int, tmp_path: Path) -> None:
    """The URL is printed once the socket listens: a connection made right after the line
    is accepted (it may wait in the backlog while the workers load), never refused; the
    first answer follows, and SIGTERM then ends the server."""
    port = free_port()
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    env.pop("MINGSHU_DATABASE_URL", None)
    proc, line = _launch(env, port, workers)
    try:
        assert f"http://127.0.0.1:{port}/" in line
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            pass  # refused before: the URL came seconds before uvicorn listened
        status, body = _get(f"http://127.0.0.1:{port}/api/health")
        assert status == 200 and "ok" in body
    finally:
        proc.send_signal(signal.SIGTERM)
        err = _ended(proc, within=60)
    assert "Traceback" not in err


def _wait_for_workers(pid: int, n: int) -> None:
    """Until ``n`` worker processes of the server run (bounded), and a moment more."""
    for _ in range(600):
        children = 0
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                ppid = stat.read_text().rsplit(")", 1)[1].split()[1]
                cmdline = (stat.parent / "cmdline").read_bytes()
            except OSError:
                continue
            children += ppid == str(pid) and b"multiprocessing" in cmdline
        if children >= n:
            time.sleep(0.5)
            return
        time.sleep(0.1)
    raise AssertionError(f"no {n} workers in 60 s")


@pytest.mark.parametrize(
    ("workers", "sig"),
    [(1, signal.SIGTERM), (2, signal.SIGTERM), (1, signal.SIGINT)],
    ids=["1-SIGTERM", "2-SIGTERM", "1-SIGINT"],
)
def test_a_signal_during_start_ends_serve(
    workers: int, sig: signal.Signals, tmp_path: Path
) -> None:
    """SIGTERM or Ctrl-C while the workers are still loading ends the server promptly (it
    used to finish rendering every article first) and prints no traceback.  The bound is
    generous for a loaded machine: loading the app is about a second of CPU."""
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    env.pop("MINGSHU_DATABASE_URL", None)
    proc, line = _launch(env, free_port(), workers)
    assert "http://127.0.0.1:" in line
    if workers > 1:
        _wait_for_workers(proc.pid, workers)  # the signal reaches workers that are loading
    proc.send_signal(sig)
    err = _ended(proc, within=20)
    assert "Traceback" not in err
