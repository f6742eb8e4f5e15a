"""The worked examples of seed article BZ-SS-02 (Literary Star: one name, several tables)."""

from __future__ import annotations

from mingshu import bazi
from mingshu.bazi.tables import ten_god
from mingshu.cycles import Branch, Pillar, Stem

P = Pillar.parse


def _stem_table(star: str, variant: str) -> dict[Stem, Branch]:
    v = bazi.star(star).variant(variant)
    out = {}
    for stem in Stem:
        (target,) = v.lookup[stem]
        out[stem] = Branch(target[1])
    return out


def test_yang_metal_day_master_finds_the_literary_star_twice() -> None:
    # Branches Pig, Rat, Monkey, Pig with a Yang Metal (庚) Day Master.
    result = bazi.stars_in(P("乙亥"), P("丙子"), P("庚申"), P("丁亥"))
    wen_chang = next(r for r in result if r.star.key == "wen_chang")
    assert wen_chang.variant.id == "w1"
    assert [(h.position, h.target) for h in wen_chang.hits] == [
        (bazi.Position.YEAR, Branch.HAI),
        (bazi.Position.HOUR, Branch.HAI),
    ]
    for h in wen_chang.hits:  # every hit says what it looked up and where the table is from
        assert (h.basis, h.basis_value, h.variant.id) == ("day_stem", Stem.GENG, "w1")
        assert h.source is wen_chang.variant.source


def test_same_branches_three_day_masters() -> None:
    # Branches Dragon, Monkey, Rat, Horse; only the Day Master changes.
    def literary(day: str) -> list[tuple[bazi.Position, Branch]]:
        results = bazi.stars_in(P("甲辰"), P("壬申"), P(day), P("庚午"))
        r = next(r for r in results if r.star.key == "wen_chang")
        return [(h.position, h.target) for h in r.hits]

    assert literary("戊子") == [(bazi.Position.MONTH, Branch.SHEN)]  # Yang Earth → Monkey
    assert literary("丙子") == [(bazi.Position.MONTH, Branch.SHEN)]  # Yang Fire → Monkey
    assert literary("甲子") == []  # Yang Wood → Snake, absent: a definite "none"


def test_a_miss_is_a_definite_result() -> None:
    results = bazi.stars_in(P("甲辰"), P("壬申"), P("甲子"), P("庚午"))
    r = next(r for r in results if r.star.key == "wen_chang")
    assert not r.found
    assert (
        r.describe()
        == "no Literary Star 文昌贵人 in this chart (table: W1 星學大成 卷一 論文昌 rule (辛 → 子))"
    )


def test_eight_of_ten_cells_are_the_emolument_of_the_eating_god() -> None:
    w1 = _stem_table("wen_chang", "w1")
    lu = _stem_table("lu_shen", "standard")
    matches, exceptions = [], []
    for stem in Stem:
        eating_god = next(x for x in Stem if ten_god(stem, x).key == "shi_shen")
        (matches if lu[eating_god] == w1[stem] else exceptions).append(stem)
    assert len(matches) == 8
    assert exceptions == [Stem.BING, Stem.DING]  # the Fire stems


def test_heavenly_kitchen_differs_from_w1_only_at_the_fire_stems() -> None:
    w1, k1 = _stem_table("wen_chang", "w1"), _stem_table("tian_chu", "k1")
    assert [s for s in Stem if w1[s] != k1[s]] == [Stem.BING, Stem.DING]


def test_the_four_literary_star_tables() -> None:
    text = {
        v: "".join(str(_stem_table("wen_chang", v)[s]) for s in Stem)
        for v in ("w1", "w2", "w3", "w4")
    }
    assert text == {
        "w1": "巳午申酉申酉亥子寅卯",  # common: 甲巳 乙午 丙申 丁酉 戊申 己酉 庚亥 辛子 壬寅 癸卯
        "w2": "巳亥戌辰申午寅未卯丑",  # 三命通会 卷三 文昌贵
        "w3": "午巳申酉申酉戌亥寅卯",  # 三命通会 卷三 文星贵
        "w4": "巳午申酉申酉亥戌寅卯",  # 星学大成 卷一
    }
    w1 = _stem_table("wen_chang", "w1")

    def agree(v: str) -> list[Stem]:
        t = _stem_table("wen_chang", v)
        return [s for s in Stem if t[s] == w1[s]]

    assert agree("w2") == [Stem.JIA, Stem.WU]  # only Yang Wood and Yang Earth agree
    assert agree("w3") == [Stem.BING, Stem.DING, Stem.WU, Stem.JI, Stem.REN, Stem.GUI]
    assert [s for s in Stem if s not in agree("w4")] == [Stem.XIN]  # 辛: 戌 in the book
    sources = {v.id: v.source for v in bazi.star("wen_chang").variants}
    assert (sources["w2"].book, sources["w2"].juan) == ("三命通會", "卷三")
    assert (sources["w3"].book, sources["w3"].juan) == ("三命通會", "卷三")
    assert (sources["w4"].book, sources["w4"].juan, sources["w4"].chapter) == (
        "星學大成",
        "卷一",
        "論文昌",
    )


def test_choosing_another_table_changes_the_answer_and_says_so() -> None:
    pillars = (P("乙亥"), P("丙子"), P("庚申"), P("丁亥"))
    for variant, expected in (("w1", ["亥", "亥"]), ("w2", []), ("w3", []), ("w4", ["亥", "亥"])):
        settings = bazi.BaziSettings().with_variants(wen_chang=variant)
        r = next(r for r in bazi.stars_in(*pillars, settings=settings) if r.star.key == "wen_chang")
        assert r.variant.id == variant
        assert [str(h.target) for h in r.hits] == expected
