"""The interface language of the chart pages: English (the default) or 简体中文
(``lang=zh-Hans``).

The words live in a message catalogue, ``data/messages-zh-Hans.toml``: English text as the
key (as gettext has it, so a template reads in English and a missing entry shows English),
the Chinese as the value, and regular expressions for the messages that carry values
(errors and notices from the engines).  Articles stay English; the names on the chart
follow the separate names switch (``names=``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any, Final

from markupsafe import Markup, escape

from mingshu.named import load_toml

__all__ = ["LANGS", "Translator", "catalogue", "translator"]

LANGS: Final = ("en", "zh-Hans")
"""The interface languages, as ``lang=`` takes them."""

# CJK characters and their punctuation: Chinese text on an English page gets
# lang="zh-Hans", so fonts and screen readers read it as Chinese.
_CJK_RUN: Final = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]+")


@dataclass(frozen=True, slots=True)
class Catalogue:
    messages: dict[str, str]
    patterns: tuple[tuple[re.Pattern[str], str], ...]


@cache
def catalogue(lang: str) -> Catalogue:
    """The catalogue of ``lang`` (English has none: its text is the key)."""
    if lang == "en":
        return Catalogue({}, ())
    data = load_toml("mingshu.web", "data", f"messages-{lang}.toml")
    patterns = tuple((re.compile(p["en"]), str(p["text"])) for p in data.get("pattern", ()))
    return Catalogue(dict(data["messages"]), patterns)


@dataclass(frozen=True, slots=True)
class Translator:
    """``t("Draw the chart")`` in a template: the words in the page's language, escaped,
    with ``{name}`` fields filled from keywords; ``t.attr`` for an attribute's value;
    ``t.message`` for a message with values in it (an error, a notice)."""

    lang: str

    @property
    def html_lang(self) -> str:
        return self.lang

    def text(self, key: str, **values: Any) -> str:
        words = catalogue(self.lang).messages.get(key, key)
        return words.format(**values) if values else words

    def __call__(self, key: str, **values: Any) -> Markup:
        if not values:  # most of a page's words: the same markup every time
            return _words(self, key)
        # Most values recur too (a count, a year): the filled words are kept, keyed by each
        # value's type as well (a str and a Markup of the same text are equal, and escape
        # differently).
        try:
            return _filled(self, key, tuple((k, type(v), v) for k, v in values.items()))
        except TypeError:  # a value that is no key (unhashable)
            return self._fill(key, values)

    def _fill(self, key: str, values: dict[str, Any]) -> Markup:
        words = catalogue(self.lang).messages.get(key, key)
        return self._runs(str(Markup(escape(words)).format(**values)))

    def attr(self, key: str, **values: Any) -> str:
        return self.text(key, **values)

    def mark(self, text: str) -> Markup:
        """Text already in the page's language (composed by the code), escaped, with its
        Chinese runs marked on an English page."""
        return self._runs(str(escape(text)))

    def place(self, label: str) -> Markup:
        """A city's label as the city table writes it (its names in Latin and Chinese)."""
        return Markup('<span class="place">') + self.mark(label) + Markup("</span>")

    def lang_of(self, text: str) -> str:
        """``zh-Hans`` for a text in Chinese characters only, on an English page (an
        ``<option>`` holds no markup, so it carries the attribute itself); else ''."""
        if self.lang == "en" and _CJK_RUN.search(text) and not re.search("[A-Za-z]", text):
            return "zh-Hans"
        return ""

    def message(self, text: str) -> Markup:
        """A message with values (an engine's error or notice) in the page's language: the
        catalogue's entry, else its first pattern that matches the whole message, else the
        English (marked lang="en" on a Chinese page)."""
        return _message(self, text)

    def message_text(self, text: str) -> str:
        found = catalogue(self.lang)
        if self.lang == "en":
            return text
        if text in found.messages:
            return found.messages[text]
        for pattern, template in found.patterns:
            m = pattern.fullmatch(text)
            if m:
                # Each value is translated too where the catalogue knows it (a rule's
                # direction, a field's words); a group is shorter than the text, so this ends.
                return template.format(*(self.message_text(g) if g else "" for g in m.groups()))
        return text

    def _runs(self, html: str, english: str | None = None) -> Markup:
        if self.lang == "en":
            # Chinese alone (a heading, a term) is marked; Chinese terms inside an English
            # sentence are read with it (a span per term would split the sentence).
            if _CJK_RUN.search(html) and not re.search("[A-Za-z]", html):
                return Markup(f'<span lang="zh-Hans">{html}</span>')
            return Markup(html)
        if english is not None and html == str(escape(english)) and not _CJK_RUN.search(html):
            return Markup(f'<span lang="en">{html}</span>')
        return Markup(html)


@lru_cache(maxsize=4096)
def _words(t: Translator, key: str) -> Markup:
    """``t(key)`` without values, a pure function of the language and the words: made once
    (a chart page asks for a hundred of them)."""
    return t._runs(str(escape(catalogue(t.lang).messages.get(key, key))))


@lru_cache(maxsize=4096)
def _filled(t: Translator, key: str, values: tuple[tuple[str, type, Any], ...]) -> Markup:
    """``t(key, **values)``, a pure function of the language, the words and the values."""
    return t._fill(key, {k: v for k, _, v in values})


@lru_cache(maxsize=4096)
def _message(t: Translator, text: str) -> Markup:
    """``t.message(text)``, a pure function of the two: a chart page's forty symbolic-star
    lines are mostly the same few hundred texts (a Chinese page matches each against the
    catalogue's patterns)."""
    return t._runs(str(escape(t.message_text(text))), english=text)


@cache
def translator(lang: str) -> Translator:
    return Translator(lang if lang in LANGS else "en")
