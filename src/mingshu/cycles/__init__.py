"""Stems, branches, the sixty-pillar cycle and the five phases, as small value types.

Cyclic values are ``IntEnum`` members, so they index tables directly and compare as
integers, while ``str()`` gives the Chinese character.  Display names (简体, 繁體, pinyin,
English) come from ``cycles.toml``; logic never goes through them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Final, NamedTuple

from mingshu.errors import InputError
from mingshu.named import NamedEnum, Names, attach_names, clip, load_toml

__all__ = [
    "SIXTY",
    "Branch",
    "Element",
    "FourPillars",
    "Names",
    "Pillar",
    "Polarity",
    "Stem",
]


_DATA = load_toml(__package__, "cycles.toml")


def _names(row: dict[str, str]) -> Names:
    return Names(row["hans"], row["hant"], row["pinyin"], row["english"])


class Polarity(IntEnum):
    """Yin or yang (阴阳).  Even-indexed stems and branches are yang."""

    YANG = 0
    YIN = 1

    def __str__(self) -> str:
        return "阳" if self is Polarity.YANG else "阴"


class Element(NamedEnum):
    """The five phases (五行) in generating order: wood → fire → earth → metal → water."""

    WOOD = 0
    FIRE = 1
    EARTH = 2
    METAL = 3
    WATER = 4

    def generates(self) -> Element:
        """The phase this one produces (木生火 …)."""
        return _ELEMENTS[(self + 1) % 5]

    def controls(self) -> Element:
        """The phase this one restrains (木克土 …)."""
        return _ELEMENTS[(self + 2) % 5]


class Stem(NamedEnum):
    """The ten heavenly stems (天干), 甲 = 0 … 癸 = 9."""

    JIA = 0
    YI = 1
    BING = 2
    DING = 3
    WU = 4
    JI = 5
    GENG = 6
    XIN = 7
    REN = 8
    GUI = 9

    @property
    def element(self) -> Element:
        return _ELEMENTS[self // 2]

    @property
    def polarity(self) -> Polarity:
        return _POLARITIES[self % 2]

    def next(self, n: int = 1) -> Stem:
        """The stem ``n`` steps on (negative ``n`` goes back)."""
        return _STEMS[(self + n) % 10]


class Branch(NamedEnum):
    """The twelve earthly branches (地支), 子 = 0 … 亥 = 11."""

    ZI = 0
    CHOU = 1
    YIN = 2
    MAO = 3
    CHEN = 4
    SI = 5
    WU = 6
    WEI = 7
    SHEN = 8
    YOU = 9
    XU = 10
    HAI = 11

    @property
    def animal(self) -> Names:
        """The zodiac animal (生肖) of the branch: 子 → 鼠 / Rat."""
        return _ANIMAL_NAMES[self]

    @property
    def element(self) -> Element:
        return _BRANCH_ELEMENTS[self]

    @property
    def polarity(self) -> Polarity:
        return _POLARITIES[self % 2]

    def next(self, n: int = 1) -> Branch:
        """The branch ``n`` steps forward (子 → 丑 …); negative ``n`` goes back."""
        return _BRANCHES[(self + n) % 12]

    @property
    def opposite(self) -> Branch:
        """The branch across the ring (六冲): 子 ↔ 午."""
        return _BRANCHES[(self + 6) % 12]


# Members by number: an index costs a fraction of an enum call (EnumType.__call__ is Python),
# and charts ask for thousands of them.
_POLARITIES: Final = tuple(Polarity)
_ELEMENTS: Final = tuple(Element)
_STEMS: Final = tuple(Stem)
_BRANCHES: Final = tuple(Branch)


@dataclass(frozen=True, slots=True)
class Pillar:
    """One stem-branch pair of the sixty cycle (干支), e.g. 甲子.

    Only pairs of equal polarity exist; the constructor refuses the others.  The sixty
    pillars are also available ready-made as ``SIXTY`` (甲子 = 0 … 癸亥 = 59).
    """

    stem: Stem
    branch: Branch

    def __post_init__(self) -> None:
        if self.stem % 2 != self.branch % 2:
            raise ValueError(
                f"{Stem(self.stem)}{Branch(self.branch)} is not a pillar: "
                "stem and branch differ in polarity"
            )

    @property
    def index(self) -> int:
        """Position in the sixty cycle: 甲子 = 0 … 癸亥 = 59."""
        return _SIXTY_INDEX[self.stem * 12 + self.branch]

    @classmethod
    def from_index(cls, index: int) -> Pillar:
        return SIXTY[index % 60]

    @classmethod
    def of(cls, stem: int, branch: int) -> Pillar:
        """The pillar of a stem and a branch (a shared instance); ValueError if they differ
        in polarity."""
        index = _SIXTY_INDEX[stem * 12 + branch] if 0 <= stem < 10 and 0 <= branch < 12 else -1
        if index < 0:
            return cls(Stem(stem), Branch(branch))  # raises the polarity error
        return SIXTY[index]

    @classmethod
    def parse(cls, value: object, field: str = "pillar") -> Pillar:
        """A pillar from itself or its two characters (``"甲子"``); :class:`InputError`
        naming ``field`` for anything else (a pair of unequal polarity included)."""
        if isinstance(value, Pillar):
            return value
        if not isinstance(value, str):
            raise InputError(
                field, f"give a Pillar or its two characters (甲子), not {clip(value)}"
            )
        text = value.strip()
        try:
            if len(text) != 2:
                raise InputError(field, "not two characters")
            stem, branch = Stem.parse(text[0], field), Branch.parse(text[1], field)
            if stem % 2 != branch % 2:
                raise InputError(field, "stem and branch differ in polarity")
        except InputError as error:
            raise InputError(
                field, f"{clip(value)} is not a sixty-cycle pillar (甲子 … 癸亥): {error.message}"
            ) from None
        return cls.of(stem, branch)

    def next(self, n: int = 1) -> Pillar:
        return SIXTY[(self.index + n) % 60]

    @property
    def void_branches(self) -> tuple[Branch, Branch]:
        """The two branches left out of this pillar's decade (旬空 / 空亡)."""
        first = (10 + self.branch - self.stem) % 12
        return _BRANCHES[first], _BRANCHES[(first + 1) % 12]

    def __str__(self) -> str:
        return f"{self.stem}{self.branch}"


class FourPillars(NamedTuple):
    """Year, month, day and hour pillars (四柱); ``str()`` gives ``"庚午 辛巳 庚辰 辛巳"``."""

    year: Pillar
    month: Pillar
    day: Pillar
    hour: Pillar

    def __str__(self) -> str:
        return f"{self.year} {self.month} {self.day} {self.hour}"


_ANIMAL_NAMES = tuple(
    Names(r["animal_hans"], r["animal_hant"], r["animal_pinyin"], r["english"])
    for r in _DATA["branch"]
)
_BRANCH_ELEMENTS = tuple(Element[r["element"].upper()] for r in _DATA["branch"])

attach_names(Element, tuple(_names(r) for r in _DATA["element"]))
attach_names(Stem, tuple(_names(r) for r in _DATA["stem"]))
# A branch is also read by its animal (鼠, 鼠 in 繁, "rat" is its English name already).
attach_names(
    Branch,
    tuple(_names(r) for r in _DATA["branch"]),
    [(a.hans, b) for a, b in zip(_ANIMAL_NAMES, Branch, strict=True)]
    + [(a.hant, b) for a, b in zip(_ANIMAL_NAMES, Branch, strict=True)],
)

# 甲子 = 0: stem = n mod 10, branch = n mod 12.
SIXTY: tuple[Pillar, ...] = tuple(Pillar(Stem(n % 10), Branch(n % 12)) for n in range(60))
_SIXTY_INDEX = [-1] * 120
for _n in range(60):
    _SIXTY_INDEX[(_n % 10) * 12 + _n % 12] = _n
