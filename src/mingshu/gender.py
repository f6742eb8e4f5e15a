"""Gender, shared by both engines: with the year's polarity it sets the direction of the
Zi Wei decades and cycles and of the BaZi luck pillars (男 counts as yang, 女 as yin)."""

from __future__ import annotations

from enum import StrEnum

from mingshu.cycles import Polarity
from mingshu.errors import InputError
from mingshu.named import clip

__all__ = ["Gender"]


class Gender(StrEnum):
    """The chart owner's gender."""

    MALE = "male"
    FEMALE = "female"

    @property
    def polarity(self) -> Polarity:
        return Polarity.YANG if self is Gender.MALE else Polarity.YIN

    @property
    def hans(self) -> str:
        return "男" if self is Gender.MALE else "女"

    @classmethod
    def parse(cls, value: object, field: str = "gender") -> Gender:
        """Read male/female (also m/f, man/woman, 男/女, in any case)."""
        if isinstance(value, Gender):
            return value
        found = _WORDS.get(str(value).strip().lower())
        if found is None:
            raise InputError(field, f"{clip(value)} is not a gender: use male or female (男 / 女)")
        return found

    def __str__(self) -> str:
        return self.hans


_WORDS = {
    **dict.fromkeys(("male", "m", "man", "男"), Gender.MALE),
    **dict.fromkeys(("female", "f", "woman", "女"), Gender.FEMALE),
}
