"""The chart lane: GET of a chart answered without FastAPI's per-request machinery.

A chart's answer is a pure function of its query string (web/api.py, web/pages.py), but
through FastAPI a request also pays for matching the routes, solving the route's
dependencies (which read the query string again), and a Request and a Response object:
about as much CPU as a new chart's Zi Wei JSON.  :class:`ChartLane` sits inside
:class:`~mingshu.web.security.SecurityHeaders` and answers the chart requests it can
answer simply from the routes' own functions (the same body, status and headers, the
same turns of the loop); everything else goes on to the FastAPI route unchanged: an
error (422), a typed place (the route's redirect or question), any other method (HEAD
too: the routes answer it 405), and a query string that Starlette would read otherwise
than as plain ASCII.  tests/web/test_web_lane.py compares the two answers.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Final

from starlette.types import ASGIApp, Receive, Scope, Send

from mingshu.web.api import JSON, bazi_body, cached_answer, horoscope_body, ziwei_body
from mingshu.web.pages import HTML, page_body
from mingshu.web.query import FieldErrors

__all__ = ["LANES", "ChartLane"]

Body = Callable[[str], Awaitable[bytes | None]]
"""A route's body of a raw query string; None or FieldErrors: the route answers."""

LANES: Final[dict[str, tuple[Body, str]]] = {
    "/api/ziwei": (ziwei_body, JSON),
    "/api/ziwei/horoscope": (horoscope_body, JSON),
    "/api/bazi": (bazi_body, JSON),
    "/chart": (page_body, HTML),
}
"""The paths the lane answers: the body function their FastAPI route calls, the type."""

_PLAIN: Final = re.compile(rb"[!-\"$-~]*")
"""Printable ASCII without ``#``: a query string that ``request.url.query`` (UTF-8, and cut
at a ``#``) and ``request.query_params`` (Latin-1) read as the same string."""


class ChartLane:
    """Answers GET of the paths in :data:`LANES` when their body function gives a body."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        lane = LANES.get(scope["path"]) if scope["type"] == "http" else None
        query = scope.get("query_string", b"")
        if (
            lane is not None
            and scope["method"] == "GET"
            and not scope.get("root_path")  # mounted elsewhere: the router's own matching
            and _PLAIN.fullmatch(query)
        ):
            body_of, media_type = lane
            try:
                body = await body_of(query.decode("ascii"))
            except FieldErrors:
                body = None  # the route names the bad fields
            if body is not None:
                status, headers, content = cached_answer(body, media_type, _if_none_match(scope))
                await send({"type": "http.response.start", "status": status, "headers": headers})
                await send({"type": "http.response.body", "body": content})
                return
        await self.app(scope, receive, send)


def _if_none_match(scope: Scope) -> str:
    """The first If-None-Match header, as Starlette's ``request.headers`` reads it."""
    for name, value in scope["headers"]:
        if name == b"if-none-match":
            return str(value.decode("latin-1"))
    return ""
