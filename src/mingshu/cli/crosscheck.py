"""``mingshu crosscheck FILE``: compare our charts with a file of iztro reference records."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Final

import typer

if TYPE_CHECKING:
    from rich.console import Console

    from mingshu.crosscheck.compare import Mismatch
    from mingshu.crosscheck.runner import Classify, MakeRecord, Summary

__all__ = ["ENGINE_MODULE", "crosscheck", "register"]

ENGINE_MODULE: Final = "mingshu.crosscheck.iztro"
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
        raise typer.Exit(2) from None
    make_record = getattr(module, "record_for_input", None)
    if not callable(make_record):
        typer.echo(f"error: {ENGINE_MODULE} does not define record_for_input().", err=True)
        raise typer.Exit(2)
    classify = getattr(module, "classify", None)
    return make_record, classify if callable(classify) else None


def _clip(value: Any) -> str:
    import json

    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= _CLIP else text[: _CLIP - 1] + "…"


def _cells(m: Mismatch) -> tuple[str, str]:
    """Expected and got as table cells; an engine's error message is shown whole."""
    from mingshu.crosscheck.runner import EXCEPTION_PATH, INPUT_PATH

    if m["path"] in (INPUT_PATH, EXCEPTION_PATH):
        return "(a chart)", str(m["got"])
    return _clip(m["expected"]), _clip(m["got"])


def _print_summary(console: Console, file: Path, summary: Summary) -> None:
    from rich.table import Table

    console.print(f"crosscheck {file}: {summary.total} cases", highlight=False, soft_wrap=True)
    if summary.field_mismatches:
        table = Table(title="Mismatches by field (failed cases)", title_justify="left")
        table.add_column("field")
        table.add_column("mismatches", justify="right")
        table.add_column("cases", justify="right")
        for path, count in summary.field_mismatches.most_common():
            table.add_row(path, str(count), str(summary.field_cases[path]))
        console.print(table)
        first = Table(title=f"First failed cases (up to {_SHOW_FAILURES})", title_justify="left")
        for column in ("case", "first mismatch", "expected (iztro)", "got (mingshu)"):
            first.add_column(column, overflow="fold")
        for label, m in summary.failures[:_SHOW_FAILURES]:
            first.add_row(label, m["path"], *_cells(m))
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


def crosscheck(
    file: Annotated[
        Path,
        typer.Argument(
            exists=True,
            dir_okay=False,
            readable=True,
            help="iztro reference records: JSON Lines {input, output}, plain or .gz.",
        ),
    ],
    report: Annotated[
        Path | None,
        typer.Option(
            "--report",
            dir_okay=False,
            help="Write one JSON line per case: id, ok, mismatches, skipped/known_difference.",
        ),
    ] = None,
    progress: Annotated[
        bool, typer.Option("--progress/--no-progress", help="Progress bar on stderr.")
    ] = True,
) -> None:
    """Chart every input of FILE with mingshu and compare with iztro's records.

    Exit status: 0 if no case failed, 1 if any failed, 2 on a usage or file error.
    """
    from rich.console import Console

    from mingshu.crosscheck.records import RecordFormatError
    from mingshu.crosscheck.runner import run

    make_record, classify = _load_engine()
    try:
        summary = run(file, make_record, report=report, classify=classify, progress=progress)
    except (RecordFormatError, OSError) as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(2) from None
    _print_summary(Console(), file, summary)
    typer.echo(summary.closing_line())
    if not summary.ok:
        raise typer.Exit(1)
