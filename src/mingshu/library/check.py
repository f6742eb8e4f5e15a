"""``mingshu library check``: every article against its format, its links, the engines and
the books.

What fails: a missing part, a link to an article that neither exists nor is planned, an
unknown directive or table or diagram, a table cell the article states (``expect``) that the
engine does not give, a problem whose printed answer is not the engine's, a claim with a
counterexample (or unknown, or with no whole-space record), and a quotation not found
verbatim in the transcriptions (../shared/sources, or the excerpts the repository ships in
sources/: :mod:`mingshu.library.sources`).
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Final, cast

from mingshu.errors import InputError
from mingshu.library import claims as C
from mingshu.library.coverage import bad_covers, coverage_line
from mingshu.library.model import ARTICLE_ID, FULL_YEARS, Article, Library, load_yaml, markdown
from mingshu.library.sources import MANIFEST, Sources, normalise_quote

__all__ = [
    "DIRECTIVES",
    "FULL_YEARS",
    "SPACES",
    "ArticleCounts",
    "Directive",
    "Report",
    "check",
    "directives",
    "ensure_space",
    "find_sources",
    "links",
    "normalise_quote",
]

DIRECTIVES: Final = ("table", "diagram", "quote", "modern", "nosource", "absent")
SPACES: Final[dict[str, tuple[tuple[str, str], ...]]] = {
    "leap-split": (("leap_month", "split"),),
    "leap-whole": (("leap_month", "whole"),),
    "late-rat-same-day": (("leap_month", "split"), ("late_rat_hour", "same_day")),
}
"""The library space: one Zi Wei dataset per name, swept with these settings (the rest at
their defaults).  All hold the same births, so a claim can compare two of them row by row;
a claim runs over the first one whose settings it accepts."""
_DIRECTIVE_INFO: Final = re.compile(r"^\{([a-z_]+)\}\s*(\S*)\s*$")


@dataclass(frozen=True)
class Directive:
    name: str
    arg: str
    options: Mapping[str, Any]
    line: int


@dataclass
class ArticleCounts:
    """One article's share of a check: distinct claims cited, the rows those claims ran over
    (from this run, else the record), tables, problems and quotations."""

    claims: int = 0
    rows: int = 0
    tables: int = 0
    problems: int = 0
    quotations: int = 0


@dataclass
class Report:
    """What a check found: the errors (empty when everything holds) and the counts."""

    errors: list[str] = field(default_factory=list)
    articles: int = 0
    claims: int = 0
    rows: int = 0
    tables: int = 0
    cells: int = 0
    problems: int = 0
    quotations: int = 0
    links: int = 0
    planned: list[str] = field(default_factory=list)
    layers: dict[str, int] = field(default_factory=dict)
    coverage: str = ""
    """The stars some article covers, of the whole library (coverage.coverage_line)."""
    seconds: float = 0.0
    results: dict[str, dict[str, Any]] = field(default_factory=dict)
    by_article: dict[str, ArticleCounts] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.errors

    def article_lines(self) -> list[str]:
        """One line per article: its claims and the rows they were checked over, then its
        tables, problems and quotations."""
        return [
            f"{aid}: {c.claims} claims over {c.rows:,} rows, {c.tables} tables, "
            f"{c.problems} problems, {c.quotations} quotations"
            for aid, c in sorted(self.by_article.items())
        ]

    def summary(self) -> str:
        n = len(self.errors)
        state = "ok" if self.ok else f"{n} error{'s' if n != 1 else ''}"
        return (
            f"library check {state}: {self.articles} articles, {self.claims} claims over "
            f"{self.rows:,} rows, {self.tables} tables ({self.cells} cells), {self.problems} "
            f"problems, {self.quotations} quotations, {self.links} links "
            f"({len(self.planned)} planned), {self.seconds:.1f} s"
        )


def directives(article: Article) -> Iterator[Directive]:
    """The directive blocks of the body, in order (unknown names included: the check
    reports them)."""
    import yaml

    for token in markdown().parse(article.body):
        if token.type != "fence":
            continue
        m = _DIRECTIVE_INFO.match(token.info.strip())
        if not m:
            continue
        try:
            options = load_yaml(token.content) or {}
        except yaml.YAMLError as e:
            raise InputError(
                "directive", f"{article.id}: {{{m.group(1)}}} options: {str(e).splitlines()[0]}"
            ) from None
        if not isinstance(options, dict):
            raise InputError("directive", f"{article.id}: {{{m.group(1)}}} needs YAML options")
        line = (token.map[0] + 1) if token.map else 0
        yield Directive(m.group(1), m.group(2), options, line)


def _directive_texts(article: Article) -> list[str]:
    """Text a directive shows as Markdown (captions, summaries, statements)."""
    try:
        found = list(directives(article))
    except InputError:
        return []
    return [str(d.options[k]) for d in found for k in ("caption", "text") if d.options.get(k)]


def _inline_texts(article: Article) -> list[str]:
    texts = [
        *_directive_texts(article),
        article.lede,
        article.short_version,
        *article.short_bullets,
        *(s.text for s in article.steps),
        *(p.question + "\n\n" + p.working for p in article.problems),
        *(q.answer for q in article.questions),
    ]
    return [t for t in texts if t]


def _walk(tokens: Any) -> Iterator[Any]:
    for token in tokens:
        yield token
        if token.children:
            yield from _walk(token.children)


def links(article: Article) -> list[str]:
    """Every article id the article links to (body, parts, read first, continue)."""
    out = [article.read_first, *article.continue_ids]
    md = markdown()
    for text in [article.body, *_inline_texts(article)]:
        for token in _walk(md.parse(text)):
            if token.type == "link_open":
                href = str(token.attrGet("href") or "")
                if not href.startswith(("http://", "https://", "#")):
                    out.append(href)
    return out


def claim_keys(article: Article) -> list[str]:
    """Every claim the article cites: in its text, and behind a count table's cells."""
    from mingshu.library.tables import table_claims

    keys = []
    try:
        for d in directives(article):
            if d.name == "table":
                keys.extend(table_claims(d.arg, d.options))
    except InputError:
        pass  # reported by the check's directive pass
    md = markdown()
    for text in [article.body, *_inline_texts(article)]:
        for token in _walk(md.parse(text)):
            if token.type == "myst_role":
                if token.meta.get("name") != "claim":
                    keys.append("?" + str(token.meta.get("name")))
                else:
                    keys.extend(k.strip() for k in token.content.split(","))
    return keys


# ----------------------------------------------------------------------------- sources


def find_sources(sources: Path | str | None = None) -> Path | None:
    """The transcriptions folder: ``sources``, ``$MINGSHU_SOURCES``, the full files in
    ``shared/sources`` beside the repository (as laid for developers and CI), or else the
    excerpts the repository ships (``sources/``, enough for every citation it makes)."""
    if sources is not None:
        return Path(sources)
    env = os.environ.get("MINGSHU_SOURCES")
    if env:
        return Path(env)
    repo = Path(__file__).resolve().parents[3]  # src/mingshu/library/check.py
    if not (repo / "pyproject.toml").is_file():
        return None  # an installed package: no repository around it
    if (repo.parent / "shared" / "sources").is_dir():
        return repo.parent / "shared" / "sources"
    if (repo / "sources" / MANIFEST).is_file():
        return repo / "sources"
    return None


# ------------------------------------------------------------------------------ space


def ensure_space(
    space: Path, years: tuple[int, int] = FULL_YEARS, progress: bool = True
) -> dict[str, Path]:
    """The Zi Wei datasets of :data:`SPACES` under ``space`` (``leap-split``, ``leap-whole``,
    ``late-rat-same-day``), each swept for ``years`` (and for every year of the range it
    already records) where a year is missing or not whole (the sweep resumes from the years
    it has)."""
    from mingshu import space as S
    from mingshu import ziwei

    out = {}
    for name, wanted in SPACES.items():
        folder = space / name
        settings = ziwei.ZiweiSettings(**cast(dict[str, Any], dict(wanted)))
        meta = S.ziwei_sweep.read_metadata(folder) if folder.exists() else None
        if meta is not None and meta.get("schema") in S.ziwei_sweep.OLD_SCHEMAS:
            raise InputError(
                "space",
                f"{folder} was swept by an older mingshu ({meta['schema']}, without the "
                "reader-facing columns): delete it and it is swept again",
            )
        first, last = years
        if meta is not None:  # and the dataset's own range: the claims refuse a gap in it
            first = min(first, _year(meta.get("first_year"), first))
            last = max(last, _year(meta.get("last_year"), last))
        have = all(
            S.ziwei_sweep.is_finished(
                folder / f"year={y}" / S.ziwei_sweep.PART, S.ziwei_sweep.year_rows(y)
            )
            for y in range(first, last + 1)
        )
        if meta is None or not have:
            if progress:
                print(f"sweeping {first}–{last} ({_describe(wanted)}) into {folder} …")
            S.sweep_ziwei(folder, first, last, settings, progress=progress)
        out[name] = folder
    return out


def _year(value: object, default: int) -> int:
    """A year of ``_mingshu.json``, or ``default`` when it holds none."""
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _describe(settings: tuple[tuple[str, str], ...]) -> str:
    """``leap month split, late Rat hour same_day``: the settings a dataset was swept with."""
    words = {"leap_month": "leap month", "late_rat_hour": "late Rat hour"}
    return ", ".join(f"{words.get(n, n)} {v}" for n, v in settings)


def _space_label(folder: Path, name: str) -> tuple[int, int, str]:
    from mingshu.space.ziwei_sweep import read_metadata

    meta = read_metadata(folder) or {}
    first, last = int(meta.get("first_year", 0)), int(meta.get("last_year", 0))
    return first, last, f"every Zi Wei chart {first}–{last}, {_describe(SPACES[name])}"


def _dataset_for(wanted: Any, metadata: Mapping[str, dict[str, Any]]) -> str | None:
    """The first dataset of :data:`SPACES` swept with every setting in ``wanted``."""
    from mingshu.space.claims import settings_match

    return next((n for n, m in metadata.items() if settings_match(m, wanted)), None)


# ------------------------------------------------------------------------------ check


def check(
    library: Library,
    *,
    space: Path | None = None,
    sources: Path | None = None,
    record: bool = False,
    progress: Callable[[str], None] | None = None,
    only: Iterable[str] | None = None,
) -> Report:
    """Check every article of ``library`` (or only the articles whose ids ``only`` names:
    their parts, tables, problems and the claims they cite; links still resolve against the
    whole library).  ``space`` holds the swept datasets (see :func:`ensure_space`); without
    it the Zi Wei claims are not run and only the record is consulted.  ``record`` writes the
    results to the record when the space is the whole of 1900–2100 (not with ``only``: the
    record holds every claim)."""
    from mingshu.library import problems as P
    from mingshu.library import svg as S
    from mingshu.library import tables as T

    start = time.perf_counter()
    articles = library.articles
    if only is not None:
        if isinstance(only, str):
            only = [only]
        wanted = set(only)
        unknown = sorted(i for i in wanted if not library.exists(i))
        if unknown:
            raise InputError("article", f"no article {unknown[0]!r} in {library.root}")
        if record:
            raise InputError("record", "the record holds every claim: check every article")
        articles = tuple(a for a in articles if a.id in wanted)
    report = Report(articles=len(articles))
    err = report.errors
    if not articles:
        err.append(f"{library.root}: no articles (no *.md file): a library of none is not ok")
    say = progress or (lambda _s: None)
    source_dir = find_sources(sources)
    cited: dict[str, list[str]] = {}
    layer = report.layers
    for name in ("engine", "book", "modern", "none"):
        layer[name] = 0
    planned_seen: set[str] = set()

    for a in articles:
        say(f"{a.id}: format, links, directives")
        counts = report.by_article.setdefault(a.id, ArticleCounts())
        for part in a.missing:
            err.append(f"{a.id}: missing part {part}")
        for key in a.extra:
            err.append(f"{a.id}: unknown front-matter key {key!r}")
        err.extend(bad_covers(a))
        if a.path is not None and a.path.stem != a.id:
            err.append(f"{a.id}: the file is named {a.path.name}, not {a.id}.md")
        for n, what in ((3, "steps"), (2, "problems"), (3, "questions")):
            got = len(getattr(a, what))
            if got and got < n:
                err.append(f"{a.id}: {what} needs at least {n}, has {got}")
        if a.continue_ids and not 2 <= len(a.continue_ids) <= 4:
            err.append(f"{a.id}: continue reading lists two to four articles")
        for i, ref in enumerate(a.sources, 1):
            if not (ref.title and ref.where and ref.link.startswith("https://")):
                err.append(f"{a.id}: source {i} needs a title, where, and an https link")
        for target in links(a):
            report.links += 1
            if target == a.id:
                err.append(f"{a.id}: links to itself")
            elif library.exists(target):
                continue
            elif target in library.planned:
                planned_seen.add(target)
            elif ARTICLE_ID.match(target):
                err.append(f"{a.id}: link to {target}, which does not exist and is not planned")
            else:
                err.append(f"{a.id}: link {target!r} is neither an article id nor https")
        ids: set[str] = set()
        has_layers = False
        try:
            found = list(directives(a))
        except InputError as e:
            err.append(e.message)
            found = []
        for d in found:
            where = f"{a.id} line {d.line} {{{d.name}}}"
            if d.name not in DIRECTIVES:
                err.append(f"{where}: unknown directive")
                continue
            if "id" in d.options:
                ids.add(str(d.options["id"]))
            if d.name in ("table", "diagram") and not d.options.get("caption"):
                err.append(f"{where}: needs a caption")
            try:
                if d.name in ("table", "diagram"):
                    kinds = T.TABLES if d.name == "table" else S.DIAGRAMS
                    _unknown_parameters(kinds.get(d.arg), d.options, _FIGURE_KEYS)
                if d.name == "table":
                    report.tables += 1
                    counts.tables += 1
                    t = T.table(d.arg, d.options)
                    report.cells += sum(len(r) for r in t.rows)
                    expect = d.options.get("expect")
                    if d.arg in T.RECORD_TABLES:
                        pass  # counts from the record: its claims are run below
                    elif expect is None:
                        err.append(f"{where}: state the table's cells in 'expect'")
                    else:
                        want = [tuple(str(c) for c in row) for row in expect]
                        if want != list(t.rows):
                            err.append(
                                f"{where}: table differs from the engine: "
                                + _diff(want, list(t.rows))
                            )
                elif d.name == "diagram":
                    S.diagram(d.arg, d.options)
                    if d.arg == "layers":
                        has_layers = True
                elif d.name == "quote":
                    report.quotations += 1
                    counts.quotations += 1
                    layer["book"] += 1
                    _check_quote(where, d.options, source_dir, err)
                elif d.name == "modern":
                    layer["modern"] += 1
                    if not d.options.get("source") or not d.options.get("text"):
                        err.append(f"{where}: a modern summary has text and its source")
                elif d.name == "absent":
                    layer["none"] += 1
                    _check_absent(where, d.options, source_dir, err)
                elif d.name == "nosource":
                    layer["none"] += 1
                    if not d.options.get("text"):
                        err.append(f"{where}: say what has no source")
            except InputError as e:
                err.append(f"{where}: {e.field}: {e.message}")
        if not has_layers:
            err.append(f"{a.id}: missing part layers figure ({{diagram}} layers)")
        if not any(d.name == "table" or (d.name == "diagram" and d.arg != "layers") for d in found):
            err.append(f"{a.id}: needs at least one engine table or diagram besides the layers")
        for fig, part in ((a.summary_figure, "summary.figure"), (a.card_figure, "card.figure")):
            if fig and fig not in ids:
                err.append(f"{a.id}: {part} {fig!r} is no table or diagram id in the body")
        tables = {str(d.options.get("id")) for d in found if d.name == "table"}
        if a.card_figure and a.card_figure in ids and a.card_figure not in tables:
            err.append(f"{a.id}: card.figure {a.card_figure!r} must be a table (the card draws it)")
        for p in a.problems:
            report.problems += 1
            counts.problems += 1
            try:
                _unknown_parameters(P.PROBLEMS.get(str(p.engine.get("ask"))), p.engine, {"ask"})
                answer = P.solve(p.engine)
            except InputError as e:
                err.append(f"{a.id}: problem {p.label!r}: {e.field}: {e.message}")
                continue
            if answer.text != p.answer:
                named = answer.named_in(p.answer)
                fewer = (
                    f" (it names {len(named)} of the engine's {len(answer.solutions)} answers)"
                    if len(named) < len(answer.solutions) > 1
                    else ""
                )
                err.append(
                    f"{a.id}: problem {p.label!r} prints {p.answer!r}, the engine says "
                    f"{answer.text!r}{fewer}"
                )
        for key in claim_keys(a):
            layer["engine"] += 1
            cited.setdefault(key, []).append(a.id)
    report.planned = sorted(planned_seen)

    saved = _run_claims(library, cited, space, record, report, say)
    for key, citing in cited.items():
        ran = report.results.get(key) or saved.get(key) or {}
        for aid in set(citing):
            report.by_article[aid].claims += 1
            report.by_article[aid].rows += int(ran.get("rows") or 0)
    report.coverage = coverage_line(library)
    report.seconds = time.perf_counter() - start
    return report


_FIGURE_KEYS: Final = frozenset({"id", "caption", "expect"})
"""The keys every table and diagram directive may carry besides its kind's parameters."""


def _unknown_parameters(kind: Any, options: Mapping[str, Any], common: Iterable[str]) -> None:
    """Refuse a parameter the kind does not read (a misspelt one would be ignored)."""
    if kind is None:
        return  # an unknown kind is reported by the call itself
    extra = sorted(set(options) - set(common) - set(kind.params))
    if extra:
        raise InputError(
            extra[0],
            "not a parameter of this kind (it reads " + (", ".join(kind.params) or "none") + ")",
        )


def _diff(want: list[tuple[str, ...]], got: list[tuple[str, ...]]) -> str:
    if len(want) != len(got):
        return f"{len(want)} rows stated, {len(got)} computed"
    for r, (w, g) in enumerate(zip(want, got, strict=True)):
        if w != g:
            for c in range(max(len(w), len(g))):
                wc = w[c] if c < len(w) else "—"
                gc = g[c] if c < len(g) else "—"
                if wc != gc:
                    return f"row {r + 1} column {c + 1}: stated {wc!r}, engine {gc!r}"
    return "?"


def _check_quote(where: str, o: Mapping[str, Any], source_dir: Path | None, err: list[str]) -> None:
    for key in ("source", "zh", "en", "cite"):
        if not o.get(key):
            err.append(f"{where}: a quotation needs {key}")
            return
    name = str(o["source"])
    if "iztro-compilation" in name:
        err.append(f"{where}: {name} is a modern compilation, not the book: cite it as modern")
        return
    if source_dir is None:
        err.append(f"{where}: no sources folder to verify the quotation (--sources)")
        return
    folder = Sources(source_dir)
    if not folder.has(name):
        err.append(f"{where}: source file {name!r} not found in {source_dir}")
        return
    if not folder.get(name).contains(str(o["zh"])):
        shipped = " (or not shipped: run tools/build_sources.py)" if folder.excerpts else ""
        err.append(f"{where}: quotation not found verbatim in {name}{shipped}: {o['zh']!r}")


def _check_absent(
    where: str, o: Mapping[str, Any], source_dir: Path | None, err: list[str]
) -> None:
    """A searched-and-not-found statement: none of ``terms`` occurs in any of ``sources``."""
    terms, files = o.get("terms") or [], o.get("sources") or []
    if not (terms and files and o.get("text")):
        err.append(f"{where}: an absence names its terms, the sources searched, and text")
        return
    if source_dir is None:
        err.append(f"{where}: no sources folder to verify the absence (--sources)")
        return
    folder = Sources(source_dir)
    for name in files:
        if not folder.has(str(name)):
            err.append(f"{where}: source file {name!r} not found in {source_dir}")
            continue
        text = folder.get(str(name))
        for term in terms:
            try:
                if not text.lacks(str(term)):
                    err.append(f"{where}: {term!r} does occur in {name}")
            except LookupError as e:
                err.append(f"{where}: {e}")


def _engine_run(claim: C.ArticleClaim) -> tuple[int, int]:
    """An engine or data-table claim's (counterexamples, cases): the same check with the same
    arguments gives the same answer within one process, and the larger ones take seconds, so
    each runs once per process."""
    import json

    return _check_once(str(claim.fields["check"]), json.dumps(claim.fields.get("args", {})))


@cache
def _check_once(name: str, args: str) -> tuple[int, int]:
    import json

    from mingshu.library.claim_checks import run_check

    return run_check(name, json.loads(args))


def _run_claims(
    library: Library,
    cited: Mapping[str, list[str]],
    space: Path | None,
    record: bool,
    report: Report,
    say: Callable[[str], None],
) -> Mapping[str, Mapping[str, Any]]:
    """Run the cited claims into ``report``; return the record as it stands after the run."""
    err = report.errors
    try:
        every = C.load_claims(library.root)
    except InputError as e:
        err.append(e.message)
        every = {}
    sql_claims = {k: c.sql_claim() for k, c in every.items() if c.runs_sql}
    known = {k for k in cited if k in every}
    for key, where in cited.items():
        if key not in known:
            err.append(f"{', '.join(sorted(set(where)))}: unknown claim {key!r}")
    saved = C.read_record(library.root)
    results: dict[str, dict[str, Any]] = {}
    full = True
    sql_keys = sorted(k for k in known if k in sql_claims)
    if space is not None:
        from mingshu.space.claims import check as run_sql
        from mingshu.space.ziwei_sweep import read_metadata

        metadata = {n: read_metadata(space / n) or {} for n in SPACES}
        # Each claim over the first dataset it accepts; one comparing two settings also
        # reads the first dataset its other settings accept, as the view ``other``.
        groups: dict[tuple[str | None, str | None], list[Any]] = {}
        for k in sql_keys:
            c = sql_claims[k]
            pair = (
                _dataset_for(c.settings, metadata),
                _dataset_for(c.other_settings, metadata) if c.other_settings else None,
            )
            groups.setdefault(pair, []).append(c)
        for (name, other), wanted in groups.items():
            if name is None or (other is None and wanted[0].other_settings):
                for c in wanted:
                    err.append(f"claim {c.key}: no dataset in {space} has the settings it needs")
                continue
            folder = space / name
            first, last, label = _space_label(folder, name)
            full = full and (first, last) == FULL_YEARS
            if other is not None:
                label += f" against {_describe(SPACES[other])}"
            say(f"claims over {label}: {len(wanted)}")
            for r in run_sql(folder, wanted, other=space / other if other else None):
                if not r.applies:
                    err.append(f"claim {r.claim.key}: does not apply to {folder}'s settings")
                    continue
                results[r.claim.key] = {
                    "rows": r.rows,
                    "counterexamples": r.counterexamples,
                    "unit": "charts",
                    "space": label,
                    "digest": C.digest(every[r.claim.key]),
                }
    for key in sorted(k for k in known if not every[k].runs_sql):
        c = every[key]
        say(f"claim {key} over {c.fields['cases']}")
        try:
            bad, n = _engine_run(c)
        except InputError as e:
            err.append(f"claim {key}: {e.field}: {e.message}")
            continue
        results[key] = {
            "rows": n,
            "counterexamples": bad,
            "unit": str(c.fields["unit"]),
            "space": str(c.fields["cases"]),
            "digest": C.digest(c),
        }
    for key in sorted(known):
        found = results.get(key)
        if found is None:
            continue
        report.claims += 1
        report.rows += int(found["rows"] or 0)
        if found["counterexamples"]:
            err.append(
                f"{', '.join(sorted(set(cited[key])))}: claim {key} is false: "
                f"{found['counterexamples']:,} counterexamples in {found['rows']:,} "
                f"{found['unit']}"
            )
    # The record: what the pages print.  It must cover every cited claim from a run over the
    # whole space, with the claim's current query.
    if record and full and not err:
        merged = {k: v for k, v in saved.items() if k in known}
        merged.update({k: v for k, v in results.items() if k in known})
        C.write_record(library.root, merged)
        saved = merged
    elif record and not full:
        err.append(f"--record needs the whole space {FULL_YEARS[0]}–{FULL_YEARS[1]}")
    for key in sorted(known):
        entry = saved.get(key)
        if entry is None or entry.get("digest") != C.digest(every[key]):
            err.append(
                f"claim {key}: no record of a whole-space run with its current query "
                "(run `mingshu library check --record`)"
            )
        elif entry.get("counterexamples"):
            err.append(f"claim {key}: the record shows counterexamples")
    report.results = results
    return saved
