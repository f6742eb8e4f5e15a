"""``mingshu sweep ziwei``, ``mingshu query``, ``mingshu find`` and ``mingshu claims``: the
chart space as a dataset, SQL over it, the reverse look-up without SQL, and the seed
articles' engine facts checked over every row.

Example::

    mingshu sweep ziwei --from 1900 --to 2100 --out charts --workers 2
    mingshu query charts "SELECT time_index, count(*) FROM charts WHERE en_guang = tian_gui
                          GROUP BY 1"

The sweep draws a progress bar on stderr and ends with one line: rows, seconds, rows/s and
bytes written.  ``mingshu claims DATASET`` exits 0 when every claim holds and 1 when one
fails (naming it on stderr).  Ctrl-C stops the sweep with exit code 130; every finished
year stays, and the next run skips it.  Bad input prints ``error: <field>: <message>`` and
exits with code 2.  pyarrow, duckdb, Rich and the engine load inside the commands.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, Final

import typer

from mingshu.cli._settings import setting_options
from mingshu.options import ZIWEI

if TYPE_CHECKING:
    from mingshu.space import SweepReport

__all__ = ["claims", "find", "query", "register", "sweep_bazi", "sweep_ziwei"]

EXIT_INTERRUPTED: Final = 130
# The API's field names, as the options that set them are called.
_FIELDS: Final = {"first_year": "from", "last_year": "to"}

# The Zi Wei settings that change a natal chart: the sweep's options.
_NATAL_ZIWEI: Final = tuple(s for s in ZIWEI if s.natal)

# The options both sweeps take.
_FromYear = Annotated[int, typer.Option("--from", metavar="YEAR", help="First year (≥ 1583).")]
_ToYear = Annotated[int, typer.Option("--to", metavar="YEAR", help="Last year (≤ 2650).")]
_Out = Annotated[
    str,
    typer.Option(
        "--out",
        metavar="DIR",
        help="Dataset directory: out/year=YYYY/part.parquet and out/_mingshu.json. "
        "Years already there are skipped.",
    ),
]


_Backend = Annotated[
    str,
    typer.Option(
        metavar="WORD",
        help="numpy (fast, the default) or engine (one chart at a time, the reference); "
        "the rows are the same.",
    ),
]
_AllowPartial = Annotated[
    bool,
    typer.Option(
        "--allow-partial",
        help="Read a dataset that lacks some years of its range (a sweep killed partway); "
        "the output says which years are missing.",
    ),
]


def _say_partial(missing: tuple[int, ...]) -> str:
    """The line that says a result covers fewer years than its dataset's range (on stderr,
    so JSON and CSV stay whole); "" for a complete dataset."""
    if not missing:
        return ""
    from mingshu.space.sql import years_text

    line = f"partial dataset: year(s) {years_text(missing)} missing; counts cover the rest"
    typer.echo(f"note: {line}", err=True)
    return line


def register(app: typer.Typer) -> None:
    sweep = typer.Typer(
        name="sweep",
        help="Write every chart of a range of years as a Parquet dataset (see docs/space.md).",
        no_args_is_help=True,
        add_completion=False,
        rich_markup_mode=None,
    )
    sweep.command("ziwei")(sweep_ziwei)
    sweep.command("bazi")(sweep_bazi)
    app.add_typer(sweep)
    app.command("query")(query)
    app.command("claims")(claims)
    app.command("find")(find)


@setting_options(_NATAL_ZIWEI)
def sweep_ziwei(
    ctx: typer.Context,
    first_year: _FromYear,
    last_year: _ToYear,
    out: _Out,
    workers: Annotated[
        int | None,
        typer.Option("--workers", help="Processes charting years at once (default: every core)."),
    ] = None,
    scheduler: Annotated[
        str | None,
        typer.Option(
            "--scheduler",
            metavar="ADDRESS",
            help="Run the years as tasks on a Dask cluster: tcp://HOST:PORT (as `dask "
            "scheduler` prints it; --out must be shared by every worker), or local for a "
            "LocalCluster of --workers processes here (docs/space.md, Scale-out).",
        ),
    ] = None,
    backend: _Backend = "numpy",
    **settings: Any,
) -> None:
    """Every natal Zi Wei chart of the years: each solar day × 13 time indices × 2 genders,
    one Parquet row per birth, one file per year.  Every setting that changes a natal chart
    is an option (not --age-count, which only horoscopes count by)."""
    raw = [str(first_year), str(last_year), out, backend, *([scheduler] if scheduler else [])]
    raw += [v for v in settings.values() if isinstance(v, str)]
    raw += [*(settings["mutagens"] or []), *(settings["brightness"] or [])]

    def run() -> SweepReport:
        from mingshu import space, ziwei
        from mingshu.cli._settings import chosen

        # Plain words, coerced and checked by the settings type (as `mingshu ziwei` does);
        # an option left out takes the type's own default (the school's own leap month).
        return space.sweep_ziwei(
            out,
            first_year,
            last_year,
            ziwei.ZiweiSettings(**chosen(ctx, _NATAL_ZIWEI, settings)),
            workers=workers,
            scheduler=scheduler,
            backend=backend,
        )

    _sweep(raw, run)


def sweep_bazi(
    first_year: _FromYear,
    last_year: _ToYear,
    out: _Out,
    workers: Annotated[
        int | None,
        typer.Option("--workers", help="Processes writing years at once (default: every core)."),
    ] = None,
    late_rat_hour: Annotated[
        str,
        typer.Option(
            metavar="WORD", help="23:00-24:00 takes the next_day's day pillar, split or same_day."
        ),
    ] = "next_day",
    include_basis_pillar: Annotated[
        bool,
        typer.Option(help="Branch-based stars may sit in the pillar that gives their basis."),
    ] = False,
    backend: _Backend = "numpy",
) -> None:
    """Every BaZi pillar set 1583-2650: one row per two-hour block (split at midnight and at
    every 节), with the pillars where each variant of each symbolic star is found."""
    raw = [str(first_year), str(last_year), out, late_rat_hour, backend]

    def run() -> SweepReport:
        from mingshu import bazi, space

        settings = bazi.BaziSettings(
            late_rat_hour=late_rat_hour,  # type: ignore[arg-type]  # checked by the settings
            include_basis_pillar=include_basis_pillar,
        )
        return space.sweep_bazi(
            out, first_year, last_year, settings, workers=workers, backend=backend
        )

    _sweep(raw, run)


def _sweep(raw: list[str], run: Callable[[], SweepReport]) -> None:
    """Run a sweep: bad input as one line naming the option, Ctrl-C as exit 130 (finished
    years stay), then the one-line report."""
    from mingshu.cli._errors import fail
    from mingshu.errors import InputError

    try:
        report = run()
    except InputError as e:
        fail(InputError(_FIELDS.get(e.field, e.field), e.message), raw)
    except KeyboardInterrupt:
        typer.echo("interrupted: finished years are kept; run again to resume", err=True)
        raise typer.Exit(EXIT_INTERRUPTED) from None
    if report.years_skipped:
        typer.echo(f"skipped {len(report.years_skipped)} year(s) already written", err=True)
    if report.years_redone:
        redone = ", ".join(str(y) for y in report.years_redone)
        typer.echo(f"wrote again year(s) {redone}: their part.parquet was not whole", err=True)
    typer.echo(
        f"{report.rows:,} rows in {report.seconds:.1f} s ({report.rows_per_second:,.0f} rows/s), "
        f"{report.bytes:,} bytes written to {report.out}"
    )


def query(
    dataset: Annotated[str, typer.Argument(metavar="DATASET", help="A swept dataset directory.")],
    sql: Annotated[
        str,
        typer.Argument(metavar="SQL", help="One SELECT query over the view charts."),
    ],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the rows as a JSON list of objects.")
    ] = False,
    csv: Annotated[bool, typer.Option("--csv", help="Print the rows as CSV.")] = False,
    allow_partial: _AllowPartial = False,
    timeout: Annotated[
        float,
        typer.Option(
            "--timeout", metavar="SECONDS", help="Stop a query that runs longer (0: no limit)."
        ),
    ] = 60.0,
    max_rows: Annotated[
        int,
        typer.Option(
            "--max-rows",
            metavar="N",
            help="Rows the table shows; the output says when rows were cut (--json and --csv "
            "print every row).",
        ),
    ] = 100,
) -> None:
    """Run one read-only SQL query (DuckDB) over a swept dataset's view ``charts``."""
    from mingshu.cli._errors import fail
    from mingshu.errors import InputError

    try:
        if as_json and csv:
            raise InputError("json", "give --json or --csv, not both")
        if not 0 <= timeout <= 86_400:  # NaN and inf too
            raise InputError("timeout", f"give seconds, 0 (no limit) to 86400, not {timeout}")
        if not 1 <= max_rows <= 1_000_000:
            raise InputError("max_rows", f"give 1 to 1000000 rows (--csv: all), not {max_rows}")
        from mingshu import space

        table_only = not (as_json or csv)  # one row more than shown says whether rows were cut
        names, rows = space.query(
            dataset,
            sql,
            timeout=timeout or None,
            limit=max_rows + 1 if table_only else None,
            allow_partial=allow_partial,
        )
        from mingshu.space.sql import missing_years

        partial = _say_partial(missing_years(dataset) if allow_partial else ())
        if as_json:
            text = _json_rows(names, rows)
    except InputError as e:
        fail(e, [dataset, sql])
    if as_json:
        typer.echo(text)
        return
    if csv:
        import csv as csv_module
        import sys

        writer = csv_module.writer(sys.stdout, lineterminator="\n")
        writer.writerow(names)
        writer.writerows(rows)
        return
    from rich.console import Console
    from rich.table import Column, Table
    from rich.text import Text

    # Text, not markup: a cell or a column name of "[/x]" is shown as written.
    table = Table(*(Column(Text(n)) for n in names))
    for row in rows[:max_rows]:
        table.add_row(*(Text(_cell(v)) for v in row))
    console = Console(highlight=False)
    console.print(table)
    said = f" ({partial})" if partial else ""
    if len(rows) > max_rows:
        console.print(
            f"the first {max_rows:,} rows; the query gives more (--max-rows N shows more, "
            f"--csv and --json print every row){said}",
            style="dim",
            markup=False,
        )
    else:
        console.print(f"{len(rows):,} row(s){said}", style="dim", markup=False)


def _json_rows(names: list[str], rows: list[tuple[Any, ...]]) -> str:
    """The rows as a JSON list of objects, every column kept: two columns of one name are
    refused (an object holds one value per name), and integers beyond 64 bits (HUGEINT)
    are written exactly."""
    import orjson

    from mingshu.errors import InputError

    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise InputError(
            "sql",
            f"two columns are named {', '.join(map(repr, twice))}: a JSON object holds one "
            "value per name; give each column its own name with AS (or use --csv)",
        )

    def exact(value: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool):
            return value if -(2**63) <= value < 2**64 else orjson.Fragment(str(value))
        if isinstance(value, list | tuple):
            return [exact(v) for v in value]
        if isinstance(value, dict):
            return {k: exact(v) for k, v in value.items()}
        return value

    objects = [dict(zip(names, map(exact, row), strict=True)) for row in rows]
    option = orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS
    return orjson.dumps(objects, default=str, option=option).decode()


@setting_options(_NATAL_ZIWEI)
def find(
    ctx: typer.Context,
    expr: Annotated[
        list[str],
        typer.Argument(
            metavar="[DATASET] EXPR",
            help="A swept dataset directory, then a condition such as 'en_guang = tian_gui' "
            "or 'tai_fu = 午' (docs/space.md, Find): star keys, palace_<branch>, life_branch, "
            "…; =, !=, in (…), and, or, not.  With the condition alone, the charts of "
            "--from .. --to are drawn in memory instead.",
        ),
    ],
    by: Annotated[
        str,
        typer.Option(
            "--by",
            metavar="WORD",
            help="Count by hour, month, day, year, gender, life or body "
            "(the Life or Body palace's branch); groups are named (卯时, 五月, 十四, 子).",
        ),
    ] = "hour",
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
    allow_partial: _AllowPartial = False,
    first_year: Annotated[
        int | None,
        typer.Option(
            "--from", metavar="YEAR", help="Without a dataset: the first year (default: all)."
        ),
    ] = None,
    last_year: Annotated[
        int | None,
        typer.Option("--to", metavar="YEAR", help="Without a dataset: the last year."),
    ] = None,
    **settings: Any,
) -> None:
    """The charts where a condition holds, counted by birth hour (or lunar month, lunar day,
    year, gender): the reverse look-up without SQL.  Reads a swept dataset, or, given only
    the condition, draws the charts of the years in memory (the Zi Wei setting options then
    choose the settings; a dataset has its own)."""
    from mingshu.cli._errors import fail
    from mingshu.cli._settings import given
    from mingshu.errors import InputError

    raw = [*expr, by]
    try:
        from mingshu import space

        if len(expr) > 2:
            raise InputError(
                "expr", f"give [DATASET] EXPR: {len(expr)} words (quote the condition)"
            )
        dataset, condition = (None, expr[0]) if len(expr) == 1 else (expr[0], expr[1])
        if dataset is not None:
            for name in ("first_year", "last_year", *(s.name for s in _NATAL_ZIWEI)):
                if given(ctx, name):
                    option = "--from" if name == "first_year" else "--to"
                    if name not in ("first_year", "last_year"):
                        option = "--" + name.replace("_", "-")
                    raise InputError(
                        name,
                        f"{option} is for a look-up without a dataset: {dataset} has its own "
                        "years and settings",
                    )
            result = space.find(dataset, condition, by=by, allow_partial=allow_partial)
        else:
            result = _find_in_memory(ctx, condition, by, first_year, last_year, settings)
    except InputError as e:
        fail(e, raw)
    partial = _say_partial(result.missing_years)
    if as_json:
        import orjson

        data = {
            "expr": result.expr,
            "by": result.by,
            "count": result.count,
            "rows": result.rows,
            "share": result.share,
            "groups": [
                {"value": g.value, "name": g.name, "count": g.count, "rows": g.rows}
                for g in result.groups
            ],
            "missing_years": list(result.missing_years),
        }
        typer.echo(orjson.dumps(data, option=orjson.OPT_INDENT_2).decode())
        return
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    table = Table(result.by, "name", "count", "of rows", "share")
    for g in result.groups:
        share = f"{g.count / g.rows:.1%}" if g.rows else "-"
        # The name is the dataset's _mingshu.json text: shown as written, never as markup.
        table.add_row(str(g.value), Text(g.name or ""), f"{g.count:,}", f"{g.rows:,}", share)
    console = Console(highlight=False)
    console.print(table)
    console.print(f"total: {result.count:,} of {result.rows:,} rows ({result.share:.2%})")
    if partial:
        console.print(partial)


def _find_in_memory(
    ctx: typer.Context,
    expr: str,
    by: str,
    first_year: int | None,
    last_year: int | None,
    settings: dict[str, Any],
) -> Any:
    """``find EXPR --from --to``: the years drawn in memory, with a progress bar on stderr."""
    from mingshu import ziwei
    from mingshu.calendar import FIRST_DATE, LAST_DATE
    from mingshu.cli._settings import chosen
    from mingshu.space.find import find_years
    from mingshu.space.ziwei_sweep import year_rows

    first = FIRST_DATE.year if first_year is None else first_year
    last = LAST_DATE.year if last_year is None else last_year
    chart_settings = ziwei.ZiweiSettings(**chosen(ctx, _NATAL_ZIWEI, settings))
    from rich.progress import Progress

    console = _stderr_console()
    # A bar only on a terminal: piped or captured stderr gets the error line alone.
    with Progress(console=console, transient=True, disable=not console.is_terminal) as bar:
        total = sum(year_rows(y) for y in range(first, last + 1)) if first <= last else 0
        task = bar.add_task(f"charts {first}–{last}", total=total)
        return find_years(
            expr,
            first,
            last,
            chart_settings,
            by,
            on_year=lambda _year, rows: bar.advance(task, rows),
        )


def _stderr_console() -> Any:
    from rich.console import Console

    return Console(stderr=True)


def _cell(value: Any) -> str:
    return "NULL" if value is None else str(value)


EXIT_CLAIM_FAILED: Final = 1


def _engine_results(claims: list[Any], run: bool) -> list[Any]:
    """The engine and data-table claims as results: run when ``run``, else not applicable
    (reason ``engine``)."""
    import time

    from mingshu.space.claims import Claim, ClaimResult

    out = []
    for c in claims:
        as_sql = Claim(c.key, c.statement, c.source, "", "")
        if not run:
            out.append(ClaimResult(as_sql, None, None, 0.0, applies=False, reason="engine"))
            continue
        start = time.perf_counter()
        bad, n = c.run()
        out.append(ClaimResult(as_sql, bad, n, time.perf_counter() - start))
    return out


def claims(
    dataset: Annotated[str, typer.Argument(metavar="DATASET", help="A swept dataset directory.")],
    other: Annotated[
        str | None,
        typer.Option(
            "--other",
            metavar="DATASET",
            help="The same births swept under other settings, for the claims that compare two "
            "settings (as the view other).",
        ),
    ] = None,
    engine: Annotated[
        bool,
        typer.Option(
            "--engine", help="Also run the engine and data-table claims (they take seconds)."
        ),
    ] = False,
    articles: Annotated[
        str | None,
        typer.Option(
            "--articles",
            metavar="DIR",
            help="The articles folder whose *.claims.toml to run (default: the shipped library).",
        ),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print each claim's result as a JSON object.")
    ] = False,
    allow_partial: _AllowPartial = False,
) -> None:
    """Check every claim of every library article over every row of a swept dataset: each
    claim's counterexamples must be 0.  Claims about another kind of dataset or other
    settings are listed as not applicable.  Exit 0 when every claim holds, 1 when one fails."""
    from mingshu.cli._errors import fail
    from mingshu.errors import InputError

    try:
        from mingshu.arguments import check_path
        from mingshu.library.claims import load_claims
        from mingshu.space import claims as space_claims

        every = load_claims(check_path(articles, "articles") if articles else None)
        sql = [c.sql_claim() for c in every.values() if c.runs_sql]
        results = space_claims.check(dataset, sql, other, allow_partial=allow_partial)
        results += _engine_results([c for c in every.values() if not c.runs_sql], engine)
        from mingshu.space.sql import missing_years

        partial = _say_partial(missing_years(dataset) if allow_partial else ())
    except InputError as e:
        fail(e, [dataset, other or "", articles or ""])
    failed = [r.claim.key for r in results if r.holds is False]
    if as_json:
        import orjson

        objects = [
            {
                "key": r.claim.key,
                "statement": r.claim.statement,
                "source": r.claim.source,
                "applies": r.applies,
                "holds": r.holds,
                "rows": r.rows,
                "counterexamples": r.counterexamples,
                "seconds": round(r.seconds, 4),
            }
            for r in results
        ]
        typer.echo(orjson.dumps(objects, option=orjson.OPT_INDENT_2).decode())
    else:
        from rich.console import Console
        from rich.table import Column, Table

        table = Table("rows checked", "counterexamples", "seconds", "result")
        table.columns.insert(0, Column("claim", overflow="fold"))
        for r in results:
            table.add_row(
                r.claim.key,
                "-" if r.rows is None else f"{r.rows:,}",
                "-" if r.counterexamples is None else f"{r.counterexamples:,}",
                f"{r.seconds:.3f}",
                {True: "holds", False: "FAILS", None: f"n/a ({r.reason})"}[r.holds],
            )
        console = Console(highlight=False)
        console.print(table)
        held = sum(r.holds is True for r in results)
        console.print(f"{held} of {len(results)} claim(s) hold", style="dim")
        if partial:
            console.print(partial)
    if failed:
        typer.echo(f"failed: {', '.join(failed)}", err=True)
        raise typer.Exit(EXIT_CLAIM_FAILED)
