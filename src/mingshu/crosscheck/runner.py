"""Run our engine over a file of iztro reference records and count what differs.

``make_record(input) -> record`` charts one fixture input and returns a record shaped like the
fixture ``output``.  Each case ends as exactly one of:

- **skipped**: iztro itself gave an error (``output.ok`` is false); the reason is its message
  (unless ``classify(case, [])`` names it as a documented iztro error: a known difference);
- **passed**: no mismatch;
- **known difference**: mismatches, but ``classify(case, mismatches)`` named a documented
  place where iztro is wrong (its return value is the reason);
- **failed**: anything else, including an input our engine rejected (``InputError``: path
  ``<input>``, got = the message) and any other exception (path ``<exception>``).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Final

from mingshu.crosscheck.compare import Mismatch, collapse_path, compare
from mingshu.crosscheck.records import Case, count_cases, read_cases
from mingshu.errors import InputError

__all__ = [
    "EXCEPTION_PATH",
    "INPUT_PATH",
    "IZTRO_ERROR_PATH",
    "CaseResult",
    "Classify",
    "MakeRecord",
    "Summary",
    "check_case",
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
    field_mismatches: Counter[str] = field(default_factory=Counter)  # mismatches per field
    field_cases: Counter[str] = field(default_factory=Counter)  # failed cases per field
    skip_reasons: Counter[str] = field(default_factory=Counter)
    known_reasons: Counter[str] = field(default_factory=Counter)
    failures: list[tuple[str, Mismatch]] = field(default_factory=list)  # first few: label, first

    @property
    def total(self) -> int:
        return self.passed + self.failed + self.skipped + self.known_differences

    @property
    def ok(self) -> bool:
        return self.failed == 0

    def closing_line(self) -> str:
        return f"{self.passed} passed, {self.failed} failed"

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
                self.failures.append((case.label, result.mismatches[0]))
        else:
            self.passed += 1


def check_case(case: Case, make_record: MakeRecord, classify: Classify | None = None) -> CaseResult:
    """Chart one case with ``make_record`` and judge it against iztro's record."""
    if not case.expected_ok:
        error = str(case.output.get("error") or "iztro gave no chart")
        # iztro failed where we chart correctly (a documented iztro error): a known
        # difference; any other iztro error leaves nothing to compare: skipped.
        reason = classify(case, []) if classify is not None else None
        if reason is not None:
            gap: Mismatch = {"path": IZTRO_ERROR_PATH, "expected": error, "got": "(a chart)"}
            return CaseResult(id=case.id, mismatches=[gap], known_difference=reason)
        return CaseResult(id=case.id, mismatches=[], skipped=error)
    mismatches: list[Mismatch]
    try:
        ours = make_record(case.input)
    except InputError as e:
        mismatches = [{"path": INPUT_PATH, "expected": None, "got": str(e)}]
    except Exception as e:  # a crash on one case must not hide the other cases' results
        mismatches = [{"path": EXCEPTION_PATH, "expected": None, "got": f"{type(e).__name__}: {e}"}]
    else:
        mismatches = compare(case.output, ours)
    if not mismatches:
        return CaseResult(id=case.id, mismatches=[])
    reason = classify(case, mismatches) if classify is not None else None
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
        task = progress.add_task(path.name, total=count_cases(path))
        yield lambda: progress.advance(task)


def run(
    path: str | Path,
    make_record: MakeRecord,
    *,
    report: str | Path | None = None,
    classify: Classify | None = None,
    progress: bool = True,
) -> Summary:
    """Check every case of a reference file (plain or .gz JSON Lines) and count the results.

    ``report``: write one JSON line per case (:meth:`CaseResult.to_json`) to that file.
    ``progress``: show a progress bar on stderr when it is a terminal.
    Raises :class:`~mingshu.crosscheck.records.RecordFormatError` on a malformed line.
    """
    source = Path(path)
    summary = Summary()
    with ExitStack() as stack:
        out: IO[str] | None = None
        if report is not None:
            out = stack.enter_context(Path(report).open("w", encoding="utf-8"))
        advance = stack.enter_context(_progress_bar(source, progress))
        for case in read_cases(source):
            result = check_case(case, make_record, classify)
            summary.add(case, result)
            if out is not None:
                out.write(json.dumps(result.to_json(), ensure_ascii=False, default=str) + "\n")
            advance()
    return summary
