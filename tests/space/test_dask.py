"""The sweep on a Dask distributed cluster writes exactly the single-process sweep's files.

A LocalCluster of two in-process workers (threads, TCP on 127.0.0.1, no dashboard) stands in
for a real cluster; the sweep reaches it by its ``tcp://`` address, as it would a remote one.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from importlib.util import find_spec
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from mingshu import space, ziwei
from mingshu.cli import app
from mingshu.errors import InputError
from mingshu.space import cluster

# No cluster test may hang: each is cut off (and fails) after 60 s; most take about 1 s.
# Dask is imported by the tests, not at collection (importing distributed costs about 0.5 s
# of CPU in every pytest process).
pytestmark = [
    pytest.mark.timeout(60),
    pytest.mark.skipif(find_spec("distributed") is None, reason="the cluster extra is absent"),
]

YEARS = (1990, 1991)
DEFAULT = ziwei.ZiweiSettings()


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    import distributed

    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=False,
        protocol="tcp",
        host="127.0.0.1",
        dashboard_address=None,
    ) as local:
        yield str(local.scheduler_address)


@pytest.fixture(scope="module")
def single(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("single") / "charts"
    space.sweep_ziwei(out, *YEARS, DEFAULT, workers=1, progress=False)
    return out


def same_dataset(a: Path, b: Path) -> None:
    for year in YEARS:
        left, right = (pq.read_table(d / f"year={year}" / "part.parquet") for d in (a, b))
        assert left.num_rows == space.ziwei_sweep.year_rows(year)
        assert left.equals(right, check_metadata=True), year
    assert json.loads((a / "_mingshu.json").read_text("utf-8")) == json.loads(
        (b / "_mingshu.json").read_text("utf-8")
    )
    assert sorted(p.name for p in a.iterdir()) == sorted(p.name for p in b.iterdir())
    assert not list(b.rglob("*.tmp"))


def test_the_cluster_writes_the_single_process_dataset(
    scheduler: str, single: Path, tmp_path: Path
) -> None:
    out = tmp_path / "charts"
    report = space.sweep_ziwei(out, *YEARS, DEFAULT, progress=False, scheduler=scheduler)
    assert report.years_written == YEARS and report.years_skipped == ()
    assert report.rows == sum(space.ziwei_sweep.year_rows(y) for y in YEARS) == 9490 + 9490
    same_dataset(single, out)


def test_resume_through_the_cluster_skips_a_written_year(
    scheduler: str, single: Path, tmp_path: Path
) -> None:
    out = tmp_path / "charts"
    space.sweep_ziwei(out, YEARS[0], YEARS[0], DEFAULT, workers=1, progress=False)
    first = out / f"year={YEARS[0]}" / "part.parquet"
    written = first.stat().st_mtime_ns
    report = space.sweep_ziwei(out, *YEARS, DEFAULT, progress=False, scheduler=scheduler)
    assert report.years_skipped == (YEARS[0],) and report.years_written == (YEARS[1],)
    assert first.stat().st_mtime_ns == written  # not rewritten
    same_dataset(single, out)


def test_the_cli_runs_on_the_cluster(scheduler: str, single: Path, tmp_path: Path) -> None:
    out = tmp_path / "charts"
    args = ["sweep", "ziwei", "--from", "1990", "--to", "1991", "--out", str(out)]
    result = CliRunner().invoke(app, [*args, "--scheduler", scheduler])
    assert result.exit_code == 0, result.output
    assert "18,980 rows" in result.stdout
    same_dataset(single, out)


@pytest.mark.parametrize(
    "address",
    ["127.0.0.1:8786", "http://127.0.0.1:8786", "tcp://127.0.0.1", "tcp://h:99999", "tcp://a b:1"],
)
def test_a_malformed_address_is_refused_before_anything(address: str, tmp_path: Path) -> None:
    with pytest.raises(InputError) as caught:
        space.sweep_ziwei(tmp_path / "c", 1990, 1990, DEFAULT, scheduler=address)
    assert caught.value.field == "scheduler" and "tcp://HOST:PORT" in caught.value.message
    assert not (tmp_path / "c").exists()


def test_an_unreachable_scheduler_is_refused_quickly(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(cluster, "TIMEOUT", 1.0)
    started = time.perf_counter()
    with pytest.raises(InputError) as caught:
        space.sweep_ziwei(tmp_path / "c", 1990, 1990, DEFAULT, scheduler="tcp://127.0.0.1:9")
    assert time.perf_counter() - started < 8
    assert caught.value.field == "scheduler" and "cannot reach" in caught.value.message
    assert not (tmp_path / "c").exists()  # nothing written


def test_cli_bad_scheduler_is_one_error_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(cluster, "TIMEOUT", 1.0)
    args = ["sweep", "ziwei", "--from", "1990", "--to", "1990", "--out", str(tmp_path / "c")]
    for address, words in (("nowhere", "tcp://HOST:PORT"), ("tcp://127.0.0.1:9", "cannot reach")):
        result = CliRunner().invoke(app, [*args, "--scheduler", address])
        assert result.exit_code == 2
        assert result.stderr.startswith("error: scheduler: ") and words in result.stderr
        assert "Traceback" not in result.output


def test_workers_belong_to_a_remote_cluster(scheduler: str, tmp_path: Path) -> None:
    with pytest.raises(InputError) as caught:
        space.sweep_ziwei(tmp_path / "c", 1990, 1990, DEFAULT, workers=2, scheduler=scheduler)
    assert caught.value.field == "workers"


def test_a_worker_error_arrives_whole() -> None:
    import pickle

    error = InputError("out", "not shared")
    again = pickle.loads(pickle.dumps(error))
    assert (type(again), again.field, again.message, str(again)) == (
        InputError,
        "out",
        "not shared",
        "out: not shared",
    )


def test_a_worker_without_the_shared_directory_writes_nothing(tmp_path: Path) -> None:
    # What a worker runs: without OUT/_mingshu.json (the client wrote it) it refuses.
    with pytest.raises(InputError) as caught:
        cluster._write_year(str(tmp_path / "c"), 1990, DEFAULT)
    assert caught.value.field == "out" and "every worker shares" in caught.value.message
    assert not (tmp_path / "c").exists()
