"""``mingshu library show ID``: an article in the terminal, tables as Rich tables."""

from __future__ import annotations

import re

from mingshu.library import engine as E
from mingshu.library import svg as S
from mingshu.library.check import directives
from mingshu.library.claims import read_record
from mingshu.library.model import Article, Library

__all__ = ["show_article"]

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
    from rich.console import Console
    from rich.markdown import Markdown
    from rich.table import Table

    con = Console()
    record = {k: dict(v) for k, v in read_record(library.root).items()}
    a = article
    con.print(
        f"[dim]{a.id} / {a.subject} · version {a.version} · {a.date} · "
        f"{a.read_minutes} min read[/dim]"
    )
    con.print(f"[bold]{a.title}[/bold]\n{a.subtitle}\n")
    con.print(_plain(a.lede, record) + "\n")
    con.print("[bold]The short version[/bold]")
    con.print(_plain(a.short_version, record))
    for b in a.short_bullets:
        con.print(f"  • {_plain(b, record)}")
    con.print(f"\n[bold]Read first:[/bold] {library.title_of(a.read_first) or a.read_first}\n")
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
                    t = E.table(d.arg, d.options)
                    rt = Table(*t.columns, caption=str(d.options.get("caption", "")))
                    for r, row in enumerate(t.rows):
                        rt.add_row(
                            *(
                                f"[green bold]{c}[/]" if (r, k) in t.marked else c
                                for k, c in enumerate(row)
                            )
                        )
                    con.print(rt)
                elif d.name == "diagram":
                    _svg, alt = S.diagram(d.arg, d.options)
                    con.print(
                        f"[dim]Diagram:[/dim] {alt}\n[italic]{d.options.get('caption', '')}"
                        "[/italic]\n"
                    )
                elif d.name == "quote":
                    con.print(
                        f"  {d.options.get('zh')}\n  “{d.options.get('en')}”\n"
                        f"  [dim]— {d.options.get('cite')}, our translation[/dim]\n"
                    )
                elif d.name == "modern":
                    text = _plain(str(d.options.get("text")), record)
                    con.print(
                        f"  [blue]Modern summary:[/blue] {text} "
                        f"[dim]({d.options.get('source')})[/dim]\n"
                    )
                elif d.name == "absent":
                    con.print(
                        f"  [dim]No source yet:[/dim] {_plain(str(d.options.get('text')), record)}"
                        " (searched for "
                        f"{' / '.join(map(str, d.options.get('terms', [])))}: not found)\n"
                    )
                elif d.name == "nosource":
                    text = _plain(str(d.options.get("text")), record)
                    con.print(f"  [dim]No source yet:[/dim] {text}\n")
            i = j + 1
            continue
        chunk.append(line)
        i += 1
    flush()
    con.print("\n[bold]Check it yourself[/bold]")
    for n, s in enumerate(a.steps, 1):
        con.print(f" {n}. [bold]{s.title}[/bold] — {_plain(s.text, record)}")
    con.print("\n[bold]Problems[/bold]")
    for p in a.problems:
        con.print(
            f" [bold]{p.label}[/bold] {_plain(p.question, record)}\n"
            f"   Answer: {p.answer}. {_plain(p.working, record)}"
        )
    con.print("\n[bold]Questions readers ask next[/bold]")
    for q in a.questions:
        con.print(f" [bold]{q.question}[/bold]\n   {_plain(q.answer, record)}")
    con.print("\n[bold]Sources & references[/bold]")
    for n, ref in enumerate(a.sources, 1):
        con.print(f" {n}. {ref.title} — {ref.where} <{ref.link}>")
    con.print("\n[bold]Continue reading[/bold]")
    for c in a.continue_ids:
        con.print(f" • {library.title_of(c) or c}")
