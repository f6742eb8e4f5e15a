"""The BaZi sweep's NumPy backend writes exactly the engine's rows: every row, every column
(every variant of every star, the 阴男 / 阳女 tables too) of whole years under several
settings values, and sampled rows of the whole space 1900-2100.  The reference is
``bazi_sweep.engine_table``: one public ``bazi.four_pillars`` and ``bazi.stars_in`` a row."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from mingshu import bazi, calendar, space
from mingshu.cli import app
from mingshu.errors import InputError
from mingshu.space import bazi_numpy, bazi_sweep, query

from .test_numpy_backend import differences  # the Zi Wei backend's column-by-column diff


def engine(year: int, settings: bazi.BaziSettings) -> pa.Table:
    return bazi_sweep.year_table(year, settings, "engine")


YEARS = [
    # 1583 starts on 1583-01-01 (the calendar's first day, in lunar 1582) and has a leap month
    # (闰二月); the late Rat hour keeps its day pillar (split) and branch stars may sit in their
    # basis.
    (1583, bazi.BaziSettings(late_rat_hour="split", include_basis_pillar=True)),
    # 1974: 立春 at 13:00:05, five seconds into the 未 block, so year and month pillars
    # change inside it; defaults.
    (1974, bazi.DEFAULT),
    # 2024: 寒露 at 02:59:57, three seconds before the 寅 block; bases chosen per star (the
    # basis pillar counting or not) and other variants.
    (
        2024,
        bazi.BaziSettings(
            star_bases={
                "tian_yi": "day_stem+other",
                "tai_ji": "year_stem",
                "hua_gai": "day_branch+self",
            },
            star_variants={"wen_chang": "w3", "tian_yi": "v2"},
        ),
    ),
    # 2100 ends on 2100-12-31 (the last day); same-day late Rat hour, a peer's profile.
    (2100, bazi.BaziSettings(late_rat_hour="same_day", profile="bazi-2.3.0")),
]


@pytest.mark.parametrize(("year", "settings"), YEARS, ids=[str(y) for y, _ in YEARS])
def test_every_row_of_a_year_is_the_engines(year: int, settings: bazi.BaziSettings) -> None:
    fast = bazi_numpy.year_table(year, settings)
    reference = engine(year, settings)
    assert fast.num_rows == bazi_sweep.year_rows(year)
    assert differences(fast, reference) == []
    assert fast.equals(reference)


@pytest.mark.parametrize(
    ("moment", "edge", "changes"),
    [
        (dt.datetime(1974, 2, 4, 13, 0, 5), -1, ("year_pillar", "month_pillar")),
        (dt.datetime(2024, 10, 8, 2, 59, 57), 1, ("month_pillar",)),
    ],
)
def test_the_years_hold_a_jie_seconds_from_a_block_edge(
    moment: dt.datetime, edge: int, changes: tuple[str, ...]
) -> None:
    """The edge cases above are really there: a 节 moment of the calendar, a row start
    seconds from the 时辰 start in the row before (-1) or after (1), the pillars changing
    at it and only there."""
    jie = [calendar.term_moment(moment.year, t) for t in calendar.SolarTerm if t.is_jie]
    assert moment in jie
    rows = bazi_numpy.year_table(moment.year, bazi.DEFAULT).to_pylist()
    (at,) = [i for i, r in enumerate(rows) if r["start"] == moment]
    neighbour = rows[at + edge]["start"]
    assert neighbour.minute == neighbour.second == 0
    assert abs(neighbour - moment) <= dt.timedelta(seconds=5)
    before, after = rows[at - 1], rows[at]
    for name in ("year_pillar", "month_pillar", "day_pillar", "hour_pillar"):
        assert (before[name] != after[name]) is (name in changes), name


def test_every_star_variant_is_compared() -> None:
    """Every column of the compared years is every variant of every star (and the gendered
    tables), and every one is found somewhere in them: the comparison is not of zeros."""
    names = bazi_sweep.columns()
    expected = {c for c, _, _, _ in bazi_sweep.star_columns()}
    assert len(expected) == len(names) - 6 > 70
    found: set[str] = set()
    for year, settings in YEARS:
        table = bazi_numpy.year_table(year, settings)
        assert tuple(table.schema.names) == names
        found |= {n for n in names[6:] if pc.max(table.column(n)).as_py()}
    assert found == expected


def test_a_changed_table_cell_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison can fail: with the Literary Star's W1 cell for a 庚 day emptied in the
    NumPy lookups, exactly the rows of 庚 days where the engine finds it (a 亥 branch) differ."""
    settings = bazi.DEFAULT
    column = bazi_sweep.columns()[6:].index("wen_chang__w1")
    changed, emptied = [], 0
    for lookup in bazi_numpy._lookups(settings):
        if lookup.slot == 0 and not lookup.pillars and column in lookup.columns:  # day stem
            table = lookup.table.copy()
            table[6, :, list(lookup.columns).index(column)] = 0  # 庚
            lookup = dataclasses.replace(lookup, table=table)
            emptied += 1
        changed.append(lookup)
    assert emptied == 1
    monkeypatch.setattr(bazi_numpy, "_lookups", lambda _: tuple(changed))
    fast = bazi_numpy.year_table(1974, settings)
    reference = engine(1974, settings)
    geng = sum(r["day_pillar"] % 10 == 6 and r["wen_chang__w1"] != 0 for r in reference.to_pylist())
    assert geng > 0
    (line,) = differences(fast, reference)
    assert line.startswith(f"wen_chang__w1: {geng} rows")


def test_cli_backends_write_the_same_file(tmp_path: Path) -> None:
    runner = CliRunner()
    args = ["sweep", "bazi", "--from", "2100", "--to", "2100", "--workers", "1"]
    files = {}
    for backend in ("numpy", "engine"):
        out = tmp_path / backend
        result = runner.invoke(app, [*args, "--out", str(out), "--backend", backend])
        assert result.exit_code == 0, result.output
        assert result.stdout.startswith(f"{bazi_sweep.year_rows(2100):,} rows in ")
        files[backend] = pq.read_table(out / "year=2100" / "part.parquet")
        # The metadata does not name the backend: the same dataset either way.
        meta = json.loads((out / "_mingshu.json").read_text("utf-8"))
        assert "backend" not in json.dumps(meta["settings"])
    assert files["numpy"].equals(files["engine"])
    bad = runner.invoke(app, [*args, "--out", str(tmp_path / "x"), "--backend", "fast"])
    assert bad.exit_code == 2 and bad.stderr.startswith("error: backend: ")
    assert "Traceback" not in bad.output and not (tmp_path / "x").exists()


def test_the_api_refuses_an_unknown_backend(tmp_path: Path) -> None:
    with pytest.raises(InputError) as caught:
        space.sweep_bazi(tmp_path / "x", 2000, 2000, backend="gpu", progress=False)
    assert caught.value.field == "backend" and "numpy" in caught.value.message
    assert not (tmp_path / "x").exists()


BAZI_ROWS = 956_794  # stretches 1900-01-01 .. 2100-12-31 (docs/space.md)


@pytest.mark.space
def test_sampled_rows_of_the_whole_bazi_space_are_the_engines(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """The whole space with the NumPy backend: every year has its rows, and 400 rows drawn
    over it are the engine's, column for column."""
    out = tmp_path_factory.mktemp("bazi_numpy") / "pillars"
    report = space.sweep_bazi(out, 1900, 2100, bazi.DEFAULT, workers=1, progress=False)
    assert report.rows == BAZI_ROWS
    _, counts = query(out, "SELECT year, count(*) FROM charts GROUP BY 1")
    assert dict(counts) == {y: bazi_sweep.year_rows(y) for y in range(1900, 2101)}
    names, rows = query(
        out,
        "SELECT * EXCLUDE (year) FROM charts USING SAMPLE reservoir(400 ROWS) REPEATABLE (8) "
        "ORDER BY start",
    )
    got: list[dict[str, Any]] = [dict(zip(names, r, strict=True)) for r in rows]
    assert len({r["start"].year for r in got}) > 100
    starts = [r["start"] for r in got]
    expected = bazi_sweep.engine_table(starts, [r["end"] for r in got], bazi.DEFAULT)
    assert got == expected.to_pylist()
