"""Read iztro reference records: JSON Lines of ``{"input": {...}, "output": {...}}``.

The format is described in ``tests/fixtures/iztro-2.6.0/README.md``; files may be plain or
gzip-compressed (recognised by their first bytes, whatever the name).
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from mingshu.errors import MingshuError

__all__ = ["Case", "RecordFormatError", "count_cases", "read_cases"]

_GZIP_MAGIC = b"\x1f\x8b"


class RecordFormatError(MingshuError, ValueError):
    """A reference file is not in the record format; the message names file and line."""


@dataclass(frozen=True, slots=True)
class Case:
    """One reference record: what iztro was asked (``input``) and what it answered."""

    id: Any  # the input's "id" (else the output's), as written; None when neither has one
    input: Any  # a JSON object, except in error records of inputs that were not JSON
    output: dict[str, Any]
    source: str  # file name, for messages
    line: int  # 1-based line number in that file

    @property
    def expected_ok(self) -> bool:
        """Whether iztro charted the input (``output.ok``); false for iztro's errors."""
        return self.output.get("ok") is not False

    @property
    def label(self) -> str:
        """How to name the case to a person: its id, else its place in the file."""
        return str(self.id) if self.id is not None else f"{self.source}:{self.line}"


@contextmanager
def _open_text(path: Path) -> Iterator[IO[str]]:
    with path.open("rb") as probe:
        compressed = probe.read(2) == _GZIP_MAGIC
    if compressed:
        with gzip.open(path, "rt", encoding="utf-8") as f:
            yield f
    else:
        with path.open("r", encoding="utf-8") as f:
            yield f


def _numbered_lines(path: Path) -> Iterator[tuple[int, str]]:
    """Non-blank lines with their 1-based numbers; unreadable bytes name the file."""
    lineno = 0
    try:
        with _open_text(path) as f:
            for lineno, line in enumerate(f, start=1):
                if line.strip():
                    yield lineno, line
    except (OSError, EOFError, UnicodeDecodeError) as e:
        raise RecordFormatError(f"{path}:{lineno + 1}: cannot read: {e}") from e


def _case(path: Path, lineno: int, line: str) -> Case:
    where = f"{path}:{lineno}"
    try:
        record = json.loads(line)
    except json.JSONDecodeError as e:
        raise RecordFormatError(f"{where}: not valid JSON ({e.msg}, column {e.colno})") from e
    if not isinstance(record, dict):
        raise RecordFormatError(f"{where}: expected a JSON object, got {type(record).__name__}")
    missing = [key for key in ("input", "output") if key not in record]
    if missing:
        raise RecordFormatError(f"{where}: missing key(s) {', '.join(map(repr, missing))}")
    inp, out = record["input"], record["output"]
    if not isinstance(out, dict):
        raise RecordFormatError(f"{where}: 'output' must be a JSON object")
    # An error record may echo an input that was not JSON (the raw line); every record that
    # iztro charted must have an object input.
    if out.get("ok") is not False and not isinstance(inp, dict):
        raise RecordFormatError(f"{where}: 'input' must be a JSON object")
    case_id = inp.get("id") if isinstance(inp, dict) else None
    if case_id is None:
        case_id = out.get("id")
    return Case(id=case_id, input=inp, output=out, source=path.name, line=lineno)


def read_cases(path: str | Path) -> Iterator[Case]:
    """Yield the cases of a reference file, in file order; blank lines are skipped.

    Raises :class:`RecordFormatError` ("FILE:LINE: what is wrong") at the first malformed line.
    """
    p = Path(path)
    for lineno, line in _numbered_lines(p):
        yield _case(p, lineno, line)


def count_cases(path: str | Path) -> int:
    """The number of non-blank lines (cases) in a reference file, without parsing them."""
    return sum(1 for _ in _numbered_lines(Path(path)))
