"""Every Zi Wei star cites what is true: a verse stored verbatim with the file and line where
it stands in the transcriptions, and no claim of a 全书 verse the files lack.

The files are read here, not trusted from the data: a verse that is not in its file at its
line, a 全书 title that is not in 卷二, or a modern rhyme cited as book text fails the test.
They are read from the repository's excerpts (sources/, the cited lines of ../shared/sources
with their line numbers; tests/library/test_sources.py keeps them equal to the full files),
so the test runs from a clean clone.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from mingshu.library.sources import Sources, Transcription
from mingshu.ziwei import STARS

ROOT = Path(__file__).resolve().parents[2]
SOURCES = Sources(ROOT / "sources")
F = "ziwei-quanshu.juan2.newdu-full.txt"
COMPILATION = "ziwei-quanshu.anxing-jue.iztro-compilation.md"
BOOK_FILES = (F, "ziwei-quanshu.juan1.md", "ziwei-quanshu.juan2.md", "ziwei-quanshu.juan3.md")
DATA = ROOT / "src" / "mingshu" / "ziwei" / "data"

# The eleven stars the data once credited to 卷二 verses that exist only in the compilation.
ONLY_IN_COMPILATION = {
    "xian_chi": "安咸池诀",
    "tian_cai": "安天才天寿诀",
    "tian_shou": "安天才天寿诀",
    "tian_wu": "安天巫诀",
    "hua_gai": "安华盖诀",
    "tian_guan": "安天官天福",
    "tian_fu_blessing": "安天官天福",
    "tian_yue_moon": "安天月诀",
    "gu_chen": "安孤辰寡宿诀",
    "gua_su": "安孤辰寡宿诀",
    "fei_lian": "安蜚廉诀",
    "po_sui": "安破碎诀",
    "yin_sha": "安阴煞诀",
}
# Engine stars with no verse anywhere in the 全书 files (the list).
NO_BOOK_VERSE = {
    "tian_gui",
    "tian_guan",
    "tian_fu_blessing",
    "tian_chu",
    "tian_cai",
    "tian_shou",
    "tian_wu",
    "tian_yue_moon",
    "yin_sha",
    "xian_chi",
    "po_sui",
    "en_guang",
    "jie_shen",
    "tian_kong",
    "long_de",
    "jie_kong",
    "jie_sha",
    "da_hao",
}


def _text(name: str) -> Transcription:
    return SOURCES.get(name)


def _where(at: str) -> tuple[str, int, int]:
    match = re.fullmatch(r"([\w.-]+):(\d+)(?:-(\d+))?", at)
    assert match, f"verse_at {at!r} is not FILE:LINE or FILE:FIRST-LAST"
    first = int(match[2])
    return match[1], first, int(match[3] or first)


def check_verse(verse: str, at: str) -> None:
    """Each " / "-separated part of ``verse`` stands verbatim, in order, on the cited lines."""
    name, first, last = _where(at)
    text = _text(name)
    assert 1 <= first <= last <= text.length, at
    line = first
    for part in verse.split(" / "):
        while line <= last and part not in text.line(line):
            line += 1
        assert line <= last, f"{part!r} is not on {at}"
    # The cited range is not padded: its first and last lines hold the verse.
    assert verse.split(" / ")[0] in text.line(first), at
    assert verse.split(" / ")[-1] in text.line(last), at


def _book_titles(source: str) -> list[str]:
    """The verse titles a source string credits to the book (「全书 卷二 TITLE」)."""
    return re.findall(r"全书 卷二 ([\u4e00-\u9fff、]+)", source)


@pytest.mark.parametrize("key", [s.key for s in STARS])
def test_every_star_cites_a_real_verse_or_says_there_is_none(key: str) -> None:
    s = next(s for s in STARS if s.key == key)
    assert s.source, s.key
    if s.verse:
        assert s.verse_at, f"{s.key}: a verse needs its file and line"
        check_verse(s.verse, s.verse_at)
        name = _where(s.verse_at)[0]
        if name == COMPILATION:  # the compilation is never passed off as the book
            assert "modern compilation" in s.source and "NOT 全书" in s.source, s.key
        else:
            assert name in BOOK_FILES, s.key
    else:
        assert not s.verse_at, s.key
        assert "no verse in the 全书 files" in s.source, s.key
    assert "iztro 2.6.0" in s.source, f"{s.key}: name the engine's rule (file and function)"
    for title in _book_titles(s.source):
        assert _text(F).contains(title), f"{s.key} credits 卷二 with {title!r}, which it lacks"


def test_the_stars_the_book_lacks_claim_no_book_verse() -> None:
    by_key = {s.key: s for s in STARS}
    for key in NO_BOOK_VERSE:
        s = by_key[key]
        assert not _book_titles(s.source), key
        assert not s.verse_at.startswith(BOOK_FILES), key
    for key, title in ONLY_IN_COMPILATION.items():
        s = by_key[key]
        assert _text(F).lacks(title), title  # truly absent from 卷二 (searched whole)
        assert s.verse_at.startswith(COMPILATION), key
        assert f"全书 卷二 {title}" not in s.source, key


def test_known_book_verses_are_cited_at_their_lines() -> None:
    """Spot checks against the file, read independently of the data."""
    by_key = {s.key: s for s in STARS}
    expected = {
        "wen_chang": (21, "子时戌上起文昌"),
        "tian_kui": (28, "丙丁猪狗位"),
        "di_kong": (46, "逆向便是天空乡"),
        "yue_de": (80, "月德星从子上起子"),
        "nian_jie": (81, "解神从戌上起子"),
        "jie_lu": (87, "甲己申酉宫"),
    }
    for key, (line, words) in expected.items():
        assert words in _text(F).line(line)
        assert by_key[key].verse_at == f"{F}:{line}", key
        assert words in by_key[key].verse, key


def test_other_tables_name_true_sources() -> None:
    """chart.toml and mutagens.toml credit 卷二 only with titles 卷二 has."""
    for name in ("chart.toml", "mutagens.toml"):
        raw = (DATA / name).read_text(encoding="utf-8")
        for title in re.findall(r"全书 卷二 ([\u4e00-\u9fff、]+)", raw):
            assert _text(F).contains(title), f"{name} credits 卷二 with {title!r}"
        data = tomllib.loads(raw)
        for section in data.values():
            rows = section if isinstance(section, list) else [section]
            for row in rows:
                if isinstance(row, dict) and "verse_at" in row:
                    check_verse(row["verse"], row["verse_at"])


def test_the_quanshu_school_stars_cite_the_book() -> None:
    from mingshu.ziwei.quanshu import catalogue

    defaults = {s.key: s for s in STARS}
    for s in catalogue():
        if defaults.get(s.key) is s:
            continue  # unchanged catalogue star: checked above
        assert s.verse and s.verse_at.startswith(F), s.key  # the school's rules are the book's
        check_verse(s.verse, s.verse_at)
        titles = _book_titles(s.source)
        assert titles and all(_text(F).contains(t) for t in titles), s.key
