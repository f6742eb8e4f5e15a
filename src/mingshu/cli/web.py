"""``mingshu serve``: the web site on 127.0.0.1 (needs the ``web`` extra).

Example::

    mingshu serve                    # http://127.0.0.1:8000/, SQLite in ~/.local/share/mingshu
    MINGSHU_DATABASE_URL=postgresql://user:pw@host/db mingshu serve --port 8080 --workers 2
    mingshu feedback list --article ZW-AUX-17    # the stored "Was this article helpful?"
"""

from __future__ import annotations

from typing import Annotated

import typer

__all__ = ["feedback_list", "register", "serve"]


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
    group = typer.Typer(
        name="feedback",
        help='The readers\' answers to "Was this article helpful?" stored by the site.',
        no_args_is_help=True,
        add_completion=False,
        rich_markup_mode=None,
    )
    group.command("list")(feedback_list)
    app.add_typer(group)


def serve(
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on.")] = 8000,
    workers: Annotated[
        int, typer.Option("--workers", help="Worker processes (they share the database).")
    ] = 1,
) -> None:
    """Run the web site: chart page, library, JSON API (docs/web.md)."""
    from mingshu.cli._errors import fail
    from mingshu.errors import InputError

    if not 0 < port < 65536:
        fail(InputError("port", f"{port} is not a port number (1..65535)"), [])
    if not 1 <= workers <= 64:
        fail(InputError("workers", f"{workers} is not 1..64"), [])
    try:
        from mingshu.web.server import serve as run
    except ImportError as e:
        fail(
            InputError("serve", f"the web extra is missing ({e.name}): pip install -e '.[web]'"), []
        )
    run(host, port, workers)


def feedback_list(
    article: Annotated[
        str | None, typer.Option("--article", help="Only this article's answers (an id).")
    ] = None,
    last: Annotated[int, typer.Option("--last", help="Only the last N answers (0: all).")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="JSON lines instead of a table.")] = False,
) -> None:
    """List the stored feedback, oldest first, from the site's database (MINGSHU_DATABASE_URL
    or the default SQLite file, as `mingshu serve` uses).  Client addresses are stored only
    as salted hashes and are not shown."""
    from mingshu.cli._errors import fail
    from mingshu.errors import InputError

    if last < 0:
        fail(InputError("last", f"{last} is not a count (0 or more)"), [])
    try:
        import sqlalchemy.exc

        from mingshu.web.server import _safe
        from mingshu.web.store import Store, database_url
    except ImportError as e:
        fail(
            InputError("feedback", f"the web extra is missing ({e.name}): pip install -e '.[web]'"),
            [],
        )
    if article is not None and not _is_text(article):  # bytes that are not UTF-8, in argv
        fail(InputError("article", "is not UTF-8 text (an article id is like ZW-AUX-17)"), [])
    url = database_url()
    try:  # a URL of an unknown dialect, or of a driver that is not installed
        store = Store(url)
    except (sqlalchemy.exc.SQLAlchemyError, ImportError) as e:
        reason = str(e).splitlines()[0]
        fail(InputError("database", f"cannot open {_safe(url)}: {reason}"), [])
    try:
        rows = store.feedback(article[:40] if article else None)
    except sqlalchemy.exc.SQLAlchemyError as e:
        reason = str(getattr(e, "orig", None) or e).splitlines()[0]
        fail(InputError("database", f"cannot read feedback from {_safe(url)}: {reason}"), [])
    finally:
        store.dispose()
    if last:
        rows = rows[-last:]
    if as_json:
        import json

        for r in rows:
            item = {
                "id": r.id, "article": r.article_id, "version": r.article_version,
                "helpful": r.helpful, "comment": r.comment, "created": r.created.isoformat(),
            }  # fmt: skip
            typer.echo(json.dumps(item, ensure_ascii=False))
        return
    if not rows:
        typer.echo("no feedback stored" + (f" for {article}" if article else ""))
        return
    for r in rows:
        when = r.created.strftime("%Y-%m-%d %H:%M")
        answer = "yes" if r.helpful else "no "
        comment = " ".join(r.comment.split())
        typer.echo(f"{r.id:>6}  {when}  {r.article_id} v{r.article_version}  {answer}  {comment}")


def _is_text(value: str) -> bool:
    """``value`` holds no surrogate: Python's stand-in for bytes of argv that are not UTF-8."""
    try:
        value.encode()
    except UnicodeEncodeError:
        return False
    return True
