"""The hostile-input battery (tools/hostile_inputs.py, issue 20): every bad or edge input over
the CLI, the Python API, batch lines and the web gets a clean error or a valid answer; never
a traceback, a wrong exception type, a 5xx or a silent change of meaning."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _battery() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "hostile_inputs", ROOT / "tools" / "hostile_inputs.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["hostile_inputs"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


hostile = _battery()


def _failures(results: list[object]) -> list[str]:
    return [
        f"[{r.area}] {r.outcome.verdict}: {r.name}: {r.outcome.detail}"  # type: ignore[attr-defined]
        for r in results
        if r.outcome.verdict in hostile.FAILURES  # type: ignore[attr-defined]
    ]


def test_the_judge_tells_a_clean_error_from_the_failures() -> None:
    """The classification itself, on hand-made outcomes (the battery is only as good as it)."""
    judge = hostile.judge_cli
    assert (
        judge(2, "", "error: date: 1990-02-30 does not exist\n", None, refuse=True).verdict
        == "clean"
    )
    assert judge(0, "chart", "", None, refuse=True).verdict == "silent change"
    assert judge(0, "chart", "", None, refuse=False).verdict == "accepted"
    assert (
        judge(1, "", "Traceback (most recent call last):\n  x\n", None, refuse=False).verdict
        == "traceback"
    )
    assert judge(None, "", "", ValueError("x"), refuse=False).verdict == "traceback"
    two = "error: a: x\nerror: b: y\n"
    assert judge(2, "", two, None, refuse=True).verdict == "bad error"
    assert judge(2, "", "Usage: mingshu [OPTIONS]\n", None, refuse=True).verdict == "bad error"
    assert judge(2, "", "error: : no field\n", None, refuse=True).verdict == "bad error"
    assert judge(3, "", "error: file: empty\n", None, refuse=True).verdict == "bad error"
    kept = judge(0, "a", "", None, refuse=False, check=lambda out, err: "dropped")
    assert kept.verdict == "silent change"


def test_an_api_call_is_judged_by_its_exception_type() -> None:
    from mingshu.errors import InputError

    def raises(error: Exception) -> object:
        raise error

    case = hostile.api_case
    assert (
        case("a", lambda: raises(InputError("date", "bad")), refuse=True).run().verdict == "clean"
    )
    assert case("b", lambda: raises(KeyError("x")), refuse=True).run().verdict == "wrong type"
    assert (
        case("c", lambda: raises(InputError("", "bad")), refuse=True).run().verdict == "bad error"
    )
    assert case("d", lambda: 1, refuse=True).run().verdict == "silent change"
    assert case("e", lambda: 1, refuse=False).run().verdict == "accepted"


def test_a_sample_of_the_battery() -> None:
    """Every 40th input of each area: the local loop's share of the battery."""
    results = hostile.run_battery(sample=40)
    areas = {r.area for r in results}
    assert areas == set(hostile.AREAS)
    assert len(results) > 100
    assert not _failures(results), "\n".join(_failures(results))


@pytest.mark.slow
def test_every_hostile_input() -> None:
    """The whole battery: issue 20's closing counts come from tools/hostile_inputs.py."""
    results = hostile.run_battery()
    assert len(results) >= 1500
    assert not _failures(results), "\n".join(_failures(results))
