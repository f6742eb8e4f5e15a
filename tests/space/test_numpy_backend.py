"""The NumPy backend writes exactly the engine's rows: every row of whole years under several
settings values, and every heaven-chart birth of the iztro fixtures under its own settings.
The reference is ``ziwei_sweep.engine_table``: one public ``ziwei.from_birth`` chart a row."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from mingshu import space, ziwei
from mingshu.crosscheck.iztro import chart_for_input
from mingshu.crosscheck.records import read_cases
from mingshu.errors import InputError
from mingshu.space import ziwei_numpy, ziwei_sweep
from mingshu.space.ziwei_patterns import with_patterns

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "iztro-2.6.0"


def differences(fast: pa.Table, engine: pa.Table) -> list[str]:
    """The columns that differ, each with its first differing row (for a readable failure)."""
    assert fast.schema.equals(engine.schema)
    assert fast.num_rows == engine.num_rows
    out = []
    for name in engine.schema.names:
        a, b = fast.column(name).to_pylist(), engine.column(name).to_pylist()
        bad = [i for i in range(len(a)) if a[i] != b[i]]
        if bad:
            out.append(f"{name}: {len(bad)} rows, first {bad[0]}: {a[bad[0]]!r} != {b[bad[0]]!r}")
    return out


YEARS = [
    # 1990 has a leap month (闰五月); defaults.
    (1990, ziwei.ZiweiSettings()),
    # 1583 starts the calendar on 1583-01-01 (lunar 1582 腊月); every other choice of the
    # sweep options.
    (
        1583,
        ziwei.ZiweiSettings(
            year_boundary="spring_begins",
            horoscope_boundary="spring_begins",
            late_rat_hour="same_day",
            leap_month="whole",
            algorithm="zhongzhou",
        ),
    ),
    # 2033 (闰十一月) with month pillars by the exact 节 and 中州's 天使/天伤 swap; 四化 and
    # brightness overrides.
    (
        2033,
        ziwei.ZiweiSettings(
            horoscope_boundary="spring_begins",
            algorithm="zhongzhou",
            mutagens={"庚": ["tai_yang", "wu_qu", "tian_tong", "tian_xiang"]},
            brightness={"zuo_fu": ["庙"] * 12},
        ),
    ),
]


@pytest.mark.parametrize(("year", "settings"), YEARS, ids=[str(y) for y, _ in YEARS])
def test_every_row_of_a_year_is_the_engines(year: int, settings: ziwei.ZiweiSettings) -> None:
    fast = ziwei_numpy.year_table(year, settings)
    engine = ziwei_sweep._year_table(year, settings, "engine")
    assert fast.num_rows == ziwei_sweep.year_rows(year)
    assert differences(fast, engine) == []
    assert fast.equals(engine)


def test_every_heaven_fixture_birth_is_the_engines() -> None:
    """All four fixture files (random, configs, edges: late Rat hours on month ends, leap
    days 14-17 and 29-30, 立春 before 正月初一; astro-types' heaven charts), grouped by
    settings value, each group one NumPy call."""
    groups: dict[ziwei.ZiweiSettings, list[tuple[dt.date, int, int]]] = defaultdict(list)
    for file in sorted(FIXTURES.glob("*.jsonl.gz")):
        for case in read_cases(file):
            if not case.expected_ok:
                continue
            try:
                chart = chart_for_input(case.input)
            except InputError:
                continue  # iztro's own known errors (docs/iztro-differences.md)
            if not ziwei_numpy.supports(chart.settings):
                continue
            birth = chart.birth
            gender = ziwei_sweep.GENDERS.index(birth.gender.value)
            groups[chart.settings].append((birth.solar_date, birth.time_index, gender))
    births = sum(len(b) for b in groups.values())
    assert births > 700 and len(groups) > 40  # the files were read (746 births, 57 settings)
    for settings, rows in groups.items():
        days = sorted({d for d, _, _ in rows})
        position = {d: i for i, d in enumerate(days)}
        fast = ziwei_numpy.table(
            days,
            np.array([position[d] for d, _, _ in rows]),
            np.array([t for _, t, _ in rows]),
            np.array([g for _, _, g in rows]),
            settings,
        )
        engine = ziwei_sweep.engine_table(rows, settings)
        assert differences(fast, engine) == [], settings


def test_a_changed_rule_table_is_caught() -> None:
    """The comparison can fail: the NumPy placer with one table cell changed (天魁 of 甲
    years) differs from the engine on exactly the rows of 甲 years."""
    settings = ziwei.ZiweiSettings()
    compiled = ziwei_numpy._compiled(settings)
    namespace = dict(compiled.placer.__globals__)
    table = namespace["T_tian_kui"].copy()
    table[0] = (table[0] + 1) % 12
    namespace["T_tian_kui"] = table
    broken = type(compiled.placer)(compiled.placer.__code__, namespace)
    try:
        object.__setattr__(compiled, "placer", broken)
        fast = ziwei_numpy.year_table(1994, settings)  # a 甲戌 year
    finally:
        ziwei_numpy._compiled.cache_clear()
    engine = ziwei_sweep._year_table(1994, settings, "engine")
    problems = differences(fast, engine)
    assert len(problems) == 1 and problems[0].startswith("tian_kui: ")
    jia = [r for r in engine.column("year_pillar").to_pylist() if r % 10 == 0]
    assert problems[0].startswith(f"tian_kui: {len(jia)} rows")


def test_earth_charts_fall_back_to_the_engine(tmp_path: Path) -> None:
    """地盘 moves stars after placement: the NumPy backend does not draw it, and the
    default sweep writes the engine's rows instead."""
    settings = ziwei.ZiweiSettings(chart_type="earth")
    assert not ziwei_numpy.supports(settings)
    with pytest.raises(ValueError, match="heaven charts only"):
        ziwei_numpy.year_table(2000, settings)
    space.sweep_ziwei(tmp_path / "c", 1900, 1900, settings, workers=1, progress=False)
    written = pq.read_table(tmp_path / "c" / "year=1900" / "part.parquet")
    engine: Any = ziwei_sweep._year_table(1900, settings, "engine")
    assert written.equals(with_patterns(engine, settings))  # the sweep adds the 格局 columns


def test_the_backend_is_checked(tmp_path: Path) -> None:
    with pytest.raises(InputError) as e:
        space.sweep_ziwei(tmp_path / "c", 1990, 1990, ziwei.ZiweiSettings(), backend="gpu")
    assert e.value.field == "backend"
    assert not (tmp_path / "c").exists()


def test_both_backends_write_the_same_file(tmp_path: Path) -> None:
    """Through the CLI: --backend engine and the default write equal partitions."""
    from typer.testing import CliRunner

    from mingshu.cli import app

    for backend in ("engine", "numpy"):
        result = CliRunner().invoke(
            app,
            [
                "sweep",
                "ziwei",
                "--from",
                "1900",
                "--to",
                "1900",
                "--out",
                str(tmp_path / backend),
                "--workers",
                "1",
                "--backend",
                backend,
            ],
        )
        assert result.exit_code == 0, result.output
    a, b = (pq.read_table(tmp_path / x / "year=1900" / "part.parquet") for x in ("engine", "numpy"))
    assert a.equals(b)
    bad = CliRunner().invoke(
        app,
        [
            "sweep",
            "ziwei",
            "--from",
            "1900",
            "--to",
            "1900",
            "--out",
            str(tmp_path / "x"),
            "--backend",
            "gpu",
        ],
    )
    assert bad.exit_code == 2 and bad.stderr.startswith("error: backend: ")
    assert "Traceback" not in bad.output
