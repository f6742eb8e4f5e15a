"""Every palace answers to its usual names, with and without 宫 (宮): ``palace("疾厄宫")``
works as ``palace("命宫")`` does (issue 20).

The authority for the order and the older names is 紫微斗数全书 卷二, the palace list of
the chart it draws (../shared/sources/ziwei-quanshu.juan2.newdu-full.txt, line 7), quoted
below; iztro 2.6.0's names are read from its records in tests/fixtures.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from mingshu import ziwei
from mingshu.cycles import Branch
from mingshu.errors import InputError

QUANSHU_LINE = "一 命宫、二兄弟、三妻妾、四子女、五财帛、六疾厄、七迁移、八奴仆、九官禄、十田宅、十一福德、十二父母"
# The book counts the palaces from 命宫 against the order of the branches (子 → 亥 → 戌 …).
BOOK = [item.split(" ")[-1].lstrip("一二三四五六七八九十") for item in QUANSHU_LINE.split("、")]

CHARTS = [
    ziwei.chart("2000-8-16", 2, "female"),
    ziwei.chart("1987-05-16", "10:30", "male"),
    ziwei.chart("2000-8-16", 2, "female", settings=ziwei.ZiweiSettings(chart_type="human")),
]


def test_the_book_names_twelve_palaces() -> None:
    assert len(BOOK) == 12 and BOOK[0] == "命宫" and BOOK[7] == "奴仆"


@pytest.mark.parametrize("chart", CHARTS, ids=["female-2000", "male-1987", "human"])
@pytest.mark.parametrize(("step", "name"), list(enumerate(BOOK)), ids=BOOK)
def test_the_book_names_find_their_palace(chart: ziwei.NatalChart, step: int, name: str) -> None:
    expected = Branch((chart.life_branch - step) % 12)
    bare = name.removesuffix("宫")
    for text in (bare, bare + "宫", bare + "宮"):
        assert chart.palace(text).branch == expected, text
        assert chart.palace_named(text).branch == expected, text
    horoscope = chart.horoscope("2030-1-1")
    assert horoscope.palace(bare + "宫", "origin").branch == expected


def test_交友_is_the_friends_palace() -> None:
    chart = CHARTS[0]
    friends = chart.palace("奴仆")
    for text in ("交友", "交友宫", "交友宮", "仆役宫", "僕役宮", "奴僕", "friends"):
        assert chart.palace(text) is friends, text


def test_iztro_names_with_宫_find_the_palace_iztro_names() -> None:
    path = Path(__file__).parent.parent / "fixtures" / "iztro-2.6.0" / "random.jsonl.gz"
    from mingshu.crosscheck.iztro import chart_for_input

    with gzip.open(path, "rt", encoding="utf-8") as f:
        records = [json.loads(line) for line in f][:20]
    for record in records:
        chart = chart_for_input(record["input"])
        for palace in record["output"]["chart"]["palaces"]:
            name = palace["name"].removesuffix("宫")
            found = chart.palace(name + "宫")
            assert str(found.branch) == palace["earthlyBranch"], (record["input"]["id"], name)


def test_a_name_that_is_no_palace_is_still_refused() -> None:
    for text in ("宫", "交", "身宫宫", "朋友"):
        with pytest.raises(InputError) as error:
            CHARTS[0].palace(text)
        assert error.value.field == "palace"
