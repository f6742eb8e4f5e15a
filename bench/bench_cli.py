"""Command-line start-up: wall time of `mingshu` commands run as fresh processes.

    .venv/bin/python bench/bench_cli.py [--repeat 10] [--only help]

Each command runs --repeat times as a subprocess (the installed `mingshu` console script
beside this Python, as a user would run it; output thrown away); the best and the median
wall time are printed, and the least CPU time (user + system) the process took, which other
load disturbs less.  Wall time includes the interpreter's own start-up, so the first two
lines (a bare interpreter, and `import typer`) show the floor under every command.  Other
load on the machine only ever adds time: read the best figure.  The children run with
Python's bytecode cache on, as an installed mingshu does, even where the environment sets
PYTHONDONTWRITEBYTECODE (--no-bytecode keeps it).  Targets (issue 7):
`mingshu --help` ≤ 150 ms, a chart ≤ 250 ms.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path


def mingshu() -> list[str]:
    """The console script installed beside this interpreter, or the same entry point."""
    script = Path(sys.executable).parent / "mingshu"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "from mingshu.cli import main; main()"]


ZIWEI = ["ziwei", "1987-05-16", "10:30", "-g", "female"]
BAZI = ["bazi", "1990-05-15", "10:30", "-g", "male"]


def commands() -> list[tuple[str, list[str]]]:
    m = mingshu()
    return [
        ("python -c pass", [sys.executable, "-c", "pass"]),
        ("python -c 'import typer'", [sys.executable, "-c", "import typer"]),
        ("mingshu --help", [*m, "--help"]),
        ("mingshu ziwei --help", [*m, "ziwei", "--help"]),
        ("mingshu bazi --help", [*m, "bazi", "--help"]),
        ("mingshu " + " ".join(ZIWEI), [*m, *ZIWEI]),
        ("mingshu ziwei … --at 2026-11-29T10:00", [*m, *ZIWEI, "--at", "2026-11-29T10:00"]),
        ("mingshu ziwei … --json", [*m, *ZIWEI, "--json"]),
        ("mingshu " + " ".join(BAZI), [*m, *BAZI]),
        ("mingshu ziwei 2030-02-30 … (an error)", [*m, "ziwei", "2030-02-30", "10:30", "-g", "f"]),
    ]


def child_env(bytecode: bool) -> dict[str, str]:
    env = {**os.environ, "COLUMNS": "120"}
    if bytecode:
        # As installed: Python caches compiled modules (__pycache__).  Without the cache,
        # every run compiles mingshu's sources again (tens of ms).
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def timed_runs(
    argv: list[str], repeat: int, env: dict[str, str]
) -> tuple[list[float], list[float]]:
    """Wall times and CPU times (user + system of the child) of ``repeat`` runs."""
    walls, cpus = [], []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return walls, cpus


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=10, help="runs of each command")
    parser.add_argument("--only", default="", help="run only commands containing this text")
    parser.add_argument(
        "--no-bytecode",
        action="store_true",
        help="keep PYTHONDONTWRITEBYTECODE if set (sources compiled on every run)",
    )
    args = parser.parse_args()
    env = child_env(bytecode=not args.no_bytecode)
    cached = "PYTHONDONTWRITEBYTECODE" not in env
    print(
        f"Python {platform.python_version()} on {platform.machine()}, {args.repeat} runs each, "
        f"bytecode cache {'on' if cached else 'off'}"
    )
    print(f"{'command':<44} {'best':>7} {'median':>7} {'best CPU':>9}")
    for label, argv in commands():
        if args.only not in label:
            continue
        # A first run warms the caches (files, bytecode).
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        walls, cpus = timed_runs(argv, args.repeat, env)
        best, median = min(walls) * 1000, statistics.median(walls) * 1000
        print(f"{label:<44} {best:>5.0f}ms {median:>5.0f}ms {min(cpus) * 1000:>7.0f}ms")


if __name__ == "__main__":
    main()
