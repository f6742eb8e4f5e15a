"""How common each pattern (格局) is over a swept space, from its ``patterns`` columns.

Reads a dataset written by ``mingshu sweep ziwei`` (the whole 1900-2100 space for the figures
of docs/patterns.md) and prints, for every natal pattern of patterns.toml, the charts that
form it, those a 破格 rule breaks, and "1 chart in N"; with ``--write`` the table goes into
docs/patterns.md between the ``counts`` markers and the counts into the package's
``ziwei/data/pattern_counts.json`` (what the chart page prints as "1 chart in N").  The
numbers come from the record, never typed; tests/space/test_pattern_counts.py (space tier)
counts them again over a fresh sweep.

    mingshu sweep ziwei --from 1900 --to 2100 --out /tmp/space
    PYTHONPATH=src .venv/bin/python tools/pattern_counts.py /tmp/space --write
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tools"))

from doc_section import write_section  # noqa: E402
from mingshu import space  # noqa: E402
from mingshu.files import replacing  # noqa: E402
from mingshu.space.sql import dataset_metadata  # noqa: E402
from mingshu.ziwei.patterns import GROUPS, PATTERNS  # noqa: E402

DOC = ROOT / "docs" / "patterns.md"
DATA = ROOT / "src" / "mingshu" / "ziwei" / "data" / "pattern_counts.json"


def counts(dataset: Path, column: str) -> dict[int, int]:
    _, rows = space.query(
        dataset,
        f"SELECT p, count(*) FROM (SELECT unnest({column}) AS p FROM charts) GROUP BY p",
        limit=None,
    )
    return {int(p): int(n) for p, n in rows}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dataset", type=Path)
    parser.add_argument("--write", action="store_true", help="update docs/patterns.md")
    args = parser.parse_args()
    _, meta = dataset_metadata(args.dataset)
    names = {int(i): n["key"] for i, n in meta["patterns"].items()}
    _, total_rows = space.query(args.dataset, "SELECT count(*) FROM charts")
    total = int(total_rows[0][0])
    formed, broken = counts(args.dataset, "patterns"), counts(args.dataset, "patterns_broken")
    settings = meta["settings"]
    lines = [
        f"Charts of {meta['first_year']}-{meta['last_year']}: {total:,} rows (each birth day × "
        f"13 time indices × 2 genders), settings: algorithm `{settings['algorithm']}`, school "
        f"`{settings.get('school', 'iztro')}`, the rest default; the book's reading.",
        "",
        "| pattern | group | layer | charts | 1 in | of them 破格 |",
        "|---|---|---|---|---|---|",
    ]
    for index, key in sorted(names.items()):
        p = PATTERNS[key]
        n = formed.get(index, 0)
        one_in = f"{total / n:,.0f}" if n else "never"
        lines.append(
            f"| {p.names.hans} `{key}` | {GROUPS[p.group].hans} | {p.layer} | {n:,} "
            f"| {one_in} | {broken.get(index, 0):,} |"
        )
    text = "\n".join(lines)
    print(text)
    if args.write:
        record = {
            "source": "mingshu sweep ziwei, counted by tools/pattern_counts.py",
            "first_year": meta["first_year"],
            "last_year": meta["last_year"],
            "settings": settings,
            "rows": total,
            "patterns": {
                key: {"formed": formed.get(i, 0), "broken": broken.get(i, 0)}
                for i, key in sorted(names.items())
            },
        }
        with replacing(DATA, "out") as out:
            out.write(json.dumps(record, ensure_ascii=False, indent=1) + "\n")
        write_section(DOC, "counts", text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
