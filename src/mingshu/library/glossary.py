"""The library's one vocabulary (``glossary.toml``): star groups as the engine defines them,
the twelve stages with one English word each, and one way of writing pinyin.

:func:`lookup` finds a term, a Zi Wei star, a palace, a stem or a branch from any of its
forms (key, 简体, 繁體, pinyin with or without tone marks and spaces, English, any case);
:func:`misuses` finds the places where an article's text uses a term outside its
definition: a star called by another group's word, a stage by an English name the glossary
retired.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache
from typing import Final

from mingshu.arguments import check_type
from mingshu.errors import InputError
from mingshu.named import clip, load_toml

__all__ = ["Entry", "entries", "lookup", "misuses", "pinyin"]

KINDS: Final = ("group", "stage", "star", "palace", "stem", "branch")


@dataclass(frozen=True, slots=True)
class Entry:
    """One thing the vocabulary names: its kind (:data:`KINDS`), canonical key and names
    (``pinyin`` in the glossary's one convention); a group's or stage's definition and the
    English names it retired; a star's group (``major``, ``minor``, ``adjective``)."""

    kind: str
    key: str
    hans: str
    hant: str
    pinyin: str
    english: str
    definition: str = ""
    avoid: tuple[str, ...] = ()
    group: str = ""


def pinyin(text: str) -> str:
    """``text`` written by the glossary's convention: tone marks dropped, each word
    capitalised (``lín guān`` → ``Lin Guan``, ``zi_wei`` → ``Zi Wei``)."""
    check_type(text, str, "pinyin", "a pinyin name")
    plain = "".join(
        c for c in unicodedata.normalize("NFD", text) if unicodedata.category(c) != "Mn"
    )
    return " ".join(w.capitalize() for w in re.split(r"[\s_]+", plain.strip()) if w)


def _fold(text: str) -> str:
    """The lookup form: no tone marks, no case, no spaces, hyphens or underscores."""
    return re.sub(r"[\s_\-]+", "", pinyin(text).lower())


@cache
def entries() -> tuple[Entry, ...]:
    """Every entry: the glossary file's groups and stages, then the engines' stars,
    palaces, stems and branches (their names read from the engines' data)."""
    from mingshu.cycles import Branch, Stem
    from mingshu.ziwei import STARS, PalaceName

    data = load_toml("mingshu.library", "glossary.toml")
    out = [
        Entry(
            kind,
            row["key"],
            row["hans"],
            row["hant"],
            pinyin(row["pinyin"]),
            row["english"],
            row.get("definition", ""),
            tuple(row.get("avoid", ())),
        )
        for kind in ("group", "stage")
        for row in data[kind]
    ]
    for s in STARS:
        n = s.names
        out.append(
            Entry(
                "star", s.key, n.hans, n.hant, pinyin(n.pinyin), n.english, group=str(s.group.value)
            )
        )
    named = (("palace", PalaceName), ("stem", Stem), ("branch", Branch))
    for kind, enum in named:
        for member in enum:
            n = member.names
            out.append(Entry(kind, member.key, n.hans, n.hant, pinyin(n.pinyin), n.english))
    return tuple(out)


@cache
def _index() -> dict[str, tuple[Entry, ...]]:
    found: dict[str, list[Entry]] = {}
    for e in entries():
        for form in {e.key, e.hans, e.hant, e.pinyin, e.english}:
            bucket = found.setdefault(_fold(form), [])
            if e not in bucket:
                bucket.append(e)
    return {k: tuple(v) for k, v in found.items()}


def lookup(text: str, kind: str | None = None) -> Entry:
    """The entry ``text`` names in any form, of ``kind`` when given (a name such as 子 is a
    branch and a stage's pinyin both, so ``kind`` chooses); an :class:`InputError` on
    ``term`` when there is none, or more than one and no ``kind``."""
    check_type(text, str, "term", "a term")
    if kind is not None and kind not in KINDS:
        raise InputError("kind", f"{clip(kind)} is not a kind: use one of {KINDS}")
    hits = [e for e in _index().get(_fold(text), ()) if kind is None or e.kind == kind]
    if not hits:
        raise InputError("term", f"{clip(text)} is not in the glossary")
    if len({(e.kind, e.key) for e in hits}) > 1:
        kinds = ", ".join(sorted({e.kind for e in hits}))
        raise InputError("term", f"{clip(text)} names more than one thing ({kinds}): give a kind")
    return hits[0]


# ------------------------------------------------------------------------------ misuse


def _group_words() -> dict[str, str]:
    """``minor`` → ``minor``: the word before "star" that names each group."""
    return {e.english.split()[0].lower(): e.key for e in entries() if e.kind == "group"}


def _star_pattern() -> re.Pattern[str]:
    names = sorted({e.pinyin for e in entries() if e.kind == "star"}, key=len, reverse=True)
    words = "|".join(_group_words())
    return re.compile(
        rf"\b(?P<star>{'|'.join(re.escape(n) for n in names)})(?:\s*\((?P<chars>[^)]*)\))?"
        rf"\s+is\s+an?\s+(?P<group>{words})\s+star\b"
    )


def _stars_named(name: str, chars: str) -> tuple[Entry, ...]:
    """The stars whose pinyin is ``name``: one pinyin may name two stars (Tian Fu is 天府
    and 天福), so the characters in the brackets after it, when they name one, choose."""
    stars = tuple(e for e in entries() if e.kind == "star" and e.pinyin == name)
    chosen = tuple(s for s in stars if s.hans in chars or s.hant in chars)
    return chosen or stars


def misuses(text: str, subject: str | None = None) -> list[str]:
    """The places where ``text`` uses a glossary term outside its definition:

    * "En Guang is a minor star" (a star called by a group word not its own; the star may
      carry its characters in brackets: "En Guang (恩光) is a minor star");
    * "A minor star that …" when ``subject`` (the star the text is about, in any form) is
      not a minor star;
    * a stage by an English name the glossary retired ("the Coming-of-Age stage")."""
    check_type(text, str, "text", "article text")
    flat = re.sub(r"\s+", " ", text)
    found: list[str] = []
    groups = _group_words()
    for m in _star_pattern().finditer(flat):
        stars = _stars_named(m["star"], m["chars"] or "")
        if groups[m["group"].lower()] not in {s.group for s in stars}:
            where = " or ".join(sorted({s.group for s in stars}))
            found.append(f"{m[0]!r}: {stars[0].pinyin} is in the {where} group")
    if subject is not None:
        star = lookup(subject, "star")
        for m in re.finditer(rf"\b(?:A|An|a|an) ({'|'.join(groups)}) star\b", flat):
            if groups[m[1].lower()] != star.group:
                found.append(f"{m[0]!r}: {star.pinyin} is in the {star.group} group")
    for e in entries():
        for word in e.avoid:
            if re.search(rf"\b{re.escape(word)}\b", flat, re.IGNORECASE):
                found.append(f"{word!r}: the {e.hans} stage is {e.english!r}")
    return found
