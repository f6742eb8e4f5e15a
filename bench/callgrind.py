"""Instructions a Python run executes, counted by valgrind's callgrind (steady under load).

The instruction benches (instructions_*.py) run themselves again under valgrind with
``--run STEP`` and take differences of these counts.  Each run hashes strings with one
seed (``PYTHONHASHSEED``, 0 unless set): with a random seed, dict and set layouts differ
from run to run and moved a step's count by about ±10k instructions a chart.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys


def instructions(script: str, *args: str) -> int:
    """Instructions of ``python script args…`` under ``valgrind --tool=callgrind``."""
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
         script, *args],
        capture_output=True, text=True, check=True,
        env={"PYTHONHASHSEED": "0", **os.environ},
    )  # fmt: skip
    found = re.search(r"Collected : (\d+)", out.stderr)
    if found is None:
        raise RuntimeError(f"no instruction count in valgrind's output:\n{out.stderr[-2000:]}")
    return int(found.group(1))
