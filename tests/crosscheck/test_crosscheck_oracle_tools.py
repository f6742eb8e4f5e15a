"""The dev tools in tools/iztro-oracle: random_inputs.py always; generate.mjs when node and its
node_modules are installed (``cd tools/iztro-oracle && npm ci``), otherwise skipped."""

from __future__ import annotations

import datetime as dt
import gzip
import importlib.util
import json
import shutil
import subprocess
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from ._support import FIXTURES

ORACLE = Path(__file__).resolve().parents[2] / "tools" / "iztro-oracle"
FIXTURE_KEY_ORDER = [
    "id", "date", "time", "gender", "lang", "by", "leap", "fix_leap",
    "horoscope", "horoscope_time", "astro_type", "config",
]  # fmt: skip


@pytest.fixture(scope="module")
def random_inputs() -> ModuleType:
    pytest.importorskip("lunar_python")
    spec = importlib.util.spec_from_file_location("random_inputs", ORACLE / "random_inputs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def solar_birth(lunar_python: Any, inp: dict[str, Any]) -> dt.date:
    y, m, d = map(int, inp["date"].split("-"))
    if inp["by"] == "lunar":
        s = lunar_python.Lunar.fromYmd(y, -m if inp["leap"] else m, d).getSolar()
        return dt.date(s.getYear(), s.getMonth(), s.getDay())
    return dt.date(y, m, d)


def lunar_of(lunar_python: Any, d: dt.date) -> tuple[int, int, int]:
    lunar = lunar_python.Solar.fromYmd(d.year, d.month, d.day).getLunar()
    return lunar.getYear(), lunar.getMonth(), lunar.getDay()


@pytest.mark.parametrize("kind", ["random", "configs", "astro-types", "edges"])
def test_random_inputs_look_like_the_fixtures(random_inputs: ModuleType, kind: str) -> None:
    import lunar_python  # type: ignore[import-untyped]

    inputs = list(random_inputs.inputs(kind, 60, 5))
    assert inputs == list(random_inputs.inputs(kind, 60, 5))  # deterministic per seed
    assert inputs != list(random_inputs.inputs(kind, 60, 6))
    for inp in inputs:
        keys = list(inp)
        assert keys == [k for k in FIXTURE_KEY_ORDER if k in keys]
        assert 0 <= inp["time"] <= 12 and 0 <= inp["horoscope_time"] <= 12
        birth = solar_birth(lunar_python, inp)
        horoscope = dt.date(*map(int, inp["horoscope"].split("-")))
        assert dt.date(1900, 1, 31) <= birth <= horoscope <= dt.date(2100, 12, 31)
        if inp["by"] == "lunar":  # the leap flag says what the lunar calendar says
            assert inp["leap"] == (lunar_of(lunar_python, birth)[1] < 0)
        else:
            assert inp["leap"] is False
        config = inp.get("config")
        if config is not None:
            assert sorted(config) == sorted(random_inputs.SCALAR_CONFIG)
        if kind == "random":
            assert config is None
        if kind == "configs":
            assert config is not None
        assert ("astro_type" in inp) == (kind == "astro-types")
    if kind in ("astro-types", "edges"):  # half under random settings
        assert 10 <= sum("config" in inp for inp in inputs) <= 50
    if kind == "astro-types":
        assert {inp["astro_type"] for inp in inputs} == {"heaven", "earth", "human"}
    if kind != "edges":  # edges give lunar input only for leap-month days
        assert {inp["by"] for inp in inputs} == {"solar", "lunar"}


def test_edge_inputs_hit_their_edges(random_inputs: ModuleType) -> None:
    import lunar_python

    seen: dict[str, int] = {}
    late_rat = 0
    for inp in random_inputs.inputs("edges", 200, 11):
        category = inp["id"].split("-", 2)[2]
        seen[category] = seen.get(category, 0) + 1
        birth = solar_birth(lunar_python, inp)
        _, month, day = lunar_of(lunar_python, birth)
        _, next_month, next_day = lunar_of(lunar_python, birth + dt.timedelta(days=1))
        if category in ("month_end", "new_year_eve"):
            assert next_day == 1, inp
            late_rat += inp["time"] == 12
        if category == "new_year_eve":
            assert next_month == 1, inp
        if category == "leap_mid":
            assert month < 0 and day in (14, 15, 16, 17, 29, 30), inp
        if category == "spring_window":
            li = lunar_python.Lunar.fromYmd(birth.year, 1, 1).getJieQiTable()["立春"]
            spring = dt.date(li.getYear(), li.getMonth(), li.getDay())
            lunar_year = lunar_of(lunar_python, birth)[0]
            # between 立春 and 正月初一: the 立春 day itself, or the lunar year disagrees with
            # the solar-term year
            assert birth == spring or (lunar_year == birth.year) != (birth >= spring), inp
    assert set(seen) == {"month_end", "new_year_eve", "leap_mid", "spring_window"}
    ends = seen["month_end"] + seen["new_year_eve"]
    assert late_rat >= ends // 2


def test_random_inputs_cli_writes_json_lines(random_inputs: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "in.jsonl"
    assert (
        random_inputs.main(["--count", "7", "--seed", "2", "--kind", "edges", "--out", str(out)])
        == 0
    )
    lines = out.read_text(encoding="utf-8").splitlines()
    assert [json.loads(x) for x in lines] == list(random_inputs.inputs("edges", 7, 2))


def _node_ready() -> bool:
    return shutil.which("node") is not None and (ORACLE / "node_modules" / "iztro").is_dir()


@pytest.mark.skipif(not _node_ready(), reason="needs node and `npm ci` in tools/iztro-oracle")
def test_generate_reproduces_fixture_records() -> None:
    expected: list[str] = []
    for path in sorted(FIXTURES.glob("*.jsonl.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as f:
            expected += [line.rstrip("\n") for _, line in zip(range(6), f, strict=False)]
    inputs = "".join(
        json.dumps(json.loads(line)["input"], ensure_ascii=False, separators=(",", ":")) + "\n"
        for line in expected
    )
    proc = subprocess.run(
        ["node", str(ORACLE / "generate.mjs")],
        input=inputs,
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=True,
        timeout=120,
    )
    assert proc.stdout.splitlines() == expected


@pytest.mark.skipif(not _node_ready(), reason="needs node and `npm ci` in tools/iztro-oracle")
def test_generate_resets_config_and_reports_errors() -> None:
    with_config = {
        "id": "a",
        "date": "1990-5-6",
        "time": 3,
        "gender": "女",
        "config": {"mutagens": {"庚": ["太阳", "武曲", "天同", "太阴"]}, "algorithm": "zhongzhou"},
    }
    plain = {"id": "b", "date": "1990-5-6", "time": 3, "gender": "女"}
    lines = [
        json.dumps(plain, ensure_ascii=False),
        json.dumps(with_config, ensure_ascii=False),
        json.dumps(plain, ensure_ascii=False),
        "not json",
        json.dumps(
            {"id": "c", "date": "2017-6-30", "time": 0, "gender": "女", "by": "lunar", "leap": True}
        ),
        json.dumps({"id": "d", "date": "2017-6-3", "time": 13, "gender": "女"}),
    ]
    proc = subprocess.run(
        ["node", str(ORACLE / "generate.mjs")],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=True,
        timeout=60,
    )
    out = [json.loads(x)["output"] for x in proc.stdout.splitlines()]
    assert len(out) == 6
    assert out[0] == out[2]  # the config of record "a" did not stick
    assert out[1]["config"]["algorithm"] == "zhongzhou"
    assert out[1]["config"]["mutagens"] == {
        "gengHeavenly": ["taiyangMaj", "wuquMaj", "tiantongMaj", "taiyinMaj"]
    }
    assert out[1]["chart"]["soul"] != out[0]["chart"]["soul"]  # 中州: 命主 from the year branch
    assert out[3] == {"id": None, "ok": False, "error": out[3]["error"]}
    assert out[3]["error"].startswith("bad JSON")
    assert out[4] == {"id": "c", "ok": False, "error": "only 29 days in lunar year 2017 month 6"}
    assert out[5]["ok"] is False and out[5]["error"].startswith("time:")
