"""Our analysis against iztro 2.6.0's, chart by chart: 0 mismatches.

tests/fixtures/iztro-2.6.0-analysis/analysis.jsonl.gz holds, for 600 random charts (default
settings, random scalar settings, custom 四化 tables, earth and human charts), what iztro's
``surroundedPalaces``, ``flankingPalaces``, ``mutagedPlaces``, ``selfMutaged``,
``hasMutagen``, ``isEmpty`` and, for the horoscope, ``agePalace``, ``palace(name, scope)``,
``hasHoroscopeMutagen`` and ``hasHoroscopeStars`` answered (tools/iztro-oracle/analysis_fixture.py).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from mingshu import ziwei
from mingshu.crosscheck.iztro import chart_for_input
from mingshu.cycles import Branch
from mingshu.present.ziwei_analysis import analysis_to_dict
from mingshu.ziwei.stars import Mutagen

FIXTURE = Path(__file__).parent.parent / "fixtures" / "iztro-2.6.0-analysis" / "analysis.jsonl.gz"
MUTAGEN_KEY = {m.names.hans: m.key for m in Mutagen}


def records() -> list[dict[str, Any]]:
    with gzip.open(FIXTURE, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def key(branch: str | None) -> str | None:
    return None if branch is None else Branch.parse(branch).key


def iztro_natal(palaces: dict[str, Any]) -> dict[str, Any]:
    """iztro's answers in the shape of analysis_to_dict (子 first, branch keys)."""
    out = {}
    for b in Branch:
        p = palaces[b.names.hans]
        s, f = p["surrounded"], p["flanking"]
        out[b.key] = {
            "surrounded": {k: key(s[k]) for k in ("opposite", "wealth", "career")},
            "flanking": {"previous": key(f["previous"]), "next": key(f["next"])},
            "flies": dict(zip(("lu", "quan", "ke", "ji"), map(key, p["flies"]), strict=True)),
            "self_mutagens": [MUTAGEN_KEY[m] for m in p["self_mutagens"]],
        }
    return out


def natal_mismatches(chart: ziwei.NatalChart, palaces: dict[str, Any]) -> list[str]:
    problems = []
    expected = iztro_natal(palaces)
    got = analysis_to_dict(chart)
    for b in Branch:
        if got[b.key] != expected[b.key]:
            problems.append(f"{b.key}: ours {got[b.key]} iztro {expected[b.key]}")
        # The same answers through the Python API, and the palace questions.
        p = palaces[b.names.hans]
        s = chart.surrounded(b)
        api = [x.branch.key for x in s]
        if api != [key(p["surrounded"][k]) for k in ("target", "opposite", "wealth", "career")]:
            problems.append(f"{b.key}: surrounded() {api}")
        f = chart.flanking(b)
        if [f.previous.branch.key, f.next.branch.key] != [
            key(p["flanking"]["previous"]),
            key(p["flanking"]["next"]),
        ]:
            problems.append(f"{b.key}: flanking()")
        if [x.branch.key for x in chart.flies(b).palaces] != [key(x) for x in p["flies"]]:
            problems.append(f"{b.key}: flies()")
        if [m.key for m in chart.self_mutagens(b)] != [MUTAGEN_KEY[m] for m in p["self_mutagens"]]:
            problems.append(f"{b.key}: self_mutagens()")
        palace = chart.palace_at(b)
        has = [m.names.hans for m in Mutagen if palace.has_mutagen(m)]
        if has != p["has_mutagen"]:
            problems.append(f"{b.key}: has_mutagen {has} iztro {p['has_mutagen']}")
        if palace.is_empty() != p["is_empty"]:
            problems.append(f"{b.key}: is_empty")
    return problems


def horoscope_mutagen_mismatches(h: ziwei.Horoscope, data: dict[str, Any]) -> list[str]:
    problems = []
    if h.age_palace.branch.names.hans != data["agePalace"]:
        problems.append(f"age_palace {h.age_palace.branch}")
    for scope, rows in data["scopes"].items():
        for name, row in rows.items():
            palace = h.palace(name, scope)
            if palace.branch.names.hans != row["palace"]:
                problems.append(f"{scope} {name}: palace {palace.branch} iztro {row['palace']}")
            if "mutagens" in row:
                ours = [m.names.hans for m in Mutagen if h.has_mutagen(name, scope, m)]
                if ours != row["mutagens"]:
                    problems.append(f"{scope} {name}: mutagens {ours} iztro {row['mutagens']}")
            if "stars" in row:
                # iztro asks each decadal and yearly flowing star on its own.
                asked = [s.star.names.hans for s in (*h.decadal.stars, *h.yearly.stars)]
                ours = [s for s in asked if h.has_stars(name, scope, [s])]
                if sorted(ours) != sorted(row["stars"]):
                    problems.append(f"{scope} {name}: stars {ours} iztro {row['stars']}")
    return problems


def test_fixture_is_complete() -> None:
    rows = records()
    assert len(rows) == 600
    assert all(r["output"]["ok"] for r in rows)
    assert sum("horoscope" in r["output"]["analysis"] for r in rows) == 600
    assert sum("mutagens" in r["input"].get("config", {}) for r in rows) == 40
    assert {r["input"].get("astro_type", "heaven") for r in rows} == {"heaven", "earth", "human"}


def test_analysis_matches_iztro() -> None:
    mismatches: list[str] = []
    for record in records():
        inp, analysis = record["input"], record["output"]["analysis"]
        chart = chart_for_input(inp)
        for problem in natal_mismatches(chart, analysis["palaces"]):
            mismatches.append(f"{inp['id']} {problem}")
        h = ziwei.horoscope(chart, inp["horoscope"], inp.get("horoscope_time") or None)
        for problem in horoscope_mutagen_mismatches(h, analysis["horoscope"]):
            mismatches.append(f"{inp['id']} {problem}")
    assert mismatches == [], f"{len(mismatches)} mismatches, first: {mismatches[:5]}"


@pytest.mark.parametrize("branch", list(Branch)[:3])
def test_a_wrong_answer_is_caught(branch: Branch) -> None:
    """The comparison can fail: a flight moved one palace on is reported."""
    record = records()[0]
    chart = chart_for_input(record["input"])
    palaces = json.loads(json.dumps(record["output"]["analysis"]["palaces"]))
    p = palaces[branch.names.hans]
    p["flies"][3] = Branch((Branch.parse(p["flies"][3]) + 1) % 12).names.hans
    assert natal_mismatches(chart, palaces)


def test_batch_analysis_matches_iztro(tmp_path: Path) -> None:
    """`mingshu ziwei --batch IN --analysis` over the fixture's 600 inputs: every line's
    analysis is iztro's, in input order."""
    from typer.testing import CliRunner

    from mingshu.cli import app

    rows = records()
    source, target = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    source.write_text("".join(json.dumps(r["input"], ensure_ascii=False) + "\n" for r in rows))
    result = CliRunner().invoke(
        app, ["ziwei", "--batch", str(source), "--analysis", "--out", str(target)]
    )
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in target.read_text().splitlines()]
    assert [line["id"] for line in lines] == [r["input"]["id"] for r in rows]
    wrong = [
        line["id"]
        for line, r in zip(lines, rows, strict=True)
        if line["analysis"] != iztro_natal(r["output"]["analysis"]["palaces"])
    ]
    assert wrong == [], f"{len(wrong)} mismatches: {wrong[:5]}"
