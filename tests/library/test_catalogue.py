"""The star catalogues: every star of both engines once, its rule line read back against the
spec's tables (../shared/spec), its source and its articles; the pages the static build
writes and the terminal's; the coverage line of docs/library.md."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mingshu import bazi, ziwei
from mingshu.cli import app
from mingshu.errors import InputError
from mingshu.library import load
from mingshu.library.build import build_site
from mingshu.library.catalogue import catalogue
from mingshu.library.coverage import coverage_line
from mingshu.library.model import _ROOT
from mingshu.library.render import catalogue_html, index_html
from mingshu.ziwei import quanshu
from mingshu.ziwei.tables import CYCLES

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT.parent / "shared" / "spec"
LIB = load()
ZIWEI = {e.key: e for e in catalogue(LIB, "ziwei")}
BAZI = {e.key: e for e in catalogue(LIB, "bazi")}


def test_every_star_of_each_engine_is_listed_once() -> None:
    bz = [e.key for e in catalogue(LIB, "bazi")]
    assert sorted(bz) == sorted(s.key for s in bazi.STARS) and len(bz) == len(bazi.STARS) == 46
    zw = [e.key for e in catalogue(LIB, "ziwei")]
    assert len(zw) == len(set(zw))
    engine = [s.key for s in ziwei.STARS]
    school = [s.key for s in quanshu.catalogue() if s.key not in engine]
    assert sorted(zw) == sorted([*engine, *school, *CYCLES])
    assert len(engine) == 70 and set(school) >= {"dou_jun", "jin_suo_tie_she"}
    assert [ZIWEI[k].group for k in school] == ["quanshu"] * len(school)
    assert {ZIWEI[k].group for k in CYCLES} == {"cycle"}
    assert [ZIWEI[s.key].group for s in ziwei.STARS] == [s.group.value for s in ziwei.STARS]


def test_a_bad_engine_or_library_is_refused() -> None:
    with pytest.raises(InputError) as e:
        catalogue(LIB, "qimen")
    assert e.value.field == "engine"
    with pytest.raises(InputError) as e:
        catalogue("lib", "ziwei")  # type: ignore[arg-type]
    assert e.value.field == "library"
    with pytest.raises(InputError) as e:
        catalogue_html(LIB, "ziwei", names="latin")
    assert e.value.field == "names"


def _spec_row(doc: str, first_cell: str, width: int | None = None) -> list[str]:
    """The cells after the first of the spec table row whose first cell is ``first_cell``
    (and that has ``width`` of them, where given)."""
    for line in (SPEC / doc).read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[0] == first_cell and (width is None or len(cells) == width + 1):
            return cells[1:]
    raise AssertionError(f"{doc}: no row {first_cell}")


def _pairs(rule: str) -> list[str]:
    """The looked-up values of a rule line, in its order: ``甲 → 丑, 乙 → 子`` -> 丑 子."""
    return re.findall(r"→ ([^,.;]+)", rule)


@pytest.mark.skipif(not SPEC.is_dir(), reason="needs ../shared/spec")
@pytest.mark.parametrize(("key", "row"), [("tian_kui", "天魁"), ("lu_cun", "禄存")])
def test_ziwei_stem_tables_read_as_the_spec(key: str, row: str) -> None:
    assert ZIWEI[key].rule.startswith("Looked up by the year stem: 甲 → ")
    assert _pairs(ZIWEI[key].rule) == _spec_row("ziwei-rules.md", row, 10)


@pytest.mark.skipif(not SPEC.is_dir(), reason="needs ../shared/spec")
def test_ziwei_month_rules_read_as_the_spec() -> None:
    months = _spec_row("ziwei-rules.md", "解神 (月解)")[2].split()
    assert _pairs(ZIWEI["jie_shen"].rule) == months
    assert ZIWEI["jie_shen"].rule.startswith("Looked up by the lunar month: 正月 → ")
    # 天刑: 酉 + m, counted forward from the first month's branch
    first = _spec_row("ziwei-rules.md", "天刑")[2].split()[0]
    assert ZIWEI["tian_xing"].rule == (
        f"Counted forward (子→丑→寅) from {first} by the lunar month."
    )
    assert ZIWEI["tian_ji"].rule == "One palace back from 紫微."  # spec: 紫微 − 1


@pytest.mark.skipif(not SPEC.is_dir(), reason="needs ../shared/spec")
def test_bazi_rules_read_as_the_spec() -> None:
    assert _pairs(BAZI["lu_shen"].rule) == _spec_row("bazi-rules.md", "禄 (= 临官)")
    nobleman = (SPEC / "bazi-rules.md").read_text(encoding="utf-8")
    row = next(line for line in nobleman.splitlines() if line.startswith('| V1 "甲戊庚牛羊'))
    assert _pairs(BAZI["tian_yi"].rule) == [c.strip().strip("*") for c in row.split("|")[2:12]]
    # the 三合 family by year branch: 申子辰 → 驿马 寅, 桃花 酉, 华盖 辰
    for key, want in (("yi_ma", "寅"), ("tao_hua", "酉"), ("hua_gai", "辰")):
        assert f"申 → {want}," in BAZI[key].rule and f"子 → {want}," in BAZI[key].rule


def test_pillar_and_void_rules_name_every_pillar() -> None:
    assert BAZI["kui_gang"].rule == "The day pillar is one of 庚辰 壬辰 戊戌 庚戌."
    assert "空亡" in BAZI["kong_wang"].rule
    assert BAZI["jin_shen"].rule.endswith(
        "甲 → 癸酉 己巳 乙丑; none for 乙 丙 丁 戊 己 庚 辛 壬 癸."
    )


def test_the_school_rule_is_shown_where_the_book_places_a_star_otherwise() -> None:
    # 全书 卷二 F L80: 月德 from 子; iztro from 巳
    assert "from 巳" in ZIWEI["yue_de"].rule and "from 子" in ZIWEI["yue_de"].school_rule
    assert ZIWEI["zuo_fu"].school_rule == ""


def test_source_status_follows_the_data() -> None:
    tian_ji = ZIWEI["tian_ji"].source
    assert tian_ji.kind == "book" and tian_ji.at == "ziwei-quanshu.juan2.newdu-full.txt:18"
    assert tian_ji.citation == "紫微斗数全书 卷二「安南北斗诸星诀」"
    assert tian_ji.verse.startswith("紫微天机逆行旁")
    assert ZIWEI["en_guang"].source.kind == "modern"  # the rhyme compilation, not the book
    assert ZIWEI["long_de"].source.kind == "none"
    assert ZIWEI["jiang_qian"].source.kind == "modern"
    assert BAZI["ci_guan"].source.kind == "none"  # a convention of apps
    assert BAZI["tian_yi"].source.citation == "三命通會 卷三「論天乙貴人」"


@pytest.mark.skipif(not SPEC.is_dir(), reason="needs ../shared/spec")
def test_every_book_verse_is_at_its_line() -> None:
    sources = SPEC.parent / "sources"
    for e in ZIWEI.values():
        if e.source.kind == "book" and e.source.at:
            name, _, lines = e.source.at.partition(":")
            first, _, last = lines.partition("-")
            text = (sources / name).read_text(encoding="utf-8").splitlines()
            at = "".join(text[int(first) - 1 : int(last or first)])
            assert e.source.verse.split("，")[0].split(" / ")[0] in at, e.key


def test_articles_come_from_covers() -> None:
    assert ZIWEI["en_guang"].articles == ("ZW-AUX-17",)
    assert BAZI["wen_chang"].articles == ("BZ-SS-02",)
    covers = {c for a in LIB.articles for c in a.covers}
    for engine, entries in (("ziwei", ZIWEI), ("bazi", BAZI)):
        for e in entries.values():
            assert bool(e.articles) == (f"{engine}:{e.key}" in covers), e.key


def test_the_page_lists_every_star_with_its_article_or_none() -> None:
    html = catalogue_html(LIB, "ziwei", link=lambda i: f"/library/{i}", other="/b")
    rows = re.findall(r"<tr id='star-(\w+)'>", html)
    assert sorted(rows) == sorted(ZIWEI)
    en_guang = html.split("<tr id='star-en_guang'>")[1].split("</tr>")[0]
    assert "href='/library/ZW-AUX-17'" in en_guang and "恩光" in en_guang
    zi_wei = html.split("<tr id='star-zi_wei'>")[1].split("</tr>")[0]
    assert "href='/library/ZW-MAJ-01'" in zi_wei
    # A star no article covers (here: a library without Zi Wei's article) says so.
    without = replace(
        LIB, articles=tuple(a for a in LIB.articles if "ziwei:zi_wei" not in a.covers)
    )
    bare = catalogue_html(without, "ziwei", link=lambda i: f"/library/{i}", other="/b")
    assert "no article yet" in bare.split("<tr id='star-zi_wei'>")[1].split("</tr>")[0]
    assert "<strong class='names' lang='zh-Hans'>紫微</strong>" in zi_wei
    assert "<span lang='en'>Purple Star</span>" in zi_wei
    english = catalogue_html(LIB, "bazi", names="english")
    assert "<strong class='names' lang='en'>Heavenly Nobleman</strong>" in english
    assert html.count("<section") == 5  # major, minor, adjective, the school's, the cycles


def test_the_index_links_both_catalogues() -> None:
    html = index_html(LIB, stars=lambda engine: f"/library/stars/{engine}")
    assert "href='/library/stars/ziwei'" in html and "href='/library/stars/bazi'" in html


def test_the_static_build_writes_both_catalogues(tmp_path: Path) -> None:
    # One article keeps the build short; the catalogues list every star all the same.
    folder = tmp_path / "articles"
    folder.mkdir()
    for name in ("ZW-AUX-17.md", "ZW-AUX-17.claims.toml", "_planned.yaml"):
        (folder / name).write_bytes((_ROOT / name).read_bytes())
    written = build_site(load(folder), tmp_path / "site")
    site = tmp_path / "site"
    assert {site / "stars-ziwei.html", site / "stars-bazi.html"} <= set(written)
    page = (site / "stars-ziwei.html").read_text(encoding="utf-8")
    assert "<tr id='star-en_guang'>" in page and "href='ZW-AUX-17.html'" in page
    assert "href='stars-bazi.html'" in page and "href='library.css'" in page
    bz = (site / "stars-bazi.html").read_text(encoding="utf-8")
    assert len(re.findall(r"<tr id='star-", bz)) == 46 and "no article yet" in bz
    assert "href='stars-ziwei.html'" in (site / "index.html").read_text(encoding="utf-8")


def test_cli_stars_prints_the_catalogue_and_refuses_an_unknown_engine() -> None:
    runner = CliRunner()
    args = ["library", "stars", "bazi", "--names", "english"]
    shown = runner.invoke(app, args, env={"COLUMNS": "200"})
    assert shown.exit_code == 0, shown.output
    covered = sum(1 for e in BAZI.values() if e.articles)
    assert f"{covered} of 46 stars have an article." in shown.output
    for s in bazi.STARS:
        assert s.names.english in shown.output, s.key
    assert "BZ-SS-02" in shown.output
    assert ("no article yet" in shown.output) == (covered < 46)
    bad = runner.invoke(app, ["library", "stars", "qimen"])
    assert bad.exit_code == 2
    assert bad.output.strip().splitlines() == ["error: engine: one of ziwei, bazi, not 'qimen'"]


def test_docs_state_the_coverage_the_function_computes() -> None:
    doc = (ROOT / "docs" / "library.md").read_text(encoding="utf-8")
    block = doc.split("<!-- coverage: begin -->")[1].split("<!-- coverage: end -->")[0]
    assert block.strip().strip("`").strip() == coverage_line(LIB), (
        "docs/library.md's coverage is behind: run tools/library_coverage.py"
    )
