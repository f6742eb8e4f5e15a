"""Write a generated block into a docs page between its two marker comments.

The tools that generate parts of docs/*.md (tools/pattern_counts.py, tools/xiztro_patterns.py)
keep the page's own text and replace only what lies between ``<!-- NAME: begin -->`` and
``<!-- NAME: end -->``; the page is written whole through :mod:`mingshu.files`.
"""

from __future__ import annotations

from pathlib import Path

from mingshu.files import replacing


def write_section(doc: Path, name: str, text: str) -> None:
    """Put ``text`` between the ``name`` markers of ``doc`` (each marker once in it)."""
    begin, end = f"<!-- {name}: begin -->", f"<!-- {name}: end -->"
    page = doc.read_text(encoding="utf-8")
    head, rest = page.split(begin)
    _, tail = rest.split(end)
    with replacing(doc, "doc") as out:
        out.write(f"{head}{begin}\n{text}\n{end}{tail}")
