"""The knowledge library on the web: index, article pages, share cards, feedback.

Reads ``mingshu.library`` (the articles and their renderer) when it is installed; without it
the library pages say so and the chart pages still work."""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

__all__ = [
    "article_exists",
    "article_for_bazi_star",
    "article_for_setting",
    "article_for_star",
    "library",
    "planned_title",
]


@cache
def library() -> Any | None:
    """The loaded library, or ``None`` when this build has none."""
    try:
        lib = importlib.import_module("mingshu.library")
    except ImportError:
        return None
    return lib.load()


def article_exists(article_id: str) -> bool:
    lib = library()
    return lib is not None and bool(lib.exists(article_id))


def planned_title(article_id: str) -> str | None:
    """The title of an article the library plans but has not written yet."""
    lib = library()
    if lib is None or lib.exists(article_id):
        return None
    title = lib.planned.get(article_id)
    return None if title is None else str(title)


@cache
def _setting_articles() -> dict[str, str]:
    """Chart setting -> the article that explains it (its front matter's ``explains``)."""
    lib = library()
    if lib is None:
        return {}
    return {str(s): str(a.id) for a in lib.articles for s in a.explains}


def article_for_setting(setting: str) -> str | None:
    """The id of the article explaining a chart setting, or None."""
    return _setting_articles().get(setting)


@cache
def _star_articles() -> dict[str, str]:
    """Zi Wei star key -> article id, from the articles' titles ("En Guang: …")."""
    lib = library()
    if lib is None:
        return {}
    from mingshu.ziwei import STARS

    by_pinyin = {s.names.pinyin.casefold(): s.key for s in STARS}
    out: dict[str, str] = {}
    for article in lib.articles:
        if not str(article.id).startswith("ZW-"):
            continue
        key = by_pinyin.get(str(article.title).split(":", 1)[0].strip().casefold())
        if key is not None:
            out.setdefault(key, str(article.id))
    return out


@cache
def _bazi_star_articles() -> dict[str, str]:
    """BaZi symbolic-star key -> article id, from BZ- titles ("Literary Star: …")."""
    lib = library()
    if lib is None:
        return {}
    from mingshu.bazi import STARS

    by_english = {s.names.english.casefold(): s.key for s in STARS}
    out: dict[str, str] = {}
    for article in lib.articles:
        if not str(article.id).startswith("BZ-"):
            continue
        key = by_english.get(str(article.title).split(":", 1)[0].strip().casefold())
        if key is not None:
            out.setdefault(key, str(article.id))
    return out


def article_for_bazi_star(star_key: str) -> str | None:
    """The id of the article about the BaZi symbolic star ``star_key``, if there is one."""
    return _bazi_star_articles().get(star_key)


def article_for_star(star_key: str) -> str | None:
    """The id of the article about the Zi Wei star ``star_key``, if there is one."""
    return _star_articles().get(star_key)
