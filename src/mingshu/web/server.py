"""``mingshu serve``: migrate the database, then run the site under uvicorn (uvloop +
httptools) with one or more worker processes."""

from __future__ import annotations

import os

__all__ = ["serve", "shown_url"]


def serve(host: str = "127.0.0.1", port: int = 8000, workers: int = 1) -> None:
    """Apply the migrations once, print the URL, and serve until interrupted."""
    import uvicorn

    from mingshu.web.store import database_url, migrate

    url = database_url()
    migrate(url)
    os.environ["MINGSHU_DATABASE_URL"] = url  # the workers read the same database
    os.environ["MINGSHU_MIGRATE"] = "0"
    print(f"mingshu is serving on {shown_url(host, port)}  (database: {_safe(url)})", flush=True)
    uvicorn.run(
        "mingshu.web.app:app_from_env",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        loop="uvloop",
        http="httptools",
        log_level="warning",
        access_log=False,
        server_header=False,
    )


def shown_url(host: str, port: int) -> str:
    """The URL to open for a server on ``host``: every interface as 127.0.0.1, an IPv6
    address in brackets."""
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
    return f"http://[{shown}]:{port}/" if ":" in shown else f"http://{shown}:{port}/"


def _safe(url: str) -> str:
    """The database URL without its password."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        creds, host = rest.rsplit("@", 1)
        user = creds.split(":", 1)[0]
        return f"{scheme}://{user}:***@{host}"
    return url
