"""Run code under x-iztro's own interpreter, one JSON value a line each way (dev only).

x-iztro 0.6.1 is never a dependency of mingshu: the comparison tools install it in a
virtualenv outside the repository (``python3 -m venv /tmp/xiz && /tmp/xiz/bin/pip install
x-iztro==0.6.1``) and send it their inputs through a child process.  The child reads one JSON
value a line on stdin and prints one a line on stdout, in order.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterable
from pathlib import Path
from typing import Any


def run_child(venv: Path, child: str, rows: Iterable[Any]) -> list[Any]:
    """``child``'s answers, in order, for each row (sent as one JSON line)."""
    python = venv / "bin" / "python"
    if not python.exists():
        raise SystemExit(
            f"no x-iztro interpreter at {python}: python3 -m venv {venv} && "
            f"{venv}/bin/pip install x-iztro==0.6.1"
        )
    lines = "".join(json.dumps(row) + "\n" for row in rows)
    done = subprocess.run(
        [str(python), "-c", child], input=lines, capture_output=True, text=True, check=True
    )
    return [json.loads(line) for line in done.stdout.splitlines()]
