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
    worded = [name for name, p in parameters.items() if "enum" in p["schema"]]
    # Every setting and flag has its words listed (before: "string, maxLength 200").
    assert {"gender", "calendar", "fold", "school", "true_solar"} & set(parameters) <= set(worded)
    for name in worded:
        for word in parameters[name]["schema"]["enum"]:
            params = {**base, **NEEDS.get(name, {}), name: word}
            assert not _refused_fields(client, path, params), (name, word)
        assert name in _refused_fields(client, path, {**base, name: "bogus-word"}), name


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
