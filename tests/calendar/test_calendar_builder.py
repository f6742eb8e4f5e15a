"""The builder reproduces the shipped tables: byte for byte over the whole range (``slow``,
about 10 s), and row for row over a few years at both ends in the loop."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "src" / "mingshu" / "calendar" / "data"
NAMES = ("lunar_years.tsv", "solar_terms.tsv")


def build(out: Path, start: int, end: int) -> None:
    # The exact rebuild command written in the headers, only with a temporary output directory.
    subprocess.run(
        [sys.executable, "tools/build_calendar_tables.py", "--start", str(start), "--end",
         str(end), "--out", str(out)],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )  # fmt: skip


def data_rows(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines()[1:] if line[0].isdigit()]


@pytest.mark.slow
def test_builder_reproduces_the_shipped_tables(tmp_path: Path) -> None:
    build(tmp_path, 1582, 2650)
    for name in NAMES:
        assert (tmp_path / name).read_bytes() == (DATA / name).read_bytes(), name


@pytest.mark.parametrize(("start", "end"), [(1582, 1584), (1899, 1900), (2649, 2650)])
def test_builder_rows_at_both_ends_equal_the_shipped_ones(
    tmp_path: Path, start: int, end: int
) -> None:
    build(tmp_path, start, end)
    for name in NAMES:
        rows = data_rows(tmp_path / name)
        shipped = data_rows(DATA / name)
        first = shipped.index(rows[0])
        assert shipped[first : first + len(rows)] == rows, name
    assert data_rows(tmp_path / "lunar_years.tsv")[0].startswith(f"{start}\t")
    assert data_rows(tmp_path / "solar_terms.tsv")[0].startswith(f"{start - 1}\t")


def test_shipped_headers_name_the_source_and_the_command() -> None:
    for name in NAMES:
        header = (DATA / name).read_text(encoding="utf-8").splitlines()[:6]
        assert any("lunar-python 1.4.8" in line for line in header)
        assert any(
            "tools/build_calendar_tables.py --start 1582 --end 2650" in line for line in header
        )
