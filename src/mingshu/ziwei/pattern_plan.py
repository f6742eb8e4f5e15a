"""A first test of every pattern reading at once, generated from patterns.toml's conditions.

:func:`plan` turns each reading's conditions into one boolean expression over the branches
of the stars they name (``p[n]``: the branch of star ``n``, -1 where the chart has none)
and joins the expressions of all the readings into one generated function for each Life
branch: given a chart's positions it returns, in order, the readings that may hold, each
as its hit kept from an earlier chart with the same key (what the reading reads) or as a
reading to test.  :func:`mingshu.ziwei.patterns.detect` runs the full tests (the palaces
and stars that form a pattern, its 破格) of those alone and keeps their hits.  One flat
function of int compares costs a chart far less than a call of each reading's compiled
test.

Each expression is a necessary condition of its reading: a chart that fails it fails the
reading's test.  It is exact but where the test reads a palace's exact major stars (true
here: the test decides).  The generated source holds only ints: the data file's keys
become places in ``p``, branches and brightness grades numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from mingshu.cycles import Branch
from mingshu.ziwei.stars import Brightness

__all__ = ["Plan", "plan"]

_ForLife = Callable[[Sequence[int], int, object, Sequence[Sequence[int | None]]], list[Any]]
Key = tuple[tuple[int, ...], bool, bool] | None
"""What a reading's hit is kept by: the places in ``p`` of the stars it reads, whether it
reads the Body palace's branch and the chart's tables (``source``); None for a reading
always tested."""


class Plan:
    """``plan(p, life, body, source, grades)``: the branch of each star (``p[n]``), the
    branches of the Life and Body palaces, which tables the chart reads its 四化 and
    brightness by (any hashable) and the brightness grade of each star on each branch
    (``grades[n][b]``, an int or None; ``grades[n][-1]`` for a star nowhere).  Returns the
    readings that may hold, in order: a kept hit (never None), or for a reading to test
    its index ``i`` (always tested) or its key ``(i, …)`` (to keep its hit, or None, in
    ``memos[life]`` under it).  ``plan.for_life(life)`` is the same function of
    ``(p, body, source, grades)`` for one Life branch: every palace's branch but the Body
    palace's is a number in its source, so a condition on the Life palace's branch is
    settled before it runs.  Each is generated when first asked for."""

    def __init__(
        self,
        readings: Sequence[Sequence[Mapping[str, Any]]],
        index: Mapping[str, int],
        steps: Mapping[str, int],
        keys: Sequence[Key] | None = None,
    ) -> None:
        self.readings = readings
        self.index = index
        self.steps = steps
        self.keys: Sequence[Key] = [None] * len(readings) if keys is None else keys
        self.by_life: list[_ForLife | None] = [None] * 12
        self.memos: list[dict[tuple[object, ...], object]] = [{} for _ in range(12)]

    def __call__(
        self,
        p: Sequence[int],
        life: int,
        body: int,
        source: object = None,
        grades: Sequence[Sequence[int | None]] = (),
    ) -> list[Any]:
        return self.for_life(life)(p, body, source, grades)

    def for_life(self, life: int) -> _ForLife:
        found = self.by_life[life]
        if found is None:
            found = self.by_life[life] = _generate(self, life)
        return found

    def forget(self) -> None:
        """Drop every kept hit."""
        for memo in self.memos:
            memo.clear()


# The branches of the 三方四正 and of the two sides of each branch.
_SQUARES = tuple(frozenset({b, (b + 4) % 12, (b + 6) % 12, (b + 8) % 12}) for b in range(12))
_SIDES = tuple(frozenset({(b - 1) % 12, (b + 1) % 12}) for b in range(12))


class _Source:
    """Expressions over ``p`` (the stars' branches), ``B`` (the Body palace's branch) and
    ``G`` (grades) for one Life branch."""

    def __init__(self, steps: Mapping[str, int], index: Mapping[str, int], life: int) -> None:
        self.steps = steps
        self.index = index
        self.life = life

    def at(self, key: str) -> str:
        return f"p[{self.index[key]}]"

    def fixed(self, role: str) -> int | None:
        """The branch of a palace role where the Life branch fixes it (not the Body's)."""
        if role == "body":
            return None
        if role == "life_hidden":
            return (1 - self.life) % 12  # 暗合: the 六合 partner, as patterns._roles
        return (self.life + int(self.steps[role])) % 12

    def branch(self, role: str) -> str:
        b = self.fixed(role)
        return "B" if b is None else str(b)

    def square(self, role: str) -> str:
        """A set of the branches of the role's 三方四正 (a literal where it is fixed)."""
        b = self.fixed(role)
        return "SQUARES[B]" if b is None else _literal(_SQUARES[b])

    def sides(self, role: str) -> str:
        b = self.fixed(role)
        return "SIDES[B]" if b is None else _literal(_SIDES[b])


def _literal(branches: Iterable[int]) -> str:
    return "{" + ", ".join(map(str, sorted(branches))) + "}"


def _and(parts: Sequence[str]) -> str:
    parts = [p for p in parts if p != "True"]
    if "False" in parts:
        return "False"
    if not parts:
        return "True"
    return parts[0] if len(parts) == 1 else "(" + " and ".join(parts) + ")"


def _or(parts: Sequence[str]) -> str:
    if "True" in parts:
        return "True"
    parts = [p for p in parts if p != "False"]
    if not parts:
        return "False"
    return parts[0] if len(parts) == 1 else "(" + " or ".join(parts) + ")"


def _graded(src: _Source, key: str, where: str, grades: Sequence[str]) -> str:
    """The star ``key`` (standing on ``where``) has one of the grades."""
    allowed = _literal(int(Brightness.parse(g)) for g in grades)
    return f"G[{src.index[key]}][{where}] in {allowed}"


def _one(src: _Source, cond: Mapping[str, Any]) -> str:
    """One condition as a boolean expression (``True`` where it reads a palace's exact
    major stars, ``False`` where the Life branch rules it out)."""
    if set(cond) == {"either"}:
        return _or([_all(src, option) for option in cond["either"]])
    if "in" in cond:
        role = src.branch(cond["in"])
        if "stars" in cond:
            return _and([f"{src.at(s)} == {role}" for s in cond["stars"]])
        if "any" in cond:
            if "grades" in cond:
                return _or(
                    [
                        f"{src.at(s)} == {role} and {_graded(src, s, role, cond['grades'])}"
                        for s in cond["any"]
                    ]
                )
            return _or([f"{src.at(s)} == {role}" for s in cond["any"]])
        if "none" in cond:
            return _and([f"{src.at(s)} != {role}" for s in cond["none"]])
        return "True"  # majors: the test reads the palace's major stars
    if "palace" in cond:
        role = cond["palace"]
        if "branch" in cond:
            allowed = {int(Branch.parse(n)) for n in cond["branch"]}
            b = src.fixed(role)
            if b is not None:
                return str(b in allowed)
            return f"{src.branch(role)} in {_literal(allowed)}"
        one, other = src.fixed(role), src.fixed(cond["role"])
        if one is not None and other is not None:
            return str(one == other)
        return f"{src.branch(role)} == {src.branch(cond['role'])}"
    if "at" in cond:
        on = _literal({int(Branch.parse(n)) for n in cond["at"]})
        return _and([f"{src.at(s)} in {on}" for s in cond["stars"]])
    if "flank" in cond:
        role = cond["flank"]
        sides = src.sides(role)
        if "pair" in cond:
            x, y = (src.at(s) for s in cond["pair"])
            return f"({x} in {sides} and {y} in {sides} and {x} != {y})"
        fixed, each = src.fixed(role), cond["each"]
        if fixed is None:
            before, after = "(B + 11) % 12", "(B + 1) % 12"
        else:
            before, after = str((fixed + 11) % 12), str((fixed + 1) % 12)
        return _and(
            [
                _or([f"{src.at(s)} == {before}" for s in each]),
                _or([f"{src.at(s)} == {after}" for s in each]),
            ]
        )
    if "meets" in cond:
        four = src.square(cond["meets"])
        if "stars" in cond:
            return _and([f"{src.at(s)} in {four}" for s in cond["stars"]])
        if "any" in cond:
            return _or([f"{src.at(s)} in {four}" for s in cond["any"]])
        return _and([f"{src.at(s)} not in {four}" for s in cond["none"]])
    if "bright" in cond:
        return _and([_graded(src, s, src.at(s), cond["grades"]) for s in cond["bright"]])
    raise ValueError(f"condition {cond!r} is not in the vocabulary")


def _rarity(cond: Mapping[str, Any]) -> int:
    """Conditions that few charts meet are tested first (a star in one palace holds on about
    a twelfth of the charts, in a 三方四正 on a third, none there on most); brightness last,
    as it reads two tables.  The order changes no answer: the tests have no effects."""
    if "bright" in cond:
        return 4
    if "none" in cond:
        return 3
    if "meets" in cond or "either" in cond:
        return 2
    if "flank" in cond or "at" in cond:
        return 1
    return 0


def _all(src: _Source, conds: Iterable[Mapping[str, Any]]) -> str:
    return _and([_one(src, c) for c in sorted(conds, key=_rarity)])


def plan(
    readings: Sequence[Sequence[Mapping[str, Any]]],
    index: Mapping[str, int],
    steps: Mapping[str, int],
    keys: Sequence[Key] | None = None,
) -> Plan:
    """One function testing every reading's conditions (``readings[i]``, as the data file
    states them) at once; ``index`` gives each star key's place in ``p``, ``steps`` each
    palace role's step from the Life palace, ``keys`` what each reading's hit is kept by
    (None: no reading's hits are kept, the function returns the indices of those that
    may hold)."""
    return Plan(readings, index, steps, keys)


def _kept(i: int, key: Key) -> list[str]:
    """The lines that hold reading ``i`` where its test passed: its kept hit if any."""
    if key is None:
        return [f"hold({i})"]
    places, by_body, by_source = key
    parts = [str(i), *(f"p[{n}]" for n in places)]
    parts += ["B"] * by_body + ["S"] * by_source
    return [
        f"k = ({', '.join(parts)},)",
        "h = get(k, k)",  # the key itself where no hit is kept: a reading to test
        "if h is not None:",
        "    hold(h)",
    ]


def _generate(p: Plan, life: int) -> _ForLife:
    src = _Source(p.steps, p.index, life)
    body = ["    out = []", "    hold = out.append"]
    for i, (conds, key) in enumerate(zip(p.readings, p.keys, strict=True)):
        test = _all(src, conds)
        if test == "False":
            continue
        lines = _kept(i, key)
        if test == "True":
            body += [f"    {line}" for line in lines]
        else:
            body += [f"    if {test}:", *(f"        {line}" for line in lines)]
    body.append("    return out")
    text = f"def _plan_{life}(p, B, S, G):\n" + "\n".join(body) + "\n"
    scope: dict[str, Any] = {"SQUARES": _SQUARES, "SIDES": _SIDES, "get": p.memos[life].get}
    exec(compile(text, "<patterns.toml plan>", "exec"), scope)  # the source holds only ints
    found: _ForLife = scope[f"_plan_{life}"]
    return found
