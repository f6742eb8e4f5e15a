"""The sentence each claim badges, read from the article sources as a reader meets it.

A claim is cited as ``{claim}`key``` right after the sentence it proves (in the body, a
front-matter string or a directive's caption).  This prints, or returns with
:func:`badged`, for every key the plain text of each sentence that carries its badge:
the input of the claim fidelity audit (docs/claims-audit.md, tools/claims_audit.py).
"""

from __future__ import annotations

import re
import sys
from collections import defaultdict
from pathlib import Path

ARTICLES = Path(__file__).resolve().parents[1] / "src" / "mingshu" / "library" / "articles"
_ROLE = re.compile(r"\{claim\}`([^`]*)`")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
# A sentence ends at . ? ! (maybe closing a quote or bracket) before a space or the end.
_END = re.compile(r"[.?!][\"”')\]]*\s+")


def _plain(text: str) -> str:
    text = _LINK.sub(r"\1", text)
    text = text.replace("**", "").replace("`", "")
    return " ".join(text.split())


def _sentence_before(text: str) -> str:
    """The last sentence of ``text`` (the words before a badge)."""
    text = _ROLE.sub("", text).rstrip()
    cut = 0
    for m in _END.finditer(text):
        if m.end() < len(text):
            cut = m.end()
    sentence = text[cut:]
    # A YAML string or list item: drop its key and opening quote.
    sentence = re.sub(r"^\s*(-\s+)?([a-z_]+:\s*)?[\"']?", "", sentence)
    return _plain(sentence).strip("\"' ")


def badged(folder: Path = ARTICLES) -> dict[str, list[tuple[str, str]]]:
    """key -> [(article id, sentence)] for every badge in every article."""
    out: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for path in sorted(folder.glob("*.md")):
        text = path.read_text(encoding="utf-8")
        paragraphs = re.split(r"\n\s*\n|\n(?=\s*(?:-\s|[a-z_]+:\s))", text)
        for para in paragraphs:
            for m in _ROLE.finditer(para):
                sentence = _sentence_before(para[: m.start()])
                for key in (k.strip() for k in m.group(1).split(",")):
                    if (path.stem, sentence) not in out[key]:
                        out[key].append((path.stem, sentence))
    return dict(out)


if __name__ == "__main__":
    for key, where in sorted(badged().items()):
        for aid, sentence in where:
            sys.stdout.write(f"{key}\t{aid}\t{sentence}\n")
