"""``mingshu crosscheck FILE``: compare our charts with a file of iztro reference records.

Exit codes: 0 every compared case matched (and at least one was compared); 1 mismatches;
2 bad input (unreadable file, bad option, a report path that is the input, a line that is not
a record, or a record with nothing to compare); 3 nothing compared (an empty file, or iztro
gave an error for every record).
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Final

import typer

if TYPE_CHECKING:
    from rich.console import Console

    from mingshu.crosscheck.compare import Mismatch
    from mingshu.crosscheck.runner import Classify, MakeRecord, Summary

__all__ = [
    "ENGINE_MODULE",
    "EXIT_BAD_INPUT",
    "EXIT_MISMATCH",
    "EXIT_NOTHING_COMPARED",
    "EXIT_OK",
    "crosscheck",
    "exit_code",
    "register",
]

ENGINE_MODULE: Final = "mingshu.crosscheck.iztro"
EXIT_OK: Final = 0
EXIT_MISMATCH: Final = 1
EXIT_BAD_INPUT: Final = 2
EXIT_NOTHING_COMPARED: Final = 3
_SHOW_FAILURES: Final = 10
_SHOW_REASONS: Final = 10
_CLIP: Final = 60


def register(app: typer.Typer) -> None:
    app.command("crosscheck")(crosscheck)


def _load_engine() -> tuple[MakeRecord, Classify | None]:
    """``record_for_input`` (and ``classify``, if defined) from the engine adapter module."""
    try:
        module = importlib.import_module(ENGINE_MODULE)
    except ModuleNotFoundError as e:
        if e.name != ENGINE_MODULE:
            raise  # the adapter exists but something it imports is missing: a real bug
        typer.echo(
            f"error: {ENGINE_MODULE} is not available yet, so there is no engine to check.",
            err=True,
        )
        raise typer.Exit(EXIT_BAD_INPUT) from None
    make_record = getattr(module, "record_for_input", None)
    if not callable(make_record):
        typer.echo(f"error: {ENGINE_MODULE} does not define record_for_input().", err=True)
        raise typer.Exit(EXIT_BAD_INPUT)
    classify = getattr(module, "classify", None)
    return make_record, classify if callable(classify) else None


def exit_code(summary: Summary) -> int:
    """The exit code of a finished run (see the module docstring)."""
    if summary.bad_records:
        return EXIT_BAD_INPUT
    if summary.failed:
        return EXIT_MISMATCH
    if summary.compared == 0:
        return EXIT_NOTHING_COMPARED
    return EXIT_OK


def _clip(value: Any) -> str:
    import json

    from mingshu.crosscheck.clip import clip

    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except (RecursionError, ValueError):
        text = "(nested too deeply to show)"
    return clip(text, _CLIP)


def _cells(m: Mismatch) -> tuple[str, str]:
    """Expected and got as table cells; an engine's error message is shown whole."""
    from mingshu.crosscheck.runner import EXCEPTION_PATH, INPUT_PATH

    if m["path"] in (INPUT_PATH, EXCEPTION_PATH):
        return "(a chart)", str(m["got"])
    return _clip(m["expected"]), _clip(m["got"])


def _print_summary(console: Console, file: Path, summary: Summary) -> None:
    from rich.table import Table
    from rich.text import Text  # cells are data, never markup

    from mingshu.crosscheck.clip import clip

    console.print(
        f"crosscheck {clip(str(file))}: {summary.total} cases",
        highlight=False,
        markup=False,
        soft_wrap=True,
    )
    if summary.field_mismatches:
        table = Table(title="Mismatches by field (failed cases)", title_justify="left")
        table.add_column("field")
        table.add_column("mismatches", justify="right")
        table.add_column("cases", justify="right")
        for path, count in summary.field_mismatches.most_common():
            table.add_row(Text(clip(path)), str(count), str(summary.field_cases[path]))
        console.print(table)
        first = Table(title=f"First failed cases (up to {_SHOW_FAILURES})", title_justify="left")
        for column in ("case", "first mismatch", "expected (iztro)", "got (mingshu)"):
            first.add_column(column, overflow="fold")
        for label, m in summary.failures[:_SHOW_FAILURES]:
            first.add_row(*(Text(cell) for cell in (label, clip(m["path"]), *_cells(m))))
        console.print(first)
    for title, count, reasons in (
        ("skipped (iztro gave an error)", summary.skipped, summary.skip_reasons),
        ("known differences (iztro is wrong)", summary.known_differences, summary.known_reasons),
    ):
        if count:
            console.print(f"{count} {title}:", highlight=False, markup=False, soft_wrap=True)
            for reason, n in reasons.most_common(_SHOW_REASONS):
                console.print(f"  {n:>5} × {reason}", highlight=False, markup=False, soft_wrap=True)
            if len(reasons) > _SHOW_REASONS:
                console.print(f"  … {len(reasons) - _SHOW_REASONS} more reasons", markup=False)


def _fail(message: str, code: int = EXIT_BAD_INPUT) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(code)


def crosscheck(
    file: Annotated[
        Path,
        typer.Argument(
            help="iztro reference records: JSON Lines {input, output}, plain or .gz.",
            show_default=False,
        ),
    ],
    report: Annotated[
        Path | None,
        typer.Option(
            "--report",
            help="Write one JSON line per case: id, ok, mismatches, skipped/known_difference "
            "(never onto FILE; replaced only when complete; - for standard output, the "
            "summary then on stderr).",
        ),
    ] = None,
    progress: Annotated[
        bool, typer.Option("--progress/--no-progress", help="Progress bar on stderr.")
    ] = True,
) -> None:
    """Chart every input of FILE with mingshu and compare with iztro's records.

    A record whose input mingshu refuses (an impossible date, time 99, ...)
    is a failed case with its reason; a line that is not a record at all
    (not JSON, not an object) is listed as FILE:LINE, a bad record.

    Exit status:
    0 every compared case matched, and at least one was compared;
    1 mismatches found;
    2 bad input: FILE unreadable, a bad option, --report naming FILE, or
    any bad record;
    3 nothing compared: FILE is empty or iztro gave an error for every record.
    """
    from rich.console import Console

    from mingshu.crosscheck.clip import clip_message
    from mingshu.crosscheck.records import RecordFormatError
    from mingshu.crosscheck.runner import run
    from mingshu.errors import InputError

    make_record, classify = _load_engine()
    try:
        summary = run(file, make_record, report=report, classify=classify, progress=progress)
    except InputError as e:
        raise _fail(f"{e.field}: {clip_message(e.message)}") from None
    except RecordFormatError as e:
        raise _fail(clip_message(str(e))) from None
    except OSError as e:
        raise _fail(clip_message(str(e))) from None
    # With --report -, the report's lines are standard output: the summary goes to stderr.
    lines_out = report is not None and str(report) == "-"
    _print_summary(Console(stderr=lines_out), file, summary)
    for line in summary.bad_lines[:_SHOW_FAILURES]:
        typer.echo(f"error: {line}", err=True)
    if summary.bad_records > _SHOW_FAILURES:
        typer.echo(f"error: … {summary.bad_records - _SHOW_FAILURES} more bad records", err=True)
    typer.echo(summary.closing_line(), err=lines_out)
    code = exit_code(summary)
    if code == EXIT_NOTHING_COMPARED:
        what = "it has no records" if summary.total == 0 else "iztro gave an error for every record"
        typer.echo(f"nothing compared: {what}; that is not a pass", err=True)
    if code != EXIT_OK:
        raise typer.Exit(code)
