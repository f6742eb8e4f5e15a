"""A chart's analysis as JSON: per palace, its 三方四正, 夹宫, 飞化 and 自化, by branch key.

``analysis_to_dict(chart)`` gives ``{"zi": {...}, "chou": {...}, …}`` (子 first), each
palace as::

    {"surrounded": {"opposite": "wu", "wealth": "shen", "career": "chen"},
     "flanking": {"previous": "hai", "next": "chou"},
     "flies": {"lu": "yin", "quan": "wu", "ke": "xu", "ji": "mao"},
     "self_mutagens": ["quan"]}

the branch keys of the palaces iztro 2.6.0's ``surroundedPalaces``, ``flankingPalaces``,
``mutagedPlaces`` and ``selfMutaged`` give (docs/ziwei-json.md, "Analysis").  ``flies``
uses the chart's own 四化 table (its settings' overrides included); a star the chart does
not place would fly nowhere (``null``), which the 18 stars a 四化 table may name never do.

Speed: 三方四正 and 夹宫 depend only on the branch, so they are built once; per chart only
the flights are computed, from one look-up table of star positions.
"""

from __future__ import annotations

from typing import Any, Final

from mingshu.cycles import Branch
from mingshu.ziwei.analysis import flanking_steps, surrounded_steps
from mingshu.ziwei.chart import NatalChart
from mingshu.ziwei.stars import Mutagen, mutagen_table

__all__ = ["analysis_to_dict"]

_KEYS: Final = tuple(b.key for b in Branch)
_MUTAGEN_KEYS: Final = tuple(m.key for m in Mutagen)


def _static(branch: int) -> tuple[dict[str, str], dict[str, str]]:
    opposite, wealth, career = surrounded_steps()
    previous, next_ = flanking_steps()
    return (
        {
            "opposite": _KEYS[(branch + opposite) % 12],
            "wealth": _KEYS[(branch + wealth) % 12],
            "career": _KEYS[(branch + career) % 12],
        },
        {"previous": _KEYS[(branch + previous) % 12], "next": _KEYS[(branch + next_) % 12]},
    )


_STATIC: Final = tuple(_static(b) for b in range(12))


def analysis_to_dict(chart: NatalChart) -> dict[str, Any]:
    """The per-palace analysis of ``chart``, keyed by branch key (子 first); fresh dicts."""
    where = dict(zip(chart._stars, chart._positions, strict=True))
    table = mutagen_table(chart.settings.mutagens)
    stems = [0] * 12
    for palace in chart.palaces:
        stems[palace.branch] = palace.stem
    out: dict[str, Any] = {}
    keys, mutagen_keys = _KEYS, _MUTAGEN_KEYS
    for branch in range(12):
        flights = [where.get(s) for s in table[stems[branch]]]
        surrounded, flanking = _STATIC[branch]
        out[keys[branch]] = {
            "surrounded": dict(surrounded),
            "flanking": dict(flanking),
            "flies": {
                k: None if b is None else keys[b]
                for k, b in zip(mutagen_keys, flights, strict=True)
            },
            "self_mutagens": [k for k, b in zip(mutagen_keys, flights, strict=True) if b == branch],
        }
    return out
