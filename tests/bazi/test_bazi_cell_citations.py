"""Every citation states the cells it is cited for, and the passage gives those cells (issue 25).

Each test reads the passage in the cited lines the repository ships (sources/), parses the cells out of
the book's own words, and compares them with the table of the variant that cites it; the
tables are never the expected values.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mingshu import bazi
from mingshu.bazi.stars import STARS
from mingshu.bazi.tables import Source
from mingshu.cycles import SIXTY, Branch, Pillar, Stem
from mingshu.library.sources import Sources

# The cited lines the repository ships (sources/, kept equal to ../shared/sources by
# tests/library/test_sources.py), so these tests run from a clean clone.
SOURCES = Sources(Path(__file__).resolve().parents[2] / "sources")
# The ranges read here beyond a passage's first twelve lines: tools/build_sources.py ships
# them (it reads this literal).
READS = (
    ("shenfeng-tongkao.juan4.md", 349, 367),
    ("xingxue-dacheng.juan03.txt", 275, 279),
    ("xingxue-dacheng.juan01.txt", 419, 421),
)
STEMS = "甲乙丙丁戊己庚辛壬癸"
BRANCHES = "子丑寅卯辰巳午未申酉戌亥"
# 十干祿 (三命通會 卷三「論十干祿」: 甲祿在寅 … 癸祿在子), the table the 文昌 gloss counts from.
LU = dict(zip(STEMS, "寅卯巳午巳午申酉亥子", strict=True))


def _line(name: str, n: int) -> str:
    """Line ``n`` (1-based) of a transcription; an error if the excerpt does not ship it."""
    return SOURCES.get(name).line(n)


def _text(name: str, first: int, last: int) -> str:
    """Lines ``first``..``last`` (1-based) joined: line ends (¶), indentation, blank lines and
    四库 page markers dropped."""
    book = SOURCES.get(name)
    raw = book.span(first, min(last, book.length))
    return "".join(r.rstrip("¶").strip("\u3000 ") for r in raw if not r.startswith("<pb:"))


def _cited_at(src: Source) -> str:
    """The text from the cited line on (twelve lines), as the passage test joins it."""
    return _text(src.file, src.line, src.line + 11)


def _branches(v: bazi.Variant) -> dict[str, str]:
    """The variant's table as {stem: branches}, read through the engine's parsed lookup."""
    return {
        str(Stem(s)): "".join(str(Branch(t)) for _, t in v.lookup[s]) for s in range(len(STEMS))
    }


def _pillars(v: bazi.Variant) -> dict[str, set[str]]:
    return {str(Stem(s)): {str(SIXTY[t]) for _, t in v.lookup[s]} for s in range(len(STEMS))}


def _citations() -> list[tuple[str, Source]]:
    return [
        (f"{s.key}.{v.id}", src)
        for s in STARS
        for v in s.variants
        for src in (v.source, *v.also)
        if src.status != "convention"
    ]


# --------------------------------------------------------------- every citation, its cells


@pytest.mark.parametrize(("where", "src"), _citations(), ids=[w for w, _ in _citations()])
def test_every_passage_is_at_its_line(where: str, src: Source) -> None:
    """Further passages (``also``) too: verbatim, starting on the line cited."""
    book = SOURCES.get(src.file)
    own = book.line(src.line).rstrip("¶").strip("\u3000 ")
    text = _cited_at(src)
    assert text.find(src.passage) < len(own), f"{where}: 「{src.passage}」 not at L{src.line}"
    assert src.passage in text, where
    if src.page:  # the 四库 page marker before the line
        markers = [r for _, r in book.before(src.line + 1) if r.startswith("<pb:")]
        assert markers and markers[-1].rstrip("¶").strip("<>").removeprefix("pb:") == src.page


def test_named_cells_are_cells_of_the_table_and_cover_it() -> None:
    """Where a passage names its cells, the passages of the variant together name every cell
    of the table that gives something (a convention source stands for the cells nobody
    names)."""
    for s in STARS:
        for v in s.variants:
            named = [c for src in (v.source, *v.also) for c in src.cells.split()]
            keys = [k for k, targets in v.cells if targets]
            assert set(named) <= set(keys), (s.key, v.id)
            assert len(named) == len(set(named)), (s.key, v.id, "a cell cited twice")
            if v.also and v.source.status != "convention":
                assert set(named) == set(keys), (s.key, v.id)
            for src in v.also:
                assert src.cells, (s.key, v.id, "a further passage names no cells")


# ------------------------------------------------------------------------------ 学堂


def _shenfeng_xue_tang() -> dict[str, str]:
    text = _text(*READS[0])
    found = re.findall(rf"([{STEMS}])日生遇([{BRANCHES}])月 或([{BRANCHES}])时", text)
    assert all(month == hour for _, month, hour in found)
    return {stem: month for stem, month, _ in found}


def test_study_hall_modern_is_shenfeng_tongkao_all_ten_cells_in_month_or_hour() -> None:
    book = _shenfeng_xue_tang()
    assert len(book) == 10
    modern = bazi.star("xue_tang").variant("modern")
    assert modern.source.status == "secondary" and modern.source.cells == ""
    assert _branches(modern) == book
    assert [p.key for p in modern.search] == ["month", "hour"]  # 「遇亥月 或亥时」
    apps = bazi.star("xue_tang").variant("all_pillars")
    assert _branches(apps) == book and len(apps.search) == 4
    assert bazi.star("xue_tang").default == "modern"


def _xue_tang_places(pillars: str, variant: str) -> set[str]:
    settings = bazi.BaziSettings(star_variants={"xue_tang": variant})
    results = bazi.stars_in(*(Pillar.parse(p) for p in pillars.split()), settings=settings)
    (r,) = (r for r in results if r.star.key == "xue_tang")
    return {h.position.key for h in r.hits}


def test_study_hall_modern_looks_in_the_month_and_hour_only() -> None:
    """A 甲 day (长生 亥) with 亥 in every pillar but the day: the book's 「遇亥月 或亥时」 are
    the month and the hour; apps also take the year."""
    chart = "乙亥 丁亥 甲子 乙亥"
    assert _xue_tang_places(chart, "modern") == {"month", "hour"}
    assert _xue_tang_places(chart, "all_pillars") == {"year", "month", "hour"}


# ------------------------------------------------------------------------------ 红艳


def _xingxue_hong_yan() -> str:
    return _text(*READS[1])


def test_red_glamour_h1_cells_each_from_the_passage_that_states_them() -> None:
    h1 = bazi.star("hong_yan").variant("h1")
    table = _branches(h1)
    verse = _xingxue_hong_yan()
    # the verse's unambiguous cells
    pairs = re.findall(rf"([{STEMS}])(?:逢|見|臨|怕)([{BRANCHES}鷄])", verse)
    stated = {s: b.replace("鷄", "酉") for s, b in pairs}  # 辛見鷄: the Rooster, 酉
    stated.update({"戊": "辰", "己": "辰"} if "戊巳怕辰" in verse else {})  # 巳 for 己
    stated["甲"] = "午"  # 甲乙午申: 甲 → 午 in both readings
    verse_cells = set(h1.source.cells.split())
    assert verse_cells == set(stated) and "乙" not in verse_cells
    assert all(table[s] == stated[s] for s in verse_cells)
    # 乙 → 午 is 三命通會's 「甲乙逢午」
    (sanming,) = h1.also
    assert sanming.book == "三命通會" and sanming.cells == "乙"
    text = _cited_at(sanming)
    assert re.search(rf"甲乙逢{table['乙']}", text)
    assert "三命通會" in h1.label and "(甲乙 → 午)" not in h1.label


def test_red_glamour_h2_reads_the_verse_as_jia_wu_yi_shen() -> None:
    verse = _xingxue_hong_yan()
    assert "甲乙午申" in verse
    h2 = _branches(bazi.star("hong_yan").variant("h2"))
    assert (h2["甲"], h2["乙"]) == ("午", "申")


# ------------------------------------------------------------------------------ 魁罡


def _days(v: bazi.Variant) -> set[str]:
    return {str(SIXTY[i]) for i in v.pillars}


def test_kui_gang_yuanhai_is_the_four_days_the_verse_names() -> None:
    v = bazi.star("kui_gang").variant("yuanhai")
    line = _line(v.source.file, v.source.line)
    book = set(re.findall(rf"[{STEMS}][{BRANCHES}]", line))
    assert book == {"庚戌", "庚辰", "壬戌", "壬辰"} == _days(v)
    assert "戊戌" not in line and v.source.status == "secondary"
    # the later verse of the same chapter names 三命通會's four
    later = set(re.findall(rf"[{STEMS}][{BRANCHES}]", _line(v.source.file, 125)))
    assert later == _days(bazi.star("kui_gang").variant("four"))
    five = bazi.star("kui_gang").variant("five")
    assert _days(five) == book | later and "淵海子平" in five.source.note


# ------------------------------------------------------------------------------ 太极


def test_tai_ji_wu_ji_has_shen_and_the_four_ku() -> None:
    v = bazi.star("tai_ji").variant("standard")
    text = _cited_at(v.source)
    m = re.search(rf"戊己土也喜生乎([{BRANCHES}])得([{BRANCHES}]{{4}})為正庫", text)
    assert m, text
    book = set(m.group(1) + m.group(2))
    table = _branches(v)
    assert set(table["戊"]) == set(table["己"]) == book == set("申辰戌丑未")
    # the other pairs from the same passage
    for stems, pattern in (
        ("甲乙", rf"甲乙木先造乎([{BRANCHES}]).*?後終乎([{BRANCHES}])"),
        ("丙丁", rf"丙丁火先喜出乎.([{BRANCHES}]).*?後喜藏乎.([{BRANCHES}])"),
        ("庚辛", rf"庚辛金得([{BRANCHES}]).*?見([{BRANCHES}])"),
        ("壬癸", rf"壬癸水先得([{BRANCHES}]).*?後得([{BRANCHES}])"),
    ):
        found = re.search(pattern, text)
        assert found, stems
        for s in stems:
            assert set(table[s]) == set(found.groups()), s
    apps = _branches(bazi.star("tai_ji").variant("si_ku"))
    assert {s: b for s, b in apps.items() if s not in "戊己"} == {
        s: b for s, b in table.items() if s not in "戊己"
    }
    assert set(apps["戊"]) == set("辰戌丑未")


# ------------------------------------------------------------------------------ 文昌 W1


def _wen_chang_gloss() -> dict[str, str]:
    """The gloss under 「論文昌」: X生Y(生Z)在B → the day stems X (and Y, when it is counted
    further) have 文昌 at B."""
    text = re.sub(r"[()/]", "", _text(*READS[2]))
    out: dict[str, str] = {}
    for chain, branch in re.findall(rf"((?:[{STEMS}]生[{STEMS}])+)在([{BRANCHES}])", text):
        for day in re.findall(rf"([{STEMS}])生", chain):
            out[day] = branch
    return out


def test_wen_chang_w1_is_the_gloss_rule_and_names_its_nine_cells() -> None:
    gloss = _wen_chang_gloss()
    assert set(gloss) == set(STEMS) - {"辛"}
    w1 = bazi.star("wen_chang").variant("w1")
    assert w1.source.status == "primary" and w1.source.line == 419
    assert set(w1.source.cells.split()) == set(gloss)
    table = _branches(w1)
    assert {s: table[s] for s in gloss} == gloss
    # the rule: the stem produced (one generation further for Fire), at its 祿
    produced = {s: STEMS[(i + 2) % 10] for i, s in enumerate(STEMS)}
    for s in STEMS:
        target = produced[produced[s]] if s in "丙丁" else produced[s]
        assert table[s] == LU[target], s
    # 辛: the rule gives 癸 祿 子 (W1), the book's exception 戌 (W4)
    assert table["辛"] == "子" and _branches(bazi.star("wen_chang").variant("w4"))["辛"] == "戌"
    assert "獨辛不以生而以戌為文昌" in _text(*READS[2]).replace("/", "").replace(")(", "")


# ------------------------------------------------------------------------------ 词馆, 金神


def test_ci_guan_modern_cites_shenfeng_for_the_jia_cell_only() -> None:
    v = bazi.star("ci_guan").variant("modern")
    assert v.source.status == "convention"
    (sf,) = v.also
    assert sf.cells == "甲" and sf.status == "secondary"
    m = re.search(rf"如木生人 得([{STEMS}])([{BRANCHES}])为正", _cited_at(sf))
    # the Wood person's 庚寅: the apps' pillar for 甲 is 庚寅, of which the branch is matched
    assert m and (m.group(1), m.group(2)) == ("庚", "寅") and _branches(v)["甲"] == "寅"
    assert "甲庚寅" in v.source.note


def _three_hours(text: str) -> set[str]:
    return set(re.findall(rf"[{STEMS}][{BRANCHES}]", text))


def test_jin_shen_jia_yi_variant_from_shenfeng_tongkao() -> None:
    v = bazi.star("jin_shen").variant("jia_yi")
    pillars = _pillars(v)
    yi = v.source
    assert yi.cells == "乙"
    m = re.search(r"乙日金神 (.+?)三时也", _cited_at(yi))
    assert m and pillars["乙"] == _three_hours(m.group(1)) == {"乙丑", "己巳", "癸酉"}
    (jia,) = v.also
    m = re.search(r"甲日金神格 取(.+?)三个时", _cited_at(jia))
    assert jia.cells == "甲" and m and pillars["甲"] == _three_hours(m.group(1))
    assert all(not pillars[s] for s in STEMS if s not in "甲乙")
    assert [p.key for p in v.search] == ["hour"]


# ------------------------------------------------------------------------------ almanac gods


def test_almanac_day_gods_say_the_natal_reading_is_ours() -> None:
    for star, variant in (("tian_yi_doctor", "li_li"), ("tian_de", "stems")):
        src = bazi.star(star).variant(variant).source
        assert src.book == "欽定協紀辨方書"
        assert "natal star" in src.note and "choice" in src.note, (star, variant)


def test_json_gives_the_further_passages_with_their_cells() -> None:
    from mingshu.present.bazi_json import star_to_dict

    settings = bazi.BaziSettings(star_variants={"hong_yan": "h1"})
    results = bazi.stars_in(
        *(Pillar.parse(p) for p in ["甲子", "丙寅", "乙卯", "壬午"]), settings=settings
    )
    (h1,) = (star_to_dict(r) for r in results if r.star.key == "hong_yan")
    assert h1["source"]["cells"] == "甲 丙 丁 戊 己 庚 辛 壬 癸"
    assert [(a["book"], a["cells"], a["line"]) for a in h1["also"]] == [("三命通會", "乙", 1536)]
    assert h1["found"] and {h["target"] for h in h1["hits"]} == {"wu"}


def test_text_tables_cite_every_passage_of_the_table() -> None:
    from rich.console import Console

    from mingshu.present.bazi_text import print_chart

    settings = bazi.BaziSettings(star_variants={"hong_yan": "h1"})
    chart = bazi.chart("1990-05-15", "10:30", "male", tz="Asia/Shanghai", settings=settings)
    console = Console(record=True, width=400)
    print_chart(console, chart)
    out = console.export_text()
    (row,) = (line for line in out.splitlines() if "红艳煞" in line)
    assert "星學大成 卷三「紅艷煞歌」 (primary)" in row
    assert "三命通會 卷三「總論諸神煞 (桃花紅艶煞)」 (primary)" in row
