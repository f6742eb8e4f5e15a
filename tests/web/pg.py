"""A throwaway PostgreSQL cluster for the store tests: initdb + pg_ctl on a free port in a
temporary directory (through ``runuser -u postgres`` when running as root, since initdb
refuses root), removed afterwards."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

BIN_DIRS = sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)


def pg_bin(name: str) -> str | None:
    for d in BIN_DIRS:
        if (d / name).exists():
            return str(d / name)
    return shutil.which(name)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_owner(cmd: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd


@contextlib.contextmanager
def postgres_cluster() -> Iterator[str]:
    """Start a cluster; yield its SQLAlchemy URL (database ``postgres``, trust auth)."""
    initdb, pg_ctl = pg_bin("initdb"), pg_bin("pg_ctl")
    if not initdb or not pg_ctl:
        raise RuntimeError("PostgreSQL server binaries (initdb, pg_ctl) are not installed")
    root = Path(tempfile.mkdtemp(prefix="mingshu-pg-"))
    data = root / "data"
    port = free_port()
    if os.geteuid() == 0:
        shutil.chown(root, "postgres", "postgres")
        root.chmod(0o700)
    try:
        subprocess.run(
            _as_owner([initdb, "-D", str(data), "-A", "trust", "-U", "postgres", "-E", "UTF8"]),
            check=True, capture_output=True, text=True,
        )  # fmt: skip
        opts = (
            f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off"
        )
        subprocess.run(
            _as_owner([pg_ctl, "-D", str(data), "-o", opts, "-l", str(root / "log"), "-w", "start"]),
            check=True, capture_output=True, text=True,
        )  # fmt: skip
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
    finally:
        with contextlib.suppress(Exception):
            subprocess.run(
                _as_owner([pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop"]),
                capture_output=True, timeout=30,
            )  # fmt: skip
        shutil.rmtree(root, ignore_errors=True)
