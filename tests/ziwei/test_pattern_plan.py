"""The first test of every pattern reading at once (ziwei/pattern_plan.py).

The plan may only drop readings that cannot hold: on random charts under every reading,
each reading whose full test holds is among those the plan returns.  On hand-made words
each kind of condition answers as its definition says (stars in a palace, in its 三方四正,
beside it, none there, a palace on given branches).  That the detector's hits are the same
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
from mingshu.ziwei.patterns import VARIANTS, _planned, _View

BITS = {"a": 1, "b": 2, "c": 4}
STEPS = {"life": 0, "wealth": 4, "career": 8, "travel": 6}


def words(**where: int) -> list[int]:
    """Twelve branch words with each named star on its branch."""
    out = [0] * 12
    for key, branch in where.items():
        out[branch] |= BITS[key]
    return out


def holds(conds: Sequence[Mapping[str, Any]], w: list[int], life: int, body: int = 0) -> bool:
    return plan([conds], BITS, STEPS)(w, life, body) == [0]


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


def test_what_the_bits_cannot_tell_is_left_to_the_test() -> None:
    # Brightness, a palace's exact major stars, stars on named branches: always kept.
    assert holds([{"bright": ["a"], "grades": ["miao"]}], words(), life=0)
    assert holds([{"in": "life", "majors": ["a"]}], words(), life=0)
    assert holds([{"at": ["zi"], "stars": ["a"]}], words(a=5), life=0)


def test_results_in_order() -> None:
    readings = [
        [{"in": "life", "stars": ["a"]}],
        [{"in": "life", "stars": ["b"]}],
        [{"in": "life", "stars": ["c"]}],
        [],
    ]
    assert plan(readings, BITS, STEPS)(words(a=0, c=0, b=1), 0, 0) == [0, 2, 3]


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_plan_keeps_every_reading_that_holds(variant: str) -> None:
    rng = random.Random(29)
    first, last = dt.date(1900, 1, 31).toordinal(), dt.date(2100, 12, 31).toordinal()
    run, entries, *_ = _planned(variant)
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
        passing = run(view.by_branch, view.life, view.roles["body"])
        for k, (pattern, used, test, _breaks) in enumerate(entries):
            if test(view) is not None:
                assert k in passing, (chart.birth, pattern.key, used)
                held += 1
        kept += len(passing)
    assert held > 800  # the charts do form patterns
    assert kept < 800 * len(entries) / 4  # and the plan leaves most readings out
