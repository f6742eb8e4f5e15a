"""Coverage is read from each article's ``covers`` list: a bad entry fails the check, and
every entry names a star the article's own text calls by its Chinese name (the engines' star
data), so a list cannot claim a star the article never discusses."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from mingshu import bazi, ziwei
from mingshu.library import load
from mingshu.library.check import check
from mingshu.library.coverage import bad_covers, covering, uncovered
from mingshu.library.model import _ROOT, parse

NAMES = {
    "ziwei": {s.key: s.names.hans for s in ziwei.STARS},
    "bazi": {s.key: s.names.hans for s in bazi.STARS},
}


def test_every_covered_star_is_named_in_its_article() -> None:
    lib = load()
    entries = [(a, e) for a in lib.articles for e in a.covers]
    assert entries, "no article covers a star"
    for article, entry in entries:
        engine, _, key = entry.partition(":")
        name = NAMES[engine].get(key)
        if name is None:  # a 全书-school star or a cycle: named by its own data
            continue
        text = article.path.read_text(encoding="utf-8") if article.path else article.body
        assert name in text, f"{article.id} covers {entry} but never writes {name}"


def test_coverage_is_computed_from_covers() -> None:
    lib = load()
    have = covering(lib)
    assert have["ziwei:en_guang"] == ("ZW-AUX-17",)
    assert "en_guang" not in uncovered(lib, "ziwei")
    assert len(uncovered(lib, "ziwei")) + len(
        {e for e in have if e.startswith("ziwei:") and e.split(":")[1] in NAMES["ziwei"]}
    ) == len(ziwei.STARS)


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ("ziwei:tian_punish", "ziwei has no star 'tian_punish'"),
        ("tian_xing", "say the engine"),
        ("bazi:tian_xing", "bazi has no star 'tian_xing'"),
    ],
)
def test_a_bad_covers_entry_is_named(entry: str, message: str) -> None:
    text = (_ROOT / "ZW-AUX-17.md").read_text(encoding="utf-8")
    text = text.replace("covers: [ziwei:en_guang]", f"covers: [ziwei:en_guang, {entry}]", 1)
    errors = bad_covers(parse(text))
    assert len(errors) == 1 and message in errors[0], errors


def test_covers_that_is_not_a_list_is_a_missing_part() -> None:
    text = (_ROOT / "ZW-AUX-17.md").read_text(encoding="utf-8")
    text = text.replace("covers: [ziwei:en_guang]", "covers: ziwei:en_guang", 1)
    assert any(m.startswith("covers") for m in parse(text).missing)


def test_the_check_reports_a_bad_entry(tmp_path: Path, space: Path, sources: Path) -> None:
    folder = tmp_path / "articles"
    shutil.copytree(_ROOT, folder)
    path = folder / "ZW-AUX-17.md"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("[ziwei:en_guang]", "[ziwei:en_guang, ziwei:en_guang]"))
    errors = check(load(folder), space=space, sources=sources, only=["ZW-AUX-17"]).errors
    assert any("covers 'ziwei:en_guang' twice" in e for e in errors), errors
