"""The OpenAPI document says what the server checks (issue 24): each parameter's words as
an enum, its syntax as a pattern, its length limit, and which are required; every word it
lists is taken and a word it does not list is refused, by the server itself."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from mingshu.errors import InputError
from mingshu.gender import Gender
from mingshu.web.query import MAX_VALUE

BIRTH = {"date": "1987-05-16", "time": "10:30", "gender": "female", "tz": "Asia/Shanghai"}
ENDPOINTS = ["/api/ziwei", "/api/ziwei/horoscope", "/api/bazi", "/api/ziwei/hours"]
EXTRA = {"/api/ziwei/horoscope": {"at": "2026-11-29T10:00"}}
NEEDS = {  # the other parameters a word needs (1987 has a leap sixth lunar month)
    "leap": {"calendar": "lunar", "date": "1987-06-10"},
    "true_solar": {"lon": "116.4"},
    "equation_of_time": {"true_solar": "1", "lon": "116.4"},
}


def _parameters(client: TestClient, path: str) -> dict[str, dict[str, Any]]:
    document = client.get("/openapi.json").json()
    return {p["name"]: p for p in document["paths"][path]["get"]["parameters"]}


def _base(path: str) -> dict[str, str]:
    base = {**BIRTH, **EXTRA.get(path, {})}
    if path == "/api/ziwei/hours":
        del base["time"]
    return base


def _refused_fields(client: TestClient, path: str, params: dict[str, Any]) -> set[str]:
    r = client.get(path, params=params)
    if r.status_code == 200:
        return set()
    assert r.status_code == 422, r.text
    return {str(d["loc"][-1]) for d in r.json()["detail"]}


@pytest.mark.parametrize("path", ENDPOINTS)
def test_every_listed_word_is_taken_and_others_refused(client: TestClient, path: str) -> None:
    parameters = _parameters(client, path)
    base = _base(path)
    worded = [name for name, p in parameters.items() if "anyOf" in p["schema"]]
    # Every setting and flag has its words listed (before: "string, maxLength 200").
    assert {"gender", "calendar", "fold", "school", "true_solar", "tz"} & set(parameters) <= set(
        worded
    )
    for name in worded:
        listed, spelled = parameters[name]["schema"]["anyOf"]
        any_case = parameters[name]["schema"].get("x-any-case", False)
        # The 600 zones: every 25th here (the schemathesis run, slow tier, sends them all).
        words = listed["enum"][::25] if name == "tz" else listed["enum"]
        for word in words:
            params = {**base, **NEEDS.get(name, {}), name: word}
            assert not _refused_fields(client, path, params), (name, word)
            # The pattern also states what the server takes beyond the words as listed:
            # surrounding whitespace, and any case where x-any-case says so.
            other = f" \t{word.upper() if any_case else word} "
            assert re.search(spelled["pattern"], other), (name, other)
            params = {**base, **NEEDS.get(name, {}), name: other}
            assert not _refused_fields(client, path, params), (name, other)
        for bogus in ("bogus-word", "1 1", "\x0b-"):
            assert not re.search(spelled["pattern"], bogus)
            assert name in _refused_fields(client, path, {**base, name: bogus}), name


@pytest.mark.parametrize("path", ENDPOINTS)
def test_patterns_lengths_and_required_parameters(client: TestClient, path: str) -> None:
    parameters = _parameters(client, path)
    base = _base(path)
    for name, p in parameters.items():
        schema = p["schema"].get("items", p["schema"])
        assert schema["maxLength"] == MAX_VALUE
        assert name in _refused_fields(client, path, {**base, name: "1" * (MAX_VALUE + 1)})
        if p["required"]:
            assert name in base
            missing = {k: v for k, v in base.items() if k != name}
            assert name in _refused_fields(client, path, missing)
        if "pattern" in schema and name in base:  # the example birth matches its pattern
            assert re.search(schema["pattern"], base[name]), (name, base[name])
    assert {n for n, p in parameters.items() if p["required"]} == set(base) - {"tz"}


def test_the_gender_words_are_the_engines() -> None:
    from mingshu.web.api import GENDER_WORDS

    for word in GENDER_WORDS:
        Gender.parse(word, "gender")
    for word in ("x", "w", "mx", "女性"):
        with pytest.raises(InputError):
            Gender.parse(word, "gender")


# One request that breaks each stated rule (x-mingshu-rules), and the field the server
# names: the hook of the schemathesis run must call it invalid, and the server refuse it.
BROKEN = [
    ("/api/ziwei", {"date": "2023-02-30"}, "date"),  # February 2023 has 28 days
    ("/api/ziwei", {"date": "2024-12-30", "calendar": "lunar"}, "date"),  # no 年三十 in 2025
    ("/api/ziwei", {"date": "1987-05-10", "calendar": "lunar", "leap": "1"}, "leap"),  # 闰六月
    ("/api/ziwei", {"date": "1582-12-01", "calendar": "lunar"}, "date"),  # solar 1582-12-25
    # Beijing time: local mean time in Shanghai (+08:05:43) puts this at 1582-12-31 23:54
    ("/api/bazi", {"date": "1583-01-01", "time": "00:00"}, "date"),
    ("/api/ziwei", {"date": "2650-12-31", "time": "23:00", "tz": "America/New_York"}, "date"),
    ("/api/ziwei", {"leap": "1"}, "leap"),
    ("/api/ziwei", {"tz": "", "lon": "116.4"}, "tz"),
    ("/api/ziwei", {"true_solar": "1"}, "lon"),
    ("/api/ziwei", {"tz": "", "fold": "1"}, "fold"),
    ("/api/ziwei", {"city": "1"}, "city"),
    ("/api/ziwei", {"school": "quanshu", "algorithm": "zhongzhou"}, "school"),
    ("/api/bazi", {"equation_of_time": "0"}, "equation_of_time"),
    ("/api/bazi", {"year": "1986"}, "year"),
    ("/api/ziwei/horoscope", {"at": "1987-05-15"}, "at"),
    ("/api/ziwei/horoscope", {"at": "2650-01-01"}, "at"),
    ("/api/bazi/moments", {"from": "2000", "to": "1999"}, "to"),
]


@pytest.mark.parametrize(("path", "change", "field"), BROKEN)
def test_each_stated_rule_is_the_servers(
    client: TestClient, path: str, change: dict[str, str], field: str
) -> None:
    from .schemathesis_hooks import keeps_rules

    operation = client.get("/openapi.json").json()["paths"][path]["get"]
    base = {"pillars": "庚辰 甲申 丙午 庚寅"} if path.endswith("moments") else _base(path)
    assert keeps_rules(operation, base)
    assert not _refused_fields(client, path, base)
    broken = {**base, **change}
    assert not keeps_rules(operation, broken)
    assert field in _refused_fields(client, path, broken)
    assert "x-mingshu-rules" in operation["description"]


def test_the_years_pattern_is_the_calendars_range() -> None:
    from mingshu.calendar.solar import FIRST_DATE, LAST_DATE
    from mingshu.web.api import YEARS

    taken = [y for y in range(10_000) if re.fullmatch(YEARS, str(y))]
    assert taken == list(range(FIRST_DATE.year, LAST_DATE.year + 1))
