"""The swept rows are the engine's charts; the sweep resumes, never mixes settings and never
lets a half-written file be read."""

from __future__ import annotations

import datetime as dt
import gzip
import json
import random
import shutil
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

from mingshu import space, ziwei
from mingshu.cycles import Branch
from mingshu.errors import InputError

from .conftest import YEAR

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "iztro-2.6.0"
DEFAULT = ziwei.ZiweiSettings()
GENDERS = ("male", "female")


def rows(dataset: Path) -> list[dict[str, Any]]:
    return pq.read_table(dataset / f"year={YEAR}" / "part.parquet").to_pylist()


@pytest.fixture(scope="module")
def table(dataset: Path) -> list[dict[str, Any]]:
    return rows(dataset)


def chart_of(row: dict[str, Any]) -> ziwei.NatalChart:
    birth = ziwei.Birth.solar(row["solar_date"], row["time_index"], GENDERS[row["gender"]])
    return ziwei.from_birth(birth, DEFAULT)


def test_one_row_per_birth(table: list[dict[str, Any]]) -> None:
    days = (dt.date(YEAR, 12, 31) - dt.date(YEAR, 1, 1)).days + 1
    assert len(table) == days * 13 * 2 == 9490
    births = {(r["solar_date"], r["time_index"], r["gender"]) for r in table}
    assert len(births) == len(table)
    assert {r["solar_date"].year for r in table} == {YEAR}


def test_sampled_rows_are_the_engines_charts(table: list[dict[str, Any]]) -> None:
    stars_with_mutagen: set[str] = set()
    for row in random.Random(8).sample(table, 300):
        chart = chart_of(row)
        lunar = chart.lunar_date
        assert (row["lunar_year"], row["lunar_month"], row["lunar_day"], row["lunar_leap"]) == (
            lunar.year,
            lunar.month,
            lunar.day,
            lunar.is_leap,
        )
        assert [row[f"{p}_pillar"] for p in ("year", "month", "day", "hour")] == [
            p.index for p in chart.pillars
        ]
        assert row["life_branch"] == chart.life_branch
        assert row["body_branch"] == chart.body_branch
        assert row["five_elements_class"] == chart.five_elements_class
        placed = 0
        for palace in chart.palaces:
            assert row[f"palace_{palace.branch.key}"] == palace.name
            for star in palace.stars:
                key = star.star.key
                placed += 1
                assert row[key] == star.branch == palace.branch, key
                assert row.get(f"{key}__brightness") == star.brightness, key
                if star.mutagen is not None:
                    stars_with_mutagen.add(key)
                    assert row[f"{key}__mutagen"] == star.mutagen, key
                else:
                    assert row.get(f"{key}__mutagen") is None, key
        star_columns = [c for c in row if c in {s.key for s in ziwei.STARS}]
        assert placed == len(star_columns) == 66  # 全书: every star the chart places, no more
    # 1990 spans two year stems (己巳 until the lunar new year, then 庚午): their 四化 fall on
    # seven different stars, and the sample saw them all.
    assert len(stars_with_mutagen) == 7


def iztro_records() -> list[dict[str, Any]]:
    """iztro's charts of solar births in YEAR under default settings, from every fixture."""
    found = []
    for file in sorted(FIXTURES.glob("*.jsonl.gz")):
        with gzip.open(file, "rt", encoding="utf-8") as f:
            for line in f:
                record = json.loads(line)
                i = record["input"]
                if (
                    i.get("by", "solar") == "solar"
                    and i["date"].startswith(f"{YEAR}-")
                    and not i.get("config")
                    and i.get("astro_type", "heaven") == "heaven"
                    and i.get("fix_leap", True)
                    and record["output"].get("ok", True)
                ):
                    found.append(record)
    return found


def test_rows_match_iztros_own_charts(table: list[dict[str, Any]]) -> None:
    by_birth = {(r["solar_date"], r["time_index"], r["gender"]): r for r in table}
    records = iztro_records()
    assert len(records) >= 5
    for record in records:
        i, expected = record["input"], record["output"]["chart"]
        date = dt.date(*map(int, i["date"].split("-")))
        row = by_birth[date, i["time"], 0 if i["gender"] in ("男", "male") else 1]
        year, month, day, leap = expected["lunar"]
        assert (row["lunar_year"], row["lunar_month"], row["lunar_day"], row["lunar_leap"]) == (
            year,
            month,
            day,
            leap,
        )
        assert row["life_branch"] == Branch.parse(expected["earthlyBranchOfSoulPalace"])
        assert row["body_branch"] == Branch.parse(expected["earthlyBranchOfBodyPalace"])
        assert row["five_elements_class"] == ziwei.FiveElementsClass.parse(
            expected["fiveElementsClass"]
        )
        stars = 0
        for palace in expected["palaces"]:
            branch = Branch.parse(palace["earthlyBranch"])
            assert row[f"palace_{branch.key}"] == ziwei.PalaceName.parse(palace["name"])
            for name, _kind, bright, mutagen in (
                *palace["majorStars"],
                *palace["minorStars"],
                *palace["adjectiveStars"],
            ):
                key = ziwei.star(name).key
                stars += 1
                assert row[key] == branch, (i, key)
                want = ziwei.Brightness.parse(bright) if bright else None
                assert row.get(f"{key}__brightness") == want, (i, key)
                want = ziwei.Mutagen.parse(mutagen) if mutagen else None
                assert row.get(f"{key}__mutagen") == want, (i, key)
        assert stars == 66


def test_metadata_names_every_integer(dataset: Path) -> None:
    meta = json.loads((dataset / "_mingshu.json").read_text("utf-8"))
    assert meta["schema"] == space.SCHEMA == "mingshu.space.ziwei/2"
    assert meta["settings"]["algorithm"] == "quanshu"
    assert (meta["first_year"], meta["last_year"]) == (YEAR, YEAR)
    assert meta["pillars"]["0"] == "甲子" and meta["pillars"]["59"] == "癸亥"
    assert meta["branches"]["0"]["key"] == "zi" and meta["branches"]["11"]["hans"] == "亥"
    assert meta["palace_names"]["0"]["hans"] == "命宫"
    assert meta["brightness"]["0"]["hans"] == "庙" and meta["mutagens"]["3"]["hans"] == "忌"
    assert meta["stars"]["en_guang"]["hans"] == "恩光"
    columns = pq.read_schema(dataset / f"year={YEAR}" / "part.parquet").names
    assert [k for k in meta["stars"]] == [c for c in columns if c in meta["stars"]]
    assert all((f"{k}__mutagen" in columns) == v["mutagen"] for k, v in meta["stars"].items())


def test_resume_skips_written_years_untouched(dataset: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(dataset, copy)
    part = copy / f"year={YEAR}" / "part.parquet"
    before = part.stat()
    report = space.sweep_ziwei(copy, YEAR, YEAR, DEFAULT, workers=1, progress=False)
    assert report.years_skipped == (YEAR,) and report.years_written == () and report.rows == 0
    after = part.stat()
    assert (after.st_ino, after.st_mtime_ns, after.st_size) == (
        before.st_ino,
        before.st_mtime_ns,
        before.st_size,
    )


def test_a_leftover_temporary_file_is_never_read_and_is_replaced(
    dataset: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(dataset, copy)
    folder = copy / f"year={YEAR}"
    (folder / "part.parquet").unlink()
    leftover = folder / ".part.parquet.tmp"
    leftover.write_bytes(b"PAR1 half a file from a killed sweep")
    with pytest.raises(InputError) as e:  # the only year is unfinished: nothing to read
        space.open(copy)
    assert e.value.field == "dataset" and "no finished year" in e.value.message
    report = space.sweep_ziwei(copy, YEAR, YEAR, DEFAULT, workers=1, progress=False)
    assert report.years_written == (YEAR,) and report.rows == 9490
    assert not leftover.exists()
    assert pq.read_table(folder / "part.parquet").equals(
        pq.read_table(dataset / f"year={YEAR}" / "part.parquet")
    )


def test_other_settings_never_mix_into_a_dataset(dataset: Path) -> None:
    other = ziwei.ZiweiSettings(algorithm="zhongzhou")
    with pytest.raises(InputError) as e:
        space.sweep_ziwei(dataset, YEAR, YEAR, other, workers=1, progress=False)
    assert e.value.field == "out" and "algorithm" in e.value.message


def test_a_directory_of_other_files_is_refused(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(InputError) as e:
        space.sweep_ziwei(tmp_path, YEAR, YEAR, DEFAULT, workers=1, progress=False)
    assert e.value.field == "out"


@pytest.mark.parametrize(
    ("first", "last", "workers", "field"),
    [
        (1582, 1583, 1, "first_year"),
        (2000, 2651, 1, "last_year"),
        (2001, 2000, 1, "last_year"),
        ("2000", 2000, 1, "first_year"),
        (2000, 2000, 0, "workers"),
    ],
)
def test_bad_arguments_name_their_field(
    tmp_path: Path, first: Any, last: Any, workers: int, field: str
) -> None:
    with pytest.raises(InputError) as e:
        space.sweep_ziwei(tmp_path / "x", first, last, DEFAULT, workers=workers, progress=False)
    assert e.value.field == field
    assert not (tmp_path / "x").exists()


def test_an_interrupted_year_leaves_no_file(
    dataset: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C while a year is being written: the half-written temporary file is removed, no
    part.parquet appears, the interrupt reaches the caller, and the CLI exits with 130."""
    from typer.testing import CliRunner

    from mingshu.cli import app
    from mingshu.space import ziwei_sweep

    table = pq.read_table(dataset / f"year={YEAR}" / "part.parquet")
    monkeypatch.setattr(ziwei_sweep, "_year_table", lambda year, settings, backend="engine": table)

    def half_then_interrupt(_table: object, where: Path, **_: object) -> None:
        Path(where).write_bytes(b"PAR1 half")
        raise KeyboardInterrupt

    monkeypatch.setattr(pq, "write_table", half_then_interrupt)
    out = tmp_path / "charts"
    with pytest.raises(KeyboardInterrupt):
        space.sweep_ziwei(out, YEAR, YEAR, DEFAULT, workers=1, progress=False)
    assert sorted(p.name for p in (out / f"year={YEAR}").iterdir()) == []
    result = CliRunner().invoke(
        app, ["sweep", "ziwei", "--from", str(YEAR), "--to", str(YEAR), "--out", str(out)]
    )
    assert result.exit_code == 130
    assert "interrupted" in result.stderr and "Traceback" not in result.output
    assert not (out / f"year={YEAR}" / "part.parquet").exists()


@pytest.mark.parametrize("damage", ["truncated", "fewer rows", "not parquet"])
def test_resume_writes_again_a_year_whose_part_is_not_whole(
    dataset: Path, tmp_path: Path, damage: str
) -> None:
    """A finished year is one whose footer reads and counts the year's rows (365 days × 13
    time indices × 2 genders); anything else at part.parquet is written again, not skipped."""
    copy = tmp_path / "copy"
    shutil.copytree(dataset, copy)
    part = copy / f"year={YEAR}" / "part.parquet"
    whole = part.read_bytes()
    if damage == "truncated":  # a copy cut short, a disk that filled up
        part.write_bytes(whole[: len(whole) // 2])
    elif damage == "fewer rows":
        pq.write_table(pq.read_table(part).slice(0, 100), part)
    else:
        part.write_bytes(b"not a parquet file")
    report = space.sweep_ziwei(copy, YEAR, YEAR, DEFAULT, workers=1, progress=False)
    assert report.years_skipped == () and report.years_redone == (YEAR,)
    assert report.years_written == (YEAR,) and report.rows == 365 * 13 * 2
    assert pq.read_table(part).equals(pq.read_table(dataset / f"year={YEAR}" / "part.parquet"))
