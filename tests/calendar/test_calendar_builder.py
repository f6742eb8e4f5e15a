"""The builder reproduces the shipped tables byte for byte (about 2 s)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "src" / "mingshu" / "calendar" / "data"


def test_builder_reproduces_the_shipped_tables(tmp_path: Path) -> None:
    # The exact rebuild command written in the headers, only with a temporary output directory.
    subprocess.run(
        [
            sys.executable,
            "tools/build_calendar_tables.py",
            "--start",
            "1900",
            "--end",
            "2100",
            "--out",
            str(tmp_path),
        ],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    for name in ("lunar_years.tsv", "solar_terms.tsv"):
        assert (tmp_path / name).read_bytes() == (DATA / name).read_bytes(), name
    for name in ("lunar_years.tsv", "solar_terms.tsv"):
        header = (DATA / name).read_text(encoding="utf-8").splitlines()[:6]
        assert any("lunar-python 1.4.8" in line for line in header)
        assert any(
            "tools/build_calendar_tables.py --start 1900 --end 2100" in line for line in header
        )
