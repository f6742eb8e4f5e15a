"""Patterns of the limits (定杂局's 风云际会 and 禄衰马困) on a horoscope: pinned horoscopes that
form each one and that just miss each of its conditions (tests/ziwei/limit_pattern_births.toml,
found by tools/limit_pattern_births.py), the verses restated here from the horoscope's own
positions agreeing with the detector on random horoscopes, and the JSON, Markdown and CLI
outputs."""

from __future__ import annotations

import datetime as dt
import json
import random
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mingshu.cli import app
from mingshu.errors import InputError
from mingshu.present import horoscope_to_dict, to_markdown
from mingshu.ziwei import by_solar
from mingshu.ziwei.horoscope import Horoscope, Layer, Scope
from mingshu.ziwei.limit_patterns import LIMIT_READINGS, LIMIT_VARIANTS, _compile, detect
from mingshu.ziwei.patterns import PATTERNS
from mingshu.ziwei.stars import StarKind

CASES = tomllib.loads((Path(__file__).parent / "limit_pattern_births.toml").read_text("utf-8"))[
    "case"
]

# --------------------------------------------------------------------- the verses restated
# 「风云际会 身命虽弱二限逢禄马是也」: the 大限 and the 小限 (大小二限) each meet 禄 and 马.
# 「禄衰马困 限逢七杀禄马空亡是也」: a limit meets 七杀, and a 禄 and a 马 that sit in 空亡.
# 逢 = in the limit's palace or its 三方四正 (the palace, the two trines, the opposite).
# 禄 = 禄存, the natal 化禄, the limit's 化禄 or its flowing 禄; 马 = 天马 or its flowing 马.
# 空亡 = 旬空, 截空, 截路空亡.

VOID = {"xun_kong", "jie_kong", "kong_wang"}


def square(branch: int) -> set[int]:
    return {branch, (branch + 4) % 12, (branch + 6) % 12, (branch + 8) % 12}


def natal_stars(h: Horoscope) -> dict[int, set[str]]:
    """The natal star keys in each branch."""
    out: dict[int, set[str]] = {b: set() for b in range(12)}
    for palace in h.chart.palaces:
        for placed in (*palace.major_stars, *palace.minor_stars, *palace.adjective_stars):
            out[int(placed.branch)].add(placed.star.key)
    return out


def lu_ma(h: Horoscope, layer: Layer) -> tuple[set[int], set[int]]:
    """The branches of the 禄 and of the 马 the limit reads."""
    lu: set[int] = set()
    ma: set[int] = set()
    limit_lu = layer.mutagens[0].key  # 禄 权 科 忌: the star the limit's stem makes 禄
    for palace in h.chart.palaces:
        for placed in (*palace.major_stars, *palace.minor_stars):
            b = int(placed.branch)
            if placed.star.key == "lu_cun" or placed.star.key == limit_lu:
                lu.add(b)
            if placed.mutagen is not None and placed.mutagen.key == "lu":
                lu.add(b)
            if placed.star.key == "tian_ma":
                ma.add(b)
    for flowing in layer.stars:
        if flowing.star.kind is StarKind.LUCUN:
            lu.add(int(flowing.branch))
        if flowing.star.kind is StarKind.TIANMA:
            ma.add(int(flowing.branch))
    return lu, ma


def decade_lu_ma(h: Horoscope) -> set[int]:
    """x-iztro's 禄 and 马 for either limit: 禄存, 天马, the decade's 化禄, 运禄 and 运马."""
    found: set[int] = set()
    decade_lu = h.decadal.mutagens[0].key
    for palace in h.chart.palaces:
        for placed in (*palace.major_stars, *palace.minor_stars):
            if placed.star.key in {"lu_cun", "tian_ma", decade_lu}:
                found.add(int(placed.branch))
    for flowing in h.decadal.stars:
        if flowing.star.kind in {StarKind.LUCUN, StarKind.TIANMA}:
            found.add(int(flowing.branch))
    return found


def feng_yun(h: Horoscope, layer: Layer) -> list[bool]:
    """Condition by condition on one limit: meets a 禄, meets a 马."""
    lu, ma = lu_ma(h, layer)
    near = square(int(layer.branch))
    return [bool(lu & near), bool(ma & near)]


def lu_shuai(h: Horoscope, layer: Layer) -> list[bool]:
    """Condition by condition on one limit: meets 七杀, meets a void 禄, meets a void 马."""
    stars = natal_stars(h)
    lu, ma = lu_ma(h, layer)
    near = square(int(layer.branch))
    sha = any("qi_sha" in stars[b] for b in near)
    return [
        sha,
        any(stars[b] & VOID for b in lu & near),
        any(stars[b] & VOID for b in ma & near),
    ]


def restated(h: Horoscope, variant: str) -> set[tuple[str, tuple[str, ...]]]:
    """Every (pattern, limits) the restated verses find under ``variant``."""
    layers = {layer.scope.value: layer for layer in h.layers}
    found = set()
    two = ("decadal", "yearly") if variant == "yearly" else ("decadal", "age")
    if variant == "x_iztro":  # a 禄 or a 马 of the decade's on each limit
        formed = all(decade_lu_ma(h) & square(int(layers[s].branch)) for s in two)
    else:
        formed = all(all(feng_yun(h, layers[s])) for s in two)
    if formed:
        found.add(("feng_yun_ji_hui", two))
    for s in ("decadal", "age", "yearly"):
        layer = layers[s]
        if variant == "either_void":
            lu, ma = lu_ma(h, layer)
            near = square(int(layer.branch))
            sha, void_lu, void_ma = lu_shuai(h, layer)
            formed = sha and bool(lu & near) and bool(ma & near) and (void_lu or void_ma)
        else:
            formed = all(lu_shuai(h, layer))
        if formed:
            found.add(("lu_shuai_ma_kun", (s,)))
    return found


RESTATED = {"feng_yun_ji_hui": feng_yun, "lu_shuai_ma_kun": lu_shuai}


def found(h: Horoscope, variant: str = "book") -> set[tuple[str, tuple[str, ...]]]:
    return {(hit.key, tuple(s.value for s in hit.scopes)) for hit in detect(h, variant)}


def horoscope_of(case: dict[str, object]) -> Horoscope:
    chart = by_solar(str(case["birth"]), int(str(case["hour"])), str(case["gender"]))
    return chart.horoscope(str(case["at"]))


# ---------------------------------------------------------------------------- the tests


@pytest.mark.parametrize(
    "case", CASES, ids=[f"{c['pattern']}-{c['what']}-{c['limit']}" for c in CASES]
)
def test_pinned_horoscopes(case: dict[str, object]) -> None:
    """A horoscope that forms the pattern on the limit, or one whose every condition holds
    but the one named, on the limit named (the restated verse says which fails)."""
    h = horoscope_of(case)
    key, limit = str(case["pattern"]), str(case["limit"])
    book = LIMIT_READINGS[key]["book"]
    limits = [s.value for s in book.scopes] if book.together else [limit]
    held = {s: RESTATED[key](h, {la.scope.value: la for la in h.layers}[s]) for s in limits}
    formed_here = {scopes for k, scopes in found(h) if k == key}
    if case["what"] == "forms":
        assert all(all(v) for v in held.values())
        assert tuple(limits) in formed_here
    else:
        missed = int(str(case["what"]))
        assert [(s, i) for s, v in held.items() for i, ok in enumerate(v) if not ok] == [
            (limit, missed)
        ]
        assert tuple(limits) not in formed_here


def test_every_condition_and_limit_is_pinned() -> None:
    pinned = {(c["pattern"], c["what"], c["limit"]) for c in CASES}
    for key, readings in LIMIT_READINGS.items():
        book = readings["book"]
        scopes = [s.value for s in book.scopes]
        for s in scopes:
            for i in range(len(book.when)):
                assert (key, str(i), s) in pinned
        for s in scopes[:1] if book.together else scopes:
            assert (key, "forms", s) in pinned


@pytest.mark.parametrize("variant", sorted(LIMIT_VARIANTS))
def test_the_detector_agrees_with_the_restated_verses(variant: str) -> None:
    """Random births of 1900-2080 read at a moment 1-80 years later: the detector and the
    verses restated above find the same patterns on the same limits."""
    rng = random.Random(23)
    first, last = dt.date(1900, 2, 1).toordinal(), dt.date(2080, 1, 1).toordinal()
    seen = 0
    for _ in range(250):
        day = dt.date.fromordinal(rng.randint(first, last))
        chart = by_solar(day, rng.randint(0, 11), rng.choice(["male", "female"]))
        h = chart.horoscope(dt.date(day.year + rng.randint(1, 80), rng.randint(1, 12), 15))
        mine = found(h, variant)
        assert mine == restated(h, variant), (day, h.date)
        seen += len(mine)
    assert seen  # the draws form some


def test_which_limits_patterns_are_read() -> None:
    """Two of 定杂局's eight name positions; the other six say why none defines them."""
    limits = {k for k, p in PATTERNS.items() if p.layer == "limits"}
    assert len(limits) == 8
    assert set(LIMIT_READINGS) == {"feng_yun_ji_hui", "lu_shuai_ma_kun"}
    for key in limits - set(LIMIT_READINGS):
        assert PATTERNS[key].note.startswith("Not definable by positions: ")
    for readings in LIMIT_READINGS.values():
        assert next(iter(readings)) == "book"
        assert all(r.why for k, r in readings.items() if k != "book")
    assert {s.value for s in LIMIT_READINGS["feng_yun_ji_hui"]["book"].scopes} == {
        "decadal",
        "age",
    }


def test_a_natal_chart_reports_no_limits_pattern() -> None:
    chart = by_solar(str(CASES[0]["birth"]), int(str(CASES[0]["hour"])), "female")
    assert not {h.key for h in chart.patterns()} & set(LIMIT_READINGS)


def test_bad_arguments_are_input_errors() -> None:
    h = horoscope_of(CASES[0])
    with pytest.raises(InputError) as error:
        h.patterns("no_such")
    assert error.value.field == "variant"
    with pytest.raises(InputError) as error:
        detect(h.chart, "book")  # type: ignore[arg-type]
    assert error.value.field == "horoscope"
    with pytest.raises(InputError):
        h.patterns(3)  # type: ignore[arg-type]


def test_an_unknown_limit_condition_is_refused() -> None:
    with pytest.raises(ValueError, match="limits vocabulary"):
        _compile({"in": "life", "stars": ["qi_sha"]}, "probe")
    with pytest.raises(ValueError, match="limits vocabulary"):
        _compile({"in": "limit", "stars": ["qi_sha"], "with": ["xun_kong"]}, "probe")
    with pytest.raises(ValueError, match="not a star key"):
        _compile({"meets": "limit", "any": ["七杀"]}, "probe")


def forming(key: str) -> dict[str, object]:
    return next(c for c in CASES if c["pattern"] == key and c["what"] == "forms")


def test_json_markdown_and_cli_carry_the_limits_patterns() -> None:
    case = forming("lu_shuai_ma_kun")
    h = horoscope_of(case)
    entry = next(p for p in horoscope_to_dict(h)["patterns"] if p["key"] == "lu_shuai_ma_kun")
    assert entry["hans"] == "禄衰马困" and entry["layer"] == "limits"
    assert entry["variant"] == "book" and entry["scopes"] == [case["limit"]]
    assert entry["verse_at"] == "ziwei-quanshu.juan1.md:450" and "qi_sha" in entry["stars"]
    assert "禄衰马困 限逢七杀禄马空亡是也。" in to_markdown(h.chart, h)
    day, at = str(case["birth"]), str(case["at"])
    args = ["ziwei", day, "--time-index", str(case["hour"]), "--gender", str(case["gender"])]
    result = CliRunner().invoke(app, [*args, "--at", at, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert "lu_shuai_ma_kun" in {p["key"] for p in data["horoscope"]["patterns"]}


def test_scopes_are_the_limits_read() -> None:
    assert {s for r in LIMIT_READINGS.values() for x in r.values() for s in x.scopes} <= {
        Scope.DECADAL,
        Scope.AGE,
        Scope.YEARLY,
    }


@pytest.mark.parametrize("width", [100, 60])
def test_the_text_grid_lists_the_limits_patterns(width: int) -> None:
    """Under the board (wide) and in the one-column list (narrow): the pattern, the limit
    that forms it (大限 …) and its verse; a chart without a horoscope lists none."""
    import io

    from rich.console import Console

    from mingshu.present.ziwei_text import ChartGrid

    case = forming("lu_shuai_ma_kun")
    h = horoscope_of(case)
    limit = {layer.scope.value: layer.names.hans for layer in h.layers}[str(case["limit"])]

    def shown(horoscope: Horoscope | None) -> str:
        out = io.StringIO()
        console = Console(file=out, width=width, color_system=None, legacy_windows=False)
        console.print(ChartGrid(h.chart, horoscope, "hans"))
        return out.getvalue()

    text = shown(h)
    assert "运限格局" in text and f"禄衰马困 [{limit}]" in text
    assert "限逢七杀禄马空亡是也。" in text
    assert "运限格局" not in shown(None)


def test_the_api_horoscope_carries_the_limits_patterns(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from mingshu.web import create_app

    case = forming("lu_shuai_ma_kun")
    hour = int(str(case["hour"]))
    clock = "00:30" if hour == 0 else f"{2 * hour:02d}:00"  # inside the hour's two
    params = {"date": case["birth"], "time": clock, "gender": case["gender"], "at": case["at"]}
    with TestClient(create_app(f"sqlite:///{tmp_path / 'feedback.db'}")) as client:
        r = client.get("/api/ziwei/horoscope", params=params)
    assert r.status_code == 200, r.text
    assert r.json()["patterns"] == horoscope_to_dict(horoscope_of(case))["patterns"]
    assert "lu_shuai_ma_kun" in {p["key"] for p in r.json()["patterns"]}
