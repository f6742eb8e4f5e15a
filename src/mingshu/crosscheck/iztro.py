"""Our charts in the shape of iztro 2.6.0's records (the reference fixtures' format).

``record_for_input`` takes one fixture input (``date``, ``time``, ``gender``, ``by``,
``leap``, ``fix_leap``, ``astro_type``, ``config``, ``horoscope``, ``horoscope_time``),
charts it with our engine and returns ``{"chart": …}`` (plus ``"horoscope"`` when asked)
with iztro's field names, zh-CN strings and array orders, so that the crosscheck can
compare the two field by field.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

from mingshu import calendar, ziwei
from mingshu.crosscheck.clip import clip
from mingshu.errors import InputError

__all__ = [
    "chart_for_input",
    "chart_record",
    "classify",
    "iztro_birthday_age",
    "record_for_input",
    "settings_for_input",
]

# iztro's inputs are short: a date "2000-8-16", a time index, 男/女.  Anything longer than
# this is not one, and is refused before it can be echoed back whole in a message.
_LONGEST_FIELD: Final = 80
_DATE_RE: Final = re.compile(r"\s*(\d{1,4})[-/.](\d{1,2})[-/.](\d{1,2})\s*")


def _field(inp: Mapping[str, Any], key: str, default: Any = None, *, required: bool = False) -> Any:
    if key not in inp:
        if required:
            raise InputError(key, "missing from the record's input")
        return default
    value = inp[key]
    if isinstance(value, str) and len(value) > _LONGEST_FIELD:
        raise InputError(key, f"{clip(repr(value))} is too long ({len(value)} characters)")
    return value


def _flag(inp: Mapping[str, Any], key: str, default: bool) -> bool:
    """A JSON boolean: the string "false" must not count as true."""
    value = _field(inp, key, default)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise InputError(key, f"{clip(repr(value))} is not true or false")
    return value


def _time_index(inp: Mapping[str, Any], key: str, *, required: bool) -> int | None:
    value = _field(inp, key, required=required)
    if value is None and not required:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(key, f"{clip(repr(value))} is not a time index 0..12")
    return value


def _input(inp: object) -> Mapping[str, Any]:
    if not isinstance(inp, Mapping):
        raise InputError("input", f"must be a JSON object, not {type(inp).__name__}")
    return inp


def settings_for_input(inp: Mapping[str, Any]) -> ziwei.ZiweiSettings:
    """The settings equal to an iztro input's ``config``, ``fix_leap`` and ``astro_type``."""
    config = _field(inp, "config")
    if config is not None and not isinstance(config, Mapping):
        raise InputError("config", f"must be a JSON object, not {type(config).__name__}")
    astro_type = _field(inp, "astro_type") or "heaven"
    if not isinstance(astro_type, str):
        raise InputError("astro_type", f"{clip(repr(astro_type))} is not a chart type")
    return ziwei.ZiweiSettings.from_iztro(
        config, fix_leap=_flag(inp, "fix_leap", True), astro_type=astro_type
    )


def chart_for_input(inp: object) -> ziwei.NatalChart:
    """Our natal chart of one fixture input; a bad input raises InputError naming its field."""
    inp = _input(inp)
    date = _field(inp, "date", required=True)
    time = _time_index(inp, "time", required=True)
    gender = _field(inp, "gender", required=True)
    settings = settings_for_input(inp)
    by = _field(inp, "by", "solar")
    if by == "lunar":
        leap = _flag(inp, "leap", False)
        return ziwei.by_lunar(date, time, gender, leap=leap, settings=settings)
    if by != "solar":
        raise InputError("by", f"{clip(repr(by))} is not 'solar' or 'lunar'")
    return ziwei.by_solar(date, time, gender, settings=settings)


def record_for_input(inp: object) -> dict[str, Any]:
    """Chart one fixture input and return it in iztro's record shape."""
    chart = chart_for_input(inp)
    inp = _input(inp)
    record: dict[str, Any] = {"chart": chart_record(chart)}
    target = _field(inp, "horoscope")
    if target:
        from mingshu.crosscheck.iztro_horoscope import horoscope_record

        time = _time_index(inp, "horoscope_time", required=False)
        record["horoscope"] = horoscope_record(chart, target, time)
    return record


def _star(placed: ziwei.PlacedStar) -> list[str]:
    return [
        placed.star.names.hans,
        placed.star.kind.value,
        placed.brightness.names.hans if placed.brightness is not None else "",
        placed.mutagen.names.hans if placed.mutagen is not None else "",
    ]


def chart_record(chart: ziwei.NatalChart) -> dict[str, Any]:
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


def _date_parts(value: object) -> tuple[int, int, int] | None:
    """Year, month, day of an iztro date string ("2098-1-13"), if it is one."""
    match = _DATE_RE.fullmatch(value) if isinstance(value, str) else None
    return (int(match[1]), int(match[2]), int(match[3])) if match else None


def classify(case: Any, mismatches: list[Any]) -> str | None:
    """Name the documented iztro error that explains a case's mismatches, if one does.

    A record too broken to judge is explained by nothing (None): it stays a failure.
    """
    inp = case.input if isinstance(case.input, Mapping) else {}
    output = case.output if isinstance(case.output, Mapping) else {}
    try:
        if not mismatches:  # iztro gave an error instead of a chart
            return _classify_iztro_error(inp, str(output.get("error", "")))
        return _classify_mismatches(inp, output, [m["path"] for m in mismatches])
    except (InputError, LookupError, TypeError, ValueError, AttributeError):
        return None


def _classify_mismatches(
    inp: Mapping[str, Any], output: Mapping[str, Any], paths: list[str]
) -> str | None:
    target = _date_parts(inp.get("horoscope"))
    if paths == ["<input>"] and target is not None:
        chart = chart_for_input(inp)
        birth = chart.solar_date
        if target < (birth.year, birth.month, birth.day):
            return KNOWN_BEFORE_BIRTH
        try:  # the birth day itself, at an earlier hour: refused as before the birth too
            chart.horoscope(inp["horoscope"], inp.get("horoscope_time"))
        except InputError as error:
            if error.field == "at" and "before the birth" in error.message:
                return KNOWN_BEFORE_BIRTH
        small_limit = output.get("horoscope", {}).get("age", {})
        if small_limit.get("index") == -1 and small_limit.get("nominalAge", 0) > _last_age(inp):
            return KNOWN_PAST_120
    config = inp.get("config") or {}
    if (
        target is not None
        and config.get("ageDivide") == "birthday"
        and all(p.startswith(_AGE_PATHS) for p in paths)
    ):
        born = tuple(output["chart"]["lunar"][:3])
        lunar = calendar.solar_to_lunar(calendar.check_solar_date(*target))
        theirs = iztro_birthday_age(born, (lunar.year, lunar.month, lunar.day))
        if output["horoscope"]["age"]["nominalAge"] == theirs:
            ours = record_for_input(inp)["horoscope"]["age"]["nominalAge"]
            if ours != theirs:
                return KNOWN_BIRTHDAY_AGE
    return None


def _last_age(inp: Mapping[str, Any]) -> int:
    """The last nominal age of the chart's small limits (120)."""
    return max(max(p.ages) for p in chart_for_input(inp).palaces)


def _classify_iztro_error(inp: Mapping[str, Any], error: str) -> str | None:
    lunar_leap = inp.get("by") == "lunar" and inp.get("leap") is True
    if not (lunar_leap and error.startswith("only 29 days")):
        return None
    parts = _date_parts(inp.get("date"))
    lunar = record_for_input(inp)["chart"]["lunar"]
    if parts is not None and parts[2] == 30 and lunar == [parts[0], parts[1], 30, True]:
        return KNOWN_LEAP_DAY_30
    return None
