"""Start-up of the web site: launch of ``mingshu serve`` to its first answer.

    PYTHONPATH=src .venv/bin/python bench/bench_startup_web.py [--runs 5] [--workers 1]

Each run starts ``mingshu serve`` on a free 127.0.0.1 port with a fresh SQLite database
(migrations included) and measures, from the launch: the URL line; the first accepted
connection; the first answer (``/api/health``); the first chart page; and, timed alone, the
first view of the two slowest articles (they draw tables over every layout or run the iztro
crosscheck: seconds, paid by their first reader since nothing renders at start-up); and the
CPU time the server used until its first answer, which the load on the machine does not
inflate.
Prints the median and the worst of each, with the machine's load average before and after:
the two cores are often shared, so read the figures as this run's.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

BIRTH = "date=1987-05-16&time=10:30&gender=female"
STEPS = ("URL printed", "socket accepts", "first answer", "first chart page",
         "MS-LIB-01 first view *", "BZ-SS-10 first view *", "CPU to first answer **")  # fmt: skip


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _until(what: str, probe: object, limit: float = 300.0) -> None:
    end = time.monotonic() + limit
    while time.monotonic() < end:
        try:
            probe()  # type: ignore[operator]
            return
        except OSError:
            time.sleep(0.005)
    raise SystemExit(f"{what}: nothing after {limit:.0f} s")


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) of the process and its live children (the workers)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # ended meanwhile
        if stat.parent.name == str(pid) or fields[1] == str(pid):
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / tick


def one_run(workers: int) -> list[float]:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    exe = Path(sys.executable).with_name("mingshu")
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "MINGSHU_DATABASE_URL": f"sqlite:///{tmp}/web.sqlite3"}
        t0 = time.monotonic()
        proc = subprocess.Popen(
            [str(exe), "serve", "--port", str(port), "--workers", str(workers)],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        )  # fmt: skip
        try:
            assert proc.stdout is not None
            proc.stdout.readline()
            times = [time.monotonic() - t0]
            _until("connect", lambda: socket.create_connection(("127.0.0.1", port), 1).close())
            times.append(time.monotonic() - t0)
            for path in ("/api/health", f"/chart?{BIRTH}"):
                _until(path, lambda p=path: urllib.request.urlopen(base + p, timeout=300).read())
                times.append(time.monotonic() - t0)
                if path == "/api/health":
                    cpu = cpu_seconds(proc.pid)
            for article in ("MS-LIB-01", "BZ-SS-10"):  # this request alone, not from launch
                t = time.monotonic()
                urllib.request.urlopen(f"{base}/library/{article}", timeout=300).read()
                times.append(time.monotonic() - t)
            return [*times, cpu]
        finally:
            proc.terminate()
            proc.wait(60)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    runs = [one_run(args.workers) for _ in range(args.runs)]
    load_after = os.getloadavg()[0]
    print(f"mingshu serve --workers {args.workers}, {args.runs} runs, seconds from launch "
          f"(load average {load_before:.1f} before, {load_after:.1f} after)")  # fmt: skip
    print(f"{'':24s} {'median':>8s} {'worst':>8s}")
    for i, step in enumerate(STEPS):
        col = [r[i] for r in runs]
        print(f"{step:24s} {statistics.median(col):8.2f} {max(col):8.2f}")
    print("* that request alone (the article is drawn then kept), not from launch")
    print("** CPU seconds of the server and its workers at the first answer: with one worker")
    print("   about the wall time to the first answer on a quiet machine (one thread)")


if __name__ == "__main__":
    main()
