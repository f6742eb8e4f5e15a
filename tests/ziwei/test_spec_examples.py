"""The worked examples of docs/iztro-rules.md §10, each produced by running iztro 2.6.0."""

from __future__ import annotations

import pytest

from mingshu.cycles import Branch
from mingshu.errors import InputError
from mingshu.ziwei import FiveElementsClass, NatalChart, ZiweiSettings, by_lunar, by_solar


def stars(chart: NatalChart, branch: str, group: str) -> list[str]:
    palace = chart.palace(Branch.parse(branch))
    return [str(s) for s in getattr(palace, f"{group}_stars")]


# §10.1: bySolar('2000-08-16', 2, '女'), palace by palace.
FULL_CHART = """
寅 戊 财帛 | 武曲得[权] 天相庙 | 天马 | 解神 三台 天寿 天巫 天厨 阴煞 天哭 | 绝 飞廉 岁驿 吊客 | 43 | 9
卯 己 子女 | 太阳庙[禄] 天梁庙 | | 天刑 | 墓 奏书 息神 病符 | 33 | 8
辰 庚 夫妻 | 七杀庙 | 右弼 火星陷 | 封诰 华盖 | 死 将军 华盖 岁建 | 23 | 7
巳 辛 兄弟 | 天机平 | | 天喜 天空 孤辰 | 病 小耗 劫煞 晦气 | 13 | 6
午 壬 命宫 | 紫微庙 | 文曲陷 | 凤阁 天福 截路 蜚廉 年解 | 衰 青龙 灾煞 丧门 | 3 | 5
未 癸 父母 | | 天钺 陀罗庙 | 天姚 空亡 | 帝旺 力士 天煞 贯索 | 113 | 4
申 甲 福德 | 破军得 | 文昌得 禄存 | 龙池 台辅 旬空 | 临官 博士 指背 官符 | 103 | 3
酉 乙 田宅 | | 地空 擎羊陷 | 咸池 天贵 月德 | 冠带 官府 咸池 小耗 | 93 | 2
戌 丙 官禄 | 廉贞利 天府庙 | 左辅 | 天才 天虚 | 沐浴 伏兵 月煞 大耗 | 83 | 1
亥 丁 仆役 | 太阴庙[科] | | 红鸾 恩光 天官 天月 天伤 | 长生 大耗 亡神 龙德 | 73 | 12
子 戊 迁移 | 贪狼旺 | 铃星陷 | 八座 | 养 病符 将星 白虎 | 63 | 11
丑 己 疾厄 | 天同不[忌] 巨门不 | 天魁 地劫 | 天德 寡宿 破碎 天使 | 胎 喜神 攀鞍 天德 | 53 | 10
"""


def test_full_chart_2000_08_16() -> None:
    chart = by_solar("2000-08-16", 2, "女")
    assert chart.lunar_date.chinese() == "二〇〇〇年七月十七"
    assert str(chart.pillars) == "庚辰 甲申 丙午 庚寅"
    assert chart.five_elements_class is FiveElementsClass.WOOD_3
    assert (chart.life_master.names.hans, chart.body_master.names.hans) == ("破军", "文昌")
    assert (chart.zodiac.hans, chart.sign.hans) == ("龙", "狮子座")
    assert chart.body_branch is Branch.XU
    for line in FULL_CHART.strip().splitlines():
        head, majors, minors, adjectives, gods, decade, age = (p.split() for p in line.split("|"))
        branch, stem, name = head
        palace = chart.palace(Branch.parse(branch))
        assert str(palace.stem) == stem and str(palace.name) == name
        assert stars(chart, branch, "major") == majors
        assert stars(chart, branch, "minor") == minors
        assert stars(chart, branch, "adjective") == adjectives
        assert [str(palace.chang_sheng), str(palace.bo_shi), str(palace.jiang_qian),
                str(palace.sui_qian)] == gods  # fmt: skip
        assert palace.decadal.start == int(decade[0])
        assert palace.ages[0] == int(age[0])
    assert [p.branch for p in chart.palaces if p.is_original] == [Branch.CHEN]


def test_late_rat_hour_and_day_change_setting() -> None:
    # §10.2: 2000-08-16, 女: early Rat, late Rat counted as the next day, late Rat kept.
    early = by_solar("2000-08-16", 0, "女")
    late = by_solar("2000-08-16", 12, "女")
    kept = by_solar("2000-08-16", 12, "女", ZiweiSettings(late_rat_hour="same_day"))
    assert str(early.pillars) == "庚辰 甲申 丙午 戊子"
    assert str(late.pillars) == "庚辰 甲申 丁未 庚子"
    assert str(kept.pillars) == str(early.pillars)
    for chart in (early, late, kept):
        assert str(chart.life_palace.pillar) == "甲申"
        assert chart.five_elements_class is FiveElementsClass.WATER_2
    assert [str(c.star(k).branch) for c in (early, late) for k in ("zi_wei", "san_tai", "en_guang")] \
        == ["酉", "寅", "丑", "戌", "卯", "寅"]  # fmt: skip
    assert kept.palaces == early.palaces
    assert kept.hour.names.hans == "晚子时"


@pytest.mark.parametrize(
    ("leap_month", "life", "body", "zuo_fu", "tian_yao", "master"),
    [("split", "癸亥", "酉", "午", "卯", "巨门"), ("whole", "壬戌", "申", "巳", "寅", "禄存")],
)
def test_leap_month_setting(leap_month: str, life: str, body: str, zuo_fu: str, tian_yao: str,
                            master: str) -> None:  # fmt: skip
    # §10.3: 2023-04-10 巳时 男 is lunar 闰二月二十.
    chart = by_solar("2023-04-10", 5, "男", ZiweiSettings(leap_month=leap_month))
    assert chart.lunar_date.is_leap and chart.lunar_date.day == 20
    assert str(chart.life_palace.pillar) == life
    assert str(chart.body_branch) == body
    assert str(chart.star("zuo_fu").branch) == zuo_fu
    assert str(chart.star("tian_yao").branch) == tian_yao
    assert chart.life_master.names.hans == master
    assert str(chart.pillars) == "癸卯 丙辰 戊戌 丁巳"  # the leap setting leaves it alone


def test_leap_month_splits_at_day_16() -> None:
    assert str(by_solar("2023-04-05", 5, "男").life_palace.pillar) == "壬戌"  # 闰二月十五
    assert str(by_solar("2023-04-06", 5, "男").life_palace.pillar) == "癸亥"  # 闰二月十六
    assert (
        by_lunar("2023-2-20", 5, "男", leap=True).palaces == by_solar("2023-4-10", 5, "男").palaces
    )
    assert str(by_lunar("2023-2-20", 5, "男").solar_date) == "2023-03-11"


@pytest.mark.parametrize(
    ("year", "horoscope", "pillars", "life", "klass", "zi_wei", "lu_cun", "hong_luan",
     "tian_guan", "tian_cai", "sui_jian"),
    [
        ("normal", "normal", "癸卯 乙丑 己亥 丁卯", "壬戌", "水二局", "寅", "子", "子", "午", "丑", "卯"),
        ("normal", "exact", "癸卯 丙寅 己亥 丁卯", "壬戌", "水二局", "寅", "子", "子", "未", "寅", "辰"),
        ("exact", "normal", "甲辰 丁丑 己亥 丁卯", "甲戌", "火六局", "戌", "寅", "亥", "午", "丑", "卯"),
        ("exact", "exact", "甲辰 丙寅 己亥 丁卯", "甲戌", "火六局", "戌", "寅", "亥", "未", "寅", "辰"),
    ],
)  # fmt: skip
def test_year_boundary_settings(year: str, horoscope: str, pillars: str, life: str, klass: str,
                                zi_wei: str, lu_cun: str, hong_luan: str, tian_guan: str,
                                tian_cai: str, sui_jian: str) -> None:  # fmt: skip
    # §10.4: 2024-02-05 卯时 男, after 立春 and before the lunar new year.
    settings = ZiweiSettings(year_boundary=year, horoscope_boundary=horoscope)
    chart = by_solar("2024-02-05", 3, "男", settings)
    assert str(chart.pillars) == pillars
    assert str(chart.life_palace.pillar) == life
    assert str(chart.five_elements_class) == klass
    for key, branch in [("zi_wei", zi_wei), ("lu_cun", lu_cun), ("hong_luan", hong_luan),
                        ("tian_guan", tian_guan), ("tian_cai", tian_cai)]:  # fmt: skip
        assert str(chart.star(key).branch) == branch, key
    assert [str(p.branch) for p in chart.palaces if p.sui_qian.key == "sui_jian"] == [sui_jian]


def test_zhongzhou_against_quanshu() -> None:
    # §10.6: 2000-08-16 寅时; 女 in a 庚辰 (yang) year is 阳女, so 天使/天伤 swap.
    zhongzhou = ZiweiSettings(algorithm="zhongzhou")
    default = by_solar("2000-08-16", 2, "女")
    other = by_solar("2000-08-16", 2, "女", zhongzhou)
    assert (default.life_master.names.hans, other.life_master.names.hans) == ("破军", "廉贞")
    assert (str(default.star("tian_shi").branch), str(default.star("tian_shang").branch)) == (
        "丑",
        "亥",
    )
    assert (str(other.star("tian_shi").branch), str(other.star("tian_shang").branch)) == (
        "亥",
        "丑",
    )
    assert (str(default.star("jie_lu").branch), str(default.star("kong_wang").branch)) == (
        "午",
        "未",
    )
    assert str(other.star("jie_kong").branch) == "午"
    for key in ("jie_lu", "kong_wang"):
        with pytest.raises(InputError, match="not placed by the zhongzhou algorithm"):
            other.star(key)
    for key, branch in [("long_de", "亥"), ("jie_sha", "巳"), ("da_hao", "亥")]:
        assert str(other.star(key).branch) == branch
    assert str(default.palace(Branch.XU).sui_qian) == "大耗"
    assert str(other.palace(Branch.XU).sui_qian) == "岁破"
    assert sum(len(p.stars) for p in default.palaces) == 66
    assert sum(len(p.stars) for p in other.palaces) == 68
    man = by_solar("2000-08-16", 2, "男", zhongzhou)
    assert (str(man.star("tian_shi").branch), str(man.star("tian_shang").branch)) == ("丑", "亥")


@pytest.mark.parametrize(
    ("chart_type", "klass", "life", "body", "zi_wei", "first_decade"),
    [("heaven", "木三局", "午", "戌", "午", 3), ("earth", "土五局", "戌", "寅", "寅", 5),
     ("human", "水二局", "申", "子", "酉", 2)],
)  # fmt: skip
def test_chart_types(chart_type: str, klass: str, life: str, body: str, zi_wei: str,
                     first_decade: int) -> None:  # fmt: skip
    # §10.7: withOptions 2000-08-16, index 2, 女.
    chart = by_solar("2000-08-16", 2, "女", ZiweiSettings(chart_type=chart_type))
    assert str(chart.five_elements_class) == klass
    assert str(chart.life_branch) == life
    assert [str(p.branch) for p in chart.palaces if p.is_body] == [body]
    assert str(chart.star("zi_wei").branch) == zi_wei
    assert chart.life_palace.decadal.start == first_decade


@pytest.mark.parametrize(
    ("date", "time", "life", "klass", "zi_wei"),
    [("1987-05-13", 7, "庚戌", "金四局", "巳"), ("1990-01-27", 12, "戊寅", "土五局", "亥")],
)
def test_one_liners(date: str, time: int, life: str, klass: str, zi_wei: str) -> None:
    # §10.8
    chart = by_solar(date, time, "男")
    assert str(chart.life_palace.pillar) == life
    assert str(chart.five_elements_class) == klass
    assert str(chart.star("zi_wei").branch) == zi_wei
