"""`mingshu ziwei --school quanshu`: the 全书 school on the command line."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from mingshu.cli import app

RUN = CliRunner()
LEAP = ["ziwei", "1900-08-01", "00:30", "-g", "male", "--lunar", "--leap", "--json"]


def _json(args: list[str]) -> dict[str, object]:
    result = RUN.invoke(app, args)
    assert result.exit_code == 0, result.output
    data: dict[str, object] = json.loads(result.output)
    return data


def test_school_quanshu_follows_the_book_and_says_so() -> None:
    book = _json([*LEAP, "--school", "quanshu"])
    plain = _json(LEAP)
    settings = book["settings"]
    assert isinstance(settings, dict)
    assert settings["school"] == "quanshu" and settings["leap_month"] == "next"
    assert "school" not in plain["settings"]  # type: ignore[operator]  # default output unchanged
    assert "quanshu_school" in json.dumps(book["notices"])
    assert "quanshu_school" not in json.dumps(plain["notices"])
    assert json.dumps(book) != json.dumps(plain)


def test_bad_school_is_one_line_exit_2() -> None:
    for extra in (["--school", "zhongzhou"], ["--school", "quanshu", "--algorithm", "zhongzhou"]):
        result = RUN.invoke(app, [*LEAP, *extra])
        assert result.exit_code == 2
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: school:"), result.output
        assert "Traceback" not in result.output
