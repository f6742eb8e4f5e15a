"""The chart as Markdown against charts iztro 2.6.0 drew in its languages.

tests/fixtures/iztro-2.6.0-locales/locales.jsonl.gz holds 24 charts with horoscopes, each drawn by
iztro in zh-CN, zh-TW, en-US, ja-JP, ko-KR and vi-VN.  In the languages whose names are iztro's
own (zh-CN, ja-JP, ko-KR, vi-VN; docs/presentation.md), every row of the palace table must list
the stars iztro put in that palace, in iztro's words, each with iztro's brightness and 四化, and
the horoscope table must give each layer iztro's four transformed stars.
"""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from mingshu import ziwei
from mingshu.cli import app
from mingshu.crosscheck.iztro import chart_for_input
from mingshu.errors import InputError
from mingshu.present import to_markdown

FIXTURE = Path(__file__).parent.parent / "fixtures" / "iztro-2.6.0-locales" / "locales.jsonl.gz"
LANGUAGES = ("zh-CN", "ja-JP", "ko-KR", "vi-VN")
_MARKS = re.compile(r"^(?P<name>.*?)(?: \((?P<marks>[^()]*)\))?$")


def records() -> list[dict[str, Any]]:
    with gzip.open(FIXTURE, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def _section(text: str, number: int) -> list[list[str]]:
    """The rows of the document's ``number``-th table (0 first), as cells."""
    tables: list[list[list[str]]] = []
    current: list[list[str]] | None = None
    for line in text.splitlines():
        if line.startswith("|"):
            if current is None:
                current = []
                tables.append(current)
            current.append([c.strip() for c in line.strip("|").split(" | ")])
        else:
            current = None
    return tables[number][2:]  # without the header and the rule


def _stars(cell: str) -> list[tuple[str, list[str]]]:
    if cell == "—":
        return []
    out = []
    for item in re.split(r", (?![^()]*\))", cell):
        m = _MARKS.match(item)
        assert m is not None
        out.append((m["name"], m["marks"].split(", ") if m["marks"] else []))
    return out


def _iztro_stars(stars: list[list[str]]) -> list[tuple[str, list[str]]]:
    return [(name, [x for x in (grade, mutagen) if x]) for name, _kind, grade, mutagen in stars]


@pytest.mark.parametrize("record", records(), ids=lambda r: str(r["input"]["id"]))
def test_every_palace_holds_iztros_stars_in_each_language(record: dict[str, Any]) -> None:
    chart = chart_for_input(record["input"])
    for lang in LANGUAGES:
        drawn = record["output"] if lang == "zh-CN" else record["output"][lang]
        theirs = {p["name"]: p for p in drawn["chart"]["palaces"]}
        rows = _section(to_markdown(chart, lang=lang), 0)
        assert len(rows) == 12
        for row in rows:
            palace = theirs[_MARKS.match(row[0])["name"]]  # type: ignore[index]
            groups = ("majorStars", "minorStars", "adjectiveStars")
            for cell, group in zip(row[2:5], groups, strict=True):
                expected = _iztro_stars(palace[group])
                # iztro writes 化禄 as "禄" beside the grade; our mark holds the same word.
                assert sorted(_stars(cell)) == sorted(expected), (lang, row[0], group)


@pytest.mark.parametrize("record", records()[:8], ids=lambda r: str(r["input"]["id"]))
def test_each_layer_transforms_iztros_stars(record: dict[str, Any]) -> None:
    inp = record["input"]
    chart = chart_for_input(inp)
    horoscope = ziwei.horoscope(chart, inp["horoscope"], inp["horoscope_time"])
    drawn = record["output"]["horoscope"]
    rows = {row[0]: row for row in _section(to_markdown(chart, horoscope, "zh-CN"), 2)}
    for scope in ("decadal", "age", "yearly", "monthly", "daily", "hourly"):
        layer = drawn[scope]
        row = rows[layer["name"]]
        expected = [f"{star}化{m}" for star, m in zip(layer["mutagen"], "禄权科忌", strict=True)]
        assert row[3].split(", ") == expected, (scope, row)


def test_every_name_form_and_language_is_accepted() -> None:
    chart = ziwei.chart("1987-05-16", "10:30", "female")
    for lang in ("zh-CN", "zh-TW", "en-US", "ja-JP", "ko-KR", "vi-VN", "pinyin", "hans", "english"):
        text = to_markdown(chart, lang=lang)
        assert len(_section(text, 0)) == 12 and len(_section(text, 1)) == 12
    assert "七殺" in to_markdown(chart, lang="zh-TW")
    assert "Seven Killings" in to_markdown(chart, lang="en-US")
    with pytest.raises(InputError) as e:
        to_markdown(chart, lang="xx")
    assert e.value.field == "lang"
    with pytest.raises(InputError) as e2:
        to_markdown("chart")  # type: ignore[arg-type]
    assert e2.value.field == "chart"


def test_cli_prints_it_and_refuses_two_outputs() -> None:
    runner = CliRunner()
    base = ["ziwei", "1987-05-16", "10:30", "--gender", "female", "--markdown"]
    result = runner.invoke(app, [*base, "--names", "english", "--at", "2026-12-02"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("# Zi Wei Dou Shu chart") and "## Horoscope" in result.stdout
    bad = runner.invoke(app, [*base, "--json"])
    assert bad.exit_code == 2 and bad.stderr.startswith("error: markdown: ")


def test_the_patterns_are_the_charts_with_their_verses() -> None:
    import datetime as dt

    from mingshu.present import chart_to_dict

    seen = 0
    for n in range(0, 400, 7):
        chart = ziwei.chart(str(dt.date(1990, 1, 1) + dt.timedelta(days=n)), "10:30", "male")
        text = to_markdown(chart)
        section = text[text.index("## 格局") :].split("\n## ")[0]
        found = chart_to_dict(chart)["patterns"]
        listed = [line for line in section.splitlines() if line.startswith("- **")]
        assert [line[4:].split("**")[0] for line in listed] == [p["hans"] for p in found]
        for p in found:
            assert f"「{p['verse']}」 ({p['verse_at']})" in section
            seen += 1
    assert seen > 20
