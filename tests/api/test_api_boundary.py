"""Every public function checks its arguments at the boundary: a wrong type or value is an
InputError naming the argument, never an AttributeError, TypeError, KeyError or
StopIteration from inside, and never a silent answer (issue 20, "Public calls raise
InputError")."""

from __future__ import annotations

import datetime as dt
import importlib
import inspect
import math
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mingshu import bazi, library, present, space, ziwei
from mingshu.birth import Birth, Notice
from mingshu.cycles import Pillar
from mingshu.errors import InputError
from mingshu.gender import Gender
from mingshu.ziwei import locale

CHART = ziwei.chart("2000-8-16", 2, "female")
BAZI = bazi.chart("1990-05-15", "10:30", "male", tz="Asia/Shanghai")
NATAL = tuple(BAZI.pillars)
DAY = dt.date(2000, 1, 1)
LIBRARY = library.load()


def field_of(call: Callable[[], object]) -> str:
    with pytest.raises(InputError) as error:
        call()
    assert len(str(error.value)) < 400
    return error.value.field


# The 29 calls of issue 20, each with the field its error must name.
CASES: list[tuple[str, Callable[[], object], str]] = [
    ("horoscope(None, at)", lambda: ziwei.horoscope(None, "2020-1-1"), "chart"),  # type: ignore[arg-type]
    ("decades(None)", lambda: ziwei.decades(None), "chart"),  # type: ignore[arg-type]
    ("years(None, 0)", lambda: ziwei.years(None, 0), "chart"),  # type: ignore[arg-type]
    ("months(None, 2020)", lambda: ziwei.months(None, 2020), "chart"),  # type: ignore[arg-type]
    ("zi_wei_branch(0, 1)", lambda: ziwei.zi_wei_branch(0, 1), "five_elements_class"),
    ("zi_wei_branch(None, 1)", lambda: ziwei.zi_wei_branch(None, 1), "five_elements_class"),  # type: ignore[arg-type]
    ("zi_wei_branch(2.0, 1)", lambda: ziwei.zi_wei_branch(2.0, 1), "five_elements_class"),  # type: ignore[arg-type]
    ("zi_wei_branch(7, 1)", lambda: ziwei.zi_wei_branch(7, 1), "five_elements_class"),
    ("zi_wei_branch(1, 1)", lambda: ziwei.zi_wei_branch(1, 1), "five_elements_class"),
    ("zi_wei_branch(2, None)", lambda: ziwei.zi_wei_branch(2, None), "day"),  # type: ignore[arg-type]
    ("zi_wei_branch(2, 2.0)", lambda: ziwei.zi_wei_branch(2, 2.0), "day"),  # type: ignore[arg-type]
    ("zi_wei_branch(2, 0)", lambda: ziwei.zi_wei_branch(2, 0), "day"),
    ("zi_wei_branch(2, 31)", lambda: ziwei.zi_wei_branch(2, 31), "day"),
    ("zi_wei_branch(True, 1)", lambda: ziwei.zi_wei_branch(True, 1), "five_elements_class"),
    ("Birth(notices='abc')", lambda: Birth(DAY, 2, Gender.MALE, notices="abc"), "notices"),  # type: ignore[arg-type]
    (
        "Birth(notices=[notice])",
        lambda: Birth(DAY, 2, Gender.MALE, notices=[Notice("c", "tz", "m")]),  # type: ignore[arg-type]
        "notices",
    ),
    (
        "Birth clock_time 12:00 with time index 2",
        lambda: Birth(DAY, 2, Gender.MALE, clock_time=dt.time(12, 0)),
        "time",
    ),
    ("Birth clock_time str", lambda: Birth(DAY, 2, Gender.MALE, clock_time="03:00"), "time"),  # type: ignore[arg-type]
    ("Birth lunar_input str", lambda: Birth(DAY, 2, Gender.MALE, lunar_input="x"), "lunar_input"),  # type: ignore[arg-type]
    ("Birth moment str", lambda: Birth(DAY, 2, Gender.MALE, moment="x"), "moment"),  # type: ignore[arg-type]
    ("variant_of('x')", lambda: bazi.BaziSettings().variant_of("x"), "star"),
    ("variant_of(None)", lambda: bazi.BaziSettings().variant_of(None), "star"),  # type: ignore[arg-type]
    ("bases_of('x')", lambda: bazi.BaziSettings().bases_of("x"), "star"),
    ("bases_of([])", lambda: bazi.BaziSettings().bases_of([]), "star"),  # type: ignore[arg-type]
    ("annuals('2000')", lambda: BAZI.luck.annuals("2000"), "year"),  # type: ignore[arg-type]
    ("annuals(2000, -3)", lambda: BAZI.luck.annuals(2000, -3), "count"),
    ("annuals(2000, 0)", lambda: BAZI.luck.annuals(2000, 0), "count"),
    ("annuals(2000, 2.0)", lambda: BAZI.luck.annuals(2000, 2.0), "count"),  # type: ignore[arg-type]
    ("arriving(None, None)", lambda: bazi.arriving(None, None), "natal"),  # type: ignore[arg-type]
    ("arriving(chart, '甲子')", lambda: bazi.arriving(BAZI, "甲子"), "natal"),  # type: ignore[arg-type]
    ("arriving(natal, None)", lambda: bazi.arriving(NATAL, None), "pillar"),  # type: ignore[arg-type]
    ("arriving(natal, 'x')", lambda: bazi.arriving(NATAL, "x"), "pillar"),  # type: ignore[arg-type]
    ("arriving(natal[:3])", lambda: bazi.arriving(NATAL[:3], "甲子"), "natal"),  # type: ignore[arg-type]
    (
        "arriving(backward='False')",
        lambda: bazi.arriving(NATAL, "甲子", backward="False"),  # type: ignore[arg-type]
        "backward",
    ),
    (
        "arriving(settings=None)",
        lambda: bazi.arriving(NATAL, "甲子", settings=None),  # type: ignore[arg-type]
        "settings",
    ),
    ("four_pillars(None)", lambda: bazi.four_pillars(None), "moment"),  # type: ignore[arg-type]
    ("moments_of(None)", lambda: bazi.moments_of(None), "pillars"),
    ("moments_of(start=str)", lambda: bazi.moments_of("庚辰甲申丙午庚寅", start="2000"), "start"),  # type: ignore[arg-type]
    (
        "moments_of(settings=None)",
        lambda: bazi.moments_of("庚辰甲申丙午庚寅", None),  # type: ignore[arg-type]
        "settings",
    ),
    ("four_pillars(date)", lambda: bazi.four_pillars(DAY), "moment"),  # type: ignore[arg-type]
    (
        "four_pillars(settings=None)",
        lambda: bazi.four_pillars(dt.datetime(2000, 1, 1), None),  # type: ignore[arg-type]
        "settings",
    ),
    ("ten_god(None, None)", lambda: bazi.ten_god(None, None), "day_master"),  # type: ignore[arg-type]
    ("ten_god('甲', 3.0)", lambda: bazi.ten_god("甲", 3.0), "stem"),  # type: ignore[arg-type]
    ("nayin('x')", lambda: bazi.nayin("x"), "pillar"),  # type: ignore[arg-type]
    ("nayin('甲丑')", lambda: bazi.nayin("甲丑"), "pillar"),  # type: ignore[arg-type]
    ("is_forward(None, None)", lambda: bazi.is_forward(None, None), "year_stem"),  # type: ignore[arg-type]
    ("is_forward('甲', 'x')", lambda: bazi.is_forward("甲", "x"), "gender"),  # type: ignore[arg-type]
    ("equation_of_time(None)", lambda: bazi.equation_of_time(None), "utc"),  # type: ignore[arg-type]
    ("equation_of_time(date)", lambda: bazi.equation_of_time(DAY), "utc"),  # type: ignore[arg-type]
    ("tai_yuan(None)", lambda: bazi.tai_yuan(None), "month"),  # type: ignore[arg-type]
    ("ming_gong(None, …)", lambda: bazi.ming_gong(None, None, None), "year_stem"),  # type: ignore[arg-type]
    ("stage('甲', 99)", lambda: bazi.stage("甲", 99), "branch"),  # type: ignore[arg-type]
    ("detail('x', …)", lambda: bazi.detail("x", "甲", "甲子"), "position"),  # type: ignore[arg-type]
    ("stars_in(None, …)", lambda: bazi.stars_in(None, None, None, None), "year"),  # type: ignore[arg-type]
    ("stars_in(backward='x')", lambda: bazi.stars_in(*NATAL, backward="x"), "backward"),  # type: ignore[arg-type]
    ("space.query(None, sql)", lambda: space.query(None, "SELECT 1"), "dataset"),  # type: ignore[arg-type]
    ("space.open(None)", lambda: space.open(None), "dataset"),  # type: ignore[arg-type]
    ("space.find(None, expr)", lambda: space.find(None, "en_guang = tian_gui"), "dataset"),  # type: ignore[arg-type]
    ("space.connect(b'x')", lambda: space.connect(b"x"), "dataset"),  # type: ignore[arg-type]
    # Issue 20, round two (tools/hostile_inputs.py): a name longer than the file system takes
    # was an OSError; a flag that is no bool was read as its truth; a NaN became null.
    ("space.query(long path)", lambda: space.query("h" * 300, "SELECT 1"), "dataset"),
    ("space.open(long path)", lambda: space.open("d/" * 2100), "dataset"),
    ("library.load(long root)", lambda: library.load("r" * 256), "root"),
    (
        "query(allow_partial='yes')",
        lambda: space.query("x", "SELECT 1", allow_partial="yes"),  # type: ignore[arg-type]
        "allow_partial",
    ),
    (
        "find(allow_partial=1)",
        lambda: space.find("x", "tai_fu = 午", allow_partial=1),  # type: ignore[arg-type]
        "allow_partial",
    ),
    ("to_json(indent='yes')", lambda: present.to_json({}, indent="yes"), "indent"),  # type: ignore[arg-type]
    ("to_json(nan)", lambda: present.to_json(math.nan), "obj"),
    ("to_json([inf])", lambda: present.to_json({"a": [1.0, -math.inf]}), "obj"),
    ("iztro_name(object())", lambda: locale.iztro_name(object(), "en-US"), "name"),
    ("iztro_name(b'x')", lambda: locale.iztro_name(b"x", "en-US"), "name"),
    (
        "sweep_ziwei(None, …)",
        lambda: space.sweep_ziwei(None, 2000, 2000, ziwei.ZiweiSettings()),  # type: ignore[arg-type]
        "out",
    ),
    (
        "sweep_bazi(None, …)",
        lambda: space.sweep_bazi(None, 2000, 2000),  # type: ignore[arg-type]
        "out",
    ),
]


@pytest.mark.parametrize(
    ("call", "field"), [(c, f) for _, c, f in CASES], ids=[n for n, _, _ in CASES]
)
def test_a_bad_argument_names_its_field(call: Callable[[], object], field: str) -> None:
    assert field_of(call) == field


def test_a_sweep_with_a_bad_progress_flag_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "charts"
    with pytest.raises(InputError) as error:
        space.sweep_ziwei(out, 2000, 2000, ziwei.ZiweiSettings(), progress="no")  # type: ignore[arg-type]
    assert error.value.field == "progress"
    with pytest.raises(InputError) as error:
        space.sweep_bazi(out, 2000, 2000, bazi.DEFAULT, progress="no")  # type: ignore[arg-type]
    assert error.value.field == "progress"
    assert not out.exists()


@pytest.mark.parametrize(
    ("sweep", "settings"),
    [(space.sweep_ziwei, ziwei.ZiweiSettings()), (space.sweep_bazi, bazi.DEFAULT)],
)
def test_a_sweep_asked_for_more_workers_than_it_can_start_writes_nothing(
    tmp_path: Path, sweep: Callable[..., object], settings: object
) -> None:
    # 10**30 processes were read as "one a year" without a word; a LocalCluster would try.
    out = tmp_path / "charts"
    with pytest.raises(InputError) as error:
        sweep(out, 2000, 2000, settings, workers=10**30, progress=False)
    assert error.value.field == "workers" and "1..1024" in error.value.message
    assert not out.exists()


def test_a_nan_inside_data_is_refused_and_finite_data_is_written() -> None:
    assert present.to_json({"a": [1.5, {"b": 2}]}) == b'{"a":[1.5,{"b":2}]}'
    assert field_of(lambda: present.to_json([{"b": [math.nan]}])) == "obj"


def test_zi_wei_branch_takes_a_class_and_a_day_and_agrees_with_the_chart() -> None:
    # 2000-8-16 (lunar 七月十七), the chart's own class and day: 紫微 where the chart has it.
    klass = CHART.five_elements_class
    assert ziwei.zi_wei_branch(klass, CHART.lunar_date.day) == CHART.star("紫微").branch
    assert ziwei.zi_wei_branch(int(klass), CHART.lunar_date.day) == CHART.star("紫微").branch
    # 起紫微星诀: 水二局 day 1 → 丑, day 2 → 寅; 火六局 day 30 → 午 (30 / 6 = 5, counted from 寅).
    assert str(ziwei.zi_wei_branch(2, 1)) == "丑"
    assert str(ziwei.zi_wei_branch(2, 2)) == "寅"
    assert str(ziwei.zi_wei_branch(6, 30)) == "午"


def test_a_birth_whose_clock_agrees_with_its_time_index_is_kept() -> None:
    birth = Birth(DAY, 2, Gender.MALE, clock_time=dt.time(3, 30))
    assert birth.clock_time == dt.time(3, 30)
    late = Birth(DAY, 12, Gender.MALE, clock_time=dt.time(23, 10))
    assert late.time_index == 12


def test_star_settings_take_any_name_of_the_star() -> None:
    settings = bazi.BaziSettings(star_variants={"wen_chang": "w2"})
    assert settings.variant_of("文昌贵人") == settings.variant_of("wen_chang") == "w2"
    assert settings.bases_of("文昌贵人") == settings.bases_of("wen_chang")


def test_arriving_takes_the_pillars_as_text() -> None:
    by_text = bazi.arriving(tuple(str(p) for p in NATAL), "甲子")
    assert by_text == bazi.arriving(NATAL, Pillar.parse("甲子"))
    assert BAZI.arriving("甲子") == bazi.arriving(
        NATAL, "甲子", backward=not BAZI.luck.forward, settings=BAZI.settings
    )


def test_annuals_lists_count_years() -> None:
    years = BAZI.luck.annuals(2000, 3)
    assert [a.year for a in years] == [2000, 2001, 2002]


def test_an_aware_utc_moment_is_read_in_utc() -> None:
    naive = dt.datetime(2000, 6, 1, 12, 0)
    aware = dt.datetime(2000, 6, 1, 20, 0, tzinfo=dt.timezone(dt.timedelta(hours=8)))
    assert bazi.equation_of_time(aware) == bazi.equation_of_time(naive)


# ------------------------------------------------------------------- the property test

# The public modules of docs/api.md; every function in their __all__ is called below.
# Not here: mingshu.web (create_app and serve start an application: tests/web fuzzes its
# API) and mingshu.space.claims' SQL-text helpers (mod12, list_at …: they build the claims'
# SQL from code constants; claims.check is here).
MODULES = (
    "mingshu.ziwei",
    "mingshu.bazi",
    "mingshu.space",
    "mingshu.present",
    "mingshu.ziwei.locale",
    "mingshu.library",
)


def public_functions() -> Iterator[tuple[str, Callable[..., Any]]]:
    for name in MODULES:
        module = importlib.import_module(name)
        for attr in module.__all__:
            value = getattr(module, attr)
            if inspect.isfunction(value):
                yield f"{name}.{attr}", value
    yield "mingshu.space.claims.check", importlib.import_module("mingshu.space.claims").check
    # The library's renderers, which the web site and `library build` call with a library.
    render = importlib.import_module("mingshu.library.render")
    yield "mingshu.library.render.article_html", render.article_html
    yield "mingshu.library.render.index_html", render.index_html
    yield "mingshu.library.render.catalogue_html", render.catalogue_html
    yield (
        "mingshu.library.catalogue.catalogue",
        importlib.import_module("mingshu.library.catalogue").catalogue,
    )
    yield (
        "mingshu.library.build.build_site",
        importlib.import_module("mingshu.library.build").build_site,
    )


FUNCTIONS = dict(public_functions())


def good_arguments(scratch: Path) -> dict[str, dict[str, object]]:
    """Arguments that each function accepts (or, for the writers and readers of datasets,
    refuses only for the file ``scratch/file``, so no call writes a dataset or reads much)."""
    a_file = scratch / "file"
    missing = scratch / "missing"
    return {
        "mingshu.ziwei.by_lunar": {"date": "2000-7-17", "time": 2, "gender": "female"},
        "mingshu.ziwei.by_solar": {"date": "2000-8-16", "time": 2, "gender": "female"},
        "mingshu.ziwei.chart": {"birth_date": "2000-8-16", "birth_time": 2, "gender": "female"},
        "mingshu.ziwei.decades": {"chart": CHART},
        "mingshu.ziwei.flowing_star": {"name": "运昌"},
        "mingshu.ziwei.from_birth": {"birth": CHART.birth},
        "mingshu.ziwei.horoscope": {"chart": CHART, "at": "2020-1-1", "time": 3},
        "mingshu.ziwei.months": {"chart": CHART, "year": 2020, "leap": "whole"},
        "mingshu.ziwei.star": {"name": "紫微"},
        "mingshu.ziwei.years": {"chart": CHART, "decade": 1},
        "mingshu.ziwei.zi_wei_branch": {"five_elements_class": 3, "day": 17},
        "mingshu.bazi.arriving": {"natal": NATAL, "incoming": "甲子", "backward": True},
        "mingshu.bazi.chart": {"birth_date": "1990-05-15", "birth_time": "10:30", "gender": "m"},
        "mingshu.bazi.chart_at": {"moment": dt.datetime(1990, 5, 15, 10, 30), "gender": "m"},
        "mingshu.bazi.detail": {"position": "day", "day_master": "庚", "pillar": "庚辰"},
        "mingshu.bazi.equation_of_time": {"utc": dt.datetime(2000, 1, 1)},
        "mingshu.bazi.four_pillars": {"moment": dt.datetime(2000, 1, 1)},
        "mingshu.bazi.from_birth": {"birth": BAZI.birth},
        "mingshu.bazi.is_forward": {"year_stem": "庚", "gender": "male"},
        "mingshu.bazi.ming_gong": {"year_stem": "庚", "month_branch": "巳", "hour_branch": "巳"},
        "mingshu.bazi.moments_of": {"pillars": "庚辰 甲申 丙午 庚寅"},
        "mingshu.bazi.nayin": {"pillar": "甲子"},
        "mingshu.bazi.parse_pillars": {"value": "庚辰 甲申 丙午 庚寅"},
        "mingshu.bazi.shen_gong": {"year_stem": "庚", "month_branch": "巳", "hour_branch": "巳"},
        "mingshu.bazi.stage": {"stem": "甲", "branch": "亥"},
        "mingshu.bazi.star": {"name": "wen_chang"},
        "mingshu.bazi.stars_in": {"year": "庚午", "month": "辛巳", "day": "庚辰", "hour": "辛巳"},
        "mingshu.bazi.tai_xi": {"day": "庚辰"},
        "mingshu.bazi.tai_yuan": {"month": "辛巳"},
        "mingshu.bazi.ten_god": {"day_master": "庚", "stem": "辛"},
        "mingshu.space.check_sql": {"sql": "SELECT 1"},
        "mingshu.space.connect": {"path": missing, "other": None},
        "mingshu.space.find": {"dataset": missing, "expr": "en_guang = tian_gui", "by": "hour"},
        "mingshu.space.find_years": {
            "expr": "en_guang = tian_gui",
            "first_year": 2000,
            "last_year": 2000,
        },
        "mingshu.space.open": {"path": missing},
        "mingshu.space.query": {"path": missing, "sql": "SELECT 1"},
        "mingshu.space.sweep_bazi": {
            "out": a_file,
            "first_year": 2000,
            "last_year": 2000,
            "settings": bazi.DEFAULT,
            "workers": 1,
            "progress": False,
        },
        "mingshu.space.sweep_ziwei": {
            "out": a_file,
            "first_year": 2000,
            "last_year": 2000,
            "settings": ziwei.ZiweiSettings(),
            "workers": 1,
            "progress": False,
            "scheduler": None,
            "backend": "numpy",
        },
        "mingshu.space.claims.check": {"dataset": missing, "claims": []},
        "mingshu.present.annual_to_dict": {"annual": BAZI.annual(2000), "chart": BAZI},
        "mingshu.present.chart_svg": {"chart": CHART, "horoscope": None, "names": "hans"},
        "mingshu.present.chart_to_dict": {"chart": CHART},
        "mingshu.present.to_markdown": {"chart": CHART, "horoscope": None, "lang": "zh-CN"},
        "mingshu.present.horoscope_to_dict": {"horoscope": CHART.horoscope("2020-1-1")},
        "mingshu.present.settings_to_dict": {"settings": ziwei.ZiweiSettings()},
        "mingshu.present.to_json": {"obj": {"a": 1}, "indent": False},
        "mingshu.ziwei.locale.iztro_name": {"thing": CHART.palaces[0].name, "lang": "en-US"},
        "mingshu.ziwei.locale.language": {"value": "zh-TW"},
        "mingshu.ziwei.locale.name": {"thing": CHART.palaces[0].name, "lang": "en-US"},
        "mingshu.library.load": {"root": missing},
        "mingshu.library.render.article_html": {
            "article": LIBRARY.articles[0],
            "library": LIBRARY,
            "link": str,
            "card_url": None,
            "summary_url": "s.webp",
            "helpful": "",
        },
        "mingshu.library.render.index_html": {"library": LIBRARY, "link": str, "stars": str},
        "mingshu.library.render.catalogue_html": {
            "library": LIBRARY,
            "engine": "bazi",
            "link": str,
            "other": "",
            "names": "pinyin",
            "translate": str,
            "lang": "en",
        },
        "mingshu.library.catalogue.catalogue": {"library": LIBRARY, "engine": "bazi"},
        "mingshu.library.build.build_site": {"library": LIBRARY, "out": a_file},
    }


# Arguments that name where a dataset is written: a string there is a real place (it is
# not a wrong type), so only wrong types are tried (the test runs in its own folder anyway).
WRITES = {
    ("mingshu.space.sweep_bazi", "out"),
    ("mingshu.space.sweep_ziwei", "out"),
    ("mingshu.library.build.build_site", "out"),
}

wrong = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.just(2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.complex_numbers(max_magnitude=100),
    st.text(max_size=12),
    st.binary(max_size=6),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.sets(st.integers(), max_size=2),
    st.dates(),
    st.times(),
    st.just(object()),
    st.just(CHART),
    st.just(BAZI),
)


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A folder of this test's own, also the working directory while it runs (a relative
    path a call is given lands here)."""
    folder = tmp_path_factory.mktemp("boundary")
    (folder / "file").write_text("not a dataset", encoding="utf-8")
    here = Path.cwd()
    os.chdir(folder)
    try:
        yield folder
    finally:
        os.chdir(here)


def test_every_public_function_has_good_arguments(scratch: Path) -> None:
    good = good_arguments(scratch)
    assert sorted(good) == sorted(FUNCTIONS)
    for name, kwargs in good.items():
        assert set(kwargs) <= set(inspect.signature(FUNCTIONS[name]).parameters), name


def test_the_good_arguments_are_good(scratch: Path) -> None:
    """Each call answers (the dataset ones name only their missing or plain-file path), so
    an error in the property test below comes from the one argument it changed."""
    for name, kwargs in good_arguments(scratch).items():
        try:
            FUNCTIONS[name](**kwargs)
        except InputError as error:
            assert error.field in ("dataset", "out", "root"), (name, error)


@settings(
    max_examples=1500,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_a_wrong_argument_to_any_public_function_is_an_input_error(
    scratch: Path, data: st.DataObject
) -> None:
    name = data.draw(st.sampled_from(sorted(FUNCTIONS)), label="function")
    kwargs = good_arguments(scratch)[name]
    parameter = data.draw(st.sampled_from(sorted(kwargs)), label="argument")
    values = (
        wrong.filter(lambda v: not isinstance(v, str)) if (name, parameter) in WRITES else wrong
    )
    kwargs = {**kwargs, parameter: data.draw(values, label="value")}
    try:
        FUNCTIONS[name](**kwargs)
    except InputError as error:  # OutOfRangeError is one
        assert error.field and isinstance(error.field, str)
        assert len(error.message) < 1000
    # Any other exception fails the test.


# ----------------------------------------------- the same over the public classes' methods

HOROSCOPE = CHART.horoscope("2020-1-1", 3)
PALACE = CHART.palace("命宫")
STAR = CHART.star("紫微")
WEN_CHANG = bazi.star("wen_chang")

# (object, method name, good arguments); methods taking **changes (replace, with_variants,
# with_bases) are the settings constructors' business (test_api_fuzz), and methods without
# arguments have nothing to get wrong.
METHODS: list[tuple[object, str, dict[str, object]]] = [
    (CHART, "palace", {"which": "命宫"}),
    (CHART, "palace_at", {"branch": "子"}),
    (CHART, "palace_named", {"name": "疾厄"}),
    (CHART, "palace_by_index", {"index": 3}),
    (CHART, "star", {"name": "紫微"}),
    (CHART, "palace_of", {"name": "紫微"}),
    (CHART, "horoscope", {"at": "2020-1-1", "time": 3}),
    (CHART, "surrounded", {"which": "命宫"}),
    (CHART, "flanking", {"which": "命宫"}),
    (CHART, "flies", {"which": "命宫"}),
    (CHART, "self_mutagens", {"which": "命宫"}),
    (CHART, "patterns", {"variant": "x_iztro"}),
    (HOROSCOPE, "palace", {"name": "命宫", "scope": "yearly"}),
    (HOROSCOPE, "surrounded", {"name": "命宫", "scope": "yearly"}),
    (HOROSCOPE, "has_stars", {"name": "命宫", "scope": "yearly", "stars": "运昌"}),
    (HOROSCOPE, "not_have_stars", {"name": "命宫", "scope": "yearly", "stars": "运昌"}),
    (HOROSCOPE, "has_one_of_stars", {"name": "命宫", "scope": "yearly", "stars": "运昌"}),
    (HOROSCOPE, "has_mutagen", {"name": "命宫", "scope": "yearly", "mutagen": "忌"}),
    (HOROSCOPE, "patterns", {"variant": "yearly"}),
    (PALACE, "has", {"stars": "紫微"}),
    (PALACE, "not_have", {"stars": "紫微"}),
    (PALACE, "has_one_of", {"stars": ["紫微", "天府"]}),
    (PALACE, "has_mutagen", {"mutagen": "忌"}),
    (PALACE, "not_have_mutagen", {"mutagen": "忌"}),
    (PALACE, "is_empty", {"exclude": ["紫微"]}),
    (STAR, "with_mutagen", {"mutagens": "忌"}),
    (STAR, "with_brightness", {"grades": "庙"}),
    (CHART.surrounded("命宫"), "have", {"stars": "紫微"}),
    (CHART.surrounded("命宫"), "not_have", {"stars": "紫微"}),
    (CHART.surrounded("命宫"), "have_one_of", {"stars": "紫微"}),
    (CHART.surrounded("命宫"), "has_mutagen", {"mutagen": "忌"}),
    (CHART.surrounded("命宫"), "not_have_mutagen", {"mutagen": "忌"}),
    (CHART.flanking("命宫"), "have", {"stars": "紫微"}),
    (CHART.flanking("命宫"), "not_have", {"stars": "紫微"}),
    (CHART.flanking("命宫"), "have_one_of", {"stars": "紫微"}),
    (CHART.flanking("命宫"), "has_mutagen", {"mutagen": "忌"}),
    (CHART.flanking("命宫"), "not_have_mutagen", {"mutagen": "忌"}),
    (CHART.flies("命宫"), "to", {"palace": "财帛", "mutagens": "忌"}),
    (CHART.flies("命宫"), "one_of_to", {"palace": "财帛", "mutagens": "忌"}),
    (CHART.flies("命宫"), "not_to", {"palace": "财帛", "mutagens": "忌"}),
    (CHART.flies("命宫"), "self_mutaged", {"mutagens": "忌"}),
    (CHART.flies("命宫"), "self_mutaged_one_of", {"mutagens": "忌"}),
    (CHART.flies("命宫"), "not_self_mutaged", {"mutagens": "忌"}),
    (ziwei.ZiweiSettings, "from_iztro", {"config": {}, "fix_leap": True, "astro_type": "earth"}),
    (BAZI, "detail", {"position": "day"}),
    (BAZI, "star", {"name": "wen_chang"}),
    (BAZI, "annual", {"year": 2000}),
    (BAZI, "arriving", {"pillar": "甲子"}),
    (BAZI.luck, "annual", {"year": 2000}),
    (BAZI.luck, "annuals", {"first": 2000, "count": 3}),
    (bazi.DEFAULT, "variant_of", {"star_key": "wen_chang"}),
    (bazi.DEFAULT, "bases_of", {"star_key": "wen_chang"}),
    (WEN_CHANG, "variant", {"variant_id": WEN_CHANG.default}),
    (Birth, "solar", {"date": "2000-1-1", "time": "10:30", "gender": "m", "tz": "Asia/Tokyo"}),
    (Birth, "lunar", {"date": "2000-1-1", "time": 3, "gender": "m", "leap": False}),
    (Birth, "of", {"date": "2000-1-1", "time": 3, "gender": "m", "lunar": True}),
    (Birth, "from_moment", {"m": BAZI.moment, "gender": "m", "lunar": None}),
    (LIBRARY, "get", {"article_id": "ZW-AUX-17"}),
    (LIBRARY, "exists", {"article_id": "ZW-AUX-17"}),
    (LIBRARY, "title_of", {"article_id": "ZW-AUX-17"}),
]
NO_ARGUMENTS = {"as_dict", "si_ling", "start_by_method", "describe"}
BY_KEYWORDS = {"replace", "with_variants", "with_bases"}


def test_every_public_method_is_listed() -> None:
    listed = {(type(o) if not isinstance(o, type) else o, m) for o, m, _ in METHODS}
    for cls in {c for c, _ in listed}:
        methods = {
            name
            for name, value in vars(cls).items()
            if not name.startswith("_")
            and (inspect.isfunction(value) or isinstance(value, classmethod | staticmethod))
        }
        missing = methods - {m for c, m in listed if c is cls} - NO_ARGUMENTS - BY_KEYWORDS
        assert not missing, (cls.__name__, missing)


def test_the_good_method_arguments_are_good() -> None:
    for owner, method, kwargs in METHODS:
        getattr(owner, method)(**kwargs)


@settings(max_examples=1500, deadline=None)
@given(data=st.data())
def test_a_wrong_argument_to_any_public_method_is_an_input_error(data: st.DataObject) -> None:
    owner, method, kwargs = data.draw(st.sampled_from(METHODS), label="method")
    parameter = data.draw(st.sampled_from(sorted(kwargs)), label="argument")
    kwargs = {**kwargs, parameter: data.draw(wrong, label="value")}
    try:
        getattr(owner, method)(**kwargs)
    except InputError as error:
        assert error.field and isinstance(error.field, str)
        assert len(error.message) < 1000
