"""docs/api.md lists every public name of both engines, so the reference cannot fall behind
the code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mingshu import bazi, ziwei

DOC = (Path(__file__).parent.parent.parent / "docs" / "api.md").read_text(encoding="utf-8")
NAMES = set(re.findall(r"`([A-Za-z_][A-Za-z0-9_]*)", DOC))


@pytest.mark.parametrize("module", [ziwei, bazi], ids=lambda m: m.__name__)
def test_every_public_name_is_in_the_api_reference(module: object) -> None:
    missing = sorted(set(module.__all__) - NAMES)  # type: ignore[attr-defined]
    assert not missing, f"docs/api.md does not mention {missing}"
