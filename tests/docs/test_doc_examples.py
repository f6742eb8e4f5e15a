"""The examples in the README and docs run, and print what they say they print."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: p.name)
def test_examples(path: Path) -> None:
    result = doctest.testfile(
        str(path), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False
    )
    # A document whose claims are never run drifts from the code: each must have examples.
    assert result.attempted > 0, f"{path.name} has no examples to run"
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {path.name}"


def test_ci_runs_exactly_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    command = [line for line in ci if line.startswith("python3 -m venv")]
    assert len(command) == 1
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"```sh\n{command[0]}\n```" in readme
