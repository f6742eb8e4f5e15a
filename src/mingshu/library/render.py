"""Articles and the index as HTML fragments (no ``<html>``/``<head>``): SVG inline, every
text escaped, links made by the caller's ``link`` so the static build and the web site each
make their own URLs.  The fragments need ``static/library.css`` (:func:`css_path`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from html import escape
from importlib import resources
from pathlib import Path
from typing import Any, Final

from mingshu.arguments import check_text, check_type
from mingshu.errors import InputError
from mingshu.library import engine as E
from mingshu.library import svg as S
from mingshu.library import tables as T
from mingshu.library.catalogue import GROUPS, KINDS, Entry, catalogue
from mingshu.library.check import Directive, directives
from mingshu.library.claims import BADGES, ArticleClaim, load_claims, read_record
from mingshu.library.model import SERIES, SUBJECTS, Article, Library, markdown
from mingshu.named import clip

__all__ = ["article_html", "catalogue_html", "css_path", "figure_html", "index_html"]

Link = Callable[[str], str]
PHONE_WIDTH = 312
"""The content width of a 360 px phone (less the page's padding): wider diagrams scroll."""


def css_path() -> Path:
    """The stylesheet the fragments need (package data)."""
    return Path(str(resources.files("mingshu.library") / "static" / "library.css"))


class _Ctx:
    def __init__(self, article: Article, library: Library, link: Link):
        self.article = article
        self.library = library
        self.link = link
        self.record = read_record(library.root)
        self.known: dict[str, ArticleClaim] = load_claims(library.root)
        self.stack: list[bool] = []
        self.claims: list[str] = []

    # links: written articles become links, planned ones plain text
    def link_open(self, href: str) -> str:
        if href.startswith(("http://", "https://")):
            self.stack.append(True)
            return f"<a href='{escape(href)}' rel='noopener'>"
        if href.startswith("#"):
            self.stack.append(True)
            return f"<a href='{escape(href)}'>"
        if self.library.exists(href):
            self.stack.append(True)
            return f"<a href='{escape(self.link(href))}'>"
        self.stack.append(False)
        return "<span class='ms-planned' title='planned article'>"

    def link_close(self) -> str:
        return "</a>" if self.stack.pop() else "</span>"

    def claim(self, content: str) -> str:
        """One badge for one or more claims: what they say (title) and what was checked, by
        the claims' kind: over how many charts or cases (from the record), or against the
        data file."""
        keys = [k.strip() for k in content.split(",") if k.strip()]
        self.claims.extend(k for k in keys if k not in self.claims)
        counts: list[str] = []
        tips: list[str] = []
        data = False
        for key in keys:
            entry = self.record.get(key)
            statement = self.statement(key)
            if self.badge(key) == "data":
                data = True
                tips.append(f"{statement} ({BADGES['data']})")
            elif entry:
                count = f"{int(entry['rows']):,} {entry['unit']}"
                if count not in counts:
                    counts.append(count)
                tips.append(
                    f"{statement} ({entry['space']}: {entry['counterexamples']} counterexamples)"
                )
            else:
                counts.append("not yet checked over the whole space")
                tips.append(statement)
        what = "claim" if len(keys) == 1 else f"{len(keys)} claims"
        said = [BADGES["data"]] if data else []
        if counts:
            said.insert(0, "checked over " + " / ".join(counts))
        text = f"{what}, " + "; ".join(said)
        if counts and counts[0].startswith("not yet"):
            text = "not yet checked over the whole space"
        tag = "data file" if data and not counts else "engine"
        return (
            f"<a class='ms-claim ms-badge-{'data' if tag == 'data file' else 'space'}' "
            f"href='#claim-{escape(keys[0])}' title='{escape(' · '.join(tips))}'>"
            f"<span class='ms-layer-tag'>{tag}</span> {escape(text)}</a>"
        )

    def statement(self, key: str) -> str:
        found = self.known.get(key)
        return found.statement if found else key

    def badge(self, key: str) -> str:
        """The claim's badge kind (a key of BADGES); an unknown claim's is the space's."""
        found = self.known.get(key)
        return found.badge if found else "space"

    def claims_html(self) -> str:
        """Every claim the article makes: its statement, the space and N from the record."""
        items = []
        for key in self.claims:
            entry = self.record.get(key)
            if entry and self.badge(key) == "data":
                how = f"{BADGES['data']} ({entry['space']}), {int(entry['counterexamples'])} "
                how += "counterexamples"
            elif entry:
                how = (
                    f"checked over {int(entry['rows']):,} {entry['unit']} "
                    f"({entry['space']}), {int(entry['counterexamples'])} counterexamples"
                )
            else:
                how = "not yet checked over the whole space"
            items.append(
                f"<li id='claim-{escape(key)}'>{escape(self.statement(key))}. "
                f"<span class='ms-sub'>{escape(how)}. Query <code>{escape(key)}</code>."
                "</span></li>"
            )
        if not items:
            return ""
        return (
            "<section class='ms-claims' id='claims'><h2>Claims checked by the engine</h2>"
            "<p>Every engine fact above is one of these queries, run over the whole space it "
            f"speaks of.</p><ol>{''.join(items)}</ol></section>"
        )


def _inline(text: str, ctx: _Ctx) -> str:
    md = markdown()
    tokens = md.parseInline(text)
    return _render(tokens, ctx)


def _block(text: str, ctx: _Ctx, figures: dict[str, str] | None = None) -> str:
    return _render(markdown().parse(text), ctx, figures)


def _render(tokens: Any, ctx: _Ctx, figures: dict[str, str] | None = None) -> str:
    md = markdown()
    out: list[str] = []
    for i, token in enumerate(tokens):
        if token.type == "inline":
            out.append(_render(token.children or [], ctx))
        elif token.type == "link_open":
            out.append(ctx.link_open(str(token.attrGet("href") or "")))
        elif token.type == "link_close":
            out.append(ctx.link_close())
        elif token.type == "myst_role":
            out.append(ctx.claim(token.content))
        elif token.type == "fence" and token.info.strip().startswith("{"):
            d = next(
                (x for x in directives_by_line(ctx.article) if x.line == token.map[0] + 1), None
            )
            if d is not None:
                out.append(_directive(d, ctx))
        else:
            out.append(md.renderer.render([token], md.options, {}))
        del i
    return "".join(out)


def directives_by_line(article: Article) -> list[Directive]:
    return list(directives(article))


def _table_html(t: E.Table) -> str:
    head = "".join(f"<th scope='col'>{escape(c)}</th>" for c in t.columns)
    rows = []
    for r, row in enumerate(t.rows):
        cells = []
        for c, cell in enumerate(row):
            mark = " class='ms-mark'" if (r, c) in t.marked else ""
            tag = "th scope='row'" if c == 0 else "td"
            cells.append(f"<{tag}{mark}>{escape(cell)}</{tag.split()[0]}>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def figure_html(d: Directive, *, full: bool = True, ctx: _Ctx | None = None) -> str:
    """A table or diagram directive as a figure: the content in a sideways-scrolling box,
    the caption, and (for diagrams) a full-size view."""
    fid = escape(str(d.options.get("id", f"l{d.line}")))
    caption = escape(str(d.options.get("caption", "")))
    if ctx is not None:
        caption = _inline(str(d.options.get("caption", "")), ctx)
    if d.name == "table":
        t = T.table(d.arg, d.options)
        legend = (
            f"<span class='ms-legend'><span class='ms-swatch'></span> marked: "
            f"{escape(t.mark_rule)}.</span><br>"
            if t.marked
            else ""
        )
        return (
            f"<figure class='ms-figure ms-table' id='fig-{fid}'>"
            f"<div class='ms-scroll' tabindex='0'>{_table_html(t)}</div>"
            f"<figcaption>{legend}{caption}</figcaption></figure>"
        )
    svg, alt = S.diagram(d.arg, d.options)
    labelled = svg.replace("role='img'", f"role='img' aria-label='{escape(alt)}'", 1)
    more = (
        f" <a class='ms-enlarge' href='#full-{fid}'>Open the full-size diagram</a>" if full else ""
    )
    wide = re.search(r"width='(\d+)'", svg)
    if wide and int(wide.group(1)) > PHONE_WIDTH:
        more = " <span class='ms-scroll-hint'>Wider than a phone: scroll it sideways.</span>" + more
    out = (
        f"<figure class='ms-figure ms-diagram' id='fig-{fid}'>"
        f"<div class='ms-scroll' tabindex='0'>{labelled}</div>"
        f"<figcaption>{caption}{more}</figcaption>"
        f"<details class='ms-alt'><summary>Text of the diagram</summary><p>{escape(alt)}</p>"
        f"</details></figure>"
    )
    if full:
        big = labelled.replace("<svg ", "<svg class='ms-big' ", 1)
        out += (
            f"<div class='ms-full' id='full-{fid}' role='dialog' aria-label='Full-size diagram'>"
            f"<a class='ms-close' href='#fig-{fid}'>Close ✕</a>"
            f"<div class='ms-full-body'>{big}</div></div>"
        )
    return out


def _directive(d: Directive, ctx: _Ctx) -> str:
    o = d.options
    if d.name in ("table", "diagram"):
        if d.name == "table":  # a count table's claims are listed with the others
            from mingshu.library.tables import table_claims

            keys = table_claims(d.arg, o)
            ctx.claims.extend(k for k in keys if k not in ctx.claims)
        return figure_html(d, ctx=ctx)
    if d.name == "quote":
        return (
            "<figure class='ms-quote ms-layer-book'>"
            "<span class='ms-layer-tag'>The book's words</span>"
            f"<blockquote><p class='ms-zh' lang='zh-Hant'>{escape(str(o.get('zh', '')))}</p>"
            f"<p class='ms-en'>{escape(str(o.get('en', '')))}</p></blockquote>"
            f"<figcaption>{escape(str(o.get('cite', '')))}, our translation · "
            f"<span class='ms-badge-quote'>{BADGES['quote']}</span></figcaption></figure>"
        )
    if d.name == "modern":
        return (
            "<aside class='ms-modern'><span class='ms-layer-tag'>Modern summary</span> "
            f"{_inline(str(o.get('text', '')), ctx)} "
            f"<cite>{escape(str(o.get('source', '')))}</cite></aside>"
        )
    if d.name == "absent":
        searched = ", ".join(str(f) for f in o.get("sources", []))
        terms = " / ".join(str(t) for t in o.get("terms", []))
        return (
            "<aside class='ms-nosource'><span class='ms-layer-tag'>No source yet</span> "
            f"{_inline(str(o.get('text', '')), ctx)} <span class='ms-searched'>Searched for "
            f"<span lang='zh'>{escape(terms)}</span>, not found in: {escape(searched)}.</span>"
            "</aside>"
        )
    if d.name == "nosource":
        return (
            "<aside class='ms-nosource'><span class='ms-layer-tag'>No source yet</span> "
            f"{_inline(str(o.get('text', '')), ctx)}</aside>"
        )
    return ""


def _figure_by_id(article: Article, fid: str) -> Directive | None:
    for d in directives(article):
        if str(d.options.get("id", "")) == fid:
            return d
    return None


def summary_html(article: Article, ctx: _Ctx) -> str:
    """The eighteen-second summary: four frames that play in turn (CSS), pausable, and a
    still sequence under prefers-reduced-motion."""
    aid = escape(article.id)
    d = _figure_by_id(article, article.summary_figure)
    figure = figure_html(d, full=False) if d is not None else ""
    questions = "".join(f"<li>{_inline(q, ctx)}</li>" for q in article.summary_questions)
    frames = [
        f"<p class='ms-frame-kicker'>{aid}</p><p class='ms-frame-title'>"
        f"{escape(article.title)}</p><p>{escape(article.subtitle)}</p>",
        figure,
        f"<p class='ms-frame-kicker'>The rule</p><p class='ms-frame-rule'>"
        f"{_inline(article.summary_rule, ctx)}</p>",
        f"<p class='ms-frame-kicker'>Ask before reading</p><ol>{questions}</ol>",
    ]
    body = "".join(
        f"<div class='ms-frame ms-frame-{i + 1}'>{f}</div>" for i, f in enumerate(frames)
    )
    return (
        f"<section class='ms-summary' aria-label='Eighteen-second summary'>"
        f"<h2>Eighteen seconds</h2><p>{_inline(article.summary_line, ctx)}</p>"
        f"<input type='checkbox' class='ms-pause' id='pause-{aid}'>"
        f"<label for='pause-{aid}' class='ms-pause-label'>Pause</label>"
        f"<div class='ms-frames'>{body}</div></section>"
    )


def _check_library(library: object, link: object) -> None:
    check_type(library, Library, "library", "a library (library.load())")
    if not callable(link):
        raise InputError("link", f"give a function from an article id to its URL, not {clip(link)}")


def article_html(
    article: Article,
    library: Library,
    *,
    link: Link = lambda article_id: f"{article_id}.html",
    card_url: str | None = None,
    summary_url: str | None = None,
    helpful: str = "",
) -> str:
    """The article as an HTML fragment, its parts in the order of ARTICLES.md.

    ``helpful`` is the "Was this article helpful?" form, placed before the sources; a
    static build has nowhere to send an answer, so by default the part is left out."""
    check_type(article, Article, "article", "an article (library.load().get(ID))")
    _check_library(library, link)
    for field, url in (("card_url", card_url), ("summary_url", summary_url)):
        if url is not None:
            check_text(url, field, "a URL or None")
    check_text(helpful, "helpful", "an HTML fragment")
    ctx = _Ctx(article, library, link)
    a = article

    def ref(article_id: str) -> str:
        title = escape(library.title_of(article_id) or article_id)
        if library.exists(article_id):
            return f"<a href='{escape(link(article_id))}'>{title}</a>"
        return f"<span class='ms-planned' title='planned article'>{title} (planned)</span>"

    card = f" · <a href='{escape(card_url)}' download>Save share card ↓</a>" if card_url else ""
    webp = (
        f"<a href='{escape(summary_url)}' download>Download the summary (WebP)</a>"
        if summary_url
        else ""
    )
    bullets = "".join(f"<li>{_inline(b, ctx)}</li>" for b in a.short_bullets)
    steps = "".join(
        f"<li><h3>{escape(s.title)}</h3><p>{_inline(s.text, ctx)}</p></li>" for s in a.steps
    )
    problems = "".join(
        f"<div class='ms-problem'><p class='ms-problem-label'>{escape(p.label)}</p>"
        f"<p class='ms-problem-q'>{_inline(p.question, ctx)}</p>"
        f"<details><summary>Answer: {escape(p.answer)}</summary>"
        f"<p>{_inline(p.working, ctx)}</p>"
        f"<p class='ms-engine-note'><span class='ms-layer-tag'>engine</span> the answer is "
        f"what the engine computes for the question's inputs</p></details></div>"
        for p in a.problems
    )
    questions = "".join(
        f"<dt>{_inline(q.question, ctx)}</dt><dd>{_inline(q.answer, ctx)}</dd>" for q in a.questions
    )
    sources = "".join(
        f"<li><a href='{escape(s.link)}' rel='noopener'>{escape(s.title)}</a> — "
        f"{escape(s.where)}</li>"
        for s in a.sources
    )
    cont = "".join(f"<li>{ref(c)}</li>" for c in a.continue_ids)
    return (
        f"<article class='ms-article' lang='en'>"
        f"<header><p class='ms-kicker'>{escape(a.id)} / {escape(a.subject)}</p>"
        f"<h1>{escape(a.title)}</h1><p class='ms-subtitle'>{escape(a.subtitle)}</p>"
        f"<p class='ms-meta'>Content version {escape(a.version)} · {a.date.isoformat()} · "
        f"<a href='#sources'>Sources &amp; references</a>{card}</p></header>"
        f"<p class='ms-lede'>{_inline(a.lede, ctx)}</p>"
        f"<section class='ms-short'><h2>The short version <span class='ms-read'>"
        f"{a.read_minutes} min read</span></h2><p>{_inline(a.short_version, ctx)}</p>"
        f"<ul>{bullets}</ul></section>"
        f"{summary_html(a, ctx)}{webp}"
        f"<aside class='ms-read-first'><h2>Read first</h2><p>{ref(a.read_first)}</p></aside>"
        f"<div class='ms-body'>{_block(a.body, ctx)}</div>"
        f"<section class='ms-check'><h2>Check it yourself</h2><ol>{steps}</ol></section>"
        f"<section class='ms-problems'><h2>Problems</h2>{problems}</section>"
        f"<section class='ms-questions'><h2>Questions readers ask next</h2>"
        f"<dl>{questions}</dl></section>"
        f"{ctx.claims_html()}"
        f"{helpful}"
        f"<section class='ms-sources' id='sources'><h2>Sources &amp; references</h2>"
        f"<ol>{sources}</ol></section>"
        f"<nav class='ms-continue' aria-label='Continue reading'><h2>Continue reading</h2>"
        f"<ul>{cont}</ul></nav></article>"
    )


CATALOGUE_TITLES: Final = {"ziwei": "Zi Wei star catalogue", "bazi": "BaZi star catalogue"}


def index_html(
    library: Library,
    *,
    link: Link = lambda article_id: f"{article_id}.html",
    stars: Link = lambda engine: f"stars-{engine}.html",
) -> str:
    """The index by subject and series, after links to the two star catalogues (``stars``
    makes an engine's catalogue URL); planned articles listed as plain text."""
    _check_library(library, link)
    if not callable(stars):
        raise InputError("stars", f"give a function from an engine to its URL, not {clip(stars)}")
    groups: dict[str, dict[str, list[str]]] = {}
    entries: Mapping[str, tuple[str, str, bool]] = {
        **{pid: (pid, title, False) for pid, title in library.planned.items()},
        **{a.id: (a.id, a.title, True) for a in library.articles},
    }
    subjects = SUBJECTS  # every area, MS (the library itself) included
    for aid in sorted(entries):
        area, series, _n = aid.split("-")
        _id, title, written = entries[aid]
        if written:
            a = library.get(aid)
            item = (
                f"<li><a href='{escape(link(aid))}'><span class='ms-id'>{escape(aid)}</span> "
                f"{escape(title)}</a><br><span class='ms-sub'>{escape(a.subtitle)} · "
                f"{a.read_minutes} min</span></li>"
            )
        else:
            item = (
                f"<li class='ms-planned'><span class='ms-id'>{escape(aid)}</span> "
                f"{escape(title)} <span class='ms-sub'>(planned)</span></li>"
            )
        groups.setdefault(subjects.get(area, area), {}).setdefault(
            SERIES.get(series, series), []
        ).append(item)
    catalogues = " · ".join(
        f"<a href='{escape(stars(engine))}'>{escape(title)}</a>"
        for engine, title in CATALOGUE_TITLES.items()
    )
    out = [
        "<div class='ms-index'><h1>Knowledge library</h1>"
        f"<p class='ms-catalogues'>Every star of both engines, with its rule and its "
        f"article: {catalogues}.</p>"
    ]
    for subject in subjects.values():
        by_series = groups.get(subject, {})
        if not by_series:
            continue
        out.append(f"<section><h2>{escape(subject)}</h2>")
        for series, items in by_series.items():
            out.append(f"<h3>{escape(series)}</h3><ul>{''.join(items)}</ul>")
        out.append("</section>")
    out.append("</div>")
    return "".join(out)


NAME_LANGS: Final = {"hans": "zh-Hans", "hant": "zh-Hant", "pinyin": "zh-Latn", "english": "en"}
"""The ``lang`` of a star's name in each of its four forms (pinyin is Chinese in Latin)."""
_SOURCE_LANGS: Final = {"ziwei": "zh-Hans", "bazi": "zh-Hant"}
"""The script of each engine's transcriptions: the 全书's simplified, the BaZi books'
traditional."""


def _same(text: str) -> str:
    return text


def catalogue_html(
    library: Library,
    engine: str,
    *,
    link: Link = lambda article_id: f"{article_id}.html",
    other: str = "",
    names: str = "hans",
    translate: Callable[[str], str] = _same,
    lang: str = "en",
) -> str:
    """The star catalogue of ``engine`` as an HTML fragment: every star's names (``names``
    first), its rule in one line, where the rule's words come from and its articles (or "no
    article yet"), by group; each row's id is the star's :attr:`Entry.anchor`.

    ``other`` is the URL of the other engine's catalogue; ``translate`` puts the page's
    words (and the rule lines) in the interface language ``lang``, English by default."""
    _check_library(library, link)
    entries = catalogue(library, engine)
    if not isinstance(names, str) or names not in NAME_LANGS:
        raise InputError("names", f"one of {', '.join(NAME_LANGS)}, not {clip(names)}")
    check_text(other, "other", "a URL or ''")
    if not callable(translate):
        raise InputError(
            "translate", f"give a function from a text to its words, not {clip(translate)}"
        )
    check_text(lang, "lang", "a language tag (en, zh-Hans)")
    covered = sum(1 for e in entries if e.articles)

    def tr(text: str) -> str:
        return str(translate(text))

    def words(text: str) -> str:
        """Composed English in the page's language; English left over on a Chinese page
        says so."""
        said = tr(text)
        if lang != "en" and said == text and re.search("[A-Za-z]{3}", said):
            return f"<span lang='en'>{escape(said)}</span>"
        return escape(said)

    share = tr("{covered} of {total} stars have an article.")
    heads = "".join(
        f"<th scope='col'>{escape(tr(h))}</th>" for h in ("Star", "Rule", "Source", "Articles")
    )
    out = [
        f"<div class='ms-index ms-catalogue' id='catalogue-{engine}'>"
        f"<h1>{escape(tr(CATALOGUE_TITLES[engine]))}</h1>"
        f"<p class='ms-coverage'>"
        f"{escape(share.format(covered=covered, total=len(entries)))}"
        "</p>"
    ]
    if other:
        title = CATALOGUE_TITLES["bazi" if engine == "ziwei" else "ziwei"]
        out.append(f"<p><a href='{escape(other)}'>{escape(tr(title))}</a></p>")
    for group, heading in GROUPS[engine].items():
        rows = [
            _catalogue_row(e, library, names, link, tr, words) for e in entries if e.group == group
        ]
        if not rows:
            continue
        out.append(
            f"<section id='group-{escape(group)}'><h2>{words(heading)}</h2>"
            f"<div class='ms-scroll' tabindex='0'><table class='ms-stars'><thead><tr>{heads}"
            f"</tr></thead><tbody>{''.join(rows)}</tbody></table></div></section>"
        )
    out.append("</div>")
    return "".join(out)


def _catalogue_row(
    e: Entry,
    library: Library,
    names: str,
    link: Link,
    tr: Callable[[str], str],
    words: Callable[[str], str],
) -> str:
    first = getattr(e.names, names) or e.names.hans
    others = " · ".join(
        f"<span lang='{NAME_LANGS[style]}'>{escape(getattr(e.names, style))}</span>"
        for style in NAME_LANGS
        if style != names and getattr(e.names, style)
    )
    star = (
        f"<th scope='row'><strong class='names' lang='{NAME_LANGS[names]}'>{escape(first)}</strong>"
        f"<br><span class='names'>{others}</span></th>"
    )
    rule = words(e.rule)
    if e.school_rule:
        rule += f"<br><em>{words('The 全书 school:')}</em> {words(e.school_rule)}"
    s = e.source
    source = words(KINDS[s.kind])
    if s.citation:
        lang = _SOURCE_LANGS[e.engine]
        source += f"<br><span class='source' lang='{lang}'>{escape(s.citation)}</span>"
    if s.verse:
        source += f"<br><q lang='{_SOURCE_LANGS[e.engine]}'>{escape(s.verse)}</q>"
    if e.articles:
        articles = "<br>".join(
            f"<a href='{escape(link(a))}'><span class='ms-id'>{escape(a)}</span> "
            f"<span class='ms-title' lang='en'>{escape(library.title_of(a) or '')}</span></a>"
            for a in e.articles
        )
    else:
        articles = f"<span class='ms-planned'>{escape(tr('no article yet'))}</span>"
    return (
        f"<tr id='{escape(e.anchor)}'>{star}<td>{rule}</td><td>{source}</td>"
        f"<td>{articles}</td></tr>"
    )
