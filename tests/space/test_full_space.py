"""Acceptance over the whole natal space 1900-2100 (1,908,764 rows), swept once per test
session through the CLI with the default (NumPy) backend: ``mingshu query`` sees every row,
sampled rows are the engine's charts, every seed claim that applies holds over every row
(the row counts are printed), and a planted false claim fails."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mingshu import ziwei
from mingshu.cli import app
from mingshu.library.claims import load_claims, sql_claims
from mingshu.space import claims as space_claims
from mingshu.space import query, ziwei_sweep

# The space tier (pytest -m space): minutes of CPU; the local loop runs the one-year versions
# (tests/space/test_claims.py, test_sweep.py, test_bazi_sweep.py, tests/library/test_check.py).
pytestmark = pytest.mark.space

ROWS = 1_908_764  # 73,414 days from 1900-01-01 to 2100-12-31 × 13 time indices × 2 genders


@pytest.fixture(scope="session")
def full_space(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # Named as the library check names its default dataset, so the library test below
    # reuses this sweep as one of its three.
    out = tmp_path_factory.mktemp("full") / "leap-split"
    # One process: the test run's workers already share the cores.
    result = CliRunner().invoke(
        app,
        ["sweep", "ziwei", "--from", "1900", "--to", "2100", "--out", str(out), "--workers", "1"],
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"{ROWS:,} rows in ")
    return out


def test_query_sees_every_row_of_every_year(full_space: Path) -> None:
    result = CliRunner().invoke(
        app,
        ["query", str(full_space), "SELECT year, count(*) AS n FROM charts GROUP BY 1", "--json"],
    )
    assert result.exit_code == 0, result.output
    counts = {r["year"]: r["n"] for r in json.loads(result.stdout)}
    assert counts == {y: ziwei_sweep.year_rows(y) for y in range(1900, 2101)}
    assert sum(counts.values()) == ROWS


def test_sampled_rows_of_the_whole_space_are_the_engines(full_space: Path) -> None:
    names, rows = query(
        full_space,
        "SELECT * EXCLUDE (year) FROM charts USING SAMPLE reservoir(400 ROWS) REPEATABLE (8) "
        "ORDER BY solar_date, time_index, gender",
    )
    got = [dict(zip(names, r, strict=True)) for r in rows]
    assert len(got) == 400 and len({r["solar_date"].year for r in got}) > 100
    births = [(r["solar_date"], r["time_index"], r["gender"]) for r in got]
    # The pattern columns are computed over the charted columns (space/ziwei_patterns.py):
    # each sampled row's against the detector on the engine's chart, the rest against the
    # engine's own rows.
    meta = json.loads((full_space / "_mingshu.json").read_text(encoding="utf-8"))
    keys = {int(i): p["key"] for i, p in meta["patterns"].items()}
    for row, (day, index, gender) in zip(got, births, strict=True):
        chart = ziwei.from_birth(ziwei.Birth.solar(day, index, ("male", "female")[gender]))
        hits = chart.patterns()
        assert [keys[i] for i in row.pop("patterns")] == [h.key for h in hits], row
        assert [keys[i] for i in row.pop("patterns_broken")] == [h.key for h in hits if h.broken]
    expected = ziwei_sweep.engine_table(births, ziwei.ZiweiSettings()).to_pylist()
    assert got == expected


def test_every_seed_claim_holds_over_every_row(full_space: Path) -> None:
    result = CliRunner().invoke(app, ["claims", str(full_space), "--json"])
    assert result.exit_code == 0, result.output
    results = json.loads(result.stdout)
    assert len(results) == len(load_claims())  # every claim of every article
    applied = [r for r in results if r["applies"]]
    # Every claim applies to this space (swept with the default settings, as its metadata
    # records them) except those that name another value, e.g. leap_month = whole.
    swept = ziwei_sweep.read_metadata(full_space)
    assert swept is not None
    expected = [
        c.key
        for c in sql_claims().values()
        if c.schema == ziwei_sweep.SCHEMA
        and not c.other_settings
        and all(swept["settings"].get(k) == v for k, v in c.settings)
    ]
    assert sorted(r["key"] for r in applied) == sorted(expected)
    assert len(applied) >= 24
    for r in applied:
        print(f"{r['key']}: {r['counterexamples']} counterexamples in {r['rows']:,} rows")
        assert r["holds"] is True and r["counterexamples"] == 0, r["key"]
        assert 0 < r["rows"] <= ROWS
    assert sum(r["rows"] == ROWS for r in applied) >= 18  # most range over every row


def test_a_planted_false_claim_fails(full_space: Path, tmp_path: Path) -> None:
    """En Guang and Tian Gui share a palace at the Rabbit and Rooster hours only (seed 001):
    'they always share one' is false, and the command says so with exit code 1."""
    (tmp_path / "ZW-AUX-99.claims.toml").write_text(
        '[[claim]]\nkey = "planted_always_together"\nkind = "count_where"\n'
        'statement = "En Guang and Tian Gui always share a palace"\n'
        'where = "en_guang <> tian_gui"\n',
        encoding="utf-8",
    )
    args = ["claims", str(full_space), "--json", "--articles", str(tmp_path)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1
    assert "planted_always_together" in result.stderr
    last = json.loads(result.stdout)[-1]
    # Every hour but 卯 and 酉 (time indices 3 and 9): 11 of 13 time indices.
    assert last["holds"] is False and last["counterexamples"] == ROWS // 13 * 11


# The whole BaZi space (956,794 pillar sets) is swept with every core and the default NumPy
# backend: about 15 s of CPU (5 minutes with the engine), so it runs whole, not on a sample.
def test_literary_star_claims_hold_over_the_whole_bazi_space(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    out = tmp_path_factory.mktemp("bazi_full") / "pillars"
    args = ["sweep", "bazi", "--from", "1900", "--to", "2100", "--out", str(out)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("956,794 rows in ")
    every = list(sql_claims().values())
    results = [r for r in space_claims.check(out, every) if r.applies]
    bazi = [c.key for c in every if c.schema == space_claims.BAZI_SCHEMA]
    assert [r.claim.key for r in results] == bazi and bazi
    for r in results:
        print(f"{r.claim.key}: {r.counterexamples} counterexamples in {r.rows:,}")
        assert r.holds is True, r.claim.key


def test_every_library_claim_holds_over_the_whole_space(full_space: Path) -> None:
    """Every claim every article cites, over every chart of 1900–2100 (the three datasets:
    this sweep and two more the check sweeps beside it) and the BaZi input spaces; and the
    counts the pages print (the shipped record) are exactly what this run counts."""
    from mingshu.library import claims as library_claims
    from mingshu.library import load
    from mingshu.library.check import FULL_YEARS, check, ensure_space

    sources = Path(__file__).resolve().parents[2] / "sources"  # the cited lines, shipped
    space = full_space.parent
    ensure_space(space, FULL_YEARS, progress=False)
    report = check(load(), space=space, sources=sources)
    assert report.ok, report.errors
    record = library_claims.read_record(load().root)
    assert report.results and set(report.results) == set(record)
    for key, ran in report.results.items():
        assert ran["counterexamples"] == 0, key
        assert ran["rows"] == record[key]["rows"], key
    for line in report.article_lines():
        print(line)
    print(report.summary())


def test_the_shipped_pattern_frequencies_are_the_spaces(full_space: Path) -> None:
    # ziwei/data/pattern_counts.json (what the chart page prints as "1 chart in N") against a
    # fresh count of every pattern over the whole space, through find's pattern(KEY).
    from mingshu import space
    from mingshu.ziwei.patterns import frequency

    meta = json.loads((full_space / "_mingshu.json").read_text(encoding="utf-8"))
    keys = [p["key"] for p in meta["patterns"].values()]
    assert keys
    for key in keys:
        shipped = frequency(key)
        assert shipped is not None and shipped.rows == ROWS, key
        assert (shipped.first_year, shipped.last_year) == (1900, 2100)
        formed = space.find(full_space, f"pattern({key})").count
        broken = space.find(full_space, f"broken({key})").count
        assert (shipped.formed, shipped.broken) == (formed, broken), key
