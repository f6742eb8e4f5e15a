"""The peer profiles reproduce the symbolic stars of the packages themselves.

tests/fixtures/bazi-peers/*.json.gz were recorded by the packages (bazi 2.3.0, bazi-chart
1.2.0), each in its own environment, by tools/bazi_peer_oracle.py: 2,000 charts from a fixed
seed.  Here each record is rebuilt from our hits with the settings profile and compared, chart
by chart and star by star.  The adapters below only restate each package's result shape
(which branches / which positions it reports); the rules come from the profile.
"""

from __future__ import annotations

import gzip
import json
import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from mingshu import bazi
from mingshu.cycles import Pillar
from mingshu.errors import InputError

P = Pillar.parse

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "bazi-peers"


@cache
def _record(name: str) -> dict[str, Any]:
    with gzip.open(FIXTURES / f"{name}.json.gz", "rt", encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    return data


def _ours(pillars: list[str], profile: str) -> dict[str, bazi.StarResult]:
    p = [P(x) for x in pillars]
    results = bazi.stars_in(*p, settings=bazi.BaziSettings(profile=profile))
    return {r.star.key: r for r in results}


# ------------------------------------------------------------------------ bazi 2.3.0

_BAZI_230 = {
    "taohua": "tao_hua",
    "hongluan": "hong_luan",
    "hongyan": "hong_yan",
    "tianxi": "tian_xi",
    "yima": "yi_ma",
    "huagai": "hua_gai",
    "yangren": "yang_ren",
    "feiren": "fei_ren",
    "tianyi": "tian_yi",
    "jiangxing": "jiang_xing",
    "zaisha": "zai_sha",
    "jiesha": "jie_sha",
    "wangshen": "wang_shen",
    "guchen": "gu_chen",
    "guasu": "gua_su",
    "lushen": "lu_shen",
    "jinyu": "jin_yu",
    "wenchang": "wen_chang",
    "wenchanggui": "wen_chang_gui",
    "taiji": "tai_ji",
    "guoyin": "guo_yin",
    "kongwang": "kong_wang",
}


def _as_bazi_230(pillars: list[str]) -> dict[str, Any]:
    """Our hits in bazi 2.3.0's shape: per star the set of branches found; 魁罡 and 天赦 the
    day pillar or None."""
    ours = _ours(pillars, "bazi-2.3.0")
    out: dict[str, Any] = {
        name: sorted({str(h.target) for h in ours[key].hits}) for name, key in _BAZI_230.items()
    }
    out["kuigang"] = pillars[2] if ours["kui_gang"].found else None
    out["tianshe"] = pillars[2] if ours["tian_she"].found else None
    # The flowing pillar the record drew for this chart: what it brings, by star.
    transit = _transit(pillars)
    natal = (P(pillars[0]), P(pillars[1]), P(pillars[2]), P(pillars[3]))
    brought = bazi.arriving(natal, P(transit), settings=bazi.BaziSettings(profile="bazi-2.3.0"))
    out["transit"] = {
        "pillar": transit,
        "stars": {
            name: sorted(
                {str(x.target) for x in brought if x.star.key == key and x.how == "brings"}
            )
            for name, key in _BAZI_230.items()
        },
    }
    return out


def _transit(pillars: list[str]) -> str:
    """The record's flowing pillar for a chart (tools/bazi_peer_oracle.py draws it so)."""
    i = random.Random("".join(pillars)).randrange(60)
    return "甲乙丙丁戊己庚辛壬癸"[i % 10] + "子丑寅卯辰巳午未申酉戌亥"[i % 12]


# -------------------------------------------------------------------- bazi-chart 1.2.0

_BY_POSITION = {  # names bazi-chart reports per branch (or stem) position
    "天乙贵人": "tian_yi",
    "太极贵人": "tai_ji",
    "福星贵人": "fu_xing",
    "国印贵人": "guo_yin",
    "文昌贵人": "wen_chang",
    "金舆": "jin_yu",
    "禄神": "lu_shen",
    "羊刃": "yang_ren",
    "红艳煞": "hong_yan",
    "天德贵人": "tian_de",
    "月德贵人": "yue_de",
    "将星": "jiang_xing",
    "华盖": "hua_gai",
    "驿马": "yi_ma",
    "桃花": "tao_hua",
    "劫煞": "jie_sha",
    "灾煞": "zai_sha",
    "亡神": "wang_shen",
}
_DAY_PILLAR = {
    "十恶大败": "shi_e_da_bai",
    "阴差阳错": "yin_cha_yang_cuo",
    "魁罡": "kui_gang",
    "六秀日": "liu_xiu",
    "日德": "ri_de",
    "天赦": "tian_she",
}
_POS = ("年", "月", "日", "时")
_QI = {"tian_shang": "天上三奇", "di_xia": "地下三奇", "ren_zhong": "人中三奇"}


def _as_bazi_chart(pillars: list[str]) -> dict[str, list[list[str]]]:
    """Our hits in bazi-chart's shape: per name the (position, value) items it reports."""
    ours = _ours(pillars, "bazi-chart-1.2.0")
    out: dict[str, set[tuple[str, str]]] = {}

    def add(name: str, pos: str, value: str) -> None:
        out.setdefault(name, set()).add((pos, value))

    for name, key in _BY_POSITION.items():
        for h in ours[key].hits:
            part = "支" if h.component == "branch" else "干"
            add(name, _POS[h.position] + part, str(h.target))
    for name, key in _DAY_PILLAR.items():
        if ours[key].found:
            add(name, "日柱", pillars[2])
    for key in ("gu_chen", "gua_su", "tian_yi_doctor"):
        r = ours[key]
        if r.found:
            add(
                r.star.names.hans if key != "tian_yi_doctor" else "天医",
                "四支",
                str(r.hits[0].target),
            )
    for h in ours["tian_luo_di_wang"].hits:
        role = h.role.key if h.role else ""
        add(
            "天罗" if role == "tian_luo" else "地网",
            "四支",
            "戌亥" if role == "tian_luo" else "辰巳",
        )
    jin = ours["jin_shen"]
    if jin.found:
        at_hour = any(h.position is bazi.Position.HOUR for h in jin.hits)
        add("金神", "时柱" if at_hour else "日柱", pillars[3] if at_hour else pillars[2])
    if ours["tong_zi"].found:
        add("童子煞", "日时支", pillars[2][1])
    runs: dict[str, list[tuple[int, str]]] = {}
    for h in ours["san_qi"].hits:
        runs.setdefault(h.role.key if h.role else "", []).append((int(h.position), str(h.target)))
    for role, stems in runs.items():
        add(_QI[role], "四干", "".join(t for _, t in sorted(stems)))
    return {k: sorted([list(x) for x in v]) for k, v in sorted(out.items())}


@pytest.mark.parametrize(
    ("record", "adapt"),
    [("bazi-2.3.0", _as_bazi_230), ("bazi-chart-1.2.0", _as_bazi_chart)],
    ids=["bazi-2.3.0", "bazi-chart-1.2.0"],
)
def test_profile_reproduces_the_peer_on_2000_charts(record: str, adapt: Any) -> None:
    data = _record(record)
    assert data["made_by"] == record.replace("-1.2.0", " 1.2.0").replace("-2.3.0", " 2.3.0")
    charts = data["charts"]
    assert len(charts) == 2000
    agree = 0
    first_miss = None
    for chart in charts:
        mine = adapt(chart["pillars"])
        if mine == chart["stars"]:
            agree += 1
        elif first_miss is None:
            theirs = chart["stars"]
            diff = {k: (mine.get(k), theirs.get(k)) for k in {*mine, *theirs}}
            first_miss = (
                chart["pillars"],
                {k: v for k, v in diff.items() if v[0] != v[1]},
            )
    assert agree == len(charts), f"{record}: {agree}/{len(charts)} agree; first: {first_miss}"


def test_the_records_are_not_trivial() -> None:
    """Every star of each record is found somewhere, so agreement means something."""
    for name in ("bazi-2.3.0", "bazi-chart-1.2.0"):
        seen: set[str] = set()
        for chart in _record(name)["charts"]:
            seen |= {k for k, v in chart["stars"].items() if v}
        assert len(seen) >= 20, (name, sorted(seen))


def test_a_profile_is_a_starting_point_and_explicit_choices_win() -> None:
    s = bazi.BaziSettings(profile="bazi-2.3.0", star_variants={"hong_yan": "h1"})
    assert s.variant_of("hong_yan") == "h1" and s.variant_of("yang_ren") == "r2"
    assert s.as_dict()["profile"] == "bazi-2.3.0"
    with pytest.raises(InputError) as e:
        bazi.BaziSettings(profile="bazi-9")
    assert e.value.field == "profile"


def test_star_bases_are_checked() -> None:
    with pytest.raises(InputError) as e:
        bazi.BaziSettings(star_bases={"tai_ji": "hour_stem"})
    assert e.value.field == "star_bases"
    with pytest.raises(InputError):
        bazi.BaziSettings(star_bases={"nope": "day_stem"})
    with pytest.raises(InputError):
        bazi.BaziSettings(star_bases={"tai_ji": "day_stem+day_stem"})
    with pytest.raises(InputError):
        bazi.BaziSettings(star_bases=[("tai_ji", "day_stem"), ("太极贵人", "year_stem")])
    with pytest.raises(InputError):
        bazi.BaziSettings(star_bases=3)  # type: ignore[arg-type]
    s = bazi.BaziSettings(star_bases={"太极贵人": "year_stem"})  # any name of the star
    assert s.star_bases == (("tai_ji", "year_stem"),)
