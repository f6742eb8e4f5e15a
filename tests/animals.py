"""The twelve branches as the articles name them, Rat (子) first: typed here once, an outside
list the library's tables and answers are compared with (never read from the engine)."""

from __future__ import annotations

BRANCHES = "子丑寅卯辰巳午未申酉戌亥"
ANIMALS = (
    "Rat",
    "Ox",
    "Tiger",
    "Rabbit",
    "Dragon",
    "Snake",
    "Horse",
    "Goat",
    "Monkey",
    "Rooster",
    "Dog",
    "Pig",
)
ANIMAL_OF = dict(zip(BRANCHES, ANIMALS, strict=True))
"""子 -> Rat … 亥 -> Pig."""
