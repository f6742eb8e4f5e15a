"""The claims the articles make: their kinds, loading, running, the record and the digests.

An article's claims are data beside it: ``articles/<ID>.claims.toml`` holds one ``[[claim]]``
table per claim, with its ``key`` (what the article cites as ``{claim}`key```), its
``kind`` (one of :data:`KINDS`), the ``statement`` it checks, and the fields its kind needs.
This module is the one place that knows the kinds; it names no article.

Three kinds are SQL over a swept dataset (the view ``charts``, one row per chart), built into
a :class:`mingshu.space.claims.Claim` and run by :func:`mingshu.space.claims.check`; SQL may
use the named terms of :data:`TERMS` as ``{name}``.  Two kinds run a named check
(:mod:`mingshu.library.claim_checks`) over every case a fact depends on.

The record (``articles/_checked.json``) keeps, per claim, the rows of the last full run, the
counterexamples, what space it was, and a digest of the claim's query, so the pages can say
"checked over N charts" with N from a run, and a changed claim invalidates its entry.
"""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Final

from mingshu.errors import InputError

__all__ = [
    "BADGES",
    "CLAIMS_SUFFIX",
    "KINDS",
    "RECORD_FILE",
    "TERMS",
    "ArticleClaim",
    "ClaimKind",
    "digest",
    "load_claims",
    "parse_claims",
    "read_record",
    "sql_claims",
    "write_record",
]

RECORD_FILE: Final = "_checked.json"
CLAIMS_SUFFIX: Final = ".claims.toml"
_ARTICLES: Final = Path(__file__).parent / "articles"
_VIEW: Final = "charts"
_TOTAL: Final = f"SELECT count(*) FROM {_VIEW}"
_JOIN: Final = f"SELECT count(*) FROM {_VIEW} a JOIN other b USING (solar_date, time_index, gender)"

TERMS: Final[dict[str, tuple[str, str]]] = {
    "hour": (
        "(time_index % 12)",
        "the hour number: 子 (Rat) 0 … 亥 (Pig) 11; the late Rat hour (time index 12) is 子, as "
        "every hour-based star counts it (docs/iztro-rules.md §0, §1.4)",
    ),
    "counted_day": (
        "(lunar_day + CASE WHEN time_index = 12 THEN 1 ELSE 0 END)",
        "the counted day under late_rat_hour = next_day: the calendar's lunar day, plus one "
        "for the late Rat hour, with no month-length wrap (docs/iztro-rules.md §1.4, item 4)",
    ),
    "counted_month_split": (
        "(CASE WHEN lunar_leap AND lunar_day > 15 AND time_index <> 12 "
        "THEN lunar_month % 12 + 1 ELSE lunar_month END)",
        "the counted month under leap_month = split: days 16 on of a leap month count as the "
        "next month, except at the late Rat hour, which is never moved (docs/iztro-rules.md "
        "§1.5)",
    ),
}
"""Named SQL terms a claim may write as ``{name}``: (the SQL, what it means).  A claim may also
write ``{bazi_table:STAR.VARIANT.N}``, the list of the N-th branch of each key's cell in
a BaZi star's table (the stems 甲 … 癸, or the branches 子 … 亥), so that it reads the data file
itself; and ``{pattern:KEY}``, the index of a pattern (格局) in the ``patterns`` and
``patterns_broken`` columns (``list_contains(patterns, {pattern:jin_can_guang_hui})``)."""

BADGES: Final[dict[str, str]] = {
    "space": "checked over N charts",
    "cases": "checked over N cases",
    "data": "checked against the data file",
    "quote": "quotation verified verbatim",
}
"""What a badge says, by what was checked: the swept space, every case through the engine, the
project's own data tables, or a quotation (the ``{quote}`` directive, not a claim kind)."""


@dataclass(frozen=True)
class ClaimKind:
    """One kind of claim: its badge (a key of :data:`BADGES`), the fields it needs and may
    have beyond ``key``, ``kind``, ``statement``, and what it checks."""

    name: str
    badge: str
    required: tuple[str, ...]
    optional: tuple[str, ...]
    doc: str


_SQL_OPTIONAL: Final = ("source", "settings", "space")
KINDS: Final[dict[str, ClaimKind]] = {
    k.name: k
    for k in (
        ClaimKind(
            "count_where",
            "space",
            ("where",),
            ("total_where", *_SQL_OPTIONAL),
            "the charts matching `where` contradict the statement; it ranges over the charts "
            "matching `total_where` (default: every chart)",
        ),
        ClaimKind(
            "depends_only_on",
            "space",
            ("on", "value"),
            _SQL_OPTIONAL,
            "`value` is one function of `on`: the counterexamples are the charts in groups of "
            "equal `on` where `value` is not constant",
        ),
        ClaimKind(
            "compare_settings",
            "space",
            ("where", "other_settings"),
            ("total_where", *_SQL_OPTIONAL),
            "the same births swept under `settings` (a) and `other_settings` (b), joined on "
            "date, time index and gender: the pairs matching `where` contradict it; it ranges "
            "over the pairs matching `total_where` (default: every pair)",
        ),
        ClaimKind(
            "sql",
            "space",
            ("sql",),
            ("total_sql", "other_settings", *_SQL_OPTIONAL),
            "a read-only query returning the count of counterexamples; `total_sql` counts "
            "the rows it ranges over (default: every chart)",
        ),
        ClaimKind(
            "engine",
            "cases",
            ("check", "unit", "cases"),
            ("args", "version"),
            "a named check (mingshu.library.claim_checks) run through the engine over every "
            "case the fact depends on: `cases` says which, `unit` what one is",
        ),
        ClaimKind(
            "data_tables",
            "data",
            ("check", "unit", "cases"),
            ("args", "version"),
            "a named check comparing cells of the project's own data tables: it can only "
            "fail if a data file changes",
        ),
    )
}
"""Every claim kind, by name."""

_COMMON: Final = ("key", "kind", "statement")


@dataclass(frozen=True)
class ArticleClaim:
    """One claim as an article's ``*.claims.toml`` declares it (``fields`` are the kind's)."""

    key: str
    kind: str
    statement: str
    article: str
    fields: Mapping[str, Any] = field(default_factory=dict)

    @property
    def badge(self) -> str:
        return KINDS[self.kind].badge

    @property
    def source(self) -> str:
        return str(self.fields.get("source", self.article))

    @property
    def settings(self) -> tuple[tuple[str, object], ...]:
        return tuple(dict(self.fields.get("settings", {})).items())

    @property
    def other_settings(self) -> tuple[tuple[str, object], ...]:
        return tuple(dict(self.fields.get("other_settings", {})).items())

    @property
    def runs_sql(self) -> bool:
        return self.badge == "space"

    def sql_claim(self) -> Any:
        """The :class:`mingshu.space.claims.Claim` a space kind runs as."""
        from mingshu.space.claims import Claim
        from mingshu.space.ziwei_sweep import BAZI_SCHEMA, SCHEMA

        if not self.runs_sql:
            raise InputError("claim", f"{self.key} is a {self.kind} claim, not SQL")
        f = self.fields
        sub = _terms
        if self.kind == "count_where":
            sql = f"{_TOTAL} WHERE {sub(f['where'])}"
            total = f"{_TOTAL} WHERE {sub(f['total_where'])}" if "total_where" in f else _TOTAL
        elif self.kind == "depends_only_on":
            sql = (
                f"SELECT coalesce(sum(n), 0) FROM (SELECT count(*) AS n FROM {_VIEW} "
                f"GROUP BY {sub(f['on'])} HAVING count(DISTINCT {sub(f['value'])}) > 1)"
            )
            total = _TOTAL
        elif self.kind == "compare_settings":
            sql = f"{_JOIN} WHERE {sub(f['where'])}"
            total = f"{_JOIN} WHERE {sub(f['total_where'])}" if "total_where" in f else _JOIN
        else:
            sql, total = sub(f["sql"]), sub(f.get("total_sql", _TOTAL))
        return Claim(
            key=self.key,
            statement=self.statement,
            source=self.source,
            sql=sql,
            total_sql=total,
            settings=self.settings,
            schema=BAZI_SCHEMA if f.get("space") == "bazi" else SCHEMA,
            other_settings=self.other_settings,
        )

    def run(self) -> tuple[int, int]:
        """(counterexamples, cases) of an engine or data-table claim."""
        from mingshu.library.claim_checks import run_check

        if self.runs_sql:
            raise InputError("claim", f"{self.key} is SQL: run it over a dataset")
        return run_check(str(self.fields["check"]), dict(self.fields.get("args", {})))


_TABLE: Final = re.compile(r"\{bazi_table:([a-z_]+)\.([a-z0-9]+)\.(\d)\}")


def _terms(sql: str) -> str:
    for name, (expansion, _meaning) in TERMS.items():
        sql = sql.replace("{" + name + "}", expansion)
    return _PATTERN.sub(_pattern_index, _TABLE.sub(_bazi_table, sql))


_PATTERN: Final = re.compile(r"\{pattern:([a-z_]+)\}")


def _pattern_index(m: re.Match[str]) -> str:
    """``{pattern:KEY}``: the pattern's index in the sweep's ``patterns`` columns, from the
    one list the sweep writes them by (``space.ziwei_patterns.pattern_keys``)."""
    from mingshu.space.ziwei_patterns import pattern_keys

    keys = pattern_keys()
    if m.group(1) not in keys:
        raise InputError("claims", f"{m.group(0)}: no natal pattern {m.group(1)!r}")
    return str(keys.index(m.group(1)))


def _bazi_table(m: re.Match[str]) -> str:
    """``{bazi_table:STAR.VARIANT.N}``: the N-th branch (0 the lower) of each key's cell in a
    BaZi star's table (the stems 甲 … 癸, or the branches 子 … 亥 of a branch-keyed table), as a
    DuckDB list: the claim reads the data file, not a copy."""
    from mingshu.bazi import stars
    from mingshu.library.engine import bazi_cell  # the one reader of a BaZi table's cells

    star, variant, n = m.group(1), m.group(2), int(m.group(3))
    try:
        keys = len(stars.star(star).variant(variant).lookup)
        cells = [sorted(bazi_cell(star, variant, k)) for k in range(keys)]
    except InputError as e:
        raise InputError("claims", f"{m.group(0)}: {e.message}") from None
    if any(n >= len(c) for c in cells):
        raise InputError("claims", f"{m.group(0)}: a cell has fewer than {n + 1} branches")
    return f"[{', '.join(str(c[n]) for c in cells)}]"


def parse_claims(text: str, article: str, where: str = "") -> list[ArticleClaim]:
    """The claims of one ``*.claims.toml`` text; an :class:`InputError` on ``claims`` naming
    ``where`` and the claim for TOML that is not, an unknown kind, a missing or unknown
    field."""
    where = where or article
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise InputError("claims", f"{where}: not TOML: {e}") from None
    if set(data) - {"claim"}:
        raise InputError("claims", f"{where}: only [[claim]] tables, not {sorted(set(data))}")
    out = []
    for i, raw in enumerate(data.get("claim", []), 1):
        name = f"{where}: claim {raw.get('key', i)!s}"
        missing = [k for k in _COMMON if not isinstance(raw.get(k), str) or not raw[k]]
        if missing:
            raise InputError("claims", f"{name}: needs {', '.join(missing)}")
        kind = KINDS.get(raw["kind"])
        if kind is None:
            raise InputError(
                "claims", f"{name}: unknown kind {raw['kind']!r}; known: {', '.join(KINDS)}"
            )
        fields = {k: v for k, v in raw.items() if k not in _COMMON}
        lacking = [k for k in kind.required if k not in fields]
        extra = sorted(set(fields) - set(kind.required) - set(kind.optional))
        if lacking or extra:
            problem = f"needs {', '.join(lacking)}" if lacking else f"unknown {', '.join(extra)}"
            raise InputError("claims", f"{name}: a {kind.name} claim {problem}")
        out.append(ArticleClaim(raw["key"], kind.name, raw["statement"], article, fields))
    return out


def load_claims(root: Path | str | None = None) -> dict[str, ArticleClaim]:
    """Every claim of every article in ``root`` (default: the shipped articles), by key: the
    ``*.claims.toml`` files beside the articles.  Two claims with one key are an
    :class:`InputError`."""
    folder = Path(root) if root is not None else _ARTICLES
    if not folder.is_dir():
        raise InputError("articles", f"{folder} is not a directory")
    files = sorted(folder.glob(f"*{CLAIMS_SUFFIX}"))
    stamp = tuple((str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in files)
    return dict(_load(stamp))


@cache
def _load(stamp: tuple[tuple[str, int, int], ...]) -> tuple[tuple[str, ArticleClaim], ...]:
    found: dict[str, ArticleClaim] = {}
    for name, _mtime, _size in stamp:
        path = Path(name)
        article = path.name.removesuffix(CLAIMS_SUFFIX)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise InputError("claims", f"{path.name}: cannot be read as UTF-8 text: {e}") from None
        for c in parse_claims(text, article, path.name):
            if c.key in found:
                raise InputError(
                    "claims", f"claim {c.key} is in {found[c.key].article} and {article}"
                )
            found[c.key] = c
    return tuple(found.items())


def sql_claims(root: Path | str | None = None) -> dict[str, Any]:
    """The SQL claims of the articles in ``root``, as :class:`mingshu.space.claims.Claim`
    values by key."""
    return {k: c.sql_claim() for k, c in load_claims(root).items() if c.runs_sql}


def digest(claim: ArticleClaim) -> str:
    """What identifies a claim's query: a changed query makes its record stale."""
    if not claim.runs_sql:
        version = str(claim.fields.get("version", "1"))
        text = f"engine:{claim.key}:{version}:{claim.statement}"
    else:
        c = claim.sql_claim()
        text = f"sql:{c.sql}\n{c.total_sql}\n{c.settings}"
        if c.other_settings:  # only then, so the older claims keep their digests
            text += f"\nagainst {c.other_settings}"
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def read_record(folder: Path) -> dict[str, Mapping[str, Any]]:
    path = folder / RECORD_FILE
    if not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return dict(data.get("claims", {}))


def write_record(folder: Path, entries: Mapping[str, Mapping[str, Any]]) -> None:
    from mingshu.files import replacing

    text = json.dumps({"claims": dict(sorted(entries.items()))}, ensure_ascii=False, indent=1)
    with replacing(folder / RECORD_FILE, "record") as out:
        out.write(text + "\n")
