"""The 全书 school: the star catalogue, brightness and god-cycle direction a chart uses under
``ZiweiSettings(school="quanshu")``, read from ``data/quanshu.toml``.

The default catalogue (iztro 2.6.0) stays as it is; this module derives the school's
catalogue from it: some stars placed by the book's verse instead (月德; 天魁 天钺 in the
verse's order), some in place of others (截路空亡 for 截路 and 空亡; 旬空 on both void
palaces; the book's 解神, the year star the default calls 年解, for the default's month-based
解神), some added (斗君, 飞天三杀, 金锁铁蛇关).  docs/book-conformance.md shows, rule by rule,
where the two part.
"""

from __future__ import annotations

from mingshu.birth import Notice
from mingshu.cycles import Names
from mingshu.ziwei.stars import (
    STARS,
    Brightness,
    Star,
    StarGroup,
    StarKind,
    _freeze,  # one freezing rule for both catalogues
    default_brightness,
    load_data,
)

__all__ = ["CHANGES", "CHANG_SHENG_BY_GENDER", "brightness", "catalogue", "school_notices"]

_DATA = load_data("quanshu.toml")

CHANGES: tuple[tuple[str, str], ...] = tuple((c["key"], c["text"]) for c in _DATA["change"])
"""What the 全书 school changes, as (key, text) in the order a chart lists them."""

CHANG_SHENG_BY_GENDER: bool = _DATA["chang_sheng"]["direction"] == "gender"
"""长生 runs forward for men and backward for women (F L68), whatever the year."""


def _names(row: dict[str, object]) -> Names:
    return Names(str(row["hans"]), str(row["hant"]), str(row["pinyin"]), str(row["english"]))


def _new_star(row: dict[str, object], index: int) -> Star:
    return Star(
        key=str(row["key"]),
        index=index,
        names=_names(row),
        tones=str(row["tones"]),
        group=StarGroup.ADJECTIVE,
        kind=StarKind.ADJECTIVE,
        iztro_key="",
        iztro_en="",
        algorithms=frozenset({"quanshu"}),
        place=_freeze(row["place"]),
        verse=str(row.get("verse", "")),
        source=str(row["source"]),
        verse_at=str(row.get("verse_at", "")),
    )


def _catalogue() -> tuple[Star, ...]:
    base = [s for s in STARS if "quanshu" in s.algorithms]
    by_key = {s.key: s for s in base}
    out: list[Star] = list(base)
    extra_index = len(STARS)
    for row in _DATA["star"]:
        key = row["key"]
        replaced = row.get("replaces", [])
        if key in by_key:  # the same star, placed (or named) by the book's rule
            old = by_key[key]
            named = "hans" in row  # the book's name for it, where that differs
            star = Star(
                key=old.key,
                index=old.index,
                names=_names(row) if named else old.names,
                tones=str(row["tones"]) if named else old.tones,
                group=old.group,
                kind=old.kind,
                iztro_key=old.iztro_key,
                iztro_en=old.iztro_en,
                algorithms=old.algorithms,
                place=_freeze(row["place"]),
                verse=row["verse"],
                source=row["source"],
                verse_at=row["verse_at"],
            )
        else:
            star = _new_star(row, extra_index)
            extra_index += 1
        if replaced:
            at = min(i for i, s in enumerate(out) if s.key in replaced)
            out = [s for s in out if s.key not in replaced]
            out.insert(at, star)
        elif "after" in row:
            at = next(i for i, s in enumerate(out) if s.key == row["after"])
            out.insert(at + 1, star)
        else:
            out.append(star)
    return tuple(out)


_CATALOGUE = _catalogue()


def catalogue() -> tuple[Star, ...]:
    """The stars a 全书-school chart places, majors first, in the order palaces list them."""
    return _CATALOGUE


def brightness() -> dict[str, tuple[Brightness | None, ...]]:
    """The book's brightness rows by star key (F L383–433), each indexed by branch (子 = 0)."""
    rows = default_brightness()
    for key, row in _DATA["brightness"].items():
        rows[key] = tuple(None if c == "-" else Brightness.parse(c) for c in row)
    return rows


_NOTICES = (
    Notice(
        "quanshu_school",
        "settings",
        "紫微斗数全书 school, not iztro 2.6.0: " + "; ".join(text for _, text in CHANGES),
    ),
)


def school_notices(school: str) -> tuple[Notice, ...]:
    """What a chart of ``school`` changed against iztro 2.6.0 (nothing for the default)."""
    return _NOTICES if school == "quanshu" else ()
