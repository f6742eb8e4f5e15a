"""Compare an iztro reference record with ours, field by field.

The expected record is a fixture ``output`` (``tests/fixtures/iztro-2.6.0/README.md``); ours
has the same shape (``chart`` and, with a horoscope, ``horoscope``).  Every field present in
the expected record is compared; fields only we have are ignored.  Mismatch paths read like
``chart.palaces[3].adjectiveStars``, ``horoscope.yearly.stars[2]``, ``horoscope.decadal.mutagen``.

How deep the comparison goes:

- objects are compared key by key, and lists of objects (the palaces) item by item;
- every other list is one value, compared whole and in order: the star lists of a palace
  (iztro's order is part of its output), ``ages``, ``decadal``, ``lunar``, ``palaceNames``,
  ``mutagen``, ``yearlyDecStar.suiqian12`` / ``jiangqian12``;
- except a horoscope layer's ``stars``: one value per palace (``stars[i]``);
- ``solarDate`` strings compare as dates (iztro writes "2000-8-16" unpadded);
- ``true`` never equals ``1``: booleans match booleans only.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final, TypedDict

__all__ = ["NOT_ENGINE_OUTPUT", "Mismatch", "collapse_path", "compare", "same_value"]


class Mismatch(TypedDict):
    """One differing field: where, what iztro says, what we say (None: we lack it)."""

    path: str
    expected: Any
    got: Any


# Top-level keys of a reference record that are not chart output: the record's id and status,
# iztro's version and the effective-config echo.
NOT_ENGINE_OUTPUT: Final = frozenset({"id", "ok", "iztro", "config"})
# Lists compared item by item although their items are not objects.
_PER_ITEM_LISTS: Final = frozenset({"stars"})
_DATE_KEYS: Final = frozenset({"solarDate"})
_DATE_RE: Final = re.compile(r"^\s*(-?\d+)-(\d{1,2})-(\d{1,2})\s*$")
_INDEX_RE: Final = re.compile(r"\[\d+\]")
_MISSING: Final = object()


def collapse_path(path: str) -> str:
    """The field of a path: ``chart.palaces[3].majorStars`` → ``chart.palaces[].majorStars``."""
    return _INDEX_RE.sub("[]", path)


def same_value(a: Any, b: Any) -> bool:
    """JSON equality, except that booleans equal only booleans (``True != 1``).

    Tuples count as lists, so an engine may return star tuples.
    """
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(same_value(a[k], b[k]) for k in a)
    return type(a) is type(b) and bool(a == b)


def _as_date(value: Any) -> tuple[int, int, int] | None:
    if not isinstance(value, str):
        return None
    m = _DATE_RE.match(value)
    return (int(m[1]), int(m[2]), int(m[3])) if m else None


def _is_object_list(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


class _Comparer:
    def __init__(self) -> None:
        self.mismatches: list[Mismatch] = []

    def differ(self, path: str, expected: Any, got: Any) -> None:
        self.mismatches.append({"path": path, "expected": expected, "got": got})

    def value(self, key: str | None, path: str, expected: Any, got: Any) -> None:
        if got is _MISSING:
            self.differ(path, expected, None)
        elif key in _DATE_KEYS and _as_date(expected) is not None:
            if _as_date(expected) != _as_date(got):
                self.differ(path, expected, got)
        elif isinstance(expected, dict):
            if isinstance(got, Mapping):
                self.mapping(path, expected, got)
            else:
                self.differ(path, expected, got)
        elif (
            _is_object_list(expected) or (key in _PER_ITEM_LISTS and isinstance(expected, list))
        ) and isinstance(got, list | tuple):
            self.items(path, expected, got)
        elif not same_value(expected, got):
            self.differ(path, expected, got)

    def mapping(
        self,
        prefix: str,
        expected: Mapping[str, Any],
        got: Mapping[str, Any],
        skip: frozenset[str] = frozenset(),
    ) -> None:
        for key, exp in expected.items():
            if key not in skip:
                path = f"{prefix}.{key}" if prefix else key
                self.value(key, path, exp, got.get(key, _MISSING))

    def items(self, path: str, expected: Sequence[Any], got: Sequence[Any]) -> None:
        for i in range(max(len(expected), len(got))):
            item_path = f"{path}[{i}]"
            if i >= len(got):
                self.differ(item_path, expected[i], None)
            elif i >= len(expected):
                self.differ(item_path, None, got[i])
            elif isinstance(expected[i], dict):
                self.value(None, item_path, expected[i], got[i])
            elif not same_value(expected[i], got[i]):
                self.differ(item_path, expected[i], got[i])


def compare(expected: Mapping[str, Any], got: Mapping[str, Any]) -> list[Mismatch]:
    """Every field of the iztro record ``expected`` that ours (``got``) does not match.

    Top-level keys in :data:`NOT_ENGINE_OUTPUT` are skipped; a field we lack is reported with
    ``got`` = None; list-length differences are reported per missing or extra item.
    """
    comparer = _Comparer()
    comparer.mapping("", expected, got, skip=NOT_ENGINE_OUTPUT)
    return comparer.mismatches
