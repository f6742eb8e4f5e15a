"""The thirty nayin (纳音) as tables and answers: the sound of each of the sixty pillars.

Every cell comes from the BaZi engine (:func:`mingshu.bazi.nayin`, read from
``bazi/data/nayin.toml``); the grid by stem and branch pair shows that a pillar's nayin
phase follows from its stem and from which of six branch pairs it stands on.
"""

from __future__ import annotations

from typing import Any, Final

from mingshu.cycles import SIXTY, Branch, Element, Pillar, Stem
from mingshu.errors import InputError
from mingshu.library.engine import Options, Table, branch_name, parse_stem

__all__ = [
    "BRANCH_GROUPS",
    "element_of",
    "grid_table",
    "label",
    "p_nayin",
    "p_nayin_pillars",
    "parse_element",
    "table_of_thirty",
]

BRANCH_GROUPS: Final = ((0, 1, 6, 7), (2, 3, 8, 9), (4, 5, 10, 11))
"""Three groups of four branches (子丑午未, 寅卯申酉, 辰巳戌亥): two neighbours and their
opposites, the branches of a nayin pair and of the pair thirty places on."""


def _nayin(pillar: Pillar) -> Any:
    from mingshu import bazi

    return bazi.nayin(pillar)


def element_of(pillar: Pillar) -> Element:
    return Element(_nayin(pillar).element)


def parse_element(value: object) -> Element:
    text = str(value).strip().lower()
    for e in Element:
        if text in (e.key, e.names.english.lower(), e.names.hans):
            return e
    raise InputError("element", f"{value!r} is not a phase (Wood, Fire, Earth, Metal, Water)")


def pillar_name(pillar: Pillar) -> str:
    return f"{pillar.stem.names.hans}{pillar.branch.names.hans}"


def label(pillar: Pillar) -> str:
    """A pillar's nayin as the articles name it: ``Gold in the Sea (海中金)``."""
    n = _nayin(pillar)
    return f"{n.names.english} ({n.names.hans})"


def table_of_thirty(options: Options) -> Table:
    """The thirty nayin in order: the two pillars, the name and the phase; ``mark`` (a
    phase) marks the rows of that phase."""
    mark = parse_element(options["mark"]) if "mark" in options else None
    rows, marked = [], set()
    for i in range(30):
        first, second = SIXTY[2 * i], SIXTY[2 * i + 1]
        n = _nayin(first)
        element = Element(n.element)
        rows.append(
            (
                str(i + 1),
                f"{pillar_name(first)} {pillar_name(second)}",
                f"{n.names.english} ({n.names.hans})",
                str(element.names.english),
            )
        )
        if element == mark:
            marked.add((i, 3))
    return Table(
        ("No.", "Pillars", "Nayin", "Phase"),
        tuple(rows),
        frozenset(marked),
        str(mark.names.english) if mark else "",
    )


def grid_table(options: Options) -> Table:
    """The nayin phase by pair of stems (rows: 甲乙 … 壬癸) and group of four branches
    (columns: 子丑午未, 寅卯申酉, 辰巳戌亥), over every pillar of the row and column; a cell
    whose pillars differ would list every phase found."""
    rows = []
    for yang in range(0, 10, 2):
        cells = []
        for group in BRANCH_GROUPS:
            found: dict[Element, None] = {}
            for p in SIXTY:
                if int(p.stem) // 2 == yang // 2 and int(p.branch) in group:
                    found[element_of(p)] = None
            cells.append(" / ".join(str(e.names.english) for e in found))
        first, second = Stem(yang), Stem(yang + 1)
        rows.append(
            (f"{first.names.hans}{second.names.hans} ({first.element.names.english})", *cells)
        )
    heads = (
        f"{', '.join(branch_name(b) for b in g)} ({''.join(Branch(b).names.hans for b in g)})"
        for g in BRANCH_GROUPS
    )
    return Table(("Stems", *heads), tuple(rows))


def p_nayin(q: Options) -> str:
    """The nayin of ``pillar`` (two characters, 甲子) and its phase."""
    pillar = Pillar.parse(str(q["pillar"]))
    return f"{label(pillar)}, {element_of(pillar).names.english}"


def p_nayin_pillars(q: Options) -> tuple[str, ...]:
    """Every pillar whose nayin is of ``element``, of the stem ``stem`` if given."""
    element = parse_element(q["element"])
    stem = parse_stem(q["stem"]) if "stem" in q else None
    return tuple(
        pillar_name(p)
        for p in SIXTY
        if element_of(p) == element and (stem is None or int(p.stem) == stem)
    )
