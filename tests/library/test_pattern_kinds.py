"""The pattern (格局) kinds (pattern_group, pattern_chart, pattern_of_birth, pattern_hours)
and the claims' ``{pattern:KEY}`` term: counts read from the shipped record file itself,
births pinned by tools/pattern_births.py (tests/ziwei/pattern_births.toml), indices from a
swept dataset's own metadata; bad parameters are InputErrors."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from mingshu.errors import InputError
from mingshu.library import problems as P
from mingshu.library import tables as T
from mingshu.library.claims import _terms

ROOT = Path(__file__).resolve().parents[2]
RECORD = json.loads(
    (ROOT / "src/mingshu/ziwei/data/pattern_counts.json").read_text(encoding="utf-8")
)
BIRTHS = tomllib.loads((ROOT / "tests/ziwei/pattern_births.toml").read_text(encoding="utf-8"))
HOURS = ["Rat", "Ox", "Tiger", "Rabbit", "Dragon", "Snake"]
HOURS += ["Horse", "Goat", "Monkey", "Rooster", "Dog", "Pig"]


def test_pattern_group_prints_the_records_counts() -> None:
    table = T.table("pattern_group", {"group": "fu"})
    rows = {r[0].split()[0]: r for r in table.rows}
    # 卷一 定富局's six names (juan1.md lines 398-403) are all in the group
    assert {"财荫夹印", "日月夹财", "财禄夹马", "荫印拱身", "日月照璧", "金灿光辉"} <= set(rows)
    jin = rows["金灿光辉"]
    counts = RECORD["patterns"]["jin_can_guang_hui"]
    verse = "「金灿光辉 太阳单守，命在午宫是也。」 juan 1, line 403"  # juan1.md line 403
    assert jin[1:4] == ("book", verse, f"{counts['formed']:,}")
    assert jin[5] == f"{counts['broken']:,}"
    assert rows["财荫夹印"][3:5] == ("0", "never")


def test_pattern_group_lists_limits_patterns_as_not_natal() -> None:
    rows = T.table("pattern_group", {"group": "za"}).rows
    verse = "「风云际会 身命虽弱二限逢禄马是也。」 juan 1, line 448"  # juan1.md line 448
    assert ("风云际会 Feng Yun Ji Hui", "limits", verse, "not natal", "—", "—") in rows


@pytest.mark.parametrize("key", ["jin_can_guang_hui", "qi_sha_chao_dou", "ri_yue_jia_cai"])
def test_a_pinned_birth_forms_its_pattern(key: str) -> None:
    date, index = BIRTHS[key]["forms"]
    birth = {"date": date, "time": index, "gender": "female"}
    row = T.table("pattern_chart", {"birth": birth, "patterns": [key]}).rows[0]
    assert row[1] != "not formed"
    assert key.replace("_", " ").title() in P.problem_answer(
        {"ask": "pattern_of_birth", "birth": birth}
    )
    hours = P.solve({"ask": "pattern_hours", "pattern": key, "date": date, "gender": "female"})
    assert HOURS[index] in hours.solutions


def test_a_birth_that_misses_reads_not_formed() -> None:
    date, index = BIRTHS["jin_can_guang_hui"]["misses_0"]
    birth = {"date": date, "time": index, "gender": "female"}
    row = T.table("pattern_chart", {"birth": birth, "patterns": ["jin_can_guang_hui"]}).rows[0]
    assert row[1:] == ("not formed", "", "")


def test_pattern_term_is_the_datasets_index(space: Path) -> None:
    meta = json.loads((space / "leap-split" / "_mingshu.json").read_text(encoding="utf-8"))
    index = {v["key"]: int(k) for k, v in meta["patterns"].items()}
    for key in ("jin_can_guang_hui", "sha_po_lang", "yang_huo_xia_ge"):
        assert _terms("{pattern:" + key + "}") == str(index[key])


@pytest.mark.parametrize(
    ("run", "field"),
    [
        (lambda: T.table("pattern_group", {"group": "rich"}), "group"),
        (lambda: T.table("pattern_chart", {"birth": {}, "patterns": []}), "birth"),
        (
            lambda: T.table(
                "pattern_chart",
                {"birth": {"date": "1990-01-12"}, "patterns": ["no_such_pattern"]},
            ),
            "pattern",
        ),
        (lambda: _terms("{pattern:feng_yun_ji_hui}"), "claims"),
    ],
)
def test_bad_parameters_are_input_errors(run: object, field: str) -> None:
    with pytest.raises(InputError) as e:
        run()  # type: ignore[operator]
    assert e.value.field == field


def _formed(keys: list[str]) -> dict[str, int]:
    return {k: RECORD["patterns"][k]["formed"] for k in keys}


def test_pattern_rank_reads_the_record() -> None:
    from mingshu.library.claim_checks import run_check

    every = _formed(list(RECORD["patterns"]))
    commonest = max(every, key=every.__getitem__)
    rarest = min((k for k in every if every[k]), key=every.__getitem__)
    assert run_check("pattern_rank", {"key": commonest, "rank": "commonest"}) == (
        0,
        len(every) - 1,
    )
    assert run_check("pattern_rank", {"key": rarest, "rank": "rarest"})[0] == 0
    # a pattern in the middle is beaten by some and beats some
    assert run_check("pattern_rank", {"key": "jin_can_guang_hui", "rank": "commonest"})[0] > 0
    assert run_check("pattern_rank", {"key": "jin_can_guang_hui", "rank": "rarest"})[0] > 0


def test_pattern_broken_share_reads_the_record() -> None:
    from mingshu.library.claim_checks import run_check

    c = RECORD["patterns"]["jin_can_guang_hui"]
    share = c["broken"] / c["formed"]
    below, above = share - 0.01, share + 0.01
    assert run_check("pattern_broken_share", {"key": "jin_can_guang_hui", "above": below}) == (0, 1)
    assert run_check("pattern_broken_share", {"key": "jin_can_guang_hui", "above": above}) == (1, 1)
    with pytest.raises(InputError):
        run_check("pattern_broken_share", {"key": "cai_yin_jia_yin", "above": 0.5})
    with pytest.raises(InputError):
        run_check("pattern_broken_share", {"key": "jin_can_guang_hui", "above": "half"})


def test_pattern_ring_draws_the_palaces_that_form_it() -> None:
    from mingshu.library.svg import diagram

    date, index = BIRTHS["jin_can_guang_hui"]["forms"]
    birth = {"date": date, "time": index, "gender": "female"}
    svg, alt = diagram("pattern_ring", {"birth": birth, "pattern": "jin_can_guang_hui"})
    # the verse's positions: the Life palace on 午 (Horse) with 太阳 there
    assert "Horse, the Life palace, holds Tai Yang" in alt
    assert "金灿光辉" in svg
    date, index = BIRTHS["jin_can_guang_hui"]["misses_0"]
    with pytest.raises(InputError) as e:
        diagram(
            "pattern_ring",
            {"birth": {"date": date, "time": index}, "pattern": "jin_can_guang_hui"},
        )
    assert e.value.field == "pattern"
