"""The BaZi space: one row per stretch of time with one pillar set, its pillars the engine's
at every moment of the stretch, its star columns what ``bazi.stars_in`` finds with each
variant chosen; the Literary Star claims hold over it and a planted false one fails."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import random
from itertools import pairwise
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from mingshu import bazi, calendar
from mingshu.cli import app
from mingshu.library.claims import sql_claims
from mingshu.space import bazi_sweep, claims, query
from mingshu.space.claims import BAZI_SCHEMA

from .conftest import YEAR


@pytest.fixture(scope="module")
def rows(bazi_dataset: Path) -> list[dict[str, Any]]:
    return pq.read_table(bazi_dataset / f"year={YEAR}" / "part.parquet").to_pylist()


def test_one_row_per_block_and_jie(rows: list[dict[str, Any]]) -> None:
    """13 stretches a day (midnight and the twelve 时辰 starts), one more per 节 of the year
    (the calendar's term moments, none of which falls on the hour in 1990)."""
    jie = [
        calendar.term_moment(YEAR, t)
        for t in calendar.SolarTerm
        if t.is_jie and calendar.term_moment(YEAR, t).year == YEAR
    ]
    assert len(jie) == 12 and all(m.minute or m.second for m in jie)
    assert len(rows) == 365 * 13 + 12
    assert rows[0]["start"] == dt.datetime(YEAR, 1, 1)
    assert rows[-1]["end"] == dt.datetime(YEAR + 1, 1, 1)
    assert all(a["end"] == b["start"] for a, b in pairwise(rows))
    starts = {r["start"] for r in rows}
    assert set(jie) <= starts


def test_pillars_hold_over_each_whole_stretch(rows: list[dict[str, Any]]) -> None:
    for r in rows:
        first = bazi.four_pillars(r["start"])
        last = bazi.four_pillars(r["end"] - dt.timedelta(seconds=1))
        assert first == last, r["start"]
        got = tuple(r[f"{p}_pillar"] for p in ("year", "month", "day", "hour"))
        assert got == tuple(p.index for p in first)


def test_every_variant_of_every_star_is_a_column() -> None:
    expected = set()
    for star in bazi.STARS:
        for variant in star.variants:
            expected.add(f"{star.key}__{variant.id}")
            if variant.gendered:
                expected.add(f"{star.key}__{variant.id}__backward")
    assert {c for c, _, _, _ in bazi_sweep.star_columns()} == expected
    assert "wen_chang__w4" in expected and "gou_jiao__gendered__backward" in expected


def test_sampled_rows_are_the_engines_hits(rows: list[dict[str, Any]]) -> None:
    """Each star's column, star by star and variant by variant, against ``stars_in`` with
    that one variant chosen (the sweep groups variants differently, so this is a second
    route through the engine's public API)."""
    for r in random.Random(8).sample(rows, 60):
        four = bazi.four_pillars(r["start"])
        for star in bazi.STARS:
            for variant in star.variants:
                settings = bazi.DEFAULT.with_variants(**{star.key: variant.id})
                for backward in (False, True) if variant.gendered else (False,):
                    found = bazi.stars_in(*four, backward=backward, settings=settings)
                    (result,) = [x for x in found if x.star.key == star.key]
                    assert result.variant.id == variant.id
                    mask = sum({1 << int(h.position) for h in result.hits})
                    column = f"{star.key}__{variant.id}" + ("__backward" if backward else "")
                    assert r[column] == mask, (r["start"], column)


def test_the_seed_example_day_master_yang_metal(bazi_dataset: Path) -> None:
    """Seed BZ-SS-02: a Yang Metal (庚) day finds its Literary Star (Pig, 亥) in every pillar
    whose branch is 亥; rows with 亥 in the year and hour pillars have the year and hour bits."""
    _, found = query(
        bazi_dataset,
        "SELECT count(*) FROM charts WHERE day_pillar % 10 = 6 AND year_pillar % 12 = 11 "
        "AND hour_pillar % 12 = 11 AND wen_chang__w1 & 9 <> 9",
    )
    assert found == [(0,)]


def test_literary_star_claims_hold(bazi_dataset: Path) -> None:
    every = list(sql_claims().values())
    results = [r for r in claims.check(bazi_dataset, every) if r.applies]
    assert [r.claim.key for r in results] == [c.key for c in every if c.schema == BAZI_SCHEMA]
    assert len(results) == 9
    for r in results:
        assert r.holds is True, (r.claim.key, r.counterexamples)
        assert r.rows and r.rows > 0
    ziwei = [r for r in claims.check(bazi_dataset, every) if r.claim.schema != BAZI_SCHEMA]
    assert ziwei and all(r.reason == "space" for r in ziwei)


def _with_stems(claim: claims.Claim, old: str, new: str) -> claims.Claim:
    """The shipped claim with its day-stem list ``old`` read as ``new`` (both queries)."""
    sql, total = claim.sql.replace(old, new), claim.total_sql.replace(old, new)
    assert (sql, total) != (claim.sql, claim.total_sql)
    return dataclasses.replace(claim, key=claim.key + "_planted", sql=sql, total_sql=total)


def test_a_planted_false_literary_claim_fails(bazi_dataset: Path) -> None:
    """'W1 and W2 also agree at 乙' is false (乙: 午 on the site, 亥 in the book)."""
    shipped = sql_claims()
    agree, apart = (
        _with_stems(shipped[f"wen_chang_w1_w2_{k}"], old, new)
        for k, old, new in (("agree", "(0, 4)", "(0, 1, 4)"), ("differ", "(1, 2,", "(2,"))
    )
    got = {r.claim.key: r for r in claims.check(bazi_dataset, [agree, apart])}
    assert got[agree.key].holds is False and got[agree.key].counterexamples
    assert got[apart.key].holds is True  # the seven other stems still differ
    # And 'W1 and W4 differ at 庚' is false too: no 庚 row tells them apart.
    differ = _with_stems(shipped["wen_chang_w1_w4_differ"], "(7)", "(6, 7)")
    (r,) = claims.check(bazi_dataset, [differ])
    assert r.holds is False and r.counterexamples == 1 and r.rows == 2


def test_cli_sweep_bazi(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "p"
    args = ["sweep", "bazi", "--from", "2100", "--to", "2100", "--out", str(out), "--workers", "1"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"{365 * 13 + 12:,} rows in ")
    meta = json.loads((out / "_mingshu.json").read_text("utf-8"))
    assert meta["schema"] == "mingshu.space.bazi/1" and meta["last_year"] == 2100
    assert meta["stars"]["wen_chang"]["variants"]["w2"]["columns"] == ["wen_chang__w2"]
    again = runner.invoke(app, args)
    assert again.exit_code == 0 and "skipped 1 year" in again.stderr
    bad = runner.invoke(app, [*args[:-2], "--late-rat-hour", "noon"])
    assert bad.exit_code == 2 and bad.stderr.startswith("error: late_rat_hour: ")
    assert "Traceback" not in bad.output
    other = runner.invoke(
        app, ["sweep", "ziwei", "--from", "2100", "--to", "2100", "--out", str(out)]
    )
    assert other.exit_code == 2 and "mingshu.space.bazi/1 dataset" in other.stderr


def test_find_refuses_a_bazi_dataset(bazi_dataset: Path) -> None:
    from mingshu import space
    from mingshu.errors import InputError

    with pytest.raises(InputError) as caught:
        space.find(bazi_dataset, "wen_chang__w1 = 1")
    assert caught.value.field == "dataset" and "mingshu query" in caught.value.message


def test_resume_writes_again_a_truncated_bazi_year(bazi_dataset: Path, tmp_path: Path) -> None:
    import shutil

    from mingshu import space

    copy = tmp_path / "copy"
    shutil.copytree(bazi_dataset, copy)
    part = copy / f"year={YEAR}" / "part.parquet"
    part.write_bytes(part.read_bytes()[:-100])  # the footer is gone
    report = space.sweep_bazi(copy, YEAR, YEAR, bazi.DEFAULT, workers=1, progress=False)
    assert report.years_redone == (YEAR,) and report.years_written == (YEAR,)
    assert pq.read_table(part).equals(pq.read_table(bazi_dataset / f"year={YEAR}" / "part.parquet"))
    again = space.sweep_bazi(copy, YEAR, YEAR, bazi.DEFAULT, workers=1, progress=False)
    assert again.years_skipped == (YEAR,) and again.years_redone == ()  # whole now: skipped
