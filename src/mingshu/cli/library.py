"""``mingshu library check | build | show | stars``: the knowledge library's articles and
its star catalogues.

``stars ENGINE`` prints an engine's star catalogue (the site's ``/library/stars/ENGINE``).

``check`` validates every article (format, links, directives, tables, problems, claims,
quotations) and prints the stars the articles cover and one summary line: articles, claims,
rows checked, time.  The Zi Wei claims run over swept datasets in ``--space`` (one per
leap-month setting), swept there when missing, with progress; ``--record`` saves the
whole-space counts the pages print.
Exit 0 when everything holds, 1 when something fails (each failure on stderr).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

__all__ = ["build", "check", "register", "show", "stars"]


def register(app: typer.Typer) -> None:
    group = typer.Typer(
        name="library",
        help="The knowledge library: check, build and show articles; the star catalogues.",
        no_args_is_help=True,
        add_completion=False,
        rich_markup_mode=None,
    )
    group.command("check")(check)
    group.command("build")(build)
    group.command("show")(show)
    group.command("stars")(stars)
    app.add_typer(group)


def _default_space() -> Path:
    base = os.environ.get("MINGSHU_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "mingshu"
    )
    return Path(base) / "library-space"


def _years(text: str) -> tuple[int, int]:
    from mingshu.errors import InputError

    try:
        first, _, last = text.partition(":")
        a, b = int(first), int(last or first)
    except ValueError:
        raise InputError("years", f"give FIRST:LAST, e.g. 1900:2100, not {text!r}") from None
    if not 1900 <= a <= b <= 2100:
        raise InputError("years", f"years are 1900 … 2100, first ≤ last, not {text!r}")
    return a, b


def check(
    space: Annotated[
        str | None,
        typer.Option(help="Folder of the swept datasets (default: the user cache folder)."),
    ] = None,
    years: Annotated[
        str, typer.Option(metavar="FIRST:LAST", help="Years to sweep when missing.")
    ] = "1900:2100",
    sources: Annotated[
        str | None,
        typer.Option(
            help="The classical transcriptions (default ../shared/sources, else sources/)."
        ),
    ] = None,
    root: Annotated[
        str | None, typer.Option(help="An articles folder instead of the package's.")
    ] = None,
    record: Annotated[
        bool, typer.Option("--record", help="Save the whole-space claim counts the pages print.")
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress lines.")] = False,
    article: Annotated[
        list[str] | None,
        typer.Option(
            "--article",
            metavar="ID",
            help="Check only this article (repeatable): its parts, tables, problems and the "
            "claims it cites; links resolve against the whole library.",
        ),
    ] = None,
) -> None:
    """Check every article (or those --article names); print a summary line.  Exit 1 if
    anything fails."""
    from mingshu.cli._errors import fail
    from mingshu.errors import InputError
    from mingshu.library import load
    from mingshu.library.check import check as run
    from mingshu.library.check import ensure_space

    try:
        lib = load(root)
        if not lib.articles:  # before any sweep: nothing checked is never "ok"
            raise InputError(
                "root", f"{lib.root} holds no articles (no *.md file): nothing to check"
            )
        folder = Path(space) if space else _default_space()
        ensure_space(folder, _years(years), progress=not quiet)
        say = None if quiet else (lambda s: typer.echo(s, err=True))
        report = run(
            lib,
            space=folder,
            sources=Path(sources) if sources else None,
            record=record,
            progress=say,
            only=article or None,
        )
    except InputError as e:
        fail(e, article or [])
    for line in report.errors:
        typer.echo(f"FAIL {line}", err=True)
    for line in report.article_lines():
        typer.echo(line)
    if report.planned:
        typer.echo(f"planned (linked, not yet written): {', '.join(report.planned)}")
    layers = ", ".join(f"{k} {v}" for k, v in report.layers.items())
    typer.echo(f"layers: {layers}")
    typer.echo(report.coverage)
    typer.echo(report.summary())
    raise typer.Exit(0 if report.ok else 1)


def build(
    out: Annotated[str, typer.Option("--out", help="Folder to write the static site into.")],
    root: Annotated[
        str | None, typer.Option(help="An articles folder instead of the package's.")
    ] = None,
) -> None:
    """Write the library as a static HTML site that works from the file system."""
    from mingshu.cli._errors import fail
    from mingshu.errors import InputError
    from mingshu.library import load
    from mingshu.library.build import build_site

    try:
        written = build_site(load(root), out)  # a str: Path("") would be the cwd
    except InputError as e:
        fail(e)
    typer.echo(f"wrote {len(written)} files to {out}")


def show(
    article_id: Annotated[
        str,
        typer.Argument(metavar="ID", help="An article id: AREA-SERIES-NN, as the index lists it."),
    ],
    root: Annotated[
        str | None, typer.Option(help="An articles folder instead of the package's.")
    ] = None,
) -> None:
    """Print an article in the terminal (tables as Rich tables)."""
    from mingshu.cli._errors import fail
    from mingshu.errors import InputError
    from mingshu.library import load
    from mingshu.library.show import show_article

    try:
        lib = load(root)
        show_article(lib.get(article_id), lib)
    except InputError as e:
        fail(e)


def stars(
    engine: Annotated[
        str, typer.Argument(metavar="ENGINE", help="ziwei or bazi: whose stars to list.")
    ],
    names: Annotated[
        str,
        typer.Option(help="Which name leads each row: hans, hant, pinyin or english."),
    ] = "hans",
    root: Annotated[
        str | None, typer.Option(help="An articles folder instead of the package's.")
    ] = None,
) -> None:
    """Print an engine's star catalogue: every star, its rule in one line, the source of
    the rule's words and the articles that cover it (or "no article yet")."""
    from mingshu.cli._errors import fail
    from mingshu.errors import InputError
    from mingshu.library import load
    from mingshu.library.show import show_catalogue

    try:
        # ZIWEI and " bazi " name the same engine; anything else is refused by name
        show_catalogue(load(root), engine.strip().lower(), names.strip().lower())
    except InputError as e:
        fail(e)
