"""Acceptance: every natal and horoscope field of every iztro 2.6.0 reference chart matches.

The four fixture files (tests/fixtures/iztro-2.6.0) hold 850 charts made by iztro itself;
tests/fixtures/iztro-2.6.0-range holds 200 more across the whole calendar range 1583 .. 2650
(docs/iztro-differences.md, "Outside 1900–2100").
A case may differ only where docs/iztro-differences.md says iztro is wrong, and then the
crosscheck must name the reason.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mingshu.crosscheck.iztro import KNOWN_BIRTHDAY_AGE, classify, record_for_input
from mingshu.crosscheck.records import read_cases
from mingshu.crosscheck.runner import run

FIXTURES = Path(__file__).parent.parent / "fixtures" / "iztro-2.6.0"

# file → (cases, known differences by reason)
EXPECTED = {
    "random.jsonl.gz": (300, {}),
    "configs.jsonl.gz": (200, {}),
    "edges.jsonl.gz": (200, {}),
    "astro-types.jsonl.gz": (150, {KNOWN_BIRTHDAY_AGE: 6}),
}
RANGE = Path(__file__).parent.parent / "fixtures" / "iztro-2.6.0-range" / "range.jsonl.gz"


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fixture_file_matches_iztro(name: str) -> None:
    cases, known = EXPECTED[name]
    summary = run(FIXTURES / name, record_for_input, classify=classify, progress=False)
    assert summary.failed == 0, (summary.field_cases, summary.failures[:3])
    assert summary.total == cases
    assert summary.skipped == 0
    assert dict(summary.known_reasons) == known
    assert summary.passed == cases - sum(known.values())


def test_births_across_the_whole_range_match_iztro() -> None:
    summary = run(RANGE, record_for_input, classify=classify, progress=False)
    assert summary.failed == 0, (summary.field_cases, summary.failures[:3])
    assert (summary.total, summary.passed, summary.skipped) == (200, 200, 0)
    years = {int(case.input["date"].split("-")[0]) for case in read_cases(RANGE)}
    assert min(years) < 1700 and max(years) > 2500  # the file does reach both ends
    assert sum(y < 1900 for y in years) > 30 and sum(y > 2100 for y in years) > 60


def test_a_wrong_star_is_caught() -> None:
    # The check has teeth: move one star and the crosscheck fails on exactly that field.
    def shifted(inp: dict) -> dict:  # type: ignore[type-arg]
        record = record_for_input(inp)
        palaces = record["chart"]["palaces"]
        palaces[0]["adjectiveStars"], palaces[1]["adjectiveStars"] = (
            palaces[1]["adjectiveStars"],
            palaces[0]["adjectiveStars"],
        )
        return record

    summary = run(FIXTURES / "random.jsonl.gz", shifted, classify=classify, progress=False)
    assert summary.failed == 300
    assert set(summary.field_cases) == {"chart.palaces[].adjectiveStars"}
