"""``mingshu serve``: migrate the database, then run the site under uvicorn (uvloop +
httptools) with one or more worker processes."""

from __future__ import annotations

import logging
import os
import signal
import socket
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from types import FrameType

    import uvicorn

__all__ = ["serve", "shown_url", "uvicorn_config"]


def uvicorn_config(
    host: str = "127.0.0.1", port: int = 8000, workers: int = 1, forwarded_allow_ips: str = ""
) -> uvicorn.Config:
    """The server's uvicorn settings.  ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are read
    only from the addresses in ``forwarded_allow_ips`` (comma-separated addresses or
    networks, ``*`` for any); empty, the default, trusts no proxy, so the client address the
    feedback rate limit counts is the connection's own.  (uvicorn's own default trusts
    127.0.0.1 or ``$FORWARDED_ALLOW_IPS``: any local process could then name any client.)"""
    import uvicorn

    return uvicorn.Config(
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
        proxy_headers=bool(forwarded_allow_ips),
        forwarded_allow_ips=forwarded_allow_ips or [],
    )


def serve(
    host: str = "127.0.0.1", port: int = 8000, workers: int = 1, forwarded_allow_ips: str = ""
) -> None:
    """Apply the migrations once, listen, print the URL, and serve until interrupted.

    The socket listens before the URL is printed and before the workers load the app, so a
    reader who follows the URL at once waits in the backlog for the first answer instead of
    being refused.  A SIGTERM or Ctrl-C while a worker loads is acted on when that load ends
    (about a second: nothing slow is done at start-up, articles render on first view)."""
    import uvicorn

    from mingshu.web.store import database_url, migrate, site_secret

    url = database_url()
    migrate(url)
    site_secret(url)  # made once here, before the workers read it
    os.environ["MINGSHU_DATABASE_URL"] = url  # the workers read the same database
    os.environ["MINGSHU_MIGRATE"] = "0"
    config = uvicorn_config(host, port, workers, forwarded_allow_ips)
    sockets = listening_sockets(config)  # uvicorn listens only once a worker has loaded the app
    print(f"mingshu is serving on {shown_url(host, port)}  (database: {_safe(url)})", flush=True)
    if workers > 1:
        _run_supervised(config, sockets)
    else:
        _run_one(uvicorn.Server(config), sockets)


def _run_supervised(config: uvicorn.Config, sockets: list[socket.socket]) -> None:
    """Run the workers under uvicorn's supervisor (one socket each where there are several),
    then end by the signal that stopped it, as :func:`_run_one` does."""
    from mingshu.web.balance import BalancedHttpTools
    from mingshu.web.workers import OwnSockets, Supervisor

    if len(sockets) > 1:
        config.http = BalancedHttpTools  # each worker keeps its share of the connections
    originals = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    supervisor = OwnSockets(config, sockets) if len(sockets) > 1 else Supervisor(config, sockets)
    try:
        supervisor.run()  # its handlers, set when it is made, queue the signals it acts on
    finally:
        for sig, handler in originals.items():
            signal.signal(sig, handler)
    if supervisor.ended_by is not None:
        signal.raise_signal(supervisor.ended_by)


def _run_one(server: uvicorn.Server, sockets: list[socket.socket]) -> None:
    """Run a one-process server with its exit handler on SIGINT and SIGTERM from before
    the event loop starts.  Otherwise asyncio's runner takes a SIGINT that comes before
    uvicorn installs its handler by cancelling the main task, which uvicorn's start-up
    could swallow: the server then served on, the Ctrl-C lost (seen once in some 16 tries
    with a SIGINT 1 ms after the URL).  Afterwards each signal acts as it would have
    (SIGINT raises KeyboardInterrupt, exit 130; SIGTERM ends the process)."""
    got: list[int] = []

    def on_signal(sig: int, frame: FrameType | None) -> None:
        got.append(sig)
        server.handle_exit(sig, frame)

    originals = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        server.run(sockets=sockets)
    finally:
        for sig, handler in originals.items():
            signal.signal(sig, handler)
    for again in dict.fromkeys(reversed(got)):  # uvicorn re-raised its own into on_signal
        signal.raise_signal(again)


def listening_sockets(config: uvicorn.Config) -> list[socket.socket]:
    """The server's listening sockets: on Linux, one per worker, joined by SO_REUSEPORT so
    the kernel spreads new connections over the workers by a hash of their addresses;
    elsewhere, or with one worker, one socket every worker accepts from.

    A shared socket is taken from by whichever worker polls first: a client that keeps its
    connections (a proxy, wrk) was seen to put 46 of 50 on one worker while the other idled.
    Only Linux balances SO_REUSEPORT (macOS gives every connection to the last socket bound).
    The port is first bound without it, with uvicorn's message and exit when it is taken,
    and a plain bind fails beside a listening group, so a second ``mingshu serve`` on the
    port is refused rather than joined (a process of the same user that asks for
    SO_REUSEPORT can still join: the kernel allows that only to the same user)."""
    shared = config.bind_socket()  # exits with uvicorn's message when the port is taken
    if config.workers > 1 and sys.platform == "linux" and hasattr(socket, "SO_REUSEPORT"):
        own: list[socket.socket] = []
        try:
            for _ in range(config.workers):
                own.append(socket.socket(shared.family, socket.SOCK_STREAM, socket.IPPROTO_TCP))
                own[-1].setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                own[-1].setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
                own[-1].bind(shared.getsockname())  # the port bound above, also when asked for 0
                own[-1].listen(config.backlog)
                own[-1].set_inheritable(True)
        except OSError as e:  # SO_REUSEPORT refused: one shared socket, as uvicorn does
            logging.getLogger("uvicorn.error").info("one socket for every worker: %s", e)
            for sock in own:
                sock.close()
        else:
            shared.close()
            return own
    shared.listen(config.backlog)
    return [shared]


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
