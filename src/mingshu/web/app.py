"""The web application: FastAPI routes for the pages and the JSON API, the store, security
headers and error pages.  :func:`create_app` builds one; ``mingshu serve`` runs it under
uvicorn (docs/web.md)."""

from __future__ import annotations

import asyncio
import gc
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from mingshu import __version__
from mingshu.web import api, pages
from mingshu.web.assets import FONT_CACHE, STATIC_CACHE, Assets
from mingshu.web.lane import ChartLane
from mingshu.web.security import SecurityHeaders
from mingshu.web.store import (
    Store,
    database_url,
    feedback_rate_from_env,
    migrate,
    site_secret,
)
from mingshu.web.warmup import Activity, Tracking, births, pages_from_env, warm_while_idle

__all__ = ["create_app"]


def _wants_json(request: Request) -> bool:
    return request.url.path.startswith("/api/") or request.url.path == "/openapi.json"


def create_app(
    database: str | None = None,
    *,
    run_migrations: bool = True,
    feedback_rate: int | None = None,
    chart_lane: bool = True,
    warm_pages: int = 0,
) -> FastAPI:
    """The site.  ``database``: an SQLAlchemy URL (default ``MINGSHU_DATABASE_URL`` or the
    SQLite file, :func:`~mingshu.web.store.database_url`); ``run_migrations``: apply the
    Alembic migrations first; ``feedback_rate``: feedback posts allowed per client a minute
    (default ``MINGSHU_FEEDBACK_RATE`` or 10); ``chart_lane``: answer the charts' GET
    requests in :class:`~mingshu.web.lane.ChartLane` (False: every one through its FastAPI
    route, as the tests compare them); ``warm_pages``: new charts the worker draws while
    idle after start-up (:mod:`mingshu.web.warmup`), 0 for none."""
    url = database or database_url()
    if run_migrations:
        migrate(url)
    rate = feedback_rate or feedback_rate_from_env()
    secret = site_secret(url)
    store = Store(url, rate=rate, salt=secret)

    activity = Activity()

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        warming = None
        if warm_pages:
            warming = asyncio.create_task(warm_while_idle(activity, births(warm_pages)))
        try:
            yield
        except asyncio.CancelledError:
            # A second Ctrl-C makes uvicorn quit without the lifespan's shutdown, and its
            # event loop then cancels this task at the yield: ending is what was asked.
            # Raised on, Starlette would report a failed shutdown, with a traceback.
            pass
        finally:
            if warming is not None:
                warming.cancel()
            store.dispose()  # the database closed cleanly either way

    app = FastAPI(
        title="mingshu",
        version=__version__,
        description="Zi Wei Dou Shu and BaZi charts, cities and articles as JSON.",
        docs_url=None,  # the Swagger page loads scripts from a CDN: the CSP forbids it
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.store = store
    app.state.secret = secret
    if chart_lane:
        app.add_middleware(ChartLane)
    app.add_middleware(SecurityHeaders)  # around the lane too
    if warm_pages:
        app.add_middleware(Tracking, activity=activity)  # added last: the outer one
    app.include_router(api.router)
    app.include_router(pages.router)
    from mingshu.web import moments

    app.include_router(moments.router)
    app.include_router(moments.api_router)
    from mingshu.web import library_pages

    app.include_router(library_pages.router)
    app.include_router(library_pages.api_router)
    static, fonts = Path(__file__).parent / "static", Path(__file__).parent / "fonts"
    app.mount("/static", Assets(directory=static, cache_control=STATIC_CACHE), name="static")
    # The Noto Sans CJK SC subset (and its licence): the charts' Chinese renders on a
    # machine without CJK fonts (site.css names it in an @font-face).
    app.mount("/fonts", Assets(directory=fonts, cache_control=FONT_CACHE), name="fonts")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if _wants_json(request):
            return JSONResponse(
                {"detail": str(exc.detail)}, status_code=exc.status_code, headers=exc.headers
            )
        title = "Not found" if exc.status_code == 404 else "Error"
        lang = pages.lang_of({"lang": request.query_params.get("lang", "")})
        return pages.render(
            "error.html", status=exc.status_code, lang=lang, title=title, message=str(exc.detail)
        )

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> Response:
        detail = [
            {"loc": list(e.get("loc", ())), "msg": str(e.get("msg", "")), "type": e.get("type")}
            for e in exc.errors()
        ]
        if _wants_json(request):
            return JSONResponse({"detail": detail}, status_code=422)
        message = "; ".join(f"{d['loc'][-1]}: {d['msg']}" for d in detail if d["loc"])
        return pages.render("error.html", status=422, title="Bad input", message=message)

    return app


def warm() -> None:
    """Load the engines' tables and the presenters once, so a worker's first reader does
    not wait for them (a chart of each engine, thirteen pages: about 0.8 s).  The
    articles are not rendered here: some draw tables over every layout or run the iztro
    crosscheck (seconds each), so each renders on its first view and is kept
    (mingshu.web.library_pages), and the site answers within a second or two of launch."""
    from mingshu.web.api import _bazi_bytes, _ziwei_bytes
    from mingshu.web.pages import chart_page_bytes
    from mingshu.web.query import parse_query

    birth = "date=1987-05-16&time=10%3A30&gender=female"
    _ziwei_bytes(parse_query(birth))
    _bazi_bytes(birth)
    chart_page_bytes(parse_query(birth))
    # Then a spread of births, one in each month and double hour, both genders, years over
    # seven decades: the caches of the pieces every chart draws from (star and palace
    # fragments, BaZi cells, words) hold most of what a new birth needs.  Without them a
    # worker's first 25 new pages cost twice its later ones (13.5 ms instead of 6.5 a page
    # and answer, in process), and under load those first pages queued behind each other.
    # About 0.1 s CPU.
    for i in range(12):
        query = (
            f"date={1950 + 6 * i:04d}-{i + 1:02d}-{1 + 2 * i:02d}&time={2 * i:02d}%3A30"
            f"&gender={('female', 'male')[i % 2]}"
        )
        _ziwei_bytes(parse_query(query))
        chart_page_bytes(parse_query(query))
    # What is loaded by now lives as long as the worker: out of the collector's way, so the
    # collections a new chart page sets off walk its own objects, not the 100,000 of the
    # tables and modules (collector time per new page: 1.2 ms before, 0.8 ms after, timed
    # with a gc callback over 300 pages on the loaded machine).
    gc.freeze()
    # The full collection walks every cache entry made since (some 50,000 objects): with
    # the default thresholds it ran every few hundred new pages and stopped the worker for
    # 45-70 ms CPU each time, the requests queued behind it the slowest of the run.  Young
    # collections stay as they are; a full one comes a hundred times less often (every
    # 10,000 young ones).  Over 1,000 new pages and API answers: collector 0.47 ms a page
    # and 3 full collections of up to 69 ms before, 0.26 ms and none after.  The cost: the
    # cyclic garbage that outlives the young collections waits longer (after 3,000 pages a
    # worker had grown 41 MB instead of 37, and a full collection found 17,000 objects to
    # free instead of 4,000).
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, 1000)


def app_from_env() -> FastAPI:
    """The factory uvicorn's workers call (``mingshu.web.app:app_from_env``): settings come
    from the environment; ``mingshu serve`` has already migrated."""
    app = create_app(
        run_migrations=os.environ.get("MINGSHU_MIGRATE", "0") == "1",
        warm_pages=pages_from_env(),
    )
    warm()
    return app
