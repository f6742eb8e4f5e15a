"""sources/: the cited lines of the classical transcriptions, shipped with the repository.

Where the full transcriptions are beside the repository (../shared/sources) the folder is
regenerated from them and must be what is shipped, line for line; the reader is checked on
small folders made here (a line not shipped, a quotation across a gap, an absence not
recorded are errors, never passes).
"""

from __future__ import annotations

import hashlib
import importlib.util
import sys
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

from mingshu.library.check import find_sources
from mingshu.library.sources import EXCERPT, MANIFEST, Sources, parse_excerpt

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "sources"
FULL = ROOT.parent / "shared" / "sources"


def _builder() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "build_sources", ROOT / "tools" / "build_sources.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["build_sources"] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(
    not (FULL / "PROVENANCE.md").is_file(),
    reason="the full transcriptions are not beside the repository (../shared/sources): "
    "nothing to regenerate sources/ from",
)
def test_the_shipped_excerpts_are_what_the_full_files_give() -> None:
    built = _builder().build(FULL)
    shipped = {p.name for p in SHIPPED.iterdir()} - {"README.md"}
    assert shipped == set(built), "run .venv/bin/python tools/build_sources.py"
    for name, text in built.items():
        assert (SHIPPED / name).read_text(encoding="utf-8") == text, (
            f"sources/{name} is stale: run .venv/bin/python tools/build_sources.py"
        )
    # And each shipped line is the full file's line (read independently of the builder).
    manifest = tomllib.loads((SHIPPED / MANIFEST).read_text(encoding="utf-8"))["files"]
    for name, entry in manifest.items():
        data = (FULL / name).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry["sha256"], name
        lines = data.decode("utf-8").split("\n")
        for n, line in parse_excerpt((SHIPPED / (name + EXCERPT)).read_text("utf-8")).items():
            assert lines[n - 1] == line, (name, n)


def test_every_shipped_transcription_names_its_origin_and_licence() -> None:
    manifest = tomllib.loads((SHIPPED / MANIFEST).read_text(encoding="utf-8"))["files"]
    readme = (SHIPPED / "README.md").read_text(encoding="utf-8")
    assert manifest
    for name, entry in manifest.items():
        assert (SHIPPED / (name + EXCERPT)).is_file(), name
        assert entry["licence"] and entry["path"], name
        repository, _, commit = entry["repository"].partition("@")
        assert len(commit) == 40 and repository in readme and commit in readme, name
        shipped = parse_excerpt((SHIPPED / (name + EXCERPT)).read_text(encoding="utf-8"))
        assert len(shipped) == entry["shipped"] and all(1 <= n <= entry["lines"] for n in shipped)
    # Small: the cited lines, not the books (the full files are about 5 MB).
    assert sum(p.stat().st_size for p in SHIPPED.iterdir()) < 250_000


def test_a_clean_clone_finds_the_shipped_excerpts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without ../shared and $MINGSHU_SOURCES, the library check reads sources/."""
    import mingshu.library.check as check

    clone = tmp_path / "clone"  # nothing beside it: tmp_path holds only the clone
    (clone / "src" / "mingshu" / "library").mkdir(parents=True)
    (clone / "sources").mkdir()
    (clone / "pyproject.toml").write_text("", encoding="utf-8")
    (clone / "sources" / MANIFEST).write_text("", encoding="utf-8")
    monkeypatch.delenv("MINGSHU_SOURCES", raising=False)
    monkeypatch.setattr(check, "__file__", str(clone / "src" / "mingshu" / "library" / "check.py"))
    assert find_sources() == clone / "sources"
    (clone / "sources" / MANIFEST).unlink()
    assert find_sources() is None
    (tmp_path / "shared" / "sources").mkdir(parents=True)  # the full files beside it win
    assert find_sources() == tmp_path / "shared" / "sources"


def _folder(tmp_path: Path, excerpt: str, absent: str = "[]") -> Sources:
    (tmp_path / "book.txt.excerpt").write_text(excerpt, encoding="utf-8")
    (tmp_path / MANIFEST).write_text(
        f'[files."book.txt"]\nlines = 40\nshipped = 4\nabsent = {absent}\n', encoding="utf-8"
    )
    return Sources(tmp_path)


def test_a_line_that_is_not_shipped_is_an_error_not_a_blank(tmp_path: Path) -> None:
    book = _folder(
        tmp_path, "# note\n\n@@ L3-4 · page X\n甲乙¶\n丙丁\n\n@@ L10-11\n戊己\n庚辛\n"
    ).get("book.txt")
    assert (book.line(3), book.line(4), book.line(11), book.length) == ("甲乙¶", "丙丁", "庚辛", 40)
    with pytest.raises(LookupError, match=r"book\.txt:5 is not in the shipped excerpt"):
        book.line(5)
    # A quotation stands within one passage: lines 3-4 join (layout aside), 4 and 10 do not.
    assert book.contains("乙丙") and not book.contains("丁戊")
    # Found in the shipped lines: not absent; recorded absent: absent; else no answer.
    assert book.lacks("丙丁") is False
    with pytest.raises(LookupError, match="not recorded"):
        book.lacks("壬癸")


def test_a_recorded_absence_answers(tmp_path: Path) -> None:
    book = _folder(tmp_path, "@@ L1-1\n甲\n", absent='["壬癸"]').get("book.txt")
    assert book.lacks("壬癸") and book.lacks("壬\u3000癸")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("@@ L3-5\n甲\n乙\n", "cut short"),
        ("甲\n@@ L3-3\n乙\n", "text outside a passage"),
        ("@@ L3\n甲\n", "not a passage heading"),
    ],
)
def test_a_malformed_excerpt_is_refused(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_excerpt(text)


def test_the_full_files_are_read_whole(tmp_path: Path) -> None:
    (tmp_path / "book.txt").write_text("甲\n乙\n丙\n", encoding="utf-8")
    folder = Sources(tmp_path)
    book = folder.get("book.txt")
    assert not folder.excerpts and book.whole and book.length == 3
    assert book.lacks("丁") and not book.lacks("乙") and book.contains("甲乙")
    assert not folder.has("../book.txt") and not folder.has("other.txt")
