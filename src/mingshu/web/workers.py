"""uvicorn's worker supervisor for ``mingshu serve --workers N``: it remembers the signal
that ended it, and on Linux gives each worker a listening socket of its own (see
:func:`mingshu.web.server.listening_sockets`) and a slot in the connection counts that keep
their shares even (:mod:`mingshu.web.balance`)."""

from __future__ import annotations

import logging
import os
import shutil
import signal
import tempfile
from typing import TYPE_CHECKING

from uvicorn.supervisors.multiprocess import Multiprocess, Process

from mingshu.web.balance import COUNTS_FILE, SLOT, prepare

if TYPE_CHECKING:
    import socket
    from collections.abc import Callable

    import uvicorn

__all__ = ["OwnSockets", "Supervisor"]


class Supervisor(Multiprocess):
    """uvicorn's supervisor, noting the signal that told it to stop (``ended_by``), so that
    ``mingshu serve`` can end by that signal as a one-process server does: exit 130 after
    Ctrl-C, killed by SIGTERM after SIGTERM (uvicorn's own supervisor returns, exit 0)."""

    ended_by: signal.Signals | None = None

    def handle_int(self) -> None:
        self.ended_by = self.ended_by or signal.SIGINT
        super().handle_int()

    def handle_term(self) -> None:
        self.ended_by = self.ended_by or signal.SIGTERM
        super().handle_term()


class OwnSockets(Supervisor):
    """Worker i, and any worker that replaces it, accepts from socket i only.

    This process keeps every socket open, so a dead worker's socket still listens:
    connections the kernel hashes to it wait in its backlog (never refused) until uvicorn's
    check, every half second, starts a replacement, which serves them once it has loaded the
    app (about a second).  uvicorn's own checks, restarts and messages run one worker at a
    time, each seeing only its own socket."""

    def __init__(self, config: uvicorn.Config, sockets: list[socket.socket]) -> None:
        super().__init__(config, sockets)
        self.own = sockets

    def run(self) -> None:
        # The workers' connection counts (mingshu.web.balance): the workers are spawned,
        # so they find the file, and each its slot, in the environment they start with.
        folder = tempfile.mkdtemp(prefix="mingshu-serve-")
        try:
            counts = os.path.join(folder, "connections")
            prepare(counts, len(self.own))
            os.environ[COUNTS_FILE] = counts
            super().run()
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def init_processes(self) -> None:
        for i, sock in enumerate(self.own):
            os.environ[SLOT] = str(i)
            process = Process(self.config, [sock])
            process.start()
            self.processes.append(process)

    def keep_subprocess_alive(self) -> None:
        for i in range(len(self.own)):
            self._as_worker(i, super().keep_subprocess_alive)

    def restart_all(self) -> None:  # SIGHUP
        for i in range(len(self.own)):
            old = self.processes[i]
            self._as_worker(i, super().restart_all)
            if self.processes[i] is old:
                return  # exiting, or the new worker was not ready in time (uvicorn said so)

    def handle_ttin(self) -> None:
        # one worker more or less would leave a socket without a worker or a worker without one
        logging.getLogger("uvicorn.error").info("mingshu serve keeps its number of workers")

    handle_ttou = handle_ttin

    def _as_worker(self, i: int, step: Callable[[], None]) -> None:
        """``step`` as if worker i, with socket i, were the only one."""
        everyone = self.processes
        self.sockets, self.processes = [self.own[i]], everyone[i : i + 1]
        os.environ[SLOT] = str(i)  # a replacement takes its predecessor's slot
        try:
            step()
            everyone[i] = self.processes[0]
        finally:
            self.sockets, self.processes = self.own, everyone
