"""What the command line loads at start-up (its speed is measured by bench/bench_cli.py).

`mingshu --help` must not load an engine, Rich, pydantic, pyarrow, duckdb or dask; a chart
command loads its own engine and Rich, but not the other engine, pydantic (Typer 0.29's
coercion; the project pins Typer below it) or markdown-it (Typer's Rich help).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

ENGINES = ("mingshu.ziwei", "mingshu.bazi", "mingshu.calendar", "mingshu.cycles")
HEAVY = ("rich", "pydantic", "markdown_it", "pyarrow", "duckdb", "dask", "distributed")

CODE = """
import json, sys
from mingshu.cli import main
sys.argv = ["mingshu", *json.loads(sys.argv[1])]
try:
    main()
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


def loaded(*args: str) -> set[str]:
    """The top-level names and packages of the modules a `mingshu ARGS` process loaded."""
    run = subprocess.run(
        [sys.executable, "-c", CODE, json.dumps(list(args))],
        capture_output=True,
        text=True,
        check=True,
        env={"COLUMNS": "100", "PATH": ""},
    )
    modules: list[str] = json.loads(run.stderr.strip().splitlines()[-1])
    return {p for m in modules for p in (m, ".".join(m.split(".")[:2]), m.split(".")[0])}


def test_import_loads_no_engine() -> None:
    code = "import json, sys, mingshu.cli; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    names: list[str] = json.loads(out.stdout)
    assert "mingshu.cli.ziwei" in names and "mingshu.cli.bazi" in names  # the commands are there
    assert not {p for m in names for p in (m, m.split(".")[0])} & {*ENGINES, *HEAVY}


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["ziwei", "--help"],
        ["bazi", "--help"],
        ["sweep", "ziwei", "--help"],
        ["query", "--help"],
        ["claims", "--help"],
    ],
)
def test_help_loads_no_engine_and_no_rich(args: list[str]) -> None:
    assert not loaded(*args) & {*ENGINES, *HEAVY}


def test_a_ziwei_chart_loads_its_engine_only() -> None:
    modules = loaded("ziwei", "1987-05-16", "10:30", "-g", "female")
    assert {"mingshu.ziwei", "rich"} <= modules
    assert not modules & {"mingshu.bazi", "pydantic", "markdown_it"}


def test_a_bazi_chart_loads_its_engine_only() -> None:
    modules = loaded("bazi", "1990-05-15", "10:30", "-g", "male")
    assert {"mingshu.bazi", "rich"} <= modules
    assert not modules & {"mingshu.ziwei", "pydantic", "markdown_it"}


def test_an_error_loads_no_pydantic() -> None:
    modules = loaded("ziwei", "1987-05-16", "-g", "f", "--time-index", "five")
    assert not modules & {"pydantic", "rich", "mingshu.ziwei"}
