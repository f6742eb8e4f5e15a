"""Read-only DuckDB SQL over a swept dataset: the view ``charts`` and four small name views.

The connection is an in-memory database holding only that view over the dataset's
``year=*/part.parquet`` files (a temporary file of an unfinished year is never matched).
Once the view exists, DuckDB's file access is limited to the dataset's own directory
(``allowed_directories``, ``enable_external_access = false``) and the configuration is
locked, and only a single ``SELECT`` / ``WITH`` statement is accepted (DuckDB's own parser
says which kind a statement is).  DuckDB has no temporary directory: by default it would use
``.tmp`` in the working directory and allow reading it; so nothing spills to disk, and a
query larger than memory is DuckDB's out-of-memory error.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from mingshu.arguments import check_path
from mingshu.choices import check_bool
from mingshu.errors import InputError
from mingshu.named import clip_text
from mingshu.space.ziwei_sweep import METADATA, PART, read_metadata

if TYPE_CHECKING:
    import duckdb

__all__ = [
    "check_complete",
    "check_sql",
    "connect",
    "dataset_metadata",
    "missing_years",
    "open_dataset",
    "query",
    "years_text",
]

VIEW: Final = "charts"
MAX_TIMEOUT: Final = 86_400
"""The longest time limit :func:`query` takes, in seconds (a day; ``None`` is no limit)."""
OTHER: Final = "other"
"""The second dataset's view, when a query compares two (:func:`connect`'s ``other``)."""


def _read(folder: Path) -> str:
    files = _quote(f"{folder}/year=*/{PART}")
    return f"SELECT * FROM read_parquet({files}, hive_partitioning = true)"


def dataset_metadata(path: Path | str) -> tuple[Path, dict[str, Any]]:
    """The dataset directory at ``path`` (resolved) and its ``_mingshu.json``; an
    :class:`InputError` on ``dataset`` if there is no finished dataset there."""
    folder = check_path(path, "dataset")
    if not folder.is_dir():
        raise InputError("dataset", f"{folder} is not a directory (sweep one with mingshu sweep)")
    meta = read_metadata(folder)
    if meta is None:
        raise InputError(
            "dataset", f"{folder} has no {METADATA}: it is not a mingshu dataset (or not yet one)"
        )
    _check_tables(meta, folder / METADATA)
    if not any(folder.glob(f"year=*/{PART}")):
        raise InputError("dataset", f"{folder} has no finished year (no year=*/{PART})")
    return folder.resolve(), meta


def missing_years(path: Path | str) -> tuple[int, ...]:
    """The years of a dataset's range (``first_year`` .. ``last_year`` in ``_mingshu.json``)
    that have no finished partition: a sweep killed partway, a deleted ``year=YYYY``."""
    folder, meta = dataset_metadata(path)
    try:
        first, last = int(meta["first_year"]), int(meta["last_year"])
    except (KeyError, TypeError, ValueError):
        raise InputError(
            "dataset", f"{folder / METADATA} does not say which years the dataset holds"
        ) from None
    return tuple(y for y in range(first, last + 1) if not (folder / f"year={y}" / PART).is_file())


def years_text(years: Sequence[int]) -> str:
    """``1995``, ``1995, 1997``, ``1995..1999, 2003``: the years as runs."""
    runs: list[list[int]] = []
    for y in sorted(years):
        if runs and y == runs[-1][1] + 1:
            runs[-1][1] = y
        else:
            runs.append([y, y])
    return ", ".join(str(a) if a == b else f"{a}..{b}" for a, b in runs)


def check_complete(path: Path | str, allow_partial: bool = False) -> tuple[int, ...]:
    """The dataset's missing years (see :func:`missing_years`); unless ``allow_partial``, an
    :class:`InputError` on ``dataset`` naming them when there are any, since every count
    over it would be over a smaller space than its ``_mingshu.json`` says."""
    check_bool(allow_partial, "allow_partial")
    missing = missing_years(path)
    if missing and not allow_partial:
        raise InputError(
            "dataset",
            f"{path} is incomplete: year(s) {clip_text(years_text(missing), 120)} of its range "
            "have no finished part.parquet; sweep them again (the sweep resumes), or read "
            "it anyway with --allow-partial (allow_partial=True)",
        )
    return missing


# The name tables of ``_mingshu.json`` that the name views and ``find`` read, and the text
# fields each entry must have ("" for a table of plain names).
_TABLES: Final = {
    "gender": (),
    "time_index": ("hans",),
    "branches": ("key", "hans", "hant", "english"),
    "palace_names": ("key", "hans", "hant", "english"),
    "stars": ("hans", "english"),
}


def _check_tables(meta: dict[str, Any], file: Path) -> None:
    """An :class:`InputError` on ``dataset`` unless each name table of ``meta`` that is there
    has the shape the sweep writes: a damaged file is named, not a traceback."""
    for table, fields in _TABLES.items():
        items = meta.get(table)
        if items is None:
            continue
        problem = None if isinstance(items, dict) else "is not a JSON object"
        for key, value in items.items() if problem is None else ():
            if table != "stars" and not (key.isascii() and key.isdigit()):
                problem = f"has the key {clip_text(repr(key))}, not an index"
            elif table == "gender" or (table == "time_index" and not isinstance(value, dict)):
                if not isinstance(value, str):  # a name (hours: older datasets' 简体 name)
                    problem = f"names {clip_text(repr(key))} with {clip_text(repr(value))}"
            elif not isinstance(value, dict) or not all(
                isinstance(value.get(f), str) for f in fields
            ):
                problem = f"entry {clip_text(repr(key))} lacks the text {', '.join(fields)}"
            if problem is not None:
                break
        if problem is not None:
            raise InputError(
                "dataset", f"{file}: {table} {problem}: the file is damaged (sweep again)"
            )


def _quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _literal(value: object) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, int):
        return str(int(value))
    return _quote(str(value))


def _values_view(name: str, columns: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """``CREATE VIEW name AS`` a VALUES list; every value a SQL literal (quoted text from
    the metadata file, so a name with a quote in it is still only a string); ``""`` for no
    rows (a BaZi dataset has no palaces or time indices)."""
    rows = list(rows)
    if not rows:
        return ""
    body = ", ".join("(" + ", ".join(_literal(v) for v in row) + ")" for row in rows)
    return f"CREATE VIEW {name} AS SELECT * FROM (VALUES {body}) AS t({', '.join(columns)})"


def _name_views(meta: dict[str, Any]) -> list[str]:
    """The name views, read from ``_mingshu.json`` (the sweep wrote them from the engine's
    tables, so there is no second table here): ``branch_name``, ``palace_name``,
    ``hour_name`` and ``star_name``."""

    def hour(index: str, names: object) -> tuple[int, object, object]:
        # Datasets swept before the hour names carried English held the 简体 name alone.
        if isinstance(names, dict):
            return int(index), names.get("hans"), names.get("english")
        return int(index), names, None

    def named(table: str) -> list[tuple[object, ...]]:
        items = meta.get(table) or {}
        return [(int(i), v["key"], v["hans"], v["english"]) for i, v in items.items()]

    stars = meta.get("stars") or {}
    views = [
        _values_view("branch_name", ("branch", "key", "hans", "english"), named("branches")),
        _values_view("palace_name", ("palace", "key", "hans", "english"), named("palace_names")),
        _values_view(
            "hour_name",
            ("time_index", "hans", "english"),
            [hour(i, v) for i, v in (meta.get("time_index") or {}).items()],
        ),
        _values_view(
            "star_name",
            ("key", "hans", "english"),
            [(k, v["hans"], v["english"]) for k, v in stars.items()],
        ),
    ]
    return [v for v in views if v]


def connect(
    path: Path | str, other: Path | str | None = None, *, allow_partial: bool = False
) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB connection with the view ``charts`` over the dataset at ``path``
    (and the name views ``branch_name``, ``palace_name``, ``hour_name``, ``star_name``) and
    no access to files outside it; :class:`InputError` on ``dataset`` if there is no
    dataset there.  With ``other``, a second dataset (the same births swept under other
    settings) is the view ``other``, so one query can compare the two row by row.  A dataset
    with missing years is refused unless ``allow_partial`` (:func:`check_complete`)."""
    import duckdb

    check_bool(allow_partial, "allow_partial")  # before the dataset is looked at
    folder, meta = dataset_metadata(path)
    check_complete(path, allow_partial)
    if other is not None:
        check_complete(other, allow_partial)
    _utf8("dataset", str(folder))
    folders = [folder]
    # No temporary directory: DuckDB's default, <cwd>/.tmp, would be readable by any query.
    con = duckdb.connect(":memory:", config={"temp_directory": ""})
    _create_view(con, VIEW, folder)
    if other is not None:
        other_folder, _ = dataset_metadata(other)
        _utf8("dataset", str(other_folder))
        folders.append(other_folder)
        _create_view(con, OTHER, other_folder)
    for view in _name_views(meta):
        con.execute(view)
    allowed = ", ".join(_quote(str(f) + "/") for f in folders)
    con.execute(f"SET allowed_directories = [{allowed}]")
    con.execute("SET enable_external_access = false")
    # No progress bar: DuckDB draws it on file descriptor 1 for a query over 2 s, into the
    # middle of `--json` output.
    con.execute("SET enable_progress_bar = false")
    con.execute("SET lock_configuration = true")
    return con


def connect_memory(meta: dict[str, Any]) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB connection with the name views of ``meta`` (a dataset's
    ``_mingshu.json`` contents) and no file access at all: the caller registers its Arrow
    tables (``con.register("charts", table)``), as the dataset-free look-up does per year."""
    import duckdb

    con = duckdb.connect(":memory:", config={"temp_directory": ""})
    for view in _name_views(meta):
        con.execute(view)
    con.execute("SET enable_external_access = false")
    con.execute("SET lock_configuration = true")
    return con


def _create_view(con: duckdb.DuckDBPyConnection, name: str, folder: Path) -> None:
    """The view ``name`` over the dataset's partitions; a partition DuckDB cannot read (not
    Parquet, cut short) is an :class:`InputError` on ``dataset``."""
    import duckdb

    try:
        con.execute(f"CREATE VIEW {name} AS {_read(folder)}")
    except duckdb.Error as e:
        con.close()
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise InputError("dataset", f"{folder}: cannot read its partitions: {first}") from None


def open_dataset(path: Path | str) -> duckdb.DuckDBPyRelation:
    """The dataset at ``path`` as a DuckDB relation (the view ``charts``)."""
    return connect(path).table(VIEW)


def check_sql(sql: str) -> str:
    """``sql`` if it is one ``SELECT`` (or ``WITH`` … ``SELECT``) statement, else an
    :class:`InputError` on ``sql``."""
    import duckdb

    if not isinstance(sql, str) or not sql.strip():
        raise InputError("sql", "give one SELECT query")
    _utf8("sql", sql)
    try:
        statements = duckdb.extract_statements(sql)
    except duckdb.Error as e:
        raise InputError("sql", _message(e, sql)) from None
    if len(statements) != 1:
        raise InputError("sql", f"give exactly one SELECT query, not {len(statements)} statements")
    kind = statements[0].type
    if kind != duckdb.StatementType.SELECT:
        raise InputError(
            "sql",
            f"only a SELECT query is allowed (the dataset is read-only), not "
            f"{kind.name}: {clip_text(sql.strip())}",
        )
    return sql


def _utf8(field: str, text: str) -> None:
    """An :class:`InputError` on ``field`` if ``text`` holds bytes that were not UTF-8 (an
    argument's undecodable bytes), which DuckDB cannot take."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as e:
        raise InputError(
            field, f"character {e.start + 1} is a byte that is not UTF-8 text: {text!a}"[:300]
        ) from None


def _message(e: Exception, sql: str) -> str:
    first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
    return f"{clip_text(first, 300)} in {clip_text(' '.join(sql.split()))}"


def query(
    path: Path | str,
    sql: str,
    *,
    timeout: float | None = None,
    limit: int | None = None,
    allow_partial: bool = False,
) -> tuple[list[str], list[tuple[Any, ...]]]:
    """Run one read-only query over the dataset: ``(column names, rows)``.  Bad SQL, an
    unknown column and anything but a single SELECT are an :class:`InputError` on ``sql``;
    a dataset with missing years one on ``dataset`` unless ``allow_partial``.

    ``timeout``: seconds the query may run (and its rows be fetched) before it is stopped,
    an :class:`InputError` on ``timeout``; ``None`` for no limit.  ``limit``: fetch at most
    that many rows (the rest are never read); ``None`` for all."""
    import threading

    import duckdb

    check_sql(sql)
    if timeout is not None and (
        isinstance(timeout, bool)
        or not isinstance(timeout, int | float)
        or not 0 < timeout <= MAX_TIMEOUT
    ):
        raise InputError(
            "timeout", f"give seconds above 0 and at most {MAX_TIMEOUT:,} (a day), not {timeout!r}"
        )
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 0):
        raise InputError("limit", f"give a number of rows, 0 or more, not {limit!r}")
    con = connect(path, allow_partial=allow_partial)
    # DuckDB stops a running query when asked from another thread.
    timer = threading.Timer(timeout, con.interrupt) if timeout is not None else None
    try:
        if timer is not None:
            timer.start()
        result = con.execute(sql)
        names = [d[0] for d in result.description or ()]
        # No result has 2**62 rows: a larger limit is no limit (and DuckDB's is 64 bits).
        if limit is None or limit >= 2**62:
            return names, result.fetchall()
        return names, result.fetchmany(limit)
    except duckdb.InterruptException:
        raise InputError(
            "timeout",
            f"the query ran longer than {timeout:g} s and was stopped (allow it more time)",
        ) from None
    except duckdb.Error as e:
        raise InputError("sql", _message(e, sql)) from None
    finally:
        if timer is not None:
            timer.cancel()
        con.close()
