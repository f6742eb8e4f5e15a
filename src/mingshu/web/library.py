"""The knowledge library on the web: index, article pages, share cards, feedback.

Reads ``mingshu.library`` (the articles and their renderer) when it is installed; without it
the library pages say so and the chart pages still work."""

from __future__ import annotations

import importlib
from functools import cache, lru_cache
from typing import Any, Final
from urllib.parse import urlencode

__all__ = [
    "article_exists",
    "article_for_setting",
    "articles_for_star",
    "catalogue_href",
    "library",
    "planned_title",
]


DEFAULTS: Final = {"lang": "en", "names": "hans"}
"""The catalogue page's parameters when a link leaves them out."""


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
def _covering() -> dict[str, tuple[str, ...]]:
    """``ENGINE:KEY`` -> the ids of the articles that cover the star (their ``covers``
    front matter, mingshu.library.coverage)."""
    lib = library()
    if lib is None:
        return {}
    covering = importlib.import_module("mingshu.library.coverage").covering
    return {str(k): tuple(str(a) for a in v) for k, v in covering(lib).items()}


def articles_for_star(engine: str, star_key: str) -> tuple[str, ...]:
    """The ids of the articles covering ``engine``'s star ``star_key`` (``"ziwei"`` or
    ``"bazi"``), in library order; empty when none does yet."""
    return _covering().get(f"{engine}:{star_key}", ())


@lru_cache(maxsize=4096)  # a chart page asks for one a star
def catalogue_href(engine: str, star_key: str = "", lang: str = "en", names: str = "hans") -> str:
    """The star catalogue page of ``engine`` in the interface language ``lang`` and the
    name form ``names``, at the row of ``star_key`` where given; '' without a library."""
    if library() is None:
        return ""
    query = urlencode({k: v for k, v in (("lang", lang), ("names", names)) if v != DEFAULTS[k]})
    row = f"#star-{star_key}" if star_key else ""
    return f"/library/stars/{engine}{'?' if query else ''}{query}{row}"
