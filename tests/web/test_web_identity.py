"""ByIdentity: values found by their object's identity, never by equality."""

from __future__ import annotations

from mingshu.web.identity import ByIdentity


def test_a_value_is_found_by_its_own_object_only() -> None:
    kept: ByIdentity[bytes, str] = ByIdentity(4)
    body = b"x" * 1000
    twin = bytes(bytearray(body))  # equal bytes, another object
    assert twin == body and twin is not body
    assert kept.get(body) is None
    assert kept.keep(body, "tag") == "tag"
    assert kept.get(body) == "tag"
    assert kept.get(twin) is None


def test_the_oldest_goes_first_at_the_limit() -> None:
    kept: ByIdentity[object, int] = ByIdentity(3)
    objects = [object() for _ in range(5)]
    for i, o in enumerate(objects):
        kept.keep(o, i)
    assert len(kept) == 3
    assert [kept.get(o) for o in objects] == [None, None, 2, 3, 4]
