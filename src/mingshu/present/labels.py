"""Words of the Zi Wei boards themselves (text grid and SVG), in the four name styles.

Names of chart things (stars, palaces, gods) come from the data files; these are the
board's own captions: 阳历, 五行局, 身宫 …
"""

from __future__ import annotations

from typing import Final

__all__ = ["BOARD", "LABELS"]

LABELS: Final[dict[str, dict[str, str]]] = {
    "hans": {
        "title": "紫微斗数 命盘",
        "solar": "阳历",
        "lunar": "农历",
        "leap": "",
        "pillars": "四柱",
        "gender": "阴阳",
        "class": "五行局",
        "life_master": "命主",
        "body_master": "身主",
        "zodiac": "生肖",
        "sign": "星座",
        "settings": "设置",
        "body": "身宫",
        "original": "来因",
        "horoscope": "运限",
        "age": "虚岁",
        "male": "男",
        "female": "女",
        "yang": "阳",
        "yin": "阴",
    },
    "hant": {
        "title": "紫微斗數 命盤",
        "solar": "陽曆",
        "lunar": "農曆",
        "leap": "",
        "pillars": "四柱",
        "gender": "陰陽",
        "class": "五行局",
        "life_master": "命主",
        "body_master": "身主",
        "zodiac": "生肖",
        "sign": "星座",
        "settings": "設置",
        "body": "身宮",
        "original": "來因",
        "horoscope": "運限",
        "age": "虛歲",
        "male": "男",
        "female": "女",
        "yang": "陽",
        "yin": "陰",
    },
    "pinyin": {
        "title": "Zi Wei Dou Shu",
        "solar": "Yang Li",
        "lunar": "Nong Li",
        "leap": "run",
        "pillars": "Si Zhu",
        "gender": "Yin Yang",
        "class": "Wu Xing Ju",
        "life_master": "Ming Zhu",
        "body_master": "Shen Zhu",
        "zodiac": "Sheng Xiao",
        "sign": "Xing Zuo",
        "settings": "Settings",
        "body": "Shen Gong",
        "original": "Lai Yin",
        "horoscope": "Yun Xian",
        "age": "Xu Sui",
        "male": "nan",
        "female": "nü",
        "yang": "yang",
        "yin": "yin",
    },
    "english": {
        "title": "Zi Wei Dou Shu chart",
        "solar": "Solar",
        "lunar": "Lunar",
        "leap": "leap",
        "pillars": "Pillars",
        "gender": "Gender",
        "class": "Class",
        "life_master": "Life master",
        "body_master": "Body master",
        "zodiac": "Zodiac",
        "sign": "Sign",
        "settings": "Settings",
        "body": "Body",
        "original": "Origin",
        "horoscope": "Horoscope",
        "age": "age",
        "male": "male",
        "female": "female",
        "yang": "yang",
        "yin": "yin",
    },
}


# The 4×4 board: (row, column) of each branch; 子 = 0.  Top row 巳 午 未 申, right column
# 酉 戌, bottom row (left to right) 寅 丑 子 亥, left column 辰 卯.
BOARD: Final = {
    5: (0, 0),
    6: (0, 1),
    7: (0, 2),
    8: (0, 3),
    9: (1, 3),
    10: (2, 3),
    11: (3, 3),
    0: (3, 2),
    1: (3, 1),
    2: (3, 0),
    3: (2, 0),
    4: (1, 0),
}
