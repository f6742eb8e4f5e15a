"""The lists of decades, years and months equal iztro 2.6.0's decadalList, yearlyList and
monthlyList on 120 random charts (tests/fixtures/iztro-2.6.0-lists/lists.jsonl.gz, made by
tools/iztro-oracle/lists.mjs from iztro itself)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from mingshu.ziwei import by_solar
from mingshu.ziwei.horoscope import Layer, Period, decades, months, years

FIXTURE = Path(__file__).parent.parent / "fixtures" / "iztro-2.6.0-lists" / "lists.jsonl.gz"
with gzip.open(FIXTURE, "rt", encoding="utf-8") as _lines:
    CASES = [json.loads(line) for line in _lines]


def layer(layer: Layer) -> dict[str, Any]:
    stars: list[list[list[str]]] = [[] for _ in range(12)]
    for placed in layer.stars:
        stars[(placed.branch - 2) % 12].append([placed.star.names.hans, placed.star.kind.value])
    return {
        "index": layer.iztro_index,
        "heavenlyStem": layer.pillar.stem.names.hans,
        "earthlyBranch": layer.pillar.branch.names.hans,
        "palaceNames": [name.names.hans for name in layer.palace_names],
        "mutagen": [star.names.hans for star in layer.mutagens],
        "stars": stars,
    }


def month(period: Period) -> dict[str, Any]:
    assert period.days is not None
    return {
        **layer(period.layer),
        "month": period.month,
        "isLeapMonth": period.is_leap,
        "part": "normal" if period.part == "whole" else period.part,
        "dayRange": list(period.days),
    }


def test_the_fixture_has_leap_years_and_every_decade() -> None:
    assert len(CASES) == 120
    assert any(len(c["output"]["monthlyList"]) == 14 for c in CASES)
    assert {c["input"]["decade"] for c in CASES} == set(range(8))


@pytest.mark.parametrize("case", CASES, ids=[c["input"]["id"] for c in CASES])
def test_lists_equal_iztro(case: dict[str, Any]) -> None:
    inp, expected = case["input"], case["output"]
    chart = by_solar(inp["date"], inp["time"], inp["gender"])
    assert [
        {**layer(p.layer), "ageRange": list(p.ages), "yearRange": list(p.years)}
        for p in decades(chart)
    ] == expected["decadalList"]
    assert [
        {**layer(p.layer), "age": p.ages[0], "year": p.years[0]}
        for p in years(chart, inp["decade"])
    ] == expected["yearlyList"]
    assert [month(p) for p in months(chart, inp["year"])] == expected["monthlyList"]
