"""The BaZi rule tables, read once from ``bazi/data/*.toml`` into integer-indexed tuples.

Every table names its source in its data file.  The loaders run at import; afterwards the
tables never change, and every lookup in the engine is an index into a tuple (no parsing and
no display strings at call time).

Value types defined here: :class:`TenGod`, :class:`HiddenRole`, :class:`HiddenStem`,
:class:`Nayin`, :class:`Stage`, :class:`Source`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from mingshu.cycles import SIXTY, Branch, Element, Names, Pillar, Stem
from mingshu.named import load_toml

__all__ = [
    "BRANCH_COMBINE",
    "GODS",
    "HIDDEN",
    "HIDDEN_ROLES",
    "NAYIN",
    "NAYIN_OF",
    "STAGES",
    "STEM_COMBINE",
    "TEN_GOD",
    "HiddenRole",
    "HiddenStem",
    "Nayin",
    "Source",
    "Stage",
    "TenGod",
    "chang_sheng_table",
    "load",
    "names_of",
    "stage_table",
    "ten_god",
]


def load(name: str) -> dict[str, Any]:
    """Parse ``bazi/data/<name>`` (TOML)."""
    return load_toml(__package__, "data", name)


def names_of(row: dict[str, Any]) -> Names:
    return Names(row["hans"], row["hant"], row["pinyin"], row["english"])


class Source(NamedTuple):
    """Where a table comes from.

    ``status``: ``primary`` (read in a transcription of the book), ``secondary`` (the book as
    quoted elsewhere, or a modern edition of it), ``seed`` (reading of a seed article),
    ``attributed`` (attribution not verified), ``unsourced`` (a convention with no text found),
    ``convention`` (the practice of apps, no text found), ``library`` (taken from and tested
    against a reference library).

    ``passage`` is the book's own words, short and verbatim; ``file`` and ``line`` say where
    it starts in the transcriptions of ``../shared/sources`` (a test reads it in the cited
    lines the repository ships in ``sources/``), and
    ``page`` the 四库 page marker where the file has one.
    """

    status: str
    book: str = ""
    juan: str = ""
    chapter: str = ""
    verse: str = ""
    note: str = ""
    spec: str = ""
    passage: str = ""
    file: str = ""
    line: int = 0
    page: str = ""
    cells: str = ""
    """The table cells (basis values, space-separated) the passage states, where it states
    only some; empty: all of them."""

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Source:
        return cls(
            status=row["status"],
            book=row.get("book", ""),
            juan=row.get("juan", ""),
            chapter=row.get("chapter", ""),
            verse=row.get("verse", ""),
            note=row.get("note", ""),
            spec=row.get("spec", ""),
            passage=row.get("passage", ""),
            file=row.get("file", ""),
            line=int(row.get("line", 0)),
            page=row.get("page", ""),
            cells=row.get("cells", ""),
        )

    def citation(self) -> str:
        """Book, juan and chapter in one line (``三命通会 卷三「论十干禄」``); without a book,
        the opening of the verse; else the status (``unsourced``)."""
        text = " ".join(part for part in (self.book, self.juan) if part)
        if self.chapter:
            text += f"「{self.chapter}」"
        if not text and self.verse:
            opening = self.verse.split("，")[0]
            text = f"verse「{opening}…」"
        return text or self.status

    def as_dict(self) -> dict[str, str | int]:
        return {k: v for k, v in self._asdict().items() if v}


# ------------------------------------------------------------------------------ ten gods


class TenGod(NamedTuple):
    """One of the ten gods (十神), e.g. 食神 (``shi_shen``, Eating God)."""

    number: int
    key: str
    names: Names

    def __str__(self) -> str:
        return self.names.hans


def _load_gods() -> tuple[tuple[TenGod, ...], tuple[TenGod, ...], Source]:
    data = load("ten_gods.toml")
    gods = tuple(TenGod(i, row["key"], names_of(row)) for i, row in enumerate(data["god"]))
    by_key = {g.key: g for g in gods}
    table: list[TenGod | None] = [None] * 100
    for stem_text, row in data["table"].items():
        master = Stem.parse(stem_text)
        if len(row) != 10:
            raise RuntimeError(f"ten_gods.toml: row {stem_text} has {len(row)} cells, not 10")
        for other, key in enumerate(row):
            table[master * 10 + other] = by_key[key]
    if any(cell is None for cell in table):
        raise RuntimeError("ten_gods.toml: the table is incomplete")
    return gods, tuple(g for g in table if g is not None), Source.from_row(data["source"])


GODS, TEN_GOD, TEN_GOD_SOURCE = _load_gods()
"""``GODS``: the ten gods in key order; ``TEN_GOD[day_master * 10 + stem]``: the god of a stem."""


def ten_god(day_master: Stem, stem: Stem) -> TenGod:
    """Ten god of ``stem`` seen from ``day_master``: ``ten_god(庚, 辛)`` is 劫财 (members or
    names)."""
    return TEN_GOD[Stem.parse(day_master, "day_master") * 10 + Stem.parse(stem, "stem")]


# ------------------------------------------------------------------------- hidden stems


class HiddenRole(NamedTuple):
    """Role of a hidden stem: 本气 ``main``, 中气 ``middle``, 余气 ``residual``."""

    number: int
    key: str
    names: Names

    def __str__(self) -> str:
        return self.names.hans


class HiddenStem(NamedTuple):
    """A stem hidden in a branch, with its role and its ten god towards the Day Master."""

    stem: Stem
    role: HiddenRole
    ten_god: TenGod


def _load_hidden() -> tuple[
    tuple[HiddenRole, ...], tuple[tuple[tuple[Stem, HiddenRole], ...], ...], Source
]:
    data = load("hidden_stems.toml")
    roles = tuple(HiddenRole(i, r["key"], names_of(r)) for i, r in enumerate(data["role"]))
    table: list[tuple[tuple[Stem, HiddenRole], ...]] = [()] * 12
    for branch_text, stems in data["table"].items():
        branch = Branch.parse(branch_text)
        table[branch] = tuple((Stem.parse(c), roles[i]) for i, c in enumerate(stems))
    if not all(table):
        raise RuntimeError("hidden_stems.toml: a branch has no hidden stems")
    return roles, tuple(table), Source.from_row(data["source"])


HIDDEN_ROLES, HIDDEN, HIDDEN_SOURCE = _load_hidden()
"""``HIDDEN[branch]``: ((stem, role), …) main first."""


# -------------------------------------------------------------------------------- nayin


class Nayin(NamedTuple):
    """One of the thirty nayin (纳音), e.g. 海中金 for 甲子 and 乙丑."""

    number: int
    key: str
    names: Names
    element: Element

    def __str__(self) -> str:
        return self.names.hans


def _load_nayin() -> tuple[tuple[Nayin, ...], Source]:
    data = load("nayin.toml")
    rows = data["nayin"]
    out = []
    for i, row in enumerate(rows):
        pair = row["pair"]
        first, second = Pillar.parse(pair[:2]), Pillar.parse(pair[2:])
        if (first.index, second.index) != (2 * i, 2 * i + 1):
            raise RuntimeError(f"nayin.toml: entry {i + 1} ({pair}) is out of order")
        out.append(Nayin(i, row["key"], names_of(row), Element[row["element"].upper()]))
    if len(out) != 30:
        raise RuntimeError("nayin.toml: there must be 30 nayin")
    return tuple(out), Source.from_row(data["source"])


NAYIN, NAYIN_SOURCE = _load_nayin()
NAYIN_OF: tuple[Nayin, ...] = tuple(NAYIN[p.index // 2] for p in SIXTY)
"""``NAYIN_OF[pillar.index]``: the nayin of a pillar."""


# ---------------------------------------------------------------------- growth stages


class Stage(NamedTuple):
    """One of the twelve growth stages (十二长生), e.g. 长生 (``chang_sheng``)."""

    number: int
    key: str
    names: Names

    def __str__(self) -> str:
        return self.names.hans


def _load_stages() -> tuple[tuple[Stage, ...], dict[tuple[str, str], tuple[Branch, ...]], Source]:
    data = load("stages.toml")
    stages = tuple(Stage(i, r["key"], names_of(r)) for i, r in enumerate(data["stage"]))
    starts: dict[tuple[str, str], tuple[Branch, ...]] = {}
    for earth, by_yin in data["chang_sheng"].items():
        for yin, text in by_yin.items():
            if len(text) != 10:
                raise RuntimeError(f"stages.toml: chang_sheng.{earth}.{yin} needs 10 branches")
            starts[(earth, yin)] = tuple(Branch.parse(c) for c in text)
    return stages, starts, Source.from_row(data["source"])


STAGES, _CHANG_SHENG, STAGE_SOURCE = _load_stages()


def chang_sheng_table(earth: str, yin: str) -> tuple[Branch, ...]:
    """长生 branch of each stem under an earth rule and a yin rule (keys of stages.toml)."""
    return _CHANG_SHENG[(earth, yin)]


def stage_table(earth: str, yin: str) -> tuple[Stage, ...]:
    """``table[stem * 12 + branch]``: growth stage of ``stem`` on ``branch``.

    Yang stems count forward from their 长生; yin stems count backward when ``yin`` is
    ``"backward"`` (阳顺阴逆) and forward, on their yang partner's cycle, when ``"forward"``.
    """
    starts = _CHANG_SHENG[(earth, yin)]
    out = []
    for stem in Stem:
        back = yin == "backward" and stem % 2 == 1
        for branch in Branch:
            steps = (starts[stem] - branch) if back else (branch - starts[stem])
            out.append(STAGES[steps % 12])
    return tuple(out)


# ----------------------------------------------------------------------- combinations


def _load_relations() -> tuple[tuple[Stem, ...], tuple[Branch, ...], Source]:
    data = load("relations.toml")
    stems: list[Stem | None] = [None] * 10
    for pair in data["stem_combine"]:
        a, b = Stem.parse(pair[0]), Stem.parse(pair[1])
        stems[a], stems[b] = b, a
    branches: list[Branch | None] = [None] * 12
    for pair in data["branch_combine"]:
        a2, b2 = Branch.parse(pair[0]), Branch.parse(pair[1])
        branches[a2], branches[b2] = b2, a2
    if None in stems or None in branches:
        raise RuntimeError("relations.toml: every stem and branch needs a partner")
    return (
        tuple(s for s in stems if s is not None),
        tuple(b for b in branches if b is not None),
        Source.from_row(data["source"]),
    )


STEM_COMBINE, BRANCH_COMBINE, RELATIONS_SOURCE = _load_relations()
"""``STEM_COMBINE[stem]``: its 五合 partner; ``BRANCH_COMBINE[branch]``: its 六合 partner."""
