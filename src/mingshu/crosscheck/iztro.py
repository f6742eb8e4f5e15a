"""Our charts in the shape of iztro 2.6.0's records (the reference fixtures' format).

``record_for_input`` takes one fixture input (``date``, ``time``, ``gender``, ``by``,
``leap``, ``fix_leap``, ``astro_type``, ``config``, ``horoscope``, ``horoscope_time``),
charts it with our engine and returns ``{"chart": …}`` (plus ``"horoscope"`` when asked)
with iztro's field names, zh-CN strings and array orders, so that the crosscheck can
compare the two field by field.
"""

from __future__ import annotations

from typing import Any

from mingshu import calendar
from mingshu.birth import Birth
from mingshu.errors import InputError
from mingshu.inputs import parse_date_parts
from mingshu.ziwei.chart import NatalChart, PlacedStar
from mingshu.ziwei.horoscope import MAX_AGE
from mingshu.ziwei.natal import natal_chart
from mingshu.ziwei.settings import ZiweiSettings

__all__ = [
    "birth_for_input",
    "chart_record",
    "classify",
    "iztro_birthday_age",
    "record_for_input",
    "settings_for_input",
]


def settings_for_input(inp: dict[str, Any]) -> ZiweiSettings:
    """The settings equal to an iztro input's ``config``, ``fix_leap`` and ``astro_type``."""
    return ZiweiSettings.from_iztro(
        inp.get("config"),
        fix_leap=inp.get("fix_leap", True),
        astro_type=inp.get("astro_type") or "heaven",
    )


def birth_for_input(inp: dict[str, Any]) -> Birth:
    if inp.get("by", "solar") == "lunar":
        return Birth.lunar(inp["date"], int(inp["time"]), inp["gender"], leap=bool(inp.get("leap")))
    return Birth.solar(inp["date"], int(inp["time"]), inp["gender"])


def record_for_input(inp: dict[str, Any]) -> dict[str, Any]:
    """Chart one fixture input and return it in iztro's record shape."""
    chart = natal_chart(birth_for_input(inp), settings_for_input(inp))
    record: dict[str, Any] = {"chart": chart_record(chart)}
    if inp.get("horoscope"):
        from mingshu.crosscheck.iztro_horoscope import horoscope_record

        record["horoscope"] = horoscope_record(chart, inp["horoscope"], inp.get("horoscope_time"))
    return record


def _star(placed: PlacedStar) -> list[str]:
    return [
        placed.star.names.hans,
        placed.star.kind.value,
        placed.brightness.names.hans if placed.brightness is not None else "",
        placed.mutagen.names.hans if placed.mutagen is not None else "",
    ]


def chart_record(chart: NatalChart) -> dict[str, Any]:
    """The natal part of an iztro record (``output.chart``)."""
    solar = chart.solar_date
    lunar = chart.lunar_date
    return {
        "gender": chart.birth.gender.hans,
        "solarDate": f"{solar.year}-{solar.month}-{solar.day}",
        "lunarDate": lunar.chinese(),
        "lunar": [lunar.year, lunar.month, lunar.day, lunar.is_leap],
        "chineseDate": str(chart.pillars),
        "time": chart.hour.names.hans,
        "timeRange": chart.hour.range,
        "sign": chart.sign.hans,
        "zodiac": chart.zodiac.hans,
        "soul": chart.life_master.names.hans,
        "body": chart.body_master.names.hans,
        "fiveElementsClass": chart.five_elements_class.names.hans,
        "earthlyBranchOfSoulPalace": chart.life_branch.names.hans,
        "earthlyBranchOfBodyPalace": chart.body_branch.names.hans,
        "palaces": [
            {
                "index": p.iztro_index,
                "name": p.name.names.hans,
                "isBodyPalace": p.is_body,
                "isOriginalPalace": p.is_original,
                "heavenlyStem": p.stem.names.hans,
                "earthlyBranch": p.branch.names.hans,
                "majorStars": [_star(s) for s in p.major_stars],
                "minorStars": [_star(s) for s in p.minor_stars],
                "adjectiveStars": [_star(s) for s in p.adjective_stars],
                "changsheng12": p.chang_sheng.names.hans,
                "boshi12": p.bo_shi.names.hans,
                "jiangqian12": p.jiang_qian.names.hans,
                "suiqian12": p.sui_qian.names.hans,
                "decadal": [
                    p.decadal.start,
                    p.decadal.end,
                    p.decadal.pillar.stem.names.hans,
                    p.decadal.pillar.branch.names.hans,
                ],
                "ages": list(p.ages),
            }
            for p in chart.palaces
        ],
    }


# ------------------------------------------------------------------- known differences
# The places where iztro 2.6.0 is plainly wrong and we are not (docs/iztro-differences.md).

KNOWN_BIRTHDAY_AGE = (
    "ageDivide 'birthday': iztro adds the year only when the target month is after the "
    "birth month (or in the birth year itself), so after the birthday within the birth "
    "month, and in a leap birth month, its age is one short"
)
KNOWN_BEFORE_BIRTH = "horoscope date before the birth: iztro returns garbage, we refuse it"
KNOWN_PAST_120 = (
    "horoscope age past 120: iztro's small limit has no palace (index -1, stem 'jia'), "
    "we refuse the date"
)
KNOWN_LEAP_DAY_30 = (
    "leap-month day 30 by lunar date: iztro builds the regular month's date first and "
    "throws when that month has 29 days; we chart the day"
)
_AGE_PATHS = ("horoscope.age.", "horoscope.decadal.")


def iztro_birthday_age(birth: tuple[int, int, int], target: tuple[int, int, int]) -> int:
    """iztro 2.6.0's nominal age under ``ageDivide: 'birthday'``, bug included.

    ``birth`` and ``target`` are (lunar year, month, day).
    """
    age = target[0] - birth[0]
    if (target[0] == birth[0] and target[1] == birth[1] and target[2] > birth[2]) or (
        target[1] > birth[1]
    ):
        age += 1
    return age


def classify(case: Any, mismatches: list[Any]) -> str | None:
    """Name the documented iztro error that explains a case's mismatches, if one does."""
    inp = case.input if isinstance(case.input, dict) else {}
    if not mismatches:  # iztro gave an error instead of a chart
        return _classify_iztro_error(inp, str(case.output.get("error", "")))
    paths = [m["path"] for m in mismatches]
    if paths == ["<input>"] and inp.get("horoscope"):
        birth = birth_for_input(inp).solar_date
        target = parse_date_parts(inp["horoscope"], "at")
        if target < (birth.year, birth.month, birth.day):
            return KNOWN_BEFORE_BIRTH
        small_limit = case.output.get("horoscope", {}).get("age", {})
        if small_limit.get("index") == -1 and small_limit.get("nominalAge", 0) > MAX_AGE:
            return KNOWN_PAST_120
    config = inp.get("config") or {}
    if config.get("ageDivide") == "birthday" and all(p.startswith(_AGE_PATHS) for p in paths):
        chart = case.output["chart"]
        born = tuple(chart["lunar"][:3])
        day = calendar.check_solar_date(*parse_date_parts(inp["horoscope"]))
        lunar = calendar.solar_to_lunar(day)
        theirs = iztro_birthday_age(born, (lunar.year, lunar.month, lunar.day))
        if case.output["horoscope"]["age"]["nominalAge"] == theirs:
            ours = record_for_input(inp)["horoscope"]["age"]["nominalAge"]
            if ours != theirs:
                return KNOWN_BIRTHDAY_AGE
    return None


def _classify_iztro_error(inp: dict[str, Any], error: str) -> str | None:
    if not (inp.get("by") == "lunar" and inp.get("leap") and error.startswith("only 29 days")):
        return None
    try:
        parts = parse_date_parts(inp["date"])
        record = record_for_input(inp)
    except (InputError, KeyError):
        return None
    lunar = record["chart"]["lunar"]
    if parts[2] == 30 and lunar == [parts[0], parts[1], 30, True]:
        return KNOWN_LEAP_DAY_30
    return None
