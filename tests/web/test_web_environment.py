"""Settings from the environment: a bad value is refused by name (mingshu serve: before it
starts, exit 2, no traceback), never read as something else."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from mingshu.errors import InputError
from mingshu.web.environment import whole_number
from mingshu.web.store import feedback_rate_from_env

from .pg import free_port

MINGSHU = str(Path(sys.executable).with_name("mingshu"))


@pytest.mark.parametrize(("raw", "value"), [("", 7), ("  ", 7), ("3", 3), (" 12 ", 12), ("0", 0)])
def test_a_whole_number_or_the_default(
    monkeypatch: pytest.MonkeyPatch, raw: str, value: int
) -> None:
    monkeypatch.setenv("MINGSHU_TEST_NUMBER", raw)
    assert whole_number("MINGSHU_TEST_NUMBER", 7, 0, 100) == value


@pytest.mark.parametrize("raw", ["-1", "101", "1.5", "1e2", "ten", "٣", "0x10", "1 2"])
def test_anything_else_is_refused_by_name(monkeypatch: pytest.MonkeyPatch, raw: str) -> None:
    monkeypatch.setenv("MINGSHU_TEST_NUMBER", raw)
    with pytest.raises(InputError, match="MINGSHU_TEST_NUMBER") as e:
        whole_number("MINGSHU_TEST_NUMBER", 7, 0, 100)
    assert "0..100" in str(e.value)


def test_the_feedback_rate_is_one_at_least(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MINGSHU_FEEDBACK_RATE", raising=False)
    assert feedback_rate_from_env() == 10  # docs/web.md's default
    monkeypatch.setenv("MINGSHU_FEEDBACK_RATE", "0")  # would refuse every answer
    with pytest.raises(InputError, match="MINGSHU_FEEDBACK_RATE"):
        feedback_rate_from_env()


@pytest.mark.parametrize(
    ("name", "raw"), [("MINGSHU_FEEDBACK_RATE", "lots"), ("MINGSHU_WARM_PAGES", "-5")]
)
def test_serve_refuses_a_bad_setting_before_starting(tmp_path: Path, name: str, raw: str) -> None:
    env = {**os.environ, name: raw, "MINGSHU_DATABASE_URL": f"sqlite:///{tmp_path / 'w.sqlite3'}"}
    r = subprocess.run(
        [MINGSHU, "serve", "--port", str(free_port())],
        env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert r.returncode == 2 and r.stderr.startswith(f"error: {name}:"), r.stderr
    assert "Traceback" not in r.stderr and not (tmp_path / "w.sqlite3").exists()
