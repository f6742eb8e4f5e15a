"""The examples of docs/bazi.md and of the mingshu.bazi docstrings run as tests."""

from __future__ import annotations

import doctest
from pathlib import Path

import mingshu.bazi

DOCS = Path(__file__).resolve().parents[2] / "docs" / "bazi.md"


def test_docs_page_examples() -> None:
    result = doctest.testfile(str(DOCS), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 15
    assert result.failed == 0


def test_package_docstring_examples() -> None:
    result = doctest.testmod(mingshu.bazi)
    assert result.attempted >= 3
    assert result.failed == 0
