"""`mingshu feedback list`: the stored "Was this article helpful?" answers, read back from
the site's database (SQLite and PostgreSQL), as a table or JSON lines; a database that
cannot be read is one error line naming it, never a traceback."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from mingshu.cli import app
from mingshu.web.store import FeedbackIn, Store, migrate

runner = CliRunner()

ANSWERS = [
    FeedbackIn("ZW-AUX-17", "1.0", True, "the table made it clear", "10.0.0.1"),
    FeedbackIn("BZ-SS-02", "1.1", False, "a table for 闰月\nplease", "10.0.0.2"),
    FeedbackIn("ZW-AUX-17", "1.0", False, "", "10.0.0.3"),
]


def _stored(url: str) -> None:
    migrate(url)
    store = Store(url)
    for answer in ANSWERS:
        store.add_feedback(answer)
    store.dispose()


def test_lists_what_the_site_stored(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    _stored(db_url)
    monkeypatch.setenv("MINGSHU_DATABASE_URL", db_url)
    table = runner.invoke(app, ["feedback", "list"])
    assert table.exit_code == 0, table.output
    lines = table.output.splitlines()
    assert len(lines) == 3
    for line, answer in zip(lines, ANSWERS, strict=True):
        assert f"{answer.article_id} v{answer.article_version}" in line
        assert (" yes " if answer.helpful else " no ") in line
        assert line.rstrip().endswith(" ".join(answer.comment.split()))
        assert answer.client_address not in line  # only a salted hash is kept, and not shown
    one = runner.invoke(app, ["feedback", "list", "--article", "ZW-AUX-17", "--json"])
    rows = [json.loads(x) for x in one.output.splitlines()]
    assert [(r["article"], r["helpful"], r["comment"]) for r in rows] == [
        ("ZW-AUX-17", True, "the table made it clear"),
        ("ZW-AUX-17", False, ""),
    ]
    last = runner.invoke(app, ["feedback", "list", "--last", "1", "--json"])
    assert [json.loads(x)["article"] for x in last.output.splitlines()] == ["ZW-AUX-17"]
    none = runner.invoke(app, ["feedback", "list", "--article", "ZW-AUX-99"])
    assert none.exit_code == 0 and none.output.strip() == "no feedback stored for ZW-AUX-99"


def test_an_unreadable_database_is_one_error_line(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MINGSHU_DATABASE_URL", sqlite_url)  # never migrated: no tables
    r = runner.invoke(app, ["feedback", "list"])
    assert r.exit_code == 2
    assert r.output.startswith("error: database: cannot read feedback from sqlite:///")
    assert "Traceback" not in r.output
    bad = runner.invoke(app, ["feedback", "list", "--last", "-1"])
    assert bad.exit_code == 2 and bad.output.startswith("error: last:")


def test_a_readers_control_characters_never_reach_the_terminal(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A comment can carry escape sequences (recolour, retitle, clear the screen) and bidi
    controls: the table drops them, JSON lines escape them and parse back to the text."""
    hostile = "\x1b]0;owned\x07\x1b[2J\x9b31mred\u202eevil\x00 end"
    migrate(sqlite_url)
    store = Store(sqlite_url)
    store.add_feedback(FeedbackIn("ZW-AUX-17", "1.0", True, hostile, "10.0.0.1"))
    store.dispose()
    monkeypatch.setenv("MINGSHU_DATABASE_URL", sqlite_url)
    unsafe = [chr(c) for c in (*range(0x20), *range(0x7F, 0xA0))] + ["\u202e"]
    for args in (["feedback", "list"], ["feedback", "list", "--json"]):
        r = runner.invoke(app, args)
        assert r.exit_code == 0, r.output
        body = r.output.removesuffix("\n")
        assert not [c for c in unsafe if c in body], repr(body)
    table = runner.invoke(app, ["feedback", "list"]).output
    assert table.rstrip().endswith("]0;owned [2J 31mred evil end")
    (line,) = runner.invoke(app, ["feedback", "list", "--json"]).output.splitlines()
    assert json.loads(line)["comment"] == hostile


def test_times_are_printed_in_utc_with_the_offset(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import datetime as dt
    import re

    _stored(db_url)
    monkeypatch.setenv("MINGSHU_DATABASE_URL", db_url)
    for line in runner.invoke(app, ["feedback", "list"]).output.splitlines():
        assert re.match(r" *\d+  \d{4}-\d\d-\d\d \d\d:\d\d\+00:00  ", line), line
    for line in runner.invoke(app, ["feedback", "list", "--json"]).output.splitlines():
        created = dt.datetime.fromisoformat(json.loads(line)["created"])
        assert created.utcoffset() == dt.timedelta(0)


@pytest.mark.parametrize(
    "url", ["nope://", "mysql://127.0.0.1:1/x", "oracle+nodriver://127.0.0.1:1/x"]
)
def test_a_database_url_that_cannot_be_opened_is_one_error_line(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An unknown dialect, or a driver that is not installed, was a traceback (found by
    tools/hostile_inputs.py); nothing is connected to: the URL is refused when read."""
    monkeypatch.setenv("MINGSHU_DATABASE_URL", url)
    r = runner.invoke(app, ["feedback", "list"])
    assert r.exit_code == 2
    assert r.output.startswith("error: database: cannot open ")
    assert len(r.output.splitlines()) == 1


def test_an_article_id_that_is_not_utf8_is_one_error_line(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MINGSHU_DATABASE_URL", sqlite_url)
    r = runner.invoke(app, ["feedback", "list", "--article", "ZW-\udcff"])  # argv byte 0xff
    assert r.exit_code == 2
    assert r.output.startswith("error: article: is not UTF-8 text")
