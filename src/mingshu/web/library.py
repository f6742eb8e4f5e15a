"""The knowledge library on the web: index, article pages, share cards, feedback.

Reads ``mingshu.library`` (the articles and their renderer) when it is installed; without it
the library pages say so and the chart pages still work."""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

__all__ = ["article_for_star", "library"]


@cache
def library() -> Any | None:
    """The loaded library, or ``None`` when this build has none."""
    try:
        lib = importlib.import_module("mingshu.library")
    except ImportError:
        return None
    return lib.load()


def article_for_star(star_key: str) -> str | None:
    """The id of the article about the Zi Wei star ``star_key``, if there is one."""
    return None
