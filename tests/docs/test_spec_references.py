"""Every rules reference in the code, the tests, the data, the --help texts and the docs names
a doc the repository has, and a section that doc has: ``docs/bazi-rules.md §1.6``, never a bare "spec §"
that pointed at a file outside the repository (../shared/spec)."""

from __future__ import annotations

import re
from pathlib import Path

from mingshu.bazi.stars import STARS

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
_SECTION = re.compile(r"^#+ (\d+(?:\.\d+)*)\.? ", re.M)
_REFERENCE = re.compile(r"(docs/[\w-]+\.md) §(\d+(?:\.\d+)*)((?:(?:,| and) §\d+(?:\.\d+)*)*)")
# A bare "spec §"; shensha.toml's ``spec = "§4.1"`` fields are sections of docs/bazi-rules.md
# (its header says so; the last test checks them).
_BARE = re.compile(r'\bspec\b(?! = "§)[^§\n.]{0,20}§|(?<![\w/-])[\w-]+-rules\.md §', re.I)


def _files() -> list[Path]:
    found = [*(ROOT / "src").rglob("*.py"), *(ROOT / "src").rglob("*.toml"), *DOCS.glob("*.md")]
    tests = [p for p in (ROOT / "tests").rglob("*.py") if p.resolve() != Path(__file__).resolve()]
    return [*found, *tests, *(ROOT / "tools").glob("*.py"), ROOT / "README.md"]


def _sections(doc: str) -> set[str]:
    return set(_SECTION.findall((ROOT / doc).read_text(encoding="utf-8")))


def test_no_reference_points_outside_the_repository() -> None:
    bare = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()[:80]}"
        for path in _files()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if _BARE.search(line)
    ]
    assert not bare, "name the doc (docs/bazi-rules.md §…):\n" + "\n".join(bare)


def test_every_doc_reference_names_a_section_it_has() -> None:
    wrong = []
    for path in _files():
        for m in _REFERENCE.finditer(path.read_text(encoding="utf-8")):
            doc = m[1]
            if not (ROOT / doc).is_file():
                wrong.append(f"{path.relative_to(ROOT)}: {doc} does not exist")
                continue
            for section in [m[2], *re.findall(r"§(\d+(?:\.\d+)*)", m[3])]:
                if section not in _sections(doc):
                    wrong.append(f"{path.relative_to(ROOT)}: {doc} has no §{section}")
    assert not wrong, "\n".join(wrong)


def test_every_star_names_a_section_of_the_rules_doc() -> None:
    """shensha.toml's ``spec``: the sections of docs/bazi-rules.md that state the star."""
    sections = _sections("docs/bazi-rules.md")
    for s in STARS:
        named = re.findall(r"§(\d+(?:\.\d+)*)", s.spec)
        assert named and set(named) <= sections, (s.key, s.spec)
