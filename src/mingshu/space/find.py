"""The reverse look-up without SQL: ``find(dataset, "en_guang = tian_gui", by="hour")``.

A small domain language (docs/space.md, "Find"), parsed here by a regex tokenizer and a
recursive-descent parser, and translated to a parameterised DuckDB ``WHERE`` clause: column
names only from a whitelist read from the dataset's ``_mingshu.json`` and columns, every
value a ``?`` parameter.  Grammar::

    expr       := conj ("or" conj)*
    conj       := neg ("and" neg)*
    neg        := "not" neg | "(" expr ")" | comparison
    comparison := operand ("=" | "!=") operand
                | operand ["not"] "in" "(" operand ("," operand)* ")"
    operand    := column | branch | palace | gender | integer
                | "flies" "(" place "," mutagen ")"
    comparison := … | ("surrounded" | "flanking") "(" place ")" "has" star
                | "self" "(" place "," mutagen ")"
                | ("pattern" | "broken") "(" pattern ")"
    place      := palace | "body"

The chart-analysis forms (``surrounded``, ``flanking``, ``flies``, ``self``; docs/space.md,
"Find") are computed in SQL from the star, ``life_branch``, ``body_branch`` and
``year_pillar`` columns with the engine's own tables (:func:`_analysis_sql`).

Each column holds one kind of value (a branch, a palace name, …); a named value must be of
the kind of the column it is compared with, so ``palace_zi = zi`` is refused rather than
silently false.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from mingshu.choices import check_bool
from mingshu.errors import InputError
from mingshu.gender import Gender
from mingshu.named import clip_text
from mingshu.space.ziwei_sweep import SCHEMA

if TYPE_CHECKING:
    import duckdb

    from mingshu.ziwei import ZiweiSettings

__all__ = ["BY", "MAX_LENGTH", "FindGroup", "FindResult", "find", "find_years", "parse"]

MAX_LENGTH: Final = 1000
"""The longest expression accepted (a look-up is a line, not a program)."""
_MAX_DEPTH: Final = 40
_FIELD: Final = "expr"

BY: Final = {
    "hour": "time_index",
    "month": "lunar_month",
    "day": "lunar_day",
    "year": "year",
    "gender": "gender",
    "life": "life_branch",
    "body": "body_branch",
}
"""``--by`` words and the column each groups by."""

_TOKEN: Final = re.compile(
    r"\s*(?:(?P<number>\d+)|(?P<word>[A-Za-z_][A-Za-z0-9_]*)|(?P<han>[\u3400-\u9fff]+)"
    r"|(?P<op>!=|<>|=|\(|\)|,))"
)
_KEYWORDS: Final = frozenset({"and", "or", "not", "in", "has"})

# The kind of value each non-star column holds (stars hold branches).
_BRANCH, _PALACE, _GENDER, _NUMBER = "branch", "palace name", "gender", "number"
_PLAIN_COLUMNS: Final = {
    "life_branch": _BRANCH,
    "body_branch": _BRANCH,
    "time_index": _NUMBER,
    "lunar_month": _NUMBER,
    "lunar_day": _NUMBER,
    "clock_branch": _BRANCH,
    "counted_month": _NUMBER,
    "counted_day": _NUMBER,
    "gender": _GENDER,
}

# The values a row can hold, by column, else by kind (docs/space.md, Columns): an integer
# outside them matches nothing, which is a mistake to name, not a count of 0 to print.
_COLUMN_RANGES: Final = {
    "time_index": (0, 12),
    "lunar_month": (1, 12),
    "lunar_day": (1, 30),
    "counted_month": (1, 12),
    "counted_day": (1, 31),
}
_KIND_RANGES: Final = {_BRANCH: (0, 11), _PALACE: (0, 11), _GENDER: (0, 1)}


@dataclass(frozen=True)
class _Token:
    kind: str  # number, word, han, op
    text: str
    at: int


def _tokens(expr: str) -> list[_Token]:
    out: list[_Token] = []
    at = 0
    while at < len(expr):
        if expr[at:].isspace():
            break
        m = _TOKEN.match(expr, at)
        if m is None:
            bad = expr[at:].lstrip()
            raise InputError(
                _FIELD,
                f"unexpected {clip_text(repr(bad[:1]))} at {clip_text(repr(bad))} "
                "(see docs/space.md, Find)",
            )
        kind = m.lastgroup or ""
        out.append(_Token(kind, m.group(kind), m.start(kind)))
        at = m.end()
    return out


@dataclass(frozen=True)
class _Vocabulary:
    columns: dict[str, str]  # column -> kind of value
    values: dict[str, tuple[str, int]]  # name -> (kind, integer)
    genders: dict[Gender, int]  # the dataset's value of each gender

    def gender(self, word: str) -> int | None:
        """The dataset's value of the gender ``word`` names in any of the command line's
        words (male, m, 男, … in any case), None if it names none."""
        try:
            return self.genders.get(Gender.parse(word))
        except InputError:
            return None

    @classmethod
    def of(cls, meta: dict[str, Any], present: set[str]) -> _Vocabulary:
        columns: dict[str, str] = {c: k for c, k in _PLAIN_COLUMNS.items() if c in present}
        columns.update({key: _BRANCH for key in meta.get("stars", {}) if key in present})
        values: dict[str, tuple[str, int]] = {}
        for index, names in (meta.get("branches") or {}).items():
            columns_key = f"palace_{names['key']}"
            if columns_key in present:
                columns[columns_key] = _PALACE
            for name in (names["key"], names["hans"], names["hant"]):
                values[name] = (_BRANCH, int(index))
        for index, names in (meta.get("palace_names") or {}).items():
            for name in (names["key"], names["hans"], names["hant"]):
                values[name] = (_PALACE, int(index))
        genders: dict[Gender, int] = {}
        for index, name in (meta.get("gender") or {}).items():
            values[name] = (_GENDER, int(index))
            with suppress(InputError):
                genders[Gender.parse(name)] = int(index)
        return cls(columns, values, genders)


@dataclass(frozen=True)
class _Operand:
    sql: str  # a quoted column name or "?"
    kind: str | None  # None: a bare integer, comparable with any column
    param: list[int]
    column: bool
    text: str


class _Parser:
    def __init__(
        self,
        tokens: list[_Token],
        words: _Vocabulary,
        meta: dict[str, Any] | None = None,
        present: set[str] | None = None,
    ) -> None:
        self.tokens, self.words, self.i, self.depth = tokens, words, 0, 0
        self.params: list[int] = []
        self.meta: dict[str, Any] = meta or {}
        self.present: set[str] = present or set()  # every column of the dataset

    def peek(self) -> _Token | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def is_(self, text: str) -> bool:
        t = self.peek()
        return t is not None and (t.text.lower() if t.kind == "word" else t.text) == text

    def fail(self, message: str) -> InputError:
        t = self.peek()
        where = "at the end" if t is None else f"at {clip_text(repr(t.text))}"
        return InputError(_FIELD, f"{message} {where} (see docs/space.md, Find)")

    def expect(self, text: str) -> None:
        if not self.is_(text):
            raise self.fail(f"expected {text!r}")
        self.i += 1

    def parse(self) -> str:
        if not self.tokens:
            raise InputError(_FIELD, "give an expression such as 'en_guang = tian_gui'")
        sql = self.disjunction()
        if self.peek() is not None:
            raise self.fail("expected 'and', 'or' or the end")
        return sql

    def disjunction(self) -> str:
        parts = [self.conjunction()]
        while self.is_("or"):
            self.i += 1
            parts.append(self.conjunction())
        return parts[0] if len(parts) == 1 else "(" + " OR ".join(parts) + ")"

    def conjunction(self) -> str:
        parts = [self.negation()]
        while self.is_("and"):
            self.i += 1
            parts.append(self.negation())
        return parts[0] if len(parts) == 1 else "(" + " AND ".join(parts) + ")"

    def negation(self) -> str:
        self.depth += 1
        if self.depth > _MAX_DEPTH:
            raise self.fail(f"more than {_MAX_DEPTH} nested 'not' or parentheses")
        try:
            if self.is_("not"):
                self.i += 1
                return f"(NOT {self.negation()})"
            if self.is_("("):
                self.i += 1
                inner = self.disjunction()
                self.expect(")")
                return inner
            if self._at_call(("surrounded", "flanking", "self")):
                return _analysis_predicate(self)
            if self._at_call(("pattern", "broken")):
                return self.pattern()
            return self.comparison()
        finally:
            self.depth -= 1

    def comparison(self) -> str:
        left = self.operand()
        negated = False
        if self.is_("not"):
            self.i += 1
            negated = True
            if not self.is_("in"):
                raise self.fail("expected 'in' after 'not'")
        if self.is_("in"):
            self.i += 1
            self.expect("(")
            items = [self.operand()]
            while self.is_(","):
                self.i += 1
                items.append(self.operand())
            self.expect(")")
            for item in items:
                self._check(left, item)
            self._collect(left, *items)
            word = "NOT IN" if negated else "IN"
            return f"({left.sql} {word} ({', '.join(o.sql for o in items)}))"
        t = self.peek()
        if t is None or t.text not in ("=", "!=", "<>"):
            raise self.fail("expected '=', '!=' or 'in'")
        self.i += 1
        right = self.operand()
        self._check(left, right)
        self._collect(left, right)
        return f"({left.sql} {'=' if t.text == '=' else '<>'} {right.sql})"

    def pattern(self) -> str:
        """``pattern(KEY)``: the chart forms the pattern (格局); ``broken(KEY)``: it forms it
        and a 破格 rule breaks it (the sweep's ``patterns`` and ``patterns_broken``)."""
        word = self.peek().text.lower()  # type: ignore[union-attr]
        column = "patterns" if word == "pattern" else "patterns_broken"
        self.i += 1
        self.expect("(")
        t = self.peek()
        names = self.meta.get("patterns") or {}
        if column not in self.present or not names:
            raise InputError(
                _FIELD, "this dataset has no patterns: sweep it again with this version"
            )
        index = None
        if t is not None and t.kind in ("word", "han"):
            index = next(
                (int(i) for i, n in names.items() if t.text in (n["key"], n["hans"], n["hant"])),
                None,
            )
        if index is None:
            raise self.fail("expected a pattern key (jin_can_guang_hui) or name (金灿光辉)")
        self.i += 1
        self.expect(")")
        self.params.append(index)
        return f'list_contains("{column}", CAST(? AS TINYINT))'

    def _at_call(self, words: tuple[str, ...]) -> bool:
        """At ``word (`` for one of ``words`` (an analysis form, not a column)."""
        t = self.peek()
        following = self.tokens[self.i + 1] if self.i + 1 < len(self.tokens) else None
        return (
            t is not None
            and t.kind == "word"
            and t.text.lower() in words
            and following is not None
            and following.text == "("
        )

    def _collect(self, *operands: _Operand) -> None:
        for o in operands:
            self.params.extend(o.param)

    def _check(self, a: _Operand, b: _Operand) -> None:
        if not (a.column or b.column):
            raise InputError(_FIELD, f"{a.text} and {b.text}: compare a column with something")
        for column, value in ((a, b), (b, a)):
            if column.column and value.kind is None and not value.column:
                low, high = _COLUMN_RANGES.get(column.text) or _KIND_RANGES[column.kind or ""]
                if not low <= value.param[0] <= high:
                    raise InputError(
                        _FIELD,
                        f"{clip_text(column.text)} holds {low}..{high}: no row has {value.text}",
                    )
        if a.kind is not None and b.kind is not None and a.kind != b.kind:
            raise InputError(
                _FIELD,
                f"{clip_text(a.text)} ({a.kind}) and {clip_text(b.text)} ({b.kind}) "
                "cannot be compared: different kinds of value",
            )

    def operand(self) -> _Operand:
        t = self.peek()
        if t is None:
            raise self.fail("expected a column or a value")
        if self._at_call(("flies",)):
            return _flies_operand(self)
        if t.kind == "number":
            if len(t.text) > 4:
                raise self.fail("integer too large")
            self.i += 1
            return _Operand("?", None, [int(t.text)], False, t.text)
        if t.kind in ("word", "han") and t.text.lower() not in _KEYWORDS:
            kind = self.words.columns.get(t.text)
            if kind is not None:
                self.i += 1
                return _Operand(f'"{t.text}"', kind, [], True, t.text)
            named = self.words.values.get(t.text)
            if named is not None:
                self.i += 1
                return _Operand("?", named[0], [named[1]], False, t.text)
            gender = self.words.gender(t.text)  # 男, Female: the command line's words
            if gender is not None:
                self.i += 1
                return _Operand("?", _GENDER, [gender], False, t.text)
            raise InputError(
                _FIELD,
                f"unknown name {clip_text(repr(t.text))}: not a star key or column of this "
                "dataset, a branch, a palace name or a gender (male or female, 男 or 女; "
                "see docs/space.md, Find)",
            )
        raise self.fail("expected a column or a value")


# ------------------------------------------------------------------ chart analysis


def _mod12(sql: str) -> str:
    """``sql`` modulo 12 in 0..11 (DuckDB's ``%`` keeps the sign of a negative number)."""
    return f"((({sql}) % 12 + 12) % 12)"


def _place(p: _Parser) -> tuple[str, list[int], str]:
    """A palace argument: (SQL of its branch in each row, parameters, its text).  A palace
    name sits ``n`` branches on from the Life palace; ``body`` is the Body palace."""
    t = p.peek()
    if t is None or t.kind not in ("word", "han"):
        raise p.fail("expected a palace name (life, 命宫 …) or body")
    columns = p.words.columns
    if t.text.lower() in ("body", "身宫", "身宮") and {"life_branch", "time_index"} <= set(columns):
        p.i += 1
        # The palace flagged is_body (iztro's 身宫): two palaces per hour on from the Life
        # palace.  On an earth or human chart that is not body_branch (the heaven chart's).
        return _mod12('"life_branch" + 2 * ("time_index" % 12)'), [], t.text
    named = p.words.values.get(t.text)
    if named is None or named[0] != _PALACE or "life_branch" not in p.words.columns:
        raise p.fail("expected a palace name (life, 命宫 …) or body")
    p.i += 1
    return _mod12('"life_branch" + ?'), [named[1]], t.text


def _mutagen(p: _Parser) -> int:
    from mingshu.ziwei import Mutagen

    t = p.peek()
    try:
        found = Mutagen.parse(t.text if t is not None else None, _FIELD)
    except InputError:
        raise p.fail("expected a transformation (lu, quan, ke, ji or 禄 权 科 忌)") from None
    p.i += 1
    return int(found)


def _star_column(p: _Parser) -> str:
    t = p.peek()
    stars = p.meta.get("stars") or {}
    if t is None or t.text not in stars or p.words.columns.get(t.text) != _BRANCH:
        raise p.fail("expected a star key of this dataset (lu_cun, qing_yang …)")
    p.i += 1
    return f'"{t.text}"'


def _flight_star(p: _Parser, branch: str, mutagen: int) -> str:
    """SQL of the branch of the star the stem of the palace on ``branch`` transforms with
    ``mutagen``: the palace stem by 五虎遁 from the year stem, the star by the 四化 table of
    the dataset's settings, both from the engine."""
    from mingshu import calendar
    from mingshu.cycles import Branch, Stem
    from mingshu.ziwei import ZiweiSettings
    from mingshu.ziwei.stars import mutagen_table

    if "year_pillar" not in p.present:
        raise InputError(_FIELD, "this dataset has no year_pillar column: sweep it again")
    try:
        settings = ZiweiSettings(**(p.meta.get("settings") or {}))
    except (InputError, TypeError) as e:
        raise InputError(_FIELD, f"cannot read the dataset's settings: {e}") from None
    table = mutagen_table(settings.mutagens)
    stars = [row[mutagen].key for row in table]
    missing = [k for k in stars if p.words.columns.get(k) != _BRANCH]
    if missing:
        raise InputError(_FIELD, f"this dataset has no {missing[0]} column: sweep it again")
    # The sixty-cycle index's last digit is the stem: year_pillar % 10.
    yin = " ".join(
        f"WHEN {s} THEN {int(calendar.month_stem(Stem(s), Branch.YIN))}" for s in range(10)
    )
    stem = f'((CASE "year_pillar" % 10 {yin} END) + {_mod12(f"{branch} - 2")}) % 10'
    cases = " ".join(f'WHEN {s} THEN "{key}"' for s, key in enumerate(stars))
    return f"(CASE {stem} {cases} END)"


def _analysis_predicate(p: _Parser) -> str:
    """``surrounded(P) has S``, ``flanking(P) has S`` or ``self(P, m)``."""
    from mingshu.ziwei.analysis import flanking_steps, surrounded_steps

    word = p.peek()
    assert word is not None
    form = word.text.lower()
    p.i += 1
    p.expect("(")
    branch, params, _ = _place(p)
    if form == "self":
        p.expect(",")
        mutagen = _mutagen(p)
        p.expect(")")
        star = _flight_star(p, branch, mutagen)
        p.params.extend(params + params)  # the stem's branch, then the compared branch
        return f"({star} = {branch})"
    p.expect(")")
    if not p.is_("has"):
        raise p.fail("expected 'has'")
    p.i += 1
    star = _star_column(p)
    steps = (0, *surrounded_steps()) if form == "surrounded" else flanking_steps()
    p.params.extend(params)
    offsets = ", ".join(str(step % 12) for step in steps)
    return f"({_mod12(f'{star} - {branch}')} IN ({offsets}))"


def _flies_operand(p: _Parser) -> _Operand:
    """``flies(P, m)``: the name of the palace the transformation lands in (a palace)."""
    p.i += 1
    p.expect("(")
    branch, params, place = _place(p)
    p.expect(",")
    word = p.peek()
    mutagen = _mutagen(p)
    p.expect(")")
    star = _flight_star(p, branch, mutagen)
    text = f"flies({place}, {word.text if word else mutagen})"
    return _Operand(_mod12(f'{star} - "life_branch"'), _PALACE, params, True, text)


def parse(expr: str, meta: dict[str, Any], columns: set[str]) -> tuple[str, list[int]]:
    """``expr`` as ``(SQL condition, parameters)`` over a dataset with that metadata and
    those columns; an :class:`InputError` on ``expr`` naming the bad token."""
    if not isinstance(expr, str):
        raise InputError(_FIELD, f"give an expression as text, not {type(expr).__name__}")
    if len(expr) > MAX_LENGTH:
        raise InputError(
            _FIELD,
            f"{len(expr):,} characters is too long (at most {MAX_LENGTH:,}): {clip_text(expr)}",
        )
    parser = _Parser(_tokens(expr), _Vocabulary.of(meta, columns), meta, columns)
    sql = parser.parse()
    return sql, parser.params


@dataclass(frozen=True)
class FindGroup:
    """One group of the rows: its value (a time index, lunar month, …), the value's name
    where it has one, the matching rows and all rows of the group."""

    value: int
    name: str | None
    count: int
    rows: int


@dataclass(frozen=True)
class FindResult:
    """The rows where ``expr`` holds, counted by ``by``; only groups with a match."""

    expr: str
    by: str
    groups: tuple[FindGroup, ...]
    count: int
    rows: int
    missing_years: tuple[int, ...] = ()
    """The years of the dataset's range it lacks (read with ``allow_partial``): the counts
    are over the years it has."""

    @property
    def share(self) -> float:
        """The matching rows' share of all rows (0.0 for an empty dataset)."""
        return self.count / self.rows if self.rows else 0.0


def find(
    dataset: Path | str, expr: str, by: str = "hour", *, allow_partial: bool = False
) -> FindResult:
    """Count the rows of the dataset where ``expr`` holds, grouped by ``by`` (``hour``,
    ``month``, ``day``, ``year``, ``gender``, ``life`` or ``body``: the Life or Body palace
    branch), each group named (卯时, 五月, 十四, 子, male).  Bad expressions are an
    :class:`InputError` on ``expr``, an unknown ``by`` on ``by``; a dataset with missing
    years one on ``dataset`` unless ``allow_partial`` (the result then names them)."""
    from mingshu.space.sql import check_complete, connect, dataset_metadata

    column = _by_column(by)
    check_bool(allow_partial, "allow_partial")
    _, meta = dataset_metadata(dataset)
    if meta.get("schema") != SCHEMA:
        raise InputError(
            "dataset",
            f"{dataset} is a {meta.get('schema')} dataset: find reads Zi Wei datasets "
            "(ask this one with mingshu query)",
        )
    missing = check_complete(dataset, allow_partial)
    con = connect(dataset, allow_partial=allow_partial)
    try:
        condition, params = parse(expr, meta, _columns_of(con))
        counts = _counts(con, condition, params, column)
    finally:
        con.close()
    return _result(expr, by, column, meta, counts, missing)


def find_years(
    expr: str,
    first_year: int,
    last_year: int,
    settings: ZiweiSettings | None = None,
    by: str = "hour",
    *,
    on_year: Callable[[int, int], object] | None = None,
) -> FindResult:
    """:func:`find` without a dataset: every natal chart of ``first_year`` .. ``last_year``
    under ``settings`` (default: the defaults) is drawn in memory, a year at a time, and
    counted as :func:`find` counts a swept dataset's rows (the same rows, the same answer).
    ``on_year(year, rows)`` is called after each year (a progress bar's hook)."""
    from mingshu import ziwei
    from mingshu.space import ziwei_numpy
    from mingshu.space.runner import check_years
    from mingshu.space.sql import connect_memory
    from mingshu.space.ziwei_patterns import with_patterns
    from mingshu.space.ziwei_sweep import _schema, _year_table, metadata

    column = _by_column(by)
    if settings is None:
        settings = ziwei.ZiweiSettings()
    if not isinstance(settings, ziwei.ZiweiSettings):
        raise InputError("settings", f"give ZiweiSettings, not {type(settings).__name__}")
    first_year, last_year = check_years(first_year, last_year)
    if on_year is not None and not callable(on_year):
        raise InputError("on_year", f"give a function or None, not {type(on_year).__name__}")
    meta = metadata(settings, first_year, last_year)
    backend = "numpy" if ziwei_numpy.supports(settings) else "engine"
    # The columns are the settings' (the sweep's schema, with the pattern columns a sweep
    # adds to each year): a bad expression fails at once.
    present = {*_schema(settings).names, "patterns", "patterns_broken"}
    condition, params = parse(expr, meta, present)
    con = connect_memory(meta)
    totals: dict[int, tuple[str | None, int, int]] = {}
    try:
        for year in range(first_year, last_year + 1):
            table = with_patterns(_year_table(year, settings, backend), settings)
            con.register("charts", table)
            for value, name, n, rows in _counts(con, condition, params, column):
                _, n0, rows0 = totals.get(value, (name, 0, 0))
                totals[value] = (name, n0 + n, rows0 + rows)
            con.unregister("charts")
            if on_year is not None:
                on_year(year, table.num_rows)
    finally:
        con.close()
    counts = [(v, name, n, rows) for v, (name, n, rows) in sorted(totals.items())]
    return _result(expr, by, column, meta, counts, ())


def _by_column(by: object) -> str:
    column = BY.get(by) if isinstance(by, str) else None
    if column is None:
        raise InputError("by", f"{clip_text(repr(by))} is not one of {', '.join(BY)}")
    return column


def _columns_of(con: duckdb.DuckDBPyConnection) -> set[str]:
    return {d[0] for d in con.execute("SELECT * FROM charts LIMIT 0").description}


def _counts(
    con: duckdb.DuckDBPyConnection, condition: str, params: list[int], column: str
) -> list[tuple[int, str | None, int, int]]:
    """(value, hour name, matching rows, rows) of each value of ``column`` in ``charts``."""
    if column == "time_index":
        name = "h.hans"
        joined = "charts c LEFT JOIN hour_name h ON h.time_index = c.time_index"
    else:
        name, joined = "NULL", "charts c"
    # Aliases keep the condition's bare column names meaning the chart's columns.
    sql = (
        f"SELECT c.{column} AS value, any_value({name}) AS name, "
        f"count(*) FILTER (WHERE {_qualified(condition)}) AS n, count(*) AS rows "
        f"FROM {joined} GROUP BY c.{column} ORDER BY c.{column}"
    )
    return [(int(v), n, int(c), int(r)) for v, n, c, r in con.execute(sql, params).fetchall()]


def _result(
    expr: str,
    by: str,
    column: str,
    meta: dict[str, Any],
    counts: list[tuple[int, str | None, int, int]],
    missing: tuple[int, ...],
) -> FindResult:
    names = _group_names(column, meta)
    groups = tuple(
        FindGroup(v, n if column == "time_index" else names.get(v), c, r)
        for v, n, c, r in counts
        if c
    )
    return FindResult(
        expr, by, groups, sum(g.count for g in groups), sum(r[3] for r in counts), missing
    )


def _group_names(column: str, meta: dict[str, Any]) -> dict[int, str]:
    """The name of each value of a grouping column: lunar months 正月 … 腊月 and days 初一 …
    三十 as the calendar writes them, branches and genders as ``_mingshu.json`` names them
    (hours come from the ``hour_name`` view)."""
    if column in ("lunar_month", "lunar_day"):
        from mingshu.calendar._tables import name_table

        table = name_table()
        if column == "lunar_month":
            return {i + 1: f"{m}月" for i, m in enumerate(table.months)}
        return {i + 1: d for i, d in enumerate(table.days)}
    if column in ("life_branch", "body_branch"):
        return {int(i): v["hans"] for i, v in (meta.get("branches") or {}).items()}
    if column == "gender":
        return {int(i): str(v) for i, v in (meta.get("gender") or {}).items()}
    return {}


def _qualified(condition: str) -> str:
    """The condition's quoted column names as the chart's (``"x"`` → ``c."x"``)."""
    return re.sub(r'"([a-z_][a-z0-9_]*)"', r'c."\1"', condition)
