"""``mingshu library show ID``: an article in the terminal, tables as Rich tables;
``mingshu library stars ENGINE``: an engine's star catalogue as one Rich table a group."""

from __future__ import annotations

import re

from mingshu.library import svg as S
from mingshu.library import tables as T
from mingshu.library.catalogue import GROUPS, KINDS, catalogue
from mingshu.library.check import directives
from mingshu.library.claims import read_record
from mingshu.library.model import Article, Library

__all__ = ["show_article", "show_catalogue"]

_ROLE = re.compile(r"\{claim\}`([^`]*)`")
_LINK = re.compile(r"\[([^\]]*)\]\(([^)]*)\)")


def _plain(text: str, record: dict[str, dict[str, object]]) -> str:
    def claim(m: re.Match[str]) -> str:
        out = []
        for key in m.group(1).split(","):
            entry = record.get(key.strip())
            rows = entry.get("rows") if entry else None
            unit = entry.get("unit") if entry else None
            out.append(
                f"(✓ checked over {rows:,} {unit})"
                if isinstance(rows, int)
                else "(not yet checked)"
            )
        return " ".join(out)

    return _LINK.sub(r"\1", _ROLE.sub(claim, text))


def show_article(article: Article, library: Library) -> None:
    """Print ``article``.  Its text is markup-escaped wherever Rich markup frames it: an
    article's ``[/x]`` or ``a[b]c`` is shown as written, never read as a style."""
    from rich.console import Console
    from rich.markdown import Markdown
    from rich.markup import escape as e
    from rich.table import Table

    con = Console()
    record = {k: dict(v) for k, v in read_record(library.root).items()}
    a = article
    con.print(
        f"[dim]{e(a.id)} / {e(a.subject)} · version {e(str(a.version))} · {e(str(a.date))} · "
        f"{e(str(a.read_minutes))} min read[/dim]"
    )
    con.print(f"[bold]{e(a.title)}[/bold]\n{e(a.subtitle)}\n")
    con.print(e(_plain(a.lede, record)) + "\n")
    con.print("[bold]The short version[/bold]")
    con.print(e(_plain(a.short_version, record)))
    for b in a.short_bullets:
        con.print(f"  • {e(_plain(b, record))}")
    read_first = library.title_of(a.read_first) or a.read_first
    con.print(f"\n[bold]Read first:[/bold] {e(read_first)}\n")
    body = a.body
    blocks = {d.line: d for d in directives(a)}
    lines = body.splitlines()
    i = 0
    chunk: list[str] = []

    def flush() -> None:
        if chunk:
            con.print(Markdown(_plain("\n".join(chunk), record)))
            chunk.clear()

    while i < len(lines):
        line = lines[i]
        if line.startswith("```{"):
            flush()
            d = blocks.get(i + 1)
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            if d is not None:
                if d.name == "table":
                    t = T.table(d.arg, d.options)
                    caption = e(str(d.options.get("caption", "")))
                    rt = Table(*map(e, t.columns), caption=caption)
                    for r, row in enumerate(t.rows):
                        rt.add_row(
                            *(
                                f"[green bold]{e(c)}[/]" if (r, k) in t.marked else e(c)
                                for k, c in enumerate(row)
                            )
                        )
                    con.print(rt)
                elif d.name == "diagram":
                    _svg, alt = S.diagram(d.arg, d.options)
                    con.print(
                        f"[dim]Diagram:[/dim] {e(alt)}\n"
                        f"[italic]{e(str(d.options.get('caption', '')))}[/italic]\n"
                    )
                elif d.name == "quote":
                    con.print(
                        f"  {e(str(d.options.get('zh')))}\n  “{e(str(d.options.get('en')))}”\n"
                        f"  [dim]— {e(str(d.options.get('cite')))}, our translation[/dim]\n"
                    )
                elif d.name == "modern":
                    text = e(_plain(str(d.options.get("text")), record))
                    con.print(
                        f"  [blue]Modern summary:[/blue] {text} "
                        f"[dim]({e(str(d.options.get('source')))})[/dim]\n"
                    )
                elif d.name == "absent":
                    text = e(_plain(str(d.options.get("text")), record))
                    terms = e(" / ".join(map(str, d.options.get("terms", []))))
                    con.print(
                        f"  [dim]No source yet:[/dim] {text} (searched for {terms}: not found)\n"
                    )
                elif d.name == "nosource":
                    text = e(_plain(str(d.options.get("text")), record))
                    con.print(f"  [dim]No source yet:[/dim] {text}\n")
            i = j + 1
            continue
        chunk.append(line)
        i += 1
    flush()
    con.print("\n[bold]Check it yourself[/bold]")
    for n, s in enumerate(a.steps, 1):
        con.print(f" {n}. [bold]{e(s.title)}[/bold] — {e(_plain(s.text, record))}")
    con.print("\n[bold]Problems[/bold]")
    for p in a.problems:
        con.print(
            f" [bold]{e(p.label)}[/bold] {e(_plain(p.question, record))}\n"
            f"   Answer: {e(str(p.answer))}. {e(_plain(p.working, record))}"
        )
    con.print("\n[bold]Questions readers ask next[/bold]")
    for q in a.questions:
        con.print(f" [bold]{e(q.question)}[/bold]\n   {e(_plain(q.answer, record))}")
    con.print("\n[bold]Sources & references[/bold]")
    for n, ref in enumerate(a.sources, 1):
        con.print(f" {n}. {e(ref.title)} — {e(ref.where)} <{e(ref.link)}>")
    con.print("\n[bold]Continue reading[/bold]")
    for c in a.continue_ids:
        con.print(f" • {e(library.title_of(c) or c)}")


def show_catalogue(library: Library, engine: str, names: str = "hans") -> None:
    """Print the star catalogue of ``engine``: each group a table of its stars (``names``
    first), their rules, sources and articles."""
    from rich.console import Console
    from rich.markup import escape as e
    from rich.table import Table

    from mingshu.library.render import CATALOGUE_TITLES, NAME_LANGS

    entries = catalogue(library, engine)
    if not isinstance(names, str) or names not in NAME_LANGS:
        from mingshu.errors import InputError

        raise InputError("names", f"one of {', '.join(NAME_LANGS)}, not {names!r}")
    con = Console()
    covered = sum(1 for x in entries if x.articles)
    con.print(f"[bold]{e(CATALOGUE_TITLES[engine])}[/bold]")
    con.print(f"{covered} of {len(entries)} stars have an article.")
    for group, heading in GROUPS[engine].items():
        rows = [x for x in entries if x.group == group]
        if not rows:
            continue
        table = Table(title=e(heading), show_lines=True)
        for head in ("Star", "Rule", "Source", "Articles"):
            table.add_column(head, overflow="fold")
        for x in rows:
            others = " · ".join(
                getattr(x.names, style)
                for style in NAME_LANGS
                if style != names and getattr(x.names, style)
            )
            star = f"[bold]{e(getattr(x.names, names) or x.names.hans)}[/bold]\n{e(others)}"
            rule = x.rule + (f"\nThe 全书 school: {x.school_rule}" if x.school_rule else "")
            where = " ".join(p for p in (x.source.citation, x.source.at) if p)
            source = KINDS[x.source.kind] + (f"\n{where}" if where else "")
            articles = "\n".join(f"{a} {library.title_of(a) or ''}".strip() for a in x.articles)
            table.add_row(star, e(rule), e(source), e(articles or "no article yet"))
        con.print(table)
