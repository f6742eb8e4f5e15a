"""One JSON dialect for both engines (mingshu.present): the fast byte path equals the
dicts, exports never share state, stems and branches are keys and named things carry four
names in both engines, and the engines do not import the presentation layer."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import orjson
import pytest

from mingshu import bazi
from mingshu.cycles import Branch, Stem
from mingshu.errors import InputError
from mingshu.present import (
    annual_to_dict,
    chart_to_dict,
    horoscope_to_dict,
    settings_to_dict,
    to_json,
)
from mingshu.ziwei import NatalChart, ZiweiSettings, by_solar
from mingshu.ziwei.horoscope import Horoscope

STEM_KEYS = {s.key for s in Stem}
BRANCH_KEYS = {b.key for b in Branch}
NAME_FIELDS = {"key", "hans", "hant", "pinyin", "english"}


def walk(value: Any, path: str = "") -> Any:
    """Every (path, dict) in a JSON value."""
    if isinstance(value, dict):
        yield path, value
        for key, item in value.items():
            yield from walk(item, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from walk(item, f"{path}[{i}]")


def test_fast_bytes_equal_the_dicts(
    fixture_charts: list[tuple[NatalChart, Horoscope | None]],
) -> None:
    for chart, horoscope in fixture_charts:
        data = chart_to_dict(chart)
        assert to_json(chart) == orjson.dumps(data)  # byte for byte, key order included
        # The indented form is what `--json` prints: the standard library's layout.
        indented = to_json(chart, indent=True).decode()
        assert indented == json.dumps(data, ensure_ascii=False, indent=2)
        if horoscope is not None:
            assert orjson.loads(to_json(horoscope)) == horoscope_to_dict(horoscope)


def test_an_export_changed_by_its_caller_changes_no_other() -> None:
    chart = by_solar("2000-08-16", 2, "female")
    pristine = json.loads(json.dumps(chart_to_dict(chart)))
    first = chart_to_dict(chart)
    # Vandalise every dict and list of the first export, at every depth.
    for _, d in list(walk(first)):
        for key in list(d):
            if isinstance(d[key], list):
                d[key].append("x")
            elif not isinstance(d[key], dict):
                d[key] = "changed"
        d["added"] = 1
    assert chart_to_dict(chart) == pristine
    assert orjson.loads(to_json(chart)) == pristine
    assert json.loads(to_json(chart, indent=True)) == pristine


def test_two_exports_share_no_mutable_object() -> None:
    chart = by_solar("1987-05-16", "10:30", "female")
    a, b = chart_to_dict(chart), chart_to_dict(chart)

    def containers(value: Any) -> set[int]:
        found = {id(value)} if isinstance(value, dict | list) else set()
        if isinstance(value, dict):
            for item in value.values():
                found |= containers(item)
        elif isinstance(value, list):
            for item in value:
                found |= containers(item)
        return found

    assert not containers(a) & containers(b)


def check_dialect(data: dict[str, Any], stem_fields: set[str], branch_fields: set[str]) -> None:
    """Named objects have all five fields, none empty; stems and branches are keys."""
    for path, d in walk(data):
        if "hans" in d and "key" in d:
            missing = NAME_FIELDS - set(d)
            assert not missing, f"{path} lacks {missing}"
            assert all(isinstance(d[f], str) and d[f] for f in NAME_FIELDS), path
        for field in stem_fields & set(d):
            assert d[field] in STEM_KEYS, f"{path}.{field} = {d[field]!r}"
        for field in branch_fields & set(d):
            assert d[field] in BRANCH_KEYS, f"{path}.{field} = {d[field]!r}"


BAZI_BIRTHS = [
    ("1990-05-15", "10:30", "male", "Asia/Shanghai", None),
    ("1988-12-31", "23:40", "female", "Asia/Shanghai", None),
    ("2001-02-04", "03:00", "female", "America/New_York", -74.0),
    ("1975-08-08", "00:10", "male", "Europe/London", -0.12),
]


@pytest.mark.parametrize(("date", "time", "gender", "tz", "longitude"), BAZI_BIRTHS)
def test_bazi_speaks_the_dialect(
    date: str, time: str, gender: str, tz: str, longitude: float | None
) -> None:
    settings = bazi.BaziSettings(
        include_basis_pillar=True,
        star_bases={"tian_yi": "day_stem+year_stem", "gu_chen": "year_branch+day_branch"},
    )
    c = bazi.chart(date, time, gender, tz=tz, longitude=longitude, settings=settings)
    data = chart_to_dict(c)
    assert data["schema"] == "mingshu.bazi.chart/1"
    check_dialect(data, {"stem"}, {"branch"})
    assert data["day_master"]["stem"] == c.pillars.day.stem.key
    for pos, detail in zip(("year", "month", "day", "hour"), c.details, strict=True):
        out = data["details"][pos]
        assert out["pillar"] == str(detail.pillar) and len(out["pillar"]) == 2
        assert (out["stem"], out["branch"]) == (detail.pillar.stem.key, detail.pillar.branch.key)
        assert out["void"] == [b.key for b in detail.void]
        assert [h["stem"] for h in out["hidden"]] == [h.stem.key for h in detail.hidden]
    hits = [h for s in data["stars"] for h in s["hits"]]
    assert hits
    for hit in hits:  # stems and branches by key, pillars as two characters
        for field in ("basis_value", "target"):
            v = hit[field]
            assert (
                v is None
                or v in STEM_KEYS | BRANCH_KEYS | {"wood", "fire", "earth", "metal", "water"}
                or len(v) == 2
            )
    assert data["settings"] == settings_to_dict(c.settings) == c.settings.as_dict()
    year = annual_to_dict(c.annual(2030))
    assert year["schema"] == "mingshu.bazi.annual/1"
    check_dialect(year, set(), set())
    assert orjson.loads(to_json(c)) == data
    assert orjson.loads(to_json(c.annual(2030))) == year


def test_ziwei_speaks_the_dialect(
    fixture_charts: list[tuple[NatalChart, Horoscope | None]],
) -> None:
    for chart, horoscope in fixture_charts[::10]:
        data = chart_to_dict(chart)
        check_dialect(data, {"stem"}, {"branch", "life_branch", "body_branch"})
        assert data["notices"] == []
        if horoscope is not None:
            check_dialect(horoscope_to_dict(horoscope), {"stem"}, {"branch"})


def test_settings_of_both_engines() -> None:
    z = ZiweiSettings(algorithm="zhongzhou")
    assert ZiweiSettings(**settings_to_dict(z)) == z
    assert json.loads(to_json(z)) == settings_to_dict(z)
    with pytest.raises(InputError, match=r"^settings: "):
        settings_to_dict("quanshu")  # type: ignore[call-overload]
    with pytest.raises(InputError, match=r"^chart: "):
        chart_to_dict({"not": "a chart"})  # type: ignore[call-overload]
    with pytest.raises(InputError, match=r"^obj: "):
        to_json(object())


def test_engines_do_not_import_the_presentation_layer() -> None:
    code = (
        "import sys, mingshu.ziwei, mingshu.bazi; "
        "mingshu.ziwei.by_solar('2000-08-16', 2, 'f'); "
        "mingshu.bazi.chart('1990-05-15', '10:30', 'male'); "
        "print(sorted(m for m in sys.modules if m.startswith('mingshu.present')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_fast_path_reads_palaces_by_name_if_they_stop_being_tuples(
    fixture_charts: list[tuple[NatalChart, Horoscope | None]], monkeypatch: pytest.MonkeyPatch
) -> None:
    from mingshu.present import ziwei_json

    assert ziwei_json._UNPACK  # today Palace and Decadal are named tuples of those fields
    monkeypatch.setattr(ziwei_json, "_UNPACK", False)
    for chart, _ in fixture_charts[::25]:
        assert to_json(chart) == orjson.dumps(chart_to_dict(chart))


def test_palaces_out_of_iztro_order_are_written_a_palace_at_a_time(
    fixture_charts: list[tuple[NatalChart, Horoscope | None]],
) -> None:
    """The column path reads the engine's palace order (寅 first); a chart whose palaces
    come in another order (built by hand) still gets its palaces in branch order."""
    import dataclasses

    for chart, _ in fixture_charts[::40]:
        shuffled = dataclasses.replace(chart, palaces=tuple(sorted(chart.palaces)))
        assert to_json(shuffled) == orjson.dumps(chart_to_dict(shuffled))
        assert to_json(shuffled) == to_json(chart)


@pytest.mark.parametrize("by_column", [True, False])
def test_full_caches_are_emptied_and_refilled(
    fixture_charts: list[tuple[NatalChart, Horoscope | None]],
    monkeypatch: pytest.MonkeyPatch,
    by_column: bool,
) -> None:
    """Both ways of writing the palaces (by column, and a palace at a time) refill every
    cache they read from empty, and keep each within its bound."""
    from mingshu.present import ziwei_json

    monkeypatch.setattr(ziwei_json, "_UNPACK", by_column)
    monkeypatch.setattr(ziwei_json, "_LIMIT", 3)  # every few pieces, the caches clear
    caches = (
        "_HEADS",
        "_POOLED",
        "_STAR_BYTES",
        "_GOD_BYTES",
        "_DECADAL_BYTES",
        "_AGES_BYTES",
        "_STARS",
        "_STEM_COLUMNS",
        "_NAME_COLUMNS",
        "_BODY_COLUMNS",
        "_ORIGINAL_COLUMNS",
        "_GROUP_COLUMNS",
        "_SPAN_COLUMNS",
        "_PILLAR_COLUMNS",
        "_AGES_COLUMNS",
    )
    for cache in caches:
        monkeypatch.setattr(ziwei_json, cache, {})
    monkeypatch.setattr(ziwei_json, "_GOD_COLUMNS", ({}, {}, {}, {}))
    for chart, _ in fixture_charts[::20]:
        assert to_json(chart) == orjson.dumps(chart_to_dict(chart))
    assert all(len(getattr(ziwei_json, cache)) <= 3 for cache in caches)
    assert all(len(cache) <= 3 for cache in ziwei_json._GOD_COLUMNS)


def test_both_engines_write_one_birth_object() -> None:
    """The same birth gives the same "birth" object in both engines' JSON, clocks included,
    and the Zi Wei settings round-trip with the true-solar-time fields."""
    from mingshu import ziwei

    zs = ziwei.ZiweiSettings(true_solar_time=True, equation_of_time=False)
    bs = bazi.BaziSettings(true_solar_time=True, equation_of_time=False)
    z = ziwei.chart("1990-05-15", "11:30", "male", tz="Asia/Shanghai", longitude=87.6, settings=zs)
    b = bazi.chart("1990-05-15", "11:30", "male", tz="Asia/Shanghai", longitude=87.6, settings=bs)
    zd, bd = chart_to_dict(z), chart_to_dict(b)
    assert zd["birth"] == bd["birth"]
    assert zd["birth"]["moment"]["civil"] == "1990-05-15 11:30:00+09:00"
    assert zd["birth"]["moment"]["clock_kind"] == "mean_solar"
    assert ZiweiSettings(**zd["settings"]) == zs
    lunar = bazi.chart("2023-2-20", "10:00", "male", lunar=True, leap=True)
    assert chart_to_dict(lunar)["birth"]["lunar_input"]["is_leap"] is True


@pytest.mark.parametrize(("date", "time", "gender", "tz", "longitude"), BAZI_BIRTHS)
def test_the_bazi_page_dict_is_part_of_the_chart_dict(
    date: str, time: str, gender: str, tz: str, longitude: float | None
) -> None:
    # The web page builds only what it shows; each value must be the full export's own.
    from mingshu.present.bazi_json import page_dict

    settings = bazi.BaziSettings(include_basis_pillar=True)
    c = bazi.chart(date, time, gender, tz=tz, longitude=longitude, settings=settings)
    full, page = chart_to_dict(c), page_dict(c)
    for key in ("details", "tai_yuan", "tai_xi", "ming_gong", "shen_gong"):
        assert page[key] == full[key], key
    assert page["luck"] == {k: full["luck"][k] for k in ("start", "start_moment", "steps")}
    assert len(page["stars"]) == len(full["stars"]) > 0
    assert any(s["found"] for s in page["stars"])
    for mine, theirs in zip(page["stars"], full["stars"], strict=True):
        assert {k: v for k, v in mine.items() if k != "hits"} == {
            k: theirs[k] for k in mine if k != "hits"
        }
        assert mine["hits"] == [
            {"pillar": h["pillar"], "target": h["target"]} for h in theirs["hits"]
        ]
