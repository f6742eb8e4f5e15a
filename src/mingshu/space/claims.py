"""Claims: facts stated in prose, checked over every row of a swept dataset.

A :class:`Claim` is a sentence, where it comes from, and one read-only query over the view
``charts`` that counts the rows contradicting the sentence (its *counterexamples*).  A claim
holds over a dataset when that count is 0; :func:`check` runs claims and says how many rows
each one looked at (``total_sql``, by default every row), so "holds" always comes with an N.

The claims themselves are data beside the library's articles (``*.claims.toml``, read by
:mod:`mingshu.library.claims`, which builds them into :class:`Claim` values); this module is
the runner and holds none.  A claim that relies on a setting names it in ``settings``; over a
dataset swept with another value it is reported as not applicable rather than run.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from mingshu.cycles import Branch
from mingshu.errors import InputError
from mingshu.space.sql import VIEW, _message, check_sql, connect
from mingshu.space.ziwei_sweep import BAZI_SCHEMA, SCHEMA, read_metadata

__all__ = [
    "BAZI_SCHEMA",
    "SCHEMA",
    "TOTAL_SQL",
    "Claim",
    "ClaimResult",
    "check",
    "count_rows_of_groups_varying",
    "count_rows_where",
    "list_at",
    "mod12",
    "palace_name_at",
    "settings_match",
]

TOTAL_SQL: Final = f"SELECT count(*) FROM {VIEW}"
"""Every row of the dataset: the N a claim ranges over unless it says otherwise."""

# The ``palace_<branch key>`` columns, 子 0 … 亥 11 (the keys cycles.toml gives).
_BRANCH_KEYS: Final = tuple(b.key for b in Branch)


@dataclass(frozen=True)
class Claim:
    """One engine fact: ``sql`` counts the rows of ``charts`` that contradict ``statement``.

    ``source`` names the seed file and quotes the sentence; ``total_sql`` counts the rows the
    claim ranges over; ``settings`` are the dataset settings the claim relies on (name, value);
    ``schema`` is the kind of dataset it is about (the Zi Wei space by default, or the BaZi
    space, :data:`mingshu.space.ziwei_sweep.BAZI_SCHEMA`).  A claim that compares two
    settings names the second dataset's settings in ``other_settings``; its queries read
    that dataset as the view ``other`` (the same births, joined on ``solar_date``,
    ``time_index`` and ``gender``).
    """

    key: str
    statement: str
    source: str
    sql: str
    total_sql: str = TOTAL_SQL
    settings: tuple[tuple[str, object], ...] = ()
    schema: str = SCHEMA
    other_settings: tuple[tuple[str, object], ...] = ()


@dataclass(frozen=True)
class ClaimResult:
    """What :func:`check` found for one claim.  ``counterexamples`` and ``rows`` are ``None``
    when the claim does not apply to the dataset (``applies`` is false; ``reason`` says why:
    ``"settings"``, ``"space"`` for a claim about the other kind of dataset, or
    ``"other"`` when the second dataset it compares with is missing or has other settings)."""

    claim: Claim
    counterexamples: int | None
    rows: int | None
    seconds: float
    applies: bool = True
    reason: str = ""

    @property
    def holds(self) -> bool | None:
        """True with no counterexample, False with some, None when not applicable."""
        return None if self.counterexamples is None else self.counterexamples == 0


def mod12(expr: str) -> str:
    # DuckDB's % keeps the sign of the dividend; a branch is always 0..11.
    return f"((({expr}) % 12 + 12) % 12)"


def list_at(values: Sequence[int], index: str) -> str:
    """The SQL for ``values[index]`` (DuckDB lists count from 1)."""
    return f"[{', '.join(map(str, values))}][{index} + 1]"


def count_rows_where(condition: str) -> str:
    return f"SELECT count(*) FROM {VIEW} WHERE {condition}"


def count_rows_of_groups_varying(key: str, value: str) -> str:
    """Rows in groups of ``key`` where ``value`` is not constant: a functional dependency's
    counterexamples."""
    return (
        f"SELECT coalesce(sum(n), 0) FROM (SELECT count(*) AS n FROM {VIEW} "
        f"GROUP BY {key} HAVING count(DISTINCT {value}) > 1)"
    )


def palace_name_at(star: str) -> str:
    """The palace name number (0 命宫 … 11 兄弟) of the branch holding ``star``."""
    cases = " ".join(f"WHEN {b} THEN palace_{k}" for b, k in enumerate(_BRANCH_KEYS))
    return f"(CASE {star} {cases} END)"


def _count(con: object, sql: str, key: str) -> int:
    import duckdb

    assert isinstance(con, duckdb.DuckDBPyConnection)
    try:
        rows = con.execute(sql).fetchall()
    except duckdb.Error as e:
        raise InputError("sql", f"claim {key}: {_message(e, sql)}") from None
    if len(rows) != 1 or len(rows[0]) != 1 or not isinstance(rows[0][0], int):
        raise InputError("sql", f"claim {key}: the query must return one integer, not {rows!r}")
    return rows[0][0]


def settings_match(metadata: dict[str, object], wanted: Sequence[tuple[str, object]]) -> bool:
    """Whether a dataset with this metadata was swept with every (name, value) of ``wanted``."""
    settings = metadata.get("settings")
    values = settings if isinstance(settings, dict) else {}
    return all(values.get(n) == v for n, v in wanted)


def _not_applicable(
    claim: Claim, metadata: dict[str, object], other: dict[str, object] | None
) -> str:
    """Why ``claim`` does not apply to a dataset with this metadata ("" when it does)."""
    if metadata.get("schema", SCHEMA) != claim.schema:
        return "space"
    if not settings_match(metadata, claim.settings):
        return "settings"
    if claim.other_settings and (other is None or not settings_match(other, claim.other_settings)):
        return "other"
    return ""


def check(
    dataset: Path | str,
    claims: Sequence[Claim],
    other: Path | str | None = None,
    *,
    allow_partial: bool = False,
) -> list[ClaimResult]:
    """Run each claim over the dataset at ``dataset``: its counterexamples, the rows it
    ranges over, and the seconds both queries took.  Every query is checked first to be one
    read-only ``SELECT`` (:class:`InputError` on ``sql`` naming the claim otherwise), and runs
    on :func:`mingshu.space.connect`'s locked, read-only view.  ``other`` is the second
    dataset the claims with ``other_settings`` compare with (the view ``other``).  A dataset
    with missing years is an :class:`InputError` on ``dataset`` unless ``allow_partial``
    (:func:`mingshu.space.sql.check_complete`): its counts would be over a smaller space."""
    if isinstance(claims, (str, bytes)) or not isinstance(claims, Sequence):
        raise InputError("claims", f"give a list of Claim values, not {type(claims).__name__}")
    for claim in claims:
        if not isinstance(claim, Claim):
            raise InputError("claims", f"give Claim values, not {type(claim).__name__}")
        for sql in (claim.sql, claim.total_sql):
            try:
                check_sql(sql)
            except InputError as e:
                raise InputError("sql", f"claim {claim.key}: {e.message}") from None
    con = connect(dataset, other, allow_partial=allow_partial)
    metadata = read_metadata(Path(dataset)) or {}
    other_metadata = (read_metadata(Path(other)) or {}) if other is not None else None
    results: list[ClaimResult] = []
    try:
        for claim in claims:
            reason = _not_applicable(claim, metadata, other_metadata)
            if reason:
                results.append(ClaimResult(claim, None, None, 0.0, applies=False, reason=reason))
                continue
            start = time.perf_counter()
            bad = _count(con, claim.sql, claim.key)
            rows = _count(con, claim.total_sql, claim.key)
            results.append(ClaimResult(claim, bad, rows, time.perf_counter() - start))
    finally:
        con.close()
    return results
