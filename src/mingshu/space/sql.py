"""Read-only DuckDB SQL over a swept dataset: the view ``charts`` and four small name views.

The connection is an in-memory database holding only that view over the dataset's
``year=*/part.parquet`` files (a temporary file of an unfinished year is never matched).
Once the view exists, DuckDB's file access is limited to the dataset's own directory
(``allowed_directories``, ``enable_external_access = false``) and the configuration is
locked, and only a single ``SELECT`` / ``WITH`` statement is accepted (DuckDB's own parser
says which kind a statement is).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

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
OTHER: Final = "other"
"""The second dataset's view, when a query compares two (:func:`connect`'s ``other``)."""


def _read(folder: Path) -> str:
    files = _quote(f"{folder}/year=*/{PART}")
    return f"SELECT * FROM read_parquet({files}, hive_partitioning = true)"


def dataset_metadata(path: Path | str) -> tuple[Path, dict[str, Any]]:
    """The dataset directory at ``path`` (resolved) and its ``_mingshu.json``; an
    :class:`InputError` on ``dataset`` if there is no finished dataset there."""
    folder = Path(path)
    if not folder.is_dir():
        raise InputError("dataset", f"{folder} is not a directory (sweep one with mingshu sweep)")
    meta = read_metadata(folder)
    if meta is None:
        raise InputError(
            "dataset", f"{folder} has no {METADATA}: it is not a mingshu dataset (or not yet one)"
        )
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
    missing = missing_years(path)
    if missing and not allow_partial:
        raise InputError(
            "dataset",
            f"{path} is incomplete: year(s) {clip_text(years_text(missing), 120)} of its range "
            "have no finished part.parquet; sweep them again (the sweep resumes), or read "
            "it anyway with --allow-partial (allow_partial=True)",
        )
    return missing


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

    folder, meta = dataset_metadata(path)
    check_complete(path, allow_partial)
    if other is not None:
        check_complete(other, allow_partial)
    folders = [folder]
    con = duckdb.connect(":memory:")
    con.execute(f"CREATE VIEW {VIEW} AS {_read(folder)}")
    if other is not None:
        other_folder, _ = dataset_metadata(other)
        folders.append(other_folder)
        con.execute(f"CREATE VIEW {OTHER} AS {_read(other_folder)}")
    for view in _name_views(meta):
        con.execute(view)
    allowed = ", ".join(_quote(str(f) + "/") for f in folders)
    con.execute(f"SET allowed_directories = [{allowed}]")
    con.execute("SET enable_external_access = false")
    con.execute("SET lock_configuration = true")
    return con


def open_dataset(path: Path | str) -> duckdb.DuckDBPyRelation:
    """The dataset at ``path`` as a DuckDB relation (the view ``charts``)."""
    return connect(path).table(VIEW)


def check_sql(sql: str) -> str:
    """``sql`` if it is one ``SELECT`` (or ``WITH`` … ``SELECT``) statement, else an
    :class:`InputError` on ``sql``."""
    import duckdb

    if not isinstance(sql, str) or not sql.strip():
        raise InputError("sql", "give one SELECT query")
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


def _message(e: Exception, sql: str) -> str:
    first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
    return f"{clip_text(first, 300)} in {clip_text(' '.join(sql.split()))}"


def query(
    path: Path | str, sql: str, *, allow_partial: bool = False
) -> tuple[list[str], list[tuple[Any, ...]]]:
    """Run one read-only query over the dataset: ``(column names, rows)``.  Bad SQL, an
    unknown column and anything but a single SELECT are an :class:`InputError` on ``sql``;
    a dataset with missing years one on ``dataset`` unless ``allow_partial``."""
    import duckdb

    check_sql(sql)
    con = connect(path, allow_partial=allow_partial)
    try:
        result = con.execute(sql)
        names = [d[0] for d in result.description or ()]
        return names, result.fetchall()
    except duckdb.Error as e:
        raise InputError("sql", _message(e, sql)) from None
    finally:
        con.close()
