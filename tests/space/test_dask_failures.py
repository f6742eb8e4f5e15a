"""A Dask sweep whose cluster fails (issue 20): a scheduler left without a worker fails
within a bounded time naming the scheduler (it used to wait forever, its progress frozen),
and the time a sweep reports includes reaching the cluster."""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import pytest

from mingshu import space, ziwei
from mingshu.errors import InputError
from mingshu.space import cluster

from .conftest import YEAR

# No cluster test may hang: each is cut off (and fails) after 60 s.  distributed is imported
# by the tests (half a second at collection otherwise).
pytestmark = [
    pytest.mark.timeout(60),
    pytest.mark.skipif(find_spec("distributed") is None, reason="the cluster extra is absent"),
]

DEFAULT = ziwei.ZiweiSettings()


@contextmanager
def local_cluster(workers: int) -> Iterator[Any]:
    import distributed

    with distributed.LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=False,
        protocol="tcp",
        host="127.0.0.1",
        dashboard_address=None,
    ) as local:
        yield local


def test_a_scheduler_without_workers_fails_naming_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(cluster, "TIMEOUT", 1.0)
    monkeypatch.setattr(cluster, "_POLL", 0.2, raising=False)
    import distributed

    with local_cluster(1) as local, distributed.Client(local.scheduler_address) as client:
        local.scale(0)  # every worker dies (here: leaves) before the years come back
        while client.nthreads():
            time.sleep(0.05)
        written: list[tuple[int, int, int]] = []
        with pytest.raises(InputError) as caught:
            cluster.run(client, str(tmp_path), [YEAR, YEAR + 1], DEFAULT, written.append)
        address = local.scheduler_address
    assert caught.value.field == "scheduler"
    assert f"the scheduler at {address} has had no worker for 1 s" in caught.value.message
    assert "2 year(s) not written" in caught.value.message
    assert written == [] and not list(tmp_path.iterdir())


def test_the_reported_time_includes_reaching_the_cluster(
    monkeypatch: pytest.MonkeyPatch, dataset: Path, tmp_path: Path
) -> None:
    out = tmp_path / "charts"
    shutil.copytree(dataset, out)  # the year is there: the sweep itself is only a look
    real = cluster.connect

    @contextmanager
    def slow_connect(scheduler: str, workers: int) -> Iterator[Any]:
        time.sleep(0.5)  # a scheduler far away
        with real(scheduler, workers) as client:
            yield client

    monkeypatch.setattr(cluster, "connect", slow_connect)
    with local_cluster(1) as local:
        report = space.sweep_ziwei(
            out, YEAR, YEAR, DEFAULT, progress=False, scheduler=local.scheduler_address
        )
    assert report.years_skipped == (YEAR,)
    assert report.seconds >= 0.5  # a lower bound that holds by construction, not a speed goal
