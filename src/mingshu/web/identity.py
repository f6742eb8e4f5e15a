"""Values kept by the identity of the object they were made from.

For objects that are hashed slowly (a 100 KB body) or not at all, but come back as the very
same object (the LRUs' bodies, a compiled table's shared result): the look-up is an ``id``,
an int.  Each entry holds its object, so while the entry is kept the id names no other
object (an id is reused only after its object is freed).
"""

from __future__ import annotations

from typing import Generic, TypeVar

__all__ = ["ByIdentity"]

T = TypeVar("T")
V = TypeVar("V")


class ByIdentity(Generic[T, V]):
    """At most ``limit`` values by their object's identity; the oldest goes first."""

    __slots__ = ("_entries", "_limit")

    def __init__(self, limit: int) -> None:
        self._entries: dict[int, tuple[T, V]] = {}
        self._limit = limit

    def get(self, obj: T) -> V | None:
        entry = self._entries.get(id(obj))
        return entry[1] if entry is not None and entry[0] is obj else None

    def keep(self, obj: T, value: V) -> V:
        if len(self._entries) >= self._limit:
            # The oldest (in a threaded server another thread may have popped it already).
            self._entries.pop(next(iter(self._entries), 0), None)
        self._entries[id(obj)] = (obj, value)
        return value

    def __len__(self) -> int:
        return len(self._entries)
