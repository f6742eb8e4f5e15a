"""Security headers on every response, and the CSRF token of the feedback form.

The headers come from a plain ASGI middleware (no per-request task switching, unlike
Starlette's ``BaseHTTPMiddleware``).  The Content-Security-Policy allows scripts, styles,
images and fonts from the site itself only: no inline script, no inline style, no other
origin, no framing.

CSRF: a double-submit token.  The article page sets a random token in a ``SameSite=Strict``
cookie and puts the same token in the form; a post is accepted only when both agree (and
the ``Origin``, when sent, is this site).  Nothing is kept on the server, so any worker can
check any post.
"""

from __future__ import annotations

import hmac
import logging
import secrets
from typing import Any, Final

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["CSP", "CSRF_COOKIE", "HEADERS", "SecurityHeaders", "csrf_ok", "new_csrf_token"]

CSP: Final = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; "
    "base-uri 'none'"
)
HEADERS: Final[tuple[tuple[bytes, bytes], ...]] = (
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),  # no-referrer would make forms send Origin: null
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=(), interest-cohort=()"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
)
CSRF_COOKIE: Final = "mingshu_csrf"


_ERROR_PAGE: Final = (
    b"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>Something went wrong"
    b"</title><link rel='stylesheet' href='/static/site.css'></head><body><main><h1>Something "
    b"went wrong</h1><p>The server could not draw this page.</p><p><a href='/'>Back to the "
    b"start</a></p></main></body></html>"
)
_log = logging.getLogger("mingshu.web")


class SecurityHeaders:
    """Adds :data:`HEADERS` to every HTTP response, and turns an unexpected exception into
    a plain 500 (a page, or ``{"detail": "internal error"}`` under /api/) with the same
    headers; the traceback goes to the server log, never to the reader."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers: list[Any] = list(message.get("headers", []))
                present = {k.lower() for k, _ in headers}
                headers.extend((k, v) for k, v in HEADERS if k not in present)
                message["headers"] = headers
            await send(message)

        try:
            await self.app(scope, receive, send_with_headers)
        except Exception:
            _log.exception("error answering %s %s", scope.get("method"), scope.get("path"))
            if started:
                raise
            api = str(scope.get("path", "")).startswith("/api/")
            body = b'{"detail":"internal error"}' if api else _ERROR_PAGE
            kind = b"application/json" if api else b"text/html; charset=utf-8"
            await send_with_headers(
                {
                    "type": "http.response.start",
                    "status": 500,
                    "headers": [(b"content-type", kind), (b"content-length", b"%d" % len(body))],
                }
            )
            await send({"type": "http.response.body", "body": body})


def new_csrf_token() -> str:
    return secrets.token_urlsafe(24)


def csrf_ok(cookie: str | None, form_token: str | None) -> bool:
    """The form's token equals the cookie's (both present, of a sane length)."""
    if not cookie or not form_token or len(cookie) > 100 or len(form_token) > 100:
        return False
    return hmac.compare_digest(cookie.encode(), form_token.encode())
