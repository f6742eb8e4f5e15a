"""The sweep's years as tasks on a Dask distributed cluster (see docs/space.md, Scale-out).

Each year is one task running the local sweep's own :func:`~mingshu.space.ziwei_sweep._write_year`
on a worker: the worker charts the year and writes ``OUT/year=YYYY/part.parquet`` itself
(temporary name, then ``os.replace``), so ``OUT`` must be a path every worker sees at the same
name (a shared file system).  ``dask`` and ``distributed`` (the ``cluster`` extra) are imported
here only, when a scheduler is given.
"""

from __future__ import annotations

import re
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from mingshu.errors import InputError
from mingshu.named import clip

if TYPE_CHECKING:
    from mingshu.ziwei import ZiweiSettings

__all__ = ["LOCAL", "TIMEOUT", "check_address", "connect", "run"]

LOCAL: Final = "local"
"""The scheduler word that starts a LocalCluster on this machine (127.0.0.1, no dashboard)."""
TIMEOUT: Final = 10.0
"""Seconds to reach the scheduler and to find a worker before the address is refused; also
how long a running sweep waits while the scheduler has no worker left before it fails."""
_POLL: Final = 1.0
"""Seconds between looks at the scheduler's workers while no year comes back."""
_ADDRESS: Final = re.compile(
    r"tcp://(?P<host>[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\]):(?P<port>\d{1,5})"
)


def check_address(scheduler: object) -> str:
    """``scheduler`` as given if it is ``"local"`` or ``tcp://HOST:PORT``; an
    :class:`InputError` on ``scheduler`` otherwise."""
    if not isinstance(scheduler, str):
        raise InputError("scheduler", f"give tcp://HOST:PORT or {LOCAL!r}, not {clip(scheduler)}")
    match = _ADDRESS.fullmatch(scheduler)
    if scheduler != LOCAL and (match is None or not 0 < int(match["port"]) < 65536):
        raise InputError(
            "scheduler",
            f"{clip(scheduler)} is not a Dask scheduler address: give tcp://HOST:PORT "
            f"(as `dask scheduler` prints it) or {LOCAL!r}",
        )
    return scheduler


@contextmanager
def _interrupts_ignored() -> Iterator[None]:
    """SIGINT ignored while the body runs (processes started then inherit that), in the main
    thread only (elsewhere Python does not deliver it and cannot change it)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@contextmanager
def connect(scheduler: str, workers: int) -> Iterator[Any]:
    """A ``distributed.Client`` of the scheduler, with at least one worker that runs this
    mingshu version, closed on exit; ``"local"`` starts (and closes) a LocalCluster of
    ``workers`` processes on 127.0.0.1."""
    try:
        import distributed
    except ImportError:
        raise InputError(
            "scheduler", "the Dask cluster needs the cluster extra: pip install 'mingshu[cluster]'"
        ) from None

    dask: Any = distributed  # untyped calls: LocalCluster, Client
    cluster: Any = None
    client: Any = None
    try:
        if scheduler == LOCAL:
            # Worker processes start with Ctrl-C ignored (inherited), as the pool's do: the
            # command handles it, and a year being written finishes and is renamed.
            with _interrupts_ignored():
                cluster = dask.LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    host="127.0.0.1",
                    dashboard_address=None,
                )
            address = cluster.scheduler_address
        else:
            address = scheduler
        try:
            client = dask.Client(address, timeout=TIMEOUT)
        except (OSError, TimeoutError) as e:
            raise InputError(
                "scheduler",
                f"cannot reach a Dask scheduler at {address} within {TIMEOUT:g} s ({e})",
            ) from None
        try:
            client.wait_for_workers(1, timeout=TIMEOUT)
        except (OSError, TimeoutError):
            raise InputError(
                "scheduler",
                f"the scheduler at {address} has no worker after {TIMEOUT:g} s: "
                f"start one with `dask worker {address}`",
            ) from None
        _check_versions(client, address)
        yield client
    finally:
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()


def _version() -> str:
    from mingshu import __version__

    return __version__


def _check_versions(client: Any, address: str) -> None:
    """Every worker charts with this mingshu version, or the rows could differ from the
    local sweep's (and from the version ``_mingshu.json`` records)."""
    ours = _version()
    try:
        theirs: dict[str, str] = client.run(_version)
    except ImportError as e:
        raise InputError("scheduler", f"a worker of {address} cannot import mingshu: {e}") from None
    other = {w: v for w, v in theirs.items() if v != ours}
    if other:
        named = ", ".join(f"{w} has {v}" for w, v in sorted(other.items()))
        raise InputError(
            "scheduler", f"workers of {address} run another mingshu than {ours} ({named})"
        )


def _write_year(
    out: str, year: int, settings: ZiweiSettings, backend: str = "numpy"
) -> tuple[int, int, int]:
    """The local sweep's year on a worker, once the worker sees ``OUT/_mingshu.json`` (the
    client wrote it): a worker without the shared directory would write where no one reads."""
    import socket

    from mingshu.space import ziwei_sweep
    from mingshu.space.runner import METADATA

    if not (Path(out) / METADATA).is_file():
        raise InputError(
            "out",
            f"{out} is not visible on the worker at {socket.gethostname()} (no "
            f"{METADATA}): --out must be on storage every worker shares, "
            "at the same path",
        )
    return ziwei_sweep._write_year(out, year, settings, backend)


def run(
    client: Any,
    out: str,
    years: list[int],
    settings: ZiweiSettings,
    done: Callable[[tuple[int, int, int]], None],
    backend: str = "numpy",
) -> None:
    """Submit every year as one task and report each result to ``done`` as it comes back.
    Ctrl-C or a failed year cancels the years not yet started; a year a worker is writing
    finishes there and is renamed into place (or never appears).

    A scheduler left without a worker for :data:`TIMEOUT` seconds (every worker died), a
    year that killed the workers that ran it, or a lost scheduler is an :class:`InputError`
    on ``scheduler`` naming it: the years never come back, and waiting would be forever."""
    import time
    from uuid import uuid4

    import distributed

    dask: Any = distributed
    address = str(client.scheduler.address)
    run_id = uuid4().hex[:12]  # two sweeps on one cluster never share a task key
    futures = [
        client.submit(
            _write_year, out, year, settings, backend, key=f"mingshu-sweep-{year}-{run_id}"
        )
        for year in years
    ]
    pending = set(futures)
    alone_since: float | None = None  # since when the scheduler has had no worker
    try:
        while pending:
            try:
                finished, pending = dask.wait(pending, timeout=_POLL, return_when="FIRST_COMPLETED")
            except TimeoutError:
                finished = set()
            for future in finished:
                try:
                    done(future.result())
                except dask.KilledWorker as e:
                    raise InputError(
                        "scheduler",
                        f"the workers of {address} that ran {e.task} died each time "
                        "(out of memory?); finished years are kept",
                    ) from None
            if finished:
                alone_since = None
                continue
            try:
                workers = client.nthreads()
            except (OSError, TimeoutError) as e:
                raise InputError(
                    "scheduler", f"lost the scheduler at {address} ({e}); finished years are kept"
                ) from None
            now = time.monotonic()
            alone_since = None if workers else (alone_since or now)
            if alone_since is not None and now - alone_since >= TIMEOUT:
                raise InputError(
                    "scheduler",
                    f"the scheduler at {address} has had no worker for {TIMEOUT:g} s (they "
                    f"died or left): {len(pending)} year(s) not written; finished years are "
                    f"kept: start workers with `dask worker {address}` and run again",
                )
    except BaseException:
        client.cancel(futures)
        raise
