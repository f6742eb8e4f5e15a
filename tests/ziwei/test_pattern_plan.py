"""The first test of every pattern reading at once (ziwei/pattern_plan.py).

The plan may only drop readings that cannot hold: on random charts under every reading,
each reading whose full test holds is among those the plan returns.  On hand-made
positions each kind of condition answers as its definition says (stars in a palace, in its
三方四正, beside it, none there, a palace on given branches, stars on named branches, their
brightness).  That the detector's hits are the same
as a slow reference's is tests/ziwei/test_patterns_reference.py; that they equal the
sweep's own evaluator on every row of a year is tests/space/test_ziwei_patterns.py.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from mingshu.ziwei import Birth, from_birth
from mingshu.ziwei.pattern_plan import plan
from mingshu.ziwei.patterns import _INDEX, _ROLE_STEPS, _WHEN, VARIANTS, _planned, _View
from mingshu.ziwei.stars import Brightness

INDEX = {"a": 0, "b": 1, "c": 2}
STEPS = {"life": 0, "wealth": 4, "career": 8, "travel": 6}


def words(**where: int) -> list[int]:
    """The branch of each star (-1 for a star not named: nowhere)."""
    out = [-1] * len(INDEX)
    for key, branch in where.items():
        out[INDEX[key]] = branch
    return out


def holds(
    conds: Sequence[Mapping[str, Any]],
    p: list[int],
    life: int,
    body: int = 0,
    grades: Sequence[Sequence[int | None]] = (),
) -> bool:
    return plan([conds], INDEX, STEPS)(p, life, body, None, grades) == [0]


def test_stars_in_a_palace() -> None:
    both = [{"in": "life", "stars": ["a", "b"]}]
    assert holds(both, words(a=3, b=3), life=3)
    assert not holds(both, words(a=3, b=4), life=3)
    assert not holds(both, words(a=3, b=3), life=4)
    # The wealth palace is four branches on from the Life palace.
    assert holds([{"in": "wealth", "stars": ["c"]}], words(c=1), life=9)
    assert holds([{"in": "body", "stars": ["c"]}], words(c=5), life=0, body=5)
    assert not holds([{"in": "body", "stars": ["c"]}], words(c=5), life=5, body=0)


def test_any_and_none() -> None:
    some = [{"in": "life", "any": ["a", "b"]}]
    assert holds(some, words(b=2, c=2), life=2)
    assert not holds(some, words(a=1, b=3, c=2), life=2)
    none = [{"in": "life", "none": ["a", "b"]}]
    assert holds(none, words(a=1, b=3, c=2), life=2)
    assert not holds(none, words(a=2), life=2)


def test_the_four_palaces_and_the_two_sides() -> None:
    meets = [{"meets": "life", "stars": ["a", "b", "c"]}]
    # Life on 子: its 三方四正 are 子, 辰 (4), 午 (6), 申 (8).
    assert holds(meets, words(a=0, b=4, c=8), life=0)
    assert not holds(meets, words(a=0, b=4, c=7), life=0)
    assert holds([{"meets": "life", "none": ["c"]}], words(c=7), life=0)
    pair = [{"flank": "life", "pair": ["a", "b"]}]
    assert holds(pair, words(a=11, b=1), life=0)
    assert holds(pair, words(a=1, b=11), life=0)
    assert not holds(pair, words(a=11, b=2), life=0)
    assert not holds(pair, words(a=1, b=1), life=0)  # both on one side: no 夹
    each = [{"flank": "life", "each": ["a", "b"]}]
    assert holds(each, words(a=4, b=6), life=5)
    assert not holds(each, words(a=4, b=4), life=5)


def test_branches_roles_and_either() -> None:
    on = [{"palace": "life", "branch": ["wu", "wei"]}]
    assert holds(on, words(), life=6)
    assert holds(on, words(), life=7)
    assert not holds(on, words(), life=5)
    same = [{"palace": "body", "role": "career"}]
    assert holds(same, words(), life=1, body=9)
    assert not holds(same, words(), life=1, body=8)
    either = [
        {"either": [[{"in": "life", "stars": ["a"]}], [{"in": "travel", "stars": ["b"]}]]},
        {"in": "life", "none": ["c"]},
    ]
    assert holds(either, words(a=2), life=2)
    assert holds(either, words(b=8), life=2)
    assert not holds(either, words(b=8, c=2), life=2)
    assert not holds(either, words(a=3, b=9), life=2)


def test_named_branches_and_brightness() -> None:
    at = [{"at": ["zi", "wu"], "stars": ["a", "b"]}]
    assert holds(at, words(a=0, b=6), life=3)
    assert not holds(at, words(a=0, b=5), life=3)
    assert not holds(at, words(a=0), life=3)  # b nowhere
    # a is 庙 on 子 and 陷 on 午; b has no grade (None) anywhere.
    row = [None] * 12
    row[0], row[6] = int(Brightness.MIAO), int(Brightness.XIAN)
    grades = [row, [None] * 12, [None] * 12]
    bright = [{"bright": ["a"], "grades": ["miao", "wang"]}]
    assert holds(bright, words(a=0), life=3, grades=grades)
    assert not holds(bright, words(a=6), life=3, grades=grades)
    assert not holds([{"bright": ["b"], "grades": ["miao"]}], words(b=0), life=3, grades=grades)
    graded = [{"in": "life", "any": ["a", "b"], "grades": ["xian"]}]
    assert holds(graded, words(a=6), life=6, grades=grades)
    assert not holds(graded, words(a=0, b=0), life=0, grades=grades)


def test_what_the_positions_cannot_tell_is_left_to_the_test() -> None:
    # A palace's exact major stars: always kept.
    assert holds([{"in": "life", "majors": ["a"]}], words(), life=0)


def test_results_in_order() -> None:
    readings = [
        [{"in": "life", "stars": ["a"]}],
        [{"in": "life", "stars": ["b"]}],
        [{"in": "life", "stars": ["c"]}],
        [],
    ]
    assert plan(readings, INDEX, STEPS)(words(a=0, c=0, b=1), 0, 0) == [0, 2, 3]


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_plan_keeps_every_reading_that_holds(variant: str) -> None:
    rng = random.Random(29)
    first, last = dt.date(1900, 1, 31).toordinal(), dt.date(2100, 12, 31).toordinal()
    entries = _planned(variant)[1]
    run = plan([_WHEN[p.key, used] for p, used, _t, _b in entries], _INDEX, dict(_ROLE_STEPS))
    kept = held = 0
    for _ in range(800):
        chart = from_birth(
            Birth.solar(
                dt.date.fromordinal(rng.randint(first, last)),
                rng.randint(0, 12),
                rng.choice(("male", "female")),
            )
        )
        view = _View(chart)
        numbers = [[None if g is None else int(g) for g in row] for row in view.grades]
        passing = run(view.pos, view.life, view.roles["body"], None, numbers)
        for k, (pattern, used, test, _breaks) in enumerate(entries):
            if test(view) is not None:
                assert k in passing, (chart.birth, pattern.key, used)
                held += 1
        kept += len(passing)
    assert held > 800  # the charts do form patterns
    assert kept < 800 * len(entries) / 4  # and the plan leaves most readings out
