"""The patterns (格局) of every row of a sweep, over whole columns.

The conditions are ``ziwei/data/patterns.toml``'s own (``Pattern.when``, ``BreakRule.when``),
read here word by word as NumPy operations on the table's star, brightness, 四化 and palace
columns, so the sweep keeps its speed and holds no pattern rule of its own.  Two columns are
added: ``patterns`` (the indices, into the metadata's ``patterns`` list, of the patterns a
chart forms under the book's reading) and ``patterns_broken`` (those of them a 破格 rule
breaks).  The conditions run once per distinct combination of the columns they read, not
once per row (``_distinct``).  tests/space/test_ziwei_patterns.py checks the columns against
``chart.patterns()`` row by row over a year and against ``detect`` on sampled rows of other
years and settings.

The Body palace is the ``body_branch`` column, the heaven chart's: under ``chart_type`` earth
or human the redrawn chart's Body palace can differ (docs/space.md).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from mingshu.ziwei import ZiweiSettings

__all__ = ["pattern_keys", "with_patterns"]

_Bools = npt.NDArray[np.bool_]
_Ints = npt.NDArray[np.int16]
_Words = npt.NDArray[np.uint64]


@cache
def _catalogue() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The natal patterns' keys (the column's indices) and the major stars' keys."""
    from mingshu.ziwei import STARS, StarGroup
    from mingshu.ziwei.patterns import PATTERNS

    keys = tuple(k for k, p in PATTERNS.items() if p.when)
    majors = tuple(s.key for s in STARS if s.group is StarGroup.MAJOR)
    return keys, majors


@cache
def _named() -> tuple[str, ...]:
    """The major stars and every star (and ``hua_*``) the book's conditions name."""
    from mingshu.ziwei.patterns import PATTERNS, RULES

    def walk(conds: Sequence[Mapping[str, Any]]) -> Any:
        for cond in conds:
            for field in ("stars", "any", "none", "pair", "each", "bright"):
                yield from cond.get(field, ())
            for option in cond.get("either", ()):
                yield from walk(option)

    named = dict.fromkeys(_catalogue()[1])
    for conds in (*(r.when for r in RULES.values()), *(p.when for p in PATTERNS.values())):
        named.update(dict.fromkeys(walk(conds)))
    if len(named) > 64:
        raise ValueError(f"{len(named)} stars named: more than a uint64 holds")
    return tuple(named)


def pattern_keys() -> tuple[str, ...]:
    """The keys of the natal patterns, in the order the ``patterns`` column indexes them."""
    return _catalogue()[0]


def _int8(column: Any) -> npt.NDArray[np.int8]:
    """An Arrow column of int8 as a NumPy array, -1 where null."""
    if column.type != "int8":  # the schema's: the key below holds each value in one byte
        raise TypeError(f"{column.type} column: the pattern columns read int8 ones")
    if column.null_count:
        import pyarrow.compute as pc

        column = pc.fill_null(column, -1)
    return np.asarray(column.to_numpy())


def _palace_steps() -> dict[str, int]:
    from mingshu.ziwei.tables import PalaceName

    return {p.key: int(p) for p in PalaceName}


# A palace role's branch from the Life palace's, as lookup tables (one ``take`` a role).
_STEP = _palace_steps()
_HUA = ("hua_lu", "hua_quan", "hua_ke", "hua_ji")  # 禄 权 科 忌 = 0..3, as the columns
_STEPPED = np.array([[(life + step) % 12 for life in range(12)] for step in range(12)], np.int16)
_HIDDEN = np.array([(1 - life) % 12 for life in range(12)], np.int16)


class _Read(NamedTuple):
    """What the conditions read of a table under a settings value, by column name: every
    star they name (and each 四化's carrier), each carrier's 四化, the brightness of the
    stars whose grade a condition asks (all carriers' if it asks a ``hua_*``'s), and the
    Life and Body palaces.  The evaluator is given these columns and nothing else, so rows
    equal in them form the same patterns."""

    stars: tuple[str, ...]
    carriers: tuple[str, ...]
    graded: frozenset[str]
    """The stars and ``hua_*`` whose grade a condition may ask (:meth:`_Columns.grade`)."""
    bright: tuple[str, ...]
    """Those of ``graded`` (or their carriers) that have a brightness column."""


@cache
def _reads(settings: ZiweiSettings) -> _Read:
    from mingshu.space.ziwei_sweep import columns

    cols = columns(settings)
    wanted = set(_named()) | set(cols.mutable)
    stars = tuple(k for k in cols.stars if k in wanted)
    graded: set[str] = set()
    for cond, _ in _program().nodes:
        if cond is not None and "grades" in cond:
            graded.update(cond.get("bright", ()), cond.get("any", ()))
    if graded & set(_HUA):
        graded.update(cols.mutable)
    bright = tuple(k for k in cols.stars if k in graded and k in cols.bright)
    return _Read(stars, tuple(cols.mutable), frozenset(graded), bright)


def _columns(table: Any, read: _Read) -> dict[str, npt.NDArray[np.int8]]:
    """The table's columns the conditions read (``read``), -1 where null; a column null on
    every row (a star no year stem of the table transforms, a star without grades) is left
    out, as the evaluator reads a missing column: -1 on every row."""
    names = set(table.column_names)
    wanted = (
        *read.stars,
        *(f"{k}__mutagen" for k in read.carriers),
        *(f"{k}__brightness" for k in read.bright),
        "life_branch",
        "body_branch",
    )
    n = table.num_rows
    return {
        name: _int8(table[name])
        for name in wanted
        if name in names and (table[name].null_count < n or not n)
    }


def _distinct(arrays: Sequence[npt.NDArray[np.int8]], n: int) -> tuple[Any, Any]:
    """The rows equal in every one of ``arrays``: one row of each distinct combination and,
    for every row, which combination it has (``np.unique``'s index and inverse)."""
    padding = [np.zeros(n, dtype=np.int8)] * (-len(arrays) % 8)
    # Each row's values side by side, a byte each (stacked column by column, then turned).
    packed = np.ascontiguousarray(np.stack([*arrays, *padding]).T)
    words = packed.view(np.uint64)
    # One 64-bit hash a row sorts fast; the hash decides nothing, the check below does.
    hashed = words[:, 0].copy()
    for j in range(1, words.shape[1]):
        hashed *= np.uint64(0x9E3779B97F4A7C15)
        hashed += words[:, j]
    _, first, inverse = np.unique(hashed, return_index=True, return_inverse=True)
    if not np.array_equal(words[first[inverse]], words):  # two combinations share a hash
        _, first, inverse = np.unique(words, axis=0, return_index=True, return_inverse=True)
    return first, inverse.reshape(-1)


class _Columns:
    """The rows' positions as arrays: each star's branch (-1 where not placed), its grade
    (-1 for none), the branch of each 四化 and its carrier's grade, each palace role."""

    def __init__(self, columns: Mapping[str, npt.NDArray[Any]], read: _Read, n: int) -> None:
        def ints(name: str) -> _Ints:
            return np.asarray(columns[name], dtype=np.int16)

        self.missing: _Ints = np.full(n, -1, dtype=np.int16)
        self.at: dict[str, _Ints] = {k: ints(k) for k in read.stars if k in columns}
        self.graded = read.graded
        self.grades: dict[str, _Ints] = {
            k: ints(f"{k}__brightness") for k in read.bright if f"{k}__brightness" in columns
        }
        # Each 四化 (禄 权 科 忌 = 0..3) a row: its carrier's branch, one scatter a carrier
        # star (none for a star no row's year stem transforms); the rows it rides are kept
        # for its carrier's grade.
        hua_at = np.full((4, n), -1, np.int16)
        self.carried: list[tuple[str, _Ints, npt.NDArray[np.intp]]] = []
        for star in read.carriers:
            column = columns.get(f"{star}__mutagen")
            if column is None:
                continue
            carried = ints(f"{star}__mutagen")
            rows = np.flatnonzero(carried >= 0)
            if not len(rows):
                continue
            which = carried[rows]
            hua_at[which, rows] = self.at[star][rows]
            self.carried.append((star, which, rows))
        for m, key in enumerate(_HUA):
            self.at[key] = hua_at[m]
        self.life = ints("life_branch")
        self.body = ints("body_branch")
        self.roles: dict[str, _Ints] = {}
        self.memo: dict[tuple[str, str], _Bools] = {}
        self.done: dict[int, _Bools] = {}  # each condition of _program() computed
        # The stars the conditions name, as bits of one uint64 a branch per row: a condition
        # on several stars of one palace (or its 三方四正) is one ``&`` over the rows.
        self.bits = {key: np.uint64(1 << n) for n, key in enumerate(_named())}
        # Row by row, the 12 branches' words side by side and a 13th that gathers the stars
        # not placed: a palace's word is one ``take``.  A star not placed (-1) lands in the
        # 13th word of the row before (of the last row for row 0), which no ``take`` reads.
        self.base = np.arange(n, dtype=np.int64) * 13
        by_branch = np.zeros(n * 13, dtype=np.uint64)
        for key, bit in self.bits.items():
            by_branch[self.base + self.star(key)] |= bit  # one star, one cell a row
        self.by_branch: _Words = by_branch
        self.held: dict[tuple[str, int], _Words] = {}

    def role(self, name: str) -> _Ints:
        """The branch of a palace role on every row (computed when a condition first asks:
        most roles are never asked)."""
        found = self.roles.get(name)
        if found is None:
            if name == "body":
                found = self.body
            elif name == "life_hidden":
                found = _HIDDEN.take(self.life)  # 暗合: the 六合 partner
            else:
                found = _STEPPED[_STEP[name]].take(self.life)
            self.roles[name] = found
        return found

    def star(self, key: str) -> _Ints:
        return self.at.get(key, self.missing)

    def grade(self, key: str) -> _Ints:
        """Each row's grade of the star (or of the star carrying a ``hua_*``), -1 for none."""
        found = self.grades.get(key)
        if found is None:
            if key not in self.graded:  # _reads() did not see the condition that asks
                raise ValueError(f"the grade of {key} is not read")
            if key in _HUA:
                grades = np.full((4, len(self.missing)), -1, np.int16)
                for star, which, rows in self.carried:
                    if star in self.grades:
                        grades[which, rows] = self.grades[star][rows]
                self.grades.update(zip(_HUA, grades, strict=True))
                return self.grades[key]
            found = self.grades[key] = self.missing
        return found

    def eq(self, key: str, role: str) -> _Bools:
        """The rows where the star stands in the palace of ``role`` (kept: many patterns
        ask the same question of the Life palace)."""
        found = self.memo.get((key, role))
        if found is None:
            found = self.memo[key, role] = self.star(key) == self.role(role)
        return found

    def mask(self, keys: Sequence[str]) -> np.uint64:
        bits = np.uint64(0)
        for key in keys:
            bits |= self.bits[key]
        return bits

    def held_at(self, role: str, step: int = 0) -> _Words:
        """Each row's stars (bits) in the palace ``step`` branches on from ``role``'s, or
        (step 12) in its 三方四正."""
        found = self.held.get((role, step))
        if found is None:
            if step == 12:
                found = self.held_at(role) | self.held_at(role, 4)
                found |= self.held_at(role, 6)
                found |= self.held_at(role, 8)
            else:
                found = self.by_branch.take(self.base + _STEPPED[step].take(self.role(role)))
            self.held[role, step] = found
        return found


def _every(words: _Words, bits: np.uint64) -> _Bools:
    """The rows whose word holds every one of the bits."""
    out: _Bools = words & bits == bits
    return out


def _some(words: _Words, bits: np.uint64) -> _Bools:
    """The rows whose word holds at least one of the bits."""
    out: _Bools = words & bits != 0
    return out


# _all and _any may return one of their parts itself (no copy): no result of a condition
# is ever changed in place.


def _all(parts: Sequence[_Bools], n: int) -> _Bools:
    if not parts:
        return np.ones(n, dtype=np.bool_)
    if len(parts) == 1:
        return parts[0]
    out = parts[0] & parts[1]
    for part in parts[2:]:
        out &= part
    return out


def _any(parts: Sequence[_Bools], n: int) -> _Bools:
    if not parts:
        return np.zeros(n, dtype=np.bool_)
    if len(parts) == 1:
        return parts[0]
    out = parts[0] | parts[1]
    for part in parts[2:]:
        out |= part
    return out


def _table(allowed: Iterable[int], size: int) -> _Bools:
    """A lookup table of the allowed values 0..size-1, indexed by a column; its extra last
    entry (False) is where -1 (not placed, no grade) lands."""
    table = np.zeros(size + 1, dtype=np.bool_)
    table[list(allowed)] = True
    return table


def _branches(names: Sequence[str]) -> _Bools:
    return _table((_BRANCH[b] for b in names), 12)


def _grades(names: Sequence[str]) -> _Bools:
    return _table((_GRADE[g] for g in names), len(_GRADE))


def _keys_to_ints() -> tuple[dict[str, int], dict[str, int]]:
    from mingshu.cycles import Branch
    from mingshu.ziwei import Brightness

    return {b.key: int(b) for b in Branch}, {g.key: int(g) for g in Brightness}


_BRANCH, _GRADE = _keys_to_ints()


_Node = tuple[Mapping[str, Any] | None, tuple[tuple[int, ...], ...]]


class _Program(NamedTuple):
    """Every distinct condition of the book's readings and the break rules once (the same
    words recur in several patterns: each is computed once a table), and each pattern's
    and rule's conditions as indices into them."""

    nodes: tuple[_Node, ...]
    """A condition, or (None, the options' indices) for an ``either``."""
    patterns: tuple[tuple[int, ...], ...]
    """In the order of :func:`pattern_keys`."""
    rules: dict[str, tuple[int, ...]]


@cache
def _program() -> _Program:
    from mingshu.ziwei.patterns import PATTERNS, RULES

    index: dict[str, int] = {}
    nodes: list[_Node] = []

    def add(cond: Mapping[str, Any]) -> int:
        key = json.dumps(cond, sort_keys=True)
        found = index.get(key)
        if found is None:
            node: _Node
            if set(cond) == {"either"}:
                node = (None, tuple(every(option) for option in cond["either"]))
            else:
                node = (cond, ())
            found = index[key] = len(nodes)
            nodes.append(node)
        return found

    def every(conds: Sequence[Mapping[str, Any]]) -> tuple[int, ...]:
        return tuple(add(cond) for cond in conds)

    patterns = tuple(every(PATTERNS[key].when) for key in pattern_keys())
    rules = {key: every(rule.when) for key, rule in RULES.items()}
    return _Program(tuple(nodes), patterns, rules)


def _holds(c: _Columns, program: _Program, conds: Sequence[int], n: int) -> _Bools:
    """The rows where every one of the conditions (indices into the program) holds."""
    parts = []
    for i in conds:
        found = c.done.get(i)
        if found is None:
            cond, options = program.nodes[i]
            if cond is None:
                found = _any([_holds(c, program, option, n) for option in options], n)
            else:
                found = _one(c, cond, n)
            c.done[i] = found
        parts.append(found)
    return _all(parts, n)


def _one(c: _Columns, cond: Mapping[str, Any], n: int) -> _Bools:
    """One condition of patterns.toml's vocabulary (not an ``either``), over every row."""
    keys = set(cond)
    if "in" in keys:
        name = cond["in"]
        if "stars" in keys:
            return _every(c.held_at(name), c.mask(cond["stars"]))
        if "any" in keys and "grades" not in keys:
            return _some(c.held_at(name), c.mask(cond["any"]))
        if "any" in keys:
            parts = []
            for s in cond["any"]:
                here = c.eq(s, name)  # kept for other patterns: never changed in place
                if "grades" in cond:
                    here = here & _grades(cond["grades"])[c.grade(s)]
                parts.append(here)
            return _any(parts, n)
        if "none" in keys:
            return ~_some(c.held_at(name), c.mask(cond["none"]))
        if "majors" in keys:
            majors = c.held_at(name) & c.mask(_catalogue()[1])
            return _every(majors, c.mask(cond["majors"])) & ~_some(majors, ~c.mask(cond["majors"]))
    if "palace" in keys:
        role = c.role(cond["palace"])
        if "branch" in keys:
            return _branches(cond["branch"])[role]
        same: _Bools = role == c.role(cond["role"])
        return same
    if keys == {"at", "stars"}:
        allowed = _branches(cond["at"])
        return _all([allowed[c.star(s)] for s in cond["stars"]], n)
    if "flank" in keys:
        role = c.role(cond["flank"])
        before, after = (role - 1) % 12, (role + 1) % 12
        if "pair" in keys:
            a, b = (c.star(s) for s in cond["pair"])
            pair: _Bools = ((a == before) & (b == after)) | ((a == after) & (b == before))
            return pair
        each = c.mask(cond["each"])
        return _some(c.held_at(cond["flank"], 11), each) & _some(c.held_at(cond["flank"], 1), each)
    if "meets" in keys:
        name = cond["meets"]
        four = c.held_at(name, 12)
        if "stars" in keys:
            return _every(four, c.mask(cond["stars"]))
        if "any" in keys:
            return _some(four, c.mask(cond["any"]))
        return ~_some(four, c.mask(cond["none"]))
    if keys == {"bright", "grades"}:
        grades = _grades(cond["grades"])
        return _all([grades[c.grade(s)] for s in cond["bright"]], n)
    raise ValueError(f"condition {cond!r} is not in the vocabulary")


def _lists(matrix: _Bools, rows: npt.NDArray[np.intp]) -> Any:
    """A list<int8> column of the true pattern indices of the matrix's row ``rows[r]`` on
    each row r (a combination × pattern matrix, each row's combination)."""
    import pyarrow as pa

    cells = np.flatnonzero(matrix)  # combination by combination, its patterns in order
    which, index = np.divmod(cells, matrix.shape[1])
    counts = np.bincount(which, minlength=matrix.shape[0])
    starts = np.cumsum(counts) - counts  # where each combination's patterns begin in index
    each = counts[rows]
    offsets = np.zeros(len(rows) + 1, dtype=np.int32)
    np.cumsum(each, out=offsets[1:])
    # Row r's values are index[starts[rows[r]] + 0 .. each[r] - 1], at offsets[r] on.
    at = np.repeat(starts[rows] - offsets[:-1], each) + np.arange(offsets[-1])
    return pa.ListArray.from_arrays(pa.array(offsets), pa.array(index[at].astype(np.int8)))


def with_patterns(table: Any, settings: ZiweiSettings) -> Any:
    """``table`` with its ``patterns`` and ``patterns_broken`` columns."""
    from mingshu.ziwei.patterns import PATTERNS

    read = _reads(settings)
    columns = _columns(table, read)
    # A year's rows hold far fewer distinct combinations of what the conditions read than
    # rows (a day's stars repeat over the genders, the month's days …): each is evaluated
    # once, and every row takes its combination's lists.
    first, inverse = _distinct(list(columns.values()), table.num_rows)
    n = len(first)
    c = _Columns({name: values[first] for name, values in columns.items()}, read, n)
    keys = pattern_keys()
    program = _program()
    rules = {k: _holds(c, program, when, n) for k, when in program.rules.items()}
    formed = np.zeros((n, len(keys)), dtype=np.bool_)
    broken = np.zeros((n, len(keys)), dtype=np.bool_)
    for i, key in enumerate(keys):
        pattern = PATTERNS[key]
        here = formed[:, i] = _holds(c, program, program.patterns[i], n)
        breaks = pattern.readings["book"][2]
        if breaks:
            broken[:, i] = here & _any([rules[r.key] for r in breaks], n)
    table = table.append_column("patterns", _lists(formed, inverse))
    return table.append_column("patterns_broken", _lists(broken, inverse))
