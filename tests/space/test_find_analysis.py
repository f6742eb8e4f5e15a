"""``find`` with the chart-analysis forms (``surrounded``, ``flanking``, ``flies``, ``self``):
the counts over every chart of a swept year equal the counts of the analysis API
(``chart.surrounded``, ``chart.flanking``, ``chart.flies``; itself checked against iztro),
under default settings and under a custom 四化 table on an earth chart."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from mingshu import space, ziwei
from mingshu.cycles import Branch
from mingshu.errors import InputError
from mingshu.ziwei import Mutagen, PalaceName

from .conftest import YEAR

LIFE, CAREER = PalaceName.LIFE, PalaceName.CAREER

ENGINE: dict[str, Callable[[ziwei.NatalChart], bool]] = {
    "surrounded(life) has lu_cun": lambda c: c.surrounded("life").have("lu_cun"),
    "surrounded(财帛) has qing_yang or surrounded(body) has tuo_luo": lambda c: (
        c.surrounded("wealth").have("qing_yang") or c.surrounded("body").have("tuo_luo")
    ),
    "flanking(career) has qing_yang and flanking(career) has tuo_luo": lambda c: c.flanking(
        "career"
    ).have(["qing_yang", "tuo_luo"]),
    "flies(wealth, ji) = life": lambda c: c.flies("wealth").ji.name is LIFE,
    "flies(命宫, 禄) = palace_zi": lambda c: c.flies("life").lu.name == c.palace_at(Branch.ZI).name,
    "flies(spouse, quan) in (life, career)": lambda c: (
        c.flies("spouse").quan.name in (LIFE, CAREER)
    ),
    "self(career, lu)": lambda c: Mutagen.LU in c.self_mutagens("career"),
    "self(body, 忌) and not self(life, ke)": lambda c: (
        Mutagen.JI in c.self_mutagens("body") and Mutagen.KE not in c.self_mutagens("life")
    ),
}

CUSTOM = ziwei.ZiweiSettings(
    mutagens={"庚": ["太阳", "武曲", "天同", "天相"], "甲": ["廉贞", "破军", "武曲", "太阳"]},
    chart_type="earth",
    year_boundary="spring_begins",
)


def engine_counts(settings: ziwei.ZiweiSettings) -> dict[str, Counter[int]]:
    counts: dict[str, Counter[int]] = {e: Counter() for e in ENGINE}
    day = dt.date(YEAR, 1, 1)
    while day.year == YEAR:
        for index in range(13):
            for gender in ("male", "female"):
                chart = ziwei.from_birth(ziwei.Birth.solar(day, index, gender), settings)
                for expr, holds in ENGINE.items():
                    if holds(chart):
                        counts[expr][index] += 1
        day += dt.timedelta(days=1)
    return counts


@pytest.fixture(scope="module")
def default_counts() -> dict[str, Counter[int]]:
    return engine_counts(ziwei.ZiweiSettings())


@pytest.fixture(scope="module")
def custom() -> tuple[Path, dict[str, Counter[int]]]:
    import tempfile

    folder = Path(tempfile.mkdtemp()) / "charts"
    space.sweep_ziwei(folder, YEAR, YEAR, CUSTOM, workers=1, progress=False)
    return folder, engine_counts(CUSTOM)


@pytest.mark.parametrize("expr", list(ENGINE))
def test_counts_equal_the_analysis_api(
    dataset: Path, default_counts: dict[str, Counter[int]], expr: str
) -> None:
    result = space.find(dataset, expr)
    assert {g.value: g.count for g in result.groups} == dict(default_counts[expr])
    assert 0 < result.count < result.rows


@pytest.mark.parametrize("expr", list(ENGINE))
def test_custom_table_and_earth_chart(
    custom: tuple[Path, dict[str, Counter[int]]], expr: str
) -> None:
    folder, counts = custom
    result = space.find(folder, expr)
    assert {g.value: g.count for g in result.groups} == dict(counts[expr])


def test_the_custom_table_matters(
    dataset: Path, custom: tuple[Path, dict[str, Counter[int]]]
) -> None:
    """The two datasets differ on a flight question: the custom table is really used."""
    expr = "flies(wealth, ji) = life"
    assert space.find(dataset, expr).count != space.find(custom[0], expr).count


@pytest.mark.parametrize(
    ("expr", "names"),
    [
        ("surrounded(life) lu_cun", "expected 'has'"),
        ("surrounded(life) has nope", "expected a star key"),
        ("surrounded(nowhere) has lu_cun", "expected a palace name"),
        ("flies(wealth) = life", "expected ','"),
        ("flies(life, fu) = life", "expected a transformation"),
        ("flies(life, ji) = zi", "different kinds"),
        ("self(career)", "expected ','"),
        ("self(子, lu)", "expected a palace name"),
    ],
)
def test_bad_analysis_forms(dataset: Path, expr: str, names: str) -> None:
    with pytest.raises(InputError) as err:
        space.find(dataset, expr)
    assert err.value.field == "expr"
    assert names in err.value.message
