"""The Zi Wei JSON export (mingshu.present) and its documentation, docs/ziwei-json.md."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from mingshu.cli import app
from mingshu.cycles import Branch
from mingshu.present import chart_to_dict, horoscope_to_dict, settings_to_dict
from mingshu.present.ziwei_json import CHART_SCHEMA, HOROSCOPE_SCHEMA
from mingshu.ziwei import NatalChart, ZiweiSettings, by_lunar, by_solar

DOC = Path(__file__).parent.parent.parent / "docs" / "ziwei-json.md"


@pytest.fixture(scope="module")
def chart() -> NatalChart:
    return by_solar("2000-08-16", 2, "female")  # docs/iztro-rules.md §10.1


def star_rows(stars: Any) -> list[tuple[str, str | None, str | None]]:
    return [
        (
            s.star.key,
            None if s.brightness is None else s.brightness.key,
            None if s.mutagen is None else s.mutagen.key,
        )
        for s in stars
    ]


def test_plain_json_round_trip(chart: NatalChart) -> None:
    data = chart_to_dict(chart)
    data["horoscope"] = horoscope_to_dict(chart.horoscope("2026-03-01T10:00"))
    assert json.loads(json.dumps(data, ensure_ascii=False)) == data
    assert data["schema"] == CHART_SCHEMA == "mingshu.ziwei.chart/1"
    assert data["horoscope"]["schema"] == HOROSCOPE_SCHEMA == "mingshu.ziwei.horoscope/1"


def test_chart_fields(chart: NatalChart) -> None:
    data = chart_to_dict(chart)
    assert data["birth"] == {
        "solar_date": "2000-08-16",
        "clock_time": None,
        "time_index": 2,
        "gender": "female",
        "lunar_input": None,
        "moment": None,
    }
    assert data["lunar_date"] == {
        "year": 2000,
        "month": 7,
        "day": 17,
        "is_leap": False,
        "chinese": "二〇〇〇年七月十七",
    }
    assert data["pillars"] == {"year": "庚辰", "month": "甲申", "day": "丙午", "hour": "庚寅"}
    assert data["five_elements_class"]["key"] == "wood_3"
    assert data["five_elements_class"]["number"] == 3
    assert data["five_elements_class"]["hans"] == "木三局"
    assert data["life_master"]["key"] == "po_jun"
    assert data["body_master"]["key"] == "wen_chang"
    assert (data["life_branch"], data["body_branch"]) == ("wu", "xu")
    assert data["zodiac"]["key"] == "dragon"
    assert data["sign"]["key"] == "leo"
    assert data["hour"]["hans"] == "寅时"


def test_palaces_in_branch_order_match_the_chart(chart: NatalChart) -> None:
    palaces = chart_to_dict(chart)["palaces"]
    assert [p["branch"] for p in palaces] == [b.key for b in Branch]
    for branch, out in zip(Branch, palaces, strict=True):
        palace = chart.palace(branch)
        assert out["stem"] == palace.stem.key
        assert out["pillar"] == str(palace.pillar)
        assert out["name"]["key"] == palace.name.key
        assert out["name"]["hans"] == palace.name.names.hans
        assert (out["is_body"], out["is_original"]) == (palace.is_body, palace.is_original)
        for group in ("major_stars", "minor_stars", "adjective_stars"):
            got = [(s["key"], s["brightness"], s["mutagen"]) for s in out[group]]
            assert got == star_rows(getattr(palace, group))
        for cycle in ("chang_sheng", "bo_shi", "jiang_qian", "sui_qian"):
            assert out["gods"][cycle]["key"] == getattr(palace, cycle).key
        assert out["decadal"] == {
            "start": palace.decadal.start,
            "end": palace.decadal.end,
            "pillar": str(palace.decadal.pillar),
        }
        assert out["ages"] == list(palace.ages)
    life = palaces[Branch.WU]
    assert life["name"]["key"] == "life"
    assert life["major_stars"][0] == {
        "key": "zi_wei",
        "hans": "紫微",
        "hant": "紫微",
        "pinyin": "Zi Wei",
        "english": "Purple Star",
        "kind": "major",
        "brightness": "miao",
        "mutagen": None,
    }


def test_clock_time_and_lunar_input() -> None:
    data = chart_to_dict(by_lunar("2023-2-20", "10:30:15", "male", leap=True))
    assert data["birth"]["clock_time"] == "10:30:15"
    assert data["birth"]["time_index"] == 5
    assert data["birth"]["lunar_input"] == {
        "year": 2023,
        "month": 2,
        "day": 20,
        "is_leap": True,
        "chinese": "二〇二三年闰二月二十",
    }
    assert data["birth"]["solar_date"] == "2023-04-10"
    assert chart_to_dict(by_solar("1987-05-16", "10:30", "f"))["birth"]["clock_time"] == "10:30"


def test_settings_round_trip() -> None:
    settings = ZiweiSettings(
        year_boundary="spring_begins",
        horoscope_boundary="spring_begins",
        late_rat_hour="same_day",
        leap_month="whole",
        age_count="birthday",
        algorithm="zhongzhou",
        chart_type="human",
        mutagens={"庚": ["太阳", "武曲", "天府", "天同"]},
        brightness={"紫微": ["平", "", "庙", "旺", "得", "利", "平", "不", "陷", "庙", "-", "旺"]},
    )
    out = settings_to_dict(settings)
    assert out["mutagens"] == {"geng": ["tai_yang", "wu_qu", "tian_fu", "tian_tong"]}
    assert out["brightness"]["zi_wei"][:3] == ["ping", "", "miao"]
    assert ZiweiSettings(**out) == settings
    assert ZiweiSettings(**settings_to_dict(ZiweiSettings())) == ZiweiSettings()
    assert chart_to_dict(by_solar("2000-08-16", 2, "f", settings))["settings"] == out


def test_horoscope_layers(chart: NatalChart) -> None:
    h = chart.horoscope("2026-03-01T10:00")
    out = horoscope_to_dict(h)
    assert (out["date"], out["time_index"], out["nominal_age"]) == ("2026-03-01", 5, 27)
    assert out["lunar_date"]["chinese"] == h.lunar_date.chinese()
    assert out["is_childhood"] is False
    assert [layer["scope"] for layer in out["layers"]] == [
        "decadal",
        "age",
        "yearly",
        "monthly",
        "daily",
        "hourly",
    ]
    for layer, got in zip(h.layers, out["layers"], strict=True):
        assert got["name"]["hans"] == layer.names.hans
        assert got["branch"] == layer.branch.key
        assert got["pillar"] == str(layer.pillar)
        assert got["palace_names"][layer.branch] == "life"
        assert got["palace_names"] == [layer.palace_name(b).key for b in Branch]
        assert list(got["mutagens"].values()) == [s.key for s in layer.mutagens]
        assert [(s["key"], s["branch"]) for s in got["stars"]] == [
            (s.star.key, s.branch.key) for s in layer.stars
        ]
    yearly = out["layers"][2]
    assert (yearly["branch"], yearly["pillar"]) == ("wu", "丙午")
    assert yearly["mutagens"] == {
        "lu": "tian_tong",
        "quan": "tian_ji",
        "ke": "wen_chang",
        "ji": "lian_zhen",
    }
    assert out["layers"][1]["stars"] == []  # the small limit has no flowing stars


def test_childhood_layer(chart: NatalChart) -> None:
    out = horoscope_to_dict(chart.horoscope("2001-06-01"))
    assert out["is_childhood"] is True
    assert out["layers"][0]["name"]["hans"] == "童限"


def test_yearly_gods_in_branch_order(chart: NatalChart) -> None:
    # Read in the birth year itself, the flow year's gods are the natal ones.
    out = horoscope_to_dict(chart.horoscope("2000-12-01"))
    palaces = chart_to_dict(chart)["palaces"]
    for cycle in ("sui_qian", "jiang_qian"):
        assert [g["key"] for g in out["yearly_gods"][cycle]] == [
            p["gods"][cycle]["key"] for p in palaces
        ]
    later = horoscope_to_dict(chart.horoscope("2026-03-01"))  # 丙午: 岁建 in 午
    assert later["yearly_gods"]["sui_qian"][Branch.WU]["key"] == "sui_jian"


# ------------------------------------------------------------------------------ the doc


def doc_example() -> tuple[list[str], str]:
    text = DOC.read_text(encoding="utf-8")
    match = re.search(r"```console\n\$ mingshu (.+)\n```.*?```json\n(.*?)```", text, re.S)
    assert match is not None, "docs/ziwei-json.md has no example"
    return shlex.split(match[1]), match[2]


def test_doc_example_is_current_output() -> None:
    args, shown = doc_example()
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert result.stdout == shown


def keys_of(value: Any, skip: frozenset[str] = frozenset({"mutagens", "brightness"})) -> set[str]:
    """Every dict key in ``value`` (not the data keys of the settings' override tables)."""
    if isinstance(value, dict):
        keys = set(value)
        for key, item in value.items():
            if key in skip and isinstance(item, dict) and "lu" not in item:
                continue
            keys |= keys_of(item, skip)
        return keys
    if isinstance(value, list):
        return set().union(*(keys_of(v, skip) for v in value)) if value else set()
    return set()


def test_doc_describes_every_field() -> None:
    """Every key the export writes is named (in backticks) in the reference part of the
    doc, before the example."""
    _, shown = doc_example()
    reference = DOC.read_text(encoding="utf-8").split("## Example")[0]
    reference = re.sub(r"```.*?```", "", reference, flags=re.S)  # the prose, not the code
    named = {
        w for span in re.findall(r"`([^`]+)`", reference) for w in re.findall(r"[a-z_]+", span)
    }
    data = json.loads(shown)
    settings = ZiweiSettings(mutagens={"庚": ["太阳", "武曲", "天府", "天同"]})
    data["palaces"].append(chart_to_dict(by_solar("2000-08-16", 2, "f", settings)))
    missing = keys_of(data) - named
    assert not missing, f"not described in docs/ziwei-json.md: {sorted(missing)}"
