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


def _pillar_layouts() -> Any:
    """Every arrangement of four branches with a real pillar on each: the day pillar of every
    day stem of the day branch's polarity, and one stem of its branch's polarity elsewhere."""
    from mingshu.cycles import Pillar

    for branches in itertools.product(range(12), repeat=4):
        y, m, d, h = branches
        for day_stem in range(d % 2, 10, 2):
            pillars = (
                Pillar.of(y % 2, y),
                Pillar.of(m % 2, m),
                Pillar.of(day_stem, d),
                Pillar.of(h % 2, h),
            )
            yield branches, pillars


def _literary_lookup_all_pillars() -> tuple[int, int]:
    """For every day stem and every arrangement of four branches, the engine's Literary
    Star hits are exactly the pillars whose branch is the table's branch."""
    from mingshu.bazi import shensha
    from mingshu.library.engine import literary_star

    targets = [literary_star(int(stem)) for stem in Stem]
    bad = n = 0
    for branches, pillars in _pillar_layouts():
        n += 1
        target = targets[int(pillars[2].stem)]
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


# ------------------------------------------------- BZ-SS-01, BZ-SS-03, BZ-SS-04 (i11-bazi1)


def _year_and_day_pillars() -> Any:
    """Every day pillar with every year pillar and every month branch; the hour pillar is
    the month's, so that two pillars share a branch in every case."""
    from mingshu.cycles import SIXTY, Pillar

    for year in SIXTY:
        for day in SIXTY:
            for m in range(12):
                month = Pillar.of(m % 2, m)
                pillars = (year, month, day, month)
                yield tuple(int(p.branch) for p in pillars), pillars


def _hits_by_basis(star: str, pillars: Any, settings: Any = None) -> dict[str, list[int]]:
    from mingshu.bazi import shensha
    from mingshu.bazi.settings import DEFAULT

    found = next(
        r for r in shensha.stars_in(*pillars, settings=settings or DEFAULT) if r.star.key == star
    )
    by: dict[str, list[int]] = {}
    for hit in found.hits:
        by.setdefault(hit.basis, []).append(int(hit.position))
    return {k: sorted(v) for k, v in by.items()}


def _nobleman_hits(settings: Any, bases: tuple[str, ...], cases: Any) -> tuple[int, int]:
    """The engine's Nobleman on each case: from each basis stem, every pillar whose branch is
    one of the pair the stem's V1 cell gives, the basis pillar included."""
    from mingshu.library.engine import bazi_cell

    pairs = [bazi_cell("tian_yi", "v1", s) for s in range(10)]
    stem_of = {"day_stem": 2, "year_stem": 0}
    bad = n = 0
    for branches, pillars in cases:
        n += 1
        want: dict[str, list[int]] = {}
        for basis in bases:
            pair = pairs[pillars[stem_of[basis]].stem]
            at = [i for i, b in enumerate(branches) if b in pair]
            if at:
                want[basis] = at
        bad += _hits_by_basis("tian_yi", pillars, settings) != want
    return bad, n


def _nobleman_four_pillars() -> tuple[int, int]:
    from mingshu.bazi import BaziSettings

    by_day = BaziSettings(star_bases={"tian_yi": "day_stem"})
    return _nobleman_hits(by_day, ("day_stem",), _pillar_layouts())


def _nobleman_both_stems() -> tuple[int, int]:
    from mingshu.bazi.settings import DEFAULT

    return _nobleman_hits(DEFAULT, ("day_stem", "year_stem"), _year_and_day_pillars())


def _nobleman_v1_walk() -> tuple[int, int]:
    from mingshu.library.engine import bazi_cell, nobleman_walk

    day, night = nobleman_walk(0, 1), nobleman_walk(8, -1)
    bad = sum(
        sorted(bazi_cell("tian_yi", "v1", s)) != sorted({day[s], night[s]}) for s in range(10)
    )
    return bad, 10


def _nobleman_v2_at_yang_metal() -> tuple[int, int]:
    from mingshu.library.engine import bazi_cell

    bad = 0
    for stem in Stem:
        same = sorted(bazi_cell("tian_yi", "v1", int(stem))) == sorted(
            bazi_cell("tian_yi", "v2", int(stem))
        )
        bad += same == (stem.names.hans == "庚")
    return bad, 10


def _nobleman_skips_dragon_dog() -> tuple[int, int]:
    from mingshu.library.engine import bazi_cell

    cells = [bazi_cell("tian_yi", v, s) for v in ("v1", "v2") for s in range(10)]
    return sum(bool({4, 10} & set(c)) or len(c) != 2 for c in cells), len(cells)


def _horse_from_group_head() -> tuple[int, int]:
    """The engine's Traveling Horse: from the year branch and from the day branch, each of
    the other three pillars whose branch is the clash of the basis's group head."""
    from mingshu.library.engine import group_head

    bad = n = 0
    for branches, pillars in _pillar_layouts():
        if pillars[2].stem > 1:  # one day stem per day branch: the Horse reads branches only
            continue
        n += 1
        want: dict[str, list[int]] = {}
        for basis, own in (("year_branch", 0), ("day_branch", 2)):
            horse = (group_head(branches[own]) + 6) % 12
            at = [i for i, b in enumerate(branches) if b == horse and i != own]
            if at:
                want[basis] = at
        bad += _hits_by_basis("yi_ma", pillars) != want
    return bad, n


def _horse_basis_pillar_moot() -> tuple[int, int]:
    """Letting the basis pillar carry the Horse (include_basis_pillar) changes no result: a
    branch's Horse is never in its own group, so never the basis branch itself."""
    from mingshu.bazi import BaziSettings

    with_self = BaziSettings(include_basis_pillar=True)
    bad = n = 0
    for _branches, pillars in _pillar_layouts():
        if pillars[2].stem > 1:  # as above: one day stem per day branch
            continue
        n += 1
        bad += _hits_by_basis("yi_ma", pillars) != _hits_by_basis("yi_ma", pillars, with_self)
    return bad, n


def _flowing_horse() -> tuple[int, int]:
    """Each horoscope layer's flowing Horse (运马 流马 月马 日马 时马) stands at the clash of
    the group head of the layer's own branch, over sixty flowing years of one chart."""
    import datetime as dt

    from mingshu import ziwei
    from mingshu.library.engine import group_head

    chart = ziwei.by_lunar("1984-1-1", 0, "female")
    bad = n = 0
    for year in range(1984, 2044):
        for layer in chart.horoscope(dt.date(year, 7, 1)).layers:
            horses = [s for s in layer.stars if s.star.key.endswith("_ma")]
            if not layer.stars:
                continue  # the small limit has no flowing stars
            n += 1
            want = (group_head(int(layer.pillar.branch)) + 6) % 12
            bad += [int(s.branch) for s in horses] != [want]
    return bad, n


def _kitchen_four_pillars() -> tuple[int, int]:
    from mingshu.library.engine import eating_god, emolument

    kitchens = [emolument(eating_god(s)) for s in range(10)]
    bad = n = 0
    for branches, pillars in _pillar_layouts():
        n += 1
        kitchen = kitchens[pillars[2].stem]
        at = [i for i, b in enumerate(branches) if b == kitchen]
        bad += _hits_by_basis("tian_chu", pillars) != ({"day_stem": at} if at else {})
    return bad, n


def _kitchen_k2_at_wood() -> tuple[int, int]:
    from mingshu.library.engine import bazi_cell

    bad = 0
    for stem in Stem:
        same = bazi_cell("tian_chu", "k1", int(stem)) == bazi_cell("tian_chu", "k2", int(stem))
        bad += same != stem.names.english.endswith("Wood")
    return bad, 10


def _no_grade_by_hour(star: str) -> tuple[int, int]:
    """An hour-only star carries no brightness on the chart of any of the twelve hours (which
    put it on twelve different branches)."""
    from mingshu.library.engine import _chart

    placed = [_chart(1, hour).star(star) for hour in range(12)]
    bad = sum(p.brightness is not None for p in placed)
    return bad + (len({int(p.branch) for p in placed}) != 12), len(placed)


# BZ-SS-00 and BZ-SS-10 -----------------------------------------------------------------


def _tables_differ_only(
    star: str, a: str, b: str, stems: tuple[str, ...]
) -> Callable[[], tuple[int, int]]:
    def run() -> tuple[int, int]:
        from mingshu.bazi.stars import STAR_BY_KEY

        s = STAR_BY_KEY[star]
        bad = 0
        for stem in Stem:
            same = s.variant(a).lookup[int(stem)] == s.variant(b).lookup[int(stem)]
            bad += same == (stem.names.hans in stems)
        return bad, 10

    return run


def _hits_name_table_and_basis() -> tuple[int, int]:
    from mingshu.bazi import shensha
    from mingshu.bazi.settings import DEFAULT
    from mingshu.bazi.stars import STARS

    variant = {s.key: DEFAULT.variant_of(s.key) for s in STARS}
    bases = {s.key: DEFAULT.bases_of(s.key) for s in STARS}
    bad = n = 0
    for _branches, (year, month, day, hour) in _pillar_layouts():
        values: dict[str, object] = {
            "day_stem": day.stem,
            "year_stem": year.stem,
            "day_branch": day.branch,
            "year_branch": year.branch,
            "month_branch": month.branch,
            "day_pillar": day,
            "year_pillar": year,
            "hour_pillar": hour,
        }
        n += 1
        bad += any(
            h.variant.id != variant[h.star]
            or h.basis not in bases[h.star]
            or (h.basis in values and h.basis_value != values[h.basis])
            for r in shensha.stars_in(year, month, day, hour)
            for h in r.hits
        )
    return bad, n


def _basis_runs_sum(which: int) -> tuple[int, int]:
    from mingshu.library.bazi_stars import basis_pillar_runs

    runs = basis_pillar_runs()
    return sum(r[which] for r in runs.values()), len(runs) * 12**4


def _only_general_and_canopy() -> tuple[int, int]:
    from mingshu.library.bazi_stars import basis_pillar_runs

    runs = basis_pillar_runs()
    bad = 0
    for key, (_off, _on, changed) in runs.items():
        bad += (changed > 0) != (key in ("jiang_xing", "hua_gai"))
    return bad, len(runs) * 12**4


_BRANCH_LAYOUTS: Final = (
    "every arrangement of the four branches, for each branch-keyed star whose basis pillar "
    "counts by setting"
)
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
        # BZ-SS-01 Heavenly Nobleman
        EngineClaim(
            "nobleman_searched_in_four_pillars",
            "Looked up from the day stem, the Heavenly Nobleman is found in every pillar, the "
            "day pillar included, whose branch is one of the two the stem's V1 cell gives",
            "layouts",
            "every day stem with every arrangement of the four branches that makes a real "
            "day pillar",
            _nobleman_four_pillars,
        ),
        EngineClaim(
            "nobleman_from_day_and_year_stem",
            "By default the Nobleman is looked up from the day stem and from the year stem, "
            "each look-up finding its own pair in all four pillars",
            "charts",
            "every day pillar with every year pillar and every month branch (the hour "
            "pillar the month's)",
            _nobleman_both_stems,
        ),
        EngineClaim(
            "nobleman_v1_is_sanming_walk",
            "Each V1 pair is the two branches the Sanming Tonghui's two walks give the stem: "
            "forward from Rat and backward from Monkey, skipping Dragon, Dog, the start's "
            "clash and the start itself, each stem handing its branch to its combining partner",
            "day stems",
            _STEMS,
            _nobleman_v1_walk,
        ),
        EngineClaim(
            "nobleman_v2_differs_at_yang_metal_only",
            "V1 and V2 give the same pair for nine stems and differ only at Yang Metal",
            "day stems",
            _STEMS,
            _nobleman_v2_at_yang_metal,
        ),
        EngineClaim(
            "nobleman_never_dragon_or_dog",
            "No cell of either Nobleman table holds Dragon or Dog, and every cell holds two "
            "branches",
            "cells",
            "every day stem in both tables, V1 and V2 (20 cells)",
            _nobleman_skips_dragon_dog,
        ),
        # BZ-SS-03 Traveling Horse
        EngineClaim(
            "traveling_horse_clash_of_group_head",
            "The Traveling Horse is looked up from the year branch and from the day branch and "
            "found in each other pillar whose branch clashes with the head of the basis "
            "branch's three-harmony group",
            "layouts",
            "every arrangement of four branches (one real pillar on each)",
            _horse_from_group_head,
        ),
        EngineClaim(
            "traveling_horse_basis_pillar_moot",
            "Whether the basis pillar may carry the Traveling Horse (include_basis_pillar) "
            "changes no result: no branch's Horse is in the branch's own group",
            "layouts",
            "every arrangement of four branches (one real pillar on each), under both values "
            "of the setting",
            _horse_basis_pillar_moot,
        ),
        EngineClaim(
            "flowing_horse_same_rule",
            "Every Zi Wei horoscope layer with flowing stars has one flowing Horse, at the "
            "clash of the head of the three-harmony group of the layer's own branch",
            "layers",
            "the decade, year, month, day and hour layers of one chart over sixty flowing "
            "years (every year pillar of the cycle)",
            _flowing_horse,
        ),
        # BZ-SS-04 Heavenly Kitchen
        EngineClaim(
            "kitchen_searched_in_four_pillars",
            "The Heavenly Kitchen (K1) is found in every pillar, the day pillar included, whose "
            "branch is the Emolument of the day stem's Eating God",
            "layouts",
            "every day stem with every arrangement of the four branches that makes a real "
            "day pillar",
            _kitchen_four_pillars,
        ),
        EngineClaim(
            "kitchen_k1_k2_agree_at_wood_only",
            "The Xingxue Dacheng's Heavenly Kitchen gloss (K1) and verse (K2) agree at Yang "
            "Wood and Yin Wood only",
            "day stems",
            _STEMS,
            _kitchen_k2_at_wood,
        ),
        # ZW-AUX-20 (Feng Gao)
        EngineClaim(
            "no_brightness_feng_gao",
            "The engine gives Feng Gao no brightness grade on any of the twelve branches",
            "landings",
            "Feng Gao on each of the twelve branches (one birth hour each)",
            lambda: _no_grade_by_hour("feng_gao"),
        ),
        # BZ-SS-00 (reading a symbolic-star claim) and BZ-SS-10 (where the stars sit)
        EngineClaim(
            "tian_yi_tables_differ_at_yang_metal",
            "The Heavenly Nobleman's two tables (Sanming Tonghui juan 3 and the Shenfeng "
            "Tongkao verse) give the same two branches for every stem but Yang Metal",
            "day stems",
            _STEMS,
            _tables_differ_only("tian_yi", "v1", "v2", ("庚",)),
        ),
        EngineClaim(
            "star_hits_name_table_and_basis",
            "Every hit of every symbolic star names the table in force, a basis the settings "
            "enter that star with, and the chart's own value of that basis",
            "layouts",
            "every day stem with every arrangement of the four branches (the other stems of "
            "the branch's polarity), default settings",
            _hits_name_table_and_basis,
        ),
        EngineClaim(
            "branch_stars_skip_basis_pillar",
            "With include_basis_pillar off (the default), a branch-keyed star whose basis "
            "pillar counts by setting is found in exactly the other pillars holding a branch "
            "its table gives for the year or day branch",
            "star layouts",
            _BRANCH_LAYOUTS,
            lambda: _basis_runs_sum(0),
        ),
        EngineClaim(
            "branch_stars_basis_pillar_with_setting",
            "With include_basis_pillar on, the same stars are found in every pillar holding "
            "such a branch, the basis pillar included",
            "star layouts",
            _BRANCH_LAYOUTS,
            lambda: _basis_runs_sum(1),
        ),
        EngineClaim(
            "basis_pillar_matters_for_general_and_canopy",
            "Of those stars, the include_basis_pillar setting changes the hits of the General "
            "Star and the Canopy only",
            "star layouts",
            _BRANCH_LAYOUTS,
            _only_general_and_canopy,
        ),
    )
}


def _library_sql_claims() -> tuple[Any, ...]:
    """Zi Wei facts the articles state beyond the seed claims of mingshu.space.claims."""
    from mingshu.space.claims import M_SPLIT, Claim, H, mod12
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
                f"WHERE life_branch <> {mod12(f'2 + {M_SPLIT} - 1 - {H}')}"
            ),
            settings=(("leap_month", "split"),),
        ),
        Claim(
            key="di_kong_no_brightness",
            statement="The engine gives Di Kong no brightness grade on any chart",
            source="ZW-AUX-11 (Di Kong): 'the engine gives it no grade'",
            sql=f"SELECT count(*) FROM {VIEW} WHERE di_kong__brightness IS NOT NULL",
        ),
        *_bazi1_sql_claims(),
    )


# BZ-SS-01, BZ-SS-03, BZ-SS-04: Zi Wei stars that share a rule with a BaZi star.  The BaZi
# cells come from the BaZi engine's tables, so each claim says the two engines agree.
_YEAR_STEM: Final = "(year_pillar % 10)"
_YEAR_BRANCH: Final = "(year_pillar % 12)"


def _bazi1_sql_claims() -> tuple[Any, ...]:
    from mingshu.library.engine import bazi_cell
    from mingshu.space.claims import Claim, list_at
    from mingshu.space.sql import VIEW

    pairs = [sorted(bazi_cell("tian_yi", "v1", s)) for s in range(10)]
    k2 = [bazi_cell("tian_chu", "k2", s)[0] for s in range(10)]
    b = _YEAR_BRANCH
    # The head of the group: the member of {b, b + 4, b + 8} among Tiger, Snake, Monkey, Pig.
    head = (
        f"(CASE WHEN {b} % 3 = 2 THEN {b} WHEN ({b} + 4) % 12 % 3 = 2 THEN ({b} + 4) % 12 "
        f"ELSE ({b} + 8) % 12 END)"
    )
    return (
        Claim(
            key="kui_yue_are_the_nobleman_pair",
            statement="Tian Kui (天魁) and Tian Yue (天钺) stand on the two branches the BaZi "
            "Heavenly Nobleman's V1 table gives the birth year's stem",
            source="BZ-SS-01 (Heavenly Nobleman): 'Zi Wei's Tian Kui and Tian Yue are the "
            "same pair, read from the year stem'",
            sql=(
                f"SELECT count(*) FROM {VIEW} WHERE "
                f"least(tian_kui, tian_yue) <> {list_at([p[0] for p in pairs], _YEAR_STEM)} "
                f"OR greatest(tian_kui, tian_yue) <> "
                f"{list_at([p[1] for p in pairs], _YEAR_STEM)}"
            ),
        ),
        Claim(
            key="tian_ma_clash_of_group_head",
            statement="Tian Ma (天马) stands on the clash of the head of the year branch's "
            "three-harmony group",
            source="BZ-SS-03 (Traveling Horse): 'find the head of the year branch's group, "
            "then take the branch opposite it'",
            sql=f"SELECT count(*) FROM {VIEW} WHERE tian_ma <> ({head} + 6) % 12",
        ),
        Claim(
            key="tian_chu_is_the_xingxue_verse",
            statement="Zi Wei's Tian Chu (天厨) stands where the Xingxue Dacheng verse table of "
            "the BaZi Heavenly Kitchen (K2) puts the birth year's stem",
            source="BZ-SS-04 (Heavenly Kitchen): 'Zi Wei's Tian Chu follows the verse, not "
            "the gloss'",
            sql=f"SELECT count(*) FROM {VIEW} WHERE tian_chu <> {list_at(k2, _YEAR_STEM)}",
        ),
        # ---- ZW-BK-01 (the book beside the engine) ----
        *_book_claims(),
    )


def _book_claims() -> tuple[Any, ...]:
    """ZW-BK-01: where the engine (school iztro, the swept space) stands beside 紫微斗数全书
    卷二.  The book's side is written from its verse here, not read from the engine."""
    from mingshu.space.claims import Claim, H, mod12
    from mingshu.space.sql import VIEW

    leap_rows = f"SELECT count(*) FROM {VIEW} WHERE lunar_leap"
    # 「闰月正月生者要在二月内起安身命」 (F L4): the whole leap month counts as the next month.
    book_life = mod12(f"2 + lunar_month % 12 - {H}")
    year_branch, year_stem = _YEAR_BRANCH, _YEAR_STEM
    # 「甲己申酉宫，乙庚午未宫，丙辛辰巳宫，丁壬寅卯宫，戊癸子丑宫」 (F L87): 申 8 for 甲 and 己,
    # two branches less for each later stem, the pair's second branch one after the first.
    jie_lu_first = f"(8 - 2 * ({year_stem} % 5))"
    # 「甲子旬中空戌亥 …」 (F L89–90): the decade's 甲 year, ten and eleven branches on.
    decade_void = "(((year_pillar - year_pillar % 10) % 12 + 10) % 12)"
    return (
        Claim(
            key="book_leap_split_departs_days_1_15",
            statement="Under leap_month = split, a leap-month birth has the book's Life palace "
            "(the whole leap month counted as the next month) exactly when it falls on day 16 "
            "or later outside the late Rat hour; on days 1 to 15 the engine counts the month "
            "repeated and the two part",
            source="ZW-BK-01: 'the default splits the leap month at day 16, so the first half "
            "parts from the book'; 紫微斗数全书 卷二 安身命例 (F L4)",
            sql=(
                f"SELECT count(*) FROM {VIEW} WHERE lunar_leap AND "
                f"(life_branch = {book_life}) <> (lunar_day > 15 AND time_index <> 12)"
            ),
            total_sql=leap_rows,
            settings=(("leap_month", "split"),),
        ),
        Claim(
            key="book_leap_whole_never",
            statement="Under leap_month = whole, no leap-month birth has the book's Life "
            "palace: the engine counts the whole leap month as the month repeated, the book "
            "as the next",
            source="ZW-BK-01: 'the whole setting never gives the book's Life palace in a leap "
            "month'; 紫微斗数全书 卷二 安身命例 (F L4)",
            sql=f"SELECT count(*) FROM {VIEW} WHERE lunar_leap AND life_branch = {book_life}",
            total_sql=leap_rows,
            settings=(("leap_month", "whole"),),
        ),
        Claim(
            key="book_yue_de_from_snake",
            statement="The engine's Yue De (月德) stands five branches after the year branch "
            "(the year's count started on the Snake); the book's count starts on the Rat, "
            "which puts Yue De on the year branch itself, so the two never meet",
            source="ZW-BK-01: 'the engine starts the count on the Snake, the book on the Rat'; "
            "紫微斗数全书 卷二 安天德月德解神诀 (F L80)",
            sql=f"SELECT count(*) FROM {VIEW} WHERE yue_de <> ({year_branch} + 5) % 12",
        ),
        Claim(
            key="book_xun_kong_one_of_two",
            statement="The engine's Xun Kong (旬空) marks one of the two void branches of the "
            "birth year's decade, the one of the year's own polarity: the first in a yang "
            "year, the second in a yin year; the book voids both",
            source="ZW-BK-01: 'the engine marks only the void palace that shares the year's "
            "polarity'; 紫微斗数全书 卷二 安旬中空亡诀 (F L88–90)",
            sql=(
                f"SELECT count(*) FROM {VIEW} "
                f"WHERE xun_kong <> ({decade_void} + year_pillar % 2) % 12"
            ),
        ),
        Claim(
            key="book_jie_lu_kong_wang_pair",
            statement="Jie Lu (截路) and Kong Wang (空亡) stand on the two branches the book "
            "gives 截路空亡 for the year stem: Jie Lu on the first, Kong Wang on the second",
            source="ZW-BK-01: 'the engine splits the book's one item into two stars on the "
            "same two palaces'; 紫微斗数全书 卷二 安截路空亡诀 (F L86–87)",
            sql=(
                f"SELECT count(*) FROM {VIEW} "
                f"WHERE jie_lu <> {jie_lu_first} OR kong_wang <> {jie_lu_first} + 1"
            ),
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
        count_rows_of_groups_varying,
        mod12,
        palace_name_at,
    )
    from mingshu.space.sql import VIEW

    split = (("leap_month", "split"),)
    body_at = palace_name_at("body_branch")
    # Palace name numbers run 0 Life, 1 Parents … 11 Siblings forward by branch, so the
    # name on branch b is (b - Life branch) mod 12.
    order = " OR ".join(
        f"palace_{k} <> {mod12(f'{b} - life_branch')}" for b, k in enumerate(_BRANCH_KEYS)
    )
    return (
        Claim(
            key="palace_life_month_and_hour_only",
            statement="The Life palace depends on the month number (leap month split) and the "
            "hour only: births with the same two share it whatever their day, year or sex",
            source="ZW-BAS-02: 'the day, the year and the sex never enter'",
            sql=count_rows_of_groups_varying(f"{M_SPLIT}, {H}", "life_branch"),
            settings=split,
        ),
        Claim(
            key="palace_body_rule",
            statement="The Body palace: month 1 on Tiger, forward to the birth month (leap "
            "month split), then forward by the hour number",
            source="ZW-BAS-02: 'from the same month palace, count forward by the hour'",
            sql=(
                f"SELECT count(*) FROM {VIEW} "
                f"WHERE body_branch <> {mod12(f'2 + {M_SPLIT} - 1 + {H}')}"
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
