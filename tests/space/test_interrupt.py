"""Ctrl-C during a real sweep: ``mingshu sweep ziwei`` runs as a child process in its own
process group, and once its first year is on disk the whole group gets SIGINT, as a terminal's
Ctrl-C does.  The command exits 130, leaves no temporary file and no partial partition, every
partition it left is a whole year, and a rerun resumes (skipping those years) to a dataset
equal to an uninterrupted sweep.  Once with the process pool, once through a Dask
LocalCluster (``--scheduler local``).

The engine backend (about 0.7 s a year) keeps the years slow enough to interrupt mid-sweep;
the rerun uses the default backend (the same rows).  Nothing here times the sweep."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from mingshu import space, ziwei
from mingshu.space.ziwei_sweep import PART, year_rows

pytestmark = pytest.mark.timeout(180)

FIRST, LAST = 1990, 1999
# The child gets Ctrl-C's usual handler even if this process was started with it ignored
# (a test runner's worker may be): an ignored SIGINT would be inherited.
MINGSHU = [
    sys.executable,
    "-c",
    "import signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "from mingshu.cli import main; main()",
]


def sweep_command(out: Path, *extra: str) -> list[str]:
    return [
        *MINGSHU,
        "sweep",
        "ziwei",
        "--from",
        str(FIRST),
        "--to",
        str(LAST),
        "--out",
        str(out),
        "--workers",
        "2",
        *extra,
    ]


def interrupt_after_first_year(command: list[str], out: Path) -> subprocess.CompletedProcess[str]:
    child = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        deadline = time.monotonic() + 120
        while not any(out.glob(f"year=*/{PART}")):
            if child.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"no year was written: {child.communicate()}")
            time.sleep(0.02)
        os.killpg(child.pid, signal.SIGINT)  # the whole group, as a terminal's Ctrl-C
        stdout, stderr = child.communicate(timeout=120)
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()
    return subprocess.CompletedProcess(command, child.returncode, stdout, stderr)


def check_interrupted_then_resumed(out: Path, command: list[str], tmp_path: Path) -> None:
    result = interrupt_after_first_year(command, out)
    assert result.returncode == 130, result.stderr
    assert "interrupted" in result.stderr and "Traceback" not in result.stderr
    assert not list(out.rglob("*.tmp")), "a temporary file was left behind"
    written = sorted(int(p.parent.name.removeprefix("year=")) for p in out.glob(f"year=*/{PART}"))
    assert 1 <= len(written) < LAST - FIRST + 1, written  # stopped part-way
    for year in written:  # each a whole, readable year
        assert pq.read_table(out / f"year={year}" / PART).num_rows == year_rows(year)
    # Every year folder holds a finished partition or nothing at all.
    for folder in out.glob("year=*"):
        assert [p.name for p in folder.iterdir()] in ([PART], []), folder

    # The rest with the default (NumPy) backend: the rows are the same, only faster.
    rest = [c for c in command if c != "engine" and c != "--backend"]
    rerun = subprocess.run(rest, capture_output=True, text=True, timeout=170, check=False)
    assert rerun.returncode == 0, rerun.stderr
    assert f"skipped {len(written)} year(s) already written" in rerun.stderr
    fresh = tmp_path / "fresh"
    space.sweep_ziwei(fresh, FIRST, LAST, ziwei.ZiweiSettings(), workers=1, progress=False)
    for year in range(FIRST, LAST + 1):
        a, b = (pq.read_table(d / f"year={year}" / PART) for d in (out, fresh))
        assert a.equals(b), year


@pytest.mark.slow  # several seconds of CPU: the slow tier (CONTRIBUTING.md)
def test_ctrl_c_with_the_process_pool(tmp_path: Path) -> None:
    out = tmp_path / "charts"
    check_interrupted_then_resumed(out, sweep_command(out, "--backend", "engine"), tmp_path)


@pytest.mark.slow  # several seconds of CPU: the slow tier (CONTRIBUTING.md)
def test_ctrl_c_through_a_dask_local_cluster(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    out = tmp_path / "charts"
    command = sweep_command(out, "--backend", "engine", "--scheduler", "local")
    check_interrupted_then_resumed(out, command, tmp_path)
