"""Suite-wide hook: show the figures some tests record (e.g. the DE421 solar-term check).

It lives at the top of ``tests/`` because under xdist only this conftest is loaded by the
controller process, which writes the terminal summary; the figures travel from the workers as
user properties of the test reports.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

SUMMARY_PREFIX = "terminal_summary:"

# Tests write only in temporary folders: Hypothesis keeps no example database (it would be
# .hypothesis/ in the working directory, the repository).
settings.register_profile("mingshu", database=None)
settings.load_profile("mingshu")

# A served worker draws 600 new charts while idle after start-up (mingshu.web.warmup, some
# 3 s of CPU): the servers the tests start would do so beside the other tests.  The warm-up's
# own tests, and the wheel's (an environment without MINGSHU_*), run it.
os.environ.setdefault("MINGSHU_WARM_PAGES", "0")


def pytest_configure(config: pytest.Config) -> None:
    """Point the per-user data folder (the web site's default database and secret) at a
    temporary folder of this process, so no test writes under ~ even by default; removed at
    the end."""
    if os.environ.get("MINGSHU_TEST_DATA_HOME"):
        return  # an xdist worker: it shares the folder of its controller, which removes it
    folder = tempfile.mkdtemp(prefix="mingshu-test-data-")
    os.environ["XDG_DATA_HOME"] = folder
    os.environ["MINGSHU_TEST_DATA_HOME"] = folder
    config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Print every user property named ``terminal_summary:<title>`` under its title."""
    for outcome in ("passed", "failed"):
        for report in terminalreporter.stats.get(outcome, []):
            for name, value in getattr(report, "user_properties", ()):
                if str(name).startswith(SUMMARY_PREFIX):
                    terminalreporter.write_sep("-", str(name).removeprefix(SUMMARY_PREFIX))
                    terminalreporter.write_line(str(value))


# Test modules whose collection alone is costly, by their tier: skipped at collection when the
# -m expression leaves that tier out (the local loop), so the loop's collection stays cheap.
# schemathesis builds its coverage-phase cases of every operation when it collects (about 6 s
# of CPU); the tier marker on the module says the same.
_COSTLY_TO_COLLECT = {Path(__file__).parent / "web" / "test_web_schemathesis.py": "slow"}


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    tier = _COSTLY_TO_COLLECT.get(collection_path)
    markexpr = config.getoption("markexpr", "")
    if tier is None or not markexpr:
        return None
    from _pytest.mark.expression import Expression

    wanted = Expression.compile(markexpr).evaluate(lambda name, **_: name == tier)
    return None if wanted else True
