"""The patterns (格局) of every row of a sweep, over whole columns.

The conditions are ``ziwei/data/patterns.toml``'s own (``Pattern.when``, ``BreakRule.when``),
read here word by word as NumPy operations on the table's star, brightness, 四化 and palace
columns, so the sweep keeps its speed and holds no pattern rule of its own.  Two columns are
added: ``patterns`` (the indices, into the metadata's ``patterns`` list, of the patterns a
chart forms under the book's reading) and ``patterns_broken`` (those of them a 破格 rule
breaks).  tests/space/test_ziwei_patterns.py checks them against ``chart.patterns()`` row by
row over a year.

The Body palace is the ``body_branch`` column, the heaven chart's: under ``chart_type`` earth
or human the redrawn chart's Body palace can differ (docs/space.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from mingshu.ziwei import ZiweiSettings

__all__ = ["pattern_keys", "with_patterns"]

_Bools = npt.NDArray[np.bool_]
_Ints = npt.NDArray[np.int16]
# 三方四正: the palace itself, the palaces 4 and 8 on (the trines) and 6 on (opposite).
_SQUARE: _Bools = np.isin(np.arange(12), (0, 4, 6, 8))


@cache
def _catalogue() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The natal patterns' keys (the column's indices) and the major stars' keys."""
    from mingshu.ziwei import STARS, StarGroup
    from mingshu.ziwei.patterns import PATTERNS

    keys = tuple(k for k, p in PATTERNS.items() if p.when)
    majors = tuple(s.key for s in STARS if s.group is StarGroup.MAJOR)
    return keys, majors


def pattern_keys() -> tuple[str, ...]:
    """The keys of the natal patterns, in the order the ``patterns`` column indexes them."""
    return _catalogue()[0]


class _Columns:
    """A table's positions as arrays: each star's branch (-1 where not placed), its grade
    (-1 for none), the branch of each 四化 and its carrier's grade, each palace role."""

    def __init__(self, table: Any, settings: ZiweiSettings) -> None:
        import pyarrow.compute as pc

        from mingshu.space.ziwei_sweep import columns
        from mingshu.ziwei.tables import PalaceName

        n = table.num_rows
        cols = columns(settings)
        names = set(table.column_names)

        def ints(name: str) -> _Ints:
            return np.asarray(pc.fill_null(table[name], -1).to_numpy(), dtype=np.int16)

        self.missing: _Ints = np.full(n, -1, dtype=np.int16)
        self.at: dict[str, _Ints] = {k: ints(k) for k in cols.stars}
        self.grade: dict[str, _Ints] = {
            k: ints(f"{k}__brightness") for k in cols.bright if f"{k}__brightness" in names
        }
        mutagens = {star: ints(f"{star}__mutagen") for star in cols.mutable}
        for m, key in enumerate(("hua_lu", "hua_quan", "hua_ke", "hua_ji")):
            at, grade = np.full(n, -1, np.int16), np.full(n, -1, np.int16)
            for star in cols.mutable:
                carries = mutagens[star] == m
                at[carries] = self.at[star][carries]
                if star in self.grade:
                    grade[carries] = self.grade[star][carries]
            self.at[key], self.grade[key] = at, grade
        life = ints("life_branch")
        self.roles: dict[str, _Ints] = {p.key: (life + int(p)) % 12 for p in PalaceName}
        self.roles["body"] = ints("body_branch")
        self.roles["life_hidden"] = (1 - life) % 12
        self.memo: dict[tuple[str, str], _Bools] = {}

    def star(self, key: str) -> _Ints:
        return self.at.get(key, self.missing)

    def eq(self, key: str, role: str) -> _Bools:
        """The rows where the star stands in the palace of ``role`` (kept: many patterns
        ask the same question of the Life palace)."""
        found = self.memo.get((key, role))
        if found is None:
            found = self.memo[key, role] = self.star(key) == self.roles[role]
        return found

    def meets(self, key: str, role: str) -> _Bools:
        """The rows where the star stands in the 三方四正 of the palace of ``role``."""
        found = self.memo.get((key, "meets " + role))
        if found is None:
            at = self.star(key)
            found = (at >= 0) & _SQUARE[(at - self.roles[role]) % 12]
            self.memo[key, "meets " + role] = found
        return found


def _all(parts: Sequence[_Bools], n: int) -> _Bools:
    out = np.ones(n, dtype=np.bool_)
    for part in parts:
        out &= part
    return out


def _any(parts: Sequence[_Bools], n: int) -> _Bools:
    out = np.zeros(n, dtype=np.bool_)
    for part in parts:
        out |= part
    return out


def _branches(names: Sequence[str]) -> list[int]:
    return [_BRANCH[b] for b in names]


def _grades(names: Sequence[str]) -> list[int]:
    return [_GRADE[g] for g in names]


def _keys_to_ints() -> tuple[dict[str, int], dict[str, int]]:
    from mingshu.cycles import Branch
    from mingshu.ziwei import Brightness

    return {b.key: int(b) for b in Branch}, {g.key: int(g) for g in Brightness}


_BRANCH, _GRADE = _keys_to_ints()


def _holds(c: _Columns, conds: Sequence[Mapping[str, Any]], n: int) -> _Bools:
    return _all([_one(c, cond, n) for cond in conds], n)


def _one(c: _Columns, cond: Mapping[str, Any], n: int) -> _Bools:
    """One condition of patterns.toml's vocabulary, over every row."""
    keys = set(cond)
    if keys == {"either"}:
        return _any([_holds(c, option, n) for option in cond["either"]], n)
    if "in" in keys:
        name = cond["in"]
        role = c.roles[name]
        if "stars" in keys:
            return _all([c.eq(s, name) for s in cond["stars"]], n)
        if "any" in keys:
            parts = []
            for s in cond["any"]:
                here = c.eq(s, name)  # kept for other patterns: never changed in place
                if "grades" in cond:
                    here = here & np.isin(c.grade.get(s, c.missing), _grades(cond["grades"]))
                parts.append(here)
            return _any(parts, n)
        if "none" in keys:
            return ~_any([c.eq(s, name) for s in cond["none"]], n)
        if "majors" in keys:
            exact = set(cond["majors"])
            return _all([c.eq(k, name) == (k in exact) for k in _catalogue()[1]], n)
    if "palace" in keys:
        role = c.roles[cond["palace"]]
        if "branch" in keys:
            return np.isin(role, _branches(cond["branch"]))
        same: _Bools = role == c.roles[cond["role"]]
        return same
    if keys == {"at", "stars"}:
        return _all([np.isin(c.star(s), _branches(cond["at"])) for s in cond["stars"]], n)
    if "flank" in keys:
        role = c.roles[cond["flank"]]
        before, after = (role - 1) % 12, (role + 1) % 12
        if "pair" in keys:
            a, b = (c.star(s) for s in cond["pair"])
            pair: _Bools = ((a == before) & (b == after)) | ((a == after) & (b == before))
            return pair
        sides = [_any([c.star(s) == side for s in cond["each"]], n) for side in (before, after)]
        return sides[0] & sides[1]
    if "meets" in keys:
        name = cond["meets"]
        if "stars" in keys:
            return _all([c.meets(s, name) for s in cond["stars"]], n)
        if "any" in keys:
            return _any([c.meets(s, name) for s in cond["any"]], n)
        return ~_any([c.meets(s, name) for s in cond["none"]], n)
    if keys == {"bright", "grades"}:
        grades = _grades(cond["grades"])
        return _all([np.isin(c.grade.get(s, c.missing), grades) for s in cond["bright"]], n)
    raise ValueError(f"condition {cond!r} is not in the vocabulary")


def _lists(matrix: _Bools) -> Any:
    """A pattern × row matrix as a list<int8> column of each row's true pattern indices."""
    import pyarrow as pa

    index, rows = np.nonzero(matrix)  # by pattern, then row: contiguous and fast
    order = np.argsort(rows, kind="stable")  # by row, each row's patterns in order
    offsets = np.zeros(matrix.shape[1] + 1, dtype=np.int32)
    np.cumsum(np.bincount(rows, minlength=matrix.shape[1]), out=offsets[1:])
    return pa.ListArray.from_arrays(pa.array(offsets), pa.array(index[order].astype(np.int8)))


def with_patterns(table: Any, settings: ZiweiSettings) -> Any:
    """``table`` with its ``patterns`` and ``patterns_broken`` columns."""
    from mingshu.ziwei.patterns import PATTERNS, RULES

    n = table.num_rows
    c = _Columns(table, settings)
    keys = pattern_keys()
    rules = {k: _holds(c, r.when, n) for k, r in RULES.items()}
    formed = np.zeros((len(keys), n), dtype=np.bool_)
    broken = np.zeros((len(keys), n), dtype=np.bool_)
    for i, key in enumerate(keys):
        pattern = PATTERNS[key]
        formed[i] = _holds(c, pattern.when, n)
        breaks = pattern.readings["book"][2]
        if breaks:
            broken[i] = formed[i] & _any([rules[r.key] for r in breaks], n)
    table = table.append_column("patterns", _lists(formed))
    return table.append_column("patterns_broken", _lists(broken))
