"""The fast detector (bit sets, the generated first test) against a slow reference: every
condition of patterns.toml read again here word by word from the chart's palaces, every
pattern and reading tried on every chart, no index and no gate.  Same hits, same palaces,
same stars in the same order, same break rules, on a few thousand random charts."""

from __future__ import annotations

import datetime as dt
import random
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from mingshu.cycles import Branch
from mingshu.ziwei import Birth, from_birth
from mingshu.ziwei.chart import NatalChart
from mingshu.ziwei.patterns import PATTERNS, VARIANTS, detect
from mingshu.ziwei.tables import PalaceName

DATA = tomllib.loads(
    (Path(__file__).resolve().parents[2] / "src/mingshu/ziwei/data/patterns.toml").read_text(
        "utf-8"
    )
)
ROWS = {row["key"]: row for row in DATA["pattern"]}
HUA = ("hua_lu", "hua_quan", "hua_ke", "hua_ji")
Evidence = list[tuple[str, int]]


class Reference:
    """A chart's positions read from its palaces, the conditions evaluated one by one."""

    def __init__(self, chart: NatalChart) -> None:
        self.at: dict[str, int] = {}
        self.placed: dict[str, Any] = {}
        self.carrier: dict[str, str] = {}
        for palace in chart.palaces:
            for placed in palace.stars:
                self.at[placed.star.key] = int(palace.branch)
                self.placed[placed.star.key] = placed
            for placed in (*palace.major_stars, *palace.minor_stars):
                if placed.mutagen is not None:
                    hua = HUA[list(type(placed.mutagen)).index(placed.mutagen)]
                    self.at[hua] = int(palace.branch)
                    self.carrier[hua] = placed.star.key
        self.palaces = {int(p.branch): p for p in chart.palaces}
        life = int(chart.life_branch)
        self.roles = {n.key: int(chart.palace_named(n).branch) for n in PalaceName}
        self.roles["body"] = int(chart.body_palace.branch)
        self.roles["life_hidden"] = (1 - life) % 12

    def real(self, key: str) -> str:
        return self.carrier.get(key, key)

    def grade(self, key: str) -> str | None:
        if key not in self.at:
            return None
        brightness = self.placed[self.real(key)].brightness
        return None if brightness is None else brightness.key

    def square(self, b: int) -> set[int]:
        return {b, (b + 4) % 12, (b + 6) % 12, (b + 8) % 12}

    def all(self, conds: Sequence[Mapping[str, Any]]) -> Evidence | None:
        found: Evidence = []
        for cond in conds:
            part = self.one(cond)
            if part is None:
                return None
            found += part
        return found

    def one(self, c: Mapping[str, Any]) -> Evidence | None:
        at = self.at
        if "either" in c:
            for option in c["either"]:
                found = self.all(option)
                if found is not None:
                    return found
            return None
        branches = lambda names: {int(Branch.parse(n)) for n in names}  # noqa: E731
        if "in" in c:
            b = self.roles[c["in"]]
            if "stars" in c:
                ok = all(at.get(s) == b for s in c["stars"])
                return [(self.real(s), b) for s in c["stars"]] if ok else None
            if "any" in c:
                want = None if "grades" not in c else {_grade(g) for g in c["grades"]}
                found = [
                    (self.real(s), b)
                    for s in c["any"]
                    if at.get(s) == b and (want is None or self.grade(s) in want)
                ]
                return found or None
            if "none" in c:
                return None if any(at.get(s) == b for s in c["none"]) else []
            if "majors" in c:
                here = [p.star.key for p in self.palaces[b].major_stars]
                return [(s, b) for s in here] if set(here) == set(c["majors"]) else None
        if "palace" in c:
            b = self.roles[c["palace"]]
            if "branch" in c:
                return [("", b)] if b in branches(c["branch"]) else None
            return [("", b)] if self.roles[c["role"]] == b else None
        if "at" in c:
            allowed = branches(c["at"])
            ok = all(at.get(s, -1) in allowed for s in c["stars"])
            return [(self.real(s), at[s]) for s in c["stars"]] if ok else None
        if "flank" in c:
            b = self.roles[c["flank"]]
            sides = ((b - 1) % 12, (b + 1) % 12)
            if "pair" in c:
                x, y = c["pair"]
                px, py = at.get(x), at.get(y)
                if px in sides and py in sides and px != py:
                    return [(self.real(x), px), (self.real(y), py)]  # type: ignore[list-item]
                return None
            found: Evidence = []
            for side in sides:
                here = [(self.real(s), side) for s in c["each"] if at.get(s) == side]
                if not here:
                    return None
                found += here
            return found
        if "meets" in c:
            four = self.square(self.roles[c["meets"]])
            if "stars" in c:
                ok = all(at.get(s, -1) in four for s in c["stars"])
                return [(self.real(s), at[s]) for s in c["stars"]] if ok else None
            if "any" in c:
                return [(self.real(s), at[s]) for s in c["any"] if at.get(s, -1) in four] or None
            return None if any(at.get(s, -1) in four for s in c["none"]) else []
        if "bright" in c:
            want = {_grade(g) for g in c["grades"]}
            ok = all(s in at and self.grade(s) in want for s in c["bright"])
            return [] if ok else None
        raise AssertionError(f"condition {c!r} not read by the reference")


def _grade(name: str) -> str:
    from mingshu.ziwei.stars import Brightness

    return Brightness.parse(name).key


def reference(chart: NatalChart, variant: str) -> list[tuple[object, ...]]:
    ref = Reference(chart)
    hits: list[tuple[object, ...]] = []
    for key, pattern in PATTERNS.items():
        row = ROWS[key]
        if row["layer"] == "limits":
            continue
        used, when, breaks = "book", row["when"], row.get("breaks", [])
        for v in row.get("variant", ()):
            if v["key"] == variant:
                used, when, breaks = variant, v["when"], v.get("breaks", row.get("breaks", []))
        found = ref.all(when)
        if found is None:
            continue
        stars = tuple(dict.fromkeys(k for k, _b in found if k))
        palaces = tuple(sorted({b for _k, b in found}))
        broken = tuple(r for r in breaks if ref.all(DATA["rule"][r]["when"]) is not None)
        hits.append((pattern.key, used, palaces, stars, broken))
    return hits


def fast(chart: NatalChart, variant: str) -> list[tuple[object, ...]]:
    return [
        (
            h.pattern.key,
            h.variant,
            tuple(int(b) for b in h.palaces),
            h.stars,
            tuple(r.key for r in h.broken),
        )
        for h in detect(chart, variant)
    ]


def births(count: int, seed: int) -> list[Birth]:
    """Random solar births 1900–2100, every time index (late Rat too), both genders."""
    rng = random.Random(seed)
    first, last = dt.date(1900, 1, 31).toordinal(), dt.date(2100, 12, 31).toordinal()
    return [
        Birth.solar(
            dt.date.fromordinal(rng.randint(first, last)),
            rng.randint(0, 12),
            rng.choice(("male", "female")),
        )
        for _ in range(count)
    ]


def _charts(count: int, seed: int) -> list[NatalChart]:
    return [from_birth(b) for b in births(count, seed)]


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_fast_detector_equals_reference(variant: str) -> None:
    charts = _charts(3000 if variant == "book" else 1000, seed=23)
    formed = 0
    for chart in charts:
        expected = reference(chart, variant)
        assert fast(chart, variant) == expected, chart.birth
        formed += len(expected)
    assert formed > len(charts)  # the charts do form patterns: the comparison is not empty


def test_fast_detector_equals_reference_over_a_year() -> None:
    # Every birth of 1990 (each day, each of the 13 time indices, the gender alternating):
    # the charts the random draws above may miss, such as a whole year's rare patterns.
    day, formed, count = dt.date(1990, 1, 1), 0, 0
    while day.year == 1990:
        for time_index in range(13):
            chart = from_birth(Birth.solar(day, time_index, ("male", "female")[count % 2]))
            expected = reference(chart, "book")
            assert fast(chart, "book") == expected, chart.birth
            formed += len(expected)
            count += 1
        day += dt.timedelta(days=1)
    assert formed > count
