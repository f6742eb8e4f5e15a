"""compare(): which fields differ, and how their paths read."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from mingshu.crosscheck.compare import collapse_path, compare, same_value


def ours_of(output: dict[str, Any]) -> dict[str, Any]:
    """What an engine returns: only the chart and the horoscope."""
    return {k: copy.deepcopy(v) for k, v in output.items() if k in ("chart", "horoscope")}


def paths(mismatches: list[Any]) -> list[str]:
    return [m["path"] for m in mismatches]


def test_identical_records_have_no_mismatch(records: list[dict[str, Any]]) -> None:
    for r in records:
        assert compare(r["output"], ours_of(r["output"])) == []


def test_one_changed_star_is_one_mismatch_on_that_palace_list(record: dict[str, Any]) -> None:
    expected = record["output"]
    ours = ours_of(expected)
    stars = ours["chart"]["palaces"][3]["adjectiveStars"]
    assert len(stars) >= 2
    stars[0] = ["天哭", "adjective", "", ""]
    mismatches = compare(expected, ours)
    assert mismatches == [
        {
            "path": "chart.palaces[3].adjectiveStars",
            "expected": expected["chart"]["palaces"][3]["adjectiveStars"],
            "got": stars,
        }
    ]


def test_star_order_matters(record: dict[str, Any]) -> None:
    expected = record["output"]
    ours = ours_of(expected)
    stars = ours["chart"]["palaces"][3]["adjectiveStars"]
    stars.reverse()
    assert paths(compare(expected, ours)) == ["chart.palaces[3].adjectiveStars"]


def test_scalar_fields_are_named_by_their_key(record: dict[str, Any]) -> None:
    ours = ours_of(record["output"])
    ours["chart"]["fiveElementsClass"] = "水二局"
    ours["chart"]["palaces"][0]["isBodyPalace"] = not ours["chart"]["palaces"][0]["isBodyPalace"]
    assert paths(compare(record["output"], ours)) == [
        "chart.fiveElementsClass",
        "chart.palaces[0].isBodyPalace",
    ]


def test_whole_lists_ages_decadal_lunar_names_mutagen(record: dict[str, Any]) -> None:
    expected = record["output"]
    ours = ours_of(expected)
    ours["chart"]["lunar"][3] = not ours["chart"]["lunar"][3]
    ours["chart"]["palaces"][5]["ages"][0] += 1
    ours["chart"]["palaces"][5]["decadal"][2] = "?"
    ours["horoscope"]["decadal"]["mutagen"].reverse()
    ours["horoscope"]["monthly"]["palaceNames"][1] = "?"
    ours["horoscope"]["yearly"]["yearlyDecStar"]["suiqian12"][11] = "?"
    assert paths(compare(expected, ours)) == [
        "chart.lunar",
        "chart.palaces[5].decadal",
        "chart.palaces[5].ages",
        "horoscope.decadal.mutagen",
        "horoscope.yearly.yearlyDecStar.suiqian12",
        "horoscope.monthly.palaceNames",
    ]
    by_path = {m["path"]: m for m in compare(expected, ours)}
    assert by_path["chart.lunar"]["expected"] == expected["chart"]["lunar"]
    assert by_path["chart.lunar"]["got"] == ours["chart"]["lunar"]


def test_horoscope_stars_compare_per_palace(record: dict[str, Any]) -> None:
    expected = record["output"]
    ours = ours_of(expected)
    ours["horoscope"]["yearly"]["stars"][2].append(["流羊", "tough"])
    busy = next(i for i, stars in enumerate(expected["horoscope"]["hourly"]["stars"]) if stars)
    ours["horoscope"]["hourly"]["stars"][busy] = []
    assert compare(expected, ours) == [
        {
            "path": "horoscope.yearly.stars[2]",
            "expected": expected["horoscope"]["yearly"]["stars"][2],
            "got": ours["horoscope"]["yearly"]["stars"][2],
        },
        {
            "path": f"horoscope.hourly.stars[{busy}]",
            "expected": expected["horoscope"]["hourly"]["stars"][busy],
            "got": [],
        },
    ]


def test_a_field_we_lack_is_reported_with_got_none(record: dict[str, Any]) -> None:
    expected = record["output"]
    ours = ours_of(expected)
    del ours["chart"]["palaces"][4]["boshi12"]
    del ours["horoscope"]
    assert compare(expected, ours) == [
        {
            "path": "chart.palaces[4].boshi12",
            "expected": expected["chart"]["palaces"][4]["boshi12"],
            "got": None,
        },
        {"path": "horoscope", "expected": expected["horoscope"], "got": None},
    ]


def test_fields_only_we_have_are_ignored(record: dict[str, Any]) -> None:
    ours = ours_of(record["output"])
    ours["chart"]["extra"] = 1
    ours["bazi"] = {}
    assert compare(record["output"], ours) == []


def test_record_metadata_and_config_echo_are_skipped(record: dict[str, Any]) -> None:
    expected = record["output"] | {"config": {"yearDivide": "exact"}}
    assert {"id", "ok", "iztro"} <= expected.keys()
    assert compare(expected, ours_of(expected)) == []


def test_other_top_level_keys_are_compared(record: dict[str, Any]) -> None:
    expected = record["output"] | {"en-US": {"chart": {"gender": "male"}}}
    assert compare(expected, ours_of(expected)) == [
        {"path": "en-US", "expected": {"chart": {"gender": "male"}}, "got": None}
    ]


@pytest.mark.parametrize(
    ("iztro", "ours", "equal"),
    [
        ("2000-8-16", "2000-08-16", True),
        ("2077-11-15", "2077-11-15", True),
        ("2000-8-16", "2000-8-17", False),
        ("2000-8-16", None, False),
        ("2000-8-16", "not a date", False),
    ],
)
def test_solar_dates_compare_as_dates(iztro: str, ours: Any, equal: bool) -> None:
    expected = {"chart": {"solarDate": iztro}, "horoscope": {"solarDate": iztro}}
    got = {"chart": {"solarDate": ours}, "horoscope": {"solarDate": ours}}
    assert paths(compare(expected, got)) == (
        [] if equal else ["chart.solarDate", "horoscope.solarDate"]
    )


def test_lunar_date_strings_compare_exactly() -> None:
    assert paths(
        compare(
            {"chart": {"lunarDate": "二〇〇〇年七月十七"}}, {"chart": {"lunarDate": "2000-7-17"}}
        )
    ) == ["chart.lunarDate"]


def test_missing_and_extra_palaces_are_reported_per_item(record: dict[str, Any]) -> None:
    expected = record["output"]
    ours = ours_of(expected)
    dropped = ours["chart"]["palaces"].pop()
    assert compare(expected, ours) == [
        {"path": "chart.palaces[11]", "expected": dropped, "got": None}
    ]
    ours["chart"]["palaces"] += [dropped, dropped]
    assert compare(expected, ours) == [
        {"path": "chart.palaces[12]", "expected": None, "got": dropped}
    ]


def test_wrong_type_is_one_mismatch(record: dict[str, Any]) -> None:
    ours = ours_of(record["output"])
    ours["chart"]["palaces"] = "none"
    ours["horoscope"]["age"] = []
    assert paths(compare(record["output"], ours)) == ["chart.palaces", "horoscope.age"]


def test_tuples_count_as_lists(record: dict[str, Any]) -> None:
    ours = ours_of(record["output"])
    for palace in ours["chart"]["palaces"]:
        palace["majorStars"] = tuple(tuple(s) for s in palace["majorStars"])
        palace["ages"] = tuple(palace["ages"])
    assert compare(record["output"], ours) == []


def test_booleans_do_not_equal_numbers() -> None:
    assert not same_value(True, 1)
    assert not same_value([0, False], [0, 0])
    assert same_value(1, 1.0)
    assert same_value([["紫微", "major", "庙", ""]], (("紫微", "major", "庙", ""),))
    expected = {"chart": {"palaces": [{"isBodyPalace": False}]}}
    assert paths(compare(expected, {"chart": {"palaces": [{"isBodyPalace": 0}]}})) == [
        "chart.palaces[0].isBodyPalace"
    ]


def test_collapse_path() -> None:
    assert collapse_path("chart.palaces[3].adjectiveStars") == "chart.palaces[].adjectiveStars"
    assert collapse_path("horoscope.yearly.stars[11]") == "horoscope.yearly.stars[]"
    assert collapse_path("chart.fiveElementsClass") == "chart.fiveElementsClass"
