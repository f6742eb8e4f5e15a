"""The claims articles cite, and the record of their last run over the whole space.

Zi Wei claims are :data:`mingshu.space.claims.CLAIMS`, used by key and run over swept
datasets (one per leap-month setting).  BaZi has no swept space yet, so its claims here are
evaluated through the engine over the whole input space they depend on (every day stem, or
every day stem with every arrangement of four branches): still every case, not a sample.

The record (``articles/_checked.json``) keeps, per claim, the rows of the last full run, the
counterexamples, what space it was, and a digest of the claim's query, so the pages can say
"checked over N charts" with N from a run, and a changed claim invalidates its entry.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from mingshu.cycles import Stem

__all__ = [
    "ENGINE_CLAIMS",
    "RECORD_FILE",
    "EngineClaim",
    "digest",
    "read_record",
    "space_claims",
    "write_record",
]

RECORD_FILE: Final = "_checked.json"


@dataclass(frozen=True)
class EngineClaim:
    """A fact checked through the engine: ``run`` returns (counterexamples, cases)."""

    key: str
    statement: str
    unit: str
    space: str
    run: Callable[[], tuple[int, int]]
    version: str = "1"


def _literary_lookup_all_pillars() -> tuple[int, int]:
    """For every day stem and every arrangement of four branches, the engine's Literary
    Star hits are exactly the pillars whose branch is the table's branch."""
    from mingshu.bazi import shensha
    from mingshu.cycles import Pillar
    from mingshu.library.engine import literary_star

    bad = n = 0
    for stem in Stem:
        target = literary_star(int(stem))
        for branches in itertools.product(range(12), repeat=4):
            pillars = []
            for i, b in enumerate(branches):
                s = int(stem) if i == 2 else b % 2  # a stem of the branch's polarity
                if i == 2 and (s % 2) != (b % 2):
                    break
                pillars.append(Pillar.of(s, b))
            else:
                n += 1
                found = next(r for r in shensha.stars_in(*pillars) if r.star.key == "wen_chang")
                got = sorted(int(h.position) for h in found.hits)
                want = [i for i, b in enumerate(branches) if b == target]
                bad += got != want
    return bad, n


def _eating_god_eight() -> tuple[int, int]:
    from mingshu.library.engine import eating_god, emolument, literary_star

    bad = 0
    for stem in Stem:
        same = emolument(eating_god(int(stem))) == literary_star(int(stem))
        fire = stem.names.english.endswith("Fire")
        bad += same == fire  # equal for every stem but the two Fire stems
    return bad, 10


def _kitchen_differs_at_fire() -> tuple[int, int]:
    from mingshu.library.engine import eating_god, emolument, kitchen_star, literary_star

    bad = 0
    for stem in Stem:
        fire = stem.names.english.endswith("Fire")
        bad += kitchen_star(int(stem)) != emolument(eating_god(int(stem)))
        bad += (kitchen_star(int(stem)) != literary_star(int(stem))) != fire
    return bad, 10


def _agree(variant: str, stems: tuple[str, ...]) -> Callable[[], tuple[int, int]]:
    def run() -> tuple[int, int]:
        from mingshu.library.engine import literary_star

        bad = 0
        for stem in Stem:
            same = literary_star(int(stem), variant) == literary_star(int(stem))
            bad += same != (stem.names.hans in stems)
        return bad, 10

    return run


def _no_grade() -> tuple[int, int]:
    """En Guang, Tian Gui and Tai Fu carry no brightness on a chart, on every branch each can
    land on (a grade depends on the star and its branch only)."""
    from mingshu.library.engine import _chart

    bad = n = 0
    for star in ("en_guang", "tian_gui", "tai_fu"):
        seen: set[int] = set()
        for day in range(1, 13):
            for hour in range(12):
                placed = _chart(day, hour).star(star)
                if int(placed.branch) in seen:
                    continue
                seen.add(int(placed.branch))
                n += 1
                bad += placed.brightness is not None
        bad += len(seen) != 12
    return bad, n


_STEMS: Final = "every day stem (10)"
ENGINE_CLAIMS: Final[dict[str, EngineClaim]] = {
    c.key: c
    for c in (
        EngineClaim(
            "no_brightness_en_guang_tian_gui_tai_fu",
            "The engine gives En Guang, Tian Gui and Tai Fu no brightness grade on any of the "
            "twelve branches",
            "landings",
            "each of the three stars on each of the twelve branches",
            _no_grade,
        ),
        EngineClaim(
            "literary_star_searched_in_four_pillars",
            "The Literary Star is found in every pillar, the day pillar's own branch included, "
            "whose branch is the one the day stem gives; a branch that appears twice is two hits",
            "layouts",
            "every day stem with every arrangement of the four branches that makes a real "
            "day pillar",
            _literary_lookup_all_pillars,
        ),
        EngineClaim(
            "literary_star_eating_god_emolument",
            "The site's Literary Star equals the Emolument of the day stem's Eating God for "
            "eight stems; the two Fire stems differ",
            "day stems",
            _STEMS,
            _eating_god_eight,
        ),
        EngineClaim(
            "heavenly_kitchen_is_eating_god_emolument",
            "The Heavenly Kitchen is the Eating God's Emolument for every stem and differs "
            "from the Literary Star only at the two Fire stems",
            "day stems",
            _STEMS,
            _kitchen_differs_at_fire,
        ),
        EngineClaim(
            "literary_star_sanming_agrees_two",
            "The Sanming Tonghui juan 3 Literary Star table agrees with the site table at "
            "Yang Wood and Yang Earth only",
            "day stems",
            _STEMS,
            _agree("w2", ("甲", "戊")),
        ),
        EngineClaim(
            "literary_star_wen_xing_agrees_six",
            "The juan 3 Wen Xing table agrees with the site table at Yang Fire, Yin Fire, Yang "
            "Earth, Yin Earth, Yang Water and Yin Water",
            "day stems",
            _STEMS,
            _agree("w3", ("丙", "丁", "戊", "己", "壬", "癸")),
        ),
        EngineClaim(
            "literary_star_xingxue_agrees_nine",
            "The Xingxue Dacheng juan 1 table agrees with the site table on nine stems, all "
            "but Yin Metal",
            "day stems",
            _STEMS,
            _agree("w4", ("甲", "乙", "丙", "丁", "戊", "己", "庚", "壬", "癸")),
        ),
    )
}


def _library_sql_claims() -> tuple[Any, ...]:
    """Zi Wei facts the articles state beyond the seed claims of mingshu.space.claims."""
    from mingshu.space.claims import M_SPLIT, Claim, H
    from mingshu.space.sql import VIEW

    return (
        Claim(
            key="tian_kong_after_year_branch",
            statement="Tian Kong (天空) stands one branch after the branch of the year pillar, "
            "whatever the hour",
            source="ZW-AUX-11 (Di Kong): 'the engine's Tian Kong is placed one branch after "
            "the branch of the birth year'",
            sql=f"SELECT count(*) FROM {VIEW} WHERE tian_kong <> (year_pillar % 12 + 1) % 12",
        ),
        Claim(
            key="life_palace_back_per_hour",
            statement="The Life palace moves one palace back for each later hour: within one "
            "month number (leap month split), Life palace branch + hour number is constant",
            source="ZW-AUX-11 (Di Kong): 'each later hour moves the Life palace one palace "
            "back, as fast as Di Kong moves'",
            sql=(
                f"SELECT coalesce(sum(n), 0) FROM (SELECT count(*) AS n FROM {VIEW} "
                f"GROUP BY {M_SPLIT} HAVING count(DISTINCT (life_branch + {H}) % 12) > 1)"
            ),
            settings=(("leap_month", "split"),),
        ),
        Claim(
            key="life_palace_rule",
            statement="The Life palace: month 1 on Tiger, forward to the birth month (leap month "
            "split), then back by the hour number",
            source="ZW-AUX-11 (Di Kong): 'start at Tiger for the first month, counting forward "
            "to the birth month, and from there counting the hours backward'",
            sql=(
                f"SELECT count(*) FROM {VIEW} "
                f"WHERE life_branch <> ((2 + {M_SPLIT} - 1 - {H}) % 12 + 12) % 12"
            ),
            settings=(("leap_month", "split"),),
        ),
        Claim(
            key="di_kong_no_brightness",
            statement="The engine gives Di Kong no brightness grade on any chart",
            source="ZW-AUX-11 (Di Kong): 'the engine gives it no grade'",
            sql=f"SELECT count(*) FROM {VIEW} WHERE di_kong__brightness IS NOT NULL",
        ),
        # ZW-BAS-02, ZW-SET-01
        *_palace_claims(),
        *_setting_claims(),
        # ZW-BAS-01
        *_star_group_claims(),
    )


# ZW-BAS-02 (the twelve palaces): the Life and Body palaces and the fixed order of names.


def _palace_claims() -> tuple[Any, ...]:
    from mingshu.space.claims import (
        _BRANCH_KEYS,
        M_SPLIT,
        Claim,
        H,
        _count_rows_of_groups_varying,
        _palace_name_at,
    )
    from mingshu.space.sql import VIEW

    split = (("leap_month", "split"),)
    body_at = _palace_name_at("body_branch")
    # Palace name numbers run 0 Life, 1 Parents … 11 Siblings forward by branch, so the
    # name on branch b is (b - Life branch) mod 12.
    order = " OR ".join(
        f"palace_{k} <> ((({b} - life_branch) % 12 + 12) % 12)" for b, k in enumerate(_BRANCH_KEYS)
    )
    return (
        Claim(
            key="palace_life_month_and_hour_only",
            statement="The Life palace depends on the month number (leap month split) and the "
            "hour only: births with the same two share it whatever their day, year or sex",
            source="ZW-BAS-02: 'the day, the year and the sex never enter'",
            sql=_count_rows_of_groups_varying(f"{M_SPLIT}, {H}", "life_branch"),
            settings=split,
        ),
        Claim(
            key="palace_body_rule",
            statement="The Body palace: month 1 on Tiger, forward to the birth month (leap "
            "month split), then forward by the hour number",
            source="ZW-BAS-02: 'from the same month palace, count forward by the hour'",
            sql=(
                f"SELECT count(*) FROM {VIEW} "
                f"WHERE body_branch <> ((2 + {M_SPLIT} - 1 + {H}) % 12 + 12) % 12"
            ),
            settings=split,
        ),
        Claim(
            key="palace_fixed_order",
            statement="The twelve palace names follow the Life palace in one fixed order, one "
            "branch back each: Siblings, Spouse, Children, Wealth, Health, Travel, Friends, "
            "Career, Property, Spirit, Parents",
            source="ZW-BAS-02: 'the other eleven follow in a fixed order, counting back'",
            sql=f"SELECT count(*) FROM {VIEW} WHERE {order}",
        ),
        Claim(
            key="palace_body_six_places",
            statement="The Body palace always shares one of six palaces: Life, Spouse, Wealth, "
            "Travel, Career or Spirit (福德)",
            source="ZW-BAS-02: 'the Body palace can only share six of the twelve'",
            sql=f"SELECT count(*) FROM {VIEW} WHERE {body_at} % 2 <> 0",
        ),
        Claim(
            key="palace_body_with_life_rat_horse",
            statement="The Body palace is the Life palace exactly for births in the Rat hour "
            "(early or late) and the Horse hour",
            source="ZW-BAS-02: 'born in the Rat or Horse hour, the two are one palace'",
            sql=(
                f"SELECT count(*) FROM {VIEW} WHERE (body_branch = life_branch) <> ({H} IN (0, 6))"
            ),
        ),
    )


# ZW-SET-01 (the leap-month and late-Rat-hour settings): the same births swept under two
# values of one setting, compared row by row (the view ``other``).

_JOIN: Final = "charts a JOIN other b USING (solar_date, time_index, gender)"
_LEAP_MOVED: Final = "a.lunar_leap AND a.lunar_day > 15 AND a.time_index <> 12"
_LEAP_PAIR: Final = ((("leap_month", "split"),), (("leap_month", "whole"),))
_LATE_PAIR: Final = (
    (("leap_month", "split"), ("late_rat_hour", "next_day")),
    (("leap_month", "split"), ("late_rat_hour", "same_day")),
)


def _moved(key: str, pair: Any, column: str, what: str, within: str, why: str) -> Any:
    """The births where ``column`` differs between the two settings of ``pair``: the claim
    ranges over them (so its N is how many there are) and its counterexamples are those
    outside ``within``."""
    from mingshu.space.claims import Claim

    differs = f"a.{column} IS DISTINCT FROM b.{column}"
    return Claim(
        key=key,
        statement=f"{what} differs between the two settings only in births {why}; N is the "
        "number of births where it differs",
        source="ZW-SET-01: the table of what each setting changes",
        sql=f"SELECT count(*) FROM {_JOIN} WHERE {differs} AND NOT ({within})",
        total_sql=f"SELECT count(*) FROM {_JOIN} WHERE {differs}",
        settings=pair[0],
        other_settings=pair[1],
    )


def _setting_claims() -> tuple[Any, ...]:
    from mingshu.space.claims import Claim

    leap_why = "on day 16 or later of a leap month, outside the late Rat hour"
    late_why = "at the late Rat hour"
    leap = [
        (column, name, _LEAP_MOVED, leap_why)
        for column, name in (
            ("life_branch", "The Life palace"),
            ("body_branch", "The Body palace"),
            ("zi_wei", "Zi Wei"),
            ("zuo_fu", "Zuo Fu"),
            ("en_guang", "En Guang"),
            ("di_kong", "Di Kong"),
        )
    ]
    late = [
        (
            "life_branch",
            "The Life palace",
            "a.time_index = 12 AND a.lunar_leap AND a.lunar_day > 15",
            "at the late Rat hour on day 16 or later of a leap month",
        ),
        ("zi_wei", "Zi Wei", "a.time_index = 12", late_why),
        (
            "zuo_fu",
            "Zuo Fu",
            "a.time_index = 12 AND a.lunar_leap AND a.lunar_day > 15",
            "at the late Rat hour on day 16 or later of a leap month",
        ),
        ("en_guang", "En Guang", "a.time_index = 12", late_why),
        ("di_kong", "Di Kong", "a.time_index = 12", late_why),
        ("day_pillar", "The day pillar", "a.time_index = 12", late_why),
    ]
    return (
        Claim(
            key="set_leap_only_second_half",
            statement="Between the split and whole leap-month settings, a chart differs only "
            "for births on day 16 or later of a leap month, outside the late Rat hour",
            source="ZW-SET-01: 'everywhere else the two settings draw the same chart'",
            sql=f"SELECT count(*) FROM {_JOIN} WHERE NOT ({_LEAP_MOVED}) AND a IS DISTINCT FROM b",
            total_sql=f"SELECT count(*) FROM {_JOIN}",
            settings=_LEAP_PAIR[0],
            other_settings=_LEAP_PAIR[1],
        ),
        Claim(
            key="set_leap_split_life_one_forward",
            statement="For a birth on day 16 or later of a leap month (outside the late Rat "
            "hour), split puts the Life palace one branch forward of where whole puts it",
            source="ZW-SET-01: 'split reads the next month, one palace further on'",
            sql=(
                f"SELECT count(*) FROM {_JOIN} WHERE {_LEAP_MOVED} "
                "AND a.life_branch <> (b.life_branch + 1) % 12"
            ),
            total_sql=f"SELECT count(*) FROM {_JOIN} WHERE {_LEAP_MOVED}",
            settings=_LEAP_PAIR[0],
            other_settings=_LEAP_PAIR[1],
        ),
        *(
            _moved(f"set_leap_moves_{column}", _LEAP_PAIR, column, what, within, why)
            for column, what, within, why in leap
        ),
        Claim(
            key="set_late_rat_only_late_rat",
            statement="Between the next_day and same_day late-Rat-hour settings, a chart "
            "differs only for births at the late Rat hour (23:00 to midnight)",
            source="ZW-SET-01: 'every other birth gets the same chart'",
            sql=f"SELECT count(*) FROM {_JOIN} WHERE a.time_index <> 12 AND a IS DISTINCT FROM b",
            total_sql=f"SELECT count(*) FROM {_JOIN}",
            settings=_LATE_PAIR[0],
            other_settings=_LATE_PAIR[1],
        ),
        Claim(
            key="set_same_day_is_early_rat",
            statement="Under same_day, a late-Rat-hour chart is the early-Rat-hour chart of the "
            "same date, star for star and pillar for pillar",
            source="ZW-SET-01: 'same_day charts 23:30 as 00:30 of the same date'",
            sql=(
                "SELECT count(*) FROM (SELECT * EXCLUDE (time_index) FROM charts "
                "WHERE time_index = 12) a JOIN (SELECT * EXCLUDE (time_index) FROM charts "
                "WHERE time_index = 0) b USING (solar_date, gender) WHERE a IS DISTINCT FROM b"
            ),
            total_sql="SELECT count(*) FROM charts WHERE time_index = 12",
            settings=(("late_rat_hour", "same_day"),),
        ),
        Claim(
            key="set_late_rat_en_guang_always_moves",
            statement="Between next_day and same_day, En Guang stands on another branch for "
            "every late-Rat-hour birth (the day count differs by one)",
            source="ZW-SET-01: 'En Guang moves for every one of them'",
            sql=f"SELECT count(*) FROM {_JOIN} WHERE a.time_index = 12 AND a.en_guang = b.en_guang",
            total_sql=f"SELECT count(*) FROM {_JOIN} WHERE a.time_index = 12",
            settings=_LATE_PAIR[0],
            other_settings=_LATE_PAIR[1],
        ),
        *(
            _moved(f"set_late_rat_moves_{column}", _LATE_PAIR, column, what, within, why)
            for column, what, within, why in late
        ),
    )


def space_claims() -> dict[str, Any]:
    """Every Zi Wei claim by key: the seed claims and the library's own."""
    from mingshu.space.claims import CLAIMS

    return {c.key: c for c in (*CLAIMS, *_library_sql_claims())}


def digest(key: str) -> str:
    """What identifies a claim's query: a changed query makes its record stale."""
    if key in ENGINE_CLAIMS:
        c = ENGINE_CLAIMS[key]
        text = f"engine:{c.key}:{c.version}:{c.statement}"
    else:
        c2 = space_claims()[key]
        text = f"sql:{c2.sql}\n{c2.total_sql}\n{c2.settings}"
        if c2.other_settings:  # only then, so the older claims keep their digests
            text += f"\nagainst {c2.other_settings}"
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def read_record(folder: Path) -> dict[str, Mapping[str, Any]]:
    path = folder / RECORD_FILE
    if not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return dict(data.get("claims", {}))


def write_record(folder: Path, entries: Mapping[str, Mapping[str, Any]]) -> None:
    from mingshu.files import replacing

    text = json.dumps({"claims": dict(sorted(entries.items()))}, ensure_ascii=False, indent=1)
    with replacing(folder / RECORD_FILE, "record") as out:
        out.write(text + "\n")


# ZW-BAS-01 (the supporting, malefic and minor stars): how the paired stars stand.


def _star_group_claims() -> tuple[Any, ...]:
    from mingshu.space.claims import Claim
    from mingshu.space.sql import VIEW

    def where(condition: str) -> str:
        return f"SELECT count(*) FROM {VIEW} WHERE {condition}"

    return (
        Claim(
            key="bas_zuo_fu_you_bi_mirror",
            statement="Zuo Fu and You Bi mirror each other: their branch numbers add up to 2 "
            "(mod 12) on every chart",
            source="ZW-BAS-01: 'the two assistants always stand as mirror images'",
            sql=where("(zuo_fu + you_bi) % 12 <> 2"),
        ),
        Claim(
            key="bas_wen_chang_wen_qu_mirror",
            statement="Wen Chang and Wen Qu mirror each other: their branch numbers add up to "
            "2 (mod 12) on every chart",
            source="ZW-BAS-01: 'so do the two literary stars'",
            sql=where("(wen_chang + wen_qu) % 12 <> 2"),
        ),
        Claim(
            key="bas_kui_yue_apart",
            statement="Tian Kui and Tian Yue never share a palace",
            source="ZW-BAS-01: 'the two nobles never sit together'",
            sql=where("tian_kui = tian_yue"),
        ),
        Claim(
            key="bas_yang_tuo_flank_lu_cun",
            statement="Qing Yang stands one branch after Lu Cun and Tuo Luo one branch before "
            "it, on every chart",
            source="ZW-BAS-01: 'Lu Cun is always flanked by Qing Yang and Tuo Luo'",
            sql=where("qing_yang <> (lu_cun + 1) % 12 OR tuo_luo <> (lu_cun + 11) % 12"),
        ),
        Claim(
            key="bas_kong_jie_mirror",
            statement="Di Kong and Di Jie mirror each other: their branch numbers add up to 10 "
            "(mod 12) on every chart",
            source="ZW-BAS-01: 'Di Kong and Di Jie mirror each other about the Pig palace'",
            sql=where("(di_kong + di_jie) % 12 <> 10"),
        ),
    )
