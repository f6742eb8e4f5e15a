"""Zi Wei speed as CPU instructions per chart (valgrind's callgrind), steady on a busy machine.

    .venv/bin/python bench/instructions_ziwei.py [--cases 400]

Wall-clock figures (bench_ziwei.py) swing with other load on a shared machine; instruction
counts do not, so compare versions with these.  Each figure is the difference between two
runs of this script under ``valgrind --tool=callgrind`` that do the same set-up (imports,
--cases random births, every chart drawn and exported once so that the caches are warm) and
differ only in the step measured, divided by --cases:

* chart: ``from_birth`` again for every birth;
* export: ``to_json`` of every chart already drawn (export and serialisation);
* chart + JSON bytes: both, as ``bench_ziwei.py``'s "natal + JSON bytes" does;
* the same without patterns: ``chart.patterns()`` answering none (``"patterns": []``);
* patterns: ``chart.patterns()`` of every chart already drawn (the export's share of it);
* patterns, new births: the same for --cases other births, drawn in the set-up but never
  asked for their patterns (the detector's caches warm from the first births, not these).

Last, what patterns add to the chart and its JSON (issue 23's goal: at most 20%).

Needs valgrind on the PATH; takes about a minute.
"""

from __future__ import annotations

import argparse
import random
import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

STEPS = (
    "chart",
    "export",
    "chart + JSON bytes",
    "without patterns",
    "patterns",
    "patterns, new births",
)


def run_step(step: str, cases: int) -> None:
    """The measured run (under valgrind): set-up, then ``step`` ("" for the set-up alone)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_ziwei import births
    from mingshu.present import to_json
    from mingshu.ziwei import from_birth

    people = births(cases, random.Random(1))
    charts = [from_birth(b) for b in people]
    others = [from_birth(b) for b in births(cases, random.Random(2))]
    for c in charts:
        to_json(c)
    if step == "chart":
        for b in people:
            from_birth(b)
    elif step == "export":
        for c in charts:
            to_json(c)
    elif step == "chart + JSON bytes":
        for b in people:
            to_json(from_birth(b))
    elif step == "without patterns":
        from mingshu.ziwei.chart import NatalChart

        NatalChart.patterns = lambda self, variant="book": ()  # type: ignore[method-assign]
        for b in people:
            to_json(from_birth(b))
    elif step == "patterns":
        for c in charts:
            c.patterns()
    elif step == "patterns, new births":
        for c in others:
            c.patterns()


def instructions(step: str, cases: int) -> int:
    out = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            __file__,
            "--run",
            step,
            "--cases",
            str(cases),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    found = re.search(r"Collected : (\d+)", out.stderr)
    if found is None:
        raise RuntimeError(f"no instruction count in valgrind's output:\n{out.stderr[-2000:]}")
    return int(found.group(1))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", type=int, default=400)
    parser.add_argument("--run", help=argparse.SUPPRESS)  # the child under valgrind
    args = parser.parse_args(argv)
    if args.run is not None:
        run_step("" if args.run == "setup" else args.run, args.cases)
        return
    base = instructions("setup", args.cases)
    print(f"mingshu Zi Wei instructions per chart (callgrind, {args.cases} cases, warm caches)")
    counts = {}
    for step in STEPS:
        counts[step] = count = (instructions(step, args.cases) - base) / args.cases
        print(f"{step + ':':22s} {count:>10,.0f}")
    with_, without = counts["chart + JSON bytes"], counts["without patterns"]
    print(f"patterns add {100 * (with_ - without) / without:.0f}% to the chart + JSON bytes")


if __name__ == "__main__":
    main()
