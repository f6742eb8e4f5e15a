"""Write the library's star coverage into docs/library.md (its "Status" section, between the
``coverage`` markers): the line ``mingshu library check`` prints, from every article's
``covers`` front matter (mingshu.library.coverage.coverage_line).  Run it after adding or
merging articles; tests/library/test_catalogue.py fails while the page is behind.

    python tools/library_coverage.py
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tools"))

from doc_section import write_section  # noqa: E402
from mingshu import library  # noqa: E402
from mingshu.library.coverage import coverage_line  # noqa: E402

DOC = ROOT / "docs" / "library.md"


def main() -> None:
    line = coverage_line(library.load())
    write_section(DOC, "coverage", f"```\n{line}\n```")
    print(line)


if __name__ == "__main__":
    main()
