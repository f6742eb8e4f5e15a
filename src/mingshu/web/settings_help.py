"""One plain line for each chart setting on the form.

Display text only (the settings themselves are the engines' ``ZiweiSettings`` and
``BaziSettings``); the article explaining a setting names it in its front matter
(``explains``, see :func:`mingshu.web.library.article_for_setting`).
"""

from __future__ import annotations

from typing import Final

__all__ = ["HELP", "LABELS", "WORDS"]

LABELS: Final[dict[str, str]] = {
    "year_boundary": "Year boundary (Zi Wei)",
    "horoscope_boundary": "Horoscope year boundary",
    "late_rat_hour": "Late Rat hour (Zi Wei)",
    "leap_month": "Leap month",
    "age_count": "Age count",
    "algorithm": "Star rules: 全书 / 中州派",
    "school": "Reading: iztro / the book (全书)",
    "chart_type": "Chart: 天 / 地 / 人",
    "bz_late_rat_hour": "Late Rat hour (BaZi)",
    "start_age": "Luck start age (BaZi)",
    "stage_earth": "Growth stages of 戊/己 (BaZi)",
    "stage_yin": "Growth stages of yin stems (BaZi)",
    "ming_gong_month": "命宫 month (BaZi)",
    "si_ling": "人元司令 table (BaZi)",
    "equation_of_time": "True solar time: apparent or mean",
    "include_basis_pillar": "Stars in their basis pillar (BaZi)",
}

HELP: Final[dict[str, str]] = {
    "year_boundary": "Where the birth year begins for the palace stems and 四化: the lunar "
    "new year (正月初一) or 立春.",
    "horoscope_boundary": "Where a year begins for the horoscope layers and yearly gods.",
    "late_rat_hour": "A birth at 23:00–24:00 counts as the next day, or stays on the birth "
    "day as the early Rat hour.",
    "leap_month": "A leap-month birth counts as that month until day 15 and the next from "
    "day 16 (split), as that month throughout (whole), or as the next month throughout "
    "(next, as 全书 says); by default the reading's own (split for iztro, next for 全书).",
    "age_count": "Nominal age (虚岁) grows at each lunar new year, or on the lunar birthday.",
    "algorithm": "Whose rules place the stars: 紫微斗数全书, or the 中州派 (68 stars).",
    "school": "Where the book 紫微斗数全书 and iztro 2.6.0 part, follow iztro exactly or the "
    "book (leap month, 天魁天钺, 长生, 月德, 解神, 旬空, 截路空亡, brightness, 斗君 and 飞天三杀); "
    "the book's "
    "reading needs the 全书 star rules.",
    "chart_type": "The ordinary chart (天盘), or the Body (地盘) or Spirit palace (人盘) "
    "taken as the Life palace.",
    "bz_late_rat_hour": "BaZi day and hour pillars for 23:00–24:00: next day, split "
    "(day pillar of the birth day, hour stem of the next), or same day.",
    "start_age": "How the days from birth to the 节 become the luck start age (3 days = "
    "1 year), as each reference library counts them.",
    "stage_earth": "Where 戊 and 己 start their growth stages: with fire (火土同宫, as the "
    "libraries) or with water (水土同宫).",
    "stage_yin": "Yin stems count their growth stages backward from their own 长生 (阳顺阴逆, "
    "as the libraries), or share their yang partner's (阴阳同生).",
    "ming_gong_month": "The 命宫 counts from the month of the 节 (as the libraries) or from "
    "the month of its 中气.",
    "si_ling": "Which stem commands the month (人元司令): 三命通會 卷二's table or tyme4py's.",
    "equation_of_time": "With true solar time: the apparent solar time (with the equation of "
    "time), or the local mean time (without).",
    "include_basis_pillar": "May a branch-based star (三合 family, 孤辰, 勾绞 …) be found in "
    "the very pillar that gives its basis?",
}

WORDS: Final[dict[str, str]] = {
    # A value's words; "setting:value" where one value means different things in two settings.
    "lunar_new_year": "lunar new year (正月初一)",
    "spring_begins": "立春",
    "next_day": "next day",
    "same_day": "same day",
    "split": "split at day 16",
    # The BaZi late-Rat "split": the day pillar stays, the hour stem is the next day's.
    "bz_late_rat_hour:split": "split (day pillar of the birth day, hour stem of the next)",
    "whole": "whole month",
    "next": "next month (全书)",
    "iztro": "iztro 2.6.0",
    "lunar_year": "nominal age (虚岁)",
    "birthday": "lunar birthday",
    "quanshu": "全书 Quan Shu",
    "school:quanshu": "the book 紫微斗数全书",
    "zhongzhou": "中州派 Zhongzhou",
    "heaven": "天盘 heaven",
    "earth": "地盘 earth",
    "human": "人盘 human",
    "seconds": "exact seconds (tyme4py)",
    "minutes": "whole minutes (lunar-python 2)",
    "days_shichen": "days and 时辰 (lunar-python 1)",
    "china95": "元亨利贞 (China 95)",
    "fire_earth": "火土同宫",
    "water_earth": "水土同宫",
    "backward": "阳顺阴逆 (backward)",
    "forward": "阴阳同生 (forward)",
    "jie": "the 节 month",
    "zhong_qi": "the 中气 month",
    "sanming": "三命通會",
    "tyme4py": "tyme4py",
    "equation_of_time:1": "apparent (with the equation of time)",
    "equation_of_time:0": "mean (local mean time)",
    "include_basis_pillar:1": "yes",
    "include_basis_pillar:0": "no",
}
