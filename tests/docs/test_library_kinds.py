"""docs/library.md and CONTRIBUTING.md list every table, problem and diagram kind with the
parameters it reads, as the registries hold them; and no module under src/mingshu but the
library's loader names an article."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mingshu.library.engine import Kind
from mingshu.library.problems import PROBLEMS
from mingshu.library.svg import DIAGRAMS
from mingshu.library.tables import TABLES

ROOT = Path(__file__).resolve().parents[2]
REGISTRIES: dict[str, dict[str, Kind[object]]] = {
    "Table": dict(TABLES),
    "Problem": dict(PROBLEMS),
    "Diagram": dict(DIAGRAMS),
}


def _doc_tables(text: str) -> dict[str, dict[str, tuple[tuple[str, ...], str]]]:
    """docs/library.md: "Table kinds (…):" followed by rows ``| `kind` | `p`, `q` | gives |``."""
    out: dict[str, dict[str, tuple[tuple[str, ...], str]]] = {}
    for head in REGISTRIES:
        block = text.split(f"\n{head} kinds (", 1)[1].split("\n\n", 2)[1]
        rows = out.setdefault(head, {})
        for line in block.splitlines()[2:]:
            kind, params, gives = (c.strip() for c in line.strip("|").split(" | "))
            rows[kind.strip("`")] = (tuple(re.findall(r"`(\w+)`", params)), gives)
    return out


def _contributing_lists(text: str) -> dict[str, dict[str, tuple[str, ...]]]:
    """CONTRIBUTING.md: ``- table kinds: `kind` (p, q); `kind` (none); …``."""
    out = {}
    for head in REGISTRIES:
        line = re.search(rf"^- {head.lower()} kinds: (.*)$", text, flags=re.MULTILINE)
        assert line, f"CONTRIBUTING.md lists no {head.lower()} kinds"
        out[head] = {
            kind: tuple(p for p in params.split(", ") if p != "none")
            for kind, params in re.findall(r"`(\w+)` \(([^)]*)\)", line.group(1))
        }
    return out


@pytest.mark.parametrize("head", list(REGISTRIES))
def test_docs_library_lists_every_kind_with_its_parameters(head: str) -> None:
    listed = _doc_tables((ROOT / "docs" / "library.md").read_text(encoding="utf-8"))[head]
    want = {k: (kind.params, kind.about) for k, kind in REGISTRIES[head].items()}
    assert listed == want


@pytest.mark.parametrize("head", list(REGISTRIES))
def test_contributing_lists_every_kind_with_its_parameters(head: str) -> None:
    listed = _contributing_lists((ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8"))[head]
    assert listed == {k: kind.params for k, kind in REGISTRIES[head].items()}


def test_no_library_module_but_the_loader_names_an_article() -> None:
    """An article's tables, problems and diagrams are kinds with parameters: the code that
    computes them names no article (in code, comments or docstrings)."""
    article = re.compile(r"ZW-(AUX|BAS|SET|BK)-|BZ-SS-|MS-LIB-")
    library = ROOT / "src" / "mingshu" / "library"
    naming = sorted(
        str(path.relative_to(library))
        for path in library.rglob("*.py")
        # the loader (ids in its messages and examples), and the claim modules, whose
        # claims move into data files beside the articles (issue 21's other half)
        if path.name != "model.py" and not path.name.startswith("claim")
        if article.search(path.read_text(encoding="utf-8"))
    )
    assert naming == []
