"""Suite-wide hook: show the figures some tests record (e.g. the DE421 solar-term check).

It lives at the top of ``tests/`` because under xdist only this conftest is loaded by the
controller process, which writes the terminal summary; the figures travel from the workers as
user properties of the test reports.
"""

from __future__ import annotations

import pytest

SUMMARY_PREFIX = "terminal_summary:"


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Print every user property named ``terminal_summary:<title>`` under its title."""
    for outcome in ("passed", "failed"):
        for report in terminalreporter.stats.get(outcome, []):
            for name, value in getattr(report, "user_properties", ()):
                if str(name).startswith(SUMMARY_PREFIX):
                    terminalreporter.write_sep("-", str(name).removeprefix(SUMMARY_PREFIX))
                    terminalreporter.write_line(str(value))
