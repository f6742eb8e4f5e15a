"""``mingshu serve``: the web site on 127.0.0.1 (needs the ``web`` extra).

Example::

    mingshu serve                    # http://127.0.0.1:8000/, SQLite in ~/.local/share/mingshu
    MINGSHU_DATABASE_URL=postgresql://user:pw@host/db mingshu serve --port 8080 --workers 2
"""

from __future__ import annotations

from typing import Annotated

import typer

__all__ = ["register", "serve"]


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)


def serve(
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on.")] = 8000,
    workers: Annotated[
        int, typer.Option("--workers", help="Worker processes (they share the database).")
    ] = 1,
) -> None:
    """Run the web site: chart page, library, JSON API (docs/web.md)."""
    from mingshu.cli._errors import fail
    from mingshu.errors import InputError

    if not 0 < port < 65536:
        fail(InputError("port", f"{port} is not a port number (1..65535)"), [])
    if not 1 <= workers <= 64:
        fail(InputError("workers", f"{workers} is not 1..64"), [])
    try:
        from mingshu.web.server import serve as run
    except ImportError as e:
        fail(
            InputError("serve", f"the web extra is missing ({e.name}): pip install -e '.[web]'"), []
        )
    run(host, port, workers)
