"""The chart's frame as the library's kinds need it: the four transformations (四化) by year
stem, read off charts of each stem, the five-element class (五行局) by year stem and
Life palace, and the Life and Body masters (命主, 身主); every value is the engine's at
call time.

A year of each stem is charted by :func:`mingshu.library.engine.stem_chart` (1984 甲子 + the
stem, mid-year, far from the year boundaries); a transformation is a star's natal
``mutagen`` on that chart.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from functools import cache
from typing import Any, Final

from mingshu.cycles import Stem
from mingshu.errors import InputError
from mingshu.library.engine import Options, Table, parse_stem, star_name, stem_chart

__all__ = [
    "MUTAGENS",
    "chart_masters",
    "class_grid_table",
    "class_lives",
    "class_of",
    "five_class",
    "master_branches",
    "master_by",
    "masters_table",
    "mutagen_index",
    "mutagen_star",
    "mutagen_stars_table",
    "mutagen_stems",
    "mutagen_table",
    "no_mutagen",
    "stem_mutagens",
]

MUTAGENS: Final = ("lu", "quan", "ke", "ji")
"""The four transformations in order: 禄 权 科 忌."""


def mutagen_index(value: object) -> int:
    """0 … 3 for a transformation written as its key (lu), 简体 (禄) or English."""
    from mingshu.ziwei.stars import Mutagen

    text = str(value).strip().lower()
    for m in Mutagen:
        if text in (m.key, m.names.hans, m.names.hant, m.names.english.lower()):
            return int(m)
    raise InputError("mutagen", f"{value!r} is not a transformation (lu, quan, ke, ji)")


def _label(m: int) -> str:
    """ "Hua Lu (禄)": the pinyin without tone marks, as the articles write it."""
    from mingshu.ziwei.stars import Mutagen

    names = Mutagen(m).names
    plain = "".join(
        c for c in unicodedata.normalize("NFD", names.pinyin) if not unicodedata.combining(c)
    )
    return f"Hua {plain.capitalize()} ({names.hans})"


@cache
def stem_mutagens(stem: int) -> tuple[str, ...]:
    """The star keys a year of ``stem`` transforms, in the order 禄 权 科 忌 (from the
    chart; an empty place where the chart has none)."""
    chart: Any = stem_chart(stem)
    found = {
        int(p.mutagen): p.star.key
        for pal in chart.palaces
        for p in pal.stars
        if p.mutagen is not None
    }
    return tuple(found.get(m, "") for m in range(4))


def _stem_cell(stem: int) -> str:
    s = Stem(stem)
    return f"{s.names.hans} {s.names.english}"


def mutagen_table(options: Options) -> Table:
    """Each year stem and the stars it transforms into 禄 权 科 忌."""
    rows = tuple(
        (_stem_cell(stem), *(star_name(k) if k else "–" for k in stem_mutagens(stem)))
        for stem in range(10)
    )
    return Table(("Year stem", *(_label(m) for m in range(4))), rows)


def mutagen_stars_table(options: Options) -> Table:
    """Each star some stem transforms, with the stems (甲 … 癸) giving it each of 禄 权 科
    忌, in the engine's star order."""
    from mingshu import ziwei

    by_star: dict[str, list[list[str]]] = {}
    for stem in range(10):
        for m, key in enumerate(stem_mutagens(stem)):
            if key:
                by_star.setdefault(key, [[] for _ in range(4)])[m].append(Stem(stem).names.hans)
    order = [s.key for s in ziwei.STARS if s.key in by_star]
    rows = tuple(
        (
            star_name(k),
            *(" ".join(cell) or "–" for cell in by_star[k]),
            str(sum(map(len, by_star[k]))),
        )
        for k in order
    )
    return Table(("Star", *(_label(m) for m in range(4)), "Stems"), rows)


def mutagen_star(q: Options) -> str:
    """The star a year of ``year_stem`` transforms into ``mutagen``."""
    key = stem_mutagens(parse_stem(q["year_stem"]))[mutagen_index(q["mutagen"])]
    return star_name(key) if key else "none"


def mutagen_stems(q: Options) -> tuple[str, ...]:
    """Every year stem that transforms ``star`` into ``mutagen``, 甲 … 癸."""
    star, m = str(q["star"]), mutagen_index(q["mutagen"])
    star_name(star)  # an unknown star is an InputError
    return tuple(Stem(s).names.english for s in range(10) if stem_mutagens(s)[m] == star)


def no_mutagen(stars: Sequence[str]) -> tuple[int, int]:
    """On the chart of a year of every stem, none of ``stars`` carries a transformation,
    and the chart carries exactly four."""
    bad = 0
    for stem in range(10):
        keys = stem_mutagens(stem)
        bad += any(k in stars for k in keys) + (sum(bool(k) for k in keys) != 4)
    return bad, 10


# ------------------------------------------------------- the five-element class (五行局)

_PAIRS: Final = ("甲己", "乙庚", "丙辛", "丁壬", "戊癸")
"""Year stems that start the palace stems alike (起五行寅例), so give one row."""


@cache
def _class_chart(stem: int, life: int) -> Any:
    """A chart of a year of ``stem`` whose Life palace is on ``life``: the month that puts
    it there at the Rat hour (Life = Tiger + month − 1)."""
    from mingshu import ziwei

    month = (life - 2) % 12 + 1
    return ziwei.by_lunar(f"{1984 + stem}-{month:02d}-01", 0, "male")


def class_of(stem: int, life: int) -> Any:
    """The five-element class of a chart of a year of ``stem`` with the Life palace on
    ``life``."""
    chart = _class_chart(stem, life)
    if int(chart.life_branch) != life:
        raise RuntimeError(f"no chart with the Life palace on {life}")
    return chart.five_elements_class


def _class_text(klass: Any) -> str:
    return str(klass.names.english)


def class_grid_table(options: Options) -> Table:
    """The class for each pair of year stems (rows) and each pair of Life branches
    (columns, 子丑 … 戌亥); a cell whose two stems or two branches part shows both."""
    from mingshu.library.engine import branch_name

    rows = []
    for p, pair in enumerate(_PAIRS):
        cells = []
        for b in range(0, 12, 2):
            found = {_class_text(class_of(s, life)) for s in (p, p + 5) for life in (b, b + 1)}
            cells.append(" / ".join(sorted(found)))
        rows.append((pair, *cells))
    heads = tuple(f"{branch_name(b)}–{branch_name(b + 1)}" for b in range(0, 12, 2))
    return Table(("Year stems", *heads), tuple(rows))


def five_class(q: Options) -> str:
    """The class of a chart of a year of ``year_stem`` with the Life palace on ``life``."""
    from mingshu.library.engine import branch_number

    return _class_text(class_of(parse_stem(q["year_stem"]), branch_number(q["life"], "life")))


def class_lives(q: Options) -> tuple[str, ...]:
    """Every Life palace branch that gives a year of ``year_stem`` the class ``klass``
    (its English name, "Fire 6", or its number)."""
    from mingshu.library.engine import branch_name

    stem, want = parse_stem(q["year_stem"]), str(q["klass"]).strip().lower()
    names = {_class_text(class_of(stem, b)).lower() for b in range(12)}
    numbers = {n.split()[-1] for n in names}
    if want not in names | numbers:
        raise InputError("klass", f"{q['klass']!r} is not a class (Water 2 … Fire 6)")
    return tuple(
        branch_name(b)
        for b in range(12)
        if want in (_class_text(class_of(stem, b)).lower(), str(int(class_of(stem, b))))
    )


# ------------------------------------------------------- the Life and Body masters


_MASTER_BY: Final = ("life", "year")


def _master(chart: Any, which: str) -> Any:
    if which not in ("life", "body"):
        raise InputError("which", f"{which!r}: write life or body")
    return chart.life_master if which == "life" else chart.body_master


def _by_branch(chart: Any, by: str) -> int:
    if by not in _MASTER_BY:
        raise InputError("by", f"{by!r}: write life (the Life palace) or year (the year branch)")
    return int(chart.life_branch if by == "life" else chart.pillars.year.branch)


def master_by(which: str, by: str, stars: Sequence[str], algorithm: str = "") -> tuple[int, int]:
    """Over every chart of the cycles' walk (sixty years × twelve months × both genders),
    the ``which`` master (life or body) is ``stars[b]``, b the branch ``by`` names (the Life
    palace's or the year's)."""
    from mingshu.library.god_cycles import walk

    if len(stars) != 12:
        raise InputError("stars", "give twelve stars, one per branch 子 … 亥")
    bad = n = 0
    for chart in walk("iztro", algorithm):
        n += 1
        bad += _master(chart, which).key != stars[_by_branch(chart, by)]
    return bad, n


def masters_table(options: Options) -> Table:
    """Each branch with the Life master of a Life palace there and the Body master of a
    year of that branch (under ``algorithm``), over every chart of the walk."""
    from mingshu.library.engine import branch_name
    from mingshu.library.god_cycles import walk

    life: dict[int, set[str]] = {}
    body: dict[int, set[str]] = {}
    for chart in walk("iztro", str(options.get("algorithm", ""))):
        life.setdefault(int(chart.life_branch), set()).add(star_name(chart.life_master.key))
        body.setdefault(int(chart.pillars.year.branch), set()).add(star_name(chart.body_master.key))
    rows = tuple(
        (branch_name(b), " / ".join(sorted(life[b])), " / ".join(sorted(body[b])))
        for b in range(12)
    )
    return Table(("Branch", "Life master (Life palace here)", "Body master (year here)"), rows)


def chart_masters(q: Options) -> str:
    """ "Life master X; Body master Y" for a lunar birth (``algorithm`` optional)."""
    from mingshu.library.god_cycles import birth_chart

    chart = birth_chart({"school": "iztro", **q})
    life, body = star_name(chart.life_master.key), star_name(chart.body_master.key)
    return f"Life master {life}; Body master {body}"


def master_branches(q: Options) -> tuple[str, ...]:
    """Every branch whose Life palace (``which: life``) or year (``which: body``) gives
    ``star`` as that master, under ``algorithm``; the Life master under 中州 rules reads the
    year."""
    from mingshu.library.engine import branch_name
    from mingshu.library.god_cycles import walk

    which, star = str(q.get("which", "life")), str(q["star"])
    star_name(star)  # an unknown star is an InputError
    algorithm = str(q.get("algorithm", ""))
    by = "year" if which == "body" or algorithm == "zhongzhou" else "life"
    found = {_by_branch(c, by) for c in walk("iztro", algorithm) if _master(c, which).key == star}
    return tuple(branch_name(b) for b in sorted(found))
