"""docs/library.md and CONTRIBUTING.md list every claim kind of the registry, and nothing
else as one; the docs' table names each kind's badge and fields as the registry has them."""

from __future__ import annotations

import re
from pathlib import Path

from mingshu.library.claims import BADGES, KINDS, TERMS

ROOT = Path(__file__).resolve().parents[2]


def _kind_rows() -> dict[str, tuple[str, str]]:
    """The docs' claim-kind table: kind -> (badge, fields)."""
    text = (ROOT / "docs" / "library.md").read_text(encoding="utf-8")
    section = text.split("## Claims", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `([a-z_]+)` \| ([^|]+) \| ([^|]+) \|", section, re.M)
    return {k: (badge.strip(), fields.strip()) for k, badge, fields in rows}


def test_the_library_doc_lists_every_claim_kind_with_its_badge_and_fields() -> None:
    rows = _kind_rows()
    assert sorted(rows) == sorted(KINDS)
    for name, kind in KINDS.items():
        badge, fields = rows[name]
        assert badge == BADGES[kind.badge], name
        listed = re.findall(r"`([a-z_]+)`", fields)
        assert listed == [*kind.required, *kind.optional], name


def test_the_library_doc_names_every_sql_term() -> None:
    text = (ROOT / "docs" / "library.md").read_text(encoding="utf-8")
    for name in TERMS:
        assert f"`{{{name}}}`" in text, name


def test_contributing_names_every_claim_kind() -> None:
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    listed = re.search(r"claim\s+kinds ([a-z_, \n]+?)\s*\(", text)
    assert listed is not None
    names = [n.strip() for n in listed.group(1).replace("\n", " ").split(",")]
    assert sorted(names) == sorted(KINDS)
