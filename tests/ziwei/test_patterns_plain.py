"""The detector (a view read from the chart's position list and the engine's tables, the
generated first test of every reading, hits kept by their form) against the plain way:
every natal reading's compiled test run on every chart, one after another, no plan, then
its break rules.  Same hits in the same order, on a few thousand random births, under every
variant and under settings that change the star list, the 四化 table and the brightness."""

from __future__ import annotations

import pytest
from test_patterns_reference import births, fast, reference

from mingshu.ziwei import from_birth
from mingshu.ziwei.chart import NatalChart
from mingshu.ziwei.patterns import PATTERNS, VARIANTS, _View
from mingshu.ziwei.settings import ZiweiSettings

SETTINGS = {
    "default": ZiweiSettings(),
    "zhongzhou": ZiweiSettings(algorithm="zhongzhou"),
    "quanshu_school": ZiweiSettings(school="quanshu"),
    "earth": ZiweiSettings(chart_type="earth"),
    "human": ZiweiSettings(chart_type="human"),
    # 四化 and brightness overrides: the view must read them as the palaces carry them.
    "overrides": ZiweiSettings(
        mutagens={
            "geng": ["tai_yang", "wu_qu", "tian_tong", "tian_xiang"],
            "ren": ["tian_liang", "zi_wei", "zuo_fu", "wu_qu"],
            "jia": ["lian_zhen", "po_jun", "wen_chang", "tai_yang"],
        },
        brightness={"tai_yang": ["miao"] * 12, "qing_yang": ["xian"] * 12},
    ),
}


def plain(chart: NatalChart, variant: str) -> list[tuple[object, ...]]:
    view = _View(chart)
    hits: list[tuple[object, ...]] = []
    for key, pattern in PATTERNS.items():
        if not pattern.readings:
            continue  # a pattern of the limits
        used = variant if variant in pattern.readings else "book"
        _gate, test, breaks, _why = pattern.readings[used]
        found = test(view)
        if found is None:
            continue
        palaces = tuple(sorted({b for _k, b in found}))
        stars = tuple(dict.fromkeys(k for k, _b in found if k))
        broken = tuple(r.key for r in breaks if r.test(view) is not None)
        hits.append((key, used, palaces, stars, broken))
    return hits


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("name", sorted(SETTINGS))
def test_detector_equals_every_reading_run_plainly(name: str, variant: str) -> None:
    count = 2000 if name == "default" else 400
    formed = 0
    for birth in births(count, seed=31):
        chart = from_birth(birth, SETTINGS[name])
        expected = plain(chart, variant)
        assert fast(chart, variant) == expected, (birth, name)
        formed += len(expected)
    assert formed > count  # the charts do form patterns: the comparison is not empty


@pytest.mark.parametrize("name", sorted(set(SETTINGS) - {"default"}))
def test_the_view_reads_the_palaces_under_other_settings(name: str) -> None:
    """The view reads the position list and the engine's 四化 and brightness tables; the
    reference (test_patterns_reference) reads the palaces' placed stars.  They agree under
    settings that change those tables."""
    formed = 0
    for birth in births(300, seed=37):
        chart = from_birth(birth, SETTINGS[name])
        expected = reference(chart, "book")
        assert fast(chart, "book") == expected, (birth, name)
        formed += len(expected)
    assert formed > 300
