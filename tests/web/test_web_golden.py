"""The chart page, the board and the chart API, byte for byte as the code of main fb42189
drew them (issue 24, "Fast for a new birth"): the speed work on these paths changes how
they are drawn, never what.

The reference is the SHA-256 of each body for a fixed set of random births, with the names
styles, both interface languages, horoscopes, BaZi years, lunar dates, unknown hours, zones
with true solar time and other settings mixed in.  It was written by the code before the
speed work:

    PYTHONPATH=src .venv/bin/python tests/web/test_web_golden.py --write

The page lines were rewritten once since: when the phone layout left the chart page
(fetched by the script or a <picture> on a narrow screen instead), with every page
otherwise the same bytes as main 0e28e26 drew it (2,000 births compared with the phone
layout's block cut out).

A change that is meant to change a page (an article added for a star, a new pattern, a new
word on the page) rewrites the file with that command, on the code before any speed
change, and says so in its commit.
"""

from __future__ import annotations

import hashlib
import random
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlencode

import pytest

from mingshu.web.api import _ZIWEI_KNOWN, _ziwei_raw
from mingshu.web.pages import chart_page_bytes, chart_svg_bytes
from mingshu.web.query import FieldErrors, parse

GOLDEN = Path(__file__).with_name("golden_pages.txt")
STYLES = ("hans", "hant", "pinyin", "english")
SETTINGS = (
    ("school", "quanshu"),
    ("algorithm", "zhongzhou"),
    ("chart_type", "earth"),
    ("late_rat_hour", "same_day"),
    ("leap_month", "whole"),
    ("age_count", "birthday"),
    ("year_boundary", "spring_begins"),
    ("start_age", "china95"),
    ("include_basis_pillar", "1"),
    ("star", "wen_chang:w2"),
)


def queries(n: int = 60) -> list[str]:
    """``n`` raw query strings, the same on every run (a seeded generator)."""
    rng = random.Random(24)
    out = []
    for i in range(n):
        pairs = [
            ("date", f"{rng.randint(1930, 2040)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}")
        ]
        if i % 7 == 3:
            pairs.append(("calendar", "lunar"))
        if i % 11 == 5:
            pairs.append(("unknown_hour", "1"))
        else:
            hour = 23 if i % 9 == 4 else rng.randint(0, 23)
            pairs.append(("time", f"{hour:02d}:{rng.randint(0, 59):02d}"))
        pairs.append(("gender", rng.choice(("female", "male"))))
        if i % 6 == 2:
            pairs += [
                ("tz", "Asia/Shanghai"),
                ("lon", f"{rng.uniform(75, 134):.2f}"),
                ("true_solar", "1"),
            ]
        if i % 5 == 1:
            pairs.append(rng.choice(SETTINGS))
        if i % 3 == 0:
            at = f"{rng.randint(1990, 2060)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
            pairs.append(("at", at + (f"T{rng.randint(0, 23):02d}:00" if i % 2 else "")))
        if i % 4 == 1:
            pairs.append(("year", str(rng.randint(1990, 2060))))
        pairs.append(("names", STYLES[i % 4]))
        if i % 8 >= 5:
            pairs.append(("lang", "zh-Hans"))
        out.append(urlencode(pairs))
    return out


def bodies(raw: str) -> dict[str, bytes]:
    """Each body drawn for one raw query (uncached: drawn anew), or its field errors."""
    out: dict[str, bytes] = {}
    try:
        q = parse(parse_qs(raw, keep_blank_values=True))
        out["page"] = chart_page_bytes.__wrapped__(q)
        if not q.unknown_hour:
            for layout in ("board", "column"):
                out[layout] = chart_svg_bytes.__wrapped__(q.query_string(year=""), layout)
            # The API takes the Zi Wei fields alone, as the page's JSON link sends them.
            params = parse_qs(raw, keep_blank_values=True)
            out["api"] = _ziwei_raw.__wrapped__(
                urlencode([(k, v) for k, vs in params.items() if k in _ZIWEI_KNOWN for v in vs])
            )
    except FieldErrors as e:
        out["errors"] = repr(sorted(e.errors.items())).encode()
    return out


def digests() -> list[str]:
    return [
        f"{hashlib.sha256(body).hexdigest()} {kind} {raw}"
        for raw in queries()
        for kind, body in bodies(raw).items()
    ]


def test_the_set_is_varied() -> None:
    """The reference covers what the speed work touches: every names style, both
    languages, horoscopes, unknown hours, and pages that draw (no field errors)."""
    lines = GOLDEN.read_text().splitlines()
    kinds = {line.split(" ")[1] for line in lines}
    assert kinds == {"page", "api", "board", "column", "errors"}
    text = "\n".join(lines)
    for part in ("names=hant", "names=pinyin", "names=english", "lang=zh-Hans", "at=",
                 "unknown_hour=1", "calendar=lunar", "true_solar=1", "year="):  # fmt: skip
        assert part in text


@pytest.mark.parametrize("raw", queries())
def test_bodies_are_unchanged(raw: str) -> None:
    want = {
        line.split(" ")[1]: line.split(" ")[0]
        for line in GOLDEN.read_text().splitlines()
        if line.split(" ", 2)[2] == raw
    }
    got = {kind: hashlib.sha256(body).hexdigest() for kind, body in bodies(raw).items()}
    assert got == want


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    GOLDEN.write_text("\n".join(digests()) + "\n")
