"""Record the symbolic-star hits of a peer BaZi package for 2,000 random charts.

Runs inside a virtual environment that holds exactly one of the peers (both install a
top-level ``bazi`` package, so they cannot share one):

    python3 -m venv /tmp/peer-bazi && /tmp/peer-bazi/bin/pip install bazi==2.3.0
    /tmp/peer-bazi/bin/python tools/bazi_peer_oracle.py tests/fixtures/bazi-peers/bazi-2.3.0.json.gz

    python3 -m venv /tmp/peer-baziChart && /tmp/peer-baziChart/bin/pip install bazi-chart==1.2.0
    /tmp/peer-baziChart/bin/python tools/bazi_peer_oracle.py \\
        tests/fixtures/bazi-peers/bazi-chart-1.2.0.json.gz

The charts are four pillars drawn from a fixed seed (year and day pillar at random, month and
hour branch at random with their stems by 五虎遁 / 五鼠遁), so the record does not depend on
either package's calendar.  The peer is asked through its own star code:

* bazi 2.3.0: the registry of ``bazi.analyzer.relationship`` evaluated as
  ``AtBirthAnalysis.shensha`` does (``_eval_at_birth`` with the default ``BaziSchool``), plus
  its 魁罡 and 天赦 checks; a star's record is the set of branches it finds (the package's
  own result shape) or the day pillar.  Also, under ``transit``, one flowing pillar per chart
  and the branches the package's transit rule (``_eval_transits``) finds in it.
* bazi-chart 1.2.0: ``bazi.shensha.find_shensha`` on the four pillars; a star's record is the
  list of (position, value) the package reports.

Standard library only (it runs in the peer's environment, not mingshu's).  The output is gzip
with mtime 0, so a rebuild with the same package gives the same bytes.
"""

from __future__ import annotations

import gzip
import json
import random
import sys
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path
from types import SimpleNamespace
from typing import Any

SEED = 20261201
COUNT = 2000
STEMS = "甲乙丙丁戊己庚辛壬癸"
BRANCHES = "子丑寅卯辰巳午未申酉戌亥"


def _sixty(i: int) -> str:
    return STEMS[i % 10] + BRANCHES[i % 12]


def charts(seed: int = SEED, count: int = COUNT) -> list[tuple[str, str, str, str]]:
    """The random charts: (year, month, day, hour) pillars as two-character strings."""
    rnd = random.Random(seed)
    out = []
    for _ in range(count):
        year = _sixty(rnd.randrange(60))
        month_branch = rnd.randrange(12)
        # 五虎遁: the 寅 month of a 甲/己 year is 丙寅; months count from 寅 (index 2).
        first = (STEMS.index(year[0]) % 5 * 2 + 2) % 10
        month = STEMS[(first + (month_branch - 2) % 12) % 10] + BRANCHES[month_branch]
        day = _sixty(rnd.randrange(60))
        hour_branch = rnd.randrange(12)
        # 五鼠遁: the 子 hour of a 甲/己 day is 甲子.
        hour = STEMS[(STEMS.index(day[0]) % 5 * 2 + hour_branch) % 10] + BRANCHES[hour_branch]
        out.append((year, month, day, hour))
    return out


def _transit(pillars: tuple[str, str, str, str]) -> str:
    """A flowing pillar for the chart, drawn from the chart itself (same seed, same pillar)."""
    rnd = random.Random("".join(pillars))
    return _sixty(rnd.randrange(60))


def _bazi_230() -> tuple[str, Callable[[tuple[str, str, str, str]], dict[str, Any]]]:
    from bazi.analyzer import relationship as rel  # type: ignore[import-not-found]
    from bazi.defines import Dizhi, Ganzhi  # type: ignore[import-not-found]
    from bazi.school import BaziSchool  # type: ignore[import-not-found]
    from bazi.utils import shensha_utils  # type: ignore[import-not-found]

    school = BaziSchool()

    def stars(pillars: tuple[str, str, str, str]) -> dict[str, Any]:
        gz = tuple(Ganzhi.from_str(p) for p in pillars)
        chart = SimpleNamespace(
            pillars=gz,
            four_dizhis=tuple(g.dizhi for g in gz),
            four_tiangans=tuple(g.tiangan for g in gz),
            day_pillar=gz[2],
            month_commander=gz[1].dizhi,
            config=SimpleNamespace(school=school),
        )
        out: dict[str, Any] = {}
        for name, spec in rel._REGISTRY.items():
            found = rel._eval_at_birth(spec, chart)
            out[name] = sorted(BRANCHES[list(Dizhi).index(d)] for d in found)
        out["kuigang"] = pillars[2] if shensha_utils.kuigang(gz[2]) else None
        out["tianshe"] = pillars[2] if shensha_utils.tianshe(gz[1].dizhi, gz[2]) else None
        # A flowing pillar (流年 / 大运) against the natal chart: the package's transit rule
        # (_eval_transits: natal anchors, the transit branch searched).
        transit = _transit(pillars)
        branch = Ganzhi.from_str(transit).dizhi
        out["transit"] = {
            "pillar": transit,
            "stars": {
                name: sorted(
                    BRANCHES[list(Dizhi).index(d)]
                    for d in rel._eval_transits(spec, chart, [branch])
                )
                for name, spec in rel._REGISTRY.items()
            },
        }
        return out

    return f"bazi {version('bazi')}", stars


def _bazi_chart() -> tuple[str, Callable[[tuple[str, str, str, str]], dict[str, Any]]]:
    from bazi.shensha import find_shensha  # type: ignore[import-not-found]

    def stars(pillars: tuple[str, str, str, str]) -> dict[str, Any]:
        def pillar(text: str) -> SimpleNamespace:
            return SimpleNamespace(gan=text[0], zhi=text[1], name=text)

        fp = SimpleNamespace(
            year=pillar(pillars[0]),
            month=pillar(pillars[1]),
            day=pillar(pillars[2]),
            hour=pillar(pillars[3]),
        )
        out: dict[str, list[list[str]]] = {}
        for item in find_shensha(fp).items:
            out.setdefault(item.name, []).append([item.position, item.value])
        return {k: sorted(v) for k, v in sorted(out.items())}

    return f"bazi-chart {version('bazi-chart')}", stars


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit("usage: bazi_peer_oracle.py OUTPUT.json.gz")
    try:
        import bazi.analyzer  # type: ignore[import-not-found]  # noqa: F401

        made_by, stars = _bazi_230()
    except ImportError:
        made_by, stars = _bazi_chart()
    records = [{"pillars": list(p), "stars": stars(p)} for p in charts()]
    data = {
        "made_by": made_by,
        "tool": "tools/bazi_peer_oracle.py (see its docstring to rebuild)",
        "seed": SEED,
        "count": COUNT,
        "charts": records,
    }
    raw = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    target = Path(sys.argv[1])
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(target.name + ".tmp")
    with tmp.open("wb") as f, gzip.GzipFile(fileobj=f, mode="wb", mtime=0) as gz:
        gz.write(raw.encode())
    tmp.replace(target)
    print(f"{target}: {made_by}, {len(records)} charts")


if __name__ == "__main__":
    main()
