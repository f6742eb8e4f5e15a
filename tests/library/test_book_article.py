"""ZW-BK-01 (the book beside the engine): its tables and problem kinds, against the book.

The expected values are worked from the verses of 紫微斗数全书 卷二 by hand (and, for the
default school, from iztro's rules as docs/book-conformance.md states them), not read from
the code under test.  A planted wrong cell or answer in the article must fail the check.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from mingshu.errors import InputError
from mingshu.library import engine as E
from mingshu.library import load
from mingshu.library import problems as P
from mingshu.library import tables as T
from mingshu.library.check import check
from mingshu.library.model import _ROOT
from mingshu.space.claims import Claim
from mingshu.space.claims import check as run_claims

ARTICLE = "ZW-BK-01"


@pytest.fixture()
def copy(tmp_path: Path) -> Path:
    folder = tmp_path / "articles"
    shutil.copytree(_ROOT, folder)
    return folder


def _edit(folder: Path, old: str, new: str) -> None:
    path = folder / f"{ARTICLE}.md"
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_the_summary_partitions_the_rules_of_each_school() -> None:
    """Every rule is in exactly one column: agrees everywhere, departs where the verse is
    clear, or differs only where the text is unclear."""
    record = json.loads((_ROOT / E.CONFORMANCE_FILE).read_text(encoding="utf-8"))
    t = T.table("conformance_summary", {})
    assert [r[0] for r in t.rows] == list(E.SCHOOLS)
    for school, row in zip(E.SCHOOLS, t.rows, strict=True):
        rules, agree, depart, unclear = (int(c) for c in row[1:])
        assert rules == len(record["schools"][school]) > 0
        assert agree + depart + unclear == rules
    # The 全书 school exists to close the clear departures: none is left.
    assert t.rows[1][3] == "0" and int(t.rows[0][3]) > 0


def test_the_departures_are_the_rules_the_book_states_otherwise() -> None:
    """The rules on which iztro departs from a clear verse (issue 14's list)."""
    t = T.table("conformance_rules", {"school": "iztro", "show": "departures"})
    titles = {r[0] for r in t.rows}
    for title in (
        "安身命例: 闰月",
        "安长生…",
        "安天德月德解神诀: 月德",
        "安旬中空亡诀",
        "安天德月德解神诀: the star shown as 解神",
        "安左辅右弼星诀: 闰月",
        "安天魁天钺诀",
    ):
        assert title in titles
    # Counted as the book counts it (one item on two palaces), 截路空亡 agrees.
    assert "安截路空亡诀" not in titles
    yue_de = next(r for r in t.rows if r[0] == "安天德月德解神诀: 月德")
    assert yue_de[2:4] == ("12", "12")  # from 子 and from 巳 never meet
    assert not T.table("conformance_rules", {"school": "quanshu", "show": "departures"}).rows
    with pytest.raises(InputError) as e:
        T.table("conformance_rules", {"school": "zhongzhou"})
    assert e.value.field == "school"
    with pytest.raises(InputError) as e:
        T.table("conformance_rules", {"show": "everything"})
    assert e.value.field == "show"


def test_one_birth_under_both_schools_follows_the_verses() -> None:
    """1900-09-24 (庚子, a yang year; leap 8th month, day 1, 子 hour, male): the book's Life
    palace is 戌 (the leap month counts as the 9th), iztro's 酉; 月德 from 子 counted to 子 is
    子, iztro's from 巳 is 巳."""
    rows = T.table(
        "schools",
        {
            "birth": {"lunar": "1900-08-01", "hour": "rat", "gender": "male", "leap": True},
            "rows": [{"label": "Life", "what": "life"}, {"label": "Yue De", "stars": ["yue_de"]}],
        },
    ).rows
    assert rows == (("Life", "Rooster", "Dog"), ("Yue De", "Yue De Snake", "Yue De Rat"))


def test_chang_sheng_runs_by_gender_in_the_book() -> None:
    """A man born in a yin year (乙丑 1985): 「男命顺数」 forward in the book; 阴男 backward
    in iztro.  In a yang year (甲子 1984) both run forward."""
    row = [{"label": "CS", "what": "chang_sheng"}]
    yin = T.table("schools", {"birth": {"lunar": "1985-01-01", "gender": "male"}, "rows": row})
    yang = T.table("schools", {"birth": {"lunar": "1984-01-01", "gender": "male"}, "rows": row})
    assert [c.split(", ")[1] for c in yin.rows[0][1:]] == ["back", "forward"]
    assert [c.split(", ")[1] for c in yang.rows[0][1:]] == ["forward", "forward"]
    with pytest.raises(InputError) as e:
        T.table("schools", {"rows": row})
    assert e.value.field == "birth"


def test_the_problem_kinds() -> None:
    # 2020 leap 4th month, day 3, 午 hour: the book works month 5 (寅 + 4 = 午), back 6 → 子;
    # iztro's split keeps day 3 in month 4 (巳), back 6 → 亥.
    q = {"lunar": "2020-04-03", "leap": True, "hour": "horse", "gender": "male"}
    assert P.problem_answer({"ask": "school_life_palace", "school": "quanshu", **q}) == "Rat"
    assert P.problem_answer({"ask": "school_life_palace", "school": "iztro", **q}) == "Pig"
    # 月德 on 辰: the book's count puts it on the year branch (a 辰 year); iztro's, from 巳,
    # five on (a 亥 year).
    ask = {"ask": "school_year_branches", "star": "yue_de", "branch": "dragon"}
    assert P.problem_answer({**ask, "school": "quanshu"}) == "Dragon"
    assert P.problem_answer({**ask, "school": "iztro"}) == "Pig"
    assert P.problem_answer({**ask, "star": "dou_jun", "school": "iztro"}) == "none"
    with pytest.raises(InputError) as e:
        P.problem_answer({**ask, "school": "daoist"})
    assert e.value.field == "school"
    with pytest.raises(InputError) as e:
        P.problem_answer({"ask": "school_life_palace", "school": "quanshu"})
    assert e.value.field == "engine"


def test_the_book_count_of_yue_de_meets_the_engine_nowhere(space: Path) -> None:
    """The book's 月德 (from 子: on the year branch itself) against the swept engine: no row
    has it there, and the book's statement fails on every row."""
    never = Claim(
        key="engine_yue_de_never_on_the_year_branch",
        statement="The engine's Yue De is never on the year branch",
        source="紫微斗数全书 卷二 L80, against the engine",
        sql="SELECT count(*) FROM charts WHERE yue_de = year_pillar % 12",
    )
    book = replace(
        never,
        key="engine_yue_de_on_the_year_branch",
        statement="The engine's Yue De is on the year branch, as the book counts it",
        sql="SELECT count(*) FROM charts WHERE yue_de <> year_pillar % 12",
    )
    held, failed = run_claims(space / "leap-split", [never, book])
    assert held.rows and held.counterexamples == 0
    assert failed.counterexamples == failed.rows == held.rows


@pytest.mark.slow  # a whole library check with the book's conformance run
def test_planted_wrong_cell_fails(copy: Path, sources: Path) -> None:
    _edit(copy, '[iztro, "52", "33", "16", "3"]', '[iztro, "52", "33", "15", "3"]')
    errors = check(load(copy), sources=sources, only=[ARTICLE]).errors
    assert any(
        f"{ARTICLE}" in e and "table differs from the engine: row 1 column 4" in e for e in errors
    ), errors


@pytest.mark.slow  # a whole library check with the book's conformance run
def test_planted_wrong_school_cell_fails(copy: Path, sources: Path) -> None:
    _edit(copy, '["Life palace", Rabbit, Dragon]', '["Life palace", Rabbit, Rabbit]')
    errors = check(load(copy), sources=sources, only=[ARTICLE]).errors
    assert any("row 1 column 3: stated 'Rabbit', engine 'Dragon'" in e for e in errors), errors


@pytest.mark.slow  # a whole library check with the book's conformance run
def test_planted_wrong_answer_fails(copy: Path, sources: Path) -> None:
    _edit(copy, 'answer: "Dragon"', 'answer: "Pig"')
    errors = check(load(copy), sources=sources, only=[ARTICLE]).errors
    assert any("prints 'Pig', the engine says 'Dragon'" in e for e in errors), errors


def test_the_school_ring_draws_the_book_and_the_engine() -> None:
    """癸卯 (lunar 2023, a yin year): 「甲午旬中空辰巳」 voids Dragon and Snake in the book;
    the engine marks only the yin one.  The 1900 leap-month Life palace: Dog and Rooster."""
    from mingshu.library.svg import diagram

    birth = {"lunar": "2023-02-01", "hour": "rat", "gender": "male", "leap": True}
    svg, alt = diagram("school_ring", {"birth": birth, "stars": ["xun_kong", "xun_kong_second"]})
    assert svg.startswith("<svg") and "both schools" in svg  # Snake is on both
    assert alt.endswith("iztro (default) puts it on Snake; quanshu (the book) puts it on "
                        "Dragon and Snake.")  # fmt: skip
    leap = {"lunar": "1900-08-01", "hour": "rat", "gender": "male", "leap": True}
    _svg, alt = diagram("school_ring", {"birth": leap})
    assert "iztro (default) puts it on Rooster; quanshu (the book) puts it on Dog" in alt
    with pytest.raises(InputError) as e:
        diagram("school_ring", {"stars": ["yue_de"]})
    assert e.value.field == "birth"
