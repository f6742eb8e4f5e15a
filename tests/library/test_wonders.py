"""The checks behind the Metal Spirit, Three Wonders, Six Elegant Days and Virtue and Grace
(金神 三奇 六秀日 德秀): the tables against the books' own words, and checks that fail on a
wrong table, run, hour or branch."""

from __future__ import annotations

import pytest

from mingshu.errors import InputError
from mingshu.library import claim_checks
from mingshu.library.tables import table

STEMS = "甲乙丙丁戊己庚辛壬癸"
NAMES = [f"{p} {e}" for e in ("Wood", "Fire", "Earth", "Metal", "Water") for p in ("Yang", "Yin")]
# 三命通會 卷三 論德秀, read by hand: 寅午戌 丙丁 德 戊癸 秀; 申子辰 壬癸戊己 德 丙辛甲己 秀;
# 巳酉丑 (printed 己酉丑) 庚辛 德 乙庚 秀; 亥卯未 甲乙 德 丁壬 秀.
DE_XIU = {"Tiger": "丙丁戊癸", "Monkey": "壬癸戊己丙辛甲", "Snake": "庚辛乙", "Pig": "甲乙丁壬"}


def test_virtue_and_grace_is_the_chapter_month_by_month() -> None:
    got = {r[0]: r[1] for r in table("star_cells", {"tables": [["de_xiu", "standard", "D"]]}).rows}
    for month, stems in DE_XIU.items():
        want = [NAMES[STEMS.index(c)] for c in sorted(set(stems), key=STEMS.index)]
        assert got[month] == ", ".join(want)


def test_the_group_check_holds_and_fails_on_another_table() -> None:
    run = claim_checks.run_check
    assert run("virtue_and_grace_from_group", {"table": "de_xiu.standard"}) == (0, 12)
    assert run("virtue_and_grace_from_group", {"table": "yue_de.stems"}) == (12, 12)


def test_the_metal_spirit_hours() -> None:
    run = claim_checks.run_check
    hours = {"star": "jin_shen", "day_stems": ["甲"], "hours": ["丑", "巳", "酉"]}
    assert run("hour_star_on_real_hours", hours) == (0, 720)
    assert run("hour_star_on_real_hours", {**hours, "hours": ["丑", "巳"]}) == (6, 720)  # 6 甲 days
    # the programs' table also finds the pillars on 己 days and as day pillars
    assert run("hour_star_on_real_hours", {**hours, "variant": "day_or_hour"})[0] > 0


def test_the_three_wonders_runs_and_the_branches_they_fix() -> None:
    run = claim_checks.run_check
    book = {"star": "san_qi", "runs": ["乙丙丁", "甲戊庚"]}
    assert run("stem_run_hits", {**book, "reversible": False}) == (0, 10_000)
    assert run("stem_run_hits", {**book, "reversible": True})[0] > 0
    # 五鼠遁: a 丙 day's hours run 戊子 己丑 … 丁酉, so 丁 falls on the Rooster alone
    rooster = {"run": "乙丙丁", "start": 1, "at": "hour", "branches": ["酉"]}
    assert run("run_fixes_branch", rooster) == (0, 72)
    assert run("run_fixes_branch", {**rooster, "branches": ["酉", "申"]}) == (1, 72)
    with pytest.raises(InputError):
        run("run_fixes_branch", {**rooster, "at": "day"})
