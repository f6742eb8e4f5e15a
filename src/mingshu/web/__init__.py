"""The mingshu web site: chart page, knowledge library, settings, share cards, feedback,
and a JSON API (FastAPI + Jinja2, SQLAlchemy, uvicorn).  Needs the ``web`` extra.

``mingshu serve`` runs it; :func:`create_app` builds the ASGI app for tests and other
servers.  See docs/web.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mingshu.web.app import create_app
    from mingshu.web.server import serve

__all__ = ["create_app", "serve"]


def __getattr__(name: str) -> Any:
    # Load FastAPI only when the app is asked for (the city table and query parser are
    # light and used on their own).
    if name == "create_app":
        from mingshu.web.app import create_app

        return create_app
    if name == "serve":
        from mingshu.web.server import serve

        return serve
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
