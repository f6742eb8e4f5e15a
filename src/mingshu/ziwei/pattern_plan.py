"""A first test of every pattern reading at once, generated from patterns.toml's conditions.

:func:`plan` turns each reading's conditions into one boolean expression over the stars
(bit sets, one int a branch) of the palaces they name, and joins the expressions of all the
readings into one generated function: given a chart's words it returns the readings that
may hold, and :func:`mingshu.ziwei.patterns.detect` runs the full tests (the palaces and
stars that form a pattern, its 破格) of those alone.  One flat function of local
variables costs a chart far less than a call of each reading's compiled test.

Each expression is a necessary condition of its reading: a chart that fails it fails the
reading's test.  It is exact where the test is a set question (stars in or around a
palace, none of them there, a palace on given branches or two roles in one palace), looser
for a pair beside a palace (here both may stand on one side) and true where the test reads
more than the bit sets (brightness, a palace's exact major stars, stars on named
branches); the test decides those.  The generated source holds
only ints: the data file's keys become bits and steps here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

__all__ = ["Plan", "plan"]

_ForLife = Callable[[Sequence[int], int], list[int]]


class Plan:
    """``plan(words, life, body) -> readings``: each branch's stars as bits (``words[b]``),
    the branches of the Life and Body palaces; returns the indices of the readings that may
    hold, in order.  ``plan.for_life(life)`` is the same function of ``(words, body)`` for
    one Life branch: its source has every palace's branch but the Body palace's as a number,
    so a condition on the Life palace's branch is settled before it runs.  Each is generated
    when first asked for."""

    def __init__(
        self,
        readings: Sequence[Sequence[Mapping[str, Any]]],
        bits: Mapping[str, int],
        steps: Mapping[str, int],
    ) -> None:
        self.readings = readings
        self.bits = bits
        self.steps = steps
        self.by_life: list[_ForLife | None] = [None] * 12

    def __call__(self, words: Sequence[int], life: int, body: int) -> list[int]:
        return self.for_life(life)(words, body)

    def for_life(self, life: int) -> _ForLife:
        found = self.by_life[life]
        if found is None:
            found = self.by_life[life] = _generate(self, life)
        return found


class _Source:
    """The generated function's local variables, named as the expressions need them."""

    def __init__(self, steps: Mapping[str, int], bits: Mapping[str, int], life: int) -> None:
        self.steps = steps
        self.bits = bits
        self.life = life
        self.lines: dict[str, str] = {}  # local name -> its expression, in need order
        self.roles: dict[str, int] = {}

    def mask(self, keys: Iterable[str]) -> int:
        out = 0
        for key in keys:
            out |= self.bits[key]
        return out

    def _local(self, name: str, expr: str) -> str:
        self.lines.setdefault(name, expr)
        return name

    def fixed(self, role: str) -> int | None:
        """The branch of a palace role where the Life branch fixes it (not the Body's)."""
        if role == "body":
            return None
        if role == "life_hidden":
            return (1 - self.life) % 12  # 暗合: the 六合 partner, as patterns._roles
        return (self.life + int(self.steps[role])) % 12

    def branch(self, role: str) -> str:
        """The branch of a palace role: a number, or the local holding the Body's."""
        b = self.fixed(role)
        if b is not None:
            return str(b)
        n = self.roles.setdefault(role, len(self.roles))
        return self._local(f"b{n}", "B")

    def _name(self, role: str) -> str:
        b = self.fixed(role)
        return f"r{b}" if b is not None else f"body{self.branch(role)[1:]}"

    def word(self, role: str, step: int = 0) -> str:
        """A local holding the stars ``step`` branches on from the role's palace."""
        b = self.fixed(role)
        if b is not None:
            at = (b + step) % 12
            return self._local(f"w{at}", f"W[{at}]")
        body = self.branch(role)
        at_ = body if step == 0 else f"({body} + {step}) % 12"
        return self._local(f"w{self._name(role)}_{step}", f"W[{at_}]")

    def square(self, role: str) -> str:
        """A local holding the stars in the role's 三方四正."""
        parts = " | ".join(self.word(role, s) for s in (0, 4, 6, 8))
        return self._local(f"s{self._name(role)}", parts)

    def flank(self, role: str) -> str:
        """A local holding the stars on both sides of the role's palace."""
        parts = f"{self.word(role, 11)} | {self.word(role, 1)}"
        return self._local(f"f{self._name(role)}", parts)


def _every(word: str, bits: int) -> str:
    return f"{word} & {bits} == {bits}"


def _one(src: _Source, cond: Mapping[str, Any]) -> str:
    """One condition as a necessary boolean expression (``True`` where it reads more than
    the bit sets, ``False`` where the Life branch rules it out)."""
    if set(cond) == {"either"}:
        options = [_all(src, option) for option in cond["either"]]
        if "True" in options:
            return "True"
        options = [o for o in options if o != "False"]
        return "(" + " or ".join(options) + ")" if options else "False"
    if "in" in cond:
        role = cond["in"]
        if "stars" in cond:
            return _every(src.word(role), src.mask(cond["stars"]))
        if "any" in cond:
            return f"{src.word(role)} & {src.mask(cond['any'])}"
        if "none" in cond:
            return f"not {src.word(role)} & {src.mask(cond['none'])}"
        return "True"  # majors: the test reads the palace's major stars
    if "palace" in cond:
        role = cond["palace"]
        if "branch" in cond:
            from mingshu.cycles import Branch

            allowed = {int(Branch.parse(n)) for n in cond["branch"]}
            b = src.fixed(role)
            if b is not None:
                return str(b in allowed)
            return f"{sum(1 << a for a in allowed)} >> {src.branch(role)} & 1"
        one, other = src.fixed(role), src.fixed(cond["role"])
        if one is not None and other is not None:
            return str(one == other)
        return f"{src.branch(role)} == {src.branch(cond['role'])}"
    if "flank" in cond:
        role = cond["flank"]
        if "pair" in cond:
            return _every(src.flank(role), src.mask(cond["pair"]))
        each = src.mask(cond["each"])
        return f"{src.word(role, 11)} & {each} and {src.word(role, 1)} & {each}"
    if "meets" in cond:
        role = cond["meets"]
        if "stars" in cond:
            return _every(src.square(role), src.mask(cond["stars"]))
        if "any" in cond:
            return f"{src.square(role)} & {src.mask(cond['any'])}"
        return f"not {src.square(role)} & {src.mask(cond['none'])}"
    return "True"  # stars on named branches, brightness: the test reads them


def _all(src: _Source, conds: Iterable[Mapping[str, Any]]) -> str:
    parts = [p for p in (_one(src, c) for c in conds) if p != "True"]
    if "False" in parts:
        return "False"
    if not parts:
        return "True"
    return "(" + " and ".join(f"({p})" for p in parts) + ")"


def plan(
    readings: Sequence[Sequence[Mapping[str, Any]]],
    bits: Mapping[str, int],
    steps: Mapping[str, int],
) -> Plan:
    """One function testing every reading's conditions (``readings[i]``, as the data file
    states them) at once; ``bits`` gives each star key's bit in the words, ``steps`` each
    palace role's step from the Life palace."""
    return Plan(readings, bits, steps)


def _generate(p: Plan, life: int) -> _ForLife:
    src = _Source(p.steps, p.bits, life)
    tests = [_all(src, conds) for conds in p.readings]
    body = [f"    {name} = {expr}" for name, expr in src.lines.items()]
    body += ["    out = []", "    hold = out.append"]
    body += [
        f"    hold({i})" if test == "True" else f"    if {test}:\n        hold({i})"
        for i, test in enumerate(tests)
        if test != "False"
    ]
    body.append("    return out")
    text = f"def _plan_{life}(W, B):\n" + "\n".join(body) + "\n"
    scope: dict[str, Any] = {}
    exec(compile(text, "<patterns.toml plan>", "exec"), scope)  # the source holds only ints
    found: _ForLife = scope[f"_plan_{life}"]
    return found
