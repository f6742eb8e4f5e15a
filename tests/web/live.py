"""The site served on 127.0.0.1 in a thread, for the tests that drive a real browser."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serving(folder: Path) -> Iterator[str]:
    """The app over a fresh SQLite database in FOLDER; yields its base URL."""
    import uvicorn

    from mingshu.web import create_app

    port = _free_port()
    app = create_app(f"sqlite:///{folder / 'web.sqlite3'}")
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        for _ in range(400):
            if server.started:
                break
            time.sleep(0.05)
        assert server.started, "the server did not start"
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
