"""Turn the placement rules of the data files into one fast function per star set.

Every rule in ``data/stars.toml`` (and the flowing stars of ``data/horoscope.toml``) is
a lookup or a count: "branch B plus step × V", "the table entry for V", "star K plus n",
"the Life palace plus V".  They are compiled once, at import, into straight-line Python
(one assignment per star), because a chart must cost microseconds and an interpreter loop
over 68 rules costs several times more.  The few rules that are algorithms (紫微, 天府,
旬空, 截空, 天使, 天伤) are computed by the caller and passed in by name.

All positions are branch indices (子 = 0 … 亥 = 11).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from mingshu.cycles import Branch
from mingshu.ziwei.stars import STARS, Star

__all__ = ["NATAL_RULES", "NATAL_VARIABLES", "Placer", "compile_natal", "compile_rules"]

NATAL_VARIABLES = (
    "year_stem",
    "year_branch",
    "god_year_stem",
    "god_year_branch",
    "month",
    "hour",
    "day",
    "soul",
    "body",
)
"""The inputs of the natal rules, in the order the compiled function takes them.
``soul`` and ``body`` are the branches of the Life and Body palaces."""

NATAL_RULES = (
    "zi_wei",
    "tian_fu",
    "xun_kong",
    "jie_kong",
    "tian_shi",
    "tian_shang",
    "xun_kong_first",
    "xun_kong_second",
    "dou_jun",
    "jin_suo",
)
"""Natal placements computed in code (natal.py) and passed to the compiled function; the
last four serve the 全书 school only (quanshu.toml)."""

_DOMAIN = {"month": 12, "hour": 12}  # stems have 10 values, everything else 12

Placer = Callable[..., tuple[int, ...]]
"""``placer(*variables, *rules) -> positions``, one branch per rule, in order."""


def _size(variable: str) -> int:
    return 10 if variable.endswith("stem") else _DOMAIN.get(variable, 12)


def _table(text: str, by: str, key: str) -> tuple[int, ...]:
    if len(text) != _size(by):
        raise ValueError(f"{key}: a table by {by} needs {_size(by)} branches, got {text!r}")
    return tuple(int(Branch.parse(c)) for c in text)


def _term(place: Mapping[str, Any]) -> str:
    """``± V ± offset`` as source text ('' when there is neither)."""
    parts = []
    if "by" in place:
        step = place.get("step", 1)
        if abs(step) != 1:
            raise ValueError(f"step must be 1 or -1, got {step}")
        parts.append(f"{'-' if step < 0 else '+'} {place['by']}")
    offset = place.get("offset", 0)
    if offset:
        parts.append(f"{'-' if offset < 0 else '+'} {abs(offset)}")
    return " ".join(parts)


def compile_rules(
    label: str,
    entries: Sequence[tuple[str, Mapping[str, Any]]],
    variables: Sequence[str],
    rules: Sequence[str] = (),
) -> Placer:
    """Compile placement rules ``(key, place)`` into ``place(*variables, *rules)``, which
    returns the branch of each entry in the order given."""
    names = {key: f"p{i}" for i, (key, _) in enumerate(entries)}
    constants: dict[str, Any] = {}
    lines: list[str] = []
    done: set[str] = set()
    pending = list(entries)
    # Relative rules refer to other entries; emit in dependency order.
    while pending:
        progress = False
        for key, place in list(pending):
            ref = place.get("from_star")
            if ref is not None and ref not in done:
                if ref not in names:
                    raise ValueError(f"{key} is placed from {ref}, which is not placed")
                continue
            expression = _expression(key, place, names, constants, variables, rules)
            lines.append(f"    {names[key]} = {expression}")
            done.add(key)
            pending.remove((key, place))
            progress = True
        if not progress:
            raise ValueError(f"circular placement rules: {[k for k, _ in pending]}")
    args = ", ".join((*variables, *rules))
    result = ", ".join(names[key] for key, _ in entries)
    source = f"def place({args}):\n" + "\n".join(lines) + f"\n    return ({result},)\n"
    namespace: dict[str, Any] = dict(constants)
    exec(compile(source, f"<mingshu placement: {label}>", "exec"), namespace)
    placer: Placer = namespace["place"]
    placer.__doc__ = source
    return placer


def compile_natal(algorithm: str, stars: Sequence[Star] = STARS) -> tuple[tuple[Star, ...], Placer]:
    """Compile the rules of every star placed under ``algorithm`` ("quanshu" / "zhongzhou").

    Returns the stars in catalogue order and a function giving their branches in that order.
    """
    chosen = tuple(s for s in stars if algorithm in s.algorithms)
    placer = compile_rules(
        algorithm, [(s.key, s.place) for s in chosen], NATAL_VARIABLES, NATAL_RULES
    )
    return chosen, placer


_KINDS = ("rule", "table", "count_from", "count_from_table", "from_star", "from_palace")


def _expression(
    key: str,
    place: Mapping[str, Any],
    names: dict[str, str],
    constants: dict[str, Any],
    variables: Sequence[str],
    rules: Sequence[str],
) -> str:
    kind = [k for k in place if k in _KINDS]
    if len(kind) != 1:
        raise ValueError(f"{key}: a placement needs exactly one of {_KINDS}, got {place}")
    for field in ("by", "from_by", "from_palace"):
        if field in place and place[field] not in variables:
            raise ValueError(f"{key}: unknown variable {place[field]!r}")
    by = place.get("by", "")
    match kind[0]:
        case "rule":
            if place["rule"] not in rules:
                raise ValueError(f"{key}: unknown rule {place['rule']!r}")
            return str(place["rule"])
        case "table":
            constants[f"T_{key}"] = _table(place["table"], by, key)
            return f"T_{key}[{by}]"
        case "count_from":
            return f"({int(Branch.parse(place['count_from']))} {_term(place)}) % 12"
        case "count_from_table":
            constants[f"T_{key}"] = _table(place["count_from_table"], place["from_by"], key)
            return f"(T_{key}[{place['from_by']}] {_term(place)}) % 12"
        case "from_star":
            return f"({names[place['from_star']]} {_term(place)}) % 12"
        case _:
            return f"({place['from_palace']} {_term(place)}) % 12"
