"""`mingshu serve` as a reader runs it: a fresh process that migrates its database, prints
the URL and serves the site there (SQLite by default, PostgreSQL when
MINGSHU_DATABASE_URL names one)."""

from __future__ import annotations

import contextlib
import os
import queue
import resource
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import sqlalchemy as sa
import uvicorn

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
        if len(_workers(pid)) >= n:
            time.sleep(0.5)
            return
        time.sleep(0.1)
    raise AssertionError(f"no {n} workers in 60 s")


def _workers(pid: int) -> list[int]:
    """The server's worker processes (uvicorn spawns them; its resource tracker is no worker)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            ppid = stat.read_text().rsplit(")", 1)[1].split()[1]
            cmdline = (stat.parent / "cmdline").read_bytes()
        except OSError:
            continue
        if ppid == str(pid) and b"spawn_main" in cmdline:
            found.append(int(stat.parent.name))
    return found


def _connections_held(pids: list[int], port: int) -> list[int]:
    """How many established connections to ``port`` each process holds: its open sockets
    (/proc/<pid>/fd) among the server ends in /proc/net/tcp."""
    server_ends = set()
    for row in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        f = row.split()
        if int(f[1].rsplit(":", 1)[1], 16) == port and f[3] == "01":  # 01: ESTABLISHED
            server_ends.add(f"socket:[{f[9]}]")
    held = []
    for pid in pids:
        count = 0
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            with contextlib.suppress(FileNotFoundError):  # closed while listed: not held
                count += os.readlink(fd) in server_ends
        held.append(count)
    return held


def _ask_health(conns: list[socket.socket]) -> None:
    """Send /api/health on every connection, then read every answer (kept open after)."""
    for c in conns:
        c.sendall(b"GET /api/health HTTP/1.1\r\nHost: t\r\n\r\n")
    for c in conns:
        _health_answer(c)


def _health_answer(conn: socket.socket) -> bytes:
    """One /api/health answer read from ``conn``, checked to be a 200."""
    answer = b""
    while b"\r\n\r\n" not in answer or not answer.endswith(b"}"):
        chunk = conn.recv(4096)
        assert chunk, "the server closed a connection without an answer"
        answer += chunk
    assert answer.startswith(b"HTTP/1.1 200")
    return answer


@contextmanager
def _two_workers(
    tmp_path: Path,
) -> Iterator[tuple[subprocess.Popen[str], int, list[socket.socket]]]:
    """A 2-worker server that has answered once, its port, and a list for the test's
    connections; closed, then the server ended by SIGTERM without a traceback."""
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    env.pop("MINGSHU_DATABASE_URL", None)
    port = free_port()
    proc, _ = _launch(env, port, 2)
    conns: list[socket.socket] = []
    try:
        _wait_for_workers(proc.pid, 2)
        _get(f"http://127.0.0.1:{port}/api/health")
        yield proc, port, conns
    finally:
        for c in conns:
            c.close()
        proc.send_signal(signal.SIGTERM)
        err = _ended(proc, within=60)
    assert "Traceback" not in err


@pytest.mark.skipif(sys.platform != "linux", reason="SO_REUSEPORT balances on Linux only")
def test_each_worker_takes_its_share_of_new_connections(tmp_path: Path) -> None:
    """With 2 workers, 40 connections opened at once are spread over both by the kernel,
    whatever the workers are doing: here one is stopped while they connect.  With one
    socket shared by the workers (uvicorn's way) the running worker accepted all 40.  Each
    worker's count is binomial(40, 1/2): below 8 with probability 4e-5."""
    with _two_workers(tmp_path) as (proc, port, conns):
        workers = _workers(proc.pid)
        os.kill(workers[0], signal.SIGSTOP)  # busy, say, in a long turn
        try:
            conns += [socket.create_connection(("127.0.0.1", port), timeout=60) for _ in range(40)]
            time.sleep(0.5)  # the running worker would take every connection it can
        finally:
            os.kill(workers[0], signal.SIGCONT)
        _ask_health(conns)
        held = _connections_held(workers, port)
        assert sum(held) == 40 and min(held) >= 8, held


@pytest.mark.skipif(sys.platform != "linux", reason="per-worker sockets on Linux only")
def test_a_dead_workers_connections_are_served_by_its_replacement(tmp_path: Path) -> None:
    """A worker killed outright is replaced by uvicorn's supervisor, and the connections the
    kernel hands to the dead worker's socket meanwhile wait there and are answered by the
    replacement: none is refused or reset, and the replacement holds their share."""
    with _two_workers(tmp_path) as (proc, port, conns):
        before = _workers(proc.pid)
        os.kill(before[0], signal.SIGKILL)
        conns += [socket.create_connection(("127.0.0.1", port), timeout=60) for _ in range(40)]
        _ask_health(conns)  # every one answered, the dead socket's last
        replacement = set(_workers(proc.pid)) - set(before)
        assert len(replacement) == 1, "no replacement worker"
        # (the other worker's connections, idle meanwhile, may have met the 5 s keep-alive)
        assert _connections_held(list(replacement), port)[0] >= 8


@pytest.mark.parametrize(
    ("workers", "sig"),
    [(1, signal.SIGTERM), (2, signal.SIGTERM), (1, signal.SIGINT)],
    ids=["1-SIGTERM", "2-SIGTERM", "1-SIGINT"],
)
def test_a_signal_during_start_ends_serve(
    workers: int, sig: signal.Signals, tmp_path: Path
) -> None:
    """SIGTERM or Ctrl-C while the workers are still loading ends the server promptly (it
    used to finish rendering every article first: some 12 s of CPU a worker) and prints no
    traceback.  Promptly is counted in CPU seconds, which a loaded machine does not
    stretch as it stretches the wall clock (CI saw 20 s pass at load 2-3): the server's
    whole life, its workers' included, took 2.4-3.1 s with one worker and 6.7 s with two on
    the quiet machine; the wall-clock bound only catches a hang."""
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    env.pop("MINGSHU_DATABASE_URL", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc, line = _launch(env, free_port(), workers)
    assert "http://127.0.0.1:" in line
    if workers > 1:
        _wait_for_workers(proc.pid, workers)  # the signal reaches workers that are loading
    proc.send_signal(sig)
    err = _ended(proc, within=120)
    assert "Traceback" not in err
    # The server is reaped, and it reaped its workers: their CPU is in the children's usage.
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    assert cpu < 8 * workers, f"serve used {cpu:.1f} s of CPU after a signal during start"


def _listening(workers: int, port: int = 0) -> list[socket.socket]:
    from mingshu.web.server import listening_sockets, uvicorn_config

    return listening_sockets(uvicorn_config("127.0.0.1", port, workers))


@pytest.mark.skipif(sys.platform != "linux", reason="per-worker sockets on Linux only")
def test_each_worker_gets_a_listening_socket_on_the_one_port() -> None:
    socks = _listening(3)
    try:
        assert len(socks) == 3
        assert len({s.getsockname() for s in socks}) == 1  # port 0 too: the port first bound
        for s in socks:
            assert s.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN) == 1
            assert s.getsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT) == 1
        with socket.create_connection(socks[0].getsockname(), timeout=5):
            pass  # listening before any worker runs: accepted into a backlog
    finally:
        for s in socks:
            s.close()


def test_one_shared_socket_with_one_worker_or_without_reuseport(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for socks in (_listening(1), _bad_reuseport(monkeypatch), _not_linux(monkeypatch)):
        assert len(socks) == 1
        assert socks[0].getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN) == 1
        socks[0].close()


def _bad_reuseport(monkeypatch: pytest.MonkeyPatch) -> list[socket.socket]:
    with monkeypatch.context() as m:
        m.setattr(socket, "SO_REUSEPORT", 0x7FFF)  # an option no kernel knows: refused
        return _listening(2)


def _not_linux(monkeypatch: pytest.MonkeyPatch) -> list[socket.socket]:
    with monkeypatch.context() as m:
        m.setattr(sys, "platform", "darwin")  # SO_REUSEPORT there gives all to one socket
        return _listening(2)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_taken_port_is_refused_with_uvicorns_message(
    workers: int, capfd: pytest.CaptureFixture[str]
) -> None:
    """A port another server listens on, also a second `mingshu serve` with per-worker
    sockets: uvicorn's error and exit 3, not a silent share of the port."""
    first = _listening(2)
    port = first[0].getsockname()[1]
    try:
        with pytest.raises(SystemExit) as e:
            _listening(workers, port)
        assert e.value.code == 3  # uvicorn's STARTUP_FAILURE
        assert "Address already in use" in capfd.readouterr().err
    finally:
        for s in first:
            s.close()


class _FakeWorker:
    """A worker process as uvicorn's supervisor sees it, recording the sockets it was given."""

    def __init__(self, config: object, sockets: list[socket.socket]) -> None:
        self.sockets, self.alive, self.exitcode, self.pid = sockets, True, None, 0

    def start(self) -> None: ...
    def join(self) -> None: ...
    def terminate(self) -> None: ...
    def is_alive(self, timeout: float = 5) -> bool:
        return self.alive

    def kill(self) -> None:
        self.alive, self.exitcode = False, -9

    def wait_until_ready(self, timeout: float, should_exit: object = None) -> bool:
        return True


def test_a_replacement_worker_serves_the_socket_of_the_worker_it_replaces(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """uvicorn's supervisor replaces a dead worker (its health check) and every worker on
    SIGHUP; each replacement must get the socket of the worker it replaces, or that socket's
    connections would wait for ever."""
    import uvicorn.supervisors.multiprocess as uvicorn_multiprocess

    from mingshu.web import workers

    monkeypatch.setattr(workers, "Process", _FakeWorker)
    monkeypatch.setattr(uvicorn_multiprocess, "Process", _FakeWorker)
    monkeypatch.setattr(signal, "signal", lambda *args: None)  # keep pytest's handlers
    own = [socket.socket() for _ in range(3)]
    try:
        supervisor = workers.OwnSockets(uvicorn.Config("x:app", workers=3), own)
        supervisor.init_processes()
        first: list[_FakeWorker] = list(supervisor.processes)  # type: ignore[arg-type]
        assert [w.sockets for w in first] == [[s] for s in own]
        first[1].alive = False  # died: replaced at the next check
        supervisor.keep_subprocess_alive()
        now: list[_FakeWorker] = list(supervisor.processes)  # type: ignore[arg-type]
        assert now[0] is first[0] and now[2] is first[2] and now[1] is not first[1]
        assert now[1].sockets == [own[1]]
        supervisor.restart_all()
        assert all(a is not b for a, b in zip(now, supervisor.processes, strict=True))
        assert [w.sockets for w in supervisor.processes] == [[s] for s in own]  # type: ignore[attr-defined]
        assert supervisor.sockets == own
    finally:
        for s in own:
            s.close()


@pytest.mark.parametrize(
    ("workers", "sig", "code"),
    [(1, signal.SIGINT, 130), (2, signal.SIGINT, 130), (1, signal.SIGTERM, -signal.SIGTERM),
     (2, signal.SIGTERM, -signal.SIGTERM)],
    ids=["1-SIGINT", "2-SIGINT", "1-SIGTERM", "2-SIGTERM"],
)  # fmt: skip
def test_a_signal_twice_ends_serve_without_a_traceback(
    workers: int, sig: signal.Signals, code: int, tmp_path: Path
) -> None:
    """A double Ctrl-C (or SIGTERM) as a terminal sends it, to the whole process group, 5 ms
    apart, on a server that has saved a share card.  uvicorn takes a second SIGINT as a
    force quit: it skips the app's lifespan shutdown and its loop cancels the lifespan, which
    Starlette reported as a failed shutdown with a traceback, every time (the database then
    left open: its -wal file stayed).  Now: no traceback, the card kept and the database
    whole; with one worker also closed (SQLite removes the -wal file when its last connection
    closes).  Exit codes, one worker or two:
    130 after SIGINT, ended by SIGTERM after SIGTERM (uvicorn's supervisor returned 0; now it
    ends by its signal too, as the exit code is what a service manager reads).  The
    wall-clock bound only catches a hang (quiet: 0.2-0.4 s with one worker, 0.5-1.4 s with
    two, the supervisor looking at its signals every half second)."""
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    env.pop("MINGSHU_DATABASE_URL", None)
    port = free_port()
    proc, _ = _launch(env, port, workers)
    try:
        if workers > 1:
            _wait_for_workers(proc.pid, workers)
        _get(f"http://127.0.0.1:{port}/api/health")
        card = f"http://127.0.0.1:{port}/library/ZW-AUX-17/card.png"
        with urllib.request.urlopen(card, timeout=60) as r:
            assert r.status == 200  # drawn and saved: a write
    finally:
        os.killpg(proc.pid, sig)
        time.sleep(0.005)
        os.killpg(proc.pid, sig)
        err = _ended(proc, within=60)
    assert "Traceback" not in err, err
    assert proc.returncode == code
    db = tmp_path / "mingshu" / "web.sqlite3"
    if workers == 1:
        assert not db.with_name("web.sqlite3-wal").exists()
    # With two workers a -wal file was still left in 3 of 6 runs on a loaded machine (the
    # supervisor's and the workers' exits race); what it holds is replayed on the next open.
    with sa.create_engine(f"sqlite:///{db}").connect() as conn:
        assert conn.exec_driver_sql("PRAGMA integrity_check").scalar() == "ok"
        assert conn.exec_driver_sql("SELECT count(*) FROM share_card").scalar() == 1
