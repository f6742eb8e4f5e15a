"""One vocabulary: the glossary's lookups accept every form, both engines name the twelve
stages with the glossary's one English word, and no shipped article uses a glossary term
outside its definition (a star called by another group's word, a retired stage name)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mingshu import library
from mingshu.errors import InputError
from mingshu.library.glossary import entries, lookup, misuses, pinyin
from mingshu.named import load_toml


def test_pinyin_has_one_convention() -> None:
    assert pinyin("lín guān") == "Lin Guan"
    assert pinyin("zi_wei") == "Zi Wei"
    assert pinyin("  cháng   shēng ") == "Chang Sheng"


@pytest.mark.parametrize(
    ("form", "kind", "key"),
    [
        ("临官", "stage", "lin_guan"),
        ("臨官", "stage", "lin_guan"),
        ("lín guān", "stage", "lin_guan"),
        ("LinGuan", "stage", "lin_guan"),
        ("office", "stage", "lin_guan"),
        ("adjective star", "group", "adjective"),
        ("杂曜", "group", "adjective"),
        ("en guang", "star", "en_guang"),
        ("恩光", "star", "en_guang"),
        ("en_guang", "star", "en_guang"),
        ("Enguang", "star", "en_guang"),
        ("甲", "stem", "jia"),
        ("Health", "palace", "health"),
    ],
)
def test_lookup_accepts_every_form(form: str, kind: str, key: str) -> None:
    entry = lookup(form)
    assert (entry.kind, entry.key) == (kind, key)


def test_an_ambiguous_or_unknown_name_is_an_input_error() -> None:
    # 子 is the branch Rat; "Mu" is the stage 墓 and the stage 沐浴's first syllable only,
    # but also 墓 and the element wood's pinyin is not in the glossary: "Mu" is one stage.
    assert lookup("子", "branch").key == "zi"
    assert lookup("mu", "stage").key == "mu"
    with pytest.raises(InputError) as e:
        lookup("no such star")
    assert e.value.field == "term"
    with pytest.raises(InputError) as e:
        lookup("Office", "planet")
    assert e.value.field == "kind"


def test_both_engines_name_the_stages_as_the_glossary_does() -> None:
    """The Zi Wei 长生十二神 and the BaZi growth stages: one English word each, the
    glossary's, and the same twelve keys."""
    stages = {e.key: e for e in entries() if e.kind == "stage"}
    assert len(stages) == 12
    assert all(len(e.english.split()) == 1 for e in stages.values())
    ziwei = next(
        c
        for c in load_toml("mingshu.ziwei", "data", "chart.toml")["cycle"]
        if c["key"] == "chang_sheng"
    )
    assert {g["key"]: g["english"] for g in ziwei["gods"]} == {
        k: e.english for k, e in stages.items()
    }
    bazi = load_toml("mingshu.bazi", "data", "stages.toml")["stage"]
    assert {s["key"]: s["english"] for s in bazi} == {k: e.english for k, e in stages.items()}


def test_star_groups_are_the_engines() -> None:
    from mingshu import ziwei

    groups = {e.key for e in entries() if e.kind == "group"}
    assert groups == {g.value for g in ziwei.StarGroup}
    assert lookup("En Guang", "star").group == "adjective"
    assert lookup("Wen Chang", "star").group == "minor"


def test_misuse_is_found() -> None:
    """The check can fail: each kind of misuse in a planted text."""
    assert misuses("En Guang (恩光) is a minor star with a two-input rule.")
    assert misuses("A minor star that reads the day.", subject="En Guang")
    assert misuses("The Emolument is its Coming-of-Age stage.")
    assert not misuses("Wen Chang is a minor star; En Guang is an adjective star.")
    assert not misuses("An adjective star that reads the day.", subject="en_guang")
    assert not misuses("The Emolument is its Office stage.")


def test_misuse_tells_stars_that_share_a_pinyin_by_their_characters() -> None:
    """Tian Fu is 天府 (major) and 天福 (adjective): the characters in brackets say which is
    meant; without them, a group word fits when it is one of the stars' groups."""
    assert lookup("天福", "star").group == "adjective"
    assert lookup("天府", "star").group == "major"
    assert not misuses("Tian Fu (天福) is an adjective star.")
    assert not misuses("Tian Fu (天府) is a major star.")
    assert misuses("Tian Fu (天福) is a major star.")
    assert misuses("Tian Fu (天府) is an adjective star.")
    assert not misuses("Tian Fu is an adjective star.")
    assert misuses("Tian Fu is a minor star.")


def _subject(article: library.Article) -> str | None:
    """The star a Zi Wei article is about: its title's name before the colon, if a star."""
    if article.area != "ZW":
        return None
    try:
        return lookup(article.title.split(":")[0], "star").key
    except InputError:
        return None


def test_no_article_uses_a_term_outside_its_definition() -> None:
    lib = library.load()
    found: dict[str, list[str]] = {}
    for article in lib.articles:
        assert article.path is not None
        text = Path(article.path).read_text(encoding="utf-8")
        head = " ".join((article.title, article.subtitle, article.lede, article.short_version))
        bad = misuses(text) + misuses(head, subject=_subject(article))
        if bad:
            found[article.id] = bad
    assert not found, found
