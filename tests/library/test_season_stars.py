"""The Lonely and Widow Stars' engine parts: the season check against the Sanming Tonghui's
words, and the ``{bazi_table:…}`` term over a branch-keyed table (twelve cells, 子 … 亥)."""

from __future__ import annotations

import re

import pytest

from mingshu.library import claims as C
from mingshu.library import engine as E
from mingshu.library.claim_checks import run_check

BRANCHES = "子丑寅卯辰巳午未申酉戌亥"


def test_the_seasons_give_the_chapters_branches() -> None:
    # 如亥子丑逐方三位進前一辰見寅為孤退後一辰見戌為寡 … 其餘三方皆依此推 (Sanming Tonghui
    # juan 3): each season of three, one branch forward (孤) and one back (寡).
    for season, lonely, widow in (("亥子丑", "寅", "戌"), ("寅卯辰", "巳", "丑"),
                                  ("巳午未", "申", "辰"), ("申酉戌", "亥", "未")):  # fmt: skip
        for member in season:
            b = BRANCHES.index(member)
            assert E.bazi_cell("gu_chen", "standard", b) == (BRANCHES.index(lonely),)
            assert E.bazi_cell("gua_su", "standard", b) == (BRANCHES.index(widow),)
    assert run_check("season_step", {"star": "gu_chen", "variant": "standard", "steps": 3}) == (
        0,
        12,
    )
    assert run_check("season_step", {"star": "gua_su", "variant": "standard", "steps": -1}) == (
        0,
        12,
    )


def test_a_wrong_season_step_has_counterexamples(monkeypatch: pytest.MonkeyPatch) -> None:
    args = {"star": "gu_chen", "variant": "standard", "steps": 3}
    assert run_check("season_step", {**args, "steps": 4})[0] == 12
    real = E.bazi_cell

    def cell(star: str, variant: str, value: int) -> tuple[int, ...]:
        got = real(star, variant, value)
        return tuple((b + 1) % 12 for b in got) if star == "gu_chen" and value == 0 else got

    monkeypatch.setattr(E, "bazi_cell", cell)
    assert run_check("season_step", args)[0] == 1


_ONE = """
[[claim]]
key = "x"
kind = "count_where"
statement = "s"
where = "WHERE_SQL"
"""


def test_a_bazi_table_term_reads_a_branch_keyed_table_whole() -> None:
    """孤辰 by the year branch, 子 … 亥: 寅寅巳巳巳申申申亥亥亥寅 (Sanming Tonghui juan 3)."""
    sql = "gu_chen <> {bazi_table:gu_chen.standard.0}[(year_pillar % 12) + 1]"
    (c,) = C.parse_claims(_ONE.replace("WHERE_SQL", sql), "X")
    listed = re.search(r"\[([\d, ]+)\]", c.sql_claim().sql)
    assert listed is not None
    want = [BRANCHES.index(ch) for ch in "寅寅巳巳巳申申申亥亥亥寅"]
    assert [int(n) for n in listed.group(1).split(", ")] == want


def test_the_red_phoenix_counts_back_from_rabbit() -> None:
    # 紅鸞子年加卯逆數天喜子年加酉逆數 … 子紅鸞則午是天喜 (Xingxue Dacheng juan 1)
    for year in range(12):
        assert E.bazi_cell("hong_luan", "standard", year) == ((3 - year) % 12,)
        assert E.bazi_cell("tian_xi", "standard", year) == ((9 - year) % 12,)
    assert run_check("mirror_sum", {"star": "hong_luan", "variant": "standard", "total": 3}) == (
        0,
        12,
    )
    # the Heavenly Joy is not the Red Phoenix's mirror: all twelve cells differ
    assert run_check("mirror_sum", {"star": "tian_xi", "variant": "standard", "total": 3}) == (
        12,
        12,
    )
