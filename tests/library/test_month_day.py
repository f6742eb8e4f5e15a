"""The tables and problems of ZW-AUX-12/13/15/16, against the books' counting rules worked
out by hand here (not by the engine), and a planted wrong cell or answer in each new kind
fails the check."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from animals import ANIMALS
from mingshu.errors import InputError
from mingshu.library import load
from mingshu.library import problems as P
from mingshu.library import tables as T
from mingshu.library.check import check
from mingshu.library.model import _ROOT


def san_tai(month: int, day: int) -> str:
    """Quan Shu juan 2: Zuo Fu has month 1 on Dragon (4), forward; San Tai has day 1 on Zuo
    Fu, forward to the birth day."""
    return ANIMALS[(4 + (month - 1) + (day - 1)) % 12]


def ba_zuo(month: int, day: int) -> str:
    """You Bi has month 1 on Dog (10), back; Ba Zuo has day 1 on You Bi, back to the day."""
    return ANIMALS[(10 - (month - 1) - (day - 1)) % 12]


@pytest.mark.parametrize(("star", "rule"), [("san_tai", san_tai), ("ba_zuo", ba_zuo)])
def test_month_day_block_follows_the_verse(star: str, rule: object) -> None:
    assert callable(rule)
    t = T.table("month_day", {"star": star, "months": [1, 12], "days": [1, 30], "sum": 13})
    assert t.columns == ("Month", *(f"Day {d}" for d in range(1, 31)))
    for m, row in enumerate(t.rows, start=1):
        assert row == (f"Month {m}", *(rule(m, d) for d in range(1, 31)))
    assert t.marked == {(m - 1, 13 - m) for m in range(1, 13)}
    assert t.mark_rule == "month + day = 13"


@pytest.mark.parametrize(("star", "rule"), [("san_tai", san_tai), ("ba_zuo", ba_zuo)])
def test_month_day_remainder_table(star: str, rule: object) -> None:
    assert callable(rule)
    t = T.table("month_day_remainder", {"star": star})
    by_remainder = {int(r[i]): r[i + 1] for r in t.rows for i in (0, 2)}
    # month 6 with day r + 6 has remainder r; any month and day would do.
    assert by_remainder == {r: rule(6, r + 6) for r in range(12)}


def test_year_hour_table_puts_both_rules_side_by_side() -> None:
    # docs/iztro-rules.md §3.3.5: 天空 = year branch + 1; the 天空地劫 verse: 地空 = 亥 − hour.
    t = T.table("year_hour", {"by_year": ["tian_kong"], "by_hour": ["di_kong", "di_jie"]})
    assert t.columns == ("Branch", "Tian Kong (year)", "Di Kong (hour)", "Di Jie (hour)")
    assert t.rows == tuple(
        (ANIMALS[b], ANIMALS[(b + 1) % 12], ANIMALS[(11 - b) % 12], ANIMALS[(11 + b) % 12])
        for b in range(12)
    )


def test_year_problems() -> None:
    for b in range(12):
        got = P.problem_answer({"ask": "year_star", "star": "tian_kong", "year": ANIMALS[b]})
        assert got == ANIMALS[(b + 1) % 12]
        back = P.problem_answer({"ask": "year_of", "star": "tian_kong", "branch": ANIMALS[b]})
        assert back == f"{ANIMALS[(b - 1) % 12]} year"


def test_days_of_lists_every_day_of_a_thirty_day_month() -> None:
    """Every day 1–30 that puts San Tai on the branch, then every day whose late Rat hour
    does: under the default day change a late-Rat birth is charted as the next day (day 30's
    as day 31, the count running on past the month's end), so it lands one branch on."""
    # Month 1: San Tai on Dragon on days 1, 13 and 25 (late Rat: 12 and 24); month 3: on
    # Rat on days 7 and 19 (late Rat: 6, 18 and 30).
    ask = {"ask": "days_of", "star": "san_tai"}
    assert (
        P.problem_answer({**ask, "month": 1, "branch": "dragon"})
        == "1, 13 or 25, or the late Rat hour of 12 or 24"
    )
    assert (
        P.problem_answer({**ask, "month": 3, "branch": "rat"})
        == "7 or 19, or the late Rat hour of 6, 18 or 30"
    )
    for month in range(1, 13):
        for b in range(12):
            days = [d for d in range(1, 31) if san_tai(month, d) == ANIMALS[b]]
            late = [d for d in range(1, 31) if san_tai(month, d + 1) == ANIMALS[b]]
            got = P.solve({**ask, "month": month, "branch": ANIMALS[b]})
            assert got.solutions == (
                *map(str, days),
                *(f"the late Rat hour of {d}" for d in late),
            )


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"ask": "days_of", "star": "san_tai", "branch": "rat"}, "engine"),
        ({"ask": "year_star", "star": "tian_kong", "year": "cat"}, "year"),
        ({"ask": "year_of", "star": "no_such_star", "branch": "rat"}, "star"),
        ({"ask": "days_of", "star": "san_tai", "month": 13, "branch": "rat"}, "month"),
    ],
)
def test_bad_queries_name_the_field(query: dict[str, object], field: str) -> None:
    with pytest.raises(InputError) as e:
        P.problem_answer(query)
    assert e.value.field == field


@pytest.fixture()
def copy(tmp_path: Path) -> Path:
    folder = tmp_path / "articles"
    shutil.copytree(_ROOT, folder)
    return folder


@pytest.mark.parametrize(
    ("article", "old", "new", "message"),
    [
        (
            "ZW-AUX-15",
            "[Month 2, Snake, Horse, Goat, Monkey]",
            "[Month 2, Snake, Snake, Goat, Monkey]",
            "table differs from the engine: row 2 column 3",
        ),
        (
            "ZW-AUX-16",
            '["3", Rooster, "9", Rabbit]',
            '["3", Rooster, "9", Tiger]',
            "table differs from the engine: row 4 column 4",
        ),
        (
            "ZW-AUX-13",
            "[Snake, Horse, Horse]",
            "[Snake, Horse, Goat]",
            "table differs from the engine: row 6 column 3",
        ),
        (
            "ZW-AUX-15",
            'answer: "7 or 19, or the late Rat hour of 6, 18 or 30"',
            'answer: "7 or 19"',
            "prints '7 or 19', the engine says '7 or 19, or the late Rat hour of 6, 18 or 30'"
            " (it names 2 of the engine's 5 answers)",
        ),
        (
            "ZW-AUX-13",
            'answer: "Pig year"',
            'answer: "Rat year"',
            "prints 'Rat year', the engine says 'Pig year'",
        ),
    ],
)
def test_planted_errors_in_the_new_kinds_fail(
    copy: Path, space: Path, sources: Path, article: str, old: str, new: str, message: str
) -> None:
    path = copy / f"{article}.md"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    errors = check(load(copy), space=space, sources=sources, only=[article]).errors
    assert any(message in e for e in errors), errors


def test_mirror_ring_draws_the_pairs_and_their_line() -> None:
    from mingshu.library.svg import diagram

    svg, alt = diagram(
        "mirror_ring",
        {"pairs": [["zuo_fu", "you_bi"], ["san_tai", "ba_zuo"]], "month": 3, "day": 10},
    )
    # Month 3: Zuo Fu on Horse, You Bi on Monkey; day 10: San Tai on Rabbit, Ba Zuo on Pig.
    for text in ("Zuo Fu on Horse", "You Bi on Monkey", "San Tai on Rabbit", "Ba Zuo on Pig"):
        assert text in alt
    assert "add up to 2 (mod 12)" in alt and "through Ox and Goat" in alt
    assert svg.startswith("<svg") and "stroke-dasharray" in svg
    _, alt = diagram("mirror_ring", {"pairs": [["di_jie", "di_kong"]], "hour": "ox"})
    assert "Di Jie on Rat and Di Kong on Dog" in alt and "through Snake and Pig" in alt
    assert "month" not in alt


def test_mirror_ring_refuses_pairs_that_do_not_share_a_line() -> None:
    from mingshu.library.svg import diagram

    with pytest.raises(InputError) as e:
        diagram("mirror_ring", {"pairs": [["san_tai", "ba_zuo"], ["di_jie", "di_kong"]]})
    assert e.value.field == "pairs"
