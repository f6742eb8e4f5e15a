"""Acceptance: every natal and horoscope field of every iztro 2.6.0 reference chart matches.

The four fixture files (tests/fixtures/iztro-2.6.0) hold 850 charts made by iztro itself.
A case may differ only where docs/iztro-differences.md says iztro is wrong, and then the
crosscheck must name the reason.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mingshu.crosscheck.iztro import KNOWN_BIRTHDAY_AGE, classify, record_for_input
from mingshu.crosscheck.runner import run

FIXTURES = Path(__file__).parent.parent / "fixtures" / "iztro-2.6.0"

# file → (cases, known differences by reason)
EXPECTED = {
    "random.jsonl.gz": (300, {}),
    "configs.jsonl.gz": (200, {}),
    "edges.jsonl.gz": (200, {}),
    "astro-types.jsonl.gz": (150, {KNOWN_BIRTHDAY_AGE: 6}),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fixture_file_matches_iztro(name: str) -> None:
    cases, known = EXPECTED[name]
    summary = run(FIXTURES / name, record_for_input, classify=classify, progress=False)
    assert summary.failed == 0, (summary.field_cases, summary.failures[:3])
    assert summary.total == cases
    assert summary.skipped == 0
    assert dict(summary.known_reasons) == known
    assert summary.passed == cases - sum(known.values())


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
