"""schemathesis hooks: schema-valid requests that also keep the rules each operation states
in its ``x-mingshu-rules`` (rules between parameters, and facts such as whether a lunar date
exists, which a parameter's JSON Schema cannot state).

The rules are read from the OpenAPI document, not from the server's code, and the facts are
answered by outside authorities: Python's ``datetime`` for the Gregorian calendar and
lunar-python for the Chinese one.  So ``positive_data_acceptance`` checks that every request
the document calls valid is accepted.  Only positive cases are filtered: a negative case
breaks a parameter's schema and must be refused whatever the rules say.

For the pytest run, importing this module registers the hook; for the command line::

    PYTHONPATH=tests/web SCHEMATHESIS_HOOKS=schemathesis_hooks schemathesis run --checks all …
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import schemathesis
from lunar_python import Lunar, LunarMonth, LunarYear
from schemathesis import GenerationMode

_DATE = re.compile(r"\s*([0-9]{1,4})[-/.]([0-9]{1,2})[-/.]([0-9]{1,2})\s*")
_TRUE = frozenset({"1", "true", "on", "yes"})


def _value(query: dict[str, Any], name: str) -> str:
    value = query.get(name)
    if isinstance(value, list):  # a repeated parameter: the rules speak of single ones
        value = value[0] if len(value) == 1 else None
    return "" if value is None else str(value).strip()


def _solar_date(query: dict[str, Any], fact: dict[str, Any]) -> dt.date | None:
    """The solar day of the birth date the fact names (None: no such day)."""
    match = _DATE.fullmatch(_value(query, fact["date"]))
    if match is None:
        return None
    year, month, day = map(int, match.groups())
    if _value(query, fact["calendar"]) != "lunar":
        try:
            return dt.date(year, month, day)
        except ValueError:
            return None
    leap = _value(query, fact["leap"]).lower() in _TRUE
    if leap and abs(LunarYear.fromYear(year).getLeapMonth()) != month:
        return None
    lunar_month = -month if leap else month
    if not 1 <= month <= 12 or day > LunarMonth.fromYm(year, lunar_month).getDayCount():
        return None
    solar = Lunar.fromYmd(year, lunar_month, day).getSolar()
    return dt.date(solar.getYear(), solar.getMonth(), solar.getDay())


def _real_date(query: dict[str, Any], fact: dict[str, Any], _: Any) -> bool:
    day = _solar_date(query, fact)
    first, last = map(dt.date.fromisoformat, fact["solar_range"])
    return day is not None and first <= day <= last


def _moment_from_birth(query: dict[str, Any], fact: dict[str, Any], _: Any) -> bool:
    birth = _solar_date(query, fact)
    moment = _value(query, fact["moment"])
    try:
        day = dt.date.fromisoformat(moment[:10])
    except ValueError:
        return False
    return (
        birth is not None
        and day >= birth + dt.timedelta(days=fact["days_after"])
        and day.year <= birth.year + fact["years_after"]
    )


def _year_from_birth(query: dict[str, Any], fact: dict[str, Any], _: Any) -> bool:
    birth = _solar_date(query, fact)
    first, last = fact["years_after"]
    year = _value(query, fact["year"])
    return birth is not None and birth.year + first <= int(year) <= birth.year + last


def _city_id(query: dict[str, Any], fact: dict[str, Any], parameters: Any) -> bool:
    # Which ids GET /api/cities answers is not in the document: only the parameter's own
    # documented examples are known to be real ones.
    examples = parameters[fact["param"]].get("examples", {}).values()
    return _value(query, fact["param"]) in {e["value"] for e in examples}


def _not_after(query: dict[str, Any], fact: dict[str, Any], _: Any) -> bool:
    return int(_value(query, fact["first"])) <= int(_value(query, fact["last"]))


FACTS = {
    "real-date": _real_date,
    "moment-from-birth": _moment_from_birth,
    "year-from-birth": _year_from_birth,
    "city-id": _city_id,
    "not-after": _not_after,
}


def holds(condition: dict[str, Any], query: dict[str, Any], parameters: Any) -> bool:
    """Whether ``query`` meets one condition of a rule (the vocabulary of
    mingshu.web.api's rules, as the document states it); an unknown word is an error."""
    if "anyOf" in condition:
        return any(holds(c, query, parameters) for c in condition["anyOf"])
    if "allOf" in condition:
        return all(holds(c, query, parameters) for c in condition["allOf"])
    if "fact" in condition:
        return bool(FACTS[condition["fact"]](query, condition, parameters))
    name = condition["param"]
    value = _value(query, name)
    if condition.get("given"):
        return bool(value)
    if "in" in condition:
        if parameters[name]["schema"].get("x-any-case"):
            return value.lower() in {w.lower() for w in condition["in"]}
        return value in condition["in"]
    raise ValueError(f"a condition this hook does not know: {condition}")


def keeps_rules(operation: dict[str, Any], query: dict[str, Any]) -> bool:
    """Whether ``query`` keeps every rule in the operation's ``x-mingshu-rules``."""
    parameters = {p["name"]: p for p in operation.get("parameters", [])}
    return all(
        holds(rule["then"], query, parameters)
        for rule in operation.get("x-mingshu-rules", [])
        if "if" not in rule or holds(rule["if"], query, parameters)
    )


@schemathesis.hook
def filter_case(context: schemathesis.HookContext, case: schemathesis.Case) -> bool:
    """Positive cases only within the document's rules (negative ones as generated)."""
    if case.meta is not None and case.meta.generation.mode is not GenerationMode.POSITIVE:
        return True
    operation = context.operation or case.operation
    return keeps_rules(operation.definition.raw, case.query or {})
