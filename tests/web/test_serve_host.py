"""`mingshu serve --host` with a host that is no address (issue 20): one error line and exit
2, before the database is touched or a server starts (uvicorn used to fail later, with a
traceback)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from mingshu.cli import app


@pytest.mark.parametrize(
    "host", ["not a host", "", " ", "999.1.1.1", "-bad", "a..b", "[::1]", "x" * 300, "ho\x00st"]
)
def test_a_host_that_is_no_address_is_refused_first(
    host: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.delenv("MINGSHU_DATABASE_URL", raising=False)
    result = CliRunner().invoke(app, ["serve", "--host", host, "--port", "1"])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: host: ") and result.stderr.count("\n") == 1
    assert "is not an IP address or a host name" in result.stderr
    assert result.stdout == ""
    assert not any(tmp_path.iterdir())  # no database was created or migrated


def test_the_shown_url_brackets_an_ipv6_address() -> None:
    from mingshu.web.server import shown_url

    assert shown_url("::1", 8000) == "http://[::1]:8000/"
    assert shown_url("127.0.0.1", 8000) == "http://127.0.0.1:8000/"
    assert shown_url("0.0.0.0", 80) == "http://127.0.0.1:80/"
