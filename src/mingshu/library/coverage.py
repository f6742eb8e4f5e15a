"""Which articles cover which stars, computed from each article's ``covers`` front matter.

An article names the stars it is about as ``ENGINE:KEY`` (``ziwei:tian_xing``,
``bazi:yi_ma``), the key being the engine's own (``mingshu.ziwei.STARS``,
``mingshu.bazi.STARS``).  Coverage is read from those lists, never claimed in prose: the
catalogue pages and the chart page's star links come from here.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Final

from mingshu.library.model import Article, Library

__all__ = [
    "ENGINES",
    "bad_covers",
    "coverable",
    "coverage_line",
    "covering",
    "stars",
    "uncovered",
]

ENGINES: Final = ("ziwei", "bazi")


@cache
def stars(engine: str) -> tuple[str, ...]:
    """The stars every one of which must have an article: the engine's ``STARS``, in order."""
    if engine == "ziwei":
        from mingshu import ziwei

        return tuple(s.key for s in ziwei.STARS)
    from mingshu import bazi

    return tuple(s.key for s in bazi.STARS)


@cache
def coverable(engine: str) -> frozenset[str]:
    """Every key an article may cover: the engine's stars and, for Zi Wei, the 全书
    school's own stars (斗君, 飞天三杀, 金锁铁蛇关) and the four twelve-god cycles."""
    keys = set(stars(engine))
    if engine == "ziwei":
        from mingshu.ziwei import quanshu
        from mingshu.ziwei.tables import CYCLES

        keys.update(s.key for s in quanshu.catalogue())
        keys.update(CYCLES)
    return frozenset(keys)


def bad_covers(article: Article) -> list[str]:
    """What is wrong with an article's ``covers`` list: one message per bad entry."""
    out = []
    seen: set[str] = set()
    for entry in article.covers:
        engine, _, key = entry.partition(":")
        if engine not in ENGINES:
            out.append(f"{article.id}: covers {entry!r}: say the engine, ziwei:KEY or bazi:KEY")
        elif key not in coverable(engine):
            out.append(f"{article.id}: covers {entry!r}: {engine} has no star {key!r}")
        elif entry in seen:
            out.append(f"{article.id}: covers {entry!r} twice")
        seen.add(entry)
    return out


def covering(library: Library) -> Mapping[str, tuple[str, ...]]:
    """``ENGINE:KEY`` -> the ids of the articles that cover it, in library order."""
    out: dict[str, list[str]] = {}
    for article in library.articles:
        for entry in article.covers:
            out.setdefault(entry, []).append(article.id)
    return {k: tuple(v) for k, v in out.items()}


def uncovered(library: Library, engine: str) -> tuple[str, ...]:
    """The engine's stars (``stars(engine)``) that no article covers, in the engine's order."""
    have = covering(library)
    return tuple(k for k in stars(engine) if f"{engine}:{k}" not in have)


ENGINE_NAMES: Final = {"ziwei": "Zi Wei", "bazi": "BaZi"}


def coverage_line(library: Library) -> str:
    """How many of each engine's stars (``stars(engine)``) some article covers, as
    ``mingshu library check`` prints it and docs/library.md states it:
    ``stars covered: Zi Wei 11/70, BaZi 4/46``."""
    parts = (
        f"{ENGINE_NAMES[e]} {len(stars(e)) - len(uncovered(library, e))}/{len(stars(e))}"
        for e in ENGINES
    )
    return "stars covered: " + ", ".join(parts)
