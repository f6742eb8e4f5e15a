"""Compare our patterns with x-iztro 0.6.1's on random natal charts (dev only).

x-iztro is never a dependency: it runs from its own virtualenv, outside the repository
(tools/xiztro_child.py), in a child process that reads births and writes the keys it
detects.  For every pattern both detect
(patterns.toml's ``xiztro``), the tool counts the charts where each side finds it, under our
book reading and under our ``x_iztro`` variant, and with ``--write`` puts the table into
docs/patterns.md between the ``xiztro`` markers, each row with the verse that decides it.

    PYTHONPATH=src .venv/bin/python tools/xiztro_patterns.py --venv /tmp/xiz --write
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tools"))

from doc_section import write_section  # noqa: E402
from mingshu.ziwei import by_solar  # noqa: E402
from mingshu.ziwei.patterns import PATTERNS, detect  # noqa: E402
from xiztro_child import run_child  # noqa: E402

DOC = ROOT / "docs" / "patterns.md"

# The child, run by x-iztro's interpreter: one JSON birth a line in, its hits a line out.
CHILD = """
import json, sys
from x_iztro import Astro
astro = Astro()
for line in sys.stdin:
    day, hour, gender = json.loads(line)
    hits = astro.by_solar(day, hour, gender).patterns()
    print(json.dumps([[h.key, h.broken] for h in hits]), flush=True)
"""


def births(count: int, seed: int) -> list[tuple[dt.date, int, str]]:
    rng = random.Random(seed)
    first, last = dt.date(1900, 2, 1).toordinal(), dt.date(2100, 12, 1).toordinal()
    return [
        (
            dt.date.fromordinal(rng.randint(first, last)),
            rng.randint(0, 11),
            rng.choice(["male", "female"]),
        )
        for _ in range(count)
    ]


def xiztro_hits(venv: Path, people: list[tuple[dt.date, int, str]]) -> list[dict[str, bool]]:
    rows = ([f"{d.year}-{d.month}-{d.day}", h, g] for d, h, g in people)
    return [{k: broken for k, broken in hits} for hits in run_child(venv, CHILD, rows)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--venv", type=Path, default=Path("/tmp/xiz"))
    parser.add_argument("--charts", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--write", action="store_true", help="update docs/patterns.md")
    args = parser.parse_args()
    people = births(args.charts, args.seed)
    theirs = xiztro_hits(args.venv, people)
    shared = [p for p in PATTERNS.values() if p.xiztro]
    ours = []
    for day, hour, gender in people:
        chart = by_solar(day, hour, gender)
        ours.append(({h.key for h in detect(chart)}, {h.key for h in detect(chart, "x_iztro")}))
    rows = []
    for p in shared:
        x = ours_book = ours_x = both_book = both_x = broken = 0
        for (book_keys, x_keys), their in zip(ours, theirs, strict=True):
            book, variant, mine = p.key in book_keys, p.key in x_keys, p.xiztro in their
            x += mine
            broken += bool(their.get(p.xiztro))
            ours_book += book
            ours_x += variant
            both_book += book and mine
            both_x += variant and mine
        rows.append((p, x, broken, ours_book, both_book, ours_x, both_x))
    table = [
        f"Natal charts: {args.charts:,} random births 1900-2100 (seed {args.seed}), "
        "x-iztro 0.6.1 with its default PatternConfig.  Columns: charts x-iztro reports "
        "(of them 破格-flagged); charts our book reading reports (and both); charts our "
        "`x_iztro` variant reports (and both).  A pattern with no variant reads the book "
        "in both columns.",
        "",
        "| pattern | x-iztro key | x-iztro (broken) | book (both) | x_iztro variant (both) "
        "| deciding verse |",
        "|---|---|---|---|---|---|",
    ]
    for p, x, broken, ob, bb, ox, bx in rows:
        verse = f"「{p.verse}」 {p.verse_at}"
        table.append(
            f"| {p.names.hans} `{p.key}` | `{p.xiztro}` | {x} ({broken}) | {ob} ({bb}) "
            f"| {ox} ({bx}) | {verse} |"
        )
    text = "\n".join(table)
    print(text)
    if args.write:
        write_section(DOC, "xiztro", text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
