"""Run our engine over a file of iztro reference records and count what differs.

``make_record(input) -> record`` charts one fixture input and returns a record shaped like the
fixture ``output``.  Each case ends as exactly one of:

- **skipped**: iztro itself gave an error (``output.ok`` is false); the reason is its message
  (unless ``classify(case, [])`` names it as a documented iztro error: a known difference);
- **passed**: no mismatch;
- **known difference**: mismatches, but ``classify(case, mismatches)`` named a documented
  place where iztro is wrong (its return value is the reason);
- **failed**: anything else, including an input our engine rejected (``InputError``: path
  ``<input>``, got = the message) and any other exception, in the engine, the comparison or
  ``classify`` (path ``<exception>``).

A line that is not a record at all (not JSON, nested too deeply, not an object) is counted as a
**bad record** (``FILE:LINE: reason``) and the run reads on.  Nothing is a pass unless at least
one case was compared (:attr:`Summary.ok`).

The report is written to a temporary file beside it and renamed into place when complete, so
an interrupted run leaves the previous report whole; it may never be the input file itself.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Final

from mingshu.crosscheck.clip import clip, clip_message
from mingshu.crosscheck.compare import Mismatch, collapse_path, compare
from mingshu.crosscheck.records import BadRecord, Case, count_cases, read_records
from mingshu.errors import InputError
from mingshu.files import STDOUT, check_not_input, check_target, replacing

__all__ = [
    "EXCEPTION_PATH",
    "INPUT_PATH",
    "IZTRO_ERROR_PATH",
    "CaseResult",
    "Classify",
    "MakeRecord",
    "Summary",
    "check_case",
    "check_report",
    "check_source",
    "run",
]

MakeRecord = Callable[[dict[str, Any]], dict[str, Any]]
Classify = Callable[[Case, list[Mismatch]], str | None]

INPUT_PATH: Final = "<input>"  # our engine rejected an input that iztro charted
EXCEPTION_PATH: Final = "<exception>"  # our engine crashed
IZTRO_ERROR_PATH: Final = "<iztro error>"  # iztro threw where we chart (a known difference)
_KEEP_FAILURES: Final = 50  # failed cases remembered for display


@dataclass(frozen=True, slots=True)
class CaseResult:
    """What became of one case."""

    id: Any
    mismatches: list[Mismatch]
    skipped: str | None = None
    known_difference: str | None = None

    @property
    def failed(self) -> bool:
        return bool(self.mismatches) and self.skipped is None and self.known_difference is None

    @property
    def ok(self) -> bool:
        return not self.failed

    def to_json(self) -> dict[str, Any]:
        """The report line: id, ok, mismatches, and the skip or known-difference reason."""
        out: dict[str, Any] = {"id": self.id, "ok": self.ok, "mismatches": self.mismatches}
        if self.skipped is not None:
            out["skipped"] = self.skipped
        if self.known_difference is not None:
            out["known_difference"] = self.known_difference
        return out


@dataclass
class Summary:
    """Counts over a run.  Field counts cover failed cases only, paths with indices collapsed."""

    passed: int = 0
    failed: int = 0
    skipped: int = 0
    known_differences: int = 0
    bad_records: int = 0  # lines that are not records
    field_mismatches: Counter[str] = field(default_factory=Counter)  # mismatches per field
    field_cases: Counter[str] = field(default_factory=Counter)  # failed cases per field
    skip_reasons: Counter[str] = field(default_factory=Counter)
    known_reasons: Counter[str] = field(default_factory=Counter)
    failures: list[tuple[str, Mismatch]] = field(default_factory=list)  # first few: label, first
    bad_lines: list[str] = field(default_factory=list)  # first few: "FILE:LINE: reason"

    @property
    def total(self) -> int:
        """Every non-blank line of the file: cases of each kind and bad records."""
        return self.compared + self.skipped + self.bad_records

    @property
    def compared(self) -> int:
        """Cases charted by us and compared with iztro's chart (passed, failed or known)."""
        return self.passed + self.failed + self.known_differences

    @property
    def ok(self) -> bool:
        """A pass: something was compared, nothing failed, every line was a record."""
        return self.failed == 0 and self.bad_records == 0 and self.compared > 0

    def closing_line(self) -> str:
        line = f"{self.passed} passed, {self.failed} failed"
        return line + (f", {self.bad_records} bad records" if self.bad_records else "")

    def add(self, case: Case, result: CaseResult) -> None:
        if result.skipped is not None:
            self.skipped += 1
            self.skip_reasons[result.skipped] += 1
        elif result.known_difference is not None:
            self.known_differences += 1
            self.known_reasons[result.known_difference] += 1
        elif result.failed:
            self.failed += 1
            fields = [collapse_path(m["path"]) for m in result.mismatches]
            self.field_mismatches.update(fields)
            self.field_cases.update(set(fields))
            if len(self.failures) < _KEEP_FAILURES:
                self.failures.append((clip(case.label), result.mismatches[0]))
        else:
            self.passed += 1

    def add_bad(self, bad: BadRecord) -> None:
        self.bad_records += 1
        if len(self.bad_lines) < _KEEP_FAILURES:
            self.bad_lines.append(f"{clip(bad.source)}:{bad.line}: {bad.reason}")


def _crash(where: str, e: BaseException) -> Mismatch:
    got = clip_message(f"{where}{type(e).__name__}: {e}")
    return {"path": EXCEPTION_PATH, "expected": None, "got": got}


def _classify(
    classify: Classify | None, case: Case, mismatches: list[Mismatch]
) -> tuple[str | None, Mismatch | None]:
    """The known-difference reason, or the crash of ``classify`` as a mismatch."""
    if classify is None:
        return None, None
    try:
        return classify(case, mismatches), None
    except Exception as e:  # a classifier that crashes explains nothing: the case fails
        return None, _crash("classify: ", e)


def check_case(case: Case, make_record: MakeRecord, classify: Classify | None = None) -> CaseResult:
    """Chart one case with ``make_record`` and judge it against iztro's record.

    Never raises for a bad record: whatever goes wrong becomes a mismatch of a failed case.
    """
    if not case.expected_ok:
        error = clip_message(str(case.output.get("error") or "iztro gave no chart"))
        # iztro failed where we chart correctly (a documented iztro error): a known
        # difference; any other iztro error leaves nothing to compare: skipped.
        reason, crash = _classify(classify, case, [])
        if crash is not None:
            return CaseResult(id=case.id, mismatches=[crash])
        if reason is not None:
            gap: Mismatch = {"path": IZTRO_ERROR_PATH, "expected": error, "got": "(a chart)"}
            return CaseResult(id=case.id, mismatches=[gap], known_difference=reason)
        return CaseResult(id=case.id, mismatches=[], skipped=error)
    mismatches: list[Mismatch]
    try:
        mismatches = compare(case.output, make_record(case.input))
    except InputError as e:
        mismatches = [{"path": INPUT_PATH, "expected": None, "got": clip_message(str(e))}]
    except Exception as e:  # a crash on one case must not hide the other cases' results
        mismatches = [_crash("", e)]
    if not mismatches:
        return CaseResult(id=case.id, mismatches=[])
    reason, crash = _classify(classify, case, mismatches)
    if crash is not None:
        return CaseResult(id=case.id, mismatches=[*mismatches, crash])
    return CaseResult(id=case.id, mismatches=mismatches, known_difference=reason)


@contextmanager
def _progress_bar(path: Path, enabled: bool) -> Iterator[Callable[[], None]]:
    """A Rich progress bar on stderr (only on a terminal); yields the 'one more case' call."""
    if not enabled:
        yield lambda: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    console = Console(stderr=True)
    if not console.is_terminal:  # no bar in logs and pipes; spares counting the file
        yield lambda: None
        return
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    ) as progress:
        total = count_cases(path) if path.is_file() else None  # a FIFO is read once
        task = progress.add_task(clip(path.name), total=total)
        yield lambda: progress.advance(task)


def check_source(source: Path) -> None:
    """Raise InputError on ``file`` unless ``source`` is a readable file."""
    name = clip(str(source))
    try:
        if source.is_dir():
            raise InputError("file", f"{name} is a directory, not a file of records")
        if not source.exists():
            raise FileNotFoundError
        # Only a regular file is opened to try it: a FIFO (`crosscheck <(zcat F.gz)`) gives
        # its records to one open, which must be the one that reads them.
        if source.is_file():
            with source.open("rb"):
                pass
    except FileNotFoundError:
        raise InputError("file", f"{name} does not exist") from None
    except OSError as e:
        raise InputError("file", f"cannot read {name}: {e.strerror or e}") from None


def check_report(report: Path, source: Path) -> None:
    """Raise InputError on ``report`` if writing it could harm the input or cannot succeed.

    The same file is recognised by its inode, so a symlink, a hard link or another spelling
    of the input's path is refused too; what else may be written is
    :func:`mingshu.files.check_target`'s decision (a regular file or nothing).
    """
    if str(report) == STDOUT:  # the lines go to standard output
        return
    check_not_input(report, "report", source, f"file {clip(str(source))}")
    check_target(report, "report")


def run(
    path: str | Path,
    make_record: MakeRecord,
    *,
    report: str | Path | None = None,
    classify: Classify | None = None,
    progress: bool = True,
) -> Summary:
    """Check every case of a reference file (plain or .gz JSON Lines) and count the results.

    ``report``: write one JSON line per case (:meth:`CaseResult.to_json`), and per bad record
    ``{"line", "ok": false, "bad_record"}``, to that file (via a temporary file and a rename).
    ``progress``: show a progress bar on stderr when it is a terminal.
    Raises :class:`~mingshu.errors.InputError` (field ``file`` or ``report``) before reading
    anything when the file cannot be read or the report is the input or cannot be written, and
    :class:`~mingshu.crosscheck.records.RecordFormatError` when the file breaks off unreadably.
    """
    source = Path(path)
    check_source(source)
    if report is not None:
        check_report(Path(report), source)
    summary = Summary()
    with ExitStack() as stack:
        out: IO[str] | None = None
        if report is not None:
            out = stack.enter_context(replacing(Path(report), "report"))
        advance = stack.enter_context(_progress_bar(source, progress))
        for item in read_records(source):
            line: dict[str, Any]
            if isinstance(item, BadRecord):
                summary.add_bad(item)
                line = {"line": item.line, "ok": False, "bad_record": item.reason}
            else:
                result = check_case(item, make_record, classify)
                summary.add(item, result)
                line = result.to_json()
            if out is not None:
                out.write(_json_line(line))
            advance()
    return summary


def _json_line(value: dict[str, Any]) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, default=str) + "\n"
    except (RecursionError, ValueError):  # a value nested too deeply to write back
        short = {k: v for k, v in value.items() if k in ("id", "ok", "line")}
        short["unwritable"] = "mismatches nested too deeply to write"
        return json.dumps(short, ensure_ascii=False, default=str) + "\n"
