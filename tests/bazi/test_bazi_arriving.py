"""Stars arriving with a luck pillar or a flowing year: what the pillar brings and triggers."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from mingshu import bazi
from mingshu.cli import app
from mingshu.cycles import SIXTY, Pillar
from mingshu.errors import InputError

P = Pillar.parse


def _brings(xs: tuple[bazi.Arrival, ...]) -> set[tuple[str, str, str, str]]:
    return {(x.star.key, x.basis, str(x.target), x.component) for x in xs if x.how == "brings"}


_HOUR_FREE = {"day_stem", "year_stem", "day_branch", "year_branch", "month_branch", "year_nayin"}


@settings(max_examples=150, deadline=None)
@given(idx=st.tuples(*(st.integers(0, 59) for _ in range(4))), backward=st.booleans())
def test_what_a_pillar_brings_is_what_the_natal_engine_finds_in_that_pillar(
    idx: tuple[int, int, int, int], backward: bool
) -> None:
    """Put the incoming pillar in the hour: the natal engine's hour hits (for stars entered
    from the year, month and day and searched in all four pillars) are what it brings."""
    y, m, d, incoming = (SIXTY[i] for i in idx)
    s = bazi.BaziSettings(include_basis_pillar=True)
    engine = {
        (r.star.key, h.basis, str(h.target), h.component)
        for r in bazi.stars_in(y, m, d, incoming, backward=backward, settings=s)
        if r.variant.rule == "lookup" and len(r.variant.search) == 4
        for h in r.hits
        if h.position is bazi.Position.HOUR and h.basis in _HOUR_FREE
    }
    natal = (y, m, d, SIXTY[(idx[3] + 1) % 60])  # the hour itself plays no part here
    arrived = {
        b
        for b in _brings(bazi.arriving(natal, incoming, backward=backward, settings=s))
        if b[1] in _HOUR_FREE and bazi.star(b[0]).variant(s.variant_of(b[0])).rule == "lookup"
    }
    assert arrived == engine


def test_a_gengchen_day_master_meets_the_nobleman_in_a_ding_wei_year() -> None:
    """三命通會 V1: 庚 → 丑未; 2027 is 丁未: the year brings 天乙 by day stem and year stem."""
    c = bazi.chart("1990-05-15", "10:30", "male", tz="Asia/Shanghai")
    year = c.annual(2027)
    assert str(year.pillar) == "丁未"
    got = {(x.basis, str(x.target)) for x in c.arriving(year.pillar) if x.star.key == "tian_yi"}
    assert got == {("day_stem", "未"), ("year_stem", "未")}
    # 丁未 is one of the twelve 陰陽差錯 days of 三命通會: the year pillar brings it.
    assert any(x.star.key == "yin_cha_yang_cuo" for x in c.arriving("丁未"))


def test_a_year_stem_triggers_its_nobleman_in_a_natal_branch() -> None:
    """A 甲 year (V1 甲 → 丑未) finds 天乙 in a natal 丑 or 未 branch, once each: the incoming
    stem is one basis even though the star is read from the day and the year stem."""
    natal = (P("癸丑"), P("甲寅"), P("丙子"), P("己未"))
    got = sorted(
        (int(x.position), str(x.target))
        for x in bazi.arriving(natal, P("甲辰"))
        if x.star.key == "tian_yi" and x.how == "triggers" and x.position is not None
    )
    assert got == [(0, "丑"), (3, "未")]


def test_the_void_and_a_luck_pillar() -> None:
    natal = (P("庚午"), P("辛巳"), P("庚辰"), P("辛巳"))  # day 庚辰: 甲戌 decade, void 申酉
    got = [x for x in bazi.arriving(natal, P("乙酉")) if x.star.key == "kong_wang"]
    assert [(x.basis, str(x.target)) for x in got] == [("day_pillar", "酉")]


def test_bad_pillar_is_an_input_error() -> None:
    c = bazi.chart("1990-05-15", "10:30", "male", tz="Asia/Shanghai")
    with pytest.raises(InputError) as e:
        c.arriving("甲丑")
    assert e.value.field == "pillar"


def test_cli_year_shows_and_exports_the_arriving_stars() -> None:
    runner = CliRunner()
    base = ["bazi", "1990-05-15", "10:30", "--gender", "male", "--year", "2027"]
    out = runner.invoke(app, base, env={"COLUMNS": "220"})
    assert out.exit_code == 0, out.output
    assert "stars arriving" in out.output and "流年 丁未" in out.output
    data = json.loads(runner.invoke(app, [*base, "--json"]).output)
    year = data["annual"][0]
    assert year["pillar"] == "丁未" and year["luck"] == "乙酉"
    brought = {(s["key"], s["basis"], s["target"]) for s in year["stars"]["year"]}
    assert ("tian_yi", "day_stem", "wei") in brought
    luck = {(s["key"], s["how"], s["target"]) for s in year["stars"]["luck"]}
    assert ("kong_wang", "brings", "you") in luck
