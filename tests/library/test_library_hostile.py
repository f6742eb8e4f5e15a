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


def test_build_with_an_empty_out_is_refused_and_writes_nothing(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Path("") is the working directory: the site was written there (issue 20).
    here = tmp_path / "cwd"
    here.mkdir()
    monkeypatch.chdir(here)
    code, out, err = invoke("library", "build", "--out", "", "--root", str(root))
    assert (code, out) == (2, "")
    assert err.startswith("error: out: ") and err.count("\n") == 1
    assert list(here.iterdir()) == []


@pytest.mark.parametrize("article_id", [None, 3, ["ZW-AUX-05"], b"ZW-AUX-05", "ZW\udcff"])
def test_an_article_id_that_is_not_text_is_an_input_error(root: Path, article_id: object) -> None:
    from mingshu.errors import InputError

    library = load(root)
    for call in (library.exists, library.title_of):
        with pytest.raises(InputError) as error:
            call(article_id)  # type: ignore[arg-type]
        assert error.value.field == "article"
    assert library.exists(ARTICLE) and library.title_of("ZW-NOPE-99") is None


def test_render_and_build_name_their_wrong_arguments(root: Path, tmp_path: Path) -> None:
    from mingshu.errors import InputError
    from mingshu.library.build import build_site
    from mingshu.library.render import article_html, index_html

    library = load(root)
    article = library.get(ARTICLE)
    calls: list[tuple[str, object]] = [
        ("article", lambda: article_html("ZW-AUX-05", library)),  # type: ignore[arg-type]
        ("library", lambda: article_html(article, str(root))),  # type: ignore[arg-type]
        ("link", lambda: article_html(article, library, link="x.html")),  # type: ignore[arg-type]
        ("card_url", lambda: article_html(article, library, card_url=b"c.png")),  # type: ignore[arg-type]
        ("summary_url", lambda: article_html(article, library, summary_url=2)),  # type: ignore[arg-type]
        ("helpful", lambda: article_html(article, library, helpful=True)),  # type: ignore[arg-type]
        ("helpful", lambda: article_html(article, library, helpful="\udcff")),
        ("library", lambda: index_html(None)),  # type: ignore[arg-type]
        ("link", lambda: index_html(library, link=None)),  # type: ignore[arg-type]
        ("library", lambda: build_site(root, tmp_path / "site")),  # type: ignore[arg-type]
        ("out", lambda: build_site(library, None)),  # type: ignore[arg-type]
        ("out", lambda: build_site(library, "")),
        ("out", lambda: build_site(library, str(tmp_path / ("x" * 300)))),
    ]
    for field, call in calls:
        with pytest.raises(InputError) as error:
            call()  # type: ignore[operator]
        assert error.value.field == field
    assert not (tmp_path / "site").exists()
    assert "<article" in article_html(article, library, card_url="c.png", helpful="<p>?</p>")
