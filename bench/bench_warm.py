"""The first readers of a fresh server: waves of 50 concurrent chart pages of new births,
on a server whose workers skipped the idle warm-up (``MINGSHU_WARM_PAGES=0``) and on one
that had it (mingshu.web.warmup; bench_web.start waits for it).

    .venv/bin/python bench/bench_warm.py [--waves 3] [--seed 1]

Starts ``mingshu serve --workers 2`` on 127.0.0.1 for each mode and prints each wave's
median and slowest answer.  The server and the 50 client threads share the machine's
cores: compare the two modes in one run, and say the load.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bench_web import start, stop
from instructions_web import births


def waves(base: str, count: int, rng: random.Random) -> list[tuple[float, float]]:
    """``count`` waves of 50 new-birth chart pages at once, 1 s apart: (median, slowest) s."""

    def one(query: str) -> float:
        t0 = time.perf_counter()
        with urllib.request.urlopen(f"{base}/chart?{query}", timeout=120) as r:
            r.read()
        return time.perf_counter() - t0

    out = []
    with ThreadPoolExecutor(50) as pool:
        for _ in range(count):
            times = sorted(pool.map(one, births(50, rng)))
            out.append((times[25], times[-1]))
            time.sleep(1.0)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--waves", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    for mode, pages in (("cold", "0"), ("warm", "")):
        tmp = Path(tempfile.mkdtemp(prefix="mingshu-bench-"))
        saved = os.environ.get("MINGSHU_WARM_PAGES")
        os.environ["MINGSHU_WARM_PAGES"] = pages  # empty: the default
        try:
            proc, base = start(f"sqlite:///{tmp / 'web.sqlite3'}")
            try:
                rows = waves(base, args.waves, random.Random(args.seed))
            finally:
                stop(proc)
        finally:
            if saved is None:
                os.environ.pop("MINGSHU_WARM_PAGES", None)
            else:
                os.environ["MINGSHU_WARM_PAGES"] = saved
            shutil.rmtree(tmp, ignore_errors=True)
        for i, (median, slowest) in enumerate(rows):
            ms = f"median {1000 * median:.0f} ms, slowest {1000 * slowest:.0f} ms"
            print(f"{mode} wave {i}: {ms}")


if __name__ == "__main__":
    main()
