"""The twelve growth stages (十二长生) as tables and answers: each stem's stage on each branch.

Every cell comes from the BaZi engine (:func:`mingshu.bazi.stage`, read from
``bazi/data/stages.toml``) under the settings a table or problem names (``earth``:
``fire_earth`` or ``water_earth``; ``yin``: ``backward`` or ``forward``; the engine's
defaults when left out), so one article can set two conventions side by side.
"""

from __future__ import annotations

from typing import Any, Final

from mingshu.cycles import Branch, Stem
from mingshu.errors import InputError
from mingshu.library.engine import Options, Table, branch_name, parse_stem, stem_name

__all__ = [
    "CONVENTIONS",
    "births_table",
    "grid_table",
    "p_stage",
    "p_stage_branches",
    "stage_key",
    "stage_label",
]

CONVENTIONS: Final = (
    ("fire_earth", "backward", "Earth with Fire, yin backward (default)"),
    ("fire_earth", "forward", "Earth with Fire, yin forward"),
    ("water_earth", "backward", "Earth with Water, yin backward"),
    ("water_earth", "forward", "Earth with Water, yin forward"),
)
"""The four growth-stage conventions the engine offers: (earth rule, yin rule, heading)."""


def settings_of(options: Options) -> Any:
    """The BaZi settings an article's ``earth`` and ``yin`` parameters name (an unknown
    value is the settings' own :class:`InputError`)."""
    from mingshu.bazi import BaziSettings

    fields = {}
    if "earth" in options:
        fields["stage_earth"] = str(options["earth"])
    if "yin" in options:
        fields["stage_yin"] = str(options["yin"])
    return BaziSettings().replace(**fields)


def stage_key(stem: int, branch: int, settings: Any) -> str:
    from mingshu import bazi

    return str(bazi.stage(Stem(stem), Branch(branch), settings).key)


def stage_label(key: str) -> str:
    """A stage as the articles name it: ``Birth (长生)``."""
    from mingshu.bazi.tables import STAGES

    for stage in STAGES:
        if stage.key == key:
            return f"{stage.names.english} ({stage.names.hans})"
    raise InputError(
        "stage", f"{key!r} is not one of the twelve stages ({', '.join(s.key for s in STAGES)})"
    )


def grid_table(options: Options) -> Table:
    """Each stem (rows) on each branch (columns): its stage, in Chinese, under ``earth`` and
    ``yin``; ``mark`` (a stage's key) marks its cells."""
    settings = settings_of(options)
    mark = str(options.get("mark", ""))
    if mark:
        stage_label(mark)  # an unknown key is refused, not silently unmarked
    from mingshu import bazi

    rows, marked = [], set()
    for r, stem in enumerate(Stem):
        cells = []
        for c, branch in enumerate(Branch, start=1):
            stage = bazi.stage(stem, branch, settings)
            cells.append(str(stage.names.hans))
            if stage.key == mark:
                marked.add((r, c))
        rows.append((f"{stem_name(int(stem))} ({stem.names.hans})", *cells))
    return Table(
        # The branches by their characters: twelve animal names would not fit a 1280 px column.
        ("Stem", *(str(b.names.hans) for b in Branch)),
        tuple(rows),
        frozenset(marked),
        stage_label(mark) if mark else "",
    )


def _branches_of(stem: int, key: str, settings: Any) -> tuple[int, ...]:
    return tuple(b for b in range(12) if stage_key(stem, b, settings) == key)


def births_table(options: Options) -> Table:
    """Each stem (rows): the branch of ``stage`` (default Birth) under each of the four
    conventions (columns), marked where it differs from the engine's default."""
    from mingshu.bazi import BaziSettings

    key = str(options.get("stage", "chang_sheng"))
    stage_label(key)
    default = BaziSettings()
    rows, marked = [], set()
    for r, stem in enumerate(Stem):
        base = _branches_of(int(stem), key, default)
        cells = []
        for c, (earth, yin, _head) in enumerate(CONVENTIONS, start=1):
            found = _branches_of(int(stem), key, default.replace(stage_earth=earth, stage_yin=yin))
            cells.append(", ".join(branch_name(b) for b in found))
            if found != base:
                marked.add((r, c))
        rows.append((f"{stem_name(int(stem))} ({stem.names.hans})", *cells))
    heads = (head for _earth, _yin, head in CONVENTIONS)
    return Table(("Stem", *heads), tuple(rows), frozenset(marked), "differs from the default")


def p_stage(q: Options) -> str:
    """The stage of ``stem`` on ``branch`` under ``earth`` and ``yin``."""
    from mingshu.library.engine import branch_number

    settings = settings_of(q)
    return stage_label(stage_key(parse_stem(q["stem"]), branch_number(q["branch"]), settings))


def p_stage_branches(q: Options) -> tuple[str, ...]:
    """Every branch on which ``stem`` is at ``stage`` (a key) under ``earth`` and ``yin``."""
    key = str(q["stage"])
    stage_label(key)
    return tuple(branch_name(b) for b in _branches_of(parse_stem(q["stem"]), key, settings_of(q)))
