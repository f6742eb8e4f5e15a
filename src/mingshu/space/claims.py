"""Claims: engine facts stated in prose, checked over every row of a swept dataset.

A :class:`Claim` is a sentence, where it comes from, and one read-only query over the view
``charts`` that counts the rows contradicting the sentence (its *counterexamples*).  A claim
holds over a dataset when that count is 0; :func:`check` runs claims and says how many rows
each one looked at (``total_sql``, by default every row), so "holds" always comes with an N.

:data:`CLAIMS` holds the engine facts of the five seed articles (``../shared/seeds``), each
naming the file and the sentence it encodes, and those of the library articles written since,
each naming its article id.  Terms the SQL needs are defined once, below,
and stated in the claims that use them:

* the **hour number** ``h`` is ``time_index % 12``: 子 (Rat) 0 … 亥 (Pig) 11, so the late Rat
  hour (time index 12) is the Rat hour, as every hour-based star counts it
  (docs/iztro-rules.md §0, §1.4);
* the **day number** ``D`` is the lunar day, plus one for the late Rat hour: the default
  day-change setting (``late_rat_hour = next_day``) sets a birth after 23:00 on the next day,
  and the day stars (三台 八座 恩光 天贵) count one more day with no month-length wrap
  (docs/iztro-rules.md §1.4, item 4);
* the **month number** ``M`` is the lunar month; in a leap month it depends on the leap-month
  setting: ``whole`` counts the leap month as the month it repeats; ``split`` counts days 16
  on as the next month, except at the late Rat hour, which is never moved to the next month
  (docs/iztro-rules.md §1.5, docs/ziwei-settings.md).

A claim that relies on a setting names it in ``settings``; over a dataset swept with another
value it is reported as not applicable rather than run.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from mingshu.cycles import Branch
from mingshu.errors import InputError
from mingshu.space.sql import VIEW, _message, check_sql, connect
from mingshu.space.ziwei_sweep import BAZI_SCHEMA, SCHEMA, read_metadata

__all__ = [
    "BAZI_CLAIMS",
    "CLAIMS",
    "Claim",
    "ClaimResult",
    "check",
    "count_rows_of_groups_varying",
    "count_rows_where",
    "list_at",
    "mod12",
    "palace_name_at",
    "settings_match",
]

TOTAL_SQL: Final = f"SELECT count(*) FROM {VIEW}"
"""Every row of the dataset: the N a claim ranges over unless it says otherwise."""

# The ``palace_<branch key>`` columns, 子 0 … 亥 11 (the keys cycles.toml gives).
_BRANCH_KEYS: Final = tuple(b.key for b in Branch)


@dataclass(frozen=True)
class Claim:
    """One engine fact: ``sql`` counts the rows of ``charts`` that contradict ``statement``.

    ``source`` names the seed file and quotes the sentence; ``total_sql`` counts the rows the
    claim ranges over; ``settings`` are the dataset settings the claim relies on (name, value);
    ``schema`` is the kind of dataset it is about (the Zi Wei space by default, or the BaZi
    space, :data:`mingshu.space.ziwei_sweep.BAZI_SCHEMA`).  A claim that compares two
    settings names the second dataset's settings in ``other_settings``; its queries read
    that dataset as the view ``other`` (the same births, joined on ``solar_date``,
    ``time_index`` and ``gender``).
    """

    key: str
    statement: str
    source: str
    sql: str
    total_sql: str = TOTAL_SQL
    settings: tuple[tuple[str, object], ...] = ()
    schema: str = SCHEMA
    other_settings: tuple[tuple[str, object], ...] = ()


@dataclass(frozen=True)
class ClaimResult:
    """What :func:`check` found for one claim.  ``counterexamples`` and ``rows`` are ``None``
    when the claim does not apply to the dataset (``applies`` is false; ``reason`` says why:
    ``"settings"``, ``"space"`` for a claim about the other kind of dataset, or
    ``"other"`` when the second dataset it compares with is missing or has other settings)."""

    claim: Claim
    counterexamples: int | None
    rows: int | None
    seconds: float
    applies: bool = True
    reason: str = ""

    @property
    def holds(self) -> bool | None:
        """True with no counterexample, False with some, None when not applicable."""
        return None if self.counterexamples is None else self.counterexamples == 0


def mod12(expr: str) -> str:
    # DuckDB's % keeps the sign of the dividend; a branch is always 0..11.
    return f"((({expr}) % 12 + 12) % 12)"


def list_at(values: Sequence[int], index: str) -> str:
    """The SQL for ``values[index]`` (DuckDB lists count from 1)."""
    return f"[{', '.join(map(str, values))}][{index} + 1]"


def count_rows_where(condition: str) -> str:
    return f"SELECT count(*) FROM {VIEW} WHERE {condition}"


def count_rows_of_groups_varying(key: str, value: str) -> str:
    """Rows in groups of ``key`` where ``value`` is not constant: a functional dependency's
    counterexamples."""
    return (
        f"SELECT coalesce(sum(n), 0) FROM (SELECT count(*) AS n FROM {VIEW} "
        f"GROUP BY {key} HAVING count(DISTINCT {value}) > 1)"
    )


def palace_name_at(star: str) -> str:
    """The palace name number (0 命宫 … 11 兄弟) of the branch holding ``star``."""
    cases = " ".join(f"WHEN {b} THEN palace_{k}" for b, k in enumerate(_BRANCH_KEYS))
    return f"(CASE {star} {cases} END)"


H: Final = "(time_index % 12)"
"""The hour number: 子 0 … 亥 11; the late Rat hour (12) is 子."""
D: Final = "(lunar_day + CASE WHEN time_index = 12 THEN 1 ELSE 0 END)"
"""The day number under ``late_rat_hour = next_day``: the late Rat hour counts one day more."""
M_SPLIT: Final = (
    "(CASE WHEN lunar_leap AND lunar_day > 15 AND time_index <> 12 "
    "THEN lunar_month % 12 + 1 ELSE lunar_month END)"
)
"""The month number under ``leap_month = split``."""
M_WHOLE: Final = "lunar_month"
"""The month number under ``leap_month = whole``."""

_NEXT_DAY: Final = (("late_rat_hour", "next_day"),)
_SPLIT: Final = (("leap_month", "split"),)
_WHOLE: Final = (("leap_month", "whole"),)

_EN_GUANG: Final = "000_18bcfc00f9979b0b.txt (ZW-AUX-17, En Guang)"
_TIAN_GUI: Final = "001_0502154e7a73d76c.txt (ZW-AUX-18, Tian Gui)"
_TAI_FU: Final = "003_3dc31caa3e983e86.txt (ZW-AUX-19, Tai Fu)"
_DI_KONG: Final = "004_514be6b4c67c6b2f.txt (Di Kong)"

# Branch numbers as the seeds name them: 子 Rat 0, 丑 Ox 1, 寅 Tiger 2, 卯 Rabbit 3,
# 辰 Dragon 4, 巳 Snake 5, 午 Horse 6, 未 Goat 7, 申 Monkey 8, 酉 Rooster 9, 戌 Dog 10, 亥 Pig 11.
# En Guang by (D - h) mod 12, remainders 0..11: Monkey, Rooster, Dog, Pig, Rat, Ox, Tiger,
# Rabbit, Dragon, Snake, Horse, Goat.
_EN_GUANG_BY_REMAINDER: Final = (8, 9, 10, 11, 0, 1, 2, 3, 4, 5, 6, 7)
# Tian Gui by (D + h) mod 12: Tiger, Rabbit, Dragon, Snake, Horse, Goat, Monkey, Rooster, Dog,
# Pig, Rat, Ox.
_TIAN_GUI_BY_REMAINDER: Final = (2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0, 1)
# Palaces counted forward from En Guang to Tian Gui, by hour Rat .. Pig.
_APART_BY_HOUR: Final = (6, 8, 10, 0, 2, 4, 6, 8, 10, 0, 2, 4)
# Tai Fu by hour Rat .. Pig: Horse, Goat, Monkey, Rooster, Dog, Pig, Rat, Ox, Tiger, Rabbit,
# Dragon, Snake.
_TAI_FU_BY_HOUR: Final = (6, 7, 8, 9, 10, 11, 0, 1, 2, 3, 4, 5)
# The six hour stars at the Rat and Horse hours (seed 003's table), and their directions.
_SIX_AT_RAT: Final = {
    "wen_chang": 10,
    "wen_qu": 4,
    "di_kong": 11,
    "di_jie": 11,
    "tai_fu": 6,
    "feng_gao": 2,
}
_SIX_AT_HORSE: Final = {
    "wen_chang": 4,
    "wen_qu": 10,
    "di_kong": 5,
    "di_jie": 5,
    "tai_fu": 0,
    "feng_gao": 8,
}
_SIX_FORWARD: Final = ("wen_qu", "di_jie", "tai_fu", "feng_gao")
_SIX_BACK: Final = ("wen_chang", "di_kong")
_HEALTH: Final = 7  # PalaceName.HEALTH, 疾厄


def _six_at(hour: int, branches: dict[str, int]) -> str:
    equal = " AND ".join(f"{star} = {b}" for star, b in branches.items())
    return f"({H} = {hour} AND NOT ({equal}))"


def _six_moving() -> str:
    wrong = [f"{s} <> {mod12(f'{_SIX_AT_RAT[s]} + {H}')}" for s in _SIX_FORWARD]
    wrong += [f"{s} <> {mod12(f'{_SIX_AT_RAT[s]} - {H}')}" for s in _SIX_BACK]
    return " OR ".join(wrong)


# ---- ZW-AUX-05 Wen Chang, ZW-AUX-06 Wen Qu, ZW-AUX-20 Feng Gao (the hour stars) ----
# Not from a seed: each source names the article and the book line or data table it encodes.
_HOUR_VERSE: Final = (
    "ZW-AUX-05/06 (Wen Chang, Wen Qu): 紫微斗数全书 卷二 安文昌文曲星诀 "
    "(ziwei-quanshu.juan2.newdu-full.txt L21–23)"
)
_FENG_GAO: Final = (
    "ZW-AUX-20 (Feng Gao): 紫微斗数全书 卷二 安封诰诀 (ziwei-quanshu.juan2.newdu-full.txt L66–67)"
)
_GRADES_BOOK: Final = (
    "紫微斗数全书 卷二 庙旺得地利益平和不得地落陷 table (ziwei-quanshu.juan2.newdu-full.txt "
    "L383–433), read cell by cell"
)
# Grades as the dataset numbers them: 0 庙 Temple, 1 旺 Prosperous, 2 得 Gaining, 3 利
# Favourable, 4 平 Level, 5 不 Unfavourable, 6 陷 Fallen.  By branch 子 … 亥, as the book's
# table grades 昌 and 曲 (the 得地 column is 得, 利益 利, 平和 平, 落陷 陷).
_WEN_CHANG_GRADES: Final = (2, 0, 6, 3) * 3
_WEN_QU_GRADES: Final = (2, 0, 4, 1, 2, 0, 6, 1, 2, 0, 6, 1)
_TEMPLE: Final = 0
_FALLEN: Final = 6


def _graded(star: str, grades: Sequence[int]) -> str:
    """Rows where ``star``'s grade is missing or not ``grades[its branch]``."""
    return count_rows_where(f"coalesce({star}__brightness, -1) <> {list_at(grades, star)}")


_ZIWEI_CLAIMS: Final[tuple[Claim, ...]] = (
    # ---- En Guang (seed 000) ----
    Claim(
        key="en_guang_remainder_table",
        statement=(
            "En Guang (恩光) lands by the remainder of (day − hour number) mod 12: 0 Monkey, "
            "1 Rooster, 2 Dog, 3 Pig, 4 Rat, 5 Ox, 6 Tiger, 7 Rabbit, 8 Dragon, 9 Snake, "
            "10 Horse, 11 Goat (hour numbers Rat 0 … Pig 11; the late Rat hour is Rat on the "
            "next day)"
        ),
        source=f"{_EN_GUANG}: 'The whole lookup follows, each row labeled by the remainder of "
        '"day minus hour number" divided by 12\'',
        sql=count_rows_where(f"en_guang <> {list_at(_EN_GUANG_BY_REMAINDER, mod12(f'{D} - {H}'))}"),
        settings=_NEXT_DAY,
    ),
    Claim(
        key="en_guang_day_minus_hour",
        statement="En Guang's branch depends only on (day − hour number) mod 12",
        source=f"{_EN_GUANG}: 'The landing therefore depends only on \"day minus hour "
        "number\", where the hours are numbered Rat 0, Ox 1, up to Pig 11.'",
        sql=count_rows_of_groups_varying(mod12(f"{D} - {H}"), "en_guang"),
        settings=_NEXT_DAY,
    ),
    Claim(
        key="en_guang_no_month",
        statement="En Guang's branch depends on the lunar day and the time index alone, "
        "never on the month (or year, or gender)",
        source=f"{_EN_GUANG}: 'The landing depends on day and hour alone, with no month'",
        sql=count_rows_of_groups_varying("lunar_day, time_index", "en_guang"),
    ),
    Claim(
        key="en_guang_from_wen_chang",
        statement="En Guang: put day 1 on Wen Chang's palace, count forward to the birth day, "
        "step back one (En Guang = Wen Chang + day − 2)",
        source=f"{_EN_GUANG}: 'Find Wen Chang (文昌) from the hour, place lunar day 1 on the "
        "palace where it sits, count forward to the birth day, and finally step back one "
        "palace; where you stop is En Guang.'",
        sql=count_rows_where(f"en_guang <> {mod12(f'wen_chang + {D} - 2')}"),
        settings=_NEXT_DAY,
    ),
    Claim(
        key="en_guang_on_wen_chang_days_2_14_26",
        statement="On days 2, 14 and 26 (day mod 12 = 2) En Guang is in Wen Chang's palace",
        source=f"{_EN_GUANG}: 'On days 2, 14 and 26, En Guang shares Wen Chang's palace, a "
        "cycle of twelve days.' / 'When the day leaves remainder 2 on division by 12, En "
        "Guang must sit on Wen Chang's palace'",
        sql=count_rows_where(f"{D} % 12 = 2 AND en_guang <> wen_chang"),
        total_sql=count_rows_where(f"{D} % 12 = 2"),
        settings=_NEXT_DAY,
    ),
    Claim(
        key="en_guang_late_rat_day_1",
        statement="A birth in the late Rat hour of lunar day 1 is set as day 2, so En Guang "
        "is in Wen Chang's palace",
        source=f"{_EN_GUANG}: 'someone born after 11 pm on lunar day 1 is set as day 2, and "
        "En Guang also lands on Wen Chang's palace'",
        sql=count_rows_where("time_index = 12 AND lunar_day = 1 AND en_guang <> wen_chang"),
        total_sql=count_rows_where("time_index = 12 AND lunar_day = 1"),
        settings=_NEXT_DAY,
    ),
    # ---- Tian Gui (seed 001) ----
    Claim(
        key="tian_gui_remainder_table",
        statement=(
            "Tian Gui (天贵) lands by the remainder of (day + hour number) mod 12: 0 Tiger, "
            "1 Rabbit, 2 Dragon, 3 Snake, 4 Horse, 5 Goat, 6 Monkey, 7 Rooster, 8 Dog, "
            "9 Pig, 10 Rat, 11 Ox"
        ),
        source=f'{_TIAN_GUI}: \'Reduce "day plus hour number" modulo 12 and read the '
        "matching row (the Rat hour counts as 0 and the Pig hour as 11)'",
        sql=count_rows_where(f"tian_gui <> {list_at(_TIAN_GUI_BY_REMAINDER, mod12(f'{D} + {H}'))}"),
        settings=_NEXT_DAY,
    ),
    Claim(
        key="tian_gui_from_wen_qu",
        statement="Tian Gui: put day 1 on Wen Qu's palace, count forward to the birth day, "
        "step back one (Tian Gui = Wen Qu + day − 2)",
        source=f"{_TIAN_GUI}: 'Find Wen Qu (文曲) from the hour, let lunar day 1 sit on its "
        "palace, walk forward one palace per day to the birth day, then retreat a single "
        "palace; where you end is Tian Gui.'",
        sql=count_rows_where(f"tian_gui <> {mod12(f'wen_qu + {D} - 2')}"),
        settings=_NEXT_DAY,
    ),
    Claim(
        key="tian_gui_no_month",
        statement="Tian Gui's branch depends on the lunar day and the time index alone",
        source=f"{_TIAN_GUI}: 'Wen Qu is set by the hour, so only birth day and hour matter "
        "and the month plays no part.'",
        sql=count_rows_of_groups_varying("lunar_day, time_index", "tian_gui"),
    ),
    Claim(
        key="san_tai_same_table_as_tian_gui",
        statement="San Tai (三台) follows Tian Gui's remainder table with (month + day) in "
        "place of (day + hour number)",
        source=f"{_TIAN_GUI}: 'This is the same table as San Tai's: San Tai looks up \"month "
        'plus day", Tian Gui looks up "hour number plus day"\'',
        sql=count_rows_where(
            f"san_tai <> {list_at(_TIAN_GUI_BY_REMAINDER, mod12(f'{M_SPLIT} + {D}'))}"
        ),
        settings=_NEXT_DAY + _SPLIT,
    ),
    Claim(
        key="tian_gui_en_guang_same_palace_rabbit_rooster",
        statement="Tian Gui and En Guang share a palace exactly when the hour is Rabbit (卯) "
        "or Rooster (酉)",
        source=f"{_TIAN_GUI}: 'Rabbit and Rooster hours in the same palace' / 'A shared "
        "palace happens only in the Rabbit and Rooster hours.'",
        sql=count_rows_where(f"(en_guang = tian_gui) <> ({H} IN (3, 9))"),
    ),
    Claim(
        key="tian_gui_en_guang_apart_by_hour",
        statement="Counted forward from En Guang to Tian Gui: Rat 6, Ox 8, Tiger 10, Rabbit 0, "
        "Dragon 2, Snake 4, Horse 6, Goat 8, Monkey 10, Rooster 0, Dog 2, Pig 4",
        source=f"{_TIAN_GUI}: 'Hour by hour, the number of palaces counted forward from En "
        "Guang to Tian Gui'",
        sql=count_rows_where(f"{mod12('tian_gui - en_guang')} <> {list_at(_APART_BY_HOUR, H)}"),
    ),
    Claim(
        key="tian_gui_en_guang_distance_hour_alone",
        statement="The distance from En Guang to Tian Gui depends on the hour alone",
        source=f"{_TIAN_GUI}: 'Its position against En Guang depends on the hour alone'",
        sql=count_rows_of_groups_varying(H, mod12("tian_gui - en_guang")),
    ),
    # ---- Tai Fu and the six hour stars (seed 003) ----
    Claim(
        key="tai_fu_from_horse",
        statement="Tai Fu (台辅) puts the Rat hour on the Horse palace and counts forward "
        "(Rat Horse … Pig Snake); the late Rat hour counts as Rat",
        source=f"{_TAI_FU}: 'Tai Fu's own twelve landings are below, the late Rat hour "
        "counting as Rat and staying on the Horse palace'",
        sql=count_rows_where(f"tai_fu <> {list_at(_TAI_FU_BY_HOUR, H)}"),
    ),
    Claim(
        key="feng_gao_wen_qu_tai_fu_two_apart",
        statement="Wen Qu is two places after Feng Gao (封诰) and Tai Fu two after Wen Qu, "
        "in every hour",
        source=f"{_TAI_FU}: 'So in any hour Wen Qu sits two places after Feng Gao and Tai Fu "
        "two places after Wen Qu'",
        sql=count_rows_where(
            f"wen_qu <> {mod12('feng_gao + 2')} OR tai_fu <> {mod12('wen_qu + 2')}"
        ),
    ),
    Claim(
        key="six_hour_stars_rat_and_horse",
        statement="At the Rat hour: Wen Chang Dog, Wen Qu Dragon, Di Kong Pig, Di Jie Pig, "
        "Tai Fu Horse, Feng Gao Tiger; at the Horse hour: Dragon, Dog, Snake, Snake, Rat, "
        "Monkey",
        source=f"{_TAI_FU}: 'Landings of the six hour stars at the Rat and Horse hours'",
        sql=count_rows_where(f"{_six_at(0, _SIX_AT_RAT)} OR {_six_at(6, _SIX_AT_HORSE)}"),
        total_sql=count_rows_where(f"{H} IN (0, 6)"),
    ),
    Claim(
        key="six_hour_stars_four_forward_two_back",
        statement="From their Rat-hour places, Wen Qu, Di Jie, Tai Fu and Feng Gao move one "
        "place forward per hour and Wen Chang and Di Kong one place back",
        source=f"{_TAI_FU}: 'of the six hour stars these three and Di Jie move forward, Wen "
        "Chang and Di Kong move back'",
        sql=count_rows_where(_six_moving()),
    ),
    Claim(
        key="six_hour_stars_hour_only",
        statement="Wen Chang, Wen Qu, Di Kong, Di Jie, Tai Fu and Feng Gao depend on the "
        "birth hour only",
        source=f"{_TAI_FU}: 'In the site's engine, six stars look only at the birth hour'",
        sql=count_rows_of_groups_varying(
            H, "[wen_chang, wen_qu, di_kong, di_jie, tai_fu, feng_gao]"
        ),
    ),
    Claim(
        key="tai_fu_seven_after_di_jie",
        statement="Tai Fu is seven places after Di Jie (地劫)",
        source=f"{_TAI_FU}: 'Tai Fu is two places after Wen Qu and seven places after Di Jie'",
        sql=count_rows_where(f"tai_fu <> {mod12('di_jie + 7')}"),
    ),
    # ---- Di Kong (seed 004) ----
    Claim(
        key="di_kong_from_pig_back",
        statement="Di Kong (地空) puts the Rat hour on the Pig palace and steps back one "
        "palace per hour; the late Rat hour shares the Rat hour's Pig",
        source=f"{_DI_KONG}: 'Put the Rat hour on the Pig palace; each later hour then steps "
        "back one palace'",
        sql=count_rows_where(f"di_kong <> {mod12(f'11 - {H}')}"),
    ),
    Claim(
        key="di_kong_di_jie_book_examples",
        statement="Rat hour: Di Jie and Di Kong both on Pig; Ox hour: Di Jie on Rat, Di Kong "
        "on Dog; Horse hour: both on Snake",
        source=f"{_DI_KONG}: 'Someone born in the Rat hour has Jie and Kong both in the Pig "
        "palace. Born in the Ox hour, Jie goes forward to the Rat palace and Kong goes back "
        "to the Dog palace. Born in the Horse hour, Jie and Kong are both set on Snake.'",
        sql=count_rows_where(
            f"({H} = 0 AND NOT (di_jie = 11 AND di_kong = 11)) "
            f"OR ({H} = 1 AND NOT (di_jie = 0 AND di_kong = 10)) "
            f"OR ({H} = 6 AND NOT (di_jie = 5 AND di_kong = 5))"
        ),
        total_sql=count_rows_where(f"{H} IN (0, 1, 6)"),
    ),
    Claim(
        key="di_kong_one_after_wen_chang",
        statement="Di Kong is on the branch just after Wen Chang's (Wen Chang + 1)",
        source=f"{_DI_KONG}: 'so in every hour Di Kong sits on the branch just after Wen Chang's'",
        sql=count_rows_where(f"di_kong <> {mod12('wen_chang + 1')}"),
    ),
    Claim(
        key="di_kong_palace_by_month_split",
        statement="Di Kong's palace name depends on the birth month only (leap month split: "
        "days 16 on count as the next month, but not at the late Rat hour)",
        source=f"{_DI_KONG}: 'Turned into palace names, counting from the Life palace in "
        "palace order, the lunar month of birth tells where Di Kong sits'",
        sql=count_rows_of_groups_varying(M_SPLIT, palace_name_at("di_kong")),
        settings=_SPLIT,
    ),
    Claim(
        key="di_kong_palace_by_month_whole",
        statement="Di Kong's palace name depends on the birth month only (leap month whole: "
        "a leap month counts as the month it repeats)",
        source=f"{_DI_KONG}: 'Turned into palace names, counting from the Life palace in "
        "palace order, the lunar month of birth tells where Di Kong sits'",
        sql=count_rows_of_groups_varying(M_WHOLE, palace_name_at("di_kong")),
        settings=_WHOLE,
    ),
    Claim(
        key="di_kong_month_3_health",
        statement="For a third-month birth, any hour leaves Di Kong in the Health palace (疾厄)",
        source=f"{_DI_KONG}: 'Born in the third lunar month, Di Kong is in the Health palace "
        "in every hour.'",
        sql=count_rows_where(f"{M_SPLIT} = 3 AND {palace_name_at('di_kong')} <> {_HEALTH}"),
        total_sql=count_rows_where(f"{M_SPLIT} = 3"),
        settings=_SPLIT,
    ),
    # ---- ZW-AUX-05 Wen Chang, ZW-AUX-06 Wen Qu, ZW-AUX-20 Feng Gao ----
    Claim(
        key="wen_chang_from_dog_back",
        statement="Wen Chang (文昌) puts the Rat hour on the Dog palace and steps back one "
        "palace per hour (Wen Chang = Dog − hour number); the late Rat hour counts as Rat",
        source=f"{_HOUR_VERSE}: 子时戌上起文昌，逆到生时是贵乡",
        sql=count_rows_where(f"wen_chang <> {mod12(f'10 - {H}')}"),
    ),
    Claim(
        key="wen_qu_from_dragon",
        statement="Wen Qu (文曲) puts the Rat hour on the Dragon palace and steps forward one "
        "palace per hour (Wen Qu = Dragon + hour number); the late Rat hour counts as Rat",
        source=f"{_HOUR_VERSE}: 文曲数从辰上起，顺到生时是本乡",
        sql=count_rows_where(f"wen_qu <> {mod12(f'4 + {H}')}"),
    ),
    Claim(
        key="wen_chang_wen_qu_book_examples",
        statement="Rat hour: Wen Chang on Dog, Wen Qu on Dragon; Ox hour: Wen Chang on "
        "Rooster, Wen Qu on Snake",
        source=f"{_HOUR_VERSE}: 就在戌宫安，若丑时逆至酉宫安之 / 就在辰宫安，若丑时顺去巳宫安之",
        sql=count_rows_where(
            f"({H} = 0 AND NOT (wen_chang = 10 AND wen_qu = 4)) "
            f"OR ({H} = 1 AND NOT (wen_chang = 9 AND wen_qu = 5))"
        ),
        total_sql=count_rows_where(f"{H} IN (0, 1)"),
    ),
    Claim(
        key="wen_chang_wen_qu_mirror",
        statement="Wen Chang and Wen Qu are mirror images across the Ox–Goat line: their "
        "branch numbers add up to 2 (mod 12) in every hour",
        source=f"{_HOUR_VERSE}: (Dog − h) + (Dragon + h) = 10 + 4 ≡ 2",
        sql=count_rows_where(f"{mod12('wen_chang + wen_qu')} <> 2"),
    ),
    Claim(
        key="wen_chang_wen_qu_same_palace_rabbit_rooster",
        statement="Wen Chang and Wen Qu share a palace exactly in the Rabbit hour (both on "
        "Goat) and the Rooster hour (both on Ox)",
        source=f"{_HOUR_VERSE}: Dog − h = Dragon + h exactly when 2h ≡ 6 (mod 12)",
        sql=count_rows_where(
            f"(wen_chang = wen_qu) <> ({H} IN (3, 9)) "
            f"OR ({H} = 3 AND wen_chang <> 7) OR ({H} = 9 AND wen_chang <> 1)"
        ),
    ),
    Claim(
        key="wen_chang_wen_qu_opposite_rat_horse",
        statement="Wen Chang and Wen Qu face each other (six palaces apart) exactly in the Rat "
        "and Horse hours, on the Dragon–Dog axis",
        source=f"{_HOUR_VERSE}: (Dragon + h) − (Dog − h) ≡ 6 exactly when 2h ≡ 0 (mod 12)",
        sql=count_rows_where(
            f"({mod12('wen_qu - wen_chang')} = 6) <> ({H} IN (0, 6)) "
            f"OR ({H} IN (0, 6) AND wen_chang NOT IN (4, 10))"
        ),
    ),
    Claim(
        key="wen_chang_brightness_book",
        statement="Wen Chang's grade by branch, Rat to Pig, is 得庙陷利 three times over: "
        "Gaining, Temple, Fallen, Favourable, as the Quan Shu's juan 2 table grades 昌",
        source=f"ZW-AUX-05 (Wen Chang): {_GRADES_BOOK}",
        sql=_graded("wen_chang", _WEN_CHANG_GRADES),
    ),
    Claim(
        key="wen_qu_brightness_book",
        statement="Wen Qu's grade by branch, Rat to Pig, is 得庙平旺 得庙陷旺 得庙陷旺, as the "
        "Quan Shu's juan 2 table grades 曲",
        source=f"ZW-AUX-06 (Wen Qu): {_GRADES_BOOK}",
        sql=_graded("wen_qu", _WEN_QU_GRADES),
    ),
    Claim(
        key="wen_chang_wen_qu_temple_hours",
        statement="Wen Chang and Wen Qu are in Temple (庙) in the same hours, exactly the Ox, "
        "Snake and Rooster hours",
        source=f"ZW-AUX-05/06 (Wen Chang, Wen Qu): {_GRADES_BOOK} (庙 on 丑 巳 酉 for both)",
        sql=count_rows_where(
            f"(wen_chang__brightness = {_TEMPLE}) <> ({H} IN (1, 5, 9)) "
            f"OR (wen_qu__brightness = {_TEMPLE}) <> ({H} IN (1, 5, 9))"
        ),
    ),
    Claim(
        key="wen_chang_fallen_hours",
        statement="Wen Chang is Fallen (陷) exactly in the Rat, Dragon and Monkey hours (on "
        "Dog, Horse and Tiger)",
        source=f"ZW-AUX-05 (Wen Chang): {_GRADES_BOOK} (昌 落陷 on 寅 午 戌) with the hour verse",
        sql=count_rows_where(f"(wen_chang__brightness = {_FALLEN}) <> ({H} IN (0, 4, 8))"),
    ),
    Claim(
        key="wen_qu_fallen_hours",
        statement="Wen Qu is Fallen (陷) exactly in the Tiger and Horse hours (on Horse and "
        "Dog); on Tiger, in the Dog hour, it is Level (平)",
        source=f"ZW-AUX-06 (Wen Qu): {_GRADES_BOOK} (曲 落陷 on 午 戌, 平和 on 寅)",
        sql=count_rows_where(
            f"(wen_qu__brightness = {_FALLEN}) <> ({H} IN (2, 6)) "
            f"OR ({H} = 10 AND wen_qu__brightness <> 4)"
        ),
    ),
    Claim(
        key="wen_chang_palace_by_month_split",
        statement="Wen Chang's palace name depends on the birth month only (leap month split: "
        "days 16 on count as the next month, but not at the late Rat hour)",
        source=f"{_HOUR_VERSE}, with 安身命例 (L3–4): Wen Chang and the Life palace both step "
        "back one palace per hour",
        sql=count_rows_of_groups_varying(M_SPLIT, palace_name_at("wen_chang")),
        settings=_SPLIT,
    ),
    Claim(
        key="wen_chang_palace_by_month_whole",
        statement="Wen Chang's palace name depends on the birth month only (leap month whole: "
        "a leap month counts as the month it repeats)",
        source=f"{_HOUR_VERSE}, with 安身命例 (L3–4): Wen Chang and the Life palace both step "
        "back one palace per hour",
        sql=count_rows_of_groups_varying(M_WHOLE, palace_name_at("wen_chang")),
        settings=_WHOLE,
    ),
    Claim(
        key="feng_gao_from_tiger",
        statement="Feng Gao (封诰) puts the Rat hour on the Tiger palace and steps forward one "
        "palace per hour (Feng Gao = Tiger + hour number); the late Rat hour counts as Rat",
        source=f"{_FENG_GAO}: 由寅起宫子顺数至本生时安之",
        sql=count_rows_where(f"feng_gao <> {mod12(f'2 + {H}')}"),
    ),
    Claim(
        key="feng_gao_tai_fu_trine",
        statement="Tai Fu is four palaces after Feng Gao in every hour, so the two stand in one "
        "trine (三合); the trine's third corner is the palace opposite Wen Qu",
        source=f"{_FENG_GAO}, with 安台辅封诀 (L64–65, Tai Fu from 午): Horse − Tiger = 4",
        sql=count_rows_where(
            f"tai_fu <> {mod12('feng_gao + 4')} OR {mod12('wen_qu + 6')} <> {mod12('feng_gao + 8')}"
        ),
    ),
    Claim(
        key="feng_gao_wen_chang_mirror",
        statement="Feng Gao and Wen Chang are mirror images across the Rat–Horse line (their "
        "branch numbers add up to 0 mod 12) and share a palace exactly in the Dragon and Dog "
        "hours",
        source=f"{_FENG_GAO}, with 安文昌文曲星诀 (L21): (Tiger + h) + (Dog − h) = 12",
        sql=count_rows_where(
            f"{mod12('feng_gao + wen_chang')} <> 0 OR (feng_gao = wen_chang) <> ({H} IN (4, 10))"
        ),
    ),
)


# ---------------------------------------------------------------- the BaZi Literary Star
# Over the BaZi space (mingshu sweep bazi): one row per stretch of time with one pillar set;
# ``<star>__<variant>`` is the 4-bit mask of the pillars where that table finds the star
# (1 year, 2 month, 4 day, 8 hour).  The day stem is ``day_pillar % 10`` (甲 0 … 癸 9) and a
# pillar's branch ``<pillar>_pillar % 12`` (子 0 … 亥 11): 甲子 is 0 in the sixty.

_LITERARY: Final = "002_c6e2f7fdb7a6de8d.txt (BZ-SS-02, Literary Star)"
_DAY_STEM: Final = "(day_pillar % 10)"
# The site table, as the seed lists it: Yang Wood Snake, Yin Wood Horse, Yang Fire Monkey,
# Yin Fire Rooster, Yang Earth Monkey, Yin Earth Rooster, Yang Metal Pig, Yin Metal Rat,
# Yang Water Tiger, Yin Water Rabbit.
_SITE_LITERARY: Final = (5, 6, 8, 9, 8, 9, 11, 0, 2, 3)
_W1: Final = "wen_chang__w1"
# Each star on its data file's basis (the day stem for 文昌 and 天厨), no peer profile: other
# bases (the year stem as a second basis) would add hits the seed does not describe.
_DAY_STEM_ONLY: Final[tuple[tuple[str, object], ...]] = (("star_bases", {}), ("profile", ""))


def _branch_mask(table: Sequence[int]) -> str:
    """The mask of the pillars whose branch is ``table[day stem]``: all four are searched."""
    looked_up = list_at(table, _DAY_STEM)
    return " + ".join(
        f"(CASE WHEN {pillar}_pillar % 12 = {looked_up} THEN {1 << bit} ELSE 0 END)"
        for bit, pillar in enumerate(("year", "month", "day", "hour"))
    )


def _stems(stems: Sequence[int]) -> str:
    return f"{_DAY_STEM} IN ({', '.join(map(str, stems))})"


def _compare(
    other: str, label: str, same: Sequence[int], source: str, sentence: str
) -> tuple[Claim, Claim]:
    """Two claims: W1 and ``other`` find the star in the same pillars on every row of the
    day stems ``same``, and for each of the other stems on some row they do not."""
    differ = [s for s in range(10) if s not in same]
    names = "".join("甲乙丙丁戊己庚辛壬癸"[s] for s in same)
    others = "".join("甲乙丙丁戊己庚辛壬癸"[s] for s in differ)
    agree = Claim(
        key=f"wen_chang_w1_{other.split('__')[1]}_agree",
        statement=f"The Literary Star's site table (W1) and {label} agree for the day stems "
        f"{names}: on every row of those days they find the star in the same pillars",
        source=f"{source}: '{sentence}'",
        sql=count_rows_where(f"{_stems(same)} AND {_W1} <> {other}"),
        total_sql=count_rows_where(_stems(same)),
        settings=_DAY_STEM_ONLY,
        schema=BAZI_SCHEMA,
    )
    # Counterexamples here are day stems (of those the tables put apart) on whose rows the
    # two never differ; N is the number of those stems in the dataset.
    apart = Claim(
        key=f"wen_chang_w1_{other.split('__')[1]}_differ",
        statement=f"W1 and {label} differ for each of the day stems {others}: each has a row "
        "where they find the star in different pillars",
        source=f"{source}: '{sentence}'",
        sql=f"SELECT count(*) FROM (SELECT DISTINCT {_DAY_STEM} AS s FROM {VIEW} "
        f"WHERE {_stems(differ)}) AS t WHERE NOT EXISTS (SELECT 1 FROM {VIEW} "
        f"WHERE {_DAY_STEM} = t.s AND {_W1} <> {other})",
        total_sql=f"SELECT count(DISTINCT {_DAY_STEM}) FROM {VIEW} WHERE {_stems(differ)}",
        settings=_DAY_STEM_ONLY,
        schema=BAZI_SCHEMA,
    )
    return agree, apart


BAZI_CLAIMS: Final[tuple[Claim, ...]] = (
    Claim(
        key="wen_chang_w1_site_table",
        statement="The Literary Star (W1, the site table) is found exactly in the pillars, all "
        "four searched and the day pillar's own branch included, whose branch is the one the "
        "day stem maps to: 甲 巳, 乙 午, 丙 申, 丁 酉, 戊 申, 己 酉, 庚 亥, 辛 子, 壬 寅, 癸 卯",
        source=f"{_LITERARY}: 'Yang Wood Snake, Yin Wood Horse, Yang Fire Monkey, Yin Fire "
        "Rooster, Yang Earth Monkey, Yin Earth Rooster, Yang Metal Pig, Yin Metal Rat, Yang "
        "Water Tiger, Yin Water Rabbit'",
        sql=count_rows_where(f"{_W1} <> {_branch_mask(_SITE_LITERARY)}"),
        settings=_DAY_STEM_ONLY,
        schema=BAZI_SCHEMA,
    ),
    *_compare(
        "wen_chang__w2",
        "W2 (三命通会 卷三 文昌贵)",
        (0, 4),
        _LITERARY,
        "the list matches the site table only at Yang Wood (Snake) and Yang Earth (Monkey); "
        "the other eight stems differ",
    ),
    *_compare(
        "wen_chang__w3",
        "W3 (三命通会 卷三 文星贵)",
        (2, 3, 4, 5, 8, 9),
        _LITERARY,
        "Against the site's Literary Star table, six cells agree: Yang Fire, Yin Fire, Yang "
        "Earth, Yin Earth, Yang Water and Yin Water",
    ),
    *_compare(
        "wen_chang__w4",
        "W4 (星学大成 卷一 论文昌)",
        (0, 1, 2, 3, 4, 5, 6, 8, 9),
        _LITERARY,
        "agrees on nine of ten cells and differs only at Yin Metal (Dog in the book, Rat on "
        "the site)",
    ),
    *_compare(
        "tian_chu__k1",
        "the Heavenly Kitchen (天厨, K1: the Eating God's Emolument)",
        (0, 1, 4, 5, 6, 7, 8, 9),
        _LITERARY,
        "Another site Symbolic Star, the Heavenly Kitchen (天厨贵人), has a rule that reads "
        'exactly "take the Emolument of the Eating God", and its table differs from the '
        "Literary Star table only at those two Fire cells",
    ),
)
"""The Literary Star's engine facts (seed BZ-SS-02) as claims over the BaZi space: the site
table W1 itself, and W1 against W2, W3, W4 and the Heavenly Kitchen K1, cell by cell."""

# ------------------------------ ZW-AUX-12 Di Jie, ZW-AUX-13 Tian Kong, ZW-AUX-15 San Tai,
# ZW-AUX-16 Ba Zuo (issue 11): the other hour star of the 天空地劫 verse, the year star
# named 天空, and the two day stars counted from 左辅 and 右弼, whose month is the leap-month
# setting's and whose day is the day-change setting's.

_DI_JIE: Final = "ZW-AUX-12 (Di Jie)"
_TIAN_KONG: Final = "ZW-AUX-13 (Tian Kong)"
_SAN_TAI: Final = "ZW-AUX-15 (San Tai)"
_BA_ZUO: Final = "ZW-AUX-16 (Ba Zuo)"
_YEAR_BRANCH: Final = "(year_pillar % 12)"
_LUNAR_NEW_YEAR: Final = (("horoscope_boundary", "lunar_new_year"),)
_LATE_RAT: Final = "time_index = 12"
_SECOND_HALF: Final = f"lunar_leap AND lunar_day > 15 AND NOT {_LATE_RAT}"


def _zuo_fu(month: str) -> str:
    """Zuo Fu's branch: month 1 on Dragon, forward by month."""
    return mod12(f"4 + {month} - 1")


def _you_bi(month: str) -> str:
    """You Bi's branch: month 1 on Dog, back by month."""
    return mod12(f"10 - ({month} - 1)")


_MONTH_SENTENCE: Final = {
    "zuo_fu": "the first lunar month on the Dragon palace, one palace forward for each later month",
    "you_bi": "You Bi puts the first lunar month on the Dog palace and steps back one palace "
    "with each later month.",
}


def _month_claims(star: str, rule: str, m: str, label: str, setting: object) -> Claim:
    by = {"zuo_fu": _zuo_fu, "you_bi": _you_bi}[star]
    name = {"zuo_fu": "Zuo Fu (左辅)", "you_bi": "You Bi (右弼)"}[star]
    article = _SAN_TAI if star == "zuo_fu" else _BA_ZUO
    return Claim(
        key=f"{star}_by_month_{setting}",
        statement=f"{name} puts month 1 on {rule} ({label})",
        source=f"{article}: '{_MONTH_SENTENCE[star]}'",
        sql=count_rows_where(f"{star} <> {by(m)}"),
        settings=(("leap_month", setting),),
    )


_MONTH_DAY_CLAIMS: Final[tuple[Claim, ...]] = (
    # ---- ZW-AUX-12 Di Jie ----
    Claim(
        key="di_jie_from_pig_forward",
        statement="Di Jie (地劫) puts the Rat hour on the Pig palace and steps forward one "
        "palace per hour; the late Rat hour counts as Rat",
        source=f"{_DI_JIE}: 'The Rat hour goes on the Pig palace, and each later hour goes one "
        "palace further forward.'",
        sql=count_rows_where(f"di_jie <> {mod12(f'11 + {H}')}"),
    ),
    Claim(
        key="di_jie_di_kong_mirror",
        statement="Di Jie and Di Kong mirror each other across the Pig–Snake line: their "
        "branch numbers add up to 10 (mod 12) in every hour",
        source=f"{_DI_JIE}: 'In branch numbers (Rat 0 to Pig 11) the pair always adds up to 10, or "
        "to 22, which is 10 once a lap is taken off.'",
        sql=count_rows_where(f"{mod12('di_jie + di_kong')} <> 10"),
    ),
    Claim(
        key="di_jie_meets_di_kong_rat_horse",
        statement="Di Jie and Di Kong share a palace exactly when the hour is Rat (early or "
        "late) or Horse",
        source=f"{_DI_JIE}: 'That happens in the Rat hour, when both are on Pig, and in the Horse "
        "hour, when both are on Snake; in no other hour.'",
        sql=count_rows_where(f"(di_jie = di_kong) <> ({H} IN (0, 6))"),
    ),
    Claim(
        key="di_jie_di_kong_together",
        statement="Every chart with Di Jie and Di Kong in one palace has a Rat or Horse hour, "
        "with both stars on Pig or both on Snake",
        source=f"{_DI_JIE}: 'Counted the other way round, from every chart where the two share a "
        "palace, each one is a Rat or Horse birth with the pair on Pig or on Snake.'",
        sql=count_rows_where(
            f"di_jie = di_kong AND NOT (({H} = 0 AND di_jie = 11) OR ({H} = 6 AND di_jie = 5))"
        ),
        total_sql=count_rows_where("di_jie = di_kong"),
    ),
    Claim(
        key="di_jie_late_rat_on_pig",
        statement="Born in the late Rat hour (23:00–24:00), Di Jie and Di Kong are both on Pig, "
        "as in the early Rat hour",
        source=f"{_DI_JIE}: 'Di Jie does not look at the day, so it stays on Pig beside Di Kong.'",
        sql=count_rows_where(f"{_LATE_RAT} AND NOT (di_jie = 11 AND di_kong = 11)"),
        total_sql=count_rows_where(_LATE_RAT),
    ),
    Claim(
        key="di_jie_palace_by_month_and_hour_split",
        statement="Di Jie's palace name depends on (month − 2 × hour number) mod 12, never on "
        "the month alone (leap month split)",
        source=f"{_DI_JIE}: 'the palace name follows the month minus twice the hour number'",
        sql=count_rows_of_groups_varying(mod12(f"{M_SPLIT} - 2 * {H}"), palace_name_at("di_jie")),
        settings=_SPLIT,
    ),
    Claim(
        key="di_jie_palace_by_month_and_hour_whole",
        statement="Di Jie's palace name depends on (month − 2 × hour number) mod 12 (leap "
        "month whole)",
        source=f"{_DI_JIE}: 'the palace name follows the month minus twice the hour number'",
        sql=count_rows_of_groups_varying(mod12(f"{M_WHOLE} - 2 * {H}"), palace_name_at("di_jie")),
        settings=_WHOLE,
    ),
    Claim(
        key="di_jie_no_brightness",
        statement="The engine gives Di Jie no brightness grade on any chart",
        source=f"{_DI_JIE}: 'The engine gives Di Jie no brightness grade on any chart.'",
        sql=count_rows_where("di_jie__brightness IS NOT NULL"),
    ),
    # ---- ZW-AUX-13 Tian Kong ----
    Claim(
        key="tian_kong_lunar_year",
        statement="Tian Kong (天空) stands one branch after the branch of the lunar year "
        "(year − 4 mod 12; the year begins at the lunar new year)",
        source=f"{_TIAN_KONG}: 'The year is the lunar year, which starts at the lunar new year.'",
        sql=count_rows_where(f"tian_kong <> {mod12('lunar_year - 4 + 1')}"),
        settings=_LUNAR_NEW_YEAR,
    ),
    Claim(
        key="tian_kong_meets_di_kong",
        statement="Tian Kong and Di Kong share a palace exactly when year branch + hour "
        "number = 10 (mod 12)",
        source=f"{_TIAN_KONG}: 'They coincide when the year branch and the hour number add up to "
        "10, mod 12.'",
        sql=count_rows_where(f"(tian_kong = di_kong) <> ({mod12(f'{_YEAR_BRANCH} + {H}')} = 10)"),
    ),
    Claim(
        key="tian_kong_di_kong_together",
        statement="Every chart with Tian Kong and Di Kong in one palace has year branch + hour "
        "number = 10 (mod 12)",
        source=f"{_TIAN_KONG}: 'Taken from the other side, every chart where the two stand "
        "together has that sum.'",
        sql=count_rows_where(f"tian_kong = di_kong AND {mod12(f'{_YEAR_BRANCH} + {H}')} <> 10"),
        total_sql=count_rows_where("tian_kong = di_kong"),
    ),
    # ---- ZW-AUX-15 San Tai ----
    _month_claims("zuo_fu", "Dragon and counts forward", M_SPLIT, "leap month split", "split"),
    _month_claims("zuo_fu", "Dragon and counts forward", M_WHOLE, "leap month whole", "whole"),
    Claim(
        key="san_tai_from_zuo_fu",
        statement="San Tai (三台): day 1 on Zuo Fu's palace, counted forward to the birth day "
        "(San Tai = Zuo Fu + day − 1; the late Rat hour counts one day more)",
        source=f"{_SAN_TAI}: 'Then lunar day 1 goes on Zuo Fu's palace, and the count advances "
        "a palace for each day until the birth day.'",
        sql=count_rows_where(f"san_tai <> {mod12(f'zuo_fu + {D} - 1')}"),
        settings=_NEXT_DAY,
    ),
    Claim(
        key="san_tai_month_plus_day_whole",
        statement="San Tai follows (month + day) mod 12, remainder 0 on Tiger and forward "
        "(leap month whole)",
        source=f"{_SAN_TAI}: 'So one number is enough: month plus day, taken mod 12.'",
        sql=count_rows_where(f"san_tai <> {mod12(f'{M_WHOLE} + {D} + 2')}"),
        settings=_NEXT_DAY + _WHOLE,
    ),
    Claim(
        key="san_tai_late_rat_day_30",
        statement="Born in the late Rat hour of lunar day 30, San Tai counts day 31 with no "
        "wrap to day 1: it stands opposite Zuo Fu (six palaces on)",
        source=f"{_SAN_TAI}: 'Born in the late Rat hour of day 30, the count goes on to a day 31, "
        "which puts San Tai directly opposite Zuo Fu.'",
        sql=count_rows_where(
            f"{_LATE_RAT} AND lunar_day = 30 AND san_tai <> {mod12('zuo_fu + 6')}"
        ),
        total_sql=count_rows_where(f"{_LATE_RAT} AND lunar_day = 30"),
        settings=_NEXT_DAY,
    ),
    Claim(
        key="zuo_fu_leap_second_half_next_month",
        statement="Under the split setting, days 16 on of a leap month put Zuo Fu where the "
        "next month puts it, except at the late Rat hour",
        source=f"{_SAN_TAI}: 'days 1 to 15 of a leap month count as the month repeated, days 16 on "
        "as the next month.'",
        sql=count_rows_where(f"{_SECOND_HALF} AND zuo_fu <> {_zuo_fu('lunar_month + 1')}"),
        total_sql=count_rows_where(_SECOND_HALF),
        settings=_SPLIT,
    ),
    Claim(
        key="zuo_fu_leap_late_rat_stays",
        statement="Under the split setting, a late Rat hour on day 16 or later of a leap month "
        "keeps the repeated month for Zuo Fu",
        source=f"{_SAN_TAI}: 'A late Rat hour is never moved into the next month, even on day 16 "
        "or later.'",
        sql=count_rows_where(
            f"lunar_leap AND lunar_day > 15 AND {_LATE_RAT} AND zuo_fu <> {_zuo_fu('lunar_month')}"
        ),
        total_sql=count_rows_where(f"lunar_leap AND lunar_day > 15 AND {_LATE_RAT}"),
        settings=_SPLIT,
    ),
    Claim(
        key="zuo_fu_leap_whole_same_month",
        statement="Under the whole setting, every day of a leap month puts Zuo Fu where the "
        "month it repeats puts it",
        source=f"{_SAN_TAI}: 'every day of the leap month counts as the month repeated.'",
        sql=count_rows_where(f"lunar_leap AND zuo_fu <> {_zuo_fu('lunar_month')}"),
        total_sql=count_rows_where("lunar_leap"),
        settings=_WHOLE,
    ),
    Claim(
        key="san_tai_ba_zuo_mirror",
        statement="San Tai and Ba Zuo (八座) mirror each other across the Ox–Goat line: their "
        "branch numbers add up to 2 (mod 12) on every chart",
        source=f"{_SAN_TAI}: 'In branch numbers (Rat 0 to Pig 11) Zuo Fu and You Bi always add up "
        "to 2, mod 12, and so do San Tai and Ba Zuo.'",
        sql=count_rows_where(f"{mod12('san_tai + ba_zuo')} <> 2"),
    ),
    Claim(
        key="zuo_fu_you_bi_mirror",
        statement="Zuo Fu and You Bi mirror each other across the Ox–Goat line: their branch "
        "numbers add up to 2 (mod 12) on every chart, under either leap-month setting",
        source=f"{_SAN_TAI}: 'In branch numbers (Rat 0 to Pig 11) Zuo Fu and You Bi always add up "
        "to 2, mod 12, and so do San Tai and Ba Zuo.'",
        sql=count_rows_where(f"{mod12('zuo_fu + you_bi')} <> 2"),
    ),
    Claim(
        key="san_tai_ba_zuo_together",
        statement="Every chart with San Tai and Ba Zuo in one palace has them on Ox or on Goat",
        source=f"{_SAN_TAI}: 'The two meet only on that line, on Ox or on Goat.'",
        sql=count_rows_where("san_tai = ba_zuo AND san_tai NOT IN (1, 7)"),
        total_sql=count_rows_where("san_tai = ba_zuo"),
    ),
    # ---- ZW-AUX-16 Ba Zuo ----
    _month_claims("you_bi", "Dog and counts back", M_SPLIT, "leap month split", "split"),
    _month_claims("you_bi", "Dog and counts back", M_WHOLE, "leap month whole", "whole"),
    Claim(
        key="ba_zuo_from_you_bi",
        statement="Ba Zuo: day 1 on You Bi's palace, counted back to the birth day (Ba Zuo = "
        "You Bi − (day − 1); the late Rat hour counts one day more)",
        source=f"{_BA_ZUO}: 'Lunar day 1 goes on You Bi's palace, and the count retreats a "
        "palace for each day until the birth day.'",
        sql=count_rows_where(f"ba_zuo <> {mod12(f'you_bi - ({D} - 1)')}"),
        settings=_NEXT_DAY,
    ),
    Claim(
        key="ba_zuo_month_plus_day_split",
        statement="Ba Zuo follows (month + day) mod 12, remainder 0 on Rat and back (leap "
        "month split)",
        source=f"{_BA_ZUO}: 'So month plus day, taken mod 12, names the branch, counting backward "
        "from Rat.'",
        sql=count_rows_where(f"ba_zuo <> {mod12(f'0 - {M_SPLIT} - {D}')}"),
        settings=_NEXT_DAY + _SPLIT,
    ),
    Claim(
        key="ba_zuo_month_plus_day_whole",
        statement="Ba Zuo follows (month + day) mod 12, remainder 0 on Rat and back (leap "
        "month whole)",
        source=f"{_BA_ZUO}: 'So month plus day, taken mod 12, names the branch, counting backward "
        "from Rat.'",
        sql=count_rows_where(f"ba_zuo <> {mod12(f'0 - {M_WHOLE} - {D}')}"),
        settings=_NEXT_DAY + _WHOLE,
    ),
    Claim(
        key="ba_zuo_late_rat_day_30",
        statement="Born in the late Rat hour of lunar day 30, Ba Zuo counts day 31: it stands "
        "opposite You Bi",
        source=f"{_BA_ZUO}: 'the late Rat hour of day 30 counts as a day 31 and puts Ba Zuo "
        "opposite You Bi.'",
        sql=count_rows_where(f"{_LATE_RAT} AND lunar_day = 30 AND ba_zuo <> {mod12('you_bi + 6')}"),
        total_sql=count_rows_where(f"{_LATE_RAT} AND lunar_day = 30"),
        settings=_NEXT_DAY,
    ),
)
"""The facts of the articles on Di Jie, Tian Kong, San Tai and Ba Zuo (issue 11)."""


CLAIMS: Final[tuple[Claim, ...]] = _ZIWEI_CLAIMS + BAZI_CLAIMS + _MONTH_DAY_CLAIMS
"""Every claim: the Zi Wei seed facts (over a Zi Wei dataset), the Literary Star's (over a
BaZi dataset) and the Zi Wei facts of the issue 11 articles; each dataset reports the other
kind's as not applicable."""


def _count(con: object, sql: str, key: str) -> int:
    import duckdb

    assert isinstance(con, duckdb.DuckDBPyConnection)
    try:
        rows = con.execute(sql).fetchall()
    except duckdb.Error as e:
        raise InputError("sql", f"claim {key}: {_message(e, sql)}") from None
    if len(rows) != 1 or len(rows[0]) != 1 or not isinstance(rows[0][0], int):
        raise InputError("sql", f"claim {key}: the query must return one integer, not {rows!r}")
    return rows[0][0]


def settings_match(metadata: dict[str, object], wanted: Sequence[tuple[str, object]]) -> bool:
    """Whether a dataset with this metadata was swept with every (name, value) of ``wanted``."""
    settings = metadata.get("settings")
    values = settings if isinstance(settings, dict) else {}
    return all(values.get(n) == v for n, v in wanted)


def _not_applicable(
    claim: Claim, metadata: dict[str, object], other: dict[str, object] | None
) -> str:
    """Why ``claim`` does not apply to a dataset with this metadata ("" when it does)."""
    if metadata.get("schema", SCHEMA) != claim.schema:
        return "space"
    if not settings_match(metadata, claim.settings):
        return "settings"
    if claim.other_settings and (other is None or not settings_match(other, claim.other_settings)):
        return "other"
    return ""


def check(
    dataset: Path | str,
    claims: Sequence[Claim] = CLAIMS,
    other: Path | str | None = None,
    *,
    allow_partial: bool = False,
) -> list[ClaimResult]:
    """Run each claim over the dataset at ``dataset``: its counterexamples, the rows it
    ranges over, and the seconds both queries took.  Every query is checked first to be one
    read-only ``SELECT`` (:class:`InputError` on ``sql`` naming the claim otherwise), and runs
    on :func:`mingshu.space.connect`'s locked, read-only view.  ``other`` is the second
    dataset the claims with ``other_settings`` compare with (the view ``other``).  A dataset
    with missing years is an :class:`InputError` on ``dataset`` unless ``allow_partial``
    (:func:`mingshu.space.sql.check_complete`): its counts would be over a smaller space."""
    for claim in claims:
        if not isinstance(claim, Claim):
            raise InputError("claims", f"give Claim values, not {type(claim).__name__}")
        for sql in (claim.sql, claim.total_sql):
            try:
                check_sql(sql)
            except InputError as e:
                raise InputError("sql", f"claim {claim.key}: {e.message}") from None
    con = connect(dataset, other, allow_partial=allow_partial)
    metadata = read_metadata(Path(dataset)) or {}
    other_metadata = (read_metadata(Path(other)) or {}) if other is not None else None
    results: list[ClaimResult] = []
    try:
        for claim in claims:
            reason = _not_applicable(claim, metadata, other_metadata)
            if reason:
                results.append(ClaimResult(claim, None, None, 0.0, applies=False, reason=reason))
                continue
            start = time.perf_counter()
            bad = _count(con, claim.sql, claim.key)
            rows = _count(con, claim.total_sql, claim.key)
            results.append(ClaimResult(claim, bad, rows, time.perf_counter() - start))
    finally:
        con.close()
    return results
