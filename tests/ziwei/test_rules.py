"""Rule tables and the catalogue: 紫微 by class and day, counts, data-file integrity."""

from __future__ import annotations

import pytest

from mingshu.cycles import Branch
from mingshu.ziwei import STARS, FiveElementsClass, StarGroup, by_solar, zi_wei_branch
from mingshu.ziwei.stars import BRIGHTNESS_STARS, MUTAGEN_STARS, default_mutagens, star_by_name

# 紫微 by class (rows) and lunar day 1..30 (columns), docs/iztro-rules.md §3.1.
ZI_WEI_TABLE = {
    2: "丑寅寅卯卯辰辰巳巳午午未未申申酉酉戌戌亥亥子子丑丑寅寅卯卯辰",
    3: "辰丑寅巳寅卯午卯辰未辰巳申巳午酉午未戌未申亥申酉子酉戌丑戌亥",
    4: "亥辰丑寅子巳寅卯丑午卯辰寅未辰巳卯申巳午辰酉午未巳戌未申午亥",
    5: "午亥辰丑寅未子巳寅卯申丑午卯辰酉寅未辰巳戌卯申巳午亥辰酉午未",
    6: "酉午亥辰丑寅戌未子巳寅卯亥申丑午卯辰子酉寅未辰巳丑戌卯申巳午",
}


@pytest.mark.parametrize("number", sorted(ZI_WEI_TABLE))
def test_zi_wei_table(number: int) -> None:
    got = "".join(str(zi_wei_branch(number, day)) for day in range(1, 31))
    assert got == ZI_WEI_TABLE[number]


def test_zi_wei_verse_examples() -> None:
    # iztro's comment on the verse: day 27 木三局 → 戌; day 13 火六局 → 亥; day 6 土五局 → 未.
    assert zi_wei_branch(FiveElementsClass.WOOD_3, 27) is Branch.XU
    assert zi_wei_branch(FiveElementsClass.FIRE_6, 13) is Branch.HAI
    assert zi_wei_branch(FiveElementsClass.EARTH_5, 6) is Branch.WEI


def test_tian_fu_mirrors_zi_wei() -> None:
    mirror = {"寅": "寅", "卯": "丑", "辰": "子", "巳": "亥", "午": "戌", "未": "酉", "申": "申"}
    seen = set()
    for day in range(1, 31):
        chart = by_solar(f"2024-03-{day:02d}", day % 13, "male")
        zw, tf = str(chart.star("zi_wei").branch), str(chart.star("tian_fu").branch)
        pairs = {**mirror, **{v: k for k, v in mirror.items()}}
        assert pairs[zw] == tf
        seen.add(zw)
    assert len(seen) > 6


def test_catalogue_counts() -> None:
    groups = [s.group for s in STARS]
    assert groups.count(StarGroup.MAJOR) == 14
    assert groups.count(StarGroup.MINOR) == 14
    quanshu = [s for s in STARS if "quanshu" in s.algorithms]
    zhongzhou = [s for s in STARS if "zhongzhou" in s.algorithms]
    assert (len(quanshu), len(zhongzhou)) == (66, 68)


def test_catalogue_entries_are_complete_and_unique() -> None:
    keys = [s.key for s in STARS]
    assert len(set(keys)) == len(keys)
    assert len({s.iztro_key for s in STARS}) == len(STARS)
    for s in STARS:
        assert s.key.isascii() and s.key == s.key.lower()
        assert all(s.names), s.key
        assert s.source, s.key
        assert star_by_name(s.names.hans) is s and star_by_name(s.key) is s


def test_mutagen_and_brightness_tables_name_real_stars() -> None:
    for row in default_mutagens():
        assert len(set(row)) == 4
        assert set(row) <= MUTAGEN_STARS
    groups = {s.key: s.group for s in STARS}
    assert all(groups[k] is not StarGroup.ADJECTIVE for k in BRIGHTNESS_STARS)
    assert len(BRIGHTNESS_STARS) == 20


def test_every_star_once_per_chart() -> None:
    for day in (1, 15, 29):
        chart = by_solar(f"1999-03-{day:02d}", day % 13, "female")
        placed = [p.star.key for palace in chart.palaces for p in palace.stars]
        assert len(placed) == len(set(placed)) == 66
