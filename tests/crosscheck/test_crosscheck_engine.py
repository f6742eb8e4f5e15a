"""The crosscheck catches a broken *engine*, and talks to the engines only through their
public API (issue 7).

The broken engines here are the real one with one fault injected at the API the adapter
calls (``ziwei.by_solar`` / ``ziwei.by_lunar``): one star's brightness changed, or one star
moved to the next palace.  The expected values are iztro's own records.
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mingshu import calendar, ziwei
from mingshu.crosscheck.iztro import classify, record_for_input
from mingshu.crosscheck.runner import run

from ._support import write_jsonl

CROSSCHECK_SRC = Path(__file__).parents[2] / "src" / "mingshu" / "crosscheck"
Fault = Callable[[ziwei.NatalChart], ziwei.NatalChart]


def first_bright_major(chart: ziwei.NatalChart) -> tuple[int, int]:
    """(palace index, star index) of the first major star with a brightness."""
    for i, palace in enumerate(chart.palaces):
        for j, placed in enumerate(palace.major_stars):
            if placed.brightness is not None:
                return i, j
    raise AssertionError("no major star with a brightness")


def other_brightness(b: ziwei.Brightness) -> ziwei.Brightness:
    return next(x for x in ziwei.Brightness if x is not b)


def swap_brightness(chart: ziwei.NatalChart) -> ziwei.NatalChart:
    i, j = first_bright_major(chart)
    palace = chart.palaces[i]
    stars = list(palace.major_stars)
    assert stars[j].brightness is not None
    stars[j] = stars[j]._replace(brightness=other_brightness(stars[j].brightness))
    palaces = list(chart.palaces)
    palaces[i] = palace._replace(major_stars=tuple(stars))
    return dataclasses.replace(chart, palaces=tuple(palaces))


def move_one_minor_star(chart: ziwei.NatalChart) -> ziwei.NatalChart:
    i = next(i for i, p in enumerate(chart.palaces) if p.minor_stars)
    k = (i + 1) % 12
    palaces = list(chart.palaces)
    moved, *rest = palaces[i].minor_stars
    palaces[i] = palaces[i]._replace(minor_stars=tuple(rest))
    palaces[k] = palaces[k]._replace(minor_stars=(*palaces[k].minor_stars, moved))
    return dataclasses.replace(chart, palaces=tuple(palaces))


def inject(monkeypatch: pytest.MonkeyPatch, fault: Fault) -> None:
    real_solar, real_lunar = ziwei.by_solar, ziwei.by_lunar

    def by_solar(*args: Any, **kwargs: Any) -> ziwei.NatalChart:
        return fault(real_solar(*args, **kwargs))

    def by_lunar(*args: Any, **kwargs: Any) -> ziwei.NatalChart:
        return fault(real_lunar(*args, **kwargs))

    monkeypatch.setattr(ziwei, "by_solar", by_solar)
    monkeypatch.setattr(ziwei, "by_lunar", by_lunar)


def test_a_wrong_brightness_in_the_engine_is_a_mismatch_naming_the_star(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, records: list[dict[str, Any]]
) -> None:
    source = write_jsonl(tmp_path / "s.jsonl", records[:5])
    assert run(source, record_for_input, classify=classify, progress=False).passed == 5

    inject(monkeypatch, swap_brightness)
    report = tmp_path / "report.jsonl"
    summary = run(source, record_for_input, report=report, classify=classify, progress=False)
    assert (summary.passed, summary.failed) == (0, 5)
    assert set(summary.field_cases) == {"chart.palaces[].majorStars"}
    for record, (label, mismatch) in zip(records[:5], summary.failures, strict=True):
        assert label == record["input"]["id"]
        i = int(mismatch["path"].split("[")[1].split("]")[0])
        assert mismatch["path"] == f"chart.palaces[{i}].majorStars"
        assert mismatch["expected"] == record["output"]["chart"]["palaces"][i]["majorStars"]
        # the same stars in the same order; exactly one brightness differs
        differ = [
            (want, got)
            for want, got in zip(mismatch["expected"], mismatch["got"], strict=True)
            if want != got
        ]
        [(want, got)] = differ
        assert want[0] == got[0] and want[2] != got[2] and want[2] != ""
        assert (want[1], want[3]) == (got[1], got[3])


def test_a_star_moved_by_the_engine_is_a_mismatch_in_both_palaces(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, records: list[dict[str, Any]]
) -> None:
    inject(monkeypatch, move_one_minor_star)
    source = write_jsonl(tmp_path / "s.jsonl", records[:5])
    report = tmp_path / "report.jsonl"
    summary = run(source, record_for_input, report=report, classify=classify, progress=False)
    assert (summary.passed, summary.failed) == (0, 5)
    assert dict(summary.field_mismatches) == {"chart.palaces[].minorStars": 10}
    for record, (_, mismatch) in zip(records[:5], summary.failures, strict=True):
        palaces = record["output"]["chart"]["palaces"]
        i = next(i for i, p in enumerate(palaces) if p["minorStars"])
        assert mismatch["path"] == f"chart.palaces[{i}].minorStars"
        star = palaces[i]["minorStars"][0]
        assert mismatch["expected"][0] == star and star not in mismatch["got"]


# ------------------------------------------------------------------ the public API only


def imports_and_attributes(path: Path) -> tuple[set[str], set[tuple[str, str]]]:
    """Modules imported by ``path``, and the (module alias, attribute) pairs it reads."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    modules: set[str] = set()
    attrs: set[tuple[str, str]] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            modules.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            attrs.add((node.value.id, node.attr))
    return modules, attrs


@pytest.mark.parametrize(
    "path", sorted(CROSSCHECK_SRC.glob("*.py")), ids=lambda p: p.name if isinstance(p, Path) else ""
)
def test_the_crosscheck_uses_only_the_public_engine_api(path: Path) -> None:
    modules, attrs = imports_and_attributes(path)
    mingshu = {m for m in modules if m.startswith("mingshu.")}
    allowed_prefixes = ("mingshu.crosscheck.", "mingshu.errors.", "mingshu.named.", "mingshu.files")
    private = {
        m
        for m in mingshu
        if not m.startswith(allowed_prefixes) and m not in ("mingshu.ziwei", "mingshu.calendar")
    }
    assert not private, f"{path.name} imports private engine modules: {sorted(private)}"
    for module, public in (("ziwei", ziwei.__all__), ("calendar", calendar.__all__)):
        used = {attr for name, attr in attrs if name == module}
        assert used <= set(public), f"{path.name}: {sorted(used - set(public))} not public"
