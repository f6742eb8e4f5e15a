"""The star catalogue of each engine, written from the star data: every star once, with its
names, its group, its rule in one line, where the rule's words come from, and the articles
that cover it (``covers`` front matter, :mod:`mingshu.library.coverage`).

Zi Wei: the stars of ``mingshu.ziwei.STARS`` (``ziwei/data/stars.toml``), then the 全书
school's own stars (``quanshu.catalogue()``, ``quanshu.toml``) and the four twelve-god cycles
(``chart.toml``); a star the 全书 school places by another rule carries that rule too.
BaZi: every star of ``mingshu.bazi.STARS`` by its default table (``shensha.toml``).
Nothing here is typed by hand: a star added to the data files appears in the catalogue.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from mingshu.arguments import check_type
from mingshu.cycles import Names
from mingshu.errors import InputError
from mingshu.library.coverage import ENGINES, covering
from mingshu.library.model import Library
from mingshu.named import clip
from mingshu.present.star_rules import bazi_rule, ziwei_rule

__all__ = ["GROUPS", "KINDS", "Entry", "SourceStatus", "catalogue"]

GROUPS: Final = {
    "ziwei": {
        "major": "Major stars",
        "minor": "Minor stars",
        "adjective": "Adjective stars",
        "quanshu": "The 全书 school's own stars",
        "cycle": "The twelve-god cycles",
    },
    "bazi": {
        "day_stem": "By the day stem",
        "year_stem": "By the year stem",
        "year_branch": "By the year branch",
        "month_branch": "By the month branch",
        "year_nayin": "By the year's nayin element",
        "day_pillar": "By the day pillar",
        "chart_stems": "By the chart's stems",
    },
}
"""Each engine's groups in the order the catalogue shows them, with their headings.  A BaZi
star's group is the first basis of its default table."""

KINDS: Final = {
    "book": "book line",
    "modern": "modern compilation, not the book",
    "none": "no book line",
}
"""Where a rule's words come from: a book's line, a modern rhyme list, or no text found."""


@dataclass(frozen=True, slots=True)
class SourceStatus:
    """Where a star's rule is written: ``kind`` (a key of :data:`KINDS`), the book and its
    section, the verse or passage, and its place in ``../shared/sources`` (FILE:LINE)."""

    kind: str
    citation: str
    verse: str
    at: str


@dataclass(frozen=True, slots=True)
class Entry:
    """One star of a catalogue."""

    engine: str
    key: str
    names: Names
    group: str
    rule: str
    """The rule in one line (mingshu.present.star_rules), from the data file."""
    school_rule: str
    """The 全书 school's rule where it differs from the default one; else ''."""
    source: SourceStatus
    articles: tuple[str, ...]
    """The ids of the articles that cover the star (``covers``), in library order."""

    @property
    def anchor(self) -> str:
        """The id of the star's row on the catalogue page."""
        return f"star-{self.key}"


_QUANSHU_SECTION = re.compile(r"全书 卷二 ([^\s(:;]+)")


def _ziwei_source(source: str, verse: str, at: str) -> SourceStatus:
    """A Zi Wei rule's source: the 全书 卷二 verse (the transcription
    ziwei-quanshu.juan2.newdu-full.txt), the modern compilation of rhymes, or none."""
    found = _QUANSHU_SECTION.search(source)
    section = f"紫微斗数全书 卷二「{found.group(1)}」" if found else "紫微斗数全书 卷二"
    if at.startswith("ziwei-quanshu.juan2"):
        return SourceStatus("book", section, verse, at)
    if "iztro-compilation" in at:
        return SourceStatus("modern", "", verse, at)
    return SourceStatus("none", "", "", "")


def _cycle_source(source: str) -> SourceStatus:
    """A god cycle's source (chart.toml names no verse line, only the book's section): the
    book's section, else the modern compilation where only it has the rhyme, else none."""
    if "no verse in the 全书 files" in source:
        modern = "modern compilation" in source
        return SourceStatus("modern" if modern else "none", "", "", "")
    found = _QUANSHU_SECTION.search(source)
    if found:
        return SourceStatus("book", f"紫微斗数全书 卷二「{found.group(1)}」", "", "")
    return SourceStatus("none", "", "", "")


def _ziwei(library: Library) -> list[Entry]:
    from mingshu import ziwei
    from mingshu.ziwei import quanshu
    from mingshu.ziwei.tables import CYCLES

    have = covering(library)
    school = list(quanshu.catalogue())
    by_key = {s.key: s for s in (*ziwei.STARS, *school)}

    def name(key: str) -> str:
        return by_key[key].names.hans

    def articles(key: str) -> tuple[str, ...]:
        return have.get(f"ziwei:{key}", ())

    out = []
    default = {s.key for s in ziwei.STARS}
    school_rules = {s.key: s.place for s in school if s.key in default}
    for s in ziwei.STARS:
        other = school_rules.get(s.key)
        out.append(
            Entry(
                engine="ziwei",
                key=s.key,
                names=s.names,
                group=s.group.value,
                rule=ziwei_rule(s.place, "hans", name),
                school_rule=""
                if other is None or other == s.place
                else ziwei_rule(other, "hans", name),
                source=_ziwei_source(s.source, s.verse, s.verse_at),
                articles=articles(s.key),
            )
        )
    for s in school:
        if s.key not in default:
            out.append(
                Entry(
                    engine="ziwei",
                    key=s.key,
                    names=s.names,
                    group="quanshu",
                    rule=ziwei_rule(s.place, "hans", name),
                    school_rule="",
                    source=_ziwei_source(s.source, s.verse, s.verse_at),
                    articles=articles(s.key),
                )
            )
    for c in CYCLES.values():
        out.append(
            Entry(
                engine="ziwei",
                key=c.key,
                names=c.names,
                group="cycle",
                rule=_cycle_rule(c.start, c.direction, [g.names.hans for g in c.gods]),
                school_rule="",
                source=_cycle_source(c.source),
                articles=articles(c.key),
            )
        )
    return out


_CYCLE_STARTS: Final = {
    "five_elements_class": "the 长生 branch of the five-elements class",
    "lu_cun": "the palace of 禄存",
    "jiang_xing": "将星 (by the year branch: 申子辰 子, 巳酉丑 酉, 寅午戌 午, 亥卯未 卯)",
    "year_branch": "the year branch",
}
_CYCLE_WAYS: Final = {
    "polarity": "forward for yang men and yin women, backward for the others",
    "forward": "always forward",
}


def _cycle_rule(start: str, direction: str, gods: list[str]) -> str:
    return (
        f"Twelve gods, one a palace ({' '.join(gods)}), from {_CYCLE_STARTS[start]}, "
        f"{_CYCLE_WAYS[direction]}."
    )


_BOOK_STATUS: Final = {"primary": "book", "secondary": "book", "seed": "modern"}
"""A BaZi table's source status (bazi.tables.Source) as a catalogue kind; every other status
(attributed, unsourced, convention, library) has no book line behind it."""


def _bazi(library: Library) -> list[Entry]:
    from mingshu import bazi

    have = covering(library)
    out = []
    for s in bazi.STARS:
        v = s.variant(s.default)
        kind = _BOOK_STATUS.get(v.source.status, "none")
        at = f"{v.source.file}:{v.source.line}" if v.source.file and v.source.line else ""
        citation = v.source.citation() if kind != "none" else ""
        out.append(
            Entry(
                engine="bazi",
                key=s.key,
                names=s.names,
                group=v.basis[0],
                rule=bazi_rule(v),
                school_rule="",
                source=SourceStatus(kind, citation, v.source.passage, at),
                articles=have.get(f"bazi:{s.key}", ()),
            )
        )
    return out


def catalogue(library: Library, engine: str) -> tuple[Entry, ...]:
    """Every star of ``engine`` (``"ziwei"`` or ``"bazi"``), grouped in the order of
    :data:`GROUPS`, each group in the data files' order."""
    check_type(library, Library, "library", "a library (library.load())")
    if not isinstance(engine, str) or engine not in ENGINES:
        raise InputError("engine", f"one of {', '.join(ENGINES)}, not {clip(engine)}")
    entries = _ziwei(library) if engine == "ziwei" else _bazi(library)
    order = list(GROUPS[engine])
    return tuple(sorted(entries, key=lambda e: order.index(e.group)))
