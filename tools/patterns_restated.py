"""Ten patterns restated from their verses alone, over a chart's JSON (chart_to_dict), as
tools/book_conformance.py restates placements: no code of mingshu.ziwei.patterns, only
the verse's words read plainly.  tests/ziwei/test_patterns.py compares them with
the detector (one year in the loop, 1900-2100 in the `space` tier)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

BRANCHES = ["zi", "chou", "yin", "mao", "chen", "si", "wu", "wei", "shen", "you", "xu", "hai"]


def _palaces(chart: dict[str, Any]) -> list[dict[str, Any]]:
    return chart["palaces"]  # in branch order, 子 first


def _stars(palace: dict[str, Any]) -> list[dict[str, Any]]:
    return palace["major_stars"] + palace["minor_stars"] + palace["adjective_stars"]


def _keys(palace: dict[str, Any]) -> set[str]:
    return {s["key"] for s in _stars(palace)}


def _where(chart: dict[str, Any], key: str) -> int:
    for i, palace in enumerate(_palaces(chart)):
        if key in _keys(palace):
            return i
    return -1


def _life(chart: dict[str, Any]) -> int:
    return BRANCHES.index(chart["life_branch"])


def _named(chart: dict[str, Any], name: str) -> int:
    return next(i for i, p in enumerate(_palaces(chart)) if p["name"]["key"] == name)


def _mutagens(palace: dict[str, Any]) -> set[str]:
    return {s["mutagen"] for s in _stars(palace) if s.get("mutagen")}


# 金灿光辉 太阳单守，命在午宫是也。
def jin_can_guang_hui(c: dict[str, Any]) -> bool:
    life = _palaces(c)[_life(c)]
    return c["life_branch"] == "wu" and [s["key"] for s in life["major_stars"]] == ["tai_yang"]


# 七杀寅申子午一生爵禄荣昌 为七杀朝斗格。
def qi_sha_chao_dou(c: dict[str, Any]) -> bool:
    return c["life_branch"] in ("yin", "shen", "zi", "wu") and _where(c, "qi_sha") == _life(c)


# 月落亥宫 月在亥守命是也，又名月朗天门。
def yue_lang_tian_men(c: dict[str, Any]) -> bool:
    return c["life_branch"] == "hai" and _where(c, "tai_yin") == _life(c)


# 日出扶桑 日在卯守命是也，守官禄宫亦然。
def ri_chu_fu_sang(c: dict[str, Any]) -> bool:
    sun = _where(c, "tai_yang")
    return BRANCHES[sun] == "mao" and sun in (_life(c), _named(c, "career"))


# 君臣庆会 紫微左右同守命是也
def jun_chen_qing_hui(c: dict[str, Any]) -> bool:
    return {"zi_wei", "zuo_fu", "you_bi"} <= _keys(_palaces(c)[_life(c)])


# 左右夹命为贵格 如安命在丑宫，左辅在子宫，右弼在寅宫。
def zuo_you_jia_ming(c: dict[str, Any]) -> bool:
    sides = {(_life(c) - 1) % 12, (_life(c) + 1) % 12}
    return {_where(c, "zuo_fu"), _where(c, "you_bi")} == sides


# 明珠出海 命宫在未宫,太阳星坐卯宫,太阴星坐亥宫
def ming_zhu_chu_hai(c: dict[str, Any]) -> bool:
    return (
        c["life_branch"] == "wei"
        and BRANCHES[_where(c, "tai_yang")] == "mao"
        and BRANCHES[_where(c, "tai_yin")] == "hai"
    )


# 武曲守垣 武守命卯宫是也，余不是。
def wu_qu_shou_yuan(c: dict[str, Any]) -> bool:
    return c["life_branch"] == "mao" and _where(c, "wu_qu") == _life(c)


# 巨门子午科权禄石中隐玉福兴隆 (科权禄: any of them in the Life palace's 三方四正)
def shi_zhong_yin_yu(c: dict[str, Any]) -> bool:
    life = _life(c)
    if c["life_branch"] not in ("zi", "wu") or _where(c, "ju_men") != life:
        return False
    four = [_palaces(c)[(life + k) % 12] for k in (0, 4, 6, 8)]
    return any(_mutagens(p) & {"lu", "quan", "ke"} for p in four)


# 生不逢时 命坐空亡逢廉贞是也。(空亡: 旬空, 截空, 空亡 in the Life palace)
def sheng_bu_feng_shi(c: dict[str, Any]) -> bool:
    keys = _keys(_palaces(c)[_life(c)])
    return "lian_zhen" in keys and bool(keys & {"xun_kong", "jie_kong", "kong_wang"})


RESTATED: dict[str, Callable[[dict[str, Any]], bool]] = {
    f.__name__: f
    for f in (
        jin_can_guang_hui,
        qi_sha_chao_dou,
        yue_lang_tian_men,
        ri_chu_fu_sang,
        jun_chen_qing_hui,
        zuo_you_jia_ming,
        ming_zhu_chu_hai,
        wu_qu_shou_yuan,
        shi_zhong_yin_yu,
        sheng_bu_feng_shi,
    )
}
