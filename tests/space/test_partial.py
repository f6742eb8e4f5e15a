"""A dataset that lacks years of its range (a sweep killed partway, a deleted year=YYYY) is
refused by query, find and claims, naming the years, unless --allow-partial; the output then
says it is partial (issue 20).  The sweep writes _mingshu.json with the whole range before
any year, so a range wider than the years present is exactly what a killed sweep leaves."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mingshu import space
from mingshu.cli import app
from mingshu.errors import InputError
from mingshu.library.claims import sql_claims
from mingshu.space import claims
from mingshu.space.sql import missing_years, years_text

from .conftest import YEAR

runner = CliRunner()
COUNT = "SELECT count(*) FROM charts"


@pytest.fixture
def partial(dataset: Path, tmp_path: Path) -> Path:
    """The swept year inside a range of three: the years before and after are missing."""
    copy = tmp_path / "partial"
    shutil.copytree(dataset, copy)
    meta_file = copy / "_mingshu.json"
    meta = json.loads(meta_file.read_text("utf-8"))
    meta["first_year"], meta["last_year"] = YEAR - 1, YEAR + 1
    meta_file.write_text(json.dumps(meta, ensure_ascii=False), "utf-8")
    return copy


def test_a_complete_dataset_misses_nothing(dataset: Path) -> None:
    assert missing_years(dataset) == ()


def test_a_deleted_year_is_missing(dataset: Path, tmp_path: Path) -> None:
    """Two years swept (the second a stand-in copy of the first), then year=YEAR deleted."""
    copy = tmp_path / "copy"
    shutil.copytree(dataset, copy)
    shutil.copytree(copy / f"year={YEAR}", copy / f"year={YEAR + 1}")
    meta = json.loads((copy / "_mingshu.json").read_text("utf-8"))
    meta["last_year"] = YEAR + 1
    (copy / "_mingshu.json").write_text(json.dumps(meta), "utf-8")
    assert missing_years(copy) == ()
    shutil.rmtree(copy / f"year={YEAR}")
    assert missing_years(copy) == (YEAR,)
    (copy / f"year={YEAR}").mkdir()  # an empty folder is no year either
    assert missing_years(copy) == (YEAR,)
    with pytest.raises(InputError, match=f"year\\(s\\) {YEAR} of its range"):
        space.query(copy, COUNT)


def test_the_api_refuses_a_partial_dataset_naming_the_years(partial: Path) -> None:
    assert missing_years(partial) == (YEAR - 1, YEAR + 1)
    calls = {
        "query": lambda **k: space.query(partial, COUNT, **k),
        "find": lambda **k: space.find(partial, "en_guang = tian_gui", **k),
        "claims": lambda **k: claims.check(partial, [sql_claims()["en_guang_no_month"]], **k),
    }
    for name, call in calls.items():
        with pytest.raises(InputError) as e:
            call()
        assert e.value.field == "dataset", name
        assert f"{YEAR - 1}, {YEAR + 1}" in e.value.message and "allow" in e.value.message
    assert space.query(partial, COUNT, allow_partial=True)[1] == [(365 * 13 * 2,)]
    found = space.find(partial, "en_guang = tian_gui", allow_partial=True)
    assert found.missing_years == (YEAR - 1, YEAR + 1) and found.rows == 365 * 13 * 2
    assert (
        claims.check(partial, [sql_claims()["en_guang_no_month"]], allow_partial=True)[0].rows
        is not None
    )


@pytest.mark.parametrize(
    "command",
    [["query", COUNT], ["query", COUNT, "--json"], ["find", "en_guang = tian_gui"], ["claims"]],
    ids=["query", "query-json", "find", "claims"],
)
def test_the_cli_refuses_then_reads_with_allow_partial(partial: Path, command: list[str]) -> None:
    name, *rest = command
    refused = runner.invoke(app, [name, str(partial), *rest])
    assert refused.exit_code == 2
    assert (
        refused.stderr.startswith("error: dataset: ")
        and f"{YEAR - 1}, {YEAR + 1}" in refused.stderr
    )
    assert "--allow-partial" in refused.stderr and refused.stdout == ""
    read = runner.invoke(app, [name, str(partial), *rest, "--allow-partial"])
    assert read.exit_code in (0, 1), read.output  # claims: 1 if a claim fails
    assert "Traceback" not in read.output
    note = f"note: partial dataset: year(s) {YEAR - 1}, {YEAR + 1} missing"
    assert read.stderr.startswith(note)
    if "--json" in rest:
        assert json.loads(read.stdout) == [{"count_star()": 365 * 13 * 2}]  # JSON stays whole
    else:
        assert "partial dataset" in read.stdout


def test_find_json_names_the_missing_years(partial: Path) -> None:
    result = runner.invoke(
        app, ["find", str(partial), "en_guang = tian_gui", "--json", "--allow-partial"]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["missing_years"] == [YEAR - 1, YEAR + 1]


def test_years_are_named_as_runs() -> None:
    assert years_text([1995]) == "1995"
    assert years_text([2003, 1995, 1996, 1997, 1999]) == "1995..1997, 1999, 2003"
