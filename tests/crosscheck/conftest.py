"""Fixtures: a few real iztro records (see _support for the helpers)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from ._support import load_records


@pytest.fixture(scope="session")
def records() -> list[dict[str, Any]]:
    """The first 20 records of random.jsonl.gz (each with a horoscope)."""
    return load_records(limit=20)


@pytest.fixture
def record(records: list[dict[str, Any]]) -> dict[str, Any]:
    return copy.deepcopy(records[0])
