"""Read iztro reference records: JSON Lines of ``{"input": {...}, "output": {...}}``.

The format is described in ``tests/fixtures/iztro-2.6.0/README.md``; files may be plain or
gzip-compressed (recognised by their first bytes, whatever the name).

:func:`read_records` yields a :class:`BadRecord` for each line that is not a record (not JSON,
nested too deeply, not an object, a key missing, or nothing to compare: ``ok`` not JSON true
or false, a charted record without its chart or without the horoscope its input asked for)
and reads on; :func:`read_cases` stops there
with a :class:`RecordFormatError`.  A file that cannot be read at all raises either way.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mingshu.crosscheck.clip import clip, clip_message
from mingshu.errors import MingshuError

__all__ = ["BadRecord", "Case", "RecordFormatError", "count_cases", "read_cases", "read_records"]

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


@dataclass(frozen=True, slots=True)
class BadRecord:
    """A line of a reference file that is not a record, and why."""

    source: str  # file name, for messages
    line: int  # 1-based line number in that file
    reason: str

    def __str__(self) -> str:
        return f"{self.source}:{self.line}: {self.reason}"


@contextmanager
def _open_bytes(path: Path) -> Iterator[Iterable[bytes]]:
    # Opened once and peeked at: a FIFO or a process substitution (`<(zcat …)`) can be read
    # only once, and a second open of one waited for ever for a writer.
    with path.open("rb") as f:
        if f.peek(2)[:2] == _GZIP_MAGIC:
            with gzip.GzipFile(fileobj=f, mode="rb") as unzipped:
                yield unzipped
        else:
            yield f


def _numbered_lines(path: Path) -> Iterator[tuple[int, bytes]]:
    """Non-blank lines with their 1-based numbers; a file that breaks off names the line.

    Lines are decoded one by one (in :func:`_case`), so bytes that are not UTF-8 make one bad
    record with its own line number, not an error somewhere in a decoded chunk.
    """
    lineno = 0
    try:
        with _open_bytes(path) as f:
            for lineno, line in enumerate(f, start=1):
                if line.strip():
                    yield lineno, line
    except (OSError, EOFError) as e:
        where = f"{clip(str(path))}:{lineno + 1}"
        raise RecordFormatError(f"{where}: cannot read: {clip_message(str(e))}") from e


def _case(path: Path, lineno: int, raw: bytes) -> Case | BadRecord:
    def bad(reason: str) -> BadRecord:
        return BadRecord(source=path.name, line=lineno, reason=reason)

    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        return bad(f"not UTF-8 text (byte {e.start + 1} of the line)")
    try:
        record = json.loads(line)
    except json.JSONDecodeError as e:
        return bad(f"not valid JSON ({e.msg}, column {e.colno})")
    except RecursionError:
        return bad("not a record: JSON nested too deeply")
    except ValueError as e:  # e.g. an integer of more digits than Python converts
        return bad(f"not valid JSON ({clip_message(str(e))})")
    if not isinstance(record, dict):
        return bad(f"expected a JSON object, got {type(record).__name__}")
    missing = [key for key in ("input", "output") if key not in record]
    if missing:
        return bad(f"missing key(s) {', '.join(map(repr, missing))}")
    inp, out = record["input"], record["output"]
    if not isinstance(out, dict):
        return bad("'output' must be a JSON object")
    # An error record may echo an input that was not JSON (the raw line); every record that
    # iztro charted must have an object input.
    if out.get("ok") is not False and not isinstance(inp, dict):
        return bad("'input' must be a JSON object")
    nothing = _nothing_to_compare(inp, out)
    if nothing is not None:
        return bad(nothing)
    case_id = inp.get("id") if isinstance(inp, dict) else None
    if case_id is None:
        case_id = out.get("id")
    return Case(id=case_id, input=inp, output=out, source=path.name, line=lineno)


def _nothing_to_compare(inp: Any, out: dict[str, Any]) -> str | None:
    """Why a record holds nothing to compare, or None: ``ok`` must be JSON true or false,
    and a record iztro charted must carry its chart, and its horoscope when the input asked
    for one; else a case would pass having compared nothing."""
    ok = out.get("ok")
    if ok is not True and ok is not False:
        shown = "missing" if "ok" not in out else clip(json.dumps(ok, ensure_ascii=False))
        return f"'output.ok' must be true or false, not {shown}"
    if ok is False:
        return None
    chart = out.get("chart")
    if not isinstance(chart, dict) or not chart:
        return "'output.chart' must be a non-empty object: a record iztro charted holds its chart"
    asked = isinstance(inp, dict) and inp.get("horoscope") is not None
    horoscope = out.get("horoscope")
    if asked and (not isinstance(horoscope, dict) or not horoscope):
        return "the input asks for a horoscope, and 'output.horoscope' is missing or empty"
    return None


def read_records(path: str | Path) -> Iterator[Case | BadRecord]:
    """Yield each non-blank line of a reference file as a case, or as a :class:`BadRecord`
    when it is not one; in file order.

    Raises :class:`RecordFormatError` only when the file itself cannot be read.
    """
    p = Path(path)
    for lineno, line in _numbered_lines(p):
        yield _case(p, lineno, line)


def read_cases(path: str | Path) -> Iterator[Case]:
    """Yield the cases of a reference file, in file order; blank lines are skipped.

    Raises :class:`RecordFormatError` ("FILE:LINE: what is wrong") at the first malformed line.
    """
    p = Path(path)
    for item in read_records(p):
        if isinstance(item, BadRecord):
            raise RecordFormatError(f"{clip(str(p))}:{item.line}: {item.reason}")
        yield item


def count_cases(path: str | Path) -> int:
    """The number of non-blank lines (cases) in a reference file, without parsing them."""
    return sum(1 for _ in _numbered_lines(Path(path)))
