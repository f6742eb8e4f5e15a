"""Check the oracle: regenerate every reference file from its own inputs and compare.

    python tools/iztro-oracle/verify.py [FILE.jsonl.gz ...]

With no arguments, checks every ``*.jsonl.gz`` in tests/fixtures/iztro-2.6.0/.  For each file
it feeds the ``input`` of every line through ``node generate.mjs`` and counts the records that
come back identical (same JSON value; "bytes" also counts lines identical byte for byte) and
different, printing the first differences.  Exit status 1 if any record differs.
Needs ``npm ci`` to have been run in tools/iztro-oracle/.  Standard library only.
"""

from __future__ import annotations

import argparse
import gzip
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
FIXTURES = HERE.parent.parent / "tests" / "fixtures" / "iztro-2.6.0"


def first_difference(expected: Any, got: Any, path: str = "") -> str:
    """Return the path of the first place where two JSON values differ."""
    if type(expected) is not type(got):
        return f"{path or '<root>'}: {expected!r} != {got!r}"
    if isinstance(expected, dict):
        for key in expected.keys() | got.keys():
            if expected.get(key, ...) != got.get(key, ...):
                return first_difference(expected.get(key), got.get(key), f"{path}.{key}")
        return f"{path}: key order differs"
    if isinstance(expected, list) and len(expected) == len(got):
        for i, (e, g) in enumerate(zip(expected, got, strict=True)):
            if e != g:
                return first_difference(e, g, f"{path}[{i}]")
    return f"{path or '<root>'}: {expected!r} != {got!r}"


def verify(path: Path, node: str, show: int) -> tuple[int, int, int]:
    """Regenerate one file; return (records, identical values, identical bytes)."""
    with gzip.open(path, "rt", encoding="utf-8") as f:
        expected_lines = [line.rstrip("\n") for line in f if line.strip()]
    inputs = "".join(
        json.dumps(json.loads(line)["input"], ensure_ascii=False, separators=(",", ":")) + "\n"
        for line in expected_lines
    )
    proc = subprocess.run(
        [node, str(HERE / "generate.mjs")],
        input=inputs,
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=True,
    )
    got_lines = proc.stdout.splitlines()
    if len(got_lines) != len(expected_lines):
        print(f"  {path.name}: {len(expected_lines)} records expected, {len(got_lines)} generated")
    same_value = same_bytes = shown = 0
    for i, (want, got) in enumerate(zip(expected_lines, got_lines, strict=False), start=1):
        if want == got:
            same_bytes += 1
        want_obj, got_obj = json.loads(want), json.loads(got)
        if want_obj == got_obj:
            same_value += 1
        elif shown < show:
            shown += 1
            print(f"  line {i}: {first_difference(want_obj, got_obj)}")
    return len(expected_lines), same_value, same_bytes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path, help="reference .jsonl.gz files")
    parser.add_argument("--node", default="node", help="node executable (default: node)")
    parser.add_argument("--show", type=int, default=5, help="differences to print per file")
    args = parser.parse_args()
    files = args.files or sorted(FIXTURES.glob("*.jsonl.gz"))
    if not files:
        print(f"no reference files found in {FIXTURES}", file=sys.stderr)
        return 2
    all_ok = True
    for path in files:
        total, same_value, same_bytes = verify(path, args.node, args.show)
        different = total - same_value
        all_ok = all_ok and different == 0
        print(
            f"{path.name}: {total} records, {same_value} identical "
            f"({same_bytes} byte for byte), {different} different"
        )
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
