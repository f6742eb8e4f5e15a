"""Regenerate sources/: the lines of the classical transcriptions that the project cites,
read from the full files (../shared/sources) so that a clone without them can still check
every citation.

What is shipped, and why (each reader in brackets):
  * every Zi Wei verse a data file gives with ``verse_at``, and each line holding a 全书 卷二
    title a source string credits (tests/book/test_book_citations.py);
  * the lines of 卷二 that tools/book_rules.py parses (``READS``;
    tests/book/test_book_conformance.py);
  * for every BaZi table with a primary or secondary passage, the twelve lines from its line
    on, the page marker and the chapter heading before it (tests/bazi/test_bazi_star_sources.py);
  * every quotation of a library article, a line either side (mingshu library check).
Absences cannot be excerpted: the terms the articles and tests state absent are searched in
the whole file here and recorded in MANIFEST.toml (``absent``).

    .venv/bin/python tools/build_sources.py            # rewrite sources/
    .venv/bin/python tools/build_sources.py --check    # exit 1 if sources/ is stale
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import importlib.util
import json
import re
import sys
import tomllib
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "sources"
OUT = ROOT / "sources"
sys.path.insert(0, str(ROOT / "src"))

from mingshu.library.sources import (  # noqa: E402
    EXCERPT,
    MANIFEST,
    Sources,
    Transcription,
    normalise_quote,
)

F = "ziwei-quanshu.juan2.newdu-full.txt"
COMPILATION = "ziwei-quanshu.anxing-jue.iztro-compilation.md"
WINDOW = 12  # lines tests/bazi/test_bazi_star_sources.py joins from a passage's first line
# The compilation's verse titles that tests/book/test_book_citations.py asserts 卷二 lacks.
F_LACKS = (
    "安咸池诀",
    "安天才天寿诀",
    "安天巫诀",
    "安华盖诀",
    "安天官天福",
    "安天月诀",
    "安孤辰寡宿诀",
    "安蜚廉诀",
    "安破碎诀",
    "安阴煞诀",
)
_PB = re.compile(r"<pb:([^>]*)>")
_AT = re.compile(r"([\w.-]+):(\d+)(?:-(\d+))?")
_BOOK_TITLE = re.compile(r"全书 卷二 ([\u4e00-\u9fff、]+)")

# Each file's origin (PROVENANCE.md of the transcriptions): repository and commit, licence.
ORIGINS = (
    ("ziwei-quanshu.juan2.newdu-full", "hxl888/jingpan@b68e0aae206cb0d4a99f958887af182d4c25fc2a",
     "none stated (国学典籍网 text, 紫微斗数全书 is public domain): short passages, cited"),
    ("ziwei-quanshu.", "SylarLong/iztro-docs@0998a96a8d5851c49fc67ca82b0f68053c54e6fd", "MIT"),
    ("sanming-tonghui.juan0", "kanripo/KR3g0042@efe780a4f6fd835f4e2d769ffc8f79b7099db3b1",
     "CC BY-SA 4.0"),
    ("sanming-tonghui.juan1", "kanripo/KR3g0042@efe780a4f6fd835f4e2d769ffc8f79b7099db3b1",
     "CC BY-SA 4.0"),
    ("xingxue-dacheng.", "kanripo/KR3g0041@6626e6d7b8337db0e966522e77dc291f54664548",
     "CC BY-SA 4.0"),
    ("xieji-bianfang.", "kanripo/KR3g0051@8b5522eb0299afbd575f1cb556e972c71c40c42a",
     "CC BY-SA 4.0"),
    ("ziwei-doushu.daozang", "kanripo/KR5h0055@86d036859da6d0352b0fc1d6edf46eb5745759d2",
     "CC BY-SA 4.0"),
    ("yuanhai-ziping.", "Theo-Messi/xx.theojs.cn@d8efa5918375c823600c1a14397f5bb5b6344741", "MIT"),
    ("shenfeng-tongkao.", "Theo-Messi/xx.theojs.cn@d8efa5918375c823600c1a14397f5bb5b6344741",
     "MIT"),
)  # fmt: skip


def origin(name: str) -> tuple[str, str]:
    if ".punctuated-witness" in name:
        return "Theo-Messi/xx.theojs.cn@d8efa5918375c823600c1a14397f5bb5b6344741", "MIT"
    for prefix, repository, licence in ORIGINS:
        if name.startswith(prefix):
            return repository, licence
    raise SystemExit(f"{name}: no origin known: add it to ORIGINS from PROVENANCE.md")


def source_path(name: str, provenance: str) -> str:
    """The file's path in its repository, from its row of PROVENANCE.md."""
    m = re.search(rf"^\| `{re.escape(name)}` \|[^|]*\| `([^`]+)` \|", provenance, re.M)
    if m is None:
        raise SystemExit(f"{name}: no row in PROVENANCE.md")
    return m[1]


class Wanted:
    """The lines to ship and the absences to record, by file."""

    def __init__(self, full: Sources) -> None:
        self.full = full
        self.lines: dict[str, set[int]] = {}
        self.absent: dict[str, set[str]] = {}

    def text(self, name: str) -> Transcription:
        return self.full.get(name)

    def add(self, name: str, first: int, last: int | None = None, context: int = 0) -> None:
        t = self.text(name)
        lo, hi = max(1, first - context), min(t.length, (last or first) + context)
        self.lines.setdefault(name, set()).update(range(lo, hi + 1))

    def add_page(self, name: str, line: int) -> None:
        """The page-marker line in force at ``line`` (a line that starts with one)."""
        for n in range(line, 0, -1):
            if self.text(name).line(n).startswith("<pb:"):
                self.add(name, n)
                return

    def add_verse(self, at: str) -> None:
        m = _AT.fullmatch(at)
        if m is None:
            raise SystemExit(f"verse_at {at!r} is not FILE:LINE or FILE:FIRST-LAST")
        self.add(m[1], int(m[2]), int(m[3] or m[2]), context=1)

    def add_containing(self, name: str, term: str) -> None:
        """The first line holding ``term`` (nothing where none does: the test then fails)."""
        for n, line in self.text(name).lines.items():
            if term in line:
                self.add(name, n)
                return

    def add_quote(self, name: str, quote: str) -> None:
        """Every place ``quote`` stands (layout aside), a line either side."""
        t = self.text(name)
        joined, owner = "", []
        for n in range(1, t.length + 1):
            part = normalise_quote(t.line(n))
            joined += part
            owner += [n] * len(part)
        want = normalise_quote(quote)
        at = joined.find(want)
        while want and at >= 0:
            first, last = owner[at], owner[at + len(want) - 1]
            self.add(name, first, last, context=1)
            self.add_page(name, first)
            at = joined.find(want, at + 1)

    def add_absent(self, name: str, term: str) -> None:
        if self.text(name).lacks(term):
            self.absent.setdefault(name, set()).add(term)


def ziwei(w: Wanted) -> None:
    from mingshu.ziwei import STARS
    from mingshu.ziwei.quanshu import catalogue

    data = ROOT / "src" / "mingshu" / "ziwei" / "data"
    sources: list[str] = []
    for s in (*STARS, *catalogue()):
        if s.verse_at:
            w.add_verse(s.verse_at)
        sources.append(s.source)
    for table in ("chart.toml", "mutagens.toml", "patterns.toml"):
        raw = (data / table).read_text(encoding="utf-8")
        sources.append(raw)
        for row in _rows(tomllib.loads(raw)):
            if "verse_at" in row:
                w.add_verse(str(row["verse_at"]))
    for title in sorted({t for text in sources for t in _BOOK_TITLE.findall(text)}):
        w.add_containing(F, title)
    for title in F_LACKS:
        w.add_absent(F, title)


def _rows(node: object) -> Iterable[dict[str, object]]:
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _rows(value)
    elif isinstance(node, list):
        for value in node:
            yield from _rows(value)


def book_rules(w: Wanted) -> None:
    spec = importlib.util.spec_from_file_location("book_rules", ROOT / "tools" / "book_rules.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for first, last in module.READS:
        w.add(F, first, last)


CELL_CITATIONS = ROOT / "tests" / "bazi" / "test_bazi_cell_citations.py"


def test_reads(w: Wanted) -> None:
    """The ranges a test reads beyond a passage's window, from its ``READS`` literal (read
    with ast, not imported: the test module is no dependency of this tool)."""
    tree = ast.parse(CELL_CITATIONS.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.AnnAssign | ast.Assign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "READS" for t in targets):
                assert node.value is not None
                for name, first, last in ast.literal_eval(node.value):
                    w.add(name, first, last)


def bazi(w: Wanted) -> None:
    from mingshu.bazi.month_qi import SI_LING_TABLES
    from mingshu.bazi.stars import STARS

    cited = [src for s in STARS for v in s.variants for src in (v.source, *v.also)]
    cited += [t.source for t in SI_LING_TABLES.values()]
    for src in cited:
        if src.status not in ("primary", "secondary") or not src.file:
            continue
        t = w.text(src.file)
        w.add(src.file, src.line, min(t.length, src.line + WINDOW - 1))
        w.add_page(src.file, src.line)
        if src.status != "primary":
            continue
        head = src.chapter.split(" ")[0]
        headings = [
            n
            for n, line in t.before(src.line + 1)
            if line.startswith("\u3000\u3000") and not line.startswith("\u3000\u3000\u3000")
        ]
        if src.file.startswith("xieji"):  # the juan's table of contents names the section
            found = [n for n in headings if head in t.line(n)]
            headings = found[:1]
        if headings:
            w.add(src.file, headings[-1])


def library(w: Wanted) -> None:
    from mingshu.library import load
    from mingshu.library.check import directives

    for article in load().articles:
        for d in directives(article):
            o = d.options
            if d.name == "quote" and o.get("source") and o.get("zh"):
                name = str(o["source"])
                if w.full.has(name):
                    w.add_quote(name, str(o["zh"]))
            elif d.name == "absent":
                for name in o.get("sources") or []:
                    if w.full.has(str(name)):
                        for term in o.get("terms") or []:
                            w.add_absent(str(name), str(term))


def excerpt(t: Transcription, numbers: set[int]) -> str:
    out = [
        f"# {t.name}: {len(numbers)} of its {t.length} lines, the ones the project cites.",
        "# Generated by tools/build_sources.py from ../shared/sources (origin and licence:",
        "# MANIFEST.toml, README.md).  Each passage: '@@ L<first>-<last>', then those lines.",
    ]
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and runs[-1][-1] + 1 == n:
            runs[-1].append(n)
        else:
            runs.append([n])
    for run in runs:
        pages = [m for _, line in t.before(run[0]) for m in _PB.findall(line)]
        page = f" · page {pages[-1]}" if pages else ""
        out += ["", f"@@ L{run[0]}-{run[-1]}{page}"]
        for n in run:
            line = t.line(n)
            assert "\n" not in line
            out.append(line)
    return "\n".join(out) + "\n"


def build(full_dir: Path) -> dict[str, str]:
    """The files of sources/ (but its README), by name."""
    full = Sources(full_dir)
    if full.excerpts or not (full_dir / "PROVENANCE.md").is_file():
        raise SystemExit(f"{full_dir} does not hold the full transcriptions (PROVENANCE.md)")
    provenance = (full_dir / "PROVENANCE.md").read_text(encoding="utf-8")
    w = Wanted(full)
    ziwei(w)
    book_rules(w)
    bazi(w)
    test_reads(w)
    library(w)
    files: dict[str, str] = {}
    manifest = [
        "# The transcriptions sources/ excerpts, generated by tools/build_sources.py: lines of the",
        "# full file, its sha256, where it was copied from (PROVENANCE.md of ../shared/sources),",
        "# the licence of the transcription, and the terms searched in the whole file and absent.",
    ]
    for name in sorted(set(w.lines) | set(w.absent)):
        t = w.text(name)
        numbers = w.lines.get(name, set())
        files[name + EXCERPT] = excerpt(t, numbers)
        repository, licence = origin(name)
        digest = hashlib.sha256((full_dir / name).read_bytes()).hexdigest()
        manifest += [
            "",
            f"[files.{json.dumps(name)}]",
            f"lines = {t.length}",
            f"shipped = {len(numbers)}",
            f'sha256 = "{digest}"',
            f"repository = {json.dumps(repository)}",
            f"path = {json.dumps(source_path(name, provenance), ensure_ascii=False)}",
            f"licence = {json.dumps(licence, ensure_ascii=False)}",
        ]
        absent = sorted(w.absent.get(name, set()))
        if absent:
            manifest.append(f"absent = {json.dumps(absent, ensure_ascii=False)}")
    files[MANIFEST] = "\n".join(manifest) + "\n"
    return files


def stale(out: Path, files: dict[str, str]) -> list[str]:
    """What differs between ``out`` and ``files`` (README.md is written by hand)."""
    have = {p.name for p in out.glob("*") if p.name != "README.md"} if out.is_dir() else set()
    wrong = [n for n in sorted(files) if not (out / n).is_file()]
    wrong += [n for n in sorted(files) if (out / n).is_file() and _read(out / n) != files[n]]
    return wrong + sorted(have - set(files))


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", type=Path, default=SHARED, help="the full transcriptions")
    parser.add_argument("--out", type=Path, default=OUT, help="where the excerpts go")
    parser.add_argument("--check", action="store_true", help="exit 1 if --out is stale")
    args = parser.parse_args()
    files = build(args.full)
    wrong = stale(args.out, files)
    if args.check:
        for name in wrong:
            print(f"stale: {args.out / name}")
        return 1 if wrong else 0
    args.out.mkdir(exist_ok=True)
    for name in sorted({p.name for p in args.out.glob("*")} - set(files) - {"README.md"}):
        (args.out / name).unlink()
    for name, text in files.items():
        (args.out / name).write_text(text, encoding="utf-8")
    shipped = sum(len(t) for t in files.values())
    print(f"{len(files) - 1} excerpts, {shipped:,} characters in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
