"""Find horoscopes that form each limits pattern and horoscopes that just miss each of its
conditions, and write them to tests/ziwei/limit_pattern_births.toml for
tests/ziwei/test_limit_patterns.py to pin.

A limits pattern's book reading (patterns.toml's [[pattern.limit]]) is a list of conditions
read on one or more limits (大限, 小限, 流年).  A horoscope "just misses" condition i on limit
s when every other condition holds on every limit the reading needs, and condition i does
not hold on s.  The search draws random births of 1900-2080 and a moment 1-80 years later.

    PYTHONPATH=src .venv/bin/python tools/limit_pattern_births.py [--budget 20000]
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from mingshu.ziwei import by_solar  # noqa: E402
from mingshu.ziwei.horoscope import Scope  # noqa: E402
from mingshu.ziwei.limit_patterns import (  # noqa: E402
    LIMIT_READINGS,
    _compile,
    _LimitView,
    _Natal,
)

OUT = ROOT / "tests" / "ziwei" / "limit_pattern_births.toml"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--budget", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=23)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    first, last = dt.date(1900, 2, 1).toordinal(), dt.date(2080, 1, 1).toordinal()
    tests = {key: [_compile(c, key) for c in r["book"].when] for key, r in LIMIT_READINGS.items()}
    # wanted: (pattern, "forms" | condition index, scope) -> the case found
    wanted: dict[tuple[str, str, str], tuple[str, int, str, str]] = {}
    needed = set()
    for key, readings in LIMIT_READINGS.items():
        book = readings["book"]
        forms = [s.value for s in book.scopes] if not book.together else [book.scopes[0].value]
        needed |= {(key, "forms", s) for s in forms}
        needed |= {(key, str(i), s.value) for i in range(len(book.when)) for s in book.scopes}
    for _ in range(args.budget):
        if needed <= set(wanted):
            break
        day = dt.date.fromordinal(rng.randint(first, last))
        hour, gender = rng.randint(0, 11), rng.choice(["male", "female"])
        at = dt.date(day.year + rng.randint(1, 80), rng.randint(1, 12), 15)
        h = by_solar(day, hour, gender).horoscope(at)
        natal = _Natal(h)
        views = {layer.scope: _LimitView(natal, layer, h.decadal) for layer in h.layers}
        case = (day.isoformat(), hour, gender, at.isoformat())
        for key, readings in LIMIT_READINGS.items():
            book = readings["book"]
            held = {s: [test(views[s]) is not None for test in tests[key]] for s in book.scopes}
            groups = [list(book.scopes)] if book.together else [[s] for s in book.scopes]
            for group in groups:
                fails = [(s, i) for s in group for i, ok in enumerate(held[s]) if not ok]
                if not fails:
                    wanted.setdefault((key, "forms", group[0].value), case)
                elif len(fails) == 1:
                    s, i = fails[0]
                    wanted.setdefault((key, str(i), Scope(s).value), case)
    lines = [
        "# Written by tools/limit_pattern_births.py: horoscopes that form each limits pattern",
        "# (book reading) and horoscopes that just miss one condition on one limit.  Each row:",
        "# pattern, what (forms, or the index of the condition missed), limit, birth date,",
        "# hour index, gender, moment.",
        "",
    ]
    for (key, what, scope), (day_, hour_, gender_, at_) in sorted(wanted.items()):
        lines += [
            "[[case]]",
            f'pattern = "{key}"',
            f'what = "{what}"',
            f'limit = "{scope}"',
            f'birth = "{day_}"',
            f"hour = {hour_}",
            f'gender = "{gender_}"',
            f'at = "{at_}"',
            "",
        ]
    OUT.write_text("\n".join(lines), encoding="utf-8")
    missing = sorted(needed - set(wanted))
    print(f"{len(wanted)} cases written to {OUT}; not found: {missing}")
    return 0 if not missing else 1


if __name__ == "__main__":
    raise SystemExit(main())
