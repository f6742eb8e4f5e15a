"""Every sourced symbolic-star table (and the 人元司令 table) quotes its book verbatim: the
passage is read from the transcriptions at the file and line the data file names.  They are
read from the repository's excerpts (sources/: the cited lines of ../shared/sources with their
line numbers, kept equal to the full files by tests/library/test_sources.py), so the test runs
from a clean clone.

Also one test per correction of the list of docs/bazi-rules.md §4 (corrections of 2026-12-01),
so that a
regression to the old citations fails by name.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mingshu import bazi
from mingshu.bazi.month_qi import SI_LING_TABLES
from mingshu.bazi.stars import STARS
from mingshu.cycles import SIXTY, Branch, Stem
from mingshu.library.sources import Sources

SOURCES = Sources(Path(__file__).resolve().parents[2] / "sources")


def _text_from(name: str, line: int, span: int = 12) -> tuple[str, int]:
    """The text from ``line`` on (1-based) with the next lines joined: line ends (¶), leading
    indentation and 四库 page-marker lines dropped; and the length of ``line``'s own text."""
    t = SOURCES.get(name)
    parts = []
    for raw in t.span(line, min(t.length, line + span - 1)):
        if raw.startswith("<pb:"):
            continue
        parts.append(raw.rstrip("¶").lstrip("\u3000 "))
    return "".join(parts), len(parts[0]) if parts else 0


def _page_before(name: str, line: int) -> str:
    markers = [r for _, r in SOURCES.get(name).before(line + 1) if r.startswith("<pb:")]
    return markers[-1].rstrip("¶").strip("<>").removeprefix("pb:") if markers else ""


def _sourced() -> list[tuple[str, bazi.Source]]:
    stars = [(f"{s.key}.{v.id}", v.source) for s in STARS for v in s.variants]
    tables = [(f"si_ling.{t.key}", t.source) for t in SI_LING_TABLES.values()]
    return [(w, src) for w, src in stars + tables if src.status in ("primary", "secondary")]


@pytest.mark.parametrize(("where", "src"), _sourced(), ids=[w for w, _ in _sourced()])
def test_passage_is_in_the_transcription_verbatim(where: str, src: bazi.Source) -> None:
    assert SOURCES.has(src.file), where
    text, first = _text_from(src.file, src.line)
    at = text.find(src.passage)
    assert 0 <= at < first, f"{where}: 「{src.passage}」 does not start at {src.file}:{src.line}"
    if src.page:
        assert _page_before(src.file, src.line) == src.page, where


def test_the_chapter_heading_is_in_the_same_file() -> None:
    """The chapter named is a heading (a line indented by two full-width spaces) of the file
    quoted, before the passage (first word of the chapter)."""
    for where, src in _sourced():
        if src.status != "primary":
            continue
        head = src.chapter.split(" ")[0]
        headings = [
            line
            for _, line in SOURCES.get(src.file).before(src.line + 1)
            if line.startswith("\u3000\u3000") and not line.startswith("\u3000\u3000\u3000")
        ]
        if src.file.startswith("xieji"):
            # 協紀辨方書's sections carry no heading line in the transcription; its table of
            # contents at the top of the juan lists them.
            assert any(head in line for line in headings), (where, head)
        else:  # the chapter is the nearest heading before the passage
            assert headings and head in headings[-1], (where, head, headings[-1:])


def test_statuses_are_only_primary_secondary_convention() -> None:
    for s in STARS:
        for v in s.variants:
            assert v.source.status in ("primary", "secondary", "convention"), (s.key, v.id)


def _src(star: str, variant: str) -> bazi.Source:
    return bazi.star(star).variant(variant).source


# ------------------------------------------------------------ the corrections, one each


def test_xian_chi_is_juan_two() -> None:
    for v in bazi.star("tao_hua").variants:
        assert (v.source.book, v.source.juan) == ("三命通會", "卷二")
        assert v.source.chapter.startswith("論咸池")


def test_canopy_and_general_star_are_juan_two_jiang_xing_hua_gai() -> None:
    for key in ("hua_gai", "jiang_xing"):
        src = _src(key, "standard")
        assert (src.juan, src.chapter) == ("卷二", "論將星華葢"), key


def test_literary_star_w4_is_primary_plain_text() -> None:
    src = _src("wen_chang", "w4")
    assert src.status == "primary" and src.book == "星學大成" and src.chapter == "論文昌"
    assert "image" not in src.note
    # the book's cell: 辛 → 戌
    assert str(Branch(bazi.star("wen_chang").variant("w4").lookup[Stem.XIN][0][1])) == "戌"


def test_red_glamour_verse_covers_every_stem_and_h3_exists() -> None:
    for v in bazi.star("hong_yan").variants:
        assert "does not cover" not in v.source.note
        assert v.source.status == "primary"
    h3 = bazi.star("hong_yan").variant("h3")
    cells = dict(h3.cells)
    assert (cells["戊"], cells["壬"]) == ("子", "巳")
    assert h3.source.chapter.startswith("總論諸神煞")
    assert _src("hong_yan", "h1").book == "星學大成"


def test_heavenly_kitchen_k2_verse_and_k1_gloss_are_primary() -> None:
    k1, k2 = _src("tian_chu", "k1"), _src("tian_chu", "k2")
    assert k1.status == k2.status == "primary"
    assert k1.book == k2.book == "星學大成" and k1.chapter.startswith("論天厨")
    assert k2.chapter == "論天厨"


def test_nobleman_default_is_v1_from_both_ming_texts() -> None:
    assert bazi.star("tian_yi").default == "v1"
    assert _src("tian_yi", "v1").status == "primary"
    assert "甲戊庚牛羊六辛逢馬虎" in _src("tian_yi", "v1").passage
    assert _src("tian_yi", "v2").status == "secondary"


@pytest.mark.parametrize(
    ("star", "variant"),
    [
        ("jin_yu", "standard"),
        ("guo_yin", "standard"),
        ("yang_ren", "r1"),
        ("yang_ren", "r2"),
        ("zai_sha", "standard"),
        ("gu_chen", "standard"),
        ("gua_su", "standard"),
        ("gou_jiao", "gendered"),
        ("yuan_chen", "standard"),
        ("tian_luo_di_wang", "classical"),
        ("shi_e_da_bai", "standard"),
        ("gu_luan", "g1"),
        ("gu_luan", "g2"),
        ("yin_cha_yang_cuo", "standard"),
        ("kui_gang", "four"),
        ("tian_de", "stems"),
        ("yue_de", "stems"),
    ],
)
def test_once_unsourced_stars_have_primary_passages(star: str, variant: str) -> None:
    src = _src(star, variant)
    assert src.status == "primary" and src.passage, (star, variant)


def test_ten_evils_yuan_bai_list_and_the_slip() -> None:
    assert "乙丑" in _src("shi_e_da_bai", "standard").note
    yb = bazi.star("shi_e_da_bai").variant("yuan_bai")
    pairs = {k: v for k, v in yb.cells}
    assert pairs["乙未"] == "己丑" and len(pairs) == 10
    standard = {str(SIXTY[i]) for i in bazi.star("shi_e_da_bai").variant("standard").pillars}
    assert set(pairs.values()) == standard


def test_yin_yang_mismatch_book_has_xin_not_ji() -> None:
    book = {str(SIXTY[i]) for i in bazi.star("yin_cha_yang_cuo").variant("standard").pillars}
    assert {"辛卯", "辛酉"} <= book and not {"己卯", "己酉"} & book
    peer = {str(SIXTY[i]) for i in bazi.star("yin_cha_yang_cuo").variant("bazi_chart").pillars}
    assert peer ^ book == {"辛卯", "辛酉", "己卯", "己酉"}


def test_tian_de_he_with_and_without_the_four_middle_months() -> None:
    with_he = dict(bazi.star("tian_de_he").variant("stems").cells)
    without = dict(bazi.star("tian_de_he").variant("no_zhong").cells)
    for b in "卯午酉子":
        assert with_he[b] and not without[b]
    assert {k: v for k, v in with_he.items() if k not in "卯午酉子"} == {
        k: v for k, v in without.items() if k not in "卯午酉子"
    }
