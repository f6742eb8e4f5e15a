"""Compare our limits patterns (风云际会, 禄衰马困) with x-iztro 0.6.1's on random horoscopes.

x-iztro is never a dependency: it runs from its own virtualenv (tools/xiztro_child.py),
in a child process that reads births and moments and writes what its
``Horoscope.patterns(scope)`` reports for the decade and the year.  For each pattern and limit
the tool counts the horoscopes where each side finds it, under each of our readings, and
with ``--write`` puts the table into docs/patterns.md between the ``xiztro-limits`` markers.

    PYTHONPATH=src .venv/bin/python tools/xiztro_limit_patterns.py --venv /tmp/xiz --write
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
from mingshu.ziwei.limit_patterns import LIMIT_READINGS, detect  # noqa: E402
from mingshu.ziwei.patterns import PATTERNS  # noqa: E402
from xiztro_child import run_child  # noqa: E402

DOC = ROOT / "docs" / "patterns.md"

# The child, run by x-iztro's interpreter: one JSON (birth, moment) a line in, for each of
# the decade and the year the (key, variant) pairs of the limits patterns it reports.
CHILD = """
import json, sys
from x_iztro import Astro
astro = Astro()
for line in sys.stdin:
    day, hour, gender, at = json.loads(line)
    h = astro.by_solar(day, hour, gender).horoscope(at)
    out = {}
    for scope in ("decadal", "yearly"):
        out[scope] = sorted({(p.key, p.variant or "") for p in h.patterns(scope)
                             if p.key in ("feng_yun_ji_hui", "lu_shuai_ma_kun")})
    print(json.dumps(out), flush=True)
"""


def people(count: int, seed: int) -> list[tuple[dt.date, int, str, dt.date]]:
    """Random births 1900-2080 and a moment 1-80 years later (the 15th of a month)."""
    rng = random.Random(seed)
    first, last = dt.date(1900, 2, 1).toordinal(), dt.date(2080, 1, 1).toordinal()
    out = []
    for _ in range(count):
        day = dt.date.fromordinal(rng.randint(first, last))
        hour, gender = rng.randint(0, 11), rng.choice(["male", "female"])
        at = dt.date(day.year + rng.randint(1, 80), rng.randint(1, 12), 15)
        out.append((day, hour, gender, at))
    return out


def xiztro(
    venv: Path, rows: list[tuple[dt.date, int, str, dt.date]]
) -> list[dict[str, set[tuple[str, str]]]]:
    sent = (
        [f"{d.year}-{d.month}-{d.day}", h, g, f"{a.year}-{a.month}-{a.day}"] for d, h, g, a in rows
    )
    return [
        {scope: {(k, v) for k, v in hits} for scope, hits in answer.items()}
        for answer in run_child(venv, CHILD, sent)
    ]


# What we compare: (our pattern, our reading, our scope that carries it), x-iztro's scope and
# the readings of its own that count ("" is its default).  x-iztro reports one reading a
# horoscope, the narrowest that holds: 风云际会 formed in the limits' palaces themselves comes
# as `same_palace`, not as the default, so a reading of ours is compared with the union.
PAIRS = [
    ("feng_yun_ji_hui", "book", "decadal", "decadal", ("", "same_palace")),
    ("feng_yun_ji_hui", "x_iztro", "decadal", "decadal", ("", "same_palace")),
    ("feng_yun_ji_hui", "yearly", "decadal", "decadal", ("yearly", "yearly_same_palace")),
    ("lu_shuai_ma_kun", "book", "decadal", "decadal", ("", "qisha")),
    ("lu_shuai_ma_kun", "book", "decadal", "decadal", ("qisha",)),
    ("lu_shuai_ma_kun", "either_void", "decadal", "decadal", ("qisha",)),
    ("lu_shuai_ma_kun", "book", "yearly", "yearly", ("", "qisha")),
    ("lu_shuai_ma_kun", "book", "yearly", "yearly", ("qisha",)),
    ("lu_shuai_ma_kun", "either_void", "yearly", "yearly", ("qisha",)),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--venv", type=Path, default=Path("/tmp/xiz"))
    parser.add_argument("--horoscopes", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--write", action="store_true", help="update docs/patterns.md")
    args = parser.parse_args()
    rows = people(args.horoscopes, args.seed)
    theirs = xiztro(args.venv, rows)
    ours: list[dict[str, set[tuple[str, str]]]] = []
    for day, hour, gender, at in rows:
        h = by_solar(day, hour, gender).horoscope(at)
        found: dict[str, set[tuple[str, str]]] = {}
        for variant in ("book", "x_iztro", "yearly", "either_void"):
            for hit in detect(h, variant):
                # a 二限 hit is carried by its first limit, the decade (as x-iztro's is)
                found.setdefault(hit.scopes[0].value, set()).add((hit.key, variant))
        ours.append(found)
    table = [
        f"Horoscopes: {args.horoscopes:,} random births 1900-2080, each read at a moment 1-80 "
        f"years later (seed {args.seed}), x-iztro 0.6.1 `Horoscope.patterns(scope)` with its "
        "default PatternConfig.  Columns: horoscopes x-iztro reports at that scope under "
        "those readings; horoscopes our reading reports (and both).",
        "",
        "| pattern | our reading | limit | x-iztro (reading) | x-iztro | ours (both) |",
        "|---|---|---|---|---|---|",
    ]
    for key, mine, scope, their_scope, their_variants in PAIRS:
        x = o = both = 0
        for found, their in zip(ours, theirs, strict=True):
            a = (key, mine) in found.get(scope, set())
            b = any((key, v) in their.get(their_scope, set()) for v in their_variants)
            x += b
            o += a
            both += a and b
        p = PATTERNS[key]
        reading = " or ".join(v or "default" for v in their_variants)
        table.append(
            f"| {p.names.hans} `{key}` | `{mine}` | {scope} | {their_scope} ({reading}) "
            f"| {x} | {o} ({both}) |"
        )
    assert set(LIMIT_READINGS) == {k for k, *_ in PAIRS}
    text = "\n".join(table)
    print(text)
    if args.write:
        write_section(DOC, "xiztro-limits", text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
