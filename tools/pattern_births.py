"""Find births that form each pattern and births that just miss each of its conditions,
and write them to tests/ziwei/pattern_births.toml for tests/ziwei/test_patterns.py to pin.

A pattern's book reading is a list of conditions (patterns.toml); a birth "just misses"
condition i when every other condition holds and condition i does not.  The search walks
every day and hour of one year (the births of a year cover most positions), then, for what
is still missing, random births of 1900-2100 up to a budget.  Gender changes no position the
patterns read, so every birth is a woman's.

    PYTHONPATH=src .venv/bin/python tools/pattern_births.py [--year 1990] [--budget 60000]
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
from mingshu.ziwei.patterns import _DATA, PATTERNS, _compile, _View  # noqa: E402

OUT = ROOT / "tests" / "ziwei" / "pattern_births.toml"


def births_of(year: int) -> list[tuple[dt.date, int]]:
    day, end = dt.date(year, 1, 1), dt.date(year + 1, 1, 1)
    out = []
    while day < end:
        out += [(day, hour) for hour in range(12)]
        day += dt.timedelta(days=1)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--year", type=int, default=1990)
    parser.add_argument("--budget", type=int, default=60_000)
    args = parser.parse_args()
    conditions = {
        row["key"]: [_compile(c, row["key"]) for c in row["when"]]
        for row in _DATA["pattern"]
        if row["layer"] != "limits"
    }
    found: dict[str, dict[str, tuple[dt.date, int]]] = {k: {} for k in conditions}

    def wanted() -> int:
        return sum(len(tests) + 1 - len(found[k]) for k, tests in conditions.items())

    def look(day: dt.date, hour: int) -> None:
        view = _View(by_solar(day, hour, "female"))
        for key, tests in conditions.items():
            held = [t(view) is not None for t in tests]
            misses = [i for i, ok in enumerate(held) if not ok]
            if not misses:
                found[key].setdefault("forms", (day, hour))
            elif len(misses) == 1 and len(tests) > 1:
                found[key].setdefault(f"misses_{misses[0]}", (day, hour))

    for day, hour in births_of(args.year):
        look(day, hour)
    rng = random.Random(23)
    first, last = dt.date(1900, 2, 1).toordinal(), dt.date(2100, 12, 1).toordinal()
    for _ in range(args.budget):
        if not wanted():
            break
        look(dt.date.fromordinal(rng.randint(first, last)), rng.randint(0, 11))

    lines = [
        "# Births (a woman's, date and iztro time index 0..11) that form each pattern of",
        "# patterns.toml under the book's reading (`forms`), and births where every condition",
        "# but the i-th (0-based, in the order of `when`) holds (`misses_i`).  Found by",
        f"# tools/pattern_births.py (every birth of {args.year}, then {args.budget:,} random",
        "# births of 1900-2100); a pattern or miss not found there is absent.",
        "",
    ]
    for key in PATTERNS:
        if key not in found:
            continue
        lines.append(f"[{key}]")
        for name, (day, hour) in sorted(found[key].items()):
            lines.append(f'{name} = ["{day.isoformat()}", {hour}]')
        lines.append("")
    OUT.write_text("\n".join(lines), encoding="utf-8")
    print(f"wrote {OUT}; cases not found: {wanted()}")
    for key in conditions:
        if "forms" not in found[key]:
            print(f"  {key}: no birth forms it")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
