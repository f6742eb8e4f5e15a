"""Library pages: the index (by subject and series, with search), article pages with the
eighteen-second summary, the share card (PNG, rendered once per article version and kept in
the database), and "Was this article helpful?" feedback (CSRF-checked, rate-limited)."""

from __future__ import annotations

import importlib
import logging
import re
import secrets
import threading
from functools import lru_cache
from typing import Annotated, Any, Final

from fastapi import APIRouter, Path, Query, Request, Response
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse
from starlette.concurrency import run_in_threadpool

from mingshu.web.lang import LANGS, translator
from mingshu.web.library import catalogue_href, library
from mingshu.web.pages import LANG_WORDS, NAME_LANGS, NAME_WORDS, Row, lang_of, render
from mingshu.web.security import CSRF_COOKIE, csrf_ok, csrf_signed, new_csrf_token, same_origin
from mingshu.web.store import MAX_COMMENT, FeedbackIn, RateLimited, Store

__all__ = ["api_router", "router"]

router = APIRouter(include_in_schema=False)
api_router = APIRouter(prefix="/api", tags=["api"])

MAX_FORM_BYTES: Final = 65536
"""Largest feedback body read.  A comment of MAX_COMMENT characters of any script fits with
room to spare (a 4-byte character is 12 bytes form-encoded: 24,000 bytes), and so does an
overlong paste, which is answered on the page with the text kept; only a bigger body, which
no browser sends through the form's maxlength, is refused (413), read no further than this."""
log: Final = logging.getLogger("mingshu.web")


def _lib_module(name: str) -> Any:
    """``mingshu.library.NAME`` (imported by name: the library is an optional part)."""
    return importlib.import_module(f"mingshu.library.{name}")


def _link(article_id: str) -> str:
    return f"/library/{article_id}"


def _stars_link(engine: str) -> str:
    return f"/library/stars/{engine}"


def _no_library() -> Response:
    return render(
        "error.html", status=404, title="Library not installed",
        message="This build of mingshu has no knowledge library.",
    )  # fmt: skip


def _article(article_id: str) -> Any | None:
    lib = library()
    if lib is None:
        return None
    from mingshu.errors import InputError

    try:
        return lib.get(article_id[:40])
    except (InputError, KeyError, LookupError):
        return None


def _matches(article: Any, q: str) -> bool:
    text = " ".join(
        str(getattr(article, k, "") or "")
        for k in ("id", "subject", "title", "subtitle", "short_version")
    ).casefold()
    return all(word in text for word in q.casefold().split())


@router.get("/library", response_class=HTMLResponse)
def index(request: Request, q: Annotated[str, Query(max_length=100)] = "") -> Response:
    lib = library()
    if lib is None:
        return _no_library()
    index_html = _lib_module("render").index_html

    found = [a for a in lib.articles if _matches(a, q)] if q.strip() else []
    return render(
        "library.html", index=index_html(lib, link=_link, stars=_stars_link), q=q, found=found,
        searched=bool(q.strip()),
    )  # fmt: skip


@router.get("/library/stars/{engine}", response_class=HTMLResponse)
def star_catalogue(
    request: Request,
    engine: Annotated[str, Path(max_length=10)],
    lang: Annotated[str, Query(max_length=10)] = "en",
    names: Annotated[str, Query(max_length=10)] = "hans",
) -> Response:
    """An engine's star catalogue (every star, its rule, its source, its articles), in
    the interface language ``lang`` with the names in the form ``names``."""
    lib = library()
    if lib is None:
        return _no_library()
    ui = lang_of({"lang": lang})
    render_module = _lib_module("render")
    if engine not in render_module.CATALOGUE_TITLES:
        return render(
            "error.html", status=404, lang=ui, title="No such catalogue",
            message="The star catalogues are /library/stars/ziwei and /library/stars/bazi.",
        )  # fmt: skip
    if names not in NAME_LANGS:
        return render(
            "error.html", status=422, lang=ui, title="No such name form",
            message=f"names: one of {', '.join(NAME_LANGS)}",
        )  # fmt: skip
    t = translator(ui)
    other = "bazi" if engine == "ziwei" else "ziwei"
    fragment = render_module.catalogue_html(
        lib, engine, link=_link, other=catalogue_href(other, "", ui, names), names=names,
        translate=t.message_text, lang=ui,
    )  # fmt: skip
    return render(
        "stars.html", lang=ui, title=render_module.CATALOGUE_TITLES[engine], catalogue=fragment,
        lang_links=[
            Row(lang=x, word=LANG_WORDS[x], href=catalogue_href(engine, "", x, names),
                current=x == ui)
            for x in LANGS
        ],
        name_links=[
            Row(style=style, word=NAME_WORDS[style], lang=NAME_LANGS[style],
                href=catalogue_href(engine, "", ui, style), current=style == names)
            for style in NAME_LANGS
        ],
    )  # fmt: skip


def _card_png(store: Store, article: Any) -> bytes:
    version = str(article.version)
    png = store.card(article.id, version)
    if png is None:
        from mingshu.web.cards import render_card

        png = render_card(article)
        store.save_card(article.id, version, png)
    return png


@router.get("/library/{article_id}", response_class=HTMLResponse)
async def article_page(request: Request, article_id: str) -> Response:
    # async: a repeat joins two cached halves around the reader's CSRF token, cheaper than a
    # hop to the thread pool; the first view of an article version in a process renders it
    # in a thread (about a second: the engines draw its tables), so other readers are not
    # held up, and once: readers arriving meanwhile wait for that render.
    article = _article(article_id)
    if article is None:
        return render(
            "error.html", status=404, title="No such article",
            message="The library has no article with that id.",
        )  # fmt: skip
    token = request.cookies.get(CSRF_COOKIE) or ""
    secret: str = request.app.state.secret
    fresh = not (_TOKEN_SAFE(token) and csrf_signed(secret, token))
    if fresh:
        token = new_csrf_token(secret)
    key = (str(article.id), str(article.version), request.query_params.get("thanks") == "1")
    parts = _page_parts.get(key)
    if parts is None:
        try:
            parts = await run_in_threadpool(_page_parts_once, *key)
        except Exception as e:  # one article's failure is that page's error, not the site's
            return _unrenderable(article, e)
    head, tail = parts
    response = HTMLResponse(b"".join((head, token.encode(), tail)))
    if fresh:
        response.set_cookie(CSRF_COOKIE, token, httponly=True, samesite="strict", path="/")
    response.headers["Cache-Control"] = "no-cache"
    return response


FEEDBACK_SLOT: Final = "<!--ms-feedback-->"
"""Where the article's fragment takes the feedback form (article.html splits on it)."""
_TOKEN_SAFE: Final = re.compile(r"[A-Za-z0-9_-]{16,100}").fullmatch
"""A token as new_csrf_token makes them: it goes into the page unescaped."""
_SLOT: Final = "csrf-" + secrets.token_hex(16)
"""Stands for the reader's CSRF token in a cached page (no article can contain it)."""
_page_parts: dict[tuple[str, str, bool], tuple[bytes, bytes]] = {}
_render_locks: dict[tuple[str, str, bool], threading.Lock] = {}
_locks_lock: Final = threading.Lock()


def _page_parts_once(article_id: str, version: str, thanks: bool) -> tuple[bytes, bytes]:
    """The cached halves, rendered by the first reader's thread only: readers of the same
    page arriving meanwhile wait in their own threads (the event loop goes on serving
    others).  One lock per page, so an article that takes seconds to draw holds up only
    its own first readers."""
    key = (article_id, version, thanks)
    with _locks_lock:
        lock = _render_locks.setdefault(key, threading.Lock())
    with lock:
        parts = _page_parts.get(key)
        return parts or _page_parts_of(article_id, version, thanks)


def _unrenderable(article: Any, error: Exception) -> Response:
    """The error page of an article this server cannot draw (logged with its traceback for
    the operator); the rest of the site goes on, and the next view tries again."""
    log.error("article %s v%s could not be rendered", article.id, article.version, exc_info=error)
    from mingshu.errors import InputError

    reason = str(error) if isinstance(error, InputError) else "an internal error (logged)"
    return render(
        "error.html", status=500, title="Article unavailable",
        message=f"Article {article.id} could not be drawn on this server: {reason}. "
        "The rest of the site works.",
    )  # fmt: skip


def _page_parts_of(article_id: str, version: str, thanks: bool) -> tuple[bytes, bytes]:
    """The article page before and after the CSRF token: everything else on it is a pure
    function of the article's id and version (and the thank-you line), so each process
    renders it once per version.  Only the token differs from one reader to the next."""
    article = _article(article_id)
    html = render(
        "article.html", article=article, body=_body(article), slot=FEEDBACK_SLOT, csrf=_SLOT,
        thanks=thanks, max_comment=MAX_COMMENT,
    ).body  # fmt: skip
    head, tail = bytes(html).split(_SLOT.encode())  # exactly one slot
    _page_parts[article_id, version, thanks] = (head, tail)
    return head, tail


def _body(article: Any) -> str:
    """The library's HTML fragment of the article, with the card and summary links."""
    return _body_of(str(article.id), str(article.version))


@lru_cache(maxsize=512)
def _body_of(article_id: str, version: str) -> str:
    # The renderer draws the article's tables and diagrams with the engines (tens of
    # milliseconds); the fragment is a pure function of the article's id and version.
    article = _article(article_id)
    article_html = _lib_module("render").article_html
    base = _link(article_id)
    return str(
        article_html(
            article, library(), link=_link, card_url=f"{base}/card.png",
            summary_url=f"{base}/summary.webp" if _has_summary() else None,
            helpful=FEEDBACK_SLOT,
        )
    )  # fmt: skip


@router.get("/static/library.css")
def library_css(request: Request) -> Response:
    """The stylesheet the library's fragments need (shipped in mingshu.library)."""
    if library() is None:
        return Response("", media_type="text/css")
    from mingshu.web.assets import STATIC_CACHE, content_etag

    body = _lib_module("render").css_path().read_bytes()
    headers = {"ETag": content_etag(body), "Cache-Control": STATIC_CACHE}
    if headers["ETag"] in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="text/css", headers=headers)


def _has_summary() -> bool:
    try:
        _lib_module("summary")
    except ImportError:
        return False
    return True


@router.get("/library/{article_id}/card.png")
def share_card(request: Request, article_id: str) -> Response:
    article = _article(article_id)
    if article is None:
        return Response(b"no such article", status_code=404, media_type="text/plain")
    png = _card_png(request.app.state.store, article)
    from mingshu.web.api import cached

    response = cached(request, png, "image/png")
    response.headers["Content-Disposition"] = f'attachment; filename="{article.id}.png"'
    return response


@router.get("/library/{article_id}/summary.webp")
def summary_image(request: Request, article_id: str) -> Response:
    article = _article(article_id)
    if article is None or not _has_summary():
        return Response(b"no such summary", status_code=404, media_type="text/plain")
    summary_webp = _lib_module("summary").summary_webp
    from mingshu.web.api import cached

    return cached(request, summary_webp(article), "image/webp")


@router.post("/library/{article_id}/feedback", response_class=HTMLResponse)
async def feedback(request: Request, article_id: str) -> Response:
    article = _article(article_id)
    if article is None:
        return render("error.html", status=404, title="No such article", message="")
    body = await _body_within(request, MAX_FORM_BYTES)
    if body is None:
        return render(
            "error.html", status=413, title="Too long",
            message=f"A comment may be at most {MAX_COMMENT} characters.",
        )  # fmt: skip
    form = await _replayed(request, body).form(max_files=0, max_fields=10)
    token, helpful, comment = form.get("csrf"), form.get("helpful"), form.get("comment", "")
    # Browsers send a line break as CRLF but count it as one character in maxlength.
    text = comment.replace("\r\n", "\n") if isinstance(comment, str) else ""
    secret: str = request.app.state.secret
    if not same_origin(
        request.headers.get("origin"), request.url.scheme, request.headers.get("host", "")
    ):
        return render(
            "error.html", status=403, title="Form from another site",
            message="This form was not sent from this site's article page.",
        )  # fmt: skip
    if not csrf_ok(
        secret, request.cookies.get(CSRF_COOKIE), token if isinstance(token, str) else None
    ):
        # An expired or missing token (a cleared cookie, a new secret): the page again with
        # a fresh token and the reader's text, to send once more.
        expired = {"form": "The form had expired: check your answer and send it again."}
        return await _article_with_errors(
            request, article, expired, status=403, helpful=helpful, comment=text
        )
    errors: dict[str, str] = {}
    if helpful not in ("yes", "no"):
        errors["helpful"] = "choose yes or no"
    if not isinstance(comment, str) or len(text) > MAX_COMMENT:
        errors["comment"] = f"at most {MAX_COMMENT} characters (this one has {len(text):,})"
    if errors:
        return await _article_with_errors(request, article, errors, helpful=helpful, comment=text)
    store: Store = request.app.state.store
    client = request.client.host if request.client else "unknown"
    answer = FeedbackIn(article.id, str(article.version), helpful == "yes", text.strip(), client)
    try:
        # In a thread: a write waits for the database (a lock, a slow disk, the network to
        # PostgreSQL), and on the event loop it held up every other reader of this worker.
        await run_in_threadpool(store.add_feedback, answer)
    except RateLimited as e:
        return await _article_with_errors(
            request, article, {"helpful": str(e)}, status=429, helpful=helpful, comment=text
        )
    return RedirectResponse(f"/library/{article.id}?thanks=1#feedback", status_code=303)


async def _body_within(request: Request, limit: int) -> bytes | None:
    """The request's body, or ``None`` once it is longer than ``limit`` bytes: judged by
    the bytes that come, so a chunked body (no Content-Length) is read up to the limit and
    no further, and a Content-Length over it is refused unread."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > limit):
        return None
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


def _replayed(request: Request, body: bytes) -> Request:
    """The request with its body already read, for Starlette's form parser."""

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": body, "more_body": False}

    return Request(request.scope, receive)


async def _article_with_errors(
    request: Request,
    article: Any,
    errors: dict[str, str],
    status: int = 422,
    *,
    helpful: Any = None,
    comment: str = "",
) -> Response:
    """The article page answering a refused post: the errors beside their fields, the
    reader's choice and text kept, and a valid token (a fresh one when theirs is not).
    An article that cannot be drawn answers with its error page, as a view of it does."""
    try:
        body = await run_in_threadpool(_body, article)  # a first render takes seconds
    except Exception as e:  # one article's failure is that page's error, not the site's
        return _unrenderable(article, e)
    secret: str = request.app.state.secret
    token = request.cookies.get(CSRF_COOKIE) or ""
    fresh = not (_TOKEN_SAFE(token) and csrf_signed(secret, token))
    if fresh:
        token = new_csrf_token(secret)
    response = render(
        "article.html", status=status, article=article, body=body, slot=FEEDBACK_SLOT,
        csrf=token, thanks=False, errors=errors, max_comment=MAX_COMMENT,
        helpful=helpful if helpful in ("yes", "no") else None, comment=comment,
    )  # fmt: skip
    if fresh:
        response.set_cookie(CSRF_COOKIE, token, httponly=True, samesite="strict", path="/")
    return response


def _article_dict(a: Any) -> dict[str, Any]:
    return {
        "id": a.id,
        "subject": str(a.subject),
        "title": a.title,
        "subtitle": a.subtitle,
        "version": str(a.version),
        "date": str(a.date),
        "read_minutes": a.read_minutes,
        "short_version": a.short_version,
        "url": _link(a.id),
        "card": f"{_link(a.id)}/card.png",
    }


@api_router.get("/articles", summary="Every article of the library (id, title, short version)")
def articles() -> list[dict[str, Any]]:
    lib = library()
    return [] if lib is None else [_article_dict(a) for a in lib.articles]


def _shipped_ids() -> tuple[str, ...]:
    """The ids of the articles the package ships, from their file names (the OpenAPI
    document's examples: schemathesis asks for real articles, and no id is typed here)."""
    from importlib import resources

    folder = resources.files("mingshu.library").joinpath("articles")
    names = (f.name for f in folder.iterdir() if f.name.endswith(".md"))
    return tuple(sorted(n.removesuffix(".md") for n in names if not n.startswith("_")))


_SHIPPED_IDS: Final = _shipped_ids()


@api_router.get(
    "/articles/{article_id}",
    summary="One article's metadata and its HTML",
    responses={
        404: {"description": "no such article"},
        500: {"description": "the article could not be drawn on this server"},
    },
)
def article_json(
    article_id: Annotated[str, Path(max_length=40, examples=list(_SHIPPED_IDS[:2]))],
) -> Response:
    article = _article(article_id)
    if article is None:
        return JSONResponse({"detail": "no such article"}, status_code=404)
    data = _article_dict(article)
    try:
        data["html"] = _body(article).replace(FEEDBACK_SLOT, "")
    except Exception as e:  # as on the article page: this article's error only
        log.error("article %s v%s could not be rendered", article.id, article.version, exc_info=e)
        return JSONResponse({"detail": f"article {article.id} could not be drawn"}, 500)
    return JSONResponse(data)
