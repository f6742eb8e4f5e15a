"""The web site's cost of a request through the whole ASGI app (middleware, routes or the
chart lane, caches) as CPU instructions (valgrind's callgrind), steady on a busy machine.

    .venv/bin/python bench/instructions_asgi.py [--cases 200]

Each figure is the difference between two runs of this script under ``valgrind
--tool=callgrind`` that do the same set-up (imports, the app with a fresh SQLite store,
``warm()``, then --cases requests of each step with other births, so the caches of what is
a pure function of the settings are warm, as in a running server) and differ only in the
--cases requests of the step measured, divided by --cases:

* trivial: ``/api/health`` (bench_web.py's ceiling);
* API one birth: ``/api/ziwei`` for one birth, over and over (the per-URL caches answer);
* API new birth, page new birth: ``/api/ziwei`` and ``/chart`` for a birth not asked before.

The requests are ASGI calls in process, as uvicorn would make them (no sockets, no HTTP
parsing).  Needs valgrind on the PATH; takes about a minute.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import tempfile
from collections.abc import Callable, Sequence
from typing import Any

import callgrind
from instructions_web import births

ONE = "date=1987-05-16&time=10%3A30&gender=female"
"""The birth mingshu.web.app.warm draws first."""
STEPS: dict[str, tuple[str, Callable[[random.Random, int], list[str]]]] = {
    "trivial": ("/api/health", lambda rng, n: [""] * n),
    "API one birth": ("/api/ziwei", lambda rng, n: [ONE] * n),
    "API new birth": ("/api/ziwei", lambda rng, n: births(n, rng)),
    "page new birth": ("/chart", lambda rng, n: births(n, rng)),
}


async def call(app: Any, path: str, query: str) -> None:
    """One GET of ``path?query``, its answer dropped."""
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
        "scheme": "http", "path": path, "raw_path": path.encode(), "root_path": "",
        "query_string": query.encode(), "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8000),
        "headers": [(b"host", b"127.0.0.1:8000"), (b"user-agent", b"bench")],
    }  # fmt: skip

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        pass

    await app(scope, receive, send)


async def run_step(step: str, cases: int) -> None:
    """The measured run (under valgrind): set-up, then ``step`` ("" for the set-up alone)."""
    os.environ["MINGSHU_DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3"
    from mingshu.web.app import create_app, warm

    app = create_app()
    warm()
    rng = random.Random(1)
    for path, queries in STEPS.values():
        for query in queries(rng, cases):
            await call(app, path, query)
    if step:
        path, queries = STEPS[step]
        for query in queries(rng, cases):
            await call(app, path, query)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--run", help=argparse.SUPPRESS)  # the child under valgrind
    args = parser.parse_args(argv)
    if args.run is not None:
        asyncio.run(run_step("" if args.run == "setup" else args.run, args.cases))
        return

    def instructions(step: str) -> int:
        return callgrind.instructions(__file__, "--run", step, "--cases", str(args.cases))

    print(f"mingshu web through the ASGI app ({args.cases} requests a step, warm caches)")
    base = instructions("setup")
    for step in STEPS:
        count = (instructions(step) - base) / args.cases
        print(f"{step + ':':16s} {count:>12,.0f} instructions")


if __name__ == "__main__":
    main()
