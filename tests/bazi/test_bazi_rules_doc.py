"""docs/bazi-rules.md's star catalogue is generated from shensha.toml and in sync with it."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

from mingshu.bazi.stars import STARS

ROOT = Path(__file__).resolve().parents[2]


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "build_bazi_rules_doc", ROOT / "tools" / "build_bazi_rules_doc.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_catalogue_in_the_doc_is_the_generated_one() -> None:
    tool = _tool()
    text = (ROOT / "docs" / "bazi-rules.md").read_text(encoding="utf-8")
    assert tool.updated(text) == text, "run: python tools/build_bazi_rules_doc.py"


def test_the_catalogue_lists_every_star_and_variant() -> None:
    section = _tool().render()
    for s in STARS:
        assert f"#### `{s.key}` {s.names.hans}" in section, s.key
        for v in s.variants:
            assert v.label.replace("|", "\\|") in section, (s.key, v.id)
