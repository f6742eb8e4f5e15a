"""``mingshu serve``: the web site on 127.0.0.1 (needs the ``web`` extra).

Example::

    mingshu serve                    # http://127.0.0.1:8000/, SQLite in ~/.local/share/mingshu
    MINGSHU_DATABASE_URL=postgresql://user:pw@host/db mingshu serve --port 8080 --workers 2
    mingshu feedback list --article ID           # the stored "Was this article helpful?"
"""

from __future__ import annotations

import re
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
    forwarded_allow_ips: Annotated[
        str,
        typer.Option(
            "--forwarded-allow-ips",
            help="Proxies whose X-Forwarded-For/-Proto are believed: comma-separated "
            "addresses or networks, or * (default: none; docs/web.md, Behind a proxy).",
        ),
    ] = "",
) -> None:
    """Run the web site: chart page, library, JSON API (docs/web.md)."""
    from mingshu.cli._errors import fail
    from mingshu.errors import InputError

    if not 0 < port < 65536:
        fail(InputError("port", f"{port} is not a port number (1..65535)"), [])
    if not 1 <= workers <= 64:
        fail(InputError("workers", f"{workers} is not 1..64"), [])
    try:
        _check_host(host, port)
    except InputError as e:
        fail(e, [host])
    try:
        forwarded_allow_ips = _check_proxies(forwarded_allow_ips)
    except InputError as e:
        fail(e, [forwarded_allow_ips])
    try:
        from mingshu.web.server import serve as run
        from mingshu.web.store import feedback_rate_from_env
        from mingshu.web.warmup import pages_from_env
    except ImportError as e:
        fail(
            InputError("serve", f"the web extra is missing ({e.name}): pip install -e '.[web]'"), []
        )
    try:  # the workers read them: a bad value is told here, once, before anything starts
        feedback_rate_from_env()
        pages_from_env()
    except InputError as e:
        fail(e, [])
    run(host, port, workers, forwarded_allow_ips)


def _check_proxies(value: str) -> str:
    """``value`` as uvicorn reads it (comma-separated, no blanks), or an :class:`InputError`
    naming the entry that is neither an address, a network nor ``*``."""
    import ipaddress

    from mingshu.cli._errors import clip
    from mingshu.errors import InputError

    entries = [e.strip() for e in value.split(",")] if value.strip() else []
    for entry in entries:
        if entry == "*":
            continue
        try:
            ipaddress.ip_network(entry, strict=False)
        except ValueError:
            raise InputError(
                "forwarded-allow-ips",
                f"{clip(repr(entry))} is not an IP address, a network (10.0.0.0/8) or *",
            ) from None
    return ",".join(entries)


_LABEL = r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)"


def _check_host(host: str, port: int) -> None:
    """An :class:`InputError` on ``host`` unless it is an IP address or a host name this
    machine resolves (as the server would, later, with a traceback)."""
    import ipaddress
    import re
    import socket

    from mingshu.cli._errors import clip
    from mingshu.errors import InputError

    try:
        ipaddress.ip_address(host)
        return
    except ValueError:
        pass
    name = host.removesuffix(".")
    labels = name.split(".")
    if (
        len(name) > 253
        or not all(re.fullmatch(_LABEL, label) for label in labels)
        or labels[-1].isdigit()  # 999.1.1.1: a bad IPv4 address, not a name
    ):
        raise InputError(
            "host",
            f"{clip(repr(host))} is not an IP address or a host name (127.0.0.1: this "
            "machine only; 0.0.0.0: every interface)",
        )
    try:
        socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as e:
        reason = getattr(e, "strerror", None) or e
        raise InputError("host", f"{clip(repr(host))} cannot be resolved: {reason}") from None


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
        fail(InputError("article", "is not UTF-8 text (an article id is AREA-SERIES-NN)"), [])
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
            # json escapes C0 controls only: C1 and the bidi controls are escaped here, so
            # the line is still the stored text once parsed.
            typer.echo(_UNSAFE.sub(_escaped, json.dumps(item, ensure_ascii=False)))
        return
    if not rows:
        typer.echo("no feedback stored" + (f" for {article}" if article else ""))
        return
    for r in rows:
        when = r.created.isoformat(sep=" ", timespec="minutes")  # UTC, with its offset
        answer = "yes" if r.helpful else "no "
        comment = " ".join(_UNSAFE.sub(" ", r.comment).split())
        article_id, version = (_UNSAFE.sub("", x) for x in (r.article_id, r.article_version))
        typer.echo(f"{r.id:>6}  {when}  {article_id} v{version}  {answer}  {comment}")


_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
"""What a reader's comment must not send to the operator's terminal: control characters
(ESC starts escape sequences that recolour, move the cursor, retitle the window or rewrite
the screen; C1 CSI does the same on some terminals) and the bidi controls that reorder the
line around them."""


def _escaped(m: re.Match[str]) -> str:
    return f"\\u{ord(m[0]):04x}"


def _is_text(value: str) -> bool:
    """``value`` holds no surrogate: Python's stand-in for bytes of argv that are not UTF-8."""
    try:
        value.encode()
    except UnicodeEncodeError:
        return False
    return True
