"""Charts for the presentation tests: the inputs of the iztro 2.6.0 reference records (every
setting iztro has, leap months, late Rat hours, the three chart types), each with the
horoscope moment of its record."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from mingshu.crosscheck.iztro import chart_for_input
from mingshu.errors import InputError
from mingshu.ziwei import Horoscope, NatalChart

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "iztro-2.6.0"


def _charts(name: str, limit: int) -> list[tuple[NatalChart, Horoscope | None]]:
    out: list[tuple[NatalChart, Horoscope | None]] = []
    with gzip.open(FIXTURES / name, "rt", encoding="utf-8") as f:
        for line in f:
            inp = json.loads(line)["input"]
            try:
                chart = chart_for_input(inp)
                at = inp.get("horoscope")
                horoscope = None if not at else chart.horoscope(at, inp.get("horoscope_time"))
            except InputError:  # inputs iztro itself refused
                continue
            out.append((chart, horoscope))
            if len(out) >= limit:
                break
    return out


@pytest.fixture(scope="session")
def fixture_charts() -> list[tuple[NatalChart, Horoscope | None]]:
    """About 400 charts: every configs, astro-types and edges record, some random ones."""
    return [
        *_charts("configs.jsonl.gz", 200),
        *_charts("astro-types.jsonl.gz", 150),
        *_charts("edges.jsonl.gz", 60),
        *_charts("random.jsonl.gz", 40),
    ]
