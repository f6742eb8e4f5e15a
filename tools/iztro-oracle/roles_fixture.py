"""Make the roles fixture: the palaces iztro 2.6.0's role names find (身宫, 来因) on heaven,
earth and human charts.

    cd tools/iztro-oracle && python roles_fixture.py \
        --out ../../tests/fixtures/iztro-2.6.0-analysis/roles.jsonl.gz

Inputs are ``random_inputs.py``'s ``astro-types`` kind (a third each of 天盘, 地盘, 人盘,
half under random settings), each with ``"analysis": true``; ``ageDivide`` is ``normal``
(iztro's ``birthday`` count is a known difference).  The records are cut to
``{"input", "output": {"id", "ok", "iztro", "roles"}}``: ``roles`` is ``generate.mjs``'s
``analysis.roles`` (``astrolabe.palace(role)``, ``surroundedPalaces(role)`` and
``horoscope.palace(role, 'origin')``, as branches).
"""

from __future__ import annotations

import argparse
import gzip
import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from random_inputs import inputs

HERE = Path(__file__).parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=20)
    parser.add_argument("--count", type=int, default=600)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    rows = []
    for i, row in enumerate(inputs("astro-types", args.count, args.seed)):
        row["id"] = f"r{args.seed}-{i}"
        row["analysis"] = True
        if "config" in row:
            row["config"]["ageDivide"] = "normal"
        rows.append(row)
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
    done = subprocess.run(
        ["node", str(HERE / "generate.mjs")],
        input=text,
        capture_output=True,
        text=True,
        check=True,
    )
    lines = []
    for line in done.stdout.splitlines():
        record = json.loads(line)
        out = record["output"]
        keep = {k: out[k] for k in ("id", "ok", "iztro", "error") if k in out}
        if "analysis" in out:
            keep["roles"] = out["analysis"]["roles"]
        lines.append(json.dumps({"input": record["input"], "output": keep}, ensure_ascii=False))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(args.out, "wt", encoding="utf-8", compresslevel=9) as f:
        f.write("\n".join(lines) + "\n")
    print(f"{args.out}: {len(lines)} records")
    return 0


if __name__ == "__main__":
    sys.exit(main())
