"""Security headers on every response, and the CSRF token of the feedback form.

The headers come from a plain ASGI middleware (no per-request task switching, unlike
Starlette's ``BaseHTTPMiddleware``).  The Content-Security-Policy allows scripts, styles,
images and fonts from the site itself only: no inline script, no inline style, no other
origin, no framing.

CSRF: a signed double-submit token.  The article page sets a token in a ``SameSite=Strict``
cookie and puts the same token in the form; a post is accepted only when both agree, the
token is signed with the site's secret (:func:`mingshu.web.store.site_secret`: an equal
cookie/form pair made up elsewhere, or planted in a cookie by a sibling subdomain, fails),
and the ``Origin``, when sent, is this site's scheme and host.  Nothing is kept on the
server, so any worker or host with the same secret can check any post.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import secrets
from typing import Any, Final

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = [
    "CSP",
    "CSRF_COOKIE",
    "HEADERS",
    "SecurityHeaders",
    "csrf_ok",
    "csrf_signed",
    "new_csrf_token",
    "same_origin",
]

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


_NONCE: Final = 24
"""Characters of a token's random part (18 bytes, URL-safe base64); the signature follows."""


def _signature(secret: str, nonce: str) -> str:
    mac = hmac.new(secret.encode(), b"mingshu-csrf:" + nonce.encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()[:18]).decode()


def new_csrf_token(secret: str) -> str:
    """A random nonce followed by its HMAC under ``secret`` (48 URL-safe characters)."""
    nonce = secrets.token_urlsafe(18)
    return nonce + _signature(secret, nonce)


def csrf_signed(secret: str, token: str | None) -> bool:
    """``token`` is one of ours: a nonce signed with ``secret``."""
    if not token or len(token) != 2 * _NONCE or not token.isascii():
        return False
    return hmac.compare_digest(token[_NONCE:], _signature(secret, token[:_NONCE]))


def csrf_ok(secret: str, cookie: str | None, form_token: str | None) -> bool:
    """The form's token equals the cookie's, and it is signed with ``secret``."""
    if not cookie or not form_token or len(cookie) > 100 or len(form_token) > 100:
        return False
    return hmac.compare_digest(cookie.encode(), form_token.encode()) and csrf_signed(
        secret, form_token
    )


def same_origin(origin: str | None, scheme: str, host: str) -> bool:
    """An ``Origin`` header (when sent) names this site: the same scheme and host (with
    port), compared without case.  ``Origin: null`` and any other value fail."""
    if origin is None:
        return True  # older browsers send none on same-origin posts; the token still holds
    return origin.strip().lower() == f"{scheme}://{host}".lower()
