"""Our articles are written in our own words: facts and tables carry over from the seed
articles (../shared/seeds), sentences do not.  No article may share a run of
:data:`RUN` consecutive words with a seed, except runs that are table data (branches,
stems, numbers: the engine's facts, which both must state the same way)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mingshu import library

RUN = 12
"""Twelve words in a row is a copied clause, not a shared phrase ("the Rat hour on the Dog
palace" is six)."""

# Words of table rows, rule statements and lists of stars that any two correct texts share:
# branches, stems and elements, and the syllables of the stars' pinyin names.
_TABLE_WORDS = frozenset(
    [
        "rat",
        "ox",
        "tiger",
        "rabbit",
        "dragon",
        "snake",
        "horse",
        "goat",
        "monkey",
        "rooster",
        "dog",
        "pig",
        "yang",
        "yin",
        "wood",
        "fire",
        "earth",
        "metal",
        "water",
        "day",
        "days",
        "hour",
        "hours",
        "palace",
        "the",
        "and",
        "of",
        "a",
        "on",
        "wen",
        "chang",
        "qu",
        "di",
        "kong",
        "jie",
        "tai",
        "fu",
        "feng",
        "gao",
        "en",
        "guang",
        "tian",
        "gui",
        "zuo",
        "you",
        "bi",
        "san",
        "ba",
    ]
)


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


def _prose(source: str) -> str:
    """The article without its tables' expected cells (engine data, not prose) and without
    its title (a name: the seeds link to the articles they expect by these titles)."""
    kept, in_expect = [], False
    for line in source.splitlines():
        stripped = line.strip()
        if line.startswith("title:"):
            continue
        if stripped.startswith("expect:"):
            in_expect = True
            continue
        if in_expect and stripped.startswith("- "):
            continue
        in_expect = False
        kept.append(line)
    return "\n".join(kept)


def _runs(words: list[str]) -> set[tuple[str, ...]]:
    return {tuple(words[i : i + RUN]) for i in range(len(words) - RUN + 1)}


def _is_table_data(run: tuple[str, ...]) -> bool:
    return sum(w in _TABLE_WORDS or w.isdigit() for w in run) >= 0.75 * len(run)


def copied_runs(article: str, seeds: str) -> list[str]:
    seed_runs = _runs(_words(seeds))
    words = _words(_prose(article))
    return [
        " ".join(run)
        for i in range(len(words) - RUN + 1)
        if (run := tuple(words[i : i + RUN])) in seed_runs and not _is_table_data(run)
    ]


SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"


@pytest.fixture(scope="module")
def seeds() -> str:
    folder = SEEDS
    if not folder.is_dir():
        pytest.skip(
            "the seed articles are not beside the repository (../shared/seeds): the project "
            "does not ship them, since their sentences must not carry over, so there is "
            "nothing to compare the articles' prose with"
        )
    texts = [p.read_text(encoding="utf-8") for p in sorted(folder.glob("0*.txt"))]
    assert len(texts) == 5
    return "\n".join(texts)


def test_no_article_copies_a_clause_from_the_seeds(seeds: str) -> None:
    root = Path(library.__file__).parent / "articles"
    copied = {
        path.name: found
        for path in sorted(root.glob("*.md"))
        if (found := copied_runs(path.read_text(encoding="utf-8"), seeds))
    }
    assert not copied, copied


def test_a_copied_clause_is_found(seeds: str) -> None:
    """The check can fail: a sentence lifted from a seed is caught, a table row is not."""
    words = _words(seeds)
    lifted = next(
        " ".join(words[i : i + RUN + 3])
        for i in range(len(words))
        if not _is_table_data(tuple(words[i : i + RUN]))
    )
    assert copied_runs(f"Our text. {lifted}. More of ours.", seeds)
    row = "Rat Ox Tiger Rabbit Dragon Snake Horse Goat Monkey Rooster Dog Pig Rat Ox"
    assert not copied_runs(row, seeds + " " + row)
