"""The pattern detector (chart.patterns()): pinned births that form each pattern and births
that just miss each condition (tests/ziwei/pattern_births.toml, found by
tools/pattern_births.py), ten patterns restated from their verses alone agreeing with it,
the JSON and the bad inputs."""

from __future__ import annotations

import datetime as dt
import importlib.util
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mingshu.errors import InputError
from mingshu.present import ziwei_json
from mingshu.ziwei import by_solar
from mingshu.ziwei.patterns import PATTERNS, detect

ROOT = Path(__file__).resolve().parents[2]


def _restated() -> dict[str, Callable[[dict[str, Any]], bool]]:
    """tools/patterns_restated.py: ten patterns read from their verses alone."""
    spec = importlib.util.spec_from_file_location(
        "patterns_restated", ROOT / "tools" / "patterns_restated.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.RESTATED  # type: ignore[no-any-return]


RESTATED = _restated()

BIRTHS = tomllib.loads((Path(__file__).parent / "pattern_births.toml").read_text("utf-8"))
# Patterns whose book reading no chart forms: no birth of 1900-2100 does (the whole-space
# counts of docs/patterns.md), and patterns.toml's note says so (and why, where the
# positions cannot meet); the searched births must agree.
NEVER = {
    "cai_yin_jia_yin",
    "yin_yin_gong_shen",
    "cai_yin_jia_lu",
    "ma_tou_dai_jian",
    "jin_yu_fu_jia",
    "ri_yue_cang_hui",
    "yang_mian_chao_dou",
}

CASES = [(key, name, tuple(at)) for key, entries in BIRTHS.items() for name, at in entries.items()]


def keys(day: str, hour: int, variant: str = "book") -> set[str]:
    return {h.key for h in detect(by_solar(day, hour, "female"), variant)}


@pytest.mark.parametrize(("key", "case", "birth"), CASES, ids=[f"{k}-{n}" for k, n, _ in CASES])
def test_pinned_births(key: str, case: str, birth: tuple[str, int]) -> None:
    found = keys(*birth)
    if case == "forms":
        assert key in found
    else:  # every condition but one holds: not formed
        assert key not in found


def test_every_natal_pattern_has_a_birth_or_a_reason() -> None:
    natal = {k for k, p in PATTERNS.items() if p.layer != "limits"}
    formed = {k for k, entries in BIRTHS.items() if "forms" in entries}
    assert natal - formed == NEVER
    for key in NEVER:
        assert "no chart" in PATTERNS[key].note.lower()


def test_jin_can_guang_hui_needs_the_sun_alone_in_wu() -> None:
    """The issue's example: 命 on 午 with 太阳 there, and 单守 — no other major star."""
    day, hour = BIRTHS["jin_can_guang_hui"]["forms"]
    chart = by_solar(day, hour, "female")
    hit = next(h for h in chart.patterns() if h.key == "jin_can_guang_hui")
    assert chart.life_palace.branch.key == "wu"
    assert [p.star.key for p in chart.life_palace.major_stars] == ["tai_yang"]
    assert hit.stars == ("tai_yang",) and [b.key for b in hit.palaces] == ["wu"]


def test_variants_read_another_way() -> None:
    """马头带剑: the book's 天马-with-擎羊 never forms; x-iztro's 午 reading does (a 丙
    year: 禄存 in 巳, 擎羊 in 午)."""
    for day in range(1, 32):
        for hour in range(12):
            chart = by_solar(dt.date(1986, 3, day), hour, "female")
            x = {h.key: h for h in chart.patterns("x_iztro")}
            if "ma_tou_dai_jian" in x:
                assert x["ma_tou_dai_jian"].variant == "x_iztro"
                assert "ma_tou_dai_jian" not in {h.key for h in chart.patterns()}
                return
    pytest.fail("no 马头带剑 under x_iztro in March 1986")


def test_broken_names_the_rule() -> None:
    """A pattern a rule breaks is still reported, with the rule and its verse."""
    for day in range(365):
        for hour in range(0, 12, 3):
            d = dt.date(1990, 1, 1) + dt.timedelta(days=day)
            hits = {h.key: h for h in by_solar(d, hour, "female").patterns()}
            hit = hits.get("ying_xing_ru_miao")
            if hit is not None and hit.broken:
                assert [r.key for r in hit.broken] == ["sha_in_life"]
                assert hit.broken[0].verse in "雄宿朝元格，加杀平常。"
                return
    pytest.fail("no broken 英星入庙 in 1990")


def test_json_has_patterns() -> None:
    day, hour = BIRTHS["qi_sha_chao_dou"]["forms"]
    data = ziwei_json.chart_to_dict(by_solar(day, hour, "female"))
    entry = next(p for p in data["patterns"] if p["key"] == "qi_sha_chao_dou")
    assert entry["hans"] == "七杀朝斗" and entry["group"] == "gui" and entry["variant"] == "book"
    assert entry["verse_at"] == "ziwei-quanshu.juan3.md:519" and "qi_sha" in entry["stars"]


def test_bad_variant_is_an_input_error() -> None:
    chart = by_solar("1990-01-01", 0, "female")
    with pytest.raises(InputError) as e:
        chart.patterns("xiztro")
    assert e.value.field == "variant"
    with pytest.raises(InputError):
        chart.patterns(3)  # type: ignore[arg-type]
    with pytest.raises(InputError) as e:
        detect("chart", "book")  # type: ignore[arg-type]
    assert e.value.field == "chart"


def _agree(first: dt.date, last: dt.date, step: int = 1) -> int:
    checked, day = 0, first
    while day <= last:
        for hour in range(12):
            chart = by_solar(day, hour, "female")
            data = ziwei_json.chart_to_dict(chart)
            found = {h.key for h in chart.patterns()}
            for key, restated in RESTATED.items():
                assert (key in found) == restated(data), (key, day, hour)
            checked += 1
        day += dt.timedelta(days=step)
    return checked


def test_ten_restated_patterns_agree_over_a_year() -> None:
    assert _agree(dt.date(1990, 1, 1), dt.date(1990, 12, 31), step=3) > 1400


@pytest.mark.space
def test_ten_restated_patterns_agree_over_the_space() -> None:
    assert _agree(dt.date(1900, 2, 1), dt.date(2100, 12, 31)) > 800_000
