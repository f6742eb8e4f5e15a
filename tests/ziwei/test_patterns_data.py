"""patterns.toml against its sources: every verse verbatim on its line, the whole of 卷一's
four lists, x-iztro 0.6.1's 64 patterns counted once, and a vocabulary the loader knows."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from mingshu.library.sources import Sources
from mingshu.ziwei.patterns import PATTERNS, RULES

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "src" / "mingshu" / "ziwei" / "data" / "patterns.toml"
REPO = Sources(ROOT / "sources")  # the excerpts a clean clone has
SHARED = Sources(ROOT.parent / "shared" / "sources")  # the whole transcriptions

# x-iztro 0.6.1's PatternKey values (x_iztro/enums.py of the 0.6.1 wheel).
XIZTRO_KEYS = [
    "jun_chen_qing_hui",
    "zi_fu_tong_gong",
    "jin_yu_fu_jia",
    "zi_fu_jia_ming",
    "ji_xiang_li_ming",
    "ji_ju_mao_you",
    "ji_yue_tong_liang",
    "shan_yin_chao_gang",
    "ji_ju_tong_lin",
    "ji_ju_ju_mao",
    "ri_yue_tong_gong",
    "ju_ri_tong_gong",
    "ri_zhao_lei_men",
    "ri_yue_bing_ming",
    "ri_yue_fan_bei",
    "ri_yue_zhao_bi",
    "jin_can_guang_hui",
    "ri_yue_cang_hui",
    "dan_chi_gui_chi",
    "ri_yue_jia_ming",
    "ri_yue_jia_cai",
    "yue_lang_tian_men",
    "yue_sheng_cang_hai",
    "ming_zhu_chu_hai",
    "wu_tan_tong_xing",
    "ling_chang_tuo_wu",
    "xing_qiu_jia_yin",
    "sheng_bu_feng_shi",
    "xiong_su_chao_yuan",
    "fu_xiang_chao_yuan",
    "huo_tan",
    "ling_tan",
    "shi_zhong_yin_yu",
    "liang_ma_piao_dang",
    "yang_liang_chang_lu",
    "sha_po_lang",
    "qi_sha_chao_dou",
    "lu_shuai_ma_kun",
    "ying_xing_ru_miao",
    "zhong_shui_chao_dong",
    "san_qi_jia_hui",
    "lu_ma_jiao_chi",
    "lu_he_yuan_yang",
    "ming_lu_an_lu",
    "lu_ma_pei_yin",
    "liang_chong_hua_gai",
    "feng_yun_ji_hui",
    "yang_tuo_jia_ming",
    "ma_tou_dai_jian",
    "zuo_you_tong_gong",
    "zuo_you_jia_ming",
    "fu_bi_gong_zhu",
    "kui_yue_jia_ming",
    "zuo_gui_xiang_gui",
    "jie_kong_jia_ming",
    "lu_feng_liang_sha",
    "wen_gui_wen_hua",
    "wen_xing_chao_ming",
    "chang_qu_jia_ming",
    "wen_xing_an_gong",
    "quan_lu_sheng_feng",
    "ke_ming_an_lu",
    "ke_quan_lu_jia",
    "jia_di_deng_yong",
]

CITED = [(p.key, p.verse, p.verse_at) for p in PATTERNS.values()] + [
    (f"rule.{r.key}", r.verse, r.verse_at) for r in RULES.values()
]


# The shipped excerpts (sources/) are checked line for line against the full transcriptions
# by tests/library/test_sources.py when ../shared is beside the repository, so a verse on its
# line in sources/ is on that line of the book's file too; a clean clone checks the same.
@pytest.mark.parametrize(("key", "verse", "at"), CITED, ids=[c[0] for c in CITED])
def test_every_verse_stands_on_its_line(key: str, verse: str, at: str) -> None:
    name, line = at.rsplit(":", 1)
    assert verse in REPO.get(name).line(int(line)), f"{key}: {verse!r} is not on {at}"


def test_every_pattern_of_the_four_lists_is_there() -> None:
    """Each line of 卷一's 定富局 定贵局 定贫贱局 定杂局 is some pattern's verse line."""
    text = SHARED.get("ziwei-quanshu.juan1.md") if SHARED.folder.is_dir() else None
    if text is None:
        pytest.skip("../shared/sources is not here")
    cited = {p.verse_at for p in PATTERNS.values()}
    lists = ("## 定富局", "## 定贵局", "## 定贫贱局", "## 定杂局")
    heads = [n for n in range(1, text.length + 1) if text.line(n).strip() in lists]
    assert len(heads) == 4
    lines = [
        n
        for n in range(heads[0], text.length + 1)
        if text.line(n).strip() and not text.line(n).startswith("#")
    ]
    assert len(lines) == 6 + 27 + 8 + 8
    missing = [text.line(n) for n in lines if f"ziwei-quanshu.juan1.md:{n}" not in cited]
    # 七杀朝斗 cites 卷三's note, which gives its positions; 卷一 has only the 赋 words.
    assert [m.split()[0].lstrip(">") for m in missing] == ["七杀朝斗", "府相朝垣"], missing


def test_every_xiztro_pattern_is_counted_once() -> None:
    assert len(set(XIZTRO_KEYS)) == 64
    mapped = [p.xiztro for p in PATTERNS.values() if p.xiztro]
    assert sorted(mapped) == sorted(XIZTRO_KEYS)


def test_at_least_eighty_patterns_with_verse_group_and_conditions() -> None:
    raw = tomllib.loads(DATA.read_text(encoding="utf-8"))["pattern"]
    assert len(raw) >= 80
    for row in raw:
        assert re.fullmatch(r"[a-z]+(_[a-z]+)*", row["key"]), row["key"]
        assert row["verse"] and row["group"] in {"fu", "gui", "pin_jian", "za", "po_ge"}
        assert row["layer"] in {"book", "gloss", "verse", "limits"}
        assert ("when" in row) == (row["layer"] != "limits"), row["key"]
        assert set(row["names"]) == {"hans", "hant", "pinyin", "en"}
        for variant in row.get("variant", ()):
            assert variant["key"] in {"x_iztro", "gloss"} and variant["why"]


def test_an_unknown_condition_is_refused() -> None:
    from mingshu.ziwei.patterns import _compile

    with pytest.raises(ValueError, match="vocabulary"):
        _compile({"sits": "life"}, "probe")
    with pytest.raises(ValueError, match="not a star key"):
        _compile({"in": "life", "stars": ["紫微"]}, "probe")
    with pytest.raises(ValueError, match="no palace role"):
        _compile({"in": "命宫", "stars": ["zi_wei"]}, "probe")
