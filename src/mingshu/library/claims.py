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
    from mingshu.cycles import Pillar

    variant = {s.key: DEFAULT.variant_of(s.key) for s in STARS}
    bases = {s.key: DEFAULT.bases_of(s.key) for s in STARS}
    bad = n = 0
    for stem in Stem:
        for branches in itertools.product(range(12), repeat=4):
            if branches[2] % 2 != int(stem) % 2:
                continue  # no such day pillar
            stems = [b % 2 for b in branches]
            stems[2] = int(stem)
            year, month, day, hour = (Pillar.of(s, b) for s, b in zip(stems, branches, strict=True))
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
