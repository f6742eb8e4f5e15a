"""Make the analysis fixture: iztro 2.6.0's answers to the chart questions for random charts.

    cd tools/iztro-oracle && python analysis_fixture.py \
        --out ../../tests/fixtures/iztro-2.6.0-analysis/analysis.jsonl.gz

Inputs come from ``random_inputs.py`` (kinds ``random``, ``configs``, ``astro-types``), each
with ``"analysis": true``; every third ``configs`` input also replaces three rows of the
四化 table (``config.mutagens``), so that 飞化 is checked under a custom table.  ``ageDivide``
is set to ``normal`` in every config: iztro's ``birthday`` age count is a known difference
(docs/iztro-differences.md) and would move the horoscope layers.  The records are cut to
``{"input", "output": {"id", "ok", "iztro", "analysis"}}``: the charts themselves are checked
by the other reference files.
"""

from __future__ import annotations

import argparse
import gzip
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from random_inputs import inputs

HERE = Path(__file__).parent
CUSTOM_MUTAGENS = {
    "庚": ["太阳", "武曲", "天同", "天相"],
    "戊": ["贪狼", "太阴", "太阳", "天机"],
    "甲": ["廉贞", "破军", "武曲", "太阳"],
}
PLAN = (("random", 440), ("configs", 120), ("astro-types", 40))


def analysis_inputs(seed: int) -> list[dict[str, Any]]:
    rows = []
    for kind, count in PLAN:
        for i, row in enumerate(inputs(kind, count, seed)):
            row["id"] = f"a{seed}-{kind}-{i}"
            row["analysis"] = True
            if "config" in row:
                row["config"]["ageDivide"] = "normal"
                if kind == "configs" and i % 3 == 0:
                    row["config"]["mutagens"] = CUSTOM_MUTAGENS
            rows.append(row)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in analysis_inputs(args.seed))
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
        keep = {k: out[k] for k in ("id", "ok", "iztro", "error", "analysis") if k in out}
        lines.append(json.dumps({"input": record["input"], "output": keep}, ensure_ascii=False))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(args.out, "wt", encoding="utf-8", compresslevel=9) as f:
        f.write("\n".join(lines) + "\n")
    print(f"{args.out}: {len(lines)} records")
    return 0


if __name__ == "__main__":
    sys.exit(main())
