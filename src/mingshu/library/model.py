"""Articles of the knowledge library: one Markdown file with YAML front matter each.

The front matter holds the structured parts (short version, eighteen-second summary, check
it yourself, problems, questions, sources, continue reading, share card); the body holds the
prose sections with engine directives (fenced blocks ``{table}``, ``{diagram}``, ``{quote}``,
``{modern}``, ``{nosource}``, ``{layers}``) and claims (the inline role ``{claim}`key```).
:func:`parse` only reads a file into an :class:`Article`; :mod:`mingshu.library.check`
validates it against the engines and the books.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Final

from mingshu.arguments import check_path, check_text
from mingshu.errors import InputError
from mingshu.named import clip, clip_text

__all__ = [
    "ARTICLE_ID",
    "FULL_YEARS",
    "PARTS",
    "SUBJECTS",
    "Article",
    "Library",
    "Problem",
    "Question",
    "Reference",
    "Step",
    "load",
    "markdown",
    "parse",
]

ARTICLE_ID: Final = re.compile(r"^(ZW|BZ|MS)-([A-Z]{2,4})-(\d{2})$")
"""Area (ZW Zi Wei Dou Shu, BZ BaZi, MS the library itself), series, number: ``ZW-AUX-17``."""
SUBJECTS: Final = {"ZW": "Zi Wei Dou Shu", "BZ": "BaZi", "MS": "About this library"}
SERIES: Final = {
    "ADJ": "Adjective stars",
    "AUX": "Supporting and minor stars",
    "BAS": "Basics",
    "CYC": "The twelve-god cycles",
    "FRM": "The chart's frame",
    "MAJ": "The fourteen major stars",
    "PAT": "Patterns (格局)",
    "SCH": "The Quan Shu school's own stars",
    "BK": "The book beside the engine",
    "LIB": "How the library works",
    "SET": "Settings and edge cases",
    "SS": "Symbolic stars",
}
PARTS: Final = (
    "title",
    "subtitle",
    "version",
    "date",
    "lede",
    "short",
    "summary",
    "read_first",
    "steps",
    "problems",
    "questions",
    "sources",
    "continue",
    "card",
)
"""The front-matter parts every article must have (ARTICLES.md, "The shape")."""
WORDS_PER_MINUTE: Final = 200
_ROOT: Final = Path(__file__).parent / "articles"
FULL_YEARS: Final = (1900, 2100)
"""The years of the whole chart space: the record of claim counts is written only from a
check over all of them."""
PLANNED_FILE: Final = "_planned.yaml"


@dataclass(frozen=True)
class Step:
    title: str
    text: str


@dataclass(frozen=True)
class Problem:
    """A worked problem: the question, its working, the printed answer, and the engine query
    (``engine``) whose result must equal ``answer``."""

    label: str
    question: str
    working: str
    answer: str
    engine: Mapping[str, Any]


@dataclass(frozen=True)
class Question:
    question: str
    answer: str


@dataclass(frozen=True)
class Reference:
    title: str
    where: str
    link: str


@dataclass(frozen=True)
class Article:
    """One article.  ``body`` is Markdown; text fields of the front matter are Markdown too
    (inline), so claims and links work there as well."""

    id: str
    subject: str
    series: str
    title: str
    subtitle: str
    version: str
    date: dt.date
    lede: str
    short_version: str
    short_bullets: tuple[str, ...]
    summary_line: str
    summary_rule: str
    summary_figure: str
    summary_questions: tuple[str, ...]
    read_first: str
    steps: tuple[Step, ...]
    problems: tuple[Problem, ...]
    questions: tuple[Question, ...]
    sources: tuple[Reference, ...]
    continue_ids: tuple[str, ...]
    card_figure: str
    body: str
    path: Path | None = None
    missing: tuple[str, ...] = ()
    """Parts absent from the file (the check reports them; rendering shows what is there)."""
    extra: tuple[str, ...] = field(default=())
    """Front-matter keys that are not parts (the check reports them)."""
    explains: tuple[str, ...] = ()
    """The chart settings this article explains (front-matter ``explains``, optional): the
    web form links each setting's help here."""
    covers: tuple[str, ...] = ()
    """The stars this article is about (front-matter ``covers``, optional), each
    ``ENGINE:KEY`` (``ziwei:tian_xing``, ``bazi:yi_ma``): the catalogue and the chart page
    link a star to the articles that cover it (:mod:`mingshu.library.coverage`)."""

    @property
    def area(self) -> str:
        return self.id.split("-")[0]

    @property
    def series_name(self) -> str:
        return SERIES.get(self.series, self.series)

    @property
    def read_minutes(self) -> int:
        """Read time from the words a reader sees (body, parts, problems, questions)."""
        text = " ".join(
            [
                self.lede,
                self.short_version,
                *self.short_bullets,
                _prose(self.body),
                *(s.title + " " + s.text for s in self.steps),
                *(p.question + " " + p.working + " " + p.answer for p in self.problems),
                *(q.question + " " + q.answer for q in self.questions),
            ]
        )
        return max(1, math.ceil(len(re.findall(r"[\w’'-]+", text)) / WORDS_PER_MINUTE))


def _prose(body: str) -> str:
    """The body without directive blocks' option lines (captions stay: readers read them)."""
    out: list[str] = []
    fence = False
    for line in body.splitlines():
        if line.startswith("```"):
            fence = not fence
            continue
        if not fence or line.lstrip().startswith(("caption:", "en:", "text:")):
            out.append(line)
    return "\n".join(out)


def _text(meta: Mapping[str, Any], key: str, missing: list[str], path: str) -> str:
    value = meta.get(key)
    if value is None or value == "" or value == []:
        missing.append(path)
        return ""
    if not isinstance(value, str | int | float | dt.date):
        raise InputError(path, f"expected text, not {type(value).__name__}")
    return str(value)


def _mapping(meta: Mapping[str, Any], key: str, missing: list[str]) -> Mapping[str, Any]:
    value = meta.get(key)
    if value is None:
        missing.append(key)
        return {}
    if not isinstance(value, Mapping):
        raise InputError(key, f"expected a mapping, not {type(value).__name__}")
    return value


def _items(meta: Mapping[str, Any], key: str, missing: list[str]) -> list[Any]:
    value = meta.get(key)
    if not value:
        missing.append(key)
        return []
    if not isinstance(value, list):
        raise InputError(key, f"expected a list, not {type(value).__name__}")
    return value


def load_yaml(text: str) -> Any:
    """YAML as ``yaml.safe_load`` reads it, with libyaml's parser when PyYAML has it (about
    ten times faster: the library parses every article's front matter on each load)."""
    import yaml

    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def split_front_matter(text: str, where: str) -> tuple[dict[str, Any], str]:
    import yaml

    if not text.startswith("---\n"):
        raise InputError(where, "an article starts with '---' and YAML front matter")
    end = text.find("\n---\n", 4)
    if end < 0:
        raise InputError(where, "the front matter has no closing '---'")
    try:
        meta = load_yaml(text[4:end])
    except yaml.YAMLError as e:
        raise InputError(where, f"front matter: {str(e).splitlines()[0]}") from None
    if not isinstance(meta, dict):
        raise InputError(where, "the front matter must be a mapping")
    return meta, text[end + 5 :]


def parse(text: str, path: Path | None = None) -> Article:
    """Read one article source.  Structural errors (no front matter, a part of the wrong
    type) raise :class:`InputError`; absent parts are listed in ``Article.missing``."""
    where = str(path) if path else "article"
    meta, body = split_front_matter(text, where)
    missing: list[str] = []
    article_id = str(meta.get("id", ""))
    m = ARTICLE_ID.match(article_id)
    if not m:
        raise InputError("id", f"{where}: {article_id!r} is not an id like ZW-AUX-17")
    short = _mapping(meta, "short", missing)
    summary = _mapping(meta, "summary", missing)
    card = _mapping(meta, "card", missing)
    bullets = short.get("bullets") or []
    if short and len(bullets) != 3:
        missing.append("short.bullets (three)")
    date = meta.get("date")
    if date is not None and not isinstance(date, dt.date):
        raise InputError("date", f"{where}: give the date as YYYY-MM-DD")
    if date is None:
        missing.append("date")
    steps = [
        Step(str(s.get("title", "")), str(s.get("text", "")))
        for s in _items(meta, "steps", missing)
    ]
    problems = []
    for i, p in enumerate(_items(meta, "problems", missing)):
        for key in ("label", "question", "working", "answer", "engine"):
            if key not in p:
                missing.append(f"problems[{i}].{key}")
        problems.append(
            Problem(
                str(p.get("label", "")),
                str(p.get("question", "")),
                str(p.get("working", "")),
                str(p.get("answer", "")),
                dict(p.get("engine") or {}),
            )
        )
    questions = [
        Question(str(q.get("q", "")), str(q.get("a", "")))
        for q in _items(meta, "questions", missing)
    ]
    sources = [
        Reference(str(r.get("title", "")), str(r.get("where", "")), str(r.get("link", "")))
        for r in _items(meta, "sources", missing)
    ]
    extra = tuple(k for k in meta if k not in (*PARTS, "id", "subject", "explains", "covers"))
    explains = meta.get("explains") or []
    if not (isinstance(explains, list) and all(isinstance(s, str) for s in explains)):
        missing.append("explains (a list of setting names)")
        explains = []
    covers = meta.get("covers") or []
    if not (isinstance(covers, list) and all(isinstance(s, str) for s in covers)):
        missing.append("covers (a list like [ziwei:tian_xing, bazi:yi_ma])")
        covers = []
    return Article(
        id=article_id,
        subject=SUBJECTS[m.group(1)],
        series=m.group(2),
        title=_text(meta, "title", missing, "title"),
        subtitle=_text(meta, "subtitle", missing, "subtitle"),
        version=_text(meta, "version", missing, "version"),
        date=date or dt.date(1970, 1, 1),
        lede=_text(meta, "lede", missing, "lede"),
        short_version=_text(short, "text", missing, "short.text"),
        short_bullets=tuple(str(b) for b in bullets),
        summary_line=_text(summary, "line", missing, "summary.line"),
        summary_rule=_text(summary, "rule", missing, "summary.rule"),
        summary_figure=_text(summary, "figure", missing, "summary.figure"),
        summary_questions=tuple(str(q) for q in summary.get("questions") or ()),
        read_first=_text(meta, "read_first", missing, "read_first"),
        steps=tuple(steps),
        problems=tuple(problems),
        questions=tuple(questions),
        sources=tuple(sources),
        continue_ids=tuple(str(c) for c in _items(meta, "continue", missing)),
        card_figure=_text(card, "figure", missing, "card.figure"),
        body=body,
        path=path,
        missing=tuple(missing),
        extra=extra,
        explains=tuple(explains),
        covers=tuple(covers),
    )


@dataclass(frozen=True)
class Library:
    """The articles of one folder, ordered by id, and the planned (not yet written) ones."""

    articles: tuple[Article, ...]
    planned: Mapping[str, str]
    root: Path

    def get(self, article_id: str) -> Article:
        check_text(article_id, "article", "an article id ('ZW-AUX-17')")
        for article in self.articles:
            if article.id == article_id:
                return article
        raise InputError("article", f"no article {clip(article_id)} in the library")

    def exists(self, article_id: str) -> bool:
        check_text(article_id, "article", "an article id ('ZW-AUX-17')")
        return any(a.id == article_id for a in self.articles)

    def title_of(self, article_id: str) -> str | None:
        """The title of a written or planned article, None for an unknown id."""
        check_text(article_id, "article", "an article id ('ZW-AUX-17')")
        for article in self.articles:
            if article.id == article_id:
                return article.title
        return self.planned.get(article_id)


def load(root: Path | str | None = None) -> Library:
    """The library in ``root`` (default: the articles shipped in the package): every
    ``*.md`` file is an article; ``_planned.yaml`` maps planned ids to their titles."""
    import yaml

    folder = check_path(root, "root") if root is not None else _ROOT
    if not folder.is_dir():
        raise InputError("root", f"{folder} is not a directory")
    articles = [parse(_file_text(p), p) for p in sorted(folder.glob("*.md"))]
    articles.sort(key=lambda a: a.id)
    ids = [a.id for a in articles]
    for dup in {i for i in ids if ids.count(i) > 1}:
        raise InputError("id", f"two articles have the id {dup}")
    planned: dict[str, str] = {}
    planned_path = folder / PLANNED_FILE
    if planned_path.exists():
        try:
            data = load_yaml(_file_text(planned_path)) or {}
        except yaml.YAMLError as e:
            reason = " ".join(str(e).split())
            raise InputError(
                "planned", f"{planned_path}: not YAML: {clip_text(reason, 200)}"
            ) from None
        if not isinstance(data, dict):
            raise InputError("planned", f"{planned_path}: expected a mapping id: title")
        planned = {str(k): str(v) for k, v in data.items()}
    return Library(tuple(articles), planned, folder)


def _file_text(path: Path) -> str:
    """A library file's text; an :class:`InputError` naming it if it is not UTF-8 text
    (a binary file) or cannot be read."""
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        raise InputError("article", f"{path} is not UTF-8 text (byte {e.start + 1})") from None
    except OSError as e:
        raise InputError("article", f"cannot read {path}: {e.strerror or e}") from None


@cache
def markdown() -> Any:
    """The one Markdown parser: CommonMark with tables and MyST roles (``{claim}`key```)."""
    from markdown_it import MarkdownIt
    from mdit_py_plugins.myst_role import myst_role_plugin

    return MarkdownIt("commonmark", {"html": False}).enable("table").use(myst_role_plugin)
