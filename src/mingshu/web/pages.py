"""The HTML pages: the chart page (birth form, Zi Wei board, BaZi tables, unknown hour),
a star's rule, and the settings page.  Server-rendered with Jinja2 (autoescape on); every
page works without JavaScript."""

from __future__ import annotations

import calendar
import datetime as dt
import itertools
import re
from collections.abc import Callable, Iterator, Sequence
from functools import cache, lru_cache
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, Final
from urllib.parse import parse_qs, quote_plus, unquote

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse, RedirectResponse
from jinja2 import Environment, PackageLoader, pass_context, select_autoescape
from jinja2.ext import Extension
from jinja2.runtime import Context
from markupsafe import Markup, escape

from mingshu import __version__
from mingshu.birth import Notice
from mingshu.calendar import FIRST_DATE, LAST_DATE
from mingshu.cycles import Branch, Pillar
from mingshu.named import Names
from mingshu.present.labels import LABELS as LABELS_OF
from mingshu.web import cities
from mingshu.web.api import CACHE_SIZE, cached
from mingshu.web.charts import (
    Charts,
    annual_of,
    bazi_of,
    draw,
    horoscope_of,
    place_of,
    ziwei_of,
)
from mingshu.web.identity import ByIdentity
from mingshu.web.lang import LANGS, Translator, translator
from mingshu.web.library import (
    article_exists,
    article_for_setting,
    articles_for_star,
    catalogue_href,
    planned_title,
)
from mingshu.web.query import (
    BAZI_CHOICES,
    CHOICES,
    FLAG_CHOICES,
    MAX_VALUE,
    NAMES,
    SCHOOL_DEFAULTS,
    ChartQuery,
    FieldErrors,
    parse,
    parse_query,
)
from mingshu.web.settings_help import HELP, LABELS, WORDS
from mingshu.web.turns import TURNS
from mingshu.web.views import (
    branch_name,
    name,
    pillar_name,
    star_detail,
    stem_name,
    unknown_hour_table,
)
from mingshu.ziwei.stars import Star
from mingshu.ziwei.tables import PalaceName

if TYPE_CHECKING:
    from mingshu.bazi.common import Position
    from mingshu.bazi.derived import PillarDetail
    from mingshu.bazi.luck import LuckStep
    from mingshu.bazi.tables import HiddenStem, TenGod
    from mingshu.cycles import Stem

__all__ = ["environment", "render", "router"]

router = APIRouter(include_in_schema=False)


@cache
def environment(lang: str = "en") -> Environment:
    """The templates of the interface language ``lang``: each language has its own, whose
    constant words (``{{ t("…") }}`` and ``{{ t.attr("…") }}`` without values, some
    hundred a chart page) are translated once, as a template compiles, not on each render.
    A page is rendered by the environment of the translator ``t`` it is given."""
    env = Environment(
        loader=PackageLoader("mingshu.web", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,  # package files: no stat of each template on every render
        extensions=[_ConstantWords],
    )
    env.globals["version"] = __version__
    env.globals["err"] = field_error
    env.globals["t"] = translator(lang)  # pages without a language choice (the library)
    return env


@pass_context
def field_error(context: Context, field: str) -> Markup:
    """``err(field)`` in a form: the error line of ``field`` when the page has one (a
    function, not a macro: a form asks for some twenty, mostly none)."""
    message = (context.get("errors") or {}).get(field)
    if not message:
        return Markup("")
    line = context["t"].message(message)
    return Markup(f'<p class="error" id="err-{escape(field)}" role="alert">{line}</p>')


class _ConstantWords(Extension):
    """Writes each ``{{ t("words") }}`` and ``{{ t.attr("words") }}`` of a template as the
    words in the environment's language, escaped as the call would give them."""

    _CALL: Final = re.compile(r"""\{\{ t(\.attr)?\((?:"([^"\\]*)"|'([^'\\]*)')\) \}\}""")

    def preprocess(self, source: str, name: str | None, filename: str | None = None) -> str:
        t = self.environment.globals["t"]
        assert isinstance(t, Translator)

        def words(m: re.Match[str]) -> str:
            key = m.group(2) if m.group(2) is not None else m.group(3)
            html = str(escape(t.text(key))) if m.group(1) else str(t(key))
            # Words with a brace, which could read as template syntax, stay a call.
            return m.group(0) if "{" in html or "}" in html else html

        return self._CALL.sub(words, source)


def _environment_of(context: dict[str, Any]) -> Environment:
    return environment(context["t"].lang if "t" in context else "en")


def render(template: str, status: int = 200, lang: str = "en", **context: Any) -> HTMLResponse:
    """A page in the interface language ``lang`` (mingshu.web.lang)."""
    page: dict[str, Any] = {"t": translator(lang)}
    if lang != "en":  # the header's links stay in the reader's language
        page |= {"home_href": f"/?lang={lang}", "settings_href": f"/settings?lang={lang}"}
    page |= context
    html = _environment_of(page).get_template(template).render(page)
    return HTMLResponse(html, status_code=status)


LANG_WORDS: Final = {"en": "English", "zh-Hans": "简体中文"}


def lang_of(raw: dict[str, Any]) -> str:
    """The interface language a request asks for (``lang=``); English when it names none
    we have (the chart query itself refuses a bad one, naming the field)."""
    lang = raw.get("lang")
    return lang if isinstance(lang, str) and lang in LANGS else "en"


def _lang_context(lang: str, links: dict[str, str] | None = None) -> dict[str, Any]:
    """The translator and the language switch: ``links`` maps each language to this page
    in it (default: the start page in each)."""
    suffix = "" if lang == "en" else f"?lang={lang}"
    links = links or {other: "/" if other == "en" else f"/?lang={other}" for other in LANGS}
    return {
        "t": translator(lang),
        "home_href": "/" + suffix,
        "settings_href": "/settings" + suffix,
        "lang_links": [
            Row(lang=other, word=LANG_WORDS[other], href=links[other], current=other == lang)
            for other in LANGS
        ],
    }


def _params(request: Request) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in request.query_params:
        values = request.query_params.getlist(key)
        out[key] = values if len(values) > 1 or key == "star" else values[0]
    return out


class Row(SimpleNamespace):
    """One row a template shows (its fields are attributes: Jinja reads an attribute
    directly, but tries a dict key only after a failed attribute look-up)."""


def _settings_rows(q: ChartQuery | None, raw: dict[str, Any], lang: str = "en") -> list[Row]:
    t = translator(lang)
    rows = []
    school = q.setting("school") if q else str(raw.get("school") or CHOICES["school"][1])
    for table in (CHOICES, BAZI_CHOICES, FLAG_CHOICES):
        for setting, (allowed, default) in table.items():
            options = [(v, WORDS.get(f"{setting}:{v}") or WORDS.get(v, v)) for v in allowed]
            value = q.setting(setting) if q else str(raw.get(setting) or default)
            if setting in SCHOOL_DEFAULTS:
                if q is None and not raw.get(setting):
                    value = ""  # left out: the reading's own, whatever the school
                # An empty choice follows the reading, so changing the school on the form
                # changes this too; a value equal to the reading's own shows as that choice.
                own = SCHOOL_DEFAULTS[setting]
                words = t.text(", ").join(
                    t.text(
                        "{word} for {school}",
                        word=t.text(WORDS.get(v, v)),
                        school=t.text(WORDS.get(f"school:{s}") or WORDS.get(s, s)),
                    )
                    for s, v in own.items()
                )
                options.insert(0, ("", t.text("the reading's own ({words})", words=words)))
                default = ""
                if value == own.get(school):
                    value = ""
            article = article_for_setting(setting)
            planned = ""
            if article and not article_exists(article):
                planned = planned_title(article) or ""
                article = None
            rows.append(
                Row(
                    name=setting,
                    label=LABELS[setting],
                    help=HELP[setting],
                    options=options,
                    value=value,
                    default=default,
                    article=f"/library/{article}" if article else "",
                    planned=planned,
                    link=f"/library/{article}" if article else f"/settings#{setting}",
                )
            )
    return rows


_ALWAYS_NAMED: Final = ("school", "algorithm", "chart_type")
"""Settings the folded line always names; the others only when they differ from the default."""


def settings_line(
    rows: list[Row],
    stars: set[tuple[str, str]] | frozenset[Any] = frozenset(),
    t: Translator | None = None,
) -> str:
    """One line naming the current choices, the summary of the folded settings."""
    t = t or translator("en")
    words = []
    for row in rows:
        if row.name in _ALWAYS_NAMED or row.value != row.default:
            word = t.text(dict(row.options).get(row.value, row.value))
            label = t.text(row.label)
            words.append(f"{label}: {word}" if row.name not in _ALWAYS_NAMED else word)
    if stars:
        chosen = (
            "{n} symbolic-star table chosen"
            if len(stars) == 1
            else "{n} symbolic-star tables chosen"
        )
        words.append(t.text(chosen, n=len(stars)))
    return t.text("Settings:") + " " + " · ".join(words)


def _settings_context(
    rows: list[Row], form: Row, errors: dict[str, str], lang: str = "en"
) -> dict[str, Any]:
    names = {r.name for r in rows} | {"star"}
    return {
        "settings": rows,
        "settings_line": settings_line(rows, form.stars, translator(lang)),
        "settings_open": any(k in names for k in errors),
    }


@lru_cache(maxsize=256)
def _settings_html(
    settings: tuple[tuple[str, str], ...], stars: tuple[tuple[str, str], ...], lang: str
) -> bytes:
    """The settings fieldset of a chart page's form (no errors, UTF-8), rendered once per
    settings, star tables and language (a chart query's own)."""
    q = ChartQuery(date="", gender="", settings=settings, stars=stars, lang=lang)
    form = Row(stars=set(q.stars))
    context = {
        **_lang_context(q.lang),
        "form": form,
        "errors": {},
        **_settings_context(_settings_rows(q, {}, q.lang), form, {}, q.lang),
        "star_tables": _star_tables(),
        "star_article": _star_article(),
    }
    return _environment_of(context).get_template("_settings.html").render(context).encode()


def _star_article() -> str:
    article = article_for_setting("star")
    return f"/library/{article}" if article and article_exists(article) else ""


@cache
def _star_tables() -> list[tuple[str, str, list[tuple[str, str]]]]:
    from mingshu.bazi import STARS

    return [
        (s.key, s.names.hans, [(v.id, v.label) for v in s.variants])
        for s in STARS
        if len(s.variants) > 1
    ]


def _form(q: ChartQuery | None, raw: dict[str, Any]) -> Row:
    def text(key: str) -> str:
        value = raw.get(key, "")
        if isinstance(value, list):
            value = value[-1] if value else ""
        return str(value)[:MAX_VALUE]

    if q is not None:
        return Row(**{
            "date": q.date, "calendar": q.calendar, "leap": q.leap, "time": q.time,
            "unknown_hour": q.unknown_hour, "gender": q.gender, "place": text("place"),
            "city": q.city, "tz": q.tz, "lon": q.lon, "true_solar": q.true_solar,
            "stars": set(q.stars), "names": q.names, "at": q.at, "year": q.year,
        })  # fmt: skip
    return Row(**{
        "date": text("date"), "calendar": text("calendar"), "leap": text("leap") == "1",
        "time": text("time"), "unknown_hour": text("unknown_hour") == "1",
        "gender": text("gender"), "place": text("place"), "city": text("city")
        if text("city").isdigit() else "", "tz": text("tz"), "lon": text("lon"),
        "true_solar": text("true_solar") == "1", "stars": set(), "names": text("names")
        if text("names") in NAMES else "hans", "at": text("at"), "year": text("year"),
    })  # fmt: skip


_SLOTS: Final = ("date", "time", "city", "tz", "lon", "at", "year")
"""The form's free-text fields on a chart page, each written where a slot of the cached
form is (:func:`_form_pieces`)."""
_SLOT: Final = re.compile("\x00(settings|" + "|".join(_SLOTS) + ")\x00")


def _form_html(q: ChartQuery, place_label: str, settings_html: bytes) -> bytes:
    """The birth form of a chart page, filled in with ``q``: the form as
    ``_form.html`` renders it (UTF-8), from pieces made once per shape (which fields are
    given, the choices, the language) around the chart's own values (the template's
    sixty-odd expressions and twenty error look-ups a page, for some ten values)."""
    values = (q.date, q.time, q.city, q.tz, q.lon, q.at, q.year)
    pieces = _form_pieces(
        q.lang, q.calendar, q.leap, q.unknown_hour, q.gender, q.true_solar, q.names,
        place_label, tuple(bool(v) for v in values),
    )  # fmt: skip
    filled = {slot: _escaped(v).encode() for slot, v in zip(_SLOTS, values, strict=True)}
    filled["settings"] = settings_html
    return _joined(pieces, filled)


@lru_cache(maxsize=256)
def _form_pieces(
    lang: str, calendar: str, leap: bool, unknown_hour: bool, gender: str, true_solar: bool,
    names: str, place_label: str, given: tuple[bool, ...],
) -> Pieces:  # fmt: skip
    """``_form.html`` without errors, rendered with a mark for each given free-text field
    (a mark is as true as the value, so each condition on it goes the same way) and for the
    settings, then cut at the marks (each slot's key its field's name)."""
    marks = {slot: f"\x00{slot}\x00" if on else "" for slot, on in zip(_SLOTS, given, strict=True)}
    form = Row(**{
        **marks, "calendar": calendar, "leap": leap, "unknown_hour": unknown_hour,
        "gender": gender, "place": "", "true_solar": true_solar, "names": names,
    })  # fmt: skip
    context = {
        "t": translator(lang),
        "form": form,
        "errors": {},
        "settings_html": Markup("\x00settings\x00"),
        "place_label": place_label,
    }
    html = _environment_of(context).get_template("_form.html").render(context)
    return _cut(html, _SLOT)


FORM_FIELDS: Final = frozenset(
    {"date", "calendar", "leap", "time", "unknown_hour", "gender", "place", "city", "tz",
     "lon", "true_solar", "fold", "star", "at", "year", *CHOICES, *BAZI_CHOICES,
     *FLAG_CHOICES}
)  # fmt: skip


def _page(
    request: Request,
    raw: dict[str, Any],
    errors: dict[str, str],
    choices: list[cities.City] | None = None,
) -> dict[str, Any]:
    form = _form(None, raw)
    lang = lang_of(raw)
    return {
        "lang": lang,
        **_lang_context(lang),
        "request": request,
        "form": form,
        "errors": errors,
        "other_errors": {k: v for k, v in errors.items() if k not in FORM_FIELDS},
        **_settings_context(_settings_rows(None, raw, lang), form, errors, lang),
        "star_tables": _star_tables(),
        "star_article": _star_article(),
        "place_label": "",
        "place_choices": [Row(id=c.id, label=c.label) for c in choices or ()],
        "charts": None,
    }


@router.get("/", response_class=HTMLResponse)
def home(request: Request) -> Response:
    raw = {"lang": request.query_params.get("lang", "")}
    return render("chart.html", **_page(request, raw, {}))


NAME_WORDS: Final = {"hans": "简体", "hant": "繁體", "english": "English", "pinyin": "pinyin"}
"""The names switch's words, each in its own script (a reader finds their own)."""
NAME_LANGS: Final = {"hans": "zh-Hans", "hant": "zh-Hant", "english": "en", "pinyin": "zh-Latn"}
"""The ``lang`` of names in each form (pinyin is Chinese in Latin letters)."""


def name_links(q: ChartQuery, path: str, fragment: str = "") -> list[Row]:
    """The names switch: the same page in each name form (the current one not a link)."""
    return _name_rows(q.names, lambda style: f"{path}?{q.query_string(names=style)}{fragment}")


def _name_rows(current: str, href: Callable[[str], str]) -> list[Row]:
    """The names switch's rows, each name form's link given by ``href``."""
    return [
        Row(style=style, word=NAME_WORDS[style], lang=NAME_LANGS[style], href=href(style),
            current=style == current)
        for style in NAMES
    ]  # fmt: skip


_STYLE_SLOT: Final = re.compile("\x00(" + "|".join(NAMES) + ")\x00")


def _names_html(
    q: ChartQuery, path: str, fragment: str = "", query: Callable[..., str] | None = None
) -> bytes:
    """The names switch of :func:`name_links` as ``_names.html`` renders it (UTF-8), from
    pieces made once per language and name form around the other forms' links (``query``:
    ``q``'s :meth:`~ChartQuery.query_strings`, when the caller has it)."""
    query = query or q.query_strings()
    hrefs = {
        style: _escaped(f"{path}?{query(names=style)}{fragment}").encode()
        for style in NAMES
        if style != q.names
    }
    return _joined(_names_pieces(q.lang, q.names), hrefs)


@lru_cache(maxsize=16)
def _names_pieces(lang: str, current: str) -> Pieces:
    """``_names.html`` with a mark for each link, cut at the marks (each slot's key its
    name form)."""
    links = _name_rows(current, lambda style: f"\x00{style}\x00")
    context = {"t": translator(lang), "name_links": links}
    html = _environment_of(context).get_template("_names.html").render(context)
    return _cut(html, _STYLE_SLOT)


def _bazi_view(charts: Charts, style: str, lang: str = "en") -> Row | None:
    """The BaZi section's values.  The pillars table and the list of symbolic stars come
    as finished rows and items, each a pure function of a few engine values (a pillar's
    details, a star's places), the name form and the language: made once and kept, as
    most recur from chart to chart."""
    c = charts.bazi
    if c is None:
        return None
    details = {d.position.key: d for d in c.details}
    pillars = [details[key] for key in ("year", "month", "day", "hour")]
    columns = [_pillar_cells(d, style, lang) for d in pillars]
    present: list[bytes] = []
    absent: list[bytes] = []
    absent_items = _ABSENT_ITEMS.get((style, lang))
    if absent_items is None:  # (not `or`: an empty ByIdentity is false)
        absent_items = _ABSENT_ITEMS[style, lang] = ByIdentity(4096)  # some forty a table
    positions = _position_keys()
    for result in c.stars:
        star, variant, hits = result
        if not hits:
            # An absent star's result is its compiled table's own, shared by every chart
            # without the star: its item is kept by the result's identity.
            item = absent_items.get(result)
            if item is None:
                item = absent_items.keep(
                    result, _bazi_star_item(star.key, star.names, variant.label, (), style, lang)
                )
            absent.append(item)
            continue
        # Keyed by the table's label and the places (hashing the whole table, a tuple of
        # its sources and rules, cost more than the rest of the item's look-up).
        places = tuple([(positions[h.position], _target_name(h.target, style)) for h in hits])
        present.append(_bazi_star_item(star.key, star.names, variant.label, places, style, lang))
    luck = c.luck
    start, moment = luck.start, luck.start_moment
    annual = None
    if charts.annual is not None:
        from mingshu.present import annual_to_dict

        a = annual_to_dict(charts.annual)
        annual = Row(**{
            "year": a["year"], "age": a["age"],
            "ten_god": name(a["ten_god"], style), "pillar": pillar_name(a["pillar"], style),
            "xiao_yun": pillar_name(a["xiao_yun"] or "", style),
            "luck": pillar_name(a["luck"] or "", style) or "—",
        })  # fmt: skip
    return Row(
        **{
            # The table's rows: ten god, pillar, hidden stems, nayin, the two stages, void.
            "rows": [b"".join(row) for row in zip(*columns, strict=True)],
            "tai_yuan": pillar_name(str(c.tai_yuan), style),
            "tai_xi": pillar_name(str(c.tai_xi), style),
            "ming_gong": pillar_name(str(c.ming_gong), style),
            "shen_gong": pillar_name(str(c.shen_gong), style),
            # The BaZi 命宫/身宫 in the page's script (the Zi Wei palace names and captions).
            "ming_gong_label": name(PalaceName.LIFE.names, style),
            "shen_gong_label": LABELS_OF[style]["body"],
            "n_present": len(present),
            "n_absent": len(absent),
            "present_items": b"".join(present),
            "absent_items": b"".join(absent),
            "start": translator(lang).message_text(
                f"{start.years} years {start.months} months {start.days} days "
                f"(from {None if moment is None else moment.isoformat(sep=' ')})"
            ),
            "luck_rows": _luck_rows(luck.steps, style),
            "annual": annual,
        }
    )


_ABSENT_ITEMS: dict[tuple[str, str], ByIdentity[object, bytes]] = {}
"""By name form and language: the item of each absent star's result, by its identity."""


@cache
def _position_keys() -> tuple[str, ...]:
    """Each pillar position's key, by its number (a NamedEnum's key is a property)."""
    from mingshu.bazi.common import Position

    return tuple(p.key for p in Position)


@lru_cache(maxsize=1024, typed=True)  # typed: a stem and a branch may be the same number
def _target_name(target: Stem | Branch | Pillar, style: str) -> str:
    """What a symbolic star's table gave, named from its own type in ``style``: the JSON's
    key cannot be read back (戊 and 午 are both "wu")."""
    if isinstance(target, Pillar):
        return pillar_name(str(target), style)
    return name(target.names, style)


def _name(names: Names, style: str) -> str:
    """A name in ``style``, or in 简体 where that form is empty (as views.name reads the
    JSON's named objects)."""
    return getattr(names, style) or names.hans


def _pillar_cells(d: PillarDetail, style: str, lang: str) -> tuple[bytes, ...]:
    """One pillar's column of the BaZi table, its seven cells (ten god, pillar, hidden
    stems, nayin, the day master's stage, the stem's own stage, void), escaped, UTF-8.  Each
    cell is made once for what decides it (a ten god, a pillar, a branch's hidden stems
    towards a day master, …: some hundreds of cells), where a whole column, one of tens
    of thousands (a pillar, a day master, a place in the chart), was mostly new to a new
    chart."""
    return (
        _named_cell(d.ten_god.names, style) if d.ten_god else _day_master_cell(lang),
        _pillar_cell(d.position, d.pillar, style),
        _hidden_cell(d.hidden, style),
        _named_cell(d.nayin.names, style),
        _named_cell(d.stage.names, style),
        _named_cell(d.self_stage.names, style),
        _void_cell(d.void, style),
    )


def _cell(style: str) -> str:
    return f'<td lang="{escape(NAME_LANGS[style])}">'


@lru_cache(maxsize=1024)
def _named_cell(names: Names, style: str) -> bytes:
    return f"{_cell(style)}{escape(_name(names, style))}</td>".encode()


@cache
def _day_master_cell(lang: str) -> bytes:
    return f"<td>{translator(lang)('日主 day master')}</td>".encode()


@lru_cache(maxsize=1024)
def _pillar_cell(position: Position, pillar: Pillar, style: str) -> bytes:
    return (
        f'{_cell(style)[:-1]} data-pillar="{escape(position.key)}">'
        f"{escape(pillar_name(str(pillar), style))}</td>"
    ).encode()


@lru_cache(maxsize=1024)
def _hidden_cell(hidden: tuple[HiddenStem, ...], style: str) -> bytes:
    # A colon in the Latin forms, where a space would run the stem's name into the ten
    # god's ("bǐng: shāng guān").
    colon = ":" if style in ("pinyin", "english") else ""
    stems = "".join(
        f"{escape(stem_name(h.stem.key, style) + colon + ' ' + _name(h.ten_god.names, style))}<br>"
        for h in hidden
    )
    return f"{_cell(style)}{stems}</td>".encode()


@lru_cache(maxsize=256)
def _void_cell(void: tuple[Branch, Branch], style: str) -> bytes:
    # Two branches: written as one word like a pillar (戌亥, xūhài), but English names are
    # words of their own ("Dog, Pig", not "DogPig").
    names = escape(
        ("" if style != "english" else ", ").join(branch_name(b.key, style) for b in void)
    )
    return f"{_cell(style)}{names}</td>".encode()


def _luck_rows(steps: Sequence[LuckStep], style: str) -> bytes:
    """The rows of the luck pillars' table, UTF-8 (the named cells made once per pillar,
    the numbers written by bytes' own formatting)."""
    return b"".join(
        b"<tr><td>%d</td>%b<td>%d\xe2\x80\x93%d</td><td>%d\xe2\x80\x93%d</td></tr>"  # – dash
        % (s.number, _luck_cells(s.pillar, s.ten_god, style), s.start_age, s.end_age,
           s.start_year, s.end_year)
        for s in steps
    )  # fmt: skip


@lru_cache(maxsize=1024)
def _luck_cells(pillar: Pillar, ten_god: TenGod, style: str) -> bytes:
    """A luck pillar's two named cells, its pillar and its ten god, escaped."""
    cell = f'<td lang="{escape(NAME_LANGS[style])}">'
    return (
        f"{cell}{escape(pillar_name(str(pillar), style))}</td>"
        f"{cell}{escape(_name(ten_god.names, style))}</td>"
    ).encode()


@lru_cache(maxsize=8192)
def _bazi_star_item(
    key: str,
    names: Names,
    table: str,
    places: tuple[tuple[str, str], ...],
    style: str,
    lang: str,
) -> bytes:
    """A symbolic star's item of the page's list: its line and its article or catalogue
    link.  A pure function of the star, its table, where it was found (each pillar and
    what the table gave there), the name form and the language: most items are the same
    from chart to chart (the absent stars', and a found star has few places), so a page
    of forty stars writes each once, not by a template loop."""
    t = translator(lang)
    link = ""
    article = next(iter(articles_for_star("bazi", key)), "")
    catalogue = catalogue_href("bazi", key, lang, style)
    if article:
        link = f' — <a href="/library/{escape(article)}">{t("article")}</a>'
    elif catalogue:
        link = f' — <a href="{escape(catalogue)}" data-catalogue>{t("star catalogue")}</a>'
    summary = _star_summary(names, table, places, style, lang)
    return f'<li class="{"found" if places else "absent"}">{t.message(summary)}{link}</li>'.encode()


def _star_summary(
    names: Names, table: str, hits: tuple[tuple[str, str], ...], style: str, lang: str
) -> str:
    """A symbolic star's line with its name and the branches it falls on in the page's
    name form (the table's label names its book and stays as written); an English page
    gives a Chinese name its English too."""
    label = _name(names, style)
    if lang == "en" and style in ("hans", "hant"):
        label = f"{names.english} {label}"
    if not hits:
        return f"no {label} in this chart (table: {table})"
    where = ", ".join(f"{pillar} pillar {target}" for pillar, target in hits)
    return f"{label} (table: {table}): {where}"


@router.get("/chart", response_class=HTMLResponse)
async def chart_page(request: Request) -> Response:
    # async: a repeat is a cache hit, and a new chart holds the interpreter lock for its
    # ~20 ms either way; the thread pool would only add switching.
    try:  # the query string as Starlette's query_params reads it (Latin-1)
        body = await page_body(request.scope["query_string"].decode("latin-1"))
    except FieldErrors as e:
        raw = _params(request)
        if not raw:  # no query: the empty form
            return render("chart.html", **_page(request, raw, {}))
        return render("chart.html", status=422, **_page(request, raw, e.errors))
    if body is not None:
        return cached(request, body, HTML)
    # A typed place (no JavaScript, or a suggestion taken without its id): the one city it
    # names, then a redirect to the chart's stable URL naming the city by id.  Several
    # cities of that name: the page asks which one (never the largest for the reader).
    raw = _params(request)
    typed = str(raw["place"])[:MAX_VALUE]
    found = cities.resolve(typed)
    # The city id the form carries counts only when it is one of the cities the place
    # names (the reader's answer); one left from the previous chart loses to the place.
    city = raw.get("city")
    found = [c for c in found if str(c.id) == city] or found
    if not found:
        errors = {"place": f"no city called {typed!r} (try English or Chinese)"}
        return render("chart.html", status=422, **_page(request, raw, errors))
    if len(found) > 1:
        errors = {"place": f"{len(found)} cities match {typed!r}: which one?"}
        return render("chart.html", status=422, **_page(request, raw, errors, found))
    rest = {k: v for k, v in raw.items() if k != "place"}
    rest["city"] = str(found[0].id)
    try:
        q = parse(rest)
    except FieldErrors as e:
        return render("chart.html", status=422, **_page(request, rest, e.errors))
    return RedirectResponse(f"/chart?{q.query_string()}", status_code=303)


HTML: Final = "text/html; charset=utf-8"


async def page_body(query: str) -> bytes | None:
    """The chart page of a raw query string; ``None`` where :func:`chart_page` answers
    otherwise (a typed place: the city it names, or which one); :class:`FieldErrors` when
    the query is bad or empty.  The chart lane (web/lane.py) answers with it too."""
    if "place" in unquote(query):  # then see whether the form's place field is set
        place = parse_qs(query, keep_blank_values=True).get("place", [])
        if len(place) == 1 and place[0].strip():
            return None
    q = parse_query(query)
    async with TURNS:  # a new page lets the loop poll before the next (web/turns.py)
        return chart_page_bytes(q)


@lru_cache(maxsize=CACHE_SIZE)
def chart_page_bytes(q: ChartQuery) -> bytes:
    """The chart page of a parsed query (a frozen value: every spelling of a chart parses
    to the same one).  A pure function of it, so each process keeps the most recent pages
    (charts are deterministic; see docs/web.md), and a new chart's query is parsed once."""
    return _chart_html(q, draw(q))


_BOOK_OF: Final = {
    "ziwei-quanshu.juan1.md": "紫微斗数全书 卷一",
    "ziwei-quanshu.juan2.md": "紫微斗数全书 卷二",
    "ziwei-quanshu.juan3.md": "紫微斗数全书 卷三",
}


def _patterns_html(z: Any, style: str, lang: str) -> bytes:
    """The items of the list of the patterns (格局) the chart forms under the book's
    reading (docs/patterns.md), UTF-8, each made once per pattern, the palaces that form
    it, the rules that break it, the name form and the language (a chart forms two on
    average)."""
    items = []
    for hit in z.patterns():
        palaces = tuple(z.palace_at(b).name for b in hit.palaces)
        key = (hit.pattern.key, palaces, tuple(r.key for r in hit.broken), style, lang)
        item = _PATTERN_ITEMS.get(key)
        if item is None:
            if len(_PATTERN_ITEMS) >= 4096:  # bound: a few hundred recur
                _PATTERN_ITEMS.clear()
            item = _PATTERN_ITEMS[key] = _pattern_item(hit, palaces, style, lang)
        items.append(item)
    return b"".join(items)


_PATTERN_ITEMS: dict[tuple[object, ...], bytes] = {}


def _pattern_item(hit: Any, palaces: tuple[PalaceName, ...], style: str, lang: str) -> bytes:
    """A pattern's item: names, group, the palaces that form it, the verse and its book,
    how often the default settings form it over the swept space, the rules that break it."""
    from mingshu.ziwei.patterns import GROUPS, frequency

    p, t = hit.pattern, translator(lang)
    where = escape(NAME_LANGS[style])
    book = p.verse_at.split(":")[0]
    f = frequency(p.key)
    often = ""
    if f is not None and f.one_in:
        years = f"{f.first_year}–{f.last_year}"
        often = f" · {t('1 chart in {n} ({years})', n=f'{f.one_in:,}', years=years)}"
    broken = "".join(
        f'<br><em>{t("Broken (破格):")}</em> <span lang="{where}">{escape(name(r.names, style))}'
        f'</span> <q lang="zh-Hans">{escape(r.verse)}</q>'
        for r in hit.broken
    )
    return (
        f'    <li id="pattern-{escape(p.key)}"><strong lang="{where}">'
        f'{escape(name(p.names, style))}</strong> <span lang="{where}">'
        f"({escape(name(GROUPS[p.group], style))}; "
        f"{escape(' · '.join(name(palace.names, style) for palace in palaces))})</span>:\n"
        f'      <q lang="zh-Hans">{escape(p.verse)}</q> '
        f'<cite lang="zh-Hans">{escape(_BOOK_OF.get(book, book))}</cite>{often}{broken}'
        "    </li>\n"
    ).encode()


def _star_list(z: Any, style: str, qs: str) -> bytes:
    """The items of the list of every star (UTF-8), each with its palace and a link to its
    rule.  A page lists a hundred stars: each item is written here from two pieces made
    once per star, palace and name form, and the chart's query written into the links at
    once (the template's loop escaped five values an item)."""
    items: list[bytes] = []
    for palace in z.palaces:
        where = _star_item_where(palace.name, palace.branch, style)
        for placed in palace.stars:
            items += (_star_item_link(placed.star, style), where)
    return b"".join(items).replace(b"\x00", _escaped(qs).encode())


@lru_cache(maxsize=1024)
def _star_item_link(star: Star, style: str) -> bytes:
    """A star's item of the list up to its palace, escaped, with a NUL where the chart's
    query goes (a query has none: parse refuses them)."""
    key = escape(star.key)
    head = f'<li lang="{escape(NAME_LANGS[style])}"><a href="/chart/star/{key}?\x00'
    return f'{head}" data-star-link="{key}">{escape(name(star.names, style))}</a> '.encode()


@lru_cache(maxsize=1024)
def _star_item_where(palace: PalaceName, branch: Branch, style: str) -> bytes:
    """The end of a star's item: the palace it is in, escaped."""
    return f"{escape(name(palace.names, style))} {escape(name(branch.names, style))}</li>".encode()


def _chart_html(q: ChartQuery, charts: Charts) -> bytes:
    return _filled("chart.html", _chart_context(q, charts), _CHART_FIXED, _CHART_RAW)


_CHART_FIXED: Final = frozenset({"names_lang", "form.calendar", "form.gender"})
"""The words of a chart page's context that its template compares or translates: they
decide the page's pieces, with its language and conditions (:func:`_filled`)."""
_CHART_RAW: Final = frozenset({"board_svg"})
"""The texts a chart page writes as they are (``| safe``): the board, a third of the page,
not copied into a Markup."""


def _chart_context(q: ChartQuery, charts: Charts) -> dict[str, Any]:
    """What ``chart.html`` shows of a drawn chart: texts and numbers (the slots of
    :func:`_filled`), the HTML the code writes (Markup), and the words and flags that
    decide the page's shape."""
    from mingshu.present.ziwei_svg import chart_svgs

    style = q.names
    t = translator(q.lang)
    query = q.query_strings()
    qs = query()
    # The switch writes no link to the page's own language.
    lang_links = {lang: "" if lang == q.lang else f"/chart?{query(lang=lang)}" for lang in LANGS}
    board_qs = query(year="")
    context: dict[str, Any] = {
        **_lang_context(q.lang, lang_links),
        "charts": True,
        "form": Row(
            date=q.date, calendar=q.calendar, leap=q.leap, time=q.time,
            unknown_hour=q.unknown_hour, gender=q.gender, tz=q.tz, lon=q.lon,
            true_solar=q.true_solar, at=q.at,
        ),
        # The moment as a reader writes it: the date, then the clock time after a space.
        "at_words": q.at.replace("T", " "),
        "errors": {},
        "place_words": t.mark(charts.place.label),
        "permalink": f"/chart?{qs}",
        "names_html": _names_html(q, "/chart", "#chart", query),
        "names_lang": NAME_LANGS[style],
        "api_ziwei": f"/api/ziwei?{query(at='', year='', names='hans', lang='en')}"
        if not q.unknown_hour else "",
        "api_horoscope": f"/api/ziwei/horoscope?{query(year='', names='hans', lang='en')}"
        if q.at else "",
        "api_bazi": f"/api/bazi?{query(at='', names='hans', lang='en')}"
        if not q.unknown_hour else "",
        "svg_link": f"/chart.svg?{board_qs}" if not q.unknown_hour else "",
        "png_link": f"/chart.png?{board_qs}" if not q.unknown_hour else "",
        "notices_html": _notices_html(q, charts),
        "board_svg": "",
        "horoscope": charts.horoscope is not None,
        "steps": _horoscope_steps(q, query),
        "unknown_html": "",
        "bazi": _bazi_view(charts, style, q.lang),
        "catalogues": {e: catalogue_href(e, "", q.lang, style) for e in ("ziwei", "bazi")},
    }  # fmt: skip
    if charts.ziwei is not None:
        z = charts.ziwei
        # Each star's name links to its rule (a keyboard reaches it; the script opens it in
        # the panel instead of a new page).
        (context["board_svg"],) = chart_svgs(
            z,
            charts.horoscope,
            style,
            ("board",),
            star_link=_star_link(qs),
            notice_words=_notice_words(q.lang),
            as_bytes=True,
        )
        # The phone layout (one palace a row) is drawn only for a screen that shows it: the
        # stylesheet shows it under 600 px, where the script fetches it (with the same star
        # links) and, without a script, a <picture> whose source only a narrow screen picks
        # loads an image of it.  A wide screen never draws it: a fifth less work a page.
        context["column_src"] = f"/chart/column.svg?{qs}"
        context["column_image"] = f"/chart.svg?{board_qs}&layout=column"
        from mingshu.present.ziwei_analysis import analysis_json

        # 三方四正, 飞化 and 自化 of every palace, for the script that draws them on a click.
        context["analysis"] = _escaped_utf8(analysis_json(z))
        context["timeline"] = _timeline(q, z, query)
        context["patterns"] = _patterns_html(z, style, q.lang)
        context["star_list"] = _star_list(z, style, qs)
    if charts.unknown:
        context["unknown_html"] = _unknown_html(q, charts.unknown, context)
    context["form_html"] = _form_html(
        q,
        charts.place.label,
        _settings_html(q.settings, q.stars, q.lang),
    )
    return context


def _notices_html(q: ChartQuery, charts: Charts) -> bytes:
    """The list of the engines' notices (``_notices.html``, UTF-8), or nothing."""
    # Each notice names the engine it came from (Zi Wei takes a clock time without a zone as
    # given, as iztro does; BaZi needs a zone and assumes Beijing's), or "both".
    notices: dict[tuple[str, str], Any] = {}
    for engine, chart in (("Zi Wei", charts.ziwei), ("BaZi", charts.bazi)):
        for n in () if chart is None else chart.notices:
            key = (n.code, n.message)
            if key in notices:
                notices[key] = (notices[key][0] + " and " + engine, n)
            else:
                notices[key] = (engine, n)
    if charts.ziwei is not None and charts.ziwei.birth.time_index == 12:
        rule = q.setting("late_rat_hour")
        day = "the next day" if rule == "next_day" else "the birth day (as the early Rat hour)"
        bz = q.setting("bz_late_rat_hour").replace("_", " ")
        message = (
            f"the birth falls in the late Rat hour (23:00–24:00): Zi Wei counts it as {day} "
            f"(setting late_rat_hour={rule}); BaZi uses the {bz} rule. Change the settings "
            "to see the other reading."
        )
        notices[("late_rat_hour", message)] = ("both", Notice("late_rat_hour", "time", message))
    return _notices_list(q.lang, tuple(notices.values())) if notices else b""


@lru_cache(maxsize=256)
def _notices_list(lang: str, notices: tuple[tuple[str, Notice], ...]) -> bytes:
    """``_notices.html`` for ``notices`` (engine, notice): made once for each, as most
    pages have the same one or two (BaZi's Beijing time, the late Rat hour)."""
    context = {"t": translator(lang), "notices": notices}
    return _environment_of(context).get_template("_notices.html").render(context).encode()


def _unknown_html(q: ChartQuery, unknown: Sequence[Any], page: dict[str, Any]) -> Markup:
    """The table of the thirteen charts of an unknown hour (``_unknown.html``)."""
    style = q.names
    context = {
        "t": page["t"],
        "form": page["form"],
        "names_lang": page["names_lang"],
        "api_hours": "/api/ziwei/hours?"
        + q.query_string(unknown_hour=False, at="", year="", names="hans", lang="en"),
        "unknown": unknown_hour_table(unknown, style),
        "unknown_heads": Row(
            life=name(PalaceName.LIFE.names, style),
            body=LABELS_OF[style]["body"],
            element_class=LABELS_OF[style]["class"],
        ),
        "unknown_links": [
            f"/chart?{q.query_string(unknown_hour=False, time=t)}"
            for t in ("00:30", "02:00", "04:00", "06:00", "08:00", "10:00", "12:00",
                      "14:00", "16:00", "18:00", "20:00", "22:00", "23:30")
        ],
    }  # fmt: skip
    return Markup(_environment_of(context).get_template("_unknown.html").render(context))


Pieces = tuple[tuple[bytes, ...], tuple[Any, ...]]
"""A template cut at its slots: the texts (UTF-8) and, between each two, its slot's key."""


_MARK: Final = re.compile("\x00([0-9]+)\x00")
_PIECES: dict[tuple[object, ...], Pieces] = {}


def _filled(
    template: str, context: dict[str, Any], fixed: frozenset[str], raw: frozenset[str]
) -> bytes:
    """``template`` rendered with ``context`` (UTF-8), from pieces made once per shape.
    Each text or number of the context (reached through Rows, dicts and lists:
    ``bazi.rows.3``) is a slot, written escaped as ``{{ value }}`` writes it (as it is if
    its path is in ``raw``, or if it is a Markup, or bytes: HTML already in UTF-8), unless
    its path is in ``fixed``; the other values (flags, the translator, empty texts, the
    fixed words) are the shape, the pieces' key.  The pieces are the template rendered
    once with a mark in each slot, cut at the marks.  A mark is as true as its value, so
    every condition goes the same way, and is a number between NULs, so words filled with
    it (``t("流年 {year}", year=…)``) are marked Chinese or not as with the number it
    stands for."""
    fill: list[bytes] = []
    shape: list[object] = [template]
    _slots("", context, _by_container(fixed), _by_container(raw), fill, shape)
    key = tuple(shape)
    pieces = _PIECES.get(key)
    if pieces is None:
        if len(_PIECES) >= 1024:  # bound: a few dozen shapes recur
            _PIECES.clear()
        count = itertools.count()
        marked = {k: _marked(k, v, fixed, count) for k, v in context.items()}
        html = _environment_of(marked).get_template(template).render(marked)
        texts, slots = _cut(html, _MARK)
        pieces = _PIECES[key] = (texts, tuple(map(int, slots)))
    return _joined(pieces, fill)


def _cut(html: str, marks: re.Pattern[str]) -> Pieces:
    """``html`` cut at ``marks`` (each a pattern whose one group is the slot's key)."""
    cut = marks.split(html)
    return tuple(text.encode() for text in cut[::2]), tuple(cut[1::2])


def _joined(pieces: Pieces, values: Any) -> bytes:
    """The pieces' texts with each slot's value (``values[key]``, UTF-8) between them."""
    texts, slots = pieces
    html = [texts[0]]
    for slot, text in zip(slots, texts[1:], strict=True):
        html += (values[slot], text)
    return b"".join(html)


@cache
def _by_container(paths: frozenset[str]) -> dict[str, frozenset[str]]:
    """Paths (``form.calendar``) as the keys they name in each container (``form``: the
    ``calendar``; the context itself is ``""``), so a walk looks up a value's key, not a
    path built for it."""
    keys: dict[str, set[str]] = {}
    for path in paths:
        container, _, key = path.rpartition(".")
        keys.setdefault(container, set()).add(key)
    return {container: frozenset(k) for container, k in keys.items()}


_CONTAINERS: Final = (Row, dict, list)
"""What :func:`_slots` walks into (a tuple: ``Row | dict | list`` in the loop would build
a union for each of a page's values, a microsecond each)."""
_SLOTTED: Final = object()
"""A slot in a shape (a value that is not a slot is there as ``(value,)``)."""
_NONE: Final[frozenset[str]] = frozenset()


def _slots(
    path: str,
    container: Row | dict[str, Any] | list[Any],
    fixed: dict[str, frozenset[str]],
    raw: dict[str, frozenset[str]],
    fill: list[bytes],
    shape: list[object],
) -> None:
    """Adds the slots of ``container`` (at ``path``) to ``fill`` (escaped, UTF-8) and its
    shape to ``shape``: its keys (or length), then each value's slot or value in order."""
    if isinstance(container, list):  # keyed by its indices as text, as paths name them
        items: Any = zip(map(str, range(len(container))), container, strict=True)
        shape.append((path, len(container)))
    else:
        values = vars(container) if isinstance(container, Row) else container
        items = values.items()
        shape.append((path, tuple(values)))
    fixed_keys, raw_keys = fixed.get(path, _NONE), raw.get(path, _NONE)
    for key, value in items:
        if isinstance(value, str):  # most of a page's values (a Markup is one): tested first
            if value and key not in fixed_keys:
                if key not in raw_keys and not isinstance(value, Markup):
                    value = _escaped(value)
                fill.append(value.encode())
                shape.append(_SLOTTED)
            else:
                shape.append((value,))
        elif isinstance(value, bytes):
            if value:
                fill.append(value)
                shape.append(_SLOTTED)
            else:
                shape.append((value,))
        elif isinstance(value, _CONTAINERS):
            _slots(f"{path}.{key}" if path else key, value, fixed, raw, fill, shape)
        elif value and isinstance(value, int) and value is not True and key not in fixed_keys:
            fill.append(str(value).encode())
            shape.append(_SLOTTED)
        else:
            shape.append((value,))


def _escaped(text: str) -> str:
    """``text`` as markupsafe's ``escape`` writes it, without making a Markup of it (a
    chart page fills some sixty texts; each Markup is a Python-level construction)."""
    return (
        text.replace("&", "&amp;")
        .replace(">", "&gt;")
        .replace("<", "&lt;")
        .replace("'", "&#39;")
        .replace('"', "&#34;")
    )


_ENTITIES_UTF8: Final = tuple(
    (char.encode(), escape(char).encode()) for char in ("&", ">", "<", "'", '"')
)


def _escaped_utf8(text: bytes) -> bytes:
    """UTF-8 ``text`` escaped as :func:`_escaped` escapes it, without decoding it (the
    analysis JSON, 2 KB a page of quotes: escaping its bytes costs a third of decoding,
    escaping and encoding it)."""
    for char, entity in _ENTITIES_UTF8:  # "&" first, as escape does
        text = text.replace(char, entity)
    return text


def _marked(path: str, value: object, fixed: frozenset[str], count: Iterator[int]) -> Any:
    """``value`` with a mark in each of its slots (:func:`_slots`), numbered in order; an
    empty bytes value, written as nothing, as an empty Markup."""
    if isinstance(value, Row):
        return Row(**{k: _marked(f"{path}.{k}", v, fixed, count) for k, v in vars(value).items()})
    if isinstance(value, dict):
        return {k: _marked(f"{path}.{k}", v, fixed, count) for k, v in value.items()}
    if isinstance(value, list):
        return [_marked(f"{path}.{i}", v, fixed, count) for i, v in enumerate(value)]
    if isinstance(value, bytes):
        return Markup(f"\x00{next(count)}\x00" if value else "")
    if value and isinstance(value, str | int) and value is not True and path not in fixed:
        return Markup(f"\x00{next(count)}\x00")
    return value


def _chart_at(q: ChartQuery, query: Callable[..., str]) -> Callable[[str], str]:
    """``/chart?…`` for ``q`` with the horoscope moment moved to a given ``at``.  The
    timeline and the steps make some thirty of these a page; ``at`` and ``year`` end the
    canonical query string (ChartQuery.query_string), so the rest is encoded once."""
    head, tail = _at_link(q, query)
    return lambda at: f"{head}{_quoted(at)}{tail}"


def _at_link(q: ChartQuery, query: Callable[..., str]) -> tuple[str, str]:
    """The link of :func:`_chart_at` before and after its moment (``query``: ``q``'s
    :meth:`~ChartQuery.query_strings`)."""
    head = "/chart?" + query(at="", year="") + "&at="
    return head, f"&year={quote_plus(q.year)}" if q.year else ""


@lru_cache(maxsize=4096)
def _quoted(at: str) -> str:
    """A moment as a query string writes it (the timeline's twenty links a page are
    moments of a few hundred years' 2 July, and of the reader's own day)."""
    return quote_plus(at)


def _at_in_year(at: dt.datetime | None, text: str, year: int) -> str:
    """The horoscope moment ``at`` (written ``text``) moved to ``year`` (2 July when there
    is none: a day well inside the lunar year, so the year's layers are that year's)."""
    if at is None:
        return f"{year:04d}-07-02"
    day = min(at.day, calendar.monthrange(year, at.month)[1])
    moved = at.replace(year=year, day=day)
    return moved.strftime("%Y-%m-%dT%H:%M" if "T" in text else "%Y-%m-%d")


def _timeline(q: ChartQuery, z: Any, query: Callable[..., str]) -> Row:
    """The strip under the board: the decades (大限) of the chart, and the ten years of the
    chosen decade (流年), each a link that moves the horoscope there; each strip as its
    links' HTML in UTF-8 (the numbers need no escaping, nor does a quoted moment: the
    link's other parts are escaped once)."""
    born = z.lunar_date.year
    current = int(q.at[:4]) if q.at else None
    at = dt.datetime.fromisoformat(q.at) if q.at else None
    decades = []
    chosen = None
    head, tail = (_escaped(part).encode() for part in _at_link(q, query))
    tail += b"#chart"
    for palace in sorted(z.palaces, key=lambda p: p.decadal.start):
        start, end = palace.decadal.start, palace.decadal.end
        first = born + start - 1  # nominal age 1 is the birth's lunar year
        if first > LAST_DATE.year:
            break
        here = current is not None and first <= current <= born + end - 1
        if here:
            chosen = (start, end)
        moment = _quoted(_at_in_year(at, q.at, max(first, FIRST_DATE.year))).encode()
        decades.append(
            b'<a href="%b%b%b"%b title="%b, %d\xe2\x80\x93%d">%d\xe2\x80\x93%d</a>'  # – dash
            % (head, moment, tail, _CURRENT if here else b"", _palace_title(palace.name, q.names),
               first, born + end - 1, start, end)
        )  # fmt: skip
    years = []
    if chosen is not None:
        t = translator(q.lang)
        for age in range(chosen[0], chosen[1] + 1):
            year = born + age - 1
            if FIRST_DATE.year <= year <= LAST_DATE.year:
                moment = _quoted(_at_in_year(at, q.at, year)).encode()
                years.append(
                    b'<a href="%b%b%b"%b title="%b">%d</a>'
                    % (head, moment, tail, _CURRENT if year == current else b"",
                       _escaped(t.text("age {age}", age=age)).encode(), year)
                )  # fmt: skip
    return Row(decades=b"".join(decades), years=b"".join(years))


@lru_cache(maxsize=64)
def _palace_title(palace: PalaceName, style: str) -> bytes:
    return _escaped(name(palace.names, style)).encode()


_CURRENT: Final = b' aria-current="true"'


def _horoscope_steps(q: ChartQuery, query: Callable[..., str]) -> Markup:
    """Links that move the horoscope moment by a decade, a year, a month, a day or a
    double hour, so a reader walks through the layers without typing dates."""
    if not q.at:
        return Markup("")
    at = dt.datetime.fromisoformat(q.at)
    timed = "T" in q.at

    def shift_months(months: int) -> dt.datetime:
        total = at.year * 12 + at.month - 1 + months
        year, month = divmod(total, 12)
        day = min(at.day, calendar.monthrange(year, month + 1)[1])
        return at.replace(year=year, month=month + 1, day=day)

    def text(moment: dt.datetime) -> str:
        return moment.strftime("%Y-%m-%dT%H:%M" if timed else "%Y-%m-%d")

    moves = [
        ("decade", shift_months(-120), shift_months(120)),
        ("year", shift_months(-12), shift_months(12)),
        ("month", shift_months(-1), shift_months(1)),
        ("day", at - dt.timedelta(days=1), at + dt.timedelta(days=1)),
    ]
    if timed:
        moves.append(("hour", at - dt.timedelta(hours=2), at + dt.timedelta(hours=2)))
    links = []
    chart_at = _chart_at(q, query)
    for label, back, forward in moves:
        if back.year >= FIRST_DATE.year:
            links.append((f"← {label}", chart_at(text(back)) + "#chart"))
        if forward.year <= LAST_DATE.year:
            links.append((f"{label} →", chart_at(text(forward)) + "#chart"))
    t = translator(q.lang)
    return Markup(" · ".join(f'<a href="{escape(href)}">{t(label)}</a>' for label, href in links))


@router.get("/chart.svg")
async def chart_svg_file(request: Request) -> Response:
    """The Zi Wei board alone as an SVG file (``layout=board`` or ``column``), with the
    horoscope when ``at`` is given: the same stable URL scheme as the page."""
    raw = _params(request)
    layout = raw.pop("layout", "board")
    if layout not in ("board", "column"):
        return render(
            "chart.html", status=422,
            **_page(request, raw, {"layout": "layout must be board or column"}),
        )  # fmt: skip
    response = await _board_file(
        request, raw, lambda q: chart_svg_bytes(q.query_string(year=""), str(layout))
    )
    if response.status_code != 422:
        response.headers["Content-Disposition"] = 'inline; filename="ziwei-chart.svg"'
    return response


async def _board_file(
    request: Request, raw: dict[str, Any], drawn: Callable[[ChartQuery], bytes]
) -> Response:
    """An SVG of the board of the chart ``raw`` asks for, ``drawn`` from its parsed query
    (cached, with its ETag), or the form with the bad fields named (422)."""
    try:
        q = parse(raw)
        if q.unknown_hour:
            raise FieldErrors({"time": "the board needs the birth hour"})
        async with TURNS:
            _check_bazi(q)
            body = drawn(q)
    except FieldErrors as e:
        return render("chart.html", status=422, **_page(request, raw, e.errors))
    return cached(request, body, "image/svg+xml")


def _check_bazi(q: ChartQuery) -> None:
    """The board is the Zi Wei chart alone, but its link carries the page's whole query:
    the BaZi fields (``star``, ``year``, the BaZi settings) are checked as the page checks
    them, so a bad one is refused, never ignored."""
    chart = bazi_of(q)
    if q.year:
        annual_of(chart, q.year)


@router.get("/chart/column.svg")
async def chart_column_file(request: Request) -> Response:
    """The phone layout of a chart page's board, as the page shows it under 600 px: each
    star's name a link to its rule, with the page's query (the page's script fetches it
    when the screen is narrow enough to show it)."""
    return await _board_file(request, _params(request), column_svg_bytes)


def _star_link(query_string: str) -> tuple[str, str]:
    """Where a star's name on a chart page's board links: its rule, with the page's query."""
    return ("/chart/star/", f"?{query_string}")


@lru_cache(maxsize=CACHE_SIZE)
def column_svg_bytes(q: ChartQuery) -> bytes:
    """The phone layout of the page of ``q``, with the page's star links."""
    from mingshu.present.ziwei_svg import chart_svgs

    chart = ziwei_of(q)
    horoscope = horoscope_of(chart, q.at) if q.at else None
    star_link = _star_link(q.query_string())
    return chart_svgs(
        chart,
        horoscope,
        q.names,
        ("column",),
        star_link=star_link,
        notice_words=_notice_words(q.lang),
        as_bytes=True,
    )[0]


@lru_cache(maxsize=CACHE_SIZE)
def chart_svg_bytes(query_string: str, layout: str) -> bytes:
    from mingshu.present.ziwei_svg import chart_svgs

    q = parse_query(query_string)
    chart = ziwei_of(q)
    horoscope = horoscope_of(chart, q.at) if q.at else None
    return chart_svgs(
        chart, horoscope, q.names, (layout,), notice_words=_notice_words(q.lang), as_bytes=True
    )[0]


def _notice_words(lang: str) -> Callable[[str], str] | None:
    """The board's notices (the engines' English messages) in the page's language."""
    return None if lang == "en" else translator(lang).message_text


@router.get("/chart.png")
def chart_png_file(request: Request) -> Response:
    """The Zi Wei board as a PNG image (twice the SVG's size), drawn from the same SVG
    with the shipped CJK font, so it looks the same on a machine without Chinese fonts.
    A plain function: FastAPI runs it in the thread pool, off the event loop."""
    raw = _params(request)
    try:
        q = parse(raw)
        if q.unknown_hour:
            raise FieldErrors({"time": "the board needs the birth hour"})
        _check_bazi(q)
        body = chart_png_bytes(q.query_string(year=""))
    except FieldErrors as e:
        return render("chart.html", status=422, **_page(request, raw, e.errors))
    response = cached(request, body, "image/png")
    response.headers["Content-Disposition"] = 'inline; filename="ziwei-chart.png"'
    return response


@lru_cache(maxsize=64)
def chart_png_bytes(query_string: str) -> bytes:
    import resvg_py

    from mingshu.web.cards import FONT

    svg = chart_svg_bytes(query_string, "board").decode()
    family = "Noto Sans CJK SC"  # the family the board names first; the subset provides it
    png = resvg_py.svg_to_bytes(
        svg_string=svg, font_files=[str(FONT)], skip_system_fonts=True,
        font_family=family, sans_serif_family=family, zoom=2,
    )  # fmt: skip
    return bytes(png)


@router.get("/chart/star/{key}", response_class=HTMLResponse)
def star_page(request: Request, key: str) -> Response:
    raw = _params(request)
    try:
        q = parse(raw)
        if q.unknown_hour:
            raise FieldErrors({"time": "a star's place needs the birth hour"})
        place_of(q)
        chart = ziwei_of(q)
    except FieldErrors as e:
        return render("chart.html", status=422, **_page(request, raw, e.errors))
    try:
        d = star_detail(chart, key[:40], q.names)
    except (KeyError, ValueError):
        return render(
            "error.html", status=404, lang=q.lang, title="No such star",
            message=f"This chart has no star {key[:40]!r}.",
        )  # fmt: skip
    articles = articles_for_star("ziwei", d.key)
    return render(
        "star.html", d=d, back=f"/chart?{q.query_string()}#chart", lang=q.lang,
        **_lang_context(q.lang, {lang: f"/chart/star/{d.key}?{q.query_string(lang=lang)}"
                                 for lang in LANGS}),
        name_links=name_links(q, f"/chart/star/{d.key}"), names_lang=NAME_LANGS[q.names],
        article_hrefs=[f"/library/{a}" for a in articles],
        catalogue_href=catalogue_href("ziwei", d.key, q.lang, q.names),
    )  # fmt: skip


@router.get("/settings", response_class=HTMLResponse)
def settings_page(request: Request) -> Response:
    lang = lang_of({"lang": request.query_params.get("lang", "")})
    links = {other: "/settings" + ("" if other == "en" else f"?lang={other}") for other in LANGS}
    return render(
        "settings.html", settings=_settings_rows(None, {}, lang), **_lang_context(lang, links)
    )
