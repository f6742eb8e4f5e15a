"""`library show` and `library check` on hostile folders (issue 20): article text is printed
as written, never read as Rich markup; a binary article or a broken _planned.yaml is one
error line; a folder of no articles is never "ok"."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mingshu.cli import app
from mingshu.library import load
from mingshu.library.check import check
from mingshu.library.model import _ROOT

ARTICLE = "ZW-AUX-05"
runner = CliRunner()


def invoke(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), env={"COLUMNS": "200"})
    assert "Traceback" not in result.stdout + result.stderr
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "articles"
    folder.mkdir()
    shutil.copy(_ROOT / f"{ARTICLE}.md", folder)
    return folder


@pytest.mark.parametrize("text", ["[/x]", "a[b]c", "[bold]loud[/bold]"])
def test_show_prints_an_articles_brackets_as_written(root: Path, text: str) -> None:
    path = root / f"{ARTICLE}.md"
    source = path.read_text("utf-8")
    title = next(line for line in source.splitlines() if line.startswith("title: "))
    path.write_text(source.replace(title, f'title: "Title {text} end"', 1), "utf-8")
    code, out, err = invoke("library", "show", ARTICLE, "--root", str(root))
    assert (code, err) == (0, "")
    assert f"Title {text} end" in out


def test_show_of_a_binary_article_is_one_error_line(root: Path) -> None:
    (root / "ZW-AUX-99.md").write_bytes(b"\x00\x01\xff\xfe binary")
    code, out, err = invoke("library", "show", ARTICLE, "--root", str(root))
    assert (code, out) == (2, "")
    assert err.startswith("error: article: ") and "is not UTF-8 text" in err
    assert err.count("\n") == 1


@pytest.mark.parametrize("content", [b"x: [", b"\xff\xfe"])
def test_a_broken_planned_file_is_one_error_line(root: Path, content: bytes) -> None:
    (root / "_planned.yaml").write_bytes(content)
    code, out, err = invoke("library", "show", ARTICLE, "--root", str(root))
    assert (code, out) == (2, "")
    assert err.startswith(("error: planned: ", "error: article: ")) and err.count("\n") == 1


def test_check_of_a_folder_without_articles_fails_before_any_sweep(tmp_path: Path) -> None:
    empty, space = tmp_path / "empty", tmp_path / "space"
    empty.mkdir()
    args = ["library", "check", "--root", str(empty), "--space", str(space), "--quiet"]
    code, out, err = invoke(*args)
    assert (code, out) == (2, "")
    assert err == f"error: root: {empty} holds no articles (no *.md file): nothing to check\n"
    assert not space.exists()  # refused before sweeping a space for nothing


def test_the_check_of_a_library_of_no_articles_is_not_ok(tmp_path: Path) -> None:
    report = check(load(tmp_path), space=None)
    assert report.articles == 0 and not report.ok
    assert "no articles" in report.errors[0]
