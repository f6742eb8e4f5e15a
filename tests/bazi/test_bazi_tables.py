"""The rule tables of bazi/data against their rules, the spec's tables and lunar-python."""

from __future__ import annotations

from lunar_python import EightChar
from lunar_python.util import LunarUtil

from mingshu import bazi
from mingshu.bazi.tables import (
    GODS,
    HIDDEN,
    NAYIN,
    NAYIN_OF,
    STAGES,
    chang_sheng_table,
    stage_table,
    ten_god,
)
from mingshu.cycles import SIXTY, Branch, Element, Stem

# Relation of the other stem X to the Day Master D, by the five-phase cycle.
_RELATION_GOD = {
    ("same", True): "bi_jian",
    ("same", False): "jie_cai",
    ("produced", True): "shi_shen",
    ("produced", False): "shang_guan",
    ("controlled", True): "pian_cai",
    ("controlled", False): "zheng_cai",
    ("controller", True): "qi_sha",
    ("controller", False): "zheng_guan",
    ("producer", True): "pian_yin",
    ("producer", False): "zheng_yin",
}


def _relation(master: Stem, other: Stem) -> str:
    d, x = master.element, other.element
    if d == x:
        return "same"
    if d.generates() == x:
        return "produced"
    if d.controls() == x:
        return "controlled"
    if x.controls() == d:
        return "controller"
    assert x.generates() == d
    return "producer"


def test_ten_gods_follow_the_five_phase_rule() -> None:
    for master in Stem:
        for other in Stem:
            same = master.polarity == other.polarity
            assert ten_god(master, other).key == _RELATION_GOD[(_relation(master, other), same)]


def test_ten_gods_equal_lunar_python() -> None:
    for master in Stem:
        for other in Stem:
            expected = LunarUtil.SHI_SHEN[str(master) + str(other)]
            assert str(ten_god(master, other)) == expected


def test_ten_god_names_are_complete() -> None:
    assert len(GODS) == 10 and len({g.key for g in GODS}) == 10
    for g in GODS:
        assert all(g.names) and g.key.isascii()
    assert str(ten_god(Stem.JIA, Stem.BING)) == "食神"
    assert ten_god(Stem.JIA, Stem.BING).names.english == "Eating God"


def test_hidden_stems_equal_lunar_python_in_order() -> None:
    for branch in Branch:
        expected = LunarUtil.ZHI_HIDE_GAN[str(branch)]
        assert [str(s) for s, _ in HIDDEN[branch]] == list(expected)
        assert [role.key for _, role in HIDDEN[branch]] == ["main", "middle", "residual"][
            : len(expected)
        ]


def test_hidden_main_stem_shares_the_branch_element() -> None:
    for branch in Branch:
        assert HIDDEN[branch][0][0].element == branch.element


def test_nayin_equals_lunar_python() -> None:
    assert len(NAYIN) == 30
    for p in SIXTY:
        assert str(NAYIN_OF[p.index]) == LunarUtil.NAYIN[str(p)]
        assert NAYIN_OF[p.index].element.names.hans == LunarUtil.NAYIN[str(p)][-1]
    assert str(bazi.nayin(SIXTY[0])) == "海中金" and NAYIN[0].element is Element.METAL


# docs/bazi-rules.md §2.5 full table (火土同宫, 阳顺阴逆): stem → stages on 子 … 亥.
SPEC_STAGES = {
    "甲": "沐浴 冠带 临官 帝旺 衰 病 死 墓 绝 胎 养 长生",
    "乙": "病 衰 帝旺 临官 冠带 沐浴 长生 养 胎 绝 墓 死",
    "丙": "胎 养 长生 沐浴 冠带 临官 帝旺 衰 病 死 墓 绝",
    "丁": "绝 墓 死 病 衰 帝旺 临官 冠带 沐浴 长生 养 胎",
    "戊": "胎 养 长生 沐浴 冠带 临官 帝旺 衰 病 死 墓 绝",
    "己": "绝 墓 死 病 衰 帝旺 临官 冠带 沐浴 长生 养 胎",
    "庚": "死 墓 绝 胎 养 长生 沐浴 冠带 临官 帝旺 衰 病",
    "辛": "长生 养 胎 绝 墓 死 病 衰 帝旺 临官 冠带 沐浴",
    "壬": "帝旺 衰 病 死 墓 绝 胎 养 长生 沐浴 冠带 临官",
    "癸": "临官 冠带 沐浴 长生 养 胎 绝 墓 死 病 衰 帝旺",
}


def test_default_stages_equal_the_spec_table() -> None:
    table = stage_table("fire_earth", "backward")
    for stem_text, row in SPEC_STAGES.items():
        stem = Stem.parse(stem_text)
        assert " ".join(str(table[stem * 12 + b]) for b in Branch) == row


def test_default_stages_equal_lunar_python_offsets() -> None:
    # lunar-python: stage = (offset[stem] ± branch) mod 12, + for yang, − for yin.
    offsets = {
        "甲": 1,
        "乙": 6,
        "丙": 10,
        "丁": 9,
        "戊": 10,
        "己": 9,
        "庚": 7,
        "辛": 0,
        "壬": 4,
        "癸": 3,
    }
    for stem in Stem:
        for branch in Branch:
            sign = 1 if stem % 2 == 0 else -1
            index = (offsets[str(stem)] + sign * branch) % 12
            assert bazi.stage(stem, branch) == STAGES[index]
            assert str(STAGES[index]) == EightChar.CHANG_SHENG[index]


def test_stage_conventions_differ_where_they_should() -> None:
    water = bazi.BaziSettings(stage_earth="water_earth")
    forward = bazi.BaziSettings(stage_yin="forward")
    assert str(bazi.stage(Stem.WU, Branch.SHEN, water)) == "长生"  # 水土长生申
    assert str(bazi.stage(Stem.WU, Branch.YIN, water)) == "病"
    assert str(bazi.stage(Stem.JI, Branch.MAO, water)) == "长生"  # yin runs backward from 卯
    assert str(bazi.stage(Stem.YI, Branch.HAI, forward)) == "长生"  # 乙 shares 甲's cycle
    assert str(bazi.stage(Stem.YI, Branch.MAO, forward)) == "帝旺"
    # The other stems are untouched by the earth rule.
    for stem in (Stem.JIA, Stem.YI, Stem.BING, Stem.DING, Stem.GENG, Stem.XIN, Stem.REN, Stem.GUI):
        for branch in Branch:
            assert bazi.stage(stem, branch, water) == bazi.stage(stem, branch)
    # Under both yin rules yang stems keep their cycle.
    for stem in (Stem.JIA, Stem.BING, Stem.WU, Stem.GENG, Stem.REN):
        assert (
            chang_sheng_table("fire_earth", "forward")[stem]
            == chang_sheng_table("fire_earth", "backward")[stem]
        )


def test_lu_is_lin_guan_of_the_default_stages() -> None:
    lu = bazi.star("lu_shen").variant("standard")
    for stem in Stem:
        (target,) = lu.lookup[stem]
        assert str(bazi.stage(stem, Branch(target[1]))) == "临官"


def test_tai_xi_and_combinations_equal_lunar_python() -> None:
    for p in SIXTY:
        assert str(bazi.tai_xi(p)) == LunarUtil.HE_GAN_5[p.stem] + LunarUtil.HE_ZHI_6[p.branch]
