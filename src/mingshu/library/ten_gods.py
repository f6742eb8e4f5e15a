"""The ten gods (十神) as tables and answers: what each stem is to a Day Master.

Every cell comes from the BaZi engine's own table (:func:`mingshu.bazi.ten_god`, read from
``bazi/data/ten_gods.toml``); the rule a table prints beside it is found by grouping those
cells by the two stems' phases and polarities, never typed in.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from mingshu.cycles import Stem
from mingshu.errors import InputError
from mingshu.library.engine import Options, Table, parse_stem, stem_name

__all__ = [
    "RELATIONS",
    "god_key",
    "grid_table",
    "label",
    "p_stem_of",
    "p_ten_god",
    "relation",
    "rule_table",
]

RELATIONS: Final = (
    ("same", "Same phase"),
    ("produces", "The Day Master produces it"),
    ("controls", "The Day Master controls it"),
    ("controlled_by", "It controls the Day Master"),
    ("produced_by", "It produces the Day Master"),
)
"""The five ways two phases can stand to each other, as the Day Master sees another stem."""


def relation(day: Stem, other: Stem) -> str:
    """How ``other``'s phase stands to the Day Master's (a key of :data:`RELATIONS`)."""
    a, b = day.element, other.element
    if a == b:
        return "same"
    if a.generates() == b:
        return "produces"
    if a.controls() == b:
        return "controls"
    if b.controls() == a:
        return "controlled_by"
    return "produced_by"


def god_key(day: int, other: int) -> str:
    from mingshu import bazi

    return str(bazi.ten_god(Stem(day), Stem(other)).key)


def label(key: str) -> str:
    """A god as the articles name it: ``Eating God (食神)``."""
    from mingshu.bazi.tables import GODS

    for god in GODS:
        if god.key == key:
            return f"{god.names.english} ({god.names.hans})"
    raise InputError(
        "god", f"{key!r} is not one of the ten gods ({', '.join(g.key for g in GODS)})"
    )


def _cells() -> Iterator[tuple[Stem, Stem, str]]:
    for day in Stem:
        for other in Stem:
            yield day, other, god_key(int(day), int(other))


def rule_table(options: Options) -> Table:
    """The ten gods by phase relation (rows) and polarity (same, other): each cell the god the
    engine gives every such pair of stems, or every god it gives if they differ."""
    found: dict[tuple[str, bool], dict[str, None]] = {}
    for day, other, key in _cells():
        same = day.polarity == other.polarity
        found.setdefault((relation(day, other), same), {})[key] = None
    rows = tuple(
        (title, *(" / ".join(label(k) for k in found[rel, same]) for same in (True, False)))
        for rel, title in RELATIONS
    )
    return Table(("Phase of the other stem", "Same polarity", "Other polarity"), rows)


def grid_table(options: Options) -> Table:
    """Each Day Master (rows) and each of the ten stems (columns): the god, in Chinese;
    ``mark`` (a god's key) marks its cells."""
    mark = str(options.get("mark", ""))
    if mark:
        label(mark)  # an unknown key is refused, not silently unmarked
    from mingshu import bazi

    rows, marked = [], set()
    for r, day in enumerate(Stem):
        cells = []
        for c, other in enumerate(Stem, start=1):
            god = bazi.ten_god(day, other)
            cells.append(str(god.names.hans))
            if god.key == mark:
                marked.add((r, c))
        rows.append((f"{stem_name(int(day))} ({day.names.hans})", *cells))
    return Table(
        ("Day Master", *(str(s.names.hans) for s in Stem)),
        tuple(rows),
        frozenset(marked),
        label(mark) if mark else "",
    )


def p_ten_god(q: Options) -> str:
    """The god ``stem`` is to the Day Master ``day_stem``."""
    return label(god_key(parse_stem(q["day_stem"]), parse_stem(q["stem"])))


def p_stem_of(q: Options) -> str:
    """Every stem that is ``god`` (a key) to the Day Master ``day_stem``."""
    day, key = parse_stem(q["day_stem"]), str(q["god"])
    label(key)
    return " or ".join(stem_name(s) for s in range(10) if god_key(day, s) == key)
