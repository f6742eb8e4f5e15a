"""The 身宫 role is the palace iztro flags ``isBodyPalace``, on heaven, earth and human charts.

iztro 2.6.0's ``getPalace(astrolabe, '身宫')`` (src/astro/analyzer.ts) finds the palace whose
``isBodyPalace`` is true; on an earth or human chart that is the redrawn chart's Body palace,
while ``earthlyBranchOfBodyPalace`` keeps the heaven chart's branch.  The expected palace of
every record below is the one iztro flagged (tests/fixtures/iztro-2.6.0/astro-types.jsonl.gz).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from mingshu.crosscheck.iztro import chart_for_input
from mingshu.cycles import Branch
from mingshu.errors import InputError

FIXTURE = Path(__file__).parent.parent / "fixtures" / "iztro-2.6.0" / "astro-types.jsonl.gz"


def records() -> list[dict[str, Any]]:
    with gzip.open(FIXTURE, "rt", encoding="utf-8") as f:
        rows = [json.loads(line) for line in f]
    return [r for r in rows if r["output"]["ok"]]


RECORDS = records()


def test_the_fixture_has_many_earth_and_human_charts() -> None:
    kinds = [r["input"].get("astro_type", "heaven") for r in RECORDS]
    assert kinds.count("earth") >= 40 and kinds.count("human") >= 40


@pytest.mark.parametrize("record", RECORDS, ids=[r["input"]["id"] for r in RECORDS])
def test_the_body_role_is_the_palace_iztro_flags(record: dict[str, Any]) -> None:
    chart = chart_for_input(record["input"])
    iztro = record["output"]["chart"]
    (flagged,) = [Branch.parse(p["earthlyBranch"]) for p in iztro["palaces"] if p["isBodyPalace"]]
    assert chart.body_palace.branch == flagged
    assert chart.body_palace.is_body
    for name in ("身宫", "body", "身宮"):
        assert chart.palace(name).branch == flagged, name
    assert chart.surrounded("身宫").target.branch == flagged
    assert chart.flanking("身宫").next.branch == Branch((flagged + 1) % 12)
    horoscope = chart.horoscope(record["input"]["horoscope"], record["input"]["horoscope_time"])
    assert horoscope.palace("身宫", "origin").branch == flagged
    # iztro's earthlyBranchOfBodyPalace stays the heaven chart's, and so does ours.
    assert chart.body_branch == Branch.parse(iztro["earthlyBranchOfBodyPalace"])


ROLES = Path(__file__).parent.parent / "fixtures" / "iztro-2.6.0-analysis" / "roles.jsonl.gz"


def role_records() -> list[dict[str, Any]]:
    with gzip.open(ROLES, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


ROLE_RECORDS = role_records()


def test_the_roles_fixture_has_many_earth_and_human_charts() -> None:
    kinds = [r["input"].get("astro_type", "heaven") for r in ROLE_RECORDS]
    assert kinds.count("earth") >= 150 and kinds.count("human") >= 150
    assert all(r["output"]["ok"] for r in ROLE_RECORDS)


def test_every_role_answer_is_iztros() -> None:
    """iztro's own answers (tools/iztro-oracle/roles_fixture.py): astrolabe.palace(role),
    surroundedPalaces(role) and horoscope.palace(role, 'origin'), on 600 charts."""
    wrong = []
    for record in ROLE_RECORDS:
        inp = record["input"]
        chart = chart_for_input(inp)
        horoscope = chart.horoscope(inp["horoscope"], inp["horoscope_time"])
        for role, want in record["output"]["roles"].items():
            if want is None:  # no 来因宫 (its stem falls on 子 or 丑)
                with pytest.raises(InputError):
                    chart.palace(role)
                continue
            got = {
                "palace": str(chart.palace(role).branch),
                "surrounded": [str(p.branch) for p in chart.surrounded(role)],
                "origin": str(horoscope.palace(role, "origin").branch),
            }
            if got != want:
                wrong.append(f"{inp['id']} {inp.get('astro_type')} {role}: ours {got} iztro {want}")
    assert not wrong, f"{len(wrong)} differ, e.g. {wrong[:3]}"
